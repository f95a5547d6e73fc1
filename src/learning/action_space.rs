//! A fixed, numbered action space for learning agents: every legal move of a game played with
//! given rules has one index, and every index names at most one move (docs/environments.md).
//!
//! A tile placement is numbered by (cell, rotation, slot). Cells are those of a W x W window
//! that follows the board (its frontier box centred in it), then `overflow` extra cells for
//! open positions outside the window, numbered in reading order (north to south, west to
//! east); there are never more open positions than 2n + 2 for n tiles, so no legal move is
//! ever lost. Slots are the action after the placement: pass, a figure on the k-th segment
//! that may take that figure (segments in the tile's catalogue order), the abbot's recall, or
//! a target numbered by its rank on the board (crossroads for the tollhouse, acrobat spaces).
//! Decisions that place no tile (keep or return a farmer, choose a tile of the hand) come last.

use crate::engine::moves::{Action, Move};
use crate::engine::state::{Phase, State, NONE16};
use crate::engine::tiles::{TileType, NO_SEG};
use std::collections::BTreeSet;

/// Decisions that place no tile, after the placements: keep-farmer, return-farmer, then
/// `choose` the tile at each position of the hand.
pub const SPECIAL_KEEP: usize = 0;
pub const SPECIAL_RETURN: usize = 1;
pub const SPECIAL_CHOOSE: usize = 2;
pub const HAND_SLOTS: usize = crate::expansions::fortune_teller::MAX_HAND;
pub const N_SPECIAL: usize = SPECIAL_CHOOSE + HAND_SLOTS;

/// Figure families: each numbers the segments of a tile that may take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Meeple,
    Abbot,
    MeepleBuilder,
    MeeplePig,
    Builder,
    Pig,
    Ringmaster,
}

pub const FAMILIES: [Family; 7] = [
    Family::Meeple,
    Family::Abbot,
    Family::MeepleBuilder,
    Family::MeeplePig,
    Family::Builder,
    Family::Pig,
    Family::Ringmaster,
];

impl Family {
    /// Segments of `tt` this family may stand on (a superset of where it is ever legal).
    pub fn mask(self, tt: &TileType) -> u16 {
        match self {
            Family::Meeple | Family::Ringmaster => tt.meeple_mask,
            Family::Abbot => tt.abbot_mask,
            Family::MeepleBuilder => tt.meeple_mask & tt.road_city_mask,
            Family::MeeplePig => tt.meeple_mask & tt.halves_mask,
            Family::Builder => tt.road_city_mask,
            Family::Pig => tt.halves_mask,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Meeple => "meeple",
            Family::Abbot => "abbot",
            Family::MeepleBuilder => "meeple+builder",
            Family::MeeplePig => "meeple+pig",
            Family::Builder => "builder",
            Family::Pig => "pig",
            Family::Ringmaster => "ringmaster",
        }
    }

    /// The family of a figure-placing action. Exhaustive on purpose: a new kind of action
    /// must be given its slots here (or in `ActionSpace::index`) before it compiles.
    fn of(a: Action) -> Option<(Family, u8)> {
        Some(match a {
            Action::Meeple(l) => (Family::Meeple, l),
            Action::Abbot(l) => (Family::Abbot, l),
            Action::MeepleBuilder(l) => (Family::MeepleBuilder, l),
            Action::MeeplePig(l) => (Family::MeeplePig, l),
            Action::Builder(l) => (Family::Builder, l),
            Action::Pig(l) => (Family::Pig, l),
            Action::Ringmaster(l) => (Family::Ringmaster, l),
            Action::Pass
            | Action::Recall(..)
            | Action::Tollhouse(..)
            | Action::Acrobat(..)
            | Action::ScorePyramid(..) => return None,
        })
    }

