//! Features (roads, cities, fields, rivers) as a union-find over placed segments. Each root
//! carries what scoring needs (open edges, coats of arms, figure count); members form a circular
//! list so a feature's segments can be walked without a search.

use crate::engine::board::{Open, NO_NEIGHBOUR};
use crate::engine::state::State;
use crate::engine::tiles::SegmentKind;

pub const NO_FIGURE: u8 = u8::MAX;
const NONE_ROOT: u16 = u16::MAX;

/// The features touching an empty position (see `State::around`).
#[derive(Clone, Copy, Debug)]
pub struct Around {
    pub edge_root: [u16; 4],
    pub half_root: [u16; 8],
    pub occ_edge: u8,
    pub occ_half: u8,
}

/// Who stands on a segment: role and owner packed in a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Meeple = 0,
    Abbot = 1,
    /// Under the Big Top: strength 1, a normal meeple but for acrobat spaces (BT10).
    Ringmaster = 2,
}

impl Role {
    /// Every role, in the order of their numbers.
    pub const ALL: [Role; 3] = [Role::Meeple, Role::Abbot, Role::Ringmaster];

    pub fn name(self) -> &'static str {
        match self {
            Role::Meeple => "meeple",
            Role::Abbot => "abbot",
            Role::Ringmaster => "ringmaster",
        }
    }
    /// Strength in majorities (B16).
    pub fn strength(self) -> u8 {
        1
    }
}

#[inline]
pub fn pack_figure(role: Role, owner: u8) -> u8 {
    ((role as u8) << 3) | owner
}

#[inline]
pub fn unpack_figure(f: u8) -> (Role, u8) {
    let role = match f >> 3 {
        1 => Role::Abbot,
        2 => Role::Ringmaster,
        _ => Role::Meeple,
    };
    (role, f & 7)
}

/// One placed segment. Fields marked "root" are meaningful on the union-find root only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegState {
    pub parent: u16,
    /// Next member of the same feature (circular list).
    pub next: u16,
    /// Index of the placed tile.
    pub placed: u16,
    /// Root: open edges of a city, road or river; zero means complete.
    pub open: u16,
    /// Root: number of segments (union by size).
    pub size: u16,
    pub local: u8,
    pub kind: SegmentKind,
    pub figure: u8,
    /// Root: coats of arms.
    pub arms: u16,
    /// Root: figures standing in the feature.
    pub nfig: u8,
    /// Root: bit p set when player p has a figure in the feature.
    pub owners: u8,
}

impl State {
    /// The root of a segment's feature: one load, because every member points at its root
    /// (union relabels the smaller feature's members).
    #[inline]
    pub fn find(&self, s: u16) -> u16 {
        self.segs[s as usize].parent
    }

    /// Global segment id of segment `local` of placed tile `pi`.
    #[inline]
    pub fn seg_id(&self, pi: usize, local: u8) -> u16 {
        self.board.placed[pi].seg_base + local as u16
    }

    /// What touches open position `o`: the feature root behind each edge and half-edge and
    /// which of them hold figures. Computed once per position, shared by all rotations.
    #[inline]
    pub fn around_open(&self, o: &Open) -> Around {
        let mut a = Around {
            edge_root: [NONE_ROOT; 4],
            half_root: [NONE_ROOT; 8],
            occ_edge: 0,
            occ_half: 0,
        };
        for e in 0..4 {
            let g = o.edge_seg[e];
            if g != NO_NEIGHBOUR {
                let root = self.find(g);
                a.edge_root[e] = root;
                if self.segs[root as usize].nfig > 0 {
                    a.occ_edge |= 1 << e;
                }
            }
        }
        for h in 0..8 {
            let g = o.half_seg[h];
            if g != NO_NEIGHBOUR {
                let root = self.find(g);
                a.half_root[h] = root;
                if self.segs[root as usize].nfig > 0 {
                    a.occ_half |= 1 << h;
                }
            }
        }
        a
    }

