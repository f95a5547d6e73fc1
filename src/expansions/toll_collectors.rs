//! Toll Collectors (TC1-TC7): tollhouses on crossroads collect when a road ending there is
//! completed, flip after collecting from travellers, and score incomplete roads at the end.
//! Hooked into the turn through `expansions::Expansion`: the action (place or move), just
//! before a completed road scores, at the end of the whole turn (flip) and in final scoring.

use crate::engine::moves::{Action, Illegal, Move, Placement};
use crate::engine::rules::{Rules, MAX_PLAYERS};
use crate::engine::scoring::Source;
use crate::engine::state::{State, NONE16};
use crate::engine::tiles::{Catalogue, RoadEnd, SegmentKind, TileType};
use crate::expansions::layout::{self, ActionSlots, Observe, Slot};

/// Crossroads numbered in placement order (their rank + 1: the k of the tollhouse slots),
/// tollhouses on the board (their value) and each tollhouse's value.
const C_CROSSROADS: Slot = Slot::new("crossroads", 9);
const R_TOLLHOUSE: Slot = Slot::new("tollhouse", 6);
const S_TOLLHOUSE_VALUE: Slot = Slot::new("tollhouse_value", 9);

reusable_clone! {
    /// Toll Collectors' state (inert when the option is off).
    #[derive(Debug, PartialEq, Eq)]
    pub struct TollCollectors {
        /// Placed index of the crossroads tile holding each player's tollhouse, or NONE16.
        pub at: [u16; MAX_PLAYERS],
        /// 1 (small toll) or 2 (large toll).
        pub value: [u8; MAX_PLAYERS],
        /// Collected from travellers this turn: flips at the end of the turn (TC5).
        pub flip: [bool; MAX_PLAYERS],
        /// Placed indices of crossroads tiles (TC2), for tollhouse moves.
        pub crossroads: Vec<u16>,
    }
}

impl Default for TollCollectors {
    fn default() -> Self {
        TollCollectors {
            at: [NONE16; MAX_PLAYERS],
            value: [1; MAX_PLAYERS],
            flip: [false; MAX_PLAYERS],
            crossroads: Vec::new(),
        }
    }
}

/// What a road carries for tolls: items (farmhouse, shed, garden, robbers), travellers
/// groups, and the crossroads tiles it ends at (placed indices, each once).
struct RoadTolls {
    items: u16,
    travellers: u16,
    ends: [u16; 8],
    n_ends: usize,
}

impl State {
    fn road_tolls(&self, root: u16) -> RoadTolls {
        let mut r = RoadTolls {
            items: 0,
            travellers: 0,
            ends: [NONE16; 8],
            n_ends: 0,
        };
        let mut s = root;
        loop {
            let seg = &self.segs[s as usize];
            let pl = &self.board.placed[seg.placed as usize];
            let tt = self.cat.tile(pl.tile);
            let cs = &tt.segments[seg.local as usize];
            // Water towers never count (TC4).
            r.items += (cs.items.farmhouse + cs.items.shed + cs.items.robbers) as u16;
            r.travellers += cs.items.travellers as u16;
            if tt.garden != crate::engine::tiles::NO_SEG
                && tt.segments[tt.garden as usize].road == seg.local
            {
                r.items += 1;
            }
            if cs.end == RoadEnd::Village
                && !r.ends[..r.n_ends].contains(&seg.placed)
                && r.n_ends < 8
            {
                r.ends[r.n_ends] = seg.placed;
                r.n_ends += 1;
            }
            s = seg.next;
            if s == root {
                break;
            }
        }
        r
    }
}

/// Is the tile at placed index `pi` a free crossroads for `player`'s tollhouse (TC1, TC2)?
fn free_crossroads(s: &State, pi: u16, player: usize) -> bool {
    let t = s.board.placed[pi as usize].tile;
    s.cat.tile(t).crossroads
        && s.expansions.toll_collectors.at[player] != pi
        && !s.expansions.toll_collectors.at[..s.players as usize].contains(&pi)
}

/// Crossroads where `player` may place or move the tollhouse, the tile being placed at
/// (x, y) included when it is one.
fn tollhouse_targets(s: &State, x: i16, y: i16, player: usize, out: &mut Vec<(i16, i16)>) {
    out.clear();
    if !s.rules.toll_collectors {
        return;
    }
    if s.cat.tile(s.tile).crossroads {
        out.push((x, y));
    }
    for &pi in &s.expansions.toll_collectors.crossroads {
        if free_crossroads(s, pi, player) {
            let p = &s.board.placed[pi as usize];
            out.push((p.x, p.y));
        }
    }
}

