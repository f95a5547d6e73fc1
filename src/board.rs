//! The board: which tile lies where, and the open frontier with each open position's edge
//! constraint kept incrementally, so that legality is two integer operations per rotation.

use crate::geometry::{opposite_edge, opposite_half, EDGE_DELTA};
use crate::tiles::{Catalogue, NO_SEG};

pub const NO_NEIGHBOUR: u16 = u16::MAX;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub x: i16,
    pub y: i16,
    pub tile: u16,
    pub rot: u8,
    /// Index of this tile's first segment in the feature arrays.
    pub seg_base: u16,
}

/// An empty position next to at least one tile, with the edges a tile placed there must show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Open {
    pub x: i16,
    pub y: i16,
    /// 2 bits per side: which sides have a neighbour (0b11) ...
    pub mask: u8,
    /// ... and the edge kind each neighbour requires there.
    pub want: u8,
    /// Global id of the neighbour segment behind each edge and half-edge (fixed while the
    /// position is open, so move generation needs no board look-ups).
    pub edge_seg: [u16; 4],
    pub half_seg: [u16; 8],
}

impl Open {
    /// Does a tile with edge signature `sig` fit here?
    #[inline]
    pub fn fits(&self, sig: u8) -> bool {
        sig & self.mask == self.want
    }
}

#[derive(Clone, Debug)]
pub struct Board {
    min_x: i16,
    min_y: i16,
    w: i16,
    h: i16,
    /// Placed index + 1, or 0 for an empty cell.
    cells: Vec<u16>,
    pub placed: Vec<Placed>,
    pub frontier: Vec<Open>,
}

const INITIAL: i16 = 24;

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    pub fn new() -> Board {
        Board {
            min_x: -INITIAL / 2,
            min_y: -INITIAL / 2,
            w: INITIAL,
            h: INITIAL,
            cells: vec![0; (INITIAL as usize) * (INITIAL as usize)],
            placed: Vec::with_capacity(96),
            frontier: Vec::with_capacity(64),
        }
    }

    #[inline]
    fn index(&self, x: i16, y: i16) -> Option<usize> {
        let dx = x.wrapping_sub(self.min_x);
        let dy = y.wrapping_sub(self.min_y);
        if dx < 0 || dy < 0 || dx >= self.w || dy >= self.h {
            None
        } else {
            Some(dx as usize + dy as usize * self.w as usize)
        }
    }

    /// Index into `placed` of the tile at (x, y).
    #[inline]
    pub fn at(&self, x: i16, y: i16) -> Option<usize> {
        match self.index(x, y) {
            Some(i) if self.cells[i] != 0 => Some(self.cells[i] as usize - 1),
            _ => None,
        }
    }

    #[inline]
    pub fn occupied(&self, x: i16, y: i16) -> bool {
        self.at(x, y).is_some()
    }

    pub fn len(&self) -> usize {
        self.placed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// Grow the grid so that (x, y) and its neighbours are inside it.
    fn ensure(&mut self, x: i16, y: i16) {
        let inside = |b: &Board| {
            x - 1 >= b.min_x && y - 1 >= b.min_y && x + 1 < b.min_x + b.w && y + 1 < b.min_y + b.h
        };
        if inside(self) {
            return;
        }
        let (mut nx, mut ny, mut nw, mut nh) = (self.min_x, self.min_y, self.w, self.h);
        while !(x - 1 >= nx && y - 1 >= ny && x + 1 < nx + nw && y + 1 < ny + nh) {
            nx -= nw / 2;
            ny -= nh / 2;
            nw *= 2;
            nh *= 2;
        }
        let mut cells = vec![0u16; nw as usize * nh as usize];
        for p in &self.placed {
            let i = (p.x - nx) as usize + (p.y - ny) as usize * nw as usize;
            cells[i] = self.cells[self.index(p.x, p.y).expect("placed tile is on the grid")];
        }
        self.min_x = nx;
        self.min_y = ny;
        self.w = nw;
        self.h = nh;
        self.cells = cells;
    }

    /// The frontier entry of empty position (x, y), from its neighbours.
    fn open_entry(&self, x: i16, y: i16, cat: &Catalogue) -> Open {
        let mut o = Open {
            x,
            y,
            mask: 0,
            want: 0,
            edge_seg: [NO_NEIGHBOUR; 4],
            half_seg: [NO_NEIGHBOUR; 8],
        };
        for side in 0..4u8 {
            let (dx, dy) = EDGE_DELTA[side as usize];
            let Some(n) = self.at(x + dx, y + dy) else {
                continue;
            };
            let p = &self.placed[n];
            let ro = &cat.tile(p.tile).rot[p.rot as usize];
            let opp = opposite_edge(side);
            o.mask |= 3 << (2 * side);
            o.want |= ((ro.sig >> (2 * opp)) & 3) << (2 * side);
            let local = ro.edge_seg[opp as usize];
            if local != NO_SEG {
                o.edge_seg[side as usize] = p.seg_base + local as u16;
            }
            for h in [2 * side, 2 * side + 1] {
                let local = ro.half_seg[opposite_half(h) as usize];
                if local != NO_SEG {
                    o.half_seg[h as usize] = p.seg_base + local as u16;
                }
            }
        }
        o
    }

    /// Put a tile on the board (legality is the caller's business) and update the frontier.
    /// Returns the frontier entry the tile filled (its neighbours), if any.
    pub fn place(&mut self, p: Placed, cat: &Catalogue) -> Option<Open> {
        self.ensure(p.x, p.y);
        let i = self.index(p.x, p.y).expect("grid was grown");
        debug_assert_eq!(self.cells[i], 0);
        self.placed.push(p);
        self.cells[i] = self.placed.len() as u16;
        let filled = self
            .frontier
            .iter()
            .position(|o| o.x == p.x && o.y == p.y)
            .map(|k| self.frontier.swap_remove(k));
        for (dx, dy) in EDGE_DELTA {
            let (nx, ny) = (p.x + dx, p.y + dy);
            if self.occupied(nx, ny) {
                continue;
            }
            let entry = self.open_entry(nx, ny, cat);
            match self.frontier.iter_mut().find(|o| o.x == nx && o.y == ny) {
                Some(o) => *o = entry,
                None => self.frontier.push(entry),
            }
        }
        filled
    }

    /// The frontier entry for (x, y), if it is open.
    pub fn open_at(&self, x: i16, y: i16) -> Option<&Open> {
        self.frontier.iter().find(|o| o.x == x && o.y == y)
    }

    /// Number of the 8 positions around (x, y) that hold a tile.
    pub fn neighbours8(&self, x: i16, y: i16) -> u8 {
        crate::geometry::AROUND
            .iter()
            .filter(|(dx, dy)| self.occupied(x + dx, y + dy))
            .count() as u8
    }

    /// Bounding box (min_x, min_y, max_x, max_y) of the placed tiles.
    pub fn bounds(&self) -> (i16, i16, i16, i16) {
        let mut b = (i16::MAX, i16::MAX, i16::MIN, i16::MIN);
        for p in &self.placed {
            b = (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y));
        }
        b
    }
}
