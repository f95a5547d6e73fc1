use carcassonne::playout::{play_out, Policy};
use carcassonne::rng::Rng;
use carcassonne::{Catalogue, Phase, Rules, State};

#[test]
fn random_games_finish_and_conserve() {
    let cat = Catalogue::builtin();
    for (k, rules) in [Rules::base(), Rules::default()].into_iter().enumerate() {
        for seed in 0..300u64 {
            let mut s = State::new(cat.clone(), rules, 2 + (seed as usize % 5), seed).unwrap();
            let mut rng = Rng::new(seed + 1000 * k as u64);
            let mut moves = Vec::new();
            play_out(&mut s, &[Policy::Random], &mut rng, &mut moves);
            assert_eq!(s.phase, Phase::Over);
            let total = if rules.river { 84 } else { 72 };
            assert_eq!(s.board.len() + s.discarded as usize, total, "seed {seed}");
        }
    }
}
