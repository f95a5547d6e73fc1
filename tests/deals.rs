//! Dealt bags (issue 23): every tile copy of a seeded bag is keyed by the seed, its tile id and
//! its copy number, so rule sets that share tiles deal them in the same relative order.

use carcassonne::engine::rng::Rng;
use carcassonne::{Catalogue, Move, Phase, Rules, State};

/// The bag in draw order: the highest group first, each group from its end.
fn draw_order(st: &State) -> Vec<u16> {
    let mut out = Vec::new();
    let mut end = st.bag.len();
    for g in (0..st.groups.len()).rev() {
        let n = st.groups[g] as usize;
        out.extend(st.bag[end - n..end].iter().rev());
        end -= n;
    }
    out
}

fn ids(st: &State, order: &[u16]) -> Vec<String> {
    order.iter().map(|&t| st.cat.tile(t).id.clone()).collect()
}

#[test]
fn one_more_copy_leaves_every_other_copy_in_its_order() {
    let cat = Catalogue::builtin();
    for seed in 0..50u64 {
        let a = State::new(cat.clone(), Rules::base(), 2, seed).unwrap();
        let pool = a.bag.clone();
        // set_bag with the same contents deals the same order as the seed's own bag.
        let mut same = State::new(cat.clone(), Rules::base(), 2, seed).unwrap();
        same.set_bag(&pool, false).unwrap();
        assert_eq!(same.bag, a.bag);
        let extra = pool[(seed as usize * 7) % pool.len()];
        let mut more = pool.clone();
        more.push(extra);
        let mut b = State::new(cat.clone(), Rules::base(), 2, seed).unwrap();
        b.set_bag(&more, false).unwrap();
        let (oa, ob) = (draw_order(&a), draw_order(&b));
        assert_eq!(ob.len(), oa.len() + 1);
        // Taking the one new copy out of b's order gives a's order.
        let k = (0..ob.len())
            .find(|&k| ob[k] == extra && ob[..k] == oa[..k] && ob[k + 1..] == oa[k..])
            .unwrap_or_else(|| panic!("seed {seed}: the shared copies moved"));
        assert_eq!(ob[k], extra);
    }
}

#[test]
fn expansions_adding_tiles_deal_the_base_tiles_in_the_same_order() {
    let cat = Catalogue::builtin();
    let more = Rules {
        big_top: true,
        toll_collectors: true,
        ..Rules::base()
    };
    for seed in 0..50u64 {
        let a = State::new(cat.clone(), Rules::base(), 2, seed).unwrap();
        let b = State::new(cat.clone(), more, 2, seed).unwrap();
        assert!(b.bag.len() > a.bag.len());
        let base_of_b: Vec<u16> = draw_order(&b)
            .into_iter()
            .filter(|&t| cat.tile(t).set == "base")
            .collect();
        assert_eq!(ids(&a, &base_of_b), ids(&a, &draw_order(&a)), "seed {seed}");
    }
}

/// A seeded random game: its draws in order.
fn draws(rules: Rules, seed: u64) -> Vec<u16> {
    let mut st = State::new(Catalogue::builtin(), rules, 2, seed).unwrap();
    let mut rng = Rng::new(seed ^ 1);
    let mut moves: Vec<Move> = Vec::new();
    let mut out = Vec::new();
    while st.phase != Phase::Over {
        if st.phase.is_chance() {
            st.chance_random(&mut |t| out.push(t), &mut |_| {});
        } else {
            st.legal_moves(&mut moves);
            st.play(&moves[rng.below(moves.len())]).unwrap();
        }
    }
    out
}

#[test]
fn a_seed_deals_one_order_and_draws_take_no_chance() {
    let cat = Catalogue::builtin();
    for seed in [0u64, 1, 77] {
        let a = draws(Rules::base(), seed);
        assert_eq!(a, draws(Rules::base(), seed));
        assert_ne!(a, draws(Rules::base(), seed + 1000));
        // The base game draws the deal as it lies (a discard B7 takes the next tile too).
        let st = State::new(cat.clone(), Rules::base(), 2, seed).unwrap();
        assert_eq!(a, draw_order(&st));
        // Drawing leaves the generator (other chance: animal tokens) untouched.
        let mut s = st.clone();
        s.chance_random(&mut |_| {}, &mut |_| {});
        assert_eq!(s.rng, st.rng);
    }
}

#[test]
fn a_draw_out_of_turn_keeps_the_rest_in_order() {
    let cat = Catalogue::builtin();
    for seed in 0..20u64 {
        let mut st = State::new(cat.clone(), Rules::base(), 2, seed).unwrap();
        let before = st.bag.clone();
        let t = before[(seed as usize * 11) % (before.len() - 1)];
        // The copy taken is the one the deal would give first: the last in storage.
        let at = before.iter().rposition(|&b| b == t).unwrap();
        let mut want = before.clone();
        want.remove(at);
        st.draw(t).unwrap();
        assert_eq!(st.bag, want, "seed {seed}");
    }
}
