"""The retry twins, the shared token reader, and counted calls that keep the caller's callbacks."""

from __future__ import annotations

import pytest
from langchain_core.callbacks import CallbackManager
from langchain_core.messages import AIMessage, HumanMessage

from langgraph_games.graphs.common.llm import reply_usage
from langgraph_games.models import ModelCallError, ScriptedChatModel, UsageRecorder
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