    fn action(self, l: u8) -> Action {
        match self {
            Family::Meeple => Action::Meeple(l),
            Family::Abbot => Action::Abbot(l),
            Family::MeepleBuilder => Action::MeepleBuilder(l),
            Family::MeeplePig => Action::MeeplePig(l),
            Family::Builder => Action::Builder(l),
            Family::Pig => Action::Pig(l),
            Family::Ringmaster => Action::Ringmaster(l),
        }
    }
}

/// The numbering of moves for one rules configuration and player count.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    /// Side of the board window, in cells.
    pub window: usize,
    /// Extra cells for open positions outside the window.
    pub overflow: usize,
    /// Slots per (cell, rotation).
    pub slots: usize,
    /// First slot and number of slots of each family (in `FAMILIES` order).
    pub family: [(usize, usize); 7],
    /// Recall the abbot (Abbot on).
    pub recall: Option<usize>,
    /// Tollhouse onto the k-th crossroads tile in placement order (the tile being placed
    /// last): first slot and count.
    pub tollhouse: (usize, usize),
    /// An acrobat onto, or scoring the pyramid of, the k-th acrobat space in placement order.
    pub acrobat: (usize, usize),
    pub pyramid: (usize, usize),
    /// Tile types that may be in play (catalogue indices, ascending).
    pub tile_types: Vec<u16>,
}

/// Board windows (cells per side) holding every open position in at least 99.9% of games
/// (`examples/window_coverage.rs`, docs/environments.md): the base tiles with River and
/// Abbot, and with any expansion that adds tiles.
pub const WINDOW_BASE: usize = 25;
pub const WINDOW_EXPANSIONS: usize = 33;

/// The default window for `rules`.
pub fn default_window(rules: &crate::engine::rules::Rules) -> usize {
    if rules.traders_builders.is_some()
        || rules.toll_collectors
        || rules.fortune_teller
        || rules.big_top
    {
        WINDOW_EXPANSIONS
    } else {
        WINDOW_BASE
    }
}

/// Where the window stands for one state: its north-west cell and the open positions
/// outside it (reading order).
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// x of column 0 and y of row 0 (row 0 is the northmost row).
    pub x0: i16,
    pub y0: i16,
    pub outside: Vec<(i16, i16)>,
}

impl ActionSpace {
    /// The action space of games played with `proto`'s rules, catalogue and player count.
    pub fn new(proto: &State, window: usize) -> Result<ActionSpace, String> {
        if !(3..=255).contains(&window) {
            return Err(format!("window must be from 3 to 255 cells, not {window}"));
        }
        let fresh = State::new(proto.cat.clone(), proto.rules, proto.players as usize, 0)?;
        let mut types: BTreeSet<u16> = fresh.bag.iter().copied().collect();
        types.insert(fresh.board.placed[0].tile);
        let tiles = fresh.bag.len() + 1;
        let tile_types: Vec<u16> = types.into_iter().collect();
        let rules = fresh.rules;
        let mut slot = 1; // slot 0: no action after the placement
        let mut family = [(0, 0); 7];
        for (i, f) in FAMILIES.iter().enumerate() {
            let c31 = rules.traders_builders == Some(crate::engine::rules::Edition::C31);
            let c2 = rules.traders_builders == Some(crate::engine::rules::Edition::C2);
            let on = match f {
                Family::Meeple => true,
                Family::Abbot => rules.abbot,
                Family::MeepleBuilder => c31 && rules.builder,
                Family::MeeplePig => c31 && rules.pig,
                Family::Builder => c2 && rules.builder,
                Family::Pig => c2 && rules.pig,
                Family::Ringmaster => rules.big_top && rules.ringmaster,
            };
            let k = if on {
                tile_types
                    .iter()
                    .map(|&t| f.mask(fresh.cat.tile(t)).count_ones() as usize)
                    .max()
                    .unwrap_or(0)
            } else {
                0
            };
            family[i] = (slot, k);
            slot += k;
        }
        let recall = rules.abbot.then(|| {
            slot += 1;
            slot - 1
        });
        let count = |pred: &dyn Fn(&TileType) -> bool| {
            fresh
                .bag
                .iter()
                .chain(std::iter::once(&fresh.board.placed[0].tile))
                .filter(|&&t| pred(fresh.cat.tile(t)))
                .count()
        };
        let n_cross = if rules.toll_collectors {
            count(&|tt| tt.crossroads)
        } else {
            0
        };
        let tollhouse = (slot, n_cross);
        slot += n_cross;
        let n_acro = if rules.big_top && rules.acrobats {
            count(&|tt| tt.acrobat != NO_SEG)
        } else {
            0
        };
        let acrobat = (slot, n_acro);
        slot += n_acro;
        let pyramid = (slot, n_acro);
        slot += n_acro;
        Ok(ActionSpace {
            window,
            overflow: 2 * tiles + 2,
            slots: slot,
            family,
            recall,
            tollhouse,
            acrobat,
            pyramid,
            tile_types,
        })
    }

