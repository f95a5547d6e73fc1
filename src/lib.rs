//! `carcassonne`: a fast, rules-faithful Carcassonne engine (base game, River, Abbot).
//!
//! The crate is the whole rule state; the Python package `carcassonne` wraps it (feature
//! `python`). Rule ids (B-, R-, A-) refer to the project's RULES.md; docs/rules.md maps each
//! to code and tests.

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

pub mod abbot;
pub mod action_space;
pub mod big_top;
pub mod board;
pub mod determinize;
mod expansion;
pub mod features;
pub mod fortune_teller;
pub mod game;
pub mod geometry;
pub mod greedy;
pub mod movegen;
pub mod moves;
pub mod observation;
pub mod playout;
pub mod river;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod search;
pub mod tiles;
pub mod toll;
pub mod traders_builders;
pub mod vector_env;

#[cfg(feature = "python")]
mod bindings;

pub use game::{Drawn, Phase, State};
pub use moves::{Action, ChanceError, Illegal, Move, ParseError, Placement, PlayError};
pub use rules::{
    Edition, FortuneTellerEdition, RiverEdition, RiverStart, RiverTurns, Rules, TollFlip,
};
pub use tiles::{Catalogue, CatalogueError};
