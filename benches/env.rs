//! Criterion benchmark of the vector environment: B = 64 games of a learner (uniformly random
//! legal actions, chosen outside the timed step's work) against the native random policy, or
//! in self-play (every seat a learner's), stepped on one thread, observations, masks and
//! rewards written into flat arrays. Run: `cargo bench --bench env`. One element = one
//! learner step.

use carcassonne::engine::rng::Rng;
use carcassonne::learning::vector_env::{Buffers, EnvSpec, Match, Opponent, Reward, VecEnv};
use carcassonne::players::Policy;
use carcassonne::{Catalogue, Rules, State};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn vector_env(c: &mut Criterion) {
    let mut g = c.benchmark_group("vector_env_step_2p");
    let b = 64;
    g.throughput(Throughput::Elements(b as u64));
    let random = Opponent::Native(Policy::Random);
    for (name, rules, window, opponent) in [
        ("base", Rules::base(), 25, random.clone()),
        ("base+river+abbot", Rules::default(), 25, random),
        ("base self-play", Rules::base(), 25, Opponent::Outside),
    ] {
        let proto = State::new(Catalogue::builtin(), rules, 2, 0).unwrap();
        let spec = EnvSpec::new(&proto, window).unwrap();
        let m = Match {
            spec: spec.clone(),
            opponents: vec![opponent],
            seat: None,
            reward: Reward::Score,
            autoreset: true,
        };
        let mut env = VecEnv::new(m, b, 1, 1).unwrap();
        let (bl, vl, al) = (spec.obs.board_len(), spec.obs.vector, spec.space.size());
        let mut board = vec![0u8; b * bl];
        let mut vector = vec![0f32; b * vl];
        let mut mask = vec![0u8; b * al];
        let mut reward = vec![0f32; b];
        let mut rewards = vec![0f32; b * 2];
        let mut done = vec![0u8; b];
        env.reset(
            None,
            Buffers {
                board: &mut board,
                vector: &mut vector,
                mask: &mut mask,
                reward: &mut reward,
                rewards: &mut rewards,
                done: &mut done,
            },
        );
        let mut rng = Rng::new(7);
        let mut actions = vec![0i64; b];
        g.bench_function(name, |bench| {
            bench.iter(|| {
                for (a, s) in actions.iter_mut().zip(&env.slots) {
                    *a = s.game.legal[rng.below(s.game.legal.len())].0 as i64;
                }
                env.step(
                    &actions,
                    Buffers {
                        board: &mut board,
                        vector: &mut vector,
                        mask: &mut mask,
                        reward: &mut reward,
                        rewards: &mut rewards,
                        done: &mut done,
                    },
                );
            })
        });
    }
    g.finish();
}

criterion_group!(benches, vector_env);
criterion_main!(benches);
