//! Perft-style pins of move generation: seeded random games under every rule option, with the
//! number of legal moves recorded at fixed checkpoints and summed over the whole game. The
//! counts were taken from the engine as it stood before the turn was split into hooks; any
//! change to which moves are generated (or their order, which steers the seeded choices)
//! changes them. Every generated move must also pass `check`, and a fingerprint of the move
//! lists pins which moves they are, not only how many.
//!
//! The Traders & Builders sets (`tb_*`, `everything*`) were taken again when a builder on a
//! road or city that the placed tile completes became illegal (TB4, TB8); no other set moved.
//! `river_turns_clear_ahead` was added with that reading (R5).
//!
//! To print fresh numbers (only when a rule change is intended): `PERFT_RECORD=1 cargo test
//! --release --test perft -- --nocapture`.

use carcassonne::engine::rng::Rng;
use carcassonne::{
    Action, Catalogue, Edition, FortuneTellerEdition, Move, Phase, RiverEdition, RiverStart,
    RiverTurns, Rules, State, TollFlip,
};
use std::hash::{Hash, Hasher};

/// FNV-1a: a fingerprint that does not depend on the standard library's hasher choice.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Decisions after which the number of legal moves is pinned.
const CHECKPOINTS: [usize; 6] = [0, 1, 5, 20, 45, 80];

/// What one seeded game produced: legal-move counts at the checkpoints (0 past the game's end),
/// the decisions taken, the sum of all counts, and an order-sensitive fingerprint of every
/// generated move list.
#[derive(Debug, PartialEq, Eq)]
struct Perft {
    at: [usize; CHECKPOINTS.len()],
    decisions: usize,
    total: usize,
    fingerprint: u64,
}

fn perft(rules: Rules, players: usize, seed: u64) -> Perft {
    let cat = Catalogue::builtin();
    let mut s = State::new(cat, rules, players, seed).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut moves: Vec<Move> = Vec::new();
    let mut at = [0; CHECKPOINTS.len()];
    let mut decisions = 0;
    let mut total = 0;
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    loop {
        s.chance_random(&mut |_| {}, &mut |_| {});
        if s.phase == Phase::Over {
            break;
        }
        s.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "a decision with no legal move");
        if let Some(k) = CHECKPOINTS.iter().position(|&c| c == decisions) {
            at[k] = moves.len();
            // At checkpoints every generated move must be legal by `check` too.
            for m in &moves {
                s.check(m)
                    .unwrap_or_else(|e| panic!("generated {m:?} fails check: {e:?}"));
            }
        }
        total += moves.len();
        fingerprint_moves(&s, &moves, &mut h);
        let m = moves[rng.below(moves.len())];
        s.play(&m).unwrap();
        decisions += 1;
    }
    (0..players).for_each(|p| s.total(p).hash(&mut h));
    Perft {
        at,
        decisions,
        total,
        fingerprint: h.finish(),
    }
}

/// Feeds a move list to the fingerprint in the byte layout the pins were taken with: each
/// move as (x, y, rotation, action number, action fields), the numbers of the single move
/// struct the engine had then. Decisions that place no tile were written with the farmer's
/// tile position (farmer choice) or 0,0 (choice among drawn tiles), rotation 0. Written out
/// here so that the pins depend on which moves are generated, not on how `Move` is laid out.
fn fingerprint_moves(s: &State, moves: &[Move], h: &mut impl Hasher) {
    h.write_usize(moves.len());
    let farmer_at = s.farmer_decider().map_or((0, 0), |(_, seg)| {
        let p = &s.board.placed[s.segs[seg as usize].placed as usize];
        (p.x, p.y)
    });
    for m in moves {
        let (x, y, rot) = match *m {
            Move::Place { x, y, rot, .. } => (x, y, rot),
            Move::KeepFarmer | Move::ReturnFarmer => (farmer_at.0, farmer_at.1, 0),
            Move::Choose(_) => (0, 0, 0),
        };
        h.write_i16(x);
        h.write_i16(y);
        h.write_u8(rot);
        let (number, segment, target, tile) = match *m {
            Move::Place { action, .. } => match action {
                Action::Pass => (0, None, None, None),
                Action::Meeple(l) => (1, Some(l), None, None),
                Action::Abbot(l) => (2, Some(l), None, None),
                Action::Recall(x, y) => (3, None, Some((x, y)), None),
                Action::MeepleBuilder(l) => (4, Some(l), None, None),
                Action::MeeplePig(l) => (5, Some(l), None, None),
                Action::Builder(l) => (6, Some(l), None, None),
                Action::Pig(l) => (7, Some(l), None, None),
                Action::Tollhouse(x, y) => (10, None, Some((x, y)), None),
                Action::Ringmaster(l) => (12, Some(l), None, None),
                Action::Acrobat(x, y) => (13, None, Some((x, y)), None),
                Action::ScorePyramid(x, y) => (14, None, Some((x, y)), None),
            },
            Move::KeepFarmer => (8, None, None, None),
            Move::ReturnFarmer => (9, None, None, None),
            Move::Choose(t) => (11, None, None, Some(t)),
        };
        h.write_isize(number);
        if let Some(l) = segment {
            h.write_u8(l);
        }
        if let Some((x, y)) = target {
            h.write_i16(x);
            h.write_i16(y);
        }
        if let Some(t) = tile {
            h.write_u16(t);
        }
    }
}

