//! `Rules`: the rule options as one frozen value, the single source of option names, allowed
//! values, defaults and validation for Python (the engine's `Rules::default`, `validate`,
//! `idle` and `tile_in_play` decide; this file only names and converts).

use super::errors::{clip, quote};
use crate::engine::rules::{
    Edition, FortuneTellerEdition, RiverEdition, RiverStart, RiverTurns, Rules, TollFlip,
    MAX_FORTUNE_TELLERS,
};
use crate::engine::state::State;
use crate::engine::tiles::Catalogue;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple, PyType};
use std::io::Read;
use std::sync::Arc;

/// What values an option takes.
#[derive(Clone, Copy)]
enum Kind {
    /// True or False.
    Flag,
    /// One of these texts (the default first).
    Choice(&'static [&'static str]),
    /// None (off) or an edition text: Traders & Builders.
    Edition,
    /// A whole number from 0 to MAX_FORTUNE_TELLERS (not a bool).
    Count,
    /// Tile counts as text (`ID:N,...`), canonicalised against the built-in catalogue.
    Tiles,
}

/// Every option in the order `Rules` lists them (repr, `to_dict`, results-table columns).
const OPTIONS: [(&str, Kind); 21] = [
    ("river", Kind::Flag),
    ("abbot", Kind::Flag),
    ("small_city", Kind::Flag),
    ("river_start", Kind::Choice(&["shuffle", "discard"])),
    ("traders_builders", Kind::Edition),
    ("toll_collectors", Kind::Flag),
    ("fortune_teller", Kind::Flag),
    ("big_top", Kind::Flag),
    // Tile editions: the C3 River's spring has a road and its lake a monastery; the C2 art of
    // the Fortune Teller has a garden on tile 05 (docs/catalogue.md, "Editions").
    ("river_edition", Kind::Choice(&["C3", "C2"])),
    ("fortune_teller_edition", Kind::Choice(&["C2", "C1"])),
    // Study variables (docs/rules.md, "Rule options"): components on/off and readings.
    ("farmers", Kind::Flag),
    ("gardens", Kind::Flag),
    ("builder", Kind::Flag),
    ("pig", Kind::Flag),
    ("goods", Kind::Flag),
    ("ringmaster", Kind::Flag),
    ("acrobats", Kind::Flag),
    ("max_fortune_tellers", Kind::Count),
    ("river_turns", Kind::Choice(&["consecutive", "strict"])),
    ("toll_flip", Kind::Choice(&["turn", "owner"])),
    ("tiles", Kind::Tiles),
];

const EDITIONS: [&str; 2] = ["C3.1", "C2"];

/// An edition chosen away from its default names a game only with its expansion: option ->
/// expansion option.
const EDITION_NEEDS: [(&str, &str); 2] = [
    ("river_edition", "river"),
    ("fortune_teller_edition", "fortune_teller"),
];

fn kind_of(name: &str) -> Option<Kind> {
    OPTIONS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
}

fn flag<'r>(r: &'r mut Rules, name: &str) -> &'r mut bool {
    match name {
        "river" => &mut r.river,
        "abbot" => &mut r.abbot,
        "small_city" => &mut r.small_city,
        "toll_collectors" => &mut r.toll_collectors,
        "fortune_teller" => &mut r.fortune_teller,
        "big_top" => &mut r.big_top,
        "farmers" => &mut r.farmers,
        "gardens" => &mut r.gardens,
        "builder" => &mut r.builder,
        "pig" => &mut r.pig,
        "goods" => &mut r.goods,
        "ringmaster" => &mut r.ringmaster,
        "acrobats" => &mut r.acrobats,
        _ => unreachable!("not an on/off option: {name}"),
    }
}

/// The index of a choice option's value in its `Kind::Choice` list.
fn choice(r: &Rules, name: &str) -> usize {
    match name {
        "river_start" => usize::from(r.river_start == RiverStart::Discard),
        "river_edition" => usize::from(r.river_edition == RiverEdition::C2),
        "fortune_teller_edition" => {
            usize::from(r.fortune_teller_edition == FortuneTellerEdition::C1)
        }
        "river_turns" => usize::from(r.river_turns == RiverTurns::Strict),
        "toll_flip" => usize::from(r.toll_flip == TollFlip::Owner),
        _ => unreachable!("not a choice option: {name}"),
    }
}

