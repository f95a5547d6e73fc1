//! Training positions for the learned evaluation: self-play games, seeded as the batch runner
//! seeds them, with the evaluation's terms of every player at sampled turn starts and, as
//! target, the points that player still scored from there to the end of the game.

use crate::batch::{batch_pool, policy_rng};
use crate::engine::moves::Move;
use crate::engine::rng::{game_seed, Rng};
use crate::engine::rules::Rules;
use crate::engine::state::{Phase, State};
use crate::engine::tiles::Catalogue;
use crate::players::evaluation::{terms, Terms, TERMS};
use crate::players::{Players, Policy};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Rows of training data: `terms` holds `TERMS` numbers per row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Positions {
    pub terms: Vec<f32>,
    /// Final score minus score at the position, of the row's player.
    pub targets: Vec<f32>,
    /// The batch index of the row's game (for splits by game).
    pub games: Vec<u32>,
}

impl Positions {
    pub fn rows(&self) -> usize {
        self.targets.len()
    }
}

/// The positions of games `first..first + games` of the batch seeded by `master`, one turn
/// start in `every` sampled (at a random offset per game), on `threads` threads (0: all
/// cores). With `explore` > 0, each decision is a uniformly random legal move with that
/// probability (a stream of its own: positions a policy alone would not reach). The same for
/// every thread count. `Ok(None)` when `stop` was set.
#[allow(clippy::too_many_arguments)]
pub fn positions(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    first: u64,
    games: usize,
    master: u64,
    policies: &[Policy],
    every: u16,
    explore: f64,
    threads: usize,
    stop: &Arc<AtomicBool>,
) -> Result<Option<Positions>, String> {
    if every == 0 {
        return Err("every must be at least 1".into());
    }
    if !(0.0..=1.0).contains(&explore) {
        return Err(format!("explore must be from 0 to 1, got {explore}"));
    }
    let pool = batch_pool(cat, rules, players, master, policies, threads)?;
    let per_game: Vec<Positions> = pool.install(|| {
        (first..first + games as u64)
            .into_par_iter()
            .map_init(
                || (Vec::with_capacity(256), Players::stopping(stop)),
                |(moves, mem), i| {
                    if stop.load(Ordering::Relaxed) {
                        return Positions::default();
                    }
                    let seed = game_seed(master, i);
                    let state =
                        State::new(cat.clone(), rules, players, seed).expect("validated above");
                    game_positions(state, policies, seed, i as u32, every, explore, moves, mem)
                },
            )
            .collect()
    });
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let mut out = Positions::default();
    for g in per_game {
        out.terms.extend(g.terms);
        out.targets.extend(g.targets);
        out.games.extend(g.games);
    }
    Ok(Some(out))
}

/// One game played out as the batch runner plays it (but for exploring moves), sampling its
/// turn starts.
#[allow(clippy::too_many_arguments)]
fn game_positions(
    mut state: State,
    policies: &[Policy],
    seed: u64,
    game: u32,
    every: u16,
    explore: f64,
    moves: &mut Vec<Move>,
    mem: &mut Players,
) -> Positions {
    let mut rng = policy_rng(seed);
    // Which turns are sampled comes from a stream of its own, so the game is the one the batch
    // runner plays with the same seed.
    let offset = Rng::new(seed ^ 0x7EA_C4E5).below(every as usize) as u16;
    let mut wander = Rng::new(seed ^ 0x0EC5_B10E);
    // In millionths, so that the draw is exact.
    let explore = (explore * 1e6).round() as usize;
    let n = state.players as usize;
    let mut t: Box<Terms> = Box::new([[0.0; TERMS]; crate::engine::rules::MAX_PLAYERS]);
    let mut out = Positions::default();
    let mut now: Vec<u32> = Vec::new();
    let mut last_turn = u16::MAX;
    loop {
        match state.phase {
            Phase::Over => break,
            p if p.is_chance() => {
                if p == Phase::Draw && state.turns != last_turn && state.turns % every == offset {
                    last_turn = state.turns;
                    terms(&state, &mut t);
                    for (p, row) in t.iter().enumerate().take(n) {
                        out.terms.extend_from_slice(row);
                        now.push(state.total(p));
                        out.games.push(game);
                    }
                }
                state.chance_random(&mut |_| {}, &mut |_| {});
                if state.phase.is_chance() {
                    break;
                }
            }
            _ if mem.stopped() => break, // the caller drops the whole batch
            _ => {
                state.legal_moves(moves);
                let policy = &policies[state.to_move() as usize % policies.len()];
                let i = if explore > 0 && wander.below(1_000_000) < explore {
                    wander.below(moves.len())
                } else {
                    policy.choose(&state, moves, &mut rng, mem)
                };
                state.play_unchecked(&moves[i]);
            }
        }
    }
    for (k, s) in now.iter().enumerate() {
        let p = k % n;
        out.targets.push(state.total(p) as f32 - *s as f32);
    }
    out
}
