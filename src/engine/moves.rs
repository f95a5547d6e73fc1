//! Moves, the errors that refuse them, and the moves' one canonical text form.
//!
//! `Move` is an enum: a tile placement with the action after it, or a decision that places
//! no tile (so it carries no position). Refusals are typed: `ParseError` (not a move),
//! `Illegal` (a move the rules refuse, with the id of the rule it breaks), `ChanceError` (a
//! draw or reveal that cannot happen); `PlayError` is any of them.
//!
//! `X,Y ROT [ACTION]`: the drawn tile goes to (X, Y) (x east, y north) turned ROT degrees
//! clockwise (0, 90, 180, 270); ACTION is `meeple LABEL [+builder|+pig]`, `abbot LABEL`,
//! `recall X,Y`, `builder LABEL` or `pig LABEL` (C2), `tollhouse X,Y`, `ringmaster LABEL`,
//! `acrobat X,Y` or `score-pyramid X,Y`. Decisions that place no tile: the C3.1 pig owner's
//! `keep-farmer` or `return-farmer`, and the Fortune Teller's `choose TILE`.
//! LABEL names a segment of the placed tile by kind and, where it has one, its first port in
//! board orientation: `city:N`, `road:E`, `field:NNE`, `monastery`, `garden`.

use crate::engine::geometry::{parse_edge, parse_half, EDGE_NAMES, HALF_NAMES};
use crate::engine::state::State;
use crate::engine::tiles::{SegmentKind, TileType};
use std::fmt;

/// What the player does after placing the drawn tile: at most one action (T3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Pass,
    /// A normal meeple on segment (local index) of the placed tile.
    Meeple(u8),
    /// The abbot on the monastery or garden (local index) of the placed tile.
    Abbot(u8),
    /// Take the abbot back from the tile at (x, y), scoring it (A4).
    Recall(i16, i16),
    /// C3.1: a thief or knight with the builder attached (TB4).
    MeepleBuilder(u8),
    /// C3.1: a farmer with the pig attached (TB9).
    MeeplePig(u8),
    /// C2: the builder on a road or city already holding the player's meeple (TB8).
    Builder(u8),
    /// C2: the pig on a field already holding the player's farmer (TB12).
    Pig(u8),
    /// Toll Collectors: place or move the tollhouse to the crossroads at (x, y) (TC1).
    Tollhouse(i16, i16),
    /// Under the Big Top: the ringmaster on a segment of the placed tile (BT10).
    Ringmaster(u8),
    /// Under the Big Top: a meeple as an acrobat on the acrobat space at (x, y) (BT6).
    Acrobat(i16, i16),
    /// Under the Big Top: score the complete pyramid at (x, y) (BT8).
    ScorePyramid(i16, i16),
}

impl Action {
    /// The segment a figure goes on, if the action places one.
    pub fn segment(self) -> Option<u8> {
        match self {
            Action::Meeple(l)
            | Action::Abbot(l)
            | Action::MeepleBuilder(l)
            | Action::MeeplePig(l)
            | Action::Builder(l)
            | Action::Pig(l)
            | Action::Ringmaster(l) => Some(l),
            _ => None,
        }
    }

    /// The word naming the action's kind (`meeple+builder`, `recall`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Action::Pass => "pass",
            Action::Meeple(_) => "meeple",
            Action::Abbot(_) => "abbot",
            Action::Recall(..) => "recall",
            Action::MeepleBuilder(_) => "meeple+builder",
            Action::MeeplePig(_) => "meeple+pig",
            Action::Builder(_) => "builder",
            Action::Pig(_) => "pig",
            Action::Tollhouse(..) => "tollhouse",
            Action::Ringmaster(_) => "ringmaster",
            Action::Acrobat(..) => "acrobat",
            Action::ScorePyramid(..) => "score-pyramid",
        }
    }

    /// The board position the action names (recall, tollhouse, acrobat, pyramid), if any.
    pub fn target(self) -> Option<(i16, i16)> {
        match self {
            Action::Recall(x, y)
            | Action::Tollhouse(x, y)
            | Action::Acrobat(x, y)
            | Action::ScorePyramid(x, y) => Some((x, y)),
            _ => None,
        }
    }

    /// Text of the action after the placement (`meeple city:N +builder`), given a labeller.
    pub fn text(self, label: impl Fn(u8) -> String) -> String {
        match self {
            Action::Pass => String::new(),
            Action::Meeple(l) => format!(" meeple {}", label(l)),
            Action::Abbot(l) => format!(" abbot {}", label(l)),
            Action::Recall(x, y) => format!(" recall {x},{y}"),
            Action::MeepleBuilder(l) => format!(" meeple {} +builder", label(l)),
            Action::MeeplePig(l) => format!(" meeple {} +pig", label(l)),
            Action::Builder(l) => format!(" builder {}", label(l)),
            Action::Pig(l) => format!(" pig {}", label(l)),
            Action::Tollhouse(x, y) => format!(" tollhouse {x},{y}"),
            Action::Ringmaster(l) => format!(" ringmaster {}", label(l)),
            Action::Acrobat(x, y) => format!(" acrobat {x},{y}"),
            Action::ScorePyramid(x, y) => format!(" score-pyramid {x},{y}"),
        }
    }
}

