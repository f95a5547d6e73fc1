//! The expansions' read-outs (`expansions::read_out`) as Python values: one dict per expansion
//! that is on, fact name -> value.

use crate::expansions::{Fact, ReadOut};
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
