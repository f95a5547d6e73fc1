//! Decision rows for fitting the learned evaluation to rank moves: at sampled decisions of
//! league games, the expert's best few candidate moves, each played on and continued to the
//! end several times with common random numbers (every candidate of a decision meets the
//! same draw orders and the same players' seeds), so that the difference between two
//! candidates' outcomes is the difference their moves make, not the luck of the bag.
//!
//! A row is one candidate: the evaluation's terms of the position after it, the mover's
//! minus its opponent's (a two-player margin, the model's own reading of a move:
//! `Evaluation::value`), and the mean over the continuations of the final margin minus the
//! margin in that position (the margin's points still to come, what those terms predict).
//!
//! The target's teacher may instead look a short way ahead (`Teacher`): the mean value, by
//! the picking expert's own evaluation, of the positions its rollouts reach a few decisions
//! on (`Rollouts<Expert>`, the expert in every seat), or its expectimax over the next draw
//! (`Lookahead<Expert>`); the target is then that value minus the margin after the candidate,
//! in the same units. Both read the bag's contents, never its order. Far less noise than a
//! game's end, at the price of the teacher's bias: policy improvement on the expert itself.

use crate::batch::{batch_pool, play_out_with, policy_rng};
use crate::engine::moves::Move;
use crate::engine::rng::{game_seed, splitmix64, Rng};
use crate::engine::rules::{Rules, MAX_PLAYERS};
use crate::engine::state::{Phase, State};
use crate::engine::tiles::Catalogue;
use crate::players::evaluation::{terms, Terms, Weights, TERMS};
use crate::players::expert::{Expert, ExpertConfig};
use crate::players::lookahead::Lookahead;
use crate::players::rollouts::Rollouts;
use crate::players::{Players, Policy};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What values a candidate (the target is its value minus the margin after the candidate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Teacher {
    /// The final margin, each continuation played to the end by the plan's `continuation`.
    End,
    /// The picking expert's rollouts: each continuation (`continuations` of them, common
    /// random numbers) plays `horizon` decisions with the expert in every seat, then the
    /// expert values the position reached.
    Rollouts { horizon: u16 },
    /// The picking expert's expectimax over the next draw and the reply to it
    /// (`expert:depth=2`'s value; `continuations` is not used).
    Depth2,
}

impl Teacher {
    /// `end`, `rollouts` (with `horizon`, 1 or more) or `depth2`.
    pub fn parse(name: &str, horizon: u16) -> Result<Teacher, String> {
        match name {
            "end" => Ok(Teacher::End),
            "rollouts" if horizon >= 1 => Ok(Teacher::Rollouts { horizon }),
            "rollouts" => Err("a rollouts teacher needs a horizon of at least 1".into()),
            "depth2" => Ok(Teacher::Depth2),
            _ => Err(format!("unknown teacher {name:?}: end, rollouts or depth2")),
        }
    }
}

/// What to sample and how to value it.
#[derive(Clone, Debug)]
pub struct DecisionPlan {
    /// The seats of the games the decisions are sampled from.
    pub seats: Vec<Policy>,
    /// The seats that play every continuation on (after the candidate's move).
    pub continuation: Vec<Policy>,
    /// The weights that pick the candidates (the expert's best `candidates` moves).
    pub weights: Arc<Weights>,
    pub candidates: usize,
    /// Moves drawn at random from the rest, valued beside the best `candidates`: a model
    /// that is not linear learns from the best moves alone nothing about the others, and may
    /// value them wildly.
    pub random: usize,
    pub continuations: usize,
    /// One turn in `every` is sampled (at a random offset per game).
    pub every: u16,
    pub teacher: Teacher,
}

/// Rows of candidate moves: `terms` holds `TERMS` numbers per row; the rows of one decision
/// are consecutive and share its `decisions` number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decisions {
    /// The mover's terms minus the opponent's, in the position after the candidate.
    pub terms: Vec<f32>,
    /// The opponent's terms there (with `terms`, each player's own: what a model that is not
    /// linear in the terms needs).
    pub theirs: Vec<f32>,
    /// Mean over the continuations of (final margin - margin after the candidate), for the
    /// mover.
    pub targets: Vec<f32>,
    /// Each row's decision (numbered from 0 in the order of the games and their turns).
    pub decisions: Vec<u32>,
    /// Each row's game (its batch index).
    pub games: Vec<u32>,
}

