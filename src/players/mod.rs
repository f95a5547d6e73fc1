//! The built-in players: a policy text names one (`random`, `greedy`, `mcts:...`), and a
//! seat's policy picks a move from the legal moves of a position. Whole games and batches of
//! them are `batch.rs`'s.

pub mod greedy;
pub mod mcts;

use crate::engine::moves::Move;
use crate::engine::rng::Rng;
use crate::engine::state::State;
use greedy::{best_index, Greedy};
use mcts::{MctsConfig, Search};

/// A built-in player. In a policy text: `random`, `greedy`, or `mcts` with parameters after
/// colons (`mcts:playouts=2000:c=0.7`, see `mcts::MctsConfig`); a list of seats separates
/// policies with commas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly random among all legal moves.
    Random,
    /// Best value now: points scored now plus the projected value of the figure placed
    /// (`greedy.rs`); ties at random.
    Greedy,
    /// Information-set Monte Carlo tree search (`mcts.rs`).
    Mcts(MctsConfig),
}

pub const POLICY_NAMES: [&str; 3] = ["random", "greedy", "mcts"];

impl Policy {
    /// Parse one seat's policy text.
    pub fn parse(s: &str) -> Result<Policy, String> {
        let s = s.trim();
        let (name, params) = s.split_once(':').unwrap_or((s, ""));
        match name.trim() {
            "random" | "greedy" if !params.is_empty() => {
                Err(format!("policy `{name}` takes no parameters (got `{s}`)"))
            }
            "random" => Ok(Policy::Random),
            "greedy" => Ok(Policy::Greedy),
            "mcts" => MctsConfig::parse(params).map(Policy::Mcts),
            _ => Err(format!(
                "unknown policy '{s}' (valid: random, greedy, mcts[:playouts=N[:c=X:widen=X:depth=N:margin=X]])"
            )),
        }
    }

    /// Parse a comma-separated list of seats' policies.
    pub fn parse_seats(s: &str) -> Result<Vec<Policy>, String> {
        s.split(',').map(Policy::parse).collect()
    }

    /// Canonical text (parses back to the same policy).
    pub fn text(&self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Mcts(c) => c.text(),
        }
    }

    /// Pick one of `moves` (legal moves of `state`); `mem` is reused between calls.
    pub fn choose(self, state: &State, moves: &[Move], rng: &mut Rng, mem: &mut Players) -> usize {
        match self {
            Policy::Random => rng.below(moves.len()),
            Policy::Greedy => {
                mem.greedy.evaluate(state, moves, &mut mem.values);
                best_index(&mem.values, rng)
            }
            Policy::Mcts(cfg) => {
                // The search's stream comes from the game's policy generator, so a game is
                // reproducible from its seed alone.
                let seed = rng.next_u64();
                mem.search.run(state, moves, &cfg, seed)
            }
        }
    }
}

/// Reusable memory of the built-in players (one per thread).
#[derive(Default)]
pub struct Players {
    pub greedy: Greedy,
    pub values: Vec<i32>,
    pub search: Search,
}

impl Players {
    pub fn new() -> Players {
        Players::default()
    }
}

/// Scratch memory only: a copy starts empty (nothing in it affects a choice).
impl Clone for Players {
    fn clone(&self) -> Players {
        Players::new()
    }
}

impl std::fmt::Debug for Players {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Players")
    }
}
