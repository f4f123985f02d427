"""The store-directory lock: one process per directory, shared by the stores of that process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from langgraph_games.memory import ChromaStore, StoreLockedError
from memory_fakes import fake_index

LOCK_FILE = "langgraph-games.lock"


def other_process_opens(directory: Path) -> str:
    """Open a store on ``directory`` from another process: ``"opened"`` or the refusal."""
    script = (
        "import sys; sys.path.insert(0, sys.argv[2])\n"
        "from memory_fakes import fake_index\n"
        "from langgraph_games.memory import ChromaStore, StoreLockedError\n"
        "try:\n"
        "    index = fake_index(fields=['text'])\n"
        "    ChromaStore(sys.argv[1], index=index, lock_timeout=0.2).close()\n"
        "    print('opened')\n"
        "except StoreLockedError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(directory), str(Path(__file__).parent.parent)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.strip()


def test_stores_of_one_process_share_the_lock_until_the_last_closes(store_dir: Path) -> None:
    index = fake_index(fields=["text"])
    first = ChromaStore(store_dir, index=index)
    second = ChromaStore(store_dir, index=index, lock_timeout=0)  # no wait: already held here
    assert (store_dir / LOCK_FILE).read_text().strip() == str(os.getpid())
    first.close()
    refusal = other_process_opens(store_dir)  # the second store still holds the directory
    lock_path = str((store_dir / LOCK_FILE).resolve())
    assert "is open in another process (pid " in refusal and f"holding {lock_path})" in refusal
    assert "chroma run --path" in refusal
    second.close()
    assert other_process_opens(store_dir) == "opened"


def test_a_store_closed_by_another_thread_lets_the_directory_go(store_dir: Path) -> None:
    store = ChromaStore(store_dir, index=fake_index(fields=["text"]))
    closer = threading.Thread(target=store.close)
    closer.start()
    closer.join()
    assert other_process_opens(store_dir) == "opened"


def test_a_refusal_in_this_process_names_the_holder_and_the_lock_file(store_dir: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, sys.argv[2])\n"
            "from memory_fakes import fake_index\n"
            "from langgraph_games.memory import ChromaStore\n"
            "store = ChromaStore(sys.argv[1], index=fake_index(fields=['text']))\n"
            "print('held', flush=True); sys.stdin.read()\n",
            str(store_dir),
            str(Path(__file__).parent.parent),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(StoreLockedError) as refused:
            ChromaStore(store_dir, index=fake_index(fields=["text"]), lock_timeout=0.1)
        assert f"(pid {holder.pid}, holding {(store_dir / LOCK_FILE).resolve()})" in str(
            refused.value
        )
    finally:
        assert holder.stdin is not None
        holder.stdin.close()  # the holder exits at end of input
        holder.wait(timeout=60)
    with ChromaStore(store_dir, index=fake_index(fields=["text"]), lock_timeout=5):
        pass  # the lock left with its process
