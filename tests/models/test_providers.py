"""Model specs of any LangChain provider: routing through init_chat_model, errors, preflight."""

from __future__ import annotations

import importlib.util
import itertools
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field, SecretStr

from langgraph_games.models import (
    ModelSpecError,
    ModelUnavailableError,
    check_model,
    describe_model,
    load_chat_model,
    rate_limiter_for,
)
from langgraph_games.models import providers as providers_module
from langgraph_games.models.providers import split_model_url

_names = itertools.count()


class FakeProviderModel(BaseChatModel):
    """A provider's chat model class as init_chat_model would build it (no network)."""

    model_config = ConfigDict(populate_by_name=True, arbitrary_types_allowed=True)

    model: str = ""
    provider: str = "anthropic"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage("ok"))])

    @property
    def _llm_type(self) -> str:
        return f"fake-{self.provider}"

    def _get_ls_params(self, **kwargs: Any) -> Any:
        return {"ls_provider": self.provider, "ls_model_name": self.model}


class FakeAnthropic(FakeProviderModel):
    temperature: float | None = None
    max_tokens: int | None = None
    max_retries: int = 2
    default_request_timeout: float | None = Field(None, alias="timeout")
    anthropic_api_key: SecretStr = Field(default=SecretStr(""), alias="api_key")
    anthropic_api_url: str = Field("https://api.anthropic.com", alias="base_url")


class FakeOllama(FakeProviderModel):
    provider: str = "ollama"
    temperature: float | None = None
    num_predict: int | None = None
    base_url: str | None = None


class Recorder:
    """A stand-in for init_chat_model that records its calls and builds fake classes."""

    def __init__(self, cls: type[FakeProviderModel]) -> None:
        self.cls = cls
        self.calls: list[tuple[str, str | None, dict[str, Any]]] = []

    def __call__(self, model: str, *, model_provider: str | None = None, **kwargs: Any) -> Any:
        self.calls.append((model, model_provider, dict(kwargs)))
        return self.cls(model=model, **kwargs)


def install(monkeypatch: pytest.MonkeyPatch, cls: type[FakeProviderModel]) -> Recorder:
    recorder = Recorder(cls)
    monkeypatch.setattr(providers_module, "init_chat_model", recorder)
    return recorder


