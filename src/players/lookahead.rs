//! The look-ahead of the one-ply players (`expert:depth=2`, `heuristic:depth=2|3`): an
//! expectimax over the next draws.
//!
//! Each of the player's best `top` moves (by its one-ply value) is played on a copy; the
//! position after it is valued as the average, over the distinct tiles that may be drawn next
//! weighted by how many copies of each the bag holds (its contents, never its order), of the
//! position after the next mover's best reply with that tile, by the player's own one-ply
//! ranking. The next mover is the opponent in a two-player game (the player whose reply can
//! join, steal or block what the move built: what one ply cannot see), or the mover again
//! when an expansion gives a second turn part. The reply is the one the player would choose
//! itself (its best by one ply); with more than two players it is the reply best for its own
//! player, and the value is the mover's after it. With more draws to look at (`depth=3`),
//! the position after that reply is valued the same way again: the next draw and the best
//! reply to it (in a two-player game, the mover's own next move).
//!
//! Pruning, two players (zero-sum margins), in the spirit of Ballard's Star2.5: at the last
//! draw looked at, before the replies are searched, each tile is probed with one reply (its
//! first legal placement without a figure), whose value bounds that tile's best reply from
//! above. Tiles are then searched most frequent first, and a candidate is dropped as soon as
//! its bound (exact values of the tiles searched, probes of the rest) cannot beat the best
//! candidate found so far.
//!
//! Positions where the move leaves no plain tile draw next (the game ends, or an expansion's
//! chance step or decision comes first) are valued by the ranking as one ply does; so is a
//! tile that the draw discards or holds in hand (Fortune Teller).

use crate::engine::moves::{Action, Move};
use crate::engine::state::{Drawn, Phase, State};
use crate::players::expert::{Expert, ExpertConfig};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The default number of moves looked ahead from (the player's best by one ply).
pub const DEFAULT_TOP: u16 = 8;

/// What the look-ahead asks of a one-ply player: its values of moves and of positions.
pub trait Ranking: Default {
    type Config;
    /// The one-ply value of each of `moves` (legal moves of `s`) for the player to move, in
    /// points of margin, into `out`.
    fn move_values(&mut self, cfg: &Self::Config, s: &State, moves: &[Move], out: &mut Vec<f32>);
    /// The value of position `s` for player `me`, in points of margin.
    fn position_value(&mut self, cfg: &Self::Config, s: &State, me: usize) -> f32;
}

impl Ranking for Expert {
    type Config = ExpertConfig;

    fn move_values(&mut self, cfg: &ExpertConfig, s: &State, moves: &[Move], out: &mut Vec<f32>) {
        // One ply: `evaluate` values the moves, only `choose` looks ahead.
        self.evaluate(cfg, s, moves, out);
    }

    fn position_value(&mut self, cfg: &ExpertConfig, s: &State, me: usize) -> f32 {
        self.evaluation(&cfg.weights, s).value(s, me)
    }
}

/// One tile that may be drawn next: how many copies the bag holds, the mover's value of the
/// position after the next mover's best reply with it, and that reply (None where the tile
/// leaves nothing to place).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawValue {
    pub tile: u16,
    pub count: u16,
    pub value: f32,
    pub reply: Option<Move>,
}

/// The memory of one draw looked at.
#[derive(Default)]
struct Ply {
    /// The position after one tile is drawn.
    drawn: Option<State>,
    /// The position after the reply to it.
    replied: Option<State>,
    moves: Vec<Move>,
    values: Vec<f32>,
    tiles: Vec<DrawValue>,
    probes: Vec<f32>,
    /// The reply the last `tile_value` found (None: nothing to place).
    reply: Option<Move>,
}

/// The indices of the `top` best of `moves` by their one-ply `values` into `order`, best
/// first (the first of equals first); moves valued `f32::MIN` (not valued) are left out.
pub fn best_by_one_ply(values: &[f32], top: u16, order: &mut Vec<u32>) {
    order.clear();
    order.extend((0..values.len() as u32).filter(|&i| values[i as usize] > f32::MIN));
    order.sort_by(|&a, &b| {
        values[b as usize]
            .total_cmp(&values[a as usize])
            .then(a.cmp(&b))
    });
    order.truncate(top as usize);
}

