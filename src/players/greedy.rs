//! The greedy player's evaluation: every legal move valued by the points it scores now plus
//! the projected value of the figure it places, without copying the state per candidate.
//!
//! Moves of one placement (same position and rotation) are consecutive in `legal_moves`, the
//! bare placement first. The bare placement is played once on a copy of the state made once
//! per evaluation, then undone (`State::undo_to` restores only what it changed): that
//! gives the points the tile scores now for every player (completions, goods, tolls, tents,
//! circus...). Each action at that placement is then valued on the same copy, analytically:
//!
//! - a figure on a road or city the tile completes scores it now (the feature was free, so it
//!   has no other figure): `feature_value(complete)` points now;
//! - on a monastery or garden the tile completes: 9 points now;
//! - otherwise its projected value: an open road or city what it would score unfinished at the
//!   end (tiles, plus pennants for a city), a monastery or garden 1 + its neighbours, a farmer 3
//!   per completed city beside its field, a fortune teller 3 (a tent that completes);
//! - attached builder: +2 (a second turn ahead), pig: +1 per completed city of its field
//!   (C2 builder and pig alone the same); a ringmaster like a meeple;
//! - an acrobat 5 (BT9: every acrobat scores 5), a tollhouse 2, scoring a pyramid 5 per own
//!   acrobat now minus 5 per opponent's (the acrobats would score 5 each at the end anyway, so
//!   only the freed meeples and the opponents' points differ: valued as said);
//! - recalling the abbot: the points it scores now.
//!
//! A move's value is `2 * (points now - the best opponent's points now) + projected`: points
//! in hand count twice as much as points a figure may still earn. Ties are broken at random.
//! Farmer choices and the Fortune Teller's choice of tile are few: each is played on the copy.

use crate::engine::moves::{Action, Move};
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::{Phase, State};
use crate::engine::tiles::SegmentKind;

/// Reused buffers of the greedy evaluation.
#[derive(Default)]
pub struct Greedy {
    after: Option<State>,
    /// Play every placement's turn out, even where it cannot score (the test of the
    /// shortcut compares both ways).
    always_play: bool,
}

impl Greedy {
    pub fn new() -> Greedy {
        Greedy::default()
    }

    /// Value of each of `moves` (legal moves of `state`) into `values` (same order).
    pub fn evaluate(&mut self, state: &State, moves: &[Move], values: &mut Vec<i32>) {
        values.clear();
        let me = state.to_move() as usize;
        let n = state.players as usize;
        let mut before = [0u32; MAX_PLAYERS];
        for (p, b) in before.iter_mut().enumerate().take(n) {
            *b = state.total(p);
        }
        let per_move = state.phase != Phase::Place;
        // One copy per evaluation; each placement is undone on it (only what it changed is
        // restored).
        let after = match &mut self.after {
            Some(s) => {
                s.clone_from(state);
                s
            }
            None => self.after.insert(state.clone()),
        };
        after.record_changes();
        let mut i = 0;
        while i < moves.len() {
            let m = moves[i];
            // The run of moves at this placement (or one move outside the placement phase).
            let mut j = i + 1;
            if !per_move {
                while j < moves.len() && moves[j].placement() == m.placement() {
                    j += 1;
                }
            }
            let played = match m.placement() {
                Some(at) if !per_move => {
                    // Lay the tile; play the turn out only if it may score now (nothing else
                    // changes anyone's points this turn part, nor what the actions read).
                    let t = after.tile;
                    let pi = after.lay_tile_lookahead(at.x, at.y, t, at.rot);
                    let play = self.always_play || after.laid_tile_may_score(pi);
                    if play {
                        // Lay it again with the frontier, as the turn needs.
                        after.undo_lay(state);
                        let pi = after.lay_tile(at.x, at.y, t, at.rot);
                        after.play_on_laid_tile(pi, Action::Pass);
                    }
                    play
                }
                _ => {
                    after.play_unchecked(&m);
                    true
                }
            };
            let mut now = 0i32;
            if played {
                let mut gain = 0i32;
                let mut rival = 0i32;
                for (p, b) in before.iter().enumerate().take(n) {
                    let d = after.total(p) as i32 - *b as i32;
                    if p == me {
                        gain = d;
                    } else {
                        rival = rival.max(d);
                    }
                }
                now = gain - rival;
            }
            for mv in &moves[i..j] {
                let v = if per_move {
                    2 * now
                } else {
                    let (extra_now, projected) = action_value(after, mv, me);
                    2 * (now + extra_now) + projected
                };
                values.push(v);
            }
            if played {
                after.undo_to(state);
            } else {
                after.undo_lay(state);
            }
            i = j;
        }
    }
}

