//! Luck measured while playing (issue 35): exact on a known bag, mean zero whatever the
//! forecast, and never a change to the game played.

use carcassonne::batch::{play_judged, policy_rng, run_game, GameResult};
use carcassonne::engine::chance::Chance;
use carcassonne::engine::rng::splitmix64;
use carcassonne::engine::rules::MAX_PLAYERS;
use carcassonne::luck::{
    first_greedy, win_scale, Forecast, Judge, Measure, Settled, Source, Values, FEATURES,
    KIND_DRAW, KIND_EXTRA, KIND_TIE, KIND_TOKEN, PARTS, STAGES, TAIL,
};
use carcassonne::players::evaluation::{from_models, term_names, Model};
use carcassonne::players::greedy::Greedy;
use carcassonne::players::heuristic::{Heuristic, HeuristicConfig};
use carcassonne::players::lookahead::{DrawValue, Lookahead, Ranking};
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Phase, Rules, State};
use std::sync::Arc;

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

/// A sample of corrections has mean zero: its mean lies within four standard errors of 0,
/// and it varies (a correction never made would pass for free).
fn assert_mean_zero(x: &[f64], what: &str) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt();
    assert!(se > 0.0, "{what}: never corrected");
    assert!(m.abs() < 4.0 * se, "{what}: mean {m} se {se}");
}

/// Game `index` of master seed `master` played twice with the same memory, once plain and
/// once measured by `judge`.
fn plain_and_judged<F: Forecast>(
    rules: Rules,
    players: usize,
    master: u64,
    index: u64,
    policies: &[Policy],
    mem: &mut Players,
    judge: &mut Judge<F>,
) -> (GameResult, GameResult) {
    let cat = Catalogue::builtin();
    let mut moves = Vec::new();
    let plain = run_game(
        &cat,
        rules,
        players,
        master,
        index,
        policies,
        &mut moves,
        mem,
        None::<&mut Judge<F>>,
    )
    .unwrap();
    let judged = run_game(
        &cat,
        rules,
        players,
        master,
        index,
        policies,
        &mut moves,
        mem,
        Some(judge),
    )
    .unwrap();
    (plain, judged)
}

/// Whole greedy games under `rules` (seeds 0 to `games`), their luck measured by `judge`,
/// which `each` reads after every game.
fn judged_games<F: Forecast>(
    rules: Rules,
    players: usize,
    games: u64,
    judge: &mut Judge<F>,
    mut each: impl FnMut(&Judge<F>),
) {
    let cat = Catalogue::builtin();
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
        each(judge);
    }
}

/// Seat 1's summed score luck per game of [`judged_games`].
fn game_luck<F: Forecast>(
    rules: Rules,
    players: usize,
    games: u64,
    judge: &mut Judge<F>,
) -> Vec<f64> {
    let mut out = Vec::new();
    judged_games(rules, players, games, judge, |j| out.push(j.luck.score[0]));
    out
}

#[test]
fn luck_has_mean_zero_whatever_the_forecast() {
    // Every chance kind: tiles (with discards), fortune-teller hands, animal tokens.
    let rules = Rules::every_option();
    let noisy = game_luck(rules, 3, 100, &mut Judge::new(Noise(7)));
    assert_mean_zero(&noisy, "noise V");
    let settled = game_luck(rules, 2, 16, &mut Judge::default());
    assert_mean_zero(&settled, "settled V");
}

#[test]
fn the_luck_parts_add_up_and_each_has_mean_zero() {
    // Every chance kind (tiles with discards, fortune-teller hands, animal tokens) and
    // greedy tie-breaks, split by kind and stage (`luck::part`): the parts sum to the game's
    // luck, and each is a sum of zero-mean terms whatever V is.
    let cat = Catalogue::builtin();
    let (mut moves, mut mem) = (Vec::new(), Players::new());
    let mut judge = Judge::new(Noise(11));
    let mut parts = vec![Vec::new(); PARTS];
    for seed in 0..100u64 {
        let mut s = State::new(cat.clone(), Rules::every_option(), 3, seed).unwrap();
        let mut rng = policy_rng(seed);
        judge.reset();
        play_judged(
            &mut s,
            &[Policy::Greedy],
            &mut rng,
            &mut moves,
            &mut mem,
            &mut |_| {},
            Some(&mut judge),
        );
        let l = judge.luck;
        for p in 0..3 {
            let sum: f64 = l.score_parts[p].iter().sum();
            assert!((sum - l.score[p]).abs() < 1e-6, "{sum} vs {}", l.score[p]);
            let sum: f64 = l.win_parts[p].iter().sum();
            assert!((sum - l.win[p]).abs() < 1e-9);
        }
        for (k, x) in parts.iter_mut().enumerate() {
            x.push(l.score_parts[0][k]);
        }
    }
    for kind in [KIND_DRAW, KIND_EXTRA, KIND_TOKEN, KIND_TIE] {
        for stage in 0..STAGES {
            assert_mean_zero(
                &parts[kind * STAGES + stage],
                &format!("kind {kind} stage {stage}"),
            );
        }
    }
}

