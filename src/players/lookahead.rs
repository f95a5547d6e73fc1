//! The expert's look-ahead (`expert:depth=2`): an expectimax over the next draw.
//!
//! Each of the expert's best `top` moves (by its one-ply value) is played on a copy; the
//! position after it is valued as the average, over the distinct tiles that may be drawn next
//! weighted by how many copies of each the bag holds (its contents, never its order), of the
//! position after the next mover's best reply with that tile, by the learned evaluation. The
//! next mover is the opponent in a two-player game (the player whose reply can join, steal or
//! block what the move built: what one ply cannot see), or the mover again when an expansion
//! gives a second turn part. The reply is chosen as the expert chooses (its `width` best by
//! the greedy value, each valued by the evaluation); with more than two players it is the
//! reply best for its own player, and the value is the mover's after it.
//!
//! Pruning, two players (zero-sum margins), in the spirit of Ballard's Star2.5: before the
//! replies are searched, each tile is probed with one reply (its first legal placement without
//! a figure), whose value bounds that tile's best reply from above. Tiles are then searched
//! most frequent first, and a candidate is dropped as soon as its bound (exact values of the
//! tiles searched, probes of the rest) cannot beat the best candidate found so far.
//!
//! Positions where the move leaves no plain tile draw next (the game ends, or an expansion's
//! chance step or decision comes first) are valued by the evaluation as one ply does; so is a
//! tile that the draw discards or holds in hand (Fortune Teller).

use crate::engine::moves::{Action, Move};
use crate::engine::state::{Drawn, Phase, State};
use crate::players::expert::{Expert, ExpertConfig};

/// The default number of moves looked ahead from (the expert's best by one ply).
pub const DEFAULT_TOP: u16 = 8;

/// One tile that may be drawn next: how many copies the bag holds, and the mover's value of
/// the position after the next mover's best reply with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawValue {
    pub tile: u16,
    pub count: u16,
    pub value: f32,
}

/// Reusable memory of the look-ahead (no allocation per candidate once warm).
#[derive(Default)]
pub struct Lookahead {
    /// The position after the candidate move.
    after: Option<State>,
    /// The position after one tile is drawn there.
    drawn: Option<State>,
    /// The position after a reply (more than two players).
    replied: Option<State>,
    /// Chooses and values the replies.
    reply: Expert,
    moves: Vec<Move>,
    values: Vec<f32>,
    tiles: Vec<DrawValue>,
    probes: Vec<f32>,
}

impl Lookahead {
    pub fn new() -> Lookahead {
        Lookahead::default()
    }

    /// The value for player `me` of playing `m` in `state`: the expectimax above. Returns
    /// `None` when the bound shows it cannot exceed `alpha` (two players only).
    pub fn value(
        &mut self,
        cfg: &ExpertConfig,
        state: &State,
        m: &Move,
        me: usize,
        alpha: f32,
    ) -> Option<f32> {
        let mut after = self.after.take().unwrap_or_else(|| state.clone());
        after.clone_from(state);
        after.play_unchecked(m);
        let v = self.value_after(cfg, &after, me, alpha);
        self.after = Some(after);
        v
    }

    /// Each tile that may be drawn in `after` (a position waiting for a draw) with the value
    /// for `me` of the next mover's best reply with it, into `out` (most copies first, then by
    /// tile index). Empty when `after` waits for no plain draw. For reports that need what each
    /// draw is worth (for example, how lucky a player's draws were).
    pub fn draw_values(
        &mut self,
        cfg: &ExpertConfig,
        after: &State,
        me: usize,
        out: &mut Vec<DrawValue>,
    ) {
        out.clear();
        if !self.distinct_tiles(after) {
            return;
        }
        let mut tiles = std::mem::take(&mut self.tiles);
        for d in tiles.iter_mut() {
            let cap = if after.players == 2 {
                self.probe(cfg, after, d.tile, me)
            } else {
                f32::INFINITY
            };
            d.value = self.tile_value(cfg, after, d.tile, me, cap).0;
        }
        out.extend_from_slice(&tiles);
        self.tiles = tiles;
    }

