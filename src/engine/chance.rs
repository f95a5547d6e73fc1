//! Chance and hidden information for search code outside the engine: the outcomes of a
//! chance step with their probabilities, and determinization (a copy whose hidden
//! information is resampled consistently with what the player to move knows).
//!
//! Hidden from every player: the order of the tiles in the bag (the deal, and where an
//! expansion put tiles back) and what an expansion keeps face down (drawn by the game's seeded
//! generator). The outcomes of an expansion's chance step are its own (`Expansion::
//! chance_outcomes`). Resampling puts each bag group in a canonical order, then
//! shuffles it, and reseeds the generator, so that nothing of the hidden order or the seed
//! survives into the copy. Everything else (board,
//! figures, scores, supplies, the bag's contents, every expansion's state) is kept.

use crate::engine::rng::Rng;
use crate::engine::state::{Phase, State};
use crate::expansions;

/// One outcome of a chance step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chance {
    /// This tile (catalogue index) is drawn.
    Tile(u16),
    /// An expansion's face-down token shows this value (`State::reveal`; the Big Top's animal
    /// token, points per meeple).
    Reveal(u8),
}

impl State {
    /// The outcomes of the chance step waiting now, with their probabilities (summing to 1),
    /// tiles in catalogue order; empty when no chance step is waiting.
    pub fn chance_outcomes(&self) -> Vec<(Chance, f64)> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Draw => {
                let d = self.drawable();
                let mut counts: Vec<(u16, usize)> = Vec::new();
                for &t in d {
                    match counts.iter_mut().find(|c| c.0 == t) {
                        Some(c) => c.1 += 1,
                        None => counts.push((t, 1)),
                    }
                }
                counts.sort_unstable();
                for (t, n) in counts {
                    out.push((Chance::Tile(t), n as f64 / d.len() as f64));
                }
            }
            _ => {
                expansions::chance_outcomes(self, &mut out);
            }
        }
        out
    }

    /// Each bag group's tiles (land, lake, river), to reorder within: the order inside a
    /// group is hidden, the groups' is not (R3).
    pub fn bag_groups_mut(&mut self) -> impl Iterator<Item = &mut [u16]> {
        let mut rest = self.bag.as_mut_slice();
        self.groups.iter().map(move |&n| {
            let (group, after) = std::mem::take(&mut rest).split_at_mut(n as usize);
            rest = after;
            group
        })
    }

    /// Put each bag group in a canonical order (sorted): the bag then tells its contents
    /// only, not the hidden order it was dealt in. Groups stay apart (R3).
    pub fn sort_bag(&mut self) {
        self.bag_groups_mut().for_each(<[u16]>::sort_unstable);
    }

    /// A copy whose hidden information (bag order, face-down tokens) is drawn afresh
    /// from `seed`; every visible fact is kept.
    pub fn resample(&self, seed: u64) -> State {
        let mut s = self.clone();
        let mut rng = Rng::new(seed ^ 0x2E5A_3B1E_D0C7_1A11);
        // From the canonical order, shuffle each bag group in place (Fisher-Yates): the copy
        // then depends on the bag's contents and `seed` alone.
        s.sort_bag();
        for group in s.bag_groups_mut() {
            for i in (1..group.len()).rev() {
                group.swap(i, rng.below(i + 1));
            }
        }
        s.rng = rng;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Rules;
    use crate::engine::tiles::Catalogue;

    #[test]
    fn outcomes_sum_to_one_and_resample_keeps_the_bag() {
        let st = State::new(Catalogue::builtin(), Rules::base(), 2, 3).unwrap();
        let o = st.chance_outcomes();
        let total: f64 = o.iter().map(|x| x.1).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let r = st.resample(9);
        let (mut a, mut b) = (st.bag.clone(), r.bag.clone());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert_eq!(st.groups, r.groups);
    }

    #[test]
    fn resampling_ignores_the_hidden_order() {
        let st = State::new(Catalogue::builtin(), Rules::default(), 2, 3).unwrap();
        let mut other = st.clone();
        other.bag_groups_mut().for_each(<[u16]>::reverse);
        assert_ne!(st.bag, other.bag);
        assert_eq!(st.resample(9).bag, other.resample(9).bag);
    }
}
