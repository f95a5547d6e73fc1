//! `Rules`: the rule options as one frozen value for Python. Option names, kinds, defaults,
//! docs and getters come from the engine's option table (`engine::rules::rule_options`), and
//! its `validate`, `idle` and `tile_in_play` decide; this file only converts (and adds `tiles`).

use super::errors::{clip, quote, value_error};
use crate::engine::rules::{Kind, Rules, Value, OPTIONS};
use crate::engine::state::State;
use crate::engine::tiles::Catalogue;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple, PyType};
use std::io::Read;
use std::sync::Arc;

/// What option `tiles` does (it is the bindings' own: tile counts, not a `Rules` field).
const TILES_DOC: &str = "B1: tile counts that differ from the box (`ID:N,ID:N`; `;` between counts in a `--variant`, where `,` parts options).";

/// Every option's name and kind, in the order `Rules` lists them (repr, `to_dict`,
/// results-table columns): the engine's option table, then `tiles` (`None`: tile counts as
/// text, `ID:N,...`, canonicalised against the built-in catalogue).
fn options() -> impl Iterator<Item = (&'static str, Option<Kind>)> {
    OPTIONS
        .iter()
        .map(|o| (o.name, Some(o.kind)))
        .chain([("tiles", None)])
}

/// An option's kind: `Some(None)` for `tiles`, `None` for no such option.
fn kind_of(name: &str) -> Option<Option<Kind>> {
    options().find(|(n, _)| *n == name).map(|(_, k)| k)
}

/// The values an option allows, as Python values (`(str,)` for tile counts).
fn allowed<'py>(py: Python<'py>, kind: Option<Kind>) -> PyResult<Bound<'py, PyTuple>> {
    match kind {
        Some(Kind::Flag) => PyTuple::new(py, [true, false]),
        Some(Kind::Choice(texts)) => PyTuple::new(py, texts),
        Some(Kind::Edition(texts)) => {
            let mut v = vec![py.None().into_bound(py)];
            for e in texts {
                v.push(PyString::new(py, e).into_any());
            }
            PyTuple::new(py, v)
        }
        Some(Kind::Count(max)) => PyTuple::new(py, 0..=max),
        None => PyTuple::new(py, [py.get_type::<PyString>()]),
    }
}

/// A Python value as the engine's value of an option of `kind`, if it is one of the allowed.
fn engine_value(py: Python<'_>, kind: Kind, value: &Bound<'_, PyAny>) -> Option<Value> {
    let text = || value.cast::<PyString>().ok().map(|s| s.to_string());
    match kind {
        Kind::Flag => value
            .is_instance_of::<PyBool>()
            .then(|| value.extract().ok().map(Value::Flag))
            .flatten(),
        Kind::Choice(texts) => {
            let t = text()?;
            texts.iter().position(|c| *c == t).map(Value::Choice)
        }
        Kind::Edition(texts) => {
            if value.is_none() {
                return Some(Value::Choice(0));
            }
            let t = text()?;
            texts
                .iter()
                .position(|c| *c == t)
                .map(|i| Value::Choice(i + 1))
        }
        Kind::Count(max) => value
            .get_type()
            .is(py.get_type::<PyInt>())
            .then(|| value.extract::<u8>().ok())
            .flatten()
            .filter(|n| *n <= max)
            .map(Value::Count),
    }
}

