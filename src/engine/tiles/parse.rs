//! Parser and validator for the `*.tiles` format (docs/catalogue.md).

use super::{EdgeKind, Goods, Items, RoadEnd, Segment, SegmentKind, TileSet, TileType, MAX_SEGS};
use crate::engine::geometry::{parse_edge, parse_half, EDGE_NAMES, HALF_NAMES};
use crate::engine::rules::TILE_SETS;
use std::fmt;

/// A catalogue that cannot be loaded: the line and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(f, "{}", self.message)
        }
    }
}

impl std::error::Error for CatalogueError {}

/// Most coats of arms, or items of one kind, on one segment.
const MAX_PER_SEGMENT: u8 = 9;

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, CatalogueError> {
    Err(CatalogueError {
        line,
        message: message.into(),
    })
}

/// A segment as written, before references (`cities=`, `road=`) are resolved.
struct RawSegment {
    seg: Segment,
    line: usize,
    city_refs: Vec<u8>,
    road_ref: Option<u8>,
}

struct RawTile {
    tile: TileType,
    line: usize,
    segs: Vec<RawSegment>,
}

pub(super) fn parse(text: &str) -> Result<(Vec<TileType>, Vec<TileSet>), CatalogueError> {
    let mut sets: Vec<TileSet> = Vec::new();
    let mut starts: Vec<(usize, String, usize)> = Vec::new(); // (set index, tile id, line)
    let mut raws: Vec<RawTile> = Vec::new();

    for (i, raw_line) in text.lines().enumerate() {
        let ln = i + 1;
        let content = raw_line.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            continue;
        }
        let indented = content.starts_with(' ') || content.starts_with('\t');
        let words: Vec<&str> = content.split_whitespace().collect();
        if !indented {
            match words[0] {
                "set" => {
                    if words.len() != 2 {
                        return err(ln, "`set` takes one name");
                    }
                    if !TILE_SETS.iter().any(|&(name, _)| name == words[1]) {
                        let known: Vec<&str> = TILE_SETS.iter().map(|&(name, _)| name).collect();
                        return err(
                            ln,
                            format!(
                                "unknown tile set `{}` (known sets: {})",
                                words[1],
                                known.join(", ")
                            ),
                        );
                    }
                    if sets.iter().any(|s| s.name == words[1]) {
                        return err(ln, format!("duplicate tile set `{}`", words[1]));
                    }
                    sets.push(TileSet {
                        name: words[1].to_string(),
                        start: None,
                    });
                }
                "start" => {
                    if words.len() != 2 {
                        return err(ln, "`start` takes one tile id");
                    }
                    if sets.is_empty() {
                        return err(ln, "`start` before any `set`");
                    }
                    starts.push((sets.len() - 1, words[1].to_string(), ln));
                }
                "tile" => {
                    let Some(set) = sets.last() else {
                        return err(ln, "`tile` before any `set`");
                    };
                    raws.push(parse_tile_line(&words, ln, &set.name)?);
                }
                other => {
                    return err(
                        ln,
                        format!("unknown keyword `{other}` (expected set, start, tile)"),
                    )
                }
            }
        } else {
            let Some(rt) = raws.last_mut() else {
                return err(ln, "indented segment line before any `tile`");
            };
            if words[0] == "provisional" {
                let reason = content.trim_start()["provisional".len()..].trim();
                if reason.is_empty() {
                    return err(ln, "`provisional` needs a one-line reason");
                }
                rt.tile.provisional = Some(reason.to_string());
                continue;
            }
            let seg = parse_segment(&words, ln)?;
            if rt.segs.len() >= MAX_SEGS {
                return err(
                    ln,
                    format!("tile {} has more than {MAX_SEGS} segments", rt.tile.id),
                );
            }
            rt.segs.push(seg);
        }
    }

    let mut tiles = Vec::with_capacity(raws.len());
    for rt in raws {
        tiles.push(validate_tile(rt)?);
    }
    for (i, a) in tiles.iter().enumerate() {
        if tiles[..i].iter().any(|b| b.id == a.id) {
            return err(0, format!("duplicate tile id `{}`", a.id));
        }
    }
    for (set, id, ln) in starts {
        let Some(t) = tiles
            .iter()
            .position(|t| t.id == id && t.set == sets[set].name)
        else {
            return err(
                ln,
                format!(
                    "start tile `{id}` is not a tile of set `{}`",
                    sets[set].name
                ),
            );
        };
        sets[set].start = Some(t as u16);
    }
    if tiles.is_empty() {
        return err(0, "the catalogue has no tiles");
    }
    let total: usize = tiles.iter().map(|t| t.count as usize).sum();
    if total > 1000 {
        return err(
            0,
            format!("{total} tiles in all; at most 1000 are supported"),
        );
    }
    Ok((tiles, sets))
}

