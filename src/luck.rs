//! Luck: how much each chance outcome (and each random tie-break) moved a game, measured while
//! it is played, so that a study can take it out of its results (control variates on chance
//! events, as in agent evaluation for games with chance).
//!
//! At every chance step with more than one outcome (a land tile drawn, a tile drawn after a
//! discard, a tile drawn into a fortune teller's hand, an animal token revealed) the luck of
//! the outcome is `V(after it) - E[V(after an outcome)]`, the expectation taken exactly over
//! the distinct outcomes left and their probabilities (`State::chance_outcomes`). At a decision
//! whose move probabilities are known (a random player; a greedy or expert player's tie among
//! equally valued moves, broken uniformly) the luck of the move is `V(after it)` minus the mean
//! over the moves it was drawn from. Each term has mean zero given everything before it,
//! whatever V is, so a game's summed luck has mean zero and subtracting any multiple of it
//! from a result leaves the result's mean unchanged; the variance falls as far as V explains
//! the result.
//!
//! V is a [`Forecast`]: each player's predicted final score of a position. The default,
//! [`Settled`], plays the position on with the greedy player (ties to the first move) up to the
//! next chance step, then applies the learned evaluation (`players::evaluation`). Where a seat
//! looks ahead, the draw after its move is valued after the reply its search found for each
//! tile instead ([`Judge::replied`]); the players' own values of each next draw can serve too,
//! at no extra search ([`Judge::searched`], [`Values`]). Three views of
//! the forecast are summed per game: each player's predicted score, each player's win
//! probability (a softmax of the predicted scores on a scale that shrinks as the bag empties),
//! and the predicted margin of the leader over the runner-up.

use crate::engine::chance::Chance;
use crate::engine::moves::Move;
use crate::engine::rng::Rng;
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::{Phase, State};
use crate::players::evaluation::{Evaluation, Weights, BUILTIN, TERMS};
use crate::players::greedy::Greedy;
use crate::players::lookahead::DrawValue;
use crate::players::{Players, Policy};
use std::sync::Arc;

/// Each player's predicted final score of a position: the V of the corrections.
pub trait Forecast {
    /// The prediction for `s` into `out` (rows past the players are ignored). `s` is a
    /// scratch copy: the forecast may play on it.
    fn forecast(&mut self, s: &mut State, out: &mut [f32; MAX_PLAYERS]);

    /// Play `s` on as [`Forecast::forecast`] would before predicting, without the
    /// prediction (where an exact value follows: [`Judge::with_tail`]).
    fn settle(&mut self, s: &mut State) {
        self.forecast(s, &mut [0.0; MAX_PLAYERS]);
    }

    /// The features behind the last forecast, per player (the score, then the evaluation's
    /// terms: zero where it used none, as for a game played to its end), into `out`; false
    /// when this forecast has none to give.
    fn last_features(&self, _out: &mut Features) -> bool {
        false
    }
}

/// Each player's [`FEATURES`]: the score, then every evaluation term.
pub type Features = [[f32; FEATURES]; MAX_PLAYERS];

/// The default forecast: the greedy player's moves (the first of equal ones, so the result
/// depends on the position alone) up to the next chance step or the end, then the learned
/// evaluation's predicted final scores (exact final scores once the game is over). With
/// seats ([`Settled::with_seats`]), each mover's own seat plays instead, its ties broken by a
/// generator seeded afresh at every decision (again a function of the position alone).
pub struct Settled {
    weights: Arc<Weights>,
    eval: Option<(u8, Evaluation)>,
    greedy: Greedy,
    values: Vec<i32>,
    moves: Vec<Move>,
    seats: Vec<Policy>,
    mem: Players,
    /// The features of the last forecast.
    feats: Box<Features>,
}

impl Default for Settled {
    fn default() -> Self {
        Settled::new(BUILTIN.clone())
    }
}

impl Settled {
    pub fn new(weights: Arc<Weights>) -> Settled {
        Settled::with_seats(weights, Vec::new())
    }

    /// Settled by the players `seats` (seat by seat; empty: greedy), which should choose in
    /// one ply ([`Policy::one_ply`]): a search here would cost a search per outcome.
    pub fn with_seats(weights: Arc<Weights>, seats: Vec<Policy>) -> Settled {
        Settled {
            weights,
            eval: None,
            greedy: Greedy::new(),
            values: Vec::new(),
            moves: Vec::new(),
            seats,
            mem: Players::new(),
            feats: Box::new([[0.0; FEATURES]; MAX_PLAYERS]),
        }
    }
}

