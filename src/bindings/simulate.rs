//! Native batches of whole games (`simulate`), policy texts and the moves of one native game.

use super::catalogue::PyCatalogue;
use super::decision::PyDecision;
use super::errors::{value_error, IllegalMoveError};
use super::moves::PyMove;
use super::rules::PyRules;
use super::state::PyState;
use crate::batch;
use crate::engine::scoring::N_SOURCES;
use crate::engine::tiles::Catalogue;
use crate::luck::{Measure, Source, Values, FEATURES, MAX_TAIL, PARTS};
use crate::players::{self, Policy};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Run a batch (or a search) on another thread, GIL released, while this one runs Python's
/// signal handlers every few milliseconds: a Ctrl-C (KeyboardInterrupt, or any exception a
/// handler raises) sets `stop`, which ends the work within about a game, and is raised here.
pub(crate) fn simulate_interruptibly<T: Send>(
    py: Python<'_>,
    run: impl FnOnce(&Arc<AtomicBool>) -> Result<Option<T>, String> + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let stop = &stop;
        scope.spawn(move || {
            let _ = tx.send(run(stop));
        });
        let mut rx = rx;
        loop {
            // The receiver is moved in and out: it may not be shared with another thread.
            let (got, back) = py.detach(move || {
                let got = rx.recv_timeout(std::time::Duration::from_millis(20));
                (got, rx)
            });
            rx = back;
            match got {
                Ok(Ok(Some(out))) => return Ok(out),
                Ok(Ok(None)) => return Err(PyValueError::new_err("the batch was stopped")),
                Ok(Err(e)) => return Err(PyValueError::new_err(e)),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        let _ = py.detach(move || rx.recv()); // the workers end within a game
                        return Err(e);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "the batch thread ended without a result",
                    ))
                }
            }
        }
    })
}

/// The seats' players of a policy argument: a `Policy` (parsed already: its seats, nothing
/// parsed again) or a policy text (parsed here).
fn seats_of(policy: &Bound<'_, PyAny>) -> PyResult<Vec<Policy>> {
    if let Ok(parsed) = policy.cast::<PyPolicy>() {
        return Ok(parsed.borrow().seats.clone());
    }
    match policy.cast::<pyo3::types::PyString>() {
        Ok(text) => Policy::parse_seats(text.to_str()?).map_err(value_error),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "policy must be a str or a Policy, not {}",
            policy.get_type().name()?
        ))),
    }
}