fn set_choice(r: &mut Rules, name: &str, i: usize) {
    let second = i == 1;
    match name {
        "river_start" => {
            r.river_start = if second {
                RiverStart::Discard
            } else {
                RiverStart::Shuffle
            }
        }
        "river_edition" => {
            r.river_edition = if second {
                RiverEdition::C2
            } else {
                RiverEdition::C3
            }
        }
        "fortune_teller_edition" => {
            r.fortune_teller_edition = if second {
                FortuneTellerEdition::C1
            } else {
                FortuneTellerEdition::C2
            }
        }
        "river_turns" => {
            r.river_turns = if second {
                RiverTurns::Strict
            } else {
                RiverTurns::Consecutive
            }
        }
        "toll_flip" => {
            r.toll_flip = if second {
                TollFlip::Owner
            } else {
                TollFlip::Turn
            }
        }
        _ => unreachable!("not a choice option: {name}"),
    }
}

/// The values an option allows, as Python values (`(str,)` for tile counts).
fn allowed<'py>(py: Python<'py>, kind: Kind) -> PyResult<Bound<'py, PyTuple>> {
    match kind {
        Kind::Flag => PyTuple::new(py, [true, false]),
        Kind::Choice(texts) => PyTuple::new(py, texts),
        Kind::Edition => {
            let mut v = vec![py.None().into_bound(py)];
            for e in EDITIONS {
                v.push(PyString::new(py, e).into_any());
            }
            PyTuple::new(py, v)
        }
        Kind::Count => PyTuple::new(py, 0..=MAX_FORTUNE_TELLERS),
        Kind::Tiles => PyTuple::new(py, [py.get_type::<PyString>()]),
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
    let shown = path.repr()?.to_string();
    let name: std::path::PathBuf = path.extract()?;
    let mut text = Vec::new();
    std::fs::File::open(&name)
        .and_then(|f| f.take(4_000_000).read_to_end(&mut text))
        .map_err(|e| {
            let why = e.to_string();
            let why = why.split(" (os error").next().unwrap_or_default();
            err(format!("rule option 'tiles': cannot read {shown}: {why}"))
        })?;
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .collect();
    if lines.iter().any(|l| l.starts_with("tile ")) {
        let cat = Catalogue::from_text(&text).map_err(|e| {
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
    Ok(lines
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(","))
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
        let names: Vec<&str> = OPTIONS.iter().map(|(n, _)| *n).collect();
        return Err(PyValueError::new_err(format!(
            "unknown rule option {}; valid options: {}",
            quote(name),
            names.join(", ")
        )));
    };
    let name = text.as_str();
    let as_str = |v: &Bound<'_, PyAny>| v.cast::<PyString>().ok().map(|s| s.to_string());
    let ok = match kind {
        Kind::Flag => {
            value.is_instance_of::<PyBool>() && {
                *flag(r, name) = value.extract()?;
                true
            }
        }
        Kind::Choice(texts) => match as_str(value).and_then(|t| texts.iter().position(|c| *c == t))
        {
            Some(i) => {
                set_choice(r, name, i);
                true
            }
            None => false,
        },
        Kind::Edition => {
            if value.is_none() {
                r.traders_builders = None;
                true
            } else {
                match as_str(value).as_deref() {
                    Some("C3.1") => {
                        r.traders_builders = Some(Edition::C31);
                        true
                    }
                    Some("C2") => {
                        r.traders_builders = Some(Edition::C2);
                        true
                    }
                    _ => false,
                }
            }
        }
        Kind::Count => {
            let n = value
                .get_type()
                .is(py.get_type::<PyInt>())
                .then(|| value.extract::<u8>().ok())
                .flatten()
                .filter(|n| *n <= MAX_FORTUNE_TELLERS);
            if let Some(n) = n {
                r.max_fortune_tellers = n;
            }
            n.is_some()
        }
        Kind::Tiles => {
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
        .map_err(|e| PyValueError::new_err(format!("rule option tiles: {e}")))?;
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

    fn value<'py>(&self, py: Python<'py>, name: &str, kind: Kind) -> PyResult<Bound<'py, PyAny>> {
        let mut r = self.rules;
        Ok(match kind {
            Kind::Flag => PyBool::new(py, *flag(&mut r, name)).to_owned().into_any(),
            Kind::Choice(texts) => PyString::new(py, texts[choice(&r, name)]).into_any(),
            Kind::Edition => match r.traders_builders {
                None => py.None().into_bound(py),
                Some(Edition::C31) => PyString::new(py, EDITIONS[0]).into_any(),
                Some(Edition::C2) => PyString::new(py, EDITIONS[1]).into_any(),
            },
            Kind::Count => r.max_fortune_tellers.into_pyobject(py)?.into_any(),
            Kind::Tiles => PyString::new(py, &self.tiles).into_any(),
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
        let d = Rules::default();
        for (option, needs) in EDITION_NEEDS {
            let mut probe = r;
            let changed = choice(&r, option) != choice(&d, option);
            if changed && !*flag(&mut probe, needs) {
                let py_rules = PyRules {
                    rules: r,
                    tiles: String::new(),
                };
                let value = py_rules
                    .value(py, option, kind_of(option).expect("an option"))?
                    .repr()?;
                return Err(PyValueError::new_err(format!(
                    "rule option {option}={value} needs {needs}=True ({needs} is off)"
                )));
            }
        }
        // The engine refuses options with no effect under the others and tile counts that
        // break the game, and gives the counts their canonical text.
        r.validate().map_err(PyValueError::new_err)?;
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
        for (name, kind) in OPTIONS {
            d.set_item(name, allowed(py, kind)?)?;
        }
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
        for (name, kind) in OPTIONS {
            let v = self.value(py, name, kind)?;
            if !v.eq(d.value(py, name, kind)?)? {
                out.set_item(name, v)?;
            }
        }
        Ok(out)
    }

    /// Every option with its value.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (name, kind) in OPTIONS {
            out.set_item(name, self.value(py, name, kind)?)?;
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

    /// R1-R7: the 12 River tiles open the game.
    #[getter]
    fn river(&self) -> bool {
        self.rules.river
    }
    /// A1-A5: one abbot per player; gardens score.
    #[getter]
    fn abbot(&self) -> bool {
        self.rules.abbot
    }
    /// B13: a completed two-tile city scores as an incomplete one (C1 rule).
    #[getter]
    fn small_city(&self) -> bool {
        self.rules.small_city
    }
    /// R2: the base start tile is shuffled in (`shuffle`) or set aside (`discard`).
    #[getter]
    fn river_start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.value(py, "river_start", OPTIONS[3].1)
    }
    /// TB1-TB12: Traders & Builders in edition `C3.1` or `C2`, or None.
    #[getter]
    fn traders_builders<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.value(py, "traders_builders", Kind::Edition)
    }
    /// TC1-TC7: Toll Collectors.
    #[getter]
    fn toll_collectors(&self) -> bool {
        self.rules.toll_collectors
    }
    /// FT1-FT9: the Fortune Teller.
    #[getter]
    fn fortune_teller(&self) -> bool {
        self.rules.fortune_teller
    }
    /// BT1-BT11: Under the Big Top.
    #[getter]
    fn big_top(&self) -> bool {
        self.rules.big_top
    }
    /// R1: the edition of the River's spring and lake (`C3`, `C2`).
    #[getter]
    fn river_edition<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.value(py, "river_edition", OPTIONS[8].1)
    }
    /// FT1: the art of the Fortune Teller tiles (`C2`, `C1`).
    #[getter]
    fn fortune_teller_edition<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.value(py, "fortune_teller_edition", OPTIONS[9].1)
    }
    /// B8, B22: farmers may be placed and fields score.
    #[getter]
    fn farmers(&self) -> bool {
        self.rules.farmers
    }
    /// A1-A3: gardens take the abbot and score.
    #[getter]
    fn gardens(&self) -> bool {
        self.rules.gardens
    }
    /// TB4-TB8: the builder is in play.
    #[getter]
    fn builder(&self) -> bool {
        self.rules.builder
    }
    /// TB9-TB12: the pig is in play.
    #[getter]
    fn pig(&self) -> bool {
        self.rules.pig
    }
    /// TB1-TB3: goods tokens are taken and score.
    #[getter]
    fn goods(&self) -> bool {
        self.rules.goods
    }
    /// BT10-BT11: the ringmaster is in play.
    #[getter]
    fn ringmaster(&self) -> bool {
        self.rules.ringmaster
    }
    /// BT6-BT9: acrobats are in play.
    #[getter]
    fn acrobats(&self) -> bool {
        self.rules.acrobats
    }
    /// FT2: fortune tellers a player may have on the board at once.
    #[getter]
    fn max_fortune_tellers(&self) -> u8 {
        self.rules.max_fortune_tellers
    }
    /// R5: which consecutive river turns are forbidden (`consecutive`, `strict`).
    #[getter]
    fn river_turns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.value(py, "river_turns", OPTIONS[18].1)
    }
    /// TC5: when a tollhouse flips (`turn`, `owner`).
    #[getter]
    fn toll_flip<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.value(py, "toll_flip", OPTIONS[19].1)
    }
    /// B1: tile counts that differ from the box (`ID:N,...` in catalogue order).
    #[getter]
    fn tiles(&self) -> &str {
        &self.tiles
    }
}
