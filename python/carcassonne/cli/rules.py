"""``carcassonne rules``: every rule option with its values, default and meaning, made from
the engine's option table (``Rules.options()``, ``Rules.defaults()``, ``Rules.option_docs()``),
for the commands that take ``-o NAME=VALUE``."""

from __future__ import annotations

import argparse
import textwrap

from carcassonne.rules import Rules, option_words, value_word


def rules_listing(width: int = 79) -> str:
    """Every rule option: ``NAME=VALUES (default: D)``, then its doc indented, in the table's
    order."""
    options, defaults, docs = Rules.options(), Rules.defaults(), Rules.option_docs()
    lines = ["Rule options (-o NAME=VALUE; comma-separated in train's --rules):", ""]
    for name in options:
        default = value_word(defaults[name]) if defaults[name] != "" else "none"
        values = "|".join(option_words(name))
        lines.append(f"{name}={values}  (default: {default})")
        lines += textwrap.wrap(docs[name], width, initial_indent="    ", subsequent_indent="    ")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    print(rules_listing(), end="")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules",
        help="list the rule options (-o NAME=VALUE): values, default and meaning",
        description="List every rule option with its values, its default and what it does "
        "(rule ids as in docs/rules.md).",
    )
    p.set_defaults(func=run)
