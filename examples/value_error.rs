//! How far V's value model is from the truth, for `benches/value_error.py` (BENCHMARKS.md,
//! "2026-12-07 (session 22)").
//!
//! Plays `GAMES` games of the default rules (`base`) or `fortune_teller=on` (`ft`) between
//! `POLICY` seats and, at every `EVERY`th turn start, plays the rest of the game `K` times
//! from there with the bag reshuffled (a determinization, as a search makes one), the same
//! seats choosing. The mean of those continuations estimates the truth: each player's
//! expected points still to come under these seats. Prints one line per position:
//!
//! `P game tiles_left` then per player V's points to come, the continuations' mean and their
//! variance, then the margin's (seat 1 minus seat 2) continuations' mean and variance.
//!
//!     cargo run --release --example value_error -- POLICY base|ft GAMES SEED WEIGHTS K EVERY
#[path = "common/arms.rs"]
mod arms;

use carcassonne::batch::policy_rng;
use carcassonne::engine::rng::Rng;
use carcassonne::engine::rules::MAX_PLAYERS;
use carcassonne::engine::state::State;
use carcassonne::players::evaluation::{load, Evaluation};
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Move};
use std::io::Write;

/// One step of the game (a chance step or a seat's move); false once it is over.
fn step(
    s: &mut State,
    seats: &[Policy],
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    mem: &mut Players,
) -> bool {
    if s.phase.is_chance() {
        s.chance_random(&mut |_| {}, &mut |_| {});
    } else if s.phase.is_decision() {
        s.legal_moves(moves);
        let i = seats[s.to_move() as usize % seats.len()].choose(s, moves, rng, mem);
        s.play_unchecked(&moves[i]);
    } else {
        return false;
    }
    true
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: value_error POLICY base|ft GAMES SEED WEIGHTS K EVERY";
    let [policy, arm, games, seed, weights, k, every] = args.as_slice() else {
        return Err(usage.into());
    };
    let rules = arms::rules(arm).ok_or(usage)?;
    let num = |t: &str| t.parse::<u64>().map_err(|_| usage.to_string());
    let (games, seed, k, every) = (num(games)?, num(seed)?, num(k)?.max(2), num(every)?.max(1));
    let seats = Policy::parse_seats(policy)?;
    let players = 2;
    let weights = load(weights)?;
    let mut eval = Evaluation::new(&weights, &rules);
    let cat = Catalogue::builtin();
    let (mut moves, mut mem) = (Vec::new(), Players::new());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for game in 0..games {
        let gs = seed.wrapping_mul(1_000_003).wrapping_add(game);
        let mut s = State::new(cat.clone(), rules, players, gs)?;
        let mut rng = policy_rng(gs);
        let mut last = u16::MAX;
        loop {
            let turn_start = s.phase.is_chance() && s.turns != last && s.bag_len() > 0;
            if turn_start && s.turns as u64 % every == every / 2 {
                last = s.turns;
                let mut v = [0f32; MAX_PLAYERS];
                eval.predict(&s, &mut v);
                let now: Vec<f64> = (0..players).map(|p| s.total(p) as f64).collect();
                // Per player and for the margin: the sum and the sum of squares.
                let mut acc = [[0f64; 2]; 3];
                for j in 0..k {
                    let mut c = s.clone();
                    c.draw_at_random = true;
                    c.rng = Rng::new(gs ^ (j + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    let mut crng = Rng::new(!gs ^ j);
                    let mut cmem = Players::new();
                    while step(&mut c, &seats, &mut crng, &mut moves, &mut cmem) {}
                    let d: Vec<f64> = (0..players).map(|p| c.total(p) as f64 - now[p]).collect();
                    for (a, x) in acc.iter_mut().zip([d[0], d[1], d[0] - d[1]]) {
                        a[0] += x;
                        a[1] += x * x;
                    }
                }
                let kf = k as f64;
                let moments = |a: [f64; 2]| {
                    let mean = a[0] / kf;
                    (mean, (a[1] / kf - mean * mean) * kf / (kf - 1.0))
                };
                let mut line = format!("P {game} {}", s.bag_len());
                for p in 0..players {
                    let (mean, var) = moments(acc[p]);
                    line += &format!(" {} {mean} {var}", v[p] as f64 - now[p]);
                }
                let (mean, var) = moments(acc[2]);
                line += &format!(" {mean} {var}");
                writeln!(out, "{line}").map_err(|e| e.to_string())?;
            }
            if !step(&mut s, &seats, &mut rng, &mut moves, &mut mem) {
                break;
            }
        }
    }
    Ok(())
}