#[test]
fn a_forecast_settled_by_the_seats_has_mean_zero_and_changes_no_game() {
    // V settled by the seats themselves (one-ply expert and heuristic): the settling players
    // have their own memory and a fixed tie-break seed, so the game is the same.
    let policies = vec![
        Policy::parse("expert").unwrap(),
        Policy::parse("heuristic").unwrap(),
    ];
    let w = carcassonne::players::evaluation::BUILTIN.clone();
    let mut judge = Judge::new(Settled::with_seats(w, policies.clone()));
    let mut mem = Players::new();
    let mut luck = Vec::new();
    for i in 0..12 {
        let (plain, judged) =
            plain_and_judged(Rules::default(), 2, 9, i, &policies, &mut mem, &mut judge);
        assert_eq!((plain.scores, plain.turns), (judged.scores, judged.turns));
        luck.push(judged.luck.unwrap().score[0]);
    }
    assert_mean_zero(&luck, "settled by the seats");
}

#[test]
fn measuring_luck_never_changes_the_game() {
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
            let mut judge = Judge::<Settled>::default();
            let (plain, judged) = plain_and_judged(
                rules,
                players,
                5,
                i,
                &policies,
                &mut Players::new(),
                &mut judge,
            );
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

/// A look-ahead seat at `s` (waiting for its placement): its choice, and the values its
/// search gave the next draw (through the batch runner's path, `Policy::draw_values`).
fn look_ahead_choice(
    s: &State,
    policy: &Policy,
    mem: &mut Players,
) -> (carcassonne::engine::moves::Move, Vec<DrawValue>, f32) {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let i = policy.choose(s, &moves, &mut policy_rng(3), mem);
    let draws = policy
        .draw_values(&moves[i], mem)
        .expect("a look-ahead values the next draw")
        .to_vec();
    let rank = mem.heuristic.last_ranks()[i] as f32 / 1000.0;
    (moves[i], draws, rank)
}

/// A base game of two `heuristic:depth=2:top=4` seats with a known bag of seven tiles of
/// four kinds (drawn in order), the seats' policy and its configuration.
fn look_ahead_bag() -> (State, Policy, HeuristicConfig) {
    let mut s = State::new(Catalogue::builtin(), Rules::base(), 2, 1).unwrap();
    let mut kinds: Vec<u16> = s.bag.clone();
    kinds.sort_unstable();
    kinds.dedup();
    let k = kinds.len();
    let (a, b, c, d) = (kinds[0], kinds[k / 3], kinds[2 * k / 3], kinds[k - 1]);
    s.set_bag(&[a, b, c, b, d, c, b], true).unwrap();
    let policy = Policy::parse("heuristic:depth=2:top=4").unwrap();
    let Policy::Heuristic(cfg) = policy else {
        unreachable!()
    };
    (s, policy, cfg)
}

/// The luck views of seat 1's margin `v` (two players) with `left` tiles in the bag.
fn margin_views(v: f64, left: usize) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + (-v / win_scale(left)).exp());
    (v / 2.0, win, v.abs())
}

