//! Learner steps per second of the vector environment (B = 64, one thread, random legal
//! actions, native random opponents or self-play): a quick check and a profiling target.
//! `cargo run --release --example env_steps -- [steps] [base|default] [random|self|...]`

#[path = "common/env.rs"]
mod env;

use carcassonne::engine::rng::Rng;
use carcassonne::learning::vector_env::Opponent;
use carcassonne::Rules;
use env::{random_actions, two_player_env, Arrays};
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
    let opponents = Opponent::parse_seats(args.get(3).map_or("random", |s| s.as_str())).unwrap();
    let b = 64;
    let mut env = two_player_env(rules, opponents, b);
    let mut out = Arrays::new(&env.m.spec, b);
    env.reset(None, out.buffers());
    let mut rng = Rng::new(7);
    let mut actions = vec![0i64; b];
    let t = Instant::now();
    let mut n = 0;
    while n < steps {
        random_actions(&env, &mut rng, &mut actions);
        env.step(&actions, out.buffers());
        n += b;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{n} learner steps in {secs:.2} s: {:.0} steps/s",
        n as f64 / secs
    );
}
