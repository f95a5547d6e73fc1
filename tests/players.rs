//! The built-in players: the search returns legal moves in every kind of decision, never
//! reads the bag's order, is deterministic, and beats the random player; greedy and search
//! games replay exactly from their seed; the heuristic player reads the bag's contents only.
mod common;

use carcassonne::batch::{game_steps, simulate, Step};
use carcassonne::engine::rng::Rng;
use carcassonne::players::expert::{Expert, ExpertConfig};
use carcassonne::players::heuristic::{Heuristic, HeuristicConfig};
use carcassonne::players::mcts::{MctsConfig, Search};
use carcassonne::players::{Players, Policy};
use carcassonne::{Catalogue, Edition, Move, Phase, Rules, State};
use common::greedy_positions;

fn every_option() -> Rules {
    Rules::every_option()
}

fn mcts(playouts: u32) -> MctsConfig {
    MctsConfig {
        playouts,
        ..MctsConfig::default()
    }
}

#[test]
fn search_plays_a_legal_move_in_every_kind_of_decision() {
    let cat = Catalogue::builtin();
    let mut seen = [false; 3];
    let mut search = Search::new();
    let mut moves = Vec::new();
    for (k, rules) in [
        every_option(),
        Rules {
            traders_builders: Some(Edition::C2),
            ..every_option()
        },
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..6u64 {
            let mut s = State::new(cat.clone(), rules, 2 + (seed as usize % 3), seed).unwrap();
            let mut rng = Rng::new(seed + 100 * k as u64);
            let mut decision = 0u64;
            while s.phase != Phase::Over {
                if s.phase.is_chance() {
                    s.chance_random(&mut |_| {}, &mut |_| {});
                    continue;
                }
                s.legal_moves(&mut moves);
                decision += 1;
                // Search every farmer choice and choice of tile, and every 5th placement.
                let special = s.phase != Phase::Place;
                let i = if special || decision.is_multiple_of(5) {
                    seen[match s.phase {
                        Phase::Place => 0,
                        Phase::Farmer => 1,
                        _ => 2,
                    }] = true;
                    let i = search.run(&s, &moves, &mcts(24), seed ^ decision);
                    assert!(i < moves.len());
                    assert!(s.check(&moves[i]).is_ok(), "{:?}", moves[i]);
                    i
                } else {
                    rng.below(moves.len())
                };
                s.play_unchecked(&moves[i]);
            }
        }
    }
    assert_eq!(
        seen, [true; 3],
        "placements, farmer choices and tile choices were searched"
    );
}

/// Play `turns` random turns on `a`, and the same draws and moves on `b`.
fn same_history(a: &mut State, b: &mut State, turns: u16, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    while a.turns < turns && a.phase != Phase::Over {
        match a.phase {
            Phase::Draw => {
                let t = a.random_tile().unwrap();
                a.draw(t).unwrap();
                b.draw(t).unwrap();
            }
            Phase::Reveal => {
                let v = carcassonne::expansions::big_top::random_token(a).unwrap();
                a.reveal(v).unwrap();
                b.reveal(v).unwrap();
            }
            _ => {
                a.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len())];
                a.play(&m).unwrap();
                b.play(&m).unwrap();
            }
        }
    }
    // Draw until a decision (a tile may fill a fortune teller's hand or be discarded).
    while a.phase == Phase::Draw {
        let t = a.random_tile().unwrap();
        a.draw(t).unwrap();
        b.draw(t).unwrap();
    }
}

#[test]
fn search_never_reads_the_order_of_the_bag() {
    let cat = Catalogue::builtin();
    for (k, rules) in [Rules::base(), every_option()].into_iter().enumerate() {
        for turns in [3u16, 25, 50] {
            // Same visible history, different seeds: different deals, different futures.
            let mut a = State::new(cat.clone(), rules, 2, 1 + k as u64).unwrap();
            let mut b = State::new(cat.clone(), rules, 2, 999 + k as u64).unwrap();
            same_history(&mut a, &mut b, turns, 7 + turns as u64);
            if a.phase == Phase::Over || a.phase == Phase::Reveal {
                continue;
            }
            assert_ne!(a.rng, b.rng);
            let mut moves = Vec::new();
            a.legal_moves(&mut moves);
            let mut sa = Search::new();
            let mut sb = Search::new();
            let ia = sa.run(&a, &moves, &mcts(200), 42);
            let ib = sb.run(&b, &moves, &mcts(200), 42);
            assert_eq!(ia, ib);
            let (mut ra, mut rb) = (Vec::new(), Vec::new());
            sa.root_stats(&mut ra);
            sb.root_stats(&mut rb);
            assert_eq!(ra, rb, "identical statistics, not only the same move");
        }
    }
}

