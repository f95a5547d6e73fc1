//! Whole games with the built-in players, and a batch runner that spreads games over threads
//! with per-game seeds derived from one master seed, so results do not depend on the thread
//! count.

use crate::engine::chance::Chance;
use crate::engine::moves::Move;
use crate::engine::rng::{game_seed, Rng};
use crate::engine::rules::{Rules, MAX_PLAYERS};
use crate::engine::scoring::N_SOURCES;
use crate::engine::state::State;
use crate::engine::tiles::Catalogue;
use crate::luck::{Forecast, Judge, Luck, Settled, Values};
use crate::players::{Players, Policy};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The outcome of one game, as the batch runner reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub seed: u64,
    pub scores: [u32; MAX_PLAYERS],
    pub breakdown: [[u16; N_SOURCES]; MAX_PLAYERS],
    pub turns: u16,
    pub discarded: u16,
    /// Bit p set when player p is among the winners.
    pub winners: u8,
    /// The game's luck, when it was measured (`luck.rs`).
    pub luck: Option<Luck>,
    /// The luck of each feature of V, when measured with terms (`Judge::terms`), else empty.
    pub luck_terms: Vec<f64>,
}

/// Play one whole game from `state`, seat p choosing with `policies[p % len]`, reusing
/// `moves` as scratch space.
pub fn play_out(state: &mut State, policies: &[Policy], rng: &mut Rng, moves: &mut Vec<Move>) {
    play_out_with(
        state,
        policies,
        rng,
        moves,
        &mut Players::new(),
        &mut |_| {},
    );
}

/// One step of a game, as `play_out_with` reports it (to rebuild a game's full record).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A tile drawn (discarded ones included).
    Tile(u16),
    /// An animal token revealed (its points).
    Animal(u8),
    /// A move played, with the tile it placed (NONE16 for a farmer choice or a choice of tile).
    Move(u16, Move),
}

/// `play_out` with the players' memory given and every chance step and move reported to `log`.
/// Players that were told to stop ([`Players::stopping`]) end the game where it stands.
pub fn play_out_with(
    state: &mut State,
    policies: &[Policy],
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    mem: &mut Players,
    log: &mut impl FnMut(Step),
) {
    play_judged(
        state,
        policies,
        rng,
        moves,
        mem,
        log,
        None::<&mut Judge<Settled>>,
    );
}

/// `play_out_with`, the game's luck measured by `judge` when given (its chance steps taken one
/// at a time: the game is the same either way).
pub fn play_judged<F: Forecast>(
    state: &mut State,
    policies: &[Policy],
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    mem: &mut Players,
    log: &mut impl FnMut(Step),
    mut judge: Option<&mut Judge<F>>,
) {
    let log = std::cell::RefCell::new(log);
    let mut drawn = Vec::new();
    loop {
        if state.phase.is_chance() {
            match judge.as_deref_mut() {
                None => state.chance_random(&mut |t| (log.borrow_mut())(Step::Tile(t)), &mut |a| {
                    (log.borrow_mut())(Step::Animal(a))
                }),
                Some(j) => {
                    while let Some(c) = j.chance_step(state) {
                        (log.borrow_mut())(match c {
                            Chance::Tile(t) => Step::Tile(t),
                            Chance::Reveal(a) => Step::Animal(a),
                        });
                    }
                }
            }
            if state.phase.is_chance() {
                return; // no chance step can be taken (never with a loaded catalogue)
            }
        } else if state.phase.is_decision() {
            if mem.stopped() {
                return;
            }
            state.legal_moves(moves);
            let policy = &policies[state.to_move() as usize % policies.len()];
            let i = policy.choose(state, moves, rng, mem);
            if let Some(j) = judge.as_deref_mut() {
                policy.drawn_from(moves, mem, &mut drawn);
                j.choice(state, moves, &drawn, i);
                if j.wants_draws() {
                    j.told(state.to_move() as usize, policy.draw_values(&moves[i], mem));
                }
            }
            (log.borrow_mut())(Step::Move(state.tile, moves[i]));
            state.play_unchecked(&moves[i]);
        } else {
            return; // Phase::Over
        }
    }
}

