//! The heuristic player: a hand-tuned one-ply ranking, the held-out anchor of the strength
//! ladder. It learns nothing and is never in the expert's training data, so a win against it
//! is a win against play the training never saw.
//!
//! Written from published descriptions of such rankings (Heyden, "Implementing a computer
//! player for Carcassonne", Maastricht University 2009; the open-source JCloisterZone's
//! built-in "legacy" player as the strength issue describes it; E. Levy's notes on a
//! Carcassonne player, 2011), not from their code. Every legal move is played on one copy of
//! the state (undone after, as the greedy player does) and the position after it is ranked,
//! for each player, as the points that player can expect by the end:
//!
//! - the score if the game ended now (final scoring applied to the copy: this counts every
//!   expansion's end-of-game points too);
//! - for each open road or city where the player has the majority, the chance that it is
//!   completed: each open position next to it is filled by a fitting tile before the end with
//!   probability `1 - (1 - f/T)^d` (f tiles left in the bag fit it, T tiles left, d the draws
//!   that may fill it: the holder's own share of the turns left plus `help` of the others'),
//!   the feature completes when all its positions are filled; it then scores its completed
//!   value and its figures come back, and each filled position adds a tile;
//! - for a monastery or garden, each empty neighbour filled with that probability (anyone's
//!   tile counts);
//! - for a field, 3 points for each unfinished neighbouring city times its completion chance
//!   (the completed ones are in the score already), scaled by `field`;
//! - figures in supply are worth `meeple` points each while there are turns left to use them;
//! - a penalty that grows with the number of open features holding the player's figures
//!   (`open` x k(k-1)/2): tiles and turns are shared between them;
//! - threats: an open position that one tile could fill to join two occupied roads or cities
//!   moves, with that position's fill chance times `join`, the points the join would give or
//!   take from each player.
//!
//! A move's value is the mover's expected points minus the best opponent's. Only what every
//! player knows is read: the bag's contents, never its order. Ties are broken at random.

use crate::engine::board::{Open, NO_NEIGHBOUR};
use crate::engine::features::{unpack_figure, NO_FIGURE};
use crate::engine::moves::Move;
use crate::engine::rng::Rng;
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::{Phase, State};
use crate::engine::tiles::SegmentKind;
use crate::players::choice::{Chooser, Foresight};
use crate::players::evaluation::majority;
use crate::players::lookahead::{DrawValue, Ranking, DEFAULT_TOP};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The hand-set weights of the ranking (`heuristic:meeple=3:open=1...`). Each is a named
/// parameter so that tuning, perturbed league opponents and the exploitability probe can
/// vary them; the defaults are the tuned ones (docs/players.md, "Tuning log").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeuristicConfig {
    /// Points a figure in supply is worth while turns are left to use it.
    pub meeple: f32,
    /// Penalty scale for holding many open features at once.
    pub open: f32,
    /// Share of one's own draws that may fill a given gap (the rest go elsewhere).
    pub reach: f32,
    /// Share of the other players' draws that count towards filling one's own gaps.
    pub help: f32,
    /// Weight of a join's gain or loss, times its chance.
    pub join: f32,
    /// Scale of a farmer's expected points from unfinished cities.
    pub field: f32,
    /// Scale of the completion bonus of roads, cities and cloisters.
    pub complete: f32,
    /// Draws looked at: 1, the ranking of the position after the move; 2, also the next draw
    /// and the best reply to it; 3, also the draw after that and the best reply to it
    /// (`lookahead.rs`).
    pub depth: u8,
    /// With depth 2 or 3 or rollouts: how many of the best moves by one ply are looked
    /// ahead from.
    pub top: u16,
    /// Continuations played from each of the `top` moves (`rollouts.rs`); 0: none.
    pub rollouts: u32,
    /// Decisions each continuation plays before its position is valued.
    pub horizon: u16,
}

/// The default number of decisions a continuation plays.
pub const DEFAULT_HORIZON: u16 = 8;

