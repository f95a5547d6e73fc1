//! Rule configuration: which expansions are in play and the options where sources differ.

use crate::engine::tiles::TileType;

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

/// Edition of the River's spring and lake (the other ten River tiles are the same in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RiverEdition {
    /// C3 base box (2021): a road runs over the spring, a monastery stands by the lake.
    #[default]
    C3,
    /// C2 base box (2015): neither.
    C2,
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

/// What R5 forbids of the river's course.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RiverTurns {
    /// Two river tiles placed one after the other may not turn the same way; a straight tile
    /// between them resets (Hans im Glück).
    Consecutive,
    /// Turns are counted through straight tiles: two right turns are illegal even with
    /// straight tiles between them.
    Strict,
    /// No turn is counted; the river needs room ahead: the positions beside its next one and
    /// the three in the row beyond must be empty (JCloisterZone).
    ClearAhead,
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

/// What values a rule option takes (its form in Python and on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// On or off.
    Flag,
    /// One of these texts, the default first.
    Choice(&'static [&'static str]),
    /// Off (None) or one of these editions: an expansion with editions.
    Edition(&'static [&'static str]),
    /// A whole number from 0 to this.
    Count(u8),
}

/// A rule option's value in the terms of its `Kind`: on/off, the index of its text (for an
/// `Edition`, 0 is off and k + 1 the k-th edition), a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Flag(bool),
    Choice(usize),
    Count(u8),
}

/// The type of a rule option's value: its kind, and its conversions to and from `Value`.
pub trait OptionValue: Copy + PartialEq {
    const KIND: Kind;
    fn to_value(self) -> Value;
    /// `None` when `v` is not one of the allowed values.
    fn from_value(v: Value) -> Option<Self>;
    /// On, for the options that need this one (a flag set, an edition chosen).
    fn on(self) -> bool {
        true
    }
}

impl OptionValue for bool {
    const KIND: Kind = Kind::Flag;
    fn to_value(self) -> Value {
        Value::Flag(self)
    }
    fn from_value(v: Value) -> Option<bool> {
        match v {
            Value::Flag(b) => Some(b),
            _ => None,
        }
    }
    fn on(self) -> bool {
        self
    }
}

/// The one count option, `max_fortune_tellers`.
impl OptionValue for u8 {
    const KIND: Kind = Kind::Count(MAX_FORTUNE_TELLERS);
    fn to_value(self) -> Value {
        Value::Count(self)
    }
    fn from_value(v: Value) -> Option<u8> {
        match v {
            Value::Count(n) if n <= MAX_FORTUNE_TELLERS => Some(n),
            _ => None,
        }
    }
}

impl OptionValue for Option<Edition> {
    const KIND: Kind = Kind::Edition(&["C3.1", "C2"]);
    fn to_value(self) -> Value {
        Value::Choice(match self {
            None => 0,
            Some(Edition::C31) => 1,
            Some(Edition::C2) => 2,
        })
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Choice(0) => Some(None),
            Value::Choice(1) => Some(Some(Edition::C31)),
            Value::Choice(2) => Some(Some(Edition::C2)),
            _ => None,
        }
    }
    fn on(self) -> bool {
        self.is_some()
    }
}

/// A choice option's values and their texts, the default first.
macro_rules! choices {
    ($($ty:ident: $($variant:ident $text:literal),*;)*) => {$(
        impl OptionValue for $ty {
            const KIND: Kind = Kind::Choice(&[$($text),*]);
            fn to_value(self) -> Value {
                Value::Choice([$($ty::$variant),*].iter().position(|&v| v == self).unwrap_or(0))
            }
            fn from_value(v: Value) -> Option<$ty> {
                match v {
                    Value::Choice(i) => [$($ty::$variant),*].get(i).copied(),
                    _ => None,
                }
            }
        }
    )*};
}

choices! {
    RiverStart: Shuffle "shuffle", Discard "discard";
    RiverEdition: C3 "C3", C2 "C2";
    FortuneTellerEdition: C2 "C2", C1 "C1";
    RiverTurns: Consecutive "consecutive", Strict "strict", ClearAhead "clear_ahead";
    TollFlip: Turn "turn", Owner "owner";
}

/// One rule option, as the table declares it.
#[derive(Clone, Copy, Debug)]
pub struct RuleOption {
    pub name: &'static str,
    pub kind: Kind,
    /// The options it needs on to change anything (set away from its default without them,
    /// it is refused: `Rules::idle`).
    pub needs: &'static [&'static str],
    /// It chooses an edition of the expansion it needs: without that expansion it names a game
    /// that does not exist (refused first, with its own message).
    pub edition: bool,
    /// What a player calls the option when another needs it ("the River").
    pub title: &'static str,
    pub doc: &'static str,
}

/// `needs` (an option on) or `edition_of` (an edition of the expansion it needs).
macro_rules! is_edition {
    (needs) => {
        false
    };
    (edition_of) => {
        true
    };
}

