//! One move (`Move`): its parts as Python attributes and its canonical text.

use crate::engine::moves::{segment_label, Action, Move};
use crate::engine::tiles::Catalogue;
use pyo3::prelude::*;
use std::sync::Arc;

/// One legal move: where the drawn tile goes, how it is turned, and the action taken.
#[pyclass(
    name = "Move",
    module = "carcassonne._core",
    frozen,
    skip_from_py_object
)]
#[derive(Clone)]
pub struct PyMove {
    pub(crate) inner: Move,
    pub(crate) tile: u16,
    pub(crate) cat: Arc<Catalogue>,
}

impl PyMove {
    pub(crate) fn text(&self) -> String {
        crate::engine::moves::move_text(&self.cat, self.tile, &self.inner)
    }
}

#[pymethods]
impl PyMove {
    /// Where the tile goes; 0 for a decision that places no tile (`places_tile`).
    #[getter]
    fn x(&self) -> i16 {
        self.inner.placement().map_or(0, |at| at.x)
    }
    #[getter]
    fn y(&self) -> i16 {
        self.inner.placement().map_or(0, |at| at.y)
    }
    /// Degrees clockwise: 0, 90, 180 or 270 (0 for a decision that places no tile).
    #[getter]
    fn rotation(&self) -> u16 {
        self.inner.placement().map_or(0, |at| at.rot as u16 * 90)
    }
    /// `pass`, `meeple`, `abbot`, `recall`, ... (`docs/notation.md`); `choose`,
    /// `keep-farmer` or `return-farmer` for a decision that places no tile.
    #[getter]
    fn action(&self) -> &'static str {
        self.inner.name()
    }
    /// Does the move place a tile (False for a choice among drawn tiles or the pig owner's
    /// farmer choice)?
    #[getter]
    fn places_tile(&self) -> bool {
        matches!(self.inner, Move::Place { .. })
    }
    /// The segment a figure goes on (`city:N`, `monastery`, ...), or None.
    #[getter]
    fn segment(&self) -> Option<String> {
        let Move::Place { rot, action, .. } = self.inner else {
            return None;
        };
        action
            .segment()
            .map(|l| segment_label(self.cat.tile(self.tile), rot, l))
    }
    /// The kind of feature a figure goes on (`city`, `road`, `field`, ...), or None.
    #[getter]
    fn feature(&self) -> Option<&'static str> {
        self.inner
            .action()
            .and_then(Action::segment)
            .map(|l| self.cat.tile(self.tile).segments[l as usize].kind.name())
    }
    /// The id of the tile this move places (or chooses from the hand); None for a farmer
    /// choice.
    #[getter]
    fn tile(&self) -> Option<String> {
        let t = match self.inner {
            Move::Choose(t) => t,
            Move::KeepFarmer | Move::ReturnFarmer => return None,
            Move::Place { .. } => self.tile,
        };
        self.cat.tiles.get(t as usize).map(|tt| tt.id.clone())
    }
    /// The board position the action names: the recalled abbot, the tollhouse's crossroads,
    /// the acrobat space or the pyramid.
    #[getter]
    fn target(&self) -> Option<(i16, i16)> {
        self.inner.action().and_then(Action::target)
    }
    fn __repr__(&self) -> String {
        format!("Move('{}')", self.text())
    }
    fn __str__(&self) -> String {
        self.text()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyMove>() {
            Ok(o) => {
                let o = o.get();
                o.inner == self.inner && o.tile == self.tile
            }
            Err(_) => false,
        }
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.inner, self.tile).hash(&mut h);
        h.finish()
    }
}
