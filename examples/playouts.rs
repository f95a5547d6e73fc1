//! Plays N random 2-player games and prints games/s (used for profiling and quick checks).
//! `cargo run --release --example playouts -- 2000 base|default|tb|all`
use carcassonne::batch::play_out;
use carcassonne::engine::rng::Rng;
use carcassonne::players::Policy;
use carcassonne::{Catalogue, Rules, State};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let rules = match args.get(2).map(String::as_str) {
        Some("base") => Rules::base(),
        Some("tb") => Rules {
            traders_builders: Some(carcassonne::Edition::C31),
            ..Rules::default()
        },
        Some("all") => Rules::every_expansion(),
        _ => Rules::default(),
    };
    let cat = Catalogue::builtin();
    let mut moves = Vec::with_capacity(256);
    let t = Instant::now();
    let mut total = 0u64;
    for seed in 0..n {
        let mut s = State::new(cat.clone(), rules, 2, seed).unwrap();
        let mut rng = Rng::new(seed);
        play_out(&mut s, &[Policy::Random], &mut rng, &mut moves);
        total += s.total(0) as u64;
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{n} games in {dt:.3} s: {:.0} games/s (checksum {total})",
        n as f64 / dt
    );
}
