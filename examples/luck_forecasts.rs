//! Which cheap V measures luck best per CPU (BENCHMARKS.md, "2026-12-06 (session 10)"): greedy
//! games of the base game or `fortune_teller=on`, their luck measured with one forecast:
//!
//! - `settled`: the default (`luck::Settled`): greedy to the next chance step, then the
//!   learned evaluation's predicted scores (the shipped weights: a rule set without a model
//!   of its own is valued by the nearest);
//! - `expected`: greedy to the next chance step, then the heuristic's expected points by the
//!   end (`Heuristic::position`, the learned evaluation's `anchor` term alone);
//! - `none`: no luck measured (the CPU of playing alone).
//!
//! Prints one line per game: seat 1's win share, seat 1's margin (seat 1 minus seat 2), and
//! the luck columns (seat 1's score and win luck, seat 2's score luck). Time it for CPU:
//!
//!     /usr/bin/time -f %U cargo run --release --example luck_forecasts -- expected base 400
#[path = "common/arms.rs"]
mod arms;

use carcassonne::batch::run_game;
use carcassonne::engine::rules::MAX_PLAYERS;
use carcassonne::luck::{first_greedy, settle, Forecast, Judge, Settled};
use carcassonne::players::greedy::Greedy;
use carcassonne::players::heuristic::{Heuristic, HeuristicConfig};
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Move, Rules, State};

/// Greedy (ties to the first move) to the next chance step, then the heuristic's expected
/// points by the end.
#[derive(Default)]
struct Expected {
    greedy: Greedy,
    heuristic: Heuristic,
    cfg: HeuristicConfig,
    values: Vec<i32>,
    moves: Vec<Move>,
}

impl Forecast for Expected {
    fn forecast(&mut self, s: &mut State, out: &mut [f32; MAX_PLAYERS]) {
        let (greedy, values) = (&mut self.greedy, &mut self.values);
        if settle(s, &mut self.moves, out, |s, m| {
            first_greedy(greedy, values, s, m)
        }) {
            return;
        }
        self.heuristic.position(&self.cfg, s, out);
    }
}

fn run<F: Forecast>(rules: Rules, games: u64, mut judge: Option<Judge<F>>) {
    let cat = Catalogue::builtin();
    let (mut moves, mut mem) = (Vec::new(), Players::new());
    for i in 0..games {
        let r = run_game(
            &cat,
            rules,
            2,
            2026,
            i,
            &[Policy::Greedy],
            &mut moves,
            &mut mem,
            judge.as_mut(),
        )
        .expect("a base game");
        let share = if r.winners & 1 == 0 {
            0.0
        } else {
            1.0 / r.winners.count_ones() as f64
        };
        let margin = r.scores[0] as f64 - r.scores[1] as f64;
        let l = r.luck.unwrap_or_default();
        println!(
            "{share},{margin},{},{},{}",
            l.score[0], l.win[0], l.score[1]
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: luck_forecasts settled|expected|none base|ft GAMES";
    let (v, arm, games) = match &args[1..] {
        [v, arm, n] => (v.as_str(), arm.as_str(), n.parse::<u64>().expect(usage)),
        _ => panic!("{usage}"),
    };
    let rules = arms::rules(arm).expect(usage);
    match v {
        "settled" => run(rules, games, Some(Judge::new(Settled::default()))),
        "expected" => run(rules, games, Some(Judge::new(Expected::default()))),
        "none" => run(rules, games, None::<Judge<Settled>>),
        _ => panic!("{usage}"),
    }
}
