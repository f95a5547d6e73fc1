//! Python bindings of the learning environments (`carcassonne._core.EnvSpec`, `VectorEnv`):
//! the numbering of moves, the observation encoder and the batched games. Arrays are
//! caller-owned numpy arrays written in place; the Python package `carcassonne.env` wraps
//! them into PettingZoo and Gymnasium environments.

use super::errors::{value_error, IllegalMoveError};
use super::moves::PyMove;
use super::simulate::simulate_interruptibly;
use super::state::PyState;
use crate::engine::moves::Move;
use crate::learning::action_features::{feature_names, ActionFeatures, FEATURES};
use crate::learning::action_space::default_window;
use crate::learning::observation::{ObsSpec, PHASES};
use crate::learning::vector_env::{
    Buffers, EnvGame, EnvSpec, Match, Opponent, Reward, Slot, VecEnv,
};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// A writable, C-contiguous buffer of exactly `len` items of T, as a slice. The slice lives
/// as long as `buf` (which keeps the array exported, so it cannot be resized meanwhile).
/// The memory is the array's, not `buf`'s: hence a mutable slice from a shared reference.
#[allow(clippy::mut_from_ref)]
fn slice_of<'a, T: Element>(buf: &'a PyBuffer<T>, len: usize, what: &str) -> PyResult<&'a mut [T]> {
    if buf.readonly() {
        return Err(PyValueError::new_err(format!("{what} must be writable")));
    }
    if !buf.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{what} must be C-contiguous"
        )));
    }
    if buf.item_count() != len {
        return Err(PyValueError::new_err(format!(
            "{what} must hold {len} items, not {}",
            buf.item_count()
        )));
    }
    // SAFETY: the buffer is writable, contiguous and `len` items long; the export held by
    // `buf` keeps the memory alive and unresized while the slice is used.
    Ok(unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr() as *mut T, len) })
}

fn buffer<T: Element>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<PyBuffer<T>> {
    PyBuffer::<T>::get(obj).map_err(|e| {
        PyValueError::new_err(format!(
            "{what} must be a numpy array of {} (buffer protocol): {e}",
            std::any::type_name::<T>()
        ))
    })
}

fn no_overlap(parts: &[(usize, usize)]) -> PyResult<()> {
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            if a.0 < b.0 + b.1 && b.0 < a.0 + a.1 {
                return Err(PyValueError::new_err(
                    "the output arrays must not share memory",
                ));
            }
        }
    }
    Ok(())
}

/// Parse comma-separated opponents: native policy texts, or `self` for a seat decided outside.
fn parse_opponents(text: &str) -> PyResult<Vec<Opponent>> {
    Opponent::parse_seats(text).map_err(value_error)
}

/// The spec of games like `state`'s, its board window `window` cells per side (None: by the
/// rules, `default_window`).
fn env_spec(state: &PyState, window: Option<usize>) -> PyResult<EnvSpec> {
    let w = window.unwrap_or_else(|| default_window(&state.st.rules));
    EnvSpec::new(&state.st, w).map_err(value_error)
}

/// The numbering of moves and the observation layout for one rules configuration.
#[pyclass(name = "EnvSpec", module = "carcassonne._core", frozen)]
pub struct PyEnvSpec {
    spec: Arc<EnvSpec>,
}

impl PyEnvSpec {
    fn game(&self, state: &PyState) -> PyResult<EnvGame> {
        let st = &state.st;
        if st.players as usize != self.spec.players || st.rules != self.spec.rules {
            return Err(PyValueError::new_err(
                "the state was made with other rules or player count than this spec",
            ));
        }
        let mut g = EnvGame::new(st.clone());
        self.spec.space.frame(&g.st, &mut g.frame);
        // Legal moves without resolving chance (the state is the caller's).
        let mut moves = Vec::new();
        self.spec
            .space
            .legal(&g.st, &g.frame, &mut moves, &mut g.legal);
        Ok(g)
    }
}

#[pymethods]
impl PyEnvSpec {
    #[new]
    /// `window`: cells per side of the board window; None chooses by the rules (25, or 33
    /// when an expansion adds tiles).
    #[pyo3(signature = (state, window=None))]
    fn new(state: PyRef<'_, PyState>, window: Option<usize>) -> PyResult<PyEnvSpec> {
        Ok(PyEnvSpec {
            spec: Arc::new(env_spec(&state, window)?),
        })
    }

