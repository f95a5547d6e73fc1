"""What a study plays: its variants, skill levels and player counts (its cells), its seat
orders and tie rule; and the texts that name them (skill levels, ``--until``, ``--grid``).

A study is a grid of *cells*, one per (rule variant, skill level, player count). Every cell
plays the same deals (deal d uses ``game_seed(master, d)`` whatever the cell: common random
numbers), and with ``rotate_seats`` each deal is played once per seat order, so that a mixed
table of players (``greedy,random``) has every player in every seat on the same tiles.

A skill level is a policy as every command writes it: one native policy for every seat
(``greedy``) or one per seat separated by commas (``greedy,random``); several levels are
several ``--skill`` options (a list in Python).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from carcassonne.errors import quote
from carcassonne.policies import check_policy, seat_texts
from carcassonne.rules import Rules, option_value

TIES = ("split", "whole")
# The question a study answers (``--metric``): name -> what it measures, in words.
METRICS = {
    "advantage": "seat 1's advantage over the fair share",
    "win": "seat 1's win rate",
    "balance": "the balance between seats (best minus worst seat's win rate)",
    "score": "seat 1's score",
    "margin": "the winner's margin over the runner-up",
    "length": "the game's length in turns",
    "lead_changes": "the lead changes (replayed deals, --trajectories)",
    "points:SOURCE": "the points per player from SOURCE (e.g. points:fields)",
}
# Metrics measured in rates (printed in percentage points).
RATE_METRICS = ("advantage", "win", "balance")


# More cells than this is refused unless asked for (see check_size).
MAX_CELLS = 1000
# Deals in a study's first batch (later ones double, see play._next_batch).
FIRST_BATCH = 500
# The stopping rule (--until) waits for this many deals in the headline estimate, whatever
# the batches: a few deals can show no variance at all (every paired difference 0, one seat
# winning every deal), and a zero-width interval would stop the study on nothing.
MIN_STOP_DEALS = FIRST_BATCH


class StudyError(ValueError):
    """Bad study input (a skill, a grid, a table to read or append to): one clear line."""


# -- parsing -------------------------------------------------------------------------------


def parse_skills(
    levels: str | Sequence[str | Sequence[str]], players: int | None = None, option: str = ""
) -> list[str]:
    """Skill levels -> their canonical policy texts. ``levels``: one level (a text) or a list
    of levels; a level is one native policy for every seat (``"greedy"``) or one per seat
    separated by commas (``"greedy,random"``, or a list of seat texts), as ``--policy``
    writes it. ``option`` names the command-line option in the hint for the old form
    (levels separated by commas, seats joined by ``/``)."""
    items = [levels] if isinstance(levels, str) else list(levels)
    if not items:
        raise StudyError("give at least one skill level")
    out = [canonical_skill(item, players, option) for item in items]
    if len(set(out)) != len(out):
        raise StudyError(f"a skill level is given twice: {'; '.join(out)}")
    return out


def canonical_skill(
    level: str | Sequence[str], players: int | None = None, option: str = ""
) -> str:
    """One skill level (``"greedy,random"`` or ``["greedy", "random"]``) -> its canonical
    policy text, checked (with ``players``: one policy, or one per seat)."""
    if not isinstance(level, (str, list, tuple)):
        raise StudyError(f"a skill level must be a text, not {type(level).__name__}")
    try:
        text = check_policy(level)
    except ValueError as e:
        hint = old_form_hint(level, option) if isinstance(level, str) else None
        raise StudyError(hint or f"unknown skill level {quote(str(level))}: {e}") from None
    seats = seat_texts(text)
    if players is not None and len(seats) not in (1, players):
        several = f"; several levels: repeat {option}" if option else ""
        raise StudyError(
            f"skill level {quote(text)} names {len(seats)} seats for {players} players: give "
            f"one policy for every seat, or exactly one per seat separated by commas{several}"
        )
    return text


def old_form_hint(text: str, option: str = "") -> str | None:
    """The message for a level in the old form (``random,greedy/random``: levels separated by
    commas, seats joined by ``/``) saying what to write instead; None for other text."""
    if "/" not in text:
        return None
    levels = [lv.strip().replace("/", ",") for lv in text.split(",")]
    try:
        for lv in levels:
            check_policy(lv)
    except ValueError:
        return None
    if option:
        instead = " ".join(f"{option} {lv}" for lv in levels)
    else:
        instead = repr(levels[0]) if len(levels) == 1 else repr(levels)
    what = f"{option} {quote(text)}" if option else f"skill level {quote(text)}"
    if len(levels) == 1:
        return f"{what}: seats are separated by commas, not '/': write {instead}"
    several = f"repeated {option} options" if option else "a list"
    return (
        f"{what}: several skill levels are {several} and seats are separated by commas, "
        f"not '/': write {instead}"
    )


def seat_policies(skill: str, players: int) -> list[str]:
    """The policy of each seat (in the first seat order) of a skill level."""
    seats = seat_texts(skill)
    if len(seats) == 1:
        return seats * players
    if len(seats) != players:
        raise StudyError(f"skill level {skill!r} has {len(seats)} seats, not {players}")
    return seats


def rotations(skill: str, players: int, rotate: bool) -> int:
    """Seat orders a deal is played in: P when rotating a level whose seats differ; 1 when
    every seat plays the same policy (native policies are deterministic for the seed, so a
    rotated deal would replay the same game) or without rotation."""
    seats = seat_policies(skill, players)
    return players if rotate and len(set(seats)) > 1 else 1


def rotated(skill: str, players: int, r: int) -> list[str]:
    """Seat policies in seat order ``r``: player j (who sits at seat j in order 0) sits at
    seat (j + r) mod P."""
    seats = seat_policies(skill, players)
    return [seats[(s - r) % players] for s in range(players)]


def parse_until(text: str | None) -> float | None:
    """``'ci<0.5'`` -> 0.5: stop when the headline difference's 95% interval half-width is
    below 0.5 percentage points."""
    if text is None:
        return None
    t = text.replace(" ", "").lower()
    if not t.startswith("ci<"):
        raise StudyError(f"--until {quote(text)}: write ci<X (X: interval half-width in pp)")
    try:
        x = float(t[3:].rstrip("%").removesuffix("pp"))
    except ValueError:
        raise StudyError(f"--until {quote(text)}: {quote(t[3:])} is not a number") from None
    if not 0 < x < 100 or not math.isfinite(x):
        raise StudyError(f"--until {quote(text)}: the half-width must be between 0 and 100 pp")
    return x


def check_metric(text: str) -> str:
    """A metric's name (see :data:`METRICS`), checked."""
    from carcassonne import _core

    name = text.strip()
    if name in METRICS and name != "points:SOURCE":
        return name
    if name.startswith("points:") and name[7:] in _core.SOURCES:
        return name
    raise StudyError(
        f"unknown metric {quote(text)}: one of {', '.join(m for m in METRICS)} "
        f"(sources: {', '.join(_core.SOURCES)})"
    )


