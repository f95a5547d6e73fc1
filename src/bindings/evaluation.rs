//! The learned evaluation and its training data: the players' table, the evaluation's terms,
//! weights files, and self-play positions for `carcassonne train`.

use super::catalogue::PyCatalogue;
use super::errors::value_error;
use super::rules::PyRules;
use super::simulate::simulate_interruptibly;
use super::state::PyState;
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::tiles::Catalogue;
use crate::learning::decisions::{decisions, DecisionPlan, Teacher};
use crate::learning::positions::positions;
use crate::players::evaluation::{self, Evaluation, Model, Net, Weights, TERMS};
use crate::players::expert::{Expert, ExpertConfig};
use crate::players::heuristic::{Heuristic, HeuristicConfig};
use crate::players::{Policy, PLAYERS};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use std::collections::HashMap;
use std::sync::Arc;

/// Every built-in player as (name, parameters, what it does), weakest first.
#[pyfunction]
pub(crate) fn players() -> Vec<(&'static str, String, &'static str)> {
    PLAYERS
        .iter()
        .map(|p| (p.name, crate::players::params::usage(p.params), p.help))
        .collect()
}

/// The parameters of player `name` as (name, kind, default, range, help), from the engine's
/// table (`players/params.rs`): kind `whole` or `number` with range (lowest, highest),
/// `choice` with its words (the first the default), `path` with no default or range.
#[pyfunction]
pub(crate) fn player_parameters(py: Python<'_>, name: &str) -> PyResult<Vec<Py<PyTuple>>> {
    use crate::players::params::{self, Kind};
    let table = params::of(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown player {name:?} (valid: {})",
            PLAYERS.map(|p| p.name).join(", ")
        ))
    })?;
    // An f32 shown as written (0.3, not 0.30000001192092896).
    let float = |x: f32| x.to_string().parse::<f64>().unwrap_or(x as f64);
    let mut out = Vec::with_capacity(table.len());
    for p in table {
        let (kind, default, range): (&str, Py<PyAny>, Py<PyAny>) = match p.kind {
            Kind::Whole { lo, hi } => (
                "whole",
                (p.default as u32).into_pyobject(py)?.into_any().unbind(),
                (lo, hi).into_pyobject(py)?.into_any().unbind(),
            ),
            Kind::Number { lo, hi } => (
                "number",
                float(p.default).into_pyobject(py)?.into_any().unbind(),
                (float(lo), float(hi))
                    .into_pyobject(py)?
                    .into_any()
                    .unbind(),
            ),
            Kind::Choice(words) => (
                "choice",
                words[0].into_pyobject(py)?.into_any().unbind(),
                PyTuple::new(py, words)?.into_any().unbind(),
            ),
            Kind::Path => ("path", py.None(), py.None()),
        };
        out.push(
            PyTuple::new(
                py,
                [
                    p.name.into_pyobject(py)?.into_any().unbind(),
                    kind.into_pyobject(py)?.into_any().unbind(),
                    default,
                    range,
                    p.help.into_pyobject(py)?.into_any().unbind(),
                ],
            )?
            .unbind(),
        );
    }
    Ok(out)
}

/// The names of the evaluation's terms, in order.
#[pyfunction]
pub(crate) fn evaluation_terms() -> Vec<String> {
    evaluation::term_names()
}

/// The evaluation's terms of each player of `state` (one list per player).
#[pyfunction]
pub(crate) fn state_terms(state: &PyState) -> Vec<Vec<f32>> {
    let mut t = Box::new([[0.0f32; TERMS]; MAX_PLAYERS]);
    evaluation::terms(&state.st, &mut t);
    t[..state.st.players as usize]
        .iter()
        .map(|r| r.to_vec())
        .collect()
}

/// Each player's predicted final score in `state`, by the shipped weights or those of the
/// weights file `weights`.
#[pyfunction]
#[pyo3(signature = (state, weights=None))]
pub(crate) fn predicted_scores(state: &PyState, weights: Option<&str>) -> PyResult<Vec<f32>> {
    let w: Arc<Weights> = match weights {
        Some(path) => evaluation::load(path).map_err(value_error)?,
        None => evaluation::BUILTIN.clone(),
    };
    let mut pred = [0.0f32; MAX_PLAYERS];
    Evaluation::new(&w, &state.st.rules).predict(&state.st, &mut pred);
    Ok(pred[..state.st.players as usize].to_vec())
}