/// (points now, projected points) of the action of `m`, given `after`: the state once the
/// bare placement of `m` was played.
fn action_value(after: &State, m: &Move, me: usize) -> (i32, i32) {
    let Move::Place { x, y, action, .. } = *m else {
        return (0, 0);
    };
    let Some(pi) = after.board.at(x, y) else {
        return (0, 0);
    };
    let figure = |l: u8| -> (i32, i32) {
        let g = after.seg_id(pi, l);
        let seg = after.segs[g as usize];
        let root = after.find(g);
        match seg.kind {
            SegmentKind::Road | SegmentKind::City => {
                if after.segs[root as usize].open == 0 {
                    (after.feature_value(root, true) as i32, 0)
                } else {
                    (0, after.feature_value(root, false) as i32)
                }
            }
            SegmentKind::Monastery | SegmentKind::Garden => {
                let v = after.cloister_value(pi) as i32;
                if v == 9 {
                    (9, 0)
                } else {
                    (0, v)
                }
            }
            SegmentKind::Field => (0, 3 * after.count_completed_cities_of_field(root) as i32),
            SegmentKind::Tent => (0, 3),
            _ => (0, 0),
        }
    };
    let field_cities = |l: u8| -> i32 {
        let root = after.find(after.seg_id(pi, l));
        after.count_completed_cities_of_field(root) as i32
    };
    match action {
        Action::Pass => (0, 0),
        Action::Meeple(l) | Action::Abbot(l) | Action::Ringmaster(l) => figure(l),
        Action::MeepleBuilder(l) => {
            let (now, proj) = figure(l);
            (now, proj + 2)
        }
        Action::MeeplePig(l) => {
            let (now, proj) = figure(l);
            (now, proj + field_cities(l))
        }
        Action::Builder(_) => (0, 2),
        Action::Pig(l) => (0, field_cities(l)),
        Action::Recall(ax, ay) => {
            let v = after
                .board
                .at(ax, ay)
                .map_or(0, |a| after.cloister_value(a));
            (v as i32, 0)
        }
        Action::Tollhouse(..) => (0, 2),
        Action::Acrobat(..) => (0, 5),
        Action::ScorePyramid(px, py) => {
            let Some(at) = after.board.at(px, py) else {
                return (0, 0);
            };
            let mut mine = 0;
            let mut theirs = 0;
            for pyr in after
                .expansions
                .big_top
                .pyramids
                .iter()
                .filter(|p| p.placed as usize == at)
            {
                for &o in &pyr.owners[..pyr.n as usize] {
                    if o as usize == me {
                        mine += 5;
                    } else {
                        theirs += 5;
                    }
                }
            }
            (mine - theirs, 0)
        }
    }
}

