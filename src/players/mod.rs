//! The built-in players: a policy text names one (`random`, `greedy`, `expert`, `mcts:...`), and a
//! seat's policy picks a move from the legal moves of a position. Whole games and batches of
//! them are `batch.rs`'s.

pub mod choice;
pub mod evaluation;
pub mod expert;
pub mod greedy;
pub mod heuristic;
pub mod lookahead;
pub mod mcts;
pub mod params;
pub mod rollouts;
pub mod text;

use crate::engine::moves::Move;
use crate::engine::rng::Rng;
use crate::engine::state::State;
use expert::{Expert, ExpertConfig};
use greedy::{best_index, Greedy};
use heuristic::{Heuristic, HeuristicConfig};
use lookahead::DrawValue;
use mcts::{MctsConfig, Search};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// A built-in player. In a policy text: a name from `PLAYERS` with parameters after colons
/// (`mcts:playouts=2000:c=0.7`, see `mcts::MctsConfig`); a list of seats separates policies
/// with commas.
#[derive(Clone, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly random among all legal moves.
    Random,
    /// Best value now: points scored now plus the projected value of the figure placed
    /// (`greedy.rs`); ties at random.
    Greedy,
    /// The hand-tuned one-ply ranking, the ladder's held-out anchor (`heuristic.rs`).
    Heuristic(HeuristicConfig),
    /// Best value of the position after the move, by the learned evaluation (`expert.rs`).
    Expert(ExpertConfig),
    /// Information-set Monte Carlo tree search (`mcts.rs`).
    Mcts(MctsConfig),
}

/// What a person needs to know of one built-in player: its name, its parameters (`params.rs`'s
/// table, which its parser checks against), and what it does. Python's help texts and agents
/// are made from this table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerInfo {
    pub name: &'static str,
    pub params: &'static [params::Param],
    pub help: &'static str,
}

/// Every built-in player, weakest and cheapest first.
pub const PLAYERS: [PlayerInfo; 5] = [
    PlayerInfo {
        name: "random",
        params: &[],
        help: "uniformly random among the legal moves",
    },
    PlayerInfo {
        name: "greedy",
        params: &[],
        help: "the most points now plus the projected value of the figure placed",
    },
    PlayerInfo {
        name: "heuristic",
        params: &params::HEURISTIC,
        help: "a hand-tuned one-ply ranking (points, open features by their chance of completion from the bag's contents, figures in supply, joins); never trained on, the ladder's anchor; depth=2 looks ahead from its top=N moves over the next draw and the reply to it, depth=3 also over the draw after; rollouts=N plays N continuations of horizon=H decisions from each of its top moves, the heuristic in every seat",
    },
    PlayerInfo {
        name: "expert",
        params: &params::EXPERT,
        help: "the best position after the move by the learned evaluation (shipped weights, or a file from `carcassonne train`); depth=2 looks ahead from its top=N moves over the next draw and the reply to it; rollouts=N plays N continuations of horizon=H decisions from each of its top moves, the expert in every seat",
    },
    PlayerInfo {
        name: "mcts",
        params: &params::MCTS,
        help: "information-set Monte Carlo tree search; eval=learned values rollouts cut at depth=N (2 unless given) by the learned evaluation",
    },
];

impl Policy {
    /// Parse one seat's policy text (`text.rs` gives its syntax and quoting).
    pub fn parse(s: &str) -> Result<Policy, String> {
        PARSES.fetch_add(1, Ordering::Relaxed);
        let s = s.trim();
        let (name, parts) = text::name_and_parts(s)?;
        let params = &s[name.len()..].trim_start().strip_prefix(':').unwrap_or("");
        match name {
            "random" | "greedy" if !parts.is_empty() => {
                Err(format!("policy `{name}` takes no parameters (got `{s}`)"))
            }
            "random" => Ok(Policy::Random),
            "greedy" => Ok(Policy::Greedy),
            "heuristic" if parts.is_empty() => Ok(Policy::Heuristic(HeuristicConfig::default())),
            "heuristic" => HeuristicConfig::parse(params).map(Policy::Heuristic),
            "expert" if parts.is_empty() => Ok(Policy::Expert(ExpertConfig::default())),
            "expert" => ExpertConfig::parse(params).map(Policy::Expert),
            "mcts" => MctsConfig::parse(params).map(Policy::Mcts),
            _ => Err(format!(
                "unknown policy '{s}' (valid: {})",
                valid_policies()
            )),
        }
    }

    /// Parse a comma-separated list of seats' policies (commas inside quotes are a value's).
    pub fn parse_seats(s: &str) -> Result<Vec<Policy>, String> {
        text::seat_texts(s)?
            .into_iter()
            .map(Policy::parse)
            .collect()
    }

    /// Canonical text (parses back to the same policy).
    pub fn text(&self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Heuristic(c) => c.text(),
            Policy::Expert(c) => c.text(),
            Policy::Mcts(c) => c.text(),
        }
    }

    /// Pick one of `moves` (legal moves of `state`); `mem` is reused between calls.
    pub fn choose(&self, state: &State, moves: &[Move], rng: &mut Rng, mem: &mut Players) -> usize {
        match self {
            Policy::Random => rng.below(moves.len()),
            Policy::Greedy => {
                mem.greedy.evaluate(state, moves, &mut mem.values);
                best_index(&mem.values, rng)
            }
            Policy::Heuristic(cfg) => mem.heuristic.choose(cfg, state, moves, rng),
            Policy::Expert(cfg) => mem.expert.choose(cfg, state, moves, rng),
            Policy::Mcts(cfg) => {
                // The search's stream comes from the game's policy generator, so a game is
                // reproducible from its seed alone.
                let seed = rng.next_u64();
                mem.search.run(state, moves, cfg, seed)
            }
        }
    }
}

