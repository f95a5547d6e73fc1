//! Learner steps per second of the vector environment (B = 64, one thread, random legal
//! actions, native random opponents or self-play): a quick check and a profiling target.
//! `cargo run --release --example env_steps -- [steps] [base|default] [random|self|...]`

use carcassonne::engine::rng::Rng;
use carcassonne::learning::vector_env::{Buffers, EnvSpec, Match, Opponent, Reward, VecEnv};
use carcassonne::{Catalogue, Rules, State};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let steps: usize = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let rules = match args.get(2).map_or("base", |s| s.as_str()) {
        "default" => Rules::default(),
        _ => Rules::base(),
    };
    let proto = State::new(Catalogue::builtin(), rules, 2, 0).unwrap();
    let spec = EnvSpec::new(&proto, 25).unwrap();
    let m = Match {
        spec: spec.clone(),
        opponents: Opponent::parse_seats(args.get(3).map_or("random", |s| s.as_str())).unwrap(),
        seat: None,
        reward: Reward::Score,
        autoreset: true,
    };
    let b = 64;
    let mut env = VecEnv::new(m, b, 1, 1).unwrap();
    let (bl, vl, al) = (spec.obs.board_len(), spec.obs.vector, spec.space.size());
    let (mut board, mut vector) = (vec![0u8; b * bl], vec![0f32; b * vl]);
    let (mut mask, mut reward, mut done) = (vec![0u8; b * al], vec![0f32; b], vec![0u8; b]);
    let mut rewards = vec![0f32; b * 2];
    macro_rules! bufs {
        () => {
            Buffers {
                board: &mut board,
                vector: &mut vector,
                mask: &mut mask,
                reward: &mut reward,
                rewards: &mut rewards,
                done: &mut done,
            }
        };
    }
    env.reset(None, bufs!());
    let mut rng = Rng::new(7);
    let mut actions = vec![0i64; b];
    let t = Instant::now();
    let mut n = 0;
    while n < steps {
        for (a, s) in actions.iter_mut().zip(&env.slots) {
            *a = s.game.legal[rng.below(s.game.legal.len())].0 as i64;
        }
        env.step(&actions, bufs!());
        n += b;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{n} learner steps in {secs:.2} s: {:.0} steps/s",
        n as f64 / secs
    );
}