impl Decisions {
    pub fn rows(&self) -> usize {
        self.targets.len()
    }
}

/// The decision rows of games `first..first + games` of the batch seeded by `master` (two
/// players), on `threads` threads (0: all cores); the same for every thread count.
/// `Ok(None)` when `stop` was set.
#[allow(clippy::too_many_arguments)]
pub fn decisions(
    cat: &Arc<Catalogue>,
    rules: Rules,
    first: u64,
    games: usize,
    master: u64,
    plan: &DecisionPlan,
    threads: usize,
    stop: &Arc<AtomicBool>,
) -> Result<Option<Decisions>, String> {
    if plan.every == 0 {
        return Err("every must be at least 1".into());
    }
    if plan.candidates < 1 || plan.continuations < 1 {
        return Err("at least 1 candidate and 1 continuation are needed".into());
    }
    if plan.continuation.is_empty() {
        return Err("at least one continuation policy is needed".into());
    }
    let pool = batch_pool(cat, rules, 2, master, &plan.seats, threads)?;
    let per_game: Vec<(Decisions, u32)> = pool.install(|| {
        (first..first + games as u64)
            .into_par_iter()
            .map_init(
                || Work::new(stop),
                |work, i| {
                    if stop.load(Ordering::Relaxed) {
                        return (Decisions::default(), 0);
                    }
                    let seed = game_seed(master, i);
                    let state = State::new(cat.clone(), rules, 2, seed).expect("validated above");
                    work.game(state, plan, seed, i as u32)
                },
            )
            .collect()
    });
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let mut out = Decisions::default();
    let mut base = 0u32;
    for (g, n) in per_game {
        out.terms.extend(g.terms);
        out.theirs.extend(g.theirs);
        out.targets.extend(g.targets);
        out.games.extend(g.games);
        out.decisions.extend(g.decisions.iter().map(|d| d + base));
        base += n;
    }
    Ok(Some(out))
}

/// One thread's scratch memory.
struct Work {
    moves: Vec<Move>,
    scratch: Vec<Move>,
    mem: Players,
    picker: Expert,
    values: Vec<f32>,
    order: Vec<usize>,
    t: Box<Terms>,
    rollouts: Rollouts<Expert>,
    look: Lookahead<Expert>,
    picked: Vec<u32>,
    taught: Vec<f32>,
}

impl Work {
    fn new(stop: &Arc<AtomicBool>) -> Work {
        let mut rollouts = Rollouts::default();
        rollouts.stop = Some(stop.clone());
        let mut look = Lookahead::default();
        look.stop = Some(stop.clone());
        Work {
            moves: Vec::with_capacity(256),
            scratch: Vec::with_capacity(256),
            mem: Players::stopping(stop),
            picker: Expert::new(),
            values: Vec::new(),
            order: Vec::new(),
            t: Box::new([[0.0; TERMS]; MAX_PLAYERS]),
            rollouts,
            look,
            picked: Vec::new(),
            taught: Vec::new(),
        }
    }

