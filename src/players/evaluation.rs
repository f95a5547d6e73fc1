//! The learned position evaluation: what a strong player looks at, per player, and a model
//! (linear, or linear plus a small network: `Net`) that turns it into the points that player
//! will still score.
//!
//! Terms are read from what every player may know: the board, the supplies, the scores and how
//! many tiles are left in the bag (never the bag's order). The base game's terms come from one
//! walk over the features; each expansion adds its own through `Expansion::eval_terms`, so the
//! evaluation covers every option mix. A model predicts, for each player, the points still to
//! come (final score minus score now) as a weighted sum of that player's terms; a position's
//! value for player `p` is p's predicted final score minus the best opponent's.
//!
//! Weights come in a small text file (`Weights::parse`), one model per set of expansions,
//! trained by `carcassonne train` (docs/players.md). The file names every term; a file made
//! for another set of terms is refused, never read into the wrong slots.

use crate::engine::board::{Open, NO_NEIGHBOUR};
use crate::engine::features::unpack_figure;
use crate::engine::rules::{Rules, MAX_PLAYERS};
use crate::engine::state::State;
use crate::engine::tiles::{Catalogue, SegmentKind};
use crate::excerpt::excerpt;
use crate::expansions;
use crate::players::heuristic::HeuristicConfig;
use std::sync::{Arc, LazyLock, Mutex, Weak};

/// The base game's terms, in order.
pub const BASE_TERMS: [&str; 63] = [
    "bias",
    "left",
    "meeples",
    "meeples_x_left",
    "no_meeples",
    "to_move",
    "road_open",
    "road_open_x_left",
    "roads_held",
    "city_gap1",
    "city_gap2",
    "city_gap3",
    "city_gap1_x_left",
    "city_gap2_x_left",
    "city_gap3_x_left",
    "cities_held",
    "cloister_now",
    "cloister_now_x_left",
    "cloister_missing",
    "cloisters_held",
    "field_cities",
    "field_cities_x_left",
    "field_open_cities_x_left",
    "fields_held",
    "one_meeple",
    "road_dead",
    "road_scarce",
    "city_dead",
    "city_scarce",
    "city_scarce_x_left",
    "city_merge",
    "figures_idle",
    "figures_stuck",
    "left_sq",
    "to_move_x_left",
    "no_meeples_x_left",
    "one_meeple_x_left",
    "roads_held_x_left",
    "cities_held_x_left",
    "cloister_missing_x_left",
    "cloisters_held_x_left",
    "fields_held_x_left",
    "road_dead_x_left",
    "city_dead_x_left",
    "city_merge_x_left",
    "figures_idle_x_left",
    "figures_stuck_x_left",
    "road_likely",
    "city_likely",
    "city_likely_x_left",
    "field_likely_cities",
    "shared",
    "figures_extra",
    "open_held_sq",
    "road_expect",
    "city_expect",
    "cloister_expect",
    "field_expect",
    "figures_back",
    "figures_back_x_left",
    "joins",
    "open_pairs",
    "anchor",
];

/// Terms that also come times `left` (the share of tiles still in the bag), so that their
/// weights can change over the game: (the product's column, the term's column).
const TIMES_LEFT: [(usize, usize); 15] = [
    (34, 5),
    (35, 4),
    (36, 24),
    (37, 8),
    (38, 15),
    (39, 18),
    (40, 19),
    (41, 23),
    (42, 25),
    (43, 27),
    (44, 30),
    (45, 31),
    (46, 32),
    (49, 48),
    (59, 58),
];

const NB: usize = BASE_TERMS.len();

/// How many terms the evaluation has, all expansions included.
pub const TERMS: usize = NB + expansions::EVAL_TERMS;

/// Every term's name, in order (expansion terms as `expansion.term`).
pub fn term_names() -> Vec<String> {
    let mut names: Vec<String> = BASE_TERMS.iter().map(|s| s.to_string()).collect();
    names.extend(expansions::eval_term_names());
    names
}

