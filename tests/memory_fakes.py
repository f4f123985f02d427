"""Seeded fake embeddings, scripted chat models and fake stores shared by the memory tests."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.store.base import BaseStore, IndexConfig, Op, Result, SearchOp
from langgraph.store.memory import InMemoryStore
from pydantic import Field


def fake_index(size: int = 16, fields: list[str] | None = None) -> IndexConfig:
    config: IndexConfig = {"dims": size, "embed": DeterministicFakeEmbedding(size=size)}
    if fields is not None:
        config["fields"] = fields
    return config


class BagOfWords(Embeddings):
    """Cosine similarity of two texts = overlap of their word counts, so tests can reason."""

    def __init__(self, dims: int = 1024) -> None:
        self.dims = dims

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dims
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dims] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


class ScriptedChatModel(BaseChatModel):
    """Replies from a script (consumed in order) or a function of the prompt; records prompts."""

    replies: list[str] = Field(default_factory=list)
    respond: Callable[[str], str] | None = None
    prompts: list[str] = Field(default_factory=list)
    fail: bool = False

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        prompt = "\n".join(str(m.content) for m in messages)
        self.prompts.append(prompt)
        if self.fail:
            raise RuntimeError("model unavailable")
        text = self.respond(prompt) if self.respond is not None else self.replies.pop(0)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    @property
    def _llm_type(self) -> str:
        return "scripted"


_PAIR = re.compile(r"New lesson \(A\): (.*)\nLesson on the list \(B\): (.*)")
_MIRROR = {"more_specific": "more_general", "more_general": "more_specific"}


def relation_judge(
    table: dict[tuple[str, str], str], default: str = "unrelated"
) -> ScriptedChatModel:
    """A model answering the relation check from ``table``: ``(A, B) -> relation``.

    ``(B, A)`` gets the mirrored relation; any other pair gets ``default``. Its prompts are
    recorded (``.prompts``), so a test counts the calls.
    """

    def respond(prompt: str) -> str:
        found = _PAIR.search(prompt)
        assert found, prompt
        a, b = found.group(1), found.group(2)
        if (a, b) in table:
            relation = table[(a, b)]
        elif (b, a) in table:
            relation = _MIRROR.get(table[(b, a)], table[(b, a)])
        else:
            relation = default
        return json.dumps({"relation": relation, "reason": f"{relation} by the table"})

    return ScriptedChatModel(respond=respond)


def prompt_entries(prompt: str) -> list[str]:
    """The numbered lessons a TruthWeaver prompt lists."""
    return re.findall(r"^\d+\. (.*)$", prompt, flags=re.MULTILINE)


def server_worker(host: str, port: int, worker: int, count: int) -> None:
    """A writer process for the server-mode test (importable by spawned processes)."""
    from langgraph_games.memory import ChromaStore

    with ChromaStore(
        host=host, port=port, name="shared", index=fake_index(fields=["text"])
    ) as store:
        for i in range(count):
            store.put(("w", str(worker)), f"k{i}", {"text": f"worker {worker} item {i}"})
            store.put(("pool",), f"w{worker}-{i}", {"text": f"pool {worker} {i}"})


class AsyncOnlyStore(BaseStore):
    """A store usable only through its async API, as a LangGraph Server's store is from its
    event loop: every sync call raises; async calls go to ``inner``. Counts searches."""

    def __init__(self, inner: BaseStore | None = None) -> None:
        self.inner = inner if inner is not None else InMemoryStore()
        self.searches = 0

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        raise RuntimeError("a synchronous call to an async-only store")

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        self.searches += sum(isinstance(op, SearchOp) for op in ops)
        return await self.inner.abatch(ops)
