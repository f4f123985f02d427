"""Usage accounting: a callback handler recording tokens and latency of every model call."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import LLMResult
from langchain_core.runnables import RunnableConfig

from langgraph_games.models.cache import is_cached
from langgraph_games.models.limiter import CallLimiter
from langgraph_games.models.plain_call import is_one_call, one_call_per_invoke
from langgraph_games.models.retry import RetryWait, ainvoke_with_retry, invoke_with_retry

__all__ = [
    "USAGE_KEYS",
    "CallRecord",
    "UsageRecorder",
    "ainvoke_measured",
    "call_usage",
    "invoke_measured",
    "message_usage",
    "one_call_per_invoke",
    "with_handler",
]

USAGE_KEYS = ("input_tokens", "output_tokens", "total_tokens")


@dataclass(frozen=True)
class CallRecord:
    """One model call: the model, its token counts, wall time and error, if any.

    ``cached``: the reply came from the model-call cache
    (:mod:`~langgraph_games.models.cache`); such a record holds no tokens.
    """

    model: str
    input_tokens: int
    output_tokens: int
    latency_s: float
    error: str | None = None
    cached: bool = False

    def to_dict(self) -> dict[str, str | int | float | bool | None]:
        """JSON-friendly form."""
        return asdict(self)


def message_usage(message: object) -> dict[str, int]:
    """Token counts a model reported with one reply (zeros when it reported none).

    Reads ``usage_metadata`` (LangChain's standard field, filled by OpenAI-compatible
    endpoints and the local model); works on anything, so a plain string gives zeros.

    Example:
        >>> from langchain_core.messages import AIMessage
        >>> usage = {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7}
        >>> message_usage(AIMessage("hi", usage_metadata=usage))
        {'input_tokens': 5, 'output_tokens': 2, 'total_tokens': 7}
        >>> message_usage("hi")
        {'input_tokens': 0, 'output_tokens': 0, 'total_tokens': 0}
    """
    usage = getattr(message, "usage_metadata", None) or {}
    counts = {key: int(usage.get(key, 0) or 0) for key in USAGE_KEYS}
    if not counts["total_tokens"]:
        counts["total_tokens"] = counts["input_tokens"] + counts["output_tokens"]
    return counts


def call_usage(reply: object) -> dict[str, int]:
    """The usage of one call that gave ``reply``: ``calls`` and its token counts.

    A reply served from the model-call cache counts as no call and no tokens, and
    ``cached_calls`` 1.

    Example:
        >>> usage = {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7}
        >>> call_usage(AIMessage("hi", usage_metadata=usage))["calls"]
        1
        >>> call_usage(AIMessage("hi", usage_metadata=usage, response_metadata={"cached": True}))
        {'calls': 0, 'input_tokens': 0, 'output_tokens': 0, 'total_tokens': 0, 'cached_calls': 1}
    """
    if is_cached(reply):
        return {"calls": 0, **dict.fromkeys(USAGE_KEYS, 0), "cached_calls": 1}
    return {"calls": 1, **message_usage(reply)}


class UsageRecorder(BaseCallbackHandler):
    """Records every chat-model call made with it in ``config={"callbacks": [...]}``.

    Token counts come from the reply's ``usage_metadata`` (OpenAI-compatible endpoints
    and the local model both fill it); latency is measured between the start and end
    callbacks. Thread-safe, so one recorder may watch concurrent calls.

    Example:
        >>> from langgraph_games.models.fake import ScriptedChatModel
        >>> recorder = UsageRecorder()
        >>> _ = ScriptedChatModel(responses=["ok"]).invoke("hi", config={"callbacks": [recorder]})
        >>> recorder.totals()["calls"], recorder.totals()["output_tokens"]
        (1, 1)
    """

    # Run the (cheap, lock-protected) handlers inline in async runs instead of handing
    # each event to a worker thread.
    run_inline = True

    def __init__(self) -> None:
        self.records: list[CallRecord] = []
        self._started: dict[UUID, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        **kwargs: Any,
    ) -> None:
        """Remember when the call started and which model it went to."""
        params = kwargs.get("invocation_params") or {}
        name = str(
            params.get("model_name")
            or params.get("model")
            or (serialized or {}).get("name")
            or "unknown"
        )
        with self._lock:
            self._started[run_id] = (time.perf_counter(), name)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """Record tokens and latency of a finished call."""
        start, name = self._pop(run_id)
        messages = [getattr(g, "message", None) for gs in response.generations for g in gs]
        if messages and all(is_cached(message) for message in messages):
            self._add(CallRecord(name, 0, 0, time.perf_counter() - start, cached=True))
            return
        input_tokens = output_tokens = 0
        for generations in response.generations:
            for generation in generations:
                usage = message_usage(getattr(generation, "message", None))
                input_tokens += usage["input_tokens"]
                output_tokens += usage["output_tokens"]
        if not input_tokens and not output_tokens and response.llm_output:
            reported = response.llm_output.get("token_usage") or {}
            input_tokens = int(reported.get("prompt_tokens", 0))
            output_tokens = int(reported.get("completion_tokens", 0))
        self._add(CallRecord(name, input_tokens, output_tokens, time.perf_counter() - start))

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Record a failed call (no tokens)."""
        start, name = self._pop(run_id)
        self._add(CallRecord(name, 0, 0, time.perf_counter() - start, error=repr(error)))

    def _pop(self, run_id: UUID) -> tuple[float, str]:
        with self._lock:
            return self._started.pop(run_id, (time.perf_counter(), "unknown"))

    def _add(self, record: CallRecord) -> None:
        with self._lock:
            self.records.append(record)

    def totals(self) -> dict[str, float]:
        """Sum over all calls: ``calls``, ``errors``, tokens and ``latency_s``.

        Replies served from the model-call cache are not calls: they are counted apart,
        as ``cached_calls``.
        """
        with self._lock:
            records = list(self.records)
        fresh = [r for r in records if not r.cached]
        return {
            "calls": len(fresh),
            "cached_calls": len(records) - len(fresh),
            "errors": sum(1 for r in records if r.error),
            "input_tokens": sum(r.input_tokens for r in records),
            "output_tokens": sum(r.output_tokens for r in records),
            "latency_s": sum(r.latency_s for r in fresh),
        }