    #[getter]
    fn action_size(&self) -> usize {
        self.spec.space.size()
    }
    #[getter]
    fn window(&self) -> usize {
        self.spec.space.window
    }
    #[getter]
    fn overflow(&self) -> usize {
        self.spec.space.overflow
    }
    #[getter]
    fn slots(&self) -> usize {
        self.spec.space.slots
    }
    #[getter]
    fn channels(&self) -> usize {
        self.spec.obs.channels
    }
    #[getter]
    fn vector_size(&self) -> usize {
        self.spec.obs.vector
    }
    #[getter]
    fn players(&self) -> usize {
        self.spec.players
    }
    /// Shape of the board planes: (window, window, channels).
    #[getter]
    fn board_shape(&self) -> (usize, usize, usize) {
        let o = &self.spec.obs;
        (o.window, o.window, o.channels)
    }

    /// The layout of actions, channels and the vector: names -> offsets (and counts).
    fn layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let sp = &self.spec.space;
        let o: &ObsSpec = &self.spec.obs;
        let d = PyDict::new(py);
        let slots = PyDict::new(py);
        slots.set_item("pass", (0, 1))?;
        for g in &sp.groups {
            slots.set_item(g.name, (g.first, g.n))?;
        }
        d.set_item("slots", slots)?;
        d.set_item("special", sp.special())?;
        let decisions = PyDict::new(py);
        for g in &sp.decisions {
            decisions.set_item(g.name, (sp.special() + g.first, g.n))?;
        }
        d.set_item("decisions", decisions)?;
        let ch = PyDict::new(py);
        for &(name, first, _) in &o.planes.slots {
            ch.set_item(name, first)?;
        }
        d.set_item("channels", ch)?;
        d.set_item("roles", o.roles.names())?;
        d.set_item("roles_per_seat", o.roles.len)?;
        let v = PyDict::new(py);
        for &(name, first, n) in &o.parts.slots {
            v.set_item(name, (first, n))?;
        }
        d.set_item("vector", v)?;
        d.set_item("supply_names", o.supply.names())?;
        d.set_item("phases", PHASES.to_vec())?;
        d.set_item("misc_names", o.misc.names())?;
        let cat = &self.spec.cat;
        let ids: Vec<String> = sp
            .tile_types
            .iter()
            .map(|&t| cat.tile(t).id.clone())
            .collect();
        d.set_item("tile_types", ids)?;
        Ok(d)
    }

    /// What action `a` means, in words.
    fn describe(&self, a: usize) -> String {
        self.spec.space.describe(a)
    }

    /// Indices of the legal moves of `state`, ascending.
    fn legal_indices(&self, state: PyRef<'_, PyState>) -> PyResult<Vec<u32>> {
        Ok(self.game(&state)?.legal.iter().map(|e| e.0).collect())
    }

    /// Index of legal move `m` of `state`; None when `m` is not a legal move of it.
    fn index(&self, state: PyRef<'_, PyState>, m: PyRef<'_, PyMove>) -> PyResult<Option<usize>> {
        let g = self.game(&state)?;
        Ok(g.legal
            .iter()
            .find(|e| e.1 == m.inner)
            .map(|e| e.0 as usize))
    }

    /// The legal move of `state` that index `a` names; IllegalMoveError when it names none.
    fn decode(&self, state: PyRef<'_, PyState>, a: i64) -> PyResult<PyMove> {
        let g = self.game(&state)?;
        Ok(state.make_move(self.legal_move(&g, a)?))
    }

    /// Observation of `player` in `state` into `board` (uint8, window x window x channels),
    /// `vector` (float32) and `mask` (uint8, one per action; all 0 unless `player` decides).
    fn observe(
        &self,
        py: Python<'_>,
        state: PyRef<'_, PyState>,
        player: usize,
        board: &Bound<'_, PyAny>,
        vector: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        if player >= self.spec.players {
            return Err(PyIndexError::new_err(format!(
                "player must be from 0 to {}, not {player}",
                self.spec.players - 1
            )));
        }
        let mut g = self.game(&state)?;
        let (bb, vb, mb) = (
            buffer::<u8>(board, "board")?,
            buffer::<f32>(vector, "vector")?,
            buffer::<u8>(mask, "mask")?,
        );
        let o = &self.spec.obs;
        let b = slice_of(&bb, o.board_len(), "board")?;
        let v = slice_of(&vb, o.vector, "vector")?;
        let m = slice_of(&mb, self.spec.space.size(), "mask")?;
        no_overlap(&[
            (b.as_ptr() as usize, b.len()),
            (v.as_ptr() as usize, v.len() * 4),
            (m.as_ptr() as usize, m.len()),
        ])?;
        let spec = self.spec.clone();
        py.detach(|| {
            m.fill(0);
            g.write(&spec, player as u8, b, v, m, None);
        });
        Ok(())
    }

    /// Play the legal move with index `a` in `state`, then resolve chance with the state's
    /// seeded generator. IllegalMoveError (state unchanged) when `a` is not a legal move.
    fn play(&self, mut state: PyRefMut<'_, PyState>, a: i64) -> PyResult<()> {
        let mut g = self.game(&state)?;
        let m = self.legal_move(&g, a)?;
        g.play(&m);
        state.st = g.st;
        Ok(())
    }
}

