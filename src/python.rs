//! Python bindings (`carcassonne._core`). Thin: every rule decision stays in the Rust core.

use crate::features::{unpack_figure, NO_FIGURE};
use crate::game::{Drawn, Phase, State, NONE16};
use crate::geometry::{EDGE_NAMES, HALF_NAMES};
use crate::moves::{segment_label, Action, ChanceError, Illegal, Move, ParseError};
use crate::playout::{self, Policy};
use crate::rules::{
    Edition, FortuneTellerEdition, RiverEdition, RiverStart, RiverTurns, Rules, TollFlip,
};
use crate::scoring::{N_SOURCES, SOURCE_NAMES};
use crate::tiles::{Catalogue, SegmentKind};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

create_exception!(
    _core,
    PlayError,
    PyValueError,
    "A step the game refuses (a move or a draw); the game is unchanged."
);
create_exception!(
    _core,
    IllegalMoveError,
    PlayError,
    "A move that the rules do not allow now; the game is unchanged. `rule` is the id of the rule it breaks (docs/rules.md), or None."
);
create_exception!(
    _core,
    InvalidMoveError,
    PlayError,
    "Text that is not a move in the notation."
);
create_exception!(
    _core,
    DrawError,
    PlayError,
    "A tile that cannot be drawn now; the game is unchanged."
);

// The engine's typed errors as the Python exceptions: text that is not a move, a move the
// rules refuse (with its rule id as `.rule`), a chance step that cannot happen.
impl From<ParseError> for PyErr {
    fn from(e: ParseError) -> PyErr {
        InvalidMoveError::new_err(clip(e.0))
    }
}

impl From<Illegal> for PyErr {
    fn from(e: Illegal) -> PyErr {
        let err = IllegalMoveError::new_err(clip(e.message));
        Python::attach(|py| err.value(py).setattr("rule", e.rule))
            .map_or_else(|set_failed| set_failed, |_| err)
    }
}

impl From<ChanceError> for PyErr {
    fn from(e: ChanceError) -> PyErr {
        DrawError::new_err(e.0)
    }
}

impl From<crate::moves::PlayError> for PyErr {
    fn from(e: crate::moves::PlayError) -> PyErr {
        use crate::moves::PlayError as E;
        match e {
            E::Parse(e) => e.into(),
            E::Illegal(e) => e.into(),
            E::Chance(e) => e.into(),
        }
    }
}
create_exception!(
    _core,
    CatalogueError,
    PyValueError,
    "A tile catalogue that fails validation."
);

/// A move made for another tile than the one drawn (B3: the drawn tile is the one placed).
fn other_tile() -> Illegal {
    Illegal::new("B3", "the move is for another tile than the one drawn")
}

