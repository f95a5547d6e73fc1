//! Native playouts: whole games with a built-in policy, and a batch runner that spreads games
//! over threads with per-game seeds derived from one master seed, so results do not depend on
//! the thread count.

use crate::game::{Phase, State};
use crate::moves::Move;
use crate::rng::{game_seed, Rng};
use crate::rules::{Rules, MAX_PLAYERS};
use crate::scoring::N_SOURCES;
use crate::tiles::Catalogue;
use rayon::prelude::*;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly random among all legal moves.
    Random,
}

impl Policy {
    pub fn parse(s: &str) -> Option<Policy> {
        match s {
            "random" => Some(Policy::Random),
            _ => None,
        }
    }

    pub fn choose(self, state: &State, moves: &[Move], rng: &mut Rng) -> usize {
        let _ = state;
        match self {
            Policy::Random => rng.below(moves.len()),
        }
    }
}

/// The outcome of one game, as the batch runner reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub seed: u64,
    pub scores: [u32; MAX_PLAYERS],
    pub breakdown: [[u16; N_SOURCES]; MAX_PLAYERS],
    pub turns: u16,
    pub discarded: u16,
    /// Bit p set when player p is among the winners.
    pub winners: u8,
}

/// Play one whole game from `state` with `policy`, reusing `moves` as scratch space.
pub fn play_out(state: &mut State, policy: Policy, rng: &mut Rng, moves: &mut Vec<Move>) {
    loop {
        match state.phase {
            Phase::Draw => state.draw_random(|_| {}),
            Phase::Place => {
                state.legal_moves(moves);
                let i = policy.choose(state, moves, rng);
                state.play_unchecked(&moves[i]);
            }
            Phase::Over => return,
        }
    }
}

/// Play game `index` of a batch started from `master`.
pub fn run_game(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    master: u64,
    index: u64,
    policy: Policy,
    moves: &mut Vec<Move>,
) -> Result<GameResult, String> {
    let seed = game_seed(master, index);
    let mut state = State::new(cat.clone(), rules, players, seed)?;
    let mut rng = Rng::new(seed ^ 0x05EE_D0FA_6E47);
    play_out(&mut state, policy, &mut rng, moves);
    Ok(result_of(&state, seed))
}

pub fn result_of(state: &State, seed: u64) -> GameResult {
    let mut scores = [0u32; MAX_PLAYERS];
    for (p, s) in scores.iter_mut().enumerate().take(state.players as usize) {
        *s = state.total(p);
    }
    let winners = state.winners().iter().fold(0u8, |m, &p| m | (1 << p));
    GameResult {
        seed,
        scores,
        breakdown: state.scores,
        turns: state.turns,
        discarded: state.discarded,
        winners,
    }
}

/// Play games `first..first + games` of the batch seeded by `master` on `threads` threads
/// (0 = all cores). Results are in game order and
/// identical for every thread count.
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    first: u64,
    games: usize,
    master: u64,
    policy: Policy,
    threads: usize,
) -> Result<Vec<GameResult>, String> {
    // Validate once so that worker threads cannot fail.
    State::new(cat.clone(), rules, players, master)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(|| {
        (first..first + games as u64)
            .into_par_iter()
            .map_init(
                || Vec::with_capacity(256),
                |moves, i| run_game(cat, rules, players, master, i, policy, moves),
            )
            .collect()
    })
}
