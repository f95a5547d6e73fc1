//! The Abbot (A1-A5): one abbot per player, on a monastery or a garden; recall as the turn's
//! action, refused when the placed tile completes the abbot's spot.

use crate::engine::moves::{Action, Illegal, Move, Placement};
use crate::engine::rules::Rules;
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::{State, NONE16};
use crate::engine::tiles::{Catalogue, SegmentKind, TileType, NO_SEG};
use crate::expansions::layout::{self, ActionSlots, Observe, Slot};

/// Gardens on the board (a plane); the abbot on the board (a figure plane); abbots in supply.
const C_GARDEN: Slot = Slot::new("garden", 5);
const R_ABBOT: Slot = Slot::new("abbot", 1);
const S_ABBOTS: Slot = Slot::new("abbots", 1);

/// The Abbot's state: each player's abbot, in supply or on the board (inert when the option
/// is off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abbot {
    /// Abbots in each player's supply (0 or 1).
    pub supply: [u8; MAX_PLAYERS],
    /// Placed index of the tile holding each player's abbot, or NONE16.
    pub at: [u16; MAX_PLAYERS],
}

/// No abbot anywhere: `set_up` gives each player one when the option is on.
impl Default for Abbot {
    fn default() -> Abbot {
        Abbot {
            supply: [0; MAX_PLAYERS],
            at: [NONE16; MAX_PLAYERS],
        }
    }
}

impl State {
    pub(crate) fn abbot_may_stand_on(&self, kind: SegmentKind) -> bool {
        self.rules.abbot
            && (kind == SegmentKind::Monastery
                || (kind == SegmentKind::Garden && self.rules.gardens))
    }

    /// The segments of a tile that take the abbot: its monastery and, with `gardens` on, its
    /// garden (A2).
    #[inline]
    pub(crate) fn abbot_mask(&self, tt: &crate::engine::tiles::TileType) -> u16 {
        if self.rules.gardens || tt.garden == crate::engine::tiles::NO_SEG {
            tt.abbot_mask
        } else {
            tt.abbot_mask & !(1 << tt.garden)
        }
    }

    /// May the abbot on placed tile `at` be recalled when the new tile goes to (x, y)? Not when
    /// that tile completes the abbot's monastery or garden (A4).
    pub(crate) fn recall_allowed(&self, at: usize, x: i16, y: i16) -> bool {
        let a = self.board.placed[at];
        let adjacent = (a.x - x).abs() <= 1 && (a.y - y).abs() <= 1;
        let around = self.board.neighbours8(a.x, a.y) + u8::from(adjacent);
        around < 8
    }

    /// Take the abbot back and score its monastery or garden as it stands (A4).
    pub(crate) fn recall_abbot(&mut self, p: u8) {
        let at = self.expansions.abbot.at[p as usize] as usize;
        let pl = self.board.placed[at];
        let tt = self.cat.tile(pl.tile);
        for local in [tt.monastery, tt.garden] {
            if local == crate::engine::tiles::NO_SEG {
                continue;
            }
            let g = pl.seg_base + local as u16;
            let f = self.segs[g as usize].figure;
            if f != crate::engine::features::NO_FIGURE
                && crate::engine::features::unpack_figure(f)
                    == (crate::engine::features::Role::Abbot, p)
            {
                self.score_cloister(g);
                self.take_back(g);
                return;
            }
        }
    }
}

/// Abbot facts for one decision.
pub(crate) struct AbbotTurn {
    /// Segments of the drawn tile that take the abbot, if it is in supply (A2).
    mask: u16,
    /// The abbot on the board: its tile's position and how many of the 8 spots around are
    /// filled, counted once (its spot completes only if the new tile fills the 8th, A4).
    spot: Option<(i16, i16, u8)>,
}