impl PyEnvSpec {
    /// The legal move of `g` that index `a` names; IllegalMoveError when it names none.
    fn legal_move(&self, g: &EnvGame, a: i64) -> PyResult<Move> {
        usize::try_from(a)
            .ok()
            .and_then(|a| g.legal_move(a))
            .ok_or_else(|| self.illegal(g, a))
    }

    fn illegal(&self, g: &EnvGame, a: i64) -> PyErr {
        let what = if a < 0 {
            format!("{a} is negative")
        } else if g.st.phase == crate::engine::state::Phase::Over {
            "the game is over".to_string()
        } else {
            self.spec.space.describe(a as usize)
        };
        IllegalMoveError::new_err(format!(
            "action {a} is not a legal move now (its mask bit is 0): {what}"
        ))
    }
}

/// B games of a learner against native opponents or seats decided outside (`self`: other
/// learner seats or the caller's players), stepped natively (GIL released).
#[pyclass(name = "VectorEnv", module = "carcassonne._core")]
pub struct PyVectorEnv {
    env: VecEnv,
    features: ActionFeatures,
    spec: Arc<EnvSpec>,
    /// Addresses of the board and mask arrays last written: `step` updates them in place.
    rows_at: (usize, usize),
}

/// The caller's output arrays, exported while they are written.
struct Arrays<'a> {
    board: PyBuffer<u8>,
    vector: PyBuffer<f32>,
    mask: PyBuffer<u8>,
    reward: PyBuffer<f32>,
    rewards: PyBuffer<f32>,
    done: PyBuffer<u8>,
    _p: std::marker::PhantomData<&'a ()>,
}

