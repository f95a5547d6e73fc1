//! Rule configuration: which expansions are in play and the options where sources differ.

/// What happens to the base start tile when the River supplies the start (rule R2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RiverStart {
    /// The base start tile is shuffled in with the land tiles (all 72 stay in play).
    Shuffle,
    /// The base start tile is set aside (C1 River rules).
    Discard,
}

/// Edition of Traders & Builders: the builder and pig work differently (TB4-TB12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edition {
    /// 2015 (and C1/C3): builder and pig placed as figures; wine.
    C2,
    /// 2025: builder and pig attached to a meeple; chicken; a river tile.
    C31,
}

impl Edition {
    /// The catalogue tile set of this edition.
    pub fn tile_set(self) -> &'static str {
        match self {
            Edition::C2 => "traders_builders_c2",
            Edition::C31 => "traders_builders_c31",
        }
    }
}

/// Edition of the River's spring and lake (the other ten River tiles are the same in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RiverEdition {
    /// C3 base box (2021): a road runs over the spring, a monastery stands by the lake.
    #[default]
    C3,
    /// C2 base box (2015): neither.
    C2,
}

impl RiverEdition {
    /// The catalogue tile set holding this edition's spring and lake.
    pub fn tile_set(self) -> &'static str {
        match self {
            RiverEdition::C3 => "river_c3",
            RiverEdition::C2 => "river_c2",
        }
    }
}

/// Art of the Fortune Teller tiles: the same 8 layouts, but the C2 art's tile 05 has an
/// abbot's garden beside its road.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FortuneTellerEdition {
    /// The new-edition (C2) art: tile 05 has a garden.
    #[default]
    C2,
    /// The old-edition (C1) art: no garden.
    C1,
}

impl FortuneTellerEdition {
    /// The catalogue tile set holding this edition's tile 05.
    pub fn tile_set(self) -> &'static str {
        match self {
            FortuneTellerEdition::C2 => "fortune_teller_c2",
            FortuneTellerEdition::C1 => "fortune_teller_c1",
        }
    }
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
    /// TB1-TB12: Traders & Builders in the given edition, or off.
    pub traders_builders: Option<Edition>,
    /// TC1-TC7: Toll Collectors.
    pub toll_collectors: bool,
    /// FT1-FT9: the Fortune Teller.
    pub fortune_teller: bool,
    /// BT1-BT11: Under the Big Top.
    pub big_top: bool,
    /// R1: which edition's spring and lake open and close the River.
    pub river_edition: RiverEdition,
    /// FT1: which art's tiles (C2 has a garden on tile 05).
    pub fortune_teller_edition: FortuneTellerEdition,
}

impl Default for Rules {
    /// The C3 base box: River and Abbot on.
    fn default() -> Self {
        Rules {
            river: true,
            abbot: true,
            small_city: false,
            river_start: RiverStart::Shuffle,
            traders_builders: None,
            toll_collectors: false,
            fortune_teller: false,
            big_top: false,
            river_edition: RiverEdition::C3,
            fortune_teller_edition: FortuneTellerEdition::C2,
        }
    }
}

impl Rules {
    /// Why these rules cannot be played, if they cannot: an edition chosen for an expansion
    /// that is off.
    pub fn check(&self) -> Result<(), String> {
        if !self.river && self.river_edition != RiverEdition::default() {
            return Err(format!(
                "river_edition {:?} needs the River (river is off)",
                self.river_edition
            ));
        }
        if !self.fortune_teller && self.fortune_teller_edition != FortuneTellerEdition::default() {
            return Err(format!(
                "fortune_teller_edition {:?} needs the Fortune Teller (fortune_teller is off)",
                self.fortune_teller_edition
            ));
        }
        Ok(())
    }

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
