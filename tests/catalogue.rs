//! The built-in tile catalogue against the facts pinned here (inventory, checksums, gardens and
//! illustrations of the base game and the River, from JCloisterZone's basic.xml and river.xml in
//! github.com/farin/JCloisterZone-Client and fan tile lists of the Wikicarpedia scans; checksums
//! of the sets read from the wikicarpedia tile images), and the validator:
//! every malformed catalogue text is refused with an error naming the tile and the problem.

use carcassonne::engine::rules::TILE_SETS;
use carcassonne::engine::tiles::{EdgeKind, RoadEnd, SegmentKind, TileType};
use carcassonne::{Catalogue, CatalogueError};
use std::collections::BTreeMap;

fn family(t: &TileType) -> &str {
    t.id.split('.').next().unwrap()
}

/// The checksum keys (the base and River ones, plus the road ends of the expansions).
const KEYS: [&str; 16] = [
    "tiles",
    "edge_CITY",
    "edge_ROAD",
    "edge_FIELD",
    "edge_RIVER",
    "city_segments",
    "road_segments",
    "field_areas",
    "monastery_tiles",
    "coat_of_arms_tiles",
    "crossroads_tiles",
    "road_ends_at_village",
    "road_ends_at_city",
    "road_ends_at_monastery",
    "road_ends_at_field",
    "road_ends_at_tent",
];

/// Checksums summed over physical copies of the given sets, keyed as `KEYS`.
fn checksums(cat: &Catalogue, sets: &[&str]) -> BTreeMap<&'static str, u32> {
    let mut m: BTreeMap<&'static str, u32> = KEYS.iter().map(|&k| (k, 0)).collect();
    for t in cat.tiles.iter().filter(|t| sets.contains(&t.set.as_str())) {
        let n = t.count as u32;
        *m.get_mut("tiles").unwrap() += n;
        for e in t.edges {
            let key = match e {
                EdgeKind::City => "edge_CITY",
                EdgeKind::Road => "edge_ROAD",
                EdgeKind::Field => "edge_FIELD",
                EdgeKind::River => "edge_RIVER",
            };
            *m.get_mut(key).unwrap() += n;
        }
        for s in &t.segments {
            let key = match s.kind {
                SegmentKind::City => Some("city_segments"),
                SegmentKind::Road => Some("road_segments"),
                SegmentKind::Field => Some("field_areas"),
                _ => None,
            };
            if let Some(key) = key {
                *m.get_mut(key).unwrap() += n;
            }
            if s.kind == SegmentKind::Road {
                let key = match s.end {
                    RoadEnd::Village => Some("road_ends_at_village"),
                    RoadEnd::City => Some("road_ends_at_city"),
                    RoadEnd::Monastery => Some("road_ends_at_monastery"),
                    RoadEnd::Field => Some("road_ends_at_field"),
                    RoadEnd::Tent => Some("road_ends_at_tent"),
                    RoadEnd::Through => None,
                    other => panic!("{}: a road ends at {other:?}", t.id),
                };
                if let Some(key) = key {
                    *m.get_mut(key).unwrap() += n;
                }
            }
        }
        if t.segments.iter().any(|s| s.kind == SegmentKind::Monastery) {
            *m.get_mut("monastery_tiles").unwrap() += n;
        }
        if t.segments.iter().any(|s| s.arms > 0) {
            *m.get_mut("coat_of_arms_tiles").unwrap() += n;
        }
        if t.is_crossroads() {
            *m.get_mut("crossroads_tiles").unwrap() += n;
        }
    }
    m
}

