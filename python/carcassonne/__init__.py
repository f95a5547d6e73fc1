"""carcassonne: a fast, rules-faithful Carcassonne engine with a Rust core.

Base game, River and Abbot; Traders & Builders (C3.1, C2), Toll Collectors, Under the Big Top,
the Fortune Teller. Carcassonne is a trademark of its publisher; this project is not
affiliated with it.
"""

from importlib.metadata import version as _installed_version

from carcassonne import render
from carcassonne._core import SOURCES, Catalogue, Move
from carcassonne.errors import (
    CatalogueError,
    DrawError,
    GameInUseError,
    IllegalMoveError,
    InvalidMoveError,
    PlayError,
    RecordError,
)
from carcassonne.game import Decision, Feature, Figure, Game, MoveStat, PlacedTile, SearchResult
from carcassonne.rules import Rules
from carcassonne.scenario import Scenario, position
from carcassonne.scored import ScoreEvent
from carcassonne.studies import Study, compare, study
from carcassonne.studies.batch import game_seed
from carcassonne.studies.results import Results, StudyInterrupted
from carcassonne.studies.simulate import simulate, simulate_chunks

# Notebooks show a game as its board picture (defined in render/board.py, attached here).
Game._repr_svg_ = render.repr_svg  # type: ignore[attr-defined]

# One source: Cargo.toml's version, which maturin writes into the package metadata.
__version__ = _installed_version("carcassonne")

__all__ = [
    "SOURCES",
    "Catalogue",
    "CatalogueError",
    "Decision",
    "DrawError",
    "Feature",
    "Figure",
    "Game",
    "GameInUseError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveStat",
    "PlacedTile",
    "PlayError",
    "RecordError",
    "Results",
    "Rules",
    "Scenario",
    "ScoreEvent",
    "SearchResult",
    "Study",
    "StudyInterrupted",
    "compare",
    "game_seed",
    "position",
    "simulate",
    "simulate_chunks",
    "study",
]
