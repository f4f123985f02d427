"""A scripted, deterministic chat model for tests, examples and dry runs.

``ScriptedChatModel`` answers from a list (cycled) or from a function of the messages,
optionally after a fixed latency, reports token usage, records every prompt it received
and accepts ``bind_tools`` (LangChain's own fakes raise there), so agent graphs and tool
loops can run end to end without a network. It streams too: under
``stream_mode="messages"``, ``astream_events`` or ``model.astream`` a text reply comes word
by word (each chunk a word with the whitespace after it), so tests see tokens as they would
from a provider.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import ConfigDict, Field, PrivateAttr

from langgraph_games.models.usage import one_call_per_invoke

__all__ = ["Script", "ScriptedChatModel"]

Script = Callable[[Sequence[BaseMessage]], "str | AIMessage | BaseException"]
"""A function from the prompt to the reply (text, a message, or an exception to raise)."""

_WORDS = re.compile(r"\S*\s*")


class ScriptedChatModel(BaseChatModel):
    """A chat model whose replies are scripted.

    Attributes:
        responses: Replies returned in order (cycled when exhausted). Items may be text,
            ``AIMessage`` objects (e.g. with tool calls) or exceptions to raise.
        script: Alternatively, a function of the messages returning the reply.
        latency_s: Seconds each call takes (``asyncio.sleep`` in async calls).
        name_: The model name reported in usage records.

    Example:
        >>> model = ScriptedChatModel(responses=["Chosen Move: (1,1)"])
        >>> model.invoke("your move?").content
        'Chosen Move: (1,1)'
        >>> model.calls[0][0].content
        'your move?'
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    responses: list[Any] = Field(default_factory=list)
    script: Any = None
    latency_s: float = 0.0
    name_: str = "scripted"

    _index: int = PrivateAttr(default=0)
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def model_name(self) -> str:
        """The name reported in usage records."""
        return self.name_

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.name_}

    @property
    def calls(self) -> list[list[BaseMessage]]:
        """The messages of every call so far, in order."""
        return self._calls

    def __getstate__(self) -> dict[Any, Any]:
        """Pickle without the lock (a copy sent to a worker process gets its own)."""
        state = dict(super().__getstate__())
        private = dict(state.get("__pydantic_private__") or {})
        private.pop("_lock", None)
        state["__pydantic_private__"] = private
        return state

    def __setstate__(self, state: dict[Any, Any]) -> None:
        """Unpickle and give the copy a lock of its own."""
        super().__setstate__(state)
        self._lock = threading.Lock()

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        """Accept tools (scripted replies carry their own tool calls)."""
        return self

    def _next(self, messages: Sequence[BaseMessage]) -> str | AIMessage:
        with self._lock:
            self._calls.append(list(messages))
            if self.script is not None:
                reply = self.script(messages)
            elif not self.responses:
                reply = ""
            else:
                reply = self.responses[self._index % len(self.responses)]
                self._index += 1
        if isinstance(reply, BaseException):
            raise reply
        return reply  # type: ignore[no-any-return]

    def _result(self, messages: Sequence[BaseMessage], reply: str | AIMessage) -> ChatResult:
        message = reply if isinstance(reply, AIMessage) else AIMessage(content=reply)
        if message.usage_metadata is None:
            prompt_words = sum(len(m.text.split()) for m in messages)
            output_words = len(message.text.split())
            usage: UsageMetadata = {  # type: ignore[typeddict-item]  # mypy 2.4 misreads NotRequired there
                "input_tokens": prompt_words,
                "output_tokens": output_words,
                "total_tokens": prompt_words + output_words,
            }
            message.usage_metadata = usage
        message.response_metadata.setdefault("model_name", self.name_)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency_s:
            time.sleep(self.latency_s)
        return self._result(messages, self._next(messages))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        return self._result(messages, self._next(messages))

    def _chunks(self, messages: Sequence[BaseMessage]) -> Iterator[ChatGenerationChunk]:
        """The reply as chunks: word by word; usage and model name ride on the last one."""
        message = self._result(messages, self._next(messages)).generations[0].message
        assert isinstance(message, AIMessage)
        text = message.content if isinstance(message.content, str) else ""
        words = [w for w in _WORDS.findall(text) if w] or [text]
        calls = [
            tool_call_chunk(
                name=call["name"], args=json.dumps(call["args"]), id=call.get("id"), index=i
            )
            for i, call in enumerate(message.tool_calls)
        ]
        if not isinstance(message.content, str):  # content blocks go whole, in one chunk
            words = []
        for word in words[:-1]:
            yield ChatGenerationChunk(message=AIMessageChunk(content=word))
        yield ChatGenerationChunk(
            message=AIMessageChunk(
                content=words[-1] if words else message.content,
                tool_call_chunks=calls,
                usage_metadata=message.usage_metadata,
                response_metadata=dict(message.response_metadata),
                additional_kwargs=dict(message.additional_kwargs),
            )
        )

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        if self.latency_s:
            time.sleep(self.latency_s)
        yield from self._chunks(messages)

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        for chunk in self._chunks(messages):
            yield chunk


one_call_per_invoke(ScriptedChatModel)  # one scripted reply per call, with its usage