fn expect(pairs: &[(&'static str, u32)]) -> BTreeMap<&'static str, u32> {
    pairs.iter().copied().collect()
}

/// The checksums named, every other one 0.
fn sums(pairs: &[(&'static str, u32)]) -> BTreeMap<&'static str, u32> {
    let mut m: BTreeMap<&'static str, u32> = KEYS.iter().map(|&k| (k, 0)).collect();
    m.extend(pairs.iter().copied());
    m
}

/// Base game, C2/C3 (summed from JCloisterZone's basic.xml, set basic:2).
#[test]
fn base_checksums() {
    let cat = Catalogue::builtin();
    let want = sums(&[
        ("tiles", 72),
        ("edge_CITY", 79),
        ("edge_ROAD", 94),
        ("edge_FIELD", 115),
        ("edge_RIVER", 0),
        ("city_segments", 49),
        ("road_segments", 62),
        ("field_areas", 126),
        ("monastery_tiles", 6),
        ("coat_of_arms_tiles", 10),
        ("crossroads_tiles", 8),
        ("road_ends_at_village", 25),
        ("road_ends_at_city", 3),
        ("road_ends_at_monastery", 2),
    ]);
    assert_eq!(checksums(&cat, &["base"]), want);
}

/// River checksums (C2/C3, C2 geometry, summed from JCloisterZone's river.xml, set river/1:2):
/// the ten common tiles with the C2 spring and lake.
#[test]
fn river_checksums() {
    let cat = Catalogue::builtin();
    let c2 = [
        ("tiles", 12),
        ("edge_CITY", 5),
        ("edge_ROAD", 6),
        ("edge_FIELD", 15),
        ("edge_RIVER", 22),
        ("city_segments", 4),
        ("road_segments", 4),
        ("field_areas", 28),
        ("monastery_tiles", 1),
        ("coat_of_arms_tiles", 0),
        ("crossroads_tiles", 0),
        ("road_ends_at_village", 0),
        ("road_ends_at_city", 1),
        ("road_ends_at_monastery", 1),
    ];
    assert_eq!(checksums(&cat, &["river", "river_c2"]), sums(&c2));
    // C3 (wikicarpedia tile images River1_C3): the spring's road W-N takes two field edges and
    // splits its field in three; the lake gains a monastery.
    let mut c3 = sums(&c2);
    for (k, v) in [
        ("edge_ROAD", 8),
        ("edge_FIELD", 13),
        ("road_segments", 5),
        ("field_areas", 30),
        ("monastery_tiles", 2),
    ] {
        c3.insert(k, v);
    }
    assert_eq!(checksums(&cat, &["river", "river_c3"]), c3);
}

/// The sets read from their pictures (the wikicarpedia tile images), summed by hand from the
/// per-tile readings (tests/test_artwork.py): Traders & Builders C3.1 (A-X), Toll Collectors
/// (01-10), the Fortune Teller (01-08; both arts alike here, the C2 garden is no checksum).
#[test]
fn artwork_checksums() {
    let cat = Catalogue::builtin();
    let tb31 = sums(&[
        ("tiles", 24),
        ("edge_CITY", 52),
        ("edge_ROAD", 24),
        ("edge_FIELD", 18),
        ("edge_RIVER", 2),
        ("city_segments", 29),
        ("road_segments", 22),
        ("field_areas", 54),
        ("monastery_tiles", 1),
        ("road_ends_at_city", 16),
        ("road_ends_at_monastery", 1),
        ("road_ends_at_field", 3),
    ]);
    assert_eq!(checksums(&cat, &["traders_builders_c31"]), tb31);
    let toll = sums(&[
        ("tiles", 10),
        ("edge_CITY", 6),
        ("edge_ROAD", 21),
        ("edge_FIELD", 13),
        ("city_segments", 5),
        ("road_segments", 17),
        ("field_areas", 23),
        ("crossroads_tiles", 4),
        ("road_ends_at_village", 10),
        ("road_ends_at_city", 3),
    ]);
    assert_eq!(checksums(&cat, &["toll_collectors"]), toll);
    let ft = sums(&[
        ("tiles", 8),
        ("edge_CITY", 7),
        ("edge_ROAD", 10),
        ("edge_FIELD", 15),
        ("city_segments", 6),
        ("road_segments", 6),
        ("field_areas", 13),
        ("road_ends_at_city", 1),
        ("road_ends_at_tent", 1),
    ]);
    for art in ["fortune_teller_c1", "fortune_teller_c2"] {
        assert_eq!(checksums(&cat, &["fortune_teller", art]), ft, "{art}");
    }
}

#[test]
fn builtin_sets() {
    let cat = Catalogue::builtin();
    let names: Vec<&str> = cat.sets.iter().map(|s| s.name.as_str()).collect();
    let sets = [
        "base",
        "river_c3",
        "river_c2",
        "river",
        "traders_builders_c2",
        "traders_builders_c31",
        "toll_collectors",
        "fortune_teller",
        "fortune_teller_c1",
        "fortune_teller_c2",
        "big_top",
    ];
    assert_eq!(names, sets);
    for t in &cat.tiles {
        assert!(sets.contains(&t.set.as_str()), "{} in set {}", t.id, t.set);
        assert!((1..=99).contains(&t.count));
    }
}

/// Base and River inventory (JCloisterZone's basic.xml and river.xml, C2/C3): per family (id
/// before the first '.'): copies, copies with a garden, edges N E S W, monastery, coat of arms,
/// distinct rotations.
/// (set, family, copies, with garden, edges, monastery, coat of arms, distinct rotations)
type Family = (
    &'static str,
    &'static str,
    u32,
    u32,
    &'static str,
    bool,
    bool,
    usize,
);

const FAMILIES: &[Family] = &[
    ("base", "MON_ROAD", 2, 0, "FFRF", true, false, 4),
    ("base", "MON", 4, 0, "FFFF", true, false, 1),
    ("base", "CITY4_SHIELD", 1, 0, "CCCC", false, true, 1),
    ("base", "CAP_ROAD_WE", 4, 0, "CRFR", false, false, 4),
    ("base", "CAP", 5, 1, "CFFF", false, false, 4),
    ("base", "CITY_WE_SHIELD", 2, 0, "FCFC", false, true, 2),
    ("base", "CITY_WE", 1, 0, "FCFC", false, false, 2),
    ("base", "CAPS_NS", 3, 1, "CFCF", false, false, 2),
    ("base", "CAPS_NW", 2, 1, "CFFC", false, false, 4),
    ("base", "CAP_CURVE_ES", 3, 0, "CRRF", false, false, 4),
    ("base", "CAP_CURVE_SW", 3, 0, "CFRR", false, false, 4),
    ("base", "CAP_CROSS3", 3, 0, "CRRR", false, false, 4),
    ("base", "CORNER_SHIELD", 2, 1, "CFFC", false, true, 4),
    ("base", "CORNER", 3, 1, "CFFC", false, false, 4),
    ("base", "CORNER_CURVE_SHIELD", 2, 0, "CRRC", false, true, 4),
    ("base", "CORNER_CURVE", 3, 0, "CRRC", false, false, 4),
    ("base", "CITY3_SHIELD", 1, 0, "CCFC", false, true, 4),
    ("base", "CITY3", 3, 1, "CCFC", false, false, 4),
    ("base", "CITY3_ROAD_SHIELD", 2, 0, "CCRC", false, true, 4),
    ("base", "CITY3_ROAD", 1, 0, "CCRC", false, false, 4),
    ("base", "ROAD_WE", 8, 1, "FRFR", false, false, 2),
    ("base", "ROAD_CURVE_SW", 9, 1, "FFRR", false, false, 4),
    ("base", "CROSS3", 4, 0, "FRRR", false, false, 4),
    ("base", "CROSS4", 1, 0, "RRRR", false, false, 1),
    ("river_c3", "RV_SPRING", 1, 0, "RIFR", false, false, 4),
    ("river_c3", "RV_LAKE", 1, 0, "FFFI", true, false, 4),
    ("river_c2", "RV_SPRING_C2", 1, 0, "FIFF", false, false, 4),
    ("river_c2", "RV_LAKE_C2", 1, 0, "FFFI", false, false, 4),
    ("river", "RV_CITIES", 1, 0, "CICI", false, false, 2),
    ("river", "RV_CITY_ROAD", 1, 0, "CIRI", false, false, 4),
    ("river", "RV_MON_ROAD", 1, 0, "FIRI", true, false, 4),
    ("river", "RV_BRIDGE", 1, 0, "IRIR", false, false, 2),
    ("river", "RV_STRAIGHT", 2, 0, "FIFI", false, false, 2),
    ("river", "RV_CORNER_CITY", 1, 0, "CIIC", false, false, 4),
    ("river", "RV_CURVE_ROAD", 1, 0, "RRII", false, false, 4),
    ("river", "RV_CURVE", 2, 1, "FFII", false, false, 4),
];

fn edge_letters(t: &TileType) -> String {
    t.edges.iter().map(|e| e.letter()).collect()
}

#[test]
fn families_match_inventory() {
    let cat = Catalogue::builtin();
    let mut seen: BTreeMap<&str, u32> = BTreeMap::new();
    for t in cat
        .tiles
        .iter()
        .filter(|t| t.set == "base" || t.set.starts_with("river"))
    {
        *seen.entry(family(t)).or_default() += t.count as u32;
    }
    assert_eq!(seen.len(), FAMILIES.len(), "families: {seen:?}");
    for &(set, fam, copies, gardens, edges, monastery, arms, _) in FAMILIES {
        let members: Vec<&TileType> = cat.tiles.iter().filter(|t| family(t) == fam).collect();
        assert!(!members.is_empty(), "no tile of family {fam}");
        let n: u32 = members.iter().map(|t| t.count as u32).sum();
        assert_eq!(n, copies, "{fam}: copies");
        let g: u32 = members
            .iter()
            .filter(|t| t.segments.iter().any(|s| s.kind == SegmentKind::Garden))
            .map(|t| t.count as u32)
            .sum();
        assert_eq!(g, gardens, "{fam}: copies with a garden");
        for t in members {
            assert_eq!(t.set, set, "{}", t.id);
            assert_eq!(edge_letters(t), edges, "{}: edges", t.id);
            let has_mon = t.segments.iter().any(|s| s.kind == SegmentKind::Monastery);
            assert_eq!(has_mon, monastery, "{}: monastery", t.id);
            let has_arms = t.segments.iter().any(|s| s.arms > 0);
            assert_eq!(has_arms, arms, "{}: coat of arms", t.id);
            // One coat of arms at most, on the tile's single city segment.
            let total_arms: u32 = t.segments.iter().map(|s| s.arms as u32).sum();
            assert!(total_arms <= 1, "{}: {total_arms} coats of arms", t.id);
        }
    }
}

/// The distinct rotations pinned in `FAMILIES`, for every variant of each family: an
/// illustration or a garden does not make a symmetric tile's rotations differ (the copies are
/// otherwise identical).
#[test]
fn distinct_rotations_per_family() {
    let cat = Catalogue::builtin();
    let mut wrong = Vec::new();
    for &(_, fam, _, _, _, _, _, rotations) in FAMILIES {
        for t in cat.tiles.iter().filter(|t| family(t) == fam) {
            // The precomputed move-generation list agrees with `rotations`.
            assert_eq!(t.n_rot as usize, t.rotations.len(), "{}", t.id);
            assert_eq!(
                &t.rot_list[..t.rotations.len()],
                &t.rotations[..],
                "{}",
                t.id
            );
            assert_eq!(t.rotations[0], 0, "{}: rotation 0 is always offered", t.id);
            if t.rotations.len() != rotations {
                wrong.push(format!("{}: {:?} (want {rotations})", t.id, t.rotations));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "distinct rotations differ from the pinned ones: {wrong:#?}"
    );
}

#[test]
fn gardens_8_base_1_river() {
    let cat = Catalogue::builtin();
    for (set, want) in [("base", 8u32), ("river", 1)] {
        let n: u32 = cat
            .tiles_of_set(set)
            .map(|(_, t)| {
                let g = t
                    .segments
                    .iter()
                    .filter(|s| s.kind == SegmentKind::Garden)
                    .count();
                assert!(g <= 1, "{}: {g} gardens", t.id);
                g as u32 * t.count as u32
            })
            .sum();
        assert_eq!(n, want, "{set}: gardens");
    }
    // A garden never shares a tile with a monastery (Wikicarpedia "The Abbot").
    for t in &cat.tiles {
        let kinds: Vec<SegmentKind> = t.segments.iter().map(|s| s.kind).collect();
        assert!(
            !(kinds.contains(&SegmentKind::Garden) && kinds.contains(&SegmentKind::Monastery)),
            "{}",
            t.id
        );
    }
}

fn illustrations(cat: &Catalogue, set: &str) -> BTreeMap<&'static str, u32> {
    let mut m = BTreeMap::new();
    for (_, t) in cat.tiles_of_set(set) {
        let n = t.count as u32;
        for s in &t.segments {
            for (k, v) in [
                ("farmhouse", s.items.farmhouse),
                ("shed", s.items.shed),
                ("robbers", s.items.robbers),
                ("watertower", s.items.watertower),
                ("travellers", s.items.travellers),
            ] {
                *m.entry(k).or_insert(0) += v as u32 * n;
            }
        }
    }
    m
}

/// Fan tile lists of the C2 scans: 8 farmhouses, 8 sheds, 8 robbers, 8 water towers on the 72 base
/// tiles.
#[test]
fn base_illustrations() {
    let cat = Catalogue::builtin();
    let want = expect(&[
        ("farmhouse", 8),
        ("shed", 8),
        ("robbers", 8),
        ("watertower", 8),
        ("travellers", 0),
    ]);
    assert_eq!(illustrations(&cat, "base"), want);
}

/// Fan tile tracker of the C3 scans: one each of robbers, farmhouse, shed, water tower on the river
/// tiles.
#[test]
fn river_illustrations() {
    let cat = Catalogue::builtin();
    let want = expect(&[
        ("farmhouse", 1),
        ("shed", 1),
        ("robbers", 1),
        ("watertower", 1),
        ("travellers", 0),
    ]);
    assert_eq!(illustrations(&cat, "river"), want);
}

/// Fan tile lists of the C2 scans: which families carry which illustration, in how many copies.
#[test]
fn base_illustrations_per_family() {
    let cat = Catalogue::builtin();
    let want: &[(&str, &[(&str, u32)])] = &[
        (
            "robbers",
            &[
                ("MON_ROAD", 1),
                ("CAP_CURVE_ES", 1),
                ("CAP_CURVE_SW", 1),
                ("CORNER_CURVE", 1),
                ("ROAD_WE", 2),
                ("ROAD_CURVE_SW", 2),
            ],
        ),
        (
            "farmhouse",
            &[
                ("MON", 1),
                ("CAP_ROAD_WE", 1),
                ("CAP", 1),
                ("CAP_CURVE_ES", 1),
                ("CAP_CURVE_SW", 1),
                ("CORNER_CURVE_SHIELD", 1),
                ("ROAD_WE", 1),
                ("ROAD_CURVE_SW", 1),
            ],
        ),
        (
            "shed",
            &[
                ("CAP_CURVE_ES", 1),
                ("CORNER_CURVE_SHIELD", 1),
                ("ROAD_CURVE_SW", 2),
                ("CAP_ROAD_WE", 1),
                ("ROAD_WE", 1),
                ("MON", 1),
                ("CAP_CURVE_SW", 1),
            ],
        ),
        (
            "watertower",
            &[
                ("CITY4_SHIELD", 1),
                ("CAP", 1),
                ("CITY_WE_SHIELD", 1),
                ("CAPS_NS", 1),
                ("CORNER", 1),
                ("CORNER_CURVE", 1),
                ("CITY3", 1),
                ("CITY3_ROAD_SHIELD", 1),
            ],
        ),
        (
            "garden",
            &[
                ("CAP", 1),
                ("CAPS_NS", 1),
                ("CAPS_NW", 1),
                ("CORNER_SHIELD", 1),
                ("CORNER", 1),
                ("CITY3", 1),
                ("ROAD_WE", 1),
                ("ROAD_CURVE_SW", 1),
            ],
        ),
    ];
    for &(what, fams) in want {
        let mut got: BTreeMap<&str, u32> = BTreeMap::new();
        for (_, t) in cat.tiles_of_set("base") {
            let per_copy: u32 = t
                .segments
                .iter()
                .map(|s| match what {
                    "robbers" => s.items.robbers as u32,
                    "farmhouse" => s.items.farmhouse as u32,
                    "shed" => s.items.shed as u32,
                    "watertower" => s.items.watertower as u32,
                    "garden" => u32::from(s.kind == SegmentKind::Garden),
                    _ => unreachable!(),
                })
                .sum();
            if per_copy > 0 {
                *got.entry(family(t)).or_default() += per_copy * t.count as u32;
            }
        }
        let want: BTreeMap<&str, u32> = fams.iter().copied().collect();
        assert_eq!(got, want, "{what} per family");
    }
    // At most one illustration or garden per physical copy (as the fan lists record them); none on
    // the crossroads tiles L, W, X.
    for t in cat
        .tiles
        .iter()
        .filter(|t| t.set == "base" || t.set == "river")
    {
        let n: u32 = t
            .segments
            .iter()
            .map(|s| {
                let i = s.items;
                (i.farmhouse + i.shed + i.robbers + i.watertower + i.travellers) as u32
                    + u32::from(s.kind == SegmentKind::Garden)
            })
            .sum();
        assert!(n <= 1, "{}: {n} illustrations on one copy", t.id);
        if t.is_crossroads() {
            assert_eq!(n, 0, "{}: a crossroads tile is never illustrated", t.id);
        }
    }
}

#[test]
fn base_start_tile_is_a_plain_cap_road_we() {
    let cat = Catalogue::builtin();
    let base = cat.set("base").expect("base set");
    let t = cat.tile(base.start.expect("base start tile"));
    assert_eq!(family(t), "CAP_ROAD_WE");
    assert_eq!(t.set, "base");
    assert_eq!(edge_letters(t), "CRFR");
    // The start tile plays exactly like the plain copies: no illustration (fan tile lists).
    assert!(
        t.segments.iter().all(|s| s.items == Default::default()),
        "{}",
        t.id
    );
    // The River opens with its spring instead: one spring and one lake per edition.
    for (set, spring, lake) in [
        ("river_c3", "RV_SPRING", "RV_LAKE"),
        ("river_c2", "RV_SPRING_C2", "RV_LAKE_C2"),
    ] {
        let ids = |f: fn(&TileType) -> bool| -> Vec<String> {
            ["river", set]
                .iter()
                .flat_map(|s| cat.tiles_of_set(s))
                .filter(|(_, t)| f(t))
                .map(|(_, t)| t.id.clone())
                .collect()
        };
        assert_eq!(ids(|t| t.spring), [spring]);
        assert_eq!(ids(|t| t.lake), [lake]);
        assert!(cat.tiles_of_set(set).all(|(_, t)| t.has_river));
    }
    assert!(cat
        .tiles_of_set("base")
        .all(|(_, t)| !t.has_river && !t.spring && !t.lake));
    assert!(cat.tiles_of_set("river").all(|(_, t)| t.has_river));
}

/// Segment geometry of a few tiles against JCloisterZone's basic.xml and river.xml (the fields
/// that farmers need).
#[test]
fn field_city_adjacency_spot_checks() {
    let cat = Catalogue::builtin();
    let fields = |id: &str| -> Vec<(u8, u32)> {
        let t = cat.tile(cat.id(id).unwrap());
        t.segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Field)
            .map(|s| (s.ports, s.cities.count_ones()))
            .collect()
    };
    // CAPS_NS: one field touching both separate city caps.
    assert_eq!(fields("CAPS_NS"), [(0b1100_1100, 2)]);
    // CITY3_ROAD: the road ends at the gate; both fields border the city.
    assert_eq!(fields("CITY3_ROAD"), [(1 << 4, 1), (1 << 5, 1)]);
    // MON_ROAD: one field all round.
    assert_eq!(fields("MON_ROAD"), [(0xff, 0)]);
    // RV_CITY_ROAD: four fields, the two north-bank ones border the city.
    let mut f = fields("RV_CITY_ROAD");
    f.sort();
    assert_eq!(
        f,
        [(1 << 2, 1), (0b0001_1000, 0), (0b0110_0000, 0), (1 << 7, 1)]
    );
}

#[test]
fn builtin_text_reparses_to_the_same_catalogue() {
    let a = Catalogue::builtin();
    let b = Catalogue::from_text(
        &carcassonne::engine::tiles::BUILTIN_SETS
            .map(|(_, text)| text)
            .join("\n"),
    )
    .expect("valid");
    assert_eq!(a.tiles.len(), b.tiles.len());
    for (x, y) in a.tiles.iter().zip(&b.tiles) {
        assert_eq!(x.id, y.id);
        assert_eq!(x.segments, y.segments);
        assert_eq!(x.rotations, y.rotations);
    }
    // Each set alone is a valid catalogue too.
    let base = Catalogue::from_text(carcassonne::engine::tiles::BASE_TILES).expect("base alone");
    assert_eq!(base.tiles.iter().map(|t| t.count as u32).sum::<u32>(), 72);
    // The river file holds the ten common tiles and each edition's spring and lake.
    let river = Catalogue::from_text(carcassonne::engine::tiles::RIVER_TILES).expect("river alone");
    for edition in ["river_c3", "river_c2"] {
        let n: u32 = river
            .tiles
            .iter()
            .filter(|t| t.set == "river" || t.set == edition)
            .map(|t| t.count as u32)
            .sum();
        assert_eq!(n, 12, "{edition}");
    }
}

// -- validation ------------------------------------------------------------------------------

fn refused(text: &str) -> CatalogueError {
    match Catalogue::from_text(text) {
        Ok(_) => panic!("accepted a malformed catalogue:\n{text}"),
        Err(e) => e,
    }
}

/// The error message (Display, with its line) contains every one of `needles`.
#[track_caller]
fn assert_refused(text: &str, needles: &[&str]) -> CatalogueError {
    let e = refused(text);
    let msg = e.to_string();
    for n in needles {
        assert!(
            msg.contains(n),
            "message {msg:?} does not mention {n:?}\nfor:\n{text}"
        );
    }
    e
}

const FULL_FIELD: &str = "field NNW NNE ENE ESE SSE SSW WSW WNW";

#[test]
fn minimal_valid_catalogue() {
    let text = format!("set base\nstart MON\ntile MON 3 FFFF\n  monastery\n  {FULL_FIELD}\n");
    let cat = Catalogue::from_text(&text).expect("valid");
    assert_eq!(cat.tiles.len(), 1);
    assert_eq!(cat.set("base").unwrap().start, Some(0));
    assert_eq!(cat.tiles[0].rotations, [0]);
    // Comments, blank lines, tabs and trailing comments are fine.
    let text = "# a catalogue\n\nset base # the set\nstart A\ntile A 1 FFFF # plain\n\tfield NNW NNE ENE ESE SSE SSW WSW WNW  # all\n";
    assert!(Catalogue::from_text(text).is_ok());
}

#[test]
fn field_half_edge_in_no_field() {
    let e = assert_refused(
        "set base\ntile A 1 FFFF\n  field NNW NNE ENE ESE SSE SSW WSW\n",
        &["tile A", "WNW", "0 fields"],
    );
    assert_eq!(e.line, 2, "the error points at the tile line");
    // A road edge's half-edges must be in fields too.
    assert_refused(
        "set base\ntile A 1 FRFR\n  road W E\n  field NNW NNE ENE WNW\n",
        &["tile A", "ESE", "0 fields"],
    );
}

#[test]
fn half_edge_in_two_fields() {
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  {FULL_FIELD}\n  field WNW\n"),
        &["tile A", "WNW", "2 fields"],
    );
}

#[test]
fn city_half_edge_in_a_field() {
    assert_refused(
        "set base\ntile A 1 CFFF\n  city N\n  field NNW NNE ENE ESE SSE SSW WSW WNW\n",
        &["tile A", "NNW", "city edge"],
    );
}

#[test]
fn unknown_attribute() {
    let e = assert_refused(
        "set base\ntile A 1 CFFF\n  city N shiny\n  field ENE ESE SSE SSW WSW WNW cities=N\n",
        &["unknown attribute", "shiny", "city"],
    );
    assert_eq!(e.line, 3);
    // Attributes belong to their segment kind: `arms` on a road, `end=` on a city.
    assert_refused(
        "set base\ntile A 1 FRFR\n  road W E arms\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n",
        &["unknown attribute", "arms", "road"],
    );
    assert_refused(
        "set base\ntile A 1 CFFF\n  city N end=city\n  field ENE ESE SSE SSW WSW WNW\n",
        &["unknown attribute", "end=city"],
    );
    // Items are for road, field or city lines only.
    assert_refused(
        "set base\ntile A 1 FFFF\n  monastery farmhouse\n  field NNW NNE ENE ESE SSE SSW WSW WNW\n",
        &["unknown attribute", "farmhouse", "monastery"],
    );
    assert_refused(
        "set river\ntile A 1 FIFI\n  river W E robbers\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n",
        &["unknown attribute", "robbers", "river"],
    );
    // A half-edge on a city line, an edge on a field line.
    assert_refused(
        "set base\ntile A 1 CFFF\n  city NNW\n  field ENE ESE SSE SSW WSW WNW\n",
        &["unknown attribute", "NNW"],
    );
    assert_refused(
        "set base\ntile A 1 FFFF\n  field N E S W\n",
        &["unknown attribute", "`N`"],
    );
    assert_refused(
        "set base\ntile A 1 CFFF\n  city N goods=gold\n  field ENE ESE SSE SSW WSW WNW\n",
        &["unknown goods", "gold"],
    );
    assert_refused(
        "set base\ntile A 1 FFRF\n  road S end=castle\n  field NNW NNE ENE ESE SSE SSW WSW WNW\n",
        &["unknown road end", "castle"],
    );
}

#[test]
fn unknown_keyword() {
    let e = assert_refused("set base\ntyle A 1 FFFF\n", &["unknown keyword", "tyle"]);
    assert_eq!(e.line, 2);
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  {FULL_FIELD}\n  castle\n"),
        &["unknown segment", "castle"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFFF shiny\n  {FULL_FIELD}\n"),
        &["tile A", "unknown tile flag", "shiny"],
    );
}

#[test]
fn duplicate_id() {
    let t = format!("tile A 1 FFFF\n  {FULL_FIELD}\n");
    assert_refused(&format!("set base\n{t}{t}"), &["duplicate tile id", "`A`"]);
    // Also across sets.
    assert_refused(
        &format!("set base\n{t}set river\n{t}"),
        &["duplicate tile id", "`A`"],
    );
    assert_refused(
        &format!("set base\n{t}set base\n"),
        &["duplicate tile set", "base"],
    );
}

#[test]
fn unknown_set_is_refused_naming_the_known_ones() {
    // A set the rules never name would have its tiles left out of every game: refused.
    let e = refused(&format!(
        "set base\ntile A 1 FFFF\n  {FULL_FIELD}\nset toll\n"
    ));
    assert_eq!(
        e.to_string(),
        "line 4: unknown tile set `toll` (known sets: base, river, river_c3, river_c2, \
         traders_builders_c2, traders_builders_c31, toll_collectors, fortune_teller, \
         fortune_teller_c2, fortune_teller_c1, big_top)"
    );
}

#[test]
fn every_known_set_is_a_built_in_set() {
    let cat = Catalogue::builtin();
    let mut builtin: Vec<&str> = cat.sets.iter().map(|s| s.name.as_str()).collect();
    let mut known: Vec<&str> = TILE_SETS.iter().map(|&(name, _)| name).collect();
    builtin.sort_unstable();
    known.sort_unstable();
    assert_eq!(builtin, known);
}

#[test]
fn bad_edge_letters() {
    assert_refused(
        &format!("set base\ntile A 1 FFXF\n  {FULL_FIELD}\n"),
        &["tile A", "edge letter `X`"],
    );
    assert_refused(
        &format!("set base\ntile A 1 ffff\n  {FULL_FIELD}\n"),
        &["tile A", "edge letter `f`"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFF\n  {FULL_FIELD}\n"),
        &["tile A", "4 letters"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFFFF\n  {FULL_FIELD}\n"),
        &["tile A", "4 letters"],
    );
    assert_refused(
        "set base\ntile A 1\n",
        &["expected `tile <id> <count> <NESW edges>`"],
    );
}

#[test]
fn bad_counts() {
    for count in ["0", "100", "-1", "x", "1.5", "256", "99999999999"] {
        assert_refused(
            &format!("set base\ntile A {count} FFFF\n  {FULL_FIELD}\n"),
            &["tile A", &format!("count `{count}`")],
        );
    }
    for count in ["1", "99"] {
        assert!(
            Catalogue::from_text(&format!("set base\ntile A {count} FFFF\n  {FULL_FIELD}\n"))
                .is_ok()
        );
    }
}

#[test]
fn cities_naming_a_missing_city() {
    let e = assert_refused(
        "set base\ntile A 1 CFFF\n  city N\n  field ENE ESE SSE SSW WSW WNW cities=S\n",
        &["tile A", "cities=", "edge S"],
    );
    assert_eq!(e.line, 4, "the error points at the field line");
    assert_refused(
        "set base\ntile A 1 CFFF\n  city N\n  field ENE ESE SSE SSW WSW WNW cities=N,Q\n",
        &["cities=", "`Q`"],
    );
    assert_refused(
        "set base\ntile A 1 FRFR\n  road W E\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n  garden road=N\n",
        &["tile A", "road=", "edge N"],
    );
}

#[test]
fn end_on_a_two_edge_road() {
    assert_refused(
        "set base\ntile A 1 FRFR\n  road W E end=village\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n",
        &["end=", "one edge"],
    );
    assert_refused(
        "set base\ntile A 1 RRRF\n  road N E S\n  field NNW ESE SSE SSW WSW WNW\n  field NNE ENE\n",
        &["road", "at most two edges"],
    );
}

#[test]
fn tile_before_set() {
    assert_refused(
        &format!("tile A 1 FFFF\n  {FULL_FIELD}\n"),
        &["line 1", "`tile` before any `set`"],
    );
    assert_refused("start A\nset base\n", &["`start` before any `set`"]);
    assert_refused(
        &format!("  {FULL_FIELD}\nset base\n"),
        &["line 1", "before any `tile`"],
    );
}

#[test]
fn edges_and_segments_must_agree() {
    // A city edge that no city lists.
    assert_refused(
        "set base\ntile A 1 CFFF\n  field ENE ESE SSE SSW WSW WNW\n",
        &["tile A", "edge N", "0 city"],
    );
    // An edge in two city segments.
    assert_refused(
        "set base\ntile A 1 CFFF\n  city N\n  city N\n  field ENE ESE SSE SSW WSW WNW\n",
        &["tile A", "edge N", "2 city"],
    );
    // A segment listing an edge of another type.
    assert_refused(
        "set base\ntile A 1 CFFF\n  city N\n  road E end=field\n  field ENE ESE SSE SSW WSW WNW\n",
        &["tile A", "edge E", "road"],
    );
    assert_refused(
        "set base\ntile A 1 CRFR\n  city N E W\n  field ESE SSE SSW WSW\n",
        &["tile A", "edge E"],
    );
    // A river edge with no river segment.
    assert_refused(
        "set river\ntile A 1 FIFI\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n",
        &["tile A", "edge E", "river"],
    );
    // An edge listed twice on one line, a segment with no edges.
    assert_refused(
        "set base\ntile A 1 CFFF\n  city N N\n  field ENE ESE SSE SSW WSW WNW\n",
        &["edge N listed twice"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  {FULL_FIELD} WNW\n"),
        &["half-edge WNW listed twice"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  {FULL_FIELD}\n  road\n"),
        &["road segment lists no edges"],
    );
}

#[test]
fn other_structural_errors() {
    // Start tile not in its set.
    assert_refused(
        &format!("set base\nstart B\ntile A 1 FFFF\n  {FULL_FIELD}\n"),
        &["start tile `B`", "set `base`"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  {FULL_FIELD}\nset river\nstart A\n"),
        &["start tile `A`", "set `river`"],
    );
    assert_refused("set base\nstart\n", &["`start` takes one tile id"]);
    assert_refused("set\n", &["`set` takes one name"]);
    assert_refused("set a b\n", &["`set` takes one name"]);
    // Empty catalogues.
    assert_refused("", &["no tiles"]);
    assert_refused("# only a comment\n\n", &["no tiles"]);
    assert_refused("set base\nstart A\n", &["start tile `A`"]);
    // Tile ids.
    assert_refused(
        &format!("set base\ntile A/B 1 FFFF\n  {FULL_FIELD}\n"),
        &["tile id `A/B`"],
    );
    // Two monasteries, two gardens.
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  monastery\n  monastery\n  {FULL_FIELD}\n"),
        &["tile A", "more than one monastery"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  garden\n  garden\n  {FULL_FIELD}\n"),
        &["tile A", "more than one garden"],
    );
    // Inner fields and provisional marks.
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  {FULL_FIELD}\n  field NNW inner\n"),
        &["inner field"],
    );
    assert_refused(
        &format!("set base\ntile A 1 FFFF\n  {FULL_FIELD}\n  provisional\n"),
        &["`provisional` needs a one-line reason"],
    );
    // River shape.
    assert_refused(
        "set river\ntile A 1 FIFI river-spring\n  river W E\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n",
        &["tile A", "spring or lake"],
    );
    assert_refused(
        &format!("set river\ntile A 1 FIFF\n  river E\n  {FULL_FIELD}\n"),
        &["tile A", "two river edges"],
    );
    // Too many segments for one tile.
    let mut text = String::from("set base\ntile A 1 FFFF\n");
    for _ in 0..17 {
        text += "  monastery\n";
    }
    assert_refused(&text, &["more than 16 segments"]);
    // More than 1000 tiles in all.
    let mut text = String::from("set base\n");
    for i in 0..11 {
        text += &format!("tile T{i} 99 FFFF\n  {FULL_FIELD}\n");
    }
    assert_refused(&text, &["1089 tiles", "at most 1000"]);
}

#[test]
fn valid_inner_field_provisional_and_flags() {
    let text = "set base\nstart A\n\
        tile A 2 CFFF\n  city N goods=wine arms\n  field ENE ESE SSE SSW WSW WNW cities=N shed\n  field inner cities=N\n  provisional drawn from memory\n\
        set river\n\
        tile S 1 FIFF river-spring\n  river E\n  field NNW NNE ENE ESE SSE SSW WSW WNW\n\
        tile L 1 FFFI river-lake\n  river W\n  field NNW NNE ENE ESE SSE SSW WSW WNW\n";
    let cat = Catalogue::from_text(text).expect("valid");
    let a = cat.tile(cat.id("A").unwrap());
    assert_eq!(a.provisional.as_deref(), Some("drawn from memory"));
    assert_eq!(a.segments.len(), 3);
    assert_eq!(a.segments[2].ports, 0);
    assert_eq!(a.segments[2].cities, 1);
    assert_eq!(a.segments[1].items.shed, 1);
    assert_eq!(a.segments[0].arms, 1);
    assert!(cat.tile(cat.id("S").unwrap()).spring);
    assert!(cat.tile(cat.id("L").unwrap()).lake);
}

/// A counter written too many times must not wrap around silently: the catalogue is refused
/// (or the count is at least what was written, which a u8 cannot hold: so refused).
#[test]
fn item_and_arms_counters_do_not_wrap() {
    let robbers = vec!["robbers"; 256].join(" ");
    let text = format!(
        "set base\ntile A 1 FRFR\n  road W E {robbers}\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n"
    );
    let r = std::panic::catch_unwind(|| Catalogue::from_text(&text));
    match r {
        Err(_) => panic!("256 `robbers` on one road panics the parser"),
        Ok(Ok(cat)) => panic!(
            "256 `robbers` on one road loaded as {} robbers",
            cat.tiles[0].segments[0].items.robbers
        ),
        Ok(Err(_)) => {}
    }
    let arms = vec!["arms"; 256].join(" ");
    let text = format!("set base\ntile A 1 CCCC\n  city N E S W {arms}\n");
    let r = std::panic::catch_unwind(|| Catalogue::from_text(&text));
    match r {
        Err(_) => panic!("256 `arms` on one city panics the parser"),
        Ok(Ok(cat)) => panic!(
            "256 `arms` on one city loaded as {} coats of arms",
            cat.tiles[0].segments[0].arms
        ),
        Ok(Err(_)) => {}
    }
}

/// Mutations of the built-in text never panic: each either loads or is refused with a message.
#[test]
fn mutated_builtin_text_never_panics() {
    let text = [
        carcassonne::engine::tiles::BASE_TILES,
        carcassonne::engine::tiles::RIVER_TILES,
    ]
    .join("\n");
    let lines: Vec<&str> = text.lines().collect();
    let tokens = [
        "city",
        "road",
        "field",
        "river",
        "monastery",
        "garden",
        "N",
        "E",
        "S",
        "W",
        "NNW",
        "WNW",
        "cities=N",
        "cities=",
        "road=W",
        "road=",
        "end=",
        "end=village",
        "inner",
        "arms",
        "=",
        "#",
        "tile",
        "set",
        "start",
        "provisional",
        "0",
        "CCCC",
        "IIII",
        "river-lake",
        "\t",
        "é",
        "",
    ];
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut loaded = 0;
    for _ in 0..3000 {
        let mut ls: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        for _ in 0..1 + next(3) {
            let i = next(ls.len());
            match next(5) {
                0 => {
                    ls.remove(i);
                }
                1 => {
                    let l = ls[i].clone();
                    ls.insert(next(ls.len()), l);
                }
                2 => {
                    let mut words: Vec<String> = ls[i].split(' ').map(String::from).collect();
                    let w = next(words.len());
                    words[w] = tokens[next(tokens.len())].to_string();
                    ls[i] = words.join(" ");
                }
                3 => {
                    let mut words: Vec<String> = ls[i].split(' ').map(String::from).collect();
                    let w = next(words.len() + 1);
                    words.insert(w, tokens[next(tokens.len())].to_string());
                    ls[i] = words.join(" ");
                }
                _ => {
                    let j = next(ls.len());
                    ls.swap(i, j);
                }
            }
        }
        let t = ls.join("\n");
        match std::panic::catch_unwind(|| Catalogue::from_text(&t)) {
            Err(_) => panic!("the parser panicked on:\n{t}"),
            Ok(Ok(_)) => loaded += 1,
            Ok(Err(e)) => assert!(!e.message.is_empty()),
        }
    }
    assert!(loaded > 0, "some harmless mutations load");
}

/// The built-in catalogue text with the count of tile `id` set to `count`.
fn with_count(id: &str, count: u32) -> String {
    let text: Vec<String> = carcassonne::engine::tiles::BUILTIN_SETS
        .iter()
        .map(|(_, t)| *t)
        .collect::<Vec<_>>()
        .join("\n")
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() >= 3 && w[0] == "tile" && w[1] == id {
                format!("tile {id} {count} {}", w[3..].join(" "))
            } else {
                l.to_string()
            }
        })
        .collect();
    text.join("\n")
}

/// BT2-BT3: every big-top tile takes one of the 16 animal tokens, so a catalogue with more
/// big-top tiles is refused (it used to overflow the stack once the tokens ran out); with
/// exactly 16, whole games end and reveal every token.
#[test]
fn big_top_tiles_never_outnumber_the_animal_tokens() {
    use carcassonne::batch::play_out;
    use carcassonne::engine::rng::Rng;
    use carcassonne::players::Policy;
    use carcassonne::{Phase, Rules, State};
    use std::sync::Arc;
    // The built-in set has 12 big-top tiles; BT_TOP_RS is one of them (count 1).
    assert_refused(
        &with_count("BT_TOP_RS", 6),
        &["17 big-top tiles", "16 animal tokens"],
    );
    let cat = Arc::new(Catalogue::from_text(&with_count("BT_TOP_RS", 5)).expect("16 is fine"));
    let rules = Rules {
        big_top: true,
        ..Rules::base()
    };
    for seed in 0..20u64 {
        let mut s = State::new(cat.clone(), rules, 2, seed).unwrap();
        let mut moves = Vec::new();
        play_out(&mut s, &[Policy::Random], &mut Rng::new(seed), &mut moves);
        assert_eq!(s.phase, Phase::Over, "seed {seed}");
        let placed = s
            .board
            .placed
            .iter()
            .filter(|p| s.cat.tile(p.tile).bigtop != carcassonne::engine::tiles::NO_SEG)
            .count();
        let revealed: u32 = s.big_top().revealed.iter().map(|&n| n as u32).sum();
        assert_eq!(
            revealed as usize, placed,
            "one token per big-top tile, seed {seed}"
        );
    }
}