/// The widest the look-ahead may start (a move list is rarely longer).
pub const MAX_TOP: u16 = 500;

/// (name, default, lowest, highest, help) of every parameter, in policy-text order.
pub const PARAMS: [(&str, f32, f32, f32, &str); 7] = [
    (
        "meeple",
        4.5,
        0.0,
        20.0,
        "points a figure in supply is worth early in the game",
    ),
    (
        "open",
        0.5,
        0.0,
        20.0,
        "penalty scale for many open features held at once",
    ),
    (
        "reach",
        0.04,
        0.0,
        1.0,
        "share of one's own draws that may fill a given gap",
    ),
    (
        "help",
        0.0,
        0.0,
        1.0,
        "share of the others' draws that fill one's gaps",
    ),
    (
        "join",
        0.5,
        0.0,
        5.0,
        "weight of the points a join gives or takes",
    ),
    (
        "field",
        1.0,
        0.0,
        5.0,
        "scale of a farmer's points from unfinished cities",
    ),
    (
        "complete",
        1.0,
        0.0,
        5.0,
        "scale of the completion bonus of roads, cities, cloisters",
    ),
];

impl Default for HeuristicConfig {
    fn default() -> Self {
        let mut v = [0.0; 7];
        for (x, p) in v.iter_mut().zip(PARAMS) {
            *x = p.1;
        }
        HeuristicConfig::from_values(v)
    }
}

impl HeuristicConfig {
    fn from_values(v: [f32; 7]) -> HeuristicConfig {
        HeuristicConfig {
            meeple: v[0],
            open: v[1],
            reach: v[2],
            help: v[3],
            join: v[4],
            field: v[5],
            complete: v[6],
            depth: 1,
            top: DEFAULT_TOP,
            rollouts: 0,
            horizon: DEFAULT_HORIZON,
        }
    }

    fn values(&self) -> [f32; 7] {
        [
            self.meeple,
            self.open,
            self.reach,
            self.help,
            self.join,
            self.field,
            self.complete,
        ]
    }

    /// Parse the parameters after `heuristic:` (`meeple=3:open=0.5`, `depth=2:top=8`),
    /// checked against the parameter table (`params.rs`).
    pub fn parse(params: &str) -> Result<HeuristicConfig, String> {
        use crate::players::params;
        let given = params::parse("heuristic", &params::HEURISTIC, params, None)?;
        let mut v = [0.0; PARAMS.len()];
        for (x, p) in v.iter_mut().zip(PARAMS) {
            *x = given.number(p.0);
        }
        let sight = Foresight::parse("heuristic", &given)?;
        Ok(HeuristicConfig {
            depth: sight.depth,
            top: sight.top,
            rollouts: sight.rollouts,
            horizon: sight.horizon,
            ..HeuristicConfig::from_values(v)
        })
    }

    /// Canonical text: `heuristic`, then the parameters that differ from the defaults.
    pub fn text(&self) -> String {
        let mut s = String::from("heuristic");
        for (i, x) in self.values().iter().enumerate() {
            if *x != PARAMS[i].1 {
                s += &format!(":{}={}", PARAMS[i].0, x);
            }
        }
        s += &self.foresight().text();
        s
    }

    /// How far it looks past its moves.
    pub fn foresight(&self) -> Foresight {
        Foresight {
            depth: self.depth,
            top: self.top,
            rollouts: self.rollouts,
            horizon: self.horizon,
        }
    }
}

/// One open road or city: how its open positions may be filled.
#[derive(Clone, Copy, Debug, Default)]
struct Odds {
    /// Open positions next to it.
    gaps: u16,
    /// Probability that every one is filled (the product of their fill chances).
    complete: f32,
    /// Expected number of them filled.
    filled: f32,
}

/// A position that one tile could fill to join two occupied roads or cities.
#[derive(Clone, Copy, Debug)]
struct Join {
    a: u16,
    b: u16,
    chance: f32,
}

