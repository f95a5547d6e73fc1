//! The Fortune Teller (FT1-FT9): meeples on tents let their owner draw extra tiles and choose
//! one to place; a tent with tiles on its four sides completes (3 points to whoever closed it).
//! Hooked into the turn through `expansions::Expansion`: the choice among drawn tiles (a
//! decision with its own moves), tent completion after scoring, and the end of the turn
//! (unused tiles go back into the bag; a builder's second part uses the hand, FT7), the draw
//! (a hand of 1 + k tiles) and the game cut short (the hand is dropped).

use crate::engine::geometry::EDGE_DELTA;
use crate::engine::moves::{Illegal, Move};
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::scoring::Source;
use crate::engine::state::{Phase, State, GROUP_LAND};
use crate::engine::tiles::{TileType, NO_SEG};
use crate::expansions::layout::{Len, Observe, Part, Slot};

/// Tents on the board, fortune tellers in supply, the tiles of the hand (counts per type).
const C_TENT: Slot = Slot::new("tent", 6);
const S_FORTUNE_TELLERS: Slot = Slot::new("fortune_tellers", 5);
const V_HAND: Part = Part::new("hand", 4, Len::TileTypes);

/// At most this many tiles in a hand: 1 + the most fortune tellers any rules allow (FT2-FT3;
/// 3 under the default `max_fortune_tellers=2`).
pub const MAX_HAND: usize = 1 + crate::engine::rules::MAX_FORTUNE_TELLERS as usize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FortuneTeller {
    /// Fortune tellers each player has on tents.
    pub tellers: [u8; MAX_PLAYERS],
    /// Tiles drawn this turn and not yet placed.
    pub hand: [u16; MAX_HAND],
    pub hand_len: u8,
    /// How many tiles this draw takes (1 + tellers, at most 3 and at most what is left).
    pub target: u8,
    /// After a hand with no placeable tile: single draws until one fits (FT4).
    pub single: bool,
}

impl State {
    /// FT5: the tent on placed tile `pi` is complete: tiles on its four sides.
    pub fn tent_complete(&self, pi: usize) -> bool {
        let p = self.board.placed[pi];
        EDGE_DELTA
            .iter()
            .all(|(ex, ey)| self.board.occupied(p.x + ex, p.y + ey))
    }
}

/// Is a draw now filling a fortune-teller hand (rather than a single draw)?
pub(crate) fn hand_draw(s: &mut State, available: usize) -> bool {
    if !s.rules.fortune_teller || s.expansions.fortune_teller.single {
        return false;
    }
    if s.expansions.fortune_teller.hand_len == 0 {
        let k = s.expansions.fortune_teller.tellers[s.current as usize] as usize;
        s.expansions.fortune_teller.target = (1 + k).min(MAX_HAND).min(available) as u8;
    }
    s.expansions.fortune_teller.target > 1
}

/// Keep a drawn tile in the hand; once the hand is full, resolve it.
pub(crate) fn add_to_hand(s: &mut State, t: u16) -> crate::engine::state::Drawn {
    s.expansions.fortune_teller.hand[s.expansions.fortune_teller.hand_len as usize] = t;
    s.expansions.fortune_teller.hand_len += 1;
    if s.expansions.fortune_teller.hand_len < s.expansions.fortune_teller.target
        && !s.bag.is_empty()
    {
        return crate::engine::state::Drawn::Hand;
    }
    resolve_hand(s)
}

/// FT3, FT4, FT8: choose among the placeable tiles of the hand; none placeable: they all
/// leave the game and single draws follow.
pub(crate) fn resolve_hand(s: &mut State) -> crate::engine::state::Drawn {
    let n = s.expansions.fortune_teller.hand_len as usize;
    let placeable = s.expansions.fortune_teller.hand[..n]
        .iter()
        .filter(|&&t| s.has_placement(t))
        .count();
    if placeable == 0 {
        s.discarded += n as u16;
        s.expansions.fortune_teller.hand_len = 0;
        s.expansions.fortune_teller.single = true;
        s.phase = Phase::Draw;
        if s.bag.is_empty() {
            s.finish();
        }
        return crate::engine::state::Drawn::Discarded;
    }
    if n == 1 {
        s.tile = s.expansions.fortune_teller.hand[0];
        s.expansions.fortune_teller.hand_len = 0;
        s.phase = Phase::Place;
    } else {
        s.phase = Phase::Choose;
    }
    crate::engine::state::Drawn::Ready
}