/// The Abbot's steps of the turn: placing the abbot (A2) and recalling it (A4).
impl crate::expansions::Expansion for Abbot {
    fn read_out(s: &State, out: &mut impl crate::expansions::ReadOut) {
        use crate::expansions::{counts, InSupply};
        let abbot = InSupply {
            name: "abbot",
            rank: 1,
        };
        out.in_supply("abbots", abbot, counts(&s.abbot().supply, s.players));
    }

    const EVAL_TERMS: &'static [&'static str] = &["in_supply", "in_supply_x_left"];

    fn eval_terms(s: &State, p: usize, left: f32, out: &mut [f32]) {
        if s.rules.abbot {
            let a = s.expansions.abbot.supply[p] as f32;
            out[0] = a;
            out[1] = a * left;
        }
    }

    type Turn = AbbotTurn;

    fn turn(s: &State, tt: &crate::engine::tiles::TileType, p: usize, _: u16) -> AbbotTurn {
        let at = s.expansions.abbot.at[p];
        AbbotTurn {
            mask: if s.rules.abbot && s.expansions.abbot.supply[p] > 0 {
                s.abbot_mask(tt)
            } else {
                0
            },
            spot: (at != NONE16).then(|| {
                let a = s.board.placed[at as usize];
                (a.x, a.y, s.board.neighbours8(a.x, a.y))
            }),
        }
    }

    #[inline]
    fn segment_mask(t: &AbbotTurn) -> u16 {
        t.mask
    }

    #[inline]
    fn needs_segments(t: &AbbotTurn) -> bool {
        t.mask != 0
    }

    #[inline]
    fn figures_on_segment(
        _: &State,
        t: &AbbotTurn,
        at: Placement,
        _: &crate::engine::features::Around,
        i: u8,
        out: &mut Vec<Move>,
    ) {
        if t.mask & (1 << i) != 0 {
            out.push(at.with(Action::Abbot(i)));
        }
    }

    #[inline]
    fn placement_actions(_: &State, t: &mut AbbotTurn, at: Placement, out: &mut Vec<Move>) {
        if let Some((ax, ay, n)) = t.spot {
            let adjacent = (ax - at.x).abs() <= 1 && (ay - at.y).abs() <= 1;
            if n + u8::from(adjacent) < 8 {
                out.push(at.with(Action::Recall(ax, ay)));
            }
        }
    }

    /// Each player takes an abbot (A1).
    fn set_up(s: &mut State) {
        if s.rules.abbot {
            s.expansions.abbot.supply[..s.players as usize].fill(1);
        }
    }

    fn check_action(
        s: &State,
        at: Placement,
        action: Action,
        p: usize,
    ) -> Option<Result<(), Illegal>> {
        match action {
            Action::Abbot(l) => Some(s.check_abbot(at, l, p)),
            Action::Recall(ax, ay) => Some(s.check_recall(ax, ay, at, p)),
            _ => None,
        }
    }

    fn apply_action(s: &mut State, pi: usize, action: Action) -> bool {
        let p = s.current;
        match action {
            Action::Abbot(l) => s.put_figure(pi, l, crate::engine::features::Role::Abbot, p),
            Action::Recall(..) => s.recall_abbot(p),
            _ => return false,
        }
        true
    }

    #[inline]
    fn figure_placed(
        s: &mut State,
        pi: usize,
        _: u16,
        role: crate::engine::features::Role,
        owner: u8,
    ) {
        if role == crate::engine::features::Role::Abbot {
            s.expansions.abbot.supply[owner as usize] -= 1;
            s.expansions.abbot.at[owner as usize] = pi as u16;
        }
    }

    #[inline]
    fn figure_returned(s: &mut State, _: u16, role: crate::engine::features::Role, owner: u8) {
        if role == crate::engine::features::Role::Abbot {
            s.expansions.abbot.supply[owner as usize] += 1;
            s.expansions.abbot.at[owner as usize] = NONE16;
        }
    }

    const CHANNELS: &'static [Slot] = &[C_GARDEN];
    const ROLES: &'static [Slot] = &[R_ABBOT];
    const SUPPLY: &'static [Slot] = &[S_ABBOTS];

    #[inline]
    fn observe_tile<O: Observe>(s: &State, pi: usize, tt: &TileType, o: &mut O) {
        if tt.garden != NO_SEG {
            if let Some(c) = o.mark(s, pi, C_GARDEN) {
                *c = 1;
            }
        }
    }

    /// The abbots in supply (an abbot on the board is a figure on its segment, shown on the
    /// plane named as its role).
    fn observe<O: Observe>(s: &State, o: &mut O) {
        for q in 0..s.players as usize {
            *o.supply(q, S_ABBOTS) = s.expansions.abbot.supply[q] as f32;
        }
    }

    /// The abbot on a segment of the placed tile; its recall.
    const ACTIONS: &'static [ActionSlots] = &[
        ActionSlots::new("abbot", 1, "abbot on segment #"),
        ActionSlots::new("recall", 7, "recall the abbot"),
    ];

    fn action_slots(rules: Rules, k: usize, cat: &Catalogue, tiles: &[u16]) -> usize {
        match k {
            _ if !rules.abbot => 0,
            0 => layout::most_segments(cat, tiles, |tt| tt.abbot_mask),
            _ => 1,
        }
    }

    fn action_slot(s: &State, _at: Placement, action: Action) -> Option<(usize, usize)> {
        match action {
            Action::Abbot(l) => Some((0, layout::segment_slot(s.cat.tile(s.tile).abbot_mask, l)?)),
            Action::Recall(..) => Some((1, 0)),
            _ => None,
        }
    }

    fn slot_action(s: &State, _x: i16, _y: i16, k: usize, i: usize) -> Option<Action> {
        if k == 0 {
            return Some(Action::Abbot(layout::slot_segment(
                s.cat.tile(s.tile).abbot_mask,
                i,
            )?));
        }
        let at = s.expansions.abbot.at[s.current as usize];
        if at == NONE16 {
            return None;
        }
        let q = &s.board.placed[at as usize];
        Some(Action::Recall(q.x, q.y))
    }
}