    pub fn cells(&self) -> usize {
        self.window * self.window + self.overflow
    }

    /// First index of the decisions that place no tile.
    pub fn special(&self) -> usize {
        self.cells() * 4 * self.slots
    }

    /// Number of actions.
    pub fn size(&self) -> usize {
        self.special() + N_SPECIAL
    }

    /// The window for `st`: the box of open positions centred in it. When that box is wider
    /// than the window, the window is centred on it and the rest overflows.
    pub fn frame(&self, st: &State, f: &mut Frame) {
        let (mut x_lo, mut y_lo, mut x_hi, mut y_hi) = st.board.bounds();
        (x_lo, y_lo, x_hi, y_hi) = (x_lo - 1, y_lo - 1, x_hi + 1, y_hi + 1);
        let w = self.window as i32;
        let slack_x = (w - (x_hi - x_lo + 1) as i32).div_euclid(2);
        let slack_y = (w - (y_hi - y_lo + 1) as i32).div_euclid(2);
        f.x0 = (x_lo as i32 - slack_x) as i16;
        f.y0 = (y_hi as i32 + slack_y) as i16;
        f.outside.clear();
        for o in &st.board.frontier {
            if self.window_cell(f, o.x, o.y).is_none() {
                f.outside.push((o.x, o.y));
            }
        }
        // Reading order: north to south, then west to east.
        f.outside.sort_unstable_by_key(|&(x, y)| (-(y as i32), x));
    }

    #[inline]
    pub fn window_cell(&self, f: &Frame, x: i16, y: i16) -> Option<usize> {
        let col = x as i32 - f.x0 as i32;
        let row = f.y0 as i32 - y as i32;
        let w = self.window as i32;
        (0..w)
            .contains(&col)
            .then_some(())
            .filter(|_| (0..w).contains(&row))
            .map(|_| (row * w + col) as usize)
    }

    /// Cell number of (x, y): a window cell, or an overflow cell when it is an open position
    /// outside the window.
    #[inline]
    pub fn cell(&self, f: &Frame, x: i16, y: i16) -> Option<usize> {
        self.window_cell(f, x, y).or_else(|| {
            f.outside
                .iter()
                .position(|&p| p == (x, y))
                .map(|k| self.window * self.window + k)
        })
    }

    /// Position of cell `c`, if it names one.
    pub fn position(&self, f: &Frame, c: usize) -> Option<(i16, i16)> {
        let w = self.window;
        if c < w * w {
            Some((f.x0 + (c % w) as i16, f.y0 - (c / w) as i16))
        } else {
            f.outside.get(c - w * w).copied()
        }
    }

