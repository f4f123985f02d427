"""Concurrent writers lose nothing: threads on one store, processes through a Chroma server."""

from __future__ import annotations

import multiprocessing
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from langgraph_games.memory import ChromaStore
from memory_fakes import fake_index, server_worker


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chroma_command() -> str:
    beside = Path(sys.executable).parent / "chroma"
    found = str(beside) if beside.exists() else shutil.which("chroma")
    if not found:
        pytest.skip("the `chroma` command of chromadb is not installed")
    return found


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """`chroma run` on a loopback port, started and stopped by this test module."""
    port = _free_port()
    data = tmp_path_factory.mktemp("chroma-server")
    log = (data / "server.log").open("w")
    server = subprocess.Popen(
        [_chroma_command(), "run", "--path", str(data / "db"), "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"chroma run did not start: {(data / 'server.log').read_text()[-2000:]}"
                    ) from None
                time.sleep(0.1)
        yield "127.0.0.1", port
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _check_all_there(store: ChromaStore, expected: dict[tuple[str, ...], dict[str, str]]) -> None:
    for namespace, items in expected.items():
        found = {h.key: h.value["text"] for h in store.search(namespace, limit=10_000)}
        assert found == items, namespace
    # Every item is searchable by its own text: its vector was written with it.
    for namespace, items in expected.items():
        for key, text in list(items.items())[:: max(1, len(items) // 5)]:
            top = store.search(namespace, query=text, limit=1)[0]
            assert top.key == key and top.score == pytest.approx(1.0, abs=1e-5)


def test_threads_writing_one_store_lose_nothing(store_dir: Path) -> None:
    threads, per_thread = 4, 5
    errors: list[BaseException] = []
    with ChromaStore(store_dir, index=fake_index(fields=["text"])) as store:

        def work(t: int) -> None:
            try:
                for i in range(per_thread):
                    store.put(("t", str(t)), f"k{i}", {"text": f"thread {t} item {i}"})
                    store.put(("shared",), f"t{t}-{i}", {"text": f"shared {t} {i}"})
                    store.put(("contended",), "same", {"text": f"writer {t} round {i}"})
                    store.search(("shared",), query=f"shared {t}", limit=3)
            except BaseException as exc:  # noqa: BLE001 - reported by the main thread
                errors.append(exc)

        workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert not errors
        expected = {("t", str(t)): {f"k{i}": f"thread {t} item {i}" for i in range(per_thread)}
                    for t in range(threads)}  # fmt: skip
        expected[("shared",)] = {
            f"t{t}-{i}": f"shared {t} {i}" for t in range(threads) for i in range(per_thread)
        }
        _check_all_there(store, expected)
        # The contended key holds one whole write, with exactly its own vector.
        same = store.get(("contended",), "same")
        assert same is not None
        assert store.search(("contended",), query=same.value["text"])[0].score == pytest.approx(
            1.0, abs=1e-5
        )
        assert store._vectors.count() == threads * per_thread * 2 + 1


def test_processes_through_a_chroma_server_lose_nothing(chroma_server: tuple[str, int]) -> None:
    host, port = chroma_server
    workers, count = 3, 6
    context = multiprocessing.get_context("spawn")
    procs = [
        context.Process(target=server_worker, args=(host, port, w, count)) for w in range(workers)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0] * workers
    with ChromaStore(
        host=host, port=port, name="shared", index=fake_index(fields=["text"])
    ) as store:
        expected = {("w", str(w)): {f"k{i}": f"worker {w} item {i}" for i in range(count)}
                    for w in range(workers)}  # fmt: skip
        expected[("pool",)] = {
            f"w{w}-{i}": f"pool {w} {i}" for w in range(workers) for i in range(count)
        }
        _check_all_there(store, expected)
        assert store.list_namespaces(prefix=("w",)) == [("w", str(w)) for w in range(workers)]
    # Data lives in the server, so a second client sees it.
    with ChromaStore(host=host, port=port, name="shared") as again:
        assert len(again.search(("pool",), limit=1000)) == workers * count


def test_a_directory_handed_between_processes_is_read_afresh(store_dir: Path) -> None:
    index = fake_index(fields=["text"])
    with ChromaStore(store_dir, index=index) as store:
        for i in range(30):
            store.put(("a",), f"k{i}", {"text": f"lesson {i}"})
        store.search(("a",), query="warm the index cache")
    writer = (
        "import sys; sys.path.insert(0, sys.argv[2])\n"
        "from memory_fakes import fake_index, server_worker\n"
        "from langgraph_games.memory import ChromaStore\n"
        "with ChromaStore(sys.argv[1], index=fake_index(fields=['text'])) as store:\n"
        "    store.put(('a',), 'new', {'text': 'brand new lesson'})\n"
        "    store.put(('a',), 'k0', {'text': 'changed lesson'})\n"
    )
    subprocess.run(
        [sys.executable, "-c", writer, str(store_dir), str(Path(__file__).parent.parent)],
        check=True,
    )
    # Closing released Chroma's cached index, so this process sees the other one's vectors.
    with ChromaStore(store_dir, index=index) as store:
        assert store.search(("a",), query="brand new lesson", limit=1)[0].key == "new"
        assert store.search(("a",), query="changed lesson", limit=1)[0].key == "k0"
