//! How a one-ply player (`heuristic`, `expert`) chooses among its moves: their one-ply values
//! to a thousandth of a point (equal ones are ties), the `top` best valued again by the
//! look-ahead (`depth` 2 or more, `lookahead.rs`) or by rollouts (`rollouts.rs`), the best
//! taken with ties broken at random. `Foresight` is the parameters that say how far it looks.

use crate::engine::moves::Move;
use crate::engine::rng::Rng;
use crate::engine::state::State;
use crate::players::greedy::best_index;
use crate::players::heuristic::DEFAULT_HORIZON;
use crate::players::lookahead::{DrawValue, Lookahead, Ranking, DEFAULT_TOP};
use crate::players::params::Given;
use crate::players::rollouts::Rollouts;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How far a one-ply player looks past its moves: its parameters `depth`, `top`, `rollouts`
/// and `horizon` (as its config holds them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Foresight {
    /// 1: the position after the move; n: also the next n - 1 draws and the replies to them.
    pub depth: u8,
    /// With a look-ahead or rollouts: how many of the best moves by one ply are valued again.
    pub top: u16,
    /// Continuations played from each of the `top` moves; 0: none.
    pub rollouts: u32,
    /// Decisions each continuation plays before its position is valued.
    pub horizon: u16,
}

impl Foresight {
    /// The foresight `player`'s parameters give (its table has all four); a look-ahead and
    /// rollouts together are an error.
    pub fn parse(player: &str, given: &Given) -> Result<Foresight, String> {
        let depth: u8 = given
            .word("depth")
            .parse()
            .expect("the table's depths are digits");
        let rollouts = given.whole("rollouts");
        if rollouts > 0 && depth > 1 {
            return Err(format!(
                "{player}: depth={depth} and rollouts={rollouts} are two look-aheads: give one"
            ));
        }
        Ok(Foresight {
            depth,
            top: given.whole("top") as u16,
            rollouts,
            horizon: given.whole("horizon") as u16,
        })
    }

    /// Canonical policy text of the parameters that differ from the defaults
    /// (`:depth=2:top=4`; empty at the defaults).
    pub fn text(&self) -> String {
        let mut s = String::new();
        if self.depth != 1 {
            s += &format!(":depth={}", self.depth);
        }
        if self.top != DEFAULT_TOP {
            s += &format!(":top={}", self.top);
        }
        if self.rollouts != 0 {
            s += &format!(":rollouts={}", self.rollouts);
        }
        if self.horizon != DEFAULT_HORIZON {
            s += &format!(":horizon={}", self.horizon);
        }
        s
    }
}

/// A one-ply player's reusable memory for choosing: the last choice's ranks, and the
/// look-ahead and rollouts (made on first use) that value its best moves again.
#[derive(Default)]
pub struct Chooser<R: Ranking> {
    ranks: Vec<i32>,
    look: Option<Box<Lookahead<R>>>,
    roll: Option<Box<Rollouts<R>>>,
}

impl<R: Ranking> Chooser<R> {
    /// The index of the move to play among `moves` (legal moves of `state`), whose one-ply
    /// values are `values` (`f32::MIN`: not valued, loses). When `stop` is set (Ctrl-C), a
    /// look-ahead or the rollouts give up and the one-ply choice is played.
    #[allow(clippy::too_many_arguments)]
    pub fn choose(
        &mut self,
        cfg: &R::Config,
        state: &State,
        moves: &[Move],
        values: &[f32],
        sight: Foresight,
        stop: &Option<Arc<AtomicBool>>,
        rng: &mut Rng,
    ) -> usize {
        if let Some(look) = &mut self.look {
            look.forget();
        }
        // Values to a thousandth of a point: equal ones are ties, broken at random.
        self.ranks.clear();
        self.ranks.extend(values.iter().map(|&v| {
            if v == f32::MIN {
                i32::MIN
            } else {
                (v * 1000.0).round() as i32
            }
        }));
        if sight.depth >= 2 {
            // The `top` best moves by one ply valued again by the look-ahead; stopped, the
            // one-ply ranks stay.
            let look = self.look.get_or_insert_with(Default::default);
            look.stop.clone_from(stop);
            let draws = sight.depth - 1;
            look.rank(cfg, state, moves, values, sight.top, draws, &mut self.ranks);
        } else if sight.rollouts > 0 {
            // The same with their rollouts.
            let roll = self.roll.get_or_insert_with(Default::default);
            roll.stop.clone_from(stop);
            let plan = (sight.top, sight.rollouts, sight.horizon);
            roll.rank(
                cfg,
                state,
                moves,
                values,
                plan,
                rng.next_u64(),
                &mut self.ranks,
            );
        }
        best_index(&self.ranks, rng)
    }

    /// The values, to a thousandth of a point, of the moves of the last `choose` (the best
    /// are the moves its tie-break drew from).
    pub fn last_ranks(&self) -> &[i32] {
        &self.ranks
    }

    /// The look-ahead's values of the next draw after move `m` of the last `choose` (None at
    /// depth 1, or where `m` was not looked ahead from): `Lookahead::draws_of`.
    pub fn last_draws(&self, m: &Move) -> Option<&[DrawValue]> {
        self.look.as_ref().and_then(|l| l.draws_of(m))
    }
}