/// A validated tile catalogue.
#[pyclass(
    name = "Catalogue",
    module = "carcassonne._core",
    frozen,
    from_py_object
)]
#[derive(Clone)]
pub struct PyCatalogue {
    cat: Arc<Catalogue>,
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
        crate::tiles::BUILTIN_SETS
            .iter()
            .find(|(name, _)| *name == set)
            .or_else(|| {
                crate::tiles::BUILTIN_SETS
                    .iter()
                    .find(|(_, text)| holds(text))
            })
            .map(|(_, text)| *text)
            .ok_or_else(|| {
                let names: Vec<&str> = crate::tiles::BUILTIN_SETS.iter().map(|(n, _)| *n).collect();
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
        sd.set_item("road", (s.road != crate::tiles::NO_SEG).then_some(s.road))?;
        segs.append(sd)?;
    }
    d.set_item("segments", segs)?;
    Ok(d)
}

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
    fn text(&self) -> String {
        crate::moves::move_text(&self.cat, self.tile, &self.inner)
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

/// The rule options `carcassonne.Rules` passes as keywords, and the catalogue they play with
/// (option `tiles` changes tile counts). Refuses unknown options, bad values and options that
/// have no effect under the others.
fn rules_from_options(
    opts: Option<&Bound<'_, PyDict>>,
    cat: Arc<Catalogue>,
) -> PyResult<(Rules, Arc<Catalogue>)> {
    let (r, tiles) = parse_options(opts)?;
    r.validate().map_err(PyValueError::new_err)?;
    if tiles.trim().is_empty() {
        return Ok((r, cat));
    }
    let counts = cat
        .parse_counts(&tiles)
        .map_err(|e| PyValueError::new_err(format!("rule option tiles: {e}")))?;
    for &(t, _) in &counts {
        let tt = cat.tile(t);
        if !r.tile_in_play(tt) {
            return Err(PyValueError::new_err(format!(
                "rule option tiles: {} (set {}) is not in play under these rules, so its count has no effect",
                tt.id, tt.set
            )));
        }
    }
    if counts.is_empty() {
        return Ok((r, cat));
    }
    Ok((r, Arc::new(cat.with_counts(&counts))))
}

/// The rule options as given, unchecked against each other; option `tiles` as text.
fn parse_options(opts: Option<&Bound<'_, PyDict>>) -> PyResult<(Rules, String)> {
    let mut r = Rules::default();
    let mut tiles = String::new();
    let Some(opts) = opts else {
        return Ok((r, tiles));
    };
    for (k, v) in opts.iter() {
        let name: String = k.extract()?;
        let flag = |v: &Bound<'_, PyAny>| -> PyResult<bool> {
            v.extract::<bool>().map_err(|_| {
                PyValueError::new_err(format!("rule option {name} must be True or False, not {v}"))
            })
        };
        let text = |v: &Bound<'_, PyAny>| -> PyResult<String> {
            v.extract::<String>().map_err(|_| {
                PyValueError::new_err(format!("rule option {name} must be a str, not {v}"))
            })
        };
        let choice = |v: &Bound<'_, PyAny>, valid: &[&str]| -> PyResult<String> {
            let t = text(v)?;
            if valid.contains(&t.as_str()) {
                Ok(t)
            } else {
                Err(PyValueError::new_err(format!(
                    "rule option {name} must be one of {}, not {t:?}",
                    valid.join(", ")
                )))
            }
        };
        match name.as_str() {
            "river" => r.river = flag(&v)?,
            "abbot" => r.abbot = flag(&v)?,
            "small_city" => r.small_city = flag(&v)?,
            "toll_collectors" => r.toll_collectors = flag(&v)?,
            "fortune_teller" => r.fortune_teller = flag(&v)?,
            "big_top" => r.big_top = flag(&v)?,
            "farmers" => r.farmers = flag(&v)?,
            "gardens" => r.gardens = flag(&v)?,
            "builder" => r.builder = flag(&v)?,
            "pig" => r.pig = flag(&v)?,
            "goods" => r.goods = flag(&v)?,
            "ringmaster" => r.ringmaster = flag(&v)?,
            "acrobats" => r.acrobats = flag(&v)?,
            "river_start" => {
                r.river_start = match choice(&v, &["shuffle", "discard"])?.as_str() {
                    "shuffle" => RiverStart::Shuffle,
                    _ => RiverStart::Discard,
                }
            }
            "river_turns" => {
                r.river_turns = match choice(&v, &["consecutive", "strict"])?.as_str() {
                    "consecutive" => RiverTurns::Consecutive,
                    _ => RiverTurns::Strict,
                }
            }
            "river_edition" => {
                r.river_edition = match choice(&v, &["C3", "C2"])?.as_str() {
                    "C3" => RiverEdition::C3,
                    _ => RiverEdition::C2,
                }
            }
            "fortune_teller_edition" => {
                r.fortune_teller_edition = match choice(&v, &["C2", "C1"])?.as_str() {
                    "C2" => FortuneTellerEdition::C2,
                    _ => FortuneTellerEdition::C1,
                }
            }
            "toll_flip" => {
                r.toll_flip = match choice(&v, &["turn", "owner"])?.as_str() {
                    "turn" => TollFlip::Turn,
                    _ => TollFlip::Owner,
                }
            }
            "traders_builders" => {
                r.traders_builders = if v.is_none() {
                    None
                } else {
                    match choice(&v, &["C3.1", "C2"])?.as_str() {
                        "C3.1" => Some(Edition::C31),
                        _ => Some(Edition::C2),
                    }
                }
            }
            "max_fortune_tellers" => {
                r.max_fortune_tellers = v
                    .extract::<u8>()
                    .ok()
                    .filter(|_| !v.is_instance_of::<pyo3::types::PyBool>())
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "rule option max_fortune_tellers must be an int from 0 to {}, not {v}",
                            crate::rules::MAX_FORTUNE_TELLERS
                        ))
                    })?
            }
            "tiles" => {
                tiles = if v.is_none() {
                    String::new()
                } else {
                    text(&v)?
                };
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown rule option {name:?}"
                )))
            }
        }
    }
    Ok((r, tiles))
}

/// Rule options set away from their defaults that have no effect under the others.
#[pyfunction]
#[pyo3(signature = (**options))]
fn idle_rule_options(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<&'static str>> {
    let (rules, tiles) = parse_options(options)?;
    let mut out: Vec<&'static str> = rules.idle().into_iter().map(|(n, _)| n).collect();
    let cat = Catalogue::builtin();
    if let Ok(counts) = cat.parse_counts(&tiles) {
        if counts
            .iter()
            .any(|&(t, _)| !rules.tile_in_play(cat.tile(t)))
        {
            out.push("tiles");
        }
    }
    Ok(out)
}