    /// Index of legal move `m` of `st` (framed by `f`). None only for a move that is not a
    /// legal move of `st`'s current decision.
    pub fn index(&self, st: &State, f: &Frame, m: &Move) -> Option<usize> {
        let (x0, y0, rot, action) = match *m {
            Move::KeepFarmer => return Some(self.special() + SPECIAL_KEEP),
            Move::ReturnFarmer => return Some(self.special() + SPECIAL_RETURN),
            Move::Choose(t) => {
                let n = st.expansions.fortune_teller.hand_len as usize;
                let k = st.expansions.fortune_teller.hand[..n]
                    .iter()
                    .position(|&h| h == t)?;
                return Some(self.special() + SPECIAL_CHOOSE + k);
            }
            Move::Place { x, y, rot, action } => (x, y, rot, action),
        };
        if st.phase != Phase::Place || rot > 3 {
            return None;
        }
        let tt = st.cat.tile(st.tile);
        let slot = match action {
            Action::Pass => 0,
            Action::Recall(..) => self.recall?,
            Action::Tollhouse(x, y) => {
                let k = if (x, y) == (x0, y0) && tt.crossroads {
                    st.expansions.toll_collectors.crossroads.len()
                } else {
                    let pi = st.board.at(x, y)?;
                    st.expansions
                        .toll_collectors
                        .crossroads
                        .iter()
                        .position(|&c| c as usize == pi)?
                };
                (k < self.tollhouse.1).then_some(self.tollhouse.0 + k)?
            }
            Action::Acrobat(x, y) | Action::ScorePyramid(x, y) => {
                let k = if (x, y) == (x0, y0) && tt.acrobat != NO_SEG {
                    acrobat_rank(st, st.board.placed.len())
                } else {
                    let pi = st.board.at(x, y)?;
                    acrobat_rank(st, pi)
                };
                let (first, n) = if matches!(action, Action::Acrobat(..)) {
                    self.acrobat
                } else {
                    self.pyramid
                };
                (k < n).then_some(first + k)?
            }
            a => {
                let (fam, l) = Family::of(a)?;
                let i = FAMILIES.iter().position(|&g| g == fam)?;
                let mask = fam.mask(tt);
                if l >= 16 || mask & (1 << l) == 0 {
                    return None;
                }
                let k = (mask & ((1u16 << l) - 1)).count_ones() as usize;
                let (first, n) = self.family[i];
                (k < n).then_some(first + k)?
            }
        };
        let c = self.cell(f, x0, y0)?;
        Some((c * 4 + rot as usize) * self.slots + slot)
    }

    /// The move that index `a` names in `st` (framed by `f`), if it names one. The move may
    /// still be illegal: check it with `State::check`.
    pub fn decode(&self, st: &State, f: &Frame, a: usize) -> Option<Move> {
        if a >= self.size() {
            return None;
        }
        if a >= self.special() {
            return match a - self.special() {
                SPECIAL_KEEP => Some(Move::KeepFarmer),
                SPECIAL_RETURN => Some(Move::ReturnFarmer),
                k => {
                    let k = k - SPECIAL_CHOOSE;
                    (k < st.expansions.fortune_teller.hand_len as usize)
                        .then(|| Move::Choose(st.expansions.fortune_teller.hand[k]))
                }
            };
        }
        if st.phase != Phase::Place {
            return None;
        }
        let slot = a % self.slots;
        let rot = ((a / self.slots) % 4) as u8;
        let (x, y) = self.position(f, a / self.slots / 4)?;
        let tt = st.cat.tile(st.tile);
        let p = st.current as usize;
        let action = if slot == 0 {
            Action::Pass
        } else if Some(slot) == self.recall {
            let at = st.expansions.abbot.at[p];
            if at == NONE16 {
                return None;
            }
            let q = &st.board.placed[at as usize];
            Action::Recall(q.x, q.y)
        } else if in_range(slot, self.tollhouse) {
            let k = slot - self.tollhouse.0;
            let (tx, ty) = if k == st.expansions.toll_collectors.crossroads.len() {
                (x, y)
            } else {
                let q = st.board.placed[*st.expansions.toll_collectors.crossroads.get(k)? as usize];
                (q.x, q.y)
            };
            Action::Tollhouse(tx, ty)
        } else if in_range(slot, self.acrobat) || in_range(slot, self.pyramid) {
            let acro = in_range(slot, self.acrobat);
            let k = slot - if acro { self.acrobat.0 } else { self.pyramid.0 };
            let (tx, ty) = if k == acrobat_rank(st, st.board.placed.len()) {
                (x, y)
            } else {
                nth_acrobat(st, k)?
            };
            if acro {
                Action::Acrobat(tx, ty)
            } else {
                Action::ScorePyramid(tx, ty)
            }
        } else {
            let i = self.family.iter().position(|&r| in_range(slot, r))?;
            let k = slot - self.family[i].0;
            let mut mask = FAMILIES[i].mask(tt);
            for _ in 0..k {
                mask &= mask.wrapping_sub(1);
            }
            if mask == 0 {
                return None;
            }
            FAMILIES[i].action(mask.trailing_zeros() as u8)
        };
        Some(Move::Place { x, y, rot, action })
    }

