//! Games stepped for learning agents: a learner seat against native opponents, or every seat
//! a learner's (self-play), or seats decided by the caller; chance resolved by each game's
//! seeded generator, observations, masks and rewards written into caller-owned arrays.
//! `VecEnv` steps B games at once, in parallel when asked.

use crate::engine::moves::Move;
use crate::engine::rng::{splitmix64, Rng};
use crate::engine::rules::Rules;
use crate::engine::state::{Phase, State};
use crate::engine::tiles::Catalogue;
use crate::learning::action_space::{ActionSpace, Frame};
use crate::learning::observation::ObsSpec;
use crate::players::Policy;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What the learner is rewarded for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// After each decision: the change of (own score - mean of the other players' scores),
    /// opponents' turns and final scoring included. Summed over a game: the final margin.
    Score,
    /// At the end only: +1 for the sole winner, 0 for a shared win, -1 otherwise.
    Win,
}

impl Reward {
    pub fn parse(s: &str) -> Result<Reward, String> {
        match s {
            "score" => Ok(Reward::Score),
            "win" => Ok(Reward::Win),
            _ => Err(format!("reward must be 'score' or 'win', not {s:?}")),
        }
    }
}

/// Everything games of one environment share.
#[derive(Clone, Debug)]
pub struct EnvSpec {
    pub cat: Arc<Catalogue>,
    pub rules: Rules,
    pub players: usize,
    pub space: ActionSpace,
    pub obs: ObsSpec,
}

impl EnvSpec {
    pub fn new(proto: &State, window: usize) -> Result<EnvSpec, String> {
        let space = ActionSpace::new(proto, window)?;
        let obs = ObsSpec::new(&space, proto.players as usize, proto.cat.tiles.len());
        Ok(EnvSpec {
            cat: proto.cat.clone(),
            rules: proto.rules,
            players: proto.players as usize,
            space,
            obs,
        })
    }

    pub fn new_state(&self, seed: u64) -> State {
        State::new(self.cat.clone(), self.rules, self.players, seed)
            .expect("rules and players were validated when the spec was made")
    }
}

/// Score margin of player `me`: own score minus the mean of the others'.
pub fn margin(st: &State, me: usize) -> f64 {
    let p = st.players as usize;
    let others: u32 = (0..p).filter(|&q| q != me).map(|q| st.total(q)).sum();
    st.total(me) as f64 - others as f64 / (p - 1) as f64
}

/// Final reward of player `me` in a finished game (`Reward::Win`).
pub fn outcome(st: &State, me: usize) -> f64 {
    let w = st.winners();
    if !w.contains(&(me as u8)) {
        -1.0
    } else if w.len() == 1 {
        1.0
    } else {
        0.0
    }
}

/// The most games one vector environment holds (each some 400 KB: 65536 are about 27 GB).
pub const MAX_GAMES: usize = 1 << 16;

/// One game with its framing, legal moves and scratch space.
#[derive(Clone, Debug)]
pub struct EnvGame {
    pub st: State,
    pub frame: Frame,
    /// Legal moves of the decision waiting, with their indices, sorted by index.
    pub legal: Vec<(u32, Move)>,
    moves: Vec<Move>,
    cache: Vec<u16>,
    scratch: crate::players::Players,
}

impl EnvGame {
    pub fn new(st: State) -> EnvGame {
        EnvGame {
            st,
            frame: Frame::default(),
            legal: Vec::with_capacity(256),
            moves: Vec::with_capacity(256),
            cache: Vec::new(),
            scratch: crate::players::Players::new(),
        }
    }

    /// Resolve chance steps, then frame the board and list the legal moves.
    pub fn refresh(&mut self, space: &ActionSpace) {
        if self.st.phase.is_chance() {
            self.st.draw_random(|_| {});
        }
        space.frame(&self.st, &mut self.frame);
        space.legal(&self.st, &self.frame, &mut self.moves, &mut self.legal);
    }

    /// Resolve the chance steps waiting (the start of a game).
    pub fn play_chance(&mut self) {
        if self.st.phase.is_chance() {
            self.st.draw_random(|_| {});
        }
    }