/// The expert player's value of every legal move of `state`, in legal-move order.
#[pyfunction]
#[pyo3(signature = (state, weights=None))]
pub(crate) fn expert_values(state: &PyState, weights: Option<&str>) -> PyResult<Vec<f32>> {
    let cfg = ExpertConfig {
        weights: match weights {
            Some(path) => evaluation::load(path).map_err(value_error)?,
            None => evaluation::BUILTIN.clone(),
        },
        width: 0,
        net_top: 0,
        ..ExpertConfig::default()
    };
    let mut moves = Vec::with_capacity(128);
    state.st.legal_moves(&mut moves);
    let mut values = Vec::with_capacity(moves.len());
    Expert::new().evaluate(&cfg, &state.st, &moves, &mut values);
    Ok(values)
}

/// The heuristic player's parameters from `params` (the text after `heuristic:`, or empty).
fn heuristic_config(params: &str) -> PyResult<HeuristicConfig> {
    if params.trim().is_empty() {
        return Ok(HeuristicConfig::default());
    }
    HeuristicConfig::parse(params).map_err(value_error)
}

/// The heuristic player's parameters as (name, default, lowest, highest, help).
#[pyfunction]
pub(crate) fn heuristic_parameters() -> Vec<(&'static str, f32, f32, f32, &'static str)> {
    crate::players::heuristic::PARAMS.to_vec()
}

/// The heuristic player's value of every legal move of `state`, in legal-move order.
#[pyfunction]
#[pyo3(signature = (state, params=""))]
pub(crate) fn heuristic_values(state: &PyState, params: &str) -> PyResult<Vec<f32>> {
    let cfg = heuristic_config(params)?;
    let mut moves = Vec::with_capacity(128);
    state.st.legal_moves(&mut moves);
    let mut values = Vec::with_capacity(moves.len());
    Heuristic::new().evaluate(&cfg, &state.st, &moves, &mut values);
    Ok(values)
}

/// Each player's expected final score in `state` by the heuristic player's ranking.
#[pyfunction]
#[pyo3(signature = (state, params=""))]
pub(crate) fn heuristic_scores(state: &PyState, params: &str) -> PyResult<Vec<f32>> {
    let cfg = heuristic_config(params)?;
    let mut s = state.st.clone();
    let mut out = [0.0f32; MAX_PLAYERS];
    Heuristic::new().position(&cfg, &mut s, &mut out);
    Ok(out[..state.st.players as usize].to_vec())
}

/// A network as Python sees it: (input weights, hidden x inputs row by row; biases; output
/// weights).
type PyNet = (Vec<f32>, Vec<f32>, Vec<f32>);

/// The text of a weights file holding `models` (key, weights), in the engine's one format;
/// `nets` adds a network (`evaluation::Net`) to the models of its keys.
#[pyfunction]
#[pyo3(signature = (models, nets=None))]
pub(crate) fn weights_text(
    models: Vec<(String, Vec<f32>)>,
    nets: Option<HashMap<String, PyNet>>,
) -> PyResult<String> {
    let mut nets = nets.unwrap_or_default();
    let models: Vec<Model> = models
        .into_iter()
        .map(|(key, weights)| {
            let net = nets.remove(&key).map(|(w1, b1, v)| Net::new(w1, b1, v));
            Model { key, weights, net }
        })
        .collect();
    if let Some(key) = nets.keys().next() {
        return Err(PyValueError::new_err(format!(
            "a network for model {key:?}, which the weights do not have"
        )));
    }
    let w = evaluation::from_models(models, "python").map_err(value_error)?;
    Ok(w.text())
}

/// The networks of a weights file's text, by model key (models without one are left out).
#[pyfunction]
#[pyo3(signature = (text, source="<text>"))]
pub(crate) fn read_networks(text: &str, source: &str) -> PyResult<HashMap<String, PyNet>> {
    let w = Weights::parse(text, source).map_err(value_error)?;
    Ok(w.models
        .into_iter()
        .filter_map(|m| m.net.map(|n| (m.key, (n.w1(), n.b1, n.v))))
        .collect())
}

/// Read a weights file's text; returns its models as (key, weights). ValueError says what
/// is wrong with it.
#[pyfunction]
#[pyo3(signature = (text, source="<text>"))]
pub(crate) fn read_weights(text: &str, source: &str) -> PyResult<Vec<(String, Vec<f32>)>> {
    let w = Weights::parse(text, source).map_err(value_error)?;
    Ok(w.models.into_iter().map(|m| (m.key, m.weights)).collect())
}

/// The model key of a rule set (the expansions it turns on).
#[pyfunction]
pub(crate) fn model_key(rules: PyRules) -> String {
    evaluation::expansion_key(&rules.rules)
}

