//! The base game. Nothing here names an expansion: the turn, move generation and scoring call
//! the steps of `crate::expansions` (its registry), and each expansion keeps its own state.

pub mod board;
pub mod chance;
pub mod features;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod rng;
pub mod rules;
pub mod score_log;
pub mod scoring;
pub mod state;
pub mod tiles;