#[test]
fn a_look_ahead_seat_values_the_next_draw_for_free() {
    let (mut s, policy, cfg) = look_ahead_bag();
    let mut mem = Players::new();
    let mut judge = Judge::searched(Settled::default());
    judge.chance_step(&mut s);
    assert_eq!(judge.luck.events, 0, "no look-ahead valued the first draw");
    let mut expect = [0.0f64; 3];
    for step in 0..2 {
        let me = s.to_move() as usize;
        assert_eq!(me, step);
        let (m, draws, rank) = look_ahead_choice(&s, &policy, &mut mem);
        let mut after = s.clone();
        after.play_unchecked(&m);
        // The same values computed afresh for the position the draw happens in.
        let mut fresh = Vec::new();
        Lookahead::<Heuristic>::new().draw_values(&cfg, &after, me, &mut fresh);
        assert_eq!(fresh.len(), draws.len());
        for (x, y) in fresh.iter().zip(&draws) {
            assert_eq!((x.tile, x.count), (y.tile, y.count));
            assert!((x.value - y.value).abs() < 1e-4, "{x:?} {y:?}");
        }
        let total: f64 = draws.iter().map(|d| d.count as f64).sum();
        assert_eq!(total as usize, after.drawable().len());
        // The exact expectation is the count-weighted mean: the move's own look-ahead value.
        let mean: f64 = draws
            .iter()
            .map(|d| d.count as f64 * d.value as f64)
            .sum::<f64>()
            / total;
        assert!((mean - rank as f64).abs() < 2e-3, "{mean} vs {rank}");
        judge.told(me, Some(&draws));
        s.play_unchecked(&m);
        let Some(carcassonne::engine::chance::Chance::Tile(t)) = judge.chance_step(&mut s) else {
            panic!("a tile is drawn")
        };
        // Seat 1's margin: the mover's value, negated when seat 2 moved.
        let sign = if me == 0 { 1.0 } else { -1.0 };
        let left = s.bag_len();
        let actual = draws.iter().find(|d| d.tile == t).unwrap();
        let got = margin_views(sign * actual.value as f64, left);
        let (mut e0, mut e1, mut e2) = (got.0, got.1, got.2);
        for d in &draws {
            let v = margin_views(sign * d.value as f64, left);
            let p = d.count as f64 / total;
            e0 -= p * v.0;
            e1 -= p * v.1;
            e2 -= p * v.2;
        }
        expect[0] += e0;
        expect[1] += e1;
        expect[2] += e2;
        let l = judge.luck;
        assert_eq!(l.events, step as u32 + 1);
        assert!((l.score[0] - expect[0]).abs() < 1e-4, "{l:?} {expect:?}");
        assert!((l.score[0] + l.score[1]).abs() < 1e-9);
        assert!((l.win[0] - expect[1]).abs() < 1e-6, "{l:?} {expect:?}");
        assert!((l.win[0] + l.win[1]).abs() < 1e-9);
        assert!((l.margin - expect[2]).abs() < 1e-4, "{l:?} {expect:?}");
    }
    assert!(expect[0] != 0.0, "the draws were luck");
    // A tie-break or a draw no look-ahead valued is not corrected.
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let all: Vec<usize> = (0..moves.len()).collect();
    let before = judge.luck;
    judge.choice(&s, &moves, &all, 0);
    s.play_unchecked(&moves[0]);
    judge.chance_step(&mut s);
    assert_eq!(judge.luck, before);
}

#[test]
fn a_look_ahead_seats_luck_has_mean_zero() {
    // Short games from a few tiles dealt by the seed: every draw after a move is corrected.
    let cat = Catalogue::builtin();
    let policies = [Policy::parse("heuristic:depth=2:top=3").unwrap()];
    let (mut moves, mut mem) = (Vec::new(), Players::new());
    for mut judge in [
        Judge::searched(Settled::default()),
        Judge::replied(Settled::default()),
    ] {
        let (mut score, mut win, mut events) = (Vec::new(), Vec::new(), 0);
        for seed in 0..300u64 {
            let mut s = State::new(cat.clone(), Rules::base(), 2, seed).unwrap();
            let kinds = s.bag.clone();
            let mut h = seed;
            let tiles: Vec<u16> = (0..7)
                .map(|_| kinds[(splitmix64(&mut h) % kinds.len() as u64) as usize])
                .collect();
            s.set_bag(&tiles, false).unwrap();
            let mut rng = policy_rng(seed);
            judge.reset();
            play_judged(
                &mut s,
                &policies,
                &mut rng,
                &mut moves,
                &mut mem,
                &mut |_| {},
                Some(&mut judge),
            );
            assert_eq!(s.phase, Phase::Over);
            score.push(judge.luck.score[0]);
            win.push(judge.luck.win[0]);
            events += judge.luck.events;
        }
        assert!(events > 300 * 4, "{events} draws corrected");
        for (name, x) in [("score", &score), ("win", &win)] {
            assert_mean_zero(x, name);
        }
    }
}