#[test]
fn batches_are_deterministic_and_independent_of_threads() {
    let cat = Catalogue::builtin();
    let pols = [Policy::parse("mcts:playouts=40").unwrap(), Policy::Greedy];
    let one = simulate(&cat, Rules::default(), 2, 0, 4, 11, &pols, 1).unwrap();
    let two = simulate(&cat, Rules::default(), 2, 0, 4, 11, &pols, 2).unwrap();
    assert_eq!(one, two);
    // The logged replay of game 2 is the same game, move for move.
    let (steps, result) = game_steps(&cat, Rules::default(), 2, one[2].seed, &pols).unwrap();
    assert_eq!(result, one[2]);
    let mut s = State::new(cat.clone(), Rules::default(), 2, one[2].seed).unwrap();
    for step in steps {
        match step {
            Step::Tile(t) => {
                s.draw(t).unwrap();
            }
            Step::Animal(v) => s.reveal(v).unwrap(),
            Step::Move(_, m) => s.play(&m).unwrap(),
        }
    }
    assert_eq!(s.phase, Phase::Over);
    assert_eq!(s.total(0), one[2].scores[0]);
}

#[test]
fn search_beats_random() {
    // Not timed: 300 playouts per decision must win at least 18 of 20 games (seats swapped).
    let cat = Catalogue::builtin();
    let m = Policy::parse("mcts:playouts=300").unwrap();
    let a = simulate(
        &cat,
        Rules::base(),
        2,
        0,
        10,
        5,
        &[m.clone(), Policy::Random],
        0,
    )
    .unwrap();
    let b = simulate(&cat, Rules::base(), 2, 0, 10, 5, &[Policy::Random, m], 0).unwrap();
    let wins = a.iter().filter(|r| r.winners == 0b01).count()
        + b.iter().filter(|r| r.winners == 0b10).count();
    assert!(
        wins >= 18,
        "mcts:300 won only {wins} of 20 games against random"
    );
}

#[test]
fn policy_texts_parse_and_print_back() {
    for text in [
        "random",
        "greedy",
        "mcts:playouts=500",
        "mcts:playouts=20:c=0.5:depth=8",
    ] {
        assert_eq!(Policy::parse(text).unwrap().text(), text);
    }
    assert_eq!(
        Policy::parse("mcts:300").unwrap().text(),
        "mcts:playouts=300"
    );
    assert_eq!(Policy::parse("mcts").unwrap().text(), "mcts:playouts=1000");
    for bad in [
        "mcts:playouts=0",
        "mcts:c=-1",
        "mcts:bogus=2",
        "mcts:::",
        "mcts:playouts=5:playouts=6",
        "mcts:c=0.3:5",
        "mcts:5:",
        "greedy:3",
        "clever",
    ] {
        assert!(Policy::parse(bad).is_err(), "{bad}");
    }
    let seats = Policy::parse_seats("mcts:playouts=100,greedy").unwrap();
    assert_eq!(seats.len(), 2);
}

