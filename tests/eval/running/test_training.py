"""The train command, its results file and store, resume after a kill, eval --truths, report."""

from __future__ import annotations

import json
import multiprocessing
import re
from pathlib import Path
from typing import Any

import pytest

from expver_support import GOOD, has, install_coach, train_and_die
from langgraph_games.cli import main
from langgraph_games.eval.reports.report import ROUND_FIELDS, build_report
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.training import TrainSpec, training_paths
from langgraph_games.memory import ChromaStore, load_experiences, load_truths
from langgraph_games.models import ScriptedChatModel
from table_support import rows_by_first, table_blocks

TRAIN = ["train", "maze", "--rounds", "2", "--model", "coach", "-q"]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def table_rows(text: str) -> dict[int, list[str]]:
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0].isdigit():
            rows[int(cells[0])] = cells[1:]
    return rows


def results_of(out_dir: Path) -> tuple[Path, list[dict[str, Any]]]:
    [path] = out_dir.glob("train-maze-*.jsonl")
    return path, ResultsFile(path).read().records


def test_train_maze_table_files_rerun_and_more_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    install_coach(monkeypatch)
    code, out, _ = cli(capsys, *TRAIN, "--out", str(tmp_path))
    assert code == 0
    rows = table_rows(out)
    assert sorted(rows) == [0, 1, 2]
    # round: train success, score, steps, promoted, added, merged, superseded, refused,
    # test success, score, change, decision, reverted, active truths
    assert rows[0][11] == "baseline" and rows[0][8] == "0.00"
    assert rows[1][3:8] == ["1", "3", "0", "0", "0"] and rows[1][11] == "kept"
    assert rows[1][8] == "50.00" and float(rows[1][10]) > 0
    assert rows[1][12:] == ["0", "3"]
    assert rows[2][11] == "unchanged"
    path, records = results_of(tmp_path)
    assert "(12 episodes played now)" in out and f"truths: {path.with_suffix('')}-store" in out
    assert "  1. Due to aimless moves" in out
    manifest = json.loads(path.with_suffix(".manifest.json").read_text())
    rounds = [r for r in records if r["kind"] == "round"]
    assert {(r["round"], r["split"]) for r in rounds} == {
        (0, "test"), (1, "train"), (1, "test"), (2, "train"), (2, "test")
    }  # fmt: skip
    for record in rounds:
        required = {k for k, v in ROUND_FIELDS.items() if "optional" not in v}
        assert required - {"game"} <= set(record)
        assert record["label"] == "expver" and record["spec_hash"] == manifest["spec_hash"]
    episodes = [r for r in records if r["kind"] == "episode"]
    assert {r["label"] for r in episodes} == {
        "expver r0 test", "expver r1 train", "expver r1 replay", "expver r1 test",
        "expver r2 train", "expver r2 replay",
    }  # fmt: skip
    assert all(r["family"] == "maze" and r["seats"] == ["eeb:coach"] for r in episodes)
    assert len({r["id"] for r in records}) == len(records)
    # The report reads the same file: the paper table per label and the round curves.
    report = build_report([path])
    assert [title for title, _ in report.sections] == ["episodes", "rounds expver"]
    # ... and its round table is exactly the one train printed.
    assert table_blocks(dict(report.sections)["rounds expver"]) == table_blocks(out, costs=False)
    assert not report.notes
    # Rerun: nothing played again, same table; more rounds: only the new round is played.
    code, again, _ = cli(capsys, *TRAIN, "--out", str(tmp_path))
    assert code == 0 and "(0 episodes played now)" in again
    assert table_rows(again) == rows
    code, more, _ = cli(capsys, *TRAIN, "--out", str(tmp_path), "--rounds", "3")
    assert code == 0 and sorted(table_rows(more)) == [0, 1, 2, 3]
    assert "(4 episodes played now)" in more  # round 3's two plays and two replays


