//! The Abbot (A1-A5): one abbot per player, on a monastery or a garden; recall as the turn's
//! action, refused when the placed tile completes the abbot's spot.

use crate::game::State;
use crate::tiles::SegmentKind;

impl State {
    pub(crate) fn abbot_may_stand_on(&self, kind: SegmentKind) -> bool {
        self.rules.abbot
            && (kind == SegmentKind::Monastery
                || (kind == SegmentKind::Garden && self.rules.gardens))
    }

    /// The segments of a tile that take the abbot: its monastery and, with `gardens` on, its
    /// garden (A2).
    #[inline]
    pub(crate) fn abbot_mask(&self, tt: &crate::tiles::TileType) -> u16 {
        if self.rules.gardens || tt.garden == crate::tiles::NO_SEG {
            tt.abbot_mask
        } else {
            tt.abbot_mask & !(1 << tt.garden)
        }
    }

    /// May the abbot on placed tile `at` be recalled when the new tile goes to (x, y)? Not when
    /// that tile completes the abbot's monastery or garden (A4).
    pub(crate) fn recall_allowed(&self, at: usize, x: i16, y: i16) -> bool {
        let a = self.board.placed[at];
        let adjacent = (a.x - x).abs() <= 1 && (a.y - y).abs() <= 1;
        let around = self.board.neighbours8(a.x, a.y) + u8::from(adjacent);
        around < 8
    }

    /// Take the abbot back and score its monastery or garden as it stands (A4).
    pub(crate) fn recall_abbot(&mut self, p: u8) {
        let at = self.abbot_at[p as usize] as usize;
        let pl = self.board.placed[at];
        let tt = self.cat.tile(pl.tile);
        for local in [tt.monastery, tt.garden] {
            if local == crate::tiles::NO_SEG {
                continue;
            }
            let g = pl.seg_base + local as u16;
            let f = self.segs[g as usize].figure;
            if f != crate::features::NO_FIGURE
                && crate::features::unpack_figure(f) == (crate::features::Role::Abbot, p)
            {
                self.score_cloister(g);
                self.take_back(g);
                return;
            }
        }
    }
}
