//! How an expansion joins the turn: one trait of named steps with no-op defaults, implemented by
//! the expansion's state type in its own module (one name: module, state field, type and
//! option), and one registry line below. Move
//! generation (`movegen`) calls the steps through the registry, so it names no expansion; the
//! calls are static (no `dyn`) and inline into the loop, so a playout pays nothing for an
//! expansion that is switched off beyond its own `on` test.
//!
//! Registry order is the order in which expansions contribute moves at each step; it is part
//! of the move order that seeded games and action indices rely on (pinned by tests/perft.rs).

pub mod abbot;
pub mod big_top;
pub mod fortune_teller;
pub mod layout;
pub mod river;
pub mod toll_collectors;
pub mod traders_builders;

use crate::engine::chance::Chance;
use crate::engine::features::{Around, Role};
use crate::engine::moves::{Action, ChanceError, Illegal, Move, Placement};
use crate::engine::rules::{OptionValue, Rules};
use crate::engine::state::{Drawn, State};
use crate::engine::tiles::{Catalogue, SegmentKind, TileType};
use layout::{ActionSlots, Declared, Observe, Part, Slot};

/// The steps of a turn where an expansion's legal actions and checks come in.
pub(crate) trait Expansion: std::fmt::Debug {
    /// What the expansion works out once per decision for move generation (its supply, the
    /// targets that do not depend on where the tile goes).
    type Turn;

    fn turn(s: &State, tt: &TileType, p: usize, figures: u16) -> Self::Turn;

    /// A decision of this expansion is waiting (not a tile placement): its moves, and true.
    fn decision_moves(_s: &State, _out: &mut Vec<Move>) -> bool {
        false
    }

