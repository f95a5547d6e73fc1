//! Search rollouts from mid-game base positions (turns 25-45): copy, reseed, play to the end
//! at random. Prints the count and wall time; on a shared machine divide the count by the
//! process's user time (`/usr/bin/time -f %U`) for the per-core rate.
//! `cargo run --release --example rollout_speed -- 100000`
#[path = "common/random_play.rs"]
mod random_play;

use carcassonne::engine::rng::Rng;
use carcassonne::{Catalogue, Rules, State};
use random_play::play_at_random;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let cat = Catalogue::builtin();
    let mut positions = Vec::new();
    let mut moves = Vec::with_capacity(256);
    for i in 0..200u64 {
        let mut s = State::new(cat.clone(), Rules::base(), 2, i).unwrap();
        let mut rng = Rng::new(i + 99);
        play_at_random(&mut s, 25 + (i % 20) as u16, &mut moves, &mut rng);
        positions.push(s);
    }
    let mut det = positions[0].clone();
    let mut rng = Rng::new(5);
    let t = Instant::now();
    let mut total = 0u64;
    for k in 0..n {
        det.clone_from(&positions[k % positions.len()]);
        det.rng = Rng::new(rng.next_u64());
        play_at_random(&mut det, u16::MAX, &mut moves, &mut rng);
        total += det.total(0) as u64;
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{n} rollouts in {dt:.3} s wall: {:.0}/s wall (checksum {total})",
        n as f64 / dt
    );
}