/// The tie-break generator's seed of a seat settling a forecast's position.
const SETTLE_SEED: u64 = 0x05E7_71ED;

/// The expansions of a rule set as bits: a model is chosen by them.
fn expansion_bits(s: &State) -> u8 {
    let r = &s.rules;
    (r.abbot as u8)
        | (r.big_top as u8) << 1
        | (r.fortune_teller as u8) << 2
        | (r.river as u8) << 3
        | (r.toll_collectors as u8) << 4
        | (r.traders_builders.is_some() as u8) << 5
}

/// The greedy player's choice among `moves` of `s`, the first of equal ones (`values`:
/// scratch).
pub fn first_greedy(
    greedy: &mut Greedy,
    values: &mut Vec<i32>,
    s: &State,
    moves: &[Move],
) -> usize {
    greedy.evaluate(s, moves, values);
    (0..values.len())
        .max_by_key(|&i| (values[i], std::cmp::Reverse(i)))
        .unwrap_or(0)
}

/// Plays `s` on with `choose` (the index of the move to play among the legal moves) up to
/// the next chance step or the end; once the game is over, puts the final scores in `out`
/// and returns true. The settling every forecast that settles then evaluates shares
/// (`moves`: scratch).
pub fn settle(
    s: &mut State,
    moves: &mut Vec<Move>,
    out: &mut [f32; MAX_PLAYERS],
    mut choose: impl FnMut(&State, &[Move]) -> usize,
) -> bool {
    while s.phase.is_decision() {
        s.legal_moves(moves);
        if moves.is_empty() {
            break;
        }
        let i = choose(s, moves);
        s.play_unchecked(&moves[i]);
    }
    if s.phase != Phase::Over {
        return false;
    }
    out.fill(0.0);
    for (p, o) in out.iter_mut().enumerate().take(s.players as usize) {
        *o = s.total(p) as f32;
    }
    true
}

impl Settled {
    /// [`settle`] by this forecast's players; true when the game is over (`out`: its scores).
    fn play_on(&mut self, s: &mut State, out: &mut [f32; MAX_PLAYERS]) -> bool {
        let (greedy, values, seats, mem) = (
            &mut self.greedy,
            &mut self.values,
            &self.seats,
            &mut self.mem,
        );
        settle(s, &mut self.moves, out, |s, moves| match seats.len() {
            0 => first_greedy(greedy, values, s, moves),
            n => {
                let seat = &seats[s.to_move() as usize % n];
                seat.choose(s, moves, &mut Rng::new(SETTLE_SEED), mem)
            }
        })
    }
}

impl Forecast for Settled {
    fn settle(&mut self, s: &mut State) {
        self.play_on(s, &mut [0.0; MAX_PLAYERS]);
    }

    fn forecast(&mut self, s: &mut State, out: &mut [f32; MAX_PLAYERS]) {
        let over = self.play_on(s, out);
        for (p, row) in self.feats.iter_mut().enumerate() {
            row.fill(0.0);
            if p < s.players as usize {
                row[0] = s.total(p) as f32;
            }
        }
        if over {
            return;
        }
        let key = expansion_bits(s);
        if self.eval.as_ref().is_none_or(|(k, _)| *k != key) {
            self.eval = Some((key, Evaluation::new(&self.weights, &s.rules)));
        }
        let eval = &mut self.eval.as_mut().expect("set above").1;
        eval.predict(s, out);
        for (row, terms) in self.feats.iter_mut().zip(eval.last_terms()) {
            row[1..].copy_from_slice(terms);
        }
    }

    fn last_features(&self, out: &mut Features) -> bool {
        out.copy_from_slice(&self.feats[..]);
        true
    }
}

/// Where a batch's V comes from.
#[derive(Clone, Debug)]
pub enum Values {
    /// [`Settled`] with these weights and settling seats (empty: greedy), at every event.
    Settled(Arc<Weights>, Vec<Policy>, Measure),
    /// The look-ahead players' own values of each next draw ([`Judge::searched`]).
    Searched,
    /// [`Settled`] with these weights, but the draw after a looked-ahead move valued after the
    /// reply the mover's search found for each tile ([`Judge::replied`]).
    Replied(Arc<Weights>, Measure),
}

