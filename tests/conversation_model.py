"""A scripted tool-calling chat model that answers each conversation from its own script.

One model object serves every thread of a compiled agent: a conversation's script is
chosen by its first human message, and the reply is the script's entry at the number of
AI messages the conversation already holds. So interleaved threads, and a thread resumed
by another process from a checkpoint, each get their own next reply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

Step = AIMessage | str | Sequence[tuple[str, dict[str, Any]]]
"""A reply: an AI message, a final text, or the tool calls ``[(name, args), ...]``."""


class ConversationModel(BaseChatModel):
    """Replies from ``scripts[<first human message>]``, one entry per model turn."""

    scripts: Mapping[str, Sequence[Any]] = Field(default_factory=dict)
    """Each conversation's replies (:data:`Step`), by its first human message."""

    @property
    def _llm_type(self) -> str:
        return "conversation-scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ConversationModel:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        user = next(str(m.content) for m in messages if isinstance(m, HumanMessage))
        turn = sum(isinstance(m, AIMessage) for m in messages)
        step = self.scripts[user][turn]
        if isinstance(step, AIMessage):
            reply = step
        elif isinstance(step, str):
            reply = AIMessage(step)
        else:
            calls = [
                {"id": f"{user}-{turn}-{i}", "name": name, "args": args, "type": "tool_call"}
                for i, (name, args) in enumerate(step)
            ]
            reply = AIMessage("", tool_calls=calls)
        return ChatResult(generations=[ChatGeneration(message=reply)])