/// The fingerprint of the term list: a weights file carries it, and one made for other terms
/// is refused.
pub fn terms_fingerprint() -> u64 {
    // FNV-1a over the names, each followed by a newline.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for name in term_names() {
        for b in name.bytes().chain(std::iter::once(b'\n')) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Each player's terms of one position.
pub type Terms = [[f32; TERMS]; MAX_PLAYERS];

/// The terms of every player of `s` into `out` (rows past the number of players are zero).
pub fn terms(s: &State, out: &mut Terms) {
    terms_with(s, &mut BagMemo::new(s), &mut Gaps::default(), None, out);
}

/// `terms`, with `memo` made for the bag of `s` and players, `gaps` as scratch, and with
/// `moves` when `s` is the position after one of the moves it began from (`MoveMemo`).
fn terms_with(
    s: &State,
    memo: &mut BagMemo,
    gaps: &mut Gaps,
    moves: Option<&mut MoveMemo>,
    out: &mut Terms,
) {
    for row in out.iter_mut() {
        row.fill(0.0);
    }
    let n = s.players as usize;
    let placed = s.board.placed.len();
    let bag = s.bag_len();
    let left = bag as f32 / (bag + placed).max(1) as f32;
    let to_move = s.to_move() as usize;
    for (p, row) in out.iter_mut().enumerate().take(n) {
        row[0] = 1.0;
        row[1] = left;
        let m = s.meeples[p] as f32;
        row[2] = m;
        row[3] = m * left;
        row[4] = (m == 0.0) as u8 as f32;
        row[5] = (p == to_move) as u8 as f32;
        row[24] = (m == 1.0) as u8 as f32;
    }
    feature_terms(s, memo, gaps, moves, left, out);
    // The anchor's own sum of what it sees, with its hand-set weights: a figure in supply is
    // worth `meeple` while the player has about 6 turns left to use it.
    let a = HeuristicConfig::default();
    let figure = a.meeple * (bag as f32 / n.max(1) as f32 / 6.0).min(1.0);
    for row in out.iter_mut().take(n) {
        row[33] = left * left;
        let held = row[8] + row[15] + row[19];
        row[53] = held * held;
        let k = row[61];
        row[61] = k * (k - 1.0) / 2.0;
        row[62] = a.complete * (row[54] + row[55] + row[56] + figure * row[58])
            + a.field * row[57]
            + a.join * row[60]
            + figure * row[2]
            - a.open * row[61];
        for &(dst, src) in &TIMES_LEFT {
            row[dst] = row[src] * left;
        }
    }
    for (p, row) in out.iter_mut().enumerate().take(n) {
        expansions::eval_terms(s, p, left, &mut row[NB..]);
    }
}

/// The terms of the roads, cities, cloisters and fields that have figures: one walk over
/// each such feature (or its walk kept in `moves`, for a feature the move left as it was).
fn feature_terms(
    s: &State,
    memo: &mut BagMemo,
    gaps: &mut Gaps,
    moves: Option<&mut MoveMemo>,
    left: f32,
    out: &mut Terms,
) {
    gaps.find(s, memo);
    for (row, j) in out.iter_mut().zip(gaps.joins) {
        row[60] = j;
    }
    match moves.filter(|m| m.fits(s)) {
        Some(m) => {
            // The segments that may have figures, in the same (ascending) order as the walk
            // over every segment below: the same sums, added in the same order.
            m.prepare(s);
            let order = std::mem::take(&mut m.order);
            for &g in &order {
                segment_terms(s, g, memo, gaps, Rings::Kept(m), left, out);
            }
            m.order = order;
        }
        None => {
            let mut own = [[0u16; MAX_REPS]; 2];
            for g in 0..s.segs.len() as u16 {
                segment_terms(s, g, memo, gaps, Rings::Fresh(&mut own), left, out);
            }
        }
    }
}

/// The terms of segment `g` of `s`: of its feature when it is the root of a road, city or
/// field with figures, or of its cloister when one stands there (else none).
fn segment_terms(
    s: &State,
    g: u16,
    memo: &mut BagMemo,
    gaps: &Gaps,
    rings: Rings,
    left: f32,
    out: &mut Terms,
) {
    let n = s.players as usize;
    let seg = s.segs[g as usize];
    match seg.kind {
        SegmentKind::Monastery | SegmentKind::Garden => {
            if seg.figure == crate::engine::features::NO_FIGURE {
                return;
            }
            let (_, owner) = unpack_figure(seg.figure);
            let pl = &s.board.placed[seg.placed as usize];
            let around = s.board.neighbours8(pl.x, pl.y) as f32;
            let (filled, all) = cloister_odds(s, memo, pl.x, pl.y);
            let row = &mut out[owner as usize];
            row[16] += 1.0 + around;
            row[17] += (1.0 + around) * left;
            row[18] += 8.0 - around;
            row[19] += 1.0;
            row[56] += filled;
            row[58] += all;
            row[61] += 1.0;
        }
        SegmentKind::Road | SegmentKind::City | SegmentKind::Field => {
            if seg.parent != g || seg.nfig == 0 {
                return;
            }
            if seg.kind != SegmentKind::Field && seg.open == 0 {
                return; // scored already (figures stay only in final scoring)
            }
            let (ring, reps, kept) = match rings {
                Rings::Kept(m) => m.ring(s, g),
                Rings::Fresh(own) => {
                    let r = Ring::of(s, g, own);
                    (r, &own[0][..r.reps as usize], None)
                }
            };
            let st = ring.st;
            let holders = ring.holders;
            if holders == 0 {
                return;
            }
            // The scarcest gap of an open road or city: how many tiles left fit it.
            let (fit, merge, likely, complete, filled) = gaps.of(g);
            let shared = holders.count_ones() > 1;
            for (p, &k) in st.iter().enumerate().take(n) {
                if k > 0 && seg.kind != SegmentKind::Field {
                    // Figures come back when it completes, whoever holds it.
                    out[p][58] += complete * k as f32;
                    out[p][61] += 1.0;
                }
                if k > 0 && holders & (1 << p) == 0 {
                    out[p][31] += k as f32;
                }
                if k > 0 && fit == 0 {
                    out[p][32] += k as f32;
                }
                if holders & (1 << p) != 0 {
                    out[p][51] += shared as u8 as f32;
                    out[p][52] += (k - 1) as f32;
                }
            }
            let mut add = |cols: &[(usize, f32)]| {
                for p in (0..n).filter(|p| holders & (1 << p) != 0) {
                    for &(c, v) in cols {
                        out[p][c] += v;
                    }
                }
            };
            let scarce = (1..=SCARCE).contains(&fit);
            match seg.kind {
                SegmentKind::Road => {
                    let v = ring.tiles as f32;
                    let gain =
                        complete * (s.feature_value_of(g, ring.tiles, true) as f32 - v) + filled;
                    add(&[
                        (6, v),
                        (7, v * left),
                        (8, 1.0),
                        (47, v * likely),
                        (54, gain),
                    ]);
                    if fit == 0 {
                        add(&[(25, v)]);
                    } else if scarce {
                        add(&[(26, v)]);
                    }
                }
                SegmentKind::City => {
                    let v = s.feature_value_of(g, ring.tiles, false) as f32;
                    let gap = (seg.open.min(3) - 1) as usize;
                    let gain = complete * (s.feature_value_of(g, ring.tiles, true) as f32 - v)
                        + filled * (1.0 + complete);
                    add(&[
                        (9 + gap, v),
                        (12 + gap, v * left),
                        (15, 1.0),
                        (48, v * likely),
                        (55, gain),
                    ]);
                    if fit == 0 {
                        add(&[(27, v)]);
                    } else if scarce {
                        add(&[(28, v), (29, v * left)]);
                    }
                    if merge {
                        add(&[(30, v)]);
                    }
                }
                _ => {
                    let (done, open, likely, anchor) = if let Some(roots) = kept {
                        field_cities_kept(s, roots, gaps)
                    } else if (ring.reps as usize) < MAX_REPS {
                        field_cities_of(s, reps, gaps)
                    } else {
                        field_cities(s, g, gaps)
                    };
                    let v = 3.0 * done as f32;
                    add(&[
                        (20, v),
                        (21, v * left),
                        (22, open as f32 * left),
                        (23, 1.0),
                        (50, 3.0 * likely),
                        (57, 3.0 * anchor),
                    ]);
                }
            }
        }
        _ => {}
    }
}

/// Where `segment_terms` reads rings: kept by `MoveMemo`, or walked afresh with a buffer
/// for a field's cities.
enum Rings<'a> {
    Kept(&'a mut MoveMemo),
    Fresh(&'a mut Cities),
}

/// A field's cities as `Ring::of` reads them: the first segment met of each, and its root.
type Cities = [[u16; MAX_REPS]; 2];

/// How many cities a field's walk keeps apart (`field_cities`' own limit).
const MAX_REPS: usize = 64;

/// What a feature's terms read of its members: each player's strength, the tiles it spans
/// (a road or city), and for a field how many different cities it borders, with the first
/// segment met of each (`Ring::of`).
#[derive(Clone, Copy, Default)]
struct Ring {
    st: [u8; MAX_PLAYERS],
    /// The players with the most strength (`majority`).
    holders: u8,
    tiles: u16,
    /// A field's cities (MAX_REPS: that many or more, and their segments are not kept).
    reps: u16,
    /// Where `MoveMemo` keeps the field's city segments.
    start: u32,
}

impl Ring {
    /// The ring of the feature with root `g`, and for a field the first segment of each
    /// city it borders and its root into `cities`, in the order `each_city_of_field` meets
    /// them.
    fn of(s: &State, g: u16, cities: &mut Cities) -> Ring {
        let st = s.strengths(g);
        let holders = majority(&st);
        if s.segs[g as usize].kind != SegmentKind::Field {
            return Ring {
                st,
                holders,
                tiles: s.feature_tiles(g),
                reps: 0,
                start: 0,
            };
        }
        let [reps, roots] = cities;
        let (mut n, mut over) = (0, false);
        s.each_city_segment_of_field(g, |c| {
            let r = s.find(c);
            if roots[..n].contains(&r) {
                return;
            }
            if n == MAX_REPS {
                over = true;
                return;
            }
            (roots[n], reps[n]) = (r, c);
            n += 1;
        });
        Ring {
            st,
            holders,
            tiles: 0,
            reps: if over { MAX_REPS as u16 } else { n as u16 },
            start: 0,
        }
    }
}

/// What the positions after one decision's candidate moves share of their features: the
/// segments of the position before the moves that the walk over features visits, and the
/// rings (`Ring`) of its features, each kept for the candidates whose move leaves it as it
/// was. After a move, a feature none of whose segments was written (`Segs::written`) has the
/// same members, figures and tiles as before it: its ring is the same.
pub(crate) struct MoveMemo {
    /// Segments of the position before the moves (the undo log's start).
    base: usize,
    /// Its segments that are cloisters with a figure or roots of features with figures.
    visit: Vec<u16>,
    /// Per segment of it: the last candidate (`stamp`) whose move wrote its feature.
    touched: Vec<u32>,
    stamp: u32,
    /// Per root of a feature with figures in it: its ring, where `known` is `epoch` (this
    /// decision).
    known: Vec<u32>,
    rings: Vec<Ring>,
    epoch: u32,
    /// The kept fields' city segments and their roots (`Ring::start`).
    reps: Vec<u16>,
    roots: Vec<u16>,
    /// Scratch: the segments the walk visits after this candidate, those its move wrote or
    /// added, and a field's cities.
    order: Vec<u16>,
    extra: Vec<u16>,
    own: Cities,
}

impl Default for MoveMemo {
    fn default() -> Self {
        MoveMemo {
            base: 0,
            visit: Vec::new(),
            touched: Vec::new(),
            stamp: 0,
            known: Vec::new(),
            rings: Vec::new(),
            epoch: 0,
            reps: Vec::new(),
            roots: Vec::new(),
            order: Vec::new(),
            extra: Vec::new(),
            own: [[0; MAX_REPS]; 2],
        }
    }
}

impl MoveMemo {
    /// Start a decision from `before`.
    fn begin(&mut self, before: &State) {
        self.base = before.segs.len();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.known.fill(0);
            self.epoch = 1;
        }
        self.touched.resize(self.base, 0);
        self.known.resize(self.base, 0);
        self.rings.resize(self.base, Ring::default());
        self.reps.clear();
        self.roots.clear();
        self.visit.clear();
        for (g, seg) in before.segs.iter().enumerate() {
            let root = seg.parent == g as u16 && seg.nfig > 0;
            if seg.figure != crate::engine::features::NO_FIGURE || root {
                self.visit.push(g as u16);
            }
            if root && seg.kind != SegmentKind::Monastery && seg.kind != SegmentKind::Garden {
                // Read before any move: a field's cities are told apart as they are now (a
                // move may join two of them).
                let mut r = Ring::of(before, g as u16, &mut self.own);
                r.start = self.reps.len() as u32;
                self.reps.extend_from_slice(&self.own[0][..r.reps as usize]);
                self.roots
                    .extend_from_slice(&self.own[1][..r.reps as usize]);
                self.rings[g] = r;
                self.known[g] = self.epoch;
            }
        }
    }

    /// Whether `after` is recording its changes from a position with the segments of the one
    /// this decision began from.
    fn fits(&self, after: &State) -> bool {
        after.segs.written().is_some_and(|(n, _)| n == self.base)
    }

    /// The segments to visit in `after` (a superset of those the walk over every segment
    /// finds features or cloisters at, ascending), and which features its move wrote.
    fn prepare(&mut self, after: &State) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.touched.fill(0);
            self.stamp = 1;
        }
        let (base, written) = after.segs.written().expect("checked by `fits`");
        self.extra.clear();
        for g in written.chain(base as u16..after.segs.len() as u16) {
            self.extra.push(g);
            let r = after.find(g) as usize;
            if r < base {
                self.touched[r] = self.stamp;
            }
        }
        self.extra.sort_unstable();
        // Both ascending: merged, each segment once.
        self.order.clear();
        let (mut i, mut j) = (0, 0);
        let (visit, extra) = (&self.visit, &self.extra);
        while i < visit.len() || j < extra.len() {
            let g = match (visit.get(i), extra.get(j)) {
                (Some(&a), Some(&b)) if a <= b => {
                    i += 1;
                    a
                }
                (_, Some(&b)) => {
                    j += 1;
                    b
                }
                (Some(&a), None) => {
                    i += 1;
                    a
                }
                (None, None) => unreachable!(),
            };
            if self.order.last() != Some(&g) {
                self.order.push(g);
            }
        }
    }

    /// Whether the feature with root `r` before the moves is as it was in `s` (still a
    /// root, and none of its segments written).
    #[inline]
    fn kept(&self, s: &State, r: u16) -> bool {
        let i = r as usize;
        i < self.base && self.touched[i] != self.stamp && s.segs[i].parent == r
    }

    /// The ring of the feature with root `g` in the position after this candidate's move
    /// and a field's city segments, kept when the move left the feature as it was; and then
    /// too, when it left each of the field's cities as it was, their roots.
    fn ring(&mut self, s: &State, g: u16) -> (Ring, &[u16], Option<&[u16]>) {
        let i = g as usize;
        if i >= self.base || self.touched[i] == self.stamp || self.known[i] != self.epoch {
            let r = Ring::of(s, g, &mut self.own);
            return (r, &self.own[0][..r.reps as usize], None);
        }
        let r = self.rings[i];
        let cities = r.start as usize..r.start as usize + r.reps as usize;
        let roots = &self.roots[cities.clone()];
        let kept = ((r.reps as usize) < MAX_REPS && roots.iter().all(|&c| self.kept(s, c)))
            .then_some(roots);
        (r, &self.reps[cities], kept)
    }
}