/// How a forecast's V is measured besides its luck sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measure {
    /// The luck of every term too ([`Judge::with_terms`]).
    pub terms: bool,
    /// The draws V looks through exactly at the end of a game ([`Judge::with_tail`]).
    pub tail: usize,
}

/// How many tiles may be left in the bag for V to be the exact expectation over every order
/// they can still come in (each position settled, the game played out): the win, a step of
/// the final margin, is what a prediction misses most near the end (BENCHMARKS.md, session 19).
pub const TAIL: usize = 4;
/// The longest tail a batch may ask for: 8 tiles in up to 40,320 orders per outcome valued.
pub const MAX_TAIL: usize = 8;

impl Measure {
    /// No term's luck, and the tail [`Source::tail`] for V from `source` for these seats.
    pub fn plain(source: Source, policies: &[Policy]) -> Measure {
        Measure {
            terms: false,
            tail: source.tail(policies),
        }
    }
}

/// Where a batch's V comes from, as `simulate`'s `luck_values` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Settled,
    Searched,
    Replied,
}

impl Source {
    /// `text` ("auto", "settled", "searched" or "replied") for these seats. "auto" is the
    /// replied V where a seat looks ahead (it cut more than the searched V at the same CPU:
    /// BENCHMARKS.md, session 18), else the settled V.
    pub fn parse(text: &str, players: usize, policies: &[Policy]) -> Result<Source, String> {
        match text {
            "auto" if policies.iter().any(Policy::looks_ahead) => Ok(Source::Replied),
            "auto" | "settled" => Ok(Source::Settled),
            "replied" => Ok(Source::Replied),
            "searched" if Values::searchable(players, policies) => Ok(Source::Searched),
            "searched" => Err(
                "luck_values='searched' needs two players and a look-ahead at \
                 every seat (heuristic or expert with depth=2 or more)"
                    .into(),
            ),
            other => Err(format!(
                "luck_values must be 'auto', 'settled', 'searched' or 'replied', not {other:?}"
            )),
        }
    }

    /// The tail ([`Judge::with_tail`]) V from here looks through by default for these seats:
    /// [`TAIL`] where a seat searches (a look-ahead, rollouts, mcts: a few per cent of its
    /// play), none where every seat chooses in one ply, whose luck it would cost twice over
    /// for a tenth more cut (BENCHMARKS.md, sessions 19 and 20), nor for the searched V,
    /// which values no position itself.
    pub fn tail(self, policies: &[Policy]) -> usize {
        match self {
            Source::Searched => 0,
            _ if policies.iter().all(Policy::one_ply) => 0,
            Source::Settled | Source::Replied => TAIL,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Source::Settled => "settled",
            Source::Searched => "searched",
            Source::Replied => "replied",
        }
    }
}

impl Values {
    /// The default V for these seats: [`Values::Replied`] where a seat looks ahead, else
    /// [`Values::Settled`] by greedy, with `weights`, and the seats' default tail.
    pub fn best_for(players: usize, policies: &[Policy], weights: Arc<Weights>) -> Values {
        match Source::parse("auto", players, policies) {
            Ok(Source::Replied) => {
                Values::Replied(weights, Measure::plain(Source::Replied, policies))
            }
            _ => Values::Settled(
                weights,
                Vec::new(),
                Measure::plain(Source::Settled, policies),
            ),
        }
    }

    /// Whether the players' own values can be V: two players, every seat a look-ahead.
    pub fn searchable(players: usize, policies: &[Policy]) -> bool {
        players == 2 && !policies.is_empty() && policies.iter().all(Policy::looks_ahead)
    }

    /// A judge taking V from here.
    pub fn judge(&self) -> Judge<Settled> {
        let (judge, measure) = match self {
            Values::Settled(w, seats, m) => (
                Judge::new(Settled::with_seats(w.clone(), seats.clone())),
                *m,
            ),
            Values::Searched => (
                Judge::searched(Settled::default()),
                Measure::plain(Source::Searched, &[]),
            ),
            Values::Replied(w, m) => (Judge::replied(Settled::new(w.clone())), *m),
        };
        let judge = judge.with_tail(measure.tail);
        if measure.terms {
            judge.with_terms()
        } else {
            judge
        }
    }
}

