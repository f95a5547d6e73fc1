//! Criterion benchmarks of the hot paths: whole native games, legal move generation, copy.
//! Run: `cargo bench --bench engine`.

use carcassonne::playout::{play_out, Policy};
use carcassonne::rng::Rng;
use carcassonne::{Catalogue, Edition, Move, Phase, Rules, State};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
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
    let mut seed = 0u64;
    let mut moves = Vec::with_capacity(256);
    g.bench_function("base+river+abbot", |b| {
        b.iter(|| {
            seed += 1;
            let mut s = State::new(cat.clone(), Rules::default(), 2, seed).unwrap();
            let mut rng = Rng::new(seed);
            play_out(&mut s, &[Policy::Greedy], &mut rng, &mut moves);
            black_box(s.total(0))
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
        let stop = (i * 7) % 70;
        while s.turns < stop as u16 && s.phase != Phase::Over {
            if matches!(s.phase, Phase::Draw | Phase::Reveal) {
                s.draw_random(|_| {});
                continue;
            }
            s.legal_moves(&mut moves);
            let k = rng.below(moves.len());
            s.play_unchecked(&moves[k]);
        }
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

criterion_group!(benches, full_games, per_turn);
criterion_main!(benches);