/// `field_cities` from the roots of the different cities the field borders, in the order
/// its walk meets them (`Ring::of`, fewer than MAX_REPS).
fn field_cities_kept(s: &State, roots: &[u16], gaps: &Gaps) -> (u16, u16, f32, f32) {
    let mut tally = CityTally::new();
    for &croot in roots {
        tally.count(s, croot, gaps);
    }
    tally.sums()
}

/// `field_cities` from the first segment of each city the field borders (`Ring::of`, fewer
/// than MAX_REPS): the cities met in the same order, so the same sums.
fn field_cities_of(s: &State, reps: &[u16], gaps: &Gaps) -> (u16, u16, f32, f32) {
    let mut tally = CityTally::new();
    for &c in reps {
        tally.meet(s, s.find(c), gaps);
    }
    tally.sums()
}

/// The cities a field borders, tallied in the order met (the same order, the same sums).
struct CityTally {
    seen: [u16; MAX_REPS],
    n: usize,
    done: u16,
    open: u16,
    likely: f32,
    anchor: f32,
}

impl CityTally {
    fn new() -> CityTally {
        CityTally {
            seen: [0; MAX_REPS],
            n: 0,
            done: 0,
            open: 0,
            likely: 0.0,
            anchor: 0.0,
        }
    }

    /// Count the city with root `croot` unless met before (past MAX_REPS cities, each counts).
    fn meet(&mut self, s: &State, croot: u16, gaps: &Gaps) {
        if self.seen[..self.n].contains(&croot) {
            return;
        }
        if self.n < MAX_REPS {
            self.seen[self.n] = croot;
            self.n += 1;
        }
        self.count(s, croot, gaps);
    }

    /// Count the city with root `croot`, known to be new.
    fn count(&mut self, s: &State, croot: u16, gaps: &Gaps) {
        if s.segs[croot as usize].open == 0 {
            self.done += 1;
        } else {
            self.open += 1;
            let odds = gaps.of(croot);
            self.likely += odds.2;
            self.anchor += odds.3;
        }
    }

    /// (completed, unfinished, the unfinished ones' chances of completion summed, the same
    /// under the anchor's fill model).
    fn sums(&self) -> (u16, u16, f32, f32) {
        (self.done, self.open, self.likely, self.anchor)
    }
}

/// A gap is scarce when at most this many tiles left in the bag fit it.
const SCARCE: u16 = 2;

/// How many open roads and cities `Gaps` follows (more are rare; the rest count as having
/// gaps that plenty of tiles fit, and as unlikely to be completed).
const MAX_GAPS: usize = 128;

/// The open positions next to open roads with figures and open cities: for each such feature,
/// how many tiles left in the bag (contents only, never their order) fit its scarcest open
/// position, whether one of its open positions also touches another occupied city (one tile
/// could join them), and how likely it is to be completed: the product over its open positions
/// of the chance that one of the draws a player may spend on it (`gap_draws`) fits there.
/// Also, under the held-out heuristic's fill model (`anchor_draws`: what the anchor sees),
/// the chance that it is completed and how many of its open positions are expected filled,
/// and each player's expected points from joins that one tile could make. On the stack: no
/// allocation per position valued.
struct Gaps {
    n: usize,
    root: [u16; MAX_GAPS],
    fit: [u16; MAX_GAPS],
    merge: [bool; MAX_GAPS],
    likely: [f32; MAX_GAPS],
    complete: [f32; MAX_GAPS],
    filled: [f32; MAX_GAPS],
    joins: [f32; MAX_PLAYERS],
    /// Where each root's entry is: `stamp << 32 | root << 16 | entry` (entries of earlier
    /// walks have older stamps), so that a walk starts without clearing anything.
    index: [u64; GAP_INDEX],
    stamp: u32,
}

/// Slots of `Gaps::index` (twice MAX_GAPS: short probes).
const GAP_INDEX: usize = 256;

impl Default for Gaps {
    fn default() -> Self {
        Gaps {
            n: 0,
            root: [0; MAX_GAPS],
            fit: [0; MAX_GAPS],
            merge: [false; MAX_GAPS],
            likely: [0.0; MAX_GAPS],
            complete: [0.0; MAX_GAPS],
            filled: [0.0; MAX_GAPS],
            joins: [0.0; MAX_PLAYERS],
            index: [0; GAP_INDEX],
            stamp: 1,
        }
    }
}

/// The chance that at least one of `draws` draws from a bag of `bag` tiles is one of the `fit`
/// that fit a gap.
fn gap_filled(fit: u16, bag: usize, draws: f32) -> f32 {
    if bag == 0 {
        return 0.0;
    }
    1.0 - (1.0 - fit as f32 / bag as f32).powf(draws)
}

/// The draws a player may spend on one gap: a tenth of its draws left, at least one (most of
/// a player's draws go elsewhere: hand-tuned rankings find a small share best).
fn gap_draws(bag: usize, players: u8) -> f32 {
    (bag.div_ceil(players.max(1) as usize) as f32 / 10.0).max(1.0)
}

/// The draws that may fill one of a player's gaps in the held-out heuristic's model (its
/// `reach` share of the player's own turns left plus `help` of the others'), with its
/// hand-set defaults: terms that see what the anchor sees.
fn anchor_draws(bag: usize, players: u8) -> f32 {
    let a = HeuristicConfig::default();
    let left = bag as f32;
    let own = left / players.max(1) as f32;
    a.reach * own + a.help * (left - own)
}

/// (expected empty neighbours filled, chance that all are) of the cloister at (x, y), each
/// neighbour filled with `gap_filled` of the tiles that fit it; one not yet next to the
/// frontier may take about half the bag (the heuristic's reading).
fn cloister_odds(s: &State, memo: &mut BagMemo, x: i16, y: i16) -> (f32, f32) {
    let bag = s.bag_len();
    let (mut filled, mut all) = (0.0, 1.0);
    for (dx, dy) in crate::engine::geometry::AROUND {
        let (nx, ny) = (x + dx, y + dy);
        if s.board.occupied(nx, ny) {
            continue;
        }
        let fit = match s.board.open_at(nx, ny) {
            Some(o) => memo.fitting(s, o),
            None => (bag / 2) as u16,
        };
        let p = memo.anchor_filled(fit);
        filled += p;
        all *= p;
    }
    (filled, all)
}

impl Gaps {
    /// The slot of `root` in `index`: where it is, or the empty slot where it would go.
    #[inline]
    fn probe(&self, root: u16) -> (usize, bool) {
        let mut h = ((root as u32).wrapping_mul(0x9e37_79b1) >> 24) as usize;
        loop {
            let e = self.index[h];
            if (e >> 32) as u32 != self.stamp {
                return (h, false);
            }
            if (e >> 16) as u16 == root {
                return (h, true);
            }
            h = (h + 1) % GAP_INDEX;
        }
    }

    /// The entry of the feature with root `root`.
    #[inline]
    fn entry(&self, root: u16) -> Option<usize> {
        match self.probe(root) {
            (h, true) => Some(self.index[h] as u16 as usize),
            _ => None,
        }
    }