/// The index of the first of the highest of `values` (0 when empty): the best move by one
/// ply, the same every time.
#[inline]
pub fn first_best(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

/// Reusable memory of the look-ahead (no allocation per decision once warm).
pub struct Lookahead<R: Ranking = Expert> {
    /// The moves looked ahead from, and the ranks the look-ahead gives.
    order: Vec<u32>,
    ranks: Vec<i32>,
    /// The position after the candidate move.
    after: Option<State>,
    /// Per draw looked at, its memory.
    plies: Vec<Ply>,
    /// Chooses and values the replies.
    reply: R,
    /// When set, the search gives up (Ctrl-C): values are then unfinished, the caller stops.
    pub stop: Option<Arc<AtomicBool>>,
    /// Per move valued since `forget` (uncut), the values of its next draw (`draws_of`): the
    /// first `n_valued` entries (the others keep their memory for the next decision).
    valued: Vec<(Move, Vec<DrawValue>)>,
    n_valued: usize,
}

impl<R: Ranking> Default for Lookahead<R> {
    fn default() -> Self {
        Lookahead {
            order: Vec::new(),
            ranks: Vec::new(),
            after: None,
            plies: Vec::new(),
            reply: R::default(),
            stop: None,
            valued: Vec::new(),
            n_valued: 0,
        }
    }
}

impl<R: Ranking> Lookahead<R> {
    pub fn new() -> Lookahead<R> {
        Lookahead::default()
    }

    /// Whether the search was told to give up.
    pub fn stopped(&self) -> bool {
        crate::players::is_set(&self.stop)
    }

    /// The look-ahead's root: the `top` best of `moves` (legal moves of `state`) by their
    /// one-ply `values` valued again, looking at the next `draws` draws, best first so that
    /// the bound cuts most. Their values to a thousandth of a point go to `ranks` (one per
    /// move), every other move's is `i32::MIN`, a move the bound cut is `i32::MIN + 1`.
    /// With fewer than two such moves, or when stopped (Ctrl-C), `ranks` is left as it was.
    #[allow(clippy::too_many_arguments)]
    pub fn rank(
        &mut self,
        cfg: &R::Config,
        state: &State,
        moves: &[Move],
        values: &[f32],
        top: u16,
        draws: u8,
        ranks: &mut Vec<i32>,
    ) {
        let me = state.to_move() as usize;
        let mut order = std::mem::take(&mut self.order);
        best_by_one_ply(values, top, &mut order);
        if order.len() > 1 {
            let mut mine = std::mem::take(&mut self.ranks);
            mine.clear();
            mine.resize(moves.len(), i32::MIN);
            let mut alpha = f32::MIN;
            let mut done = true;
            for &i in &order {
                let v = self.value_to(cfg, state, &moves[i as usize], me, alpha, draws);
                if self.stopped() {
                    done = false;
                    break;
                }
                mine[i as usize] = match v {
                    Some(v) => {
                        alpha = alpha.max(v);
                        (v * 1000.0).round() as i32
                    }
                    None => i32::MIN + 1,
                };
            }
            if done {
                std::mem::swap(ranks, &mut mine);
            }
            self.ranks = mine;
        }
        self.order = order;
    }

    /// The value for player `me` of playing `m` in `state`: the expectimax above over the next
    /// draw. Returns `None` when the bound shows it cannot exceed `alpha` (two players only).
    pub fn value(
        &mut self,
        cfg: &R::Config,
        state: &State,
        m: &Move,
        me: usize,
        alpha: f32,
    ) -> Option<f32> {
        self.value_to(cfg, state, m, me, alpha, 1)
    }

    /// As [`Lookahead::value`], looking at the next `draws` draws (1 or more) and the best
    /// reply to each.
    pub fn value_to(
        &mut self,
        cfg: &R::Config,
        state: &State,
        m: &Move,
        me: usize,
        alpha: f32,
        draws: u8,
    ) -> Option<f32> {
        let mut after = self.after.take().unwrap_or_else(|| state.clone());
        after.clone_from(state);
        after.play_unchecked(m);
        let v = self.value_after(cfg, &after, me, alpha, 0, draws.max(1) as usize);
        self.after = Some(after);
        if v.is_some() && !self.plies[0].tiles.is_empty() {
            let n = self.n_valued;
            let kept = match self.valued[..n].iter().position(|(x, _)| x == m) {
                Some(k) => k,
                None => {
                    if n == self.valued.len() {
                        self.valued.push((*m, Vec::new()));
                    }
                    self.valued[n].0 = *m;
                    self.n_valued += 1;
                    n
                }
            };
            self.valued[kept].1.clone_from(&self.plies[0].tiles);
        }
        v
    }

    /// Forget the draw values of the moves valued so far (a new decision starts).
    pub fn forget(&mut self) {
        self.n_valued = 0;
    }

    /// The values of the next draw after move `m`, as its last `value_to` since `forget` found
    /// them (None: not valued, cut, or no plain draw next): each tile that may be drawn with
    /// its count and the mover's value of the position after the best reply with it, whose
    /// count-weighted mean is the move's value. The V of that draw's luck (`luck.rs`).
    pub fn draws_of(&self, m: &Move) -> Option<&[DrawValue]> {
        self.valued[..self.n_valued]
            .iter()
            .find(|(x, _)| x == m)
            .map(|(_, d)| d.as_slice())
    }

    /// Each tile that may be drawn in `after` (a position waiting for a draw) with the value
    /// for `me` of the next mover's best reply with it, into `out` (most copies first, then by
    /// tile index). Empty when `after` waits for no plain draw. For reports that need what each
    /// draw is worth (for example, how lucky a player's draws were).
    pub fn draw_values(
        &mut self,
        cfg: &R::Config,
        after: &State,
        me: usize,
        out: &mut Vec<DrawValue>,
    ) {
        out.clear();
        let mut ply = self.ply(0);
        if self.distinct_tiles(after, &mut ply.tiles) {
            for k in 0..ply.tiles.len() {
                let t = ply.tiles[k].tile;
                let cap = if after.players == 2 {
                    self.probe(cfg, after, t, me, &mut ply)
                } else {
                    f32::INFINITY
                };
                ply.tiles[k].value = self.tile_value(cfg, after, t, me, cap, 0, 1, &mut ply);
                ply.tiles[k].reply = ply.reply;
            }
            out.extend_from_slice(&ply.tiles);
        }
        self.plies[0] = ply;
    }

    /// The memory of draw `level` (taken out: put it back when done).
    fn ply(&mut self, level: usize) -> Ply {
        if self.plies.len() <= level {
            self.plies.resize_with(level + 1, Ply::default);
        }
        std::mem::take(&mut self.plies[level])
    }

    /// The value for `me` of `after`, looking at `draws` draws from draw `level` on.
    fn value_after(
        &mut self,
        cfg: &R::Config,
        after: &State,
        me: usize,
        alpha: f32,
        level: usize,
        draws: usize,
    ) -> Option<f32> {
        let mut ply = self.ply(level);
        let v = self.value_after_in(cfg, after, me, alpha, level, draws, &mut ply);
        self.plies[level] = ply;
        v
    }

    #[allow(clippy::too_many_arguments)]
    fn value_after_in(
        &mut self,
        cfg: &R::Config,
        after: &State,
        me: usize,
        alpha: f32,
        level: usize,
        draws: usize,
        ply: &mut Ply,
    ) -> Option<f32> {
        if !self.distinct_tiles(after, &mut ply.tiles) {
            return Some(self.reply.position_value(cfg, after, me));
        }
        let total: f32 = ply.tiles.iter().map(|d| d.count as f32).sum();
        // Probes bound a tile's value only where its reply is the last one looked at.
        let two = after.players == 2 && draws == 1;
        let mut tiles = std::mem::take(&mut ply.tiles);
        ply.probes.clear();
        // The bound: exact values of the tiles searched, probes of the others (a probe is no
        // bound where the mover replies itself: infinite, and nothing is cut until it is done).
        let (mut rest, mut unbounded) = (0.0f32, 0usize);
        for d in &tiles {
            let p = if two {
                self.probe(cfg, after, d.tile, me, ply)
            } else {
                f32::INFINITY
            };
            ply.probes.push(p);
            if p.is_finite() {
                rest += d.count as f32 * p;
            } else {
                unbounded += 1;
            }
        }
        let prune = two && alpha > f32::MIN;
        let mut sum = 0.0f32;
        let mut cut = false;
        for (k, d) in tiles.iter_mut().enumerate() {
            if self.stopped() {
                break; // the caller drops what is unfinished
            }
            let cap = ply.probes[k];
            let v = self.tile_value(cfg, after, d.tile, me, cap, level, draws, ply);
            d.value = v;
            d.reply = ply.reply;
            sum += d.count as f32 * v;
            if cap.is_finite() {
                rest -= d.count as f32 * cap;
            } else {
                unbounded -= 1;
            }
            if prune && unbounded == 0 && (sum + rest) / total <= alpha {
                cut = true;
                break;
            }
        }
        ply.tiles = tiles;
        (!cut).then_some(sum / total)
    }

    /// The distinct tiles `after` may draw next, with their counts, into `tiles` (most copies
    /// first, then by tile index: the bag's order never matters). False when `after` waits for
    /// no plain draw.
    fn distinct_tiles(&mut self, after: &State, tiles: &mut Vec<DrawValue>) -> bool {
        tiles.clear();
        if after.phase != Phase::Draw {
            return false;
        }
        for &t in after.drawable() {
            match tiles.iter_mut().find(|d| d.tile == t) {
                Some(d) => d.count += 1,
                None => tiles.push(DrawValue {
                    tile: t,
                    count: 1,
                    value: 0.0,
                    reply: None,
                }),
            }
        }
        tiles.sort_unstable_by(|a, b| b.count.cmp(&a.count).then(a.tile.cmp(&b.tile)));
        !tiles.is_empty()
    }

    /// `after` with tile `t` drawn, in `ply.drawn`; false when the draw leaves no placement
    /// waiting (discarded, held in hand, refused).
    fn draw(after: &State, t: u16, ply: &mut Ply) -> bool {
        let drawn = match &mut ply.drawn {
            Some(s) => {
                s.clone_from(after);
                s
            }
            None => ply.drawn.insert(after.clone()),
        };
        matches!(drawn.draw(t), Ok(Drawn::Ready)) && drawn.phase == Phase::Place
    }

    /// An upper bound of tile `t`'s value for `me` when the next mover is the opponent (two
    /// players): the value after one legal reply, its first placement without a figure.
    fn probe(&mut self, cfg: &R::Config, after: &State, t: u16, me: usize, ply: &mut Ply) -> f32 {
        if !Self::draw(after, t, ply) {
            let s = ply.drawn.as_ref().expect("drawn above");
            return self.reply.position_value(cfg, s, me);
        }
        let drawn = ply.drawn.as_mut().expect("drawn above");
        if drawn.to_move() as usize == me {
            return f32::INFINITY;
        }
        drawn.legal_moves(&mut ply.moves);
        let first = ply
            .moves
            .iter()
            .position(|m| {
                matches!(
                    m,
                    Move::Place {
                        action: Action::Pass,
                        ..
                    }
                )
            })
            .unwrap_or(0);
        drawn.play_unchecked(&ply.moves[first]);
        let drawn = ply.drawn.as_ref().expect("drawn above");
        self.reply.position_value(cfg, drawn, me)
    }

    /// Tile `t`'s value for `me`: after the next mover's best reply (capped by `cap`, the
    /// value of a reply the search may not consider: the probe), then, with more `draws` to
    /// look at, the draws after it.
    #[allow(clippy::too_many_arguments)]
    fn tile_value(
        &mut self,
        cfg: &R::Config,
        after: &State,
        t: u16,
        me: usize,
        cap: f32,
        level: usize,
        draws: usize,
        ply: &mut Ply,
    ) -> f32 {
        ply.reply = None;
        if !Self::draw(after, t, ply) {
            let s = ply.drawn.as_ref().expect("drawn above");
            return self.reply.position_value(cfg, s, me);
        }
        let drawn = ply.drawn.take().expect("drawn above");
        drawn.legal_moves(&mut ply.moves);
        let q = drawn.to_move() as usize;
        self.reply
            .move_values(cfg, &drawn, &ply.moves, &mut ply.values);
        // The next mover's best reply by its own value (the first of equals: deterministic).
        let best = first_best(&ply.values);
        ply.reply = ply.moves.get(best).copied();
        let v = if draws == 1 && q == me {
            ply.values[best]
        } else if draws == 1 && drawn.players == 2 {
            // Zero-sum margins: the opponent's value is minus the mover's.
            (-ply.values[best]).min(cap)
        } else {
            let mut replied = ply.replied.take().unwrap_or_else(|| drawn.clone());
            replied.clone_from(&drawn);
            replied.play_unchecked(&ply.moves[best]);
            let v = if draws == 1 {
                self.reply.position_value(cfg, &replied, me)
            } else {
                self.value_after(cfg, &replied, me, f32::MIN, level + 1, draws - 1)
                    .expect("nothing is cut without a bound")
            };
            ply.replied = Some(replied);
            v
        };
        ply.drawn = Some(drawn);
        v
    }
}
