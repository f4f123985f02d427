"""Chat models of any LangChain provider (``anthropic:``, ``google_genai:``, ``ollama:``, ...).

A spec ``<provider>:<model>`` is built with LangChain's ``init_chat_model(model,
model_provider=provider, ...)``, which knows the providers and their integration packages
(``langchain-anthropic`` for ``anthropic``, ...). ``<provider>:<model>@<url>`` (a URL
starting with ``http://`` or ``https://``) or the ``base_url`` setting points it at another
server. Keys come from the provider's own environment variable (``ANTHROPIC_API_KEY``,
``GOOGLE_API_KEY``, ...) or the ``api_key`` setting.

Settings are passed only when given, under the name the provider's class uses
(``max_tokens`` is Ollama's ``num_predict``); a setting the class does not take is refused
with its name. ``temperature`` is never sent unless given (the provider samples as it does
by default). Two defaults are ours where the class has the field: ``max_retries=0`` (our
retry path retries and records every attempt, so the SDK must not retry unseen) and a
120-second ``timeout``. A provider whose package is missing gives
:class:`~langgraph_games.models.errors.ModelUnavailableError` naming the package to install.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from langchain.chat_models import init_chat_model
from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import AliasChoices, ValidationError

from langgraph_games.models.errors import ModelSpecError, ModelUnavailableError

__all__ = [
    "KEY_VARIABLES",
    "PROVIDER_SETTINGS",
    "key_variable",
    "provider_chat_model",
    "provider_of",
    "split_model_url",
]

PROVIDER_SETTINGS = (
    "temperature",
    "max_tokens",
    "seed",
    "timeout",
    "max_retries",
    "api_key",
    "base_url",
)
"""The settings of :func:`~langgraph_games.models.load_chat_model` a provider model gets."""

KEY_VARIABLES = {
    "anthropic": "ANTHROPIC_API_KEY",
    "cohere": "COHERE_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "fireworks": "FIREWORKS_API_KEY",
    "google_genai": "GOOGLE_API_KEY",
    "groq": "GROQ_API_KEY",
    "mistralai": "MISTRAL_API_KEY",
    "openai": "OPENAI_API_KEY",
    "together": "TOGETHER_API_KEY",
    "xai": "XAI_API_KEY",
}
"""The environment variable each well-known provider reads its key from."""

# Names a setting goes by in providers' classes, tried in order.
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "max_tokens": ("max_tokens", "max_output_tokens", "num_predict", "max_new_tokens"),
    "timeout": ("timeout", "request_timeout", "default_request_timeout"),
}
_DEFAULTS: dict[str, object] = {"max_retries": 0, "timeout": 120.0}
_PROVIDER = re.compile(r"[a-z][a-z0-9_]*")
_URL = re.compile(r"^(.*?)@(https?://\S+)$")
_PIP = re.compile(r"pip install ([\w.\-\[\]]+)")


def split_model_url(rest: str) -> tuple[str, str | None]:
    """``"model@http://host/v1"`` -> ``("model", "http://host/v1")``; no URL, ``None``.

    Only an ``@`` followed by ``http://`` or ``https://`` starts a URL, so model names
    with an ``@`` (``claude-3-5-sonnet@20240620``) stay whole.

    Example:
        >>> split_model_url("llama3.1:8b@http://gpu:11434")
        ('llama3.1:8b', 'http://gpu:11434')
        >>> split_model_url("claude-3-5-sonnet@20240620")
        ('claude-3-5-sonnet@20240620', None)
    """
    match = _URL.match(rest)
    if match is None:
        return rest, None
    return match[1], match[2]


def key_variable(provider: str) -> str:
    """The environment variable ``provider`` reads its key from, in words when unknown."""
    return KEY_VARIABLES.get(provider, f"the {provider} provider's API key variable")


def provider_of(model: Any) -> str:
    """The provider of a chat model as LangChain names it (``anthropic``, ``ollama``, ...).

    Example:
        >>> from langgraph_games.models.fake import ScriptedChatModel
        >>> provider_of(ScriptedChatModel())
        'scriptedchatmodel'
    """
    params: Mapping[str, Any] = {}
    get_params = getattr(model, "_get_ls_params", None)
    if callable(get_params):
        try:
            params = get_params() or {}
        except Exception:  # noqa: BLE001 - a model's metadata hook must not break a description
            params = {}
    return str(params.get("ls_provider") or type(model).__name__.lower())


def _names(cls: type[Any]) -> set[str]:
    """Every name a pydantic model class accepts for its fields (names and aliases)."""
    names: set[str] = set()
    for name, info in getattr(cls, "model_fields", {}).items():
        names.add(name)
        if isinstance(info.alias, str):
            names.add(info.alias)
        alias = info.validation_alias
        if isinstance(alias, str):
            names.add(alias)
        elif isinstance(alias, AliasChoices):
            names.update(c for c in alias.choices if isinstance(c, str))
    return names


def _init(provider: str, model: str, kwargs: dict[str, Any], spec: str) -> BaseChatModel:
    """``init_chat_model`` with its failures turned into our errors."""
    try:
        chat: BaseChatModel = init_chat_model(model, model_provider=provider, **kwargs)
    except ImportError as exc:
        found = _PIP.search(str(exc))
        package = found[1] if found else f"langchain-{provider.replace('_', '-')}"
        raise ModelUnavailableError(
            spec,
            f"the {provider!r} provider needs the {package} package (pip install {package})",
        ) from exc
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}" for e in exc.errors()
        )
        raise ModelSpecError(f"Model {spec!r} refused its settings ({problems}).") from exc
    except ValueError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelSpecError(f"Model spec {spec!r} cannot be built: {first.rstrip('.')}.") from exc
    except Exception as exc:
        raise ModelUnavailableError(
            spec,
            f"{type(exc).__name__}: {exc} (a key is read from {key_variable(provider)} or the "
            "api_key setting)",
        ) from exc
    return chat


def provider_chat_model(
    provider: str, rest: str, settings: Mapping[str, Any], spec: str
) -> BaseChatModel:
    """The chat model of ``<provider>:<rest>`` through ``init_chat_model``.

    Args:
        provider: The provider, as ``init_chat_model`` names it (``anthropic``, ...).
        rest: ``<model>`` or ``<model>@<url>``.
        settings: :data:`PROVIDER_SETTINGS` (``None`` values are left out).
        spec: The whole spec, for messages.

    Raises:
        ModelSpecError: An empty model name, a malformed or unknown provider, or a
            setting the provider's class does not take.
        ModelUnavailableError: The provider's integration package is not installed, or
            its client refused to start (e.g. no key).
    """
    provider = provider.replace("-", "_")
    model, url = split_model_url(rest)
    if not model or not _PROVIDER.fullmatch(provider):
        raise ModelSpecError(f"Model spec {spec!r} is not '<provider>:<model>[@<url>]'.")
    given = {k: settings[k] for k in PROVIDER_SETTINGS if settings.get(k) is not None}
    if url:
        given["base_url"] = url
    # Build once with what a client may need to start, to learn the class's field names.
    needed = {k: v for k, v in given.items() if k in ("api_key", "base_url")}
    probe = _init(provider, model, needed, spec)
    names = _names(type(probe))
    kwargs: dict[str, object] = {}
    unknown = []
    for key, value in given.items():
        target = next((n for n in _SYNONYMS.get(key, (key,)) if n in names), None)
        if target is None:
            unknown.append(key)
        else:
            kwargs[target] = value
    if unknown:
        raise ModelSpecError(
            f"Model {spec!r} ({type(probe).__name__}) takes no {', '.join(map(repr, unknown))} "
            f"setting; the settings passed to providers are {', '.join(PROVIDER_SETTINGS)}, "
            "where the provider's class has them."
        )
    for key, value in _DEFAULTS.items():
        target = next((n for n in _SYNONYMS.get(key, (key,)) if n in names), None)
        if key not in given and target is not None:
            kwargs[target] = value
    if kwargs == needed:
        return probe
    return _init(provider, model, kwargs, spec)