    fn find(&mut self, s: &State, memo: &mut BagMemo) {
        self.n = 0;
        self.joins = [0.0; MAX_PLAYERS];
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.index.fill(0);
            self.stamp = 1;
        }
        for o in &s.board.frontier {
            let mut roots = [0u16; 4];
            let (mut k, mut cities) = (0, 0);
            for &e in &o.edge_seg {
                if e == NO_NEIGHBOUR {
                    continue;
                }
                let r = s.find(e);
                let seg = &s.segs[r as usize];
                if seg.open == 0
                    || !(seg.kind == SegmentKind::City
                        || seg.nfig > 0 && seg.kind == SegmentKind::Road)
                    || roots[..k].contains(&r)
                {
                    continue;
                }
                roots[k] = r;
                k += 1;
                cities += (seg.kind == SegmentKind::City && seg.nfig > 0) as usize;
            }
            if k == 0 {
                continue;
            }
            let fit = memo.fitting(s, o);
            let filled = memo.gap_filled(fit);
            let chance = memo.anchor_filled(fit);
            self.add_joins(s, &roots[..k], chance);
            for &r in &roots[..k] {
                let i = match self.probe(r) {
                    (h, true) => self.index[h] as u16 as usize,
                    (h, false) if self.n < MAX_GAPS => {
                        self.index[h] =
                            (self.stamp as u64) << 32 | (r as u64) << 16 | self.n as u64;
                        self.root[self.n] = r;
                        self.fit[self.n] = u16::MAX;
                        self.merge[self.n] = false;
                        self.likely[self.n] = 1.0;
                        self.complete[self.n] = 1.0;
                        self.filled[self.n] = 0.0;
                        self.n += 1;
                        self.n - 1
                    }
                    _ => continue,
                };
                self.fit[i] = self.fit[i].min(fit);
                self.likely[i] *= filled;
                self.complete[i] *= chance;
                self.filled[i] += chance;
                if cities >= 2 && s.segs[r as usize].kind == SegmentKind::City {
                    self.merge[i] = true;
                }
            }
        }
    }

    /// Each player's expected gain, `chance` times the points it makes or loses, from one
    /// tile at an open position joining two of `roots` (roads or cities held by different
    /// players): the joined feature goes to the majority of both.
    fn add_joins(&mut self, s: &State, roots: &[u16], chance: f32) {
        let n = s.players as usize;
        for (i, &ra) in roots.iter().enumerate() {
            for &rb in &roots[i + 1..] {
                let (a, b) = (&s.segs[ra as usize], &s.segs[rb as usize]);
                if a.kind != b.kind || a.nfig == 0 || b.nfig == 0 || a.owners == b.owners {
                    continue;
                }
                let (sa, sb) = (s.strengths(ra), s.strengths(rb));
                let va = s.feature_value(ra, false) as f32;
                let vb = s.feature_value(rb, false) as f32;
                let mut both = [0u8; MAX_PLAYERS];
                for p in 0..n {
                    both[p] = sa[p] + sb[p];
                }
                let (ha, hb, hj) = (majority(&sa), majority(&sb), majority(&both));
                for p in 0..n {
                    let bit = 1 << p;
                    let mut before = 0.0;
                    if ha & bit != 0 {
                        before += va;
                    }
                    if hb & bit != 0 {
                        before += vb;
                    }
                    let joined = if hj & bit != 0 { va + vb + 1.0 } else { 0.0 };
                    self.joins[p] += chance * (joined - before);
                }
            }
        }
    }

    /// (tiles fitting the scarcest gap, could merge, chance of completion; and under the
    /// heuristic's fill model, chance of completion and expected open positions filled) of
    /// the open feature with root `root` (none for a feature with no open position).
    fn of(&self, root: u16) -> (u16, bool, f32, f32, f32) {
        match self.entry(root) {
            Some(i) => (
                self.fit[i],
                self.merge[i],
                self.likely[i],
                self.complete[i],
                self.filled[i],
            ),
            None => (u16::MAX, false, 0.0, 0.0, 0.0),
        }
    }
}

/// How many distinct edge patterns `BagEdges` keeps (the catalogue's tiles have far fewer).
const MAX_EDGES: usize = 64;

/// The bag's tiles counted by edge pattern (their rotations' edge signatures): tiles with the
/// same pattern fit the same positions, so a position is tested once per pattern, not once
/// per tile. Contents only, never order; on the stack.
struct BagEdges {
    n: usize,
    sigs: [u32; MAX_EDGES],
    rots: [u32; MAX_EDGES],
    count: [u16; MAX_EDGES],
    /// False when the bag had more patterns than kept: then every tile is tested.
    complete: bool,
}

impl BagEdges {
    fn new(s: &State) -> BagEdges {
        let mut b = BagEdges {
            n: 0,
            sigs: [0; MAX_EDGES],
            rots: [0; MAX_EDGES],
            count: [0; MAX_EDGES],
            complete: true,
        };
        for &t in &s.bag {
            let tt = s.cat.tile(t);
            let rots = 0x8080_8080u32 >> (8 * (4 - tt.n_rot as u32));
            let sigs = tt.rot_sigs32;
            let known = (0..b.n).find(|&i| b.sigs[i] == sigs && b.rots[i] == rots);
            match known {
                Some(i) => b.count[i] += 1,
                None if b.n < MAX_EDGES => {
                    (b.sigs[b.n], b.rots[b.n], b.count[b.n]) = (sigs, rots, 1);
                    b.n += 1;
                }
                None => b.complete = false,
            }
        }
        b
    }

    /// How many tiles left in the bag fit open position `o` in some rotation (by their edges).
    fn fitting(&self, s: &State, o: &Open) -> u16 {
        if !self.complete {
            return fitting_tiles(s, o);
        }
        let mut n = 0;
        for i in 0..self.n {
            if o.fits4(self.sigs[i]) & self.rots[i] != 0 {
                n += self.count[i];
            }
        }
        n
    }
}

/// Slots of `BagMemo`'s table of fitting tiles per kind of open position (a frontier has a
/// few dozen kinds at most; past 3/4 full, counts are no longer kept).
const FIT_SLOTS: usize = 128;

/// Bags of up to this many tiles keep their fill chances (every rule set's bag is smaller).
const MAX_MEMO_BAG: usize = 256;

/// What the terms of positions with the same bag and players share, computed once for them
/// all (the positions after one decision's candidate moves): the bag's edge patterns, how
/// many of its tiles fit each kind of open position (its sides' neighbours and the edges
/// they want), and the chances that a gap so many tiles fit is filled. The same numbers as
/// computing each afresh: every entry is a function of the bag's contents and the players.
struct BagMemo {
    edges: BagEdges,
    bag: usize,
    draws: f32,
    anchor: f32,
    /// (kind of open position << 16 | tiles that fit it), 0 where empty.
    fit: [u32; FIT_SLOTS],
    kept: usize,
    /// `gap_filled` per count of fitting tiles, with `gap_draws` and with `anchor_draws`
    /// (NaN: not computed yet).
    filled: [f32; MAX_MEMO_BAG],
    anchored: [f32; MAX_MEMO_BAG],
}

impl BagMemo {
    fn new(s: &State) -> BagMemo {
        let bag = s.bag_len();
        let mut m = BagMemo {
            edges: BagEdges::new(s),
            bag,
            draws: gap_draws(bag, s.players),
            anchor: anchor_draws(bag, s.players),
            fit: [0; FIT_SLOTS],
            kept: 0,
            filled: [0.0; MAX_MEMO_BAG],
            anchored: [0.0; MAX_MEMO_BAG],
        };
        let n = (bag + 1).min(MAX_MEMO_BAG);
        m.filled[..n].fill(f32::NAN);
        m.anchored[..n].fill(f32::NAN);
        m
    }

    /// How many tiles left in the bag fit open position `o` (`BagEdges::fitting`).
    #[inline]
    fn fitting(&mut self, s: &State, o: &Open) -> u16 {
        let kind = (o.mask as u32) << 8 | o.want as u32;
        if kind == 0 {
            // A frontier position has a neighbour; 0 marks an empty slot.
            return self.edges.fitting(s, o);
        }
        let mut i = (kind.wrapping_mul(0x9e37_79b1) >> 25) as usize;
        loop {
            let e = self.fit[i];
            if e >> 16 == kind {
                return e as u16;
            }
            if e == 0 {
                break;
            }
            i = (i + 1) % FIT_SLOTS;
        }
        let fit = self.edges.fitting(s, o);
        if self.kept < FIT_SLOTS * 3 / 4 {
            self.fit[i] = kind << 16 | fit as u32;
            self.kept += 1;
        }
        fit
    }

    /// `gap_filled(fit, bag, gap_draws)`.
    #[inline]
    fn gap_filled(&mut self, fit: u16) -> f32 {
        Self::memo(&mut self.filled, fit, self.bag, self.draws)
    }

    /// `gap_filled(fit, bag, anchor_draws)`.
    #[inline]
    fn anchor_filled(&mut self, fit: u16) -> f32 {
        Self::memo(&mut self.anchored, fit, self.bag, self.anchor)
    }

    #[inline]
    fn memo(table: &mut [f32; MAX_MEMO_BAG], fit: u16, bag: usize, draws: f32) -> f32 {
        let Some(v) = table
            .get_mut(fit as usize)
            .filter(|_| (fit as usize) <= bag)
        else {
            return gap_filled(fit, bag, draws);
        };
        if v.is_nan() {
            *v = gap_filled(fit, bag, draws);
        }
        *v
    }
}

/// How many tiles left in the bag fit open position `o` in some rotation, tile by tile.
fn fitting_tiles(s: &State, o: &Open) -> u16 {
    let mut n = 0;
    for &t in &s.bag {
        let tt = s.cat.tile(t);
        let rots = 0x8080_8080u32 >> (8 * (4 - tt.n_rot as u32));
        n += (o.fits4(tt.rot_sigs32) & rots != 0) as u16;
    }
    n
}

/// The players with the most strength `st` in a feature (a bit each; ties all hold it, B16).
pub(crate) fn majority(st: &[u8; MAX_PLAYERS]) -> u8 {
    let best = *st.iter().max().unwrap_or(&0);
    if best == 0 {
        return 0;
    }
    st.iter()
        .enumerate()
        .filter(|(_, &v)| v == best)
        .fold(0u8, |m, (p, _)| m | (1 << p))
}

/// (completed, unfinished, the unfinished ones' chances of completion summed, the same
/// under the anchor's fill model) of the cities the field with root `root` borders, each once.
fn field_cities(s: &State, root: u16, gaps: &Gaps) -> (u16, u16, f32, f32) {
    let mut tally = CityTally::new();
    s.each_city_of_field(root, |croot| tally.meet(s, croot, gaps));
    tally.sums()
}

