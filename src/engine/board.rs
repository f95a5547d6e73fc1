//! The board: which tile lies where, and the open frontier with each open position's edge
//! constraint kept incrementally, so that legality is two integer operations per rotation.

use crate::engine::geometry::{opposite_edge, opposite_half, EDGE_DELTA};
use crate::engine::tiles::{Catalogue, NO_SEG};

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
    /// The tile has a monastery or garden (fills padding: completion checks around a new
    /// tile skip the catalogue for the others).
    pub cloister: bool,
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
    /// Record the tile `p` that now lies across edge `side`.
    #[inline]
    fn set_side(&mut self, side: u8, p: &Placed, cat: &Catalogue) {
        let ro = &cat.tile(p.tile).rot[p.rot as usize];
        let opp = opposite_edge(side);
        self.mask |= 3 << (2 * side);
        self.want |= ((ro.sig >> (2 * opp)) & 3) << (2 * side);
        let local = ro.edge_seg[opp as usize];
        if local != NO_SEG {
            self.edge_seg[side as usize] = p.seg_base + local as u16;
        }
        for h in [2 * side, 2 * side + 1] {
            let local = ro.half_seg[opposite_half(h) as usize];
            if local != NO_SEG {
                self.half_seg[h as usize] = p.seg_base + local as u16;
            }
        }
    }

    /// Does a tile with edge signature `sig` fit here?
    #[inline]
    pub fn fits(&self, sig: u8) -> bool {
        sig & self.mask == self.want
    }

    /// Which of up to four signatures packed in `sigs` (one per byte) fit here: the high
    /// bit of byte k is set when byte k fits. Branch-free: a byte-wise zero test of
    /// (sig & mask) ^ want.
    #[inline]
    pub fn fits4(&self, sigs: u32) -> u32 {
        let x = (sigs & (self.mask as u32 * 0x0101_0101)) ^ (self.want as u32 * 0x0101_0101);
        // High bit of each byte set when that byte is non-zero (exact, no borrow between bytes).
        let nonzero = (((x & 0x7F7F_7F7F) + 0x7F7F_7F7F) | x) & 0x8080_8080;
        !nonzero & 0x8080_8080
    }
}

#[derive(Debug)]
pub struct Board {
    min_x: i16,
    min_y: i16,
    w: i16,
    h: i16,
    /// 0 for an empty cell, placed index + 1 for a tile (with `CLOISTER` set when it has a
    /// monastery or garden), `FRONTIER | slot` for an open position (its index in
    /// `frontier`), so no look-up scans a list.
    cells: Vec<u16>,
    pub placed: Vec<Placed>,
    pub frontier: Vec<Open>,
    /// The grid's previous buffer, kept for the next growth: a search's copy that grows the
    /// grid in every rollout then allocates nothing once both buffers are large enough.
    spare: Vec<u16>,
    log: BoardLog,
}

/// Undo log of a board played on for a look-ahead (see `features::Segs`): the old values of
/// the cells and frontier entries that existed when recording started and were overwritten.
#[derive(Debug, Default)]
struct BoardLog {
    on: bool,
    /// The next `clone_from` is an undo to the recorded source (`State::undo_to`).
    undo_next: bool,
    placed: usize,
    frontier: usize,
    /// The grid grew: undo copies the whole board back.
    grown: bool,
    cells: Vec<(u32, u16)>,
    opens: Vec<(u16, Open)>,
}

const INITIAL: i16 = 24;
const FRONTIER: u16 = 0x8000;
/// On a tile's cell: the tile has a monastery or garden (`Placed::cloister`), so completion
/// checks around a placement read no tile without one.
const CLOISTER: u16 = 0x4000;

/// The cell of the tile with placed index `k`.
#[inline]
fn tile_cell(k: usize, p: &Placed) -> u16 {
    debug_assert!(k + 1 < CLOISTER as usize);
    (k as u16 + 1) | if p.cloister { CLOISTER } else { 0 }
}