    /// What of this expansion waits instead of a tile draw (a decision or chance step), for
    /// refusals.
    fn waiting(_s: &State) -> Option<&'static str> {
        None
    }

    /// The check of a decision move: `Some` when the waiting decision or the move is this
    /// expansion's.
    fn check_decision(_s: &State, _m: &Move) -> Option<Result<(), Illegal>> {
        None
    }

    /// May tile `t` go at (x, y) turned `r`, beyond matching its neighbours' edges?
    #[inline]
    fn placement_allowed(_s: &State, _tt: &TileType, _x: i16, _y: i16, _t: u16, _r: u8) -> bool {
        true
    }

    /// Why tile `t` may not go at (x, y) turned `r`, if `placement_allowed` refuses it.
    fn check_placement(_s: &State, _x: i16, _y: i16, _t: u16, _r: u8) -> Result<(), Illegal> {
        Ok(())
    }

    /// Segments of the drawn tile where no figure of player `p` may go this turn.
    #[inline]
    fn forbidden_segments(_s: &State, _tt: &TileType, _p: usize) -> u16 {
        0
    }

    /// Why a figure of player `p` may not go on a segment of `kind`, if it may not.
    fn check_figure(_s: &State, _p: usize, _kind: SegmentKind) -> Result<(), Illegal> {
        Ok(())
    }

    /// Segments this expansion puts figures on, beside the meeple (they need the free test).
    #[inline]
    fn segment_mask(_t: &Self::Turn) -> u16 {
        0
    }

    /// The free segments must be worked out for this expansion even with no meeple to place.
    #[inline]
    fn needs_segments(_t: &Self::Turn) -> bool {
        false
    }

    /// Moves on free segment `i` of the placement `at` (`around` taken there), after the
    /// meeple's.
    #[inline]
    fn figures_on_segment(
        _s: &State,
        _t: &Self::Turn,
        _at: Placement,
        _around: &Around,
        _i: u8,
        _out: &mut Vec<Move>,
    ) {
    }

    /// Moves on the placed tile's segments once every free segment had its turn.
    #[inline]
    fn figures_after(
        _s: &State,
        _t: &Self::Turn,
        _at: Placement,
        _free: u16,
        _around: &Around,
        _out: &mut Vec<Move>,
    ) {
    }

    /// Actions elsewhere on the board that go with the placement `at`.
    #[inline]
    fn placement_actions(_s: &State, _t: &mut Self::Turn, _at: Placement, _out: &mut Vec<Move>) {}

    /// The check of `action` after the placement `at` by player `p`: `Some` when the action
    /// is this expansion's.
    fn check_action(
        _s: &State,
        _at: Placement,
        _action: Action,
        _p: usize,
    ) -> Option<Result<(), Illegal>> {
        None
    }

    /// Set-up, before the bag is filled: takes this expansion's tiles that never go into the
    /// bag out of `pool` (the tile copies in play); `Some` start tile when it replaces the base
    /// game's (`start`, then still in `pool`).
    fn start_tile(
        _cat: &Catalogue,
        _rules: Rules,
        _start: u16,
        _pool: &mut Vec<u16>,
    ) -> Result<Option<u16>, String> {
        Ok(None)
    }

    /// Why a catalogue's tiles have no rule under this expansion (checked once, on loading).
    fn check_catalogue(_tiles: &[TileType]) -> Result<(), String> {
        Ok(())
    }

    /// Why these tile copies cannot make a bag under `rules` (set-up or `State::set_bag`).
    fn check_bag(_cat: &Catalogue, _rules: Rules, _tiles: &[u16]) -> Result<(), String> {
        Ok(())
    }

    /// The bag group of tile `tt` when this expansion draws it before the land tiles (group
    /// 0): groups are drawn from the highest down.
    fn bag_group(_rules: Rules, _tt: &TileType) -> Option<usize> {
        None
    }

    /// Why the tiles of this expansion's bag group `g` come first, for refusals.
    fn draw_first(_g: usize) -> Option<&'static str> {
        None
    }

    /// The game is set up (start tile laid): the expansion's components go to the supplies
    /// (its state starts as its `Default`: nothing in supply, nothing on the board).
    fn set_up(_s: &mut State) {}

    /// Tile `t` was drawn (taken out of the bag, `available` tiles could have been drawn):
    /// `Some` when this expansion takes it instead of the usual placement.
    fn tile_drawn(_s: &mut State, _t: u16, _available: usize) -> Option<Drawn> {
        None
    }

    /// Plays a decision move of this expansion (one that places no tile); true when it was
    /// its.
    fn play_decision(_s: &mut State, _m: &Move) -> bool {
        false
    }

    /// The tile at placed index `pi` was laid and joined its features (before the action).
    #[inline]
    fn tile_laid(_s: &mut State, _pi: usize) {}

    /// Takes the placement's action on the laid tile `pi`; true when it was this expansion's.
    #[inline]
    fn apply_action(_s: &mut State, _pi: usize, _action: Action) -> bool {
        false
    }

    /// Figure `role` of `owner` went from the supply onto segment `g` of placed tile `pi`.
    #[inline]
    fn figure_placed(_s: &mut State, _pi: usize, _g: u16, _role: Role, _owner: u8) {}

    /// A completed road or city (feature root `root`) is about to score.
    #[inline]
    fn before_feature_scores(_s: &mut State, _root: u16) {}

    /// A completed road or city (feature root `root`, of `kind`) has scored.
    #[inline]
    fn after_feature_scored(_s: &mut State, _root: u16, _kind: SegmentKind) {}

    /// A feature has scored (completed, or in final scoring): `g` is its root, or the
    /// monastery or garden segment; `winners` the players who scored it (a bit each); `cities`
    /// the completed cities a field supplies.
    #[inline]
    fn feature_scored(_s: &mut State, _g: u16, _kind: SegmentKind, _winners: u8, _cities: u16) {}

    /// Figure `role` of `owner` left segment `g` for the supply.
    #[inline]
    fn figure_returned(_s: &mut State, _g: u16, _role: Role, _owner: u8) {}

    /// Every figure of the completed feature `root` has gone back to the supply.
    #[inline]
    fn figures_returned(_s: &mut State, _root: u16) {}

    /// Does the tile just laid at placed index `pi` score by itself this turn part, beside
    /// the roads, cities and cloisters it completes (read before its turn goes on; a
    /// look-ahead that finds no scoring anywhere need not play the turn out)?
    fn laid_tile_scores(_s: &State, _pi: usize) -> bool {
        false
    }

    /// Everything the tile at placed index `pi` completed has scored.
    #[inline]
    fn completions_scored(_s: &mut State, _pi: usize) {}

    /// The turn part's scoring is done; true when this expansion holds the turn for a chance
    /// step (the turn then ends after it).
    #[inline]
    fn turn_scored(_s: &mut State) -> bool {
        false
    }

    /// A turn part ends: true when the same player plays another part.
    #[inline]
    fn another_part(_s: &mut State) -> bool {
        false
    }

    /// Tiles already drawn wait for the next turn part.
    #[inline]
    fn tiles_waiting(_s: &State) -> bool {
        false
    }

    /// Another part of the turn starts (after `another_part`).
    #[inline]
    fn part_starts(_s: &mut State) {}

    /// The whole turn ends (before the next player, or final scoring).
    #[inline]
    fn end_of_turn(_s: &mut State) {}

    /// The game is about to end; true when this expansion holds the end for a chance step
    /// (`finish` runs again after it).
    #[inline]
    fn game_ends(_s: &mut State) -> bool {
        false
    }

    /// A chance step of this expansion waits: resolve it with the game's seeded generator and
    /// log its outcome; true when it did.
    fn chance_random(_s: &mut State, _log: &mut impl FnMut(u8)) -> bool {
        false
    }

    /// The game is cut short (`State::ended_now`, on a copy; the bag is already empty): drop
    /// what waits and settle what is owed. True when this expansion took the game on (to its
    /// end, or to a chance step before it); else the turn ends and the game finishes.
    fn cut_short(_s: &mut State) -> bool {
        false
    }

    /// The outcomes of this expansion's chance step waiting now, with their probabilities
    /// (summing to 1), into `out`; true when the step is this expansion's.
    fn chance_outcomes(_s: &State, _out: &mut Vec<(Chance, f64)>) -> bool {
        false
    }

    /// After `cut_short`: this expansion's chance steps before the end, with `outcomes` given
    /// in order, then the seeded generator.
    fn end_chance(_s: &mut State, _outcomes: &[u8]) -> Result<(), ChanceError> {
        Ok(())
    }

    /// Final scoring, before the base game's features (B21).
    #[inline]
    fn final_scoring(_s: &mut State) {}

    /// Board planes this expansion adds to a learning observation (`layout`: names and ranks;
    /// `learning::observation` places them).
    const CHANNELS: &'static [Slot] = &[];

    /// Figure planes per seat for its figures (an engine `Role`'s plane has the role's name).
    const ROLES: &'static [Slot] = &[];

    /// Entries of each player's supply in the observation vector.
    const SUPPLY: &'static [Slot] = &[];

    /// Entries of the observation vector's miscellany.
    const MISC: &'static [Slot] = &[];

    /// Parts of the observation vector of its own.
    const VECTOR: &'static [Part] = &[];

    /// What placed tile `pi` (of type `tt`) shows in this expansion's planes; called for
    /// every placed tile in placement order, in the window or not.
    #[inline]
    fn observe_tile<O: Observe>(_s: &State, _pi: usize, _tt: &TileType, _o: &mut O) {}

    /// What else this expansion shows in a learning observation: its figures on the board,
    /// its supplies and counts in the vector.
    fn observe<O: Observe>(_s: &State, _o: &mut O) {}

    /// Groups of action slots this expansion's actions take after a placement.
    const ACTIONS: &'static [ActionSlots] = &[];

    /// How many slots group `k` of `ACTIONS` needs under `rules` with these tile copies in
    /// play (`tiles`: the bag and the start tile); 0 when its actions cannot happen.
    fn action_slots(_rules: Rules, _k: usize, _cat: &Catalogue, _tiles: &[u16]) -> usize {
        0
    }

    /// The group (in `ACTIONS`) and slot in it of `action` after the placement `at` (the
    /// drawn tile, not yet laid), when the action is this expansion's and has a slot.
    fn action_slot(_s: &State, _at: Placement, _action: Action) -> Option<(usize, usize)> {
        None
    }

    /// The action that slot `i` of group `k` names after a placement at (x, y), if any.
    fn slot_action(_s: &State, _x: i16, _y: i16, _k: usize, _i: usize) -> Option<Action> {
        None
    }

    /// Groups of slots for this expansion's decisions that place no tile (fixed lengths).
    const DECISIONS: &'static [Part] = &[];

    /// The group (in `DECISIONS`) and slot in it of decision move `m`, when it is this
    /// expansion's and has a slot.
    fn decision_slot(_s: &State, _m: &Move) -> Option<(usize, usize)> {
        None
    }

    /// The decision move that slot `i` of group `k` names, if any.
    fn slot_decision(_s: &State, _k: usize, _i: usize) -> Option<Move> {
        None
    }

    /// Its tiles spread games wider than the base game's board window holds
    /// (`examples/window_coverage.rs`).
    const WIDE_BOARD: bool = false;

    /// Names of this expansion's terms in the position evaluation (`players::evaluation`):
    /// what its rules add to a player's prospects.
    const EVAL_TERMS: &'static [&'static str] = &[];

    /// This expansion's evaluation terms for player `p` into `out` (`EVAL_TERMS.len()` long,
    /// zeroed), from what every player may know; left at zero when the option is off.
    #[inline]
    fn eval_terms(_s: &State, _p: usize, _left: f32, _out: &mut [f32]) {}

    /// What a player sees of this expansion on the table (its supplies, tokens, figures
    /// standing apart), as named facts into `out`; asked for only while its option is on,
    /// never during play.
    fn read_out(_s: &State, _out: &mut impl ReadOut) {}

    /// Its state as text, for `State` fingerprints (equal texts: equal states): all of it,
    /// unless it keeps scratch values that equal states may differ in.
    fn fingerprint(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{self:?}");
    }
}

