//! The expert's choices are pinned: a digest of every move the expert chooses, and of the
//! values (ranks) it gives each candidate, over whole seeded expert games: the base game and
//! each expansion alone, every option, 2 and 3 players, with two sets of weights drawn at
//! random (weights other than the shipped ones, and a pin that does not move when those are
//! retrained; tests/lookahead_choices.rs pins the shipped ones). A faster evaluation must
//! choose the same.
//!
//! The digest was made on main at 97d9328, before the evaluation kept anything between a
//! decision's candidates. When the evaluation is changed on purpose, print the new digests
//! with `cargo test --release --test expert_choices -- --nocapture` and replace them here.
mod common;

use carcassonne::engine::rng::Rng;
use carcassonne::engine::rules::{option, Kind, Value};
use carcassonne::expansions::NAMES;
use carcassonne::players::evaluation::{from_models, term_names, Model};
use carcassonne::players::expert::{Expert, ExpertConfig};
use carcassonne::{Catalogue, Phase, Rules, State};
use common::mix;
use std::sync::Arc;

/// The base game with expansion `name` alone on.
fn alone(name: &str) -> Rules {
    let mut r = Rules::base();
    let on = match option(name).map(|o| o.kind) {
        Some(Kind::Flag) => Value::Flag(true),
        Some(Kind::Edition(_)) => Value::Choice(1),
        kind => panic!("expansion {name} has no switch or editions: {kind:?}"),
    };
    assert!(r.set(name, on));
    r
}

/// Weights drawn uniformly from [-1, 1) per term (one model, used for every rule set).
fn random_weights(seed: u64) -> ExpertConfig {
    let mut rng = Rng::new(seed);
    let weights = (0..term_names().len())
        .map(|_| (rng.below(2000) as f32 - 1000.0) / 1000.0)
        .collect();
    let models = vec![Model {
        key: "base".into(),
        weights,
        net: None,
    }];
    ExpertConfig {
        weights: Arc::new(from_models(models, "random").unwrap()),
        // The width the digests were made with (the default until session 16).
        width: 32,
        ..ExpertConfig::default()
    }
}

/// The digest of `games` expert self-play games under `rules` with `players` players.
fn digest(cfg: &ExpertConfig, rules: Rules, players: usize, games: u64, h: &mut u64) -> usize {
    let mut expert = Expert::new();
    let mut moves = Vec::new();
    let mut decisions = 0;
    for seed in 0..games {
        let mut s = State::new(Catalogue::builtin(), rules, players, seed).unwrap();
        let mut rng = Rng::new(seed);
        while s.phase != Phase::Over {
            if s.phase.is_chance() {
                s.chance_random(&mut |_| {}, &mut |_| {});
                continue;
            }
            s.legal_moves(&mut moves);
            let i = expert.choose(cfg, &s, &moves, &mut rng);
            mix(h, i as u32);
            for &v in expert.last_ranks() {
                mix(h, v as u32);
            }
            s.play(&moves[i]).unwrap();
            decisions += 1;
        }
        for p in 0..players {
            mix(h, s.total(p));
        }
    }
    decisions
}

#[test]
fn expert_choices_are_unchanged() {
    let mut rule_sets = vec![("base", Rules::base())];
    rule_sets.extend(NAMES.iter().map(|&n| (n, alone(n))));
    rule_sets.push(("every option", Rules::every_option()));
    let configs = [random_weights(1), random_weights(2)];
    let mut digests = Vec::new();
    let mut decisions = 0;
    for cfg in &configs {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for (name, rules) in &rule_sets {
            for players in [2, 3] {
                // The base game and every option get more games than one expansion alone.
                let games = if matches!(*name, "base" | "every option") {
                    6
                } else {
                    2
                };
                decisions += digest(cfg, *rules, players, games, &mut h);
            }
        }
        digests.push(h);
    }
    println!("{decisions} decisions, digests {digests:#018x?}");
    assert_eq!(digests, [0x9d12_62ec_c458_e9df, 0xff9f_c357_ca60_ad64]);
}
