//! Criterion benchmark of the vector environment: B = 64 games of a learner (uniformly random
//! legal actions, chosen outside the timed step's work) against the native random policy, or
//! in self-play (every seat a learner's), stepped on one thread, observations, masks and
//! rewards written into flat arrays. Run: `cargo bench --bench env`. One element = one
//! learner step.

#[path = "../examples/common/env.rs"]
mod env;

use carcassonne::engine::rng::Rng;
use carcassonne::learning::vector_env::Opponent;
use carcassonne::players::Policy;
use carcassonne::Rules;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use env::{random_actions, two_player_env, Arrays};

fn vector_env(c: &mut Criterion) {
    let mut g = c.benchmark_group("vector_env_step_2p");
    let b = 64;
    g.throughput(Throughput::Elements(b as u64));
    let random = Opponent::Native(Policy::Random);
    for (name, rules, opponent) in [
        ("base", Rules::base(), random.clone()),
        ("base+river+abbot", Rules::default(), random),
        ("base self-play", Rules::base(), Opponent::Outside),
    ] {
        let mut env = two_player_env(rules, vec![opponent], b);
        let mut out = Arrays::new(&env.m.spec, b);
        env.reset(None, out.buffers());
        let mut rng = Rng::new(7);
        let mut actions = vec![0i64; b];
        g.bench_function(name, |bench| {
            bench.iter(|| {
                random_actions(&env, &mut rng, &mut actions);
                env.step(&actions, out.buffers());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, vector_env);
criterion_main!(benches);