/// Option `tiles` as text: text as given, a mapping `{id: count}`, or a path (`os.PathLike`,
/// or text starting with `@`) to a file of counts or to a catalogue in the `.tiles` format
/// whose counts are taken.
fn tile_counts_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = value.py();
    let err = |msg: String| PyValueError::new_err(msg);
    let mapping = py.import("collections.abc")?.getattr("Mapping")?;
    if value.is_instance(&mapping)? {
        let mut items = Vec::new();
        for item in value.call_method0("items")?.try_iter()? {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
            let id = k.cast::<PyString>().ok().map(|s| s.to_string());
            let n = (!v.is_instance_of::<PyBool>())
                .then(|| v.extract::<i64>().ok())
                .flatten();
            match (id, n) {
                (Some(id), Some(n)) => items.push(format!("{id}:{n}")),
                _ => {
                    return Err(err(format!(
                        "rule option 'tiles': {}: {} must be a tile id: count",
                        quote(&k),
                        quote(&v)
                    )))
                }
            }
        }
        return Ok(items.join(","));
    }
    let path_like = py.import("os")?.getattr("PathLike")?;
    let path: Option<Bound<'_, PyAny>> = if value.is_instance(&path_like)? {
        Some(py.import("os")?.getattr("fspath")?.call1((value,))?)
    } else {
        match value.cast::<PyString>() {
            Ok(s) if s.to_str()?.starts_with('@') => {
                Some(PyString::new(py, &s.to_str()?[1..]).into_any())
            }
            Ok(s) => return Ok(s.to_str()?.to_string()),
            Err(_) => {
                return Err(err(format!(
                    "rule option 'tiles' must be text like 'CAP:3,ROAD_WE:6', a mapping or a \
                     path, not {}",
                    value.get_type().name()?
                )))
            }
        }
    };
    let path = path.expect("a path");
    let shown = quote(path.as_any());
    let name: std::path::PathBuf = path.extract()?;
    let mut text = Vec::new();
    // A regular file only: a pipe or a device could block or never end (Ctrl-C would not
    // reach a read stuck here).
    std::fs::metadata(&name)
        .and_then(|m| {
            m.is_file().then_some(()).ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file")
            })
        })
        .and_then(|()| std::fs::File::open(&name))
        .and_then(|f| f.take(4_000_000).read_to_end(&mut text))
        .map_err(|e| {
            let why = e.to_string();
            let why = why.split(" (os error").next().unwrap_or_default();
            err(format!("rule option 'tiles': cannot read {shown}: {why}"))
        })?;
    let text = String::from_utf8_lossy(&text);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text); // a byte-order mark
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .collect();
    if lines.iter().any(|l| l.starts_with("tile ")) {
        let cat = Catalogue::from_text(text).map_err(|e| {
            err(format!(
                "rule option 'tiles': {shown}: {}",
                clip(e.to_string())
            ))
        })?;
        let counts: Vec<String> = cat
            .tiles
            .iter()
            .map(|t| format!("{}:{}", t.id, t.count))
            .collect();
        return Ok(counts.join(","));
    }
    // A line that is not a count is named by its number, never quoted: the file may be
    // anything (a user's secret), and an error is shown to whoever gave the path.
    let count_like = |l: &str| {
        l.split_once(':').is_some_and(|(id, n)| {
            !id.is_empty()
                && id.len() <= 64
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-*".contains(c))
                && (1..=3).contains(&n.len())
                && n.chars().all(|c| c.is_ascii_digit())
        })
    };
    if let Some(i) = lines.iter().position(|l| !l.is_empty() && !count_like(l)) {
        return Err(err(format!(
            "rule option 'tiles': {shown}: line {} is not a tile count like CAP:3 (one per line, \
             # for comments)",
            i + 1
        )));
    }
    let counts: Vec<&str> = lines.into_iter().filter(|l| !l.is_empty()).collect();
    if counts.is_empty() {
        // An empty file would silently leave every count as the rules give it.
        return Err(err(format!(
            "rule option 'tiles': {shown} holds no tile count (one per line like CAP:3)"
        )));
    }
    Ok(counts.join(","))
}

/// Set one option from a Python value, refusing unknown names and values outside the allowed
/// ones. Option `tiles` is stored as given (converted to text), unchecked.
fn set_option(
    r: &mut Rules,
    tiles: &mut String,
    name: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let py = value.py();
    let text: String = name.extract()?;
    let Some(kind) = kind_of(&text) else {
        let names: Vec<&str> = options().map(|(n, _)| n).collect();
        return Err(PyValueError::new_err(format!(
            "unknown rule option {}; valid options: {}",
            quote(name),
            names.join(", ")
        )));
    };
    let name = text.as_str();
    let ok = match kind {
        Some(kind) => engine_value(py, kind, value).is_some_and(|v| r.set(name, v)),
        None => {
            *tiles = if value.is_none() {
                String::new()
            } else {
                tile_counts_text(value)?
            };
            true
        }
    };
    if ok {
        return Ok(());
    }
    let shown: Vec<String> = allowed(py, kind)?
        .iter()
        .map(|a| a.repr().map(|s| s.to_string()))
        .collect::<PyResult<_>>()?;
    Err(PyValueError::new_err(format!(
        "rule option '{name}' must be one of {}; got {}",
        shown.join(", "),
        quote(value)
    )))
}