/// Check rule options as `carcassonne.Rules` holds them against the built-in catalogue
/// (tile counts included: a game must be playable with them). Returns the canonical text
/// of option `tiles` (`ID:N,...` in catalogue order, only counts that differ).
#[pyfunction]
#[pyo3(signature = (**options))]
fn check_rules(options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let builtin = Catalogue::builtin();
    let (rules, cat) = rules_from_options(options, builtin.clone())?;
    State::new(cat.clone(), rules, 2, 0)
        .map_err(|e| PyValueError::new_err(format!("these rules cannot be played: {e}")))?;
    let counts: Vec<(u16, u8)> = cat
        .tiles
        .iter()
        .enumerate()
        .filter(|(i, t)| builtin.tiles[*i].count != t.count)
        .map(|(i, t)| (i as u16, t.count))
        .collect();
    Ok(builtin.counts_text(&counts))
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Draw => "draw",
        Phase::Place => "place",
        Phase::Farmer => "farmer",
        Phase::Choose => "choose",
        Phase::Reveal => "reveal",
        Phase::Over => "over",
    }
}

/// The complete rule state of one game.
#[pyclass(name = "State", module = "carcassonne._core", skip_from_py_object)]
#[derive(Clone)]
pub struct PyState {
    pub(crate) st: State,
}

impl PyState {
    fn resolve_tile(&self, id: &str) -> PyResult<u16> {
        self.st
            .cat
            .id(id)
            .ok_or_else(|| DrawError::new_err(clip(format!("unknown tile id `{id}`"))))
    }
    pub(crate) fn make_move(&self, m: Move) -> PyMove {
        PyMove {
            inner: m,
            tile: self.st.tile,
            cat: self.st.cat.clone(),
        }
    }
    fn label_of(&self, g: u16) -> String {
        let seg = &self.st.segs[g as usize];
        let p = &self.st.board.placed[seg.placed as usize];
        segment_label(self.st.cat.tile(p.tile), p.rot, seg.local)
    }
}