/// Where the drawn tile goes: (x, y) turned `rot` quarter turns clockwise. Move generation
/// hands it to the expansions, which add their actions to it (`with`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub x: i16,
    pub y: i16,
    pub rot: u8,
}

impl Placement {
    /// The move placing the tile here and taking `action`.
    #[inline]
    pub fn with(self, action: Action) -> Move {
        Move::Place {
            x: self.x,
            y: self.y,
            rot: self.rot,
            action,
        }
    }
}

/// One decision: a tile placement with its action, or a decision that places no tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place the drawn tile at (x, y) turned `rot` quarter turns clockwise, then `action`.
    Place {
        x: i16,
        y: i16,
        rot: u8,
        action: Action,
    },
    /// Fortune Teller: take this tile from the hand to place it (FT3).
    Choose(u16),
    /// C3.1, after pig scoring: the pig's owner keeps the farmer on its field (TB10).
    KeepFarmer,
    /// C3.1, after pig scoring: the pig's owner takes the farmer back (TB10).
    ReturnFarmer,
}

impl Move {
    /// Where the tile goes, for a placement.
    #[inline]
    pub fn placement(self) -> Option<Placement> {
        match self {
            Move::Place { x, y, rot, .. } => Some(Placement { x, y, rot }),
            _ => None,
        }
    }

    /// The action after the placement (None for a decision that places no tile).
    #[inline]
    pub fn action(self) -> Option<Action> {
        match self {
            Move::Place { action, .. } => Some(action),
            _ => None,
        }
    }

    /// The word naming the move's kind: the action's for a placement, else `choose`,
    /// `keep-farmer` or `return-farmer`.
    pub fn name(self) -> &'static str {
        match self {
            Move::Place { action, .. } => action.name(),
            Move::Choose(_) => "choose",
            Move::KeepFarmer => "keep-farmer",
            Move::ReturnFarmer => "return-farmer",
        }
    }
}

/// Text that is not a move in the notation (docs/notation.md), or that names nothing on the
/// tile or in the decision waiting: says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

/// A move the rules do not allow now: the id of the rule it breaks (docs/rules.md maps each:
/// `B5`, `TB4`, `FT2`, ...) and a message saying why (it cites the id too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub rule: &'static str,
    pub message: String,
}

impl Illegal {
    pub fn new(rule: &'static str, message: impl Into<String>) -> Illegal {
        Illegal {
            rule,
            message: message.into(),
        }
    }
}

/// A chance step that cannot happen now (a tile not drawable, an animal token not left).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanceError(pub String);

/// Anything that refuses a step of the game; every variant leaves the game unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    Parse(ParseError),
    Illegal(Illegal),
    Chance(ChanceError),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for ChanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Parse(e) => e.fmt(f),
            PlayError::Illegal(e) => e.fmt(f),
            PlayError::Chance(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseError {}
impl std::error::Error for Illegal {}
impl std::error::Error for ChanceError {}
impl std::error::Error for PlayError {}

impl From<ParseError> for PlayError {
    fn from(e: ParseError) -> PlayError {
        PlayError::Parse(e)
    }
}

impl From<Illegal> for PlayError {
    fn from(e: Illegal) -> PlayError {
        PlayError::Illegal(e)
    }
}

impl From<ChanceError> for PlayError {
    fn from(e: ChanceError) -> PlayError {
        PlayError::Chance(e)
    }
}

/// Label of segment `local` of `tt` when placed with rotation `rot`.
pub fn segment_label(tt: &TileType, rot: u8, local: u8) -> String {
    let seg = &tt.segments[local as usize];
    let ports = tt.rot[rot as usize].ports[local as usize];
    let kind = seg.kind.name();
    if ports == 0 {
        // Several port-less segments of one kind (inner fields) are numbered.
        let same: Vec<usize> = tt
            .segments
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == seg.kind && s.ports == 0)
            .map(|(i, _)| i)
            .collect();
        if same.len() > 1 {
            let k = same.iter().position(|&i| i == local as usize).unwrap_or(0);
            return format!("{kind}#{}", k + 1);
        }
        return kind.to_string();
    }
    let first = ports.trailing_zeros() as usize;
    let port = if seg.kind.uses_halves() {
        HALF_NAMES[first]
    } else {
        EDGE_NAMES[first]
    };
    format!("{kind}:{port}")
}

