"""A scripted tool-calling chat model for the tool tests."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

_ids = itertools.count()


class ScriptedToolModel(GenericFakeChatModel):
    """Replays scripted AI messages; ``bind_tools`` keeps the script (ecosystem.md 3.7)."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedToolModel:
        return self


def call(name: str, **args: Any) -> AIMessage:
    """An AI message that calls one tool."""
    return AIMessage("", tool_calls=[{"id": f"call-{next(_ids)}", "name": name, "args": args}])


def scripted(*messages: AIMessage) -> ScriptedToolModel:
    return ScriptedToolModel(messages=iter(messages))