fn parse_tile_line(words: &[&str], ln: usize, set: &str) -> Result<RawTile, CatalogueError> {
    if words.len() < 4 {
        return err(ln, "expected `tile <id> <count> <NESW edges>`");
    }
    let id = words[1];
    if !id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
    {
        return err(
            ln,
            format!("tile id `{id}` may only use letters, digits, `_`, `.`, `-`"),
        );
    }
    let count: u8 = match words[2].parse() {
        Ok(c) if (1..=99).contains(&c) => c,
        _ => {
            return err(
                ln,
                format!(
                    "tile {id}: count `{}` is not a number from 1 to 99",
                    words[2]
                ),
            )
        }
    };
    let letters: Vec<char> = words[3].chars().collect();
    if letters.len() != 4 {
        return err(
            ln,
            format!(
                "tile {id}: edges `{}` must be 4 letters (N E S W)",
                words[3]
            ),
        );
    }
    let mut edges = [EdgeKind::Field; 4];
    for (i, c) in letters.iter().enumerate() {
        edges[i] = match c {
            'C' => EdgeKind::City,
            'R' => EdgeKind::Road,
            'F' => EdgeKind::Field,
            'I' => EdgeKind::River,
            _ => {
                return err(
                    ln,
                    format!("tile {id}: edge letter `{c}` is not one of C R F I"),
                )
            }
        };
    }
    let mut tile = TileType {
        id: id.to_string(),
        set: set.to_string(),
        count,
        edges,
        spring: false,
        lake: false,
        provisional: None,
        segments: Vec::new(),
        rot: Default::default(),
        rotations: Vec::new(),
        canonical: [0, 1, 2, 3],
        rot_list: [0; 4],
        rot_sigs: [0; 4],
        rot_sigs32: 0,
        n_rot: 0,
        meeple_mask: 0,
        abbot_mask: 0,
        shared_kind_mask: 0,
        joins_mask: 0,
        halves_mask: 0,
        road_city_mask: 0,
        always_free_mask: 0,
        monastery: super::NO_SEG,
        garden: super::NO_SEG,
        tent: super::NO_SEG,
        bigtop: super::NO_SEG,
        acrobat: super::NO_SEG,
        has_river: false,
        crossroads: false,
    };
    for w in &words[4..] {
        match *w {
            "river-spring" => tile.spring = true,
            "river-lake" => tile.lake = true,
            other => return err(ln, format!("tile {id}: unknown tile flag `{other}`")),
        }
    }
    Ok(RawTile {
        tile,
        line: ln,
        segs: Vec::new(),
    })
}

/// The segment kinds by their word (`SegmentKind::name`), in the order an error lists them.
const SEGMENT_KINDS: [SegmentKind; 9] = [
    SegmentKind::City,
    SegmentKind::Road,
    SegmentKind::Field,
    SegmentKind::River,
    SegmentKind::Monastery,
    SegmentKind::Garden,
    SegmentKind::Tent,
    SegmentKind::BigTop,
    SegmentKind::Acrobat,
];

/// Where a road may end (`end=`, by `RoadEnd::name`).
const ROAD_ENDS: [RoadEnd; 7] = [
    RoadEnd::Village,
    RoadEnd::City,
    RoadEnd::Monastery,
    RoadEnd::Field,
    RoadEnd::BigTop,
    RoadEnd::Acrobat,
    RoadEnd::Tent,
];

/// The goods a city may show (`goods=`).
const GOODS: [(&str, Goods); 4] = [
    ("wine", Goods::Wine),
    ("grain", Goods::Grain),
    ("cloth", Goods::Cloth),
    ("chicken", Goods::Chicken),
];

/// Segment kinds a tile has at most one of.
const ONE_PER_TILE: [SegmentKind; 3] = [
    SegmentKind::Monastery,
    SegmentKind::Garden,
    SegmentKind::Tent,
];

/// An indented line: a segment, its ports, then its attributes.
fn parse_segment(words: &[&str], ln: usize) -> Result<RawSegment, CatalogueError> {
    let kind = segment_kind(words[0], ln)?;
    let mut raw = RawSegment {
        seg: Segment {
            kind,
            ports: 0,
            arms: 0,
            goods: None,
            end: RoadEnd::Through,
            items: Items::default(),
            cities: 0,
            road: super::NO_SEG,
        },
        line: ln,
        city_refs: Vec::new(),
        road_ref: None,
    };
    let mut inner = false;
    for w in &words[1..] {
        if !add_port(&mut raw.seg, w, ln)? {
            segment_attribute(&mut raw, &mut inner, w, ln)?;
        }
    }
    check_segment(&raw.seg, inner, ln)?;
    Ok(raw)
}