    /// One game played by the plan's seats, its sampled decisions valued; returns the rows
    /// (decisions numbered from 0) and how many decisions they hold.
    fn game(
        &mut self,
        mut state: State,
        plan: &DecisionPlan,
        seed: u64,
        game: u32,
    ) -> (Decisions, u32) {
        let mut rng = policy_rng(seed);
        // Which turns are sampled comes from a stream of its own: the game is the one the
        // batch runner plays with the same seed.
        let offset = Rng::new(seed ^ 0xDEC1_510E).below(plan.every as usize) as u16;
        // Every move valued, the network on each: the training's own expert (its defaults
        // of when the shipped weights were made; `training.TRAINED_PLAY`).
        let pick = ExpertConfig {
            weights: plan.weights.clone(),
            width: 0,
            net_top: 0,
            ..ExpertConfig::default()
        };
        let mut out = Decisions::default();
        let mut n = 0u32;
        loop {
            match state.phase {
                Phase::Over => break,
                p if p.is_chance() => {
                    state.chance_random(&mut |_| {}, &mut |_| {});
                    if state.phase.is_chance() {
                        break;
                    }
                }
                _ if self.mem.stopped() => break,
                p => {
                    state.legal_moves(&mut self.moves);
                    if p == Phase::Place
                        && state.turns % plan.every == offset
                        && self.moves.len() > 1
                    {
                        let key = splitmix64(&mut (seed ^ ((state.turns as u64) << 40)));
                        self.value(&state, plan, &pick, key, n, game, &mut out);
                        n += 1;
                    }
                    let policy = &plan.seats[state.to_move() as usize % plan.seats.len()];
                    let i = policy.choose(&state, &self.moves, &mut rng, &mut self.mem);
                    state.play_unchecked(&self.moves[i]);
                }
            }
        }
        (out, n)
    }

