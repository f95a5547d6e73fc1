//! What scored, step by step, for people following a game (Python's `Game.scored`): points
//! given, figures returned, and the feature being scored. Off unless a caller listens on its
//! thread (`Listen`): playouts and batches pay one relaxed load of a global per award.

use crate::engine::features::Role;
use crate::engine::scoring::Source;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicUsize, Ordering};

/// No feature is being scored (an expansion's points: tolls, circus, tents...).
pub const NO_FEATURE: u16 = u16::MAX;

/// One thing that happened while scoring; `feature` is the segment (root) of the road, city,
/// field, monastery or garden being scored then, or `NO_FEATURE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreEvent {
    Points {
        player: u8,
        source: Source,
        points: u16,
        feature: u16,
    },
    Returned {
        segment: u16,
        role: Role,
        owner: u8,
        feature: u16,
    },
}

/// Threads listening now, anywhere: the fast test that keeps the log off the hot path.
static LISTENERS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static LOG: RefCell<Option<Vec<ScoreEvent>>> = const { RefCell::new(None) };
    static FEATURE: Cell<u16> = const { Cell::new(NO_FEATURE) };
}

/// Listening on this thread while alive: every award and returned figure is logged.
pub struct Listen(());

impl Listen {
    #[allow(clippy::new_without_default)]
    pub fn new() -> Listen {
        LISTENERS.fetch_add(1, Ordering::Relaxed);
        LOG.with(|l| *l.borrow_mut() = Some(Vec::new()));
        FEATURE.with(|f| f.set(NO_FEATURE));
        Listen(())
    }

    /// The events logged so far (the log starts again empty).
    pub fn take(&self) -> Vec<ScoreEvent> {
        LOG.with(|l| {
            l.borrow_mut()
                .as_mut()
                .map(std::mem::take)
                .unwrap_or_default()
        })
    }
}

impl Drop for Listen {
    fn drop(&mut self) {
        LOG.with(|l| *l.borrow_mut() = None);
        LISTENERS.fetch_sub(1, Ordering::Relaxed);
    }
}

#[inline]
fn on() -> bool {
    LISTENERS.load(Ordering::Relaxed) != 0
}

#[cold]
fn record(e: impl FnOnce(u16) -> ScoreEvent) {
    let feature = FEATURE.with(Cell::get);
    LOG.with(|l| {
        if let Some(v) = l.borrow_mut().as_mut() {
            v.push(e(feature));
        }
    });
}

#[inline]
pub(crate) fn points(player: u8, source: Source, points: u16) {
    if on() {
        record(|feature| ScoreEvent::Points {
            player,
            source,
            points,
            feature,
        });
    }
}

#[inline]
pub(crate) fn returned(segment: u16, role: Role, owner: u8) {
    if on() {
        record(|feature| ScoreEvent::Returned {
            segment,
            role,
            owner,
            feature,
        });
    }
}

/// Feature `root` is being scored until `feature_done(the value returned)`.
#[inline]
pub(crate) fn feature(root: u16) -> u16 {
    if on() {
        FEATURE.with(|f| f.replace(root))
    } else {
        NO_FEATURE
    }
}

#[inline]
pub(crate) fn feature_done(previous: u16) {
    if on() {
        FEATURE.with(|f| f.set(previous));
    }
}
