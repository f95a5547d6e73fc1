//! The heuristic player's values are pinned bit for bit: a digest of every value it gives the
//! legal moves of random games (base game, the River, every expansion; 2 and 3 players; the
//! default weights and perturbed ones), one player memory reused throughout so that whatever
//! it keeps between positions is exercised. A faster ranking must give the same bits.
//!
//! The digest was made with the straightforward ranking of commit ba0f881. When the ranking is
//! changed on purpose, print the new digest with
//! `cargo test --release --test heuristic_values -- --nocapture` and replace it here.
mod common;

use carcassonne::engine::rng::Rng;
use carcassonne::players::heuristic::{Heuristic, HeuristicConfig};
use carcassonne::{Catalogue, Phase, Rules, State};
use common::mix;

#[test]
fn heuristic_values_are_unchanged_bit_for_bit() {
    let cat = Catalogue::builtin();
    let mut h = Heuristic::new();
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let (mut decisions, mut values_seen) = (0usize, 0usize);
    let configs = [
        HeuristicConfig::default(),
        HeuristicConfig::parse("reach=0.5:help=0.25:open=2:join=1.5:field=0.5").unwrap(),
    ];
    let mut moves = Vec::new();
    let mut values = Vec::new();
    let mut scores = [0f32; carcassonne::engine::rules::MAX_PLAYERS];
    for (k, rules) in [Rules::base(), Rules::default(), Rules::every_option()]
        .into_iter()
        .enumerate()
    {
        for seed in 0..4u64 {
            let players = 2 + (seed as usize % 2);
            let mut s = State::new(cat.clone(), rules, players, 100 * k as u64 + seed).unwrap();
            let mut rng = Rng::new(seed);
            while s.phase != Phase::Over {
                if s.phase.is_chance() {
                    s.chance_random(&mut |_| {}, &mut |_| {});
                    continue;
                }
                s.legal_moves(&mut moves);
                let cfg = &configs[decisions % configs.len()];
                h.evaluate(cfg, &s, &moves, &mut values);
                for v in &values {
                    mix(&mut digest, v.to_bits());
                }
                let mut copy = s.clone();
                h.position(cfg, &mut copy, &mut scores);
                for v in &scores {
                    mix(&mut digest, v.to_bits());
                }
                decisions += 1;
                values_seen += values.len();
                let i = rng.below(moves.len());
                s.play_unchecked(&moves[i]);
            }
        }
    }
    println!("{decisions} decisions, {values_seen} values, digest {digest:#018x}");
    assert!(decisions >= 1000, "{decisions} decisions");
    assert_eq!(
        digest, 0x56bd_9731_b06b_ce29,
        "the heuristic's values changed"
    );
}
