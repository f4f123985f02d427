"""Bad input gets clear errors naming what is expected, and never a half-written store."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import chromadb
import pytest
from chromadb.config import Settings
from langgraph.store.base import InvalidNamespaceError, PutOp

from langgraph_games.memory import (
    ChromaStore,
    EmbeddingDimensionError,
    InvalidValueError,
    StoreLockedError,
    StoreOpenError,
)
from memory_fakes import fake_index


def test_a_file_where_the_directory_should_be(tmp_path: Path) -> None:
    (tmp_path / "store").write_text("not a directory")
    with pytest.raises(StoreOpenError, match=r"is a file; expected a directory"):
        ChromaStore(tmp_path / "store")


def test_a_directory_of_something_else(store_dir: Path) -> None:
    store_dir.mkdir()
    (store_dir / "results.jsonl").write_text("{}\n")
    with pytest.raises(StoreOpenError, match=r"not empty and holds no chroma.sqlite3"):
        ChromaStore(store_dir)
    assert sorted(p.name for p in store_dir.iterdir()) == ["results.jsonl"]


def test_a_corrupt_database_file(store_dir: Path) -> None:
    store_dir.mkdir()
    (store_dir / "chroma.sqlite3").write_bytes(b"garbage" * 100)
    with pytest.raises(StoreOpenError, match=r"not an SQLite database"):
        ChromaStore(store_dir)


def test_an_sqlite_database_that_is_not_chroma(store_dir: Path) -> None:
    store_dir.mkdir()
    connection = sqlite3.connect(store_dir / "chroma.sqlite3")
    connection.execute("CREATE TABLE notes (x)")
    connection.commit()
    connection.close()
    with pytest.raises(StoreOpenError, match=r"not a Chroma store .*collections"):
        ChromaStore(store_dir)
    connection = sqlite3.connect(store_dir / "chroma.sqlite3")
    tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
    connection.close()
    assert tables == {"notes"}  # untouched


def test_a_collection_written_by_something_else(store_dir: Path) -> None:
    client = chromadb.PersistentClient(
        str(store_dir), settings=Settings(anonymized_telemetry=False)
    )
    client.create_collection("langgraph-items", embedding_function=None, metadata={"x": 1})
    with pytest.raises(StoreOpenError, match=r"not created by langgraph-games.*another name="):
        ChromaStore(store_dir)
    with ChromaStore(store_dir, name="games") as store:  # another name works
        store.put(("a",), "k", {"v": 1})


def test_a_store_in_another_format(store_dir: Path) -> None:
    with ChromaStore(store_dir) as store:
        meta = dict(store._items.metadata or {})
        store._items.modify(metadata={**meta, "format": 99})
    with pytest.raises(StoreOpenError, match=r"format 99; this version .* reads format 1"):
        ChromaStore(store_dir)


def test_a_damaged_record_names_itself(memory_store: ChromaStore) -> None:
    memory_store.put(("a",), "k", {"text": "x"})
    rid = memory_store._items.get(include=[])["ids"][0]
    memory_store._items.update(ids=[rid], documents=["{not json"], embeddings=[[1.0, 0.0]])
    with pytest.raises(StoreOpenError, match=r"\('a',\)/'k' is not JSON"):
        memory_store.get(("a",), "k")


def test_reopening_with_other_dimensions(store_dir: Path) -> None:
    with ChromaStore(store_dir, index=fake_index(16)) as store:
        store.put(("a",), "k", {"text": "x"})
    with pytest.raises(EmbeddingDimensionError, match=r"16-dim vectors.*dims=8.*reindex=True") as e:
        ChromaStore(store_dir, index=fake_index(8))
    assert (e.value.expected, e.value.got) == (16, 8)

    def other_model(texts: list[str]) -> list[list[float]]:
        return [[1.0] * 16 for _ in texts]

    with pytest.raises(StoreOpenError, match=r"DeterministicFakeEmbedding.*other_model"):
        ChromaStore(store_dir, index={"dims": 16, "embed": other_model})
    # The refused opens left the directory usable and unlocked.
    with ChromaStore(store_dir, index=fake_index(16)) as store:
        assert store.get(("a",), "k") is not None


def test_an_embedding_of_the_wrong_length_writes_nothing(memory_store: ChromaStore) -> None:
    memory_store.put(("a",), "keep", {"text": "kept"})
    memory_store.embeddings = fake_index(8)["embed"]  # type: ignore[assignment]
    with pytest.raises(EmbeddingDimensionError, match=r"8-dim vector.*expects dims=16"):
        memory_store.batch(
            [PutOp(("a",), "new", {"text": "x"}), PutOp(("a",), "keep", {"text": "changed"})]
        )
    assert memory_store.get(("a",), "new") is None
    kept = memory_store.get(("a",), "keep")
    assert kept is not None and kept.value == {"text": "kept"}
    with pytest.raises(EmbeddingDimensionError):
        memory_store.search(("a",), query="kept")


@pytest.mark.parametrize(
    ("namespace", "message"),
    [
        ((), "cannot be empty"),
        (("langgraph", "x"), 'cannot be "langgraph"'),
        (("a.b",), "cannot contain periods"),
        (("",), "cannot be empty strings"),
        (("a", "x\x00"), "NUL"),
        (("a", 3), "must be strings"),
    ],
)
def test_namespaces_langgraph_forbids(
    memory_store: ChromaStore, namespace: tuple[Any, ...], message: str
) -> None:
    with pytest.raises(InvalidNamespaceError, match=message):
        memory_store.put(namespace, "k", {"v": 1})
    # Straight through batch() too, and the valid put in the same batch is not written.
    with pytest.raises(InvalidNamespaceError):
        memory_store.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(namespace, "k", {"v": 1})])
    assert memory_store.get(("ok",), "k") is None


def test_search_and_list_check_labels_too(memory_store: ChromaStore) -> None:
    with pytest.raises(InvalidNamespaceError):
        memory_store.search(("a.b",))
    with pytest.raises(InvalidNamespaceError):
        memory_store.list_namespaces(prefix=("a.b",))
    with pytest.raises(ValueError, match=r"limit and offset must be >= 0"):
        memory_store.search(("a",), limit=-1)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"a": float("nan")}, r"\['a'\] is nan; JSON has no NaN"),
        ({"a": [1, {"b": object()}]}, r"\['a'\]\[1\]\['b'\] is a object; expected a JSON value"),
        ({"a": {1: "x"}}, r"\['a'\] has the key 1 of type int"),
        (["not", "a", "dict"], "is a list; expected a dict"),
    ],
)
def test_values_that_are_not_json(memory_store: ChromaStore, value: Any, message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        memory_store.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(("a",), "k", value)])
    assert memory_store.get(("ok",), "k") is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"at most one of path=, client= and host="):
        ChromaStore("x", host="localhost")
    with pytest.raises(ValueError, match=r"name 'a b' is not usable"):
        ChromaStore(name="a b")
    with pytest.raises(ValueError, match=r"index\['dims'\] must be a positive int"):
        ChromaStore(index={"dims": 0, "embed": fake_index()["embed"]})
    with ChromaStore() as store, pytest.raises(NotImplementedError, match=r"TTL"):
        store.put(("a",), "k", {"v": 1}, ttl=5)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_server() -> None:
    port = free_port()
    with pytest.raises(
        StoreOpenError, match=rf"cannot reach a Chroma server at http://127.0.0.1:{port}"
    ):
        ChromaStore(host="127.0.0.1", port=port)


def test_a_directory_held_by_another_process(store_dir: Path) -> None:
    with ChromaStore(store_dir) as store:
        store.put(("a",), "k", {"v": 1})
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time\n"
            f"f = open({str(store_dir / 'langgraph-games.lock')!r}, 'a+')\n"
            "fcntl.flock(f, fcntl.LOCK_EX); f.seek(0); f.truncate(); f.write('4242'); f.flush()\n"
            "print('held', flush=True); time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(
            StoreLockedError, match=r"open in another process .pid 4242.*chroma run"
        ):
            ChromaStore(store_dir, lock_timeout=0.2)
    finally:
        holder.kill()
        holder.wait()
    with ChromaStore(store_dir, lock_timeout=5) as store:  # the lock died with its process
        assert store.get(("a",), "k") is not None
