//! Plays N greedy 2-player games with every option on and prints games/s (profiling aid).
//! `cargo run --release --example greedy_speed -- 200`
#[path = "common/games.rs"]
mod games;

use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Rules};
use games::two_player_game;
use std::time::Instant;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let rules = Rules::every_option();
    let cat = Catalogue::builtin();
    let mut moves = Vec::with_capacity(256);
    let mut mem = Players::new();
    let t = Instant::now();
    let mut total = 0u64;
    for seed in 0..n {
        let s = two_player_game(&cat, rules, seed, &[Policy::Greedy], &mut moves, &mut mem);
        total += s.total(0) as u64;
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{n} games in {dt:.3} s: {:.0} games/s (checksum {total})",
        n as f64 / dt
    );
}
