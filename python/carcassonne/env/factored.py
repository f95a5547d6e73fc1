"""Two-level actions: first where the tile goes and how it turns (the *placement*), then what
is placed with it (the *figure* slot), each with a small mask; a one-to-one mapping to the
flat numbering (docs/environments.md).

A flat tile-placement action ``(cell * 4 + rotation) * S + slot`` is placement
``cell * 4 + rotation`` with figure ``slot``; the k-th decision that places no tile
(``special + k``: keep or return a farmer, choose a tile of the hand) is placement
``cells * 4 + k`` with figure 0 (its only one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from carcassonne import _core


class FactoredActions:
    """The two-level numbering of an :class:`~carcassonne._core.EnvSpec`'s actions:
    ``placements`` first-level actions and ``figures`` (the slots, S) second-level ones."""

    def __init__(self, spec: _core.EnvSpec) -> None:
        self.figures = spec.slots
        self.special = spec.layout()["special"]
        self.tile_placements = self.special // self.figures
        self.placements = self.tile_placements + spec.action_size - self.special
        self.action_size = spec.action_size

    def split(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """Flat actions (any shape) as (placement, figure) arrays."""
        a = np.asarray(actions, np.int64)
        if ((a < 0) | (a >= self.action_size)).any():
            raise ValueError(f"actions must be from 0 to {self.action_size - 1}")
        tile = a < self.special
        placement = np.where(tile, a // self.figures, self.tile_placements + a - self.special)
        return placement, np.where(tile, a % self.figures, 0)

    def join(self, placement: Any, figure: Any) -> np.ndarray:
        """The flat actions of (placement, figure) pairs; ValueError for a pair that names
        none (a figure other than 0 with a decision that places no tile)."""
        p, f = np.asarray(placement, np.int64), np.asarray(figure, np.int64)
        if ((p < 0) | (p >= self.placements)).any():
            raise ValueError(f"placements must be from 0 to {self.placements - 1}")
        if ((f < 0) | (f >= self.figures)).any():
            raise ValueError(f"figures must be from 0 to {self.figures - 1}")
        tile = p < self.tile_placements
        if (~tile & (f != 0)).any():
            raise ValueError("a decision that places no tile has only figure 0")
        return np.where(tile, p * self.figures + f, self.special + p - self.tile_placements)

    def placement_mask(self, actions: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """(B, placements) int8 mask of the legal placements, from sparse legal lists
        (``VectorEnv.legal_lists()``)."""
        b = len(starts) - 1
        mask = np.zeros((b, self.placements), np.int8)
        rows = np.repeat(np.arange(b), np.diff(starts))
        mask[rows, self.split(actions)[0]] = 1
        return mask

    def figure_mask(self, actions: np.ndarray, starts: np.ndarray, placement: Any) -> np.ndarray:
        """(B, figures) int8 mask of the legal figures of each game's chosen placement
        (all 0 for a placement that is not legal)."""
        b = len(starts) - 1
        chosen = np.asarray(placement, np.int64)
        if chosen.shape != (b,):
            raise ValueError(f"placement must have shape ({b},), not {chosen.shape}")
        mask = np.zeros((b, self.figures), np.int8)
        rows = np.repeat(np.arange(b), np.diff(starts))
        p, f = self.split(actions)
        sel = p == chosen[rows]
        mask[rows[sel], f[sel]] = 1
        return mask