fn segment_kind(word: &str, ln: usize) -> Result<SegmentKind, CatalogueError> {
    if let Some(kind) = SEGMENT_KINDS.into_iter().find(|k| k.name() == word) {
        return Ok(kind);
    }
    let names: Vec<&str> = SEGMENT_KINDS.iter().map(|k| k.name()).collect();
    err(
        ln,
        format!(
            "unknown segment `{word}` (expected {}, provisional)",
            names.join(", ")
        ),
    )
}

/// `w` as one of the segment's ports (an edge, or a half-edge for a field): false when it is
/// not one.
fn add_port(seg: &mut Segment, w: &str, ln: usize) -> Result<bool, CatalogueError> {
    let kind = seg.kind;
    if let Some(e) = parse_edge(w).filter(|_| !kind.uses_halves() && kind.joins()) {
        if seg.ports & (1 << e) != 0 {
            return err(ln, format!("edge {w} listed twice"));
        }
        seg.ports |= 1 << e;
        return Ok(true);
    }
    if let Some(h) = parse_half(w).filter(|_| kind.uses_halves()) {
        if seg.ports & (1 << h) != 0 {
            return err(ln, format!("half-edge {w} listed twice"));
        }
        seg.ports |= 1 << h;
        return Ok(true);
    }
    Ok(false)
}

/// One attribute of a segment (`arms`, `goods=`, `end=`, `inner`, `cities=`, `road=`, an
/// item), where its kind has it.
fn segment_attribute(
    raw: &mut RawSegment,
    inner: &mut bool,
    w: &str,
    ln: usize,
) -> Result<(), CatalogueError> {
    let (key, value) = match w.split_once('=') {
        Some((k, v)) => (k, Some(v)),
        None => (w, None),
    };
    let seg = &mut raw.seg;
    match (seg.kind, key, value) {
        (SegmentKind::City, "arms", None) => seg.arms = seg.arms.saturating_add(1),
        (SegmentKind::City, "goods", Some(g)) => seg.goods = Some(goods(g, ln)?),
        (SegmentKind::Road, "end", Some(e)) => seg.end = road_end(e, ln)?,
        (SegmentKind::Field, "inner", None) => *inner = true,
        (SegmentKind::Field, "cities", Some(list)) => {
            for e in list.split(',') {
                match parse_edge(e) {
                    Some(e) => raw.city_refs.push(e),
                    None => return err(ln, format!("`cities=` wants edges like N,S; got `{e}`")),
                }
            }
        }
        (SegmentKind::Garden, "road", Some(e)) => match parse_edge(e) {
            Some(e) => raw.road_ref = Some(e),
            None => return err(ln, format!("`road=` wants an edge; got `{e}`")),
        },
        (SegmentKind::Road | SegmentKind::Field | SegmentKind::City, _, None)
            if add_item(&mut seg.items, key) => {}
        _ => {
            return err(
                ln,
                format!("unknown attribute `{w}` for a {} segment", seg.kind.name()),
            );
        }
    }
    Ok(())
}

fn goods(word: &str, ln: usize) -> Result<Goods, CatalogueError> {
    match GOODS.iter().find(|(name, _)| *name == word) {
        Some(&(_, g)) => Ok(g),
        None => err(
            ln,
            format!("unknown goods `{word}` (wine, grain, cloth, chicken)"),
        ),
    }
}

fn road_end(word: &str, ln: usize) -> Result<RoadEnd, CatalogueError> {
    match ROAD_ENDS.into_iter().find(|e| e.name() == word) {
        Some(e) => Ok(e),
        None => err(ln, format!("unknown road end `{word}`")),
    }
}

/// One more illustration of item `key` (farmhouse, shed, ...); false when `key` is not one.
fn add_item(items: &mut Items, key: &str) -> bool {
    let slot = match key {
        "farmhouse" => &mut items.farmhouse,
        "shed" => &mut items.shed,
        "robbers" => &mut items.robbers,
        "watertower" => &mut items.watertower,
        "travellers" => &mut items.travellers,
        _ => return false,
    };
    *slot = slot.saturating_add(1);
    true
}

/// A segment's own limits: counts of arms and items, ports for its kind.
fn check_segment(seg: &Segment, inner: bool, ln: usize) -> Result<(), CatalogueError> {
    let kind = seg.kind;
    let items = &seg.items;
    let most = [
        seg.arms,
        items.farmhouse,
        items.shed,
        items.robbers,
        items.watertower,
        items.travellers,
    ];
    if most.iter().any(|&n| n > MAX_PER_SEGMENT) {
        return err(
            ln,
            format!("at most {MAX_PER_SEGMENT} coats of arms or items of one kind per segment"),
        );
    }
    if kind.joins() && seg.ports == 0 && !inner {
        return err(ln, format!("{} segment lists no edges", kind.name()));
    }
    if inner && seg.ports != 0 {
        return err(ln, "an inner field lists no half-edges");
    }
    if seg.end != RoadEnd::Through && seg.ports.count_ones() != 1 {
        return err(ln, "`end=` is only for a road with one edge");
    }
    if kind == SegmentKind::Road && seg.ports.count_ones() > 2 {
        return err(ln, "a road segment joins at most two edges");
    }
    Ok(())
}