/// One public fact of an expansion's read-out, in shapes any front end can show.
#[derive(Clone, Debug, PartialEq)]
pub enum Fact {
    Nothing,
    Bool(bool),
    Int(i64),
    Text(String),
    List(Vec<Fact>),
    /// A fixed group of fields, e.g. a position (x, y).
    Tuple(Vec<Fact>),
    /// Entries in order (keys are names or numbers).
    Map(Vec<(Fact, Fact)>),
}

impl Fact {
    /// A number per player.
    pub fn per_player<T: Copy + Into<i64>>(values: &[T], players: u8) -> Fact {
        Fact::List(counts(values, players).into_iter().map(Fact::Int).collect())
    }

    /// A board position (x, y).
    pub fn at(x: i16, y: i16) -> Fact {
        Fact::Tuple(vec![Fact::Int(x.into()), Fact::Int(y.into())])
    }
}

/// A figure of an expansion that waits in the players' supplies, as each player's supply
/// shows it (`State.supply` in Python): its name there, and its rank, which orders the
/// supply across expansions (the base game's meeple comes first). The six expansions' ranks
/// are the places their figures had when the supply was written by hand; a new figure takes
/// a rank after every one in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InSupply {
    pub name: &'static str,
    pub rank: u8,
}

/// The first `players` of `values` (one per player), as numbers.
pub fn counts<T: Copy + Into<i64>>(values: &[T], players: u8) -> Vec<i64> {
    values[..players as usize]
        .iter()
        .map(|&v| v.into())
        .collect()
}