/// Run `f` on the games, GIL released. When native opponents search (a step may then take
/// minutes), Ctrl-C stops their searches and raises KeyboardInterrupt here, the games left
/// partway through the step (the Python side then asks for a reset).
fn run_env(py: Python<'_>, env: &mut VecEnv, f: impl FnOnce(&mut VecEnv) + Send) -> PyResult<()> {
    if env.m.searches() {
        simulate_interruptibly(py, |stop| {
            env.watch(stop);
            f(env);
            Ok(Some(()))
        })
    } else {
        py.detach(|| f(env));
        Ok(())
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (state, num_envs, window=None, seed=0, opponents="random", seat=None, reward="score", threads=1, autoreset=true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        state: PyRef<'_, PyState>,
        num_envs: usize,
        window: Option<usize>,
        seed: u64,
        opponents: &str,
        seat: Option<u8>,
        reward: &str,
        threads: usize,
        autoreset: bool,
    ) -> PyResult<PyVectorEnv> {
        let spec = env_spec(&state, window)?;
        let m = Match {
            spec: spec.clone(),
            opponents: parse_opponents(opponents)?,
            seat,
            reward: Reward::parse(reward).map_err(value_error)?,
            autoreset,
        };
        let env = VecEnv::new(m, num_envs, seed, threads).map_err(value_error)?;
        Ok(PyVectorEnv {
            env,
            features: ActionFeatures::default(),
            spec: Arc::new(spec),
            rows_at: (0, 0),
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env.slots.len()
    }

    /// The spec (numbering and layout) of these games.
    fn spec(&self) -> PyEnvSpec {
        PyEnvSpec {
            spec: self.spec.clone(),
        }
    }

    /// Start new games (reseeding every stream from `seed` when given) and write their first
    /// observations. Arrays: board (B, W, W, C) uint8, vector (B, V) float32, mask (B, A)
    /// uint8, reward (B,) float32 (the reward of the seat that moved), rewards (B, players)
    /// float32 (every seat's), done (B,) uint8.
    #[pyo3(signature = (board, vector, mask, reward, rewards, done, seed=None))]
    #[allow(clippy::too_many_arguments)]
    fn reset(
        &mut self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        vector: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        done: &Bound<'_, PyAny>,
        seed: Option<u64>,
    ) -> PyResult<()> {
        let arrays = self.arrays(board, vector, mask, reward, rewards, done)?;
        let (out, _) = self.buffers(&arrays)?;
        run_env(py, &mut self.env, |env| {
            out.mask.fill(0);
            env.reset(seed, out);
        })
    }

    /// Start game i from a copy of `states[i]` (a position of these rules, not over), or a
    /// new game of its stream where None, and write the first observations (arrays as in
    /// `reset`). The learner is the fixed seat, else the player to move in the position.
    #[allow(clippy::too_many_arguments)]
    fn start_from(
        &mut self,
        py: Python<'_>,
        states: Vec<Option<PyRef<'_, PyState>>>,
        board: &Bound<'_, PyAny>,
        vector: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        done: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        if states.len() != self.env.slots.len() {
            return Err(PyValueError::new_err(format!(
                "expected {} positions (one per game), got {}",
                self.env.slots.len(),
                states.len()
            )));
        }
        let spec = &self.spec;
        let mut starts = Vec::with_capacity(states.len());
        for (i, s) in states.iter().enumerate() {
            let Some(s) = s else {
                starts.push(None);
                continue;
            };
            let st = &s.st;
            let same_tiles = st.cat.tiles.len() == spec.cat.tiles.len()
                && st
                    .cat
                    .tiles
                    .iter()
                    .zip(&spec.cat.tiles)
                    .all(|(a, b)| a.id == b.id);
            if st.rules != spec.rules || st.players as usize != spec.players || !same_tiles {
                return Err(PyValueError::new_err(format!(
                    "position {i} is of other rules, players or catalogue than this environment"
                )));
            }
            if st.phase == crate::engine::state::Phase::Over {
                return Err(PyValueError::new_err(format!(
                    "position {i} is a finished game"
                )));
            }
            starts.push(Some(st.clone()));
        }
        let arrays = self.arrays(board, vector, mask, reward, rewards, done)?;
        let (out, _) = self.buffers(&arrays)?;
        run_env(py, &mut self.env, |env| {
            out.mask.fill(0);
            env.start_from(&starts, out);
        })
    }

    /// Step every game with its action (int64, one per game; a negative one leaves its game as
    /// it is). An action that is not a legal move of its game raises IllegalMoveError before
    /// any game moves.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        board: &Bound<'_, PyAny>,
        vector: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        done: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let ab = buffer::<i64>(actions, "actions")?;
        let acts = ab.to_vec(py)?;
        self.env
            .validate(&acts, true)
            .map_err(IllegalMoveError::new_err)?;
        let arrays = self.arrays(board, vector, mask, reward, rewards, done)?;
        let (out, fresh) = self.buffers(&arrays)?;
        if fresh {
            return Err(PyValueError::new_err(
                "step must write into the arrays reset wrote (board and mask are updated in place)",
            ));
        }
        run_env(py, &mut self.env, |env| {
            env.step(&acts, out);
        })
    }

    /// Seat of the learner in each game.
    fn learners(&self) -> Vec<u32> {
        self.env.slots.iter().map(|s| s.learner as u32).collect()
    }

    /// The seat each game waits for (whose view its observation is; the learner's once over).
    fn seats(&self) -> Vec<u32> {
        self.env.slots.iter().map(|s| s.seat() as u32).collect()
    }

    /// Per game: (learner seat, final scores) of its last finished game, or None.
    fn last_results(&self) -> Vec<Option<(u8, Vec<u32>)>> {
        self.env
            .slots
            .iter()
            .map(|s| s.last_result.clone())
            .collect()
    }

    /// A copy of game `i`'s state.
    fn state(&self, i: usize) -> PyResult<PyState> {
        Ok(PyState {
            st: self.slot(i)?.game.st.clone(),
        })
    }

    /// Every game's legal move indices at once, as little-endian int32 bytes: `actions` (game
    /// after game, each ascending) and `starts` (B + 1 offsets: game i's are
    /// `actions[starts[i]..starts[i + 1]]`, those of the seat the game waits for; none for a
    /// finished game).
    fn legal_lists<'py>(&self, py: Python<'py>) -> (Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let mut actions: Vec<u8> = Vec::new();
        let mut starts: Vec<u8> = Vec::with_capacity(4 * (self.env.slots.len() + 1));
        let mut n: i32 = 0;
        starts.extend_from_slice(&n.to_le_bytes());
        for s in &self.env.slots {
            let st = &s.game.st;
            if st.phase != crate::engine::state::Phase::Over {
                for &(i, _) in &s.game.legal {
                    actions.extend_from_slice(&(i as i32).to_le_bytes());
                }
                n += s.game.legal.len() as i32;
            }
            starts.extend_from_slice(&n.to_le_bytes());
        }
        (PyBytes::new(py, &actions), PyBytes::new(py, &starts))
    }

    /// What each legal action of `legal_lists` changes, in its order, as little-endian
    /// float32 bytes (`len(actions) x FEATURES`, `action_feature_names()` names them): the
    /// change of the mover's evaluation terms, the mean change of the others', then of the
    /// mover's score and the others' mean score.
    fn action_features<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let mut out: Vec<f32> = Vec::new();
        for s in &self.env.slots {
            let st = &s.game.st;
            if st.phase != crate::engine::state::Phase::Over {
                self.features
                    .write(st, s.game.legal.iter().map(|e| &e.1), &mut out);
            }
        }
        debug_assert_eq!(out.len() % FEATURES, 0);
        let bytes: Vec<u8> = out.iter().flat_map(|v| v.to_le_bytes()).collect();
        PyBytes::new(py, &bytes)
    }

    /// Names of the `action_features` columns.
    #[staticmethod]
    fn action_feature_names() -> Vec<String> {
        feature_names()
    }

    /// Indices of the legal moves in game `i`, ascending.
    fn legal_indices(&self, i: usize) -> PyResult<Vec<u32>> {
        Ok(self.slot(i)?.game.legal.iter().map(|e| e.0).collect())
    }
}

