//! A vector environment stepped from Rust, as `benches/env.rs` and `examples/env_steps.rs`
//! step it: two-player games on one thread, the arrays it writes owned here (Python's are
//! numpy arrays), the learner's actions uniformly random among the legal ones.
use carcassonne::engine::rng::Rng;
use carcassonne::learning::vector_env::{Buffers, EnvSpec, Match, Opponent, Reward, VecEnv};
use carcassonne::{Catalogue, Rules, State};

/// `games` two-player games of `rules` (a board window of 25) against `opponents`, the
/// learner rewarded by its score, stepped on one thread.
pub fn two_player_env(rules: Rules, opponents: Vec<Opponent>, games: usize) -> VecEnv {
    let proto = State::new(Catalogue::builtin(), rules, 2, 0).unwrap();
    let m = Match {
        spec: EnvSpec::new(&proto, 25).unwrap(),
        opponents,
        seat: None,
        reward: Reward::Score,
        autoreset: true,
    };
    VecEnv::new(m, games, 1, 1).unwrap()
}

/// The arrays a vector environment writes, zeroed, one row per game.
pub struct Arrays {
    pub board: Vec<u8>,
    pub vector: Vec<f32>,
    pub mask: Vec<u8>,
    pub reward: Vec<f32>,
    pub rewards: Vec<f32>,
    pub done: Vec<u8>,
}

impl Arrays {
    /// The arrays of `games` games of `spec`.
    pub fn new(spec: &EnvSpec, games: usize) -> Arrays {
        Arrays {
            board: vec![0; games * spec.obs.board_len()],
            vector: vec![0.0; games * spec.obs.vector],
            mask: vec![0; games * spec.space.size()],
            reward: vec![0.0; games],
            rewards: vec![0.0; games * spec.players],
            done: vec![0; games],
        }
    }

    /// The arrays as `reset` and `step` write them.
    pub fn buffers(&mut self) -> Buffers<'_> {
        Buffers {
            board: &mut self.board,
            vector: &mut self.vector,
            mask: &mut self.mask,
            reward: &mut self.reward,
            rewards: &mut self.rewards,
            done: &mut self.done,
        }
    }
}

/// A uniformly random legal action of each game of `env`, into `actions` (one per game).
pub fn random_actions(env: &VecEnv, rng: &mut Rng, actions: &mut [i64]) {
    for (a, s) in actions.iter_mut().zip(&env.slots) {
        *a = s.game.legal[rng.below(s.game.legal.len())].0 as i64;
    }
}