#[test]
fn the_replied_v_values_each_tile_after_the_searchs_own_reply() {
    let (mut s, policy, cfg) = look_ahead_bag();
    let mut mem = Players::new();
    let mut judge = Judge::replied(Settled::default());
    // The game's first draw follows no look-ahead: the settled V corrects it.
    judge.chance_step(&mut s);
    assert_eq!(judge.luck.events, 1);
    let before = judge.luck;
    let me = s.to_move() as usize;
    let (m, draws, _) = look_ahead_choice(&s, &policy, &mut mem);
    let mut after = s.clone();
    after.play_unchecked(&m);
    // V by hand: each tile drawn, the reply the search found played, then the forecast.
    let (mut forecast, mut ranking) = (Settled::default(), Heuristic::default());
    let (mut replied, mut settled) = (Vec::new(), Vec::new());
    let (mut moves, mut values) = (Vec::new(), Vec::new());
    for dv in &draws {
        let mut x = after.clone();
        x.apply_chance(Chance::Tile(dv.tile)).unwrap();
        let mut out = [0.0f32; MAX_PLAYERS];
        forecast.forecast(&mut x.clone(), &mut out);
        settled.push(out[0] as f64);
        // The reply is the replying seat's best by its one-ply ranking.
        let r = dv.reply.expect("every tile of this bag can be placed");
        x.legal_moves(&mut moves);
        ranking.move_values(&cfg, &x, &moves, &mut values);
        let at = moves.iter().position(|x| *x == r).expect("a legal reply");
        let best = values.iter().fold(f32::MIN, |p, &v| p.max(v));
        assert_eq!(values[at], best, "the reply is the best by one ply");
        x.play(&r).unwrap();
        forecast.forecast(&mut x, &mut out);
        replied.push(out[0] as f64);
    }
    assert_ne!(replied, settled, "the replies are not greedy's");
    judge.told(me, Some(&draws));
    s.play_unchecked(&m);
    let Some(Chance::Tile(t)) = judge.chance_step(&mut s) else {
        panic!("a tile is drawn")
    };
    let total: f64 = draws.iter().map(|d| d.count as f64).sum();
    let mean: f64 = (draws.iter().zip(&replied))
        .map(|(d, v)| d.count as f64 * v)
        .sum::<f64>()
        / total;
    let actual = replied[draws.iter().position(|d| d.tile == t).unwrap()];
    let got = judge.luck.score[0] - before.score[0];
    assert!(
        (got - (actual - mean)).abs() < 1e-3,
        "{got} vs {}",
        actual - mean
    );
    assert_eq!(judge.luck.events, 2);
}

#[test]
fn the_batch_takes_v_after_the_look_aheads_replies_where_a_seat_looks_ahead() {
    let look = Policy::parse("heuristic:depth=2").unwrap();
    let w = carcassonne::players::evaluation::BUILTIN.clone();
    for (players, policies) in [
        (2, vec![look.clone()]),
        (3, vec![look.clone()]),
        (2, vec![look.clone(), Policy::Greedy]),
    ] {
        // With the last tiles exact: cheap beside a search.
        assert!(matches!(
            Values::best_for(players, &policies, w.clone()),
            Values::Replied(
                _,
                Measure {
                    terms: false,
                    tail: TAIL
                }
            )
        ));
        assert_eq!(
            Source::parse("auto", players, &policies),
            Ok(Source::Replied)
        );
    }
    for policies in [vec![Policy::parse("expert").unwrap()], vec![Policy::Greedy]] {
        // Without: for one-ply seats the tail costs more than it cuts.
        assert!(matches!(
            Values::best_for(2, &policies, w.clone()),
            Values::Settled(
                _,
                _,
                Measure {
                    terms: false,
                    tail: 0
                }
            )
        ));
    }
    for policies in [
        vec![Policy::parse("mcts:playouts=10").unwrap()],
        vec![
            Policy::parse("heuristic:rollouts=4").unwrap(),
            Policy::Greedy,
        ],
    ] {
        // Seats that search without looking ahead: settled V, and the tail as cheap beside
        // their play as beside a look-ahead's.
        assert!(matches!(
            Values::best_for(2, &policies, w.clone()),
            Values::Settled(
                _,
                _,
                Measure {
                    terms: false,
                    tail: TAIL
                }
            )
        ));
    }
    // The searched V only where asked for, and only where it serves.
    assert_eq!(
        Source::parse("searched", 2, std::slice::from_ref(&look)),
        Ok(Source::Searched)
    );
    assert!(Source::parse("searched", 3, std::slice::from_ref(&look)).is_err());
    assert!(Source::parse("searched", 2, &[look.clone(), Policy::Greedy]).is_err());
    let err = Source::parse("lucky", 2, &[]).unwrap_err();
    assert!(
        err.contains("'replied'") && err.contains("\"lucky\""),
        "{err}"
    );
    assert!(Values::searchable(
        2,
        &[Policy::parse("expert:depth=2").unwrap()]
    ));
    // The replied V's model is fitted on games of the one-ply ranking the search replies by.
    for (text, ranking) in [
        ("heuristic:depth=2:top=2", "heuristic"),
        ("heuristic:depth=3:meeple=2", "heuristic:meeple=2"),
        ("expert:depth=2:width=16", "expert:width=16"),
        ("greedy", "greedy"),
    ] {
        let r = Policy::parse(text).unwrap().ranking();
        assert_eq!(r.text(), ranking);
        assert!(r.one_ply(), "{text}");
    }
    // Which seats choose in one ply (a luck value model is fitted on games of those only).
    for (text, one) in [
        ("greedy", true),
        ("random", true),
        ("expert", true),
        ("heuristic", true),
        ("expert:depth=2", false),
        ("heuristic:rollouts=2", false),
        ("mcts:playouts=10", false),
    ] {
        assert_eq!(Policy::parse(text).unwrap().one_ply(), one, "{text}");
    }
}

