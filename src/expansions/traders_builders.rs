//! Traders & Builders (TB1-TB12), both editions: goods tokens for completing cities, the
//! builder's double turn, and the pig. Hooked into the turn through `expansions::Expansion`:
//! after the tile is laid (builder trigger), in the action (attach or place builder and pig),
//! after completed features score (goods, pig scoring), at the end of the turn (double turn)
//! and at the end of the game (goods majorities; the C2 pig is scored with the fields).

use crate::engine::moves::{Action, Illegal, Move, Placement};
use crate::engine::rules::{Edition, Rules, MAX_PLAYERS};
use crate::engine::scoring::Source;
use crate::engine::state::{Phase, State, NONE16};
use crate::engine::tiles::{Catalogue, Goods, SegmentKind, TileType};
use crate::expansions::layout::{self, ActionSlots, Len, Observe, Part, Slot};

// The builder and the pig on the board and in supply, the goods in supply, the double turn.
const R_BUILDER: Slot = Slot::new("builder", 3);
const R_PIG: Slot = Slot::new("pig", 4);
const S_BUILDERS: Slot = Slot::new("builders", 3);
const S_PIGS: Slot = Slot::new("pigs", 4);
/// The goods piles in supply (`pile` order; named as in C2).
const S_GOODS: [Slot; 3] = [
    Slot::new("wine", 6),
    Slot::new("grain", 7),
    Slot::new("cloth", 8),
];
const M_SECOND_PART: Slot = Slot::new("second_part", 1);
const M_BUILDER_TRIGGERED: Slot = Slot::new("builder_triggered", 2);

/// The figure groups after a placement: what each numbers, the edition and component it needs,
/// its action.
struct FigureGroup {
    mask: fn(&TileType) -> u16,
    edition: Edition,
    builder: bool,
    action: fn(u8) -> Action,
}

const FIGURE_GROUPS: [FigureGroup; 4] = [
    FigureGroup {
        mask: |tt| tt.meeple_mask & tt.road_city_mask,
        edition: Edition::C31,
        builder: true,
        action: Action::MeepleBuilder,
    },
    FigureGroup {
        mask: |tt| tt.meeple_mask & tt.halves_mask,
        edition: Edition::C31,
        builder: false,
        action: Action::MeeplePig,
    },
    FigureGroup {
        mask: |tt| tt.road_city_mask,
        edition: Edition::C2,
        builder: true,
        action: Action::Builder,
    },
    FigureGroup {
        mask: |tt| tt.halves_mask,
        edition: Edition::C2,
        builder: false,
        action: Action::Pig,
    },
];

/// Goods kinds as token piles: wine (C2) and chicken (C3.1) share a pile, as only one edition
/// is ever in play.
pub const GOODS_NAMES: [[&str; 3]; 2] = [["wine", "grain", "cloth"], ["chicken", "grain", "cloth"]];

