//! Move generation and the legality check of one decision: where the drawn tile fits (B4-B7),
//! the meeple (B8, B9), and every expansion's actions through the steps of `expansion`.
//! Nothing here names an expansion.

use crate::engine::moves::{meeple_may_stand_on, Action, Illegal, Move, Placement};
use crate::engine::state::{Phase, State};
use crate::engine::tiles::{SegmentKind, TileType};
use crate::expansions::{self, Turns};

/// High bit of each of the first `n` bytes: the rotations a packed fit test may report.
#[inline]
fn rotation_bytes(n: u8) -> u32 {
    0x8080_8080u32 >> (8 * (4 - n as u32))
}

impl State {
    /// Is there a legal position and rotation for tile `t` (B6, B7)?
    pub fn has_placement(&self, t: u16) -> bool {
        let tt = self.cat.tile(t);
        let rot_bits = rotation_bytes(tt.n_rot);
        self.board.frontier.iter().any(|o| {
            let mut fit = o.fits4(tt.rot_sigs32) & rot_bits;
            while fit != 0 {
                let k = (fit.trailing_zeros() >> 3) as usize;
                fit &= fit - 1;
                if expansions::placement_allowed(self, tt, o.x, o.y, t, tt.rot_list[k]) {
                    return true;
                }
            }
            false
        })
    }

    /// Is placing tile `t` at (x, y) with rotation `r` legal (B4, B5, R4, R5)?
    pub fn placement_legal(&self, x: i16, y: i16, t: u16, r: u8) -> bool {
        match self.board.open_at(x, y) {
            Some(o) => {
                let tt = self.cat.tile(t);
                o.fits(tt.rot[r as usize].sig)
                    && expansions::placement_allowed(self, tt, x, y, t, r)
            }
            None => false,
        }
    }

    /// The segments of tile `tt` where a figure of player `p` may stand this turn (B8; fields
    /// only with `farmers`), before the free test.
    #[inline]
    pub(crate) fn figure_mask(&self, tt: &TileType, p: usize) -> u16 {
        let mask = if self.rules.farmers {
            tt.meeple_mask
        } else {
            tt.meeple_mask & !tt.halves_mask
        };
        mask & !expansions::forbidden_segments(self, tt, p)
    }

