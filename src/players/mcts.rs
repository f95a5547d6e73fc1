//! The search player: information-set Monte Carlo tree search (single observer).
//!
//! What a player does not know is the order of the bag and of the face-down animal tokens; it
//! knows their contents. The engine draws both with the state's own generator, so each
//! iteration *determinizes* by copying the root state and reseeding that generator from the
//! search's own stream: every iteration sees a different future consistent with what the
//! player knows, and the real future (the game's generator, or a bag set in a fixed order) is
//! never read.
//!
//! Each iteration: copy and reseed, then walk down the tree. Every decision the engine models
//! is a node (placements with their action, farmer choices, `choose TILE`, tollhouses,
//! acrobats, pyramids); chance steps (draws, reveals) are sampled in between. A child is keyed
//! by the tile placed and the move, so one node gathers the statistics of a move over every
//! determinization in which it was legal; selection is UCB1 over the children legal in this
//! determinization, with their *availability* counts in place of the parent's visits
//! (SO-ISMCTS). Progressive widening: a node with `n` visits may have
//! `ceil(widen * sqrt(n + 1))` children; at the root new children come in the greedy
//! evaluation's order (`greedy.rs`), deeper at random. One child is added per iteration, then a
//! uniformly random rollout plays on to the end of the game, or for `depth` turns and the
//! projected final scores (final scoring applied to the rollout's copy) stand in for the end.
//!
//! Reward of player p, in [0, 1]: `(1 - margin) * outcome + margin * (1 + tanh(d / 20)) / 2`,
//! where outcome is 1 for a sole win, 1/k shared among k winners, 0 for a loss, and d is p's
//! score minus the best opponent's. The margin term keeps the signal alive in games that are
//! already decided. The move played is the root child with the most visits.
//!
//! Buffers (tree nodes, copies, move lists) are kept between searches: after the first
//! searches warm them up, an iteration allocates nothing in the base game.

use crate::engine::moves::{Action, Move};
use crate::engine::rng::{splitmix64, Rng};
use crate::engine::rules::MAX_PLAYERS;
use crate::engine::state::{Phase, State, NONE16};
use crate::players::evaluation::{Weights, BUILTIN};
use crate::players::expert::{Expert, ExpertConfig};
use crate::players::greedy::Greedy;
use crate::players::heuristic::DEFAULT_HORIZON;
use crate::players::lookahead::DEFAULT_TOP;
use crate::players::params::{self, Given};
use std::sync::Arc;

/// Parameters of the search player, written in a policy text as
/// `mcts:playouts=2000:c=0.7:widen=2:depth=0:margin=0.5` (any subset, any order).
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per decision.
    pub playouts: u32,
    /// UCB exploration constant.
    pub c: f32,
    /// Progressive widening factor (children allowed: ceil(widen * sqrt(visits + 1))).
    pub widen: f32,
    /// Rollout cut-off in turns (0: play to the end).
    pub depth: u16,
    /// Weight of the score-margin term in the reward (0: win/draw/loss only).
    pub margin: f32,
    /// The learned evaluation values a rollout cut off at `depth` (and orders the root's
    /// children); `None`: final scoring of the rollout's position stands in for the end.
    pub learned: Option<Arc<Weights>>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig::from_table(&Given::defaults(&params::MCTS))
    }
}

impl MctsConfig {
    /// The numeric parameters as given (the table's defaults where not), no evaluation.
    fn from_table(given: &Given) -> MctsConfig {
        MctsConfig {
            playouts: given.whole("playouts"),
            c: given.number("c"),
            widen: given.number("widen"),
            depth: given.whole("depth") as u16,
            margin: given.number("margin"),
            learned: None,
        }
    }

    /// Parse the parameters after `mcts` (`""`, `":500"` or `":playouts=500:c=0.5"`), checked
    /// against the parameter table (`params.rs`): no empty parameter, each at most once, a bare
    /// count only first.
    pub fn parse(params: &str) -> Result<MctsConfig, String> {
        if params.is_empty() {
            return Ok(MctsConfig::default());
        }
        let given = params::parse("mcts", &params::MCTS, params, Some("playouts"))?;
        let mut cfg = MctsConfig::from_table(&given);
        let weights = match given.path("weights") {
            Some(path) => Some(crate::players::evaluation::load(path)?),
            None => None,
        };
        // A weights file is the learned evaluation's: it makes eval=learned, and cannot go
        // with eval=final (which would silently ignore it).
        let eval = given.given("eval").then(|| given.word("eval"));
        cfg.learned = match (eval, weights) {
            (Some("final"), Some(_)) => {
                return Err(
                    "mcts parameters weights=PATH and eval=final contradict each other: the \
                     weights are the learned evaluation's (eval=learned, or leave eval out)"
                        .into(),
                )
            }
            (_, Some(w)) => Some(w),
            (Some("learned"), None) => Some(BUILTIN.clone()),
            _ => None,
        };
        if cfg.learned.is_some() && !given.given("depth") {
            cfg.depth = LEARNED_DEPTH;
        }
        Ok(cfg)
    }