/// Run `games` whole games natively (GIL released, rayon). `policy`: a policy text, or a
/// `Policy` parsed once for every chunk of a study (its seats; its generator is not used);
/// None: `random`. Returns columns as raw
/// little-endian buffers: {name: (bytes, dtype, shape)}; with `luck`, each game's luck too
/// (`luck_score`, `luck_win`: per player; `luck_margin`, `luck_events`: per game;
/// `luck_score_parts`, `luck_win_parts`: per player split by the event's kind and stage,
/// `luck::part`), valued
/// with the weights file `luck_weights` (default: the shipped weights). `luck_values` says
/// where V comes from: "settled" (the weights' forecast), "searched" (the look-ahead seats' own
/// values of each next draw: two players, every seat a look-ahead), "replied" (the weights'
/// forecast, but each tile of the draw after a looked-ahead move valued after the reply the
/// search found for it), "auto" (replied where a seat looks ahead, else settled). `luck_settle`: the players (one-ply: `Policy::one_ply`) that play a
/// settled V's positions on to the next chance step (default "greedy": the cheapest per
/// answer, BENCHMARKS.md "2026-12-06 (session 11)"). With `luck_terms` and a settled V, also
/// `luck_terms` (games x players x features): each player's luck in V's score and in each
/// evaluation term (`Judge::with_terms`), which `training.value_weights` fits V's weights on.
/// `luck_tail`: V is exact with at most this many tiles left (`Judge::with_tail`; default
/// `Source::tail`: `luck::TAIL` where a seat searches, else 0; at most `luck::MAX_TAIL`).
#[pyfunction]
#[pyo3(signature = (players=2, games=1000, seed=0, policy=None, threads=0, first=0, catalogue=None, rules=None, luck=false, luck_weights=None, luck_values="auto", luck_settle=None, luck_terms=false, luck_tail=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn simulate<'py>(
    py: Python<'py>,
    players: usize,
    games: usize,
    seed: u64,
    policy: Option<&Bound<'py, PyAny>>,
    threads: usize,
    first: u64,
    catalogue: Option<PyCatalogue>,
    rules: Option<PyRules>,
    luck: bool,
    luck_weights: Option<&str>,
    luck_values: &str,
    luck_settle: Option<&str>,
    luck_terms: bool,
    luck_tail: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
    let (rules, cat) = rules.unwrap_or_default().in_catalogue(cat)?;
    let pols = match policy {
        Some(policy) => seats_of(policy)?,
        None => vec![Policy::Random],
    };
    let weights = match (luck, luck_weights) {
        (false, _) => None,
        (true, None) => Some(crate::players::evaluation::BUILTIN.clone()),
        (true, Some(path)) => Some(crate::players::evaluation::load(path).map_err(value_error)?),
    };
    let source = Source::parse(luck_values, players, &pols).map_err(value_error)?;
    let settlers = match luck_settle {
        None | Some("greedy") => Vec::new(),
        Some(text) => {
            let seats = Policy::parse_seats(text).map_err(value_error)?;
            if !seats.iter().all(Policy::one_ply) {
                return Err(PyValueError::new_err(format!(
                    "luck_settle must choose in one ply (no look-ahead, rollouts or search), \
                     not {text:?}"
                )));
            }
            seats
        }
    };
    let tail = luck_tail.unwrap_or(source.tail(&pols));
    if tail > MAX_TAIL {
        return Err(PyValueError::new_err(format!(
            "luck_tail must be at most {MAX_TAIL} (its cost grows like its factorial), not {tail}"
        )));
    }
    let measure = Measure {
        terms: luck_terms,
        tail,
    };
    let weights = weights.map(|w| match source {
        Source::Searched => Values::Searched,
        Source::Replied => Values::Replied(w, measure),
        Source::Settled => Values::Settled(w, settlers, measure),
    });
    let results = simulate_interruptibly(py, |stop| {
        batch::simulate_until(
            &cat, rules, players, first, games, seed, &pols, threads, weights, stop,
        )
    })?;
    let n = results.len();
    let d = PyDict::new(py);
    let mut seeds = Vec::with_capacity(n * 8);
    let mut turns = Vec::with_capacity(n * 2);
    let mut discarded = Vec::with_capacity(n * 2);
    let mut winners = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(n * players * 4);
    let mut breakdown = Vec::with_capacity(n * players * N_SOURCES * 4);
    for r in &results {
        seeds.extend_from_slice(&r.seed.to_le_bytes());
        turns.extend_from_slice(&r.turns.to_le_bytes());
        discarded.extend_from_slice(&r.discarded.to_le_bytes());
        winners.push(r.winners);
        for p in 0..players {
            scores.extend_from_slice(&(r.scores[p] as i32).to_le_bytes());
        }
        for p in 0..players {
            for s in 0..N_SOURCES {
                breakdown.extend_from_slice(&(r.breakdown[p][s] as i32).to_le_bytes());
            }
        }
    }
    let col = |buf: Vec<u8>, dtype: &str, shape: Vec<usize>| -> (Py<PyBytes>, String, Vec<usize>) {
        (PyBytes::new(py, &buf).unbind(), dtype.to_string(), shape)
    };
    d.set_item("seed", col(seeds, "<u8", vec![n]))?;
    d.set_item("turns", col(turns, "<u2", vec![n]))?;
    d.set_item("discarded", col(discarded, "<u2", vec![n]))?;
    d.set_item("winners", col(winners, "u1", vec![n]))?;
    // Signed: differences of scores must not wrap around in numpy.
    d.set_item("scores", col(scores, "<i4", vec![n, players]))?;
    d.set_item(
        "breakdown",
        col(breakdown, "<i4", vec![n, players, N_SOURCES]),
    )?;
    if luck {
        let (mut score, mut win) = (Vec::new(), Vec::new());
        let (mut margin, mut events) = (Vec::new(), Vec::new());
        let (mut score_parts, mut win_parts) = (Vec::new(), Vec::new());
        for r in &results {
            let l = r.luck.unwrap_or_default();
            for p in 0..players {
                score.extend_from_slice(&l.score[p].to_le_bytes());
                win.extend_from_slice(&l.win[p].to_le_bytes());
                for k in 0..PARTS {
                    score_parts.extend_from_slice(&l.score_parts[p][k].to_le_bytes());
                    win_parts.extend_from_slice(&l.win_parts[p][k].to_le_bytes());
                }
            }
            margin.extend_from_slice(&l.margin.to_le_bytes());
            events.extend_from_slice(&l.events.to_le_bytes());
        }
        d.set_item("luck_score", col(score, "<f8", vec![n, players]))?;
        d.set_item("luck_win", col(win, "<f8", vec![n, players]))?;
        d.set_item("luck_margin", col(margin, "<f8", vec![n]))?;
        d.set_item("luck_events", col(events, "<u4", vec![n]))?;
        d.set_item(
            "luck_score_parts",
            col(score_parts, "<f8", vec![n, players, PARTS]),
        )?;
        d.set_item(
            "luck_win_parts",
            col(win_parts, "<f8", vec![n, players, PARTS]),
        )?;
        if luck_terms && source != Source::Searched {
            let mut terms = Vec::with_capacity(n * players * FEATURES * 8);
            for r in &results {
                for v in &r.luck_terms[..players * FEATURES] {
                    terms.extend_from_slice(&v.to_le_bytes());
                }
            }
            d.set_item("luck_terms", col(terms, "<f8", vec![n, players, FEATURES]))?;
        }
    }
    Ok(d)
}