/// One model: the weight of each term, and optionally a network added to that linear part,
/// for the rule sets with the expansions of `key`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The expansions on, as `expansion_key` writes them (`base` for none).
    pub key: String,
    pub weights: Vec<f32>,
    pub net: Option<Net>,
}

/// The most hidden units a network may have (its forward pass runs once per player for every
/// candidate move: a few dozen units fit the expert's time).
pub const MAX_HIDDEN: usize = 64;

/// How many inputs a network reads: the player's own terms, then the other players' terms
/// averaged (what the linear part cannot price: features the players contest).
pub const NET_INPUTS: usize = 2 * TERMS;

/// A one-hidden-layer network over the terms: a player's points still to come are the linear
/// part plus `v . relu(w1 x + b1)`, `x` the player's own terms then the others' averaged.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub b1: Vec<f32>,
    pub v: Vec<f32>,
    /// `w1` by columns: an input's weights for every unit side by side, so that one input
    /// adds to all units in a vector, and an input at zero (most expansion terms, idle
    /// features) costs nothing. Kept as given when not `hidden` x `NET_INPUTS` (`check`
    /// refuses it): either way `new` loses nothing, so equal columns mean equal `w1`.
    cols: Vec<f32>,
}

impl Net {
    /// `w1`: `hidden` rows of `NET_INPUTS` weights, unit by unit (the file's order).
    pub fn new(w1: Vec<f32>, b1: Vec<f32>, v: Vec<f32>) -> Net {
        let cols = if shaped(b1.len(), w1.len()) {
            transpose(&w1, NET_INPUTS)
        } else {
            w1
        };
        Net { b1, v, cols }
    }

    /// The input weights unit by unit, as `new` takes them and the file holds them.
    pub fn w1(&self) -> Vec<f32> {
        let h = self.hidden();
        if shaped(h, self.cols.len()) {
            transpose(&self.cols, h)
        } else {
            self.cols.clone()
        }
    }

    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    /// Shapes and values this engine can use, else what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let h = self.hidden();
        if !(1..=MAX_HIDDEN).contains(&h) {
            return Err(format!(
                "a network has 1 to {MAX_HIDDEN} hidden units, got {h}"
            ));
        }
        if self.v.len() != h || self.cols.len() != h * NET_INPUTS {
            return Err(format!(
                "a network of {h} hidden units needs {h} output weights and {h} x {NET_INPUTS} \
                 input weights, got {} and {}",
                self.v.len(),
                self.cols.len()
            ));
        }
        if !self
            .cols
            .iter()
            .chain(&self.b1)
            .chain(&self.v)
            .all(|w| usable(*w))
        {
            return Err(format!(
                "a network's weights must be finite numbers of at most {MAX_WEIGHT:e} in size"
            ));
        }
        Ok(())
    }

    /// The network's part of the points still to come for a player with terms `mine`, the
    /// others' averaged being `others`.
    pub fn rest(&self, mine: &[f32; TERMS], others: &[f32; TERMS]) -> f32 {
        let h = self.hidden();
        let mut acc = [0.0f32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.b1);
        for (x, col) in mine
            .iter()
            .chain(others.iter())
            .zip(self.cols.chunks_exact(h))
        {
            if *x != 0.0 {
                for (a, w) in acc.iter_mut().zip(col) {
                    *a += x * w;
                }
            }
        }
        acc.iter().zip(&self.v).map(|(a, v)| v * a.max(0.0)).sum()
    }
}

/// Whether `n` input weights make `h` whole units (a network `Net::new` lays out by columns).
fn shaped(h: usize, n: usize) -> bool {
    h > 0 && n == h * NET_INPUTS
}

/// `m`, rows of `width` values one after another, as its columns one after another.
fn transpose(m: &[f32], width: usize) -> Vec<f32> {
    (0..width)
        .flat_map(|i| m.iter().skip(i).step_by(width).copied())
        .collect()
}

/// A weights file: one model per set of expansions.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub models: Vec<Model>,
    /// Where they came from (`builtin` or the file's path), for the policy's text.
    pub source: String,
}

/// The first line of a weights file, and its format version: 2 may hold networks (`Net`);
/// version 1 files (linear models only) are read as ever, and weights with no network are
/// written in version 1.
pub const HEADER: &str = "carcassonne-evaluation 2";
pub const HEADER_V1: &str = "carcassonne-evaluation 1";

/// The expansions `rules` turns on, as a model's key: `base`, or their registry names joined
/// by `+` in alphabetical order (so a key does not change with the registry's order).
pub fn expansion_key(rules: &Rules) -> String {
    let mut on: Vec<&str> = expansions::NAMES
        .iter()
        .copied()
        .filter(|name| rules.on(name))
        .collect();
    if on.is_empty() {
        return "base".into();
    }
    on.sort_unstable();
    on.join("+")
}

impl Weights {
    /// Read a weights file (see `text` for its form). Every term must be named in order and
    /// every weight finite: anything else is refused with the line at fault.
    pub fn parse(text: &str, source: &str) -> Result<Weights, String> {
        let names = term_names();
        let shown = excerpt(source); // messages quote the path, escaped and short
                                     // A byte-order mark (editors on Windows write one) is no part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .peekable();
        let bad = |i: usize, what: String| format!("weights file {shown}, line {i}: {what}");
        let nets = match lines.next() {
            Some((_, l)) if l == HEADER => true,
            Some((_, l)) if l == HEADER_V1 => false,
            Some((i, _)) => {
                return Err(bad(
                    i,
                    format!("expected `{HEADER}` or `{HEADER_V1}` (this is not a weights file)"),
                ))
            }
            None => return Err(format!("weights file {shown} is empty")),
        };
        let want = format!("terms {} {:016x}", names.len(), terms_fingerprint());
        match lines.next() {
            Some((_, l)) if l == want => {}
            Some((i, _)) => {
                return Err(bad(
                    i,
                    format!(
                        "made for other evaluation terms (this engine has `{want}`): \
                         train new weights with `carcassonne train`"
                    ),
                ))
            }
            None => return Err(format!("weights file {shown} has no `terms` line")),
        }
        let mut models: Vec<Model> = Vec::new();
        while let Some((i, l)) = lines.next() {
            let Some(key) = l.strip_prefix("model ") else {
                return Err(bad(i, "expected `model KEY`".into()));
            };
            let key = key.trim().to_string();
            check_key(&key).map_err(|e| bad(i, e))?;
            if models.iter().any(|m| m.key == key) {
                // A checked key is expansion names only: safe to quote.
                return Err(bad(i, format!("model `{key}` appears twice")));
            }
            let mut weights = Vec::with_capacity(names.len());
            for name in &names {
                let Some((j, l)) = lines.next() else {
                    return Err(format!(
                        "weights file {shown}: model `{key}` ends before term `{name}`"
                    ));
                };
                let (n, v) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
                if n != name {
                    return Err(bad(j, format!("expected term `{name}`")));
                }
                match v.trim().parse::<f32>() {
                    Ok(w) if usable(w) => weights.push(w),
                    _ => {
                        return Err(bad(
                            j,
                            format!(
                                "the weight of `{name}` is not a finite number of at most \
                                 {MAX_WEIGHT:e} in size"
                            ),
                        ))
                    }
                }
            }
            let net = match lines.peek() {
                Some(&(i, l)) if l.starts_with("mlp ") || l == "mlp" => {
                    if !nets {
                        return Err(bad(i, format!("a network needs `{HEADER}`")));
                    }
                    lines.next();
                    Some(parse_net(&mut lines, l, i, &bad)?)
                }
                _ => None,
            };
            models.push(Model { key, weights, net });
        }
        if models.is_empty() {
            return Err(format!("weights file {shown} has no model"));
        }
        Ok(Weights {
            models,
            source: source.to_string(),
        })
    }

    /// The file form: the header, the terms line (count and fingerprint), then each model as
    /// `model KEY` and one `term weight` line per term.
    pub fn text(&self) -> String {
        let names = term_names();
        let header = if self.models.iter().any(|m| m.net.is_some()) {
            HEADER
        } else {
            HEADER_V1
        };
        let mut s = format!(
            "{header}\nterms {} {:016x}\n",
            names.len(),
            terms_fingerprint()
        );
        for m in &self.models {
            s += &format!("model {}\n", m.key);
            for (n, w) in names.iter().zip(&m.weights) {
                s += &format!("{n} {w:e}\n");
            }
            if let Some(net) = &m.net {
                s += &format!("mlp {} {NET_INPUTS}\n", net.hidden());
                for (j, row) in net.w1().chunks_exact(NET_INPUTS).enumerate() {
                    s += &format!("unit {j} {:e} {:e}", net.b1[j], net.v[j]);
                    for w in row {
                        s += &format!(" {w:e}");
                    }
                    s += "\n";
                }
            }
        }
        s
    }

    /// The model for `rules`: the one trained with exactly these expansions, else the one
    /// whose expansions differ least (fewest missing, then fewest extra).
    pub fn model_for(&self, rules: &Rules) -> &Model {
        let key = expansion_key(rules);
        if let Some(m) = self.models.iter().find(|m| m.key == key) {
            return m;
        }
        let on: Vec<&str> = key.split('+').filter(|k| *k != "base").collect();
        self.models
            .iter()
            .min_by_key(|m| {
                let has: Vec<&str> = m.key.split('+').filter(|k| *k != "base").collect();
                let missing = on.iter().filter(|k| !has.contains(k)).count();
                let extra = has.iter().filter(|k| !on.contains(k)).count();
                (missing, extra)
            })
            .expect("a weights file has at least one model")
    }
}

