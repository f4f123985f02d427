"""``load_chat_model(spec)``: the chat models the package runs on, by spec string.

Accepted specs:

- ``"local"``: the embedded SmolLM2-135M-Instruct through llama.cpp (no network, no key);
  ``"local:/path/model.gguf"`` for another GGUF chat model.
- ``"openai:<model>"``: OpenAI's API (key from ``api_key=`` or ``OPENAI_API_KEY``).
- ``"openai:<model>@<base_url>"`` or ``"openai:<model>"`` with ``base_url=...``: any
  OpenAI-compatible server (vLLM, Ollama, a llama.cpp server, ...).
- ``"<provider>:<model>"`` (``@<url>`` or ``base_url=`` for another server): any provider
  LangChain's ``init_chat_model`` knows, e.g. ``anthropic:claude-sonnet-4-5`` (key from
  ``ANTHROPIC_API_KEY``), ``google_genai:gemini-2.5-flash``, ``mistralai:...``,
  ``ollama:llama3.1:8b``, once its integration package is installed
  (:mod:`~langgraph_games.models.providers`).

Every model built here goes through its endpoint's rate limiter
(:mod:`~langgraph_games.models.ratelimit`): ``rate_limit=`` sets the endpoint's requests
per second (shared by every model of that endpoint in the process), ``max_retry_wait=``
the longest ``Retry-After`` wait the retry path honours. When the process has a model-call
cache (``--cache``, :mod:`~langgraph_games.models.cache`), every model built here uses it.

``check_model`` is the preflight a run does before it starts: it fails fast, naming the
endpoint, when the weights are missing, the server cannot be reached or the key is refused
or missing, and says what it checked.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import SecretStr

from langgraph_games.models.cache import attach_cache
from langgraph_games.models.errors import ModelSpecError, ModelUnavailableError
from langgraph_games.models.local import LocalChatModel, bundled_model_path, require_local_extra
from langgraph_games.models.providers import key_variable, provider_chat_model, provider_of
from langgraph_games.models.ratelimit import (
    attach_rate_limiter,
    check_rate,
    default_limits,
    max_retry_wait_of,
    rate_limit_of,
    set_max_retry_wait,
    set_rate_limit,
)
from langgraph_games.models.usage import one_call_per_invoke

__all__ = [
    "ACCEPTED_FORMS",
    "check_model",
    "describe_model",
    "inner_model",
    "load_chat_model",
    "rate_limit_for_spec",
    "sampling_of",
]

ACCEPTED_FORMS = (
    "'local' (the embedded SmolLM2-135M), 'local:<path.gguf>', 'openai:<model>', "
    "'openai:<model>@<base_url>' (any OpenAI-compatible endpoint), "
    "'<provider>:<model>[@<base_url>]' for any provider LangChain's init_chat_model knows "
    "(anthropic, google_genai, mistralai, ollama, groq, ...; its key from the provider's "
    "variable, e.g. ANTHROPIC_API_KEY)"
)


def rate_limit_for_spec(spec: str, rate_limit: Any) -> float | None:
    """The requests-per-second limit a ``rate_limit`` setting gives the model ``spec``.

    Args:
        spec: The model spec.
        rate_limit: ``None``; a number for every endpoint; or a mapping from model spec to
            number, where the key ``"*"`` applies to specs not listed.

    Raises:
        ModelSpecError: A rate that is not a positive number.

    Example:
        >>> rate_limit_for_spec("anthropic:claude-x", {"*": 2, "anthropic:claude-x": 0.5})
        0.5
        >>> rate_limit_for_spec("local", {"openai:m": 1}) is None
        True
    """
    value = rate_limit
    if isinstance(rate_limit, Mapping):
        value = rate_limit.get(spec.strip(), rate_limit.get("*"))
    try:
        return check_rate(value, f"the rate limit of {spec!r}")
    except ValueError as exc:
        raise ModelSpecError(str(exc)) from exc


def _endpoint_settings(model: BaseChatModel, spec: str, settings: Mapping[str, Any]) -> None:
    """Attach the endpoint's rate limiter; apply ``rate_limit`` and ``max_retry_wait``.

    Settings not given come from the process-wide defaults (``set_default_limits``).
    """
    default_rate, default_wait = default_limits()
    rate_setting = settings.get("rate_limit")
    rate = rate_limit_for_spec(spec, default_rate if rate_setting is None else rate_setting)
    if rate is not None:
        set_rate_limit(model, rate)
    else:
        attach_rate_limiter(model)
    wait = settings.get("max_retry_wait")
    wait = default_wait if wait is None else wait
    if wait is not None:
        try:
            set_max_retry_wait(model, wait)
        except ValueError as exc:
            raise ModelSpecError(str(exc)) from exc


def load_chat_model(spec: str | BaseChatModel, **settings: Any) -> BaseChatModel:
    """Build a LangChain chat model from a spec (a model instance is returned as is).

    Args:
        spec: One of the accepted forms (see the module docstring).
        **settings: ``temperature``, ``max_tokens``, ``seed``, and for endpoints
            ``base_url``, ``api_key``, ``timeout``, ``max_retries``; for every model
            ``rate_limit`` (requests per second of the endpoint, or a mapping from spec
            to rate with ``"*"`` for the rest) and ``max_retry_wait`` (seconds), by default
            the process-wide ones of
            :func:`~langgraph_games.models.ratelimit.set_default_limits`. Without a
            ``temperature`` an endpoint samples as its provider does by default (the
            GAMEBoT paper's protocol) and the local model decodes greedily.

    Returns:
        The chat model, with its endpoint's rate limiter as ``rate_limiter`` and the
        process's model-call cache, if any, as ``cache``.

    Raises:
        ModelSpecError: The spec is not one of the accepted forms, or a setting is bad.
        ModelUnavailableError: The provider's integration package is not installed.

    Example:
        >>> load_chat_model("local", max_tokens=64).max_tokens
        64
        >>> load_chat_model("openai:my-model@http://127.0.0.1:9/v1").openai_api_base
        'http://127.0.0.1:9/v1'
    """
    if isinstance(spec, BaseChatModel):
        return spec
    text = spec.strip()
    kind, _, rest = text.partition(":")
    kind = kind.lower()
    model: BaseChatModel
    if kind == "local":
        known = {"temperature", "max_tokens", "seed", "n_ctx", "n_threads"}
        kwargs = {k: v for k, v in settings.items() if k in known and v is not None}
        model = LocalChatModel(model_path=rest or None, **kwargs)
    elif kind == "openai" and rest:
        model = _openai(rest, settings)
    elif kind and rest:
        try:
            model = provider_chat_model(kind, rest, settings, text)
        except ModelSpecError as exc:
            raise ModelSpecError(f"{exc} Accepted forms: {ACCEPTED_FORMS}.") from exc
    else:
        raise ModelSpecError(f"Unknown model spec {spec!r}. Accepted forms: {ACCEPTED_FORMS}.")
    _endpoint_settings(model, text, settings)
    return attach_cache(model)


def _openai(rest: str, settings: Mapping[str, Any]) -> BaseChatModel:
    # Imported here: langchain-openai takes over a second to import, and most runs use
    # the local model.
    from langchain_openai import ChatOpenAI

    one_call_per_invoke(ChatOpenAI)  # one request per call, its usage in the reply
    model, _, url = rest.partition("@")
    base_url = url or settings.get("base_url") or os.environ.get("OPENAI_BASE_URL")
    api_key = settings.get("api_key") or os.environ.get("OPENAI_API_KEY")
    if not api_key:
        if not base_url:
            raise ModelSpecError(
                f"openai:{model} needs an API key (api_key= or OPENAI_API_KEY), or a "
                f"base_url of an OpenAI-compatible server. Accepted forms: {ACCEPTED_FORMS}."
            )
        api_key = "sk-no-key"  # local servers accept any key
    kwargs: dict[str, object] = {
        "model": model,
        "api_key": api_key,
        "base_url": base_url,
        "timeout": settings.get("timeout", 120.0),
        # Our strategy graphs retry with backoff themselves and record every attempt.
        "max_retries": settings.get("max_retries", 0),
    }
    # No temperature unless asked for: the endpoint samples as its provider does by
    # default, as the GAMEBoT paper ran its models (its released code used 0).
    if settings.get("temperature") is not None:
        kwargs["temperature"] = settings["temperature"]
    if settings.get("max_tokens") is not None:
        kwargs["max_tokens"] = settings["max_tokens"]
    if settings.get("seed") is not None:
        kwargs["seed"] = settings["seed"]
    try:
        return ChatOpenAI(**kwargs)
    except Exception as exc:  # the client refuses its settings, e.g. a base_url that is no URL
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelSpecError(
            f"Model spec 'openai:{rest}' cannot be built: {first.rstrip('.')}. "
            f"Accepted forms: {ACCEPTED_FORMS}."
        ) from exc


def sampling_of(model: BaseChatModel) -> str:
    """How ``model`` samples, in words, for manifests and player descriptions.

    Example:
        >>> sampling_of(load_chat_model("openai:m@http://127.0.0.1:9/v1"))
        "the provider's default (no temperature sent)"
        >>> sampling_of(load_chat_model("local"))
        "greedy (temperature 0, the local model's default)"
    """
    if isinstance(model, LocalChatModel):
        if model.temperature == 0:
            return "greedy (temperature 0, the local model's default)"
        return f"temperature {model.temperature} (seed {model.seed})"
    if "temperature" not in getattr(type(model), "model_fields", {}):
        return f"set by {type(model).__name__}"
    temperature = getattr(model, "temperature", None)
    if temperature is None:
        return "the provider's default (no temperature sent)"
    return f"temperature {temperature}"


def _base_url(model: BaseChatModel) -> str | None:
    for field in ("openai_api_base", "base_url", "anthropic_api_url"):
        value = getattr(model, field, None)
        if isinstance(value, str) and value:
            return value
    return None


def _model_name(model: BaseChatModel) -> str | None:
    for field in ("model_name", "model", "model_id"):
        value = getattr(model, field, None)
        if isinstance(value, str) and value:
            return value
    return None


def inner_model(model: Any) -> Any:
    """The chat model inside LangChain's wrappers (a model that is not wrapped is itself).

    The wrappers are ``.bind(...)``, ``.with_retry()``, ``.with_fallbacks(...)`` (its
    primary model) and ``.configurable_fields(...)`` (its default).

    Example:
        >>> from langgraph_games.models.fake import ScriptedChatModel
        >>> model = ScriptedChatModel(name_="m")
        >>> inner_model(model.bind(stop=["x"]).with_retry()) is model
        True
    """
    for _ in range(16):
        inner = (
            getattr(model, "bound", None)
            or getattr(model, "runnable", None)
            or getattr(model, "default", None)  # .configurable_fields(...)
        )
        if inner is None:
            break
        model = inner
    return model


def _configurable(model: object) -> dict[str, object] | None:
    """The description of ``init_chat_model(..., configurable_fields=...)``, else ``None``."""
    defaults = getattr(model, "_default_config", None)
    if type(model).__name__ != "_ConfigurableModel" or not isinstance(defaults, dict):
        return None
    name = str(defaults.get("model") or "")
    provider = defaults.get("model_provider")
    if not provider and ":" in name:  # "openai:gpt-4o-mini"
        provider, name = name.split(":", 1)
    description: dict[str, object] = {
        "kind": type(model).__name__,
        "provider": str(provider or "configurable"),
        "sampling": "set per run (configurable fields)",
    }
    if name:
        description["model_name"] = name
    return description


def describe_model(model: BaseChatModel) -> dict[str, object]:
    """A JSON-friendly description of a model for manifests and player descriptions.

    Keys: ``kind`` (the class), ``provider``, ``model_name``, ``sampling``, the decoding
    settings that are set (``temperature``, ``max_tokens``, ``seed``), ``model_path`` or
    ``base_url``, and for a model with its endpoint's limiter (every model
    :func:`load_chat_model` builds) ``rate_limit_rps`` (requests per second, ``None``: no
    limit) and ``max_retry_wait_s``; the local model shows them only when it has a rate.

    Example:
        >>> from langgraph_games.models.fake import ScriptedChatModel
        >>> from langgraph_games.models.ratelimit import set_rate_limit
        >>> described = describe_model(set_rate_limit(ScriptedChatModel(name_="doc-d"), 4))
        >>> described["provider"], described["model_name"], described["rate_limit_rps"]
        ('scriptedchatmodel', 'doc-d', 4.0)
    """
    inner = inner_model(model)
    if inner is not model:  # a wrapped model: the model inside, and what wraps it
        return {**describe_model(inner), "wrapped_in": type(model).__name__}
    configurable = _configurable(model)
    if configurable is not None:
        return configurable
    provider = "local" if isinstance(model, LocalChatModel) else provider_of(model)
    description: dict[str, object] = {"kind": type(model).__name__, "provider": provider}
    name = _model_name(model)
    if name is not None:
        description["model_name"] = name
    description["sampling"] = sampling_of(model)
    for field in ("model_path", "temperature", "max_tokens", "seed"):
        value = getattr(model, field, None)
        if value is not None:
            description[field] = value
    base = _base_url(model)
    if base:
        description["base_url"] = base
    rate = rate_limit_of(model)
    if getattr(model, "rate_limiter", None) is not None and (provider != "local" or rate):
        description["rate_limit_rps"] = rate
        description["max_retry_wait_s"] = max_retry_wait_of(model)
    return description


def _has_key(model: BaseChatModel) -> bool | None:
    """Whether a provider model holds an API key (``None``: it has no key field)."""
    fields = [f for f in getattr(type(model), "model_fields", {}) if f.endswith("api_key")]
    if not fields:
        return None
    for field in fields:
        value = getattr(model, field, None)
        secret = value.get_secret_value() if isinstance(value, SecretStr) else value
        if secret:
            return True
    return False


def _get(url: str, headers: dict[str, str], timeout: float, endpoint: str) -> int:
    import httpx  # only the preflight needs it; runs on the local model never import it

    try:
        return httpx.get(url, headers=headers, timeout=timeout).status_code
    except httpx.HTTPError as exc:
        raise ModelUnavailableError(endpoint, f"cannot reach {url} ({exc})") from exc


def check_model(model: BaseChatModel, timeout: float = 5.0) -> str:
    """Fail fast when a model cannot be used; say what was checked.

    - the local model: its GGUF file exists and llama.cpp is installed;
    - an OpenAI-compatible endpoint: ``GET <base_url>/models`` answers (a closed port
      fails in milliseconds, naming the URL) and does not refuse the key (401/403);
    - Ollama: ``GET <base_url>/api/tags`` answers;
    - any other provider: its API key is set (the endpoint itself is first contacted by
      the run's first call, whose errors are reported as usual).

    Returns:
        What was checked, in words.

    Raises:
        ModelUnavailableError: With the model or endpoint named and the reason.
    """
    if isinstance(model, LocalChatModel):
        if model.model_path is None:
            bundled_model_path()
        elif not os.path.isfile(model.model_path):
            raise ModelUnavailableError(model.model_path, "the GGUF file does not exist")
        require_local_extra("llama_cpp")
        return f"local model {model.model_path or 'SmolLM2-135M (bundled)'}: the GGUF file exists"
    provider = provider_of(model)
    name = f"{provider}:{_model_name(model) or type(model).__name__}"
    base = getattr(model, "openai_api_base", None)
    if base or type(model).__name__ == "ChatOpenAI":
        base = base or "https://api.openai.com/v1"
        key = getattr(model, "openai_api_key", None)
        secret = key.get_secret_value() if key is not None else ""
        url = base.rstrip("/") + "/models"
        status = _get(url, {"Authorization": f"Bearer {secret}"}, timeout, base)
        if status in (401, 403):
            raise ModelUnavailableError(base, f"the endpoint refused the API key ({status})")
        return f"{name}: GET {url} answered {status}"
    if provider == "ollama":
        base = _base_url(model) or "http://localhost:11434"
        url = base.rstrip("/") + "/api/tags"
        status = _get(url, {}, timeout, base)
        return f"{name}: GET {url} answered {status}"
    has_key = _has_key(model)
    if has_key is False:
        raise ModelUnavailableError(
            name, f"no API key: set {key_variable(provider)} or pass api_key"
        )
    if has_key:
        return f"{name}: the API key is set; the endpoint is first contacted by the run"
    return f"{name}: nothing to check before the run ({type(model).__name__} has no key)"
