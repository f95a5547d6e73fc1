//! What a learning agent sees: board planes over the action space's window plus a vector of
//! counts, both from the point of view of one player (seats are numbered from that player
//! on, so one policy can play every seat). Layout: docs/environments.md.
//!
//! The base game's slots are declared here, each expansion's in its module
//! (`expansions::layout`); the layout places them all by rank and this module writes the base
//! game's part, each expansion its own through the `Observe` sink.

use crate::engine::features::{unpack_figure, Role, NO_FIGURE};
use crate::engine::moves::Move;
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::{Phase, State, NONE16};
use crate::engine::tiles::{EdgeKind, SegmentKind, NO_SEG};
use crate::expansions;
use crate::expansions::layout::{Len, Observe, Part, Slot};
use crate::learning::action_space::{ActionSpace, Frame};

// The base game's board planes: (slot, planes).
const C_TILE: Slot = Slot::new("tile", 0);
const C_OPEN: Slot = Slot::new("open", 1);
/// The drawn tile has a legal placement here.
const C_FITS: Slot = Slot::new("fits", 2);
/// Edge kind one-hot per side: 4 * side + kind (field, road, city, river).
const C_EDGE: Slot = Slot::new("edge", 3);
const C_MONASTERY: Slot = Slot::new("monastery", 4);
/// Coats of arms on the tile.
const C_PENNANTS: Slot = Slot::new("pennants", 10);
/// Per side: open edges of the road or city crossing that side (0 when complete or none).
const C_OPEN_EDGES: Slot = Slot::new("open_edges", 11);
/// Per side: 1 when the road or city crossing that side is complete.
const C_COMPLETE: Slot = Slot::new("complete", 12);
/// Per side: points the road or city crossing that side is worth now (capped at 255).
const C_POINTS: Slot = Slot::new("points", 13);
/// Points the monastery or garden on the tile is worth now.
const C_CLOISTER_POINTS: Slot = Slot::new("cloister_points", 14);
/// Figures: the roles' planes of each seat, seat 0 being the observer; last of the planes.
const C_FIGURES: Slot = Slot::new("figures", 16);
const BASE_CHANNELS: [(Slot, usize); 10] = [
    (C_TILE, 1),
    (C_OPEN, 1),
    (C_FITS, 1),
    (C_EDGE, 16),
    (C_MONASTERY, 1),
    (C_PENNANTS, 1),
    (C_OPEN_EDGES, 4),
    (C_COMPLETE, 4),
    (C_POINTS, 4),
    (C_CLOISTER_POINTS, 1),
];

/// The meeple's plane (value: 1 city, 2 road, 3 field, 4 monastery, 5 garden, 6 tent, 7
/// other); another role of the engine is shown on the plane named as it (1 where it stands).
const R_MEEPLE: Slot = Slot::new("meeple", 0);
const S_MEEPLES: Slot = Slot::new("meeples", 0);
const M_TILES_LEFT: Slot = Slot::new("tiles_left", 0);
pub const PHASES: [&str; 4] = ["place", "farmer", "choose", "over"];

// The vector's parts of the base game; the lengths of scores, supply, miscellany and overflow
// depend on the players, the declarations and the action space (given in `ObsSpec::new`).
const V_SCORES: Part = Part::new("scores", 0, Len::Fixed(0));
const V_SUPPLY: Part = Part::new("supply", 1, Len::Fixed(0));
const V_BAG: Part = Part::new("bag", 2, Len::TileTypes);
const V_DRAWN: Part = Part::new("drawn", 3, Len::TileTypes);
const V_PHASE: Part = Part::new("phase", 5, Len::Fixed(PHASES.len()));
const V_MISC: Part = Part::new("misc", 6, Len::Fixed(0));
const V_OVERFLOW: Part = Part::new("overflow", 8, Len::Fixed(0));

/// Ranks are small (today's places, then a few more): counters and look-ups are by rank.
const MAX_RANK: usize = 64;

/// The slots of one kind placed one after another in rank order.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Each slot's name, first entry and number of entries, in order.
    pub slots: Vec<(&'static str, usize, usize)>,
    /// First entry of the slot of each rank.
    at: Vec<usize>,
    /// Entries in all.
    pub len: usize,
}

