//! `carcassonne`: a fast, rules-faithful Carcassonne engine (base game, River, Abbot, Traders & Builders,
//! Toll Collectors, Under the Big Top, Fortune Teller).
//!
//! The crate is the whole rule state; the Python package `carcassonne` wraps it (feature
//! `python`). Rule ids (B-, R-, A-, TB-, TC-, BT-, FT-, T-) are the project's own; docs/rules.md maps
//! each to code and tests.

/// Declares a struct whose `Clone` copies it field by field and whose `clone_from` reuses the
/// target's buffers (each field's own `clone_from`): search and the greedy player copy states
/// in a loop with no allocation, and the fields are listed once, in the declaration.
macro_rules! reusable_clone {
    (
        $(#[$m:meta])*
        $v:vis struct $name:ident {
            $($(#[$fm:meta])* $fv:vis $f:ident : $t:ty),* $(,)?
        }
    ) => {
        $(#[$m])*
        $v struct $name {
            $($(#[$fm])* $fv $f: $t,)*
        }

        impl Clone for $name {
            #[inline]
            fn clone(&self) -> $name {
                $name { $($f: self.$f.clone(),)* }
            }

            #[inline]
            fn clone_from(&mut self, o: &$name) {
                $(self.$f.clone_from(&o.$f);)*
            }
        }
    };
}

/// Whole games and seeded batches of them over threads.
pub mod batch;
/// The base game: tiles, board, features, rules, moves, the turn, move generation, scoring.
/// It reaches the expansions only through `expansions`' registry.
pub mod engine;
/// How an error message quotes what it refuses: escaped, cut short.
pub mod excerpt;
/// The six expansions, each in its own module, hooked into the turn by one trait.
pub mod expansions;
/// Learning environments: the numbered action space, observations, the vector environment.
pub mod learning;
/// Luck measured while a game is played: control variates on chance outcomes and random
/// tie-breaks, for luck-adjusted study results.
pub mod luck;
/// The built-in players (random, greedy, mcts) behind one policy text.
pub mod players;

#[cfg(feature = "python")]
mod bindings;

pub use engine::moves::{Action, ChanceError, Illegal, Move, ParseError, Placement, PlayError};
pub use engine::rules::{
    Edition, FortuneTellerEdition, RiverEdition, RiverStart, RiverTurns, Rules, TollFlip,
};
pub use engine::state::{Drawn, Phase, State};
pub use engine::tiles::{Catalogue, CatalogueError};