/// Where the expansions' read-outs go (the Python bindings build a dict of dicts).
pub trait ReadOut {
    /// The facts that follow are expansion `name`'s.
    fn expansion(&mut self, name: &'static str);

    /// One fact of the current expansion.
    fn fact(&mut self, name: &'static str, value: Fact);

    /// The fact `name`: how many of `figure` each player has in supply (one count per
    /// player), which each player's supply also shows.
    fn in_supply(&mut self, name: &'static str, _figure: InSupply, counts: Vec<i64>) {
        self.fact(
            name,
            Fact::List(counts.into_iter().map(Fact::Int).collect()),
        );
    }

    /// A figure of the current expansion standing with or beside a feature rather than on a
    /// segment (no segment holds it): `role` of player `owner` at segment `g`, listed with
    /// the figures on the board.
    fn standing(&mut self, _role: &'static str, _owner: u8, _g: u16) {}
}

/// Declares the expansions, in registry order, and the calls that run a step for all of them.
macro_rules! registry {
    ($($name:ident: $ty:ty),* $(,)?) => {
        /// Every expansion's name (its module, state field and option), in registry order:
        /// the one list of expansions (players' model keys, `Rules::every_expansion`, Python's
        /// `_core.EXPANSIONS`).
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        /// The expansions `rules` turns on, one bit each in registry order (`NAMES`).
        #[inline]
        pub fn on_bits(rules: &Rules) -> u32 {
            let mut bits = 0;
            let mut _bit = 1;
            $(
                if rules.$name.on() {
                    bits |= _bit;
                }
                _bit <<= 1;
            )*
            bits
        }

        reusable_clone! {
            /// Every expansion's state in one game (`State::expansions`), one field each named as
            /// its module and option; each is inert (its `Default`) while its option is off.
            #[derive(Debug, Default)]
            pub struct Expansions {
                $(pub $name: $ty,)*
            }
        }

        impl State {
            $(
                /// This expansion's state (inert while its option is off).
                #[inline]
                pub fn $name(&self) -> &$ty {
                    &self.expansions.$name
                }
            )*
        }

        /// Every expansion's facts for one decision's move generation.
        pub(crate) struct Turns {
            $(pub $name: <$ty as Expansion>::Turn,)*
        }

        impl Turns {
            #[inline]
            pub fn new(s: &State, tt: &TileType, p: usize, figures: u16) -> Turns {
                Turns { $($name: <$ty as Expansion>::turn(s, tt, p, figures),)* }
            }

            #[inline]
            pub fn segment_mask(&self) -> u16 {
                0 $(| <$ty as Expansion>::segment_mask(&self.$name))*
            }

            #[inline]
            pub fn needs_segments(&self) -> bool {
                false $(|| <$ty as Expansion>::needs_segments(&self.$name))*
            }

            #[inline]
            pub fn figures_on_segment(
                &self,
                s: &State,
                at: Placement,
                around: &Around,
                i: u8,
                out: &mut Vec<Move>,
            ) {
                $(<$ty as Expansion>::figures_on_segment(s, &self.$name, at, around, i, out);)*
            }

            #[inline]
            pub fn figures_after(
                &self,
                s: &State,
                at: Placement,
                free: u16,
                around: &Around,
                out: &mut Vec<Move>,
            ) {
                $(<$ty as Expansion>::figures_after(s, &self.$name, at, free, around, out);)*
            }

            #[inline]
            pub fn placement_actions(&mut self, s: &State, at: Placement, out: &mut Vec<Move>) {
                $(<$ty as Expansion>::placement_actions(s, &mut self.$name, at, out);)*
            }
        }

        #[inline]
        pub(crate) fn decision_moves(s: &State, out: &mut Vec<Move>) -> bool {
            false $(|| <$ty as Expansion>::decision_moves(s, out))*
        }

        pub(crate) fn waiting(s: &State) -> Option<&'static str> {
            None $(.or_else(|| <$ty as Expansion>::waiting(s)))*
        }

        pub(crate) fn check_decision(s: &State, m: &Move) -> Option<Result<(), Illegal>> {
            None $(.or_else(|| <$ty as Expansion>::check_decision(s, m)))*
        }

        #[inline]
        pub(crate) fn placement_allowed(
            s: &State,
            tt: &TileType,
            x: i16,
            y: i16,
            t: u16,
            r: u8,
        ) -> bool {
            true $(&& <$ty as Expansion>::placement_allowed(s, tt, x, y, t, r))*
        }

        pub(crate) fn check_placement(
            s: &State,
            x: i16,
            y: i16,
            t: u16,
            r: u8,
        ) -> Result<(), Illegal> {
            $(<$ty as Expansion>::check_placement(s, x, y, t, r)?;)*
            Ok(())
        }

        #[inline]
        pub(crate) fn forbidden_segments(s: &State, tt: &TileType, p: usize) -> u16 {
            0 $(| <$ty as Expansion>::forbidden_segments(s, tt, p))*
        }

        pub(crate) fn check_figure(s: &State, p: usize, kind: SegmentKind) -> Result<(), Illegal> {
            $(<$ty as Expansion>::check_figure(s, p, kind)?;)*
            Ok(())
        }

        pub(crate) fn check_action(
            s: &State,
            at: Placement,
            action: Action,
            p: usize,
        ) -> Option<Result<(), Illegal>> {
            None $(.or_else(|| <$ty as Expansion>::check_action(s, at, action, p)))*
        }

        /// Every expansion runs: each takes its own tiles out of the pool.
        pub(crate) fn start_tile(
            cat: &Catalogue,
            rules: Rules,
            start: u16,
            pool: &mut Vec<u16>,
        ) -> Result<Option<u16>, String> {
            let mut laid = None;
            $(if let Some(t) = <$ty as Expansion>::start_tile(cat, rules, start, pool)? {
                laid = Some(t);
            })*
            Ok(laid)
        }

        pub(crate) fn check_catalogue(tiles: &[TileType]) -> Result<(), String> {
            $(<$ty as Expansion>::check_catalogue(tiles)?;)*
            Ok(())
        }

        pub(crate) fn check_bag(cat: &Catalogue, rules: Rules, tiles: &[u16]) -> Result<(), String> {
            $(<$ty as Expansion>::check_bag(cat, rules, tiles)?;)*
            Ok(())
        }

        pub(crate) fn bag_group(rules: Rules, tt: &TileType) -> Option<usize> {
            None $(.or_else(|| <$ty as Expansion>::bag_group(rules, tt)))*
        }

        pub(crate) fn draw_first(g: usize) -> Option<&'static str> {
            None $(.or_else(|| <$ty as Expansion>::draw_first(g)))*
        }

        pub(crate) fn set_up(s: &mut State) {
            $(<$ty as Expansion>::set_up(s);)*
        }

        #[inline]
        pub(crate) fn tile_drawn(s: &mut State, t: u16, available: usize) -> Option<Drawn> {
            None $(.or_else(|| <$ty as Expansion>::tile_drawn(s, t, available)))*
        }

        pub(crate) fn play_decision(s: &mut State, m: &Move) -> bool {
            false $(|| <$ty as Expansion>::play_decision(s, m))*
        }

        #[inline]
        pub(crate) fn tile_laid(s: &mut State, pi: usize) {
            $(<$ty as Expansion>::tile_laid(s, pi);)*
        }

        #[inline]
        pub(crate) fn apply_action(s: &mut State, pi: usize, action: Action) -> bool {
            false $(|| <$ty as Expansion>::apply_action(s, pi, action))*
        }

        #[inline]
        pub(crate) fn figure_placed(s: &mut State, pi: usize, g: u16, role: Role, owner: u8) {
            $(<$ty as Expansion>::figure_placed(s, pi, g, role, owner);)*
        }

        #[inline]
        pub(crate) fn before_feature_scores(s: &mut State, root: u16) {
            $(<$ty as Expansion>::before_feature_scores(s, root);)*
        }

        #[inline]
        pub(crate) fn after_feature_scored(s: &mut State, root: u16, kind: SegmentKind) {
            $(<$ty as Expansion>::after_feature_scored(s, root, kind);)*
        }

        #[inline]
        pub(crate) fn feature_scored(
            s: &mut State,
            g: u16,
            kind: SegmentKind,
            winners: u8,
            cities: u16,
        ) {
            $(<$ty as Expansion>::feature_scored(s, g, kind, winners, cities);)*
        }

        #[inline]
        pub(crate) fn figure_returned(s: &mut State, g: u16, role: Role, owner: u8) {
            $(<$ty as Expansion>::figure_returned(s, g, role, owner);)*
        }

        #[inline]
        pub(crate) fn figures_returned(s: &mut State, root: u16) {
            $(<$ty as Expansion>::figures_returned(s, root);)*
        }

        #[inline]
        pub(crate) fn laid_tile_scores(s: &State, pi: usize) -> bool {
            false $(|| <$ty as Expansion>::laid_tile_scores(s, pi))*
        }

        #[inline]
        pub(crate) fn completions_scored(s: &mut State, pi: usize) {
            $(<$ty as Expansion>::completions_scored(s, pi);)*
        }

        /// Every expansion runs (`|`, not `||`): the step may change their state.
        #[inline]
        pub(crate) fn turn_scored(s: &mut State) -> bool {
            false $(| <$ty as Expansion>::turn_scored(s))*
        }

        /// Every expansion runs (`|`, not `||`): the step may change their state.
        #[inline]
        pub(crate) fn another_part(s: &mut State) -> bool {
            false $(| <$ty as Expansion>::another_part(s))*
        }

        #[inline]
        pub(crate) fn tiles_waiting(s: &State) -> bool {
            false $(|| <$ty as Expansion>::tiles_waiting(s))*
        }

        #[inline]
        pub(crate) fn part_starts(s: &mut State) {
            $(<$ty as Expansion>::part_starts(s);)*
        }

        #[inline]
        pub(crate) fn end_of_turn(s: &mut State) {
            $(<$ty as Expansion>::end_of_turn(s);)*
        }

        /// Every expansion runs (`|`, not `||`): the step may change their state.
        #[inline]
        pub(crate) fn game_ends(s: &mut State) -> bool {
            false $(| <$ty as Expansion>::game_ends(s))*
        }

        pub(crate) fn chance_random(s: &mut State, log: &mut impl FnMut(u8)) -> bool {
            false $(|| <$ty as Expansion>::chance_random(s, log))*
        }

        /// Every expansion runs (`|`, not `||`): each drops what waits of its own.
        pub(crate) fn cut_short(s: &mut State) -> bool {
            false $(| <$ty as Expansion>::cut_short(s))*
        }

        pub(crate) fn chance_outcomes(s: &State, out: &mut Vec<(Chance, f64)>) -> bool {
            false $(|| <$ty as Expansion>::chance_outcomes(s, out))*
        }

        pub(crate) fn end_chance(s: &mut State, outcomes: &[u8]) -> Result<(), ChanceError> {
            $(<$ty as Expansion>::end_chance(s, outcomes)?;)*
            Ok(())
        }

        #[inline]
        pub(crate) fn final_scoring(s: &mut State) {
            $(<$ty as Expansion>::final_scoring(s);)*
        }

        /// Every expansion's slots in the learning layout, each kind in registry order.
        pub fn declared() -> Declared {
            let mut d = Declared::default();
            $(
                d.channels.extend_from_slice(<$ty as Expansion>::CHANNELS);
                d.roles.extend_from_slice(<$ty as Expansion>::ROLES);
                d.supply.extend_from_slice(<$ty as Expansion>::SUPPLY);
                d.misc.extend_from_slice(<$ty as Expansion>::MISC);
                d.vector.extend_from_slice(<$ty as Expansion>::VECTOR);
                d.actions.extend_from_slice(<$ty as Expansion>::ACTIONS);
                d.decisions.extend_from_slice(<$ty as Expansion>::DECISIONS);
            )*
            d
        }

        #[inline]
        pub(crate) fn observe_tile<O: Observe>(s: &State, pi: usize, tt: &TileType, o: &mut O) {
            $(<$ty as Expansion>::observe_tile(s, pi, tt, o);)*
        }

        pub(crate) fn observe<O: Observe>(s: &State, o: &mut O) {
            $(<$ty as Expansion>::observe(s, o);)*
        }

        /// Slots of action group `g` (`declared().actions`).
        pub(crate) fn action_slots(rules: Rules, g: usize, cat: &Catalogue, tiles: &[u16]) -> usize {
            let mut _first = 0;
            $(
                let n = <$ty as Expansion>::ACTIONS.len();
                if g < _first + n {
                    return <$ty as Expansion>::action_slots(rules, g - _first, cat, tiles);
                }
                _first += n;
            )*
            0
        }

        /// The action group (`declared().actions`) and slot of an expansion's action.
        #[inline]
        pub(crate) fn action_slot(s: &State, at: Placement, action: Action) -> Option<(usize, usize)> {
            let mut _first = 0;
            $(
                if let Some((k, i)) = <$ty as Expansion>::action_slot(s, at, action) {
                    return Some((_first + k, i));
                }
                _first += <$ty as Expansion>::ACTIONS.len();
            )*
            None
        }

        pub(crate) fn slot_action(s: &State, x: i16, y: i16, g: usize, i: usize) -> Option<Action> {
            let mut _first = 0;
            $(
                let n = <$ty as Expansion>::ACTIONS.len();
                if g < _first + n {
                    return <$ty as Expansion>::slot_action(s, x, y, g - _first, i);
                }
                _first += n;
            )*
            None
        }

        /// The decision group (`declared().decisions`) and slot of an expansion's decision.
        pub(crate) fn decision_slot(s: &State, m: &Move) -> Option<(usize, usize)> {
            let mut _first = 0;
            $(
                if let Some((k, i)) = <$ty as Expansion>::decision_slot(s, m) {
                    return Some((_first + k, i));
                }
                _first += <$ty as Expansion>::DECISIONS.len();
            )*
            None
        }

        pub(crate) fn slot_decision(s: &State, g: usize, i: usize) -> Option<Move> {
            let mut _first = 0;
            $(
                let n = <$ty as Expansion>::DECISIONS.len();
                if g < _first + n {
                    return <$ty as Expansion>::slot_decision(s, g - _first, i);
                }
                _first += n;
            )*
            None
        }

        /// An expansion `rules` turns on spreads games wider than the base game's window.
        pub fn wide_board(rules: &Rules) -> bool {
            false $(|| (<$ty as Expansion>::WIDE_BOARD && rules.$name.on()))*
        }

        /// How many evaluation terms the expansions add, all together.
        pub(crate) const EVAL_TERMS: usize = 0 $(+ <$ty as Expansion>::EVAL_TERMS.len())*;

        /// Each evaluation term's name, `expansion.term`, in registry order.
        pub(crate) fn eval_term_names() -> Vec<String> {
            let mut names = Vec::with_capacity(EVAL_TERMS);
            $(names.extend(<$ty as Expansion>::EVAL_TERMS.iter().map(|t| format!("{}.{t}", stringify!($name))));)*
            names
        }

        /// The read-out of every expansion that is on, in registry order.
        pub fn read_out(s: &State, out: &mut impl ReadOut) {
            $(
                if s.rules.$name.on() {
                    out.expansion(stringify!($name));
                    <$ty as Expansion>::read_out(s, out);
                }
            )*
        }

        /// Every expansion's state as text, in registry order (`State` fingerprints).
        pub fn fingerprint(s: &State, out: &mut String) {
            $(
                out.push_str(concat!("|", stringify!($name), ":"));
                <$ty as Expansion>::fingerprint(&s.expansions.$name, out);
            )*
        }

        /// Every expansion's evaluation terms for player `p`, in registry order.
        #[inline]
        pub(crate) fn eval_terms(s: &State, p: usize, left: f32, out: &mut [f32]) {
            let mut _at = 0;
            $(
                let k = <$ty as Expansion>::EVAL_TERMS.len();
                <$ty as Expansion>::eval_terms(s, p, left, &mut out[_at.._at + k]);
                _at += k;
            )*
        }
    };
}

registry!(
    river: river::River,
    fortune_teller: fortune_teller::FortuneTeller,
    toll_collectors: toll_collectors::TollCollectors,
    big_top: big_top::BigTop,
    traders_builders: traders_builders::TradersBuilders,
    abbot: abbot::Abbot,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Gathers the names of the expansions read out, and their facts' names.
    #[derive(Default)]
    struct Names(Vec<(&'static str, Vec<&'static str>)>);

    impl ReadOut for Names {
        fn expansion(&mut self, name: &'static str) {
            self.0.push((name, Vec::new()));
        }
        fn fact(&mut self, name: &'static str, _value: Fact) {
            self.0.last_mut().expect("an expansion first").1.push(name);
        }
    }

    #[test]
    fn read_out_names_exactly_the_expansions_that_are_on_in_registry_order() {
        for bits in 0..1u32 << NAMES.len() {
            let mut rules = Rules::base();
            for (k, name) in NAMES.iter().enumerate() {
                if bits & 1 << k != 0 {
                    assert!(rules.set(name, Rules::every_expansion().get(name).unwrap()));
                }
            }
            let st = State::new(Catalogue::builtin(), rules, 2, 1).unwrap();
            let mut got = Names::default();
            read_out(&st, &mut got);
            let on: Vec<&str> = got.0.iter().map(|(n, _)| *n).collect();
            let want: Vec<&str> = (0..NAMES.len())
                .filter(|k| bits & 1 << k != 0)
                .map(|k| NAMES[k])
                .collect();
            assert_eq!(on, want);
            // Every expansion but the River shows something.
            for (name, facts) in &got.0 {
                assert_eq!(facts.is_empty(), *name == "river", "{name}");
            }
        }
    }

    /// Gathers the figures in supply the read-outs show.
    #[derive(Default)]
    struct Figures(Vec<(&'static str, InSupply, Vec<i64>)>);

    impl ReadOut for Figures {
        fn expansion(&mut self, _name: &'static str) {}
        fn fact(&mut self, _name: &'static str, _value: Fact) {}
        fn in_supply(&mut self, name: &'static str, figure: InSupply, counts: Vec<i64>) {
            self.0.push((name, figure, counts));
        }
    }

    #[test]
    fn the_figures_in_supply_have_distinct_ranks_after_the_meeple_and_a_count_per_player() {
        let st = State::new(Catalogue::builtin(), Rules::every_expansion(), 3, 1).unwrap();
        let mut got = Figures::default();
        read_out(&st, &mut got);
        let mut ranks: Vec<u8> = got.0.iter().map(|(_, f, _)| f.rank).collect();
        ranks.sort_unstable();
        ranks.dedup();
        assert_eq!(ranks.len(), got.0.len(), "two figures share a rank");
        assert!(ranks[0] > 0, "rank 0 is the meeple's");
        for (name, _, counts) in &got.0 {
            assert_eq!(counts, &[1, 1, 1], "{name}");
        }
    }

    #[test]
    fn the_fingerprint_names_every_expansion_in_registry_order() {
        let st = State::new(Catalogue::builtin(), Rules::every_expansion(), 2, 1).unwrap();
        let mut text = String::new();
        fingerprint(&st, &mut text);
        let mut at = 0;
        for name in NAMES {
            let here = text[at..].find(&format!("|{name}:")).expect(name);
            at += here + 1;
        }
    }

    #[test]
    fn every_expansion_turns_each_registered_expansion_on_and_base_none() {
        let every = Rules::every_expansion();
        let base = Rules::base();
        assert_eq!(on_bits(&every), (1 << NAMES.len()) - 1);
        assert_eq!(on_bits(&base), 0);
        for (k, name) in NAMES.iter().enumerate() {
            assert!(every.on(name) && !base.on(name), "{name}");
            let mut one = base;
            let on = Rules::every_expansion().get(name).expect("an option");
            assert!(one.set(name, on));
            assert_eq!(on_bits(&one), 1 << k, "{name}");
        }
        // Every other option stays at its default.
        for o in crate::engine::rules::OPTIONS {
            if !NAMES.contains(&o.name) {
                assert_eq!(
                    every.get(o.name),
                    Rules::default().get(o.name),
                    "{}",
                    o.name
                );
            }
        }
    }
}
