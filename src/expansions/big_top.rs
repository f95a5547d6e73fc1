//! Under the Big Top (BT1-BT11): the circus under the big top scores every meeple around it
//! when the next big-top tile arrives (and once more at the end), acrobat pyramids, and the
//! ringmaster's bonus. The animal token under the big top is a chance step (`Phase::Reveal`):
//! its value is drawn when it is revealed, which is the same as drawing it face down earlier.

use crate::engine::chance::Chance;
use crate::engine::features::{unpack_figure, Role, NO_FIGURE};
use crate::engine::geometry::AROUND;
use crate::engine::moves::{Action, ChanceError, Illegal, Move, Placement};
use crate::engine::rules::{Rules, MAX_PLAYERS};
use crate::engine::scoring::Source;
use crate::engine::state::{Phase, State, NONE16};
use crate::engine::tiles::{Catalogue, TileType, NO_SEG};
use crate::expansions::layout::{self, ActionSlots, Len, Observe, Part, Slot};

// Big-top spaces and acrobat spaces (numbered in placement order: their rank + 1, the k of
// the acrobat and pyramid slots) on the tiles, where the big top stands, the ringmaster and
// the acrobats on the board (a count per pyramid), ringmasters in supply, whether the big top
// stands, the animal tokens left.
const C_BIGTOP_SPACE: Slot = Slot::new("bigtop_space", 7);
const C_ACROBAT_SPACE: Slot = Slot::new("acrobat_space", 8);
const C_BIG_TOP: Slot = Slot::new("big_top", 15);
const R_RINGMASTER: Slot = Slot::new("ringmaster", 2);
const R_ACROBATS: Slot = Slot::new("acrobats", 5);
const S_RINGMASTERS: Slot = Slot::new("ringmasters", 2);
const M_BIG_TOP_PLACED: Slot = Slot::new("big_top_placed", 3);
const V_ANIMALS: Part = Part::new("animals", 7, Len::Fixed(ANIMALS.len()));

/// Animal tokens: (points per meeple, tokens) — elephant, tigers, bears, seals, monkeys, flea.
pub const ANIMALS: [(u8, u8); 6] = [(7, 1), (6, 2), (5, 3), (4, 5), (3, 4), (1, 1)];
pub const ANIMAL_NAMES: [&str; 6] = ["elephant", "tiger", "bear", "seal", "monkey", "flea"];

/// A pyramid of acrobats on the acrobat space of a tile: two side by side, one on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pyramid {
    pub placed: u16,
    pub owners: [u8; 3],
    pub n: u8,
}

reusable_clone! {
    /// Under the Big Top's state (inert when the option is off).
    #[derive(Debug, PartialEq, Eq)]
    pub struct BigTop {
        /// Placed index of the tile under the big top, or NONE16 before the first big-top tile.
        pub at: u16,
        /// Face-down tokens left, per animal.
        pub stack: [u8; 6],
        /// Tokens revealed so far, per animal.
        pub revealed: [u8; 6],
        /// The big-top tile waiting to receive the big top after the reveal, or NONE16 when
        /// the reveal is the final one (BT4).
        pub next: u16,
        /// Ringmasters in supply.
        pub ringmasters: [u8; MAX_PLAYERS],
        pub final_done: bool,
        /// Acrobat pyramids on the board.
        pub pyramids: Vec<Pyramid>,
    }
}

/// No big top, no tokens, empty supplies: `set_up` fills them when the option is on.
impl Default for BigTop {
    fn default() -> BigTop {
        BigTop {
            at: NONE16,
            stack: [0; 6],
            revealed: [0; 6],
            next: NONE16,
            ringmasters: [0; MAX_PLAYERS],
            final_done: false,
            pyramids: Vec::new(),
        }
    }
}

