//! Parser and validator for the `*.tiles` format (docs/catalogue.md).

use super::{EdgeKind, Goods, Items, RoadEnd, Segment, SegmentKind, TileSet, TileType, MAX_SEGS};
use crate::engine::geometry::{parse_edge, parse_half, EDGE_NAMES, HALF_NAMES};
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

fn parse_segment(words: &[&str], ln: usize) -> Result<RawSegment, CatalogueError> {
    let kind = match words[0] {
        "city" => SegmentKind::City,
        "road" => SegmentKind::Road,
        "field" => SegmentKind::Field,
        "river" => SegmentKind::River,
        "monastery" => SegmentKind::Monastery,
        "garden" => SegmentKind::Garden,
        "tent" => SegmentKind::Tent,
        "bigtop" => SegmentKind::BigTop,
        "acrobat" => SegmentKind::Acrobat,
        other => {
            return err(
                ln,
                format!("unknown segment `{other}` (expected city, road, field, river, monastery, garden, tent, bigtop, acrobat, provisional)"),
            )
        }
    };
    let mut seg = Segment {
        kind,
        ports: 0,
        arms: 0,
        goods: None,
        end: RoadEnd::Through,
        items: Items::default(),
        cities: 0,
        road: super::NO_SEG,
    };
    let mut city_refs = Vec::new();
    let mut road_ref = None;
    let mut inner = false;
    for w in &words[1..] {
        if let Some(e) = parse_edge(w).filter(|_| !kind.uses_halves() && kind.joins()) {
            if seg.ports & (1 << e) != 0 {
                return err(ln, format!("edge {w} listed twice"));
            }
            seg.ports |= 1 << e;
            continue;
        }
        if let Some(h) = parse_half(w).filter(|_| kind.uses_halves()) {
            if seg.ports & (1 << h) != 0 {
                return err(ln, format!("half-edge {w} listed twice"));
            }
            seg.ports |= 1 << h;
            continue;
        }
        let (key, value) = match w.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (*w, None),
        };
        let item = |items: &mut Items| -> bool {
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
        };
        match (kind, key, value) {
            (SegmentKind::City, "arms", None) => seg.arms = seg.arms.saturating_add(1),
            (SegmentKind::City, "goods", Some(g)) => {
                seg.goods = Some(match g {
                    "wine" => Goods::Wine,
                    "grain" => Goods::Grain,
                    "cloth" => Goods::Cloth,
                    "chicken" => Goods::Chicken,
                    _ => {
                        return err(
                            ln,
                            format!("unknown goods `{g}` (wine, grain, cloth, chicken)"),
                        )
                    }
                })
            }
            (SegmentKind::Road, "end", Some(e)) => {
                seg.end = match e {
                    "village" => RoadEnd::Village,
                    "city" => RoadEnd::City,
                    "monastery" => RoadEnd::Monastery,
                    "field" => RoadEnd::Field,
                    "bigtop" => RoadEnd::BigTop,
                    "acrobat" => RoadEnd::Acrobat,
                    "tent" => RoadEnd::Tent,
                    _ => return err(ln, format!("unknown road end `{e}`")),
                }
            }
            (SegmentKind::Field, "inner", None) => inner = true,
            (SegmentKind::Field, "cities", Some(list)) => {
                for e in list.split(',') {
                    match parse_edge(e) {
                        Some(e) => city_refs.push(e),
                        None => {
                            return err(ln, format!("`cities=` wants edges like N,S; got `{e}`"))
                        }
                    }
                }
            }
            (SegmentKind::Garden, "road", Some(e)) => match parse_edge(e) {
                Some(e) => road_ref = Some(e),
                None => return err(ln, format!("`road=` wants an edge; got `{e}`")),
            },
            (SegmentKind::Road | SegmentKind::Field | SegmentKind::City, _, None)
                if item(&mut seg.items) => {}
            _ => {
                return err(
                    ln,
                    format!("unknown attribute `{w}` for a {} segment", kind.name()),
                );
            }
        }
    }
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
    Ok(RawSegment {
        seg,
        line: ln,
        city_refs,
        road_ref,
    })
}

fn validate_tile(rt: RawTile) -> Result<TileType, CatalogueError> {
    let RawTile {
        mut tile,
        line,
        segs,
    } = rt;
    let id = tile.id.clone();
    let find_seg = |kind: SegmentKind, e: u8| {
        segs.iter()
            .position(|s| s.seg.kind == kind && s.seg.ports & (1 << e) != 0)
    };
    // Edges: each owned by exactly one segment of the matching kind.
    for e in 0..4u8 {
        let want = match tile.edges[e as usize] {
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
            let expected = usize::from(want == Some(kind));
            if n != expected {
                return err(
                    line,
                    format!(
                        "tile {id}: edge {} is {:?} but {n} {} segment(s) list it",
                        EDGE_NAMES[e as usize],
                        tile.edges[e as usize],
                        kind.name()
                    ),
                );
            }
        }
    }
    // Half-edges: city halves in no field; every other half in exactly one field.
    for h in 0..8u8 {
        let n = segs
            .iter()
            .filter(|s| s.seg.kind == SegmentKind::Field && s.seg.ports & (1 << h) != 0)
            .count();
        let city = tile.edges[(h / 2) as usize] == EdgeKind::City;
        if city && n != 0 {
            return err(
                line,
                format!(
                    "tile {id}: half-edge {} lies on a city edge but is in a field",
                    HALF_NAMES[h as usize]
                ),
            );
        }
        if !city && n != 1 {
            return err(
                line,
                format!(
                    "tile {id}: half-edge {} is in {n} fields (must be exactly 1)",
                    HALF_NAMES[h as usize]
                ),
            );
        }
    }
    if segs
        .iter()
        .filter(|s| s.seg.kind == SegmentKind::Monastery)
        .count()
        > 1
    {
        return err(line, format!("tile {id}: more than one monastery"));
    }
    if segs
        .iter()
        .filter(|s| s.seg.kind == SegmentKind::Garden)
        .count()
        > 1
    {
        return err(line, format!("tile {id}: more than one garden"));
    }
    if segs
        .iter()
        .filter(|s| s.seg.kind == SegmentKind::Tent)
        .count()
        > 1
    {
        return err(line, format!("tile {id}: more than one tent"));
    }
    let rivers = tile.edges.iter().filter(|e| **e == EdgeKind::River).count();
    if (tile.spring || tile.lake) && rivers != 1 {
        return err(
            line,
            format!("tile {id}: a spring or lake has exactly one river edge"),
        );
    }
    if !(tile.spring || tile.lake) && rivers != 0 && rivers != 2 {
        return err(line, format!("tile {id}: a river tile has two river edges"));
    }
    let mut out: Vec<Segment> = Vec::with_capacity(segs.len());
    for s in &segs {
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
    tile.segments = out;
    tile.finish();
    Ok(tile)
}
