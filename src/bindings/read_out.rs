//! The expansions' read-outs (`expansions::read_out`) as Python values: one dict per expansion
//! that is on, fact name -> value; and the figures they show in one player's supply.

use crate::engine::state::State;
use crate::expansions::{Fact, InSupply, ReadOut};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The facts in registry order, gathered before anything is built in Python.
#[derive(Default)]
pub(crate) struct Gathered(Vec<(&'static str, Vec<(&'static str, Fact)>)>);

impl ReadOut for Gathered {
    fn expansion(&mut self, name: &'static str) {
        self.0.push((name, Vec::new()));
    }

    fn fact(&mut self, name: &'static str, value: Fact) {
        // The registry names an expansion before its facts.
        if let Some((_, facts)) = self.0.last_mut() {
            facts.push((name, value));
        }
    }
}

impl Gathered {
    /// {expansion: {fact: value}}.
    pub(crate) fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let out = PyDict::new(py);
        for (name, facts) in self.0 {
            let d = PyDict::new(py);
            for (fact, value) in facts {
                d.set_item(fact, to_python(py, value)?)?;
            }
            out.set_item(name, d)?;
        }
        Ok(out)
    }
}

/// One player's figures in supply from the read-outs' `in_supply` facts (other facts are
/// passed over).
struct Supply {
    player: usize,
    figures: Vec<(u8, &'static str, i64)>,
}

impl ReadOut for Supply {
    fn expansion(&mut self, _name: &'static str) {}

    fn fact(&mut self, _name: &'static str, _value: Fact) {}

    fn in_supply(&mut self, _name: &'static str, figure: InSupply, counts: Vec<i64>) {
        if let Some(&n) = counts.get(self.player) {
            self.figures.push((figure.rank, figure.name, n));
        }
    }
}

/// The expansions' figures in player `player`'s supply (name, count), by rank: the order the
/// supply shows them in, after the meeples.
pub(crate) fn supply(s: &State, player: usize) -> Vec<(&'static str, i64)> {
    let mut out = Supply {
        player,
        figures: Vec::new(),
    };
    crate::expansions::read_out(s, &mut out);
    out.figures.sort_by_key(|&(rank, _, _)| rank);
    out.figures
        .into_iter()
        .map(|(_, name, n)| (name, n))
        .collect()
}

/// The expansions' figures that stand apart from the segments' figures (`standing`).
#[derive(Default)]
struct Standing(Vec<(&'static str, u8, u16)>);

impl ReadOut for Standing {
    fn expansion(&mut self, _name: &'static str) {}

    fn fact(&mut self, _name: &'static str, _value: Fact) {}

    fn standing(&mut self, role: &'static str, owner: u8, g: u16) {
        self.0.push((role, owner, g));
    }
}

/// The expansions' figures that no segment holds: (role, owner, segment), in registry order.
pub(crate) fn standing(s: &State) -> Vec<(&'static str, u8, u16)> {
    let mut out = Standing::default();
    crate::expansions::read_out(s, &mut out);
    out.0
}

fn to_python(py: Python<'_>, f: Fact) -> PyResult<Bound<'_, PyAny>> {
    Ok(match f {
        Fact::Nothing => py.None().into_bound(py),
        Fact::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
        Fact::Int(n) => n.into_pyobject(py)?.into_any(),
        Fact::Text(t) => t.into_pyobject(py)?.into_any(),
        Fact::List(items) => {
            let items = items.into_iter().map(|v| to_python(py, v));
            PyList::new(py, items.collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Fact::Tuple(items) => {
            let items = items.into_iter().map(|v| to_python(py, v));
            PyTuple::new(py, items.collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Fact::Map(entries) => {
            let d = PyDict::new(py);
            for (k, v) in entries {
                d.set_item(to_python(py, k)?, to_python(py, v)?)?;
            }
            d.into_any()
        }
    })
}
