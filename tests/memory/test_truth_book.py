"""Seeing and editing a truth base: the TruthBook and the ``truths`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from langgraph_games.cli import main
from langgraph_games.memory import (
    Candidate,
    ChromaStore,
    TruthBook,
    TruthBookError,
    TruthStatus,
    TruthWeaver,
    load_truths,
    minilm_index,
)
from memory_fakes import BagOfWords, relation_judge

RIGHT, UP = "Move right first, then up", "Move up first, then right"
WALLS = "Avoid walking into walls"
KEY = "Take the key before the door"


def trained(store: object) -> TruthWeaver:
    """Two rounds: WALLS, KEY, RIGHT; then UP supersedes RIGHT."""
    judge = relation_judge({(UP, RIGHT): "contradicts"})
    weaver = TruthWeaver(store, "maze", model=judge, merge_threshold=0.3)  # type: ignore[arg-type]
    weaver.insert_many(
        [
            Candidate(id="e1/summary", text=WALLS, round=1, level="L1", experience="e1"),
            Candidate(id="e1/lesson/0", text=KEY, round=1, level="L1", experience="e1"),
            Candidate(id="e2/summary", text=RIGHT, round=1, level="L2", experience="e2"),
        ]
    )
    weaver.insert(Candidate(id="e3/summary", text=UP, round=2, level="L3", experience="e3"))
    return weaver


def test_revert_delete_and_restore_are_recorded_and_keep_contradictions_apart() -> None:
    store = InMemoryStore()
    weaver = trained(store)
    book = TruthBook(store, "maze")
    up = next(t for t in book.truths() if t.text == UP)
    right = next(t for t in book.truths() if t.text == RIGHT)
    assert right.superseded_by == up.id
    # Restoring the superseded lesson by hand supersedes the one that replaced it.
    changed = book.restore(right.id[:6], "the right-first route was better on new maps")
    assert [(t.id, t.status) for t in changed] == [
        (right.id, TruthStatus.ACTIVE),
        (up.id, TruthStatus.SUPERSEDED),
    ]
    assert load_truths(store, "maze") == [WALLS, KEY, RIGHT]
    assert book.get(right.id).history[-1].detail.startswith("by hand: the right-first")
    book.revert(right.id)
    book.delete(next(t for t in book.truths() if t.text == KEY).id, "wrong for this maze")
    assert load_truths(store, "maze") == [WALLS]
    # Changes by hand are never undone by a round revert, and are remembered: a candidate
    # meaning a deleted lesson is always refused.
    weaver.revert_round(2)
    assert book.get(up.id).status == TruthStatus.REVERTED
    assert load_truths(store, "maze") == [WALLS]
    report = weaver.insert(Candidate(id="e9/summary", text=KEY, round=3, level="L9"))
    assert report.refused == 1 and "deleted by hand" in report.outcomes["e9/summary"]
    with pytest.raises(TruthBookError, match="is reverted; it cannot be reverted"):
        book.revert(right.id)
    with pytest.raises(TruthBookError, match="no truth 'zz'"):
        book.get("zz")
    with pytest.raises(TruthBookError, match="matches 4 truths"):
        book.get("t-")


def test_export_and_import_seed_another_store_and_a_bad_file_changes_nothing(
    tmp_path: Path,
) -> None:
    source = InMemoryStore()
    trained(source)
    path = tmp_path / "truths.jsonl"
    with path.open("w") as out:
        assert TruthBook(source, "maze").export(out) == 4
    target = InMemoryStore()
    TruthWeaver(target, "maze", embeddings=BagOfWords()).insert(
        Candidate(id="own", text="Read the map first", round=1)
    )
    report = TruthBook(target, "maze").import_file(path)
    assert (report.read, report.added, report.skipped) == (4, 4, [])
    assert load_truths(target, "maze") == ["Read the map first", WALLS, KEY, UP]
    again = TruthBook(target, "maze").import_file(path)
    assert again.added == 0 and len(again.skipped) == 4  # idempotent
    lines = path.read_text().splitlines()
    for broken, says in [
        ("{not json", "line 3 is not JSON"),
        ('{"id": "t-x"}', "line 3 .*not a truth record"),
        (json.dumps({**json.loads(lines[2]), "format": 7}), "line 3 has format 7"),
        (json.dumps({**json.loads(lines[2]), "game": "othello"}), "a truth of 'othello'"),
        (lines[0], "line 3 repeats the id"),
    ]:
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join([lines[0], lines[1], broken, lines[3]]) + "\n")
        fresh = InMemoryStore()
        with pytest.raises(TruthBookError, match=says):
            TruthBook(fresh, "maze").import_file(bad)
        assert fresh.search(("truths", "maze")) == []  # nothing written


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_truths_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "store"
    with ChromaStore(folder, index=minilm_index(["text"])) as store:
        trained(store)
        up = next(t for t in TruthBook(store, "maze").truths() if t.text == UP)
    code, out, _ = cli(capsys, "truths", "list", str(folder))
    assert code == 0 and UP in out and RIGHT not in out and "| id " in out
    code, out, _ = cli(capsys, "truths", "list", str(folder), "--all")
    assert RIGHT in out and "superseded" in out
    code, out, _ = cli(capsys, "truths", "show", str(folder), up.id[:8])
    assert code == 0 and f"{up.id}: active" in out and "contest against" in out
    assert "round 2: created e3/summary (level L3)" in out
    code, out, _ = cli(capsys, "truths", "history", str(folder))
    assert code == 0 and out.index("round 1: created") < out.index("round 2: superseded")
    exported = tmp_path / "active.jsonl"
    code, _, err = cli(capsys, "truths", "export", str(folder), "--out", str(exported))
    assert code == 0 and "exported 3 truth(s) of maze" in err
    assert len(exported.read_text().splitlines()) == 3
    code, out, _ = cli(capsys, "truths", "revert", str(folder), up.id, "--reason", "too risky")
    assert code == 0 and f"{up.id}: reverted (by hand: too risky)" in out
    seeded = tmp_path / "seeded"
    code, out, _ = cli(capsys, "truths", "import", str(seeded), str(exported), "--game", "maze")
    assert code == 0 and "imported 3 of 3 truth(s) into maze" in out
    with ChromaStore(seeded) as store:
        assert load_truths(store, "maze") == [WALLS, KEY, UP]
    # Bad input: one line each, exit status 2.
    for argv, says in [
        (["list", str(tmp_path / "none")], "is no truth store"),
        (["show", str(folder)], "needs a truth id"),
        (["show", str(folder), "nope"], "no truth 'nope'"),
        (["import", str(folder), str(tmp_path / "missing.jsonl")], "cannot read"),
        (["list", str(folder), "--game", "othello"], "no truths of othello"),
    ]:
        code, out, err = cli(capsys, "truths", *argv)
        assert (code, says in err + out) == (2 if "othello" not in argv else 0, True), argv
