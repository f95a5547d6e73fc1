use carcassonne::rng::Rng;
use carcassonne::{Catalogue, Phase, Rules, State};
use std::time::Instant;
fn main() {
    let cat = Catalogue::builtin();
    let mut r2 = Rules::default(); r2.abbot = false;
    let mut r3 = Rules::base(); r3.abbot = true;
    for rules in [Rules::base(), Rules::default(), r2, r3] {
        let mut states = Vec::new();
        let mut moves = Vec::new();
        for seed in 0..300u64 {
            let mut s = State::new(cat.clone(), rules, 2, seed).unwrap();
            let mut rng = Rng::new(seed);
            while s.phase != Phase::Over {
                if s.phase == Phase::Draw { s.draw_random(|_| {}); continue; }
                if rng.below(10) == 0 { states.push(s.clone()); }
                s.legal_moves(&mut moves);
                let k = rng.below(moves.len());
                s.play_unchecked(&moves[k]);
            }
        }
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..20 { for s in &states { s.legal_moves(&mut moves); n += moves.len(); } }
        let dt = t.elapsed().as_secs_f64() / (20 * states.len()) as f64;
        println!("river={} abbot={}: {} positions, {:.2} us/legal_moves, {:.1} moves", rules.river, rules.abbot, states.len(), dt * 1e6, n as f64 / (20 * states.len()) as f64);
    }
}
