//! The expert player: every legal move valued by the learned evaluation of the position it
//! leads to (`evaluation.rs`), the best taken.
//!
//! Like the greedy player it copies the state once per decision: each move is played on that
//! copy, the position after it is evaluated, and the move is undone (`State::undo_to` restores
//! only what it changed), so valuing a candidate allocates nothing. What the positions after
//! the candidates share is computed once per decision (`Evaluation::begin_moves`); the copy's
//! undo log tells which features a move wrote. Ties are broken at random.

use crate::engine::moves::Move;
use crate::engine::rng::Rng;
use crate::engine::state::State;
use crate::expansions;
use crate::players::choice::{Chooser, Foresight};
use crate::players::evaluation::{Evaluation, Weights, BUILTIN};
use crate::players::greedy::Greedy;
use crate::players::heuristic::DEFAULT_HORIZON;
use crate::players::lookahead::{DrawValue, DEFAULT_TOP};
use crate::players::{params, text};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Parameters of the expert player, written `expert`, `expert:weights=PATH`, `expert:width=N`,
/// `expert:depth=2:top=N`, `expert:rollouts=N:horizon=H:top=N`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpertConfig {
    pub weights: Arc<Weights>,
    /// Value only the `width` moves the greedy evaluation likes best (0: every move).
    pub width: u16,
    /// 1: the position after the move; 2: also the next draw and the reply to it
    /// (`lookahead.rs`).
    pub depth: u8,
    /// With depth 2 or rollouts: how many of the best moves by one ply are looked ahead from.
    pub top: u16,
    /// Continuations played from each of the `top` moves (`rollouts.rs`); 0: none.
    pub rollouts: u32,
    /// Decisions each continuation plays before the expert values the position.
    pub horizon: u16,
    /// With a network in the model: only the linear part's `net_top` best moves are valued
    /// with the network too, and the rest lose (0: the network values every move valued).
    pub net_top: u16,
}

/// The default width and network re-valuing: measured in BENCHMARKS.md (session 16: against
/// the held-out heuristic, 48 and 12 win 65.8% of 10,000 base games where 32 and every move
/// won 61.2%, at the same CPU).
pub const DEFAULT_WIDTH: u16 = 48;
pub const DEFAULT_NET_TOP: u16 = 12;

impl Default for ExpertConfig {
    fn default() -> Self {
        ExpertConfig {
            weights: BUILTIN.clone(),
            width: DEFAULT_WIDTH,
            depth: 1,
            top: DEFAULT_TOP,
            rollouts: 0,
            horizon: DEFAULT_HORIZON,
            net_top: DEFAULT_NET_TOP,
        }
    }
}

impl ExpertConfig {
    /// Parse the parameters after `expert:` (`weights=PATH:width=8`), checked against the
    /// parameter table (`params.rs`).
    pub fn parse(params: &str) -> Result<ExpertConfig, String> {
        let given = params::parse("expert", &params::EXPERT, params, None)?;
        // The shipped weights are read only when no file is given.
        let weights = match given.path("weights") {
            Some(path) => crate::players::evaluation::load(path)?,
            None => BUILTIN.clone(),
        };
        let sight = Foresight::parse("expert", &given)?;
        Ok(ExpertConfig {
            weights,
            width: given.whole("width") as u16,
            depth: sight.depth,
            top: sight.top,
            rollouts: sight.rollouts,
            horizon: sight.horizon,
            net_top: given.whole("net_top") as u16,
        })
    }

    /// Canonical text: `expert`, then the parameters that differ from the defaults.
    pub fn text(&self) -> String {
        let mut s = String::from("expert");
        if self.weights.source != "builtin" {
            s += &format!(":weights={}", text::quote(&self.weights.source));
        }
        if self.width != DEFAULT_WIDTH {
            s += &format!(":width={}", self.width);
        }
        s += &self.foresight().text();
        if self.net_top != DEFAULT_NET_TOP {
            s += &format!(":net_top={}", self.net_top);
        }
        s
    }

    /// How far it looks past its moves.
    pub fn foresight(&self) -> Foresight {
        Foresight {
            depth: self.depth,
            top: self.top,
            rollouts: self.rollouts,
            horizon: self.horizon,
        }
    }
}