/// A network's lines after its `mlp HIDDEN INPUTS` line (`head`, line `at`): one line per
/// hidden unit, `unit J BIAS OUTPUT_WEIGHT` and its `NET_INPUTS` input weights.
fn parse_net<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    head: &str,
    at: usize,
    bad: &impl Fn(usize, String) -> String,
) -> Result<Net, String> {
    let shape: Vec<&str> = head.split_whitespace().skip(1).collect();
    let hidden = match shape[..] {
        [h, n] if n == NET_INPUTS.to_string() => h.parse::<usize>().ok(),
        _ => None,
    }
    .filter(|h| (1..=MAX_HIDDEN).contains(h))
    .ok_or_else(|| {
        bad(
            at,
            format!(
                "expected `mlp HIDDEN {NET_INPUTS}` (1 to {MAX_HIDDEN} hidden units over the \
                 player's {TERMS} terms and the others' averaged)"
            ),
        )
    })?;
    let mut w1 = Vec::with_capacity(hidden * NET_INPUTS);
    let mut b1 = Vec::with_capacity(hidden);
    let mut v = Vec::with_capacity(hidden);
    for j in 0..hidden {
        let Some((i, l)) = lines.next() else {
            return Err(bad(at, format!("the network ends before unit {j}")));
        };
        let mut parts = l.split_whitespace();
        if parts.next() != Some("unit") || parts.next() != Some(j.to_string().as_str()) {
            return Err(bad(i, format!("expected `unit {j}`")));
        }
        let numbers: Vec<f32> = parts
            .map(|p| p.parse::<f32>().ok().filter(|w| usable(*w)))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                bad(
                    i,
                    format!(
                        "unit {j}'s weights are not all finite numbers of at most \
                         {MAX_WEIGHT:e} in size"
                    ),
                )
            })?;
        if numbers.len() != 2 + NET_INPUTS {
            return Err(bad(
                i,
                format!(
                    "unit {j} needs its bias, its output weight and {NET_INPUTS} input weights"
                ),
            ));
        }
        b1.push(numbers[0]);
        v.push(numbers[1]);
        w1.extend_from_slice(&numbers[2..]);
    }
    Ok(Net::new(w1, b1, v))
}

/// The weights shipped with the package (python/carcassonne/data/expert.weights).
pub static BUILTIN: LazyLock<Arc<Weights>> = LazyLock::new(|| {
    Arc::new(
        Weights::parse(
            include_str!("../../python/carcassonne/data/expert.weights"),
            "builtin",
        )
        .expect("the shipped weights match the engine's terms (tests/players.rs checks)"),
    )
});

/// Weights read from files (or given by training) while some player holds them: the same
/// weights loaded twice are shared, and weights no player holds any more are dropped. At most
/// `MAX_LOADED` different ones are held at once (a few kilobytes each).
static LOADED: LazyLock<Mutex<Vec<Weak<Weights>>>> = LazyLock::new(|| Mutex::new(Vec::new()));

/// How many different weights one process may hold at once.
pub const MAX_LOADED: usize = 1000;

/// The largest weights file read, in bytes.
pub const MAX_FILE: u64 = 1 << 20;

/// The largest weight magnitude: far above any trained weight, and small enough that a
/// prediction (weights times terms, summed) stays finite.
pub const MAX_WEIGHT: f32 = 1e6;

/// The weights in file `path` (read once per distinct content). Messages never quote the
/// file: a path may name any file, and its text is nobody's business.
pub fn load(path: &str) -> Result<Arc<Weights>, String> {
    use std::io::Read;
    let shown = excerpt(path);
    let meta = std::fs::metadata(path).map_err(|e| format!("weights file {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("weights file {shown}: not a regular file"));
    }
    // The size a file reports is not trusted (/proc files report 0): at most MAX_FILE + 1
    // bytes are read.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("weights file {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!(
            "weights file {shown}: larger than {} KiB; a weights file is a few kilobytes",
            MAX_FILE >> 10
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("weights file {shown}: not UTF-8 text (not a weights file)"))?;
    keep(Weights::parse(&text, path)?)
}

/// `w`, shared with every holder of the same weights and source.
fn keep(w: Weights) -> Result<Arc<Weights>, String> {
    let mut cache = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|k| k.strong_count() > 0);
    if let Some(kept) = cache.iter().find_map(|k| k.upgrade().filter(|k| **k == w)) {
        return Ok(kept);
    }
    if cache.len() >= MAX_LOADED {
        return Err(format!(
            "{MAX_LOADED} different weights are held by players in this process already, the \
             most it keeps: drop players (or policies) that are done, or use a new process"
        ));
    }
    let kept = Arc::new(w);
    cache.push(Arc::downgrade(&kept));
    Ok(kept)
}

/// How many different weights read from files are held now (for tests of their lifetime).
pub fn loaded() -> usize {
    let cache = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    cache.iter().filter(|k| k.strong_count() > 0).count()
}

/// Weights given as numbers (from Python training), checked as a file's are.
pub fn from_models(models: Vec<Model>, source: &str) -> Result<Weights, String> {
    let n = TERMS;
    for m in &models {
        if m.weights.len() != n || m.weights.iter().any(|w| !usable(*w)) {
            return Err(format!(
                "model `{}` needs {n} finite weights of at most {MAX_WEIGHT:e} in size, got {}",
                m.key,
                m.weights.len()
            ));
        }
        if let Some(net) = &m.net {
            net.check().map_err(|e| format!("model `{}`: {e}", m.key))?;
        }
        check_key(&m.key)?;
    }
    if models.is_empty() {
        return Err("weights need at least one model".into());
    }
    Ok(Weights {
        models,
        source: source.to_string(),
    })
}

/// A weight this engine can use (finite and at most `MAX_WEIGHT` in size).
fn usable(w: f32) -> bool {
    w.is_finite() && w.abs() <= MAX_WEIGHT
}

/// A model key must be `base` or expansion names joined by `+` in `expansion_key`'s order
/// (alphabetical): an unknown key would never be chosen exactly, and a misspelt one silently
/// replaced.
fn check_key(key: &str) -> Result<(), String> {
    if key == "base" {
        return Ok(());
    }
    let mut last: Option<&str> = None;
    for part in key.split('+') {
        if !expansions::NAMES.contains(&part) || last.is_some_and(|l| l >= part) {
            let mut names = expansions::NAMES.to_vec();
            names.sort_unstable();
            return Err(format!(
                "a model key is `base` or expansion names joined by `+` in this order: {}",
                names.join(", ")
            ));
        }
        last = Some(part);
    }
    Ok(())
}

/// An evaluation ready for one rule set: the model's weights and reusable term buffers.
pub struct Evaluation {
    weights: Arc<[f32]>,
    net: Option<Arc<Net>>,
    /// The other players' terms averaged, the network's second input (kept: no allocation per
    /// position).
    others: Box<[f32; TERMS]>,
    terms: Box<Terms>,
    /// What the terms of the last position valued shared with positions of the same bag
    /// (the positions after the candidates of one decision), and that bag, players and tiles.
    memo: Option<Box<BagMemo>>,
    memo_bag: Vec<u16>,
    memo_players: u8,
    memo_cat: Option<Arc<Catalogue>>,
    /// What the positions after one decision's moves share of their features.
    moves: MoveMemo,
    gaps: Box<Gaps>,
    /// Candidates' linear predictions and terms, for a network that re-values only the
    /// linear part's best moves (`linear_after_move`, `value_of_kept`).
    kept: Vec<([f32; MAX_PLAYERS], Box<Terms>)>,
}

impl Evaluation {
    pub fn new(weights: &Weights, rules: &Rules) -> Evaluation {
        let model = weights.model_for(rules);
        Evaluation {
            weights: model.weights.clone().into(),
            net: model.net.clone().map(Arc::new),
            others: Box::new([0.0; TERMS]),
            terms: Box::new([[0.0; TERMS]; MAX_PLAYERS]),
            memo: None,
            memo_bag: Vec::new(),
            memo_players: 0,
            memo_cat: None,
            moves: MoveMemo::default(),
            gaps: Box::default(),
            kept: Vec::new(),
        }
    }

    /// The bag memo for `s`: the last one if it was made for the same bag (in the same
    /// order), players and catalogue, else a new one in its place (no allocation once warm).
    fn memo_for(&mut self, s: &State) -> &mut BagMemo {
        let same = self.memo.is_some()
            && self.memo_players == s.players
            && self.memo_bag == s.bag
            && self
                .memo_cat
                .as_ref()
                .is_some_and(|c| Arc::ptr_eq(c, &s.cat));
        if !same {
            match &mut self.memo {
                Some(m) => **m = BagMemo::new(s),
                None => self.memo = Some(Box::new(BagMemo::new(s))),
            }
            self.memo_bag.clone_from(&s.bag);
            self.memo_players = s.players;
            if !self
                .memo_cat
                .as_ref()
                .is_some_and(|c| Arc::ptr_eq(c, &s.cat))
            {
                self.memo_cat = Some(s.cat.clone());
            }
        }
        self.memo.as_mut().expect("set above")
    }