/// Where a batch's luck V comes from for these seats (`simulate`'s `luck_values`):
/// ("searched", None), or ("settled" or "replied", the policy text whose games its value
/// model is fitted on): the seats themselves (for "replied", each seat's one-ply ranking,
/// `Policy::ranking`) where each chooses in one ply (`Policy::one_ply`: cheap to play
/// thousands of games of), else "greedy".
#[pyfunction]
#[pyo3(signature = (players, policy, luck_values="auto"))]
pub(crate) fn luck_plan(
    players: usize,
    policy: &Bound<'_, PyAny>,
    luck_values: &str,
) -> PyResult<(String, Option<String>)> {
    let pols = seats_of(policy)?;
    let source = Source::parse(luck_values, players, &pols).map_err(value_error)?;
    // The replied V values the positions after the seats' one-ply rankings' replies.
    let fitted: Vec<Policy> = match source {
        Source::Searched => return Ok(("searched".into(), None)),
        Source::Replied => pols.iter().map(Policy::ranking).collect(),
        Source::Settled => pols.clone(),
    };
    let seats = if !fitted.is_empty() && fitted.iter().all(Policy::one_ply) {
        fitted
            .iter()
            .map(Policy::text)
            .collect::<Vec<_>>()
            .join(",")
    } else {
        "greedy".into()
    };
    Ok((source.name().into(), Some(seats)))
}

/// The seats' texts of a comma-separated policy text, split as the engine splits them (a
/// comma inside a quoted value is the value's), nothing else checked.
#[pyfunction]
pub(crate) fn policy_texts(policy: &str) -> PyResult<Vec<String>> {
    Ok(players::text::seat_texts(policy)
        .map_err(value_error)?
        .into_iter()
        .map(str::to_string)
        .collect())
}

/// One seat's policy text as its player's name and its (name, value) parameters, values
/// unquoted; a part without `=` has an empty name (an mcts playout count).
#[pyfunction]
pub(crate) fn policy_parts(policy: &str) -> PyResult<(String, Vec<(String, String)>)> {
    let (name, parts) = players::text::name_and_parts(policy).map_err(value_error)?;
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        out.push(match players::text::key_value(part).map_err(value_error)? {
            Some((k, v)) => (k.to_string(), v),
            None => (
                String::new(),
                players::text::unquote(part).map_err(value_error)?,
            ),
        });
    }
    Ok((name.to_string(), out))
}

/// `value` as a policy text writes it (quoted when it holds `:`, `,` or `"`), so that it
/// reads back as itself.
#[pyfunction]
pub(crate) fn quote_value(value: &str) -> String {
    players::text::quote(value)
}

/// How many seats' policy texts the engine has parsed in this process (for tests).
#[pyfunction]
pub(crate) fn policy_parses() -> usize {
    crate::players::PARSES.load(std::sync::atomic::Ordering::Relaxed)
}

/// How many different weights read from files players hold now.
#[pyfunction]
pub(crate) fn loaded_weights() -> usize {
    crate::players::evaluation::loaded()
}

/// Canonical text of each seat's policy in a comma-separated policy text (ValueError when one
/// is not a native policy).
#[pyfunction]
pub(crate) fn policy_seats(policy: &str) -> PyResult<Vec<String>> {
    Ok(Policy::parse_seats(policy)
        .map_err(value_error)?
        .iter()
        .map(Policy::text)
        .collect())
}