/// The expert player's reusable memory.
#[derive(Default)]
pub struct Expert {
    after: Option<State>,
    /// The evaluation of the last weights and rules valued with; holding the weights keeps
    /// their address from being reused by other weights while this is cached.
    eval: Option<(Arc<Weights>, usize, Evaluation)>,
    values: Vec<f32>,
    /// With a width: the greedy evaluation's ranks of the moves.
    greedy_ranks: Vec<i32>,
    /// With `net_top`: the linear part's best moves (their slots among those valued).
    best: Vec<(u32, f32)>,
    greedy: Greedy,
    order: Vec<u32>,
    chooser: Chooser<Expert>,
    /// When set, a look-ahead or the rollouts give up (Ctrl-C) and the one-ply choice is
    /// played.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Expert {
    pub fn new() -> Expert {
        Expert::default()
    }

    /// The evaluation of `weights` for the rules of `s` (kept while they stay the same).
    pub(crate) fn evaluation(&mut self, weights: &Arc<Weights>, s: &State) -> &mut Evaluation {
        let key = rules_key(s);
        let same =
            |(w, k, _): &(Arc<Weights>, usize, Evaluation)| Arc::ptr_eq(w, weights) && *k == key;
        if !self.eval.as_ref().is_some_and(same) {
            self.eval = Some((weights.clone(), key, Evaluation::new(weights, &s.rules)));
        }
        &mut self.eval.as_mut().expect("set above").2
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
        // Moves not valued (outside the width or `net_top`) lose.
        values.clear();
        values.resize(moves.len(), f32::MIN);
        let me = state.to_move() as usize;
        let mut after = self.after.take().unwrap_or_else(|| state.clone());
        after.clone_from(state);
        after.record_changes();
        // With a width, only the greedy evaluation's best moves are valued; the rest lose.
        let width = cfg.width as usize;
        let narrow = width > 0 && moves.len() > width;
        if narrow {
            self.greedy.evaluate(state, moves, &mut self.greedy_ranks);
            self.order.clear();
            self.order.extend(0..moves.len() as u32);
            let ranks = &self.greedy_ranks;
            self.order
                .sort_by(|&a, &b| ranks[b as usize].cmp(&ranks[a as usize]).then(a.cmp(&b)));
            self.order.truncate(width);
        }
        let order = std::mem::take(&mut self.order);
        let mut best = std::mem::take(&mut self.best);
        let eval = self.evaluation(&cfg.weights, state);
        eval.begin_moves(state);
        let count = if narrow { order.len() } else { moves.len() };
        let index = |k: usize| if narrow { order[k] as usize } else { k };
        // With `net_top`, the network re-values only the linear part's best moves.
        let rerank = cfg.net_top as usize;
        let split = rerank > 0 && count > rerank && eval.has_net();
        for k in 0..count {
            let i = index(k);
            after.play_unchecked(&moves[i]);
            values[i] = if split {
                eval.linear_after_move(&after, me, k)
            } else {
                eval.value_after_move(&after, me)
            };
            after.undo_to(state);
        }
        if split {
            best.clear();
            best.extend((0..count as u32).map(|k| (k, values[index(k as usize)])));
            best.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            best.truncate(rerank);
            for k in 0..count {
                values[index(k)] = f32::MIN;
            }
            let n = state.players as usize;
            for &(k, _) in &best {
                values[index(k as usize)] = eval.value_of_kept(k as usize, n, me);
            }
        }
        self.best = best;
        self.order = order;
        self.after = Some(after);
    }

    /// The ranks of the moves of the last `choose`: `Chooser::last_ranks`.
    pub fn last_ranks(&self) -> &[i32] {
        self.chooser.last_ranks()
    }

    /// The look-ahead's values of the next draw after move `m` of the last `choose`:
    /// `Chooser::last_draws`.
    pub fn last_draws(&self, m: &Move) -> Option<&[DrawValue]> {
        self.chooser.last_draws(m)
    }

    /// The index of the move to play among `moves` (`choice.rs`).
    pub fn choose(
        &mut self,
        cfg: &ExpertConfig,
        state: &State,
        moves: &[Move],
        rng: &mut Rng,
    ) -> usize {
        let mut values = std::mem::take(&mut self.values);
        self.evaluate(cfg, state, moves, &mut values);
        let i = self
            .chooser
            .choose(cfg, state, moves, &values, cfg.foresight(), &self.stop, rng);
        self.values = values;
        i
    }
}

/// A number that changes when the rules pick another model: the expansions on.
fn rules_key(s: &State) -> usize {
    expansions::on_bits(&s.rules) as usize
}
