//! Strength ladder: policy A against policy B, 2 players, every deal played twice with the
//! seats swapped. Prints A's win rate (a shared win counts half) with its 95% Wilson interval,
//! and the mean score difference.
//! `cargo run --release --example ladder -- A B base|all DEALS [THREADS] [SEED]`
//! e.g. `cargo run --release --example ladder -- mcts:playouts=500 greedy base 100 2`
use carcassonne::batch::simulate;
use carcassonne::players::Policy;
use carcassonne::{Catalogue, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: ladder A B base|default|all DEALS [THREADS] [SEED]");
        std::process::exit(2);
    }
    let a = Policy::parse(&args[1]).unwrap_or_else(|e| panic!("{e}"));
    let b = Policy::parse(&args[2]).unwrap_or_else(|e| panic!("{e}"));
    let rules = match args[3].as_str() {
        "base" => Rules::base(),
        "all" => Rules::every_option(),
        _ => Rules::default(),
    };
    let deals: usize = args[4].parse().expect("DEALS");
    let threads: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0);
    let seed: u64 = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let cat = Catalogue::builtin();
    let t = Instant::now();
    let ab = simulate(
        &cat,
        rules,
        2,
        0,
        deals,
        seed,
        &[a.clone(), b.clone()],
        threads,
    )
    .unwrap();
    let ba = simulate(
        &cat,
        rules,
        2,
        0,
        deals,
        seed,
        &[b.clone(), a.clone()],
        threads,
    )
    .unwrap();
    let dt = t.elapsed().as_secs_f64();
    let mut wins = 0.0;
    let mut diff = 0.0;
    for (r, seat) in ab.iter().map(|r| (r, 0)).chain(ba.iter().map(|r| (r, 1))) {
        let other = 1 - seat;
        let mine = r.winners & (1 << seat) != 0;
        let theirs = r.winners & (1 << other) != 0;
        wins += match (mine, theirs) {
            (true, true) => 0.5,
            (true, false) => 1.0,
            _ => 0.0,
        };
        diff += r.scores[seat] as f64 - r.scores[other] as f64;
    }
    let n = (2 * deals) as f64;
    let p = wins / n;
    let (lo, hi) = wilson(p, n);
    println!(
        "{} vs {} ({}): {} games ({} deals x 2 seats), win rate {:.1}% [95% {:.1}-{:.1}%], mean score difference {:+.1}, {:.1} s",
        a.text(),
        b.text(),
        args[3],
        n,
        deals,
        100.0 * p,
        100.0 * lo,
        100.0 * hi,
        diff / n,
        dt
    );
}

/// 95% Wilson score interval of a proportion `p` over `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.959_964;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}
