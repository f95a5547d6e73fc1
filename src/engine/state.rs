//! The whole rule state of one game and its turn: draw (chance), place with one action, score.
//!
//! A turn is a small state machine: `Phase::Draw` waits for a tile (from the seeded bag or a
//! caller), `Phase::Place` waits for the current player's move, `Phase::Over` after final
//! scoring; expansions add their decisions and chance steps as phases. Expansions join through
//! the steps of `expansions::Expansion`: setting up, drawing, placing, scoring, ending a turn
//! and ending the game early name none of them (move generation is in `movegen`). Each
//! expansion's state is its own struct, one field of `expansions::Expansions` (declared by the
//! registry), read and written in its module.

use crate::engine::board::{Board, Placed, NO_NEIGHBOUR};
use crate::engine::chance::Chance;
use crate::engine::features::{pack_figure, union, Role, SegState, Segs, NO_FIGURE};
use crate::engine::moves::{Action, ChanceError, Illegal, Move};
use crate::engine::rng::{splitmix64, Rng};
use crate::engine::rules::{Rules, MAX_PLAYERS, MEEPLES_PER_PLAYER, MIN_PLAYERS};
use crate::engine::scoring::N_SOURCES;
use crate::engine::tiles::{Catalogue, SegmentKind};
use crate::expansions;
use crate::expansions::Expansions;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Chance: a tile must be drawn (`draw` or `draw_random`).
    Draw,
    /// The current player must place the drawn tile (`play`).
    Place,
    /// Traders & Builders C3.1: a pig's owner chooses whether its farmer returns (TB10).
    Farmer,
    /// Fortune Teller: the active player chooses which drawn tile to place (FT3).
    Choose,
    /// Under the Big Top: chance reveals the animal token under the big top (BT3, BT4).
    Reveal,
    /// Final scoring is done.
    Over,
}

impl Phase {
    /// Chance waits: a tile draw or an expansion's chance step (`chance_random`, or a caller's
    /// outcome). The one list of chance phases.
    #[inline]
    pub fn is_chance(self) -> bool {
        matches!(self, Phase::Draw | Phase::Reveal)
    }

    /// A player decides: the legal moves are the choices. The one list of decision phases.
    #[inline]
    pub fn is_decision(self) -> bool {
        matches!(self, Phase::Place | Phase::Farmer | Phase::Choose)
    }
}

/// The bag's groups are drawn from the highest down: land tiles are group 0, the last; an
/// expansion may draw its tiles first (`Expansion::bag_group`: the River's, R3).
pub const GROUP_LAND: usize = 0;
pub const BAG_GROUPS: usize = 3;

pub const NONE16: u16 = u16::MAX;

reusable_clone! {
    /// One game: the base game's state and each expansion's own (inert when its option is
    /// off), which only its module and the read-outs look into.
    #[derive(Debug)]
    pub struct State {
        pub cat: Arc<Catalogue>,
        pub rules: Rules,
        pub players: u8,
        pub board: Board,
        pub segs: Segs,
        /// Tiles still to draw, laid out as [land | lake | river]; `groups` holds each group's
        /// size. Each group is stored in reverse draw order: the next tile is its end (`deal`).
        pub bag: Vec<u16>,
        pub groups: [u16; BAG_GROUPS],
        /// Draw at random with `rng` instead of each group's end: a search's determinization,
        /// which must not follow the game's hidden order. Never set in a game.
        pub draw_at_random: bool,
        /// The deal's seed, which keys every tile copy (`deal`).
        pub seed: u64,
        pub phase: Phase,
        pub current: u8,
        /// The drawn tile waiting to be placed (valid in `Phase::Place`).
        pub tile: u16,
        pub meeples: [u8; MAX_PLAYERS],
        pub scores: [[u16; N_SOURCES]; MAX_PLAYERS],
        /// Turns played (tiles placed after the start tile).
        pub turns: u16,
        /// Tiles removed from the game because they fitted nowhere (B7).
        pub discarded: u16,
        pub rng: Rng,
        /// Each expansion's state, declared by the registry (`expansions::Expansions`); read
        /// from outside the crate through one accessor per expansion (`State::big_top()`...).
        pub(crate) expansions: Expansions,
    }
}

impl State {
    /// Start recording changes to the board and features, so that `undo_to` can return to
    /// this state by undoing only what a move changed (see `features::Segs`).
    pub(crate) fn record_changes(&mut self) {
        self.board.record();
        self.segs.record();
    }

