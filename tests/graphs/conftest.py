"""A scripted chat model that records what it is sent, for the graph tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field


class ScriptedChatModel(BaseChatModel):
    """Answers by the last human message (the question); records every call.

    ``script`` maps a question (or any substring of it) to an answer, or is a function of
    the messages. ``latency`` makes every call take that long (asyncio.sleep when awaited).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: dict[str, str] | Callable[[Sequence[BaseMessage]], str] = Field(default_factory=dict)
    default: str = ""
    latency: float = 0.0
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    intervals: list[tuple[str, float, float]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _answer(self, messages: Sequence[BaseMessage]) -> str:
        if callable(self.script):
            return self.script(messages)
        question = next(
            (str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage)), ""
        )
        for key, answer in self.script.items():
            if key in question:
                return answer
        return self.default

    def _result(self, messages: Sequence[BaseMessage], started: float) -> ChatResult:
        self.calls.append(list(messages))
        question = next(
            (str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage)), ""
        )
        self.intervals.append((question, started, time.perf_counter()))
        text = self._answer(messages)
        usage = {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12}
        return ChatResult(
            generations=[ChatGeneration(message=AIMessage(text, usage_metadata=usage))]
        )

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        started = time.perf_counter()
        if self.latency:
            time.sleep(self.latency)
        return self._result(messages, started)

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        started = time.perf_counter()
        if self.latency:
            await asyncio.sleep(self.latency)
        return self._result(messages, started)


@pytest.fixture
def scripted() -> type[ScriptedChatModel]:
    return ScriptedChatModel