    /// Canonical text: `mcts:playouts=N`, then the parameters that differ from the defaults.
    pub fn text(&self) -> String {
        let d = MctsConfig::default();
        let mut s = format!("mcts:playouts={}", self.playouts);
        if self.c != d.c {
            s += &format!(":c={}", self.c);
        }
        if self.widen != d.widen {
            s += &format!(":widen={}", self.widen);
        }
        let default_depth = if self.learned.is_some() {
            LEARNED_DEPTH
        } else {
            d.depth
        };
        if self.depth != default_depth {
            s += &format!(":depth={}", self.depth);
        }
        if self.margin != d.margin {
            s += &format!(":margin={}", self.margin);
        }
        match &self.learned {
            Some(w) if w.source == "builtin" => s += ":eval=learned",
            Some(w) => s += &format!(":weights={}", crate::players::text::quote(&w.source)),
            None => {}
        }
        s
    }
}

/// The rollout depth of `eval=learned` when none is given: two random decisions and then
/// the evaluation (measured against deeper cut-offs in BENCHMARKS.md).
pub const LEARNED_DEPTH: u16 = 2;

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The tile placed by the move into this node (NONE16 for a farmer choice or a choice of
    /// tile) and the move: the key among siblings.
    tile: u16,
    mv: Move,
    /// Who made that move: the node's value is theirs.
    player: u8,
    visits: u32,
    /// Iterations in which this node's move was legal when its parent chose.
    avail: u32,
    /// Sum of rewards of `player`.
    value: f64,
    first_child: u32,
    next_sibling: u32,
    children: u32,
    /// Root children only: index of the move in the root's move list.
    root_index: u32,
}

/// Statistics of one root move after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootStat {
    /// Index into the moves given to `Search::run`.
    pub index: usize,
    pub visits: u32,
    /// Mean reward of the player to move, in [0, 1].
    pub mean: f64,
}

/// A search player's reusable memory.
#[derive(Default)]
pub struct Search {
    nodes: Vec<Node>,
    /// The searched state with its bag in canonical order (`State::sort_bag`).
    base: Option<State>,
    det: Option<State>,
    moves: Vec<Move>,
    values: Vec<i32>,
    order: Vec<u32>,
    path: Vec<u32>,
    avail: Vec<u32>,
    untried: Vec<u32>,
    greedy: Greedy,
    expert: Expert,
    scores: Vec<f32>,
    root_moves: usize,
    /// Root moves not yet children, in the order they are added.
    root_next: usize,
    /// Set by another thread to end a search early (Ctrl-C from Python).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Search {
    pub fn new() -> Search {
        Search::default()
    }

    /// Search `state` (a decision: Place, Farmer or Choose) whose legal moves are `moves`, and
    /// return the index of the move to play. Deterministic for `seed`.
    pub fn run(&mut self, state: &State, moves: &[Move], cfg: &MctsConfig, seed: u64) -> usize {
        assert!(
            !moves.is_empty(),
            "a search needs a decision with legal moves"
        );
        if moves.len() == 1 {
            self.nodes.clear();
            self.root_moves = 1;
            self.nodes.push(root_node());
            self.add_root_child(state, moves, 0);
            self.nodes[1].visits = 1;
            return 0;
        }
        self.nodes.clear();
        self.nodes.reserve(cfg.playouts as usize + 1);
        self.nodes.push(root_node());
        self.root_moves = moves.len();
        self.root_next = 0;
        // Root children are added in the greedy (or learned) evaluation's order, best first.
        if let Some(w) = &cfg.learned {
            let mut scores = std::mem::take(&mut self.scores);
            self.expert.evaluate(
                &ExpertConfig {
                    weights: w.clone(),
                    width: 0,
                    depth: 1,
                    top: DEFAULT_TOP,
                    rollouts: 0,
                    horizon: DEFAULT_HORIZON,
                    net_top: 0,
                },
                state,
                moves,
                &mut scores,
            );
            self.values.clear();
            self.values
                .extend(scores.iter().map(|v| (v * 1000.0).round() as i32));
            self.scores = scores;
        } else {
            self.greedy.evaluate(state, moves, &mut self.values);
        }
        self.order.clear();
        self.order.extend(0..moves.len() as u32);
        let values = &self.values;
        self.order
            .sort_by(|&a, &b| values[b as usize].cmp(&values[a as usize]).then(a.cmp(&b)));
        // The determinizations start from the bag's contents, never its hidden order: sorted
        // once here, each iteration then draws at random from it.
        let mut base = self.base.take().unwrap_or_else(|| state.clone());
        base.clone_from(state);
        base.sort_bag();
        let mut stream = seed;
        let mut rng = Rng::new(splitmix64(&mut stream));
        for i in 0..cfg.playouts {
            if i % 64 == 0 && crate::players::is_set(&self.stop) {
                break;
            }
            let det_seed = splitmix64(&mut stream);
            self.iterate(&base, moves, cfg, det_seed, &mut rng);
        }
        self.base = Some(base);
        self.best_root_child()
    }