impl Placed {
    fn new(mut slots: Vec<(Slot, usize)>) -> Placed {
        slots.sort_by_key(|(s, _)| s.rank);
        let mut at = vec![usize::MAX; MAX_RANK];
        let mut placed = Vec::with_capacity(slots.len());
        let mut len = 0;
        for (i, &(s, n)) in slots.iter().enumerate() {
            assert!(
                (s.rank as usize) < MAX_RANK,
                "slot {} ranks {} (below {MAX_RANK})",
                s.name,
                s.rank
            );
            assert!(
                i == 0 || slots[i - 1].0.rank != s.rank,
                "slots {} and {} share rank {}",
                slots[i - 1].0.name,
                s.name,
                s.rank
            );
            at[s.rank as usize] = len;
            placed.push((s.name, len, n));
            len += n;
        }
        Placed {
            slots: placed,
            at,
            len,
        }
    }

    /// First entry of slot `s` (declared by the base game or an expansion).
    #[inline]
    pub fn at(&self, s: Slot) -> usize {
        self.at[s.rank as usize]
    }

    /// The slots' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.slots.iter().map(|e| e.0).collect()
    }
}

#[derive(Clone, Debug)]
pub struct ObsSpec {
    pub players: usize,
    pub window: usize,
    pub channels: usize,
    pub tile_types: usize,
    /// Catalogue index -> position among the tile types in play (u16::MAX when not in play).
    pub type_slot: Vec<u16>,
    pub overflow: usize,
    /// The board planes (the figures' last: `roles.len` per seat).
    pub planes: Placed,
    /// Figure planes of one seat.
    pub roles: Placed,
    /// One player's supply entries.
    pub supply: Placed,
    pub misc: Placed,
    /// The vector's parts.
    pub parts: Placed,
    /// Figure plane of each engine role but the meeple (`Role as usize`), if one is declared.
    role_plane: [Option<usize>; Role::ALL.len()],
    /// Offsets of the base game's vector parts.
    v_scores: usize,
    v_supply: usize,
    v_bag: usize,
    v_drawn: usize,
    v_phase: usize,
    v_misc: usize,
    v_overflow: usize,
    pub vector: usize,
}

impl ObsSpec {
    pub fn new(space: &ActionSpace, players: usize, catalogue_len: usize) -> ObsSpec {
        let n = space.tile_types.len();
        let mut type_slot = vec![u16::MAX; catalogue_len];
        for (k, &t) in space.tile_types.iter().enumerate() {
            type_slot[t as usize] = k as u16;
        }
        let d = expansions::declared();
        let ones = |base: &[Slot], more: &[Slot]| -> Placed {
            Placed::new(base.iter().chain(more).map(|&s| (s, 1)).collect())
        };
        let roles = ones(&[R_MEEPLE], &d.roles);
        let supply = ones(&[S_MEEPLES], &d.supply);
        let misc = ones(&[M_TILES_LEFT], &d.misc);
        let mut planes: Vec<(Slot, usize)> = BASE_CHANNELS.to_vec();
        planes.extend(d.channels.iter().map(|&s| (s, 1)));
        planes.push((C_FIGURES, roles.len * players));
        let planes = Placed::new(planes);
        let length = |p: &Part| match p.len {
            Len::Fixed(k) => k,
            Len::TileTypes => n,
        };
        let mut parts: Vec<(Slot, usize)> = vec![
            (V_SCORES.slot, players),
            (V_SUPPLY.slot, players * supply.len),
            (V_BAG.slot, n),
            (V_DRAWN.slot, n),
            (V_PHASE.slot, length(&V_PHASE)),
            (V_MISC.slot, misc.len),
            (V_OVERFLOW.slot, 3 * space.overflow),
        ];
        parts.extend(d.vector.iter().map(|p| (p.slot, length(p))));
        let parts = Placed::new(parts);
        let role_plane = Role::ALL.map(|r| {
            roles
                .slots
                .iter()
                .find(|e| r != Role::Meeple && e.0 == r.name())
                .map(|e| e.1)
        });
        ObsSpec {
            players,
            window: space.window,
            channels: planes.len,
            tile_types: n,
            type_slot,
            overflow: space.overflow,
            role_plane,
            v_scores: parts.at(V_SCORES.slot),
            v_supply: parts.at(V_SUPPLY.slot),
            v_bag: parts.at(V_BAG.slot),
            v_drawn: parts.at(V_DRAWN.slot),
            v_phase: parts.at(V_PHASE.slot),
            v_misc: parts.at(V_MISC.slot),
            v_overflow: parts.at(V_OVERFLOW.slot),
            vector: parts.len,
            planes,
            roles,
            supply,
            misc,
            parts,
        }
    }