/// Move or place `player`'s tollhouse onto the crossroads at (x, y) (TC1).
fn place_tollhouse(s: &mut State, player: u8, x: i16, y: i16) {
    if let Some(pi) = s.board.at(x, y) {
        s.expansions.toll_collectors.at[player as usize] = pi as u16;
    }
}

/// TC3, TC4, TC7: tollhouses at an end of the completed road `root` collect, at the value
/// they show at the start of the turn, before the road scores.
fn collect_tolls(s: &mut State, root: u16) {
    if !s.rules.toll_collectors || s.segs[root as usize].kind != SegmentKind::Road {
        return;
    }
    let r = s.road_tolls(root);
    for p in 0..s.players as usize {
        let at = s.expansions.toll_collectors.at[p];
        if at == NONE16 || !r.ends[..r.n_ends].contains(&at) {
            continue;
        }
        let v = s.expansions.toll_collectors.value[p] as u16;
        s.award(p as u8, Source::Tolls, v * r.items + 3 * v * r.travellers);
        if r.travellers > 0 {
            s.expansions.toll_collectors.flip[p] = true;
        }
    }
}

/// TC5: at the end of the whole turn, tollhouses that collected from travellers flip
/// (with `toll_flip=owner`, only the active player's: the others wait for their owner's
/// turn to end, keeping their value until then).
fn flip_tollhouses(s: &mut State) {
    let owner_only = s.rules.toll_flip == crate::engine::rules::TollFlip::Owner;
    for p in 0..s.players as usize {
        if s.expansions.toll_collectors.flip[p] && (!owner_only || p == s.current as usize) {
            s.expansions.toll_collectors.value[p] = 3 - s.expansions.toll_collectors.value[p];
            s.expansions.toll_collectors.flip[p] = false;
        }
    }
}

/// TC6: every incomplete road ending at a tollhouse gives its owner 1 per item and per
/// travellers group, whatever side shows.
fn final_tolls(s: &mut State) {
    if !s.rules.toll_collectors {
        return;
    }
    for g in 0..s.segs.len() as u16 {
        let seg = s.segs[g as usize];
        if seg.kind != SegmentKind::Road || seg.parent != g || seg.open == 0 {
            continue;
        }
        let r = s.road_tolls(g);
        for p in 0..s.players as usize {
            let at = s.expansions.toll_collectors.at[p];
            if at != NONE16 && r.ends[..r.n_ends].contains(&at) {
                s.award(p as u8, Source::Tolls, r.items + r.travellers);
            }
        }
    }
}

/// Toll Collectors facts for one decision: the crossroads free for the tollhouse (TC1).
pub(crate) struct TollTurn {
    on: bool,
    /// The drawn tile is a crossroads: the tollhouse may go on it once placed.
    new: bool,
    free: Vec<(i16, i16)>,
}

/// Toll Collectors' steps of the turn: placing or moving the tollhouse (TC1, TC2).
impl crate::expansions::Expansion for TollCollectors {
    fn read_out(s: &State, out: &mut impl crate::expansions::ReadOut) {
        use crate::expansions::{Fact, InSupply};
        let tc = s.toll_collectors();
        let players = 0..s.players as usize;
        let in_supply = players.clone().map(|p| i64::from(tc.at[p] == NONE16));
        let tollhouse = InSupply {
            name: "tollhouse",
            rank: 4,
        };
        out.in_supply("tollhouses_in_supply", tollhouse, in_supply.collect());
        // (player, x, y, value), as the board shows them.
        let houses = players.filter(|&p| tc.at[p] != NONE16).map(|p| {
            let pl = &s.board.placed[tc.at[p] as usize];
            let each = [p as i64, pl.x.into(), pl.y.into(), tc.value[p].into()];
            Fact::Tuple(each.into_iter().map(Fact::Int).collect())
        });
        out.fact("tollhouses", Fact::List(houses.collect()));
    }