#[test]
fn the_luck_of_each_term_weighed_by_a_linear_v_is_its_score_luck() {
    // V linear in its features (the score plus the terms times the weights, no network), so
    // its luck is each feature's luck times its weight, exactly, at every chance kind (tiles
    // with discards, fortune-teller hands, animal tokens) and greedy's tie-breaks; and each
    // feature's luck has mean zero.
    let mut rng = carcassonne::engine::rng::Rng::new(5);
    let weights: Vec<f32> = (0..term_names().len())
        .map(|_| (rng.below(2000) as f32 - 1000.0) / 1000.0)
        .collect();
    let model = Model {
        key: "base".into(),
        weights: weights.clone(),
        net: None,
    };
    let w = Arc::new(from_models(vec![model], "random").unwrap());
    let mut judge = Judge::new(Settled::new(w)).with_terms();
    let mut per_feature = vec![Vec::new(); FEATURES];
    judged_games(Rules::every_option(), 3, 12, &mut judge, |judge| {
        assert!(judge.luck.events > 50);
        for p in 0..3 {
            let row = &judge.terms[p * FEATURES..(p + 1) * FEATURES];
            let weighed: f64 = row[0]
                + (row[1..].iter().zip(&weights))
                    .map(|(t, &w)| t * w as f64)
                    .sum::<f64>();
            let score = judge.luck.score[p];
            assert!(
                (weighed - score).abs() < 1e-3 * (1.0 + score.abs()),
                "{weighed} vs {score}"
            );
        }
        for (f, x) in per_feature.iter_mut().enumerate() {
            x.push(judge.terms[f]);
        }
        assert!(judge.terms[3 * FEATURES..].iter().all(|&t| t == 0.0)); // no fourth player
    });
    // The score's luck and a term's (meeples) have mean zero.
    assert_mean_zero(&per_feature[0], "score luck");
    assert_mean_zero(&per_feature[3], "meeples luck");
}