    /// `around_open` for any empty position (on the frontier or not).
    pub fn around(&self, x: i16, y: i16) -> Around {
        match self.board.open_at(x, y) {
            Some(o) => self.around_open(o),
            None => Around {
                edge_root: [NONE_ROOT; 4],
                half_root: [NONE_ROOT; 8],
                occ_edge: 0,
                occ_half: 0,
            },
        }
    }

    /// Segments of `tile` placed with rotation `r` where `around` was taken that a figure
    /// could take: bit i set when segment i's feature, after the placement, would hold no
    /// figure (B9).
    pub fn free_segments_at(&self, around: &Around, tile: u16, r: u8) -> u16 {
        let tt = self.cat.tile(tile);
        let occ = self.touching(around, tile, r, around.occ_edge, around.occ_half);
        tt.always_free_mask | (tt.joins_mask & !occ)
    }

    /// Segments (cities, roads, fields) of `tile` placed with rotation `r` whose feature, after
    /// the placement, holds a meeple of `player` (C2 builder and pig, TB8, TB12).
    pub fn own_segments_at(&self, around: &Around, tile: u16, r: u8, player: u8) -> u16 {
        let (mut e, mut h) = (0u8, 0u8);
        for k in 0..4 {
            let root = around.edge_root[k];
            if root != NONE_ROOT && self.segs[root as usize].owners & (1 << player) != 0 {
                e |= 1 << k;
            }
        }
        for k in 0..8 {
            let root = around.half_root[k];
            if root != NONE_ROOT && self.segs[root as usize].owners & (1 << player) != 0 {
                h |= 1 << k;
            }
        }
        self.touching(around, tile, r, e, h)
    }

    /// Which of the roads and cities `of` (a mask of segments) of `tile` placed with rotation
    /// `r` where `around` was taken the placement completes: no open edge is left on the
    /// feature they join (a builder there would return at once, TB4, TB8). Two of the tile's
    /// segments meeting one old feature are one feature.
    pub fn completed_segments_at(&self, around: &Around, tile: u16, r: u8, of: u16) -> u16 {
        let tt = self.cat.tile(tile);
        let ro = &tt.rot[r as usize];
        let edges = |i: usize| ro.ports[i] & 0xF;
        let mut done = 0u16;
        let mut left = tt.road_city_mask;
        while left & of != 0 {
            // The feature of the lowest segment left: the segments reaching its old roots.
            let mut group = 1u16 << (left & of).trailing_zeros();
            let mut roots = [NONE_ROOT; 4];
            let mut n = 0;
            loop {
                let mut joined = group;
                for i in 0..tt.segments.len() {
                    if group & (1 << i) == 0 {
                        continue;
                    }
                    for e in 0..4 {
                        let root = around.edge_root[e];
                        if edges(i) & (1 << e) != 0 && root != NONE_ROOT && !roots.contains(&root) {
                            roots[n] = root;
                            n += 1;
                        }
                    }
                }
                for j in 0..tt.segments.len() {
                    let reaches = (0..4).any(|e| {
                        edges(j) & (1 << e) != 0 && roots[..n].contains(&around.edge_root[e])
                    });
                    if left & (1 << j) != 0 && reaches {
                        joined |= 1 << j;
                    }
                }
                if joined == group {
                    break;
                }
                group = joined;
            }
            // Open edges after the placement: the old features' own, less each edge this tile
            // closes, plus each edge of the tile that faces no neighbour.
            let mut open: i32 = roots[..n]
                .iter()
                .map(|&x| self.segs[x as usize].open as i32)
                .sum();
            for i in 0..tt.segments.len() {
                if group & (1 << i) == 0 {
                    continue;
                }
                for e in 0..4 {
                    if edges(i) & (1 << e) != 0 {
                        open += if around.edge_root[e] == NONE_ROOT {
                            1
                        } else {
                            -1
                        };
                    }
                }
            }
            if open == 0 {
                done |= group;
            }
            left &= !group;
        }
        done & of
    }