/// The heuristic player's reusable memory (no allocation per candidate once warm).
#[derive(Default)]
pub struct Heuristic {
    after: Option<State>,
    /// The bag's distinct tiles with their counts (what is read of the bag: the counts, never
    /// its order).
    bag: Vec<(u16, u16)>,
    /// Per tile type: its copies in the bag, while comparing with the last position's `bag`.
    counts: Vec<u16>,
    /// The catalogue the counts are of (its address).
    cat: usize,
    /// Per side signature of an open position (`fit_key`): 1 + the bag's tiles that fit it,
    /// or 0 when not yet counted for these bag contents.
    fits: Vec<u16>,
    /// `fill(f)` for f tiles fitting, NaN when not yet computed; for `fill_key`.
    fill: Vec<f32>,
    /// (tiles left, the draws' bits) the `fill` table is for.
    fill_key: (usize, u32),
    /// Per segment id: its entry in `odds`, or `u16::MAX`.
    slot: Vec<u16>,
    odds: Vec<Odds>,
    joins: Vec<Join>,
    values: Vec<f32>,
    /// A scratch copy for `value`.
    scratch: Option<State>,
    chooser: Chooser<Heuristic>,
    /// When set, a look-ahead or the rollouts give up (Ctrl-C) and the one-ply choice is played.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Heuristic {
    pub fn new() -> Heuristic {
        Heuristic::default()
    }

    /// Value of each of `moves` (legal moves of `state`) for the player to move, in points of
    /// expected margin over the best opponent, into `values`.
    pub fn evaluate(
        &mut self,
        cfg: &HeuristicConfig,
        state: &State,
        moves: &[Move],
        values: &mut Vec<f32>,
    ) {
        values.clear();
        let me = state.to_move() as usize;
        let n = state.players as usize;
        let mut after = self.after.take().unwrap_or_else(|| state.clone());
        after.clone_from(state);
        after.record_changes();
        let mut v = [0f32; MAX_PLAYERS];
        for m in moves {
            after.play_unchecked(m);
            self.position(cfg, &mut after, &mut v);
            values.push(margin(&v, me, n));
            after.undo_to(state);
        }
        self.after = Some(after);
    }

    /// The ranks of the moves of the last `choose`: `Chooser::last_ranks`.
    pub fn last_ranks(&self) -> &[i32] {
        self.chooser.last_ranks()
    }

    /// The look-ahead's values of the next draw after move `m` of the last `choose`:
    /// `Chooser::last_draws`.
    pub fn last_draws(&self, m: &Move) -> Option<&[DrawValue]> {
        self.chooser.last_draws(m)
    }

    /// The index of the move to play among `moves` (`choice.rs`).
    pub fn choose(
        &mut self,
        cfg: &HeuristicConfig,
        state: &State,
        moves: &[Move],
        rng: &mut Rng,
    ) -> usize {
        let mut values = std::mem::take(&mut self.values);
        self.evaluate(cfg, state, moves, &mut values);
        let i = self
            .chooser
            .choose(cfg, state, moves, &values, cfg.foresight(), &self.stop, rng);
        self.values = values;
        i
    }

    /// The value of position `s` for player `me`: its expected points by the end minus the
    /// best opponent's.
    pub fn value(&mut self, cfg: &HeuristicConfig, s: &State, me: usize) -> f32 {
        let mut copy = self.scratch.take().unwrap_or_else(|| s.clone());
        copy.clone_from(s);
        let mut v = [0f32; MAX_PLAYERS];
        self.position(cfg, &mut copy, &mut v);
        self.scratch = Some(copy);
        margin(&v, me, s.players as usize)
    }