/// Every rule option away from its default, alone or with the expansion it belongs to, and
/// everything together.
fn rule_sets() -> Vec<(&'static str, Rules)> {
    let d = Rules::default();
    let tb = Rules {
        traders_builders: Some(Edition::C31),
        ..d
    };
    let tb2 = Rules {
        traders_builders: Some(Edition::C2),
        ..d
    };
    let toll = Rules {
        toll_collectors: true,
        ..d
    };
    let ft = Rules {
        fortune_teller: true,
        ..d
    };
    let bt = Rules { big_top: true, ..d };
    let all = Rules {
        traders_builders: Some(Edition::C31),
        toll_collectors: true,
        fortune_teller: true,
        big_top: true,
        ..d
    };
    vec![
        ("base", Rules::base()),
        ("default", d),
        (
            "abbot_only",
            Rules {
                abbot: true,
                ..Rules::base()
            },
        ),
        (
            "river_only",
            Rules {
                river: true,
                ..Rules::base()
            },
        ),
        (
            "small_city",
            Rules {
                small_city: true,
                ..d
            },
        ),
        (
            "farmers_off",
            Rules {
                farmers: false,
                ..d
            },
        ),
        (
            "gardens_off",
            Rules {
                gardens: false,
                ..d
            },
        ),
        (
            "river_start_discard",
            Rules {
                river_start: RiverStart::Discard,
                ..d
            },
        ),
        (
            "river_turns_strict",
            Rules {
                river_turns: RiverTurns::Strict,
                ..d
            },
        ),
        (
            "river_turns_clear_ahead",
            Rules {
                river_turns: RiverTurns::ClearAhead,
                ..d
            },
        ),
        (
            "river_c2",
            Rules {
                river_edition: RiverEdition::C2,
                ..d
            },
        ),
        ("tb_c31", tb),
        ("tb_c31_no_river", Rules { river: false, ..tb }),
        ("tb_c2", tb2),
        (
            "tb_builder_off",
            Rules {
                builder: false,
                ..tb
            },
        ),
        ("tb_pig_off", Rules { pig: false, ..tb }),
        ("tb_goods_off", Rules { goods: false, ..tb }),
        (
            "tb_c2_builder_off",
            Rules {
                builder: false,
                ..tb2
            },
        ),
        ("toll", toll),
        (
            "toll_flip_owner",
            Rules {
                toll_flip: TollFlip::Owner,
                ..toll
            },
        ),
        ("fortune_teller", ft),
        (
            "fortune_teller_max1",
            Rules {
                max_fortune_tellers: 1,
                ..ft
            },
        ),
        (
            "fortune_teller_c1",
            Rules {
                fortune_teller_edition: FortuneTellerEdition::C1,
                ..ft
            },
        ),
        ("big_top", bt),
        (
            "big_top_ringmaster_off",
            Rules {
                ringmaster: false,
                ..bt
            },
        ),
        (
            "big_top_acrobats_off",
            Rules {
                acrobats: false,
                ..bt
            },
        ),
        (
            "big_top_base",
            Rules {
                big_top: true,
                ..Rules::base()
            },
        ),
        ("everything", all),
        (
            "everything_c2",
            Rules {
                traders_builders: Some(Edition::C2),
                farmers: false,
                ..all
            },
        ),
    ]
}

const SEEDS: [u64; 3] = [1, 7, 2026];

