//! Play at random as a search's rollout does: positions and rollouts timed by
//! `benches/engine.rs` and `examples/rollout_speed.rs`.
use carcassonne::engine::rng::Rng;
use carcassonne::{Move, Phase, State};

/// Play `s` on with tiles drawn by its own generator and moves uniformly random by `rng`
/// until turn `until` or the end, as a search's rollout plays (`u16::MAX`: to the end).
pub fn play_at_random(s: &mut State, until: u16, moves: &mut Vec<Move>, rng: &mut Rng) {
    while s.turns < until && s.phase != Phase::Over {
        if s.phase.is_chance() {
            s.draw_random(|_| {});
            continue;
        }
        s.legal_moves(moves);
        let k = rng.below(moves.len());
        s.play_unchecked(&moves[k]);
    }
}
