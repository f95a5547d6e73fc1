"""Python agents: any object with ``choose(game, moves) -> move`` can play a seat.

This is the slow path (each move crosses into Python), for studies whose policy is written in
Python; the native policies ("random", "greedy", "expert", "mcts") play whole games in Rust
instead.
:class:`MctsAgent` and :class:`GreedyAgent` bring the native players to Python studies (next
to agents written in Python).

An agent::

    class FirstMove:
        name = "first"                       # optional: its name in results (else the class)

        def new_game(self, game, seat):      # optional: called once per seat at the start
            ...

        def choose(self, game, moves):       # required: one of ``moves`` (legal moves)
            return moves[0]

``game`` is the live :class:`~carcassonne.Game`: read it, or look ahead on ``game.copy()``,
but do not play on it. A study's results must not depend on the order its games are played
in (chunks run anywhere, in any order), so an agent that draws random numbers seeds them per
game in ``new_game``, as :class:`RandomAgent` does; then a study is reproducible from its
master seed alone, on any executor.

Reproducibility, in short:

- Every game of a study is identified by its seed (a column of every results table):
  ``Game(rules, players, seed=seed)`` draws the same tiles in the same order whatever the
  policy, as long as the same tiles fit (a tile that fits nowhere is discarded, B7).
- Every native policy (``random``, ``greedy``, ``mcts:...``) is deterministic for the game's
  seed: :func:`replay` plays the game again natively and rebuilds its full record.
- Python agents that seed themselves per game (like :class:`RandomAgent`) give the same
  games for the same master seed; ``simulate_agents(..., record_games=True)`` keeps each
  game's record (``Game.from_record`` replays and checks it).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from typing import Any, Protocol, runtime_checkable

import numpy as np

from carcassonne import _core
from carcassonne._core import Catalogue, Move
from carcassonne.errors import IllegalMoveError, InvalidMoveError
from carcassonne.game import Game
from carcassonne.policies import (
    check_policy,
    parsed_policy,
    policy_name,
    policy_text,
    seat_texts,
)
from carcassonne.rules import Rules
from carcassonne.studies.batch import (
    Chunker,
    check_chunk,
    check_study,
    executor_chunk,
    game_seed,
    schedule,
)
from carcassonne.studies.results import Results, gather, replay

# replay (of native games) is importable from here as before; it lives in results.
__all__ = [
    "Agent",
    "ExpertAgent",
    "GreedyAgent",
    "MctsAgent",
    "NativeAgent",
    "NativeRandomAgent",
    "RandomAgent",
    "agent_name",
    "native_agent",
    "play_game",
    "replay",
    "simulate_agents",
    "simulate_agents_chunks",
]


@runtime_checkable
class Agent(Protocol):
    """What a seat needs: pick one of the legal ``moves`` of ``game`` (never empty)."""

    def choose(self, game: Game, moves: list[Move]) -> Move: ...


def agent_name(agent: Any) -> str:
    return str(getattr(agent, "name", None) or type(agent).__name__)


def _seat_random(seed: int, game: Game, seat: int) -> random.Random:
    """The generator of an agent seeded ``seed`` for one game and seat: the same game seed
    always gives the same numbers, whatever order a study plays its games in."""
    return random.Random(f"{seed}/{game.seed}/{seat}")


class _SeatSeeded:
    """An agent whose random choices come from a generator seeded per game and seat
    (:func:`_seat_random`)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def new_game(self, game: Game, seat: int) -> None:
        self._rng = _seat_random(self.seed, game, seat)


class RandomAgent(_SeatSeeded):
    """Uniformly random legal moves, from a generator seeded per game by (seed, game seed,
    seat): the same game seed always gives the same moves."""

    name = "py-random"

    def choose(self, game: Game, moves: list[Move]) -> Move:
        return moves[self._rng.randrange(len(moves))]


class NativeRandomAgent:
    """The native ``random`` policy, move for move: the engine's own player and generator
    (``_core.Policy``), seeded from the game seed as the batch runner seeds it. One instance
    plays every seat of a game (the native runner shares one generator between the seats)."""

    name = "random"

    def __init__(self) -> None:
        self._policy: _core.Policy | None = None
        self._game: int | None = None

    def new_game(self, game: Game, seat: int) -> None:
        if seat == 0 or self._game != id(game):
            self._policy = parsed_policy("random", game.seed)
            self._game = id(game)

    def choose(self, game: Game, moves: list[Move]) -> Move:
        if self._policy is None:
            self.new_game(game, 0)
        assert self._policy is not None
        with game._owner:  # one thread at a time on the game (GameInUseError)
            return self._policy.choose(game._state)


