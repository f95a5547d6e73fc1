//! The River (R1-R7): river tiles continue the one open river end; two consecutive river
//! tiles never turn the same way (option `river_turns`: or never two same turns in a row
//! through straight tiles, or the river needs room ahead). The spring is the start tile (R2) and river tiles are drawn first,
//! then the lake (R3): bag groups ahead of the land tiles.

use crate::engine::geometry::{opposite_edge, EDGE_DELTA};
use crate::engine::rules::{RiverStart, RiverTurns, Rules};
use crate::engine::state::State;
use crate::engine::tiles::{Catalogue, EdgeKind, TileType};

/// The River's bag groups, drawn before the land tiles (group 0): river tiles, then the lake
/// (R3).
pub const GROUP_LAKE: usize = 1;
pub const GROUP_RIVER: usize = 2;

/// The River's state: where it goes on (inert when the option is off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct River {
    /// The open position the next river tile must fill, and the side facing the river.
    pub end: Option<(i16, i16, u8)>,
    /// Direction of the last turn (-1 left, +1 right, 0 none yet), for R5.
    pub turn: i8,
}

impl State {
    #[inline]
    pub(crate) fn river_allows(&self, x: i16, y: i16, t: u16, r: u8) -> bool {
        self.river_refusal(x, y, t, r).is_none()
    }

    /// Why a river tile may not go to (x, y) with rotation `r`, if it may not (R4, R5).
    pub(crate) fn river_check(
        &self,
        x: i16,
        y: i16,
        t: u16,
        r: u8,
    ) -> Result<(), crate::engine::moves::Illegal> {
        use crate::engine::moves::Illegal;
        match self.river_refusal(x, y, t, r) {
            None => Ok(()),
            Some(RiverRefusal::NoOpenEnd) => Err(Illegal::new(
                "R4",
                format!(
                    "tile {} is a river tile but the river has no open end (R4)",
                    self.cat.tile(t).id
                ),
            )),
            Some(RiverRefusal::NotAtEnd(ex, ey)) => Err(Illegal::new(
                "R4",
                format!(
                    "a river tile must continue the river at {ex},{ey} with its river facing it (R4)"
                ),
            )),
            Some(RiverRefusal::SameTurn) => Err(Illegal::new(
                "R5",
                "the river may not turn the same way twice in a row (R5)",
            )),
            Some(RiverRefusal::NoRoom) => Err(Illegal::new(
                "R5",
                "the river needs room ahead: no tile beside its next position or in the row \
                 beyond (R5, river_turns=clear_ahead)",
            )),
        }
    }

    #[inline]
    fn river_refusal(&self, x: i16, y: i16, t: u16, r: u8) -> Option<RiverRefusal> {
        let tt = self.cat.tile(t);
        if !tt.has_river {
            return None;
        }
        let Some((ex, ey, side)) = self.expansions.river.end else {
            return Some(RiverRefusal::NoOpenEnd);
        };
        if (x, y) != (ex, ey) || tt.edge_at(r, side) != EdgeKind::River {
            return Some(RiverRefusal::NotAtEnd(ex, ey));
        }
        if self.rules.river_turns == RiverTurns::ClearAhead {
            return (!self.river_room_ahead(x, y, tt, r, side)).then_some(RiverRefusal::NoRoom);
        }
        let turn = river_turn(tt, r, side);
        if turn != 0 && turn == self.expansions.river.turn {
            return Some(RiverRefusal::SameTurn);
        }
        None
    }

    /// `clear_ahead` (R5): no placed tile beside the river's next position nor in the three
    /// positions of the row beyond it (a lake has no next position).
    fn river_room_ahead(&self, x: i16, y: i16, tt: &TileType, r: u8, entry: u8) -> bool {
        let Some(exit) = (0..4u8).find(|&e| e != entry && tt.edge_at(r, e) == EdgeKind::River)
        else {
            return true;
        };
        let (dx, dy) = EDGE_DELTA[exit as usize];
        let (sx, sy) = EDGE_DELTA[((exit + 1) & 3) as usize];
        let (nx, ny) = (x + dx, y + dy);
        [
            (nx + sx, ny + sy),
            (nx - sx, ny - sy),
            (nx + dx, ny + dy),
            (nx + dx + sx, ny + dy + sy),
            (nx + dx - sx, ny + dy - sy),
        ]
        .iter()
        .all(|&(px, py)| self.board.at(px, py).is_none())
    }