/// The distinct placeable tiles of the hand (the moves of `Phase::Choose`).
pub fn choices(s: &State, out: &mut Vec<u16>) {
    out.clear();
    for &t in &s.expansions.fortune_teller.hand[..s.expansions.fortune_teller.hand_len as usize] {
        if !out.contains(&t) && s.has_placement(t) {
            out.push(t);
        }
    }
}

/// Take tile `t` from the hand to place it.
pub(crate) fn choose(s: &mut State, t: u16) {
    let n = s.expansions.fortune_teller.hand_len as usize;
    if let Some(i) = s.expansions.fortune_teller.hand[..n]
        .iter()
        .position(|&h| h == t)
    {
        s.expansions.fortune_teller.hand.copy_within(i + 1..n, i);
        s.expansions.fortune_teller.hand_len -= 1;
    }
    s.tile = t;
    s.phase = Phase::Place;
}

/// FT3, FT7: at the end of the whole turn, unused tiles go back into the bag, shuffled in:
/// each at a place chosen by the game's generator among the land tiles left (group 0,
/// the bag's start), so it is not simply drawn again next.
pub(crate) fn return_hand(s: &mut State) {
    let n = s.expansions.fortune_teller.hand_len as usize;
    for k in 0..n {
        let at = s.rng.below(s.groups[GROUP_LAND] as usize + 1);
        s.bag.insert(at, s.expansions.fortune_teller.hand[k]);
        s.groups[GROUP_LAND] += 1;
    }
    s.expansions.fortune_teller.hand_len = 0;
    s.expansions.fortune_teller.single = false;
}

/// The refusal of a fortune teller beyond `max_fortune_tellers` (FT2).
pub(crate) fn too_many(s: &State) -> Illegal {
    Illegal::new(
        "FT2",
        match s.rules.max_fortune_tellers {
            0 => "no fortune teller may be placed (max_fortune_tellers=0) (FT2)".into(),
            n => format!("you already have {n} fortune teller(s) on tents, the most allowed (FT2)"),
        },
    )
}

/// A figure arrives on or leaves segment `seg`: on a tent it is a fortune teller (FT2
/// counts them).
pub(crate) fn teller_moved(s: &mut State, seg: u16, owner: u8, arrived: bool) {
    if s.segs[seg as usize].kind != crate::engine::tiles::SegmentKind::Tent {
        return;
    }
    let c = &mut s.expansions.fortune_teller.tellers[owner as usize];
    if arrived {
        *c += 1;
    } else {
        *c = c.saturating_sub(1);
    }
}

/// FT5: tents on or beside the tile at (x, y) with tiles on all four sides complete,
/// whether or not a fortune teller stands there: 3 points to the active player, and a
/// fortune teller there returns. A tent completes once: its four sides stay filled.
pub(crate) fn complete_tents(s: &mut State, x: i16, y: i16) {
    if !s.rules.fortune_teller {
        return;
    }
    let mut closed = [0u16; 5];
    let mut n = 0;
    for g in closed_tents(s, x, y) {
        closed[n] = g;
        n += 1;
    }
    for &g in &closed[..n] {
        s.award(s.current, Source::FortuneTellers, 3);
        if s.segs[g as usize].figure != crate::engine::features::NO_FIGURE {
            s.take_back(g);
        }
    }
}

/// The tent segments on or beside the tile at (x, y) whose four sides are all filled.
fn closed_tents(s: &State, x: i16, y: i16) -> impl Iterator<Item = u16> + '_ {
    let spots = [
        (0, 0),
        EDGE_DELTA[0],
        EDGE_DELTA[1],
        EDGE_DELTA[2],
        EDGE_DELTA[3],
    ];
    spots.into_iter().filter_map(move |(dx, dy)| {
        let (tx, ty) = (x + dx, y + dy);
        let pi = s.board.at(tx, ty)?;
        let p = s.board.placed[pi];
        let tent = s.cat.tile(p.tile).tent;
        (tent != crate::engine::tiles::NO_SEG && s.tent_complete(pi))
            .then_some(p.seg_base + tent as u16)
    })
}

/// FT2: may player `p` put one more fortune teller on a tent?
#[inline]
pub(crate) fn may_place_teller(s: &State, p: usize) -> bool {
    s.expansions.fortune_teller.tellers[p] < s.rules.max_fortune_tellers
}