/// Declares `Rules` from the option table: its fields and their defaults, `OPTIONS` (name,
/// kind, needs, title, doc) and the access by name (`get`, `set`, `on`).
macro_rules! declare_rules {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ty = $default:expr, $needs:ident [$($need:ident),*], title $title:literal;
    )*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Rules {
            $($(#[doc = $doc])+ pub $name: $ty,)*
        }

        impl Default for Rules {
            /// The C3 base box: River and Abbot on.
            fn default() -> Self {
                Rules { $($name: $default,)* }
            }
        }

        /// Every rule option, in the order `Rules` lists them (the Python `Rules`' repr,
        /// `to_dict` and results-table columns).
        pub const OPTIONS: &[RuleOption] = &[$(RuleOption {
            name: stringify!($name),
            kind: <$ty as OptionValue>::KIND,
            needs: &[$(stringify!($need)),*],
            edition: is_edition!($needs),
            title: $title,
            doc: concat!($($doc),+),
        },)*];

        impl Rules {
            /// Option `name`'s value (`None`: no such option).
            pub fn get(&self, name: &str) -> Option<Value> {
                match name {
                    $(stringify!($name) => Some(self.$name.to_value()),)*
                    _ => None,
                }
            }

            /// Set option `name`; false when there is no such option or `v` is not allowed.
            pub fn set(&mut self, name: &str, v: Value) -> bool {
                match name {
                    $(stringify!($name) => match <$ty as OptionValue>::from_value(v) {
                        Some(x) => {
                            self.$name = x;
                            true
                        }
                        None => false,
                    },)*
                    _ => false,
                }
            }

            /// Is option `name` on (a flag set, an edition chosen)?
            pub fn on(&self, name: &str) -> bool {
                match name {
                    $(stringify!($name) => self.$name.on(),)*
                    _ => false,
                }
            }
        }
    };
}

/// The rule options, one entry each: doc, name, type, default, the options it needs on (or the
/// expansion it is an edition of) and its title, given to `$callback`: `declare_rules` makes
/// `Rules` from it, the bindings the Python `Rules`' getters (src/bindings/rules.rs). A new
/// option is one entry here, plus its rule code and tests.
macro_rules! rule_options {
    ($callback:ident) => {
        $callback! {
            /// R1-R7: the 12 River tiles open the game.
            river: bool = true, needs [], title "the River";
            /// A1-A5: one abbot per player; gardens score.
            abbot: bool = true, needs [], title "the Abbot";
            /// B13 option: a completed two-tile city scores as an incomplete one (C1 rule).
            small_city: bool = false, needs [], title "";
            /// R2: the base start tile is shuffled in (`shuffle`) or set aside (`discard`).
            river_start: RiverStart = RiverStart::Shuffle, needs [river], title "";
            /// TB1-TB12: Traders & Builders in edition `C3.1` or `C2`, or off.
            traders_builders: Option<Edition> = None, needs [], title "Traders & Builders";
            /// TC1-TC7: Toll Collectors.
            toll_collectors: bool = false, needs [], title "Toll Collectors";
            /// FT1-FT9: the Fortune Teller.
            fortune_teller: bool = false, needs [], title "the Fortune Teller";
            /// BT1-BT11: Under the Big Top.
            big_top: bool = false, needs [], title "Under the Big Top";
            /// R1: the edition of the River's spring and lake (`C3`, `C2`; docs/catalogue.md).
            river_edition: RiverEdition = RiverEdition::C3, edition_of [river], title "";
            /// FT1: the art of the Fortune Teller tiles (`C2` has a garden on tile 05, `C1` not).
            fortune_teller_edition: FortuneTellerEdition = FortuneTellerEdition::C2, edition_of [fortune_teller], title "";
            /// B8, B22: farmers may be placed and fields score (off: the no-farmer variant).
            farmers: bool = true, needs [], title "farmers";
            /// A1-A3: gardens take the abbot and score (off: the abbot only on monasteries).
            gardens: bool = true, needs [abbot], title "";
            /// TB4-TB8: the builder is in play (with Traders & Builders).
            builder: bool = true, needs [traders_builders], title "";
            /// TB9-TB12: the pig is in play (with Traders & Builders and farmers).
            pig: bool = true, needs [traders_builders, farmers], title "";
            /// TB1-TB3: goods tokens are taken and score (with Traders & Builders).
            goods: bool = true, needs [traders_builders], title "";
            /// BT10-BT11: the ringmaster is in play (with Under the Big Top).
            ringmaster: bool = true, needs [big_top], title "";
            /// BT6-BT9: acrobats are in play (with Under the Big Top).
            acrobats: bool = true, needs [big_top], title "";
            /// FT2: fortune tellers a player may have on the board at once (with the Fortune Teller).
            max_fortune_tellers: u8 = 2, needs [fortune_teller], title "";
            /// R5: which consecutive river turns are forbidden (`consecutive`, `strict`, `clear_ahead`).
            river_turns: RiverTurns = RiverTurns::Consecutive, needs [river], title "";
            /// TC5: when a tollhouse flips (`turn`, `owner`; with Toll Collectors).
            toll_flip: TollFlip = TollFlip::Turn, needs [toll_collectors], title "";
        }
    };
}
#[cfg_attr(not(feature = "python"), allow(unused_imports))]
pub(crate) use rule_options;