#[test]
fn greedy_closes_its_city_and_search_agrees() {
    // Start (city north), then seat 1 builds a city north and holds it; seat 2 passes far
    // away; seat 1 can close the 4-tile city with a cap (8 points): greedy and search take it.
    let cat = Catalogue::builtin();
    let id = |s: &str| cat.id(s).unwrap();
    let mut s = State::new(cat.clone(), Rules::base(), 2, 3).unwrap();
    let play = |s: &mut State, tile: &str, text: &str| {
        s.draw(id(tile)).unwrap();
        let m = s.parse_move(text).unwrap();
        s.play(&m).unwrap();
    };
    play(&mut s, "CITY3", "0,1 180 meeple city:E");
    play(&mut s, "MON", "0,-1 0");
    play(&mut s, "CAP", "1,1 270");
    play(&mut s, "MON", "1,-1 0");
    s.draw(id("CAP")).unwrap();
    let mut moves: Vec<Move> = Vec::new();
    s.legal_moves(&mut moves);
    let closing: Vec<usize> = (0..moves.len())
        .filter(|&i| matches!(moves[i], Move::Place { x: -1, y: 1, .. }))
        .collect();
    assert!(!closing.is_empty());
    let mut mem = Players::new();
    let mut rng = Rng::new(1);
    let g = Policy::Greedy.choose(&s, &moves, &mut rng, &mut mem);
    assert!(
        closing.contains(&g),
        "greedy chose {}",
        s.move_text(&moves[g])
    );
    let i = Search::new().run(&s, &moves, &mcts(500), 9);
    assert!(
        closing.contains(&i),
        "search chose {}",
        s.move_text(&moves[i])
    );
}

#[test]
fn heuristic_never_reads_the_order_of_the_bag() {
    let cat = Catalogue::builtin();
    for (k, rules) in [Rules::base(), every_option()].into_iter().enumerate() {
        for turns in [3u16, 25, 50] {
            let mut a = State::new(cat.clone(), rules, 2, 1 + k as u64).unwrap();
            let mut b = State::new(cat.clone(), rules, 2, 999 + k as u64).unwrap();
            same_history(&mut a, &mut b, turns, 7 + turns as u64);
            if a.phase == Phase::Over || a.phase == Phase::Reveal {
                continue;
            }
            assert_ne!(a.bag, b.bag, "the hidden orders differ");
            let mut moves = Vec::new();
            a.legal_moves(&mut moves);
            let cfg = HeuristicConfig::default();
            let (mut va, mut vb) = (Vec::new(), Vec::new());
            Heuristic::new().evaluate(&cfg, &a, &moves, &mut va);
            Heuristic::new().evaluate(&cfg, &b, &moves, &mut vb);
            assert_eq!(va, vb, "identical values, not only the same move");
        }
    }
}

