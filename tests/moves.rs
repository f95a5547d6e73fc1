//! Typed moves and errors: every legal move of seeded random games under every expansion
//! round-trips through its canonical text (docs/notation.md), `Move` stays small, and refused
//! moves and draws carry the right kind of error (an illegal move names its rule).

use carcassonne::engine::rng::Rng;
use carcassonne::{
    Action, Catalogue, ChanceError, Edition, Illegal, Move, Phase, PlayError, Rules, State,
};

fn rule_sets() -> Vec<(&'static str, Rules)> {
    let d = Rules::default();
    vec![
        ("base", Rules::base()),
        ("default", d),
        (
            "tb-c3.1",
            Rules {
                traders_builders: Some(Edition::C31),
                ..d
            },
        ),
        (
            "tb-c2",
            Rules {
                traders_builders: Some(Edition::C2),
                ..d
            },
        ),
        (
            "toll",
            Rules {
                toll_collectors: true,
                ..d
            },
        ),
        (
            "fortune-teller",
            Rules {
                fortune_teller: true,
                ..d
            },
        ),
        ("big-top", Rules { big_top: true, ..d }),
        (
            "all",
            Rules {
                traders_builders: Some(Edition::C31),
                toll_collectors: true,
                fortune_teller: true,
                big_top: true,
                ..d
            },
        ),
    ]
}

/// The move kinds seen while round-tripping, so the test shows it met every one.
fn kind(m: &Move) -> &'static str {
    m.name()
}

#[test]
fn move_is_small_and_copy() {
    // The size `Move` had as a struct with dummy fields; the enum must not grow it (move
    // lists are copied in search and playouts).
    assert_eq!(std::mem::size_of::<Move>(), 12);
    assert_eq!(std::mem::size_of::<Action>(), 6);
    fn copy<T: Copy>() {}
    copy::<Move>();
}

