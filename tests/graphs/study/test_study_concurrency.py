"""The study graph's calls are bounded: peak calls at once, and attempts against requests."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from langgraph_games.graphs.study.graph import (
    DEFAULT_STUDY_CONCURRENCY,
    GAME_QUESTIONS,
    RELEVANCE_QUESTIONS,
    StudyError,
    create_study_graph,
)
from langgraph_games.models import ModelCallError, ScriptedChatModel
from langgraph_games.models.limiter import limiter_for

PARAGRAPHS = 30
DOCUMENT = "\n\n".join(f"Paragraph {i}: trees give wood number {i}." for i in range(PARAGRAPHS))
REQUESTS = PARAGRAPHS * (len(RELEVANCE_QUESTIONS) + len(GAME_QUESTIONS))  # all are relevant


class RateLimitError(Exception):
    """Named like the OpenAI client's error, so the retry treats it as transient."""


def answer(messages: Sequence[BaseMessage]) -> str:
    return "Yes." if str(messages[-1].content).endswith("Answer yes or no.") else "1. Wood."


class Endpoint(ScriptedChatModel):
    """A scripted endpoint: records calls in flight; refuses those beyond ``capacity``."""

    capacity: int | None = None
    state: Any = None

    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        self.state = {"now": 0, "peak": 0, "attempts": 0, "refused": 0, "lock": threading.Lock()}

    def _enter(self) -> bool:
        state = self.state
        with state["lock"]:
            state["attempts"] += 1
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
            refused = self.capacity is not None and state["now"] > self.capacity
            state["refused"] += refused
        return bool(refused)

    def _leave(self, messages: list[BaseMessage], refused: bool) -> Any:
        with self.state["lock"]:
            self.state["now"] -= 1
        if refused:
            raise RateLimitError("429 Too Many Requests")
        return self._result(messages, answer(messages))

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        refused = self._enter()
        await asyncio.sleep(self.latency_s)
        return self._leave(messages, refused)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        refused = self._enter()
        time.sleep(self.latency_s)
        return self._leave(messages, refused)


def study(model: Endpoint, **options: Any) -> dict[str, Any]:
    graph = create_study_graph(model, retry_delay_s=0.001, **options)
    return dict(asyncio.run(graph.ainvoke({"document": DOCUMENT, "format": "text"})))


@pytest.mark.parametrize(("concurrency", "bound"), [(None, 8), (3, 3), (1, 1)])
def test_a_study_never_has_more_calls_in_flight_than_its_bound(
    concurrency: int | None, bound: int
) -> None:
    model = Endpoint(latency_s=0.002, name_=f"study-peak-{concurrency}")
    options = {} if concurrency is None else {"concurrency": concurrency}
    out = study(model, **options)
    assert DEFAULT_STUDY_CONCURRENCY == 8
    assert len(out["kept"]) == PARAGRAPHS and out["calls"] == REQUESTS
    assert model.state["peak"] == bound  # reached, never exceeded


def test_an_unbounded_study_sends_every_fan_out_at_once() -> None:
    model = Endpoint(latency_s=0.002, name_="study-unbounded")
    out = study(model, concurrency=None)
    assert out["calls"] == REQUESTS
    # 30 paragraphs x 2 relevance questions at once, then 30 x 4 game questions at once.
    assert model.state["peak"] == PARAGRAPHS * len(GAME_QUESTIONS)


def test_within_the_endpoints_capacity_every_request_takes_one_attempt() -> None:
    model = Endpoint(latency_s=0.002, capacity=4, name_="study-capacity")
    out = study(model, concurrency=4)
    assert model.state["refused"] == 0
    assert model.state["attempts"] == out["calls"] == REQUESTS


def test_beyond_the_endpoints_capacity_requests_are_refused_and_retried() -> None:
    model = Endpoint(latency_s=0.002, capacity=4, name_="study-flood")
    try:
        out = study(model, concurrency=None, call_attempts=10)
    except ModelCallError:  # some request was refused ten times
        out = {"calls": model.state["attempts"]}
    assert model.state["refused"] > 0
    assert model.state["attempts"] > REQUESTS
    assert out["calls"] == model.state["attempts"]


def test_the_endpoints_own_bound_applies_inside_the_studys() -> None:
    model = Endpoint(latency_s=0.002, name_="study-endpoint-bound")
    with limiter_for(model).capped(2):
        out = study(model, concurrency=8)
    assert out["calls"] == REQUESTS and model.state["peak"] == 2


def test_the_sync_path_is_bounded_too() -> None:
    model = Endpoint(latency_s=0.002, name_="study-sync")
    graph = create_study_graph(model, concurrency=2)
    out = graph.invoke({"document": DOCUMENT, "format": "text"})  # nodes run in threads
    assert out["calls"] == REQUESTS and model.state["peak"] == 2


@pytest.mark.parametrize("bad", [0, -3, 2.5])
def test_a_bad_concurrency_is_refused(bad: Any) -> None:
    with pytest.raises(StudyError, match="concurrency must be a whole number >= 1"):
        create_study_graph(Endpoint(), concurrency=bad)