    /// The rows of one decision (`self.moves` are its legal moves).
    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        state: &State,
        plan: &DecisionPlan,
        pick: &ExpertConfig,
        key: u64,
        decision: u32,
        game: u32,
        out: &mut Decisions,
    ) {
        let me = state.to_move() as usize;
        let other = 1 - me;
        self.picker
            .evaluate(pick, state, &self.moves, &mut self.values);
        self.order.clear();
        self.order.extend(0..self.moves.len());
        let values = &self.values;
        // Best first; equal values in legal-move order.
        self.order
            .sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
        let best = plan.candidates.min(self.order.len());
        let extra = plan.random.min(self.order.len() - best);
        // A stream of the decision's own: the rows of the best candidates do not change.
        let mut draw = Rng::new(key ^ 0xDD50_F0E5);
        for i in best..best + extra {
            let j = i + draw.below(self.order.len() - i);
            self.order.swap(i, j);
        }
        self.order.truncate(best + extra);
        // The teacher plays as the training's expert does (`training.TRAINED_PLAY`), with the
        // picker's weights.
        let teach = ExpertConfig {
            weights: plan.weights.clone(),
            width: 32,
            net_top: 0,
            ..ExpertConfig::default()
        };
        self.look.forget();
        if let Teacher::Rollouts { horizon } = plan.teacher {
            self.picked.clear();
            self.picked.extend(self.order.iter().map(|&c| c as u32));
            self.rollouts.values(
                &teach,
                state,
                &self.moves,
                &self.picked,
                plan.continuations as u32,
                horizon,
                key,
                &mut self.taught,
            );
        }
        for (k, &c) in self.order.iter().enumerate() {
            let mut after = state.clone();
            after.play_unchecked(&self.moves[c]);
            terms(&after, &mut self.t);
            out.terms.extend(
                self.t[me]
                    .iter()
                    .zip(self.t[other].iter())
                    .map(|(a, b)| a - b),
            );
            out.theirs.extend_from_slice(&self.t[other]);
            let margin = |s: &State| s.total(me) as f64 - s.total(other) as f64;
            let now = margin(&after);
            match plan.teacher {
                Teacher::End => {}
                Teacher::Rollouts { .. } => {
                    out.targets.push((self.taught[k] as f64 - now) as f32);
                    out.decisions.push(decision);
                    out.games.push(game);
                    continue;
                }
                Teacher::Depth2 => {
                    let v = self
                        .look
                        .value(&teach, state, &self.moves[c], me, f32::MIN)
                        .unwrap_or(f32::MIN);
                    out.targets.push((v as f64 - now) as f32);
                    out.decisions.push(decision);
                    out.games.push(game);
                    continue;
                }
            }
            let mut sum = 0.0;
            for m in 0..plan.continuations {
                // The same draws and players' seeds for every candidate of the decision.
                let mut x = key ^ (m as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let s_m = splitmix64(&mut x);
                let mut s = after.clone();
                s.rng = Rng::new(s_m);
                let mut prng = policy_rng(s_m);
                play_out_with(
                    &mut s,
                    &plan.continuation,
                    &mut prng,
                    &mut self.scratch,
                    &mut self.mem,
                    &mut |_| {},
                );
                sum += margin(&s) - now;
            }
            out.targets.push((sum / plan.continuations as f64) as f32);
            out.decisions.push(decision);
            out.games.push(game);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::evaluation::BUILTIN;

    fn plan(candidates: usize, continuations: usize) -> DecisionPlan {
        DecisionPlan {
            seats: vec![Policy::Greedy],
            continuation: vec![Policy::Greedy],
            weights: BUILTIN.clone(),
            candidates,
            random: 0,
            continuations,
            every: 8,
            teacher: Teacher::End,
        }
    }

    fn run(plan: &DecisionPlan, threads: usize) -> Decisions {
        let stop = Arc::new(AtomicBool::new(false));
        decisions(
            &Catalogue::builtin(),
            Rules::base(),
            3,
            4,
            11,
            plan,
            threads,
            &stop,
        )
        .unwrap()
        .unwrap()
    }

    #[test]
    fn same_rows_for_any_thread_count() {
        let p = plan(3, 2);
        let a = run(&p, 1);
        assert!(a.rows() > 10);
        assert_eq!(a.terms.len(), a.rows() * TERMS);
        assert_eq!(a, run(&p, 2));
        assert_eq!(a, run(&p, 1));
    }

    #[test]
    fn rows_of_a_decision_are_consecutive_and_numbered_in_order() {
        let a = run(&plan(4, 1), 2);
        assert_eq!(a.decisions[0], 0);
        for w in a.decisions.windows(2) {
            assert!(w[1] == w[0] || w[1] == w[0] + 1);
        }
        for d in 0..=*a.decisions.last().unwrap() {
            let k = a.decisions.iter().filter(|&&x| x == d).count();
            assert!((1..=4).contains(&k));
        }
    }

    #[test]
    fn random_candidates_follow_the_best_and_leave_their_rows_as_they_were() {
        let best = run(&plan(3, 1), 2);
        let more = run(
            &DecisionPlan {
                random: 2,
                ..plan(3, 1)
            },
            2,
        );
        assert_eq!(
            more,
            run(
                &DecisionPlan {
                    random: 2,
                    ..plan(3, 1)
                },
                1
            )
        );
        assert_eq!(best.decisions.last(), more.decisions.last());
        let mut extra = 0;
        for d in 0..=*best.decisions.last().unwrap() {
            let rows = |x: &Decisions| -> Vec<usize> {
                (0..x.rows()).filter(|&i| x.decisions[i] == d).collect()
            };
            let (a, b) = (rows(&best), rows(&more));
            // The best rows first, unchanged; then up to 2 other moves.
            for (&i, &j) in a.iter().zip(&b) {
                assert_eq!(best.targets[i], more.targets[j]);
                assert_eq!(
                    best.terms[i * TERMS..(i + 1) * TERMS],
                    more.terms[j * TERMS..(j + 1) * TERMS]
                );
            }
            assert!(b.len() <= a.len() + 2);
            extra += b.len() - a.len();
        }
        assert!(extra > 10);
    }

    /// A candidate's outcome depends only on its move: the same move met twice (as the
    /// candidate of two samplings with the same key) gives the same outcome, and the
    /// continuations of one candidate differ from each other.
    #[test]
    fn candidates_of_a_decision_share_their_draws() {
        let cat = Catalogue::builtin();
        let mut s = State::new(cat, Rules::base(), 2, 5).unwrap();
        s.chance_random(&mut |_| {}, &mut |_| {});
        let stop = Arc::new(AtomicBool::new(false));
        let mut w = Work::new(&stop);
        s.legal_moves(&mut w.moves);
        let first = w.moves[0];
        // The same move offered three times: every copy must meet the same futures.
        w.moves = vec![first, first, first];
        let p = plan(3, 3);
        let pick = ExpertConfig {
            weights: p.weights.clone(),
            width: 0,
            net_top: 0,
            ..ExpertConfig::default()
        };
        let mut out = Decisions::default();
        w.value(&s, &p, &pick, 99, 0, 0, &mut out);
        assert_eq!(out.rows(), 3);
        assert_eq!(out.targets[0], out.targets[1]);
        assert_eq!(out.targets[1], out.targets[2]);
        assert_eq!(out.terms[..TERMS], out.terms[TERMS..2 * TERMS]);
        // Another key is another future.
        let mut found = false;
        for key in 100..110 {
            let mut other = Decisions::default();
            w.value(&s, &p, &pick, key, 0, 0, &mut other);
            found |= other.targets[0] != out.targets[0];
        }
        assert!(found, "the continuations never change with the key");
    }

    /// A look-ahead teacher's targets depend on the key and the bag's contents only: the same
    /// twice, the same with the bag's order reversed, and they rank the candidates apart.
    #[test]
    fn teachers_are_deterministic_and_blind_to_the_bags_order() {
        let cat = Catalogue::builtin();
        let mut s = State::new(cat, Rules::base(), 2, 5).unwrap();
        let mut moves = Vec::new();
        let mut rng = Rng::new(1);
        // A few turns in, so that the candidates' futures differ.
        while s.turns < 6 {
            if s.phase.is_chance() {
                s.chance_random(&mut |_| {}, &mut |_| {});
            } else {
                s.legal_moves(&mut moves);
                s.play_unchecked(&moves[rng.below(moves.len())]);
            }
        }
        while s.phase.is_chance() {
            s.chance_random(&mut |_| {}, &mut |_| {});
        }
        let mut shuffled = s.clone();
        shuffled.bag_groups_mut().for_each(<[u16]>::reverse);
        assert_ne!(s.bag, shuffled.bag);
        let stop = Arc::new(AtomicBool::new(false));
        for teacher in [Teacher::Rollouts { horizon: 4 }, Teacher::Depth2] {
            let p = DecisionPlan {
                teacher,
                ..plan(4, 3)
            };
            let pick = ExpertConfig {
                weights: p.weights.clone(),
                width: 0,
                ..ExpertConfig::default()
            };
            let rows = |state: &State, key: u64| {
                let mut w = Work::new(&stop);
                state.legal_moves(&mut w.moves);
                let mut out = Decisions::default();
                w.value(state, &p, &pick, key, 0, 0, &mut out);
                out
            };
            let a = rows(&s, 7);
            assert_eq!(a.rows(), 4);
            assert!(a.targets.iter().all(|t| t.is_finite()));
            assert!(a.targets.windows(2).any(|w| w[0] != w[1]), "{teacher:?}");
            assert_eq!(a, rows(&s, 7), "{teacher:?}");
            assert_eq!(a, rows(&shuffled, 7), "{teacher:?}");
        }
    }

    #[test]
    fn teachers_parse() {
        assert_eq!(Teacher::parse("end", 0), Ok(Teacher::End));
        assert_eq!(
            Teacher::parse("rollouts", 8),
            Ok(Teacher::Rollouts { horizon: 8 })
        );
        assert_eq!(Teacher::parse("depth2", 8), Ok(Teacher::Depth2));
        assert!(Teacher::parse("rollouts", 0).is_err());
        assert!(Teacher::parse("heuristic", 8)
            .unwrap_err()
            .contains("unknown teacher"));
    }

    #[test]
    fn bad_plans_are_refused() {
        let stop = Arc::new(AtomicBool::new(false));
        let cat = Catalogue::builtin();
        for p in [
            plan(0, 1),
            plan(1, 0),
            DecisionPlan {
                every: 0,
                ..plan(1, 1)
            },
        ] {
            assert!(decisions(&cat, Rules::base(), 0, 1, 0, &p, 1, &stop).is_err());
        }
    }
}