    /// Return to `o`, the state this one equalled when `record_changes` was called (`o`
    /// unchanged since), and keep recording. The greedy player tries every placement this
    /// way on one copy: the board and features undo their logs, every other field is copied.
    pub(crate) fn undo_to(&mut self, o: &State) {
        self.board.undo_on_next_copy();
        self.segs.undo_on_next_copy();
        self.clone_from(o);
        debug_assert!(*self.segs == *o.segs);
    }

    /// `undo_to` after a `lay_tile` alone, which changes only the board and the features.
    pub(crate) fn undo_lay(&mut self, o: &State) {
        self.board.undo(&o.board);
        self.segs.undo();
        debug_assert!(*self.segs == *o.segs);
    }
}

/// What a draw did with the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// The tile waits to be placed.
    Ready,
    /// The tile fits nowhere and left the game (B7); draw again unless the game is over.
    Discarded,
    /// Fortune Teller: the tile joins the hand; draw the next one (FT3).
    Hand,
}

impl State {
    pub fn new(
        cat: Arc<Catalogue>,
        rules: Rules,
        players: usize,
        seed: u64,
    ) -> Result<State, String> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(format!(
                "players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}"
            ));
        }
        rules.validate()?;
        let base = cat
            .set("base")
            .ok_or("the catalogue has no `base` tile set")?;
        let start = base.start.ok_or("the base tile set names no start tile")?;
        let mut pool: Vec<u16> = Vec::new();
        for (i, t) in cat.tiles.iter().enumerate() {
            if rules.tile_in_play(t) {
                pool.extend(std::iter::repeat_n(i as u16, t.count as usize));
            }
        }
        // The start tile leaves the bag, unless an expansion lays another (the River's spring).
        let start_tile = match expansions::start_tile(&cat, rules, start, &mut pool)? {
            Some(t) => t,
            None => {
                if !pool.contains(&start) {
                    return Err(format!(
                        "the start tile {} needs at least one copy",
                        cat.tile(start).id
                    ));
                }
                remove_one(&mut pool, start);
                start
            }
        };
        let (bag, groups) = bag_groups(&cat, rules, &pool, Some(seed))?;
        let mut st = State {
            cat,
            rules,
            players: players as u8,
            board: Board::new(),
            segs: Segs::with_capacity(512),
            bag,
            groups,
            draw_at_random: false,
            seed,
            phase: Phase::Draw,
            current: 0,
            tile: NONE16,
            meeples: [MEEPLES_PER_PLAYER; MAX_PLAYERS],
            scores: [[0; N_SOURCES]; MAX_PLAYERS],
            turns: 0,
            discarded: 0,
            rng: Rng::new(seed),
            expansions: Expansions::default(),
        };
        for p in players..MAX_PLAYERS {
            st.meeples[p] = 0;
        }
        let pi = st.lay_tile(0, 0, start_tile, 0);
        expansions::tile_laid(&mut st, pi);
        expansions::set_up(&mut st);
        Ok(st)
    }

    pub fn bag_len(&self) -> usize {
        self.bag.len()
    }

    /// The bag group tiles are drawn from now (river first, then the lake, then land).
    fn active_group(&self) -> Option<(usize, usize)> {
        let mut start = self.bag.len();
        for g in (0..3).rev() {
            let n = self.groups[g] as usize;
            start -= n;
            if n > 0 {
                return Some((g, start));
            }
        }
        None
    }

    /// Tiles that may be drawn now (one entry per copy), in bag order.
    pub fn drawable(&self) -> &[u16] {
        match self.active_group() {
            Some((g, start)) => &self.bag[start..start + self.groups[g] as usize],
            None => &[],
        }
    }

    /// The next tile of the deal (the active group's end); in a determinization
    /// (`draw_at_random`), one chosen by `rng` among those that may be drawn now.
    pub fn random_tile(&mut self) -> Option<u16> {
        let (g, start) = self.active_group()?;
        let k = if self.draw_at_random {
            self.rng.below(self.groups[g] as usize)
        } else {
            self.groups[g] as usize - 1
        };
        Some(self.bag[start + k])
    }

    /// Replace the bag, before the first draw, by the given tile copies: drawn in that order
    /// when `ordered` (river tiles, then the lake, then land, R3), else dealt by the seed.
    /// Tiles must be in play under the rules; the spring is the start tile, never in the bag.
    pub fn set_bag(&mut self, tiles: &[u16], ordered: bool) -> Result<(), String> {
        if self.phase != Phase::Draw
            || self.board.placed.len() != 1
            || self.discarded != 0
            || expansions::tiles_waiting(self)
        {
            return Err("the bag can only be set before the first draw".into());
        }
        for &t in tiles {
            let Some(tt) = self.cat.tiles.get(t as usize) else {
                return Err(format!("tile index {t} is not in the catalogue"));
            };
            if !self.rules.tile_in_play(tt) {
                return Err(format!(
                    "tile {} (set {}) is not in play under these rules",
                    tt.id, tt.set
                ));
            }
        }
        let (bag, groups) = bag_groups(
            &self.cat,
            self.rules,
            tiles,
            (!ordered).then_some(self.seed),
        )?;
        self.bag = bag;
        self.groups = groups;
        // An empty bag ends the game at once, whoever draws (as a seeded draw would find).
        if self.bag.is_empty() {
            self.finish();
        }
        Ok(())
    }

    /// The game as it would stand if it ended now: a finished copy (final scoring done, B21,
    /// and every end-of-game rule); `self` is unchanged. Drawn tiles waiting are dropped and
    /// decisions owed are settled by the expansions (`cut_short`); chance steps before the end
    /// take their outcomes from `outcomes` in order (Under the Big Top: the animal tokens
    /// revealed, points per meeple), then from the copy's seeded generator.
    pub fn ended_now(&self, outcomes: &[u8]) -> Result<State, ChanceError> {
        let mut s = self.clone();
        if s.phase == Phase::Over {
            return Ok(s);
        }
        s.bag.clear();
        s.groups = [0; BAG_GROUPS];
        s.tile = NONE16;
        if !expansions::cut_short(&mut s) {
            s.phase = Phase::Draw;
            s.finish();
        }
        expansions::end_chance(&mut s, outcomes)?;
        Ok(s)
    }

    /// Draw tile `t` (chance step). A tile with no legal placement is discarded (B7, R5).
    pub fn draw(&mut self, t: u16) -> Result<Drawn, ChanceError> {
        if self.phase != Phase::Draw {
            return Err(ChanceError(match self.phase {
                Phase::Place => "a tile is already drawn and waiting to be placed".into(),
                Phase::Over => "the game is over".into(),
                _ => expansions::waiting(self)
                    .unwrap_or("another step of the turn waits")
                    .into(),
            }));
        }
        let Some((g, start)) = self.active_group() else {
            return Err(ChanceError("the bag is empty".into()));
        };
        let end = start + self.groups[g] as usize;
        let available = end - start;
        // From the end: the deal's next tile is the common case.
        let Some(k) = self.bag[start..end].iter().rposition(|&b| b == t) else {
            let name = self
                .cat
                .tiles
                .get(t as usize)
                .map_or("?", |tt| tt.id.as_str());
            return Err(ChanceError(if self.bag.contains(&t) {
                format!("tile {name} cannot be drawn yet: {}", first(g))
            } else {
                format!("tile {name} is not in the bag")
            }));
        };
        // Close the gap: a tile drawn out of turn (at a table) leaves the rest's order as dealt.
        self.bag.remove(start + k);
        self.groups[g] -= 1;
        if let Some(drawn) = expansions::tile_drawn(self, t, available) {
            return Ok(drawn);
        }
        if self.has_placement(t) {
            self.tile = t;
            self.phase = Phase::Place;
            Ok(Drawn::Ready)
        } else {
            self.discarded += 1;
            if self.bag.is_empty() {
                self.finish();
            }
            Ok(Drawn::Discarded)
        }
    }

    /// Draw from the seeded bag until a tile waits to be placed or the game ends. Returns the
    /// tiles drawn (discarded ones included) through `log`.
    pub fn draw_random(&mut self, mut log: impl FnMut(u16)) {
        self.chance_random(&mut log, &mut |_| {});
    }

    /// Resolve every pending chance step with the seeded generator: tile draws (logged by
    /// `tiles`) and the expansions' chance steps (logged by `outcomes`: Under the Big Top's
    /// animal-token reveals, the token's points).
    pub fn chance_random(&mut self, tiles: &mut impl FnMut(u16), outcomes: &mut impl FnMut(u8)) {
        // A loop, not recursion: every pass draws a tile or reveals a token, so it ends.
        while let Some(c) = self.chance_step_random() {
            match c {
                Chance::Tile(t) => tiles(t),
                Chance::Reveal(v) => outcomes(v),
            }
        }
    }

    /// Resolve one pending chance step with the seeded generator (a tile drawn, discarded
    /// or not, or an animal token revealed) and return its outcome; None when no chance step
    /// waits (or the bag was empty: the game is then over).
    pub fn chance_step_random(&mut self) -> Option<Chance> {
        if self.phase == Phase::Draw {
            let Some(t) = self.random_tile() else {
                self.finish();
                return None;
            };
            let _ = self.draw(t);
            return Some(Chance::Tile(t));
        }
        let mut got = None;
        if !expansions::chance_random(self, &mut |v| got = Some(v)) {
            return None;
        }
        got.map(Chance::Reveal)
    }

    /// Resolve the chance step waiting now with outcome `c` (one of `chance_outcomes`).
    pub fn apply_chance(&mut self, c: Chance) -> Result<(), ChanceError> {
        match c {
            Chance::Tile(t) => self.draw(t).map(|_| ()),
            Chance::Reveal(v) => self.reveal(v),
        }
    }

    /// Play a move: place the tile, take the action, score, pass the turn. An illegal move
    /// leaves the state unchanged; the error names the rule it breaks.
    pub fn play(&mut self, m: &Move) -> Result<(), Illegal> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Play a move known to be legal (from `legal_moves`).
    pub fn play_unchecked(&mut self, m: &Move) {
        let Move::Place { x, y, rot, action } = *m else {
            // A decision that places no tile belongs to an expansion (FT3, TB10).
            expansions::play_decision(self, m);
            return;
        };
        // Step 1: the tile.
        let t = self.tile;
        let pi = self.lay_tile(x, y, t, rot);
        self.play_on_laid_tile(pi, action);
    }

    /// The rest of a placement once its tile is laid at placed index `pi`: the expansions'
    /// step, the `action`, scoring and the end of the turn part.
    pub(crate) fn play_on_laid_tile(&mut self, pi: usize, action: Action) {
        expansions::tile_laid(self, pi);
        // Step 2: the action.
        match action {
            Action::Pass => {}
            Action::Meeple(l) => self.put_figure(pi, l, Role::Meeple, self.current),
            _ => {
                expansions::apply_action(self, pi, action);
            }
        }
        // Step 3: score what the tile completed (B19: each feature independently).
        self.turns += 1;
        self.tile = NONE16;
        self.score_completions(pi);
        // Unless the scoring raised a decision (a pig's owner's, TB10).
        if self.phase == Phase::Place {
            self.after_scoring();
        }
    }

    /// T5: once the turn's scoring (and any decisions it raised) is done, an expansion may
    /// hold the turn for a chance step; else the turn part ends.
    pub(crate) fn after_scoring(&mut self) {
        if !expansions::turn_scored(self) {
            self.end_turn();
        }
    }

    /// After the last decision of a turn part: another part for the same player (TB6), the
    /// next player, or the end of the game.
    pub(crate) fn end_turn(&mut self) {
        if expansions::another_part(self)
            && (expansions::tiles_waiting(self) || !self.bag.is_empty())
        {
            self.phase = Phase::Draw;
            expansions::part_starts(self);
            return;
        }
        expansions::end_of_turn(self);
        if self.bag.is_empty() {
            self.finish();
            return;
        }
        self.current = (self.current + 1) % self.players;
        self.phase = Phase::Draw;
    }

    /// The player who decides now: the active player, or a pig's owner choosing (TB10).
    pub fn to_move(&self) -> u8 {
        self.farmer_decider().map_or(self.current, |(p, _)| p)
    }

    pub(crate) fn put_figure(&mut self, pi: usize, local: u8, role: Role, owner: u8) {
        let g = self.seg_id(pi, local);
        self.segs[g as usize].figure = pack_figure(role, owner);
        let root = self.find(g);
        self.segs[root as usize].nfig += 1;
        self.segs[root as usize].owners |= 1 << owner;
        if role == Role::Meeple {
            self.meeples[owner as usize] -= 1;
        }
        expansions::figure_placed(self, pi, g, role, owner);
    }

    /// Put a tile on the board and merge its segments into features. Returns its index.
    pub(crate) fn lay_tile(&mut self, x: i16, y: i16, t: u16, r: u8) -> usize {
        self.lay(x, y, t, r, true)
    }

    /// `lay_tile` for a look-ahead that reads tiles and features only: the frontier is left
    /// as it was (stale around the tile until `undo_lay`), which saves most of the board's
    /// work. The turn must not be played on from here.
    pub(crate) fn lay_tile_lookahead(&mut self, x: i16, y: i16, t: u16, r: u8) -> usize {
        self.lay(x, y, t, r, false)
    }

    #[inline(always)]
    fn lay(&mut self, x: i16, y: i16, t: u16, r: u8, frontier: bool) -> usize {
        // Borrow the catalogue beside the board and features (disjoint fields) rather than
        // cloning its `Arc`: the atomic count was a tenth of this function's time.
        let cat: &Catalogue = &self.cat;
        let segs = &mut self.segs;
        let tt = cat.tile(t);
        let pi = self.board.placed.len();
        let base = segs.len() as u16;
        let placed = Placed {
            x,
            y,
            tile: t,
            rot: r,
            seg_base: base,
            cloister: tt.monastery != crate::engine::tiles::NO_SEG
                || tt.garden != crate::engine::tiles::NO_SEG,
        };
        // Segments first (unmatched ports counted open), then joins across the edges.
        for (i, seg) in tt.segments.iter().enumerate() {
            let g = base + i as u16;
            segs.push(SegState {
                parent: g,
                next: g,
                placed: pi as u16,
                open: 0,
                size: 1,
                local: i as u8,
                kind: seg.kind,
                figure: NO_FIGURE,
                arms: seg.arms as u16,
                nfig: 0,
                owners: 0,
            });
        }
        let nb = if frontier {
            self.board.place(placed, cat)
        } else {
            self.board.place_without_frontier(placed)
        };
        let ro = &tt.rot[r as usize];
        for (i, seg) in tt.segments.iter().enumerate() {
            if !seg.kind.joins() {
                continue;
            }
            let g = base + i as u16;
            let ports = ro.ports[i];
            if seg.kind.uses_halves() {
                let Some(o) = &nb else { continue };
                // Set bits only; a field often meets one neighbour field on both halves.
                let mut bits = ports;
                while bits != 0 {
                    let n = o.half_seg[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                    if n != NO_NEIGHBOUR && segs[n as usize].parent != segs[g as usize].parent {
                        union(segs, g, n);
                    }
                }
            } else {
                for e in 0..4u8 {
                    if ports & (1 << e) == 0 {
                        continue;
                    }
                    match nb
                        .map(|o| o.edge_seg[e as usize])
                        .filter(|&n| n != NO_NEIGHBOUR)
                    {
                        Some(n) => {
                            // The neighbour's edge was open; now it is matched.
                            let nr = segs[n as usize].parent;
                            segs[nr as usize].open -= 1;
                            union(segs, g, n);
                        }
                        None => {
                            let gr = segs[g as usize].parent;
                            segs[gr as usize].open += 1;
                        }
                    }
                }
            }
        }
        pi
    }

    /// Score every feature the tile at placed index `pi` completed (B12-B19, A3), with the
    /// expansions' steps around each (a toll before a road, goods after a city) and after all.
    fn score_completions(&mut self, pi: usize) {
        let p = self.board.placed[pi];
        let n = self.cat.tile(p.tile).segments.len();
        let mut done = [NONE16; crate::engine::tiles::MAX_SEGS];
        for i in 0..n {
            let g = p.seg_base + i as u16;
            let seg = self.segs[g as usize];
            if !matches!(seg.kind, SegmentKind::City | SegmentKind::Road) {
                continue;
            }
            let root = self.find(g);
            // A feature crossing this tile twice is scored once.
            if self.segs[root as usize].open != 0 || done.contains(&root) {
                continue;
            }
            done[i] = root;
            expansions::before_feature_scores(self, root);
            self.score_completed(root);
            expansions::after_feature_scored(self, root, seg.kind);
        }
        self.score_completed_cloisters(p.x, p.y);
        expansions::completions_scored(self, pi);
    }

    /// End of game: final scoring, then `Phase::Over` (B20, B21).
    pub(crate) fn finish(&mut self) {
        if self.phase == Phase::Over {
            return;
        }
        self.tile = NONE16;
        if expansions::game_ends(self) {
            return; // a chance step first (BT4: the circus scores once more)
        }
        self.final_scoring();
        self.phase = Phase::Over;
    }

    pub fn total(&self, p: usize) -> u32 {
        self.scores[p].iter().map(|&s| s as u32).sum()
    }

    /// Players with the highest total (B23: ties share the win).
    pub fn winners(&self) -> Vec<u8> {
        let mask = self.winner_mask();
        (0..self.players).filter(|&p| mask >> p & 1 == 1).collect()
    }

    /// [`State::winners`] as bits (bit p: player p), without allocating.
    pub fn winner_mask(&self) -> u8 {
        let best = (0..self.players as usize)
            .map(|p| self.total(p))
            .max()
            .unwrap_or(0);
        (0..self.players as usize)
            .filter(|&p| self.total(p) == best)
            .fold(0, |m, p| m | 1 << p)
    }
}