    /// Joining segments of the placement whose feature touches a marked edge or half-edge of
    /// `around` (`edges`, `halves`). Joins through the new tile are followed: two of its
    /// segments touching one old feature end up in one feature.
    fn touching(&self, around: &Around, tile: u16, r: u8, edges: u8, halves: u8) -> u16 {
        if edges | halves == 0 {
            return 0; // the common case: no figure next to the position
        }
        let tt = self.cat.tile(tile);
        let ro = &tt.rot[r as usize];
        let joins = tt.joins_mask;
        // Each marked edge or half-edge belongs to at most one segment (the catalogue checks
        // it), so the marked segments are read off the rotation's tables.
        let mut hit = 0u16;
        let mut bits = edges & 0xF;
        while bits != 0 {
            let l = ro.edge_seg[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            if l != crate::engine::tiles::NO_SEG {
                hit |= 1 << l;
            }
        }
        let mut bits = halves;
        while bits != 0 {
            let l = ro.half_seg[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            if l != crate::engine::tiles::NO_SEG {
                hit |= 1 << l;
            }
        }
        hit &= joins;
        // A segment sharing an old feature with a marked segment is marked too.
        if hit != 0 && joins & !hit & tt.shared_kind_mask != 0 {
            let roots = |i: usize| -> ([u16; 8], usize) {
                let mut out = [NONE_ROOT; 8];
                let mut n = 0;
                let ports = ro.ports[i];
                if tt.segments[i].kind.uses_halves() {
                    for h in 0..8 {
                        if ports & (1 << h) != 0 && around.half_root[h] != NONE_ROOT {
                            out[n] = around.half_root[h];
                            n += 1;
                        }
                    }
                } else {
                    for e in 0..4 {
                        if ports & (1 << e) != 0 && around.edge_root[e] != NONE_ROOT {
                            out[n] = around.edge_root[e];
                            n += 1;
                        }
                    }
                }
                (out, n)
            };
            let mut changed = true;
            while changed {
                changed = false;
                let mut todo = joins & !hit & tt.shared_kind_mask;
                while todo != 0 {
                    let j = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let (rj, nj) = roots(j);
                    if nj == 0 {
                        continue;
                    }
                    let mut cand = hit & tt.shared_kind_mask;
                    while cand != 0 {
                        let i = cand.trailing_zeros() as usize;
                        cand &= cand - 1;
                        if tt.segments[i].kind != tt.segments[j].kind {
                            continue;
                        }
                        let (ri, ni) = roots(i);
                        if ri[..ni].iter().any(|r| rj[..nj].contains(r)) {
                            hit |= 1 << j;
                            changed = true;
                            break;
                        }
                    }
                }
            }
        }
        hit
    }

    /// `free_segments_at` for a single placement.
    pub fn free_segments(&self, x: i16, y: i16, tile: u16, r: u8) -> u16 {
        self.free_segments_at(&self.around(x, y), tile, r)
    }

    /// Number of distinct tiles in the feature with root `root` (B14: a tile counts once even
    /// when the feature crosses it on two segments).
    pub fn feature_tiles(&self, root: u16) -> u16 {
        let mut count = 0;
        let mut s = root;
        loop {
            let st = &self.segs[s as usize];
            let p = &self.board.placed[st.placed as usize];
            let tt = self.cat.tile(p.tile);
            // Count this tile at its lowest-numbered segment in the feature.
            let first = (0..st.local).any(|l| {
                tt.segments[l as usize].kind == st.kind && self.find(p.seg_base + l as u16) == root
            });
            if !first {
                count += 1;
            }
            s = st.next;
            if s == root {
                break;
            }
        }
        count
    }

    /// Members of the feature containing segment `g`.
    pub fn members(&self, g: u16) -> Vec<u16> {
        let root = self.find(g);
        let mut out = vec![root];
        let mut s = self.segs[root as usize].next;
        while s != root {
            out.push(s);
            s = self.segs[s as usize].next;
        }
        out
    }
}

/// Merge the features of segments `a` and `b` (a free function so that tile laying can hold
/// the catalogue and the board while it merges).
pub(crate) fn union(segs: &mut Segs, a: u16, b: u16) {
    let (ra, rb) = (segs[a as usize].parent, segs[b as usize].parent);
    if ra == rb {
        return;
    }
    let (big, small) = if segs[ra as usize].size >= segs[rb as usize].size {
        (ra, rb)
    } else {
        (rb, ra)
    };
    let s = segs[small as usize];
    // Each segment is written once (one entry in an undo log): the big root takes the small
    // feature's totals and the head of its member list (splicing the two circular lists).
    let b = &mut segs[big as usize];
    b.open += s.open;
    b.size += s.size;
    b.arms += s.arms;
    b.nfig += s.nfig;
    b.owners |= s.owners;
    let nb = b.next;
    b.next = s.next;
    let sm = &mut segs[small as usize];
    sm.parent = big;
    sm.next = nb;
    // Relabel the smaller feature's other members (amortised O(log n) per segment).
    let mut m = s.next;
    while m != small {
        let seg = &mut segs[m as usize];
        seg.parent = big;
        m = seg.next;
    }
}

/// Every placed segment, indexed by global segment id, with an optional undo log: while
/// recording, each write through `segs[i]` first saves the old value of a segment that
/// existed when recording started, so a look-ahead (the greedy player tries every placement
/// on one copy) returns to the original in time proportional to what it changed rather than
/// copying every segment back. Reads go through `Deref` to the slice and cost nothing extra.
#[derive(Debug, Default)]
pub struct Segs {
    v: Vec<SegState>,
    /// Segments existing when recording started; `None` when not recording.
    recorded: Option<usize>,
    log: Vec<(u16, SegState)>,
    /// The next `clone_from` is an undo (`State::undo_to`).
    undo_next: bool,
}

impl Segs {
    pub fn with_capacity(n: usize) -> Segs {
        Segs {
            v: Vec::with_capacity(n),
            ..Segs::default()
        }
    }

    #[inline]
    pub fn push(&mut self, s: SegState) {
        self.v.push(s);
    }

    /// Start logging writes (discarding any earlier log).
    pub(crate) fn record(&mut self) {
        self.recorded = Some(self.v.len());
        self.log.clear();
    }

    /// While recording: how many segments there were when it began, and the segments of
    /// those written since (some more than once). A segment not among them is as it was.
    pub(crate) fn written(&self) -> Option<(usize, impl Iterator<Item = u16> + '_)> {
        self.recorded.map(|n| (n, self.log.iter().map(|&(i, _)| i)))
    }

    /// Make the next `clone_from` an `undo` (its source must be the recorded one).
    pub(crate) fn undo_on_next_copy(&mut self) {
        self.undo_next = true;
    }

    /// Return every segment to its value when `record` was called, and keep recording.
    pub(crate) fn undo(&mut self) {
        let Some(n) = self.recorded else {
            return;
        };
        self.v.truncate(n);
        for &(i, old) in self.log.iter().rev() {
            self.v[i as usize] = old;
        }
        self.log.clear();
    }
}

impl Clone for Segs {
    fn clone(&self) -> Segs {
        Segs {
            v: self.v.clone(),
            recorded: None,
            log: Vec::new(),
            undo_next: false,
        }
    }

    /// Reuses the buffers; the copy does not record.
    fn clone_from(&mut self, o: &Segs) {
        if std::mem::take(&mut self.undo_next) && self.recorded.is_some() {
            self.undo();
            return;
        }
        self.v.clone_from(&o.v);
        self.recorded = None;
        self.log.clear();
    }
}

impl std::ops::Deref for Segs {
    type Target = [SegState];
    #[inline]
    fn deref(&self) -> &[SegState] {
        &self.v
    }
}

impl std::ops::Index<usize> for Segs {
    type Output = SegState;
    #[inline]
    fn index(&self, i: usize) -> &SegState {
        &self.v[i]
    }
}

impl std::ops::IndexMut<usize> for Segs {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut SegState {
        if let Some(n) = self.recorded {
            if i < n {
                self.log.push((i as u16, self.v[i]));
            }
        }
        &mut self.v[i]
    }
}