    /// The terms of the position last predicted, per player.
    pub fn last_terms(&self) -> &Terms {
        &self.terms
    }

    /// Each player's predicted final score in `s` (score now plus the points still to come).
    pub fn predict(&mut self, s: &State, out: &mut [f32; MAX_PLAYERS]) {
        self.predict_with(s, false, out);
    }

    fn predict_with(&mut self, s: &State, after_move: bool, out: &mut [f32; MAX_PLAYERS]) {
        self.linear_with(s, after_move, out);
        self.add_net(s.players as usize, out);
    }

    /// The terms of `s` into `self.terms`, and each player's score plus the linear part's
    /// points still to come into `out`.
    fn linear_with(&mut self, s: &State, after_move: bool, out: &mut [f32; MAX_PLAYERS]) {
        self.memo_for(s);
        let moves = after_move.then_some(&mut self.moves);
        let memo = self.memo.as_mut().expect("made above");
        terms_with(s, memo, &mut self.gaps, moves, &mut self.terms);
        out.fill(0.0);
        for (p, o) in out.iter_mut().enumerate().take(s.players as usize) {
            let rest: f32 = self.terms[p]
                .iter()
                .zip(self.weights.iter())
                .map(|(t, w)| t * w)
                .sum();
            *o = s.total(p) as f32 + rest;
        }
    }

    /// The network's part (if any) of the `n` players' points still to come, from the terms
    /// in `self.terms`, added to `out`.
    fn add_net(&mut self, n: usize, out: &mut [f32; MAX_PLAYERS]) {
        if let Some(net) = &self.net {
            for (p, o) in out.iter_mut().enumerate().take(n) {
                self.others.fill(0.0);
                for q in (0..n).filter(|&q| q != p) {
                    for (a, t) in self.others.iter_mut().zip(&self.terms[q]) {
                        *a += t;
                    }
                }
                let share = 1.0 / (n - 1).max(1) as f32;
                self.others.iter_mut().for_each(|a| *a *= share);
                *o += net.rest(&self.terms[p], &self.others);
            }
        }
    }

    /// Whether the model has a network beside its linear part.
    pub fn has_net(&self) -> bool {
        self.net.is_some()
    }

    /// The value of `s` for player `me`: its predicted final score minus the best opponent's.
    pub fn value(&mut self, s: &State, me: usize) -> f32 {
        self.value_with(s, false, me)
    }

    /// Ready `value_after_move` for the positions after the moves from `before`.
    pub(crate) fn begin_moves(&mut self, before: &State) {
        self.moves.begin(before);
    }

    /// `value` of `after`, the position after one of the moves from the last `begin_moves`
    /// position, played on a copy of it that has recorded its changes since it equalled it
    /// (`State::record_changes`, `undo_to`): the same value, with what the candidates share
    /// computed once.
    pub(crate) fn value_after_move(&mut self, after: &State, me: usize) -> f32 {
        self.value_with(after, true, me)
    }

    fn value_with(&mut self, s: &State, after_move: bool, me: usize) -> f32 {
        let mut pred = [0.0f32; MAX_PLAYERS];
        self.predict_with(s, after_move, &mut pred);
        margin(&pred, s.players as usize, me)
    }

    /// `value_after_move` by the linear part alone; the position's terms and linear
    /// predictions are kept as candidate `slot` for `value_of_kept` (slots are reused from
    /// one `begin_moves` to the next: no allocation once warm).
    pub(crate) fn linear_after_move(&mut self, after: &State, me: usize, slot: usize) -> f32 {
        let mut pred = [0.0f32; MAX_PLAYERS];
        self.linear_with(after, true, &mut pred);
        let n = after.players as usize;
        if self.kept.len() <= slot {
            self.kept.resize_with(slot + 1, || {
                ([0.0; MAX_PLAYERS], Box::new([[0.0; TERMS]; MAX_PLAYERS]))
            });
        }
        let kept = &mut self.kept[slot];
        kept.0 = pred;
        kept.1[..n].copy_from_slice(&self.terms[..n]);
        margin(&pred, n, me)
    }

    /// The full value (network included) of candidate `slot` kept by `linear_after_move`, for
    /// player `me` of `n`.
    pub(crate) fn value_of_kept(&mut self, slot: usize, n: usize, me: usize) -> f32 {
        let (kept_pred, kept_terms) = &self.kept[slot];
        let mut pred = *kept_pred;
        self.terms[..n].copy_from_slice(&kept_terms[..n]);
        self.add_net(n, &mut pred);
        margin(&pred, n, me)
    }
}