/// Which games a seed plays: 2 since bags are dealt by key (`deal_key`, issue 23); 1 drew
/// each tile with the generator. Records and results tables carry it.
pub const DEAL_VERSION: u32 = 2;

/// Most tile copies a bag may hold (as the catalogue's total).
pub const MAX_BAG: usize = 1000;

/// Why the tiles of bag group `g` come before others, for refusals.
fn first(g: usize) -> String {
    expansions::draw_first(g).map_or_else(|| format!("bag group {g} comes first"), String::from)
}

/// The deal's key of copy `copy` of the tile `id`: from the deal's seed and the tile's id (not
/// its catalogue index), so that rule sets sharing tiles deal those in the same relative order
/// and pair their games well (issue 23).
pub fn deal_key(seed: u64, id: &str, copy: u16) -> u64 {
    // FNV-1a of the id, then SplitMix64 over (seed, id, copy).
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    for b in id.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    let mut x = seed ^ h;
    let mut y = splitmix64(&mut x) ^ (copy as u64);
    splitmix64(&mut y)
}

/// Deal tile copies: each copy keyed by `deal_key` (copies of an id numbered in the order
/// given), sorted so that the smallest key is last, drawn first.
fn deal(cat: &Catalogue, seed: u64, tiles: &mut [u16]) {
    let mut copies = vec![0u16; cat.tiles.len()];
    let mut keyed: Vec<(u64, u16)> = tiles
        .iter()
        .map(|&t| {
            let c = &mut copies[t as usize];
            *c += 1;
            (deal_key(seed, &cat.tile(t).id, *c - 1), t)
        })
        .collect();
    keyed.sort_unstable_by(|a, b| b.cmp(a));
    for (slot, (_, t)) in tiles.iter_mut().zip(keyed) {
        *slot = t;
    }
}