/// A game's luck, summed over its corrected events: per player, the luck in the predicted
/// final score and in the win probability; the luck in the predicted margin of the leader
/// over the runner-up (the whole game's); how many events had more than one outcome. The
/// score and win luck are also split into [`PARTS`] parts by the event's kind and stage
/// ([`part`]): each part is a sum of zero-mean terms too, so any of them is a covariate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Luck {
    pub score: [f64; MAX_PLAYERS],
    pub win: [f64; MAX_PLAYERS],
    pub margin: f64,
    pub events: u32,
    pub score_parts: [[f64; PARTS]; MAX_PLAYERS],
    pub win_parts: [[f64; PARTS]; MAX_PLAYERS],
}

/// The kinds of corrected event: a turn's first tile drawn; a tile drawn after it in the same
/// turn (after a discard, or into a fortune teller's hand); an animal token revealed; a
/// tie-break.
pub const KINDS: usize = 4;
pub const KIND_DRAW: usize = 0;
pub const KIND_EXTRA: usize = 1;
pub const KIND_TOKEN: usize = 2;
pub const KIND_TIE: usize = 3;
/// The stages of a game: thirds of the bag, by the tiles drawn before the event.
pub const STAGES: usize = 3;
/// How many parts a game's luck is split into: each kind at each stage.
pub const PARTS: usize = KINDS * STAGES;

/// The part of an event of `kind` with `left` tiles in a bag that held `full` at the game's
/// first event: `kind * STAGES + stage`.
pub fn part(kind: usize, full: usize, left: usize) -> usize {
    let drawn = full.saturating_sub(left);
    let stage = (STAGES * drawn / full.max(1)).min(STAGES - 1);
    kind * STAGES + stage
}

/// The win-probability model's scale, in points, with `left` tiles in the bag: the predicted
/// scores' error grows like the square root of the turns still to play.
pub fn win_scale(left: usize) -> f64 {
    WIN_SCALE_FLOOR + WIN_SCALE_PER_ROOT_TILE * (left as f64).sqrt()
}

/// Measured on greedy and expert games (BENCHMARKS.md, luck): a prediction's error on the
/// final margin grows about like 2 points per square root of the tiles left.
const WIN_SCALE_PER_ROOT_TILE: f64 = 1.2;
const WIN_SCALE_FLOOR: f64 = 1.0;

/// Each player's share of the win of a game whose winners are `mask` (`State::winner_mask`):
/// ties share it (B23).
pub fn win_shares(mask: u8) -> [f64; MAX_PLAYERS] {
    let share = 1.0 / mask.count_ones().max(1) as f64;
    std::array::from_fn(|p| if mask >> p & 1 == 1 { share } else { 0.0 })
}

/// The three views of one forecast: predicted scores, win probabilities, leader's margin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Views {
    pub score: [f64; MAX_PLAYERS],
    pub win: [f64; MAX_PLAYERS],
    pub margin: f64,
}

/// One corrected event as a traced judge saw it ([`Judge::with_trace`]): V after the outcome
/// that happened, and its expectation over every outcome. A game's result is the first
/// event's expectation, plus every event's luck (`actual - expected`), plus every step from
/// one event's `actual` to the next one's `expected` (V's drift over the players' moves
/// between them), plus the result less the last event's `actual`: where V drifts is where
/// the luck adjustment leaves variance (`benches/luck_drift.py`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Traced {
    /// The tiles in the bag before the event.
    pub left: usize,
    /// The event's [`part`].
    pub part: usize,
    pub actual: Views,
    pub expected: Views,
}

impl Views {
    fn of(pred: &[f32; MAX_PLAYERS], players: usize, left: usize) -> Views {
        let mut v = Views::default();
        let scale = win_scale(left);
        let top = pred[..players].iter().fold(f32::MIN, |a, &b| a.max(b)) as f64;
        let mut total = 0.0;
        for (p, &x) in pred.iter().enumerate().take(players) {
            v.score[p] = x as f64;
            v.win[p] = ((x as f64 - top) / scale).exp();
            total += v.win[p];
        }
        for w in v.win.iter_mut().take(players) {
            *w /= total;
        }
        let mut sorted = v.score;
        sorted[..players].sort_unstable_by(|a, b| b.total_cmp(a));
        v.margin = sorted[0] - sorted[1];
        v
    }