def _seat_agents(agents: Agent | Sequence[Agent], players: int) -> list[Agent]:
    seq = [agents] if not isinstance(agents, Sequence) else list(agents)
    if not seq:
        raise ValueError("at least one agent is needed")
    for a in seq:
        if not callable(getattr(a, "choose", None)):
            raise TypeError(f"an agent needs a choose(game, moves) method: {a!r}")
    return [seq[p % len(seq)] for p in range(players)]


def play_game(
    rules: Rules | None,
    agents: Agent | Sequence[Agent],
    seed: int,
    players: int | None = None,
    *,
    catalogue: Catalogue | None = None,
) -> Game:
    """Play one whole game: seat p is ``agents[p % len(agents)]`` (or the one agent for
    every seat); ``players`` defaults to the number of agents given (2 for one agent).
    Returns the finished :class:`Game` (``game.record()`` is its full record)."""
    if players is None:
        players = len(agents) if isinstance(agents, Sequence) and len(agents) > 1 else 2
    game = Game(rules, players, seed, catalogue=catalogue)
    seats = _seat_agents(agents, players)
    for p, agent in enumerate(seats):
        hook = getattr(agent, "new_game", None)
        if hook is not None:
            hook(game, p)
    while not game.is_over():
        moves = game.legal_moves
        agent = seats[game.turn]
        move = agent.choose(game, moves)
        try:
            game.play(move)
        except IllegalMoveError as e:
            err = IllegalMoveError(f"agent {agent_name(agent)} chose an illegal move: {e}")
            err.rule = e.rule
            raise err from None
        except InvalidMoveError as e:
            raise InvalidMoveError(f"agent {agent_name(agent)} chose no move: {e}") from None
    return game


def native_agent(policy: str) -> Agent:
    """A native policy's text (``"random"``, ``"greedy"``, ``"mcts:playouts=500:c=0.5"``,
    any player of ``_core.players()``) as a Python agent, to play beside Python agents:
    ``random`` is the native generator, move for move; ``greedy`` draws its tie-breaks per
    game in Python; every other player is a :class:`NativeAgent` (its parameters read by the
    engine's one parser of policy text)."""
    text = check_policy(policy)
    if len(seat_texts(text)) > 1:
        raise ValueError(f"one policy for one agent, not one per seat: {policy!r}")
    name = policy_name(text)
    if name == "random":
        return NativeRandomAgent()
    if name == "greedy":
        return GreedyAgent()
    return NativeAgent(text)