#[pymethods]
impl PyState {
    #[new]
    #[pyo3(signature = (players=2, seed=0, catalogue=None, **rules))]
    fn new(
        players: usize,
        seed: u64,
        catalogue: Option<PyCatalogue>,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyState> {
        let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
        let (rules, cat) = rules_from_options(rules, cat)?;
        let st = State::new(cat, rules, players, seed).map_err(PyValueError::new_err)?;
        Ok(PyState { st })
    }

    /// Replace the bag before the first draw (ids in draw order when `ordered`, else shuffled
    /// by the seed).
    fn set_bag(&mut self, tiles: Vec<String>, ordered: bool) -> PyResult<()> {
        let ids = tiles
            .iter()
            .map(|id| {
                self.st
                    .cat
                    .id(id)
                    .ok_or_else(|| PyValueError::new_err(format!("bag: unknown tile id `{id}`")))
            })
            .collect::<PyResult<Vec<u16>>>()?;
        self.st
            .set_bag(&ids, ordered)
            .map_err(|e| PyValueError::new_err(format!("bag: {e}")))
    }

    /// Scores, breakdown and winners if the game ended now (final scoring on a copy).
    #[pyo3(signature = (animals=Vec::new()))]
    fn final_scores<'py>(&self, py: Python<'py>, animals: Vec<u8>) -> PyResult<Bound<'py, PyDict>> {
        let done = self.st.ended_now(&animals)?;
        let view = PyState { st: done };
        let d = PyDict::new(py);
        d.set_item("scores", view.scores())?;
        d.set_item("breakdown", view.breakdown(py)?)?;
        d.set_item("winners", view.winners())?;
        Ok(d)
    }

    /// An independent copy (cheap: flat arrays, shared catalogue).
    fn copy(&self) -> PyState {
        self.clone()
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    /// `draw`, `place` or `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.st.phase)
    }

    #[getter]
    fn current_player(&self) -> u8 {
        self.st.current
    }

    /// The player who must decide now (a pig's owner during a farmer choice, TB10).
    #[getter]
    fn to_move(&self) -> u8 {
        self.st.to_move()
    }

    /// Traders & Builders: this turn part is the builder's second part (TB6).
    #[getter]
    fn second_part(&self) -> bool {
        self.st.tb.second_part
    }

    /// Traders & Builders: the active player's builder was triggered in this turn part, so
    /// the same player moves again after it (TB5, TB6, TB8).
    #[getter]
    fn builder_triggered(&self) -> bool {
        self.st.tb.triggered
    }

    /// Goods tokens a player holds (TB1), by kind.
    fn goods<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyDict>> {
        if player >= self.st.players as usize {
            return Err(PyIndexError::new_err(format!("no player {player}")));
        }
        let d = PyDict::new(py);
        if let Some(ed) = self.st.rules.traders_builders {
            let names = crate::traders_builders::GOODS_NAMES[usize::from(ed == Edition::C31)];
            for (k, name) in names.iter().enumerate() {
                d.set_item(*name, self.st.tb.goods[player][k])?;
            }
        }
        Ok(d)
    }

    #[getter]
    fn players(&self) -> u8 {
        self.st.players
    }

    /// The drawn tile waiting to be placed, or None.
    #[getter]
    fn tile(&self) -> Option<String> {
        (self.st.tile != NONE16).then(|| self.st.cat.tile(self.st.tile).id.clone())
    }

    #[getter]
    fn turns(&self) -> u16 {
        self.st.turns
    }

    #[getter]
    fn discarded(&self) -> u16 {
        self.st.discarded
    }

    #[getter]
    fn bag_size(&self) -> usize {
        self.st.bag.len()
    }

    /// Tiles left in the bag: id -> copies.
    fn bag<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for &t in &self.st.bag {
            let id = &self.st.cat.tile(t).id;
            let n: usize = d.get_item(id)?.map_or(Ok(0), |v| v.extract())?;
            d.set_item(id, n + 1)?;
        }
        Ok(d)
    }

    /// What chance may give now: tiles (river tiles first, R3) id -> copies, or during a
    /// reveal the animal tokens left (`animal:7` -> count).
    fn drawable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if self.st.phase == Phase::Reveal {
            // The chance step is an animal token: `animal:POINTS` -> tokens left.
            for (k, (v, _)) in crate::big_top::ANIMALS.iter().enumerate() {
                if self.st.bt.stack[k] > 0 {
                    d.set_item(format!("animal:{v}"), self.st.bt.stack[k])?;
                }
            }
            return Ok(d);
        }
        for &t in self.st.drawable() {
            let id = &self.st.cat.tile(t).id;
            let n: usize = d.get_item(id)?.map_or(Ok(0), |v| v.extract())?;
            d.set_item(id, n + 1)?;
        }
        Ok(d)
    }

    /// Draw the named tile (a caller following a physical game). Returns False when the tile
    /// fits nowhere and was discarded (B7).
    fn draw(&mut self, tile: &str) -> PyResult<bool> {
        if let Some(v) = tile.strip_prefix("animal:") {
            let value: u8 = v.parse().map_err(|_| {
                DrawError::new_err(clip(format!(
                    "`{tile}` is not an animal token like animal:7"
                )))
            })?;
            return Ok(self.st.reveal(value).map(|_| true)?);
        }
        if self.st.phase == Phase::Reveal {
            return Err(DrawError::new_err(
                "the animal token under the big top must be revealed first: draw(\"animal:N\") (BT3)",
            ));
        }
        let t = self.resolve_tile(tile)?;
        match self.st.draw(t) {
            Ok(Drawn::Ready | Drawn::Hand) => Ok(true),
            Ok(Drawn::Discarded) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Draw from the seeded bag until a tile waits to be placed or the game ends. Returns the
    /// ids drawn, discarded ones included.
    fn draw_random(&mut self) -> PyResult<Vec<String>> {
        if !matches!(self.st.phase, Phase::Draw | Phase::Reveal) {
            return Err(DrawError::new_err(format!(
                "cannot draw now: the game is in phase `{}`",
                phase_name(self.st.phase)
            )));
        }
        let cat = self.st.cat.clone();
        let drawn = std::cell::RefCell::new(Vec::new());
        self.st.chance_random(
            &mut |t| drawn.borrow_mut().push(cat.tile(t).id.clone()),
            &mut |v| drawn.borrow_mut().push(format!("animal:{v}")),
        );
        Ok(drawn.into_inner())
    }

    fn legal_moves(&self) -> Vec<PyMove> {
        let mut v = Vec::with_capacity(128);
        self.st.legal_moves(&mut v);
        v.into_iter().map(|m| self.make_move(m)).collect()
    }

    fn count_legal_moves(&self) -> usize {
        let mut v = Vec::with_capacity(128);
        self.st.legal_moves(&mut v);
        v.len()
    }

    /// Parse a move in text form for the drawn tile (form only; `play` checks legality).
    fn parse_move(&self, text: &str) -> PyResult<PyMove> {
        self.st
            .parse_move(text)
            .map(|m| self.make_move(m))
            .map_err(PyErr::from)
    }

    /// Canonical text of a move.
    fn move_text(&self, m: &PyMove) -> String {
        m.text()
    }

    /// Why a move is illegal, or None if it is legal.
    fn check(&self, m: &PyMove) -> Option<String> {
        if self.st.phase != Phase::Place {
            return self.st.check(&m.inner).err().map(|e| e.message);
        }
        if m.tile != self.st.tile {
            return Some(other_tile().message);
        }
        self.st.check(&m.inner).err().map(|e| e.message)
    }

    /// The greedy player's value of each legal move, in `legal_moves` order.
    fn greedy_values(&self) -> Vec<i32> {
        let mut moves = Vec::with_capacity(128);
        self.st.legal_moves(&mut moves);
        let mut values = Vec::with_capacity(moves.len());
        crate::greedy::Greedy::new().evaluate(&self.st, &moves, &mut values);
        values
    }

    /// Search the decision waiting (GIL released): the chosen move and, for every root move
    /// the search tried, (move, visits, mean reward in [0, 1] of the player to move), most
    /// visited first. Deterministic for `seed`; reads nothing of the bag's order.
    #[pyo3(signature = (playouts=1000, seed=0, c=None, widen=None, depth=None, margin=None))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn search(
        &self,
        py: Python<'_>,
        playouts: u32,
        seed: u64,
        c: Option<f32>,
        widen: Option<f32>,
        depth: Option<u16>,
        margin: Option<f32>,
    ) -> PyResult<(PyMove, Vec<(PyMove, u32, f64)>)> {
        let mut text = format!("playouts={playouts}");
        for (k, v) in [("c", c), ("widen", widen), ("margin", margin)] {
            if let Some(v) = v {
                text += &format!(":{k}={v}");
            }
        }
        if let Some(d) = depth {
            text += &format!(":depth={d}");
        }
        let cfg = crate::search::MctsConfig::parse(&text).map_err(PyValueError::new_err)?;
        let mut moves = Vec::with_capacity(128);
        self.st.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(IllegalMoveError::new_err(format!(
                "no decision to search: the game waits for {}",
                match self.st.phase {
                    Phase::Over => "nothing (it is over)",
                    Phase::Reveal => "an animal token to be revealed",
                    _ => "a tile to be drawn",
                }
            )));
        }
        let st = self.st.clone();
        let (best, stats) = py.detach(move || {
            let mut search = crate::search::Search::new();
            let best = search.run(&st, &moves, &cfg, seed);
            let mut stats = Vec::new();
            search.root_stats(&mut stats);
            (
                moves[best],
                stats
                    .iter()
                    .map(|r| (moves[r.index], r.visits, r.mean))
                    .collect::<Vec<_>>(),
            )
        });
        Ok((
            self.make_move(best),
            stats
                .into_iter()
                .map(|(m, v, q)| (self.make_move(m), v, q))
                .collect(),
        ))
    }

    /// Play a move; an illegal one raises IllegalMoveError and changes nothing.
    fn play(&mut self, m: &PyMove) -> PyResult<()> {
        if self.st.phase == Phase::Place && m.tile != self.st.tile {
            return Err(other_tile().into());
        }
        Ok(self.st.play(&m.inner)?)
    }

    fn scores(&self) -> Vec<u32> {
        (0..self.st.players as usize)
            .map(|p| self.st.total(p))
            .collect()
    }

    /// Per player: points by source.
    fn breakdown<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        (0..self.st.players as usize)
            .map(|p| {
                let d = PyDict::new(py);
                for (i, name) in SOURCE_NAMES.iter().enumerate() {
                    d.set_item(*name, self.st.scores[p][i])?;
                }
                Ok(d)
            })
            .collect()
    }

    fn winners(&self) -> Vec<u32> {
        self.st.winners().into_iter().map(u32::from).collect()
    }

    /// Figures in each player's supply.
    fn supply<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyDict>> {
        if player >= self.st.players as usize {
            return Err(PyIndexError::new_err(format!("no player {player}")));
        }
        let d = PyDict::new(py);
        d.set_item("meeple", self.st.meeples[player])?;
        if self.st.rules.abbot {
            d.set_item("abbot", self.st.abbot.supply[player])?;
        }
        if self.st.rules.traders_builders.is_some() {
            if self.st.rules.builder {
                d.set_item("builder", self.st.tb.builders[player])?;
            }
            if self.st.rules.pig {
                d.set_item("pig", self.st.tb.pigs[player])?;
            }
        }
        if self.st.rules.toll_collectors {
            d.set_item("tollhouse", u8::from(self.st.toll.at[player] == NONE16))?;
        }
        if self.st.rules.big_top && self.st.rules.ringmaster {
            d.set_item("ringmaster", self.st.bt.ringmasters[player])?;
        }
        Ok(d)
    }

    /// Under the Big Top: where the big top stands (x, y) or None, the animal tokens revealed
    /// so far (points), and those left face down (points -> count).
    fn big_top<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let at = (self.st.bt.at != NONE16).then(|| {
            let p = &self.st.board.placed[self.st.bt.at as usize];
            (p.x, p.y)
        });
        d.set_item("at", at)?;
        let mut revealed: Vec<u32> = Vec::new();
        let left = PyDict::new(py);
        for (k, (v, _)) in crate::big_top::ANIMALS.iter().enumerate() {
            for _ in 0..self.st.bt.revealed[k] {
                revealed.push(u32::from(*v));
            }
            left.set_item(*v, self.st.bt.stack[k])?;
        }
        d.set_item("revealed", revealed)?;
        d.set_item("left", left)?;
        Ok(d)
    }

    /// Under the Big Top: acrobat pyramids as (x, y, [owners bottom first]).
    fn pyramids(&self) -> Vec<(i16, i16, Vec<u32>)> {
        self.st
            .bt
            .pyramids
            .iter()
            .map(|py| {
                let p = &self.st.board.placed[py.placed as usize];
                let owners = py.owners[..py.n as usize].iter().map(|&o| u32::from(o));
                (p.x, p.y, owners.collect())
            })
            .collect()
    }

    /// Fortune Teller: tiles drawn this turn and not yet placed (FT3).
    fn hand(&self) -> Vec<String> {
        self.st.ft.hand[..self.st.ft.hand_len as usize]
            .iter()
            .map(|&t| self.st.cat.tile(t).id.clone())
            .collect()
    }

    /// Fortune tellers each player has on tents (FT2).
    fn fortune_tellers(&self) -> Vec<u32> {
        self.st.ft.tellers[..self.st.players as usize]
            .iter()
            .map(|&n| u32::from(n))
            .collect()
    }

    /// Tollhouses on the board: (player, x, y, value 1 or 2) (TC1).
    fn tollhouses(&self) -> Vec<(u8, i16, i16, u8)> {
        let mut out = Vec::new();
        for p in 0..self.st.players as usize {
            let at = self.st.toll.at[p];
            if at != NONE16 {
                let pl = &self.st.board.placed[at as usize];
                out.push((p as u8, pl.x, pl.y, self.st.toll.value[p]));
            }
        }
        out
    }

    /// Placed tiles in order: (x, y, tile id, rotation in degrees).
    fn placed(&self) -> Vec<(i16, i16, String, u16)> {
        self.st
            .board
            .placed
            .iter()
            .map(|p| {
                (
                    p.x,
                    p.y,
                    self.st.cat.tile(p.tile).id.clone(),
                    p.rot as u16 * 90,
                )
            })
            .collect()
    }

    /// Every figure on the board: (player, role, x, y, segment label, feature kind).
    fn figures(&self) -> Vec<(u8, &'static str, i16, i16, String, &'static str)> {
        let mut out = Vec::new();
        for (g, s) in self.st.segs.iter().enumerate() {
            if s.figure != NO_FIGURE {
                let (role, owner) = unpack_figure(s.figure);
                let p = &self.st.board.placed[s.placed as usize];
                out.push((
                    owner,
                    role.name(),
                    p.x,
                    p.y,
                    self.label_of(g as u16),
                    s.kind.name(),
                ));
            }
        }
        // Builders and pigs stand with (C3.1) or beside (C2) a segment; strength 0.
        for (role, at) in [
            ("builder", self.st.tb.builder_at),
            ("pig", self.st.tb.pig_at),
        ] {
            for (owner, &g) in at.iter().enumerate().take(self.st.players as usize) {
                if g != NONE16 {
                    let s = &self.st.segs[g as usize];
                    let p = &self.st.board.placed[s.placed as usize];
                    out.push((owner as u8, role, p.x, p.y, self.label_of(g), s.kind.name()));
                }
            }
        }
        out
    }

    /// Every feature: kind, tiles (positions), complete, open edges, coats of arms, figures
    /// [(player, role, x, y, label)], and for fields the number of completed cities beside.
    fn features<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let st = &self.st;
        let mut out = Vec::new();
        let mut cities = Vec::new();
        for (g, s) in st.segs.iter().enumerate() {
            let g = g as u16;
            let cloister = matches!(
                s.kind,
                SegmentKind::Monastery | SegmentKind::Garden | SegmentKind::Tent
            );
            if !(cloister || s.parent == g) {
                continue;
            }
            let d = PyDict::new(py);
            d.set_item("kind", s.kind.name())?;
            let members = st.members(g);
            let mut tiles: Vec<(i16, i16)> = members
                .iter()
                .map(|&m| {
                    let p = &st.board.placed[st.segs[m as usize].placed as usize];
                    (p.x, p.y)
                })
                .collect();
            tiles.sort_unstable();
            tiles.dedup();
            let complete = match s.kind {
                SegmentKind::City | SegmentKind::Road | SegmentKind::River => s.open == 0,
                SegmentKind::Monastery | SegmentKind::Garden => {
                    let p = &st.board.placed[s.placed as usize];
                    st.board.neighbours8(p.x, p.y) == 8
                }
                SegmentKind::Tent => {
                    let p = &st.board.placed[s.placed as usize];
                    crate::geometry::EDGE_DELTA
                        .iter()
                        .all(|(dx, dy)| st.board.occupied(p.x + dx, p.y + dy))
                }
                SegmentKind::Field | SegmentKind::BigTop | SegmentKind::Acrobat => false,
            };
            d.set_item("tiles", tiles)?;
            d.set_item("complete", complete)?;
            d.set_item("open_edges", s.open)?;
            d.set_item("arms", s.arms)?;
            let mut figs = Vec::new();
            for &m in &members {
                let ms = &st.segs[m as usize];
                if ms.figure != NO_FIGURE {
                    let (role, owner) = unpack_figure(ms.figure);
                    let p = &st.board.placed[ms.placed as usize];
                    figs.push((owner, role.name(), p.x, p.y, self.label_of(m)));
                }
            }
            d.set_item("figures", figs)?;
            let seg0 = members[0];
            let p0 = &st.board.placed[st.segs[seg0 as usize].placed as usize];
            d.set_item("at", (p0.x, p0.y, self.label_of(seg0)))?;
            if s.kind == SegmentKind::Field {
                cities.clear();
                st.completed_cities_of_field(g, &mut cities);
                d.set_item("completed_cities", cities.len())?;
            }
            out.push(d);
        }
        Ok(out)
    }

    /// The segment labels of the tile at (x, y), or of the drawn tile turned `rotation`.
    fn labels(&self, x: i16, y: i16) -> PyResult<Vec<String>> {
        let pi = self
            .st
            .board
            .at(x, y)
            .ok_or_else(|| PyValueError::new_err(format!("no tile at {x},{y}")))?;
        let p = &self.st.board.placed[pi];
        let tt = self.st.cat.tile(p.tile);
        Ok((0..tt.segments.len())
            .map(|i| segment_label(tt, p.rot, i as u8))
            .collect())
    }

    /// Tile id at (x, y), or None.
    fn tile_at(&self, x: i16, y: i16) -> Option<(String, u16)> {
        self.st.board.at(x, y).map(|pi| {
            let p = &self.st.board.placed[pi];
            (self.st.cat.tile(p.tile).id.clone(), p.rot as u16 * 90)
        })
    }

    /// A fingerprint of the whole rule state, for replay checks.
    fn fingerprint(&self) -> String {
        let st = &self.st;
        let mut s = format!(
            "{:?}|{}|{}|{}|{}|{:?}|{:?}|{:?}|{:?}|",
            st.phase,
            st.current,
            st.tile,
            st.turns,
            st.discarded,
            st.meeples,
            st.abbot,
            st.scores,
            st.river
        );
        for p in &st.board.placed {
            s += &format!("{},{},{},{};", p.x, p.y, p.tile, p.rot);
        }
        s += "|";
        for (g, seg) in st.segs.iter().enumerate() {
            s += &format!("{}:{}:{};", st.find(g as u16), seg.figure, seg.open);
        }
        s += &format!(
            "|{:?}|{:?}|{:?}|{:?}",
            st.tb,
            st.toll,
            (
                st.ft.tellers,
                &st.ft.hand[..st.ft.hand_len as usize],
                st.ft.single
            ),
            st.bt,
        );
        let mut bag = st.bag.clone();
        if !st.ordered {
            bag.sort_unstable(); // a shuffled bag's order is the generator's
        }
        s += &format!("|{bag:?}|{}", st.ordered);
        s
    }

    /// The outcomes of the chance step waiting now (tile ids, or `animal:N` during a reveal)
    /// with their probabilities; empty when no chance step is waiting.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        use crate::determinize::Chance;
        self.st
            .chance_outcomes()
            .into_iter()
            .map(|(c, p)| match c {
                Chance::Tile(t) => (self.st.cat.tile(t).id.clone(), p),
                Chance::Animal(v) => (format!("animal:{v}"), p),
            })
            .collect()
    }

    /// A copy whose hidden information (bag order, face-down animal tokens) is resampled
    /// from `seed`, every visible fact kept (determinization).
    fn resample(&self, seed: u64) -> PyState {
        PyState {
            st: self.st.resample(seed),
        }
    }

    /// Source names of the score breakdown, in order.
    #[staticmethod]
    fn sources() -> Vec<&'static str> {
        SOURCE_NAMES.to_vec()
    }
}

