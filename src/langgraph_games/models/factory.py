"""``load_chat_model(spec)``: the chat models the package runs on, by spec string.

Accepted specs:

- ``"local"``: the embedded SmolLM2-135M-Instruct through llama.cpp (no network, no key);
  ``"local:/path/model.gguf"`` for another GGUF chat model.
- ``"openai:<model>"``: OpenAI's API (key from ``api_key=`` or ``OPENAI_API_KEY``).
- ``"openai:<model>@<base_url>"`` or ``"openai:<model>"`` with ``base_url=...``: any
  OpenAI-compatible server (vLLM, Ollama, a llama.cpp server, ...).

``check_model`` is the preflight a run does before it starts: it fails fast, naming the
endpoint, when the weights are missing, the server cannot be reached or the key is refused.
"""

from __future__ import annotations

import os
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games.models.errors import ModelSpecError, ModelUnavailableError
from langgraph_games.models.local import LocalChatModel, bundled_model_path

__all__ = ["ACCEPTED_FORMS", "check_model", "describe_model", "load_chat_model", "sampling_of"]

ACCEPTED_FORMS = (
    "'local' (the embedded SmolLM2-135M), 'local:<path.gguf>', 'openai:<model>', "
    "'openai:<model>@<base_url>' (any OpenAI-compatible endpoint)"
)


def load_chat_model(spec: str | BaseChatModel, **settings: Any) -> BaseChatModel:
    """Build a LangChain chat model from a spec (a model instance is returned as is).

    Args:
        spec: One of the accepted forms (see the module docstring).
        **settings: ``temperature``, ``max_tokens``, ``seed``, and for endpoints
            ``base_url``, ``api_key``, ``timeout``, ``max_retries``. Without a
            ``temperature`` an endpoint samples as its provider does by default (the GAMEBoT
            paper's protocol) and the local model decodes greedily.

    Returns:
        The chat model.

    Raises:
        ModelSpecError: The spec is not one of the accepted forms.

    Example:
        >>> load_chat_model("local", max_tokens=64).max_tokens
        64
        >>> load_chat_model("openai:my-model@http://127.0.0.1:9/v1").openai_api_base
        'http://127.0.0.1:9/v1'
    """
    if isinstance(spec, BaseChatModel):
        return spec
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "local":
        known = {"temperature", "max_tokens", "seed", "n_ctx", "n_threads"}
        kwargs = {k: v for k, v in settings.items() if k in known and v is not None}
        return LocalChatModel(model_path=rest or None, **kwargs)
    if kind == "openai" and rest:
        return _openai(rest, settings)
    raise ModelSpecError(f"Unknown model spec {spec!r}. Accepted forms: {ACCEPTED_FORMS}.")


def _openai(rest: str, settings: dict[str, Any]) -> BaseChatModel:
    from langchain_openai import ChatOpenAI

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
    kwargs: dict[str, Any] = {
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
    return ChatOpenAI(**kwargs)


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
    if "temperature" not in type(model).model_fields:
        return f"set by {type(model).__name__}"
    temperature = getattr(model, "temperature", None)
    if temperature is None:
        return "the provider's default (no temperature sent)"
    return f"temperature {temperature}"


def describe_model(model: BaseChatModel) -> dict[str, Any]:
    """A JSON-friendly description of a model (kind, name, decoding settings, sampling)."""
    description: dict[str, Any] = {"kind": type(model).__name__, "sampling": sampling_of(model)}
    for field in ("model_name", "model_path", "temperature", "max_tokens", "seed"):
        value = getattr(model, field, None)
        if value is not None:
            description[field] = value
    base = getattr(model, "openai_api_base", None)
    if base:
        description["base_url"] = base
    return description


def check_model(model: BaseChatModel, timeout: float = 5.0) -> None:
    """Fail fast when a model cannot be used: missing weights, unreachable endpoint, bad key.

    Raises:
        ModelUnavailableError: With the model or endpoint named and the reason.
    """
    if isinstance(model, LocalChatModel):
        if model.model_path is None:
            bundled_model_path()
        elif not os.path.isfile(model.model_path):
            raise ModelUnavailableError(model.model_path, "the GGUF file does not exist")
        try:
            import llama_cpp  # noqa: F401
        except ImportError as exc:
            raise ModelUnavailableError("local", "llama-cpp-python is not installed") from exc
        return
    base = getattr(model, "openai_api_base", None) or (
        "https://api.openai.com/v1" if type(model).__name__ == "ChatOpenAI" else None
    )
    if base is None:
        return
    import httpx

    key = getattr(model, "openai_api_key", None)
    secret = key.get_secret_value() if key is not None else ""
    url = base.rstrip("/") + "/models"
    try:
        response = httpx.get(url, headers={"Authorization": f"Bearer {secret}"}, timeout=timeout)
    except httpx.HTTPError as exc:
        raise ModelUnavailableError(base, f"cannot reach {url} ({exc})") from exc
    if response.status_code in (401, 403):
        raise ModelUnavailableError(
            base, f"the endpoint refused the API key ({response.status_code})"
        )
