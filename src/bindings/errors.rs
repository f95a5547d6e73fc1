//! Exception classes of `carcassonne._core` and how engine errors become them: every error
//! quotes what it refuses, cut short when long.

use crate::engine::moves::{ChanceError, Illegal, ParseError};
use crate::excerpt::{escape, excerpt, LIMIT as QUOTE_LIMIT};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    _core,
    PlayError,
    PyValueError,
    "A step the game refuses (a move or a draw); the game is unchanged."
);
create_exception!(
    _core,
    IllegalMoveError,
    PlayError,
    "A move that the rules do not allow now; the game is unchanged. `rule` is the id of the rule it breaks (docs/rules.md), or None."
);
create_exception!(
    _core,
    InvalidMoveError,
    PlayError,
    "Text that is not a move in the notation."
);
create_exception!(
    _core,
    DrawError,
    PlayError,
    "A tile that cannot be drawn now; the game is unchanged."
);

// The engine's typed errors as the Python exceptions: text that is not a move, a move the
// rules refuse (with its rule id as `.rule`), a chance step that cannot happen.
impl From<ParseError> for PyErr {
    fn from(e: ParseError) -> PyErr {
        InvalidMoveError::new_err(clip(e.0))
    }
}

impl From<Illegal> for PyErr {
    fn from(e: Illegal) -> PyErr {
        let err = IllegalMoveError::new_err(clip(e.message));
        Python::attach(|py| err.value(py).setattr("rule", e.rule))
            .map_or_else(|set_failed| set_failed, |_| err)
    }
}

impl From<ChanceError> for PyErr {
    fn from(e: ChanceError) -> PyErr {
        DrawError::new_err(e.0)
    }
}

impl From<crate::engine::moves::PlayError> for PyErr {
    fn from(e: crate::engine::moves::PlayError) -> PyErr {
        use crate::engine::moves::PlayError as E;
        match e {
            E::Parse(e) => e.into(),
            E::Illegal(e) => e.into(),
            E::Chance(e) => e.into(),
        }
    }
}
create_exception!(
    _core,
    CatalogueError,
    PyValueError,
    "A tile catalogue that fails validation."
);

/// A move made for another tile than the one drawn (B3: the drawn tile is the one placed).
pub(crate) fn other_tile() -> Illegal {
    Illegal::new("B3", "the move is for another tile than the one drawn")
}

/// `msg` with every `quoted` span as `excerpt` quotes it (control characters escaped, a span
/// longer than QUOTE_LIMIT cut short): an error quotes what it refuses, not a whole file that
/// happened to be given.
pub(crate) fn clip(msg: impl Into<String>) -> String {
    let msg = msg.into();
    let parts: Vec<&str> = msg.split('`').collect();
    if parts.len() < 3 {
        return msg;
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| match i % 2 {
            1 if i + 1 < parts.len() => excerpt(part),
            1 => escape(part), // a span left open: escaped, never cut
            _ => part.to_string(),
        })
        .collect::<Vec<_>>()
        .join("`")
}

/// An engine's message as a `ValueError`, its quoted spans clipped.
pub(crate) fn value_error(msg: String) -> PyErr {
    PyValueError::new_err(clip(msg))
}

/// `repr(value)` cut to about QUOTE_LIMIT characters, as `carcassonne.errors.quote` does.
pub(crate) fn quote(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map_or_else(|_| "<unprintable>".to_string(), |r| r.to_string());
    let n = text.chars().count();
    if n <= QUOTE_LIMIT {
        return text;
    }
    let head: String = text.chars().take(QUOTE_LIMIT - 15).collect();
    let digits = n.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{head}... ({grouped} chars)")
}