/// A grid cell holding a tile, not empty or open.
#[inline]
fn is_tile(c: u16) -> bool {
    c != 0 && c & FRONTIER == 0
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            min_x: self.min_x,
            min_y: self.min_y,
            w: self.w,
            h: self.h,
            cells: self.cells.clone(),
            placed: self.placed.clone(),
            frontier: self.frontier.clone(),
            spare: Vec::new(),
            log: BoardLog::default(),
        }
    }

    /// Reuses this board's buffers (search and greedy policies copy states in a loop); the
    /// copy does not record.
    fn clone_from(&mut self, o: &Board) {
        if std::mem::take(&mut self.log.undo_next) {
            self.undo(o);
            return;
        }
        (self.min_x, self.min_y, self.w, self.h) = (o.min_x, o.min_y, o.w, o.h);
        self.cells.clone_from(&o.cells);
        self.placed.clone_from(&o.placed);
        self.frontier.clone_from(&o.frontier);
        self.log.on = false;
    }
}

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
            spare: Vec::new(),
            log: BoardLog::default(),
        }
    }

    /// Start logging changes (discarding any earlier log), for `undo`.
    pub(crate) fn record(&mut self) {
        let log = &mut self.log;
        (log.on, log.placed, log.frontier, log.grown) =
            (true, self.placed.len(), self.frontier.len(), false);
        log.cells.clear();
        log.opens.clear();
    }

    /// Make the next `clone_from(o)` an `undo(o)` (`o` must be the recorded source).
    pub(crate) fn undo_on_next_copy(&mut self) {
        self.log.undo_next = true;
    }

    /// Return to `o`, the board this one equalled when `record` was called, and keep
    /// recording.
    pub(crate) fn undo(&mut self, o: &Board) {
        if !self.log.on || self.log.grown {
            self.clone_from(o);
            self.record();
            return;
        }
        self.placed.truncate(self.log.placed);
        let n = self.log.frontier;
        // Entries removed from the end are restored by the log; `o` only fills the length.
        self.frontier.truncate(n);
        while self.frontier.len() < n {
            self.frontier.push(o.frontier[self.frontier.len()]);
        }
        for &(k, old) in self.log.opens.iter().rev() {
            self.frontier[k as usize] = old;
        }
        for &(i, old) in self.log.cells.iter().rev() {
            self.cells[i as usize] = old;
        }
        self.log.cells.clear();
        self.log.opens.clear();
    }

    #[inline]
    fn set_cell(&mut self, i: usize, v: u16) {
        if self.log.on {
            self.log.cells.push((i as u32, self.cells[i]));
        }
        self.cells[i] = v;
    }

    /// Note the old value of frontier entry `k` before it changes.
    #[inline]
    fn log_open(&mut self, k: usize) {
        if self.log.on && k < self.log.frontier {
            self.log.opens.push((k as u16, self.frontier[k]));
        }
    }

    #[inline]
    fn index(&self, x: i16, y: i16) -> Option<usize> {
        // One unsigned compare per axis: a position left of or below the grid wraps to a
        // large offset (the grid is far smaller than 2^15 a side).
        let dx = x.wrapping_sub(self.min_x) as u16;
        let dy = y.wrapping_sub(self.min_y) as u16;
        if dx >= self.w as u16 || dy >= self.h as u16 {
            None
        } else {
            Some(dx as usize + dy as usize * self.w as usize)
        }
    }

    /// Index into `placed` of the tile at (x, y).
    #[inline]
    pub fn at(&self, x: i16, y: i16) -> Option<usize> {
        match self.index(x, y) {
            Some(i) if is_tile(self.cells[i]) => Some((self.cells[i] & !CLOISTER) as usize - 1),
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
    #[inline]
    fn ensure(&mut self, x: i16, y: i16) {
        if !self.covers(x, y) {
            self.grow(x, y);
        }
    }

    /// (x, y) and the 8 positions around it are inside the grid (true of every placed tile).
    #[inline]
    fn covers(&self, x: i16, y: i16) -> bool {
        let dx = x.wrapping_sub(self.min_x).wrapping_sub(1) as u16;
        let dy = y.wrapping_sub(self.min_y).wrapping_sub(1) as u16;
        dx < (self.w - 2) as u16 && dy < (self.h - 2) as u16
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, x: i16, y: i16) {
        let covers =
            |mx: i16, my: i16, w: i16, h: i16| x > mx && y > my && x + 1 < mx + w && y + 1 < my + h;
        let (mut nx, mut ny, mut nw, mut nh) = (self.min_x, self.min_y, self.w, self.h);
        while !covers(nx, ny, nw, nh) {
            nx -= nw / 2;
            ny -= nh / 2;
            nw *= 2;
            nh *= 2;
        }
        let mut cells = std::mem::take(&mut self.spare);
        cells.clear();
        cells.resize(nw as usize * nh as usize, 0);
        let at = |x: i16, y: i16| (x - nx) as usize + (y - ny) as usize * nw as usize;
        for (k, p) in self.placed.iter().enumerate() {
            cells[at(p.x, p.y)] = tile_cell(k, p);
        }
        for (k, o) in self.frontier.iter().enumerate() {
            cells[at(o.x, o.y)] = FRONTIER | k as u16;
        }
        self.min_x = nx;
        self.min_y = ny;
        self.w = nw;
        self.h = nh;
        self.spare = std::mem::replace(&mut self.cells, cells);
        self.log.grown = true;
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
            if let Some(n) = self.at(x + dx, y + dy) {
                o.set_side(side, &self.placed[n], cat);
            }
        }
        o
    }

    /// Put a tile on the board (legality is the caller's business) and update the frontier.
    /// Returns the frontier entry the tile filled (its neighbours), if any.
    pub fn place(&mut self, p: Placed, cat: &Catalogue) -> Option<Open> {
        self.ensure(p.x, p.y);
        let i = self.index(p.x, p.y).expect("grid was grown");
        let old = self.cells[i];
        debug_assert!(old == 0 || old & FRONTIER != 0);
        let filled = (old & FRONTIER != 0).then(|| self.remove_open((old & !FRONTIER) as usize));
        self.placed.push(p);
        self.set_cell(i, tile_cell(self.placed.len() - 1, &p));
        for (side, (dx, dy)) in EDGE_DELTA.into_iter().enumerate() {
            let (nx, ny) = (p.x + dx, p.y + dy);
            let j = self.index(nx, ny).expect("grid covers the neighbours");
            let c = self.cells[j];
            if c != 0 && c & FRONTIER == 0 {
                continue;
            }
            if c & FRONTIER != 0 {
                // Already open: only the side facing the new tile changes.
                let k = (c & !FRONTIER) as usize;
                self.log_open(k);
                self.frontier[k].set_side(opposite_edge(side as u8), &p, cat);
            } else {
                let entry = self.open_entry(nx, ny, cat);
                self.set_cell(j, FRONTIER | self.frontier.len() as u16);
                self.frontier.push(entry);
            }
        }
        filled
    }

    /// `place` without the frontier's update, for a look-ahead that reads tiles only (the
    /// frontier is stale around the tile until undone). Returns the entry the tile fills.
    pub(crate) fn place_without_frontier(&mut self, p: Placed) -> Option<Open> {
        self.ensure(p.x, p.y);
        let i = self.index(p.x, p.y).expect("grid was grown");
        let old = self.cells[i];
        let filled = (old & FRONTIER != 0).then(|| self.frontier[(old & !FRONTIER) as usize]);
        self.placed.push(p);
        self.set_cell(i, tile_cell(self.placed.len() - 1, &p));
        filled
    }

    fn remove_open(&mut self, slot: usize) -> Open {
        self.log_open(slot);
        self.log_open(self.frontier.len() - 1);
        let o = self.frontier.swap_remove(slot);
        if let Some(moved) = self.frontier.get(slot) {
            let j = self
                .index(moved.x, moved.y)
                .expect("open position is on the grid");
            self.set_cell(j, FRONTIER | slot as u16);
        }
        o
    }

    /// The frontier entry for (x, y), if it is open.
    pub fn open_at(&self, x: i16, y: i16) -> Option<&Open> {
        let c = self.cells[self.index(x, y)?];
        (c & FRONTIER != 0).then(|| &self.frontier[(c & !FRONTIER) as usize])
    }

    /// Number of the 8 positions around (x, y) that hold a tile.
    #[inline]
    pub fn neighbours8(&self, x: i16, y: i16) -> u8 {
        match self.block(x, y) {
            Some((rows, w)) => [0, 1, 2, w, w + 2, 2 * w, 2 * w + 1, 2 * w + 2]
                .iter()
                .map(|&k| u8::from(is_tile(rows[k])))
                .sum(),
            None => crate::engine::geometry::AROUND
                .iter()
                .filter(|(dx, dy)| self.occupied(x + dx, y + dy))
                .count() as u8,
        }
    }

    /// Calls `f` with each tile that has a monastery or garden at (x, y) and the 8 positions
    /// around it, in `AROUND_AND_SELF` order (row by row from the south-west, as the grid
    /// stores them): completions around every placement look here, mostly to find none.
    #[inline]
    pub fn cloisters_around_and_self(&self, x: i16, y: i16, mut f: impl FnMut(&Placed)) {
        let mut visit = |c: u16| {
            if c & (FRONTIER | CLOISTER) == CLOISTER {
                f(&self.placed[(c & !CLOISTER) as usize - 1]);
            }
        };
        match self.block(x, y) {
            Some((rows, w)) => {
                let rows = [&rows[..3], &rows[w..w + 3], &rows[2 * w..2 * w + 3]];
                let cloister = |c: &u16| c & (FRONTIER | CLOISTER) == CLOISTER;
                if !rows.iter().any(|r| r.iter().any(cloister)) {
                    return;
                }
                for row in rows {
                    for &c in row {
                        visit(c);
                    }
                }
            }
            None => {
                for (dx, dy) in crate::engine::geometry::AROUND_AND_SELF {
                    if let Some(i) = self.index(x + dx, y + dy) {
                        visit(self.cells[i]);
                    }
                }
            }
        }
    }

    /// The grid's cells from (x - 1, y - 1) to (x + 1, y + 1) (three rows `w` apart, `w` given)
    /// when (x, y) and its 8 neighbours are on the grid (always so around a placed tile,
    /// `ensure`); None elsewhere.
    #[inline]
    fn block(&self, x: i16, y: i16) -> Option<(&[u16], usize)> {
        if !self.covers(x, y) {
            return None;
        }
        let w = self.w as usize;
        let i = self.index(x, y)?;
        Some((self.cells.get(i - w - 1..i + w + 2)?, w))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tiles::NO_SEG;

    /// A row of tiles long enough to grow the grid, every third with a monastery: after the
    /// growth, on a copy and after a look-ahead's undo, each tile is where it was laid and the
    /// completion checks around a position find exactly the tiles with a monastery (the flag
    /// kept in the grid's cells).
    #[test]
    fn monastery_cells_survive_growth_copy_and_undo() {
        let cat = Catalogue::builtin();
        let find = |cloister: bool| {
            cat.tiles
                .iter()
                .position(|t| (t.monastery != NO_SEG) == cloister && t.garden == NO_SEG)
                .unwrap() as u16
        };
        let (monastery, plain) = (find(true), find(false));
        let tile = |x: i16, y: i16| Placed {
            x,
            y,
            tile: if x % 3 == 0 { monastery } else { plain },
            rot: 0,
            seg_base: 0,
            cloister: x % 3 == 0,
        };
        let mut board = Board::new();
        for x in 0..40 {
            board.place(tile(x, 0), &cat);
        }
        assert!(board.w > INITIAL, "the grid grew");
        let check = |b: &Board| {
            for x in 0..40 {
                assert_eq!(b.at(x, 0), Some(x as usize));
                let mut found = Vec::new();
                b.cloisters_around_and_self(x, 0, |p| found.push(p.x));
                let want: Vec<i16> = (x - 1..=x + 1)
                    .filter(|&k| (0..40).contains(&k) && k % 3 == 0)
                    .collect();
                assert_eq!(found, want, "around {x}");
                let n = (x - 1..=x + 1)
                    .filter(|&k| k != x && (0..40).contains(&k))
                    .count();
                assert_eq!(b.neighbours8(x, 0) as usize, n);
            }
        };
        check(&board);
        let mut copy = board.clone();
        check(&copy);
        copy.record();
        copy.place(tile(3, 1), &cat);
        copy.undo(&board); // from the log
        check(&copy);
        copy.place(tile(3, 1), &cat);
        copy.place(tile(90, 0), &cat); // grows the copy's grid
        copy.undo(&board); // a whole copy
        check(&copy);
        assert_eq!(copy.placed, board.placed);
    }
}