    /// The views of a game over: the final scores, each winner's share of the win
    /// ([`win_shares`]), the margin.
    fn over(s: &State) -> Views {
        let players = s.players as usize;
        let mut pred = [0.0f32; MAX_PLAYERS];
        for (p, x) in pred.iter_mut().enumerate().take(players) {
            *x = s.total(p) as f32;
        }
        let mut v = Views::of(&pred, players, 0);
        v.win = win_shares(s.winner_mask());
        v
    }

    fn add_scaled(&mut self, o: &Views, k: f64) {
        for p in 0..MAX_PLAYERS {
            self.score[p] += k * o.score[p];
            self.win[p] += k * o.win[p];
        }
        self.margin += k * o.margin;
    }
}

/// Measures a game's luck as it is played: the batch runner hands it every chance step and
/// every decision of a policy with known move probabilities.
///
/// Searched (`Judge::searched`), V is instead the players' own: a look-ahead player values
/// every tile the next draw may bring while it chooses its move (`Lookahead::draws_of`: the
/// mover's margin after the next mover's best reply with that tile), and the batch runner
/// hands those values over (`Judge::told`). The draw that follows the move is then corrected
/// with them at no extra search; the exact expectation is their count-weighted mean, which is
/// the move's own look-ahead value. It applies to two players (a margin is one seat's gain
/// and the other's loss, so seat 1's margin is the same scale whichever seat searched) and to
/// the draw right after a looked-ahead move only; every other event (a tile drawn after a
/// discard, a fortune teller's draws, an animal token, a tie-break) goes uncorrected, which
/// keeps the sum's mean zero.
pub struct Judge<F: Forecast = Settled> {
    pub forecast: F,
    pub luck: Luck,
    copy: Option<State>,
    views: Vec<Views>,
    /// Where V comes from: the forecast ([`Judge::new`]), the players' searches only
    /// ([`Judge::searched`]), or the forecast after the searches' replies ([`Judge::replied`]).
    source: Source,
    /// The values a look-ahead gave the next draw, and the seat whose margin they are.
    told: Option<(usize, Vec<DrawValue>)>,
    spare: Vec<DrawValue>,
    /// The bag's size at the game's first event (the stages are thirds of it).
    full: usize,
    /// Whether a tile was drawn since the last decision (the next is not the turn's first).
    drawn: bool,
    /// With terms ([`Judge::with_terms`]): each player's luck in each of V's [`FEATURES`]
    /// (player by player); else empty.
    pub terms: Vec<f64>,
    /// The features (score, then terms, [`FEATURES`] a player) of each outcome valued.
    feats: Vec<f32>,
    probs: Vec<f64>,
    scratch: Box<Features>,
    /// V is exact once at most this many tiles are left ([`Judge::with_tail`]; 0: never).
    tail: usize,
    /// With a trace ([`Judge::with_trace`]): this game's corrected events so far.
    pub trace: Option<Vec<Traced>>,
}

/// The values a player has in [`Judge::terms`]: the score, then every evaluation term.
pub const FEATURES: usize = 1 + TERMS;
/// Every player's features: the length of [`Judge::terms`].
const ROW: usize = MAX_PLAYERS * FEATURES;

impl Default for Judge<Settled> {
    fn default() -> Self {
        Judge::new(Settled::default())
    }
}

impl<F: Forecast> Judge<F> {
    pub fn new(forecast: F) -> Judge<F> {
        Judge {
            forecast,
            luck: Luck::default(),
            copy: None,
            views: Vec::new(),
            source: Source::Settled,
            told: None,
            spare: Vec::new(),
            full: 0,
            drawn: false,
            terms: Vec::new(),
            feats: Vec::new(),
            probs: Vec::new(),
            scratch: Box::new([[0.0; FEATURES]; MAX_PLAYERS]),
            tail: 0,
            trace: None,
        }
    }

    /// This judge valuing a position exactly once at most `tail` tiles are left: the mean
    /// over every outcome of every chance step to come, each position settled by the
    /// forecast, of the views of the game played out (the forecast's own prediction where
    /// the game is not over yet). Any V keeps the luck's mean zero; an exact one near the end
    /// explains the win, a step function of the final margin, where a prediction cannot.
    /// The cost grows like the factorial of `tail`.
    pub fn with_tail(mut self, tail: usize) -> Judge<F> {
        self.tail = tail;
        self
    }