    /// After a river tile is laid: move the open end on and remember the turn.
    pub(crate) fn river_after_placement(&mut self, x: i16, y: i16, t: u16, r: u8) {
        let tt = self.cat.tile(t);
        let entry = self.expansions.river.end.map(|(_, _, side)| side);
        let exit = (0..4u8).find(|&e| tt.edge_at(r, e) == EdgeKind::River && Some(e) != entry);
        if let Some(entry) = entry {
            let turn = river_turn(tt, r, entry);
            // R5: a straight tile clears the last turn, unless turns count through it.
            if turn != 0 || self.rules.river_turns == crate::engine::rules::RiverTurns::Consecutive
            {
                self.expansions.river.turn = turn;
            }
        }
        self.expansions.river.end = match exit {
            Some(e) if !tt.lake => {
                let (dx, dy) = EDGE_DELTA[e as usize];
                Some((x + dx, y + dy, opposite_edge(e)))
            }
            _ => None,
        };
    }
}

enum RiverRefusal {
    NoOpenEnd,
    NotAtEnd(i16, i16),
    SameTurn,
    NoRoom,
}

/// -1 for a left turn, +1 for a right turn, 0 for straight on (or a lake), for a river tile
/// entered through side `entry`.
fn river_turn(tt: &crate::engine::tiles::TileType, r: u8, entry: u8) -> i8 {
    let Some(exit) = (0..4u8).find(|&e| e != entry && tt.edge_at(r, e) == EdgeKind::River) else {
        return 0;
    };
    let heading = opposite_edge(entry);
    if exit == heading {
        0
    } else if exit == (heading + 1) & 3 {
        1
    } else {
        -1
    }
}

/// The River's steps of the turn: where a river tile may go (R4, R5).
impl crate::expansions::Expansion for River {
    type Turn = ();

    fn turn(_: &State, _: &crate::engine::tiles::TileType, _: usize, _: u16) {}

    #[inline]
    fn placement_allowed(
        s: &State,
        tt: &crate::engine::tiles::TileType,
        x: i16,
        y: i16,
        t: u16,
        r: u8,
    ) -> bool {
        !tt.has_river || s.river_allows(x, y, t, r)
    }

    fn check_placement(
        s: &State,
        x: i16,
        y: i16,
        t: u16,
        r: u8,
    ) -> Result<(), crate::engine::moves::Illegal> {
        s.river_check(x, y, t, r)
    }

    /// R2: the spring is the start tile, never in the bag (nor when the River is off); the
    /// base start tile is shuffled in, or left out with `river_start=discard`.
    fn start_tile(
        cat: &Catalogue,
        rules: Rules,
        start: u16,
        pool: &mut Vec<u16>,
    ) -> Result<Option<u16>, String> {
        let springs = pool.iter().filter(|&&t| cat.tile(t).spring).count();
        let spring = pool.iter().rev().copied().find(|&t| cat.tile(t).spring);
        pool.retain(|&t| !cat.tile(t).spring);
        if !rules.river {
            return Ok(None);
        }
        let spring = spring.ok_or("the River is on but the catalogue has no spring tile")?;
        if springs != 1 {
            return Err(format!(
                "the River needs exactly one spring tile, not {springs} (it is the start tile)"
            ));
        }
        if pool.iter().filter(|&&t| cat.tile(t).lake).count() != 1 {
            return Err("the River needs exactly one lake tile".into());
        }
        if rules.river_start == RiverStart::Discard {
            crate::engine::state::remove_one(pool, start);
        }
        Ok(Some(spring))
    }

    fn check_bag(cat: &Catalogue, _: Rules, tiles: &[u16]) -> Result<(), String> {
        if let Some(&t) = tiles.iter().find(|&&t| cat.tile(t).spring) {
            return Err(format!(
                "tile {} is the River's start tile, never in the bag (R2)",
                cat.tile(t).id
            ));
        }
        let lakes = tiles.iter().filter(|&&t| cat.tile(t).lake).count();
        if lakes > 1 {
            return Err(format!("{lakes} lake tiles; the River has one"));
        }
        Ok(())
    }

    /// R3, R7: river tiles (a Traders & Builders one too, with the River on) are drawn first,
    /// then the lake.
    fn bag_group(rules: Rules, tt: &TileType) -> Option<usize> {
        if tt.lake {
            Some(GROUP_LAKE)
        } else if tt.has_river && rules.river {
            Some(GROUP_RIVER)
        } else {
            None
        }
    }

    fn draw_first(g: usize) -> Option<&'static str> {
        match g {
            GROUP_RIVER => Some("the river tiles come first (R3)"),
            GROUP_LAKE => Some("the lake comes before the land tiles (R3)"),
            _ => None,
        }
    }

    fn tile_laid(s: &mut State, pi: usize) {
        let p = s.board.placed[pi];
        if s.cat.tile(p.tile).has_river {
            s.river_after_placement(p.x, p.y, p.tile, p.rot);
        }
    }
}