def with_handler(config: RunnableConfig | None, handler: BaseCallbackHandler) -> RunnableConfig:
    """A copy of ``config`` whose callbacks also include ``handler``.

    The callbacks of a node's config may be a list or a callback manager (inside a
    graph); both keep what they had, so tracing and streaming still see the call.
    """
    merged: RunnableConfig = dict(config or {})  # type: ignore[assignment]
    callbacks = merged.get("callbacks")
    if callbacks is None:
        merged["callbacks"] = [handler]
    elif isinstance(callbacks, list):
        merged["callbacks"] = [*callbacks, handler]
    else:
        manager = callbacks.copy()
        manager.add_handler(handler, inherit=True)
        merged["callbacks"] = manager
    return merged


def _from_reply(reply: AIMessage, started: float, waits: Sequence[RetryWait]) -> dict[str, float]:
    """The usage of a one-call model's reply after ``waits`` (each after a failed call)."""
    counted = call_usage(reply)
    usage: dict[str, float] = {
        "calls": counted["calls"] + len(waits),
        "input_tokens": counted["input_tokens"],
        "output_tokens": counted["output_tokens"],
        "total_tokens": counted["input_tokens"] + counted["output_tokens"],
    }
    return _finished(usage, int(counted.get("cached_calls", 0)), started, waits)