/// The Fortune Teller's steps of the turn: the choice among drawn tiles (FT3, FT8) and the
/// limit on fortune tellers (FT2).
impl crate::expansions::Expansion for FortuneTeller {
    fn read_out(s: &State, out: &mut impl crate::expansions::ReadOut) {
        use crate::expansions::Fact;
        let ft = s.fortune_teller();
        out.fact("fortune_tellers", Fact::per_player(&ft.tellers, s.players));
        let hand = ft.hand[..ft.hand_len as usize].iter();
        let hand = hand.map(|&t| Fact::Text(s.cat.tile(t).id.clone()));
        out.fact("hand", Fact::List(hand.collect()));
    }

    /// The hand's unused places and `target` (set on each draw) are scratch.
    fn fingerprint(&self, out: &mut String) {
        use std::fmt::Write;
        let hand = &self.hand[..self.hand_len as usize];
        let _ = write!(out, "{:?}{hand:?}{}", self.tellers, self.single);
    }

    const EVAL_TERMS: &'static [&'static str] = &["tellers", "tellers_x_left"];

    fn eval_terms(s: &State, p: usize, left: f32, out: &mut [f32]) {
        if s.rules.fortune_teller {
            out[0] = s.expansions.fortune_teller.tellers[p] as f32;
            out[1] = out[0] * left;
        }
    }

    type Turn = ();

    fn turn(_: &State, _: &crate::engine::tiles::TileType, _: usize, _: u16) {}

    fn decision_moves(s: &State, out: &mut Vec<Move>) -> bool {
        if s.phase != Phase::Choose {
            return false;
        }
        let mut tiles = Vec::new();
        choices(s, &mut tiles);
        for t in tiles {
            out.push(Move::Choose(t));
        }
        true
    }

    fn waiting(s: &State) -> Option<&'static str> {
        (s.phase == Phase::Choose).then_some("the drawn tiles wait for the choice of one (FT3)")
    }

    fn check_decision(s: &State, m: &Move) -> Option<Result<(), Illegal>> {
        match (s.phase, *m) {
            (Phase::Choose, Move::Choose(t)) => {
                let mut tiles = Vec::new();
                choices(s, &mut tiles);
                Some(if tiles.contains(&t) {
                    Ok(())
                } else {
                    Err(Illegal::new(
                        "FT8",
                        format!(
                            "tile {} is not a placeable tile of your hand (FT8)",
                            s.cat.tiles.get(t as usize).map_or("?", |tt| tt.id.as_str())
                        ),
                    ))
                })
            }
            (Phase::Choose, _) => Some(Err(Illegal::new(
                "FT3",
                "choose one of the drawn tiles first: `choose TILE` (FT3)",
            ))),
            (Phase::Place, Move::Choose(_)) => Some(Err(Illegal::new(
                "FT3",
                "no choice among drawn tiles is waiting",
            ))),
            _ => None,
        }
    }

    #[inline]
    fn forbidden_segments(s: &State, tt: &crate::engine::tiles::TileType, p: usize) -> u16 {
        if tt.tent != crate::engine::tiles::NO_SEG && !may_place_teller(s, p) {
            1 << tt.tent
        } else {
            0
        }
    }

    fn check_figure(
        s: &State,
        p: usize,
        kind: crate::engine::tiles::SegmentKind,
    ) -> Result<(), Illegal> {
        if kind == crate::engine::tiles::SegmentKind::Tent && !may_place_teller(s, p) {
            return Err(too_many(s));
        }
        Ok(())
    }

    fn play_decision(s: &mut State, m: &Move) -> bool {
        let Move::Choose(t) = *m else {
            return false;
        };
        choose(s, t);
        true
    }

    #[inline]
    fn figure_placed(s: &mut State, _: usize, g: u16, _: crate::engine::features::Role, owner: u8) {
        teller_moved(s, g, owner, true);
    }

    #[inline]
    fn completions_scored(s: &mut State, pi: usize) {
        let p = s.board.placed[pi];
        complete_tents(s, p.x, p.y);
    }

    #[inline]
    fn laid_tile_scores(s: &State, pi: usize) -> bool {
        let p = s.board.placed[pi];
        s.rules.fortune_teller && closed_tents(s, p.x, p.y).next().is_some()
    }

    /// A turn part ends: a single draw's hand is over (FT4); never another part by itself.
    #[inline]
    fn another_part(s: &mut State) -> bool {
        s.expansions.fortune_teller.single = false;
        false
    }

    #[inline]
    fn tiles_waiting(s: &State) -> bool {
        s.expansions.fortune_teller.hand_len > 0
    }

    /// FT7: the second part places a tile already drawn.
    #[inline]
    fn part_starts(s: &mut State) {
        if s.expansions.fortune_teller.hand_len > 0 {
            resolve_hand(s);
        }
    }

    #[inline]
    fn end_of_turn(s: &mut State) {
        return_hand(s);
    }

    /// The hand is dropped with the bag.
    fn cut_short(s: &mut State) -> bool {
        s.expansions.fortune_teller.hand_len = 0;
        false
    }

    #[inline]
    fn figure_returned(s: &mut State, g: u16, _: crate::engine::features::Role, owner: u8) {
        teller_moved(s, g, owner, false);
    }

    /// FT3: with fortune tellers on tents, the drawn tile joins a hand of 1 + k tiles.
    #[inline]
    fn tile_drawn(s: &mut State, t: u16, available: usize) -> Option<crate::engine::state::Drawn> {
        hand_draw(s, available).then(|| add_to_hand(s, t))
    }

    /// The fortune tellers placed (FT2) and the drawn tiles in the hand.
    const CHANNELS: &'static [Slot] = &[C_TENT];
    const SUPPLY: &'static [Slot] = &[S_FORTUNE_TELLERS];
    const VECTOR: &'static [Part] = &[V_HAND];

    #[inline]
    fn observe_tile<O: Observe>(s: &State, pi: usize, tt: &TileType, o: &mut O) {
        if tt.tent != NO_SEG {
            if let Some(c) = o.mark(s, pi, C_TENT) {
                *c = 1;
            }
        }
    }

    fn observe<O: Observe>(s: &State, o: &mut O) {
        let ft = &s.expansions.fortune_teller;
        for q in 0..s.players as usize {
            *o.supply(q, S_FORTUNE_TELLERS) = ft.tellers[q] as f32;
        }
        for &t in &ft.hand[..ft.hand_len as usize] {
            if let Some(v) = o.tile(V_HAND.slot, t) {
                *v += 1.0;
            }
        }
    }

    /// Choose the tile at each place of the hand.
    const DECISIONS: &'static [Part] = &[Part::new("choose hand", 2, Len::Fixed(MAX_HAND))];

    fn decision_slot(s: &State, m: &Move) -> Option<(usize, usize)> {
        let Move::Choose(t) = *m else {
            return None;
        };
        let ft = &s.expansions.fortune_teller;
        Some((
            0,
            ft.hand[..ft.hand_len as usize]
                .iter()
                .position(|&h| h == t)?,
        ))
    }

    fn slot_decision(s: &State, _k: usize, i: usize) -> Option<Move> {
        let ft = &s.expansions.fortune_teller;
        (i < ft.hand_len as usize).then(|| Move::Choose(ft.hand[i]))
    }

    const WIDE_BOARD: bool = true;
}

