//! What a learning agent sees: board planes over the action space's window plus a vector of
//! counts, both from the point of view of one player (seats are numbered from that player
//! on, so one policy can play every seat). Layout: docs/environments.md.

use crate::engine::features::{unpack_figure, Role, NO_FIGURE};
use crate::engine::moves::Move;
use crate::engine::state::{Phase, State, NONE16};
use crate::engine::tiles::{EdgeKind, SegmentKind, NO_SEG};
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
pub const PHASES: [&str; 4] = ["place", "farmer", "choose", "over"];
pub const MISC_NAMES: [&str; 4] = [
    "tiles_left",
    "second_part",
    "builder_triggered",
    "big_top_placed",
];

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

    pub fn board_len(&self) -> usize {
        self.window * self.window * self.channels
    }

    /// Write the observation of `st` for player `me` into `board` (cells x channels, row
    /// major, north first) and `vector`. `legal` are the legal moves with their indices;
    /// `cache` is scratch. With `painted`, `board` must hold the observation this call
    /// wrote last with the same list: only the cells listed are cleared (tiles and open
    /// positions are few next to the window), and the list is replaced by the cells written.
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
        let p = st.players as usize;
        let seat = |q: usize| (q + p - me as usize) % p;
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
        cache.clear();
        cache.resize(st.segs.len(), u16::MAX);
        let at = |x: i16, y: i16| space.window_cell(f, x, y).map(|i| i * c);
        // Tiles.
        let mut acro = 0u8;
        let mut cross = 0u8;
        for (pi, pl) in st.board.placed.iter().enumerate() {
            let tt = st.cat.tile(pl.tile);
            let has_acrobat = tt.acrobat != NO_SEG;
            acro += u8::from(has_acrobat);
            cross += u8::from(tt.crossroads);
            let Some(o) = at(pl.x, pl.y) else {
                continue;
            };
            if let Some(list) = painted.as_deref_mut() {
                list.push(o as u32);
            }
            let cell = &mut board[o..o + c];
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
            if st.expansions.big_top.at as usize == pi {
                cell[C_BIG_TOP] = 1;
            }
            for (l, seg) in tt.segments.iter().enumerate() {
                let fig = st.segs[pl.seg_base as usize + l].figure;
                if fig == NO_FIGURE {
                    continue;
                }
                let (role, owner) = unpack_figure(fig);
                let base = C_FIGURES + ROLES * seat(owner as usize);
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
                    Role::Abbot => cell[base + 1] = 1,
                    Role::Ringmaster => cell[base + 2] = 1,
                }
            }
        }
        for q in 0..p {
            let base = C_FIGURES + ROLES * seat(q);
            for (role, seg) in [
                (3, st.expansions.traders_builders.builder_at[q]),
                (4, st.expansions.traders_builders.pig_at[q]),
            ] {
                if seg == NONE16 {
                    continue;
                }
                let pl = &st.board.placed[st.segs[seg as usize].placed as usize];
                if let Some(o) = at(pl.x, pl.y) {
                    board[o + base + role] = 1;
                }
            }
            let tp = st.expansions.toll_collectors.at[q];
            if tp != NONE16 {
                let pl = &st.board.placed[tp as usize];
                if let Some(o) = at(pl.x, pl.y) {
                    board[o + base + 6] = st.expansions.toll_collectors.value[q].max(1);
                }
            }
        }
        for py in &st.expansions.big_top.pyramids {
            let pl = &st.board.placed[py.placed as usize];
            if let Some(o) = at(pl.x, pl.y) {
                for &owner in &py.owners[..py.n as usize] {
                    board[o + C_FIGURES + ROLES * seat(owner as usize) + 5] += 1;
                }
            }
        }
        for o in &st.board.frontier {
            if let Some(i) = at(o.x, o.y) {
                board[i + C_OPEN] = 1;
                if let Some(list) = painted.as_deref_mut() {
                    list.push(i as u32);
                }
            }
        }
        for (_, m) in legal {
            if let Move::Place { x, y, .. } = *m {
                if let Some(i) = at(x, y) {
                    board[i + C_FITS] = 1;
                }
            }
        }
        // Vector.
        for q in 0..p {
            let s = seat(q);
            vector[self.v_scores + s] = st.total(q) as f32;
            let v = &mut vector[self.v_supply + s * SUPPLY_NAMES.len()..];
            v[0] = st.meeples[q] as f32;
            v[1] = st.expansions.abbot.supply[q] as f32;
            v[2] = st.expansions.big_top.ringmasters[q] as f32;
            v[3] = st.expansions.traders_builders.builders[q] as f32;
            v[4] = st.expansions.traders_builders.pigs[q] as f32;
            v[5] = st.expansions.fortune_teller.tellers[q] as f32;
            for g in 0..3 {
                v[6 + g] = st.expansions.traders_builders.goods[q][g] as f32;
            }
            v[9] = if st.expansions.toll_collectors.at[q] == NONE16 {
                0.0
            } else {
                st.expansions.toll_collectors.value[q] as f32
            };
        }
        let slot = |t: u16| self.type_slot.get(t as usize).copied().unwrap_or(u16::MAX);
        for &t in &st.bag {
            let k = slot(t);
            if k != u16::MAX {
                vector[self.v_bag + k as usize] += 1.0;
            }
        }
        if st.phase == Phase::Place && st.tile != NONE16 {
            let k = slot(st.tile);
            if k != u16::MAX {
                vector[self.v_drawn + k as usize] = 1.0;
            }
        }
        for &t in
            &st.expansions.fortune_teller.hand[..st.expansions.fortune_teller.hand_len as usize]
        {
            let k = slot(t);
            if k != u16::MAX {
                vector[self.v_hand + k as usize] += 1.0;
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
            vector[self.v_phase + k] = 1.0;
        }
        vector[self.v_misc] = st.bag.len() as f32;
        vector[self.v_misc + 1] = f32::from(u8::from(st.expansions.traders_builders.second_part));
        vector[self.v_misc + 2] = f32::from(u8::from(st.expansions.traders_builders.triggered));
        vector[self.v_misc + 3] = f32::from(u8::from(st.expansions.big_top.at != NONE16));
        for (k, &n) in st.expansions.big_top.stack.iter().enumerate() {
            vector[self.v_animals + k] = n as f32;
        }
        for (k, &(x, y)) in f.outside.iter().enumerate().take(self.overflow) {
            let v = &mut vector[self.v_overflow + 3 * k..];
            v[0] = (x as i32 - f.x0 as i32) as f32;
            v[1] = (f.y0 as i32 - y as i32) as f32;
            v[2] = 1.0;
        }
    }
}
