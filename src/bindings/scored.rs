//! What a step scored, as Python data (`Game.scored`): the score log's events
//! (`engine::score_log`) with the feature and figure they name described on the board.

use crate::engine::moves::segment_label;
use crate::engine::score_log::{ScoreEvent, NO_FEATURE};
use crate::engine::scoring::SOURCE_NAMES;
use crate::engine::state::State;
use crate::engine::tiles::SegmentKind;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// (x, y, label) of segment `g`.
fn spot(st: &State, g: u16) -> (i16, i16, String) {
    let seg = &st.segs[g as usize];
    let p = &st.board.placed[seg.placed as usize];
    (
        p.x,
        p.y,
        segment_label(st.cat.tile(p.tile), p.rot, seg.local),
    )
}

/// The feature with segment `g`: kind, its tiles (a monastery or garden: itself and the
/// tiles around it), coats of arms, where it is.
fn feature<'py>(py: Python<'py>, st: &State, g: u16) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let kind = st.segs[g as usize].kind;
    let mut tiles: Vec<(i16, i16)> = Vec::new();
    let mut arms = 0;
    if matches!(kind, SegmentKind::Monastery | SegmentKind::Garden) {
        let (x, y, _) = spot(st, g);
        for dx in -1..=1 {
            for dy in -1..=1 {
                if st.board.at(x + dx, y + dy).is_some() {
                    tiles.push((x + dx, y + dy));
                }
            }
        }
    } else {
        let root = st.find(g);
        arms = st.segs[root as usize].arms;
        tiles = st
            .members(root)
            .iter()
            .map(|&m| {
                let (x, y, _) = spot(st, m);
                (x, y)
            })
            .collect();
        tiles.sort_unstable();
        tiles.dedup();
    }
    d.set_item("kind", kind.name())?;
    d.set_item("tiles", tiles)?;
    d.set_item("arms", arms)?;
    d.set_item("at", spot(st, g))?;
    Ok(d)
}

/// The events as dicts: `{"player", "source", "points", "feature"}` for points given,
/// `{"player", "returned": (role, x, y, label), "feature"}` for a figure returned; `feature`
/// is the feature being scored then, or None.
pub(crate) fn events<'py>(
    py: Python<'py>,
    st: &State,
    log: Vec<ScoreEvent>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    log.into_iter()
        .map(|e| {
            let d = PyDict::new(py);
            let at = match e {
                ScoreEvent::Points {
                    player,
                    source,
                    points,
                    feature,
                } => {
                    d.set_item("player", player)?;
                    d.set_item("source", SOURCE_NAMES[source as usize])?;
                    d.set_item("points", points)?;
                    feature
                }
                ScoreEvent::Returned {
                    segment,
                    role,
                    owner,
                    feature,
                } => {
                    let (x, y, label) = spot(st, segment);
                    d.set_item("player", owner)?;
                    d.set_item("returned", (role.name(), x, y, label))?;
                    feature
                }
            };
            if at == NO_FEATURE {
                d.set_item("feature", py.None())?;
            } else {
                d.set_item("feature", feature(py, st, at)?)?;
            }
            Ok(d)
        })
        .collect()
}