    const EVAL_TERMS: &'static [&'static str] = &["tollhouse_value", "tollhouse_value_x_left"];

    fn eval_terms(s: &State, p: usize, left: f32, out: &mut [f32]) {
        if s.rules.toll_collectors && s.expansions.toll_collectors.at[p] != NONE16 {
            out[0] = s.expansions.toll_collectors.value[p] as f32;
            out[1] = out[0] * left;
        }
    }

    type Turn = TollTurn;

    fn turn(s: &State, tt: &crate::engine::tiles::TileType, p: usize, _: u16) -> TollTurn {
        let on = s.rules.toll_collectors;
        let mut free = Vec::new();
        if on {
            for &c in &s.expansions.toll_collectors.crossroads {
                if free_crossroads(s, c, p) {
                    let pl = &s.board.placed[c as usize];
                    free.push((pl.x, pl.y));
                }
            }
        }
        TollTurn {
            on,
            new: on && tt.crossroads,
            free,
        }
    }

    #[inline]
    fn placement_actions(_: &State, t: &mut TollTurn, at: Placement, out: &mut Vec<Move>) {
        if !t.on {
            return;
        }
        if t.new {
            out.push(at.with(Action::Tollhouse(at.x, at.y)));
        }
        for &(cx, cy) in &t.free {
            out.push(at.with(Action::Tollhouse(cx, cy)));
        }
    }

    fn check_action(
        s: &State,
        at: Placement,
        action: Action,
        p: usize,
    ) -> Option<Result<(), Illegal>> {
        let Action::Tollhouse(tx, ty) = action else {
            return None;
        };
        if !s.rules.toll_collectors {
            return Some(Err(Illegal::new("TC1", "Toll Collectors is not in play")));
        }
        let mut targets = Vec::new();
        tollhouse_targets(s, at.x, at.y, p, &mut targets);
        Some(if targets.contains(&(tx, ty)) {
            Ok(())
        } else {
            Err(Illegal::new("TC2", format!(
                "{tx},{ty} is not a free crossroads for your tollhouse (a village where 2-4 roads end, with no other tollhouse) (TC1, TC2)"
            )))
        })
    }

    #[inline]
    fn tile_laid(s: &mut State, pi: usize) {
        if s.cat.tile(s.board.placed[pi].tile).crossroads {
            s.expansions.toll_collectors.crossroads.push(pi as u16);
        }
    }

    fn apply_action(s: &mut State, _: usize, action: Action) -> bool {
        let Action::Tollhouse(tx, ty) = action else {
            return false;
        };
        place_tollhouse(s, s.current, tx, ty);
        true
    }

    #[inline]
    fn before_feature_scores(s: &mut State, root: u16) {
        collect_tolls(s, root);
    }

    #[inline]
    fn end_of_turn(s: &mut State) {
        flip_tollhouses(s);
    }

    #[inline]
    fn final_scoring(s: &mut State) {
        final_tolls(s);
    }

    const CHANNELS: &'static [Slot] = &[C_CROSSROADS];
    const ROLES: &'static [Slot] = &[R_TOLLHOUSE];
    const SUPPLY: &'static [Slot] = &[S_TOLLHOUSE_VALUE];

    #[inline]
    fn observe_tile<O: Observe>(s: &State, pi: usize, tt: &TileType, o: &mut O) {
        if tt.crossroads {
            o.count(s, pi, C_CROSSROADS);
        }
    }

    /// The tollhouse onto the k-th crossroads tile in placement order (the tile being placed
    /// last).
    const ACTIONS: &'static [ActionSlots] = &[ActionSlots::new(
        "tollhouse",
        8,
        "tollhouse on crossroads #",
    )];

    fn action_slots(rules: Rules, _k: usize, cat: &Catalogue, tiles: &[u16]) -> usize {
        if rules.toll_collectors {
            layout::copies(cat, tiles, |tt| tt.crossroads)
        } else {
            0
        }
    }

    fn action_slot(s: &State, at: Placement, action: Action) -> Option<(usize, usize)> {
        let Action::Tollhouse(x, y) = action else {
            return None;
        };
        let crossroads = &s.expansions.toll_collectors.crossroads;
        if (x, y) == (at.x, at.y) && s.cat.tile(s.tile).crossroads {
            return Some((0, crossroads.len()));
        }
        let pi = s.board.at(x, y)?;
        Some((0, crossroads.iter().position(|&c| c as usize == pi)?))
    }

    fn slot_action(s: &State, x: i16, y: i16, _k: usize, i: usize) -> Option<Action> {
        let crossroads = &s.expansions.toll_collectors.crossroads;
        if i == crossroads.len() {
            return Some(Action::Tollhouse(x, y));
        }
        let q = s.board.placed[*crossroads.get(i)? as usize];
        Some(Action::Tollhouse(q.x, q.y))
    }

    const WIDE_BOARD: bool = true;

    /// Each tollhouse: on the board (its value), and its value in the vector once placed.
    fn observe<O: Observe>(s: &State, o: &mut O) {
        let tc = &s.expansions.toll_collectors;
        for q in 0..s.players as usize {
            let at = tc.at[q];
            if at == NONE16 {
                continue;
            }
            if let Some(c) = o.figure(s, at as usize, q, R_TOLLHOUSE) {
                *c = tc.value[q].max(1);
            }
            *o.supply(q, S_TOLLHOUSE_VALUE) = tc.value[q] as f32;
        }
    }
}
