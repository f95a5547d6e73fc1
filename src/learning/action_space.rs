//! A fixed, numbered action space for learning agents: every legal move of a game played with
//! given rules has one index, and every index names at most one move (docs/environments.md).
//!
//! A tile placement is numbered by (cell, rotation, slot). Cells are those of a W x W window
//! that follows the board (its frontier box centred in it), then `overflow` extra cells for
//! open positions outside the window, numbered in reading order (north to south, west to
//! east); there are never more open positions than 2n + 2 for n tiles, so no legal move is
//! ever lost. Slots are the action after the placement: pass, then groups in rank order, the
//! base game's meeple and each expansion's (`Expansion::ACTIONS`): a figure on the k-th
//! segment that may take it (segments in the tile's catalogue order), the abbot's recall, or a
//! target numbered by its rank on the board (crossroads for the tollhouse, acrobat spaces).
//! Decisions that place no tile (`Expansion::DECISIONS`: keep or return a farmer, choose a
//! tile of the hand) come last. The expansions work out their own slots (`expansions::layout`).

use crate::engine::moves::{Action, Move, Placement};
use crate::engine::state::{Phase, State};
use crate::expansions;
use crate::expansions::layout::{self, ActionSlots, Len};
use std::collections::BTreeSet;

/// The base game's group of slots: a meeple on a segment of the placed tile.
const MEEPLE: ActionSlots = ActionSlots::new("meeple", 0, "meeple on segment #");

/// A group of slots: after a placement (the base game's meeple, or an expansion's actions), or
/// a decision that places no tile.
#[derive(Clone, Debug)]
pub struct Group {
    pub name: &'static str,
    /// Words for slot k (`describe`).
    what: &'static str,
    /// First slot (of a decision: counted from `ActionSpace::special`) and number of slots.
    pub first: usize,
    pub n: usize,
    /// The group in the expansions' declarations (`expansions::declared`); None for the base
    /// game's meeple.
    owner: Option<usize>,
}

impl Group {
    #[inline]
    fn holds(&self, slot: usize) -> bool {
        slot >= self.first && slot < self.first + self.n
    }
}