/// The moves (canonical text, in order) of the native game with seed `seed` played by
/// `policy` (a text, or a `Policy`'s seats): `Game(rules, players, seed)` playing them
/// rebuilds the game and its record.
#[pyfunction]
#[pyo3(signature = (players, seed, policy, catalogue=None, rules=None))]
pub(crate) fn game_moves(
    py: Python<'_>,
    players: usize,
    seed: u64,
    policy: &Bound<'_, PyAny>,
    catalogue: Option<PyCatalogue>,
    rules: Option<PyRules>,
) -> PyResult<Vec<String>> {
    let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
    let (rules, cat) = rules.unwrap_or_default().in_catalogue(cat)?;
    let pols = seats_of(policy)?;
    // Interruptible: a game of long searches takes minutes (Ctrl-C ends it).
    let (steps, _) = simulate_interruptibly(py, |stop| {
        batch::game_steps_until(&cat, rules, players, seed, &pols, stop)
    })?;
    Ok(steps
        .iter()
        .filter_map(|s| match s {
            batch::Step::Move(t, m) => Some(crate::engine::moves::move_text(&cat, *t, m)),
            _ => None,
        })
        .collect())
}

/// The seed of game `index` of a batch started from `master` (as the batch runner derives it).
#[pyfunction]
pub(crate) fn game_seed(master: u64, index: u64) -> u64 {
    crate::engine::rng::game_seed(master, index)
}

/// The native players of one game, seat by seat, with the generator the batch runner gives
/// the game with seed `seed`: choosing at every decision of that game replays it move for
/// move (the seats share one generator, as in the batch).
#[pyclass(name = "Policy", module = "carcassonne._core")]
pub struct PyPolicy {
    seats: Vec<Policy>,
    rng: crate::engine::rng::Rng,
    mem: players::Players,
}

#[pymethods]
impl PyPolicy {
    /// `policy`: one policy text for every seat or comma-separated texts, one per seat.
    #[new]
    fn new(policy: &str, seed: u64) -> PyResult<PyPolicy> {
        Ok(PyPolicy {
            seats: Policy::parse_seats(policy).map_err(value_error)?,
            rng: batch::policy_rng(seed),
            mem: players::Players::new(),
        })
    }

    /// The same players (nothing parsed again, weights shared) with the generator of the
    /// game with seed `seed` and fresh memory.
    fn reseeded(&self, seed: u64) -> PyPolicy {
        PyPolicy {
            seats: self.seats.clone(),
            rng: batch::policy_rng(seed),
            mem: players::Players::new(),
        }
    }

    /// The seats of `policies` (each parsed already), one after the other, as one policy
    /// with the generator of the game with seed `seed`: nothing is parsed again.
    #[staticmethod]
    fn join(policies: Vec<PyRef<'_, PyPolicy>>, seed: u64) -> PyResult<PyPolicy> {
        if policies.is_empty() {
            return Err(PyValueError::new_err(
                "no policy to join: give at least one",
            ));
        }
        Ok(PyPolicy {
            seats: policies
                .iter()
                .flat_map(|p| p.seats.iter().cloned())
                .collect(),
            rng: batch::policy_rng(seed),
            mem: players::Players::new(),
        })
    }

    /// Canonical text of the seats' policies.
    #[getter]
    fn text(&self) -> String {
        self.seats().join(",")
    }

    /// Canonical text of each seat's policy.
    #[getter]
    fn seats(&self) -> Vec<String> {
        self.seats.iter().map(Policy::text).collect()
    }

    /// The move the policy of the player to move chooses now (GIL released).
    fn choose(&mut self, py: Python<'_>, state: &PyState) -> PyResult<PyMove> {
        let mut moves = Vec::with_capacity(128);
        state.st.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(IllegalMoveError::new_err(format!(
                "no decision to choose: the game waits for {}",
                PyDecision::from(state.st.phase).text()
            )));
        }
        let policy = &self.seats[state.st.to_move() as usize % self.seats.len()];
        let (st, rng, mem) = (&state.st, &mut self.rng, &mut self.mem);
        let searches = match policy {
            Policy::Mcts(_) => true,
            Policy::Heuristic(cfg) => cfg.depth > 1,
            _ => false,
        };
        let i = if searches {
            // A search may take minutes: Ctrl-C ends it and raises KeyboardInterrupt here.
            simulate_interruptibly(py, |stop| {
                mem.watch(stop);
                Ok(Some(policy.choose(st, &moves, rng, mem)))
            })?
        } else {
            py.detach(|| policy.choose(st, &moves, rng, mem))
        };
        Ok(state.make_move(moves[i]))
    }
}