/// The tile counts of option `tiles` applied to `cat`: refused when a count names a tile that
/// is not in play (it would change nothing) or does not parse against `cat`.
fn apply_counts(rules: &Rules, tiles: &str, cat: Arc<Catalogue>) -> PyResult<Arc<Catalogue>> {
    if tiles.trim().is_empty() {
        return Ok(cat);
    }
    let counts = cat
        .parse_counts(tiles)
        .map_err(|e| PyValueError::new_err(format!("rule option tiles: {}", clip(e))))?;
    for &(t, _) in &counts {
        let tt = cat.tile(t);
        if !rules.tile_in_play(tt) {
            return Err(PyValueError::new_err(format!(
                "rule option tiles: {} (set {}) is not in play under these rules, so its count has no effect",
                tt.id, tt.set
            )));
        }
    }
    if counts.is_empty() {
        return Ok(cat);
    }
    Ok(Arc::new(cat.with_counts(&counts)))
}

/// Which rules are in play. The default is the C3 base box: River and Abbot on.
///
/// An unknown option or a bad value raises ``ValueError`` naming the valid ones; so does an
/// option set away from its default where it changes nothing (``river_start`` without the
/// River, ``gardens`` without the Abbot, ``pig`` without Traders & Builders, ...).
/// ``tiles`` changes how many copies of tiles the bag holds: ``Rules(tiles="CAP:3")``, a
/// mapping ``{"CAP": 3}``, or a path (``os.PathLike`` or text starting with ``@``) to a file
/// of such counts or to a catalogue in the ``.tiles`` format whose counts are taken.
#[pyclass(name = "Rules", module = "carcassonne._core", frozen, from_py_object)]
#[derive(Clone, Default)]
pub struct PyRules {
    pub(crate) rules: Rules,
    /// Canonical tile counts (`ID:N,...` in catalogue order, only counts that differ).
    pub(crate) tiles: String,
}

impl PyRules {
    /// The rules and the catalogue a game plays with: `cat` with the tile counts applied.
    pub(crate) fn in_catalogue(&self, cat: Arc<Catalogue>) -> PyResult<(Rules, Arc<Catalogue>)> {
        Ok((self.rules, apply_counts(&self.rules, &self.tiles, cat)?))
    }

    /// Option `name`'s value as a Python value.
    fn value<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let kind = kind_of(name).flatten();
        Ok(match (self.rules.get(name), kind) {
            (Some(Value::Flag(b)), _) => PyBool::new(py, b).to_owned().into_any(),
            (Some(Value::Choice(i)), Some(Kind::Choice(texts))) => {
                PyString::new(py, texts[i]).into_any()
            }
            (Some(Value::Choice(0)), Some(Kind::Edition(_))) => py.None().into_bound(py),
            (Some(Value::Choice(i)), Some(Kind::Edition(texts))) => {
                PyString::new(py, texts[i - 1]).into_any()
            }
            (Some(Value::Count(n)), _) => n.into_pyobject(py)?.into_any(),
            _ => PyString::new(py, &self.tiles).into_any(),
        })
    }

    fn check(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyRules> {
        let mut r = Rules::default();
        let mut tiles = String::new();
        if let Some(options) = options {
            for (k, v) in options.iter() {
                set_option(&mut r, &mut tiles, &k, &v)?;
            }
        }
        // An edition chosen for an expansion that is off names a game that does not exist.
        let d = Rules::default();
        for o in OPTIONS.iter().filter(|o| o.edition) {
            let needs = o.needs[0];
            if r.get(o.name) != d.get(o.name) && !r.on(needs) {
                let py_rules = PyRules {
                    rules: r,
                    tiles: String::new(),
                };
                let value = py_rules.value(py, o.name)?.repr()?;
                return Err(PyValueError::new_err(format!(
                    "rule option {}={value} needs {needs}=True ({needs} is off)",
                    o.name
                )));
            }
        }
        // The engine refuses options with no effect under the others and tile counts that
        // break the game, and gives the counts their canonical text.
        r.validate().map_err(value_error)?;
        let builtin = Catalogue::builtin();
        let cat = apply_counts(&r, &tiles, builtin.clone())?;
        State::new(cat.clone(), r, 2, 0)
            .map_err(|e| PyValueError::new_err(format!("these rules cannot be played: {e}")))?;
        let counts: Vec<(u16, u8)> = cat
            .tiles
            .iter()
            .enumerate()
            .filter(|(i, t)| builtin.tiles[*i].count != t.count)
            .map(|(i, t)| (i as u16, t.count))
            .collect();
        Ok(PyRules {
            rules: r,
            tiles: builtin.counts_text(&counts),
        })
    }
}

