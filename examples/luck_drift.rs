//! Every corrected event of judged games, for `benches/luck_drift.py`, which shows where the
//! luck adjustment leaves variance (BENCHMARKS.md, "2026-12-07 (session 20)").
//!
//! Plays `DEALS` games of the default rules (`base`) or `fortune_teller=on` (`ft`) with the
//! seats `POLICY`, their luck measured as a study measures it (`Values::best_for` with the
//! value model `WEIGHTS`; `TAIL` overrides the exact tail), and prints one line per game and
//! event (`luck::Traced`), whitespace-separated, P the number of players:
//!
//! - first `T tail`: the tail V is exact over;
//! - `E game left part` then P actual scores, P expected scores, P actual win shares, P
//!   expected win shares;
//! - `G game` then the P final scores and the P win shares (ties share the win).
//!
//!     cargo run --release --example luck_drift -- POLICY base|ft DEALS SEED WEIGHTS [TAIL]
#[path = "common/arms.rs"]
mod arms;

use carcassonne::batch::run_game;
use carcassonne::luck::{win_shares, Measure, Values};
use carcassonne::players::evaluation::load;
use carcassonne::players::{Players, Policy};
use carcassonne::Catalogue;
use std::io::Write;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: luck_drift POLICY base|ft DEALS SEED WEIGHTS [TAIL]";
    let [policy, arm, deals, seed, weights, rest @ ..] = args.as_slice() else {
        return Err(usage.into());
    };
    let rules = arms::rules(arm).ok_or(usage)?;
    let deals: u64 = deals.parse().map_err(|_| usage.to_string())?;
    let seed: u64 = seed.parse().map_err(|_| usage.to_string())?;
    let policies = Policy::parse_seats(policy)?;
    let players = 2;
    let mut values = Values::best_for(players, &policies, load(weights)?);
    if let Some(tail) = rest.first() {
        let tail = tail.parse().map_err(|_| usage.to_string())?;
        match &mut values {
            Values::Settled(_, _, m) | Values::Replied(_, m) => *m = Measure { tail, ..*m },
            Values::Searched => {}
        }
    }
    let tail = match &values {
        Values::Settled(_, _, m) | Values::Replied(_, m) => m.tail,
        Values::Searched => 0,
    };
    let mut judge = values.judge().with_trace();
    let cat = Catalogue::builtin();
    let (mut moves, mut mem) = (Vec::new(), Players::new());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let line = |xs: &mut dyn Iterator<Item = f64>| xs.map(|x| format!(" {x}")).collect::<String>();
    writeln!(out, "T {tail}").map_err(|e| e.to_string())?;
    for game in 0..deals {
        let r = run_game(
            &cat,
            rules,
            players,
            seed,
            game,
            &policies,
            &mut moves,
            &mut mem,
            Some(&mut judge),
        )?;
        for t in judge.trace.as_deref().unwrap_or_default() {
            let (a, e) = (&t.actual, &t.expected);
            let mut xs = (a.score.iter().take(players))
                .chain(e.score.iter().take(players))
                .chain(a.win.iter().take(players))
                .chain(e.win.iter().take(players))
                .copied();
            let row = line(&mut xs);
            writeln!(out, "E {game} {} {}{row}", t.left, t.part).map_err(|e| e.to_string())?;
        }
        let wins = win_shares(r.winners);
        let mut xs = (r.scores.iter().take(players).map(|&x| x as f64))
            .chain(wins.iter().take(players).copied());
        let row = line(&mut xs);
        writeln!(out, "G {game}{row}").map_err(|e| e.to_string())?;
    }
    Ok(())
}
