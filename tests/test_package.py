"""The package as users get it: a wheel and an sdist built by maturin, the wheel installed in a
clean virtualenv with no Rust toolchain on PATH and used there.

Building reuses the release build that `scripts/setup` left in target/ (cargo rebuilds only
what changed); CARCASSONNE_WHEEL=path tests a wheel built already (the release workflow's).
Set CARCASSONNE_SKIP_PACKAGE=1 to skip the builds locally; CI runs them. Installing the
wheel's dependencies needs the package index (or pip's cache).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

import carcassonne

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "carcassonne"

builds = pytest.mark.skipif(
    os.environ.get("CARCASSONNE_SKIP_PACKAGE") == "1",
    reason="CARCASSONNE_SKIP_PACKAGE=1: wheel and sdist not built",
)


def _cargo_version() -> str:
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["version"]


def _tracked(under: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", under], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def _package_data() -> list[str]:
    """Every file of the Python package that is not Python source: stubs, markers, data."""
    return [
        p
        for p in _tracked("python/carcassonne")
        if not p.endswith(".py") and "__pycache__" not in p
    ]


def _maturin(*args: str, out: Path) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "maturin", *args, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    (built,) = out.iterdir()
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """CARCASSONNE_WHEEL names a wheel already built (the release workflow's); otherwise one is
    built here."""
    if built := os.environ.get("CARCASSONNE_WHEEL"):
        return Path(built).resolve()
    out = tmp_path_factory.mktemp("wheel")
    return _maturin("build", "--release", "--interpreter", sys.executable, out=out)


def test_version_is_cargo_tomls():
    assert carcassonne.__version__ == _cargo_version()
    run = subprocess.run(
        [sys.executable, "-m", "carcassonne", "--version"], capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout == f"carcassonne {_cargo_version()}\n"


def test_changelog_names_this_version_and_the_record_format():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {_cargo_version()} " in changelog
    assert '"format": "carcassonne-record"' in changelog
    assert f'"version": {carcassonne.game.RECORD_VERSION}' in changelog


@builds
def test_sdist_has_every_source_and_nothing_built(tmp_path: Path):
    sdist = _maturin("sdist", out=tmp_path)
    with tarfile.open(sdist) as tar:
        top = f"carcassonne-{_cargo_version()}/"
        names = {n.removeprefix(top) for n in tar.getnames()}
    needed = _tracked("src") + _tracked("python") + ["Cargo.toml", "Cargo.lock", "pyproject.toml"]
    assert not [p for p in needed if p not in names]
    assert {"README.md", "LICENSE"} <= names
    assert not [n for n in names if n.startswith(("target/", ".venv/")) or "__pycache__" in n]


@builds
def test_wheel_holds_the_package_data(wheel: Path):
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
    data = [p.removeprefix("python/") for p in _package_data()]
    assert data and not [p for p in data if p not in names]
    assert any(n.startswith("carcassonne/_core.") for n in names)


SMOKE = textwrap.dedent(
    """
    import importlib.resources, random, sys
    from pathlib import Path

    import carcassonne
    from carcassonne import Game, Rules, render, simulate

    # the wheel's copy, not the source tree's
    assert Path(carcassonne.__file__).resolve().is_relative_to(Path(sys.prefix).resolve())
    for name in sys.argv[1:]:
        assert importlib.resources.files("carcassonne").joinpath(name).is_file(), name

    results = simulate(Rules(), games=20, players=2, seed=1)
    assert len(results.columns()["seed"]) == 20

    every = Rules(river=True, abbot=True, traders_builders="C3.1", toll_collectors=True,
                  big_top=True, fortune_teller=True)
    game = Game(every, players=3, seed=7)   # every tile file compiled in
    rng = random.Random(7)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves))
    replay = Game.from_record(game.to_json())
    assert replay.scores == game.scores and replay.is_over()
    assert render.svg(replay).lstrip().startswith("<svg")

    import carcassonne.env
    env = carcassonne.env.env(players=2)
    env.reset(seed=0)
    print("smoke ok", carcassonne.__version__)
    """
)


@builds
def test_wheel_in_a_clean_venv_without_rust(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    carcassonne_cli = bindir / "carcassonne"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"{wheel}[rl]"],
        check=True,
    )
    # No cargo, rustc or rustup reachable: the system directories only, and empty homes.
    path = os.pathsep.join([str(bindir), "/usr/bin", "/bin"])
    assert not [t for t in ("cargo", "rustc", "rustup") if shutil.which(t, path=path)]
    env = {
        "PATH": path,
        "HOME": str(tmp_path),
        "CARGO_HOME": str(tmp_path / "no-cargo"),
        "RUSTUP_HOME": str(tmp_path / "no-rustup"),
    }
    # Windows cannot start Python without these.
    env |= {k: os.environ[k] for k in ("SYSTEMROOT", "TEMP", "TMP") if k in os.environ}
    data = [p.removeprefix("python/carcassonne/") for p in _package_data()]

    def run(*args: str | Path) -> str:
        done = subprocess.run(
            [str(a) for a in args], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "smoke ok" in run(python, "-c", SMOKE, *data)
    assert "simulate" in run(carcassonne_cli, "--help")
    assert run(carcassonne_cli, "--version") == f"carcassonne {_cargo_version()}\n"
    assert "win" in run(carcassonne_cli, "simulate", "-n", "10", "--threads", "1").lower()