    /// Legal moves of `st` with their indices, sorted by index (`moves` is scratch).
    pub fn legal(&self, st: &State, f: &Frame, moves: &mut Vec<Move>, out: &mut Vec<(u32, Move)>) {
        st.legal_moves(moves);
        out.clear();
        for m in moves.iter() {
            let i = self
                .index(st, f, m)
                .expect("every legal move has an index (ActionSpace covers the rules in play)");
            out.push((i as u32, *m));
        }
        out.sort_unstable_by_key(|e| e.0);
    }

    /// A short description of action `a` (for errors and docs): the part of the index.
    pub fn describe(&self, a: usize) -> String {
        if a >= self.size() {
            return format!("{a} is outside the action space (size {})", self.size());
        }
        if a >= self.special() {
            return match a - self.special() {
                SPECIAL_KEEP => "keep-farmer".into(),
                SPECIAL_RETURN => "return-farmer".into(),
                k => format!("choose hand[{}]", k - SPECIAL_CHOOSE),
            };
        }
        let slot = a % self.slots;
        let rot = (a / self.slots) % 4;
        let cell = a / self.slots / 4;
        let w = self.window;
        let at = if cell < w * w {
            format!("window row {} column {}", cell / w, cell % w)
        } else {
            format!("overflow cell {}", cell - w * w)
        };
        let what = if slot == 0 {
            "no figure".to_string()
        } else if Some(slot) == self.recall {
            "recall the abbot".into()
        } else if in_range(slot, self.tollhouse) {
            format!("tollhouse on crossroads #{}", slot - self.tollhouse.0)
        } else if in_range(slot, self.acrobat) {
            format!("acrobat on space #{}", slot - self.acrobat.0)
        } else if in_range(slot, self.pyramid) {
            format!("score pyramid #{}", slot - self.pyramid.0)
        } else {
            let i = self
                .family
                .iter()
                .position(|&r| in_range(slot, r))
                .unwrap_or(0);
            format!(
                "{} on segment #{}",
                FAMILIES[i].name(),
                slot - self.family[i].0
            )
        };
        format!("{at}, turned {}, {what}", rot * 90)
    }
}

#[inline]
fn in_range(slot: usize, (first, n): (usize, usize)) -> bool {
    slot >= first && slot < first + n
}

/// Rank of the acrobat space on placed tile `pi` among acrobat spaces in placement order
/// (`pi` = number of placed tiles for the tile being placed).
pub fn acrobat_rank(st: &State, pi: usize) -> usize {
    st.board.placed[..pi.min(st.board.placed.len())]
        .iter()
        .filter(|p| st.cat.tile(p.tile).acrobat != NO_SEG)
        .count()
}

fn nth_acrobat(st: &State, k: usize) -> Option<(i16, i16)> {
    st.board
        .placed
        .iter()
        .filter(|p| st.cat.tile(p.tile).acrobat != NO_SEG)
        .nth(k)
        .map(|p| (p.x, p.y))
}
