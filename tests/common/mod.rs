//! Helpers the integration tests share (each test file is its own crate and uses some).
#![allow(dead_code)]

use carcassonne::engine::rng::Rng;
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Phase, Rules, State};

/// FNV-1a over 32-bit words: the digests that pin players' choices.
pub fn mix(h: &mut u64, x: u32) {
    for b in x.to_le_bytes() {
        *h ^= b as u64;
        *h = h.wrapping_mul(0x0100_0000_01b3);
    }
}

/// Decision points of greedy games (one in `every`).
pub fn greedy_positions(rules: Rules, players: usize, seed: u64, every: usize) -> Vec<State> {
    let mut s = State::new(Catalogue::builtin(), rules, players, seed).unwrap();
    let mut mem = Players::new();
    let (mut moves, mut out) = (Vec::new(), Vec::new());
    let mut rng = Rng::new(seed);
    let mut k = 0;
    while s.phase != Phase::Over {
        if s.phase.is_chance() {
            s.chance_random(&mut |_| {}, &mut |_| {});
            continue;
        }
        s.legal_moves(&mut moves);
        k += 1;
        if k % every == 0 {
            out.push(s.clone());
        }
        let i = Policy::Greedy.choose(&s, &moves, &mut rng, &mut mem);
        s.play_unchecked(&moves[i]);
    }
    out
}