/// A tile and its segments checked against each other, references resolved, every rotation
/// precomputed.
fn validate_tile(rt: RawTile) -> Result<TileType, CatalogueError> {
    let RawTile {
        mut tile,
        line,
        segs,
    } = rt;
    let id = tile.id.clone();
    let fail = |message: String| CatalogueError {
        line,
        message: format!("tile {id}: {message}"),
    };
    check_edges(&tile.edges, &segs).map_err(fail)?;
    check_halves(&tile.edges, &segs).map_err(fail)?;
    for kind in ONE_PER_TILE {
        if segs.iter().filter(|s| s.seg.kind == kind).count() > 1 {
            return Err(fail(format!("more than one {}", kind.name())));
        }
    }
    check_river(&tile).map_err(|m| fail(m.into()))?;
    tile.segments = resolve_refs(&id, &segs)?;
    tile.finish();
    Ok(tile)
}

/// Each edge is owned by exactly one segment of the matching kind.
fn check_edges(edges: &[EdgeKind; 4], segs: &[RawSegment]) -> Result<(), String> {
    for e in 0..4u8 {
        let want = match edges[e as usize] {
            EdgeKind::City => Some(SegmentKind::City),
            EdgeKind::Road => Some(SegmentKind::Road),
            EdgeKind::River => Some(SegmentKind::River),
            EdgeKind::Field => None,
        };
        for kind in [SegmentKind::City, SegmentKind::Road, SegmentKind::River] {
            let n = segs
                .iter()
                .filter(|s| s.seg.kind == kind && s.seg.ports & (1 << e) != 0)
                .count();
            if n != usize::from(want == Some(kind)) {
                return Err(format!(
                    "edge {} is {:?} but {n} {} segment(s) list it",
                    EDGE_NAMES[e as usize],
                    edges[e as usize],
                    kind.name()
                ));
            }
        }
    }
    Ok(())
}

/// City halves lie in no field; every other half in exactly one.
fn check_halves(edges: &[EdgeKind; 4], segs: &[RawSegment]) -> Result<(), String> {
    for h in 0..8u8 {
        let n = segs
            .iter()
            .filter(|s| s.seg.kind == SegmentKind::Field && s.seg.ports & (1 << h) != 0)
            .count();
        let city = edges[(h / 2) as usize] == EdgeKind::City;
        if city && n != 0 {
            return Err(format!(
                "half-edge {} lies on a city edge but is in a field",
                HALF_NAMES[h as usize]
            ));
        }
        if !city && n != 1 {
            return Err(format!(
                "half-edge {} is in {n} fields (must be exactly 1)",
                HALF_NAMES[h as usize]
            ));
        }
    }
    Ok(())
}

/// A spring or lake has one river edge, any other river tile two.
fn check_river(tile: &TileType) -> Result<(), &'static str> {
    let rivers = tile.edges.iter().filter(|e| **e == EdgeKind::River).count();
    if (tile.spring || tile.lake) && rivers != 1 {
        return Err("a spring or lake has exactly one river edge");
    }
    if !(tile.spring || tile.lake) && rivers != 0 && rivers != 2 {
        return Err("a river tile has two river edges");
    }
    Ok(())
}

/// The segments with `cities=` and `road=` turned into the segments they name.
fn resolve_refs(id: &str, segs: &[RawSegment]) -> Result<Vec<Segment>, CatalogueError> {
    let find_seg = |kind: SegmentKind, e: u8| {
        segs.iter()
            .position(|s| s.seg.kind == kind && s.seg.ports & (1 << e) != 0)
    };
    let mut out: Vec<Segment> = Vec::with_capacity(segs.len());
    for s in segs {
        let mut seg = s.seg.clone();
        for &e in &s.city_refs {
            match find_seg(SegmentKind::City, e) {
                Some(c) => seg.cities |= 1 << c,
                None => {
                    return err(
                        s.line,
                        format!(
                            "tile {id}: `cities=` names edge {} but no city segment has it",
                            EDGE_NAMES[e as usize]
                        ),
                    )
                }
            }
        }
        if let Some(e) = s.road_ref {
            match find_seg(SegmentKind::Road, e) {
                Some(r) => seg.road = r as u8,
                None => {
                    return err(
                        s.line,
                        format!(
                            "tile {id}: `road=` names edge {} but no road segment has it",
                            EDGE_NAMES[e as usize]
                        ),
                    )
                }
            }
        }
        out.push(seg);
    }
    Ok(out)
}