/// Index of the best of `values`, ties broken uniformly at random.
pub fn best_index(values: &[i32], rng: &mut crate::engine::rng::Rng) -> usize {
    let mut best = (i32::MIN, 0usize);
    let mut ties = 0usize;
    for (i, &v) in values.iter().enumerate() {
        if v > best.0 {
            best = (v, i);
            ties = 1;
        } else if v == best.0 {
            // Reservoir sampling: a uniformly random one among equal moves.
            ties += 1;
            if rng.below(ties) == 0 {
                best.1 = i;
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Rng;
    use crate::engine::rules::{Edition, Rules};
    use crate::engine::tiles::Catalogue;

    /// Plays whole games under each rule set and player count (seeds `0..seeds`), chance
    /// from the seeded generator; at every decision `choose` sees the position and its legal
    /// moves and returns the index of the move to play.
    fn each_decision(
        sets: &[(Rules, usize)],
        seeds: u64,
        mut choose: impl FnMut(&State, &[Move], &mut Rng) -> usize,
    ) {
        let cat = Catalogue::builtin();
        let mut moves = Vec::new();
        for &(rules, players) in sets {
            for seed in 0..seeds {
                let mut s = State::new(cat.clone(), rules, players, seed).unwrap();
                let mut rng = Rng::new(seed);
                loop {
                    match s.phase {
                        p if p.is_chance() => {
                            s.chance_random(&mut |_| {}, &mut |_| {});
                            if s.phase.is_chance() {
                                break;
                            }
                        }
                        Phase::Over => break,
                        _ => {
                            s.legal_moves(&mut moves);
                            let i = choose(&s, &moves, &mut rng);
                            s.play_unchecked(&moves[i]);
                        }
                    }
                }
            }
        }
    }

    /// Everything a position holds (a copy drops the undo logs and spare buffers).
    fn snapshot(s: &State) -> String {
        format!("{:?}", s.clone())
    }

    /// Every legal move of whole random games, played (and every placement laid for a
    /// look-ahead) on one recording copy and undone, leaves that copy equal to the position it
    /// started from, in every kind of decision and with every expansion (the greedy player
    /// relies on this).
    #[test]
    fn undo_returns_every_move_to_the_position_it_left() {
        let c2 = Rules {
            traders_builders: Some(Edition::C2),
            big_top: true,
            ..Rules::default()
        };
        let sets = [(Rules::default(), 2), (Rules::every_option(), 3), (c2, 4)];
        let mut look: Option<State> = None;
        let (mut tried, mut decisions) = (0usize, 0usize);
        each_decision(&sets, 2, |s, moves, rng| {
            // The whole position every 16th decision (formatting is slow), the features,
            // board and scores at every one.
            decisions += 1;
            let before = decisions.is_multiple_of(16).then(|| snapshot(s));
            let copy = match &mut look {
                Some(c) => {
                    c.clone_from(s);
                    c
                }
                None => look.insert(s.clone()),
            };
            copy.record_changes();
            for m in moves {
                if let Some(at) = m.placement() {
                    copy.lay_tile_lookahead(at.x, at.y, s.tile, at.rot);
                    copy.undo_lay(s);
                    assert!(*copy.segs == *s.segs, "features after {m:?}");
                    assert_eq!(copy.board.placed, s.board.placed);
                    assert_eq!(copy.board.frontier, s.board.frontier);
                }
                copy.play_unchecked(m);
                copy.undo_to(s);
                assert!(*copy.segs == *s.segs, "features after undoing {m:?}");
                assert_eq!(copy.board.placed, s.board.placed);
                assert_eq!(copy.board.frontier, s.board.frontier);
                assert_eq!(copy.scores, s.scores);
                if let Some(before) = &before {
                    assert_eq!(&snapshot(copy), before, "after undoing {m:?}");
                }
                tried += 1;
            }
            rng.below(moves.len())
        });
        assert!(tried > 10_000, "only {tried} moves tried");
    }

    /// Playing a placement's turn out only where `laid_tile_may_score` says it may score
    /// gives every move the same value as always playing it out: in whole games with every
    /// expansion, in every kind of decision, up to the last tile.
    #[test]
    fn skipping_turns_that_cannot_score_changes_no_value() {
        let c2 = Rules {
            traders_builders: Some(Edition::C2),
            fortune_teller: true,
            ..Rules::default()
        };
        let sets = [(Rules::default(), 2), (Rules::every_option(), 3), (c2, 4)];
        let (mut fast, mut full) = (Greedy::new(), Greedy::new());
        full.always_play = true;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut scored_now = 0usize;
        each_decision(&sets, 4, |s, moves, rng| {
            fast.evaluate(s, moves, &mut a);
            full.evaluate(s, moves, &mut b);
            assert_eq!(a, b, "values differ (turn {})", s.turns);
            scored_now += a.iter().filter(|&&v| v != a[0]).count();
            // Greedy and random moves mixed, for varied positions.
            if rng.below(2) == 0 {
                best_index(&a, rng)
            } else {
                rng.below(moves.len())
            }
        });
        assert!(scored_now > 1000);
    }
}