    /// Visits and mean reward of every root move the search tried, best first.
    pub fn root_stats(&self, out: &mut Vec<RootStat>) {
        out.clear();
        let mut c = self.nodes.first().map_or(NONE, |n| n.first_child);
        while c != NONE {
            let n = &self.nodes[c as usize];
            out.push(RootStat {
                index: n.root_index as usize,
                visits: n.visits,
                mean: if n.visits > 0 {
                    n.value / n.visits as f64
                } else {
                    0.0
                },
            });
            c = n.next_sibling;
        }
        out.sort_by(|a, b| b.visits.cmp(&a.visits).then(a.index.cmp(&b.index)));
    }

    fn best_root_child(&self) -> usize {
        let mut best = (0u32, f64::MIN, 0usize);
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            let mean = n.value / n.visits.max(1) as f64;
            if (n.visits, mean) > (best.0, best.1) {
                best = (n.visits, mean, n.root_index as usize);
            }
            c = n.next_sibling;
        }
        best.2
    }

    fn add_root_child(&mut self, state: &State, moves: &[Move], index: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let root = &mut self.nodes[0];
        let next = root.first_child;
        root.first_child = id;
        root.children += 1;
        self.nodes.push(Node {
            tile: state.tile,
            mv: moves[index],
            player: state.to_move(),
            visits: 0,
            avail: 0,
            value: 0.0,
            first_child: NONE,
            next_sibling: next,
            children: 0,
            root_index: index as u32,
        });
        id
    }

    fn add_child(&mut self, parent: u32, tile: u16, mv: Move, player: u8) -> u32 {
        let id = self.nodes.len() as u32;
        let p = &mut self.nodes[parent as usize];
        let next = p.first_child;
        p.first_child = id;
        p.children += 1;
        self.nodes.push(Node {
            tile,
            mv,
            player,
            visits: 0,
            avail: 0,
            value: 0.0,
            first_child: NONE,
            next_sibling: next,
            children: 0,
            root_index: 0,
        });
        id
    }

    fn iterate(
        &mut self,
        root: &State,
        root_moves: &[Move],
        cfg: &MctsConfig,
        det_seed: u64,
        rng: &mut Rng,
    ) {
        let mut det = self.det.take().unwrap_or_else(|| root.clone());
        det.clone_from(root);
        det.rng = Rng::new(det_seed);
        // The bag's order is unknown to the player: draw at random.
        det.draw_at_random = true;
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let mut expanded = false;
        // Selection and expansion.
        loop {
            if det.phase.is_chance() {
                det.chance_random(&mut |_| {}, &mut |_| {});
            }
            if det.phase == Phase::Over || expanded {
                break;
            }
            let allowed =
                (cfg.widen * ((self.nodes[node as usize].visits + 1) as f32).sqrt()).ceil() as u32;
            let next = if node == 0 {
                // Root: the moves are those given; children in greedy order.
                let room = self.nodes[0].children < allowed.max(1);
                if room && self.root_next < self.root_moves {
                    let index = self.order[self.root_next] as usize;
                    self.root_next += 1;
                    expanded = true;
                    let c = self.add_root_child(root, root_moves, index);
                    self.nodes[c as usize].avail = self.nodes[0].visits;
                    c
                } else {
                    let mut c = self.nodes[0].first_child;
                    while c != NONE {
                        self.nodes[c as usize].avail += 1;
                        c = self.nodes[c as usize].next_sibling;
                    }
                    self.select(0, cfg.c, None)
                }
            } else {
                det.legal_moves(&mut self.moves);
                if self.moves.is_empty() {
                    break;
                }
                let tile = det.tile;
                let player = det.to_move();
                // Children legal in this determinization, and legal moves without a child.
                self.avail.clear();
                self.untried.clear();
                self.untried.extend(0..self.moves.len() as u32);
                let mut c = self.nodes[node as usize].first_child;
                while c != NONE {
                    let n = &self.nodes[c as usize];
                    if n.tile == tile {
                        if let Some(k) = self
                            .untried
                            .iter()
                            .position(|&i| self.moves[i as usize] == n.mv)
                        {
                            self.untried.swap_remove(k);
                            self.avail.push(c);
                        }
                    }
                    c = n.next_sibling;
                }
                if !self.untried.is_empty() && (self.avail.len() as u32) < allowed {
                    let k = self.untried[rng.below(self.untried.len())];
                    expanded = true;
                    let c = self.add_child(node, tile, self.moves[k as usize], player);
                    self.nodes[c as usize].avail = 1;
                    self.bump_avail();
                    c
                } else {
                    self.bump_avail();
                    self.select(node, cfg.c, Some(()))
                }
            };
            let mv = self.nodes[next as usize].mv;
            det.play_unchecked(&mv);
            self.path.push(next);
            node = next;
        }
        // Rollout.
        let mut turns = 0u16;
        while det.phase != Phase::Over {
            match det.phase {
                p if p.is_chance() => det.chance_random(&mut |_| {}, &mut |_| {}),
                _ => {
                    if cfg.depth > 0 && turns >= cfg.depth {
                        break;
                    }
                    det.legal_moves(&mut self.moves);
                    if self.moves.is_empty() {
                        break;
                    }
                    let k = rng.below(self.moves.len());
                    det.play_unchecked(&self.moves[k]);
                    turns += 1;
                }
            }
        }
        let rewards = match &cfg.learned {
            Some(w) if det.phase != Phase::Over => {
                // Cut off: the learned evaluation's predicted final scores.
                let mut pred = [0.0f32; MAX_PLAYERS];
                self.expert.evaluation(w, &det).predict(&det, &mut pred);
                rewards_of(&pred.map(|v| v as f64), det.players as usize, cfg.margin)
            }
            _ => {
                if det.phase != Phase::Over {
                    // Cut off: the projected final scores (final scoring on this copy).
                    det.final_scoring();
                }
                rewards(&det, cfg.margin)
            }
        };
        self.nodes[0].visits += 1;
        for &id in &self.path[1..] {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.value += rewards[n.player as usize];
        }
        self.det = Some(det);
    }

    /// Count one more availability for the children in `avail`.
    fn bump_avail(&mut self) {
        for &c in &self.avail {
            self.nodes[c as usize].avail += 1;
        }
    }

    /// UCB1 over the root's children (`only_avail` None) or over `self.avail`.
    fn select(&self, node: u32, c: f32, only_avail: Option<()>) -> u32 {
        let score = |id: u32| -> f64 {
            let n = &self.nodes[id as usize];
            if n.visits == 0 {
                return f64::INFINITY;
            }
            let v = n.visits as f64;
            n.value / v + c as f64 * ((n.avail.max(1) as f64).ln() / v).sqrt()
        };
        let mut best = (f64::MIN, NONE);
        match only_avail {
            None => {
                let mut ch = self.nodes[node as usize].first_child;
                while ch != NONE {
                    let s = score(ch);
                    if s > best.0 || best.1 == NONE {
                        best = (s, ch);
                    }
                    ch = self.nodes[ch as usize].next_sibling;
                }
            }
            Some(()) => {
                for &ch in &self.avail {
                    let s = score(ch);
                    if s > best.0 || best.1 == NONE {
                        best = (s, ch);
                    }
                }
            }
        }
        best.1
    }
}