    /// Tile `t`'s position among the tile types in play.
    fn slot(&self, t: u16) -> Option<usize> {
        let k = self.type_slot.get(t as usize).copied().unwrap_or(u16::MAX);
        (k != u16::MAX).then_some(k as usize)
    }

    pub fn board_len(&self) -> usize {
        self.window * self.window * self.channels
    }

    /// Write the observation of `st` for player `me` into `board` (cells x channels, row
    /// major, north first) and `vector`. `legal` are the legal moves with their indices;
    /// `cache` is scratch. With `painted`, `board` must hold the observation this call
    /// wrote last with the same list: only the cells listed are cleared (tiles and open
    /// positions are few next to the window), and the list is replaced by the cells written.
    /// The base game writes its part; each expansion writes its own (`Expansion::observe`).
    #[allow(clippy::too_many_arguments)]
    pub fn encode(
        &self,
        space: &ActionSpace,
        st: &State,
        me: u8,
        f: &Frame,
        legal: &[(u32, Move)],
        board: &mut [u8],
        vector: &mut [f32],
        cache: &mut Vec<u16>,
        painted: Option<&mut Vec<u32>>,
    ) {
        let c = self.channels;
        let mut painted = painted;
        match painted.as_deref_mut() {
            Some(list) => {
                for &o in list.iter() {
                    board[o as usize..o as usize + c].fill(0);
                }
                list.clear();
            }
            None => board.fill(0),
        }
        vector.fill(0.0);
        let mut o = Observer {
            spec: self,
            space,
            frame: f,
            me: me as usize,
            players: st.players as usize,
            board,
            vector,
            counted: [0; MAX_RANK],
        };
        o.tiles(st, cache, painted.as_deref_mut());
        o.open_positions(st, legal, painted);
        o.base_vector(st);
        expansions::observe(st, &mut o);
    }
}

/// One observation being written: the layout's slots, seen from the observer's seat. The base
/// game's part is written here; each expansion writes its own through the `Observe` sink
/// (`Expansion::observe_tile` and `observe`).
pub struct Observer<'a> {
    spec: &'a ObsSpec,
    space: &'a ActionSpace,
    frame: &'a Frame,
    me: usize,
    players: usize,
    board: &'a mut [u8],
    vector: &'a mut [f32],
    /// Tiles counted so far in each plane (by the plane's rank), for `Observe::count`.
    counted: [u8; MAX_RANK],
}

impl Observe for Observer<'_> {
    #[inline]
    fn mark(&mut self, s: &State, pi: usize, ch: Slot) -> Option<&mut u8> {
        let ch = self.spec.planes.at(ch);
        self.plane(s, pi, ch)
    }

    #[inline]
    fn count(&mut self, s: &State, pi: usize, ch: Slot) {
        let k = &mut self.counted[ch.rank as usize];
        *k = k.wrapping_add(1);
        let k = *k;
        if let Some(c) = self.mark(s, pi, ch) {
            *c = k;
        }
    }

    #[inline]
    fn figure(&mut self, s: &State, pi: usize, q: usize, role: Slot) -> Option<&mut u8> {
        let ch = self.figures(q) + self.spec.roles.at(role);
        self.plane(s, pi, ch)
    }

    #[inline]
    fn supply(&mut self, q: usize, entry: Slot) -> &mut f32 {
        let spec = self.spec;
        let at = spec.v_supply + self.seat(q) * spec.supply.len + spec.supply.at(entry);
        &mut self.vector[at]
    }

    #[inline]
    fn misc(&mut self, entry: Slot) -> &mut f32 {
        &mut self.vector[self.spec.v_misc + self.spec.misc.at(entry)]
    }

    #[inline]
    fn part(&mut self, part: Slot, k: usize) -> &mut f32 {
        &mut self.vector[self.spec.parts.at(part) + k]
    }

    #[inline]
    fn tile(&mut self, part: Slot, t: u16) -> Option<&mut f32> {
        let k = self.spec.slot(t)?;
        Some(&mut self.vector[self.spec.parts.at(part) + k])
    }
}

