//! Whole games timed by `benches/engine.rs` and the examples that count games per second.
use carcassonne::batch::play_out_with;
use carcassonne::engine::rng::Rng;
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Move, Rules, State};
use std::sync::Arc;

/// The whole two-player game of `rules` with seed `seed` (also the players' generator's),
/// seat p playing `policies[p % len]`, reusing `moves` and the players' memory `mem`.
pub fn two_player_game(
    cat: &Arc<Catalogue>,
    rules: Rules,
    seed: u64,
    policies: &[Policy],
    moves: &mut Vec<Move>,
    mem: &mut Players,
) -> State {
    let mut s = State::new(cat.clone(), rules, 2, seed).unwrap();
    let mut rng = Rng::new(seed);
    play_out_with(&mut s, policies, &mut rng, moves, mem, &mut |_| {});
    s
}
