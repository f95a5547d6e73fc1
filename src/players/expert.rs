//! The expert player: every legal move valued by the learned evaluation of the position it
//! leads to (`evaluation.rs`), the best taken.
//!
//! Like the greedy player it copies the state once per decision: each move is played on that
//! copy, the position after it is evaluated, and the move is undone (`State::undo_to` restores
//! only what it changed), so valuing a candidate allocates nothing. Ties are broken at random.

use crate::engine::moves::Move;
use crate::engine::rng::Rng;
use crate::engine::state::State;
use crate::expansions;
use crate::players::evaluation::{Evaluation, Weights, BUILTIN};
use crate::players::greedy::{best_index, Greedy};

/// Parameters of the expert player, written `expert`, `expert:weights=PATH`, `expert:width=N`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpertConfig {
    pub weights: &'static Weights,
    /// Value only the `width` moves the greedy evaluation likes best (0: every move).
    pub width: u16,
}

/// The default width: measured in BENCHMARKS.md (strength per CPU time).
pub const DEFAULT_WIDTH: u16 = 32;

impl Default for ExpertConfig {
    fn default() -> Self {
        ExpertConfig {
            weights: &BUILTIN,
            width: DEFAULT_WIDTH,
        }
    }
}

impl ExpertConfig {
    /// Parse the parameters after `expert` (`""` or `":weights=PATH"`).
    pub fn parse(params: &str) -> Result<ExpertConfig, String> {
        let mut weights: Option<&'static Weights> = None;
        let mut width: Option<u16> = None;
        for part in params.split(':') {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!(
                    "expert parameter `{part}`: write it as weights=PATH"
                ));
            };
            match key.trim() {
                "weights" if weights.is_none() => {
                    weights = Some(crate::players::evaluation::load(value.trim())?);
                }
                "width" if width.is_none() => {
                    width = Some(value.trim().parse().map_err(|_| {
                        format!("expert parameter `{part}`: width must be a whole number from 0 to 65535")
                    })?);
                }
                k @ ("weights" | "width") => {
                    return Err(format!("expert parameter `{k}` is given twice"))
                }
                k => {
                    return Err(format!(
                        "unknown expert parameter `{k}` (valid: weights, width)"
                    ))
                }
            }
        }
        // The shipped weights are read only when no file is given.
        Ok(ExpertConfig {
            weights: weights.unwrap_or_else(|| &BUILTIN),
            width: width.unwrap_or(DEFAULT_WIDTH),
        })
    }

    /// Canonical text: `expert`, then the parameters that differ from the defaults.
    pub fn text(&self) -> String {
        let mut s = String::from("expert");
        if self.weights.source != "builtin" {
            s += &format!(":weights={}", self.weights.source);
        }
        if self.width != DEFAULT_WIDTH {
            s += &format!(":width={}", self.width);
        }
        s
    }
}

/// The expert player's reusable memory.
#[derive(Default)]
pub struct Expert {
    after: Option<State>,
    eval: Option<((usize, usize), Evaluation)>,
    values: Vec<f32>,
    ranks: Vec<i32>,
    greedy: Greedy,
    order: Vec<u32>,
}

impl Expert {
    pub fn new() -> Expert {
        Expert::default()
    }

    /// The evaluation of `cfg`'s weights for the rules of `s` (kept while they stay the same).
    pub(crate) fn evaluation(&mut self, cfg: &ExpertConfig, s: &State) -> &mut Evaluation {
        let key = (cfg.weights as *const Weights as usize, rules_key(s));
        if self.eval.as_ref().is_none_or(|(k, _)| *k != key) {
            self.eval = Some((key, Evaluation::new(cfg.weights, &s.rules)));
        }
        &mut self.eval.as_mut().expect("set above").1
    }

    /// Value of each of `moves` (legal moves of `state`) for the player to move, in points of
    /// predicted margin, into `values`.
    pub fn evaluate(
        &mut self,
        cfg: &ExpertConfig,
        state: &State,
        moves: &[Move],
        values: &mut Vec<f32>,
    ) {
        values.clear();
        let me = state.to_move() as usize;
        let mut after = self.after.take().unwrap_or_else(|| state.clone());
        after.clone_from(state);
        after.record_changes();
        // With a width, only the greedy evaluation's best moves are valued; the rest lose.
        let width = cfg.width as usize;
        let narrow = width > 0 && moves.len() > width;
        if narrow {
            self.greedy.evaluate(state, moves, &mut self.ranks);
            self.order.clear();
            self.order.extend(0..moves.len() as u32);
            let ranks = &self.ranks;
            self.order
                .sort_by(|&a, &b| ranks[b as usize].cmp(&ranks[a as usize]).then(a.cmp(&b)));
            self.order.truncate(width);
            values.resize(moves.len(), f32::MIN);
        }
        let order = std::mem::take(&mut self.order);
        let eval = self.evaluation(cfg, state);
        if narrow {
            for &i in &order {
                after.play_unchecked(&moves[i as usize]);
                values[i as usize] = eval.value(&after, me);
                after.undo_to(state);
            }
        } else {
            for m in moves {
                after.play_unchecked(m);
                values.push(eval.value(&after, me));
                after.undo_to(state);
            }
        }
        self.order = order;
        self.after = Some(after);
    }

    /// The values, to a thousandth of a point, of the moves of the last `choose` (the best
    /// are the moves its tie-break drew from).
    pub fn last_ranks(&self) -> &[i32] {
        &self.ranks
    }

    /// The index of the move to play among `moves`.
    pub fn choose(
        &mut self,
        cfg: &ExpertConfig,
        state: &State,
        moves: &[Move],
        rng: &mut Rng,
    ) -> usize {
        let mut values = std::mem::take(&mut self.values);
        self.evaluate(cfg, state, moves, &mut values);
        // Values to a thousandth of a point: equal ones are ties, broken at random.
        self.ranks.clear();
        self.ranks.extend(values.iter().map(|&v| {
            if v == f32::MIN {
                i32::MIN
            } else {
                (v * 1000.0).round() as i32
            }
        }));
        self.values = values;
        best_index(&self.ranks, rng)
    }
}

/// A number that changes when the rules pick another model: the expansions on.
fn rules_key(s: &State) -> usize {
    expansions::on_bits(&s.rules) as usize
}