    /// The legal move with index `a`.
    pub fn legal_move(&self, a: usize) -> Option<Move> {
        let a = u32::try_from(a).ok()?;
        self.legal
            .binary_search_by_key(&a, |e| e.0)
            .ok()
            .map(|i| self.legal[i].1)
    }

    /// Play legal move `m` and resolve the chance steps after it (call `refresh` before
    /// reading `legal` again).
    pub fn play(&mut self, m: &Move) {
        self.st.play_unchecked(m);
        if self.st.phase.is_chance() {
            self.st.draw_random(|_| {});
        }
    }

    /// Let the native seats move until a seat decided outside (`native` gives None for it)
    /// is to move or the game ends.
    pub fn natives_play<'p>(
        &mut self,
        space: &ActionSpace,
        native: impl Fn(u8) -> Option<&'p Policy>,
        rng: &mut Rng,
    ) {
        while self.st.phase != Phase::Over {
            let Some(policy) = native(self.st.to_move()) else {
                break;
            };
            self.st.legal_moves(&mut self.moves);
            let i = policy.choose(&self.st, &self.moves, rng, &mut self.scratch);
            let m = self.moves[i];
            self.play(&m);
        }
        self.refresh(space);
    }

    /// Observation of player `me` into `board` and `vector`; the mask of the legal moves (if
    /// `me` is to move) into `mask`. `written` lists what the last call wrote into these
    /// rows (only that is cleared, so the rows must hold what it wrote), or is None for
    /// rows to clear in full (`mask` then must be all zero).
    pub fn write(
        &mut self,
        spec: &EnvSpec,
        me: u8,
        board: &mut [u8],
        vector: &mut [f32],
        mask: &mut [u8],
        written: Option<&mut Written>,
    ) {
        let mut none = Written::default();
        let (w, sparse) = match written {
            Some(w) => (w, true),
            None => (&mut none, false),
        };
        spec.obs.encode(
            &spec.space,
            &self.st,
            me,
            &self.frame,
            &self.legal,
            board,
            vector,
            &mut self.cache,
            sparse.then_some(&mut w.cells),
        );
        let mask_set = &mut w.mask;
        for &i in mask_set.iter() {
            mask[i as usize] = 0;
        }
        mask_set.clear();
        if self.st.phase != Phase::Over && self.st.to_move() == me {
            for &(i, _) in &self.legal {
                mask[i as usize] = 1;
                mask_set.push(i);
            }
        }
    }
}

/// What the last `EnvGame::write` wrote into its rows: board cell offsets and mask indices.
#[derive(Clone, Debug, Default)]
pub struct Written {
    pub cells: Vec<u32>,
    pub mask: Vec<u32>,
}

/// Who plays a seat other than the learner's.
#[derive(Clone, Debug, PartialEq)]
pub enum Opponent {
    /// A native policy, played inside the step.
    Native(Policy),
    /// A seat decided outside like the learner's: another learner seat (self-play) or the
    /// caller's own player. The environment stops when it is to move.
    Outside,
}

impl Opponent {
    /// Comma-separated seats: `self` for a seat decided outside, else a native policy text.
    pub fn parse_seats(text: &str) -> Result<Vec<Opponent>, String> {
        crate::players::text::seat_texts(text)?
            .into_iter()
            .map(|s| match s {
                "self" => Ok(Opponent::Outside),
                s => Policy::parse(s).map(Opponent::Native),
            })
            .collect()
    }
}

/// The learner against its opponents: configuration shared by the games of a `VecEnv`.
#[derive(Clone, Debug)]
pub struct Match {
    pub spec: EnvSpec,
    /// One per seat after the learner's, in seat order, cycled.
    pub opponents: Vec<Opponent>,
    /// The learner's seat, or None for a random seat each game.
    pub seat: Option<u8>,
    pub reward: Reward,
    /// Start the next game as soon as one ends (else a finished game waits for `reset`).
    pub autoreset: bool,
}

impl Match {
    /// The native policy of `seat` in a game whose learner sits at `learner`, or None for a
    /// seat decided outside (the learner's, `Opponent::Outside`).
    /// Whether a native opponent searches (`mcts`): its moves may take long.
    pub fn searches(&self) -> bool {
        self.opponents
            .iter()
            .any(|o| matches!(o, Opponent::Native(Policy::Mcts(_))))
    }

