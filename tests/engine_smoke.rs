use carcassonne::batch::play_out;
use carcassonne::engine::rng::Rng;
use carcassonne::players::Policy;
use carcassonne::{Catalogue, Edition, FortuneTellerEdition, Phase, RiverEdition, Rules, State};

#[test]
fn random_games_finish_and_conserve() {
    let cat = Catalogue::builtin();
    let tb = |ed, river| Rules {
        traders_builders: Some(ed),
        river,
        ..Rules::default()
    };
    let all = [
        Rules::base(),
        Rules::default(),
        tb(Edition::C31, true),
        tb(Edition::C31, false),
        tb(Edition::C2, true),
        Rules {
            toll_collectors: true,
            ..Rules::default()
        },
        Rules {
            toll_collectors: true,
            ..tb(Edition::C2, false)
        },
        Rules {
            fortune_teller: true,
            ..Rules::default()
        },
        Rules {
            fortune_teller: true,
            toll_collectors: true,
            ..tb(Edition::C31, true)
        },
        Rules {
            fortune_teller: true,
            ..tb(Edition::C2, false)
        },
        Rules {
            big_top: true,
            ..Rules::base()
        },
        Rules {
            big_top: true,
            fortune_teller: true,
            toll_collectors: true,
            ..tb(Edition::C31, true)
        },
        // The other tile editions: the C2 River's spring and lake, the C1 Fortune Teller art.
        Rules {
            river_edition: RiverEdition::C2,
            fortune_teller: true,
            fortune_teller_edition: FortuneTellerEdition::C1,
            toll_collectors: true,
            ..tb(Edition::C31, true)
        },
    ];
    for (k, rules) in all.into_iter().enumerate() {
        for seed in 0..100u64 {
            let mut s = State::new(cat.clone(), rules, 2 + (seed as usize % 5), seed).unwrap();
            let mut rng = Rng::new(seed + 1000 * k as u64);
            let mut moves = Vec::new();
            let policies = if seed % 2 == 0 {
                [Policy::Random]
            } else {
                [Policy::Greedy]
            };
            play_out(&mut s, &policies, &mut rng, &mut moves);
            assert_eq!(s.phase, Phase::Over);
            // C3.1 brings 23 land tiles and a river tile (left out without the River).
            let total = 72
                + if rules.river { 12 } else { 0 }
                + match rules.traders_builders {
                    Some(Edition::C31) => 23 + usize::from(rules.river),
                    Some(Edition::C2) => 24,
                    None => 0,
                }
                + if rules.toll_collectors { 10 } else { 0 }
                + if rules.fortune_teller { 8 } else { 0 }
                + if rules.big_top { 20 } else { 0 };
            assert_eq!(s.board.len() + s.discarded as usize, total, "seed {seed}");
        }
    }
}

#[test]
fn an_edition_needs_its_expansion() {
    let cat = Catalogue::builtin();
    let river_off = Rules {
        river_edition: RiverEdition::C2,
        ..Rules::base()
    };
    let err = State::new(cat.clone(), river_off, 2, 0).err().unwrap();
    assert!(err.contains("river_edition C2 needs the River"), "{err}");
    let ft_off = Rules {
        fortune_teller_edition: FortuneTellerEdition::C1,
        ..Rules::default()
    };
    let err = State::new(cat.clone(), ft_off, 2, 0).err().unwrap();
    assert!(
        err.contains("fortune_teller_edition C1 needs the Fortune Teller"),
        "{err}"
    );
    // Each River edition opens with its own spring.
    for (edition, spring) in [
        (RiverEdition::C3, "RV_SPRING"),
        (RiverEdition::C2, "RV_SPRING_C2"),
    ] {
        let rules = Rules {
            river_edition: edition,
            ..Rules::default()
        };
        let s = State::new(cat.clone(), rules, 2, 0).unwrap();
        assert_eq!(cat.tile(s.board.placed[0].tile).id, spring);
    }
}

/// Every study option switched away from its default (each where it has an effect) plays
/// whole native games to the end; `validate` refuses an option with no effect.
#[test]
fn study_options_play_whole_games() {
    use carcassonne::{RiverTurns, TollFlip};
    let cat = Catalogue::builtin();
    let every = Rules {
        traders_builders: Some(Edition::C31),
        toll_collectors: true,
        fortune_teller: true,
        big_top: true,
        ..Rules::default()
    };
    let variants = [
        Rules {
            farmers: false,
            gardens: false,
            builder: false,
            goods: false,
            ringmaster: false,
            acrobats: false,
            max_fortune_tellers: 0,
            river_turns: RiverTurns::Strict,
            toll_flip: TollFlip::Owner,
            ..every
        },
        Rules {
            pig: false,
            max_fortune_tellers: 4,
            traders_builders: Some(Edition::C2),
            ..every
        },
    ];
    for (k, rules) in variants.into_iter().enumerate() {
        rules.validate().unwrap();
        for seed in 0..40u64 {
            let mut s = State::new(cat.clone(), rules, 2 + (seed as usize % 5), seed).unwrap();
            let mut rng = Rng::new(seed + 1000 * k as u64);
            let mut moves = Vec::new();
            play_out(&mut s, &[Policy::Random], &mut rng, &mut moves);
            assert_eq!(s.phase, Phase::Over);
            if !rules.farmers {
                let fields = carcassonne::engine::scoring::SOURCE_NAMES
                    .iter()
                    .position(|&n| n == "fields")
                    .unwrap();
                assert_eq!(s.scores.iter().map(|p| p[fields]).sum::<u16>(), 0);
            }
        }
    }
    let idle = Rules {
        river: false,
        river_turns: RiverTurns::Strict,
        ..Rules::default()
    };
    assert!(idle.validate().unwrap_err().contains("river_turns"));
    assert!(State::new(cat, idle, 2, 0).is_err());
}

/// Every phase is exactly one of: chance, a decision, the end.
#[test]
fn phases_are_chance_decision_or_over() {
    let chance = [Phase::Draw, Phase::Reveal];
    let decision = [Phase::Place, Phase::Farmer, Phase::Choose];
    for p in chance {
        assert!(p.is_chance() && !p.is_decision(), "{p:?}");
    }
    for p in decision {
        assert!(p.is_decision() && !p.is_chance(), "{p:?}");
    }
    assert!(!Phase::Over.is_chance() && !Phase::Over.is_decision());
}
