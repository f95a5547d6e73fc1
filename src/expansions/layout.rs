//! What an expansion declares for learning agents: the slots it takes in an observation
//! (board planes, figure roles, supply entries, miscellany, parts of the vector) and in the
//! action space (groups of action slots after a placement, decisions that place no tile), and
//! the sink its `observe` steps write to. `learning` computes offsets and names from the
//! declarations and implements the sink, so the expansions never name learning's layout.
//!
//! A slot's rank orders the slots of one kind across the base game and the expansions. The
//! base game's and the six expansions' ranks are the places their slots had when the layout
//! was written by hand, so observations and action numbers did not move; a new slot takes a
//! rank after every one in use and so comes last of its kind.

use crate::engine::state::State;
use crate::engine::tiles::{Catalogue, TileType};

/// One named slot of the layout, of one unit (a plane, a role, a supply entry, an entry of the
/// miscellany, a group of action slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub name: &'static str,
    pub rank: u16,
}

impl Slot {
    pub const fn new(name: &'static str, rank: u16) -> Slot {
        Slot { name, rank }
    }
}

/// How many entries a part of the vector or a group of decisions has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Len {
    Fixed(usize),
    /// One per tile type that may be in play.
    TileTypes,
}

/// A part of the observation vector, or a group of decisions that place no tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub slot: Slot,
    pub len: Len,
}

impl Part {
    pub const fn new(name: &'static str, rank: u16, len: Len) -> Part {
        Part {
            slot: Slot::new(name, rank),
            len,
        }
    }
}

/// A group of action slots after a placement: its name (`EnvSpec.layout()`) and the words for
/// its k-th slot (`ActionSpace::describe`: `what` then k when `what` ends with `#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSlots {
    pub slot: Slot,
    pub what: &'static str,
}

impl ActionSlots {
    pub const fn new(name: &'static str, rank: u16, what: &'static str) -> ActionSlots {
        ActionSlots {
            slot: Slot::new(name, rank),
            what,
        }
    }
}

/// Where an expansion's part of an observation goes, seen from the observer's seat (players
/// are given as in the game; the sink turns them into seats). Implemented by
/// `learning::observation`.
pub trait Observe {
    /// Plane `ch` of placed tile `pi`'s cell, if the tile is in the window.
    fn mark(&mut self, s: &State, pi: usize, ch: Slot) -> Option<&mut u8>;

    /// Plane `ch` of placed tile `pi`'s cell shows how many tiles were counted so in `ch`,
    /// this one included (its rank + 1 in placement order): call it for every placed tile
    /// that has the feature, in placement order, whether in the window or not.
    fn count(&mut self, s: &State, pi: usize, ch: Slot);

    /// Player `q`'s figure plane `role` on placed tile `pi`, if the tile is in the window.
    fn figure(&mut self, s: &State, pi: usize, q: usize, role: Slot) -> Option<&mut u8>;

    /// Player `q`'s supply entry `entry`.
    fn supply(&mut self, q: usize, entry: Slot) -> &mut f32;

    /// Entry `entry` of the vector's miscellany.
    fn misc(&mut self, entry: Slot) -> &mut f32;

    /// Entry `k` of the vector's part `part` (a `Len::Fixed` part).
    fn part(&mut self, part: Slot, k: usize) -> &mut f32;

    /// The entry of tile `t` in the vector's part `part` (a `Len::TileTypes` part), if the
    /// tile may be in play.
    fn tile(&mut self, part: Slot, t: u16) -> Option<&mut f32>;
}

/// Every expansion's declared slots, each kind in registry order (`expansions::declared`).
#[derive(Clone, Debug, Default)]
pub struct Declared {
    pub channels: Vec<Slot>,
    pub roles: Vec<Slot>,
    pub supply: Vec<Slot>,
    pub misc: Vec<Slot>,
    pub vector: Vec<Part>,
    pub actions: Vec<ActionSlots>,
    pub decisions: Vec<Part>,
}

/// The most segments of `mask` on one tile among `tiles`: the slots a figure group needs.
pub fn most_segments(cat: &Catalogue, tiles: &[u16], mask: impl Fn(&TileType) -> u16) -> usize {
    tiles
        .iter()
        .map(|&t| mask(cat.tile(t)).count_ones() as usize)
        .max()
        .unwrap_or(0)
}

/// How many of the tile copies `tiles` have a feature: the slots a group numbering those tiles
/// on the board needs.
pub fn copies(cat: &Catalogue, tiles: &[u16], has: impl Fn(&TileType) -> bool) -> usize {
    tiles.iter().filter(|&&t| has(cat.tile(t))).count()
}

/// Place `l` among the segments of `mask` (in the tile's order), if `l` is one of them: the
/// slot of a figure on segment `l` within a group numbering the segments of `mask`.
#[inline]
pub fn segment_slot(mask: u16, l: u8) -> Option<usize> {
    (l < 16 && mask & (1 << l) != 0).then(|| (mask & ((1u16 << l) - 1)).count_ones() as usize)
}

/// The segment at place `k` among the segments of `mask`, if there are so many.
#[inline]
pub fn slot_segment(mut mask: u16, k: usize) -> Option<u8> {
    for _ in 0..k {
        mask &= mask.wrapping_sub(1);
    }
    (mask != 0).then(|| mask.trailing_zeros() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_numbered_in_the_masks_order() {
        let mask = 0b1010_0100;
        assert_eq!(segment_slot(mask, 2), Some(0));
        assert_eq!(segment_slot(mask, 5), Some(1));
        assert_eq!(segment_slot(mask, 7), Some(2));
        assert_eq!(segment_slot(mask, 3), None);
        assert_eq!(segment_slot(mask, 16), None);
        assert_eq!(slot_segment(mask, 0), Some(2));
        assert_eq!(slot_segment(mask, 2), Some(7));
        assert_eq!(slot_segment(mask, 3), None);
    }
}
