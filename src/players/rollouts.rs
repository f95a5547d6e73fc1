//! Rollouts of a one-ply player's best moves (`heuristic:rollouts=N`): each of the `top` moves
//! by one ply is played on a copy, then the game goes on for `horizon` decisions, every player
//! taking its best move by the player's own one-ply ranking, and the position reached is
//! valued by that ranking (the final score when the game ends first). A move's value is the
//! mean over `N` such continuations.
//!
//! The candidates share their continuations (common random numbers): continuation k draws
//! its tiles with the same seed after every candidate, so that the luck of the draw falls on
//! all alike and the comparison sees the moves' differences. Its first draw is stratified
//! (continuation k of N draws the tile at k/N of the bag's sorted contents), the later ones
//! at random. Tiles are drawn from the bag's contents, sorted first: the bag's hidden order
//! is never read.
//!
//! Against a one-ply opponent with the same ranking (the heuristic anchor), the
//! continuations model its replies exactly; where they model the player itself, they are a
//! lower bound of its own later play.

use crate::engine::moves::Move;
use crate::engine::rng::{splitmix64, Rng};
use crate::engine::state::{Phase, State};
use crate::players::lookahead::{best_by_one_ply, first_best, Ranking};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Reusable memory of the rollouts (no allocation per continuation once warm).
pub struct Rollouts<R: Ranking> {
    /// The position with its bag's groups sorted (their order unknown to the player).
    root: Option<State>,
    /// The continuation being played.
    game: Option<State>,
    moves: Vec<Move>,
    values: Vec<f32>,
    sums: Vec<f64>,
    /// The candidates of `rank` and their means.
    order: Vec<u32>,
    means: Vec<f32>,
    /// Values moves and positions, and chooses the continuations' moves.
    ranking: R,
    /// When set, the rollouts give up (Ctrl-C): values are then unfinished, the caller stops.
    pub stop: Option<Arc<AtomicBool>>,
}

impl<R: Ranking> Default for Rollouts<R> {
    fn default() -> Self {
        Rollouts {
            root: None,
            game: None,
            moves: Vec::new(),
            values: Vec::new(),
            sums: Vec::new(),
            order: Vec::new(),
            means: Vec::new(),
            ranking: R::default(),
            stop: None,
        }
    }
}

impl<R: Ranking> Rollouts<R> {
    /// Whether the rollouts were told to give up.
    pub fn stopped(&self) -> bool {
        crate::players::is_set(&self.stop)
    }

    /// The `top` best of `moves` by their one-ply `values` valued again by their mean over `n`
    /// continuations of `horizon` decisions: `ranks` gets their values to a thousandth of a
    /// point, every other move `i32::MIN`. Stopped (Ctrl-C), `ranks` stays as it was.
    #[allow(clippy::too_many_arguments)]
    pub fn rank(
        &mut self,
        cfg: &R::Config,
        state: &State,
        moves: &[Move],
        values: &[f32],
        (top, n, horizon): (u16, u32, u16),
        seed: u64,
        ranks: &mut [i32],
    ) {
        let mut order = std::mem::take(&mut self.order);
        let mut means = std::mem::take(&mut self.means);
        best_by_one_ply(values, top, &mut order);
        if order.len() > 1 {
            self.values(cfg, state, moves, &order, n, horizon, seed, &mut means);
            if !self.stopped() {
                ranks.fill(i32::MIN);
                for (&i, &v) in order.iter().zip(&means) {
                    ranks[i as usize] = (v * 1000.0).round() as i32;
                }
            }
        }
        self.order = order;
        self.means = means;
    }

    /// The mean value for the player to move in `state` of each of the moves `candidates`
    /// (indices into `moves`, the legal moves of `state`) over `n` continuations of `horizon`
    /// decisions, into `out` (same order). `seed` picks the continuations' draws.
    #[allow(clippy::too_many_arguments)]
    pub fn values(
        &mut self,
        cfg: &R::Config,
        state: &State,
        moves: &[Move],
        candidates: &[u32],
        n: u32,
        horizon: u16,
        seed: u64,
        out: &mut Vec<f32>,
    ) {
        let me = state.to_move() as usize;
        let mut root = self.root.take().unwrap_or_else(|| state.clone());
        root.clone_from(state);
        root.sort_bag();
        root.draw_at_random = true;
        let mut game = self.game.take().unwrap_or_else(|| root.clone());
        self.sums.clear();
        self.sums.resize(candidates.len(), 0.0);
        let mut stream = seed;
        'samples: for k in 0..n as usize {
            let draws = splitmix64(&mut stream);
            for (c, &i) in candidates.iter().enumerate() {
                if self.stopped() {
                    break 'samples;
                }
                game.clone_from(&root);
                game.rng = Rng::new(draws);
                game.play_unchecked(&moves[i as usize]);
                // The first draw stratified: continuation k of n draws the copy at k/n of the
                // bag's sorted contents, so that every tile is drawn first about as often as
                // the bag holds it.
                if game.phase == Phase::Draw && !game.drawable().is_empty() {
                    let d = game.drawable();
                    let t = d[k * d.len() / n as usize];
                    let _ = game.draw(t);
                }
                self.sums[c] += self.continue_game(cfg, &mut game, me, horizon) as f64;
            }
        }
        out.clear();
        out.extend(self.sums.iter().map(|&s| (s / n.max(1) as f64) as f32));
        self.root = Some(root);
        self.game = Some(game);
    }

    /// Play `game` on for `horizon` decisions, each the best by the ranking (the first of
    /// equals), and value what it reaches for `me`.
    fn continue_game(&mut self, cfg: &R::Config, game: &mut State, me: usize, horizon: u16) -> f32 {
        for _ in 0..horizon {
            if game.phase.is_chance() {
                game.chance_random(&mut |_| {}, &mut |_| {});
            }
            if game.phase == Phase::Over {
                break;
            }
            game.legal_moves(&mut self.moves);
            self.ranking
                .move_values(cfg, game, &self.moves, &mut self.values);
            game.play_unchecked(&self.moves[first_best(&self.values)]);
        }
        self.ranking.position_value(cfg, game, me)
    }
}