fn root_node() -> Node {
    Node {
        tile: NONE16,
        mv: Move::Place {
            x: 0,
            y: 0,
            rot: 0,
            action: Action::Pass,
        },
        player: 0,
        visits: 0,
        avail: 0,
        value: 0.0,
        first_child: NONE,
        next_sibling: NONE,
        children: 0,
        root_index: 0,
    }
}

/// Reward of every player at the end of an iteration (see the module comment).
fn rewards(s: &State, margin: f32) -> [f64; MAX_PLAYERS] {
    let mut totals = [0.0f64; MAX_PLAYERS];
    for (p, t) in totals.iter_mut().enumerate().take(s.players as usize) {
        *t = s.total(p) as f64;
    }
    rewards_of(&totals, s.players as usize, margin)
}

/// Rewards from each player's final (or predicted final) score.
fn rewards_of(totals: &[f64; MAX_PLAYERS], n: usize, margin: f32) -> [f64; MAX_PLAYERS] {
    let best = totals[..n].iter().copied().fold(f64::MIN, f64::max);
    let winners = totals[..n].iter().filter(|&&t| t == best).count() as f64;
    let m = margin as f64;
    let mut out = [0.0; MAX_PLAYERS];
    for p in 0..n {
        let rival = (0..n)
            .filter(|&q| q != p)
            .map(|q| totals[q])
            .fold(f64::MIN, f64::max);
        let outcome = if totals[p] == best {
            1.0 / winners
        } else {
            0.0
        };
        let d = totals[p] - rival;
        out[p] = (1.0 - m) * outcome + m * 0.5 * (1.0 + (d / 20.0).tanh());
    }
    out
}