def check_grid(grid: Sequence[tuple[str, Sequence[Any]]]) -> int:
    """A grid of ``[(option, [value texts])...]`` checked: every option once, every value
    once (as read: ``on`` and ``yes`` are one value). Returns how many variants it makes."""
    names = [n for n, _ in grid]
    if len(set(names)) != len(names):
        raise StudyError(f"an option is gridded twice: {', '.join(names)}")
    count = 1
    for name, values in grid:
        seen: dict[Any, Any] = {}
        for v in values:
            try:
                read = option_value(name, v)
            except ValueError:  # not a whole number: the rules refuse it later
                read = v
            key = (type(read).__name__, str(read).lower() if isinstance(read, str) else read)
            if key in seen:
                same = (
                    f"{quote(str(v))} is given twice"
                    if seen[key] == v
                    else (f"{quote(str(seen[key]))} and {quote(str(v))} are the same value")
                )
                raise StudyError(f"--grid {name}: {same}: give each value once")
            seen[key] = v
        count *= len(values)
    return count


def grid_variants(
    base: Rules, grid: Sequence[tuple[str, Sequence[Any]]], parse: Callable[[list[str]], Rules]
) -> dict[str, Rules]:
    """The cartesian product of ``[(option, [value texts])...]`` on top of ``base`` options
    (given as ``-o`` texts to ``parse``): name -> Rules, named ``opt=val,opt=val``."""
    check_grid(grid)
    names = [n for n, _ in grid]
    out: dict[str, Rules] = {}
    for combo in itertools.product(*(vals for _, vals in grid)):
        items = [f"{n}={v}" for n, v in zip(names, combo, strict=True)]
        out[",".join(items)] = parse(items)
    return out


def check_size(cells: int, first_batch: int, allow: bool) -> None:
    """Refuse a study of more than :data:`MAX_CELLS` cells unless ``allow`` (``--many-cells``),
    before anything is built or played: such a study is most likely a slip (a grid that
    multiplies out), its answer would be a sentence per cell, and a Bonferroni correction
    over a thousand comparisons widens every interval 2.1x (z = 4.06 against 1.96), so each
    cell needs 4.3x the deals for the same precision."""
    if cells > MAX_CELLS and not allow:
        raise StudyError(
            f"the study has {cells:,} cells (variants x skill levels x player counts), more "
            f"than {MAX_CELLS:,}: at least {cells * first_batch:,} deals before its first "
            "answer; give --many-cells to play it anyway"
        )


@dataclass(frozen=True)
class CellKey:
    variant: str
    skill: str
    players: int


@dataclass
class Plan:
    """What a study plays: its cells and how."""

    variants: dict[str, Rules]
    skills: list[str]
    players: list[int]
    seed: int = 0
    rotate_seats: bool = True
    ties: str = "split"
    baseline: str | None = None
    metric: str = "advantage"
    luck: bool = False  # measure each game's luck (luck-adjusted estimates)

    def cells(self) -> list[CellKey]:
        return [CellKey(v, k, p) for p in self.players for k in self.skills for v in self.variants]
