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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly random among all legal moves.
    Random,
    /// Best immediate points (own gain minus the best opponent's gain this move); ties go to
    /// the move whose figure stands on the most valuable open feature, then at random.
    Greedy,
}

pub const POLICY_NAMES: [&str; 2] = ["random", "greedy"];

impl Policy {
    pub fn parse(s: &str) -> Option<Policy> {
        match s {
            "random" => Some(Policy::Random),
            "greedy" => Some(Policy::Greedy),
            _ => None,
        }
    }

    /// Pick one of `moves` (legal moves of `state`); `scratch` is reused between calls.
    pub fn choose(
        self,
        state: &State,
        moves: &[Move],
        rng: &mut Rng,
        scratch: &mut Option<State>,
    ) -> usize {
        match self {
            Policy::Random => rng.below(moves.len()),
            Policy::Greedy => greedy(state, moves, rng, scratch),
        }
    }
}

fn greedy(state: &State, moves: &[Move], rng: &mut Rng, scratch: &mut Option<State>) -> usize {
    let me = state.to_move() as usize;
    let mut before = [0u32; crate::rules::MAX_PLAYERS];
    for (p, b) in before.iter_mut().enumerate().take(state.players as usize) {
        *b = state.total(p);
    }
    let mut best = (i64::MIN, 0usize);
    let mut ties = 0usize;
    for (i, m) in moves.iter().enumerate() {
        let s = match scratch {
            Some(s) => {
                s.clone_from(state);
                s
            }
            None => scratch.insert(state.clone()),
        };
        s.play_unchecked(m);
        let mut gain = 0i64;
        let mut rival = 0i64;
        for (p, b) in before.iter().enumerate().take(state.players as usize) {
            let d = s.total(p) as i64 - *b as i64;
            if p == me {
                gain = d;
            } else {
                rival = rival.max(d);
            }
        }
        let score = (gain - rival) * 1000 + open_feature_value(s, m);
        if score > best.0 {
            best = (score, i);
            ties = 1;
        } else if score == best.0 {
            // Reservoir sampling: a uniformly random one among equal moves.
            ties += 1;
            if rng.below(ties) == 0 {
                best.1 = i;
            }
        }
    }
    best.1
}

/// Tie-break: what the figure just placed stands to earn if its feature stays open (its
/// current value; a farmer, the completed cities beside its field).
fn open_feature_value(after: &State, m: &Move) -> i64 {
    use crate::moves::Action;
    let (Action::Meeple(l) | Action::Abbot(l)) = m.action else {
        return 0;
    };
    let Some(pi) = after.board.at(m.x, m.y) else {
        return 0;
    };
    let g = after.seg_id(pi, l);
    if after.segs[g as usize].figure == crate::features::NO_FIGURE {
        return 0; // scored and returned at once: counted in the gain
    }
    let root = after.find(g);
    match after.segs[g as usize].kind {
        crate::tiles::SegmentKind::Road | crate::tiles::SegmentKind::City => {
            after.feature_value(root, false) as i64
        }
        crate::tiles::SegmentKind::Monastery | crate::tiles::SegmentKind::Garden => {
            after.cloister_value(pi) as i64
        }
        crate::tiles::SegmentKind::Field => {
            let mut cities = Vec::new();
            after.completed_cities_of_field(root, &mut cities);
            cities.len() as i64
        }
        _ => 0,
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

/// Play one whole game from `state`, seat p choosing with `policies[p % len]`, reusing
/// `moves` as scratch space.
pub fn play_out(state: &mut State, policies: &[Policy], rng: &mut Rng, moves: &mut Vec<Move>) {
    let mut scratch = None;
    loop {
        match state.phase {
            Phase::Draw | Phase::Reveal => {
                state.draw_random(|_| {});
                if matches!(state.phase, Phase::Draw | Phase::Reveal) {
                    return; // no chance step can be taken (never with a loaded catalogue)
                }
            }
            Phase::Place | Phase::Farmer | Phase::Choose => {
                state.legal_moves(moves);
                let policy = policies[state.to_move() as usize % policies.len()];
                let i = policy.choose(state, moves, rng, &mut scratch);
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
    policies: &[Policy],
    moves: &mut Vec<Move>,
) -> Result<GameResult, String> {
    let seed = game_seed(master, index);
    let mut state = State::new(cat.clone(), rules, players, seed)?;
    let mut rng = Rng::new(seed ^ 0x05EE_D0FA_6E47);
    play_out(&mut state, policies, &mut rng, moves);
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
    policies: &[Policy],
    threads: usize,
) -> Result<Vec<GameResult>, String> {
    let never = AtomicBool::new(false);
    simulate_until(
        cat, rules, players, first, games, master, policies, threads, &never,
    )
    .map(|r| r.unwrap_or_default())
}

/// Like [`simulate`], but gives up soon after `stop` is set (no game starts after it):
/// `Ok(None)` then. Lets a caller interrupt a long batch (Ctrl-C from Python).
#[allow(clippy::too_many_arguments)]
pub fn simulate_until(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    first: u64,
    games: usize,
    master: u64,
    policies: &[Policy],
    threads: usize,
    stop: &AtomicBool,
) -> Result<Option<Vec<GameResult>>, String> {
    // Validate once so that worker threads cannot fail.
    State::new(cat.clone(), rules, players, master)?;
    if policies.is_empty() {
        return Err("at least one policy is needed".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let results: Result<Vec<GameResult>, String> = pool.install(|| {
        (first..first + games as u64)
            .into_par_iter()
            .map_init(
                || Vec::with_capacity(256),
                |moves, i| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(String::new()); // ends the collection at once
                    }
                    run_game(cat, rules, players, master, i, policies, moves)
                },
            )
            .collect()
    });
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    results.map(Some)
}