    /// Each player's expected points by the end in position `s` (rows past the number of
    /// players are zero). `s` is scored as if the game ended now; the caller undoes that.
    pub fn position(&mut self, cfg: &HeuristicConfig, s: &mut State, out: &mut [f32; MAX_PLAYERS]) {
        out.fill(0.0);
        let n = s.players as usize;
        self.count_bag(s);
        let left = s.bag.len() as f32;
        // The draws that may fill a position: the holder's own share plus `help` of the rest.
        let own = left / n as f32;
        let draws = cfg.reach * own + cfg.help * (left - own);
        self.fill_table(s.bag.len(), draws);
        // A figure in supply is worth `meeple` while turns are left to use it (about 6 own
        // turns needed to place and get it back).
        let stage = (own / 6.0).min(1.0);
        let figure = cfg.meeple * stage;
        self.find_odds(s);
        let mut open_held = [0u32; MAX_PLAYERS];
        for g in 0..s.segs.len() as u16 {
            let seg = s.segs[g as usize];
            match seg.kind {
                SegmentKind::Monastery | SegmentKind::Garden => {
                    if seg.figure == NO_FIGURE {
                        continue;
                    }
                    let (_, owner) = unpack_figure(seg.figure);
                    let pl = s.board.placed[seg.placed as usize];
                    if s.board.neighbours8(pl.x, pl.y) == 8 {
                        continue; // scored already
                    }
                    let (filled, all) = self.cloister_odds(s, pl.x, pl.y);
                    let o = owner as usize;
                    out[o] += cfg.complete * (filled + all * figure);
                    open_held[o] += 1;
                }
                SegmentKind::Road | SegmentKind::City => {
                    if seg.parent != g || seg.nfig == 0 || seg.open == 0 {
                        continue;
                    }
                    let st = s.strengths(g);
                    for (p, held) in open_held.iter_mut().enumerate().take(n) {
                        *held += (st[p] > 0) as u32;
                    }
                    let holders = majority(&st);
                    let odds = self.odds_of(g);
                    let now = s.feature_value(g, false) as f32;
                    let done = s.feature_value(g, true) as f32;
                    let per_tile = if seg.kind == SegmentKind::City {
                        1.0 + odds.complete
                    } else {
                        1.0
                    };
                    let gain =
                        cfg.complete * (odds.complete * (done - now) + odds.filled * per_tile);
                    for (p, o) in out.iter_mut().enumerate().take(n) {
                        if st[p] > 0 {
                            // Figures come back when it completes, whoever holds it.
                            *o += cfg.complete * odds.complete * figure * st[p] as f32;
                        }
                        if holders & (1 << p) != 0 {
                            *o += gain;
                        }
                    }
                }
                SegmentKind::Field => {
                    if seg.parent != g || seg.nfig == 0 {
                        continue;
                    }
                    let holders = majority(&s.strengths(g));
                    let likely = cfg.field * 3.0 * self.unfinished_cities(s, g);
                    for (p, o) in out.iter_mut().enumerate().take(n) {
                        if holders & (1 << p) != 0 {
                            *o += likely;
                        }
                    }
                }
                _ => {}
            }
        }
        for j in 0..self.joins.len() {
            let Join { a, b, chance } = self.joins[j];
            let (sa, sb) = (s.strengths(a), s.strengths(b));
            let (va, vb) = (
                s.feature_value(a, false) as f32,
                s.feature_value(b, false) as f32,
            );
            let mut both = [0u8; MAX_PLAYERS];
            for p in 0..n {
                both[p] = sa[p] + sb[p];
            }
            let (ha, hb, hj) = (majority(&sa), majority(&sb), majority(&both));
            for (p, o) in out.iter_mut().enumerate().take(n) {
                let bit = 1 << p;
                let before =
                    if ha & bit != 0 { va } else { 0.0 } + if hb & bit != 0 { vb } else { 0.0 };
                let joined = if hj & bit != 0 { va + vb + 1.0 } else { 0.0 };
                *o += cfg.join * chance * (joined - before);
            }
        }
        for (p, o) in out.iter_mut().enumerate().take(n) {
            let k = open_held[p] as f32;
            *o += figure * s.meeples[p] as f32 - cfg.open * k * (k - 1.0) / 2.0;
        }
        if s.phase != Phase::Over {
            s.final_scoring();
        }
        for (p, o) in out.iter_mut().enumerate().take(n) {
            *o += s.total(p) as f32;
        }
    }