/// The numbering of moves for one rules configuration and player count.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    /// Side of the board window, in cells.
    pub window: usize,
    /// Extra cells for open positions outside the window.
    pub overflow: usize,
    /// Slots per (cell, rotation): slot 0 (no action after the placement), then the groups.
    pub slots: usize,
    /// Groups of slots after a placement, in slot order (declared ranks).
    pub groups: Vec<Group>,
    /// Decisions that place no tile, in order after the placements.
    pub decisions: Vec<Group>,
    /// Index in `groups` of each declared group of the expansions.
    group_of: Vec<usize>,
    /// Index in `decisions` of each declared decision group of the expansions.
    decision_of: Vec<usize>,
    /// Slots of the decisions that place no tile.
    decision_slots: usize,
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
    if expansions::wide_board(rules) {
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
        let mut copies = fresh.bag.clone();
        copies.push(fresh.board.placed[0].tile);
        let d = expansions::declared();
        let mut declared: Vec<(ActionSlots, Option<usize>)> = vec![(MEEPLE, None)];
        declared.extend(d.actions.iter().enumerate().map(|(g, &a)| (a, Some(g))));
        declared.sort_by_key(|(a, _)| a.slot.rank);
        let mut groups = Vec::with_capacity(declared.len());
        let mut group_of = vec![usize::MAX; d.actions.len()];
        let mut slot = 1; // slot 0: no action after the placement
        if let Some(w) = declared
            .windows(2)
            .find(|w| w[0].0.slot.rank == w[1].0.slot.rank)
        {
            let (a, b) = (w[0].0.slot, w[1].0.slot);
            return Err(format!(
                "action slots {} and {} share rank {}",
                a.name, b.name, a.rank
            ));
        }
        for (a, owner) in declared {
            let n = match owner {
                None => layout::most_segments(&fresh.cat, &copies, |tt| tt.meeple_mask),
                Some(g) => {
                    group_of[g] = groups.len();
                    expansions::action_slots(fresh.rules, g, &fresh.cat, &copies)
                }
            };
            groups.push(Group {
                name: a.slot.name,
                what: a.what,
                first: slot,
                n,
                owner,
            });
            slot += n;
        }
        let mut order: Vec<usize> = (0..d.decisions.len()).collect();
        order.sort_by_key(|&g| d.decisions[g].slot.rank);
        let mut decisions = Vec::with_capacity(order.len());
        let mut decision_of = vec![usize::MAX; d.decisions.len()];
        let mut first = 0;
        for g in order {
            let p = d.decisions[g];
            let n = match p.len {
                Len::Fixed(k) => k,
                Len::TileTypes => tile_types.len(),
            };
            decision_of[g] = decisions.len();
            decisions.push(Group {
                name: p.slot.name,
                what: p.slot.name,
                first,
                n,
                owner: Some(g),
            });
            first += n;
        }
        Ok(ActionSpace {
            window,
            overflow: 2 * tiles + 2,
            slots: slot,
            groups,
            decisions,
            group_of,
            decision_of,
            decision_slots: first,
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
        self.special() + self.decision_slots
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
        let Move::Place { x, y, rot, action } = *m else {
            let (g, i) = expansions::decision_slot(st, m)?;
            let d = &self.decisions[self.decision_of[g]];
            return (i < d.n).then(|| self.special() + d.first + i);
        };
        if st.phase != Phase::Place || rot > 3 {
            return None;
        }
        let slot = match action {
            Action::Pass => 0,
            Action::Meeple(l) => {
                let i = layout::segment_slot(st.cat.tile(st.tile).meeple_mask, l)?;
                let g = self.groups.iter().find(|g| g.owner.is_none())?;
                (i < g.n).then_some(g.first + i)?
            }
            a => {
                let (g, i) = expansions::action_slot(st, Placement { x, y, rot }, a)?;
                let g = &self.groups[self.group_of[g]];
                (i < g.n).then_some(g.first + i)?
            }
        };
        let c = self.cell(f, x, y)?;
        Some((c * 4 + rot as usize) * self.slots + slot)
    }

    /// The move that index `a` names in `st` (framed by `f`), if it names one. The move may
    /// still be illegal: check it with `State::check`.
    pub fn decode(&self, st: &State, f: &Frame, a: usize) -> Option<Move> {
        if a >= self.size() {
            return None;
        }
        if a >= self.special() {
            let k = a - self.special();
            let d = self.decisions.iter().find(|d| d.holds(k))?;
            return expansions::slot_decision(st, d.owner?, k - d.first);
        }
        if st.phase != Phase::Place {
            return None;
        }
        let slot = a % self.slots;
        let rot = ((a / self.slots) % 4) as u8;
        let (x, y) = self.position(f, a / self.slots / 4)?;
        let action = if slot == 0 {
            Action::Pass
        } else {
            let g = self.groups.iter().find(|g| g.holds(slot))?;
            match g.owner {
                None => Action::Meeple(layout::slot_segment(
                    st.cat.tile(st.tile).meeple_mask,
                    slot - g.first,
                )?),
                Some(owner) => expansions::slot_action(st, x, y, owner, slot - g.first)?,
            }
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
            let k = a - self.special();
            return match self.decisions.iter().find(|d| d.holds(k)) {
                Some(d) if d.n == 1 => d.name.to_string(),
                Some(d) => format!("{}[{}]", d.name, k - d.first),
                None => format!("decision #{k}"),
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
        let what = match self.groups.iter().find(|g| g.holds(slot)) {
            None => "no figure".to_string(),
            Some(g) if g.what.ends_with('#') => format!("{}{}", g.what, slot - g.first),
            Some(g) => g.what.to_string(),
        };
        format!("{at}, turned {}, {what}", rot * 90)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tiles::Catalogue;
    use crate::Rules;

    /// The groups the declarations make come in the order written by hand before them.
    #[test]
    fn the_declared_groups_are_in_the_hand_written_order() {
        let st = State::new(Catalogue::builtin(), Rules::every_expansion(), 2, 0).unwrap();
        let space = ActionSpace::new(&st, 9).unwrap();
        let names: Vec<&str> = space.groups.iter().map(|g| g.name).collect();
        assert_eq!(
            names,
            [
                "meeple",
                "abbot",
                "meeple+builder",
                "meeple+pig",
                "builder",
                "pig",
                "ringmaster",
                "recall",
                "tollhouse",
                "acrobat",
                "score-pyramid",
            ]
        );
        let decisions: Vec<(&str, usize, usize)> = space
            .decisions
            .iter()
            .map(|g| (g.name, g.first, g.n))
            .collect();
        let hand = crate::expansions::fortune_teller::MAX_HAND;
        assert_eq!(
            decisions,
            [
                ("keep-farmer", 0, 1),
                ("return-farmer", 1, 1),
                ("choose hand", 2, hand)
            ]
        );
        let mut slot = 1;
        for g in &space.groups {
            assert_eq!(g.first, slot, "{}", g.name);
            slot += g.n;
        }
        assert_eq!(space.slots, slot);
    }
}