impl State {
    /// Reveal the animal token under the big top (chance): `value` points per meeple.
    pub fn reveal(&mut self, value: u8) -> Result<(), ChanceError> {
        if self.phase != Phase::Reveal {
            return Err(ChanceError(
                "no animal token is waiting to be revealed".into(),
            ));
        }
        let Some(k) = token(self, value) else {
            return Err(ChanceError(format!(
                "no animal token worth {value} is left (left: {})",
                ANIMALS
                    .iter()
                    .zip(ANIMAL_NAMES)
                    .zip(self.expansions.big_top.stack)
                    .filter(|(_, n)| *n > 0)
                    .map(|(((v, _), name), n)| format!("{name} {v} x{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let last = self.expansions.big_top.next == NONE16;
        reveal_token(self, k);
        if last {
            self.finish();
        } else {
            self.end_turn();
        }
        Ok(())
    }
}

/// T5: after the turn's scoring, a big-top tile receives the big top (BT2), or first the
/// circus under the old one scores (BT3). Returns true when a reveal must happen first.
pub(crate) fn after_scoring(s: &mut State) -> bool {
    if !s.rules.big_top {
        return false;
    }
    let pi = (s.board.placed.len() - 1) as u16;
    let t = s.board.placed[pi as usize].tile;
    if s.cat.tile(t).bigtop == NO_SEG {
        return false;
    }
    if s.expansions.big_top.at == NONE16 {
        s.expansions.big_top.at = pi;
        return false;
    }
    s.expansions.big_top.next = pi;
    s.phase = Phase::Reveal;
    true
}

/// The game ends now (`State::ended_now`): a pending reveal (BT3) and the final circus
/// (BT4) reveal `animals` in order, then tokens drawn by the generator.
fn end_now(s: &mut State, animals: &[u8]) -> Result<(), ChanceError> {
    if !animals.is_empty() && !s.rules.big_top {
        return Err(ChanceError(
            "animal tokens are only revealed with Under the Big Top".into(),
        ));
    }
    let mut given = animals.iter().copied();
    while s.phase == Phase::Reveal {
        match given.next().or_else(|| random_token(s)) {
            Some(v) => s.reveal(v)?,
            None => {
                // No token left to reveal: the circus cannot score again.
                s.expansions.big_top.final_done = true;
                s.expansions.big_top.next = NONE16;
                s.phase = Phase::Draw;
                s.finish();
            }
        }
    }
    if given.next().is_some() {
        return Err(ChanceError(format!(
            "more animal tokens given than reveals ({} given)",
            animals.len()
        )));
    }
    Ok(())
}

/// BT4: before final scoring, the circus under the big top scores once more.
pub(crate) fn final_reveal_needed(s: &mut State) -> bool {
    if !s.rules.big_top || s.expansions.big_top.at == NONE16 || s.expansions.big_top.final_done {
        return false;
    }
    s.expansions.big_top.next = NONE16;
    s.phase = Phase::Reveal;
    true
}

/// Index into `ANIMALS` of a token with `value` points still in the stack.
pub fn token(s: &State, value: u8) -> Option<usize> {
    ANIMALS
        .iter()
        .position(|(v, _)| *v == value)
        .filter(|&k| s.expansions.big_top.stack[k] > 0)
}

/// A token value chosen by the game's generator among those left.
pub fn random_token(s: &mut State) -> Option<u8> {
    let total: usize = s.expansions.big_top.stack.iter().map(|&n| n as usize).sum();
    if total == 0 {
        return None;
    }
    let mut k = s.rng.below(total);
    for (i, &n) in s.expansions.big_top.stack.iter().enumerate() {
        if k < n as usize {
            return Some(ANIMALS[i].0);
        }
        k -= n as usize;
    }
    None
}

/// BT3 (b)-(c): reveal the token (`value` points per meeple), score the circus, move the
/// big top on. Returns false when the game continues to final scoring.
pub(crate) fn reveal_token(s: &mut State, k: usize) {
    s.expansions.big_top.stack[k] -= 1;
    s.expansions.big_top.revealed[k] += 1;
    let value = ANIMALS[k].0 as u16;
    let at = s.expansions.big_top.at as usize;
    let (cx, cy) = (s.board.placed[at].x, s.board.placed[at].y);
    let mut count = [0u16; MAX_PLAYERS];
    for (dx, dy) in AROUND.iter().copied().chain(std::iter::once((0, 0))) {
        if let Some(pi) = s.board.at(cx + dx, cy + dy) {
            meeples_on(s, pi, &mut count);
        }
    }
    for (p, n) in count.iter().enumerate().take(s.players as usize) {
        s.award(p as u8, Source::Circus, value * n);
    }
    if s.expansions.big_top.next == NONE16 {
        s.expansions.big_top.final_done = true;
    } else {
        s.expansions.big_top.at = s.expansions.big_top.next;
        s.expansions.big_top.next = NONE16;
    }
}

/// BT5: meeples of each player on placed tile `pi` (any role but builder, pig, tollhouse;
/// acrobats included).
fn meeples_on(s: &State, pi: usize, count: &mut [u16; MAX_PLAYERS]) {
    let p = &s.board.placed[pi];
    let n = s.cat.tile(p.tile).segments.len() as u16;
    for g in p.seg_base..p.seg_base + n {
        let f = s.segs[g as usize].figure;
        if f != NO_FIGURE {
            count[unpack_figure(f).1 as usize] += 1;
        }
    }
    if let Some(py) = s
        .expansions
        .big_top
        .pyramids
        .iter()
        .find(|py| py.placed as usize == pi)
    {
        for &o in &py.owners[..py.n as usize] {
            count[o as usize] += 1;
        }
    }
}

/// Acrobat spaces where a meeple may go when the tile at (x, y) was just placed (BT6):
/// that tile's space and those of the 8 tiles around, each with fewer than 3 acrobats.
pub(crate) fn acrobat_targets(s: &State, x: i16, y: i16, new_tile: u16, out: &mut Vec<(i16, i16)>) {
    out.clear();
    if s.cat.tile(new_tile).acrobat != NO_SEG {
        out.push((x, y));
    }
    for (dx, dy) in AROUND {
        let (ax, ay) = (x + dx, y + dy);
        let Some(pi) = s.board.at(ax, ay) else {
            continue;
        };
        if s.cat.tile(s.board.placed[pi].tile).acrobat == NO_SEG {
            continue;
        }
        let n = s
            .expansions
            .big_top
            .pyramids
            .iter()
            .find(|py| py.placed as usize == pi)
            .map_or(0, |py| py.n);
        if n < 3 {
            out.push((ax, ay));
        }
    }
}

/// A normal meeple joins the pyramid at (x, y) (BT6, BT7).
pub(crate) fn place_acrobat(s: &mut State, owner: u8, x: i16, y: i16) {
    let Some(pi) = s.board.at(x, y) else {
        return;
    };
    s.meeples[owner as usize] -= 1;
    match s
        .expansions
        .big_top
        .pyramids
        .iter_mut()
        .find(|py| py.placed as usize == pi)
    {
        Some(py) => {
            py.owners[py.n as usize] = owner;
            py.n += 1;
        }
        None => s.expansions.big_top.pyramids.push(Pyramid {
            placed: pi as u16,
            owners: [owner, 0, 0],
            n: 1,
        }),
    }
}

/// Complete pyramids (3 acrobats) anywhere on the board, by position.
pub(crate) fn complete_pyramids(s: &State, out: &mut Vec<(i16, i16)>) {
    out.clear();
    for py in &s.expansions.big_top.pyramids {
        if py.n == 3 {
            let p = &s.board.placed[py.placed as usize];
            out.push((p.x, p.y));
        }
    }
}

/// BT8: score the complete pyramid at (x, y): 5 per acrobat to its owner, all return.
pub(crate) fn score_pyramid(s: &mut State, x: i16, y: i16) {
    let Some(pi) = s.board.at(x, y) else {
        return;
    };
    if let Some(i) = s
        .expansions
        .big_top
        .pyramids
        .iter()
        .position(|py| py.placed as usize == pi)
    {
        let py = s.expansions.big_top.pyramids.swap_remove(i);
        for &o in &py.owners[..py.n as usize] {
            s.award(o, Source::Acrobats, 5);
            s.meeples[o as usize] += 1;
        }
    }
}

/// BT9: every acrobat still out scores 5 at the end.
pub(crate) fn final_acrobats(s: &mut State) {
    let pyramids = std::mem::take(&mut s.expansions.big_top.pyramids);
    for py in &pyramids {
        for &o in &py.owners[..py.n as usize] {
            s.award(o, Source::Acrobats, 5);
        }
    }
    s.expansions.big_top.pyramids = pyramids;
}

/// BT11: the ringmaster on segment `g` earns 2 per big-top and acrobat tile among its tile
/// and the 8 around it, whenever its feature scores.
pub(crate) fn ringmaster_bonus(s: &mut State, g: u16) {
    let f = s.segs[g as usize].figure;
    if f == NO_FIGURE {
        return;
    }
    let (role, owner) = unpack_figure(f);
    if role != Role::Ringmaster {
        return;
    }
    let p = s.board.placed[s.segs[g as usize].placed as usize];
    let mut n = 0u16;
    for (dx, dy) in AROUND.iter().copied().chain(std::iter::once((0, 0))) {
        if let Some(pi) = s.board.at(p.x + dx, p.y + dy) {
            let tt = s.cat.tile(s.board.placed[pi].tile);
            if tt.bigtop != NO_SEG || tt.acrobat != NO_SEG {
                n += 1;
            }
        }
    }
    s.award(owner, Source::Ringmaster, 2 * n);
}

/// BT11 for a whole feature (root): every ringmaster in it gets its bonus.
pub(crate) fn ringmasters_in(s: &mut State, root: u16) {
    if !s.rules.big_top {
        return;
    }
    let mut g = root;
    loop {
        ringmaster_bonus(s, g);
        g = s.segs[g as usize].next;
        if g == root {
            break;
        }
    }
}

/// Why a ringmaster, acrobat or pyramid `action` after the placement `at` is illegal, if
/// it is (BT6-BT10).
pub(crate) fn check_action(
    s: &State,
    at: Placement,
    action: Action,
    p: usize,
) -> Result<(), Illegal> {
    let rule = match action {
        Action::Ringmaster(_) => "BT10",
        Action::Acrobat(..) => "BT6",
        _ => "BT8",
    };
    if !s.rules.big_top {
        return Err(Illegal::new(rule, "Under the Big Top is not in play"));
    }
    match action {
        Action::Ringmaster(l) => {
            let seg = s.drawn_segment(l, rule)?;
            if !s.rules.ringmaster {
                return Err(Illegal::new(
                    rule,
                    "the ringmaster is not in play (ringmaster=off)",
                ));
            }
            if s.expansions.big_top.ringmasters[p] == 0 {
                return Err(Illegal::new(rule, "your ringmaster is not in your supply"));
            }
            s.check_figure_on(p, seg.kind)?;
            if s.cat.tile(s.tile).meeple_mask & (1 << l) == 0 {
                return Err(Illegal::new(
                    rule,
                    format!(
                        "the ringmaster stands where a normal meeple may, not on a {} (BT10)",
                        seg.kind.name()
                    ),
                ));
            }
            s.check_free(at, l)
        }
        Action::Acrobat(ax, ay) => {
            if !s.rules.acrobats {
                return Err(Illegal::new(
                    rule,
                    "acrobats are not in play (acrobats=off)",
                ));
            }
            if s.meeples[p] == 0 {
                return Err(Illegal::new("B8", "you have no meeple in supply"));
            }
            let mut targets = Vec::new();
            acrobat_targets(s, at.x, at.y, s.tile, &mut targets);
            if targets.contains(&(ax, ay)) {
                Ok(())
            } else {
                Err(Illegal::new(rule, format!(
                    "{ax},{ay} is not an acrobat space with room on the placed tile or the 8 around it (BT6)"
                )))
            }
        }
        Action::ScorePyramid(px, py) => {
            let mut done = Vec::new();
            complete_pyramids(s, &mut done);
            if done.contains(&(px, py)) {
                Ok(())
            } else {
                Err(Illegal::new(
                    rule,
                    format!("no complete pyramid at {px},{py} (BT8)"),
                ))
            }
        }
        _ => Err(Illegal::new("T3", "not an Under the Big Top action")),
    }
}

/// Under the Big Top facts for one decision.
pub(crate) struct BigTopTurn {
    on: bool,
    /// Segments where the ringmaster may go (before the free test).
    ringmaster: u16,
    /// A meeple may join a pyramid (BT6).
    acrobats: bool,
    targets: Vec<(i16, i16)>,
    /// Complete pyramids to score instead (BT8).
    pyramids: Vec<(i16, i16)>,
}

/// Under the Big Top's steps of the turn: the ringmaster (BT10), acrobats (BT6) and pyramids
/// (BT8).
impl crate::expansions::Expansion for BigTop {
    fn read_out(s: &State, out: &mut impl crate::expansions::ReadOut) {
        use crate::expansions::{counts, Fact, InSupply};
        let bt = s.big_top();
        let at = |pi: u16| {
            let p = &s.board.placed[pi as usize];
            Fact::at(p.x, p.y)
        };
        let stands = (bt.at != NONE16).then(|| at(bt.at));
        out.fact("at", stands.unwrap_or(Fact::Nothing));
        let mut revealed = Vec::new();
        let mut left = Vec::new();
        for (k, &(v, _)) in ANIMALS.iter().enumerate() {
            revealed.extend((0..bt.revealed[k]).map(|_| Fact::Int(v.into())));
            left.push((Fact::Int(v.into()), Fact::Int(bt.stack[k].into())));
        }
        out.fact("revealed", Fact::List(revealed));
        out.fact("left", Fact::Map(left));
        // (x, y, owners from the bottom).
        let pyramids = bt.pyramids.iter().map(|py| {
            let p = &s.board.placed[py.placed as usize];
            let owners = &py.owners[..py.n as usize];
            let owners = Fact::List(owners.iter().map(|&o| Fact::Int(o.into())).collect());
            Fact::Tuple(vec![Fact::Int(p.x.into()), Fact::Int(p.y.into()), owners])
        });
        out.fact("pyramids", Fact::List(pyramids.collect()));
        if s.rules.ringmaster {
            let ringmaster = InSupply {
                name: "ringmaster",
                rank: 5,
            };
            out.in_supply(
                "ringmasters",
                ringmaster,
                counts(&bt.ringmasters, s.players),
            );
        }
    }

    const EVAL_TERMS: &'static [&'static str] =
        &["circus_expected", "acrobat_points", "ringmaster_in_supply"];

    fn eval_terms(s: &State, p: usize, _left: f32, out: &mut [f32]) {
        if !s.rules.big_top {
            return;
        }
        if s.expansions.big_top.at != NONE16 && !s.expansions.big_top.final_done {
            // The player's figures around the big top times the mean face-down token (BT3):
            // what the next reveal pays them if nothing moves.
            let (mut tokens, mut points) = (0u32, 0u32);
            for (k, &(value, _)) in ANIMALS.iter().enumerate() {
                tokens += s.expansions.big_top.stack[k] as u32;
                points += s.expansions.big_top.stack[k] as u32 * value as u32;
            }
            if tokens > 0 {
                let at = s.expansions.big_top.at as usize;
                let (cx, cy) = (s.board.placed[at].x, s.board.placed[at].y);
                let mut count = [0u16; MAX_PLAYERS];
                for (dx, dy) in AROUND.iter().copied().chain(std::iter::once((0, 0))) {
                    if let Some(pi) = s.board.at(cx + dx, cy + dy) {
                        meeples_on(s, pi, &mut count);
                    }
                }
                out[0] = count[p] as f32 * points as f32 / tokens as f32;
            }
        }
        for pyr in &s.expansions.big_top.pyramids {
            // BT9: every acrobat scores 5 at the end.
            out[1] += 5.0
                * pyr.owners[..pyr.n as usize]
                    .iter()
                    .filter(|&&o| o as usize == p)
                    .count() as f32;
        }
        out[2] = s.expansions.big_top.ringmasters[p] as f32;
    }

    type Turn = BigTopTurn;

    /// BT2-BT3: each big-top tile takes one animal token from the stack, so a catalogue with
    /// more big-top tiles than tokens has no rule for the ones left over.
    fn check_catalogue(tiles: &[TileType]) -> Result<(), String> {
        let big_tops: u32 = tiles
            .iter()
            .filter(|t| t.bigtop != NO_SEG)
            .map(|t| t.count as u32)
            .sum();
        let tokens: u32 = ANIMALS.iter().map(|(_, n)| *n as u32).sum();
        if big_tops > tokens {
            return Err(format!(
                "{big_tops} big-top tiles but only {tokens} animal tokens: each big-top tile \
                 takes a token (BT2, BT3), so at most {tokens} may be in the catalogue"
            ));
        }
        Ok(())
    }

    fn turn(s: &State, _: &crate::engine::tiles::TileType, p: usize, figures: u16) -> BigTopTurn {
        let on = s.rules.big_top;
        let mut pyramids = Vec::new();
        if on {
            complete_pyramids(s, &mut pyramids);
        }
        BigTopTurn {
            on,
            ringmaster: if on && s.expansions.big_top.ringmasters[p] > 0 {
                figures
            } else {
                0
            },
            acrobats: on && s.meeples[p] > 0 && s.rules.acrobats,
            targets: Vec::new(),
            pyramids,
        }
    }

    #[inline]
    fn needs_segments(t: &BigTopTurn) -> bool {
        t.ringmaster != 0
    }

    #[inline]
    fn figures_after(
        _: &State,
        t: &BigTopTurn,
        at: Placement,
        free: u16,
        _: &crate::engine::features::Around,
        out: &mut Vec<Move>,
    ) {
        let mut bits = free & t.ringmaster;
        while bits != 0 {
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            out.push(at.with(Action::Ringmaster(i)));
        }
    }

    #[inline]
    fn placement_actions(s: &State, t: &mut BigTopTurn, at: Placement, out: &mut Vec<Move>) {
        if !t.on {
            return;
        }
        if t.acrobats {
            acrobat_targets(s, at.x, at.y, s.tile, &mut t.targets);
            for &(ax, ay) in &t.targets {
                out.push(at.with(Action::Acrobat(ax, ay)));
            }
        }
        for &(px, py) in &t.pyramids {
            out.push(at.with(Action::ScorePyramid(px, py)));
        }
    }

    fn check_action(
        s: &State,
        at: Placement,
        action: Action,
        p: usize,
    ) -> Option<Result<(), Illegal>> {
        match action {
            Action::Ringmaster(_) | Action::Acrobat(..) | Action::ScorePyramid(..) => {
                Some(check_action(s, at, action, p))
            }
            _ => None,
        }
    }

    fn apply_action(s: &mut State, pi: usize, action: Action) -> bool {
        let p = s.current;
        match action {
            Action::Ringmaster(l) => s.put_figure(pi, l, Role::Ringmaster, p),
            Action::Acrobat(ax, ay) => place_acrobat(s, p, ax, ay),
            Action::ScorePyramid(px, py) => score_pyramid(s, px, py),
            _ => return false,
        }
        true
    }

    #[inline]
    fn figure_placed(s: &mut State, _: usize, _: u16, role: Role, owner: u8) {
        if role == Role::Ringmaster {
            s.expansions.big_top.ringmasters[owner as usize] -= 1;
        }
    }

    /// No more big-top tiles than animal tokens to reveal (BT3, BT4).
    fn check_bag(
        cat: &crate::engine::tiles::Catalogue,
        rules: crate::engine::rules::Rules,
        tiles: &[u16],
    ) -> Result<(), String> {
        if !rules.big_top {
            return Ok(());
        }
        let tokens: usize = ANIMALS.iter().map(|(_, n)| *n as usize).sum();
        let tops = tiles
            .iter()
            .filter(|&&t| cat.tile(t).bigtop != NO_SEG)
            .count();
        if tops > tokens {
            return Err(format!(
                "{tops} big-top tiles but only {tokens} animal tokens to reveal (BT3, BT4): at most {tokens}"
            ));
        }
        Ok(())
    }

    fn waiting(s: &State) -> Option<&'static str> {
        (s.phase == Phase::Reveal)
            .then_some("the animal token under the big top is to be revealed (BT3)")
    }

    /// The reveal must come before any move (BT3).
    fn check_decision(s: &State, _: &Move) -> Option<Result<(), Illegal>> {
        (s.phase == Phase::Reveal).then(|| {
            Err(Illegal::new(
                "BT3",
                "the animal token under the big top must be revealed first (BT3)",
            ))
        })
    }

    #[inline]
    fn turn_scored(s: &mut State) -> bool {
        after_scoring(s)
    }

    /// The catalogue never has more big-top tiles than tokens (checked when it loads), so a
    /// token is always left for a reveal.
    fn chance_random(s: &mut State, log: &mut impl FnMut(u8)) -> bool {
        if s.phase != Phase::Reveal {
            return false;
        }
        let Some(v) = random_token(s) else {
            return false;
        };
        log(v);
        let _ = s.reveal(v);
        true
    }

    /// The animal tokens left in the stack, each as likely as its count (BT3).
    fn chance_outcomes(s: &State, out: &mut Vec<(Chance, f64)>) -> bool {
        if s.phase != Phase::Reveal {
            return false;
        }
        let stack = &s.expansions.big_top.stack;
        let total: usize = stack.iter().map(|&n| n as usize).sum();
        for (k, &n) in stack.iter().enumerate() {
            if n > 0 {
                out.push((Chance::Reveal(ANIMALS[k].0), n as f64 / total as f64));
            }
        }
        true
    }

    /// A pending reveal scores first (BT3).
    fn cut_short(s: &mut State) -> bool {
        s.phase == Phase::Reveal
    }

    fn end_chance(s: &mut State, outcomes: &[u8]) -> Result<(), ChanceError> {
        end_now(s, outcomes)
    }

    #[inline]
    fn game_ends(s: &mut State) -> bool {
        final_reveal_needed(s)
    }

    #[inline]
    fn final_scoring(s: &mut State) {
        final_acrobats(s);
    }

    /// BT11: a ringmaster in a feature that scores earns its bonus.
    #[inline]
    fn feature_scored(
        s: &mut State,
        g: u16,
        kind: crate::engine::tiles::SegmentKind,
        _: u8,
        _: u16,
    ) {
        use crate::engine::tiles::SegmentKind;
        match kind {
            SegmentKind::Monastery | SegmentKind::Garden => {
                if s.rules.big_top {
                    ringmaster_bonus(s, g);
                }
            }
            _ => ringmasters_in(s, g),
        }
    }

    #[inline]
    fn figure_returned(s: &mut State, _: u16, role: Role, owner: u8) {
        if role == Role::Ringmaster {
            s.expansions.big_top.ringmasters[owner as usize] += 1;
        }
    }

    /// The animal tokens go face down; each player takes a ringmaster, unless a study
    /// switched it off.
    fn set_up(s: &mut State) {
        if !s.rules.big_top {
            return;
        }
        for (k, (_, n)) in ANIMALS.iter().enumerate() {
            s.expansions.big_top.stack[k] = *n;
        }
        if s.rules.ringmaster {
            s.expansions.big_top.ringmasters[..s.players as usize].fill(1);
        }
    }

    /// The big top, the acrobats in each pyramid, the ringmasters in supply, the animal tokens
    /// left.
    const CHANNELS: &'static [Slot] = &[C_BIGTOP_SPACE, C_ACROBAT_SPACE, C_BIG_TOP];
    const ROLES: &'static [Slot] = &[R_RINGMASTER, R_ACROBATS];
    const SUPPLY: &'static [Slot] = &[S_RINGMASTERS];
    const MISC: &'static [Slot] = &[M_BIG_TOP_PLACED];
    const VECTOR: &'static [Part] = &[V_ANIMALS];

    #[inline]
    fn observe_tile<O: Observe>(s: &State, pi: usize, tt: &TileType, o: &mut O) {
        if tt.bigtop != NO_SEG {
            if let Some(c) = o.mark(s, pi, C_BIGTOP_SPACE) {
                *c = 1;
            }
        }
        if tt.acrobat != NO_SEG {
            o.count(s, pi, C_ACROBAT_SPACE);
        }
    }

    /// The ringmaster on a segment of the placed tile; an acrobat onto, or scoring the pyramid
    /// of, the k-th acrobat space in placement order (the tile being placed among them).
    const ACTIONS: &'static [ActionSlots] = &[
        ActionSlots::new("ringmaster", 6, "ringmaster on segment #"),
        ActionSlots::new("acrobat", 9, "acrobat on space #"),
        ActionSlots::new("score-pyramid", 10, "score pyramid #"),
    ];

    fn action_slots(rules: Rules, k: usize, cat: &Catalogue, tiles: &[u16]) -> usize {
        match k {
            _ if !rules.big_top => 0,
            0 if rules.ringmaster => layout::most_segments(cat, tiles, |tt| tt.meeple_mask),
            1 | 2 if rules.acrobats => layout::copies(cat, tiles, |tt| tt.acrobat != NO_SEG),
            _ => 0,
        }
    }

    fn action_slot(s: &State, at: Placement, action: Action) -> Option<(usize, usize)> {
        let (k, x, y) = match action {
            Action::Ringmaster(l) => {
                return Some((0, layout::segment_slot(s.cat.tile(s.tile).meeple_mask, l)?))
            }
            Action::Acrobat(x, y) => (1, x, y),
            Action::ScorePyramid(x, y) => (2, x, y),
            _ => return None,
        };
        let rank = if (x, y) == (at.x, at.y) && s.cat.tile(s.tile).acrobat != NO_SEG {
            acrobat_rank(s, s.board.placed.len())
        } else {
            acrobat_rank(s, s.board.at(x, y)?)
        };
        Some((k, rank))
    }

    fn slot_action(s: &State, x: i16, y: i16, k: usize, i: usize) -> Option<Action> {
        if k == 0 {
            let l = layout::slot_segment(s.cat.tile(s.tile).meeple_mask, i)?;
            return Some(Action::Ringmaster(l));
        }
        let (tx, ty) = if i == acrobat_rank(s, s.board.placed.len()) {
            (x, y)
        } else {
            nth_acrobat(s, i)?
        };
        Some(if k == 1 {
            Action::Acrobat(tx, ty)
        } else {
            Action::ScorePyramid(tx, ty)
        })
    }

    const WIDE_BOARD: bool = true;

    fn observe<O: Observe>(s: &State, o: &mut O) {
        let bt = &s.expansions.big_top;
        if bt.at != NONE16 {
            if let Some(c) = o.mark(s, bt.at as usize, C_BIG_TOP) {
                *c = 1;
            }
        }
        for py in &bt.pyramids {
            for &owner in &py.owners[..py.n as usize] {
                if let Some(c) = o.figure(s, py.placed as usize, owner as usize, R_ACROBATS) {
                    *c += 1;
                }
            }
        }
        for q in 0..s.players as usize {
            *o.supply(q, S_RINGMASTERS) = bt.ringmasters[q] as f32;
        }
        *o.misc(M_BIG_TOP_PLACED) = f32::from(u8::from(bt.at != NONE16));
        for (k, &n) in bt.stack.iter().enumerate() {
            *o.part(V_ANIMALS.slot, k) = n as f32;
        }
    }
}

/// Rank of the acrobat space on placed tile `pi` among acrobat spaces in placement order
/// (`pi` = number of placed tiles for the tile being placed).
fn acrobat_rank(s: &State, pi: usize) -> usize {
    s.board.placed[..pi.min(s.board.placed.len())]
        .iter()
        .filter(|p| s.cat.tile(p.tile).acrobat != NO_SEG)
        .count()
}

/// Where the k-th acrobat space in placement order is.
fn nth_acrobat(s: &State, k: usize) -> Option<(i16, i16)> {
    s.board
        .placed
        .iter()
        .filter(|p| s.cat.tile(p.tile).acrobat != NO_SEG)
        .nth(k)
        .map(|p| (p.x, p.y))
}