    pub fn native(&self, learner: u8, seat: u8) -> Option<&Policy> {
        if seat == learner {
            return None;
        }
        let p = self.spec.players as u8;
        // Opponent k is the k-th seat after the learner.
        let k = ((seat + p - learner) % p - 1) as usize;
        match &self.opponents[k % self.opponents.len()] {
            Opponent::Native(policy) => Some(policy),
            Opponent::Outside => None,
        }
    }
}

/// One slot of a `VecEnv`: a game, its learner and its random streams.
#[derive(Clone, Debug)]
pub struct Slot {
    pub game: EnvGame,
    pub learner: u8,
    /// Each seat's margin when its reward was last written.
    margins: Vec<f64>,
    seeds: u64,
    rng: Rng,
    written: Written,
    pub episodes: u64,
    /// Scores and learner seat of this slot's last finished game.
    pub last_result: Option<(u8, Vec<u32>)>,
}

/// Output rows of one game.
pub struct Rows<'a> {
    pub board: &'a mut [u8],
    pub vector: &'a mut [f32],
    pub mask: &'a mut [u8],
    /// The reward of the seat that moved.
    pub reward: &'a mut f32,
    /// Every seat's reward (one per player, in seat order).
    pub rewards: &'a mut [f32],
    pub done: &'a mut u8,
}

impl Slot {
    pub fn new(m: &Match, seed: u64) -> Slot {
        let mut seeds = seed;
        let first = splitmix64(&mut seeds);
        Slot {
            game: EnvGame::new(m.spec.new_state(first)),
            learner: 0,
            margins: vec![0.0; m.spec.players],
            seeds,
            rng: Rng::new(first ^ 0x0990_0E17),
            written: Written::default(),
            episodes: 0,
            last_result: None,
        }
    }

    /// Start the next game of this slot's stream.
    pub fn reset(&mut self, m: &Match) {
        let seed = splitmix64(&mut self.seeds);
        self.game.st = m.spec.new_state(seed);
        self.rng = Rng::new(seed ^ 0x0990_0E17);
        self.learner = match m.seat {
            Some(s) => s,
            None => self.rng.below(m.spec.players) as u8,
        };
        self.game.play_chance();
        let learner = self.learner;
        self.game
            .natives_play(&m.spec.space, |s| m.native(learner, s), &mut self.rng);
        // Points the opponents made before the learner's first decision count in its first
        // reward, so a game's rewards sum to its final margin.
        self.margins.fill(0.0);
        self.episodes += 1;
    }

    /// Start the next game of this slot's stream from position `st` (same rules and
    /// catalogue, not over): its tile draws continue from `st`'s generator. The learner is
    /// `m.seat`, else the player to move in `st`; rewards count from `st` on.
    pub fn start_from(&mut self, m: &Match, st: &State) {
        let seed = splitmix64(&mut self.seeds);
        self.game.st = st.clone();
        self.rng = Rng::new(seed ^ 0x0990_0E17);
        self.game.play_chance();
        self.learner = m.seat.unwrap_or_else(|| self.game.st.to_move());
        for (s, v) in self.margins.iter_mut().enumerate() {
            *v = margin(&self.game.st, s);
        }
        let learner = self.learner;
        self.game
            .natives_play(&m.spec.space, |s| m.native(learner, s), &mut self.rng);
        self.episodes += 1;
    }

    /// Reset and write the first observation into rows cleared in full (the mask must be
    /// all zero).
    pub fn reset_rows(&mut self, m: &Match, rows: Rows<'_>) {
        self.reset(m);
        self.write_first(m, rows);
    }

    /// Write a new game's first observation into rows cleared in full.
    fn write_first(&mut self, m: &Match, rows: Rows<'_>) {
        *rows.reward = 0.0;
        rows.rewards.fill(0.0);
        *rows.done = 0;
        rows.board.fill(0);
        self.written = Written::default();
        self.game.write(
            &m.spec,
            self.seat(),
            rows.board,
            rows.vector,
            rows.mask,
            Some(&mut self.written),
        );
    }