impl Policy {
    /// The moves this policy drew its last choice from uniformly (indexes into `moves`, the
    /// moves of its last `choose`), where the draw is known: every move for the random player,
    /// the tied best for the greedy, expert and heuristic players; empty for a search.
    pub fn drawn_from(&self, moves: &[Move], mem: &Players, out: &mut Vec<usize>) {
        match self {
            Policy::Random => {
                out.clear();
                out.extend(0..moves.len());
            }
            Policy::Greedy => crate::luck::ties(&mem.values, out),
            Policy::Expert(_) => crate::luck::ties(mem.expert.last_ranks(), out),
            Policy::Heuristic(_) => crate::luck::ties(mem.heuristic.last_ranks(), out),
            Policy::Mcts(_) => out.clear(),
        }
    }

    /// Whether this policy chooses from the positions after its moves alone (no look-ahead,
    /// rollouts or tree search): a game of it costs a few greedy games at most, so a luck
    /// value model can be fitted on 2,000 of its own games in seconds.
    pub fn one_ply(&self) -> bool {
        match self {
            Policy::Random | Policy::Greedy => true,
            Policy::Heuristic(c) => c.depth <= 1 && c.rollouts == 0,
            Policy::Expert(c) => c.depth <= 1,
            Policy::Mcts(_) => false,
        }
    }

    /// The one-ply player this policy ranks its moves and a look-ahead's replies by: itself at
    /// depth 1 without rollouts (a heuristic or expert), else itself. A luck value model for
    /// the replied V is fitted on its games: cheap to play, and they place tiles as the
    /// search's replies do.
    pub fn ranking(&self) -> Policy {
        match self {
            Policy::Heuristic(c) => Policy::Heuristic(HeuristicConfig {
                depth: 1,
                rollouts: 0,
                top: lookahead::DEFAULT_TOP,
                horizon: heuristic::DEFAULT_HORIZON,
                ..*c
            }),
            Policy::Expert(c) => Policy::Expert(ExpertConfig {
                depth: 1,
                rollouts: 0,
                top: lookahead::DEFAULT_TOP,
                horizon: heuristic::DEFAULT_HORIZON,
                ..c.clone()
            }),
            p => p.clone(),
        }
    }

    /// Whether this policy values every next draw while choosing (a look-ahead: depth 2 or
    /// more), so that [`Policy::draw_values`] gives the luck's V for free.
    pub fn looks_ahead(&self) -> bool {
        match self {
            Policy::Heuristic(c) => c.depth >= 2,
            Policy::Expert(c) => c.depth >= 2,
            _ => false,
        }
    }

    /// The values its search gave the next draw after `m`, the move of its last `choose`
    /// (a look-ahead only; None where that move was not looked ahead from).
    pub fn draw_values<'a>(&self, m: &Move, mem: &'a Players) -> Option<&'a [DrawValue]> {
        match self {
            Policy::Heuristic(c) if c.depth >= 2 => mem.heuristic.last_draws(m),
            Policy::Expert(c) if c.depth >= 2 => mem.expert.last_draws(m),
            _ => None,
        }
    }
}

/// How many seats' policy texts this process has parsed: a text is meant to be parsed once at
/// the edge (Python's `check_policy`, a `_core.Policy`) and passed on parsed; tests count.
pub static PARSES: AtomicUsize = AtomicUsize::new(0);

/// The valid policy texts, for messages: `random, greedy, expert[:weights=PATH], ...`.
pub fn valid_policies() -> String {
    PLAYERS
        .iter()
        .map(|p| format!("{}{}", p.name, params::usage(p.params)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reusable memory of the built-in players (one per thread).
#[derive(Default)]
pub struct Players {
    pub greedy: Greedy,
    pub values: Vec<i32>,
    pub heuristic: Heuristic,
    pub expert: Expert,
    pub search: Search,
}

impl Players {
    pub fn new() -> Players {
        Players::default()
    }

    /// Players that give up when `stop` is set (from another thread: Ctrl-C in Python): a
    /// search ends within 64 playouts, a look-ahead within one tile's replies, and a game played with them ends at its next move
    /// ([`crate::batch::play_out_with`]).
    pub fn stopping(stop: &Arc<AtomicBool>) -> Players {
        let mut p = Players::new();
        p.watch(stop);
        p
    }

    /// Give up when `stop` is set (see [`Players::stopping`]).
    pub fn watch(&mut self, stop: &Arc<AtomicBool>) {
        self.search.stop = Some(stop.clone());
        self.heuristic.stop = Some(stop.clone());
        self.expert.stop = Some(stop.clone());
    }

    /// Whether the flag these players watch is set.
    pub fn stopped(&self) -> bool {
        is_set(&self.search.stop)
    }
}

/// Whether a player's stop flag (set from another thread: Ctrl-C in Python) is given and set.
pub(crate) fn is_set(stop: &Option<Arc<AtomicBool>>) -> bool {
    stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
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