/// The Python methods of `Rules`, and a getter for each option of the engine's table
/// (`engine::rules::rule_options`).
macro_rules! rules_class {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ty = $default:expr, $needs:ident [$($need:ident),*], title $title:literal;
    )*) => {
        #[pymethods]
        impl PyRules {
            #[new]
            #[pyo3(signature = (**options))]
            fn new(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyRules> {
                PyRules::check(py, options)
            }

            /// The base game alone (no River, no Abbot).
            #[classmethod]
            #[pyo3(signature = (**options))]
            fn base<'py>(
                cls: &Bound<'py, PyType>,
                options: Option<&Bound<'py, PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let py = cls.py();
                let all = PyDict::new(py);
                all.set_item("river", false)?;
                all.set_item("abbot", false)?;
                if let Some(options) = options {
                    all.update(options.as_mapping())?;
                }
                cls.call((), Some(&all))
            }

            /// Every expansion on (one with editions in its newest), every other option at its
            /// default or as given: the engine's list of expansions (``_core.EXPANSIONS``).
            #[classmethod]
            #[pyo3(signature = (**options))]
            fn every_expansion<'py>(
                cls: &Bound<'py, PyType>,
                options: Option<&Bound<'py, PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let py = cls.py();
                let every = PyRules {
                    rules: Rules::every_expansion(),
                    tiles: String::new(),
                };
                let all = PyDict::new(py);
                for name in crate::expansions::NAMES {
                    all.set_item(name, every.value(py, name)?)?;
                }
                if let Some(options) = options {
                    all.update(options.as_mapping())?;
                }
                cls.call((), Some(&all))
            }

            /// Like ``Rules(**options)``, but options with no effect under the others go back to
            /// their defaults instead of being refused: for sweeping a grid of options.
            ///
            /// >>> Rules.lenient(river=False, river_start="discard") == Rules(river=False)
            /// True
            #[classmethod]
            #[pyo3(signature = (**options))]
            fn lenient<'py>(
                cls: &Bound<'py, PyType>,
                options: Option<&Bound<'py, PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let py = cls.py();
                let kept = PyDict::new(py);
                let mut r = Rules::default();
                let mut tiles = String::new();
                if let Some(options) = options {
                    for (k, v) in options.iter() {
                        if k.extract::<String>().is_ok_and(|n| kind_of(&n).is_some()) {
                            set_option(&mut r, &mut tiles, &k, &v)?;
                        }
                    }
                    let mut idle: Vec<&str> = r.idle().into_iter().map(|(n, _)| n).collect();
                    let cat = Catalogue::builtin();
                    if let Ok(counts) = cat.parse_counts(&tiles) {
                        if counts.iter().any(|&(t, _)| !r.tile_in_play(cat.tile(t))) {
                            idle.push("tiles");
                        }
                    }
                    for (k, v) in options.iter() {
                        let name = k.extract::<String>().unwrap_or_default();
                        if idle.contains(&name.as_str()) {
                            continue;
                        }
                        if name == "tiles" && !v.is_none() {
                            kept.set_item(k, &tiles)?;
                        } else {
                            kept.set_item(k, v)?;
                        }
                    }
                }
                cls.call((), Some(&kept))
            }

            /// Rules from a mapping of options (a record's or a table's): ``Rules(**data)``.
            #[classmethod]
            fn from_dict<'py>(
                cls: &Bound<'py, PyType>,
                data: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let py = cls.py();
                let mapping = py.import("collections.abc")?.getattr("Mapping")?;
                if !data.is_instance(&mapping)? {
                    return Err(PyValueError::new_err(format!(
                        "rules must be a mapping of options, not {}",
                        data.get_type().name()?
                    )));
                }
                let options = PyDict::new(py);
                for item in data.call_method0("items")?.try_iter()? {
                    let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
                    options.set_item(k, v)?;
                }
                cls.call((), Some(&options))
            }

            /// Every option with its allowed values (``(str,)``: text, for ``tiles``).
            #[staticmethod]
            fn options(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
                let d = PyDict::new(py);
                for (name, kind) in options() {
                    d.set_item(name, allowed(py, kind)?)?;
                }
                Ok(d)
            }

            /// Every option with its one-line description (rule ids first), for help texts.
        #[staticmethod]
        fn option_docs(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
            let d = PyDict::new(py);
            for o in OPTIONS {
                d.set_item(o.name, o.doc.trim())?;
            }
            d.set_item("tiles", TILES_DOC)?;
            Ok(d)
        }

        /// Every option with its default value.
            #[staticmethod]
            fn defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
                PyRules::default().to_dict(py)
            }

            /// The options that differ from their defaults.
            fn changed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                let d = PyRules::default();
                let out = PyDict::new(py);
                for (name, _) in options() {
                    let v = self.value(py, name)?;
                    if !v.eq(d.value(py, name)?)? {
                        out.set_item(name, v)?;
                    }
                }
                Ok(out)
            }

            /// Every option with its value.
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                let out = PyDict::new(py);
                for (name, _) in options() {
                    out.set_item(name, self.value(py, name)?)?;
                }
                Ok(out)
            }

            /// These rules with some options changed (checked like ``Rules(**options)``).
            #[pyo3(signature = (**changes))]
            fn replace<'py>(
                slf: &Bound<'py, Self>,
                changes: Option<&Bound<'py, PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let all = slf.get().to_dict(slf.py())?;
                if let Some(changes) = changes {
                    all.update(changes.as_mapping())?;
                }
                slf.get_type().call((), Some(&all))
            }

            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
                // Rules travel to worker processes (executors, Dask) by their options.
                let from_dict = slf.get_type().getattr("from_dict")?;
                let dict = slf.get().to_dict(slf.py())?;
                PyTuple::new(
                    slf.py(),
                    [from_dict, PyTuple::new(slf.py(), [dict])?.into_any()],
                )
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                other
                    .cast::<PyRules>()
                    .is_ok_and(|o| o.get().rules == self.rules && o.get().tiles == self.tiles)
            }

            fn __hash__(&self) -> u64 {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                (self.rules, &self.tiles).hash(&mut h);
                h.finish()
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                // Only the options away from their defaults: Rules(**those) is the same rules.
                let parts: Vec<String> = self
                    .changed(py)?
                    .iter()
                    .map(|(k, v)| Ok(format!("{}={}", k.extract::<String>()?, v.repr()?)))
                    .collect::<PyResult<_>>()?;
                Ok(format!("Rules({})", parts.join(", ")))
            }

            /// B1: tile counts that differ from the box (`ID:N,ID:N`; `;` between counts in a `--variant`, where `,` parts options).
            #[getter]
            fn tiles(&self) -> &str {
                &self.tiles
            }

            // One getter per option of the engine's table, with its doc.
            $(
                $(#[doc = $doc])+
                #[getter]
                fn $name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    self.value(py, stringify!($name))
                }
            )*
        }
    };
}

crate::engine::rules::rule_options!(rules_class);