/// Longest quotation of the caller's input in an error message, in characters.
const QUOTE_LIMIT: usize = 100;

/// `msg` with every `quoted` span longer than QUOTE_LIMIT cut short: an error quotes what it
/// refuses, not a whole file that happened to be given.
fn clip(msg: impl Into<String>) -> String {
    let msg = msg.into();
    let parts: Vec<&str> = msg.split('`').collect();
    if parts.len() < 3 {
        return msg;
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let n = part.chars().count();
            if i % 2 == 1 && i + 1 < parts.len() && n > QUOTE_LIMIT {
                let head: String = part.chars().take(QUOTE_LIMIT - 15).collect();
                format!("{head}... ({n} chars)")
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("`")
}

/// Run a batch on another thread, GIL released, while this one runs Python's signal handlers
/// every few milliseconds: a Ctrl-C (KeyboardInterrupt, or any exception a handler raises)
/// stops the batch within about a game and is raised here.
fn simulate_interruptibly<T: Send>(
    py: Python<'_>,
    run: impl FnOnce(&AtomicBool) -> Result<Option<T>, String> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let stop = &stop;
        scope.spawn(move || {
            let _ = tx.send(run(stop));
        });
        let mut rx = rx;
        loop {
            // The receiver is moved in and out: it may not be shared with another thread.
            let (got, back) = py.detach(move || {
                let got = rx.recv_timeout(std::time::Duration::from_millis(20));
                (got, rx)
            });
            rx = back;
            match got {
                Ok(Ok(Some(out))) => return Ok(out),
                Ok(Ok(None)) => return Err(PyValueError::new_err("the batch was stopped")),
                Ok(Err(e)) => return Err(PyValueError::new_err(e)),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        let _ = py.detach(move || rx.recv()); // the workers end within a game
                        return Err(e);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "the batch thread ended without a result",
                    ))
                }
            }
        }
    })
}