    /// The distinct tiles left in the bag with their counts. The counts of fitting tiles kept
    /// per side signature are forgotten when these differ from the last position's.
    fn count_bag(&mut self, s: &State) {
        let kinds = s.cat.tiles.len();
        let cat = std::sync::Arc::as_ptr(&s.cat) as usize;
        let mut same = self.cat == cat && self.counts.len() == kinds && !self.fits.is_empty();
        if same {
            // Take the bag's tiles off the last counts: the same contents leave all at zero.
            for &(t, c) in &self.bag {
                self.counts[t as usize] = c;
            }
            for &t in &s.bag {
                let c = &mut self.counts[t as usize];
                if *c == 0 {
                    same = false;
                    break;
                }
                *c -= 1;
            }
            same = same && self.bag.iter().all(|&(t, _)| self.counts[t as usize] == 0);
            if same {
                return;
            }
        }
        self.cat = cat;
        self.counts.clear();
        self.counts.resize(kinds, 0);
        for &t in &s.bag {
            self.counts[t as usize] += 1;
        }
        self.bag.clear();
        for (t, c) in self.counts.iter_mut().enumerate() {
            if *c > 0 {
                self.bag.push((t as u16, *c));
                *c = 0;
            }
        }
        self.fits.clear();
        self.fits.resize(1 << 12, 0);
    }

    /// Makes `fill` the chances for `left` tiles left and `draws` draws that may fill a position.
    fn fill_table(&mut self, left: usize, draws: f32) {
        let key = (left, draws.to_bits());
        if self.fill_key != key || self.fill.len() != left + 1 {
            self.fill_key = key;
            self.fill.clear();
            self.fill.resize(left + 1, f32::NAN);
        }
    }

    /// The chance that a position which `f` of the tiles left fit is filled before the end:
    /// each of the draws that may fill it does with chance f / left (kept in a table: the same
    /// few counts come up for every candidate move).
    fn fill(&mut self, f: u16) -> f32 {
        let left = self.fill_key.0;
        if left == 0 || f == 0 {
            return 0.0;
        }
        let p = self.fill[f as usize];
        if !p.is_nan() {
            return p;
        }
        let draws = f32::from_bits(self.fill_key.1);
        let p = 1.0 - (1.0 - f as f32 / left as f32).powf(draws);
        self.fill[f as usize] = p;
        p
    }

    /// An open position's side signature: which sides have a neighbour (4 bits) and the edge
    /// each wants (8 bits); the tiles that fit it depend on nothing else.
    fn fit_key(o: &Open) -> usize {
        let sides = (o.mask & 1) | (o.mask >> 1 & 2) | (o.mask >> 2 & 4) | (o.mask >> 3 & 8);
        (sides as usize) << 8 | o.want as usize
    }

    /// How many tiles left in the bag fit open position `o` in some rotation.
    fn fitting(&mut self, s: &State, o: &Open) -> u16 {
        let key = Self::fit_key(o);
        if self.fits[key] > 0 {
            return self.fits[key] - 1;
        }
        let mut n = 0;
        for &(t, c) in &self.bag {
            let tt = s.cat.tile(t);
            let rots = 0x8080_8080u32 >> (8 * (4 - tt.n_rot as u32));
            if o.fits4(tt.rot_sigs32) & rots != 0 {
                n += c;
            }
        }
        self.fits[key] = n + 1;
        n
    }

