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
//! Every set was taken again when seeded bags became dealt by key (issue 23): each seed deals
//! another game; move generation did not change.
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
    ("base", 1, [30, 32, 20, 45, 12, 0], 71, 2885, 0x816b5a569ac50fb3),
    ("base", 7, [8, 30, 43, 116, 156, 0], 71, 5810, 0x384bc4b1f77f40f7),
    ("base", 2026, [12, 36, 21, 8, 9, 0], 71, 4266, 0xf2b5718b8b86b74f),
    ("default", 1, [8, 4, 4, 81, 33, 52], 83, 5012, 0xb02db278a2459432),
    ("default", 7, [8, 2, 10, 39, 40, 42], 83, 6979, 0x58eeedc426d73e13),
    ("default", 2026, [10, 14, 3, 103, 24, 51], 83, 5059, 0x3fcc8401a20571a6),
    ("abbot_only", 1, [30, 32, 26, 45, 22, 0], 71, 3832, 0xe343c3976caa3677),
    ("abbot_only", 7, [10, 30, 43, 109, 170, 0], 71, 5442, 0xca8faca88ef7b7eb),
    ("abbot_only", 2026, [15, 34, 19, 23, 16, 0], 71, 5168, 0x703a762c2f80013e),
    ("river_only", 1, [8, 4, 4, 85, 41, 53], 83, 3753, 0x7331678cf3beaa9f),
    ("river_only", 7, [6, 3, 10, 45, 121, 73], 83, 5789, 0x66a4b200ffcdf9e5),
    ("river_only", 2026, [10, 14, 2, 103, 71, 49], 83, 5244, 0x6445c593b9d9e6fb),
    ("small_city", 1, [8, 4, 4, 81, 33, 52], 83, 5012, 0x6e3890695f4d3630),
    ("small_city", 7, [8, 2, 10, 39, 40, 42], 83, 6979, 0x816b8316f25243b7),
    ("small_city", 2026, [10, 14, 3, 103, 24, 51], 83, 5059, 0x9c7e5996a9334d46),
    ("farmers_off", 1, [4, 3, 2, 54, 220, 52], 83, 4804, 0x58796f0e7a1d2f3),
    ("farmers_off", 7, [4, 1, 4, 22, 86, 186], 83, 5863, 0x96202cd60a85ba7),
    ("farmers_off", 2026, [4, 6, 2, 93, 69, 57], 83, 6175, 0xe46b629281bfd604),
    ("gardens_off", 1, [8, 4, 4, 85, 41, 53], 83, 4171, 0x7c3285394ffe9dc6),
    ("gardens_off", 7, [6, 3, 10, 45, 121, 44], 83, 6512, 0xabd61828083164e2),
    ("gardens_off", 2026, [10, 14, 2, 103, 24, 46], 83, 4708, 0x60a3c7c6ac617786),
    ("river_start_discard", 1, [8, 4, 4, 81, 33, 26], 82, 4952, 0x58a3e7d066266f54),
    ("river_start_discard", 7, [8, 2, 10, 39, 40, 40], 82, 6875, 0xfc1159d1670549dd),
    ("river_start_discard", 2026, [10, 14, 3, 103, 24, 51], 82, 5011, 0xc44d621bc8cc48a1),
    ("river_turns_strict", 1, [8, 4, 3, 67, 336, 65], 83, 4796, 0x3dda65385b2fa84a),
    ("river_turns_strict", 7, [8, 2, 5, 41, 126, 39], 83, 6321, 0x2b5db2536f32b148),
    ("river_turns_strict", 2026, [10, 14, 2, 114, 55, 185], 83, 6428, 0x75e36312544175a6),
    ("river_turns_clear_ahead", 1, [8, 4, 4, 81, 33, 52], 83, 5012, 0xb02db278a2459432),
    ("river_turns_clear_ahead", 7, [8, 2, 10, 39, 40, 42], 83, 6979, 0x58eeedc426d73e13),
    ("river_turns_clear_ahead", 2026, [10, 14, 3, 103, 24, 51], 83, 5059, 0x3fcc8401a20571a6),
    ("river_c2", 1, [8, 3, 4, 99, 32, 59], 83, 5099, 0xacf3ac8401ef7871),
    ("river_c2", 7, [8, 1, 10, 37, 147, 47], 83, 6611, 0x212d45c643ffb6ee),
    ("river_c2", 2026, [10, 14, 3, 128, 23, 54], 83, 4915, 0x502b6444300bf47e),
    ("tb_c31", 1, [14, 7, 18, 58, 48, 49], 107, 6688, 0xeb9a4676fcb01adb),
    ("tb_c31", 7, [14, 6, 22, 51, 76, 2], 112, 11552, 0xd3e00972322b552),
    ("tb_c31", 2026, [18, 7, 2, 45, 98, 58], 107, 8425, 0x15b7d49bc7a02e5e),
    ("tb_c31_no_river", 1, [53, 70, 48, 57, 66, 58], 94, 5965, 0xf9c028f5f77d5c8d),
    ("tb_c31_no_river", 7, [50, 19, 132, 256, 44, 20], 94, 9780, 0x893829a053bd0f6d),
    ("tb_c31_no_river", 2026, [24, 58, 116, 53, 102, 42], 94, 6764, 0xce4dd6ed6383680c),
    ("tb_c2", 1, [8, 4, 4, 160, 43, 48], 107, 6905, 0x7c78f8009f88ebf2),
    ("tb_c2", 7, [8, 2, 10, 59, 42, 44], 107, 9027, 0xc3ea598f7d3a5dc),
    ("tb_c2", 2026, [10, 14, 4, 63, 164, 90], 107, 7626, 0x99311ff813550f9e),
    ("tb_builder_off", 1, [12, 5, 10, 114, 49, 245], 109, 6694, 0x6e2495d30cb9e25a),
    ("tb_builder_off", 7, [12, 6, 18, 38, 22, 27], 112, 10255, 0xc8759eb27c1129d4),
    ("tb_builder_off", 2026, [16, 4, 2, 64, 168, 56], 107, 8572, 0x141eb5eababd595e),
    ("tb_pig_off", 1, [10, 6, 14, 152, 86, 52], 107, 6184, 0x1f71616ff0f3691e),
    ("tb_pig_off", 7, [10, 4, 18, 48, 71, 27], 107, 11239, 0x6dea4440fbb65f8),
    ("tb_pig_off", 2026, [12, 5, 2, 64, 219, 63], 107, 9995, 0x6639c3177610881a),
    ("tb_goods_off", 1, [14, 7, 18, 58, 48, 49], 107, 6688, 0xeb9a4676fcb01adb),
    ("tb_goods_off", 7, [14, 6, 22, 51, 76, 2], 112, 11552, 0xc38dc659876b1342),
    ("tb_goods_off", 2026, [18, 7, 2, 45, 98, 58], 107, 8425, 0xebcd16d9274c4b14),
    ("tb_c2_builder_off", 1, [8, 4, 4, 160, 29, 40], 107, 7144, 0x89d541a6188a6545),
    ("tb_c2_builder_off", 7, [8, 2, 10, 40, 51, 34], 107, 10176, 0x5dbab3cf3557f4c9),
    ("tb_c2_builder_off", 2026, [10, 14, 4, 61, 142, 54], 107, 8483, 0x6855c124d9e5cf50),
    ("toll", 1, [8, 4, 4, 94, 42, 336], 93, 15413, 0xc23071400a145bb2),
    ("toll", 7, [8, 2, 10, 43, 167, 96], 93, 19692, 0x178b4f4238726253),
    ("toll", 2026, [10, 14, 3, 195, 327, 126], 93, 19804, 0xfe3f78559b1438d6),
    ("toll_flip_owner", 1, [8, 4, 4, 94, 42, 336], 93, 15413, 0xc23071400a145bb2),
    ("toll_flip_owner", 7, [8, 2, 10, 43, 167, 96], 93, 19692, 0x178b4f4238726253),
    ("toll_flip_owner", 2026, [10, 14, 3, 195, 327, 126], 93, 19804, 0xfe3f78559b1438d6),
    ("fortune_teller", 1, [8, 4, 4, 82, 20, 65], 91, 5604, 0x758dbd9a8577163c),
    ("fortune_teller", 7, [8, 2, 10, 43, 179, 51], 117, 7667, 0x428942b192b4cc3),
    ("fortune_teller", 2026, [10, 14, 3, 59, 115, 23], 91, 5818, 0x4eef4bb5b2f2cddb),
    ("fortune_teller_max1", 1, [8, 4, 4, 82, 20, 65], 91, 5604, 0x758dbd9a8577163c),
    ("fortune_teller_max1", 7, [8, 2, 10, 43, 179, 86], 117, 7945, 0x16fc4d0ae793db94),
    ("fortune_teller_max1", 2026, [10, 14, 3, 59, 115, 23], 91, 5818, 0x4eef4bb5b2f2cddb),
    ("fortune_teller_c1", 1, [8, 4, 4, 82, 20, 46], 91, 6103, 0xc8adab52fafe8c98),
    ("fortune_teller_c1", 7, [8, 2, 10, 43, 179, 102], 117, 7020, 0xf9e3e753a43fb046),
    ("fortune_teller_c1", 2026, [10, 14, 3, 59, 32, 41], 105, 6243, 0xdae4c699e3cceb79),
    ("big_top", 1, [14, 7, 6, 74, 26, 59], 103, 7504, 0xc47f2925ac2f7861),
    ("big_top", 7, [12, 3, 14, 71, 226, 72], 103, 10647, 0x77588e4c2c8da3cf),
    ("big_top", 2026, [18, 22, 2, 53, 190, 29], 103, 9253, 0x23ecc6326cf3c83),
    ("big_top_ringmaster_off", 1, [8, 4, 4, 81, 24, 46], 103, 6510, 0x4c2cfb70f5de817),
    ("big_top_ringmaster_off", 7, [8, 2, 10, 82, 86, 63], 103, 7906, 0x56ea42a34ae82eed),
    ("big_top_ringmaster_off", 2026, [10, 14, 3, 38, 72, 23], 103, 9075, 0xc6983e43632169ba),
    ("big_top_acrobats_off", 1, [14, 7, 6, 74, 22, 62], 103, 6621, 0x3497b3f59e990213),
    ("big_top_acrobats_off", 7, [12, 3, 14, 77, 202, 251], 103, 9634, 0xd2204cc477e34a32),
    ("big_top_acrobats_off", 2026, [18, 22, 2, 53, 185, 28], 103, 9546, 0x3f702e35e672ce40),
    ("big_top_base", 1, [54, 44, 20, 148, 34, 61], 91, 5805, 0x9eea5b1e7a1c11f6),
    ("big_top_base", 7, [14, 30, 107, 70, 168, 30], 91, 7230, 0xc02c5b6161ae659c),
    ("big_top_base", 2026, [45, 40, 16, 30, 285, 60], 91, 6977, 0x13ffdc906656217b),
    ("everything", 1, [20, 13, 22, 173, 47, 2], 187, 37524, 0x172012846536b771),
    ("everything", 7, [20, 8, 28, 279, 39, 98], 158, 35836, 0x5f11cf2c891ea2a0),
    ("everything", 2026, [26, 7, 2, 80, 326, 2], 169, 45564, 0xa9ee4792a791899),
    ("everything_c2", 1, [6, 5, 2, 105, 269, 249], 145, 40390, 0x35d96873163ddab8),
    ("everything_c2", 7, [4, 1, 6, 49, 142, 189], 165, 41980, 0xced3c6cb987645bf),
    ("everything_c2", 2026, [6, 10, 2, 57, 89, 234], 145, 38221, 0x20d9d574fa9af3c3),
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
