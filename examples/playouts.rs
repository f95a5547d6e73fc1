//! Plays N 2-player games (random players unless told) and prints games/s (used for profiling
//! and quick checks). `cargo run --release --example playouts -- 2000 base|default|tb|all
//! [random|greedy]`: the greedy player on the same rules and deals as random measures its
//! cost relative to a random game in one build.
#[path = "common/games.rs"]
mod games;

use carcassonne::batch::play_out;
use carcassonne::engine::rng::Rng;
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Rules, State};
use games::two_player_game;
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
    let policy = match args.get(3).map(String::as_str) {
        None | Some("random") => Policy::Random,
        Some("greedy") => Policy::Greedy,
        Some(other) => {
            eprintln!("playouts: unknown player {other:?} (random or greedy)");
            std::process::exit(2);
        }
    };
    let cat = Catalogue::builtin();
    let mut moves = Vec::with_capacity(256);
    let mut mem = Players::new();
    let random = matches!(policy, Policy::Random);
    let policies = [policy];
    let t = Instant::now();
    let mut total = 0u64;
    for seed in 0..n {
        let s = if random {
            // As before the player argument, so that counts compare with earlier ones.
            let mut s = State::new(cat.clone(), rules, 2, seed).unwrap();
            play_out(&mut s, &policies, &mut Rng::new(seed), &mut moves);
            s
        } else {
            two_player_game(&cat, rules, seed, &policies, &mut moves, &mut mem)
        };
        total += s.total(0) as u64;
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{n} games in {dt:.3} s: {:.0} games/s (checksum {total})",
        n as f64 / dt
    );
}