/// Run `games` whole games natively (GIL released, rayon). Returns columns as raw
/// little-endian buffers: {name: (bytes, dtype, shape)}.
#[pyfunction]
#[pyo3(signature = (players=2, games=1000, seed=0, policy="random", threads=0, first=0, catalogue=None, **rules))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    players: usize,
    games: usize,
    seed: u64,
    policy: &str,
    threads: usize,
    first: u64,
    catalogue: Option<PyCatalogue>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
    let (rules, cat) = rules_from_options(rules, cat)?;
    let pols = Policy::parse_seats(policy).map_err(PyValueError::new_err)?;
    let results = simulate_interruptibly(py, |stop| {
        playout::simulate_until(
            &cat, rules, players, first, games, seed, &pols, threads, stop,
        )
    })?;
    let n = results.len();
    let d = PyDict::new(py);
    let mut seeds = Vec::with_capacity(n * 8);
    let mut turns = Vec::with_capacity(n * 2);
    let mut discarded = Vec::with_capacity(n * 2);
    let mut winners = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(n * players * 4);
    let mut breakdown = Vec::with_capacity(n * players * N_SOURCES * 4);
    for r in &results {
        seeds.extend_from_slice(&r.seed.to_le_bytes());
        turns.extend_from_slice(&r.turns.to_le_bytes());
        discarded.extend_from_slice(&r.discarded.to_le_bytes());
        winners.push(r.winners);
        for p in 0..players {
            scores.extend_from_slice(&r.scores[p].to_le_bytes());
        }
        for p in 0..players {
            for s in 0..N_SOURCES {
                breakdown.extend_from_slice(&(r.breakdown[p][s] as u32).to_le_bytes());
            }
        }
    }
    let col = |buf: Vec<u8>, dtype: &str, shape: Vec<usize>| -> (Py<PyBytes>, String, Vec<usize>) {
        (PyBytes::new(py, &buf).unbind(), dtype.to_string(), shape)
    };
    d.set_item("seed", col(seeds, "<u8", vec![n]))?;
    d.set_item("turns", col(turns, "<u2", vec![n]))?;
    d.set_item("discarded", col(discarded, "<u2", vec![n]))?;
    d.set_item("winners", col(winners, "u1", vec![n]))?;
    d.set_item("scores", col(scores, "<u4", vec![n, players]))?;
    d.set_item(
        "breakdown",
        col(breakdown, "<u4", vec![n, players, N_SOURCES]),
    )?;
    Ok(d)
}

