"""The model factory, preflight checks, usage accounting and the scripted model."""

from __future__ import annotations

import time

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from langgraph_games.models import (
    LocalChatModel,
    ModelSpecError,
    ModelUnavailableError,
    ScriptedChatModel,
    UsageRecorder,
    check_model,
    describe_model,
    is_transient,
    load_chat_model,
)


def test_specs_build_the_right_models() -> None:
    local = load_chat_model("local", temperature=0.0, max_tokens=32, base_url="ignored")
    assert isinstance(local, LocalChatModel) and local.max_tokens == 32
    assert load_chat_model("local:/models/x.gguf").model_path == "/models/x.gguf"
    endpoint = load_chat_model("openai:qwen2.5@http://127.0.0.1:9/v1", max_tokens=16)
    assert endpoint.openai_api_base == "http://127.0.0.1:9/v1"  # type: ignore[attr-defined]
    assert endpoint.model_name == "qwen2.5"  # type: ignore[attr-defined]
    scripted = ScriptedChatModel()
    assert load_chat_model(scripted) is scripted
    assert describe_model(local)["max_tokens"] == 32


@pytest.mark.parametrize("spec", ["claude", "openai:", "gpt-4o", ""])
def test_unknown_specs_list_the_accepted_forms(spec: str) -> None:
    with pytest.raises(ModelSpecError, match=r"Accepted forms: 'local'"):
        load_chat_model(spec)


def test_openai_without_key_or_url_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelSpecError, match="needs an API key"):
        load_chat_model("openai:gpt-4o-mini")


def test_unreachable_endpoint_fails_fast_and_names_it() -> None:
    model = load_chat_model("openai:any@http://127.0.0.1:9/v1")
    start = time.perf_counter()
    with pytest.raises(ModelUnavailableError, match=r"http://127.0.0.1:9/v1.*cannot reach"):
        check_model(model, timeout=2.0)
    assert time.perf_counter() - start < 3.0


def test_missing_gguf_is_reported() -> None:
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        check_model(LocalChatModel(model_path="/nowhere/model.gguf"))


def test_usage_recorder_counts_tokens_and_errors() -> None:
    recorder = UsageRecorder()
    model = ScriptedChatModel(
        responses=[
            "one two three",
            AIMessage(
                content="x",
                usage_metadata={"input_tokens": 7, "output_tokens": 1, "total_tokens": 8},
            ),
            ValueError("boom"),
        ]
    )
    model.invoke([HumanMessage(content="a b")], config={"callbacks": [recorder]})
    model.invoke("hello", config={"callbacks": [recorder]})
    with pytest.raises(ValueError):
        model.invoke("hello", config={"callbacks": [recorder]})
    totals = recorder.totals()
    assert totals == {
        **totals,
        "calls": 3,
        "errors": 1,
        "input_tokens": 2 + 7,
        "output_tokens": 3 + 1,
    }
    assert recorder.records[0].model == "scripted"


async def test_scripted_model_latency_is_async() -> None:
    model = ScriptedChatModel(responses=["a"], latency_s=0.05)
    start = time.perf_counter()
    import asyncio

    await asyncio.gather(*(model.ainvoke("x") for _ in range(10)))
    assert time.perf_counter() - start < 0.3
    assert len(model.calls) == 10


def test_transient_errors_are_classified() -> None:
    assert is_transient(ConnectionError("x")) and is_transient(TimeoutError())
    assert not is_transient(ValueError("bad request"))
