"""The ``Rules`` class of the stub ``_core.pyi``, written from the engine's option table (the
extension's ``Rules.options()`` and ``Rules.defaults()``, made by ``rule_options!`` in
src/engine/rules.rs). After a new rule option (or a new method in src/bindings/rules.rs, whose
stubs are written here), ``.venv/bin/python scripts/rules_stub.py`` rewrites that class in
place; tests/test_rules_options.py checks that the committed stub equals this output. A
development tool: it is not part of the installed package."""

from __future__ import annotations

import json
from pathlib import Path

from carcassonne._core import Rules

STUB = Path(__file__).resolve().parent.parent / "python" / "carcassonne" / "_core.pyi"
BEGIN = "# Generated from the rule-option table by scripts/rules_stub.py:\n"
END = "# End of the generated Rules class.\n"

# The methods of src/bindings/rules.rs besides the option getters.
METHODS = """\
    @classmethod
    def base(cls, **options: Any) -> Rules: ...
    @classmethod
    def every_expansion(cls, **options: Any) -> Rules: ...
    @classmethod
    def lenient(cls, **options: Any) -> Rules: ...
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules: ...
    @staticmethod
    def options() -> dict[str, tuple[Any, ...]]: ...
    @staticmethod
    def option_docs() -> dict[str, str]: ...
    @staticmethod
    def defaults() -> dict[str, Any]: ...
    def changed(self) -> dict[str, Any]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def replace(self, **changes: Any) -> Rules: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
"""


def value_type(allowed: tuple[object, ...]) -> str:
    """The Python type of an option's value, from the values it allows."""
    if allowed == (str,):  # tile counts: text (a getter gives the canonical text)
        return "str"
    if all(isinstance(a, bool) for a in allowed):
        return "bool"
    if all(type(a) is int for a in allowed):
        return "int"
    kinds = {type(a) for a in allowed}
    if kinds == {str}:
        return "str"
    if kinds == {str, type(None)}:
        return "str | None"
    raise ValueError(f"no stub type for option values {allowed!r}")


def literal(value: object) -> str:
    """A default as the stub writes it (text in double quotes, as ruff formats it)."""
    return json.dumps(value) if isinstance(value, str) else repr(value)


def rules_class() -> str:
    """The stub of ``Rules``: ``__new__`` with every option and its default, the methods, a
    property per option (in the table's order)."""
    options, defaults = Rules.options(), Rules.defaults()
    params = []
    for name, allowed in options.items():
        given = value_type(allowed)
        if allowed == (str,):  # tile counts are also given as a mapping or a path
            given = "str | Mapping[str, int] | os.PathLike[str] | None"
        params.append(f"        {name}: {given} = {literal(defaults[name])},\n")
    props = [
        f"    @property\n    def {name}(self) -> {value_type(allowed)}: ...\n"
        for name, allowed in options.items()
    ]
    return (
        "@final\nclass Rules:\n    def __new__(\n        cls,\n        *,\n"
        + "".join(params)
        + "    ) -> Rules: ...\n"
        + METHODS
        + "".join(props)
    )


def stub_text(stub: str) -> str:
    """``stub`` (the text of ``_core.pyi``) with its generated section made anew."""
    head, rest = stub.split(BEGIN, 1)
    return head + BEGIN + rules_class() + END + rest.split(END, 1)[1]


if __name__ == "__main__":
    STUB.write_text(stub_text(STUB.read_text(encoding="utf-8")), encoding="utf-8")