def test_progress_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    install_coach(monkeypatch)
    argv = [a for a in TRAIN if a != "-q"]
    code, _, err = cli(capsys, *argv, "--rounds", "1", "--out", str(tmp_path))
    assert code == 0
    lines = err.splitlines()
    assert lines[0] == "round 0 test: success 0%, score -1000.0: baseline"
    assert lines[1] == "round 1: training on L1-train01, L1-train02"
    assert lines[2] == "round 1 L1-train01: play score -1000, no success"
    assert lines[3].startswith("round 1 L1-train01: experience: Due to aimless moves")
    assert re.match(r"round 1 L1-train01: replay score \d+, success$", lines[4])
    assert re.match(
        r"round 1 L1-train01: promoted: .*; truths \+3 added, 0 merged, 0 superseded", lines[5]
    )
    assert lines[-1].startswith("round 1 test: success 50%") and lines[-1].endswith(": kept")


def test_train_match2_and_the_ablation_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import langgraph_games.eval.running.players as eval_players

    def load(spec: str, **settings: Any) -> ScriptedChatModel:
        return ScriptedChatModel(responses=["I am not sure what to do."], name_=spec)

    monkeypatch.setattr(eval_players, "load_chat_model", load)
    argv = ["train", "match2", "--rounds", "1", "--model", "m", "--max-steps", "3"]
    code, out, _ = cli(capsys, *argv, "--train-maps", "1", "--test-maps", "1", "-q",
                       "--no-truthweaver", "--out", str(tmp_path))  # fmt: skip
    assert code == 0, out
    rows = table_rows(out)
    assert rows[1][3] == "0" and rows[1][11] == "unchanged"  # nothing usable to promote
    [path] = tmp_path.glob("train-match2-*.jsonl")
    records = ResultsFile(path).read().records
    assert {r["label"] for r in records if r["kind"] == "round"} == {"expver-append"}
    played = [r for r in records if r["kind"] == "episode"]
    assert {r["level"] for r in played} == {"easy-train01", "easy-eval01"}
    assert all(r["metrics"]["steps_used"] == 3 for r in played)
    [store] = tmp_path.glob("train-match2-*-store")
    with ChromaStore(store) as chroma:
        [exp] = load_experiences(chroma, "match2")
    assert exp.provenance["verdict"] == "unusable reflection: no-sections"


def test_eval_with_learned_truths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    install_coach(monkeypatch)
    assert cli(capsys, *TRAIN, "--rounds", "1", "--out", str(tmp_path / "train"))[0] == 0
    [store] = (tmp_path / "train").glob("*-store")
    with ChromaStore(store) as chroma:
        truths = load_truths(chroma, "maze")
    assert len(truths) == 3 and has(GOOD, truths[0])
    argv = ["eval", "maze", "--player", "eeb:coach", "--level", "1", "--sweep", "map_index=2..3"]
    argv += ["--max-steps", "16", "-q", "--out", str(tmp_path / "eval")]
    code, plain, _ = cli(capsys, *argv)
    assert code == 0
    code, learned, _ = cli(capsys, *argv, "--truths", str(store))
    assert code == 0 and f"truths: 3 from {store}" in learned
    rows = {**rows_by_first(plain), **rows_by_first(learned)}
    assert rows["eeb:coach"][1] == "0.00"  # success rate without the truths
    assert rows["eeb:coach +truths"][1] == "100.00"
    [with_truths] = [
        p for p in (tmp_path / "eval").glob("*.jsonl")
        if ResultsFile(p).read().records[0]["label"] == "eeb:coach +truths"
    ]  # fmt: skip
    manifest = json.loads(with_truths.with_suffix(".manifest.json").read_text())
    assert manifest["spec"]["truths"] == str(store) and manifest["spec"]["truths_digest"]
    # Resumed with the same truths: nothing to play; the limit changes the run.
    assert "(0 played now, 2 already done" in cli(capsys, *argv, "--truths", str(store))[1]
    limited = cli(capsys, *argv, "--truths", str(store), "--truth-limit", "0")[1]
    assert "truths: 0 from" in limited and "(2 played now" in limited
    code, _, err = cli(capsys, *argv, "--truths", str(tmp_path / "nothing"))
    assert code == 2 and "no truth store at" in err