    fn value_after(
        &mut self,
        cfg: &ExpertConfig,
        after: &State,
        me: usize,
        alpha: f32,
    ) -> Option<f32> {
        if !self.distinct_tiles(after) {
            return Some(self.reply.evaluation(&cfg.weights, after).value(after, me));
        }
        let total: f32 = self.tiles.iter().map(|d| d.count as f32).sum();
        let two = after.players == 2;
        let tiles = std::mem::take(&mut self.tiles);
        let mut probes = std::mem::take(&mut self.probes);
        probes.clear();
        // The bound: exact values of the tiles searched, probes of the others (a probe is no
        // bound where the mover replies itself: infinite, and nothing is cut until it is done).
        let (mut rest, mut unbounded) = (0.0f32, 0usize);
        for d in &tiles {
            let p = if two {
                self.probe(cfg, after, d.tile, me)
            } else {
                f32::INFINITY
            };
            probes.push(p);
            if p.is_finite() {
                rest += d.count as f32 * p;
            } else {
                unbounded += 1;
            }
        }
        let prune = two && alpha > f32::MIN;
        let mut sum = 0.0f32;
        let mut cut = false;
        for (k, d) in tiles.iter().enumerate() {
            let (v, _) = self.tile_value(cfg, after, d.tile, me, probes[k]);
            sum += d.count as f32 * v;
            if probes[k].is_finite() {
                rest -= d.count as f32 * probes[k];
            } else {
                unbounded -= 1;
            }
            if prune && unbounded == 0 && (sum + rest) / total <= alpha {
                cut = true;
                break;
            }
        }
        self.tiles = tiles;
        self.probes = probes;
        (!cut).then_some(sum / total)
    }

    /// The distinct tiles `after` may draw next, with their counts, into `self.tiles` (most
    /// copies first, then by tile index: the bag's order never matters). False when `after`
    /// waits for no plain draw.
    fn distinct_tiles(&mut self, after: &State) -> bool {
        self.tiles.clear();
        if after.phase != Phase::Draw {
            return false;
        }
        for &t in after.drawable() {
            match self.tiles.iter_mut().find(|d| d.tile == t) {
                Some(d) => d.count += 1,
                None => self.tiles.push(DrawValue {
                    tile: t,
                    count: 1,
                    value: 0.0,
                }),
            }
        }
        self.tiles
            .sort_unstable_by(|a, b| b.count.cmp(&a.count).then(a.tile.cmp(&b.tile)));
        !self.tiles.is_empty()
    }

    /// `after` with tile `t` drawn, in `self.drawn`; false when the draw leaves no placement
    /// waiting (discarded, held in hand, refused).
    fn draw(&mut self, after: &State, t: u16) -> bool {
        let drawn = match &mut self.drawn {
            Some(s) => {
                s.clone_from(after);
                s
            }
            None => self.drawn.insert(after.clone()),
        };
        matches!(drawn.draw(t), Ok(Drawn::Ready)) && drawn.phase == Phase::Place
    }

    /// An upper bound of tile `t`'s value for `me` when the next mover is the opponent (two
    /// players): the value after one legal reply, its first placement without a figure.
    fn probe(&mut self, cfg: &ExpertConfig, after: &State, t: u16, me: usize) -> f32 {
        if !self.draw(after, t) {
            let s = self.drawn.as_ref().expect("drawn above");
            return self.reply.evaluation(&cfg.weights, s).value(s, me);
        }
        let drawn = self.drawn.as_mut().expect("drawn above");
        if drawn.to_move() as usize == me {
            return f32::INFINITY;
        }
        drawn.legal_moves(&mut self.moves);
        let first = self
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
        drawn.play_unchecked(&self.moves[first]);
        let drawn = self.drawn.as_ref().expect("drawn above");
        self.reply.evaluation(&cfg.weights, drawn).value(drawn, me)
    }

