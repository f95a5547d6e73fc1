//! Criterion benchmarks of the hot paths: whole native games, legal move generation, copy.
//! Run: `cargo bench --bench engine`.

#[path = "../examples/common/games.rs"]
mod games;
#[path = "../examples/common/random_play.rs"]
mod random_play;

use carcassonne::batch::play_out;
use carcassonne::engine::rng::Rng;
use carcassonne::players::mcts::{MctsConfig, Search};
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Edition, Move, Phase, Rules, State};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use games::two_player_game;
use random_play::play_at_random;
use std::hint::black_box;

fn rule_sets() -> [(&'static str, Rules); 4] {
    let tb = Rules {
        traders_builders: Some(Edition::C31),
        ..Rules::default()
    };
    let all = Rules {
        toll_collectors: true,
        fortune_teller: true,
        big_top: true,
        ..tb
    };
    [
        ("base", Rules::base()),
        ("base+river+abbot", Rules::default()),
        ("base+river+abbot+tb", tb),
        ("every_option", all),
    ]
}

fn full_games(c: &mut Criterion) {
    let cat = Catalogue::builtin();
    let mut g = c.benchmark_group("random_game_2p");
    g.throughput(Throughput::Elements(1));
    for (name, rules) in rule_sets() {
        let mut seed = 0u64;
        let mut moves = Vec::with_capacity(256);
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut s = State::new(cat.clone(), rules, 2, seed).unwrap();
                let mut rng = Rng::new(seed);
                play_out(&mut s, &[Policy::Random], &mut rng, &mut moves);
                black_box(s.total(0))
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("greedy_game_2p");
    g.throughput(Throughput::Elements(1));
    g.sample_size(10);
    for (name, rules) in rule_sets() {
        let mut seed = 0u64;
        let mut moves = Vec::with_capacity(256);
        let mut mem = Players::new();
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let s = two_player_game(&cat, rules, seed, &[Policy::Greedy], &mut moves, &mut mem);
                black_box(s.total(0))
            })
        });
    }
    g.finish();
}

/// The search's inner loop: one iteration (copy, reseed, play to the end at random) from
/// mid-game base positions, and one whole search of 1000 playouts.
fn search(c: &mut Criterion) {
    let states: Vec<State> = positions(Rules::base(), 200)
        .into_iter()
        .filter(|s| (25..45).contains(&s.turns))
        .collect();
    let mut g = c.benchmark_group("search_base_midgame");
    g.throughput(Throughput::Elements(states.len() as u64));
    let mut det = states[0].clone();
    let mut moves: Vec<Move> = Vec::with_capacity(512);
    let mut rng = Rng::new(5);
    g.bench_function("rollout", |b| {
        b.iter(|| {
            for s in &states {
                det.clone_from(s);
                det.rng = Rng::new(rng.next_u64());
                play_at_random(&mut det, u16::MAX, &mut moves, &mut rng);
                black_box(det.total(0));
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("search_base_midgame_1000_playouts");
    g.throughput(Throughput::Elements(1000));
    g.sample_size(10);
    let cfg = MctsConfig {
        playouts: 1000,
        ..MctsConfig::default()
    };
    let mut search = Search::new();
    let mut k = 0usize;
    g.bench_function("search", |b| {
        b.iter(|| {
            k = (k + 1) % states.len();
            states[k].legal_moves(&mut moves);
            black_box(search.run(&states[k], &moves, &cfg, k as u64))
        })
    });
    g.finish();
}

/// Mid-game positions (after 0..70 random turns) to measure per-turn operations on.
fn positions(rules: Rules, n: usize) -> Vec<State> {
    let cat = Catalogue::builtin();
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for i in 0..n {
        let mut s = State::new(cat.clone(), rules, 2, i as u64).unwrap();
        let mut rng = Rng::new(i as u64 + 99);
        play_at_random(&mut s, ((i * 7) % 70) as u16, &mut moves, &mut rng);
        if s.phase == Phase::Draw {
            s.draw_random(|_| {});
        }
        if s.phase == Phase::Place {
            out.push(s);
        }
    }
    out
}

fn per_turn(c: &mut Criterion) {
    for (name, rules) in rule_sets().into_iter().take(2) {
        let states = positions(rules, 200);
        let mut moves: Vec<Move> = Vec::with_capacity(512);
        let mut g = c.benchmark_group(format!("turn_{name}"));
        g.throughput(Throughput::Elements(states.len() as u64));
        g.bench_function("legal_moves", |b| {
            b.iter(|| {
                let mut n = 0;
                for s in &states {
                    s.legal_moves(&mut moves);
                    n += moves.len();
                }
                black_box(n)
            })
        });
        g.bench_function("copy", |b| {
            b.iter_batched_ref(
                || (),
                |_| {
                    for s in &states {
                        black_box(s.clone());
                    }
                },
                BatchSize::SmallInput,
            )
        });
        g.finish();
    }
}

criterion_group!(benches, full_games, per_turn, search);
criterion_main!(benches);
