//! Python bindings (`carcassonne._core`), one file per concept. Thin: every rule decision
//! stays in the Rust core. This file registers the module's classes and functions only.

mod catalogue;
mod decision;
mod env;
mod errors;
mod evaluation;
mod moves;
mod read_out;
mod rules;
mod scored;
mod search;
mod simulate;
mod state;

use crate::engine::scoring::SOURCE_NAMES;
use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<catalogue::PyCatalogue>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<rules::PyRules>()?;
    m.add_class::<decision::PyDecision>()?;
    m.add_class::<simulate::PyPolicy>()?;
    m.add_function(wrap_pyfunction!(simulate::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::luck_plan, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::policy_seats, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::policy_texts, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::policy_parts, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::quote_value, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::loaded_weights, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::policy_parses, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::game_moves, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::players, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::player_parameters, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::evaluation_terms, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::state_terms, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::predicted_scores, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::expert_values, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::heuristic_parameters, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::heuristic_values, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::heuristic_scores, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::weights_text, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::read_weights, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::read_networks, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::model_key, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::training_positions, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::training_decisions, m)?)?;
    m.add("DEAL_VERSION", crate::engine::state::DEAL_VERSION)?;
    m.add("PlayError", m.py().get_type::<errors::PlayError>())?;
    let illegal = m.py().get_type::<errors::IllegalMoveError>();
    // Raised by Python code too (agents, environments): no rule unless one is given.
    illegal.setattr("rule", m.py().None())?;
    m.add("IllegalMoveError", illegal)?;
    m.add(
        "InvalidMoveError",
        m.py().get_type::<errors::InvalidMoveError>(),
    )?;
    m.add("DrawError", m.py().get_type::<errors::DrawError>())?;
    m.add(
        "CatalogueError",
        m.py().get_type::<errors::CatalogueError>(),
    )?;
    m.add("SOURCES", SOURCE_NAMES.to_vec())?;
    m.add("EXPANSIONS", crate::expansions::NAMES.to_vec())?;
    env::register(m)?;
    Ok(())
}