/// Rule set, seed (players are 2 + seed % 4), checkpoint counts, decisions, total, fingerprint.
type Pin = (&'static str, u64, [usize; 6], usize, usize, u64);

#[rustfmt::skip]
const PINNED: &[Pin] = &[
    ("base", 1, [24, 18, 17, 67, 43, 0], 71, 2975, 0x4d5b5d39447dfde3),
    ("base", 7, [3, 30, 48, 58, 102, 0], 71, 7354, 0xbc048978c0d6434d),
    ("base", 2026, [56, 3, 41, 66, 44, 0], 71, 4331, 0x4e1b3042cb6c4f7c),
    ("default", 1, [8, 4, 12, 52, 194, 62], 83, 4956, 0x4a06c0af4c8f8d29),
    ("default", 7, [5, 12, 3, 133, 33, 112], 83, 6939, 0xc448353d19589321),
    ("default", 2026, [3, 3, 2, 73, 24, 64], 83, 5067, 0x44ec68da10625bc8),
    ("abbot_only", 1, [24, 23, 20, 68, 35, 0], 71, 5520, 0x884465f93d414c1d),
    ("abbot_only", 7, [4, 40, 53, 50, 72, 0], 71, 6054, 0x84263d5f86b85a5b),
    ("abbot_only", 2026, [56, 3, 64, 65, 66, 0], 71, 4866, 0x7b6990c6fbe6b103),
    ("river_only", 1, [6, 3, 10, 46, 42, 54], 83, 3132, 0xf37969ee1a40ed28),
    ("river_only", 7, [5, 12, 3, 121, 109, 53], 83, 6230, 0x9ca276f7b17d663),
    ("river_only", 2026, [3, 3, 4, 49, 23, 30], 83, 5212, 0x8c118ee066caa4a1),
    ("small_city", 1, [8, 4, 12, 52, 194, 62], 83, 4956, 0x4a06c0af4c8f8d29),
    ("small_city", 7, [5, 12, 3, 133, 33, 112], 83, 6939, 0x9216e7000070963),
    ("small_city", 2026, [3, 3, 2, 73, 24, 64], 83, 5067, 0x44ec68da10625bc8),
    ("farmers_off", 1, [4, 2, 8, 22, 79, 114], 83, 4022, 0x665fd3602a8084c2),
    ("farmers_off", 7, [3, 6, 2, 49, 96, 225], 83, 6173, 0x330a955ed1020a59),
    ("farmers_off", 2026, [1, 1, 2, 65, 15, 27], 83, 4672, 0xd03304a08d3374e9),
    ("gardens_off", 1, [6, 3, 12, 46, 42, 54], 83, 3280, 0x9b93a8293ad8231d),
    ("gardens_off", 7, [5, 12, 3, 104, 39, 66], 83, 6551, 0x10b2d657c73a27e2),
    ("gardens_off", 2026, [3, 3, 4, 49, 32, 39], 83, 5387, 0x9fbd5cf0c371e589),
    ("river_start_discard", 1, [8, 4, 12, 52, 192, 60], 82, 5334, 0x46a88dad16d49be3),
    ("river_start_discard", 7, [5, 12, 3, 98, 39, 59], 82, 7628, 0xbb1093c1cebf4f5c),
    ("river_start_discard", 2026, [3, 3, 2, 49, 38, 68], 82, 6099, 0xc1918ac8700c7011),
    ("river_turns_strict", 1, [8, 4, 12, 52, 194, 62], 83, 4953, 0x6c939a83b12a9e19),
    ("river_turns_strict", 7, [5, 12, 3, 142, 48, 118], 83, 7672, 0xba2845ca12625971),
    ("river_turns_strict", 2026, [3, 3, 1, 79, 19, 24], 83, 5825, 0xd07d0ff586ecc086),
    ("river_turns_clear_ahead", 1, [8, 4, 12, 52, 194, 62], 83, 4956, 0x4a06c0af4c8f8d29),
    ("river_turns_clear_ahead", 7, [5, 12, 3, 133, 33, 112], 83, 6939, 0xc448353d19589321),
    ("river_turns_clear_ahead", 2026, [3, 3, 2, 73, 24, 64], 83, 5067, 0x44ec68da10625bc8),
    ("river_c2", 1, [8, 4, 12, 50, 33, 62], 83, 4265, 0xa1635e414e978cb7),
    ("river_c2", 7, [5, 10, 3, 85, 34, 124], 83, 6841, 0xc843413aae494834),
    ("river_c2", 2026, [3, 3, 2, 112, 18, 33], 83, 5811, 0x9f14c4fc09958f4c),
    ("tb_c31", 1, [12, 7, 8, 33, 82, 72], 107, 6462, 0xc708d38b65ede150),
    ("tb_c31", 7, [9, 22, 22, 141, 86, 69], 107, 9620, 0x33eafdd6093622ba),
    ("tb_c31", 2026, [5, 14, 1, 41, 4, 28], 107, 7525, 0x68f5f26686a054d3),
    ("tb_c31_no_river", 1, [20, 78, 28, 83, 13, 87], 94, 6661, 0x8378ba3e9e4ed895),
    ("tb_c31_no_river", 7, [5, 22, 114, 22, 32, 24], 98, 7079, 0xe164e086605f7743),
    ("tb_c31_no_river", 2026, [54, 62, 69, 52, 31, 52], 94, 7173, 0x90a3b344d8967a58),
    ("tb_c2", 1, [8, 4, 12, 114, 104, 65], 107, 7279, 0xece4c86943449612),
    ("tb_c2", 7, [5, 12, 3, 138, 150, 64], 107, 11469, 0xd04f778bba7234a0),
    ("tb_c2", 2026, [3, 3, 4, 55, 33, 23], 107, 7431, 0x42d91e4c181ceec6),
    ("tb_builder_off", 1, [12, 6, 8, 102, 94, 114], 110, 6764, 0xd38a2b0bd1a10a3a),
    ("tb_builder_off", 7, [7, 18, 14, 145, 106, 54], 107, 9990, 0xcc3544a78ca17fde),
    ("tb_builder_off", 2026, [5, 12, 1, 42, 12, 22], 107, 6824, 0x1cf53c20ee64f40a),
    ("tb_pig_off", 1, [8, 6, 5, 33, 82, 72], 107, 6452, 0xef8e0da7f76b8e75),
    ("tb_pig_off", 7, [7, 18, 14, 147, 177, 67], 107, 11486, 0xf6bdb5ce217c2540),
    ("tb_pig_off", 2026, [3, 10, 1, 41, 4, 28], 107, 7512, 0x94651add863c3901),
    ("tb_goods_off", 1, [12, 7, 8, 33, 82, 72], 107, 6462, 0xc708d38b65ede150),
    ("tb_goods_off", 7, [9, 22, 22, 141, 86, 69], 107, 9620, 0x33eafdd6093622ba),
    ("tb_goods_off", 2026, [5, 14, 1, 41, 4, 28], 107, 7525, 0x68f5f26686a054d3),
    ("tb_c2_builder_off", 1, [8, 4, 12, 71, 88, 48], 107, 7113, 0xacfba4ef111c5109),
    ("tb_c2_builder_off", 7, [5, 12, 3, 138, 156, 64], 107, 10815, 0xc4cfe32e4e0874ae),
    ("tb_c2_builder_off", 2026, [3, 3, 4, 54, 32, 56], 107, 8772, 0x9287757ca177ac08),
    ("toll", 1, [8, 4, 12, 69, 573, 549], 93, 22473, 0x31b68c52635ad477),
    ("toll", 7, [5, 12, 3, 81, 467, 390], 93, 28395, 0x7be6942495909861),
    ("toll", 2026, [3, 3, 2, 48, 33, 608], 93, 27604, 0x49006e736399b80a),
    ("toll_flip_owner", 1, [8, 4, 12, 69, 573, 549], 93, 22473, 0x31b68c52635ad477),
    ("toll_flip_owner", 7, [5, 12, 3, 81, 467, 390], 93, 28395, 0x7be6942495909861),
    ("toll_flip_owner", 2026, [3, 3, 2, 48, 33, 608], 93, 27604, 0x49006e736399b80a),
    ("fortune_teller", 1, [8, 4, 12, 61, 2, 45], 112, 5178, 0xb4a5c7b62f3f9294),
    ("fortune_teller", 7, [5, 12, 3, 74, 174, 55], 91, 8611, 0x5d695af4241d627c),
    ("fortune_teller", 2026, [3, 3, 2, 65, 24, 52], 103, 6833, 0x50637d04c8911a51),
    ("fortune_teller_max1", 1, [8, 4, 12, 61, 2, 45], 112, 5178, 0xb4a5c7b62f3f9294),
    ("fortune_teller_max1", 7, [5, 12, 3, 74, 174, 55], 91, 8611, 0x5d695af4241d627c),
    ("fortune_teller_max1", 2026, [3, 3, 2, 65, 24, 52], 103, 6833, 0x50637d04c8911a51),
    ("fortune_teller_c1", 1, [8, 4, 12, 61, 2, 45], 112, 5178, 0x85af5f1b928db30b),
    ("fortune_teller_c1", 7, [5, 12, 3, 74, 151, 49], 101, 7489, 0x406976ab11c08da),
    ("fortune_teller_c1", 2026, [3, 3, 2, 65, 24, 52], 103, 6764, 0x5cb43aad862bff81),
    ("big_top", 1, [12, 5, 12, 42, 42, 61], 103, 7179, 0xcc4d3ca078f758),
    ("big_top", 7, [9, 26, 3, 54, 133, 47], 103, 11077, 0xe00e9ecd9bd5337b),
    ("big_top", 2026, [5, 5, 2, 81, 23, 36], 103, 8070, 0xdcd4cfcf6259a70f),
    ("big_top_ringmaster_off", 1, [8, 4, 12, 47, 38, 50], 103, 5633, 0xc52f3a89194365fb),
    ("big_top_ringmaster_off", 7, [5, 12, 3, 49, 35, 108], 103, 10687, 0x2da5844b8c760f61),
    ("big_top_ringmaster_off", 2026, [3, 3, 2, 69, 80, 42], 103, 7442, 0x6aa406a10de15c1c),
    ("big_top_acrobats_off", 1, [12, 5, 12, 42, 41, 52], 103, 6290, 0x7d822cb23adc8a24),
    ("big_top_acrobats_off", 7, [9, 26, 3, 54, 106, 46], 103, 9859, 0xf0704ab633be5fb1),
    ("big_top_acrobats_off", 2026, [5, 5, 2, 81, 72, 36], 103, 9342, 0x7426a60f375f5d3f),
    ("big_top_base", 1, [60, 109, 29, 28, 34, 30], 91, 5333, 0x84b386dbf0e49f16),
    ("big_top_base", 7, [5, 28, 38, 37, 84, 24], 91, 10369, 0x13d1593d702023ed),
    ("big_top_base", 2026, [54, 31, 175, 110, 27, 93], 91, 6850, 0xe141f6cde92ede11),
    ("everything", 1, [16, 10, 15, 260, 279, 135], 149, 42548, 0xeb388de947603546),
    ("everything", 7, [13, 32, 22, 262, 254, 253], 171, 44192, 0x29ef54e57d309d26),
    ("everything", 2026, [7, 20, 1, 97, 303, 255], 145, 41558, 0x202d6f45b4d5eb9d),
    ("everything_c2", 1, [4, 3, 8, 151, 42, 2], 176, 39855, 0x444b43b029102772),
    ("everything_c2", 7, [5, 10, 2, 53, 153, 162], 152, 40737, 0x7eada352d16364f4),
    ("everything_c2", 2026, [1, 1, 2, 160, 111, 160], 194, 39716, 0x817a568e9420b246),
];

#[test]
fn legal_move_counts_are_pinned() {
    let record = std::env::var_os("PERFT_RECORD").is_some();
    let mut missing = Vec::new();
    for (name, rules) in rule_sets() {
        for seed in SEEDS {
            let got = perft(rules, 2 + (seed % 4) as usize, seed);
            if record {
                println!(
                    "    (\"{name}\", {seed}, {:?}, {}, {}, {:#x}),",
                    got.at, got.decisions, got.total, got.fingerprint
                );
                continue;
            }
            let Some(&(_, _, at, decisions, total, fingerprint)) =
                PINNED.iter().find(|p| p.0 == name && p.1 == seed)
            else {
                missing.push(format!("{name}/{seed}"));
                continue;
            };
            assert_eq!(
                got,
                Perft {
                    at,
                    decisions,
                    total,
                    fingerprint
                },
                "rule set {name}, seed {seed}"
            );
        }
    }
    assert!(missing.is_empty(), "no pinned counts for {missing:?}");
}

/// The same seed gives the same counts: the pins test the engine, not the harness.
#[test]
fn perft_is_deterministic() {
    let rules = Rules {
        fortune_teller: true,
        big_top: true,
        ..Rules::default()
    };
    assert_eq!(perft(rules, 3, 11), perft(rules, 3, 11));
}
