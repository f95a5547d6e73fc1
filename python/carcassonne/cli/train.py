"""``carcassonne train``: the expert player's evaluation, trained by self-play (see
:mod:`carcassonne.training` and docs/players.md)."""

from __future__ import annotations

import argparse
import os
import sys

from carcassonne.cli.common import CliError, parse_rule_options, write_file
from carcassonne.rules import Rules
from carcassonne.studies.batch import MAX_THREADS
from carcassonne.training import (
    NET_DECAY,
    TEACHERS,
    RankPlan,
    model_class,
    train,
    valid_teachers,
)


def _every_expansion() -> str:
    """Every expansion on (the engine's list), as the option text ``--rules`` takes."""
    changed = Rules.every_expansion().changed()
    return ",".join(f"{k}={'on' if v is True else v}" for k, v in changed.items())


#: The rule sets the shipped weights are trained on: the base game, the C3 box (River and
#: Abbot), and every expansion.
DEFAULT_RULE_SETS = ("river=off,abbot=off", "", _every_expansion())


def _rules(text: str) -> Rules:
    return parse_rule_options([t for t in text.split(",") if t.strip()])


def _rank_games(text: str) -> tuple[int, ...]:
    """``--rank-games``: one count, or one per round after the first (comma-separated)."""
    try:
        games = tuple(int(t) for t in text.split(","))
    except ValueError:
        games = ()
    if not games or not all(0 <= g <= 1_000_000 for g in games):
        raise CliError(
            "--rank-games must be a count from 0 to 1000000, or one per round after the "
            f"first (comma-separated), got {text!r}"
        )
    return games