/// Canonical text of each seat's policy in a comma-separated policy text (ValueError when one
/// is not a native policy).
#[pyfunction]
fn policy_seats(policy: &str) -> PyResult<Vec<String>> {
    Ok(Policy::parse_seats(policy)
        .map_err(PyValueError::new_err)?
        .iter()
        .map(Policy::text)
        .collect())
}

/// The moves (canonical text, in order) of the native game with seed `seed` played by
/// `policy`: `Game(rules, players, seed)` playing them rebuilds the game and its record.
#[pyfunction]
#[pyo3(signature = (players, seed, policy, catalogue=None, **rules))]
fn game_moves(
    py: Python<'_>,
    players: usize,
    seed: u64,
    policy: &str,
    catalogue: Option<PyCatalogue>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
    let (rules, cat) = rules_from_options(rules, cat)?;
    let pols = Policy::parse_seats(policy).map_err(PyValueError::new_err)?;
    let (steps, _) = py
        .detach(|| playout::game_steps(&cat, rules, players, seed, &pols))
        .map_err(PyValueError::new_err)?;
    Ok(steps
        .iter()
        .filter_map(|s| match s {
            playout::Step::Move(t, m) => Some(crate::moves::move_text(&cat, *t, m)),
            _ => None,
        })
        .collect())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCatalogue>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyMove>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(check_rules, m)?)?;
    m.add_function(wrap_pyfunction!(idle_rule_options, m)?)?;
    m.add_function(wrap_pyfunction!(policy_seats, m)?)?;
    m.add_function(wrap_pyfunction!(game_moves, m)?)?;
    m.add("PlayError", m.py().get_type::<PlayError>())?;
    let illegal = m.py().get_type::<IllegalMoveError>();
    // Raised by Python code too (agents, environments): no rule unless one is given.
    illegal.setattr("rule", m.py().None())?;
    m.add("IllegalMoveError", illegal)?;
    m.add("InvalidMoveError", m.py().get_type::<InvalidMoveError>())?;
    m.add("DrawError", m.py().get_type::<DrawError>())?;
    m.add("CatalogueError", m.py().get_type::<CatalogueError>())?;
    m.add("SOURCES", SOURCE_NAMES.to_vec())?;
    crate::python_env::register(m)?;
    Ok(())
}
