//! What a learning agent sees: board planes over the action space's window plus a vector of
//! counts, both from the point of view of one player (seats are numbered from that player
//! on, so one policy can play every seat). Layout: docs/environments.md.

use crate::engine::features::{unpack_figure, Role, NO_FIGURE};
use crate::engine::moves::Move;
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::{Phase, State, NONE16};
use crate::engine::tiles::{EdgeKind, SegmentKind, NO_SEG};
use crate::expansions;
use crate::expansions::big_top::ANIMALS;
use crate::learning::action_space::{ActionSpace, Frame};

// Board planes (channels of one cell).
pub const C_TILE: usize = 0;
pub const C_OPEN: usize = 1;
/// The drawn tile has a legal placement here.
pub const C_FITS: usize = 2;
/// Edge kind one-hot per side: C_EDGE + 4 * side + kind (field, road, city, river).
pub const C_EDGE: usize = 3;
pub const C_MONASTERY: usize = 19;
pub const C_GARDEN: usize = 20;
pub const C_TENT: usize = 21;
pub const C_BIGTOP_SPACE: usize = 22;
/// Acrobat space: its rank + 1 (the k of the acrobat and pyramid slots).
pub const C_ACROBAT_SPACE: usize = 23;
/// Crossroads (Toll Collectors): its rank + 1 (the k of the tollhouse slots).
pub const C_CROSSROADS: usize = 24;
/// Coats of arms on the tile.
pub const C_PENNANTS: usize = 25;
/// Per side: open edges of the road or city crossing that side (0 when complete or none).
pub const C_OPEN_EDGES: usize = 26;
/// Per side: 1 when the road or city crossing that side is complete.
pub const C_COMPLETE: usize = 30;
/// Per side: points the road or city crossing that side is worth now (capped at 255).
pub const C_POINTS: usize = 34;
/// Points the monastery or garden on the tile is worth now.
pub const C_CLOISTER_POINTS: usize = 38;
/// The big top stands here.
pub const C_BIG_TOP: usize = 39;
/// Figures: C_FIGURES + ROLES * seat + role, seat 0 being the observer.
pub const C_FIGURES: usize = 40;
/// Meeple (value: 1 city, 2 road, 3 field, 4 monastery, 5 garden, 6 tent, 7 other), abbot,
/// ringmaster, builder, pig, acrobats (count), tollhouse.
pub const ROLES: usize = 7;
/// Roles (the order of `ROLE_NAMES`) besides the meeple (0).
pub const R_ABBOT: usize = 1;
pub const R_RINGMASTER: usize = 2;
pub const R_BUILDER: usize = 3;
pub const R_PIG: usize = 4;
pub const R_ACROBATS: usize = 5;
pub const R_TOLLHOUSE: usize = 6;
pub const ROLE_NAMES: [&str; ROLES] = [
    "meeple",
    "abbot",
    "ringmaster",
    "builder",
    "pig",
    "acrobats",
    "tollhouse",
];