/// Seat 1's share of the win of a two-player game over (B23: a tie shares it).
fn seat_one_win(s: &State) -> f64 {
    match s.total(0).cmp(&s.total(1)) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The exact expectation of seat 1's win share and score from `s` on, every chance outcome
/// weighed by its probability and every decision taken as the settled V takes it (greedy,
/// ties to the first move): brute force, independent of the judge.
fn brute_force(s: &State, greedy: &mut Greedy) -> (f64, f64) {
    let mut s = s.clone();
    let (mut moves, mut values) = (Vec::new(), Vec::new());
    loop {
        if s.phase == Phase::Over {
            return (seat_one_win(&s), s.total(0) as f64);
        }
        if s.phase.is_decision() {
            s.legal_moves(&mut moves);
            let i = first_greedy(greedy, &mut values, &s, &moves);
            s.play_unchecked(&moves[i]);
            continue;
        }
        let outcomes = s.chance_outcomes();
        if outcomes.is_empty() {
            s.chance_step_random();
            continue;
        }
        let mut mean = (0.0, 0.0);
        for (c, p) in outcomes {
            let mut next = s.clone();
            next.apply_chance(c).unwrap();
            let (w, x) = brute_force(&next, greedy);
            mean = (mean.0 + p * w, mean.1 + p * x);
        }
        return mean;
    }
}

#[test]
fn within_the_tail_v_is_the_exact_expectation_of_the_end() {
    // Five tiles left, four kinds: with a tail of 5, every event's V is exact, so the luck of
    // the game telescopes: the result less its luck is the expectation at the start, which
    // brute force finds over every order of the bag, and V never drifts between events (the
    // trace: each event's expectation is the last one's value after its outcome).
    let cat = Catalogue::builtin();
    let mut s = State::new(cat, Rules::base(), 2, 3).unwrap();
    let mut kinds: Vec<u16> = s.bag.clone();
    kinds.sort_unstable();
    kinds.dedup();
    let bag = [kinds[1], kinds[5], kinds[1], kinds[9], kinds[14]];
    s.set_bag(&bag, false).unwrap();
    let (expect_win, expect_score) = brute_force(&s, &mut Greedy::new());
    // Seat 1's win share and score less their luck, the game played as V settles it.
    let adjusted = |tail: usize| {
        let mut s = s.clone();
        let mut judge = Judge::new(Settled::default()).with_tail(tail).with_trace();
        let (mut greedy, mut moves, mut values) = (Greedy::new(), Vec::new(), Vec::new());
        while s.phase != Phase::Over {
            if s.phase.is_decision() {
                s.legal_moves(&mut moves);
                let i = first_greedy(&mut greedy, &mut values, &s, &moves);
                s.play_unchecked(&moves[i]);
            } else {
                judge.chance_step(&mut s);
            }
        }
        assert!(judge.luck.events >= 3, "{:?}", judge.luck);
        let trace = judge.trace.take().unwrap();
        assert_eq!(trace.len(), judge.luck.events as usize);
        let luck: f64 = trace
            .iter()
            .map(|t| t.actual.win[0] - t.expected.win[0])
            .sum();
        assert!((luck - judge.luck.win[0]).abs() < 1e-9);
        // The largest drift of seat 1's score, the last event's value against the result
        // included.
        let last = trace.last().unwrap().actual.score[0];
        let drift = (trace.windows(2))
            .map(|w| (w[1].expected.score[0] - w[0].actual.score[0]).abs())
            .fold((last - s.total(0) as f64).abs(), f64::max);
        assert_eq!(trace[0].left, bag.len());
        (
            seat_one_win(&s) - judge.luck.win[0],
            s.total(0) as f64 - judge.luck.score[0],
            trace[0].expected.score[0],
            drift,
        )
    };
    let (win, score, first, drift) = adjusted(bag.len());
    assert!(
        (first - expect_score).abs() < 1e-6,
        "{first} vs {expect_score}"
    );
    assert!(drift < 1e-6, "{drift}");
    assert!((win - expect_win).abs() < 1e-9, "{win} vs {expect_win}");
    assert!(
        (score - expect_score).abs() < 1e-6,
        "{score} vs {expect_score}"
    );
    // Without the tail V is a prediction, and the luck does not telescope to the expectation.
    let (_, score, _, drift) = adjusted(0);
    assert!(
        (score - expect_score).abs() > 1e-3,
        "{score} vs {expect_score}"
    );
    assert!(drift > 1e-3, "{drift}");
}

#[test]
fn a_tail_keeps_the_luck_mean_zero_and_changes_no_game() {
    // Every chance kind near the end (hands, animal tokens, discards), exact.
    let tailed = game_luck(
        Rules::every_option(),
        2,
        16,
        &mut Judge::default().with_tail(3),
    );
    assert_mean_zero(&tailed, "settled V with a tail of 3");
    let mut judge = Judge::<Settled>::default().with_tail(3);
    for i in 0..2 {
        let (plain, judged) = plain_and_judged(
            Rules::every_option(),
            3,
            11,
            i,
            &[Policy::Greedy],
            &mut Players::new(),
            &mut judge,
        );
        assert_eq!(plain.scores, judged.scores);
        assert!(judged.luck.is_some_and(|l| l.events > 20));
    }
}