    /// The seat whose decision the game waits for (the learner's once it is over).
    pub fn seat(&self) -> u8 {
        if self.game.st.phase == Phase::Over {
            self.learner
        } else {
            self.game.st.to_move()
        }
    }

    /// Play move `a` (already validated) of the seat to move, the native seats' replies, and
    /// write the rewards and the next observation (that of the seat to move then). A finished
    /// game is reset at once: its last observation is that of the next game (`done` = 1, the
    /// rewards are the last ones). A negative `a` leaves the game and its rows as they are
    /// (rewards 0, not done).
    pub fn step(&mut self, m: &Match, a: i64, rows: Rows<'_>) {
        if a < 0 {
            *rows.reward = 0.0;
            rows.rewards.fill(0.0);
            *rows.done = 0;
            return;
        }
        let acted = self.game.st.to_move() as usize;
        let mv = self
            .game
            .legal_move(a as usize)
            .expect("validated before stepping");
        self.game.play(&mv);
        let learner = self.learner;
        self.game
            .natives_play(&m.spec.space, |s| m.native(learner, s), &mut self.rng);
        let st = &self.game.st;
        let over = st.phase == Phase::Over;
        for (s, (r, last)) in rows.rewards.iter_mut().zip(&mut self.margins).enumerate() {
            let now = margin(st, s);
            *r = match m.reward {
                Reward::Score => (now - *last) as f32,
                Reward::Win if over => outcome(st, s) as f32,
                Reward::Win => 0.0,
            };
            *last = now;
        }
        *rows.reward = rows.rewards[acted];
        *rows.done = u8::from(over);
        if over {
            let scores = (0..st.players as usize).map(|p| st.total(p)).collect();
            self.last_result = Some((self.learner, scores));
        }
        if over && m.autoreset {
            self.reset(m);
        }
        let seat = self.seat();
        self.game.write(
            &m.spec,
            seat,
            rows.board,
            rows.vector,
            rows.mask,
            Some(&mut self.written),
        );
    }
}

/// B games stepped together.
pub struct VecEnv {
    pub m: Match,
    pub slots: Vec<Slot>,
    pool: Option<rayon::ThreadPool>,
    /// The flag the native opponents watch (`watch`).
    stop: Option<Arc<AtomicBool>>,
}

/// Flat output arrays of a `VecEnv` (B rows each).
pub struct Buffers<'a> {
    pub board: &'a mut [u8],
    pub vector: &'a mut [f32],
    pub mask: &'a mut [u8],
    pub reward: &'a mut [f32],
    /// B rows of one reward per seat.
    pub rewards: &'a mut [f32],
    pub done: &'a mut [u8],
}

