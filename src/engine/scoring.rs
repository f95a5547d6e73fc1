//! Scoring of roads, cities, monasteries, gardens and fields: during the game when a feature is
//! completed (B12-B19, A3) and at the end (B21-B22, A5).

use crate::engine::features::{unpack_figure, Role, NO_FIGURE};
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::score_log;
use crate::engine::state::State;
use crate::engine::tiles::SegmentKind;
use crate::expansions;

/// Where points come from, for the per-player breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Source {
    Roads = 0,
    Cities = 1,
    Monasteries = 2,
    Gardens = 3,
    Fields = 4,
    /// Traders & Builders: goods majorities (TB2).
    Goods = 5,
    /// Traders & Builders: pig scoring (TB10) or the C2 pig's field bonus (TB12).
    Pigs = 6,
    /// Toll Collectors: tollhouses (TC3, TC6).
    Tolls = 7,
    /// Fortune Teller: completed tents (FT5).
    FortuneTellers = 8,
    /// Under the Big Top: circus scoring (BT3, BT4).
    Circus = 9,
    /// Under the Big Top: acrobat pyramids (BT8, BT9).
    Acrobats = 10,
    /// Under the Big Top: the ringmaster's bonus (BT11).
    Ringmaster = 11,
}

pub const N_SOURCES: usize = 12;
pub const SOURCE_NAMES: [&str; N_SOURCES] = [
    "roads",
    "cities",
    "monasteries",
    "gardens",
    "fields",
    "goods",
    "pigs",
    "tolls",
    "fortune_tellers",
    "circus",
    "acrobats",
    "ringmaster",
];

impl State {
    #[inline]
    pub(crate) fn award(&mut self, player: u8, source: Source, points: u16) {
        self.scores[player as usize][source as usize] += points;
        score_log::points(player, source, points);
    }

    /// Figure strength per player in the feature with root `root`.
    pub(crate) fn strengths(&self, root: u16) -> [u8; MAX_PLAYERS] {
        let mut st = [0u8; MAX_PLAYERS];
        if self.segs[root as usize].nfig == 0 {
            return st;
        }
        let mut s = root;
        loop {
            let seg = &self.segs[s as usize];
            if seg.figure != NO_FIGURE {
                let (role, owner) = unpack_figure(seg.figure);
                st[owner as usize] += role.strength();
            }
            s = seg.next;
            if s == root {
                break;
            }
        }
        st
    }

    /// Give `points` to every player with the most strength (B16: ties all score in full).
    /// Returns the winners as a bit mask.
    fn award_majority(&mut self, st: &[u8; MAX_PLAYERS], source: Source, points: u16) -> u8 {
        let best = *st.iter().max().unwrap_or(&0);
        if best == 0 {
            return 0;
        }
        let mut winners = 0;
        for p in 0..self.players {
            if st[p as usize] == best {
                winners |= 1 << p;
                if points > 0 {
                    self.award(p, source, points);
                }
            }
        }
        winners
    }

    /// Value of a road or city with root `root` (B12, B13, B21).
    pub fn feature_value(&self, root: u16, complete: bool) -> u16 {
        self.feature_value_of(root, self.feature_tiles(root), complete)
    }

    /// `feature_value` of the feature with root `root` that spans `tiles` tiles
    /// (`feature_tiles`), for a caller that knows them already.
    pub(crate) fn feature_value_of(&self, root: u16, tiles: u16, complete: bool) -> u16 {
        let seg = &self.segs[root as usize];
        match seg.kind {
            SegmentKind::Road => tiles,
            SegmentKind::City => {
                let arms = seg.arms;
                if !complete || (self.rules.small_city && tiles == 2) {
                    tiles + arms
                } else {
                    2 * tiles + 2 * arms
                }
            }
            _ => 0,
        }
    }

    /// Score a completed road or city and return its figures (B12-B19).
    pub(crate) fn score_completed(&mut self, root: u16) {
        if self.segs[root as usize].nfig == 0 {
            return; // B18: complete, but nobody scores
        }
        let source = match self.segs[root as usize].kind {
            SegmentKind::Road => Source::Roads,
            SegmentKind::City => Source::Cities,
            _ => return,
        };
        let logged = score_log::feature(root);
        let st = self.strengths(root);
        let points = self.feature_value(root, true);
        let winners = self.award_majority(&st, source, points);
        let kind = self.segs[root as usize].kind;
        expansions::feature_scored(self, root, kind, winners, 0);
        self.return_figures(root);
        score_log::feature_done(logged);
    }