#[test]
fn every_legal_move_round_trips_through_its_text() {
    let cat = Catalogue::builtin();
    let mut kinds = std::collections::BTreeSet::new();
    let mut moves: Vec<Move> = Vec::new();
    for (name, rules) in rule_sets() {
        for seed in 0..4u64 {
            let mut s = State::new(cat.clone(), rules, 2 + (seed % 3) as usize, seed).unwrap();
            let mut rng = Rng::new(seed ^ 0x7e57);
            loop {
                s.chance_random(&mut |_| {}, &mut |_| {});
                if s.phase == Phase::Over {
                    break;
                }
                s.legal_moves(&mut moves);
                for m in &moves {
                    let text = s.move_text(m);
                    let back = s
                        .parse_move(&text)
                        .unwrap_or_else(|e| panic!("{name}/{seed}: `{text}` does not parse: {e}"));
                    assert_eq!(back, *m, "{name}/{seed}: `{text}`");
                    assert_eq!(s.move_text(&back), text, "{name}/{seed}");
                    // A decision that places no tile carries no placement.
                    assert_eq!(
                        m.placement().is_some(),
                        matches!(m, Move::Place { .. }),
                        "{name}/{seed}: {m:?}"
                    );
                    kinds.insert(kind(m));
                }
                // Half the time an acrobat or pyramid move when there is one: pyramids (three
                // acrobats on one space) are rare in uniformly random games.
                let circus: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        matches!(
                            m.action(),
                            Some(Action::Acrobat(..) | Action::ScorePyramid(..))
                        )
                    })
                    .collect();
                let m = if !circus.is_empty() && rng.below(2) == 0 {
                    circus[rng.below(circus.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                s.play(&m).unwrap();
            }
        }
    }
    for k in [
        "pass",
        "meeple",
        "abbot",
        "recall",
        "meeple+builder",
        "meeple+pig",
        "builder",
        "pig",
        "tollhouse",
        "ringmaster",
        "acrobat",
        "score-pyramid",
        "choose",
        "keep-farmer",
        "return-farmer",
    ] {
        assert!(kinds.contains(k), "no legal `{k}` move met: {kinds:?}");
    }
}

/// A game with the tiles drawn and moves played from their texts.
fn game(rules: Rules, steps: &[(&str, &str)]) -> State {
    let cat = Catalogue::builtin();
    let mut s = State::new(cat.clone(), rules, 2, 1).unwrap();
    for (tile, text) in steps {
        s.draw(cat.id(tile).unwrap()).unwrap();
        let m = s.parse_move(text).unwrap();
        s.play(&m).unwrap();
    }
    s
}

fn refused(s: &State, tile: &str, text: &str) -> Illegal {
    let mut s = s.clone();
    s.draw(s.cat.id(tile).unwrap()).unwrap();
    let m = s.parse_move(text).unwrap();
    let e = s.check(&m).unwrap_err();
    assert_eq!(s.play(&m), Err(e.clone()));
    e
}

#[test]
fn illegal_moves_name_their_rule() {
    let s = game(Rules::base(), &[]);
    let e = refused(&s, "CAP_ROAD_WE", "5,5 0");
    assert_eq!(e.rule, "B4");
    assert!(e.message.contains("touches no tile"), "{e}");
    assert_eq!(refused(&s, "MON", "0,1 0").rule, "B5");
    let s = game(Rules::base(), &[("ROAD_WE", "1,0 0 meeple road:E")]);
    let e = refused(&s, "ROAD_WE", "2,0 0 meeple road:E");
    assert_eq!(
        (e.rule, e.message.as_str()),
        ("B9", "that road already holds a figure (B9)")
    );
    let e = refused(&s, "ROAD_WE", "2,0 0 abbot road:E");
    assert_eq!(e.rule, "A2");
    let tb2 = Rules {
        traders_builders: Some(Edition::C2),
        ..Rules::base()
    };
    let s = game(tb2, &[]);
    assert_eq!(refused(&s, "ROAD_WE", "-1,0 0 builder road:E").rule, "TB8");
    // No tile drawn yet: no decision at all is waiting.
    let s = game(Rules::base(), &[]);
    assert_eq!(s.check(&Move::KeepFarmer).unwrap_err().rule, "B3");
}

#[test]
fn errors_are_typed_by_kind() {
    let cat = Catalogue::builtin();
    let mut s = State::new(cat.clone(), Rules::base(), 2, 1).unwrap();
    // Parse: not a move.
    let e: PlayError = s.parse_move("1,0 45").unwrap_err().into();
    assert!(matches!(e, PlayError::Parse(_)), "{e:?}");
    assert_eq!(e.to_string(), "rotation `45` is not one of 0, 90, 180, 270");
    // Chance: a tile not in the bag (a river tile with the River off).
    let river = cat.id("RV_STRAIGHT").unwrap();
    let e = s.draw(river).map(|_| ()).unwrap_err();
    assert!(matches!(e, ChanceError(_)));
    assert!(PlayError::from(e).to_string().contains("not in the bag"));
    // Illegal: playing before drawing.
    let e: PlayError = s
        .play(&Move::Place {
            x: 1,
            y: 0,
            rot: 0,
            action: Action::Pass,
        })
        .unwrap_err()
        .into();
    assert!(
        matches!(e, PlayError::Illegal(Illegal { rule: "B3", .. })),
        "{e:?}"
    );
}

/// Text that is not a move says why, word by word (the action words of `moves::ACTIONS`).
#[test]
fn parse_errors_say_what_is_wrong() {
    let cat = Catalogue::builtin();
    let mut s = State::new(cat.clone(), Rules::base(), 2, 1).unwrap();
    s.draw(cat.id("ROAD_WE").unwrap()).unwrap();
    let err = |text: &str| s.parse_move(text).unwrap_err().0;
    assert_eq!(
        err("1,0 0 dance road:E"),
        "unknown action `dance` (expected meeple, abbot, recall, builder, pig, tollhouse, \
         ringmaster, acrobat or score-pyramid)"
    );
    assert_eq!(
        err("1,0 0 meeple road:E +cow"),
        "`+cow` cannot be attached (expected +builder or +pig)"
    );
    assert_eq!(
        err("1,0 0 recall"),
        "`recall` needs the abbot's position X,Y"
    );
    assert_eq!(
        err("1,0 0 tollhouse"),
        "`tollhouse` needs the crossroads X,Y"
    );
    assert_eq!(err("1,0 0 acrobat"), "`acrobat` needs the space's X,Y");
    assert_eq!(
        err("1,0 0 score-pyramid"),
        "`score-pyramid` needs the space's X,Y"
    );
    assert_eq!(err("1,0 0 tollhouse 2"), "`2` is not a position like 2,-1");
    assert_eq!(err("1,0 0 meeple"), "the figure needs a segment label");
    assert_eq!(
        err("1,0 0 meeple city:N"),
        "tile ROAD_WE turned 0 has no segment `city:N` (it has road:E, field:NNW, field:ESE)"
    );
    assert_eq!(
        err("1,0 0 abbot road:E extra"),
        "unexpected text after the move: `1,0 0 abbot road:E extra`"
    );
    assert_eq!(
        err("1,0"),
        "`1,0` is not a move: expected `X,Y ROT [meeple|abbot LABEL | recall X,Y]`"
    );
    assert_eq!(err("keep-farmer"), "no farmer choice is waiting");
    assert_eq!(err("choose NOPE"), "unknown tile id `NOPE`");
    // Every action word reads back as the action its text names.
    let parsed = |text: &str| s.parse_move(text).unwrap();
    assert_eq!(
        parsed("1,0 0 meeple road:E +pig"),
        parsed("1,0 0 meeple road:E")
            .placement()
            .unwrap()
            .with(Action::MeeplePig(0))
    );
    for (text, action) in [
        ("1,0 0 recall 3,-2", Action::Recall(3, -2)),
        ("1,0 0 tollhouse 0,1", Action::Tollhouse(0, 1)),
        ("1,0 0 acrobat -1,0", Action::Acrobat(-1, 0)),
        ("1,0 0 score-pyramid 2,2", Action::ScorePyramid(2, 2)),
    ] {
        assert_eq!(parsed(text).action(), Some(action), "{text}");
    }
}