impl Observer<'_> {
    /// Player `q`'s seat, counted from the observer (seat 0).
    fn seat(&self, q: usize) -> usize {
        (q + self.players - self.me) % self.players
    }

    /// First figure plane of player `q`'s seat.
    fn figures(&self, q: usize) -> usize {
        self.spec.planes.at(C_FIGURES) + self.spec.roles.len * self.seat(q)
    }

    /// Offset of the cell at (x, y) in the board planes, if it is in the window.
    fn cell_at(&self, x: i16, y: i16) -> Option<usize> {
        self.space
            .window_cell(self.frame, x, y)
            .map(|i| i * self.spec.channels)
    }

    /// Plane `ch` of placed tile `pi`'s cell, if the tile is in the window.
    fn plane(&mut self, st: &State, pi: usize, ch: usize) -> Option<&mut u8> {
        let pl = &st.board.placed[pi];
        let o = self.cell_at(pl.x, pl.y)?;
        Some(&mut self.board[o + ch])
    }

    /// The placed tiles: their edges, features and figures on the segments; each expansion
    /// shows what its tiles have (`Expansion::observe_tile`).
    fn tiles(&mut self, st: &State, cache: &mut Vec<u16>, mut painted: Option<&mut Vec<u32>>) {
        let spec = self.spec;
        let c = spec.channels;
        let at = |s: Slot| spec.planes.at(s);
        let (c_tile, c_edge, c_monastery, c_pennants) =
            (at(C_TILE), at(C_EDGE), at(C_MONASTERY), at(C_PENNANTS));
        let (c_open_edges, c_complete, c_points, c_cloister_points) = (
            at(C_OPEN_EDGES),
            at(C_COMPLETE),
            at(C_POINTS),
            at(C_CLOISTER_POINTS),
        );
        cache.clear();
        cache.resize(st.segs.len(), u16::MAX);
        let seats: [usize; MAX_PLAYERS] = std::array::from_fn(|q| self.figures(q % self.players));
        for (pi, pl) in st.board.placed.iter().enumerate() {
            let tt = st.cat.tile(pl.tile);
            expansions::observe_tile(st, pi, tt, self);
            let Some(o) = self.cell_at(pl.x, pl.y) else {
                continue;
            };
            if let Some(list) = painted.as_deref_mut() {
                list.push(o as u32);
            }
            let cell = &mut self.board[o..o + c];
            cell[c_tile] = 1;
            let ro = &tt.rot[pl.rot as usize];
            for side in 0..4u8 {
                let kind = tt.edge_at(pl.rot, side) as usize;
                cell[c_edge + 4 * side as usize + kind] = 1;
                let local = ro.edge_seg[side as usize];
                if local == NO_SEG
                    || !matches!(tt.edge_at(pl.rot, side), EdgeKind::City | EdgeKind::Road)
                {
                    continue;
                }
                let root = st.find(pl.seg_base + local as u16);
                let rs = &st.segs[root as usize];
                let open = rs.open;
                cell[c_open_edges + side as usize] = open.min(255) as u8;
                cell[c_complete + side as usize] = u8::from(open == 0);
                if cache[root as usize] == u16::MAX {
                    cache[root as usize] = st.feature_value(root, open == 0);
                }
                cell[c_points + side as usize] = cache[root as usize].min(255) as u8;
            }
            if tt.monastery != NO_SEG {
                cell[c_monastery] = 1;
            }
            if tt.monastery != NO_SEG || tt.garden != NO_SEG {
                cell[c_cloister_points] = st.cloister_value(pi) as u8;
            }
            cell[c_pennants] = tt.segments.iter().map(|s| s.arms).sum();
            for (l, seg) in tt.segments.iter().enumerate() {
                let fig = st.segs[pl.seg_base as usize + l].figure;
                if fig == NO_FIGURE {
                    continue;
                }
                let (role, owner) = unpack_figure(fig);
                let base = seats[owner as usize];
                if role == Role::Meeple {
                    cell[base] = match seg.kind {
                        SegmentKind::City => 1,
                        SegmentKind::Road => 2,
                        SegmentKind::Field => 3,
                        SegmentKind::Monastery => 4,
                        SegmentKind::Garden => 5,
                        SegmentKind::Tent => 6,
                        _ => 7,
                    }
                } else if let Some(k) = spec.role_plane[role as usize] {
                    cell[base + k] = 1;
                }
            }
        }
    }

    /// The open positions, and those where the drawn tile fits.
    fn open_positions(
        &mut self,
        st: &State,
        legal: &[(u32, Move)],
        mut painted: Option<&mut Vec<u32>>,
    ) {
        let (c_open, c_fits) = (self.spec.planes.at(C_OPEN), self.spec.planes.at(C_FITS));
        for o in &st.board.frontier {
            if let Some(i) = self.cell_at(o.x, o.y) {
                self.board[i + c_open] = 1;
                if let Some(list) = painted.as_deref_mut() {
                    list.push(i as u32);
                }
            }
        }
        for (_, m) in legal {
            if let Move::Place { x, y, .. } = *m {
                if let Some(i) = self.cell_at(x, y) {
                    self.board[i + c_fits] = 1;
                }
            }
        }
    }

    /// The base game's part of the vector: scores, meeples, the bag, the drawn tile, the
    /// phase, the tiles left and the open positions outside the window.
    fn base_vector(&mut self, st: &State) {
        let spec = self.spec;
        for q in 0..self.players {
            let s = self.seat(q);
            self.vector[spec.v_scores + s] = st.total(q) as f32;
            *self.supply(q, S_MEEPLES) = st.meeples[q] as f32;
        }
        for &t in &st.bag {
            if let Some(k) = spec.slot(t) {
                self.vector[spec.v_bag + k] += 1.0;
            }
        }
        if st.phase == Phase::Place && st.tile != NONE16 {
            if let Some(k) = spec.slot(st.tile) {
                self.vector[spec.v_drawn + k] = 1.0;
            }
        }
        let phase = match st.phase {
            Phase::Place => Some(0),
            Phase::Farmer => Some(1),
            Phase::Choose => Some(2),
            Phase::Over => Some(3),
            chance => {
                debug_assert!(chance.is_chance());
                None
            }
        };
        if let Some(k) = phase {
            self.vector[spec.v_phase + k] = 1.0;
        }
        *self.misc(M_TILES_LEFT) = st.bag.len() as f32;
        let f = self.frame;
        for (k, &(x, y)) in f.outside.iter().enumerate().take(spec.overflow) {
            let v = &mut self.vector[spec.v_overflow + 3 * k..];
            v[0] = (x as i32 - f.x0 as i32) as f32;
            v[1] = (f.y0 as i32 - y as i32) as f32;
            v[2] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tiles::Catalogue;
    use crate::Rules;

    /// The layout the declarations make is the one written by hand before them (the
    /// constants it replaced), so trained agents and pinned observations keep their meaning.
    #[test]
    fn the_declared_layout_is_the_hand_written_one() {
        let st = State::new(Catalogue::builtin(), Rules::every_expansion(), 3, 0).unwrap();
        let space = ActionSpace::new(&st, 9).unwrap();
        let o = ObsSpec::new(&space, 3, st.cat.tiles.len());
        let planes: Vec<(&str, usize)> = o.planes.slots.iter().map(|e| (e.0, e.1)).collect();
        assert_eq!(
            planes,
            [
                ("tile", 0),
                ("open", 1),
                ("fits", 2),
                ("edge", 3),
                ("monastery", 19),
                ("garden", 20),
                ("tent", 21),
                ("bigtop_space", 22),
                ("acrobat_space", 23),
                ("crossroads", 24),
                ("pennants", 25),
                ("open_edges", 26),
                ("complete", 30),
                ("points", 34),
                ("cloister_points", 38),
                ("big_top", 39),
                ("figures", 40),
            ]
        );
        let roles = [
            "meeple",
            "abbot",
            "ringmaster",
            "builder",
            "pig",
            "acrobats",
            "tollhouse",
        ];
        assert_eq!(o.roles.names(), roles);
        assert_eq!(o.channels, 40 + 7 * 3);
        assert_eq!(o.role_plane, [None, Some(1), Some(2)]);
        let supply = [
            "meeples",
            "abbots",
            "ringmasters",
            "builders",
            "pigs",
            "fortune_tellers",
            "wine",
            "grain",
            "cloth",
            "tollhouse_value",
        ];
        assert_eq!(o.supply.names(), supply);
        let misc = [
            "tiles_left",
            "second_part",
            "builder_triggered",
            "big_top_placed",
        ];
        assert_eq!(o.misc.names(), misc);
        let n = space.tile_types.len();
        let lengths = [3, 3 * 10, n, n, n, 4, 4, 6, 3 * space.overflow];
        let names = [
            "scores", "supply", "bag", "drawn", "hand", "phase", "misc", "animals", "overflow",
        ];
        let mut first = 0;
        for (k, &(name, at, len)) in o.parts.slots.iter().enumerate() {
            assert_eq!((name, at, len), (names[k], first, lengths[k]));
            first += len;
        }
        assert_eq!(o.vector, first);
    }
}
