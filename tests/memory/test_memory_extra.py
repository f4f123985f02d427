"""The memory layer is the ``memory`` extra: without it, one line names the extra."""

from __future__ import annotations

from pathlib import Path

import pytest

from extras_support import hide_modules, one_line
from langgraph_games.cli import main
from langgraph_games.memory import ChromaStore, MemoryExtraError, MiniLMEmbeddings

INSTALL = "pip install -e '.[memory]' in a source checkout"


def test_a_store_without_chromadb_is_refused_before_touching_the_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hide_modules(monkeypatch, "chromadb")
    folder = tmp_path / "store"
    with pytest.raises(MemoryExtraError) as caught:
        ChromaStore(folder)
    text = one_line(caught.value)
    assert text.startswith("a ChromaStore needs the 'memory' extra (not installed: chromadb)")
    assert INSTALL in text
    assert not folder.exists()


def test_embeddings_name_only_the_missing_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_modules(monkeypatch, "onnxruntime")
    with pytest.raises(MemoryExtraError) as caught:
        MiniLMEmbeddings().embed_query("x")
    text = one_line(caught.value)
    assert "(not installed: onnxruntime)" in text and INSTALL in text
    assert "tokenizers" not in text and "chromadb" not in text


def test_the_truths_command_says_it_inone_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "chroma.sqlite3").write_bytes(b"")
    hide_modules(monkeypatch, "chromadb")
    assert main(["truths", "list", str(store)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("langgraph-games truths: error: a ChromaStore needs the 'memory'")


def test_with_the_extra_installed_a_store_opens(tmp_path: Path) -> None:
    # The opposite failure: the check must not refuse an install that has the extra.
    with ChromaStore(tmp_path / "store") as store:
        store.put(("a",), "k", {"v": 1})
        item = store.get(("a",), "k")
    assert item is not None and item.value == {"v": 1}