    /// Return every figure of a feature to its owner's supply (B17).
    pub(crate) fn return_figures(&mut self, root: u16) {
        let mut s = root;
        loop {
            let f = self.segs[s as usize].figure;
            if f != NO_FIGURE {
                self.take_back(s);
            }
            s = self.segs[s as usize].next;
            if s == root {
                break;
            }
        }
        self.segs[root as usize].nfig = 0;
        self.segs[root as usize].owners = 0;
        expansions::figures_returned(self, root);
    }

    /// Lift the figure off segment `s` into its owner's supply.
    pub(crate) fn take_back(&mut self, s: u16) {
        let (role, owner) = unpack_figure(self.segs[s as usize].figure);
        self.segs[s as usize].figure = NO_FIGURE;
        let root = self.find(s);
        self.segs[root as usize].nfig -= 1;
        self.refresh_owners(root);
        if role == Role::Meeple {
            self.meeples[owner as usize] += 1;
        }
        score_log::returned(s, role, owner);
        expansions::figure_returned(self, s, role, owner);
    }

    /// Recompute which players have figures in the feature with root `root`.
    pub(crate) fn refresh_owners(&mut self, root: u16) {
        let mut owners = 0u8;
        let mut s = root;
        loop {
            let f = self.segs[s as usize].figure;
            if f != NO_FIGURE {
                owners |= 1 << unpack_figure(f).1;
            }
            s = self.segs[s as usize].next;
            if s == root {
                break;
            }
        }
        self.segs[root as usize].owners = owners;
    }

    /// A monastery or garden on the tile at (x, y) is complete: all 8 tiles around it (B15).
    #[inline]
    pub fn cloister_complete(&self, x: i16, y: i16) -> bool {
        self.board.neighbours8(x, y) == 8
    }

    /// Monastery or garden on placed tile `pi`: 1 point for its tile plus 1 per neighbour.
    pub fn cloister_value(&self, pi: usize) -> u16 {
        let p = &self.board.placed[pi];
        1 + self.board.neighbours8(p.x, p.y) as u16
    }

    /// Score the figure standing on the monastery or garden segment `g` (B15, A3, A4, A5).
    pub(crate) fn score_cloister(&mut self, g: u16) {
        let f = self.segs[g as usize].figure;
        if f == NO_FIGURE {
            return;
        }
        let (_, owner) = unpack_figure(f);
        let source = match self.segs[g as usize].kind {
            SegmentKind::Garden => Source::Gardens,
            _ => Source::Monasteries,
        };
        let points = self.cloister_value(self.segs[g as usize].placed as usize);
        let logged = score_log::feature(g);
        self.award(owner, source, points);
        let kind = self.segs[g as usize].kind;
        expansions::feature_scored(self, g, kind, 1 << owner, 0);
        score_log::feature_done(logged);
    }

    /// Score monasteries and gardens around (x, y) that the tile there completed (B15, A3).
    pub(crate) fn score_completed_cloisters(&mut self, x: i16, y: i16) {
        let mut done = [0u16; 18];
        let n = self.completed_cloisters_around(x, y, &mut done);
        for &g in &done[..n] {
            let logged = score_log::feature(g);
            self.score_cloister(g);
            self.take_back(g);
            score_log::feature_done(logged);
        }
    }

    /// The monastery and garden segments on the tile at (x, y) and the 8 around it that hold
    /// a figure and are complete (at most 9 tiles x 2 segments), into `out`; returns how
    /// many. A plain loop: it runs after every placement, mostly to find none.
    fn completed_cloisters_around(&self, x: i16, y: i16, out: &mut [u16; 18]) -> usize {
        let mut n = 0;
        self.board.cloisters_around_and_self(x, y, |p| {
            let tt = self.cat.tile(p.tile);
            let mut complete = None;
            let mut check = |local: u8| {
                if local == crate::engine::tiles::NO_SEG {
                    return;
                }
                let g = p.seg_base + local as u16;
                if self.segs[g as usize].figure != NO_FIGURE
                    && *complete.get_or_insert_with(|| self.cloister_complete(p.x, p.y))
                {
                    out[n] = g;
                    n += 1;
                }
            };
            check(tt.monastery);
            check(tt.garden);
        });
        n
    }