/// Play game `index` of a batch started from `master`.
#[allow(clippy::too_many_arguments)]
pub fn run_game<F: Forecast>(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    master: u64,
    index: u64,
    policies: &[Policy],
    moves: &mut Vec<Move>,
    mem: &mut Players,
    mut judge: Option<&mut Judge<F>>,
) -> Result<GameResult, String> {
    let seed = game_seed(master, index);
    let mut state = State::new(cat.clone(), rules, players, seed)?;
    let mut rng = policy_rng(seed);
    if let Some(j) = judge.as_deref_mut() {
        j.reset();
    }
    play_judged(
        &mut state,
        policies,
        &mut rng,
        moves,
        mem,
        &mut |_| {},
        judge.as_deref_mut(),
    );
    let mut r = result_of(&state, seed);
    if let Some(j) = judge {
        r.luck = Some(j.luck);
        r.luck_terms.clone_from(&j.terms);
    }
    Ok(r)
}

/// The policies' generator of the game with seed `seed` (shared by the seats).
pub fn policy_rng(seed: u64) -> Rng {
    Rng::new(seed ^ 0x05EE_D0FA_6E47)
}

/// Play the game with seed `seed` (a batch game's own seed) as `simulate` plays it, and
/// report its every step, for its full record.
pub fn game_steps(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    seed: u64,
    policies: &[Policy],
) -> Result<(Vec<Step>, GameResult), String> {
    let never = Arc::new(AtomicBool::new(false));
    game_steps_until(cat, rules, players, seed, policies, &never)
        .and_then(|r| r.ok_or_else(|| "the game was stopped".to_string()))
}

/// Like [`game_steps`], but gives up soon after `stop` is set: `Ok(None)` then.
pub fn game_steps_until(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    seed: u64,
    policies: &[Policy],
    stop: &Arc<AtomicBool>,
) -> Result<Option<(Vec<Step>, GameResult)>, String> {
    if policies.is_empty() {
        return Err("at least one policy is needed".into());
    }
    let mut state = State::new(cat.clone(), rules, players, seed)?;
    let mut rng = policy_rng(seed);
    let mut steps = Vec::new();
    play_out_with(
        &mut state,
        policies,
        &mut rng,
        &mut Vec::new(),
        &mut Players::stopping(stop),
        &mut |s| steps.push(s),
    );
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    Ok(Some((steps, result_of(&state, seed))))
}

pub fn result_of(state: &State, seed: u64) -> GameResult {
    let mut scores = [0u32; MAX_PLAYERS];
    for (p, s) in scores.iter_mut().enumerate().take(state.players as usize) {
        *s = state.total(p);
    }
    let winners = state.winner_mask();
    GameResult {
        seed,
        scores,
        breakdown: state.scores,
        turns: state.turns,
        discarded: state.discarded,
        winners,
        luck: None,
        luck_terms: Vec::new(),
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
    let never = Arc::new(AtomicBool::new(false));
    simulate_until(
        cat, rules, players, first, games, master, policies, threads, None, &never,
    )
    .map(|r| r.unwrap_or_default())
}

/// The thread pool of a batch on `threads` threads (0: all cores), once its set-up is checked:
/// a game of these rules and players can be set up, and there is a policy to play it (so that
/// worker threads cannot fail).
pub(crate) fn batch_pool(
    cat: &Arc<Catalogue>,
    rules: Rules,
    players: usize,
    master: u64,
    policies: &[Policy],
    threads: usize,
) -> Result<rayon::ThreadPool, String> {
    State::new(cat.clone(), rules, players, master)?;
    if policies.is_empty() {
        return Err("at least one policy is needed".into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())
}

/// Like [`simulate`], but gives up soon after `stop` is set (no game starts after it, and the
/// games being played end at their next move, a search within 64 playouts): `Ok(None)` then.
/// Lets a caller interrupt a long batch (Ctrl-C from Python). With `luck` (where V comes
/// from), each game's luck is measured too (`GameResult::luck`; the games are the same).
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
    luck: Option<Values>,
    stop: &Arc<AtomicBool>,
) -> Result<Option<Vec<GameResult>>, String> {
    let pool = batch_pool(cat, rules, players, master, policies, threads)?;
    let results: Result<Vec<GameResult>, String> = pool.install(|| {
        (first..first + games as u64)
            .into_par_iter()
            .map_init(
                || {
                    let judge = luck.as_ref().map(Values::judge);
                    (Vec::with_capacity(256), Players::stopping(stop), judge)
                },
                |(moves, mem, judge), i| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(String::new()); // ends the collection at once
                    }
                    run_game(
                        cat,
                        rules,
                        players,
                        master,
                        i,
                        policies,
                        moves,
                        mem,
                        judge.as_mut(),
                    )
                },
            )
            .collect()
    });
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    results.map(Some)
}