#[test]
fn heuristic_parameters_parse_and_print_back() {
    assert_eq!(Policy::parse("heuristic").unwrap().text(), "heuristic");
    for text in ["heuristic:meeple=3", "heuristic:open=1:field=0.5"] {
        assert_eq!(Policy::parse(text).unwrap().text(), text);
    }
    // Parameters print in the table's order, whatever order they were given in.
    assert_eq!(
        Policy::parse("heuristic:field=0.5:open=1").unwrap().text(),
        "heuristic:open=1:field=0.5"
    );
    for (bad, says) in [
        ("heuristic:meeple=-1", "from 0 to 20"),
        ("heuristic:reach=2", "from 0 to 1"),
        ("heuristic:meeple=x", "must be a number"),
        ("heuristic:bogus=1", "unknown heuristic parameter `bogus`"),
        ("heuristic:open=1:open=2", "given twice"),
        ("heuristic:3", "NAME=VALUE"),
        ("heuristic:", "NAME=VALUE"),
    ] {
        let e = Policy::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn heuristic_beats_greedy() {
    // A strength check that can fail: 12 deals, seats swapped (measured: 99% of 100 games).
    let cat = Catalogue::builtin();
    let h = Policy::parse("heuristic").unwrap();
    let mut wins = 0;
    for (seats, me) in [
        ([h.clone(), Policy::Greedy], 0u8),
        ([Policy::Greedy, h], 1u8),
    ] {
        let games = simulate(&cat, Rules::base(), 2, 0, 12, 5, &seats, 1).unwrap();
        wins += games.iter().filter(|g| g.winners == 1 << me).count();
    }
    assert!(
        wins >= 18,
        "heuristic won {wins} of 24 games against greedy"
    );
}

/// The heuristic's choice in `s` with `cfg` and tie-break seed 5, and its ranks.
fn heuristic_choice(s: &State, cfg: &HeuristicConfig) -> (usize, Vec<i32>) {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut h = Heuristic::new();
    let i = h.choose(cfg, s, &moves, &mut Rng::new(5));
    (i, h.last_ranks().to_vec())
}

#[test]
fn heuristic_look_ahead_is_deterministic_and_blind_to_the_bags_order() {
    for (rules, players, depth, every) in [
        (Rules::base(), 2, 2, 6),
        (Rules::base(), 3, 2, 11),
        (every_option(), 2, 2, 13),
        (Rules::base(), 2, 3, 25),
        // Rollouts (depth 1 here): continuations drawn from the bag's sorted contents.
        (Rules::base(), 2, 1, 9),
        (Rules::base(), 3, 1, 17),
        (every_option(), 2, 1, 19),
    ] {
        let cfg = HeuristicConfig {
            depth,
            top: if depth == 3 { 2 } else { 4 },
            rollouts: if depth == 1 { 6 } else { 0 },
            horizon: 6,
            ..HeuristicConfig::default()
        };
        for s in greedy_positions(rules, players, 3, every) {
            let mut other = s.clone();
            // Reverse each bag group: the same contents in another order.
            other.bag_groups_mut().for_each(<[u16]>::reverse);
            let a = heuristic_choice(&s, &cfg);
            assert_eq!(a, heuristic_choice(&other, &cfg), "the bag's order read");
            assert_eq!(a, heuristic_choice(&s, &cfg), "the same choice again");
        }
    }
}

#[test]
fn heuristic_look_ahead_changes_choices_and_stops_when_told() {
    let cfg = Policy::parse("heuristic:depth=2:top=8").unwrap();
    let Policy::Heuristic(cfg) = cfg else {
        panic!("{cfg:?}")
    };
    let mut changed = 0;
    let positions = greedy_positions(Rules::base(), 2, 8, 4);
    for s in &positions {
        let one = heuristic_choice(s, &HeuristicConfig::default());
        let two = heuristic_choice(s, &cfg);
        changed += (one.0 != two.0) as usize;
        // The ranks the look-ahead gives: its top moves only.
        assert_eq!(
            two.1.iter().filter(|&&r| r > i32::MIN).count(),
            8.min(two.1.len())
        );
    }
    assert!(
        changed > 0,
        "the look-ahead chose as one ply in all {} positions",
        positions.len()
    );
    // Told to stop, a look-ahead gives up at once and the one-ply choice is played.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let deep = HeuristicConfig {
        depth: 3,
        top: 500,
        ..HeuristicConfig::default()
    };
    let long = HeuristicConfig {
        rollouts: 1_000_000,
        horizon: 1000,
        top: 500,
        ..HeuristicConfig::default()
    };
    for s in positions.iter().take(4) {
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        for cfg in [&deep, &long] {
            let mut h = Heuristic::new();
            h.stop = Some(stop.clone());
            let i = h.choose(cfg, s, &moves, &mut Rng::new(5));
            // The one-ply ranks (rollouts draw their seed first: ties may break otherwise).
            let (_, one) = heuristic_choice(s, &HeuristicConfig::default());
            assert_eq!(h.last_ranks(), one);
            assert_eq!(one[i], *one.iter().max().unwrap());
        }
    }
}

#[test]
fn heuristic_look_ahead_parameters_parse_and_print_back() {
    for text in [
        "heuristic:depth=2",
        "heuristic:meeple=3:depth=3:top=2",
        "heuristic:top=4:rollouts=64",
        "heuristic:rollouts=8:horizon=12",
    ] {
        assert_eq!(Policy::parse(text).unwrap().text(), text);
    }
    assert_eq!(
        Policy::parse("heuristic:top=8:depth=2").unwrap().text(),
        "heuristic:depth=2"
    );
    for (bad, says) in [
        ("heuristic:depth=4", "depth must be one of 1, 2, 3"),
        ("heuristic:depth=0", "one of 1, 2, 3"),
        (
            "heuristic:depth=2:top=0",
            "top must be a whole number from 1 to 500",
        ),
        ("heuristic:depth=2:top=x", "from 1 to 500"),
        ("heuristic:depth=2:depth=3", "given twice"),
        (
            "heuristic:width=2",
            "valid: meeple, open, reach, help, join, field, complete, depth, top, rollouts, horizon",
        ),
        (
            "heuristic:depth=2:rollouts=8",
            "depth=2 and rollouts=8 are two look-aheads: give one",
        ),
        ("heuristic:rollouts=8:horizon=0", "from 1 to 1000"),
        ("heuristic:rollouts=-1", "from 0 to 1000000"),
    ] {
        let e = Policy::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn heuristic_look_ahead_beats_greedy() {
    // A strength check that can fail: 8 deals, seats swapped (measured: 40 of 40 games).
    let cat = Catalogue::builtin();
    let h = Policy::parse("heuristic:depth=2:top=4").unwrap();
    let mut wins = 0;
    for (seats, me) in [
        ([h.clone(), Policy::Greedy], 0u8),
        ([Policy::Greedy, h], 1u8),
    ] {
        let games = simulate(&cat, Rules::base(), 2, 0, 8, 11, &seats, 0).unwrap();
        wins += games.iter().filter(|g| g.winners == 1 << me).count();
    }
    assert!(
        wins >= 12,
        "heuristic:depth=2 won {wins} of 16 games against greedy"
    );
}

#[test]
fn heuristic_rollouts_change_choices_and_beat_greedy() {
    let cfg = HeuristicConfig {
        rollouts: 8,
        top: 4,
        ..HeuristicConfig::default()
    };
    let positions = greedy_positions(Rules::base(), 2, 8, 4);
    let mut changed = 0;
    for s in &positions {
        let one = heuristic_choice(s, &HeuristicConfig::default());
        let rolled = heuristic_choice(s, &cfg);
        changed += (one.0 != rolled.0) as usize;
        // The ranks the rollouts give: their top moves only.
        assert_eq!(
            rolled.1.iter().filter(|&&r| r > i32::MIN).count(),
            4.min(rolled.1.len())
        );
    }
    assert!(
        changed > 0,
        "the rollouts chose as one ply in all {} positions",
        positions.len()
    );
    // A strength check that can fail: 8 deals, seats swapped.
    let cat = Catalogue::builtin();
    let h = Policy::Heuristic(cfg);
    let mut wins = 0;
    for (seats, me) in [
        ([h.clone(), Policy::Greedy], 0u8),
        ([Policy::Greedy, h], 1u8),
    ] {
        let games = simulate(&cat, Rules::base(), 2, 0, 8, 13, &seats, 0).unwrap();
        wins += games.iter().filter(|g| g.winners == 1 << me).count();
    }
    assert!(
        wins >= 12,
        "heuristic:rollouts=8 won {wins} of 16 games against greedy"
    );
}

/// The expert's choice in `s` with `cfg` and tie-break seed 5, and its ranks.
fn expert_choice(s: &State, cfg: &ExpertConfig) -> (usize, Vec<i32>) {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut e = Expert::new();
    let i = e.choose(cfg, s, &moves, &mut Rng::new(5));
    (i, e.last_ranks().to_vec())
}

#[test]
fn expert_rollouts_are_deterministic_blind_to_the_bags_order_and_change_choices() {
    let Policy::Expert(cfg) = Policy::parse("expert:rollouts=6:horizon=6:top=4").unwrap() else {
        panic!("not the expert")
    };
    let mut changed = 0;
    let positions = greedy_positions(Rules::base(), 2, 6, 5);
    for s in &positions {
        let mut other = s.clone();
        other.bag_groups_mut().for_each(<[u16]>::reverse);
        let a = expert_choice(s, &cfg);
        assert_eq!(a, expert_choice(&other, &cfg), "the bag's order read");
        assert_eq!(a, expert_choice(s, &cfg), "the same choice again");
        // The ranks the rollouts give: their top moves only.
        let valued = a.1.iter().filter(|&&r| r > i32::MIN).count();
        assert!(valued == 4.min(a.1.len()) || a.1.len() < 2, "{valued}");
        changed += (expert_choice(s, &ExpertConfig::default()).0 != a.0) as usize;
    }
    assert!(
        changed > 0,
        "the rollouts chose as one ply in all {} positions",
        positions.len()
    );
}

#[test]
fn expert_look_ahead_and_rollouts_stop_when_told() {
    // Told to stop (Ctrl-C), a look-ahead or rollouts give up at once and the one-ply choice
    // is played: rollouts that would take hours end within a continuation.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let deep = ExpertConfig {
        depth: 2,
        top: 500,
        ..ExpertConfig::default()
    };
    let long = ExpertConfig {
        rollouts: 1_000_000,
        horizon: 1000,
        top: 500,
        ..ExpertConfig::default()
    };
    for s in greedy_positions(Rules::base(), 2, 9, 6).iter().take(4) {
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        for cfg in [&deep, &long] {
            let mut e = Expert::new();
            e.stop = Some(stop.clone());
            let i = e.choose(cfg, s, &moves, &mut Rng::new(5));
            // The one-ply ranks (rollouts draw their seed first: ties may break otherwise).
            let (_, one) = expert_choice(s, &ExpertConfig::default());
            assert_eq!(e.last_ranks(), one);
            assert_eq!(one[i], *one.iter().max().unwrap());
        }
    }
}

#[test]
fn expert_rollouts_parse_and_print_back() {
    for text in ["expert:rollouts=16", "expert:top=4:rollouts=8:horizon=12"] {
        assert_eq!(Policy::parse(text).unwrap().text(), text);
    }
    for (bad, says) in [
        (
            "expert:depth=2:rollouts=8",
            "depth=2 and rollouts=8 are two look-aheads: give one",
        ),
        ("expert:rollouts=8:horizon=0", "from 1 to 1000"),
        ("expert:rollouts=-1", "from 0 to 1000000"),
    ] {
        let e = Policy::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// `expert:net_top=K` values the linear part's K best moves exactly as without it (network
/// included), and only those: the rest lose. Random linear weights and a random network, so
/// that the network reorders the moves.
#[test]
fn expert_net_top_re_values_only_the_linear_parts_best_moves() {
    use carcassonne::players::evaluation::{from_models, term_names, Model, Net, NET_INPUTS};
    use std::sync::Arc;
    let mut rng = Rng::new(31);
    let mut draw = |n: usize, scale: f32| -> Vec<f32> {
        (0..n)
            .map(|_| (rng.below(2001) as f32 - 1000.0) / 1000.0 * scale)
            .collect()
    };
    let hidden = 6;
    let linear = draw(term_names().len(), 1.0);
    let net = Net::new(
        draw(hidden * NET_INPUTS, 0.5),
        draw(hidden, 1.0),
        draw(hidden, 2.0),
    );
    let model = |net: Option<Net>| {
        let m = Model {
            key: "base".into(),
            weights: linear.clone(),
            net,
        };
        Arc::new(from_models(vec![m], "random").unwrap())
    };
    let cfg = |net: Option<Net>, net_top: u16| ExpertConfig {
        weights: model(net),
        width: 0,
        net_top,
        ..ExpertConfig::default()
    };
    let (plain, full) = (cfg(None, 0), cfg(Some(net.clone()), 0));
    let mut e = Expert::new();
    let (mut lin, mut all, mut top) = (Vec::new(), Vec::new(), Vec::new());
    let mut moves = Vec::new();
    let mut reordered = 0;
    for s in common::greedy_positions(Rules::base(), 2, 5, 3) {
        s.legal_moves(&mut moves);
        e.evaluate(&plain, &s, &moves, &mut lin);
        e.evaluate(&full, &s, &moves, &mut all);
        for k in [1, 3, 8] {
            e.evaluate(&cfg(Some(net.clone()), k), &s, &moves, &mut top);
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by(|&a, &b| lin[b].total_cmp(&lin[a]).then(a.cmp(&b)));
            let best = &order[..(k as usize).min(moves.len())];
            for i in 0..moves.len() {
                if moves.len() <= k as usize || best.contains(&i) {
                    assert_eq!(
                        top[i].to_bits(),
                        all[i].to_bits(),
                        "move {i} of the best {k}"
                    );
                } else {
                    assert_eq!(top[i], f32::MIN, "move {i} is not among the best {k}");
                }
            }
        }
        let argmax = |v: &[f32]| (0..v.len()).max_by(|&a, &b| v[a].total_cmp(&v[b])).unwrap();
        reordered += (argmax(&lin) != argmax(&all)) as usize;
    }
    assert!(
        reordered > 0,
        "the network never changed the best move: a weak test"
    );
    assert_eq!(
        ExpertConfig::parse("net_top=8").unwrap().text(),
        "expert:net_top=8"
    );
}