    /// Could the tile just laid at placed index `pi` (before the rest of its turn) score
    /// anything this turn part? False only when none of its roads and cities is complete,
    /// no cloister around it with a figure is complete, the bag is not empty (no final
    /// scoring) and no expansion scores the laid tile by itself. A look-ahead (the greedy
    /// player) then knows the placement's points now are nil without playing the turn out.
    pub(crate) fn laid_tile_may_score(&self, pi: usize) -> bool {
        if self.bag.is_empty() {
            return true;
        }
        let p = self.board.placed[pi];
        let n = self.cat.tile(p.tile).segments.len();
        for g in p.seg_base..p.seg_base + n as u16 {
            let seg = self.segs[g as usize];
            if matches!(seg.kind, SegmentKind::City | SegmentKind::Road)
                && self.segs[seg.parent as usize].open == 0
            {
                return true;
            }
        }
        if self.completed_cloisters_around(p.x, p.y, &mut [0; 18]) > 0 {
            return true;
        }
        crate::expansions::laid_tile_scores(self, pi)
    }

    /// Final scoring (B21, B22, A5; TB2, TB12). Figures stay where they are.
    pub(crate) fn final_scoring(&mut self) {
        crate::expansions::final_scoring(self);
        let n = self.segs.len() as u16;
        for g in 0..n {
            let seg = self.segs[g as usize];
            match seg.kind {
                SegmentKind::Monastery | SegmentKind::Garden => self.score_cloister(g),
                SegmentKind::Road | SegmentKind::City => {
                    if seg.parent == g && seg.nfig > 0 && seg.open > 0 {
                        let st = self.strengths(g);
                        let points = self.feature_value(g, false);
                        let source = if seg.kind == SegmentKind::Road {
                            Source::Roads
                        } else {
                            Source::Cities
                        };
                        let logged = score_log::feature(g);
                        let winners = self.award_majority(&st, source, points);
                        expansions::feature_scored(self, g, seg.kind, winners, 0);
                        score_log::feature_done(logged);
                    }
                }
                SegmentKind::Field => {
                    if seg.parent == g && seg.nfig > 0 {
                        let st = self.strengths(g);
                        let cities = self.count_completed_cities_of_field(g);
                        let logged = score_log::feature(g);
                        let winners = self.award_majority(&st, Source::Fields, 3 * cities);
                        expansions::feature_scored(self, g, seg.kind, winners, cities);
                        score_log::feature_done(logged);
                    }
                }
                SegmentKind::River
                | SegmentKind::Tent
                | SegmentKind::BigTop
                | SegmentKind::Acrobat => {}
            }
        }
    }

    /// Every city bordering the field with root `root` (B22), completed or not, by root, once
    /// per field segment touching it (so a city may come more than once). The one walk of a
    /// field's cities: scoring and the players' valuations go through it.
    #[inline]
    pub(crate) fn each_city_of_field(&self, root: u16, mut f: impl FnMut(u16)) {
        self.each_city_segment_of_field(root, |c| f(self.find(c)));
    }

    /// `each_city_of_field`, giving the city segment next to the field's rather than its
    /// root.
    #[inline]
    pub(crate) fn each_city_segment_of_field(&self, root: u16, mut f: impl FnMut(u16)) {
        let mut s = root;
        loop {
            let seg = &self.segs[s as usize];
            let p = &self.board.placed[seg.placed as usize];
            let mut cities = self.cat.tile(p.tile).segments[seg.local as usize].cities;
            while cities != 0 {
                let c = cities.trailing_zeros() as u16;
                cities &= cities - 1;
                f(p.seg_base + c);
            }
            s = seg.next;
            if s == root {
                break;
            }
        }
    }

    /// Every completed city bordering the field with root `root` (B22), as
    /// `each_city_of_field` gives them.
    #[inline]
    fn each_completed_city_of_field(&self, root: u16, mut f: impl FnMut(u16)) {
        self.each_city_of_field(root, |croot| {
            if self.segs[croot as usize].open == 0 {
                f(croot);
            }
        });
    }

    /// How many completed cities the field with root `root` borders (B22), without
    /// allocating (final scoring runs once per rollout in a search).
    pub fn count_completed_cities_of_field(&self, root: u16) -> u16 {
        let mut seen = [0u16; 32];
        let mut n = 0usize;
        let mut overflow = false;
        self.each_completed_city_of_field(root, |croot| {
            if !seen[..n].contains(&croot) {
                if n < seen.len() {
                    seen[n] = croot;
                    n += 1;
                } else {
                    overflow = true;
                }
            }
        });
        if overflow {
            // More than 32 cities: count with a list instead.
            let mut all = Vec::new();
            self.completed_cities_of_field(root, &mut all);
            return all.len() as u16;
        }
        n as u16
    }

    /// Roots of the completed cities that the field with root `root` borders, each once (B22).
    pub fn completed_cities_of_field(&self, root: u16, out: &mut Vec<u16>) {
        self.each_completed_city_of_field(root, |croot| {
            if !out.contains(&croot) {
                out.push(croot);
            }
        });
    }
}
