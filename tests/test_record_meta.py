"""Records carry an app's own data: a namespaced ``meta`` field, kept on save and load, checked
in form and size."""

from __future__ import annotations

import json

import pytest

from carcassonne import Game, RecordError, Rules
from carcassonne.game import MAX_META_BYTES


def test_meta_is_kept_on_save_and_load() -> None:
    g = Game(Rules.base(), players=2, seed=3)
    g.play(g.legal_moves[0])
    assert "meta" not in g.record()
    g.meta["table"] = {"players": ["Ada", "Brian"], "started": "2026-12-01T20:00:00Z"}
    g.meta["org.example.app"] = {"table_id": 7, "nested": {"ok": [1, 2.5, None, True]}}
    text = g.to_json()
    back = Game.from_record(text)
    assert back.meta == g.meta and back.fingerprint() == g.fingerprint()
    assert json.loads(back.to_json()) == json.loads(text)
    c = g.copy()
    c.meta["table"]["players"][0] = "Cleo"
    assert g.meta["table"]["players"][0] == "Ada"  # a copy's meta is its own


@pytest.mark.parametrize(
    "meta, why",
    [
        ([], "must be an object"),
        ({"Table": {}}, "lower-case words"),
        ({"": {}}, "lower-case words"),
        ({"a" * 65: {}}, "at most 64"),
        ({"table": "Ada"}, r"meta\['table'\] must be an object"),
        ({"table": {"x": float("nan")}}, "plain JSON"),
        ({"table": {"blob": "x" * MAX_META_BYTES}}, "at most 65,536"),
    ],
)
def test_bad_meta_is_refused_saying_why(meta, why) -> None:
    g = Game(Rules.base(), players=2, seed=3)
    rec = g.record()
    rec["meta"] = meta
    with pytest.raises(RecordError, match=why):
        Game.from_record(rec)
    g.meta = meta
    with pytest.raises(RecordError, match=why):
        g.record()