    /// Tile `t`'s value for `me`: after the next mover's best reply (capped by `cap`, the
    /// value of a reply the search may not consider: the probe). The second value is the
    /// index of the reply among the tile's legal moves (`usize::MAX` if none was searched).
    fn tile_value(
        &mut self,
        cfg: &ExpertConfig,
        after: &State,
        t: u16,
        me: usize,
        cap: f32,
    ) -> (f32, usize) {
        if !self.draw(after, t) {
            let s = self.drawn.as_ref().expect("drawn above");
            return (
                self.reply.evaluation(&cfg.weights, s).value(s, me),
                usize::MAX,
            );
        }
        let drawn = self.drawn.take().expect("drawn above");
        drawn.legal_moves(&mut self.moves);
        let q = drawn.to_move() as usize;
        // One ply: `evaluate` reads only the width and the weights, never the depth.
        self.reply
            .evaluate(cfg, &drawn, &self.moves, &mut self.values);
        // The next mover's best reply by its own value (the first of equals: deterministic).
        let mut best = 0;
        for (i, &v) in self.values.iter().enumerate() {
            if v > self.values[best] {
                best = i;
            }
        }
        let v = if q == me {
            self.values[best]
        } else if drawn.players == 2 {
            // Zero-sum margins: the opponent's value is minus the mover's.
            (-self.values[best]).min(cap)
        } else {
            let mut replied = self.replied.take().unwrap_or_else(|| drawn.clone());
            replied.clone_from(&drawn);
            replied.play_unchecked(&self.moves[best]);
            let v = self
                .reply
                .evaluation(&cfg.weights, &replied)
                .value(&replied, me);
            self.replied = Some(replied);
            v
        };
        self.drawn = Some(drawn);
        (v, best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Rng;
    use crate::engine::rules::Rules;
    use crate::engine::tiles::Catalogue;

    /// Decision points of greedy games under `rules` (one in `every`).
    fn positions(rules: Rules, players: usize, seed: u64, every: usize) -> Vec<State> {
        let mut s = State::new(Catalogue::builtin(), rules, players, seed).unwrap();
        let mut greedy = crate::players::greedy::Greedy::new();
        let (mut moves, mut values, mut out) = (Vec::new(), Vec::new(), Vec::new());
        let mut rng = Rng::new(seed);
        let mut k = 0;
        while s.phase != Phase::Over {
            if s.phase.is_chance() {
                s.chance_random(&mut |_| {}, &mut |_| {});
                continue;
            }
            s.legal_moves(&mut moves);
            k += 1;
            if k % every == 0 {
                out.push(s.clone());
            }
            greedy.evaluate(&s, &moves, &mut values);
            let i = crate::players::greedy::best_index(&values, &mut rng);
            s.play_unchecked(&moves[i]);
        }
        out
    }

    fn choice(s: &State, cfg: &ExpertConfig) -> (usize, Vec<i32>) {
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let mut e = Expert::new();
        let i = e.choose(cfg, s, &moves, &mut Rng::new(5));
        let mut values = Vec::new();
        e.evaluate(cfg, s, &moves, &mut values);
        (i, values.iter().map(|v| (v * 1000.0) as i32).collect())
    }

    #[test]
    fn the_look_ahead_is_blind_to_the_bags_order_and_deterministic() {
        let cfg = ExpertConfig {
            depth: 2,
            top: 4,
            ..ExpertConfig::default()
        };
        for (rules, players) in [
            (Rules::base(), 2),
            (Rules::base(), 3),
            (Rules::every_option(), 2),
        ] {
            for s in positions(rules, players, 3, 7) {
                let mut other = s.clone();
                // Reverse each bag group: the same contents in another order.
                let mut start = 0;
                for &n in &other.groups.clone() {
                    other.bag[start..start + n as usize].reverse();
                    start += n as usize;
                }
                let a = choice(&s, &cfg);
                assert_eq!(a, choice(&other, &cfg));
                assert_eq!(a, choice(&s, &cfg), "the same choice again");
            }
        }
    }

    #[test]
    fn draw_values_weigh_every_tile_the_bag_holds() {
        let cfg = ExpertConfig::default();
        let mut look = Lookahead::new();
        let mut out = Vec::new();
        for s in positions(Rules::base(), 2, 4, 9) {
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            let mut after = s.clone();
            after.play_unchecked(&moves[0]);
            look.draw_values(&cfg, &after, s.to_move() as usize, &mut out);
            if after.phase != Phase::Draw {
                assert!(out.is_empty());
                continue;
            }
            let copies: usize = out.iter().map(|d| d.count as usize).sum();
            assert_eq!(copies, after.drawable().len());
            // Their weighted mean is the look-ahead's value of the move (nothing cut).
            let mean = out.iter().map(|d| d.count as f32 * d.value).sum::<f32>() / copies as f32;
            let v = look
                .value(&cfg, &s, &moves[0], s.to_move() as usize, f32::MIN)
                .unwrap();
            assert!((mean - v).abs() < 1e-3, "{mean} {v}");
        }
    }
}