    /// All legal moves for the waiting decision, appended to `out` (cleared first). No
    /// allocation when `out` has capacity.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if expansions::decision_moves(self, out) || self.phase != Phase::Place {
            return;
        }
        let t = self.tile;
        let tt = self.cat.tile(t);
        let p = self.current as usize;
        let figures = self.figure_mask(tt, p);
        let meeple_mask = if self.meeples[p] > 0 { figures } else { 0 };
        let mut turns = Turns::new(self, tt, p, figures);
        let segment_mask = meeple_mask | turns.segment_mask();
        let segments = segment_mask != 0 || turns.needs_segments();
        let rot_bits = rotation_bytes(tt.n_rot);
        for o in &self.board.frontier {
            let mut fit = o.fits4(tt.rot_sigs32) & rot_bits;
            if fit == 0 {
                continue;
            }
            let mut around = None;
            while fit != 0 {
                let k = (fit.trailing_zeros() >> 3) as usize;
                fit &= fit - 1;
                let r = tt.rot_list[k];
                if !expansions::placement_allowed(self, tt, o.x, o.y, t, r) {
                    continue;
                }
                let at = Placement {
                    x: o.x,
                    y: o.y,
                    rot: r,
                };
                out.push(at.with(Action::Pass));
                if segments {
                    let around = around.get_or_insert_with(|| self.around_open(o));
                    let free = self.free_segments_at(around, t, r);
                    let mut bits = free & segment_mask;
                    while bits != 0 {
                        let i = bits.trailing_zeros() as u8;
                        bits &= bits - 1;
                        if meeple_mask & (1 << i) != 0 {
                            out.push(at.with(Action::Meeple(i)));
                        }
                        turns.figures_on_segment(self, at, around, i, out);
                    }
                    turns.figures_after(self, at, free, around, out);
                }
                turns.placement_actions(self, at, out);
            }
        }
    }

    /// Check a move without playing it; the error names the rule it breaks and says why.
    pub fn check(&self, m: &Move) -> Result<(), Illegal> {
        match self.phase {
            Phase::Draw => return Err(Illegal::new("B3", "no tile has been drawn yet")),
            Phase::Over => return Err(Illegal::new("B20", "the game is over")),
            _ => {}
        }
        if let Some(r) = expansions::check_decision(self, m) {
            return r;
        }
        let Move::Place { x, y, rot, action } = *m else {
            return Err(Illegal::new("B3", "no such decision is waiting"));
        };
        if self.phase != Phase::Place {
            return Err(Illegal::new("B3", "no tile is waiting to be placed"));
        }
        let t = self.tile;
        let tt = self.cat.tile(t);
        if rot > 3 {
            return Err(Illegal::new("B5", "rotation must be 0, 90, 180 or 270"));
        }
        if tt.canonical[rot as usize] != rot {
            return Err(Illegal::new(
                "B5",
                format!(
                    "tile {} turned {} is the same placement as turned {}: use that rotation",
                    tt.id,
                    rot as u16 * 90,
                    tt.canonical[rot as usize] as u16 * 90
                ),
            ));
        }
        let Some(o) = self.board.open_at(x, y) else {
            return Err(Illegal::new(
                "B4",
                if self.board.occupied(x, y) {
                    format!("{x},{y} already holds a tile")
                } else {
                    format!("{x},{y} touches no tile on an edge (B4)")
                },
            ));
        };
        if !o.fits(tt.rot[rot as usize].sig) {
            return Err(Illegal::new(
                "B5",
                format!(
                    "tile {} turned {} does not match its neighbours' edges at {x},{y} (B5)",
                    tt.id,
                    rot as u16 * 90,
                ),
            ));
        }
        expansions::check_placement(self, x, y, t, rot)?;
        let at = Placement { x, y, rot };
        let p = self.current as usize;
        match action {
            Action::Pass => Ok(()),
            Action::Meeple(l) => {
                let seg = self.drawn_segment(l, "B8")?;
                if self.meeples[p] == 0 {
                    return Err(Illegal::new("B8", "you have no meeple in supply"));
                }
                self.check_figure_on(p, seg.kind)?;
                if !meeple_may_stand_on(seg.kind) {
                    let rule = match seg.kind {
                        SegmentKind::Garden => "A1",
                        SegmentKind::River => "R6",
                        SegmentKind::BigTop => "BT1",
                        SegmentKind::Acrobat => "BT6",
                        _ => "B8",
                    };
                    let cite = if rule == "B8" { "" } else { rule };
                    return Err(Illegal::new(
                        rule,
                        format!(
                            "a meeple may not stand on a {} (B8{}{cite})",
                            seg.kind.name(),
                            if cite.is_empty() { "" } else { ", " }
                        ),
                    ));
                }
                self.check_free(at, l)
            }
            _ => expansions::check_action(self, at, action, p).unwrap_or_else(|| {
                Err(Illegal::new(
                    "T3",
                    format!("{action:?} is not an action of any expansion"),
                ))
            }),
        }
    }

    /// Segment `l` of the drawn tile, or why there is none (under `rule`, the rule of the
    /// figure that was to go there).
    pub(crate) fn drawn_segment(
        &self,
        l: u8,
        rule: &'static str,
    ) -> Result<&crate::engine::tiles::Segment, Illegal> {
        let tt = self.cat.tile(self.tile);
        tt.segments
            .get(l as usize)
            .ok_or_else(|| Illegal::new(rule, format!("tile {} has no segment {l}", tt.id)))
    }

    /// Why a figure (meeple or ringmaster) of player `p` may not go on a segment of `kind`
    /// as far as the rule options and expansions go (fields need farmers; FT2).
    pub(crate) fn check_figure_on(&self, p: usize, kind: SegmentKind) -> Result<(), Illegal> {
        expansions::check_figure(self, p, kind)?;
        if kind == SegmentKind::Field && !self.rules.farmers {
            return Err(Illegal::new(
                "B8",
                "farmers are not in play (farmers=off): no figure on a field",
            ));
        }
        Ok(())
    }

    /// B9: the feature of segment `l` of the placement `at` must hold no figure.
    pub(crate) fn check_free(&self, at: Placement, l: u8) -> Result<(), Illegal> {
        if self.free_segments(at.x, at.y, self.tile, at.rot) & (1 << l) == 0 {
            return Err(Illegal::new(
                "B9",
                format!(
                    "that {} already holds a figure (B9)",
                    self.cat.tile(self.tile).segments[l as usize].kind.name()
                ),
            ));
        }
        Ok(())
    }
}
