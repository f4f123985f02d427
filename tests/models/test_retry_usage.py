"""The retry twins, the shared token reader, and counted calls that keep the caller's callbacks."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.callbacks import CallbackManager
from langchain_core.messages import AIMessage, HumanMessage

from langgraph_games.graphs.common.llm import reply_usage
from langgraph_games.models import ModelCallError, ScriptedChatModel, UsageRecorder
from langgraph_games.models.cache import SQLiteModelCache
from langgraph_games.models.retry import ainvoke_with_retry, invoke_with_retry
from langgraph_games.models.usage import (
    ainvoke_measured,
    invoke_measured,
    message_usage,
    with_handler,
)

PROMPT = [HumanMessage("hi there")]


def test_sync_retry_recovers_from_transient_errors_only() -> None:
    model = ScriptedChatModel(responses=[TimeoutError("slow"), ConnectionError("reset"), "fine"])
    reply = invoke_with_retry(model, PROMPT, attempts=3, base_delay_s=0.001)
    assert reply.content == "fine" and len(model.calls) == 3
    model = ScriptedChatModel(responses=[TimeoutError("slow"), "fine"])
    with pytest.raises(ModelCallError, match="TimeoutError: slow"):
        invoke_with_retry(model, PROMPT, attempts=1)
    model = ScriptedChatModel(responses=[KeyError("bug"), "fine"])
    with pytest.raises(ModelCallError, match="KeyError"):
        invoke_with_retry(model, PROMPT, attempts=3, base_delay_s=0.001)
    assert len(model.calls) == 1  # not transient: no second attempt


async def test_async_and_sync_retries_agree() -> None:
    replies = [ConnectionError("reset"), "fine"]
    sync = invoke_with_retry(ScriptedChatModel(responses=replies), PROMPT, base_delay_s=0.001)
    async_ = await ainvoke_with_retry(
        ScriptedChatModel(responses=replies), PROMPT, base_delay_s=0.001
    )
    assert sync.content == async_.content == "fine"


def test_one_token_reader() -> None:
    usage = {"input_tokens": 7, "output_tokens": 3, "total_tokens": 10}
    assert message_usage(AIMessage("x", usage_metadata=usage)) == usage
    assert reply_usage is message_usage
    assert message_usage(None) == {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}


async def test_counted_calls_report_attempts_and_keep_callbacks() -> None:
    outer = UsageRecorder()
    model = ScriptedChatModel(responses=[ConnectionError("reset"), "two words"])
    reply, usage = await ainvoke_measured(
        model, PROMPT, {"callbacks": [outer]}, attempts=2, base_delay_s=0.001
    )
    assert reply.content == "two words"
    assert usage["calls"] == 2  # the failed attempt counts
    assert (usage["input_tokens"], usage["output_tokens"], usage["total_tokens"]) == (2, 2, 4)
    assert usage["latency_s"] > 0
    assert outer.totals()["calls"] == 2  # the caller's handler saw both attempts too
    _, again = invoke_measured(ScriptedChatModel(responses=["ok"]), PROMPT)
    assert again["calls"] == 1 and again["output_tokens"] == 1


def test_with_handler_adds_to_lists_and_managers() -> None:
    first, second = UsageRecorder(), UsageRecorder()
    assert with_handler(None, first)["callbacks"] == [first]
    assert with_handler({"callbacks": [first]}, second)["callbacks"] == [first, second]
    manager = CallbackManager(handlers=[first], inheritable_handlers=[first])
    merged = with_handler({"callbacks": manager, "tags": ["x"]}, second)
    assert merged["tags"] == ["x"]
    assert merged["callbacks"].handlers == [first, second]
    assert manager.handlers == [first]  # the caller's manager is not changed


class _Watched(ScriptedChatModel):
    """A subclass is not declared one call per invoke: its calls are watched by a handler."""


async def _both(replies: list[object], tmp_path: Any, cached: bool = False) -> list[Any]:
    usages = []
    for kind in (ScriptedChatModel, _Watched):
        model = kind(responses=list(replies))
        if cached:
            model.cache = SQLiteModelCache(tmp_path / f"{kind.__name__}.sqlite")
            await ainvoke_measured(model, PROMPT)  # fills the cache
        _, usage = await ainvoke_measured(model, PROMPT, attempts=3, base_delay_s=0.001)
        usage.pop("latency_s")
        usage.pop("retry_wait_ms", None)  # a wall time too
        usages.append(usage)
    return usages


@pytest.mark.parametrize(
    ("replies", "cached"),
    [
        (["three words here"], False),
        ([ConnectionError("reset"), TimeoutError("slow"), "fine"], False),
        (
            [
                AIMessage(
                    "x", usage_metadata={"input_tokens": 9, "output_tokens": 4, "total_tokens": 13}
                )
            ],
            False,
        ),
        (["from the cache"], True),
    ],
    ids=["one call", "retries", "reported usage", "cached"],
)
async def test_a_one_call_model_is_accounted_from_its_reply_as_a_handler_counts_it(
    replies: list[object], cached: bool, tmp_path: Any
) -> None:
    from_reply, watched = await _both(replies, tmp_path, cached)
    assert from_reply == watched
    assert from_reply["calls"] == (0 if cached else len(replies))


async def test_a_model_not_declared_one_call_has_every_inner_call_counted() -> None:
    inner = ScriptedChatModel(responses=["a b", "c d e"])

    class TwoCalls(ScriptedChatModel):
        async def _agenerate(
            self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> Any:
            await inner.ainvoke(messages, {"callbacks": run_manager.inheritable_handlers})
            return await super()._agenerate(messages, stop, run_manager, **kw)

    _, usage = await ainvoke_measured(TwoCalls(responses=["f"]), PROMPT)
    assert usage["calls"] == 2  # the inner call is seen by the handler