/// Sort tile copies into the bag layout [group 0 | group 1 | ...] with each group's size,
/// checking what a game needs of them (`Expansion::check_bag`). `deal_seed`: a seed deals
/// the copies (`deal`); none, they are in draw order, highest group first. Each group is
/// stored last-drawn first.
fn bag_groups(
    cat: &Catalogue,
    rules: Rules,
    tiles: &[u16],
    deal_seed: Option<u64>,
) -> Result<(Vec<u16>, [u16; BAG_GROUPS]), String> {
    let ordered = deal_seed.is_none();
    if tiles.len() > MAX_BAG {
        return Err(format!(
            "{} tiles in the bag; at most {MAX_BAG} are supported",
            tiles.len()
        ));
    }
    expansions::check_bag(cat, rules, tiles)?;
    let mut parts: [Vec<u16>; BAG_GROUPS] = Default::default();
    let mut last = BAG_GROUPS - 1;
    for &t in tiles {
        let g = expansions::bag_group(rules, cat.tile(t)).unwrap_or(GROUP_LAND);
        if ordered && g > last {
            return Err(format!(
                "tile {} comes too late: {}",
                cat.tile(t).id,
                first(g)
            ));
        }
        last = g;
        parts[g].push(t);
    }
    let groups = parts.each_ref().map(|p| p.len() as u16);
    let mut bag = Vec::with_capacity(tiles.len());
    for mut p in parts {
        match deal_seed {
            Some(seed) => deal(cat, seed, &mut p),
            None => p.reverse(),
        }
        bag.extend(p);
    }
    Ok((bag, groups))
}

pub(crate) fn remove_one(v: &mut Vec<u16>, t: u16) {
    if let Some(i) = v.iter().position(|&x| x == t) {
        v.remove(i);
    }
}