impl VecEnv {
    /// `threads`: 1 steps on the calling thread, 0 uses every core, n uses n threads.
    pub fn new(m: Match, games: usize, seed: u64, threads: usize) -> Result<VecEnv, String> {
        if games == 0 {
            return Err("a vector environment needs at least one game".into());
        }
        if games > MAX_GAMES {
            // Each game holds some 400 KB: more is a slip, and its allocation would abort.
            return Err(format!(
                "a vector environment holds at most {MAX_GAMES} games, not {games}"
            ));
        }
        if m.opponents.is_empty() {
            return Err("at least one opponent policy is needed".into());
        }
        if let Some(s) = m.seat {
            if s as usize >= m.spec.players {
                return Err(format!(
                    "seat must be from 0 to {}, not {s}",
                    m.spec.players - 1
                ));
            }
        }
        let pool = if threads == 1 {
            None
        } else {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| e.to_string())?,
            )
        };
        let mut master = seed;
        let slots = (0..games)
            .map(|_| Slot::new(&m, splitmix64(&mut master)))
            .collect();
        Ok(VecEnv {
            m,
            slots,
            pool,
            stop: None,
        })
    }

    /// Reseed every game's stream from `seed` (when given) and start new games.
    pub fn reset(&mut self, seed: Option<u64>, out: Buffers<'_>) {
        if let Some(seed) = seed {
            let mut master = seed;
            for s in self.slots.iter_mut() {
                *s = Slot::new(&self.m, splitmix64(&mut master));
                if let Some(stop) = &self.stop {
                    s.game.scratch.watch(stop);
                }
            }
        }
        each(
            &self.m,
            &mut self.slots,
            self.pool.as_ref(),
            out,
            |slot, rows, _| slot.reset_rows(&self.m, rows),
            &[],
        );
    }

    /// Start game i from position `starts[i]` (see `Slot::start_from`; checked by the
    /// caller), or from the next game of its stream where None.
    pub fn start_from(&mut self, starts: &[Option<State>], out: Buffers<'_>) {
        let order: Vec<i64> = (0..self.slots.len() as i64).collect();
        each(
            &self.m,
            &mut self.slots,
            self.pool.as_ref(),
            out,
            |slot, rows, i| {
                match &starts[i as usize] {
                    Some(st) => slot.start_from(&self.m, st),
                    None => slot.reset(&self.m),
                }
                slot.write_first(&self.m, rows);
            },
            &order,
        );
    }

    /// Check that `actions[i]` is a legal move of game i (or, with `skip`, negative: game i
    /// does not move); the error names the first that is not.
    pub fn validate(&self, actions: &[i64], skip: bool) -> Result<(), String> {
        if actions.len() != self.slots.len() {
            return Err(format!(
                "expected {} actions, got {}",
                self.slots.len(),
                actions.len()
            ));
        }
        for (i, (&a, s)) in actions.iter().zip(&self.slots).enumerate() {
            if skip && a < 0 {
                continue;
            }
            if s.game.st.phase == Phase::Over {
                return Err(format!("game {i} is over: reset the environment"));
            }
            let ok = usize::try_from(a)
                .ok()
                .and_then(|a| s.game.legal_move(a))
                .is_some();
            if !ok {
                return Err(format!(
                    "action {a} of game {i} is not a legal move (its mask bit is 0): {}",
                    if a < 0 {
                        "negative".to_string()
                    } else {
                        self.m.spec.space.describe(a as usize)
                    }
                ));
            }
        }
        Ok(())
    }

    /// Let the native opponents of every game give up when `stop` is set (Ctrl-C from
    /// Python): a search ends within 64 playouts and plays the best move found so far.
    pub fn watch(&mut self, stop: &Arc<AtomicBool>) {
        self.stop = Some(stop.clone());
        for s in &mut self.slots {
            s.game.scratch.watch(stop);
        }
    }

    /// Step every game with its action, a negative one leaving its game as it is (validate
    /// first: a bad action panics here).
    pub fn step(&mut self, actions: &[i64], out: Buffers<'_>) {
        each(
            &self.m,
            &mut self.slots,
            self.pool.as_ref(),
            out,
            |slot, rows, a| slot.step(&self.m, a, rows),
            actions,
        );
    }
}

/// Run `f` on every slot with its rows of `out` (and its action), in parallel on `pool`.
fn each<F>(
    m: &Match,
    slots: &mut [Slot],
    pool: Option<&rayon::ThreadPool>,
    out: Buffers<'_>,
    f: F,
    actions: &[i64],
) where
    F: Fn(&mut Slot, Rows<'_>, i64) + Sync,
{
    let spec = &m.spec;
    let (bl, vl, ml) = (spec.obs.board_len(), spec.obs.vector, spec.space.size());
    let rows = out
        .board
        .chunks_mut(bl)
        .zip(out.vector.chunks_mut(vl))
        .zip(out.mask.chunks_mut(ml))
        .zip(out.reward.iter_mut())
        .zip(out.rewards.chunks_mut(spec.players))
        .zip(out.done.iter_mut());
    let work = |(i, (slot, (((((board, vector), mask), reward), rewards), done))): (
        usize,
        (&mut Slot, _),
    )| {
        let a = actions.get(i).copied().unwrap_or(0);
        f(
            slot,
            Rows {
                board,
                vector,
                mask,
                reward,
                rewards,
                done,
            },
            a,
        )
    };
    match pool {
        None => slots.iter_mut().zip(rows).enumerate().for_each(work),
        Some(pool) => {
            let rows: Vec<_> = rows.collect();
            pool.install(|| {
                slots
                    .par_iter_mut()
                    .zip(rows.into_par_iter())
                    .enumerate()
                    .for_each(work)
            })
        }
    }
}