def _measured(
    recorder: UsageRecorder, reply: AIMessage, started: float, waits: Sequence[RetryWait]
) -> dict[str, float]:
    totals = recorder.totals()
    cached = int(totals["cached_calls"]) or int(is_cached(reply))
    calls = int(totals["calls"])
    usage: dict[str, float] = {
        # a model skipping callbacks still made its call
        "calls": calls if calls or cached else 1,
        "input_tokens": int(totals["input_tokens"]),
        "output_tokens": int(totals["output_tokens"]),
    }
    fresh_reply = not is_cached(reply)
    if fresh_reply and not usage["input_tokens"] and not usage["output_tokens"]:
        reported = message_usage(reply)
        usage["input_tokens"] = reported["input_tokens"]
        usage["output_tokens"] = reported["output_tokens"]
    usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
    return _finished(usage, cached, started, waits)


def _finished(
    usage: dict[str, float], cached: int, started: float, waits: Sequence[RetryWait]
) -> dict[str, float]:
    """``usage`` with the call's wall time, its cache mark and its retries."""
    usage["latency_s"] = round(time.perf_counter() - started, 6)
    if cached:  # the mark of replies served from the cache (a number, like the others)
        usage["cached_calls"] = cached
    if waits:  # numbers only, so usage dictionaries still add up key by key
        usage["call_retries"] = len(waits)
        usage["retry_after_waits"] = sum(1 for w in waits if w.reason == "retry-after")
        usage["retry_wait_ms"] = round(sum(w.wait_s for w in waits) * 1000)
    return usage


async def ainvoke_measured(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    config: RunnableConfig | None = None,
    *,
    attempts: int = 3,
    base_delay_s: float = 0.5,
    limiter: CallLimiter | None = None,
) -> tuple[AIMessage, dict[str, float]]:
    """Call a chat model with retries and report its usage.

    The caller's callbacks in ``config`` (tracing, streaming) still see the call. Each
    attempt holds a slot of ``limiter`` (default: the endpoint's limiter).

    Returns:
        The reply and ``{"calls", "input_tokens", "output_tokens", "total_tokens",
        "latency_s"}`` over every attempt (failed attempts count as calls); after a
        retry also ``call_retries`` (waits between attempts), ``retry_after_waits`` (those
        that followed the provider's ``Retry-After``) and ``retry_wait_ms`` (their sum).
        A reply served from the model-call cache is no call: ``calls`` 0, no tokens, and
        ``cached_calls`` 1.

    Raises:
        ModelCallError: The call failed (after retries for transient errors).
    """
    started = time.perf_counter()
    waits: list[RetryWait] = []
    if is_one_call(model):  # the reply and the waits account for every call
        reply = await ainvoke_with_retry(
            model,
            messages,
            config=config,
            attempts=attempts,
            base_delay_s=base_delay_s,
            limiter=limiter,
            waits=waits,
        )
        return reply, _from_reply(reply, started, waits)
    recorder = UsageRecorder()
    reply = await ainvoke_with_retry(
        model,
        messages,
        config=with_handler(config, recorder),
        attempts=attempts,
        base_delay_s=base_delay_s,
        limiter=limiter,
        waits=waits,
    )
    return reply, _measured(recorder, reply, started, waits)


def invoke_measured(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    config: RunnableConfig | None = None,
    *,
    attempts: int = 3,
    base_delay_s: float = 0.5,
    limiter: CallLimiter | None = None,
) -> tuple[AIMessage, dict[str, float]]:
    """The synchronous twin of :func:`ainvoke_measured`.

    Raises:
        ModelCallError: The call failed (after retries for transient errors).
    """
    recorder = UsageRecorder()
    started = time.perf_counter()
    waits: list[RetryWait] = []
    reply = invoke_with_retry(
        model,
        messages,
        config=with_handler(config, recorder),
        attempts=attempts,
        base_delay_s=base_delay_s,
        limiter=limiter,
        waits=waits,
    )
    return reply, _measured(recorder, reply, started, waits)
