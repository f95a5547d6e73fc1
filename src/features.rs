//! Features (roads, cities, fields, rivers) as a union-find over placed segments. Each root
//! carries what scoring needs (open edges, coats of arms, figure count); members form a circular
//! list so a feature's segments can be walked without a search.

use crate::game::State;
use crate::geometry::{opposite_edge, opposite_half, EDGE_DELTA};
use crate::tiles::{SegmentKind, MAX_SEGS, NO_SEG};

pub const NO_FIGURE: u8 = u8::MAX;

/// Who stands on a segment: role and owner packed in a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Meeple = 0,
    Abbot = 1,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Meeple => "meeple",
            Role::Abbot => "abbot",
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
    let role = if f >> 3 == 1 { Role::Abbot } else { Role::Meeple };
    (role, f & 7)
}

/// One placed segment. Fields marked "root" are meaningful on the union-find root only.
#[derive(Clone, Copy, Debug)]
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
    pub arms: u8,
    /// Root: figures standing in the feature.
    pub nfig: u8,
}

impl State {
    #[inline]
    pub fn find(&self, mut s: u16) -> u16 {
        while self.segs[s as usize].parent != s {
            s = self.segs[s as usize].parent;
        }
        s
    }

    #[inline]
    fn find_compress(&mut self, mut s: u16) -> u16 {
        while self.segs[s as usize].parent != s {
            let p = self.segs[s as usize].parent;
            let gp = self.segs[p as usize].parent;
            self.segs[s as usize].parent = gp;
            s = gp;
        }
        s
    }

    pub(crate) fn union(&mut self, a: u16, b: u16) {
        let (ra, rb) = (self.find_compress(a), self.find_compress(b));
        if ra == rb {
            return;
        }
        let (big, small) = if self.segs[ra as usize].size >= self.segs[rb as usize].size {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let s = self.segs[small as usize];
        let b = &mut self.segs[big as usize];
        b.open += s.open;
        b.size += s.size;
        b.arms += s.arms;
        b.nfig += s.nfig;
        self.segs[small as usize].parent = big;
        // Splice the two circular member lists.
        let nb = self.segs[big as usize].next;
        self.segs[big as usize].next = s.next;
        self.segs[small as usize].next = nb;
    }

    /// Global segment id of segment `local` of placed tile `pi`.
    #[inline]
    pub fn seg_id(&self, pi: usize, local: u8) -> u16 {
        self.board.placed[pi].seg_base + local as u16
    }

    /// The segment of the neighbour across edge `side` of (x, y) that owns the touching edge.
    #[inline]
    pub(crate) fn edge_neighbour(&self, x: i16, y: i16, side: u8) -> Option<u16> {
        let (dx, dy) = EDGE_DELTA[side as usize];
        let n = self.board.at(x + dx, y + dy)?;
        let p = &self.board.placed[n];
        let local = self.cat.tile(p.tile).rot[p.rot as usize].edge_seg[opposite_edge(side) as usize];
        (local != NO_SEG).then(|| p.seg_base + local as u16)
    }

    /// The field segment of the neighbour touching half-edge `h` of (x, y).
    #[inline]
    pub(crate) fn half_neighbour(&self, x: i16, y: i16, h: u8) -> Option<u16> {
        let (dx, dy) = EDGE_DELTA[(h / 2) as usize];
        let n = self.board.at(x + dx, y + dy)?;
        let p = &self.board.placed[n];
        let local = self.cat.tile(p.tile).rot[p.rot as usize].half_seg[opposite_half(h) as usize];
        (local != NO_SEG).then(|| p.seg_base + local as u16)
    }

    /// Segments of `tile` placed at (x, y) with rotation `r` that a figure could take: bit i
    /// set when segment i's feature, after the placement, would hold no figure (B9). Joins
    /// through the new tile are followed: two of its segments touching one old feature end up
    /// in one feature.
    pub fn free_segments(&self, x: i16, y: i16, tile: u16, r: u8) -> u16 {
        let tt = self.cat.tile(tile);
        let ro = &tt.rot[r as usize];
        let n = tt.segments.len();
        // (segment, neighbour root) pairs.
        let mut pairs = [(0u8, 0u16); 2 * MAX_SEGS];
        let mut np = 0;
        let mut occ = [false; MAX_SEGS];
        for (i, seg) in tt.segments.iter().enumerate() {
            if !seg.kind.joins() {
                continue;
            }
            let ports = ro.ports[i];
            let mut push = |nb: Option<u16>, occ: &mut [bool; MAX_SEGS]| {
                if let Some(g) = nb {
                    let root = self.find(g);
                    if self.segs[root as usize].nfig > 0 {
                        occ[i] = true;
                    }
                    if np < pairs.len() {
                        pairs[np] = (i as u8, root);
                        np += 1;
                    }
                }
            };
            if seg.kind.uses_halves() {
                for h in 0..8u8 {
                    if ports & (1 << h) != 0 {
                        push(self.half_neighbour(x, y, h), &mut occ);
                    }
                }
            } else {
                for e in 0..4u8 {
                    if ports & (1 << e) != 0 {
                        push(self.edge_neighbour(x, y, e), &mut occ);
                    }
                }
            }
        }
        // Segments sharing a neighbour root are one feature: propagate occupancy to a fixpoint.
        let mut changed = true;
        while changed {
            changed = false;
            for a in 0..np {
                for b in (a + 1)..np {
                    let (ia, ra) = pairs[a];
                    let (ib, rb) = pairs[b];
                    if ra == rb && ia != ib && occ[ia as usize] != occ[ib as usize] {
                        occ[ia as usize] = true;
                        occ[ib as usize] = true;
                        changed = true;
                    }
                }
            }
        }
        let mut free = 0u16;
        for (i, seg) in tt.segments.iter().enumerate().take(n) {
            let ok = match seg.kind {
                SegmentKind::River => false,
                SegmentKind::Monastery | SegmentKind::Garden => true,
                _ => !occ[i],
            };
            if ok {
                free |= 1 << i;
            }
        }
        free
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