/// `pred[me]` minus the best of the other `n - 1` players' predictions.
fn margin(pred: &[f32; MAX_PLAYERS], n: usize, me: usize) -> f32 {
    let best_other = (0..n)
        .filter(|&p| p != me)
        .map(|p| pred[p])
        .fold(f32::MIN, f32::max);
    pred[me] - best_other
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::moves::Move;
    use crate::engine::rng::Rng;
    use crate::engine::state::Phase;
    use crate::engine::tiles::Catalogue;

    /// Positions from random games under `rules`, one every few decisions.
    fn positions(rules: Rules, players: usize, seeds: u64) -> Vec<State> {
        let cat = Catalogue::builtin();
        let mut out = Vec::new();
        let mut moves: Vec<Move> = Vec::new();
        for seed in 0..seeds {
            let mut s = State::new(cat.clone(), rules, players, seed).unwrap();
            let mut rng = Rng::new(seed);
            let mut k = 0;
            while s.phase != Phase::Over {
                if s.phase.is_chance() {
                    s.chance_random(&mut |_| {}, &mut |_| {});
                    continue;
                }
                k += 1;
                if k % 5 == 0 {
                    out.push(s.clone());
                }
                s.legal_moves(&mut moves);
                let i = rng.below(moves.len());
                s.play_unchecked(&moves[i]);
            }
        }
        out
    }

    fn all_terms(s: &State) -> Terms {
        let mut t = [[0.0; TERMS]; MAX_PLAYERS];
        terms(s, &mut t);
        t
    }

    #[test]
    fn the_bags_order_changes_no_term() {
        for rules in [Rules::base(), Rules::every_option()] {
            for s in positions(rules, 3, 3) {
                let mut other = s.clone();
                // Reverse each bag group: same contents, another order.
                other.bag_groups_mut().for_each(<[u16]>::reverse);
                assert_eq!(all_terms(&s), all_terms(&other));
            }
        }
    }

    #[test]
    fn every_move_played_and_undone_leaves_the_terms_as_they_were() {
        for rules in [Rules::default(), Rules::every_option()] {
            let mut moves = Vec::new();
            for s in positions(rules, 2, 2) {
                let before = all_terms(&s);
                let mut copy = s.clone();
                copy.record_changes();
                s.legal_moves(&mut moves);
                for m in &moves {
                    copy.play_unchecked(m);
                    copy.undo_to(&s);
                    assert_eq!(all_terms(&copy), before, "after undoing {m:?}");
                }
            }
        }
    }

    /// The terms, bit for bit.
    fn bits(t: &Terms) -> Vec<u32> {
        t.iter().flatten().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn the_terms_after_each_move_with_what_the_moves_share_are_those_computed_afresh() {
        let mut moves = Vec::new();
        let w = weights(&[("base", 1.0)]);
        for rules in [Rules::base(), Rules::every_option()] {
            let mut eval = Evaluation::new(&w, &rules);
            for players in [2, 3] {
                for s in positions(rules, players, 3) {
                    eval.begin_moves(&s);
                    let mut copy = s.clone();
                    copy.record_changes();
                    s.legal_moves(&mut moves);
                    for m in &moves {
                        copy.play_unchecked(m);
                        eval.value_after_move(&copy, 0);
                        assert_eq!(bits(&eval.terms), bits(&all_terms(&copy)), "after {m:?}");
                        copy.undo_to(&s);
                    }
                }
            }
        }
    }

    #[test]
    fn meeples_in_supply_give_their_terms_and_their_products_with_left() {
        let names = term_names();
        let col = |n: &str| names.iter().position(|x| x == n).unwrap();
        for s in positions(Rules::base(), 2, 1).into_iter().take(4) {
            for m in [0u8, 1, 2, 7] {
                let mut s = s.clone();
                s.meeples[1] = m;
                let t = all_terms(&s);
                let left = t[1][col("left")];
                let (none, one) = ((m == 0) as u8 as f32, (m == 1) as u8 as f32);
                assert_eq!(t[1][col("meeples")], m as f32);
                assert_eq!(t[1][col("no_meeples")], none);
                assert_eq!(t[1][col("one_meeple")], one);
                assert_eq!(t[1][col("no_meeples_x_left")], none * left);
                assert_eq!(t[1][col("one_meeple_x_left")], one * left);
                assert_eq!(t[1][col("left_sq")], left * left);
            }
        }
    }

    #[test]
    fn every_product_with_left_is_its_term_times_left() {
        let names = term_names();
        for rules in [Rules::base(), Rules::every_option()] {
            for s in positions(rules, 3, 2) {
                let t = all_terms(&s);
                for &(dst, src) in &TIMES_LEFT {
                    assert_eq!(names[dst], format!("{}_x_left", names[src]));
                    for row in &t[..3] {
                        assert_eq!(row[dst], row[src] * row[1]);
                    }
                }
            }
        }
    }

    #[test]
    fn terms_are_zero_for_expansions_that_are_off() {
        let names = term_names();
        for s in positions(Rules::base(), 2, 2) {
            let t = all_terms(&s);
            for (i, name) in names.iter().enumerate().skip(NB) {
                assert_eq!(t[0][i], 0.0, "{name}");
                assert_eq!(t[1][i], 0.0, "{name}");
            }
        }
    }

    fn weights(models: &[(&str, f32)]) -> Weights {
        Weights {
            models: models
                .iter()
                .map(|&(k, v)| Model {
                    key: k.into(),
                    weights: vec![v; TERMS],
                    net: None,
                })
                .collect(),
            source: "test".into(),
        }
    }

    #[test]
    fn a_weights_file_reads_back_to_the_same_weights() {
        let w = weights(&[("base", 0.25), ("abbot+river", -1.5e-3)]);
        let back = Weights::parse(&w.text(), "test").unwrap();
        assert_eq!(back, w);
        assert_eq!(back.text(), w.text());
    }

    #[test]
    fn weights_for_other_terms_or_damaged_are_refused() {
        let good = weights(&[("base", 1.0)]).text();
        let other = good.replacen(
            &format!("{:016x}", terms_fingerprint()),
            "0123456789abcdef",
            1,
        );
        let e = Weights::parse(&other, "f").unwrap_err();
        assert!(e.contains("made for other evaluation terms"), "{e}");
        let e = Weights::parse(&good.replacen("meeples 1e0", "meeples nan", 1), "f").unwrap_err();
        assert!(
            e.contains("line 6") && e.contains("`meeples` is not a finite number"),
            "{e}"
        );
        let e = Weights::parse(&good.replacen("left 1e0", "lift 1e0", 1), "f").unwrap_err();
        assert!(e.contains("expected term `left`"), "{e}");
        assert!(!e.contains("lift"), "the file's text is never quoted: {e}");
        let cut: String = good.lines().take(10).collect::<Vec<_>>().join("\n");
        let e = Weights::parse(&cut, "f").unwrap_err();
        assert!(e.contains("ends before term"), "{e}");
        let e = Weights::parse("carcassonne-evaluation 3\n", "f").unwrap_err();
        assert!(e.contains("expected `carcassonne-evaluation 2`"), "{e}");
        let e = Weights::parse("\0\0\0 secret", "f").unwrap_err();
        assert!(e.contains("not a weights file"), "{e}");
        assert!(
            !e.contains("secret"),
            "the file's text is never quoted: {e}"
        );
    }

    /// A network of two units whose value is worked out by hand (powers of two: exact).
    fn tiny_net() -> Net {
        let mut w1 = vec![0.0; 2 * NET_INPUTS];
        // Unit 0: 0.125 + 0.5 mine[0] + 0.25 mine[5] - others[5].
        w1[0] = 0.5;
        w1[5] = 0.25;
        w1[TERMS + 5] = -1.0;
        // Unit 1: -0.5 + mine[5] + 0.5 others[5].
        w1[NET_INPUTS + 5] = 1.0;
        w1[NET_INPUTS + TERMS + 5] = 0.5;
        Net::new(w1, vec![0.125, -0.5], vec![10.0, 0.75])
    }

    #[test]
    fn a_network_gives_back_its_input_weights_unit_by_unit() {
        let w1: Vec<f32> = (0..3 * NET_INPUTS).map(|i| i as f32).collect();
        let net = Net::new(w1.clone(), vec![0.0; 3], vec![0.0; 3]);
        assert_eq!(net.w1(), w1);
        // Unit 1's weight for input 2, at column 2, row 1.
        assert_eq!(net.cols[2 * 3 + 1], w1[NET_INPUTS + 2]);
        // A count that makes no whole units comes back as given (and is refused).
        let odd = Net::new(w1[..7].to_vec(), vec![0.0; 3], vec![0.0; 3]);
        assert_eq!(odd.w1(), w1[..7]);
        assert!(odd.check().is_err());
    }

    #[test]
    fn a_networks_value_is_the_one_worked_by_hand() {
        let net = tiny_net();
        net.check().unwrap();
        let mut mine = [0.0; TERMS];
        let mut others = [0.0; TERMS];
        mine[0] = 1.0;
        mine[5] = 2.0;
        others[5] = 3.0;
        // Unit 0: 0.125 + 0.5 + 0.5 - 3 < 0, off; unit 1: -0.5 + 2 + 1.5 = 3, times 0.75.
        assert_eq!(net.rest(&mine, &others), 2.25);
        // Seen from the other side: unit 0 is 0.125 + 0.75 - 2 < 0, unit 1 -0.5 + 3 + 1 = 3.5.
        assert_eq!(net.rest(&others, &mine), 2.625);
    }

    #[test]
    fn a_model_with_a_network_predicts_its_linear_part_plus_the_network() {
        let linear = weights(&[("base", 0.25)]);
        let mut with = linear.clone();
        with.models[0].net = Some(tiny_net());
        for s in positions(Rules::base(), 2, 6).iter().step_by(7) {
            let (mut a, mut b) = ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
            Evaluation::new(&linear, &s.rules).predict(s, &mut a);
            Evaluation::new(&with, &s.rules).predict(s, &mut b);
            let t = all_terms(s);
            for p in 0..2 {
                assert_eq!(b[p], a[p] + tiny_net().rest(&t[p], &t[1 - p]));
            }
        }
    }

    #[test]
    fn weights_with_a_network_read_back_and_linear_ones_stay_version_1() {
        let linear = weights(&[("base", 0.25), ("abbot+river", -1.5e-3)]);
        assert!(linear.text().starts_with(HEADER_V1));
        let mut w = linear.clone();
        w.models[1].net = Some(tiny_net());
        let text = w.text();
        assert!(text.starts_with(HEADER));
        let back = Weights::parse(&text, "test").unwrap();
        assert_eq!(back, w);
        assert_eq!(back.text(), text);
        // A version 2 file with no network reads as its version 1 twin.
        let v2 = linear.text().replacen(HEADER_V1, HEADER, 1);
        assert_eq!(Weights::parse(&v2, "test").unwrap(), linear);
    }

    #[test]
    fn damaged_networks_are_refused() {
        let mut w = weights(&[("base", 1.0)]);
        w.models[0].net = Some(tiny_net());
        let good = w.text();
        let refused = |text: &str, what: &str| {
            let e = Weights::parse(text, "f").unwrap_err();
            assert!(e.contains(what), "{e}");
        };
        refused(
            &good.replacen(HEADER, HEADER_V1, 1),
            "a network needs `carcassonne-evaluation 2`",
        );
        refused(
            &good.replacen("mlp 2 ", "mlp 0 ", 1),
            "expected `mlp HIDDEN",
        );
        refused(
            &good.replacen("mlp 2 156", "mlp 2 155", 1),
            "expected `mlp HIDDEN",
        );
        refused(
            &good.replacen("mlp 2 ", "mlp 3 ", 1),
            "the network ends before unit 2",
        );
        refused(&good.replacen("unit 1 ", "unit 7 ", 1), "expected `unit 1`");
        refused(
            &good.replacen("unit 1 ", "unit 1 inf ", 1),
            "not all finite",
        );
        refused(
            &good.replacen("unit 1 ", "unit 1 1 ", 1),
            "156 input weights",
        );
        let mut bad = w.clone();
        let t = tiny_net();
        bad.models[0].net = Some(Net::new(t.w1(), t.b1, vec![1.0]));
        let e = from_models(bad.models, "f").unwrap_err();
        assert!(
            e.contains("model `base`: a network of 2 hidden units"),
            "{e}"
        );
    }

    #[test]
    fn the_model_for_a_rule_set_is_the_nearest_by_expansions() {
        let w = weights(&[
            ("base", 1.0),
            ("abbot+river", 2.0),
            (
                "abbot+big_top+fortune_teller+river+toll_collectors+traders_builders",
                3.0,
            ),
        ]);
        assert_eq!(w.model_for(&Rules::base()).key, "base");
        assert_eq!(w.model_for(&Rules::default()).key, "abbot+river");
        let tb = Rules {
            traders_builders: Some(crate::engine::rules::Edition::C2),
            ..Rules::default()
        };
        assert_eq!(w.model_for(&tb).key, w.models[2].key);
        let river_only = Rules {
            abbot: false,
            ..Rules::default()
        };
        assert_eq!(w.model_for(&river_only).key, "abbot+river");
    }

    #[test]
    fn the_shipped_weights_match_the_engines_terms() {
        assert!(!BUILTIN.models.is_empty());
        for key in ["base", "abbot+river"] {
            assert!(
                BUILTIN.models.iter().any(|m| m.key == key),
                "no model {key}"
            );
        }
    }

    #[test]
    fn a_models_key_names_the_registrys_expansions_on_in_alphabetical_order() {
        assert_eq!(expansion_key(&Rules::base()), "base");
        assert_eq!(expansion_key(&Rules::default()), "abbot+river");
        // The shipped weights' key for every expansion: the file format does not change with
        // the registry's order.
        assert_eq!(
            expansion_key(&Rules::every_expansion()),
            "abbot+big_top+fortune_teller+river+toll_collectors+traders_builders"
        );
        let mut names = expansions::NAMES.to_vec();
        names.sort_unstable();
        assert_eq!(expansion_key(&Rules::every_expansion()), names.join("+"));
    }
}
