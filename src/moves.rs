//! Moves and their one canonical text form.
//!
//! `X,Y ROT [ACTION]`: the drawn tile goes to (X, Y) (x east, y north) turned ROT degrees
//! clockwise (0, 90, 180, 270); ACTION is `meeple LABEL [+builder|+pig]`, `abbot LABEL`,
//! `recall X,Y`, `builder LABEL` or `pig LABEL` (C2), `tollhouse X,Y`, `ringmaster LABEL`,
//! `acrobat X,Y` or `score-pyramid X,Y`. Decisions that place no tile: the C3.1 pig owner's
//! `keep-farmer` or `return-farmer`, and the Fortune Teller's `choose TILE`.
//! LABEL names a segment of the placed tile by kind and, where it has one, its first port in
//! board orientation: `city:N`, `road:E`, `field:NNE`, `monastery`, `garden`.

use crate::game::State;
use crate::geometry::{parse_edge, parse_half, EDGE_NAMES, HALF_NAMES};
use crate::tiles::{SegmentKind, TileType};
use std::fmt;

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
    /// C3.1, after pig scoring: the pig's owner keeps the farmer or takes it back (TB10).
    KeepFarmer,
    ReturnFarmer,
    /// Toll Collectors: place or move the tollhouse to the crossroads at (x, y) (TC1).
    Tollhouse(i16, i16),
    /// Fortune Teller: take this tile from the hand to place it (FT3).
    Choose(u16),
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

    /// Text of the action after the placement (`meeple city:N +builder`), given a labeller.
    pub fn text(self, label: impl Fn(u8) -> String) -> String {
        match self {
            Action::Pass | Action::KeepFarmer | Action::ReturnFarmer => String::new(),
            Action::Meeple(l) => format!(" meeple {}", label(l)),
            Action::Abbot(l) => format!(" abbot {}", label(l)),
            Action::Recall(x, y) => format!(" recall {x},{y}"),
            Action::MeepleBuilder(l) => format!(" meeple {} +builder", label(l)),
            Action::MeeplePig(l) => format!(" meeple {} +pig", label(l)),
            Action::Builder(l) => format!(" builder {}", label(l)),
            Action::Pig(l) => format!(" pig {}", label(l)),
            Action::Tollhouse(x, y) => format!(" tollhouse {x},{y}"),
            Action::Choose(_) => String::new(),
            Action::Ringmaster(l) => format!(" ringmaster {}", label(l)),
            Action::Acrobat(x, y) => format!(" acrobat {x},{y}"),
            Action::ScorePyramid(x, y) => format!(" score-pyramid {x},{y}"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub x: i16,
    pub y: i16,
    pub rot: u8,
    pub action: Action,
}

/// A move that cannot be played, or text that is not a move: says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError(pub String);

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MoveError {}

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

fn parse_xy(s: &str) -> Result<(i16, i16), MoveError> {
    let bad = || MoveError(format!("`{s}` is not a position like 2,-1"));
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

impl State {
    /// Canonical text of a move for the tile currently drawn.
    pub fn move_text(&self, m: &Move) -> String {
        move_text(&self.cat, self.tile, m)
    }

    /// Parse a move's text for the tile currently drawn. Checks the form, not legality.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if let ["choose", id] = words[..] {
            let t = self
                .cat
                .id(id)
                .ok_or_else(|| MoveError(format!("unknown tile id `{id}`")))?;
            return Ok(Move {
                x: 0,
                y: 0,
                rot: 0,
                action: Action::Choose(t),
            });
        }
        if let [w] = words[..] {
            if w == "keep-farmer" || w == "return-farmer" {
                let Some((_, s)) = self.farmer_decider() else {
                    return Err(MoveError("no farmer choice is waiting".into()));
                };
                let pl = &self.board.placed[self.segs[s as usize].placed as usize];
                let action = if w == "keep-farmer" {
                    Action::KeepFarmer
                } else {
                    Action::ReturnFarmer
                };
                return Ok(Move {
                    x: pl.x,
                    y: pl.y,
                    rot: 0,
                    action,
                });
            }
        }
        if words.len() < 2 {
            return Err(MoveError(format!(
                "`{text}` is not a move: expected `X,Y ROT [meeple|abbot LABEL | recall X,Y]`"
            )));
        }
        let (x, y) = parse_xy(words[0])?;
        let rot = match words[1] {
            "0" => 0,
            "90" => 1,
            "180" => 2,
            "270" => 3,
            r => {
                return Err(MoveError(format!(
                    "rotation `{r}` is not one of 0, 90, 180, 270"
                )))
            }
        };
        if self.phase != crate::game::Phase::Place {
            return Err(MoveError("no tile is waiting to be placed".into()));
        }
        let tt = self.cat.tile(self.tile);
        // A symmetric tile turned to an equivalent rotation is the same placement: name it by
        // its canonical rotation (labels name ports on the board, so they read the same).
        let rot = tt.canonical[rot as usize];
        let label = |w: Option<&&str>| -> Result<u8, MoveError> {
            let w = w.ok_or_else(|| MoveError("the figure needs a segment label".into()))?;
            parse_label(tt, rot, w).ok_or_else(|| {
                let labels: Vec<String> = (0..tt.segments.len())
                    .map(|i| segment_label(tt, rot, i as u8))
                    .collect();
                MoveError(format!(
                    "tile {} turned {} has no segment `{w}` (it has {})",
                    tt.id,
                    rot as u16 * 90,
                    labels.join(", ")
                ))
            })
        };
        let attach = words.get(4).copied();
        let action = match words.get(2).copied() {
            None => Action::Pass,
            Some("meeple") => match attach {
                None => Action::Meeple(label(words.get(3))?),
                Some("+builder") => Action::MeepleBuilder(label(words.get(3))?),
                Some("+pig") => Action::MeeplePig(label(words.get(3))?),
                Some(a) => {
                    return Err(MoveError(format!(
                        "`{a}` cannot be attached (expected +builder or +pig)"
                    )))
                }
            },
            Some("abbot") => Action::Abbot(label(words.get(3))?),
            Some("builder") => Action::Builder(label(words.get(3))?),
            Some("ringmaster") => Action::Ringmaster(label(words.get(3))?),
            Some(w @ ("acrobat" | "score-pyramid")) => {
                let p = words
                    .get(3)
                    .ok_or_else(|| MoveError(format!("`{w}` needs the space's X,Y")))?;
                let (ax, ay) = parse_xy(p)?;
                if w == "acrobat" {
                    Action::Acrobat(ax, ay)
                } else {
                    Action::ScorePyramid(ax, ay)
                }
            }
            Some("tollhouse") => {
                let w = words
                    .get(3)
                    .ok_or_else(|| MoveError("`tollhouse` needs the crossroads X,Y".into()))?;
                let (tx, ty) = parse_xy(w)?;
                Action::Tollhouse(tx, ty)
            }
            Some("pig") => Action::Pig(label(words.get(3))?),
            Some("recall") => {
                let w = words
                    .get(3)
                    .ok_or_else(|| MoveError("`recall` needs the abbot's position X,Y".into()))?;
                let (ax, ay) = parse_xy(w)?;
                Action::Recall(ax, ay)
            }
            Some(a) => {
                return Err(MoveError(format!(
                "unknown action `{a}` (expected meeple, abbot, recall, builder, pig, tollhouse, ringmaster, acrobat or score-pyramid)"
            )))
            }
        };
        let expected = match action {
            Action::Pass => 2,
            Action::MeepleBuilder(_) | Action::MeeplePig(_) => 5,
            _ => 4,
        };
        if words.len() != expected {
            return Err(MoveError(format!(
                "unexpected text after the move: `{text}`"
            )));
        }
        Ok(Move { x, y, rot, action })
    }
}

/// Canonical text of move `m` placing `tile` (or answering the farmer choice).
pub fn move_text(cat: &crate::tiles::Catalogue, tile: u16, m: &Move) -> String {
    match m.action {
        Action::KeepFarmer => return "keep-farmer".into(),
        Action::ReturnFarmer => return "return-farmer".into(),
        Action::Choose(t) => return format!("choose {}", cat.tile(t).id),
        _ => {}
    }
    let tt = cat.tile(tile);
    format!("{},{} {}", m.x, m.y, m.rot as u16 * 90)
        + &m.action.text(|l| segment_label(tt, m.rot, l))
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
