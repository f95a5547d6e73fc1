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

/// Which consecutive river turns R5 forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RiverTurns {
    /// Two river tiles placed one after the other may not turn the same way; a straight tile
    /// between them resets (Hans im Glück, JCloisterZone).
    Consecutive,
    /// Turns are counted through straight tiles: two right turns are illegal even with
    /// straight tiles between them.
    Strict,
}

/// When a tollhouse that collected from travellers flips (TC5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TollFlip {
    /// At the end of the turn in which it collected, whoever's turn it was.
    Turn,
    /// At the end of its owner's turn ("you flip your toll only at the end of your turn"):
    /// a collection in another player's turn waits for the owner's next turn to end.
    Owner,
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
    /// B8, B22: farmers may be placed and fields score (off: the common no-farmer variant).
    pub farmers: bool,
    /// A1-A3: gardens take the abbot and score (off: the abbot only on monasteries).
    pub gardens: bool,
    /// TB4-TB8: the builder is in play (with Traders & Builders).
    pub builder: bool,
    /// TB9-TB12: the pig is in play (with Traders & Builders).
    pub pig: bool,
    /// TB1-TB3: goods tokens are taken and score (with Traders & Builders).
    pub goods: bool,
    /// BT10-BT11: the ringmaster is in play (with Under the Big Top).
    pub ringmaster: bool,
    /// BT6-BT9: acrobats are in play (with Under the Big Top).
    pub acrobats: bool,
    /// FT2: fortune tellers a player may have on the board at once (with the Fortune Teller).
    pub max_fortune_tellers: u8,
    /// R5: which consecutive turns are forbidden (with the River).
    pub river_turns: RiverTurns,
    /// TC5: when a tollhouse flips (with Toll Collectors).
    pub toll_flip: TollFlip,
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
            farmers: true,
            gardens: true,
            builder: true,
            pig: true,
            goods: true,
            ringmaster: true,
            acrobats: true,
            max_fortune_tellers: 2,
            river_turns: RiverTurns::Consecutive,
            toll_flip: TollFlip::Turn,
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

    /// Every expansion on (the C3 box with River and Abbot, Traders & Builders C3.1, Toll
    /// Collectors, the Fortune Teller, Under the Big Top), every other option at its default.
    pub fn every_expansion() -> Rules {
        Rules {
            traders_builders: Some(Edition::C31),
            toll_collectors: true,
            fortune_teller: true,
            big_top: true,
            ..Rules::default()
        }
    }

    /// `every_expansion` with small cities scoring 2 and the River's start tile discarded:
    /// the "every option on" rule set of the players' figures and ladder (BENCHMARKS.md).
    pub fn every_option() -> Rules {
        Rules {
            small_city: true,
            river_start: RiverStart::Discard,
            ..Rules::every_expansion()
        }
    }
}

impl Rules {
    /// Is a catalogue tile of set `set` in play under these rules (R7: a Traders & Builders
    /// river tile only with the River)?
    pub fn tile_in_play(&self, tile: &crate::engine::tiles::TileType) -> bool {
        let tb_set = self.traders_builders.map(|e| e.tile_set());
        let set = tile.set.as_str();
        set == "base"
            || (self.river && (set == "river" || set == self.river_edition.tile_set()))
            || (tb_set == Some(set) && (self.river || !tile.has_river))
            || (self.toll_collectors && set == "toll")
            || (self.fortune_teller
                && (set == "fortune_teller" || set == self.fortune_teller_edition.tile_set()))
            || (self.big_top && set == "big_top")
    }
}

/// Most fortune tellers `max_fortune_tellers` allows (a hand holds 1 + this many tiles).
pub const MAX_FORTUNE_TELLERS: u8 = 4;

impl Rules {
    /// Options set away from their default where they change nothing under the other options
    /// (`river_start` without the River, `gardens` without the Abbot, ...): refused, so that
    /// a study never compares two names for one game. Also range checks.
    pub fn validate(&self) -> Result<(), String> {
        // An edition chosen for an expansion that is off names a game that does not exist.
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
        if self.max_fortune_tellers > MAX_FORTUNE_TELLERS {
            return Err(format!(
                "max_fortune_tellers must be from 0 to {MAX_FORTUNE_TELLERS}, not {}",
                self.max_fortune_tellers
            ));
        }
        match self.idle().first() {
            Some((name, needs)) => Err(format!(
                "rule option {name} has no effect without {needs}; leave it at its default"
            )),
            None => Ok(()),
        }
    }

    /// The options set away from their default that have no effect under the others, each
    /// with what it needs.
    pub fn idle(&self) -> Vec<(&'static str, &'static str)> {
        let d = Rules::default();
        let tb = self.traders_builders.is_some();
        const RIVER: &str = "the River (river=on)";
        const TB: &str = "Traders & Builders (traders_builders=C3.1 or C2)";
        const BT: &str = "Under the Big Top (big_top=on)";
        let checks = [
            (
                "river_start",
                self.river_start != d.river_start,
                self.river,
                RIVER,
            ),
            (
                "river_turns",
                self.river_turns != d.river_turns,
                self.river,
                RIVER,
            ),
            (
                "gardens",
                self.gardens != d.gardens,
                self.abbot,
                "the Abbot (abbot=on)",
            ),
            ("builder", self.builder != d.builder, tb, TB),
            ("goods", self.goods != d.goods, tb, TB),
            (
                "pig",
                self.pig != d.pig,
                tb && self.farmers,
                "Traders & Builders with farmers (traders_builders=C3.1 or C2, farmers=on)",
            ),
            (
                "ringmaster",
                self.ringmaster != d.ringmaster,
                self.big_top,
                BT,
            ),
            ("acrobats", self.acrobats != d.acrobats, self.big_top, BT),
            (
                "max_fortune_tellers",
                self.max_fortune_tellers != d.max_fortune_tellers,
                self.fortune_teller,
                "the Fortune Teller (fortune_teller=on)",
            ),
            (
                "river_edition",
                self.river_edition != d.river_edition,
                self.river,
                RIVER,
            ),
            (
                "fortune_teller_edition",
                self.fortune_teller_edition != d.fortune_teller_edition,
                self.fortune_teller,
                "the Fortune Teller (fortune_teller=on)",
            ),
            (
                "toll_flip",
                self.toll_flip != d.toll_flip,
                self.toll_collectors,
                "Toll Collectors (toll_collectors=on)",
            ),
        ];
        checks
            .into_iter()
            .filter(|(_, set, applies, _)| *set && !applies)
            .map(|(name, _, _, needs)| (name, needs))
            .collect()
    }
}

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 6;
pub const MEEPLES_PER_PLAYER: u8 = 7;