#[inline]
fn pile(g: Goods) -> usize {
    match g {
        Goods::Wine | Goods::Chicken => 0,
        Goods::Grain => 1,
        Goods::Cloth => 2,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TradersBuilders {
    /// Builders and pigs in each player's supply (0 or 1).
    pub builders: [u8; MAX_PLAYERS],
    pub pigs: [u8; MAX_PLAYERS],
    /// Segment each player's builder or pig stands on (C2) or whose meeple it is attached to
    /// (C3.1); NONE16 when not on the board.
    pub builder_at: [u16; MAX_PLAYERS],
    pub pig_at: [u16; MAX_PLAYERS],
    /// Goods tokens per player and pile.
    pub goods: [[u8; 3]; MAX_PLAYERS],
    /// The active player's builder was triggered in this turn part (TB5, TB8).
    pub triggered: bool,
    /// This is the second part of a double turn (TB6).
    pub second_part: bool,
    /// Farmers whose pig just scored, in the seed's order, waiting for their owner's choice.
    pub farmer_queue: [u16; MAX_PLAYERS],
    pub queue_len: u8,
    /// A city with a coat of arms was completed by the tile being scored (TB10: pigs score
    /// after all its features); false between turns.
    pub arms_completed: bool,
}

/// Nothing on the board and empty supplies: `set_up` fills them when the option is on.
impl Default for TradersBuilders {
    fn default() -> TradersBuilders {
        TradersBuilders {
            builders: [0; MAX_PLAYERS],
            pigs: [0; MAX_PLAYERS],
            builder_at: [NONE16; MAX_PLAYERS],
            pig_at: [NONE16; MAX_PLAYERS],
            goods: [[0; 3]; MAX_PLAYERS],
            triggered: false,
            second_part: false,
            farmer_queue: [NONE16; MAX_PLAYERS],
            queue_len: 0,
            arms_completed: false,
        }
    }
}

impl State {
    #[inline]
    pub fn edition(&self) -> Option<Edition> {
        self.rules.traders_builders
    }

    /// The player who must answer the farmer choice now.
    pub fn farmer_decider(&self) -> Option<(u8, u16)> {
        if self.phase != Phase::Farmer || self.expansions.traders_builders.queue_len == 0 {
            return None;
        }
        let s = self.expansions.traders_builders.farmer_queue[0];
        let (_, owner) = crate::engine::features::unpack_figure(self.segs[s as usize].figure);
        Some((owner, s))
    }
}

/// TB5, TB8: did the tile just laid (placed index `pi`) extend a road or city holding the
/// active player's builder? Checked before the action, so placing the builder never
/// triggers it; a second turn part never triggers another.
pub(crate) fn check_trigger(s: &mut State, pi: usize) {
    let p = s.current as usize;
    let at = s.expansions.traders_builders.builder_at[p];
    if s.edition().is_none() || at == NONE16 || s.expansions.traders_builders.second_part {
        return;
    }
    let root = s.find(at);
    let pl = s.board.placed[pi];
    let n = s.cat.tile(pl.tile).segments.len() as u16;
    let extended = (0..n).any(|i| {
        let g = pl.seg_base + i;
        matches!(
            s.segs[g as usize].kind,
            SegmentKind::Road | SegmentKind::City
        ) && s.find(g) == root
    });
    if extended {
        s.expansions.traders_builders.triggered = true;
        if s.edition() == Some(Edition::C31) {
            // The builder goes beside the tile stacks until the end of the turn.
            s.expansions.traders_builders.builder_at[p] = NONE16;
        }
    }
}

/// A meeple leaves segment `seg`: a builder or pig attached to it leaves too (TB4, TB9).
pub(crate) fn detach(s: &mut State, seg: u16, owner: u8) {
    if s.edition() != Some(Edition::C31) {
        return;
    }
    let o = owner as usize;
    if s.expansions.traders_builders.builder_at[o] == seg {
        s.expansions.traders_builders.builder_at[o] = NONE16;
        s.expansions.traders_builders.builders[o] = 1;
    }
    if s.expansions.traders_builders.pig_at[o] == seg {
        s.expansions.traders_builders.pig_at[o] = NONE16;
        s.expansions.traders_builders.pigs[o] = 1;
    }
}

/// A completed feature (root) was scored: a C2 builder standing in it returns (TB8).
pub(crate) fn feature_scored(s: &mut State, root: u16) {
    if s.edition() != Some(Edition::C2) {
        return;
    }
    for p in 0..s.players as usize {
        let at = s.expansions.traders_builders.builder_at[p];
        if at != NONE16 && s.find(at) == root {
            s.expansions.traders_builders.builder_at[p] = NONE16;
            s.expansions.traders_builders.builders[p] = 1;
        }
    }
}

/// TB1: the active player takes one token per goods symbol of the completed city `root`.
/// Returns whether the city shows a coat of arms (for TB10).
pub(crate) fn city_completed(s: &mut State, root: u16) -> bool {
    if s.edition().is_none() {
        return false;
    }
    let arms = s.segs[root as usize].arms > 0;
    if !s.rules.goods {
        return arms; // goods off: the symbols are only pictures
    }
    let p = s.current as usize;
    let mut g = root;
    loop {
        let seg = &s.segs[g as usize];
        let pl = &s.board.placed[seg.placed as usize];
        if let Some(goods) = s.cat.tile(pl.tile).segments[seg.local as usize].goods {
            let k = pile(goods);
            s.expansions.traders_builders.goods[p][k] =
                s.expansions.traders_builders.goods[p][k].saturating_add(1);
        }
        g = seg.next;
        if g == root {
            break;
        }
    }
    arms
}

/// TB10: after a coat-of-arms city is completed and scored, every C3.1 pig scores 3 per
/// completed city beside its field and returns; its owner then chooses whether the farmer
/// returns too (queued, active player first, then clockwise).
pub(crate) fn score_pigs(s: &mut State) {
    if s.edition() != Some(Edition::C31) {
        return;
    }
    let mut cities = Vec::new();
    for k in 0..s.players {
        let p = ((s.current + k) % s.players) as usize;
        let farmer = s.expansions.traders_builders.pig_at[p];
        if farmer == NONE16 {
            continue;
        }
        cities.clear();
        let root = s.find(farmer);
        s.completed_cities_of_field(root, &mut cities);
        s.award(p as u8, Source::Pigs, 3 * cities.len() as u16);
        s.expansions.traders_builders.pig_at[p] = NONE16;
        s.expansions.traders_builders.pigs[p] = 1;
        s.expansions.traders_builders.farmer_queue
            [s.expansions.traders_builders.queue_len as usize] = farmer;
        s.expansions.traders_builders.queue_len += 1;
    }
    if s.expansions.traders_builders.queue_len > 0 {
        s.phase = Phase::Farmer;
    }
}

/// Answer the first queued farmer choice.
pub(crate) fn resolve_farmer(s: &mut State, take_back: bool) {
    let g = s.expansions.traders_builders.farmer_queue[0];
    if take_back {
        s.take_back(g);
    }
    let n = s.expansions.traders_builders.queue_len as usize;
    s.expansions
        .traders_builders
        .farmer_queue
        .copy_within(1..n, 0);
    s.expansions.traders_builders.farmer_queue[n - 1] = NONE16;
    s.expansions.traders_builders.queue_len -= 1;
}

/// TB6: at the end of a turn part, a triggered builder gives one more part. Returns whether
/// the same player goes on.
pub(crate) fn double_turn(s: &mut State) -> bool {
    let again =
        s.expansions.traders_builders.triggered && !s.expansions.traders_builders.second_part;
    s.expansions.traders_builders.triggered = false;
    if again {
        s.expansions.traders_builders.second_part = true;
        if s.edition() == Some(Edition::C31) {
            s.expansions.traders_builders.builders[s.current as usize] = 1;
        }
    } else {
        s.expansions.traders_builders.second_part = false;
    }
    again
}

/// TB2: goods majorities at the end, 10 points per pile to each player with the most.
pub(crate) fn final_goods(s: &mut State) {
    if s.edition().is_none() {
        return;
    }
    for k in 0..3 {
        let best = (0..s.players as usize)
            .map(|p| s.expansions.traders_builders.goods[p][k])
            .max()
            .unwrap_or(0);
        if best == 0 {
            continue;
        }
        for p in 0..s.players {
            if s.expansions.traders_builders.goods[p as usize][k] == best {
                s.award(p, Source::Goods, 10);
            }
        }
    }
}

/// TB12: a C2 pig in a field its owner wins adds 1 per completed city (4 instead of 3).
pub(crate) fn field_bonus(s: &mut State, root: u16, winners: u8, cities: u16) {
    if s.edition() != Some(Edition::C2) {
        return;
    }
    for p in 0..s.players as usize {
        let at = s.expansions.traders_builders.pig_at[p];
        if winners & (1 << p) != 0 && at != NONE16 && s.find(at) == root {
            s.award(p as u8, Source::Pigs, cities);
        }
    }
}

/// Why a builder or pig `action` after the placement `at` is illegal, if it is (TB4,
/// TB8, TB9, TB12).
pub(crate) fn check_action(
    s: &State,
    at: Placement,
    action: Action,
    l: u8,
    p: usize,
) -> Result<(), Illegal> {
    let builder = matches!(action, Action::MeepleBuilder(_) | Action::Builder(_));
    let attached = matches!(action, Action::MeepleBuilder(_) | Action::MeeplePig(_));
    // The rule of the figure in question in the edition it is written for.
    let rule = match (builder, attached) {
        (true, true) => "TB4",
        (false, true) => "TB9",
        (true, false) => "TB8",
        (false, false) => "TB12",
    };
    let err = |rule: &'static str, msg: &str| Err(Illegal::new(rule, msg));
    let Some(ed) = s.edition() else {
        return err(rule, "Traders & Builders is not in play");
    };
    let tt = s.cat.tile(s.tile);
    let Some(seg) = tt.segments.get(l as usize) else {
        return Err(Illegal::new(
            rule,
            format!("tile {} has no segment {l}", tt.id),
        ));
    };
    match (ed, attached) {
        (Edition::C31, false) => {
            return err(if builder { "TB4" } else { "TB9" }, "in C3.1 the builder and pig are attached to a meeple: `meeple LABEL +builder` (TB4, TB9)")
        }
        (Edition::C2, true) => {
            return err(if builder { "TB8" } else { "TB12" }, "in C2 the builder and pig are placed instead of a meeple: `builder LABEL` (TB8, TB12)")
        }
        _ => {}
    }
    if builder && !matches!(seg.kind, SegmentKind::Road | SegmentKind::City) {
        return err(
            rule,
            "the builder goes only with a road or a city (TB4, TB8)",
        );
    }
    if !builder && seg.kind != SegmentKind::Field {
        return err(rule, "the pig goes only on a field (TB9, TB12)");
    }
    if builder && !s.rules.builder {
        return err(rule, "the builder is not in play (builder=off)");
    }
    if !builder && !s.rules.pig {
        return err(rule, "the pig is not in play (pig=off)");
    }
    if !builder && !s.rules.farmers {
        return err(rule, "farmers are not in play (farmers=off): no pig either");
    }
    if builder && s.expansions.traders_builders.builders[p] == 0 {
        return err(rule, "your builder is not in your supply");
    }
    if !builder && s.expansions.traders_builders.pigs[p] == 0 {
        return err(rule, "your pig is not in your supply");
    }
    let around = s.around(at.x, at.y);
    if builder && completes(s, at, &around, 1 << l) {
        return Err(Illegal::new(
            rule,
            format!(
                "the tile completes that {}: a builder there would return at once (TB4, TB8)",
                seg.kind.name()
            ),
        ));
    }
    if attached {
        if s.meeples[p] == 0 {
            return err("B8", "you have no meeple in supply");
        }
        if s.free_segments_at(&around, s.tile, at.rot) & (1 << l) == 0 {
            return Err(Illegal::new(
                "B9",
                format!("that {} already holds a figure (B9)", seg.kind.name()),
            ));
        }
    } else if s.own_segments_at(&around, s.tile, at.rot, p as u8) & (1 << l) == 0 {
        return Err(Illegal::new(
            rule,
            format!(
                "the {} goes only on a {} that already holds one of your meeples (TB8, TB12)",
                if builder { "builder" } else { "pig" },
                seg.kind.name()
            ),
        ));
    }
    Ok(())
}

pub(crate) fn place_builder(s: &mut State, pi: usize, local: u8) {
    let p = s.current as usize;
    s.expansions.traders_builders.builder_at[p] = s.seg_id(pi, local);
    s.expansions.traders_builders.builders[p] = 0;
}

pub(crate) fn place_pig(s: &mut State, pi: usize, local: u8) {
    let p = s.current as usize;
    s.expansions.traders_builders.pig_at[p] = s.seg_id(pi, local);
    s.expansions.traders_builders.pigs[p] = 0;
}

/// Whether the placement `at` completes the road or city of segment mask `seg` (TB4, TB8).
/// Out of line: move generation of the other rule sets stays as small as it was.
#[inline(never)]
fn completes(s: &State, at: Placement, around: &crate::engine::features::Around, seg: u16) -> bool {
    s.completed_segments_at(around, s.tile, at.rot, seg) != 0
}

/// Traders & Builders facts for one decision.
pub(crate) struct TradersBuildersTurn {
    /// C3.1: segments where a meeple may take the builder or the pig along (TB4, TB9).
    attach_builder: u16,
    attach_pig: u16,
    /// C2: the builder and pig go on the player's own features instead of a meeple (TB8,
    /// TB12): which of them are in supply, as segment kinds they may take.
    c2_builder: u16,
    c2_pig: u16,
    player: u8,
}

/// Traders & Builders' steps of the turn: the farmer choice after a pig scores (TB10), and
/// the builder and pig in the action (TB4, TB8, TB9, TB12).
impl crate::expansions::Expansion for TradersBuilders {
    fn read_out(s: &State, out: &mut impl crate::expansions::ReadOut) {
        use crate::expansions::{counts, Fact, InSupply};
        let tb = s.traders_builders();
        if let Some(ed) = s.rules.traders_builders {
            let names = GOODS_NAMES[usize::from(ed == Edition::C31)];
            let goods = tb.goods[..s.players as usize].iter().map(|held| {
                let kinds = names.iter().zip(held);
                Fact::Map(
                    kinds
                        .map(|(n, &k)| (Fact::Text((*n).into()), Fact::Int(k.into())))
                        .collect(),
                )
            });
            out.fact("goods", Fact::List(goods.collect()));
        }
        if s.rules.builder {
            let builder = InSupply {
                name: "builder",
                rank: 2,
            };
            out.in_supply("builders", builder, counts(&tb.builders, s.players));
        }
        if s.rules.pig {
            let pig = InSupply {
                name: "pig",
                rank: 3,
            };
            out.in_supply("pigs", pig, counts(&tb.pigs, s.players));
        }
        // Builders and pigs stand with (C3.1) or beside (C2) a segment; strength 0.
        for (role, at) in [("builder", &tb.builder_at), ("pig", &tb.pig_at)] {
            for (owner, &g) in at.iter().enumerate().take(s.players as usize) {
                if g != NONE16 {
                    out.standing(role, owner as u8, g);
                }
            }
        }
        out.fact("second_part", Fact::Bool(tb.second_part));
        out.fact("builder_triggered", Fact::Bool(tb.triggered));
    }

    const EVAL_TERMS: &'static [&'static str] = &[
        "goods_majorities",
        "goods_tokens",
        "builder_out",
        "builder_out_x_left",
        "pig_field_cities",
        "pig_in_supply",
    ];

    fn eval_terms(s: &State, p: usize, _left: f32, out: &mut [f32]) {
        if s.edition().is_none() {
            return;
        }
        let n = s.players as usize;
        for pile in 0..3 {
            // TB2: 10 points to each player with the most tokens of a kind, ties included.
            let most = (0..n)
                .map(|q| s.expansions.traders_builders.goods[q][pile])
                .max()
                .unwrap_or(0);
            if most > 0 && s.expansions.traders_builders.goods[p][pile] == most {
                out[0] += 10.0;
            }
            out[1] += s.expansions.traders_builders.goods[p][pile] as f32;
        }
        if s.expansions.traders_builders.builder_at[p] != NONE16 {
            out[2] = 1.0;
            out[3] = _left;
        }
        if s.expansions.traders_builders.pig_at[p] != NONE16 {
            out[4] = s
                .count_completed_cities_of_field(s.find(s.expansions.traders_builders.pig_at[p]))
                as f32;
        }
        out[5] = s.expansions.traders_builders.pigs[p] as f32;
    }

    type Turn = TradersBuildersTurn;

    fn turn(
        s: &State,
        tt: &crate::engine::tiles::TileType,
        p: usize,
        figures: u16,
    ) -> TradersBuildersTurn {
        let ed = s.rules.traders_builders;
        let builder = ed.is_some() && s.expansions.traders_builders.builders[p] > 0;
        let pig = ed.is_some() && s.expansions.traders_builders.pigs[p] > 0;
        let meeple = if s.meeples[p] > 0 { figures } else { 0 };
        let c31 = ed == Some(Edition::C31);
        let c2 = ed == Some(Edition::C2);
        TradersBuildersTurn {
            attach_builder: if c31 && builder {
                tt.road_city_mask & meeple
            } else {
                0
            },
            attach_pig: if c31 && pig {
                tt.halves_mask & meeple
            } else {
                0
            },
            c2_builder: if c2 && builder { tt.road_city_mask } else { 0 },
            c2_pig: if c2 && pig { tt.halves_mask } else { 0 },
            player: p as u8,
        }
    }

    fn decision_moves(s: &State, out: &mut Vec<Move>) -> bool {
        if s.farmer_decider().is_none() {
            return false;
        }
        out.push(Move::KeepFarmer);
        out.push(Move::ReturnFarmer);
        true
    }

    fn waiting(s: &State) -> Option<&'static str> {
        (s.phase == Phase::Farmer)
            .then_some("a pig's owner must first choose about the farmer (TB10)")
    }

    fn check_decision(s: &State, m: &Move) -> Option<Result<(), Illegal>> {
        let farmer = matches!(m, Move::KeepFarmer | Move::ReturnFarmer);
        match s.phase {
            Phase::Farmer => Some(if s.farmer_decider().is_none() {
                Err(Illegal::new("TB10", "no farmer choice is waiting"))
            } else if farmer {
                Ok(())
            } else {
                Err(Illegal::new(
                    "TB10",
                    "a pig has scored: its owner must choose keep-farmer or return-farmer (TB10)",
                ))
            }),
            Phase::Place if farmer => {
                Some(Err(Illegal::new("TB10", "no farmer choice is waiting")))
            }
            _ => None,
        }
    }

    #[inline]
    fn needs_segments(t: &TradersBuildersTurn) -> bool {
        t.c2_builder | t.c2_pig != 0
    }

    #[inline]
    fn figures_on_segment(
        s: &State,
        t: &TradersBuildersTurn,
        at: Placement,
        around: &crate::engine::features::Around,
        i: u8,
        out: &mut Vec<Move>,
    ) {
        // Not with a meeple on a road or city the tile completes: it would return at once.
        if t.attach_builder & (1 << i) != 0 && !completes(s, at, around, 1 << i) {
            out.push(at.with(Action::MeepleBuilder(i)));
        }
        if t.attach_pig & (1 << i) != 0 {
            out.push(at.with(Action::MeeplePig(i)));
        }
    }

    #[inline]
    fn figures_after(
        s: &State,
        t: &TradersBuildersTurn,
        at: Placement,
        _: u16,
        around: &crate::engine::features::Around,
        out: &mut Vec<Move>,
    ) {
        if t.c2_builder | t.c2_pig == 0 {
            return;
        }
        let own = s.own_segments_at(around, s.tile, at.rot, t.player);
        let mut bits = own & t.c2_builder;
        if bits != 0 {
            // Not on a road or city the tile completes: the builder would return at once.
            bits &= !s.completed_segments_at(around, s.tile, at.rot, bits);
        }
        while bits != 0 {
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            out.push(at.with(Action::Builder(i)));
        }
        let mut bits = own & t.c2_pig;
        while bits != 0 {
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            out.push(at.with(Action::Pig(i)));
        }
    }

    fn check_action(
        s: &State,
        at: Placement,
        action: Action,
        p: usize,
    ) -> Option<Result<(), Illegal>> {
        match action {
            Action::MeepleBuilder(l)
            | Action::MeeplePig(l)
            | Action::Builder(l)
            | Action::Pig(l) => Some(check_action(s, at, action, l, p)),
            _ => None,
        }
    }

    fn play_decision(s: &mut State, m: &Move) -> bool {
        if s.phase != Phase::Farmer {
            return false;
        }
        resolve_farmer(s, *m == Move::ReturnFarmer);
        if s.expansions.traders_builders.queue_len == 0 {
            s.after_scoring();
        }
        true
    }

    #[inline]
    fn tile_laid(s: &mut State, pi: usize) {
        check_trigger(s, pi);
    }

    fn apply_action(s: &mut State, pi: usize, action: Action) -> bool {
        let p = s.current;
        match action {
            Action::MeepleBuilder(l) => {
                s.put_figure(pi, l, crate::engine::features::Role::Meeple, p);
                place_builder(s, pi, l);
            }
            Action::MeeplePig(l) => {
                s.put_figure(pi, l, crate::engine::features::Role::Meeple, p);
                place_pig(s, pi, l);
            }
            Action::Builder(l) => place_builder(s, pi, l),
            Action::Pig(l) => place_pig(s, pi, l),
            _ => return false,
        }
        true
    }

    #[inline]
    fn after_feature_scored(s: &mut State, root: u16, kind: SegmentKind) {
        if kind == SegmentKind::City && city_completed(s, root) {
            s.expansions.traders_builders.arms_completed = true;
        }
    }

    /// TB10: pigs score once all the tile's features have, if a city with arms was among them.
    #[inline]
    fn completions_scored(s: &mut State, _: usize) {
        if std::mem::take(&mut s.expansions.traders_builders.arms_completed) {
            score_pigs(s);
        }
    }

    #[inline]
    fn another_part(s: &mut State) -> bool {
        double_turn(s)
    }

    #[inline]
    fn end_of_turn(s: &mut State) {
        s.expansions.traders_builders.second_part = false;
    }

    #[inline]
    fn final_scoring(s: &mut State) {
        final_goods(s);
    }

    /// TB12: a C2 pig in a field its owner wins adds 1 per city.
    #[inline]
    fn feature_scored(s: &mut State, g: u16, kind: SegmentKind, winners: u8, cities: u16) {
        if kind == SegmentKind::Field {
            field_bonus(s, g, winners, cities);
        }
    }

    #[inline]
    fn figure_returned(s: &mut State, g: u16, _: crate::engine::features::Role, owner: u8) {
        detach(s, g, owner);
    }

    #[inline]
    fn figures_returned(s: &mut State, root: u16) {
        feature_scored(s, root);
    }

    /// Owed farmer choices keep the farmers (TB10); the turn's scoring then goes on.
    fn cut_short(s: &mut State) -> bool {
        if s.phase != Phase::Farmer {
            return false;
        }
        s.expansions.traders_builders.queue_len = 0;
        s.after_scoring();
        true
    }

    /// Each player takes a builder and a pig, unless a study switched them off.
    fn set_up(s: &mut State) {
        if s.edition().is_none() {
            return;
        }
        let players = s.players as usize;
        if s.rules.builder {
            s.expansions.traders_builders.builders[..players].fill(1);
        }
        if s.rules.pig {
            s.expansions.traders_builders.pigs[..players].fill(1);
        }
    }

    /// The builders and pigs on the board and in supply, the goods, the builder's second turn
    /// part.
    const ROLES: &'static [Slot] = &[R_BUILDER, R_PIG];
    const SUPPLY: &'static [Slot] = &[S_BUILDERS, S_PIGS, S_GOODS[0], S_GOODS[1], S_GOODS[2]];
    const MISC: &'static [Slot] = &[M_SECOND_PART, M_BUILDER_TRIGGERED];

    const ACTIONS: &'static [ActionSlots] = &[
        ActionSlots::new("meeple+builder", 2, "meeple+builder on segment #"),
        ActionSlots::new("meeple+pig", 3, "meeple+pig on segment #"),
        ActionSlots::new("builder", 4, "builder on segment #"),
        ActionSlots::new("pig", 5, "pig on segment #"),
    ];

    fn action_slots(rules: Rules, k: usize, cat: &Catalogue, tiles: &[u16]) -> usize {
        let g = &FIGURE_GROUPS[k];
        let component = if g.builder { rules.builder } else { rules.pig };
        if rules.traders_builders == Some(g.edition) && component {
            layout::most_segments(cat, tiles, g.mask)
        } else {
            0
        }
    }

    fn action_slot(s: &State, _at: Placement, action: Action) -> Option<(usize, usize)> {
        let (k, l) = match action {
            Action::MeepleBuilder(l) => (0, l),
            Action::MeeplePig(l) => (1, l),
            Action::Builder(l) => (2, l),
            Action::Pig(l) => (3, l),
            _ => return None,
        };
        let mask = (FIGURE_GROUPS[k].mask)(s.cat.tile(s.tile));
        Some((k, layout::segment_slot(mask, l)?))
    }

    fn slot_action(s: &State, _x: i16, _y: i16, k: usize, i: usize) -> Option<Action> {
        let g = &FIGURE_GROUPS[k];
        Some((g.action)(layout::slot_segment(
            (g.mask)(s.cat.tile(s.tile)),
            i,
        )?))
    }

    /// A pig owner's choice: keep the farmer, or return it.
    const DECISIONS: &'static [Part] = &[
        Part::new("keep-farmer", 0, Len::Fixed(1)),
        Part::new("return-farmer", 1, Len::Fixed(1)),
    ];

    fn decision_slot(_s: &State, m: &Move) -> Option<(usize, usize)> {
        match m {
            Move::KeepFarmer => Some((0, 0)),
            Move::ReturnFarmer => Some((1, 0)),
            _ => None,
        }
    }

    fn slot_decision(_s: &State, k: usize, _i: usize) -> Option<Move> {
        Some(if k == 0 {
            Move::KeepFarmer
        } else {
            Move::ReturnFarmer
        })
    }

    const WIDE_BOARD: bool = true;

    fn observe<O: Observe>(s: &State, o: &mut O) {
        let tb = &s.expansions.traders_builders;
        for q in 0..s.players as usize {
            for (role, seg) in [(R_BUILDER, tb.builder_at[q]), (R_PIG, tb.pig_at[q])] {
                if seg == NONE16 {
                    continue;
                }
                if let Some(c) = o.figure(s, s.segs[seg as usize].placed as usize, q, role) {
                    *c = 1;
                }
            }
            *o.supply(q, S_BUILDERS) = tb.builders[q] as f32;
            *o.supply(q, S_PIGS) = tb.pigs[q] as f32;
            for (g, &entry) in S_GOODS.iter().enumerate() {
                *o.supply(q, entry) = tb.goods[q][g] as f32;
            }
        }
        *o.misc(M_SECOND_PART) = f32::from(u8::from(tb.second_part));
        *o.misc(M_BUILDER_TRIGGERED) = f32::from(u8::from(tb.triggered));
    }
}