/// Per-player supply entries in the vector.
pub const SUPPLY_NAMES: [&str; 10] = [
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
/// Supply entries (the order of `SUPPLY_NAMES`); the three goods follow `S_GOODS`.
pub const S_MEEPLES: usize = 0;
pub const S_ABBOTS: usize = 1;
pub const S_RINGMASTERS: usize = 2;
pub const S_BUILDERS: usize = 3;
pub const S_PIGS: usize = 4;
pub const S_FORTUNE_TELLERS: usize = 5;
pub const S_GOODS: usize = 6;
pub const S_TOLLHOUSE_VALUE: usize = 9;
pub const PHASES: [&str; 4] = ["place", "farmer", "choose", "over"];
pub const MISC_NAMES: [&str; 4] = [
    "tiles_left",
    "second_part",
    "builder_triggered",
    "big_top_placed",
];

/// Miscellany entries (the order of `MISC_NAMES`).
pub const M_TILES_LEFT: usize = 0;
pub const M_SECOND_PART: usize = 1;
pub const M_BUILDER_TRIGGERED: usize = 2;
pub const M_BIG_TOP_PLACED: usize = 3;

#[derive(Clone, Debug)]
pub struct ObsSpec {
    pub players: usize,
    pub window: usize,
    pub channels: usize,
    pub tile_types: usize,
    /// Catalogue index -> position among the tile types in play (u16::MAX when not in play).
    pub type_slot: Vec<u16>,
    pub overflow: usize,
    /// Offsets of the vector's parts.
    pub v_scores: usize,
    pub v_supply: usize,
    pub v_bag: usize,
    pub v_drawn: usize,
    pub v_hand: usize,
    pub v_phase: usize,
    pub v_misc: usize,
    pub v_animals: usize,
    pub v_overflow: usize,
    pub vector: usize,
}

impl ObsSpec {
    pub fn new(space: &ActionSpace, players: usize, catalogue_len: usize) -> ObsSpec {
        let n = space.tile_types.len();
        let mut type_slot = vec![u16::MAX; catalogue_len];
        for (k, &t) in space.tile_types.iter().enumerate() {
            type_slot[t as usize] = k as u16;
        }
        let v_scores = 0;
        let v_supply = v_scores + players;
        let v_bag = v_supply + players * SUPPLY_NAMES.len();
        let v_drawn = v_bag + n;
        let v_hand = v_drawn + n;
        let v_phase = v_hand + n;
        let v_misc = v_phase + PHASES.len();
        let v_animals = v_misc + MISC_NAMES.len();
        let v_overflow = v_animals + ANIMALS.len();
        let vector = v_overflow + 3 * space.overflow;
        ObsSpec {
            players,
            window: space.window,
            channels: C_FIGURES + ROLES * players,
            tile_types: n,
            type_slot,
            overflow: space.overflow,
            v_scores,
            v_supply,
            v_bag,
            v_drawn,
            v_hand,
            v_phase,
            v_misc,
            v_animals,
            v_overflow,
            vector,
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
        };
        o.tiles(st, cache, painted.as_deref_mut());
        o.open_positions(st, legal, painted);
        o.base_vector(st);
        expansions::observe(st, &mut o);
    }
}

/// One observation being written: the layout's slots, seen from the observer's seat. The base
/// game's part is written here; each expansion writes its own through `Expansion::observe`
/// (its figures on the board planes, its supplies and counts in the vector).
pub struct Observer<'a> {
    spec: &'a ObsSpec,
    space: &'a ActionSpace,
    frame: &'a Frame,
    me: usize,
    players: usize,
    board: &'a mut [u8],
    vector: &'a mut [f32],
}

