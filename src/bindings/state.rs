//! The game state (`State`): construction, chance steps, moves, scores and read-outs of the board.

use super::catalogue::PyCatalogue;
use super::decision::PyDecision;
use super::errors::{clip, other_tile, value_error, DrawError};
use super::moves::PyMove;
use super::rules::PyRules;
use crate::engine::features::{unpack_figure, NO_FIGURE};
use crate::engine::moves::{segment_label, Move};
use crate::engine::score_log::Listen;
use crate::engine::scoring::SOURCE_NAMES;
use crate::engine::state::{Drawn, Phase, State, NONE16};
use crate::engine::tiles::{Catalogue, SegmentKind};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

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
    /// Tile copies as id -> copies, in catalogue order: the bag's contents, never its hidden
    /// order (the deal).
    fn tile_counts<'py>(&self, py: Python<'py>, tiles: &[u16]) -> PyResult<Bound<'py, PyDict>> {
        let mut n = vec![0usize; self.st.cat.tiles.len()];
        for &t in tiles {
            n[t as usize] += 1;
        }
        let d = PyDict::new(py);
        for (t, &k) in n.iter().enumerate().filter(|(_, &k)| k > 0) {
            d.set_item(&self.st.cat.tiles[t].id, k)?;
        }
        Ok(d)
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
    #[pyo3(signature = (players=2, seed=0, catalogue=None, rules=None))]
    fn new(
        players: usize,
        seed: u64,
        catalogue: Option<PyCatalogue>,
        rules: Option<PyRules>,
    ) -> PyResult<PyState> {
        let cat = catalogue.map_or_else(Catalogue::builtin, |c| c.cat);
        let (rules, cat) = rules.unwrap_or_default().in_catalogue(cat)?;
        let st = State::new(cat, rules, players, seed).map_err(value_error)?;
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

    /// Scores, breakdown and winners if the game ended now (final scoring on a copy), what
    /// that scored (`events`, as `play_scored`) and the animal tokens the final circus
    /// revealed (`animals`: the given ones, then the seeded generator's).
    #[pyo3(signature = (animals=Vec::new()))]
    fn final_scores<'py>(&self, py: Python<'py>, animals: Vec<u8>) -> PyResult<Bound<'py, PyDict>> {
        let log = Listen::new();
        let done = self.st.ended_now(&animals)?;
        let events = super::scored::events(py, &done, log.take())?;
        let mut assumed: Vec<u32> = Vec::new(); // a list in Python (a Vec<u8> would be bytes)
        for (k, (v, _)) in crate::expansions::big_top::ANIMALS.iter().enumerate() {
            let before = self.st.expansions.big_top.revealed[k];
            let n = done.expansions.big_top.revealed[k].saturating_sub(before);
            assumed.extend(std::iter::repeat_n(u32::from(*v), n as usize));
        }
        let view = PyState { st: done };
        let d = PyDict::new(py);
        d.set_item("scores", view.scores())?;
        d.set_item("breakdown", view.breakdown(py)?)?;
        d.set_item("winners", view.winners())?;
        d.set_item("events", events)?;
        d.set_item("animals", assumed)?;
        Ok(d)
    }

    /// An independent copy (cheap: flat arrays, shared catalogue).
    fn copy(&self) -> PyState {
        self.clone()
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    /// What the game waits for: a `Decision` (equal to its text, e.g. `"place"`).
    #[getter]
    fn phase(&self) -> PyDecision {
        self.st.phase.into()
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
        self.tile_counts(py, &self.st.bag)
    }

    /// What chance may give now: tiles (river tiles first, R3) id -> copies, or during a
    /// reveal the animal tokens left (`animal:7` -> count).
    fn drawable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if self.st.phase == Phase::Reveal {
            // The chance step is an animal token: `animal:POINTS` -> tokens left.
            for (k, (v, _)) in crate::expansions::big_top::ANIMALS.iter().enumerate() {
                if self.st.expansions.big_top.stack[k] > 0 {
                    d.set_item(format!("animal:{v}"), self.st.expansions.big_top.stack[k])?;
                }
            }
            return Ok(d);
        }
        self.tile_counts(py, self.st.drawable())
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
        if !self.st.phase.is_chance() {
            return Err(DrawError::new_err(format!(
                "cannot draw now: the game is in phase `{}`",
                PyDecision::from(self.st.phase).text()
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
        crate::players::greedy::Greedy::new().evaluate(&self.st, &moves, &mut values);
        values
    }

    /// Search the decision waiting (GIL released): the chosen move and, for every root move
    /// the search tried, (move, visits, mean reward in [0, 1] of the player to move), most
    /// visited first. Deterministic for `seed`; reads nothing of the bag's order.
    /// `params`: further `mcts` parameters as (name, value text), checked by its table.
    #[pyo3(signature = (playouts=1000, seed=0, params=Vec::new()))]
    #[allow(clippy::type_complexity)]
    fn search(
        &self,
        py: Python<'_>,
        playouts: u32,
        seed: u64,
        params: Vec<(String, String)>,
    ) -> PyResult<(PyMove, Vec<(PyMove, u32, f64)>)> {
        super::search::search(self, py, playouts, seed, &params)
    }

    /// Play a move; an illegal one raises IllegalMoveError and changes nothing.
    fn play(&mut self, m: &PyMove) -> PyResult<()> {
        if self.st.phase == Phase::Place && m.tile != self.st.tile {
            return Err(other_tile().into());
        }
        Ok(self.st.play(&m.inner)?)
    }

    /// `play`, returning what the move scored: the score log's events (`bindings/scored.rs`).
    fn play_scored<'py>(
        &mut self,
        py: Python<'py>,
        m: &PyMove,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let log = Listen::new();
        self.play(m)?;
        super::scored::events(py, &self.st, log.take())
    }

    /// `draw`, with what the draw scored (a last tile that fits nowhere ends the game).
    fn draw_scored<'py>(
        &mut self,
        py: Python<'py>,
        tile: &str,
    ) -> PyResult<(bool, Vec<Bound<'py, PyDict>>)> {
        let log = Listen::new();
        let ready = self.draw(tile)?;
        Ok((ready, super::scored::events(py, &self.st, log.take())?))
    }

    /// `draw_random`, with what the draws scored.
    fn draw_random_scored<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Vec<String>, Vec<Bound<'py, PyDict>>)> {
        let log = Listen::new();
        let drawn = self.draw_random()?;
        Ok((drawn, super::scored::events(py, &self.st, log.take())?))
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

    /// Figures in player `player`'s supply: the meeples, then each expansion's figures that
    /// are on (their read-outs' `in_supply`), by rank.
    fn supply<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyDict>> {
        if player >= self.st.players as usize {
            return Err(PyIndexError::new_err(format!("no player {player}")));
        }
        let d = PyDict::new(py);
        d.set_item("meeple", self.st.meeples[player])?;
        for (name, count) in super::read_out::supply(&self.st, player) {
            d.set_item(name, count)?;
        }
        Ok(d)
    }

    /// The read-out of every expansion that is on: {expansion: {fact: value}}, in registry
    /// order (`Expansion::read_out`).
    fn expansions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut gathered = super::read_out::Gathered::default();
        crate::expansions::read_out(&self.st, &mut gathered);
        gathered.into_dict(py)
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
        // Then the expansions' figures that no segment holds (their read-outs').
        for (role, owner, g) in super::read_out::standing(&self.st) {
            let s = &self.st.segs[g as usize];
            let p = &self.st.board.placed[s.placed as usize];
            out.push((owner, role, p.x, p.y, self.label_of(g), s.kind.name()));
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
                    st.cloister_complete(p.x, p.y)
                }
                SegmentKind::Tent => st.tent_complete(s.placed as usize),
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
            "{:?}|{}|{}|{}|{}|{:?}|{:?}|",
            st.phase, st.current, st.tile, st.turns, st.discarded, st.meeples, st.scores,
        );
        for p in &st.board.placed {
            s += &format!("{},{},{},{};", p.x, p.y, p.tile, p.rot);
        }
        s += "|";
        for (g, seg) in st.segs.iter().enumerate() {
            s += &format!("{}:{}:{};", st.find(g as u16), seg.figure, seg.open);
        }
        crate::expansions::fingerprint(st, &mut s);
        // The bag's contents: its order is hidden (the deal), as the generator's state is.
        let mut bag = st.bag.clone();
        bag.sort_unstable();
        s += &format!("|{bag:?}");
        s
    }

    /// The outcomes of the chance step waiting now (tile ids, or `animal:N` during a reveal)
    /// with their probabilities; empty when no chance step is waiting.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        use crate::engine::chance::Chance;
        self.st
            .chance_outcomes()
            .into_iter()
            .map(|(c, p)| match c {
                Chance::Tile(t) => (self.st.cat.tile(t).id.clone(), p),
                Chance::Reveal(v) => (format!("animal:{v}"), p),
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
