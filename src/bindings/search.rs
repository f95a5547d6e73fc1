//! The native search (MCTS) from Python: `State.search` runs it with the GIL released.

use super::errors::{value_error, IllegalMoveError};
use super::moves::PyMove;
use super::state::PyState;
use crate::engine::state::Phase;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The native search of the decision waiting in `state` (see `State.search`), with the `mcts`
/// parameters `params` (name, value) besides the playouts: the policy's own parser checks them.
#[allow(clippy::type_complexity)]
pub(crate) fn search(
    state: &PyState,
    py: Python<'_>,
    playouts: u32,
    seed: u64,
    params: &[(String, String)],
) -> PyResult<(PyMove, Vec<(PyMove, u32, f64)>)> {
    let mut text = format!("playouts={playouts}");
    for (k, v) in params {
        if k.contains([':', ',', '=', '"']) {
            return Err(PyValueError::new_err(format!(
                "search parameter name {k:?} is not a parameter of mcts"
            )));
        }
        text += &format!(":{k}={}", crate::players::text::quote(v));
    }
    let cfg = crate::players::mcts::MctsConfig::parse(&text).map_err(value_error)?;
    let mut moves = Vec::with_capacity(128);
    state.st.legal_moves(&mut moves);
    if moves.is_empty() {
        // What waits instead of a decision: the end, an expansion's chance step, or a draw.
        let why = match state.st.phase {
            Phase::Over => "the game is over",
            _ => crate::expansions::waiting(&state.st).unwrap_or("a tile is to be drawn"),
        };
        return Err(IllegalMoveError::new_err(format!(
            "no decision to search: {why}"
        )));
    }
    let st = state.st.clone();
    // On another thread, while this one polls Python's signals: Ctrl-C ends the search and
    // raises KeyboardInterrupt here.
    let (best, stats) = super::simulate::simulate_interruptibly(py, move |stop| {
        let mut search = crate::players::mcts::Search::new();
        search.stop = Some(stop.clone());
        let best = search.run(&st, &moves, &cfg, seed);
        let mut stats = Vec::new();
        search.root_stats(&mut stats);
        Ok(Some((
            moves[best],
            stats
                .iter()
                .map(|r| (moves[r.index], r.visits, r.mean))
                .collect::<Vec<_>>(),
        )))
    })?;
    Ok((
        state.make_move(best),
        stats
            .into_iter()
            .map(|(m, v, q)| (state.make_move(m), v, q))
            .collect(),
    ))
}