/// Self-play training positions (GIL released, rayon; Ctrl-C stops them): columns
/// {name: (bytes, dtype, shape)}: `terms` (rows x terms), `targets` (points still scored),
/// `games` (batch index of each row's game).
#[pyfunction]
#[pyo3(signature = (players=2, games=100, seed=0, policy="greedy", every=4, threads=0, first=0, catalogue=None, rules=None, explore=0.0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn training_positions<'py>(
    py: Python<'py>,
    players: usize,
    games: usize,
    seed: u64,
    policy: &str,
    every: u16,
    threads: usize,
    first: u64,
    catalogue: Option<PyCatalogue>,
    rules: Option<PyRules>,
    explore: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
    let (rules, cat) = rules.unwrap_or_default().in_catalogue(cat)?;
    let pols = Policy::parse_seats(policy).map_err(value_error)?;
    if !(0.0..=1.0).contains(&explore) {
        return Err(PyValueError::new_err(format!(
            "explore must be from 0 to 1, got {explore}"
        )));
    }
    let rows = simulate_interruptibly(py, |stop| {
        positions(
            &cat, rules, players, first, games, seed, &pols, every, explore, threads, stop,
        )
    })?;
    let n = rows.rows();
    let bytes = |v: Vec<u8>| PyBytes::new(py, &v).unbind();
    let d = PyDict::new(py);
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    d.set_item("terms", (bytes(f32s(&rows.terms)), "<f4", vec![n, TERMS]))?;
    d.set_item("targets", (bytes(f32s(&rows.targets)), "<f4", vec![n]))?;
    let games: Vec<u8> = rows.games.iter().flat_map(|x| x.to_le_bytes()).collect();
    d.set_item("games", (bytes(games), "<u4", vec![n]))?;
    Ok(d)
}

/// Decision rows for the ranking fit (GIL released, rayon; Ctrl-C stops them): at one turn in
/// `every` of two-player games between the seats of `policy`, the `candidates` best moves by
/// the weights file `weights` (the shipped weights when None) and `random` others drawn from
/// the rest, each continued to the end `continuations` times by the seats of `continuation`
/// with common random numbers. Columns {name: (bytes, dtype, shape)}: `terms` (rows x terms,
/// the mover's minus the opponent's after the candidate), `theirs` (the opponent's terms
/// there), `targets` (mean final margin minus the margin after it), `decisions`, `games`.
/// `teacher` values the candidates instead (`decisions::Teacher`): `end` (the above),
/// `rollouts` (the expert's own rollouts of `horizon` decisions, `continuations` of them) or
/// `depth2` (the expert's expectimax over the next draw).
#[pyfunction]
#[pyo3(signature = (games=10, seed=0, policy="greedy", continuation="greedy", weights=None, candidates=8, continuations=4, every=8, threads=0, first=0, catalogue=None, rules=None, teacher="end", horizon=8, random=0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn training_decisions<'py>(
    py: Python<'py>,
    games: usize,
    seed: u64,
    policy: &str,
    continuation: &str,
    weights: Option<&str>,
    candidates: usize,
    continuations: usize,
    every: u16,
    threads: usize,
    first: u64,
    catalogue: Option<PyCatalogue>,
    rules: Option<PyRules>,
    teacher: &str,
    horizon: u16,
    random: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
    let (rules, cat) = rules.unwrap_or_default().in_catalogue(cat)?;
    let plan = DecisionPlan {
        random,
        teacher: Teacher::parse(teacher, horizon).map_err(value_error)?,
        seats: Policy::parse_seats(policy).map_err(value_error)?,
        continuation: Policy::parse_seats(continuation).map_err(value_error)?,
        weights: match weights {
            Some(path) => evaluation::load(path).map_err(value_error)?,
            None => evaluation::BUILTIN.clone(),
        },
        candidates,
        continuations,
        every,
    };
    let rows = simulate_interruptibly(py, |stop| {
        decisions(&cat, rules, first, games, seed, &plan, threads, stop)
    })?;
    let n = rows.rows();
    let bytes = |v: Vec<u8>| PyBytes::new(py, &v).unbind();
    let d = PyDict::new(py);
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let u32s = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    d.set_item("terms", (bytes(f32s(&rows.terms)), "<f4", vec![n, TERMS]))?;
    d.set_item("theirs", (bytes(f32s(&rows.theirs)), "<f4", vec![n, TERMS]))?;
    d.set_item("targets", (bytes(f32s(&rows.targets)), "<f4", vec![n]))?;
    d.set_item("decisions", (bytes(u32s(&rows.decisions)), "<u4", vec![n]))?;
    d.set_item("games", (bytes(u32s(&rows.games)), "<u4", vec![n]))?;
    Ok(d)
}
