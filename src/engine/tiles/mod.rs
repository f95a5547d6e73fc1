//! The tile catalogue: tile sets as data (`*.tiles`, see docs/catalogue.md), parsed and
//! validated once into flat tables with every rotation precomputed.

mod parse;

use crate::engine::geometry::{rotate_edge, rotate_edge_mask, rotate_half, rotate_half_mask};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

pub use parse::CatalogueError;

/// Most segments a tile may have (CROSS4 has 8: four roads, four fields).
pub const MAX_SEGS: usize = 16;
pub const NO_SEG: u8 = u8::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum EdgeKind {
    Field = 0,
    Road = 1,
    City = 2,
    River = 3,
}

impl EdgeKind {
    pub fn letter(self) -> char {
        match self {
            EdgeKind::Field => 'F',
            EdgeKind::Road => 'R',
            EdgeKind::City => 'C',
            EdgeKind::River => 'I',
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum SegmentKind {
    City,
    Road,
    Field,
    River,
    Monastery,
    Garden,
    /// Fortune Teller: a tent, its own space in a field (FT1).
    Tent,
    /// Under the Big Top: the big-top space (no figure stands there, BT1).
    BigTop,
    /// Under the Big Top: an acrobat space, holding a pyramid of acrobats (BT6).
    Acrobat,
}

impl SegmentKind {
    pub fn name(self) -> &'static str {
        match self {
            SegmentKind::City => "city",
            SegmentKind::Road => "road",
            SegmentKind::Field => "field",
            SegmentKind::River => "river",
            SegmentKind::Monastery => "monastery",
            SegmentKind::Garden => "garden",
            SegmentKind::Tent => "tent",
            SegmentKind::BigTop => "bigtop",
            SegmentKind::Acrobat => "acrobat",
        }
    }
    /// Features whose segments join across tile edges (union-find features).
    pub fn joins(self) -> bool {
        matches!(
            self,
            SegmentKind::City | SegmentKind::Road | SegmentKind::Field | SegmentKind::River
        )
    }
    /// Ports are half-edges for fields, whole edges otherwise.
    pub fn uses_halves(self) -> bool {
        self == SegmentKind::Field
    }
}

/// Where a road that ends on its tile ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum RoadEnd {
    #[default]
    Through,
    Village,
    City,
    Monastery,
    Field,
    BigTop,
    Acrobat,
    Tent,
}

impl RoadEnd {
    pub fn name(self) -> &'static str {
        match self {
            RoadEnd::Through => "through",
            RoadEnd::Village => "village",
            RoadEnd::City => "city",
            RoadEnd::Monastery => "monastery",
            RoadEnd::Field => "field",
            RoadEnd::BigTop => "bigtop",
            RoadEnd::Acrobat => "acrobat",
            RoadEnd::Tent => "tent",
        }
    }
}

/// Small illustrations beside a road segment or in a field.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Items {
    pub farmhouse: u8,
    pub shed: u8,
    pub robbers: u8,
    pub watertower: u8,
    pub travellers: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Goods {
    Wine,
    Grain,
    Cloth,
    Chicken,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub kind: SegmentKind,
    /// Edge mask (city, road, river) or half-edge mask (field), canonical orientation.
    pub ports: u8,
    pub arms: u8,
    pub goods: Option<Goods>,
    pub end: RoadEnd,
    pub items: Items,
    /// Fields: bit i set when the field borders city segment i of this tile.
    pub cities: u16,
    /// Gardens: the road segment the garden stands beside (for tolls).
    pub road: u8,
}

/// One rotation of a tile type, precomputed for placement and merging.
#[derive(Clone, Debug, Default)]
pub struct Rotated {
    /// Edge kinds packed 2 bits per side (N in the low bits).
    pub sig: u8,
    /// Segment owning each edge (cities, roads, rivers); NO_SEG for field edges.
    pub edge_seg: [u8; 4],
    /// Field segment owning each half-edge; NO_SEG on city edges.
    pub half_seg: [u8; 8],
    /// Each segment's ports in this rotation.
    pub ports: [u8; MAX_SEGS],
}

