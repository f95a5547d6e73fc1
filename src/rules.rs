//! Rule configuration: which expansions are in play and the options where sources differ.

/// What happens to the base start tile when the River supplies the start (rule R2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RiverStart {
    /// The base start tile is shuffled in with the land tiles (all 72 stay in play).
    Shuffle,
    /// The base start tile is set aside (C1 River rules).
    Discard,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// R1-R7: the 12 River tiles open the game.
    pub river: bool,
    /// A1-A5: one abbot per player; gardens score.
    pub abbot: bool,
    /// B13 option: a completed two-tile city scores as an incomplete one (C1 rule).
    pub small_city: bool,
    pub river_start: RiverStart,
}

impl Default for Rules {
    /// The C3 base box: River and Abbot on.
    fn default() -> Self {
        Rules {
            river: true,
            abbot: true,
            small_city: false,
            river_start: RiverStart::Shuffle,
        }
    }
}

impl Rules {
    pub fn base() -> Rules {
        Rules {
            river: false,
            abbot: false,
            ..Rules::default()
        }
    }
}

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 6;
pub const MEEPLES_PER_PLAYER: u8 = 7;