impl PyVectorEnv {
    /// Game `i`; IndexError when there is none.
    fn slot(&self, i: usize) -> PyResult<&Slot> {
        self.env
            .slots
            .get(i)
            .ok_or_else(|| PyIndexError::new_err(format!("no game {i}")))
    }

    fn arrays<'a>(
        &self,
        board: &Bound<'_, PyAny>,
        vector: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        done: &Bound<'_, PyAny>,
    ) -> PyResult<Arrays<'a>> {
        Ok(Arrays {
            board: buffer(board, "board")?,
            vector: buffer(vector, "vector")?,
            mask: buffer(mask, "mask")?,
            reward: buffer(reward, "reward")?,
            rewards: buffer(rewards, "rewards")?,
            done: buffer(done, "done")?,
            _p: std::marker::PhantomData,
        })
    }

    /// The arrays as the games' output rows, checked: each of its size and writable, none
    /// sharing memory. True with them when board or mask are not the arrays last written.
    fn buffers<'a>(&mut self, out: &'a Arrays<'_>) -> PyResult<(Buffers<'a>, bool)> {
        let n = self.env.slots.len();
        let o = &self.spec.obs;
        let b = slice_of(&out.board, n * o.board_len(), "board")?;
        let v = slice_of(&out.vector, n * o.vector, "vector")?;
        let m = slice_of(&out.mask, n * self.spec.space.size(), "mask")?;
        let r = slice_of(&out.reward, n, "reward")?;
        let rs = slice_of(&out.rewards, n * self.spec.players, "rewards")?;
        let d = slice_of(&out.done, n, "done")?;
        no_overlap(&[
            (b.as_ptr() as usize, b.len()),
            (v.as_ptr() as usize, v.len() * 4),
            (m.as_ptr() as usize, m.len()),
            (r.as_ptr() as usize, r.len() * 4),
            (rs.as_ptr() as usize, rs.len() * 4),
            (d.as_ptr() as usize, d.len()),
        ])?;
        let at = (b.as_ptr() as usize, m.as_ptr() as usize);
        let fresh = at != self.rows_at;
        self.rows_at = at;
        let out = Buffers {
            board: b,
            vector: v,
            mask: m,
            reward: r,
            rewards: rs,
            done: d,
        };
        Ok((out, fresh))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEnvSpec>()?;
    m.add_class::<PyVectorEnv>()?;
    Ok(())
}
