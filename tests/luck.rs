//! Luck measured while playing (issue 35): exact on a known bag, mean zero whatever the
//! forecast, and never a change to the game played.

use carcassonne::batch::{play_judged, policy_rng, run_game};
use carcassonne::engine::rng::splitmix64;
use carcassonne::engine::rules::MAX_PLAYERS;
use carcassonne::luck::{win_scale, Forecast, Judge, Settled};
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Phase, Rules, State};

/// V = the catalogue index of the tile waiting to be placed (seat 1), 0 (seat 2).
struct TileIndex;
impl Forecast for TileIndex {
    fn forecast(&mut self, s: &mut State, out: &mut [f32; MAX_PLAYERS]) {
        out.fill(0.0);
        out[0] = s.tile as f32;
    }
}

#[test]
fn the_luck_of_a_draw_is_its_value_less_the_bags_mean() {
    let cat = Catalogue::builtin();
    let mut s = State::new(cat.clone(), Rules::base(), 2, 1).unwrap();
    // Two tile types that fit beside the start tile; the bag A, B, A drawn in that order.
    let mut kinds: Vec<u16> = s.bag.clone();
    kinds.sort_unstable();
    kinds.dedup();
    let (a, b) = (kinds[0], kinds[kinds.len() - 1]);
    s.set_bag(&[a, b, a], true).unwrap();
    let mut judge = Judge::new(TileIndex);
    let drawn = judge.chance_step(&mut s);
    assert_eq!(drawn, Some(carcassonne::engine::chance::Chance::Tile(a)));
    assert_eq!(s.phase, Phase::Place);
    let (va, vb) = (a as f64, b as f64);
    let mean = 2.0 / 3.0 * va + 1.0 / 3.0 * vb;
    let l = judge.luck;
    assert_eq!(l.events, 1);
    assert!((l.score[0] - (va - mean)).abs() < 1e-9, "{l:?}");
    assert_eq!(l.score[1], 0.0);
    // Margin: |seat 1 - seat 2| = the index; win: a softmax on the scale of 2 tiles left.
    assert!((l.margin - (va - mean)).abs() < 1e-9);
    let p = |v: f64| 1.0 / (1.0 + (-v / win_scale(2)).exp());
    let expect = p(va) - (2.0 / 3.0 * p(va) + 1.0 / 3.0 * p(vb));
    assert!((l.win[0] - expect).abs() < 1e-9, "{} vs {expect}", l.win[0]);
    assert!((l.win[0] + l.win[1]).abs() < 1e-9);
}

/// A deliberately bad V: noise keyed by everything the position shows.
struct Noise(u64);
impl Forecast for Noise {
    fn forecast(&mut self, s: &mut State, out: &mut [f32; MAX_PLAYERS]) {
        let mut h = self.0 ^ s.tile as u64 ^ (s.turns as u64) << 20 ^ (s.bag_len() as u64) << 40;
        for (p, o) in out.iter_mut().enumerate() {
            h ^= s.total(p.min(s.players as usize - 1)) as u64;
            h = splitmix64(&mut h);
            *o = (h % 1000) as f32 / 10.0;
        }
        self.0 = self.0.wrapping_add(1);
    }
}

/// Mean and standard error of a sample.
fn mean_se(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// Whole greedy games under `rules`, their luck measured by `judge`: seat 1's summed score
/// luck per game.
fn game_luck<F: Forecast>(
    rules: Rules,
    players: usize,
    games: u64,
    judge: &mut Judge<F>,
) -> Vec<f64> {
    let cat = Catalogue::builtin();
    let mut out = Vec::new();
    let (mut moves, mut mem) = (Vec::new(), Players::new());
    for seed in 0..games {
        let mut s = State::new(cat.clone(), rules, players, seed).unwrap();
        let mut rng = policy_rng(seed);
        judge.reset();
        play_judged(
            &mut s,
            &[Policy::Greedy],
            &mut rng,
            &mut moves,
            &mut mem,
            &mut |_| {},
            Some(judge),
        );
        assert_eq!(s.phase, Phase::Over);
        out.push(judge.luck.score[0]);
    }
    out
}

#[test]
fn luck_has_mean_zero_whatever_the_forecast() {
    // Every chance kind: tiles (with discards), fortune-teller hands, animal tokens.
    let rules = Rules::every_option();
    let noisy = game_luck(rules, 3, 100, &mut Judge::new(Noise(7)));
    let (m, se) = mean_se(&noisy);
    assert!(se > 0.0 && m.abs() < 4.0 * se, "noise V: mean {m} se {se}");
    let settled = game_luck(rules, 2, 16, &mut Judge::default());
    let (m, se) = mean_se(&settled);
    assert!(
        se > 0.0 && m.abs() < 4.0 * se,
        "settled V: mean {m} se {se}"
    );
}

#[test]
fn measuring_luck_never_changes_the_game() {
    let cat = Catalogue::builtin();
    for (rules, players, policies) in [
        (Rules::default(), 2, vec![Policy::Greedy]),
        (
            Rules::every_option(),
            3,
            vec![
                Policy::parse("expert").unwrap(),
                Policy::Random,
                Policy::Greedy,
            ],
        ),
    ] {
        for i in 0..3 {
            let mut mem = Players::new();
            let plain = run_game(
                &cat,
                rules,
                players,
                5,
                i,
                &policies,
                &mut Vec::new(),
                &mut mem,
                None::<&mut Judge<Settled>>,
            )
            .unwrap();
            let mut judge = Judge::default();
            let judged = run_game(
                &cat,
                rules,
                players,
                5,
                i,
                &policies,
                &mut Vec::new(),
                &mut mem,
                Some(&mut judge),
            )
            .unwrap();
            assert!(plain.luck.is_none());
            assert!(judged.luck.is_some_and(|l| l.events > 50));
            assert_eq!(
                (plain.scores, plain.breakdown, plain.turns, plain.winners),
                (
                    judged.scores,
                    judged.breakdown,
                    judged.turns,
                    judged.winners
                )
            );
        }
    }
}
