"""A process that reports what its own rate limiter of an endpoint says (spawned by tests)."""

from __future__ import annotations

from multiprocessing.connection import Connection

from langgraph_games.models.ratelimit import EndpointRateLimiter


def report_pause(connection: Connection, name: str) -> None:
    """For each endpoint name received: ``(paused_for, a request may go now)``; stops on ``""``."""
    limiters: dict[str, EndpointRateLimiter] = {}
    while True:
        asked = connection.recv()
        if not asked:
            return
        limiter = limiters.setdefault(asked, EndpointRateLimiter(name=asked))
        connection.send((limiter.paused_for(), limiter.acquire(blocking=False)))