    /// The odds of every open road and city next to the frontier, and the positions that
    /// could join two occupied ones.
    fn find_odds(&mut self, s: &State) {
        self.slot.clear();
        self.slot.resize(s.segs.len(), u16::MAX);
        self.odds.clear();
        self.joins.clear();
        for o in &s.board.frontier {
            let mut roots = [NO_NEIGHBOUR; 4];
            let mut k = 0;
            for &e in &o.edge_seg {
                if e == NO_NEIGHBOUR {
                    continue;
                }
                let r = s.find(e);
                let seg = &s.segs[r as usize];
                if seg.open == 0
                    || !matches!(seg.kind, SegmentKind::Road | SegmentKind::City)
                    || roots[..k].contains(&r)
                {
                    continue;
                }
                roots[k] = r;
                k += 1;
            }
            if k == 0 {
                continue;
            }
            let f = self.fitting(s, o);
            let p = self.fill(f);
            for &r in &roots[..k] {
                let i = match self.slot[r as usize] {
                    u16::MAX => {
                        self.slot[r as usize] = self.odds.len() as u16;
                        self.odds.push(Odds {
                            gaps: 0,
                            complete: 1.0,
                            filled: 0.0,
                        });
                        self.odds.len() - 1
                    }
                    i => i as usize,
                };
                let odds = &mut self.odds[i];
                odds.gaps += 1;
                odds.complete *= p;
                odds.filled += p;
            }
            for a in 0..k {
                for b in a + 1..k {
                    let (ra, rb) = (roots[a], roots[b]);
                    let (sa, sb) = (&s.segs[ra as usize], &s.segs[rb as usize]);
                    if sa.kind == sb.kind && sa.nfig > 0 && sb.nfig > 0 && sa.owners != sb.owners {
                        self.joins.push(Join {
                            a: ra,
                            b: rb,
                            chance: p,
                        });
                    }
                }
            }
        }
    }

    fn odds_of(&self, root: u16) -> Odds {
        match self.slot.get(root as usize) {
            Some(&i) if i != u16::MAX => self.odds[i as usize],
            // An open feature with no open position next to it cannot be completed.
            _ => Odds::default(),
        }
    }

    /// (expected empty neighbours filled, chance all are) of the cloister at (x, y). A
    /// neighbour not yet next to any tile may take any tile later: its chance is taken at half
    /// the bag fitting.
    fn cloister_odds(&mut self, s: &State, x: i16, y: i16) -> (f32, f32) {
        let (mut filled, mut all) = (0.0, 1.0);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (nx, ny) = (x + dx, y + dy);
                if s.board.occupied(nx, ny) {
                    continue;
                }
                let f = match s.board.open_at(nx, ny) {
                    Some(o) => self.fitting(s, o),
                    None => (s.bag.len() / 2) as u16,
                };
                let p = self.fill(f);
                filled += p;
                all *= p;
            }
        }
        (filled, all)
    }

    /// The summed completion chances of the unfinished cities the field with root `root`
    /// borders, each once.
    fn unfinished_cities(&self, s: &State, root: u16) -> f32 {
        let mut seen = [0u16; 64];
        let mut k = 0usize;
        let mut sum = 0.0;
        s.each_city_of_field(root, |croot| {
            if s.segs[croot as usize].open != 0 && !seen[..k].contains(&croot) && k < seen.len() {
                seen[k] = croot;
                k += 1;
                sum += self.odds_of(croot).complete;
            }
        });
        sum
    }
}

/// Player `me`'s expected points minus the best of the other `n - 1` players'.
fn margin(v: &[f32; MAX_PLAYERS], me: usize, n: usize) -> f32 {
    let rival = (0..n)
        .filter(|&p| p != me)
        .map(|p| v[p])
        .fold(f32::MIN, f32::max);
    v[me] - if n > 1 { rival } else { 0.0 }
}

impl Ranking for Heuristic {
    type Config = HeuristicConfig;

    fn move_values(
        &mut self,
        cfg: &HeuristicConfig,
        s: &State,
        moves: &[Move],
        out: &mut Vec<f32>,
    ) {
        self.evaluate(cfg, s, moves, out);
    }

    fn position_value(&mut self, cfg: &HeuristicConfig, s: &State, me: usize) -> f32 {
        self.value(cfg, s, me)
    }
}
