"""The opt-in model-call cache: a rerun calls no endpoint, hits are marked and never counted."""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from endpoint_support import Endpoint
from langgraph_games.cli import main
from langgraph_games.models import ScriptedChatModel, limiter_for, load_chat_model
from langgraph_games.models.cache import (
    CACHE_ENV,
    ModelCacheError,
    SQLiteModelCache,
    is_cached,
    using_cache,
)
from langgraph_games.models.local import LocalChatModel
from langgraph_games.models.usage import ainvoke_measured

_VARYING = {"latency_s", "started_at", "duration_s", "match_id"}
_COUNTED = {"usage", "model_calls", "input_tokens", "output_tokens"}


def _completions(endpoint: Endpoint) -> list[dict[str, Any]]:
    return [r for r in endpoint.requests if r["path"].endswith("/chat/completions")]


def _records(folder: Path) -> list[dict[str, Any]]:
    (results,) = folder.glob("*.jsonl")
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    # workers finish in any order; a match is named by its round and seats
    return sorted(rows, key=lambda row: (row["round"], row["seats"]))


def _without(value: Any, keys: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _without(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [_without(v, keys) for v in value]
    return value


def _usages(value: Any) -> list[dict[str, Any]]:
    """Every decision attempt's usage, in order."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if "attempts" in value:
            found += [attempt["usage"] for attempt in value["attempts"]]
        for key, item in value.items():
            if key != "attempts":
                found += _usages(item)
    elif isinstance(value, list):
        for item in value:
            found += _usages(item)
    return found


def _arena(endpoint: Endpoint, out: Path, cache: Path, *more: str) -> list[str]:
    spec = f"gamebot:openai:gpt-x@{endpoint.url}"
    return ["arena", "tictactoe", "--players", spec, "random", "--matches", "2",
            "--max-steps", "4", "-q", "--out", str(out), "--cache", str(cache), *more]  # fmt: skip


def test_a_rerun_with_the_cache_calls_no_endpoint_and_records_the_same(
    endpoint: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "calls.sqlite"
    # The first run's two worker processes write the cache; the rerun reads it in one.
    assert main(_arena(endpoint, tmp_path / "first", cache, "--workers", "2")) == 0, (
        capsys.readouterr()
    )
    fresh = len(_completions(endpoint))
    assert fresh > 0
    assert main(_arena(endpoint, tmp_path / "again", cache, "--workers", "1")) == 0, (
        capsys.readouterr()
    )
    assert len(_completions(endpoint)) == fresh  # not one more model call
    assert CACHE_ENV not in os.environ  # the command's cache ends with it

    first, again = _records(tmp_path / "first"), _records(tmp_path / "again")
    assert _without(first, _VARYING | _COUNTED) == _without(again, _VARYING | _COUNTED)
    called, cached = _usages(first), _usages(again)
    assert len(called) == len(cached) and sum(u.get("calls", 0) for u in called) == fresh
    for before, after in zip(called, cached, strict=True):
        if before.get("calls"):  # a model's decision: marked, no call, no tokens
            assert after == {"calls": 0, "input_tokens": 0, "output_tokens": 0,
                             "total_tokens": 0, "cached_calls": before["calls"]}  # fmt: skip
        else:
            assert after == before  # a random move: no model
    for record in again:  # the players' counters hold no call and no token either
        llm = record["result"]["players"][record["seats"].index(next(
            s for s in record["seats"] if s.startswith("gamebot")))]  # fmt: skip
        assert (llm["model_calls"], llm["input_tokens"], llm["output_tokens"]) == (0, 0, 0)


def test_a_changed_temperature_misses(
    endpoint: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "calls.sqlite"
    assert main(_arena(endpoint, tmp_path / "a", cache, "--workers", "1")) == 0, capsys.readouterr()
    fresh = len(_completions(endpoint))
    more = ("--workers", "1", "--temperature", "0.5")
    assert main(_arena(endpoint, tmp_path / "b", cache, *more)) == 0, capsys.readouterr()
    warmer = _completions(endpoint)[fresh:]
    assert len(warmer) == fresh  # every call made again, at the new temperature
    assert all(json.loads(r["body"])["temperature"] == 0.5 for r in warmer)
    # ... and each kept apart: the same command again is answered from the cache
    assert main(_arena(endpoint, tmp_path / "c", cache, *more)) == 0, capsys.readouterr()
    assert len(_completions(endpoint)) == 2 * fresh


@pytest.mark.parametrize(
    ("content", "why"),
    [(b"this is no database " * 100, "file is not a database"), (None, "something else")],
)
def test_a_file_that_is_no_cache_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, why: str
) -> None:
    path = tmp_path / "broken.sqlite"
    if content is None:  # a SQLite file of another program
        with sqlite3.connect(path) as other:
            other.execute("CREATE TABLE notes (text TEXT)")
        other.close()
    else:
        path.write_bytes(content)
    argv = ["play", "tictactoe", "--players", "random", "random", "--cache", str(path)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and why in err, err
    assert err.startswith("langgraph-games play: error: model cache ")
    folder = tmp_path / "folder"
    folder.mkdir()
    assert main([*argv[:-1], str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{folder}: is a folder" in err, err


def test_a_hit_holds_no_limiter_slot_and_counts_apart(tmp_path: Path) -> None:
    model = ScriptedChatModel(responses=["Chosen Move: (1,1)"], name_="cache-slots")
    model.cache = SQLiteModelCache(tmp_path / "calls.sqlite")
    limiter = limiter_for(model)
    prompt = [HumanMessage("your move?")]

    first, used = asyncio.run(ainvoke_measured(model, prompt))
    entered = limiter.stats().entered
    again, reused = asyncio.run(ainvoke_measured(model, prompt))
    assert len(model.calls) == 1 and limiter.stats().entered == entered
    assert again.content == first.content and is_cached(again) and not is_cached(first)
    assert used["calls"] == 1 and "cached_calls" not in used
    assert (reused["calls"], reused["total_tokens"], reused["cached_calls"]) == (0, 0, 1)
    # Another prompt is a miss: a call, with its slot.
    other, counted = asyncio.run(ainvoke_measured(model, [HumanMessage("and now?")]))
    assert len(model.calls) == 2 and counted["calls"] == 1 and not is_cached(other)
    assert limiter.stats().entered == entered + 1


def test_models_built_inside_use_the_cache_and_a_copy_reopens_it(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "calls.sqlite"
    with using_cache(path) as cache:
        model = load_chat_model("openai:gpt-x@http://127.0.0.1:9/v1")
        assert model.cache is cache and os.environ[CACHE_ENV] == str(path)
        copy = pickle.loads(pickle.dumps(cache))
        assert isinstance(copy, SQLiteModelCache) and copy.path == path
    assert CACHE_ENV not in os.environ
    assert load_chat_model("openai:gpt-x@http://127.0.0.1:9/v1").cache is None


def test_the_key_holds_what_changes_a_reply() -> None:
    free = LocalChatModel(model_path="/models/key.gguf")
    constrained = free.model_copy(update={"grammar": 'root ::= "a"'})
    warmer = free.model_copy(update={"temperature": 0.7})
    keys = {m._get_llm_string() for m in (free, constrained, warmer)}
    assert len(keys) == 3
    assert free._get_llm_string() == LocalChatModel(model_path="/models/key.gguf")._get_llm_string()


def test_a_cache_error_names_its_file(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    path.write_text("not sqlite at all, not even close " * 50)
    with pytest.raises(ModelCacheError, match=f"model cache {path}: file is not a database"):
        SQLiteModelCache(path)