/// The segment of `tt` (placed with `rot`) that `label` names.
pub fn parse_label(tt: &TileType, rot: u8, label: &str) -> Option<u8> {
    let (kind, port) = match label.split_once(':') {
        Some((k, p)) => (k, Some(p)),
        None => (label, None),
    };
    let ro = &tt.rot[rot as usize];
    tt.segments
        .iter()
        .enumerate()
        .position(|(i, s)| {
            if s.kind.name() != kind.split('#').next().unwrap_or("") {
                return false;
            }
            match port {
                Some(p) => {
                    let bit = if s.kind.uses_halves() {
                        parse_half(p)
                    } else {
                        parse_edge(p)
                    };
                    bit.is_some_and(|b| ro.ports[i] & (1 << b) != 0)
                }
                None => segment_label(tt, rot, i as u8) == label,
            }
        })
        .map(|i| i as u8)
}

fn parse_xy(s: &str) -> Result<(i16, i16), ParseError> {
    let bad = || ParseError(format!("`{s}` is not a position like 2,-1"));
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

/// An action that places a figure on a segment, made from its label's segment.
type OnSegment = fn(u8) -> Action;

/// What follows an action's word in its text (the inverse of `Action::text`).
#[derive(Clone, Copy)]
enum ActionArg {
    /// A segment label of the placed tile.
    Label(OnSegment),
    /// A segment label, then what may be attached to the figure (`ATTACHMENTS`).
    LabelAttached(OnSegment),
    /// A board position, and what it names (for the error when it is missing).
    At(fn(i16, i16) -> Action, &'static str),
}

/// Every action after a placement by its word, in the order an error lists them; a new
/// action is one line here (and its text in `Action::text`).
const ACTIONS: &[(&str, ActionArg)] = &[
    ("meeple", ActionArg::LabelAttached(Action::Meeple)),
    ("abbot", ActionArg::Label(Action::Abbot)),
    (
        "recall",
        ActionArg::At(Action::Recall, "the abbot's position"),
    ),
    ("builder", ActionArg::Label(Action::Builder)),
    ("pig", ActionArg::Label(Action::Pig)),
    (
        "tollhouse",
        ActionArg::At(Action::Tollhouse, "the crossroads"),
    ),
    ("ringmaster", ActionArg::Label(Action::Ringmaster)),
    ("acrobat", ActionArg::At(Action::Acrobat, "the space's")),
    (
        "score-pyramid",
        ActionArg::At(Action::ScorePyramid, "the space's"),
    ),
];

/// What may be attached to a meeple (`meeple LABEL +builder`), C3.1.
const ATTACHMENTS: &[(&str, OnSegment)] = &[
    ("+builder", Action::MeepleBuilder),
    ("+pig", Action::MeeplePig),
];

/// `a, b or c`.
fn one_of<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let words: Vec<&str> = words.collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

fn parse_rotation(word: &str) -> Result<u8, ParseError> {
    match word {
        "0" => Ok(0),
        "90" => Ok(1),
        "180" => Ok(2),
        "270" => Ok(3),
        r => Err(ParseError(format!(
            "rotation `{r}` is not one of 0, 90, 180, 270"
        ))),
    }
}

/// The action after a placement, from the words after `X,Y ROT`; `label` reads a segment
/// label of the placed tile.
fn parse_action(
    words: &[&str],
    label: impl Fn(Option<&&str>) -> Result<u8, ParseError>,
) -> Result<Action, ParseError> {
    let Some(&word) = words.first() else {
        return Ok(Action::Pass);
    };
    let Some(&(_, arg)) = ACTIONS.iter().find(|(w, _)| *w == word) else {
        return Err(ParseError(format!(
            "unknown action `{word}` (expected {})",
            one_of(ACTIONS.iter().map(|(w, _)| *w))
        )));
    };
    match arg {
        ActionArg::LabelAttached(make) => match words.get(2) {
            None => Ok(make(label(words.get(1))?)),
            Some(a) => match ATTACHMENTS.iter().find(|(w, _)| w == a) {
                Some((_, attached)) => Ok(attached(label(words.get(1))?)),
                None => Err(ParseError(format!(
                    "`{a}` cannot be attached (expected {})",
                    one_of(ATTACHMENTS.iter().map(|(w, _)| *w))
                ))),
            },
        },
        ActionArg::Label(make) => Ok(make(label(words.get(1))?)),
        ActionArg::At(make, what) => {
            let at = words
                .get(1)
                .ok_or_else(|| ParseError(format!("`{word}` needs {what} X,Y")))?;
            let (x, y) = parse_xy(at)?;
            Ok(make(x, y))
        }
    }
}

impl State {
    /// Canonical text of a move for the tile currently drawn.
    pub fn move_text(&self, m: &Move) -> String {
        move_text(&self.cat, self.tile, m)
    }

    /// Parse a move's text for the tile currently drawn. Checks the form, not legality.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if let Some(m) = self.parse_decision(&words)? {
            return Ok(m);
        }
        if words.len() < 2 {
            return Err(ParseError(format!(
                "`{text}` is not a move: expected `X,Y ROT [meeple|abbot LABEL | recall X,Y]`"
            )));
        }
        let (x, y) = parse_xy(words[0])?;
        let rot = parse_rotation(words[1])?;
        if self.phase != crate::engine::state::Phase::Place {
            return Err(ParseError("no tile is waiting to be placed".into()));
        }
        let tt = self.cat.tile(self.tile);
        // A symmetric tile turned to an equivalent rotation is the same placement: name it by
        // its canonical rotation (labels name ports on the board, so they read the same).
        let rot = tt.canonical[rot as usize];
        let label = |w: Option<&&str>| -> Result<u8, ParseError> {
            let w = w.ok_or_else(|| ParseError("the figure needs a segment label".into()))?;
            parse_label(tt, rot, w).ok_or_else(|| {
                let labels: Vec<String> = (0..tt.segments.len())
                    .map(|i| segment_label(tt, rot, i as u8))
                    .collect();
                ParseError(format!(
                    "tile {} turned {} has no segment `{w}` (it has {})",
                    tt.id,
                    rot as u16 * 90,
                    labels.join(", ")
                ))
            })
        };
        let action = parse_action(&words[2..], label)?;
        let expected = match action {
            Action::Pass => 2,
            Action::MeepleBuilder(_) | Action::MeeplePig(_) => 5,
            _ => 4,
        };
        if words.len() != expected {
            return Err(ParseError(format!(
                "unexpected text after the move: `{text}`"
            )));
        }
        Ok(Move::Place { x, y, rot, action })
    }

    /// A decision that places no tile (`choose TILE`, `keep-farmer`, `return-farmer`), if
    /// `words` are one.
    fn parse_decision(&self, words: &[&str]) -> Result<Option<Move>, ParseError> {
        if let ["choose", id] = words[..] {
            let t = self
                .cat
                .id(id)
                .ok_or_else(|| ParseError(format!("unknown tile id `{id}`")))?;
            return Ok(Some(Move::Choose(t)));
        }
        if let [w @ ("keep-farmer" | "return-farmer")] = words[..] {
            if self.farmer_decider().is_none() {
                return Err(ParseError("no farmer choice is waiting".into()));
            }
            return Ok(Some(if w == "keep-farmer" {
                Move::KeepFarmer
            } else {
                Move::ReturnFarmer
            }));
        }
        Ok(None)
    }
}

/// Canonical text of move `m` placing `tile` (or answering the farmer choice).
pub fn move_text(cat: &crate::engine::tiles::Catalogue, tile: u16, m: &Move) -> String {
    match *m {
        Move::Place { x, y, rot, action } => {
            let tt = cat.tile(tile);
            format!("{x},{y} {}", rot as u16 * 90) + &action.text(|l| segment_label(tt, rot, l))
        }
        Move::Choose(t) => format!("choose {}", cat.tile(t).id),
        Move::KeepFarmer => "keep-farmer".into(),
        Move::ReturnFarmer => "return-farmer".into(),
    }
}

/// Segment kinds a normal meeple may take (B8).
pub fn meeple_may_stand_on(kind: SegmentKind) -> bool {
    matches!(
        kind,
        SegmentKind::City
            | SegmentKind::Road
            | SegmentKind::Field
            | SegmentKind::Monastery
            | SegmentKind::Tent
    )
}
