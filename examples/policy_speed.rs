//! CPU time a self-play game and a decision (mean and most) of each policy given, 2 players, one thread. The
//! policies take turns game by game, so a change of load on the machine falls on all alike.
//! CPU time is this thread's (Linux `/proc/thread-self/schedstat`), never wall time. With
//! `--most`, the slowest decision too: the clock is then read at every step (some
//! microseconds each, which a one-ply player's figures would show; its resolution is the
//! scheduler's tick, a few ms).
//! `cargo run --release --example policy_speed -- base|all GAMES [--most] POLICY...`
//! e.g. `cargo run --release --example policy_speed -- base 20 heuristic heuristic:depth=2`
use carcassonne::batch::play_out_with;
use carcassonne::engine::rng::Rng;
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Phase, Rules, State};

/// Nanoseconds this thread has run on a CPU.
fn cpu_ns() -> u64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("CPU time is read from /proc/thread-self/schedstat (Linux only)");
    text.split_whitespace()
        .next()
        .and_then(|s| s.parse().ok())
        .expect("schedstat starts with the CPU time in ns")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: policy_speed base|all GAMES [--most] POLICY...");
        std::process::exit(2)
    };
    if args.len() < 4 {
        usage();
    }
    let rules = match args[1].as_str() {
        "base" => Rules::base(),
        "all" => Rules::every_option(),
        _ => usage(),
    };
    let games: u64 = args[2].parse().unwrap_or_else(|_| usage());
    let timed = args[3] == "--most";
    let policies: Vec<Policy> = args[3 + timed as usize..]
        .iter()
        .map(|a| {
            Policy::parse(a).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            })
        })
        .collect();
    let cat = Catalogue::builtin();
    let mut moves = Vec::with_capacity(256);
    let mut mem = Players::new();
    let mut ns = vec![0u64; policies.len()];
    let mut decisions = vec![0u64; policies.len()];
    let mut checksum = vec![0u64; policies.len()];
    let mut most = vec![0u64; policies.len()];
    for seed in 0..games {
        for (k, p) in policies.iter().enumerate() {
            let mut s = State::new(cat.clone(), rules, 2, seed).unwrap();
            let mut rng = Rng::new(seed);
            let mut n = 0u64;
            let t = cpu_ns();
            // A decision's time: from the step before its move (a draw's time is negligible).
            let mut last = t;
            play_out_with(
                &mut s,
                std::slice::from_ref(p),
                &mut rng,
                &mut moves,
                &mut mem,
                &mut |step| {
                    if matches!(step, carcassonne::batch::Step::Move(..)) {
                        n += 1;
                        if timed {
                            let now = cpu_ns();
                            most[k] = most[k].max(now - last);
                            last = now;
                        }
                    } else if timed {
                        last = cpu_ns();
                    }
                },
            );
            ns[k] += cpu_ns() - t;
            assert_eq!(s.phase, Phase::Over);
            decisions[k] += n;
            checksum[k] += s.total(0) as u64 + s.total(1) as u64;
        }
    }
    for (k, p) in policies.iter().enumerate() {
        let slowest = if timed {
            format!(", at most {:.1} ms", most[k] as f64 / 1e6)
        } else {
            String::new()
        };
        println!(
            "{} ({}): {games} games, {:.2} ms CPU a game, {:.3} ms a decision{slowest} ({:.1} decisions a game; points {})",
            p.text(),
            args[1],
            ns[k] as f64 / 1e6 / games as f64,
            ns[k] as f64 / 1e6 / decisions[k] as f64,
            decisions[k] as f64 / games as f64,
            checksum[k]
        );
    }
}