impl Observer<'_> {
    /// Player `q`'s seat, counted from the observer (seat 0).
    fn seat(&self, q: usize) -> usize {
        (q + self.players - self.me) % self.players
    }

    /// Offset of the cell at (x, y) in the board planes, if it is in the window.
    fn cell_at(&self, x: i16, y: i16) -> Option<usize> {
        self.space
            .window_cell(self.frame, x, y)
            .map(|i| i * self.spec.channels)
    }

    /// Channel `ch` of placed tile `pi`'s cell, if the tile is in the window.
    pub fn mark(&mut self, st: &State, pi: usize, ch: usize) -> Option<&mut u8> {
        let pl = &st.board.placed[pi];
        let o = self.cell_at(pl.x, pl.y)?;
        Some(&mut self.board[o + ch])
    }

    /// Player `q`'s figure `role` (`ROLE_NAMES`) on placed tile `pi`, if it is in the window.
    pub fn figure(&mut self, st: &State, pi: usize, q: usize, role: usize) -> Option<&mut u8> {
        let ch = C_FIGURES + ROLES * self.seat(q) + role;
        self.mark(st, pi, ch)
    }

    /// Player `q`'s supply entry `k` (`SUPPLY_NAMES`).
    pub fn supply(&mut self, q: usize, k: usize) -> &mut f32 {
        let at = self.spec.v_supply + self.seat(q) * SUPPLY_NAMES.len() + k;
        &mut self.vector[at]
    }

    /// Entry `k` of the vector's miscellany (`MISC_NAMES`).
    pub fn misc(&mut self, k: usize) -> &mut f32 {
        &mut self.vector[self.spec.v_misc + k]
    }

    /// Animal tokens of kind `k` left in the stack (Under the Big Top).
    pub fn animals(&mut self, k: usize) -> &mut f32 {
        &mut self.vector[self.spec.v_animals + k]
    }

    /// One more tile `t` in the active player's hand (Fortune Teller).
    pub fn hand(&mut self, t: u16) {
        if let Some(k) = self.spec.slot(t) {
            self.vector[self.spec.v_hand + k] += 1.0;
        }
    }

    /// The placed tiles: their edges, features and figures on the segments.
    fn tiles(&mut self, st: &State, cache: &mut Vec<u16>, mut painted: Option<&mut Vec<u32>>) {
        let c = self.spec.channels;
        cache.clear();
        cache.resize(st.segs.len(), u16::MAX);
        let seats: [usize; MAX_PLAYERS] = std::array::from_fn(|q| self.seat(q % self.players));
        let mut acro = 0u8;
        let mut cross = 0u8;
        for (pi, pl) in st.board.placed.iter().enumerate() {
            let tt = st.cat.tile(pl.tile);
            let has_acrobat = tt.acrobat != NO_SEG;
            acro += u8::from(has_acrobat);
            cross += u8::from(tt.crossroads);
            let Some(o) = self.cell_at(pl.x, pl.y) else {
                continue;
            };
            if let Some(list) = painted.as_deref_mut() {
                list.push(o as u32);
            }
            let cell = &mut self.board[o..o + c];
            cell[C_TILE] = 1;
            let ro = &tt.rot[pl.rot as usize];
            for side in 0..4u8 {
                let kind = tt.edge_at(pl.rot, side) as usize;
                cell[C_EDGE + 4 * side as usize + kind] = 1;
                let local = ro.edge_seg[side as usize];
                if local == NO_SEG
                    || !matches!(tt.edge_at(pl.rot, side), EdgeKind::City | EdgeKind::Road)
                {
                    continue;
                }
                let root = st.find(pl.seg_base + local as u16);
                let rs = &st.segs[root as usize];
                let open = rs.open;
                cell[C_OPEN_EDGES + side as usize] = open.min(255) as u8;
                cell[C_COMPLETE + side as usize] = u8::from(open == 0);
                if cache[root as usize] == u16::MAX {
                    cache[root as usize] = st.feature_value(root, open == 0);
                }
                cell[C_POINTS + side as usize] = cache[root as usize].min(255) as u8;
            }
            if tt.monastery != NO_SEG {
                cell[C_MONASTERY] = 1;
            }
            if tt.garden != NO_SEG {
                cell[C_GARDEN] = 1;
            }
            if tt.monastery != NO_SEG || tt.garden != NO_SEG {
                cell[C_CLOISTER_POINTS] = st.cloister_value(pi) as u8;
            }
            if tt.tent != NO_SEG {
                cell[C_TENT] = 1;
            }
            if tt.bigtop != NO_SEG {
                cell[C_BIGTOP_SPACE] = 1;
            }
            if has_acrobat {
                cell[C_ACROBAT_SPACE] = acro;
            }
            if tt.crossroads {
                cell[C_CROSSROADS] = cross;
            }
            cell[C_PENNANTS] = tt.segments.iter().map(|s| s.arms).sum();
            for (l, seg) in tt.segments.iter().enumerate() {
                let fig = st.segs[pl.seg_base as usize + l].figure;
                if fig == NO_FIGURE {
                    continue;
                }
                let (role, owner) = unpack_figure(fig);
                let base = C_FIGURES + ROLES * seats[owner as usize];
                match role {
                    Role::Meeple => {
                        cell[base] = match seg.kind {
                            SegmentKind::City => 1,
                            SegmentKind::Road => 2,
                            SegmentKind::Field => 3,
                            SegmentKind::Monastery => 4,
                            SegmentKind::Garden => 5,
                            SegmentKind::Tent => 6,
                            _ => 7,
                        }
                    }
                    Role::Abbot => cell[base + R_ABBOT] = 1,
                    Role::Ringmaster => cell[base + R_RINGMASTER] = 1,
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
        for o in &st.board.frontier {
            if let Some(i) = self.cell_at(o.x, o.y) {
                self.board[i + C_OPEN] = 1;
                if let Some(list) = painted.as_deref_mut() {
                    list.push(i as u32);
                }
            }
        }
        for (_, m) in legal {
            if let Move::Place { x, y, .. } = *m {
                if let Some(i) = self.cell_at(x, y) {
                    self.board[i + C_FITS] = 1;
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
