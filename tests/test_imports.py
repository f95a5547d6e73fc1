"""The package's modules import each other without circles (one concept per module, each
standing on the ones below it).

Every import of a carcassonne module counts, wherever it stands: at module level, under
``if TYPE_CHECKING:``, and inside functions. A lazy import only hides a circle from the
interpreter: the two modules still need each other, and a reader still has to understand
both at once. Importing a submodule is an arrow to that submodule, not to the packages
above it (Python runs those first, but they only hand names on). ``importlib`` calls with a
carcassonne module named in a literal count as imports; any other dynamic import of the
package is refused, so that no arrow can be hidden from this test.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "carcassonne"


def module_name(path: Path) -> str:
    parts = ["carcassonne", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _target(name: str, known: set[str]) -> str | None:
    """The module that importing ``name`` (a module, or a name inside one) means."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The carcassonne modules that module ``name`` imports, anywhere in its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(_target(a.name, known) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for a in node.names:
                full = f"{base}.{a.name}"
                found.add(full if full in known else _target(base, known))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called not in ("import_module", "__import__") or not node.args:
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(_target(arg.value, known))
            elif name != "carcassonne.cli.study":  # it loads users' agents by their name
                pytest.fail(f"{name}: a dynamic import at line {node.lineno} hides its arrow")
    return {m for m in found if m is not None and m != name}


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = {*mods, "carcassonne._core"}  # the Rust extension: it imports no Python module
    graph = {name: imports(name, path, known) for name, path in mods.items()}
    return {**graph, "carcassonne._core": set()}


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (its modules in order, the first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return [*path[path.index(n) :], n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_package_imports_without_circles():
    graph = import_graph()
    assert len(graph) > 30  # the walk found the package
    circle = find_circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    # module level, lazy (in a function), TYPE_CHECKING and relative-free package imports
    assert "carcassonne.studies.results" in graph["carcassonne.studies.simulate"]
    assert "carcassonne.studies.report" in graph["carcassonne.cli.report"]  # inside a function
    assert "carcassonne.studies.stats" in graph["carcassonne.cli.progress"]
    assert "carcassonne.game" in graph["carcassonne.render.board"]  # under TYPE_CHECKING
    assert "carcassonne._core" in graph["carcassonne.rules"]  # from carcassonne import _core
    assert "carcassonne.render.board" in graph["carcassonne.render"]


def test_find_circle_finds_one():
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
