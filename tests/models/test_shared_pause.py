"""A provider's ``Retry-After`` pauses every worker process of the run, not only the one asked."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from endpoint_support import Endpoint
from langgraph_games.cli import main
from langgraph_games.models.ratelimit import EndpointRateLimiter
from langgraph_games.models.shared_pause import PAUSES_ENV, share_pauses
from pause_support import report_pause


def test_a_pause_in_one_process_holds_another_processes_limiter(tmp_path: Path) -> None:
    share_pauses(tmp_path / "pauses")
    mine, theirs = multiprocessing.Pipe()
    child = multiprocessing.get_context("spawn").Process(
        target=report_pause, args=(theirs, "ep"), daemon=True
    )
    child.start()
    try:
        mine.send("ep")
        assert mine.recv() == (0.0, True)  # nothing paused yet
        EndpointRateLimiter(name="ep").pause(30)  # this process's limiter, as a retry does
        mine.send("ep")
        paused, went = mine.recv()
        assert 25 < paused <= 30 and not went
        mine.send("other")  # another endpoint is not held
        assert mine.recv() == (0.0, True)
        mine.send("")
        child.join(30)
        assert child.exitcode == 0
    finally:
        if child.is_alive():
            child.kill()


def test_without_sharing_a_pause_stays_in_its_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PAUSES_ENV, raising=False)
    held, free = EndpointRateLimiter(name="a"), EndpointRateLimiter(name="a")
    held.pause(30)
    assert held.paused_for() > 25 and free.paused_for() == 0.0  # two processes' limiters


def test_no_worker_sends_a_request_inside_a_retry_after(
    endpoint: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    limited = (429, "application/json", b'{"error": {"message": "slow down"}}',
               {"Retry-After": "3"})  # fmt: skip
    endpoint.bodies = [limited]
    endpoint.delay_s = 0.2  # every answer takes 0.2 s: both workers keep calls in flight
    spec = f"gamebot:openai:gpt-x@{endpoint.url}"
    argv = ["arena", "tictactoe", "--players", spec, "random", "--matches", "8", "--workers", "2"]
    argv += ["--concurrency", "4", "--max-steps", "4", "-q", "--out", str(tmp_path)]
    assert main(argv) == 0, capsys.readouterr()
    calls = [r for r in endpoint.requests if r["path"].endswith("/chat/completions")]
    start = calls[0]["at"]  # the refused one
    inside = [r for r in calls[1:] if r["at"] < start + 2.9]
    # Four calls at a time in all: three more may have been in flight when the refusal came
    # (each process paused alone let about a dozen more in); none may start after it.
    assert len(calls) > 8 and len(inside) <= 3, [round(r["at"] - start, 2) for r in calls]