def run(args: argparse.Namespace) -> int:
    if not 2 <= args.games <= 10_000_000:
        raise CliError(f"--games must be from 2 to 10000000, got {args.games}")
    if not 1 <= args.rounds <= 20:
        raise CliError(f"--rounds must be from 1 to 20, got {args.rounds}")
    if not 1 <= args.every <= 1000:
        raise CliError(f"--every must be from 1 to 1000, got {args.every}")
    if not 0 <= args.seed < 2**64:
        raise CliError(f"--seed must be from 0 to 2**64-1, got {args.seed}")
    if not 0 <= args.threads <= MAX_THREADS:
        raise CliError(f"--threads must be from 0 to {MAX_THREADS}, got {args.threads}")
    if not 0 <= args.check_games <= 1_000_000:
        raise CliError(f"--check-games must be from 0 to 1000000, got {args.check_games}")
    if not 0.0 <= args.lam <= 1.0:
        raise CliError(f"--lambda must be from 0 to 1, got {args.lam}")
    if not 0.0 <= args.explore <= 1.0:
        raise CliError(f"--explore must be from 0 to 1, got {args.explore}")
    if not 0.0 <= args.prior <= 1e6:
        raise CliError(f"--anchor-prior must be from 0 to 1e6, got {args.prior}")
    rank_games = _rank_games(args.rank_games)
    if not 1 <= args.rank_candidates <= 1000:
        raise CliError(f"--rank-candidates must be from 1 to 1000, got {args.rank_candidates}")
    if not 1 <= args.rank_continuations <= 1000:
        raise CliError(
            f"--rank-continuations must be from 1 to 1000, got {args.rank_continuations}"
        )
    if not 1 <= args.rank_every <= 1000:
        raise CliError(f"--rank-every must be from 1 to 1000, got {args.rank_every}")
    if not valid_teachers(args.rank_teacher):
        raise CliError(
            f"--rank-teacher must be one of {', '.join(TEACHERS)} (comma-separated, one per "
            f"round after the first; several in a round joined by +), got {args.rank_teacher!r}"
        )
    if not 1 <= args.rank_horizon <= 1000:
        raise CliError(f"--rank-horizon must be from 1 to 1000, got {args.rank_horizon}")
    if not 0 <= args.rank_random <= 1000:
        raise CliError(f"--rank-random must be from 0 to 1000, got {args.rank_random}")
    try:
        hidden = model_class(args.model)
    except ValueError as e:
        raise CliError(f"--model: {e}") from None
    if not 0.0 <= args.net_decay <= 1e9:
        raise CliError(f"--net-decay must be from 0 to 1e9, got {args.net_decay}")
    if not 0.0 <= args.rank_weight <= 1e6:
        raise CliError(f"--rank-weight must be from 0 to 1e6, got {args.rank_weight}")
    if not args.out.strip():
        raise CliError("--out must name a file")
    if os.path.exists(args.out) and not args.overwrite:
        raise CliError(f"{args.out} exists (give --overwrite to replace it)")
    # Before the training (which takes minutes): the folder must exist.
    folder = os.path.dirname(args.out) or "."
    if not os.path.isdir(folder):
        raise CliError(f"cannot write {args.out}: no folder {folder!r}")
    rule_sets = [_rules(t) for t in (args.rules or DEFAULT_RULE_SETS)]
    rank_keys = tuple(k.strip() for k in (args.rank_models or "").split(",") if k.strip())
    if args.rank_models is not None and (not rank_keys or not any(rank_games)):
        raise CliError(
            "--rank-models names the models the ranking fit applies to: give one or more "
            "model keys, and --rank-games"
        )
    rank = None
    if any(rank_games):
        rank = RankPlan(
            rank_games,
            args.rank_candidates,
            args.rank_continuations,
            args.rank_every,
            args.rank_weight,
            rank_keys,
            args.rank_teacher,
            args.rank_horizon,
            args.rank_random,
        )
    log_lines: list[str] = []

    def log(line: str) -> None:
        log_lines.append(line)
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    try:
        text, _ = train(
            rule_sets,
            args.games,
            rounds=args.rounds,
            seed=args.seed,
            every=args.every,
            threads=args.threads,
            check_games=args.check_games,
            log=log,
            lam=args.lam,
            explore=args.explore,
            self_play=args.self_play,
            prior=args.prior,
            rank=rank,
            hidden=hidden,
            net_decay=args.net_decay,
        )
    except ValueError as e:
        raise CliError(str(e)) from None
    # The command that makes this file again (the thread count changes nothing).
    rules = " ".join(f"--rules '{t}'" for t in (args.rules or DEFAULT_RULE_SETS))
    ranking = (
        f"--rank-games {','.join(map(str, rank_games))} --rank-candidates {rank.candidates} "
        f"--rank-continuations {rank.continuations} --rank-every {rank.every} "
        f"--rank-weight {rank.weight:g} "
        + (f"--rank-models {','.join(rank.keys)} " if rank.keys else "")
        + (f"--rank-teacher {rank.teacher} " if rank.teacher != "end" else "")
        + (f"--rank-horizon {rank.horizon} " if "rollouts" in rank.teacher else "")
        + (f"--rank-random {rank.random} " if rank.random else "")
        if rank
        else ""
    )
    header = (
        f"# carcassonne train --games {args.games} --rounds {args.rounds} "
        f"--every {args.every} --seed {args.seed} --check-games {args.check_games} "
        f"--lambda {args.lam:g} --explore {args.explore:g} "
        f"{'--self-play ' if args.self_play else ''}"
        f"{f'--anchor-prior {args.prior:g} ' if args.prior else ''}{ranking}"
        f"{f'--model {args.model} --net-decay {args.net_decay:g} ' if hidden else ''}{rules} "
        "--out FILE\n"
    )
    write_file(args.out, header + "".join(f"# {line}\n" for line in log_lines) + text)
    print(f"wrote {args.out}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train",
        help="train the expert player's evaluation from a league of players",
        description="Play games natively (seeded, every core), fit the learned "
        "evaluation's weights (ridge regression on TD(lambda) returns, numpy) for each rule "
        "set, iterate (round 1 greedy self-play, then a league around the previous round's "
        "expert: itself, greedy, an earlier expert, the learned search, perturbed heuristics), "
        "check each round against greedy and the held-out heuristic, and write a weights file "
        "for `expert:weights=FILE`. The same arguments give the same file.",
        epilog="example: carcassonne train --games 4000 --rounds 3 --out my.weights",
    )
    p.add_argument(
        "--games",
        "-n",
        type=int,
        default=2000,
        help="self-play games per round and rule set (default 2000)",
    )
    p.add_argument("--rounds", type=int, default=3, help="training rounds (default 3)")
    p.add_argument(
        "--rules",
        action="append",
        metavar="OPTIONS",
        help="a rule set as comma-separated NAME=VALUE rule options ('' for the "
        "defaults); repeat for several, one model each (default: the base game, "
        "the defaults, and every expansion; 'carcassonne rules' lists the options)",
    )
    p.add_argument(
        "--every", type=int, default=4, help="sample one turn start in EVERY (default 4)"
    )
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument(
        "--lambda",
        dest="lam",
        type=float,
        default=0.8,
        help="TD(lambda) of the targets: 1 is the points to the end of the game (default 0.8)",
    )
    p.add_argument(
        "--self-play",
        action="store_true",
        help="rounds after the first play the previous round's expert against itself only "
        "(no league)",
    )
    p.add_argument(
        "--explore",
        type=float,
        default=0.03,
        help="chance that a training move is a random legal one (default 0.03)",
    )
    p.add_argument(
        "--anchor-prior",
        dest="prior",
        type=float,
        default=0.0,
        help="pull the base game's model (no expansions) toward the held-out heuristic's own "
        "reading of the terms with this ridge strength per row (default 0: toward 0 with a "
        "tiny ridge)",
    )
    p.add_argument(
        "--rank-games",
        default="0",
        metavar="N[,N...]",
        help="rounds after the first also fit the moves' ranking: the decisions of this many "
        "games between the previous round's expert and the ring; comma-separated, one per "
        "round after the first, the last for the later rounds (default 0: no ranking fit)",
    )
    p.add_argument(
        "--rank-candidates",
        type=int,
        default=8,
        help="the best moves of each sampled decision that are continued (default 8)",
    )
    p.add_argument(
        "--rank-continuations",
        type=int,
        default=6,
        help="continuations per candidate (to the end, or of the rollouts teacher), the same "
        "draws for every candidate of a decision (default 6)",
    )
    p.add_argument(
        "--rank-teacher",
        default="end",
        metavar="TEACHER",
        help="what values a candidate: end (its continuations' final margin), rollouts (the "
        "expert's rollouts of RANK_HORIZON decisions, then its own evaluation) or depth2 (the "
        "expert's expectimax over the next draw); comma-separated, one per round after the "
        "first, the last for the later rounds; end+rollouts: both rows for the same decisions "
        "(default end)",
    )
    p.add_argument(
        "--rank-horizon",
        type=int,
        default=8,
        help="decisions each rollout of the rollouts teacher plays (default 8)",
    )
    p.add_argument(
        "--rank-every",
        type=int,
        default=8,
        help="sample one turn in RANK_EVERY of those games (default 8)",
    )
    p.add_argument(
        "--rank-weight",
        type=float,
        default=1.0,
        help="weight of the ranking rows against the position rows, in all (default 1)",
    )
    p.add_argument(
        "--rank-models",
        metavar="KEYS",
        help="comma-separated model keys the ranking fit applies to (e.g. base; default: all)",
    )
    p.add_argument(
        "--rank-random",
        type=int,
        default=0,
        help="moves drawn at random from the rest valued beside the RANK_CANDIDATES best "
        "(default 0; a network needs them to value moves the expert would not play)",
    )
    p.add_argument(
        "--model",
        default="linear",
        help="the model class of the models that rank: linear (default) or mlp:H, a "
        "network of H hidden units beside the linear part (docs/players.md)",
    )
    p.add_argument(
        "--net-decay",
        type=float,
        default=NET_DECAY,
        help=f"weight decay of the network's input weights (default {NET_DECAY:g})",
    )
    p.add_argument("-t", "--threads", type=int, default=0, help="threads (default 0: all cores)")
    p.add_argument(
        "--check-games",
        type=int,
        default=200,
        help="deals of the expert's checks against greedy and the held-out heuristic "
        "after each round, each played twice (default 200; 0: none)",
    )
    p.add_argument("--out", "-o", required=True, help="the weights file to write")
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    p.add_argument("--quiet", "-q", action="store_true", help="no log on stderr")
    p.set_defaults(func=run)