rule_options!(declare_rules);

/// The option table's entry `name`.
pub fn option(name: &str) -> Option<&'static RuleOption> {
    OPTIONS.iter().find(|o| o.name == name)
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
        let mut r = Rules::default();
        for name in crate::expansions::NAMES {
            // An expansion's option is a switch, or its editions with the newest first.
            let on = match option(name).map(|o| o.kind) {
                Some(Kind::Flag) => Value::Flag(true),
                Some(Kind::Edition(_)) => Value::Choice(1),
                kind => unreachable!("expansion {name} has no switch or editions: {kind:?}"),
            };
            assert!(r.set(name, on), "expansion {name} is a rule option");
        }
        r
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

/// Is a tile of this set in play under these rules?
type InPlay = fn(&Rules, &TileType) -> bool;

/// Every tile set a catalogue may hold, with when its tiles are in play: the one list behind
/// `Rules::tile_in_play` and the catalogue's refusal of an unknown `set` name.
pub const TILE_SETS: [(&str, InPlay); 11] = [
    ("base", |_, _| true),
    ("river", |r, _| r.river),
    ("river_c3", |r, _| {
        r.river && r.river_edition == RiverEdition::C3
    }),
    ("river_c2", |r, _| {
        r.river && r.river_edition == RiverEdition::C2
    }),
    // R7: a Traders & Builders river tile only with the River.
    ("traders_builders_c2", |r, t| {
        r.traders_builders == Some(Edition::C2) && (r.river || !t.has_river)
    }),
    ("traders_builders_c31", |r, t| {
        r.traders_builders == Some(Edition::C31) && (r.river || !t.has_river)
    }),
    ("toll_collectors", |r, _| r.toll_collectors),
    ("fortune_teller", |r, _| r.fortune_teller),
    ("fortune_teller_c2", |r, _| {
        r.fortune_teller && r.fortune_teller_edition == FortuneTellerEdition::C2
    }),
    ("fortune_teller_c1", |r, _| {
        r.fortune_teller && r.fortune_teller_edition == FortuneTellerEdition::C1
    }),
    ("big_top", |r, _| r.big_top),
];

impl Rules {
    /// Is a catalogue tile in play under these rules (its set's entry in `TILE_SETS`)?
    pub fn tile_in_play(&self, tile: &TileType) -> bool {
        TILE_SETS
            .iter()
            .any(|&(set, in_play)| set == tile.set && in_play(self, tile))
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
        let d = Rules::default();
        for o in OPTIONS.iter().filter(|o| o.edition) {
            let needs = o.needs[0];
            if !self.on(needs) && self.get(o.name) != d.get(o.name) {
                return Err(format!(
                    "{} {} needs {} ({needs} is off)",
                    o.name,
                    self.text(o.name),
                    option(needs).map_or("", |n| n.title)
                ));
            }
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

    /// Option `name`'s value as text (`on`/`off`, a choice, an edition, a number).
    pub fn text(&self, name: &str) -> String {
        match (self.get(name), option(name).map(|o| o.kind)) {
            (Some(Value::Flag(b)), _) => (if b { "on" } else { "off" }).into(),
            (Some(Value::Choice(i)), Some(Kind::Choice(texts))) => texts[i].into(),
            (Some(Value::Choice(0)), Some(Kind::Edition(_))) => "off".into(),
            (Some(Value::Choice(i)), Some(Kind::Edition(texts))) => texts[i - 1].into(),
            (Some(Value::Count(n)), _) => n.to_string(),
            _ => String::new(),
        }
    }

    /// The options set away from their default that have no effect under the others, each
    /// with what it needs ("the River (river=on)"), from the option table.
    pub fn idle(&self) -> Vec<(&'static str, String)> {
        let d = Rules::default();
        OPTIONS
            .iter()
            .filter(|o| !o.needs.is_empty() && self.get(o.name) != d.get(o.name))
            .filter(|o| !o.needs.iter().all(|n| self.on(n)))
            .map(|o| (o.name, needs_text(o.needs)))
            .collect()
    }
}

/// What a player reads for the options `needs`: "Traders & Builders with farmers
/// (traders_builders=C3.1 or C2, farmers=on)".
fn needs_text(needs: &[&str]) -> String {
    let titles: Vec<&str> = needs
        .iter()
        .map(|n| option(n).map_or(*n, |o| o.title))
        .collect();
    let on: Vec<String> = needs
        .iter()
        .map(|n| match option(n).map(|o| o.kind) {
            Some(Kind::Edition(texts)) => format!("{n}={}", texts.join(" or ")),
            _ => format!("{n}=on"),
        })
        .collect();
    format!("{} ({})", titles.join(" with "), on.join(", "))
}

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 6;
pub const MEEPLES_PER_PLAYER: u8 = 7;
