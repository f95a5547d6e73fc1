//! How large the environment's board window must be: plays random (or greedy) games and
//! reports the share whose open positions all fit in a W x W window at every decision.
//!
//! `cargo run --release --example window_coverage -- [games] [policy] [rules]`
//! (rules: `base`, `default` (River and Abbot), `all` (every expansion, C3.1)).

use carcassonne::batch::play_out;
use carcassonne::engine::rng::{game_seed, Rng};
use carcassonne::players::Policy;
use carcassonne::{Catalogue, Rules, State};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let policy = Policy::parse(args.get(2).map_or("random", |s| s.as_str())).expect("policy");
    let rules = match args.get(3).map_or("default", |s| s.as_str()) {
        "base" => Rules::base(),
        "default" => Rules::default(),
        "all" => Rules::every_expansion(),
        r => panic!("unknown rules {r}"),
    };
    let cat = Catalogue::builtin();
    let mut need = Vec::with_capacity(games);
    let mut moves = Vec::new();
    for i in 0..games {
        let seed = game_seed(2026, i as u64);
        let mut st = State::new(cat.clone(), rules, 2, seed).unwrap();
        let mut rng = Rng::new(seed ^ 1);
        play_out(&mut st, std::slice::from_ref(&policy), &mut rng, &mut moves);
        // The frontier box only grows, so the final board decides: its box plus the ring of
        // open positions around it.
        let (x0, y0, x1, y1) = st.board.bounds();
        need.push((x1 - x0 + 3).max(y1 - y0 + 3) as usize);
    }
    need.sort_unstable();
    let q = |f: f64| need[((need.len() as f64 * f) as usize).min(need.len() - 1)];
    println!(
        "{games} games: window needed median {}, 99% {}, 99.9% {}, max {}",
        q(0.5),
        q(0.99),
        q(0.999),
        need[need.len() - 1]
    );
    for w in [21, 25, 27, 29, 31, 33, 35, 41] {
        let ok = need.iter().filter(|&&n| n <= w).count();
        println!(
            "W = {w}: {:.3}% of games fit",
            100.0 * ok as f64 / games as f64
        );
    }
}
