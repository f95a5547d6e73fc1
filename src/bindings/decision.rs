//! `Decision`: what a game waits for (the engine's `Phase`), as one enum across the boundary.

use crate::engine::state::Phase;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// What the game waits for. Compares equal to its text (`Decision.PLACE == "place"`), so
/// the Python `carcassonne.Decision` (a `StrEnum` made from these values) and text written
/// in records and docs name the same decisions.
#[pyclass(
    name = "Decision",
    module = "carcassonne._core",
    frozen,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PyDecision {
    /// Chance: a tile must be drawn.
    #[pyo3(name = "DRAW")]
    Draw,
    /// The current player places the drawn tile and takes one action.
    #[pyo3(name = "PLACE")]
    Place,
    /// Traders & Builders C3.1: a pig's owner keeps or returns its farmer (TB10).
    #[pyo3(name = "FARMER")]
    Farmer,
    /// Fortune Teller: the active player picks one of the drawn tiles (FT3).
    #[pyo3(name = "CHOOSE")]
    Choose,
    /// Chance (Under the Big Top): the animal token under the big top (BT3, BT4).
    #[pyo3(name = "REVEAL")]
    Reveal,
    /// Final scoring is done.
    #[pyo3(name = "OVER")]
    Over,
}

impl From<Phase> for PyDecision {
    fn from(p: Phase) -> Self {
        match p {
            Phase::Draw => PyDecision::Draw,
            Phase::Place => PyDecision::Place,
            Phase::Farmer => PyDecision::Farmer,
            Phase::Choose => PyDecision::Choose,
            Phase::Reveal => PyDecision::Reveal,
            Phase::Over => PyDecision::Over,
        }
    }
}

impl PyDecision {
    pub(crate) fn text(self) -> &'static str {
        match self {
            PyDecision::Draw => "draw",
            PyDecision::Place => "place",
            PyDecision::Farmer => "farmer",
            PyDecision::Choose => "choose",
            PyDecision::Reveal => "reveal",
            PyDecision::Over => "over",
        }
    }
}

#[pymethods]
impl PyDecision {
    /// Its text: `draw`, `place`, `farmer`, `choose`, `reveal` or `over`.
    #[getter]
    fn value(&self) -> &'static str {
        self.text()
    }

    /// A chance step (`draw` or `reveal`): the bag or the animal tokens decide, not a player.
    #[getter]
    fn is_chance(&self) -> bool {
        matches!(self, PyDecision::Draw | PyDecision::Reveal)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(o) = other.cast::<PyDecision>() {
            return *o.get() == *self;
        }
        other
            .cast::<PyString>()
            .is_ok_and(|s| s.to_str().is_ok_and(|t| t == self.text()))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        // The hash of its text: equal objects hash equally.
        PyString::new(py, self.text()).hash()
    }

    fn __str__(&self) -> &'static str {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Decision.{}", self.text().to_uppercase())
    }
}