#[derive(Clone, Debug)]
pub struct TileType {
    pub id: String,
    pub set: String,
    pub count: u8,
    pub edges: [EdgeKind; 4],
    pub spring: bool,
    pub lake: bool,
    pub provisional: Option<String>,
    pub segments: Vec<Segment>,
    pub rot: [Rotated; 4],
    /// Rotations that give distinct placements (symmetric tiles have fewer).
    pub rotations: Vec<u8>,
    /// For each rotation, the listed rotation that gives the same placement.
    pub canonical: [u8; 4],
    /// The same, inline for move generation: `rot_list[..n_rot]` with their signatures.
    pub rot_list: [u8; 4],
    pub rot_sigs: [u8; 4],
    /// `rot_sigs` packed in one word (byte k = rotation rot_list[k]), to test all
    /// rotations against a frontier constraint at once.
    pub rot_sigs32: u32,
    pub n_rot: u8,
    /// Segments a normal meeple may take (city, road, field, monastery) and the abbot may
    /// take (monastery, garden).
    pub meeple_mask: u16,
    pub abbot_mask: u16,
    /// Joining segments whose kind occurs more than once on the tile: only these can meet
    /// another segment of the tile in one old feature.
    pub shared_kind_mask: u16,
    /// Segments that join across edges (cities, roads, fields), those of them that use
    /// half-edges (fields), and those always free on a new tile (monastery, garden).
    pub joins_mask: u16,
    pub halves_mask: u16,
    /// Roads and cities (where a builder may go).
    pub road_city_mask: u16,
    pub always_free_mask: u16,
    pub monastery: u8,
    pub garden: u8,
    pub tent: u8,
    pub bigtop: u8,
    pub acrobat: u8,
    pub has_river: bool,
    /// A village where 2 to 4 roads end (TC2): tile data, never guessed from edges.
    pub crossroads: bool,
}