class NativeAgent:
    """Any native player as a Python agent: the engine's player (``_core.Policy``) with a
    generator seeded per game and seat from (seed, game seed, seat) for its tie-breaks and
    searches, so a study is reproducible from its master seed. The policy text is checked
    when the agent is made; the agent copies and pickles as its text and seed."""

    def __init__(self, policy: str, seed: int = 0) -> None:
        self.text = check_policy(policy)
        if len(seat_texts(self.text)) > 1:
            raise ValueError(f"one policy for one agent, not one per seat: {policy!r}")
        self.seed = seed
        self.name = self.text
        # Parsed once (the text and a weights file checked now); each game reseeds it.
        self._policy = parsed_policy(self.text)

    def __getstate__(self) -> dict[str, Any]:
        return {"text": self.text, "seed": self.seed, "name": self.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._policy = parsed_policy(self.text)

    def new_game(self, game: Game, seat: int) -> None:
        r = _seat_random(self.seed, game, seat)
        self._policy = self._policy.reseeded(r.getrandbits(64))

    def choose(self, game: Game, moves: list[Move]) -> Move:
        with game._owner:  # one thread at a time on the game (GameInUseError)
            return self._policy.choose(game._state)


class ExpertAgent(NativeAgent):
    """The native ``expert`` player as a Python agent (a :class:`NativeAgent`). ``weights``: a
    weights file (default: the shipped weights)."""

    def __init__(self, weights: str | None = None, seed: int = 0) -> None:
        super().__init__(
            policy_text("expert") if weights is None else policy_text("expert", weights=weights),
            seed,
        )


class GreedyAgent(_SeatSeeded):
    """The native ``greedy`` player as a Python agent (ties broken by a generator seeded per
    game from (seed, game seed, seat))."""

    name = "greedy"

    def choose(self, game: Game, moves: list[Move]) -> Move:
        best = game.greedy_values()
        top = max(best.values())
        tied = [m for m in moves if best.get(m) == top]
        return tied[self._rng.randrange(len(tied))] if tied else moves[0]


class MctsAgent(NativeAgent):
    """The native search player (``mcts``) as a Python agent: a :class:`NativeAgent` whose
    searches draw their seeds from a generator seeded per game and seat, so a study is
    reproducible from its master seed. ``params``: the ``mcts`` player's, as the engine's
    parameter table names them (``carcassonne.policies.player_parameters("mcts")``), checked
    by its one parser of policy text."""

    def __init__(self, playouts: int = 1000, seed: int = 0, **params: Any) -> None:
        super().__init__(policy_text("mcts", playouts=playouts, **params), seed)


def _result_cols(games: list[Game], sources: Sequence[str], players: int) -> dict[str, np.ndarray]:
    n = len(games)
    scores = np.zeros((n, players), np.int32)  # signed, as the native batches' columns
    breakdown = np.zeros((n, players, len(sources)), np.int32)
    winners = np.zeros(n, np.uint8)
    for g, game in enumerate(games):
        scores[g] = game.scores
        for p, bd in enumerate(game.breakdown):
            breakdown[g, p] = [bd.get(s, 0) for s in sources]
        for w in game.winners:
            winners[g] |= 1 << w
    return {
        "seed": np.array([g.seed for g in games], np.uint64),
        "turns": np.array([g.turns for g in games], np.uint16),
        "discarded": np.array([g.discarded for g in games], np.uint16),
        "winners": winners,
        "scores": scores,
        "breakdown": breakdown,
    }


def _agent_chunk(
    rules: dict[str, Any],
    players: int,
    agents: Sequence[Agent],
    first: int,
    games: int,
    master: int,
    record: bool,
) -> dict[str, Any]:
    """Games ``first .. first + games`` played by Python agents (picklable for executors).
    Each chunk plays with its own copy of the agents, so chunks running at once in threads
    never share an agent's state (as they would not across processes)."""
    agents = copy.deepcopy(list(agents))
    r = Rules(**rules)
    played = [
        play_game(r, agents, game_seed(master, g), players) for g in range(first, first + games)
    ]
    cols: dict[str, Any] = _result_cols(played, _core.SOURCES, players)
    if record:
        cols["records"] = [g.record() for g in played]
    return cols


def simulate_agents_chunks(
    rules: Rules | None,
    agents: Agent | Sequence[Agent],
    games: int = 100,
    players: int = 2,
    seed: int = 0,
    *,
    record_games: bool = False,
    executor: Executor | None = None,
    chunk: int | None = None,
    first: int = 0,
) -> Iterator[Results]:
    """Like :func:`simulate_agents`, chunk by chunk, in game order."""
    rules = check_study(rules, games, players, "random", seed, 0)
    check_chunk(chunk)
    seats = _seat_agents(agents, players)
    policy = ",".join(agent_name(a) for a in seats)
    chunker = Chunker(executor_chunk(games, chunk) if executor else chunk, 1, target=0.3)
    sizes: dict[int, tuple[int, int]] = {}  # task index -> (first game, games), until done
    submitted = [0]
    rd = rules.to_dict()

    def tasks() -> Iterator[tuple[Callable[..., Any], tuple[Any, ...]]]:
        for f, n in chunker.ranges(first, games):
            sizes[submitted[0]] = (f, n)
            submitted[0] += 1
            yield _agent_chunk, (rd, players, seats, f, n, seed, record_games)

    def done(i: int, seconds: float) -> None:
        chunker.observe(sizes[i][1], seconds)

    for i, cols in enumerate(schedule(tasks(), executor, None, done)):
        yield Results(
            rules=rules,
            players=players,
            policy=policy,
            master_seed=seed,
            first=sizes.pop(i)[0],
            records=cols.pop("records", None),
            **cols,
        )


def simulate_agents(
    rules: Rules | None,
    agents: Agent | Sequence[Agent],
    games: int = 100,
    players: int = 2,
    seed: int = 0,
    *,
    record_games: bool = False,
    executor: Executor | None = None,
    chunk: int | None = None,
) -> Results:
    """Play ``games`` games with Python agents (seat p: ``agents[p % len(agents)]``), game g
    from seed ``game_seed(seed, g)`` like the native runner. The same :class:`Results` as
    :func:`carcassonne.simulate`; with ``record_games`` its ``records`` hold every game's
    record. With ``executor`` the chunks run there (agents must then pickle for process
    pools). Ctrl-C raises :class:`carcassonne.StudyInterrupted` holding the games
    finished so far."""
    parts = gather(
        simulate_agents_chunks(
            rules,
            agents,
            games,
            players,
            seed,
            record_games=record_games,
            executor=executor,
            chunk=chunk,
        )
    )
    if not parts:
        rules = Rules() if rules is None else rules
        seats = _seat_agents(agents, players)
        return Results(
            rules=rules,
            players=players,
            policy=",".join(agent_name(a) for a in seats),
            master_seed=seed,
            records=[] if record_games else None,
            **_result_cols([], _core.SOURCES, players),
        )
    return Results.concat(parts)