def test_a_run_killed_inside_truthweaver_resumes_to_the_same_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real kill (os._exit in a spawned process) between two truth writes of one insert,
    # on a ChromaStore directory and a results file; then the same command again.
    killed = tmp_path / "killed"
    process = multiprocessing.get_context("spawn").Process(
        target=train_and_die, args=(str(killed), 2)
    )
    process.start()
    process.join(120)
    assert process.exitcode == 3
    path, before = results_of(killed)
    assert not any(r["kind"] == "round" and r["round"] == 1 for r in before)
    with ChromaStore(path.with_suffix("").parent / f"{path.stem}-store") as chroma:
        assert len(load_truths(chroma, "maze")) == 1  # one of the three candidates woven
    install_coach(monkeypatch)
    assert cli(capsys, *TRAIN, "--out", str(killed))[0] == 0
    assert cli(capsys, *TRAIN, "--out", str(tmp_path / "whole"))[0] == 0
    _, resumed = results_of(killed)
    _, whole = results_of(tmp_path / "whole")

    def durable(records: list[dict[str, Any]]) -> dict[str, Any]:
        return {r["id"]: r.get("metrics", r) if r["kind"] == "episode" else r for r in records}

    assert len({r["id"] for r in resumed}) == len(resumed)  # nothing written twice
    assert durable(resumed) == durable(whole)
    stores = [next(d.glob("*-store")) for d in (killed, tmp_path / "whole")]
    found = []
    for store in stores:
        with ChromaStore(store) as chroma:
            found.append((load_truths(chroma, "maze"), load_experiences(chroma, "maze")))
    assert found[0][0] == found[1][0] and len(found[0][0]) == 3
    assert [e.status for e in found[0][1]] == [e.status for e in found[1][1]]


def test_spec_hash_ignores_rounds_and_paths() -> None:
    spec = TrainSpec(game="maze", agent="eeb:local")
    longer = spec.model_copy(update={"expver": spec.expver.model_copy(update={"rounds": 9})})
    assert spec.spec_hash() == longer.spec_hash()
    other = TrainSpec(game="maze", agent="eeb:local", train_maps=3)
    assert other.spec_hash() != spec.spec_hash()
    results, store = training_paths(spec, "runs")
    assert results.name == f"train-maze-{spec.spec_hash()}.jsonl"
    assert store.name == f"train-maze-{spec.spec_hash()}-store"
    assert [lv.id for lv in spec.train_levels()][:3] == ["L1-train01", "L1-train02", "L1-train03"]
    two = TrainSpec(game="maze", levels=[1, 3], test_maps=1)
    assert [lv.id for lv in two.test_levels()] == ["L1-eval01", "L3-eval01"]
    assert two.graph_options().levels_per_round == 4
    with pytest.raises(ValueError, match="the evaluation set has 30"):
        TrainSpec(game="maze", test_maps=31).test_levels()


def test_train_refuses_a_search_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "train", "maze", "--player", "maze_explorer", "--out", str(tmp_path))
    assert code == 2 and "train needs an LLM strategy" in err


def test_the_revert_bound_and_verbatim_flags_are_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    install_coach(monkeypatch)
    argv = ["train", "maze", "--rounds", "1", "--model", "coach", "-q", "--out", str(tmp_path)]
    code, _, _ = cli(capsys, *argv, "--revert-retries", "1", "--verbatim")
    assert code == 0
    path, records = results_of(tmp_path)
    manifest = json.loads(path.with_suffix(".manifest.json").read_text())
    expver = manifest["spec"]["expver"]
    assert (expver["revert_retries"], expver["require_advice"]) == (1, False)
    [judged] = [r for r in records if r.get("id") == "round/1/test"]
    assert (judged["revert_retries"], judged["retry"], judged["next_retry"]) == (1, 0, 0)
