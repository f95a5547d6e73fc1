//! The tile catalogue (`Catalogue`): built-in or parsed from text, and its tiles as Python data.

use super::errors::{clip, CatalogueError};
use crate::engine::geometry::{EDGE_NAMES, HALF_NAMES};
use crate::engine::tiles::Catalogue;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// A validated tile catalogue.
#[pyclass(
    name = "Catalogue",
    module = "carcassonne._core",
    frozen,
    from_py_object
)]
#[derive(Clone)]
pub struct PyCatalogue {
    pub(crate) cat: Arc<Catalogue>,
}

#[pymethods]
impl PyCatalogue {
    /// The catalogue shipped with the engine.
    #[staticmethod]
    fn builtin() -> PyCatalogue {
        PyCatalogue {
            cat: Catalogue::builtin(),
        }
    }

    /// Parse and validate a catalogue in the `.tiles` text format.
    #[staticmethod]
    fn from_text(text: &str) -> PyResult<PyCatalogue> {
        Catalogue::from_text(text)
            .map(|c| PyCatalogue { cat: Arc::new(c) })
            .map_err(|e| CatalogueError::new_err(clip(e.to_string())))
    }

    /// The built-in catalogue's source text for one file (`base`, `river`), or the file that
    /// holds a set (`river_c2` is in `river`).
    #[staticmethod]
    fn builtin_text(set: &str) -> PyResult<&'static str> {
        let holds = |text: &str| text.lines().any(|l| l.split_whitespace().eq(["set", set]));
        crate::engine::tiles::BUILTIN_SETS
            .iter()
            .find(|(name, _)| *name == set)
            .or_else(|| {
                crate::engine::tiles::BUILTIN_SETS
                    .iter()
                    .find(|(_, text)| holds(text))
            })
            .map(|(_, text)| *text)
            .ok_or_else(|| {
                let names: Vec<&str> = crate::engine::tiles::BUILTIN_SETS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect();
                PyValueError::new_err(clip(format!(
                    "unknown tile set `{set}` ({})",
                    names.join(", ")
                )))
            })
    }

    /// Tile ids in catalogue order.
    fn tile_ids(&self) -> Vec<String> {
        self.cat.tiles.iter().map(|t| t.id.clone()).collect()
    }

    fn set_names(&self) -> Vec<String> {
        self.cat.sets.iter().map(|s| s.name.clone()).collect()
    }

    /// Everything the catalogue knows about one tile, as plain Python data.
    fn tile<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyDict>> {
        let t = self
            .cat
            .id(id)
            .ok_or_else(|| PyValueError::new_err(clip(format!("unknown tile id `{id}`"))))?;
        tile_dict(py, &self.cat, t)
    }

    fn __len__(&self) -> usize {
        self.cat.tiles.len()
    }
}

fn tile_dict<'py>(py: Python<'py>, cat: &Catalogue, t: u16) -> PyResult<Bound<'py, PyDict>> {
    let tt = cat.tile(t);
    let d = PyDict::new(py);
    d.set_item("id", &tt.id)?;
    d.set_item("set", &tt.set)?;
    d.set_item("count", tt.count)?;
    let edges: String = tt.edges.iter().map(|e| e.letter()).collect();
    d.set_item("edges", edges)?;
    d.set_item("spring", tt.spring)?;
    d.set_item("lake", tt.lake)?;
    d.set_item("crossroads", tt.is_crossroads())?;
    d.set_item("provisional", tt.provisional.clone())?;
    d.set_item(
        "rotations",
        tt.rotations
            .iter()
            .map(|r| *r as u16 * 90)
            .collect::<Vec<_>>(),
    )?;
    let start = cat.sets.iter().any(|s| s.start == Some(t));
    d.set_item("start", start)?;
    let segs = PyList::empty(py);
    for s in &tt.segments {
        let sd = PyDict::new(py);
        sd.set_item("kind", s.kind.name())?;
        let ports: Vec<&str> = if s.kind.uses_halves() {
            (0..8)
                .filter(|h| s.ports & (1 << h) != 0)
                .map(|h| HALF_NAMES[h])
                .collect()
        } else {
            (0..4)
                .filter(|e| s.ports & (1 << e) != 0)
                .map(|e| EDGE_NAMES[e])
                .collect()
        };
        sd.set_item("ports", ports)?;
        sd.set_item("arms", s.arms)?;
        sd.set_item("goods", s.goods.map(|g| format!("{g:?}").to_lowercase()))?;
        sd.set_item("end", s.end.name())?;
        let items = PyDict::new(py);
        for (k, v) in [
            ("farmhouse", s.items.farmhouse),
            ("shed", s.items.shed),
            ("robbers", s.items.robbers),
            ("watertower", s.items.watertower),
            ("travellers", s.items.travellers),
        ] {
            if v > 0 {
                items.set_item(k, v)?;
            }
        }
        sd.set_item("items", items)?;
        let cities: Vec<u16> = (0..16u16).filter(|i| s.cities & (1 << i) != 0).collect();
        sd.set_item("cities", cities)?;
        sd.set_item(
            "road",
            (s.road != crate::engine::tiles::NO_SEG).then_some(s.road),
        )?;
        segs.append(sd)?;
    }
    d.set_item("segments", segs)?;
    Ok(d)
}
