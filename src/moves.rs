//! Moves and their one canonical text form.
//!
//! `X,Y ROT [ACTION]`: the drawn tile goes to (X, Y) (x east, y north) turned ROT degrees
//! clockwise (0, 90, 180, 270); ACTION is `meeple LABEL`, `abbot LABEL` or `recall X,Y`.
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
        let mut s = format!("{},{} {}", m.x, m.y, m.rot as u16 * 90);
        let tt = self.cat.tile(self.tile);
        match m.action {
            Action::Pass => {}
            Action::Meeple(l) => {
                s += " meeple ";
                s += &segment_label(tt, m.rot, l);
            }
            Action::Abbot(l) => {
                s += " abbot ";
                s += &segment_label(tt, m.rot, l);
            }
            Action::Recall(x, y) => s += &format!(" recall {x},{y}"),
        }
        s
    }

    /// Parse a move's text for the tile currently drawn. Checks the form, not legality.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let words: Vec<&str> = text.split_whitespace().collect();
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
        let action = match words.get(2).copied() {
            None => Action::Pass,
            Some("meeple") => Action::Meeple(label(words.get(3))?),
            Some("abbot") => Action::Abbot(label(words.get(3))?),
            Some("recall") => {
                let w = words
                    .get(3)
                    .ok_or_else(|| MoveError("`recall` needs the abbot's position X,Y".into()))?;
                let (ax, ay) = parse_xy(w)?;
                Action::Recall(ax, ay)
            }
            Some(a) => {
                return Err(MoveError(format!(
                    "unknown action `{a}` (expected meeple, abbot or recall)"
                )))
            }
        };
        let expected = match action {
            Action::Pass => 2,
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

/// Segment kinds a normal meeple may take (B8).
pub fn meeple_may_stand_on(kind: SegmentKind) -> bool {
    matches!(
        kind,
        SegmentKind::City | SegmentKind::Road | SegmentKind::Field | SegmentKind::Monastery
    )
}
