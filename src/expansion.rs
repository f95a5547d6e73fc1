//! How an expansion joins the turn: one trait of named steps with no-op defaults, implemented by
//! a zero-sized type in the expansion's own module, and one registry line below. Move
//! generation (`movegen`) calls the steps through the registry, so it names no expansion; the
//! calls are static (no `dyn`) and inline into the loop, so a playout pays nothing for an
//! expansion that is switched off beyond its own `on` test.
//!
//! Registry order is the order in which expansions contribute moves at each step; it is part
//! of the move order that seeded games and action indices rely on (pinned by tests/perft.rs).

use crate::features::Around;
use crate::game::State;
use crate::moves::{Move, MoveError};
use crate::tiles::{SegmentKind, TileType};

/// The steps of a turn where an expansion's legal actions and checks come in.
pub(crate) trait Expansion {
    /// What the expansion works out once per decision for move generation (its supply, the
    /// targets that do not depend on where the tile goes).
    type Turn;

    fn turn(s: &State, tt: &TileType, p: usize, figures: u16) -> Self::Turn;

    /// A decision of this expansion is waiting (not a tile placement): its moves, and true.
    fn decision_moves(_s: &State, _out: &mut Vec<Move>) -> bool {
        false
    }

    /// The check of a decision move: `Some` when the waiting decision or the action is this
    /// expansion's.
    fn check_decision(_s: &State, _m: &Move) -> Option<Result<(), MoveError>> {
        None
    }

    /// May tile `t` go at (x, y) turned `r`, beyond matching its neighbours' edges?
    #[inline]
    fn placement_allowed(_s: &State, _tt: &TileType, _x: i16, _y: i16, _t: u16, _r: u8) -> bool {
        true
    }

    /// Why tile `t` may not go at (x, y) turned `r`, if `placement_allowed` refuses it.
    fn check_placement(_s: &State, _x: i16, _y: i16, _t: u16, _r: u8) -> Result<(), MoveError> {
        Ok(())
    }

    /// Segments of the drawn tile where no figure of player `p` may go this turn.
    #[inline]
    fn forbidden_segments(_s: &State, _tt: &TileType, _p: usize) -> u16 {
        0
    }

    /// Why a figure of player `p` may not go on a segment of `kind`, if it may not.
    fn check_figure(_s: &State, _p: usize, _kind: SegmentKind) -> Result<(), MoveError> {
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

    /// Moves on free segment `i`, after the meeple's (`m` is the placement with `Pass`).
    #[inline]
    fn figures_on_segment(_t: &Self::Turn, _m: Move, _i: u8, _out: &mut Vec<Move>) {}

    /// Moves on the placed tile's segments once every free segment had its turn.
    #[inline]
    fn figures_after(
        _s: &State,
        _t: &Self::Turn,
        _m: Move,
        _free: u16,
        _around: &Around,
        _out: &mut Vec<Move>,
    ) {
    }

    /// Actions elsewhere on the board that go with the placement `m`.
    #[inline]
    fn placement_actions(_s: &State, _t: &mut Self::Turn, _m: Move, _out: &mut Vec<Move>) {}

    /// The check of a placement's action: `Some` when the action is this expansion's.
    fn check_action(_s: &State, _m: &Move, _p: usize) -> Option<Result<(), MoveError>> {
        None
    }
}

/// Declares the expansions, in registry order, and the calls that run a step for all of them.
macro_rules! registry {
    ($($name:ident: $ty:ty),* $(,)?) => {
        /// Every expansion's facts for one decision's move generation.
        pub(crate) struct Turns {
            $(pub $name: <$ty as Expansion>::Turn,)*
        }

        impl Turns {
            #[inline]
            pub fn new(s: &State, tt: &TileType, p: usize, figures: u16) -> Turns {
                Turns { $($name: <$ty>::turn(s, tt, p, figures),)* }
            }

            #[inline]
            pub fn segment_mask(&self) -> u16 {
                0 $(| <$ty>::segment_mask(&self.$name))*
            }

            #[inline]
            pub fn needs_segments(&self) -> bool {
                false $(|| <$ty>::needs_segments(&self.$name))*
            }

            #[inline]
            pub fn figures_on_segment(&self, m: Move, i: u8, out: &mut Vec<Move>) {
                $(<$ty>::figures_on_segment(&self.$name, m, i, out);)*
            }

            #[inline]
            pub fn figures_after(
                &self,
                s: &State,
                m: Move,
                free: u16,
                around: &Around,
                out: &mut Vec<Move>,
            ) {
                $(<$ty>::figures_after(s, &self.$name, m, free, around, out);)*
            }

            #[inline]
            pub fn placement_actions(&mut self, s: &State, m: Move, out: &mut Vec<Move>) {
                $(<$ty>::placement_actions(s, &mut self.$name, m, out);)*
            }
        }

        #[inline]
        pub(crate) fn decision_moves(s: &State, out: &mut Vec<Move>) -> bool {
            false $(|| <$ty>::decision_moves(s, out))*
        }

        pub(crate) fn check_decision(s: &State, m: &Move) -> Option<Result<(), MoveError>> {
            None $(.or_else(|| <$ty>::check_decision(s, m)))*
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
            true $(&& <$ty>::placement_allowed(s, tt, x, y, t, r))*
        }

        pub(crate) fn check_placement(
            s: &State,
            x: i16,
            y: i16,
            t: u16,
            r: u8,
        ) -> Result<(), MoveError> {
            $(<$ty>::check_placement(s, x, y, t, r)?;)*
            Ok(())
        }

        #[inline]
        pub(crate) fn forbidden_segments(s: &State, tt: &TileType, p: usize) -> u16 {
            0 $(| <$ty>::forbidden_segments(s, tt, p))*
        }

        pub(crate) fn check_figure(s: &State, p: usize, kind: SegmentKind) -> Result<(), MoveError> {
            $(<$ty>::check_figure(s, p, kind)?;)*
            Ok(())
        }

        pub(crate) fn check_action(s: &State, m: &Move, p: usize) -> Option<Result<(), MoveError>> {
            None $(.or_else(|| <$ty>::check_action(s, m, p)))*
        }
    };
}

registry!(
    river: crate::river::River,
    fortune_teller: crate::fortune_teller::FortuneTellerRules,
    toll_collectors: crate::toll::TollRules,
    big_top: crate::big_top::BigTopRules,
    traders_builders: crate::traders_builders::TradersBuildersRules,
    abbot: crate::abbot::Abbot,
);