def test_anthropic_spec_goes_through_init_chat_model_without_temperature(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = install(monkeypatch, FakeAnthropic)
    model = load_chat_model("anthropic:claude-sonnet-4-5")
    assert isinstance(model, FakeAnthropic) and model.model == "claude-sonnet-4-5"
    final_model, provider, kwargs = recorder.calls[-1]
    assert (final_model, provider) == ("claude-sonnet-4-5", "anthropic")
    # Our defaults where the class has the field; no temperature unless asked for.
    assert kwargs == {"max_retries": 0, "timeout": 120.0}
    assert model.temperature is None and model.max_retries == 0
    assert describe_model(model)["sampling"] == "the provider's default (no temperature sent)"


def test_settings_are_passed_under_the_provider_names(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = install(monkeypatch, FakeAnthropic)
    model = load_chat_model(
        "anthropic:claude-haiku-4-5@https://proxy.example/anthropic",
        temperature=0.3,
        max_tokens=64,
        api_key="sk-test",
        max_retries=4,
    )
    _, _, kwargs = recorder.calls[-1]
    assert kwargs == {
        "temperature": 0.3,
        "max_tokens": 64,
        "api_key": "sk-test",
        "base_url": "https://proxy.example/anthropic",
        "max_retries": 4,
        "timeout": 120.0,
    }
    assert isinstance(model, FakeAnthropic)
    assert model.anthropic_api_url == "https://proxy.example/anthropic"
    described = describe_model(model)
    assert described["provider"] == "anthropic" and described["model_name"] == "claude-haiku-4-5"
    assert described["base_url"] == "https://proxy.example/anthropic"
    assert described["temperature"] == 0.3 and described["sampling"] == "temperature 0.3"


def test_ollama_names_and_colons_in_model_names(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = install(monkeypatch, FakeOllama)
    model = load_chat_model("ollama:llama3.1:8b@http://gpu:11434", max_tokens=32)
    final_model, provider, kwargs = recorder.calls[-1]
    assert (final_model, provider) == ("llama3.1:8b", "ollama")
    # max_tokens is Ollama's num_predict; no max_retries or timeout field, so none sent.
    assert kwargs == {"num_predict": 32, "base_url": "http://gpu:11434"}
    assert isinstance(model, FakeOllama) and model.num_predict == 32
    with pytest.raises(ModelSpecError, match=r"takes no 'seed' setting.*Accepted forms"):
        load_chat_model("ollama:llama3.1:8b", seed=3)


def test_google_genai_spec_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = install(monkeypatch, FakeAnthropic)
    load_chat_model("google_genai:gemini-2.5-flash")
    assert recorder.calls[-1][:2] == ("gemini-2.5-flash", "google_genai")
    load_chat_model("Google-GenAI:gemini-2.5-pro")  # provider names are normalised
    assert recorder.calls[-1][:2] == ("gemini-2.5-pro", "google_genai")


def test_model_urls_only_split_at_an_http_url() -> None:
    assert split_model_url("claude-3-5-sonnet@20240620") == ("claude-3-5-sonnet@20240620", None)
    assert split_model_url("m@https://h/v1") == ("m", "https://h/v1")
    assert split_model_url("m@20240620@http://h:1") == ("m@20240620", "http://h:1")


def test_a_missing_integration_package_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(model: str, **kwargs: Any) -> Any:
        raise ImportError(
            "Initializing ChatMistralAI requires the langchain-mistralai package. Please "
            "install it with `pip install langchain-mistralai`"
        )

    monkeypatch.setattr(providers_module, "init_chat_model", missing)
    with pytest.raises(ModelUnavailableError, match=r"pip install langchain-mistralai\)"):
        load_chat_model("mistralai:mistral-large-latest")


@pytest.mark.skipif(
    importlib.util.find_spec("langchain_anthropic") is not None,
    reason="langchain-anthropic is installed here",
)
def test_the_real_init_chat_model_reports_the_missing_package() -> None:
    with pytest.raises(ModelUnavailableError, match=r"needs the langchain-anthropic package"):
        load_chat_model("anthropic:claude-sonnet-4-5")


@pytest.mark.parametrize("spec", ["nosuchprovider:m", "anthropic:", "two words:m"])
def test_bad_provider_specs_list_the_accepted_forms(spec: str) -> None:
    with pytest.raises(ModelSpecError, match=r"Accepted forms: 'local'"):
        load_chat_model(spec)


def test_rate_limits_are_shared_per_endpoint_and_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, FakeAnthropic)
    name = f"claude-rate-{next(_names)}"
    first = load_chat_model(f"anthropic:{name}", rate_limit=2)
    second = load_chat_model(f"anthropic:{name}")  # same endpoint, no rate given
    assert first.rate_limiter is second.rate_limiter is rate_limiter_for(first)
    assert describe_model(second)["rate_limit_rps"] == 2.0
    other = f"claude-rate-{next(_names)}"
    table = {"*": 5, f"anthropic:{other}": 0.5}
    assert (
        describe_model(load_chat_model(f"anthropic:{other}", rate_limit=table))["rate_limit_rps"]
        == 0.5
    )
    assert (
        describe_model(load_chat_model(f"anthropic:{name}", rate_limit=table))["rate_limit_rps"]
        == 5.0
    )
    assert describe_model(first)["rate_limit_rps"] == 5.0  # one rate per endpoint: the latest
    waited = load_chat_model(f"anthropic:{name}", max_retry_wait=7)
    assert describe_model(waited)["max_retry_wait_s"] == 7.0
    for bad in (0, -1, "fast", float("inf")):
        with pytest.raises(ModelSpecError, match="requests per second"):
            load_chat_model(f"anthropic:{name}", rate_limit=bad)
    with pytest.raises(ModelSpecError, match="maximum retry wait"):
        load_chat_model(f"anthropic:{name}", max_retry_wait=-1)


def test_local_and_openai_models_get_the_rate_limit_too() -> None:
    local = load_chat_model("local:/x/rated.gguf", rate_limit=3)
    assert describe_model(local)["rate_limit_rps"] == 3.0
    assert "rate_limit_rps" not in describe_model(load_chat_model("local:/x/other.gguf"))
    url = f"http://127.0.0.1:9/v{next(_names)}"
    endpoint = load_chat_model(f"openai:m@{url}", rate_limit={f"openai:m@{url}": 1.5})
    assert describe_model(endpoint)["rate_limit_rps"] == 1.5
    assert describe_model(load_chat_model(f"openai:m@{url}"))["rate_limit_rps"] == 1.5


def test_preflight_of_a_provider_checks_its_key(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, FakeAnthropic)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    keyless = load_chat_model("anthropic:claude-sonnet-4-5")
    with pytest.raises(ModelUnavailableError, match=r"no API key: set ANTHROPIC_API_KEY"):
        check_model(keyless)
    keyed = load_chat_model("anthropic:claude-sonnet-4-5", api_key="sk-x")
    assert "the API key is set" in check_model(keyed)