    /// This judge measuring the luck of every feature of V's settled positions too (the score
    /// and each evaluation term, per player: [`Judge::terms`]). V is linear in them (less its
    /// network), so any weighing of them is a luck sum of mean zero: a study can fit, on games
    /// of its own, the weighing that explains its result best.
    pub fn with_terms(mut self) -> Judge<F> {
        self.terms = vec![0.0; ROW];
        self
    }

    /// This judge keeping each game's corrected events in [`Judge::trace`].
    pub fn with_trace(mut self) -> Judge<F> {
        self.trace = Some(Vec::new());
        self
    }

    /// A judge whose V is the look-ahead players' own values of the next draw (see [`Judge`];
    /// `forecast` is not used).
    pub fn searched(forecast: F) -> Judge<F> {
        Judge {
            source: Source::Searched,
            ..Judge::new(forecast)
        }
    }

    /// A judge whose V is `forecast`'s, except at the draw right after a looked-ahead move:
    /// there each tile's position is the one after the reply the mover's search found for
    /// it (the next mover's best by the searcher's one-ply ranking), then forecast. The
    /// search chose those replies anyway, so this places each tile as the seats would, at the
    /// cost of one forecast per tile and no settling; every other event is forecast as usual.
    pub fn replied(forecast: F) -> Judge<F> {
        Judge {
            source: Source::Replied,
            ..Judge::new(forecast)
        }
    }

    /// Whether this judge is told a look-ahead's values of the next draw ([`Judge::told`]).
    pub fn wants_draws(&self) -> bool {
        self.source != Source::Settled
    }

    /// The move just chosen by seat `me` valued the draw that follows it: `draws` (each tile
    /// that may be drawn, its count, `me`'s margin after it), or None. Kept for the next
    /// chance step only, which must be that draw (the move played, nothing between).
    pub fn told(&mut self, me: usize, draws: Option<&[DrawValue]>) {
        let old = self.told.take();
        self.spare_told(old);
        if let Some(d) = draws {
            let mut v = std::mem::take(&mut self.spare);
            v.clear();
            v.extend_from_slice(d);
            self.told = Some((me, v));
        }
    }

    /// Keep the memory of values told (taken out of `told`) for the next ones.
    fn spare_told(&mut self, told: Option<(usize, Vec<DrawValue>)>) {
        if let Some((_, v)) = told {
            self.spare = v;
        }
    }

    /// Start a new game.
    pub fn reset(&mut self) {
        self.luck = Luck::default();
        self.terms.fill(0.0);
        self.told(0, None);
        self.full = 0;
        self.drawn = false;
        if let Some(t) = &mut self.trace {
            t.clear();
        }
    }

    /// V's views of `s` after `change` is applied to a copy of it.
    fn views_after(&mut self, s: &State, exact: bool, change: impl FnOnce(&mut State)) -> Views {
        let copy = match &mut self.copy {
            Some(c) => {
                c.clone_from(s);
                c
            }
            None => self.copy.insert(s.clone()),
        };
        change(copy);
        if exact && self.tail > 0 && copy.bag_len() <= self.tail && self.terms.is_empty() {
            // Settling draws no tile: the bag checked is the one the exact value starts from.
            let mut copy = self.copy.take().expect("set above");
            self.forecast.settle(&mut copy);
            let views = Self::exact(&mut self.forecast, &mut copy);
            self.copy = Some(copy);
            return views;
        }
        let mut pred = [0.0f32; MAX_PLAYERS];
        self.forecast.forecast(copy, &mut pred);
        if !self.terms.is_empty() && self.forecast.last_features(&mut self.scratch) {
            for row in self.scratch.iter() {
                self.feats.extend_from_slice(row);
            }
        }
        Views::of(&pred, s.players as usize, copy.bag_len())
    }

    /// The views of `s`, which `forecast` has just settled, exact over the chance steps left
    /// (see [`Judge::with_tail`]); where play stops short of the end (a forecast that does
    /// not settle), the forecast's prediction.
    fn exact(forecast: &mut F, s: &mut State) -> Views {
        loop {
            if s.phase == Phase::Over {
                return Views::over(s);
            }
            let outcomes = if s.phase.is_chance() {
                s.chance_outcomes()
            } else {
                Vec::new()
            };
            if outcomes.len() >= 2 {
                let mut mean = Views::default();
                for (c, p) in outcomes {
                    let mut next = s.clone();
                    let _ = next.apply_chance(c);
                    forecast.settle(&mut next);
                    mean.add_scaled(&Self::exact(forecast, &mut next), p);
                }
                return mean;
            }
            // One outcome, or none (the bag empty: the game ends): no chance in it.
            let stepped = s.phase.is_chance() && s.chance_step_random().is_some();
            if s.phase == Phase::Over {
                continue;
            }
            if !stepped {
                let mut pred = [0.0f32; MAX_PLAYERS];
                forecast.forecast(s, &mut pred);
                return Views::of(&pred, s.players as usize, s.bag_len());
            }
            forecast.settle(s);
        }
    }

