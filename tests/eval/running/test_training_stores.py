"""Training on any LangGraph store: ChromaStore, InMemoryStore, SqliteStore; ``--store`` specs.

The same run on each store plays the same rounds and ends with the same truths; from the
command line ``--store`` takes a Chroma directory, ``sqlite:PATH`` or ``memory:``, and
``truths list`` reads what a run left in each store that lasts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from expver_support import coach_script, install_coach
from langgraph_games.cli import build_parser, main
from langgraph_games.cli.train_cmd import build_spec
from langgraph_games.eval.running.training import TrainReport, run_training
from langgraph_games.memory import (
    Candidate,
    ChromaStore,
    TruthBook,
    TruthWeaver,
    load_truths,
    minilm_index,
)
from langgraph_games.memory.errors import StoreOpenError
from langgraph_games.memory.stores import (
    NOT_KEPT,
    POSTGRES_PACKAGE,
    ThreadedStore,
    open_store,
    parse_store,
    sqlite_vectors,
    store_features,
    with_async_api,
)
from langgraph_games.models import ScriptedChatModel

ARGV = ["train", "maze", "--rounds", "1", "--test-maps", "1", "--model", "coach", "-q"]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@contextmanager
def store_of(kind: str, folder: Path) -> Iterator[BaseStore]:
    """A store object of each kind, as a Python caller builds it."""
    if kind == "chroma":
        with ChromaStore(folder / "chroma", index=minilm_index(["text"])) as chroma:
            yield chroma
    elif kind == "memory":
        yield InMemoryStore()
    else:
        with SqliteStore.from_conn_string(str(folder / "truths.sqlite")) as sqlite:
            yield sqlite


async def train_on(store: BaseStore, out: Path) -> TrainReport:
    spec = build_spec(build_parser().parse_args(ARGV))
    return await run_training(
        spec, out, store=store, model=ScriptedChatModel(script=coach_script())
    )


@pytest.mark.parametrize("kind", ["chroma", "memory", "sqlite"])
async def test_a_training_run_on_each_store_learns_the_same_truths(
    kind: str, tmp_path: Path
) -> None:
    with store_of("chroma", tmp_path / "reference") as chroma:
        expected = await train_on(chroma, tmp_path / "reference")
    with store_of(kind, tmp_path) as store:
        report = await train_on(store, tmp_path / kind)
        assert report.table == expected.table
        assert report.truths == expected.truths != []
        assert report.store == type(store).__name__
        assert report.store_lasts is (kind != "memory")
        # what `truths list` shows: the book of the store's truths
        listed = [t.text for t in TruthBook(store, "maze").truths()]
        assert sorted(listed) == sorted(report.truths)
        assert load_truths(store, "maze") == report.truths


async def test_a_sqlite_store_resumes_the_run_and_a_fresh_memory_store_cannot(
    tmp_path: Path,
) -> None:
    with store_of("sqlite", tmp_path) as store:
        first = await train_on(store, tmp_path / "run")
    with store_of("sqlite", tmp_path) as store:
        again = await train_on(store, tmp_path / "run")
    assert (first.played, again.played) == (6, 0)
    assert again.truths == first.truths
    with pytest.raises(Exception, match="the store has never seen it"):
        await train_on(InMemoryStore(), tmp_path / "run")


def test_train_and_truths_list_on_store_specs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    install_coach(monkeypatch)
    database = tmp_path / "truths.sqlite"
    code, out, _ = cli(capsys, *ARGV, "--out", str(tmp_path / "a"), "--store", f"sqlite:{database}")
    assert code == 0 and f"truths: sqlite:{database} (3 active)" in out
    assert f"--truths sqlite:{database}" in out
    code, listed, _ = cli(capsys, "truths", "list", f"sqlite:{database}")
    assert code == 0 and "Due to aimless moves" in listed
    code, out, _ = cli(capsys, *ARGV, "--out", str(tmp_path / "b"), "--store", "memory:")
    assert code == 0 and "truths: memory: (3 active, not kept after this run)" in out
    assert "evaluate with them" not in out and "  1. Due to aimless moves" in out
    code, _, err = cli(capsys, "truths", "list", "memory:")
    assert code == 2 and NOT_KEPT in err and len(err.strip().splitlines()) == 1
    folder = tmp_path / "chroma-store"
    code, out, _ = cli(capsys, *ARGV, "--out", str(tmp_path / "c"), "--store", str(folder))
    assert code == 0 and f"truths: {folder} (3 active)" in out
    assert "Due to aimless moves" in cli(capsys, "truths", "list", str(folder))[1]


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("redis://localhost", "unknown store 'redis://localhost'; accepted: a directory"),
        ("sqlite:", "store 'sqlite:' names no location"),
        ("memory:x", "memory: takes no location"),
    ],
)
def test_a_spec_that_is_not_understood_is_refused_before_training(
    spec: str,
    problem: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    install_coach(monkeypatch)
    code, _, err = cli(capsys, *ARGV, "--out", str(tmp_path), "--store", spec)
    assert code == 2 and problem in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_postgres_without_its_package_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        import langgraph.store.postgres  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("langgraph-checkpoint-postgres is installed here")
    install_coach(monkeypatch)
    uri = "postgresql://me:secret@localhost:5/games"
    code, _, err = cli(capsys, *ARGV, "--out", str(tmp_path), "--store", uri)
    assert code == 2 and f"pip install {POSTGRES_PACKAGE}" in err
    assert len(err.strip().splitlines()) == 1 and "secret" not in err
    assert list(tmp_path.iterdir()) == []  # refused before anything is written
    assert str(parse_store(uri)) == "postgresql://me:***@localhost:5/games"


def test_paths_and_drive_letters_are_chroma_directories() -> None:
    assert parse_store("runs/store").kind == "chroma"
    assert parse_store(r"C:\runs\store").kind == "chroma"
    assert parse_store(Path("sqlite:odd-folder")).kind == "chroma"  # a Path is a path
    assert parse_store("chroma:runs/store").location == "runs/store"
    assert parse_store("postgres://db/x").location == "postgres://db/x"


def test_reading_a_store_that_is_not_there_is_refused(tmp_path: Path) -> None:
    for spec in [f"sqlite:{tmp_path / 'none.sqlite'}", str(tmp_path / "none"), "memory:"]:
        with pytest.raises(StoreOpenError), open_store(spec, create=False):
            pass
    (tmp_path / "junk.sqlite").write_text("not a database " * 100)
    junk = f"sqlite:{tmp_path / 'junk.sqlite'}"
    with pytest.raises(StoreOpenError, match="not a usable SQLite store"), open_store(junk):
        pass


async def test_a_store_without_an_async_api_is_used_through_threads(tmp_path: Path) -> None:
    with SqliteStore.from_conn_string(str(tmp_path / "s.sqlite")) as sqlite:
        with pytest.raises(NotImplementedError):
            await sqlite.aget(("a",), "k")
        usable = await with_async_api(sqlite)
        assert isinstance(usable, ThreadedStore)
        await usable.aput(("a",), "k", {"text": "x"})
        assert sqlite.get(("a",), "k") is not None  # written to the store itself
    memory = InMemoryStore()
    assert await with_async_api(memory) is memory  # one with its own async API: as it is


def test_semantic_search_only_where_an_index_is_configured(tmp_path: Path) -> None:
    lessons = [
        Candidate(id="c1", text="Avoid monsters at night.", round=1),
        Candidate(id="c2", text="Collect every coin first.", round=1),
    ]

    def best(store: BaseStore) -> list[str]:
        TruthWeaver(store, "maze", mode="append").insert_many(lessons)
        return load_truths(store, "maze", query="stay away from enemies", limit=1)

    indexed = InMemoryStore(index=minilm_index(["text"]))
    assert store_features(indexed).semantic_search
    assert best(indexed) == ["Avoid monsters at night."]
    plain = InMemoryStore()
    assert not store_features(plain).semantic_search
    assert best(plain) == ["Collect every coin first."]  # the query is not used: the newest
    with open_store(f"sqlite:{tmp_path / 'v.sqlite'}", index=minilm_index(["text"])) as store:
        # an index where this Python's SQLite can load sqlite-vec, else none
        assert store_features(store).semantic_search is sqlite_vectors()
        assert best(store) == (
            ["Avoid monsters at night."] if sqlite_vectors() else ["Collect every coin first."]
        )