impl State {
    /// Why the abbot may not go on segment `l` of the placement `at` (A2, B9), if it may not.
    fn check_abbot(&self, at: Placement, l: u8, p: usize) -> Result<(), Illegal> {
        let seg = self.drawn_segment(l, "A2")?;
        if !self.rules.abbot {
            return Err(Illegal::new("A2", "the Abbot is not in play"));
        }
        if self.expansions.abbot.supply[p] == 0 {
            return Err(Illegal::new("A2", "your abbot is already on the board"));
        }
        if !self.abbot_may_stand_on(seg.kind) {
            return Err(Illegal::new(
                "A2",
                if self.rules.gardens {
                    format!(
                        "the abbot goes only on a monastery or a garden, not a {} (A2)",
                        seg.kind.name()
                    )
                } else {
                    format!(
                        "the abbot goes only on a monastery (gardens=off), not a {} (A2)",
                        seg.kind.name()
                    )
                },
            ));
        }
        self.check_free(at, l)
    }

    /// Why player `p`'s abbot at (ax, ay) may not be recalled with the placement `at` (A4).
    fn check_recall(&self, ax: i16, ay: i16, at: Placement, p: usize) -> Result<(), Illegal> {
        let abbot = self.expansions.abbot.at[p];
        if abbot == NONE16 {
            return Err(Illegal::new("A4", "your abbot is not on the board"));
        }
        let a = self.board.placed[abbot as usize];
        if (a.x, a.y) != (ax, ay) {
            return Err(Illegal::new(
                "A4",
                format!("your abbot stands at {},{}, not {ax},{ay}", a.x, a.y),
            ));
        }
        if !self.recall_allowed(abbot as usize, at.x, at.y) {
            return Err(Illegal::new(
                "A4",
                "this tile completes the abbot's monastery or garden: it scores as complete, no recall (A4)",
            ));
        }
        Ok(())
    }
}
