//! Per legal action, what the move changes in the learned evaluation's terms
//! (`players::evaluation::terms`) and in the scores: features for policies that score every
//! legal action (a softmax over them), as the expert player values moves with fixed weights.

use crate::engine::moves::Move;
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::State;
use crate::players::evaluation::{terms, Terms, TERMS};

/// Features per action: the change of the mover's terms, the mean change of the other
/// players' terms, then the change of the mover's score and the mean change of the others'.
pub const FEATURES: usize = 2 * TERMS + 2;

/// Names of the features, in order.
pub fn feature_names() -> Vec<String> {
    let names = crate::players::evaluation::term_names();
    let mut out: Vec<String> = names.iter().map(|n| format!("own.{n}")).collect();
    out.extend(names.iter().map(|n| format!("others.{n}")));
    out.push("own.score".into());
    out.push("others.score".into());
    out
}

/// Reusable memory for `ActionFeatures::write`.
pub struct ActionFeatures {
    after: Option<State>,
    now: Box<Terms>,
    then: Box<Terms>,
}

impl Default for ActionFeatures {
    fn default() -> ActionFeatures {
        ActionFeatures {
            after: None,
            now: Box::new([[0.0; TERMS]; MAX_PLAYERS]),
            then: Box::new([[0.0; TERMS]; MAX_PLAYERS]),
        }
    }
}

impl Clone for ActionFeatures {
    fn clone(&self) -> ActionFeatures {
        ActionFeatures::default()
    }
}

impl std::fmt::Debug for ActionFeatures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ActionFeatures")
    }
}

impl ActionFeatures {
    /// Append `FEATURES` values per move of `moves` (legal moves of `st`, for the player to
    /// move) to `out`.
    pub fn write<'a>(
        &mut self,
        st: &State,
        moves: impl Iterator<Item = &'a Move>,
        out: &mut Vec<f32>,
    ) {
        let n = st.players as usize;
        let me = st.to_move() as usize;
        let others = (n - 1) as f32;
        terms(st, &mut self.now);
        let mut after = self.after.take().unwrap_or_else(|| st.clone());
        after.clone_from(st);
        after.record_changes();
        for m in moves {
            after.play_unchecked(m);
            terms(&after, &mut self.then);
            let (now, then) = (&self.now, &self.then);
            out.extend((0..TERMS).map(|t| then[me][t] - now[me][t]));
            out.extend((0..TERMS).map(|t| {
                (0..n)
                    .filter(|&q| q != me)
                    .map(|q| then[q][t] - now[q][t])
                    .sum::<f32>()
                    / others
            }));
            let gain = |q: usize| after.total(q) as f32 - st.total(q) as f32;
            out.push(gain(me));
            out.push((0..n).filter(|&q| q != me).map(gain).sum::<f32>() / others);
            after.undo_to(st);
        }
        self.after = Some(after);
    }
}