#[cfg(test)]
mod tests {
    use crate::engine::rules::Rules;
    use crate::engine::state::{State, GROUP_LAND};
    use crate::engine::tiles::Catalogue;

    /// FT3, FT7: a returned tile is shuffled back in, not put on top: over many seeds its
    /// place among the land tiles left is spread over the whole bag.
    #[test]
    fn a_returned_tile_goes_back_at_a_random_place() {
        let rules = Rules {
            fortune_teller: true,
            ..Rules::base()
        };
        let (mut next, mut low_half, mut seeds) = (0, 0, 0);
        for seed in 0..400u64 {
            let mut st = State::new(Catalogue::builtin(), rules, 2, seed).unwrap();
            let n = st.groups[GROUP_LAND] as usize;
            // Every copy of one tile out, one back: its place can then be found.
            let t = st.bag[n - 1];
            let before: Vec<u16> = st.bag.iter().copied().filter(|&b| b != t).collect();
            st.expansions.fortune_teller.hand[0] = t;
            st.expansions.fortune_teller.hand_len = 1;
            st.bag.retain(|&b| b != t);
            st.groups[GROUP_LAND] = st.bag.len() as u16;
            let left = st.bag.len();
            super::return_hand(&mut st);
            assert_eq!(st.bag.len(), left + 1);
            let at = st.bag.iter().position(|&b| b == t).unwrap();
            let rest: Vec<u16> = st.bag.iter().copied().filter(|&b| b != t).collect();
            assert_eq!(rest, before, "the other tiles keep their order");
            next += usize::from(at == left);
            low_half += usize::from(at < left / 2);
            seeds += 1;
        }
        // Uniform over left + 1 places (about 70): drawn next about 6 times in 400.
        assert!(
            next <= 20,
            "the returned tile came straight back {next} times in {seeds}"
        );
        assert!(
            (140..=260).contains(&low_half),
            "{low_half} of {seeds} in the lower half"
        );
    }
}