    /// Add the luck of event outcome `actual` among outcomes valued `self.views` with
    /// probabilities `probs`, an event of [`part`] `part`.
    fn add(&mut self, probs: impl Iterator<Item = f64>, actual: usize, left: usize, part: usize) {
        self.probs.clear();
        self.probs.extend(probs);
        let mut mean = Views::default();
        for (v, &p) in self.views.iter().zip(&self.probs) {
            mean.add_scaled(v, p);
        }
        if !self.terms.is_empty() && self.feats.len() == self.views.len() * ROW {
            self.add_terms(actual);
        }
        if let Some(t) = &mut self.trace {
            t.push(Traced {
                left,
                part,
                actual: self.views[actual],
                expected: mean,
            });
        }
        let mut luck = self.views[actual];
        luck.add_scaled(&mean, -1.0);
        for p in 0..MAX_PLAYERS {
            self.luck.score[p] += luck.score[p];
            self.luck.win[p] += luck.win[p];
            self.luck.score_parts[p][part] += luck.score[p];
            self.luck.win_parts[p][part] += luck.win[p];
        }
        self.luck.margin += luck.margin;
        self.luck.events += 1;
    }

    /// Add each feature's luck at an event (the outcomes' features in `self.feats`, their
    /// probabilities in `self.probs`).
    fn add_terms(&mut self, actual: usize) {
        let feats = &self.feats;
        for (i, t) in self.terms.iter_mut().enumerate() {
            let expected: f64 = (self.probs.iter().enumerate())
                .map(|(k, &q)| q * feats[k * ROW + i] as f64)
                .sum();
            *t += feats[actual * ROW + i] as f64 - expected;
        }
    }

    /// Resolve one chance step of `s` with the seeded generator (as `State::chance_step_random`)
    /// and add its luck. Returns the outcome (None: no chance step waits).
    pub fn chance_step(&mut self, s: &mut State) -> Option<Chance> {
        if self.full == 0 {
            self.full = s.bag_len();
        }
        let kind = if s.phase == Phase::Reveal {
            KIND_TOKEN
        } else if self.drawn {
            KIND_EXTRA
        } else {
            KIND_DRAW
        };
        let left = s.bag_len();
        let part = part(kind, self.full, left);
        self.drawn |= s.phase == Phase::Draw;
        let told = self.told.take();
        let outcomes = s.chance_outcomes();
        if outcomes.len() < 2 {
            self.spare_told(told);
            return s.chance_step_random();
        }
        let mut views = std::mem::take(&mut self.views);
        views.clear();
        self.feats.clear();
        if self.source == Source::Searched {
            let valued = match &told {
                Some((me, draws)) => Self::views_told(s, *me, draws, &outcomes, &mut views),
                None => false,
            };
            self.spare_told(told);
            if !valued {
                self.views = views;
                return s.chance_step_random();
            }
        } else {
            let draws = match &told {
                Some((_, d)) if self.source == Source::Replied && s.phase == Phase::Draw => {
                    d.as_slice()
                }
                _ => &[],
            };
            for &(c, _) in &outcomes {
                let reply = match c {
                    Chance::Tile(t) => draws.iter().find(|d| d.tile == t).and_then(|d| d.reply),
                    Chance::Reveal(_) => None,
                };
                views.push(self.views_after(s, true, |copy| {
                    let _ = copy.apply_chance(c);
                    if let Some(r) = reply {
                        // Checked: a reply found for another position is not played.
                        let _ = copy.play(&r);
                    }
                }));
            }
            self.spare_told(told);
        }
        self.views = views;
        let c = s.chance_step_random()?;
        if let Some(actual) = outcomes.iter().position(|o| o.0 == c) {
            self.add(outcomes.iter().map(|o| o.1), actual, left, part);
        }
        Some(c)
    }