impl TileType {
    pub fn is_crossroads(&self) -> bool {
        self.segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Road && s.end == RoadEnd::Village)
            .count()
            >= 2
    }

    /// Edge kind on side `side` when placed with rotation `r`.
    #[inline]
    pub fn edge_at(&self, r: u8, side: u8) -> EdgeKind {
        self.edges[((side + 4 - r) & 3) as usize]
    }

    pub(crate) fn finish(&mut self) {
        for r in 0..4u8 {
            let mut ro = Rotated {
                edge_seg: [NO_SEG; 4],
                half_seg: [NO_SEG; 8],
                ..Default::default()
            };
            for side in 0..4u8 {
                ro.sig |= (self.edge_at(r, side) as u8) << (2 * side);
            }
            for (i, s) in self.segments.iter().enumerate() {
                if s.kind.uses_halves() {
                    ro.ports[i] = rotate_half_mask(s.ports, r);
                    for h in 0..8u8 {
                        if s.ports & (1 << h) != 0 {
                            ro.half_seg[rotate_half(h, r) as usize] = i as u8;
                        }
                    }
                } else {
                    ro.ports[i] = rotate_edge_mask(s.ports, r);
                    for e in 0..4u8 {
                        if s.ports & (1 << e) != 0 {
                            ro.edge_seg[rotate_edge(e, r) as usize] = i as u8;
                        }
                    }
                }
            }
            self.rot[r as usize] = ro;
        }
        // Distinct rotations: rotation r repeats an earlier one when the rotated tile has the
        // same multiset of segments (kind, ports, attributes) as that earlier rotation.
        let key = |r: u8| {
            let mut v: Vec<(Segment, u8)> = self
                .segments
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut s = s.clone();
                    // Where in a field or city an illustration stands is not modelled, so it
                    // does not make rotations distinct; beside a road it does (tolls).
                    if s.kind != SegmentKind::Road {
                        s.items = Items::default();
                    }
                    s.ports = 0;
                    s.cities = 0;
                    s.road = 0;
                    (s, self.rot[r as usize].ports[i])
                })
                .collect();
            v.sort_by_key(|(s, p)| (s.kind as u8, *p, s.arms, s.items.robbers));
            v
        };
        let mut seen: Vec<Vec<(Segment, u8)>> = Vec::new();
        self.rotations.clear();
        for r in 0..4u8 {
            let k = key(r);
            match seen.iter().position(|s| *s == k) {
                Some(i) => self.canonical[r as usize] = self.rotations[i],
                None => {
                    seen.push(k);
                    self.rotations.push(r);
                    self.canonical[r as usize] = r;
                }
            }
        }
        self.monastery = self
            .segments
            .iter()
            .position(|s| s.kind == SegmentKind::Monastery)
            .map_or(NO_SEG, |i| i as u8);
        self.garden = self
            .segments
            .iter()
            .position(|s| s.kind == SegmentKind::Garden)
            .map_or(NO_SEG, |i| i as u8);
        self.tent = self
            .segments
            .iter()
            .position(|s| s.kind == SegmentKind::Tent)
            .map_or(NO_SEG, |i| i as u8);
        let find = |k: SegmentKind| {
            self.segments
                .iter()
                .position(|s| s.kind == k)
                .map_or(NO_SEG, |i| i as u8)
        };
        self.bigtop = find(SegmentKind::BigTop);
        self.acrobat = find(SegmentKind::Acrobat);
        self.has_river = self.edges.contains(&EdgeKind::River);
        self.crossroads = self.is_crossroads();
        self.n_rot = self.rotations.len() as u8;
        for (k, &r) in self.rotations.iter().enumerate() {
            self.rot_list[k] = r;
            self.rot_sigs[k] = self.rot[r as usize].sig;
        }
        self.rot_sigs32 = u32::from_le_bytes(self.rot_sigs);
        self.meeple_mask = 0;
        self.abbot_mask = 0;
        self.shared_kind_mask = 0;
        self.joins_mask = 0;
        self.halves_mask = 0;
        self.road_city_mask = 0;
        self.always_free_mask = 0;
        for (i, s) in self.segments.iter().enumerate() {
            match s.kind {
                SegmentKind::City | SegmentKind::Road => {
                    self.joins_mask |= 1 << i;
                    self.road_city_mask |= 1 << i;
                }
                SegmentKind::Field => {
                    self.joins_mask |= 1 << i;
                    self.halves_mask |= 1 << i;
                }
                SegmentKind::Monastery | SegmentKind::Garden | SegmentKind::Tent => {
                    self.always_free_mask |= 1 << i
                }
                SegmentKind::River | SegmentKind::BigTop | SegmentKind::Acrobat => {}
            }
            let same = self.segments.iter().filter(|t| t.kind == s.kind).count();
            if s.kind.joins() && same > 1 {
                self.shared_kind_mask |= 1 << i;
            }
        }
        for (i, s) in self.segments.iter().enumerate() {
            if crate::engine::moves::meeple_may_stand_on(s.kind) {
                self.meeple_mask |= 1 << i;
            }
            if matches!(s.kind, SegmentKind::Monastery | SegmentKind::Garden) {
                self.abbot_mask |= 1 << i;
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct TileSet {
    pub name: String,
    pub start: Option<u16>,
}

/// All tile types known to a game, from one or more tile sets.
#[derive(Clone, Debug)]
pub struct Catalogue {
    pub tiles: Vec<TileType>,
    pub sets: Vec<TileSet>,
    by_id: HashMap<String, u16>,
}

pub const BASE_TILES: &str = include_str!("base.tiles");
pub const RIVER_TILES: &str = include_str!("river.tiles");
pub const TRADERS_BUILDERS_C2_TILES: &str = include_str!("traders_builders_c2.tiles");
pub const TRADERS_BUILDERS_C31_TILES: &str = include_str!("traders_builders_c31.tiles");
pub const TOLL_COLLECTORS_TILES: &str = include_str!("toll_collectors.tiles");
pub const FORTUNE_TELLER_TILES: &str = include_str!("fortune_teller.tiles");
pub const BIG_TOP_TILES: &str = include_str!("big_top.tiles");

/// Every built-in tile set: (name, text).
pub const BUILTIN_SETS: [(&str, &str); 7] = [
    ("base", BASE_TILES),
    ("river", RIVER_TILES),
    ("traders_builders_c2", TRADERS_BUILDERS_C2_TILES),
    ("traders_builders_c31", TRADERS_BUILDERS_C31_TILES),
    ("toll_collectors", TOLL_COLLECTORS_TILES),
    ("fortune_teller", FORTUNE_TELLER_TILES),
    ("big_top", BIG_TOP_TILES),
];

impl Catalogue {
    pub fn from_text(text: &str) -> Result<Catalogue, CatalogueError> {
        let (tiles, sets) = parse::parse(text)?;
        crate::expansions::check_catalogue(&tiles)
            .map_err(|message| CatalogueError { line: 0, message })?;
        let by_id = tiles
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.clone(), i as u16))
            .collect();
        Ok(Catalogue { tiles, sets, by_id })
    }

    /// The catalogue shipped with the engine (every built-in tile set).
    pub fn builtin() -> Arc<Catalogue> {
        static CAT: OnceLock<Arc<Catalogue>> = OnceLock::new();
        CAT.get_or_init(|| {
            let text = BUILTIN_SETS.map(|(_, t)| t).join("\n");
            Arc::new(Catalogue::from_text(&text).expect("built-in catalogue is valid"))
        })
        .clone()
    }

    pub fn id(&self, name: &str) -> Option<u16> {
        self.by_id.get(name).copied()
    }

    pub fn tile(&self, t: u16) -> &TileType {
        &self.tiles[t as usize]
    }

    pub fn set(&self, name: &str) -> Option<&TileSet> {
        self.sets.iter().find(|s| s.name == name)
    }

    pub fn tiles_of_set<'a>(&'a self, name: &'a str) -> impl Iterator<Item = (u16, &'a TileType)> {
        self.tiles
            .iter()
            .enumerate()
            .filter(move |(_, t)| t.set == name)
            .map(|(i, t)| (i as u16, t))
    }
    /// Parse tile-count overrides `ID:N,ID:N` (also separated by `;`, `+` or spaces) against
    /// this catalogue: each tile once, a count from 0 to 99. Returns (tile, count) pairs in
    /// catalogue order, dropping counts equal to the catalogue's.
    pub fn parse_counts(&self, spec: &str) -> Result<Vec<(u16, u8)>, String> {
        let mut out: Vec<(u16, u8)> = Vec::new();
        // The documented separators only: `ID:N,...`, or `;` inside `--variant NAME:...`
        // (docs/studies.md); spaces around an item are allowed.
        for item in spec
            .split([',', ';'])
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            let Some((id, n)) = item.split_once(':') else {
                return Err(format!(
                    "tile count `{item}` must look like ID:COUNT (e.g. CAP:3)"
                ));
            };
            let Some(t) = self.id(id.trim()) else {
                return Err(format!(
                    "tile count `{item}`: unknown tile id `{}`",
                    id.trim()
                ));
            };
            let n: u8 = match n.trim().parse() {
                Ok(n) if n <= 99 => n,
                _ => {
                    return Err(format!(
                        "tile count `{item}`: the count must be a number from 0 to 99"
                    ))
                }
            };
            if out.iter().any(|&(u, _)| u == t) {
                return Err(format!("tile {} is given two counts", id.trim()));
            }
            out.push((t, n));
        }
        out.retain(|&(t, n)| self.tile(t).count != n);
        out.sort_unstable();
        Ok(out)
    }

    /// The canonical text of count overrides (`ID:N,...` in catalogue order; empty for none).
    pub fn counts_text(&self, counts: &[(u16, u8)]) -> String {
        counts
            .iter()
            .map(|&(t, n)| format!("{}:{n}", self.tile(t).id))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// A copy of this catalogue with other tile counts (0 takes a tile out of the game).
    pub fn with_counts(&self, counts: &[(u16, u8)]) -> Catalogue {
        let mut c = self.clone();
        for &(t, n) in counts {
            c.tiles[t as usize].count = n;
        }
        c
    }
}