    /// The views of each of `outcomes` (a plain draw's) from seat `me`'s margins `draws`, into
    /// `views`: seat 1's predicted margin split evenly, plus and minus, between the two seats.
    /// False (nothing valued) unless two players wait for a plain draw and every outcome has
    /// a value.
    fn views_told(
        s: &State,
        me: usize,
        draws: &[DrawValue],
        outcomes: &[(Chance, f64)],
        views: &mut Vec<Views>,
    ) -> bool {
        if s.phase != Phase::Draw || s.players != 2 {
            return false;
        }
        let left = s.bag_len().saturating_sub(1);
        for &(c, _) in outcomes {
            let Chance::Tile(t) = c else {
                return false;
            };
            let Some(d) = draws.iter().find(|d| d.tile == t) else {
                return false;
            };
            let first = if me == 0 { d.value } else { -d.value };
            let mut pred = [0.0f32; MAX_PLAYERS];
            pred[0] = first / 2.0;
            pred[1] = -first / 2.0;
            views.push(Views::of(&pred, 2, left));
        }
        true
    }

    /// Add the luck of move `chosen` of `moves` (legal moves of `s`, not yet played), drawn
    /// uniformly among the moves `among` (indexes into `moves`). Not when searched: a
    /// look-ahead's tied moves have equal values by its own V, so their luck is nil.
    pub fn choice(&mut self, s: &State, moves: &[Move], among: &[usize], chosen: usize) {
        self.drawn = false;
        if among.len() < 2 || self.source == Source::Searched {
            return;
        }
        let mut views = std::mem::take(&mut self.views);
        views.clear();
        self.feats.clear();
        for &i in among {
            let m = moves[i];
            views.push(self.views_after(s, false, |copy| copy.play_unchecked(&m)));
        }
        self.views = views;
        if let Some(actual) = among.iter().position(|&i| i == chosen) {
            let k = 1.0 / among.len() as f64;
            let part = part(KIND_TIE, self.full, s.bag_len());
            self.add(
                std::iter::repeat_n(k, among.len()),
                actual,
                s.bag_len(),
                part,
            );
        }
    }
}

/// The indexes of the highest of `values` (the moves a uniform tie-break draws from).
pub fn ties<T: PartialOrd + Copy>(values: &[T], out: &mut Vec<usize>) {
    out.clear();
    let Some(&first) = values.first() else {
        return;
    };
    let best = values.iter().fold(first, |a, &b| if b > a { b } else { a });
    out.extend((0..values.len()).filter(|&i| values[i] == best));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Rules;
    use crate::engine::tiles::Catalogue;

    /// A forecast that is a fixed value: every correction is exactly zero.
    struct Constant;
    impl Forecast for Constant {
        fn forecast(&mut self, _: &mut State, out: &mut [f32; MAX_PLAYERS]) {
            out.fill(7.0);
        }
    }

    #[test]
    fn a_constant_forecast_measures_no_luck() {
        let cat = Catalogue::builtin();
        let mut s = State::new(cat, Rules::default(), 2, 5).unwrap();
        let mut judge = Judge::new(Constant);
        let mut moves = Vec::new();
        while s.phase != Phase::Over {
            if s.phase.is_chance() {
                judge.chance_step(&mut s);
            } else {
                s.legal_moves(&mut moves);
                let all: Vec<usize> = (0..moves.len()).collect();
                judge.choice(&s, &moves, &all, 0);
                s.play_unchecked(&moves[0]);
            }
        }
        assert!(judge.luck.events > 50);
        assert!(judge.luck.score.iter().all(|&x| x.abs() < 1e-9));
        assert!(judge.luck.margin.abs() < 1e-9);
    }

    #[test]
    fn tied_winners_share_the_win() {
        let shares = win_shares(0b101);
        assert_eq!(&shares[..3], &[0.5, 0.0, 0.5]);
        assert_eq!(win_shares(0b10)[1], 1.0);
        assert_eq!(win_shares(0b10).iter().sum::<f64>(), 1.0);
    }

    #[test]
    fn ties_are_the_highest_values() {
        let mut out = Vec::new();
        ties(&[1, 5, 3, 5], &mut out);
        assert_eq!(out, vec![1, 3]);
        ties(&[2.0f32], &mut out);
        assert_eq!(out, vec![0]);
    }
}
