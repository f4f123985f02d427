"""Structured replies: hold a model to a JSON schema where it can be held, and read JSON back.

:func:`json_schema_model` gives a copy of a chat model whose replies follow a JSON schema
where the model allows it: the embedded llama.cpp model through a GBNF grammar made from
the schema, an OpenAI-compatible endpoint through a ``json_schema`` ``response_format``.
Any other model is returned as it is: the prompt asks for JSON and the reader checks it.

:func:`read_json_object` is the one rule for reading such a reply: the JSON object the
reply is (a Markdown code fence around it is allowed), else the text from its first ``{``
to its last ``}``; anything else is reported as not JSON, never guessed. It is linear in
the reply's length.
"""

from __future__ import annotations

import json

from langchain_core.language_models.chat_models import BaseChatModel

from langgraph_games._json import JsonObject, JsonValue
from langgraph_games.models.local import LocalChatModel
from langgraph_games.models.messages import reply_too_long

__all__ = ["json_schema_model", "read_json_object", "schema_grammar"]


def schema_grammar(schema: JsonObject) -> str:
    r"""A llama.cpp GBNF grammar of a JSON schema, bounded so a reply always ends.

    Covers what our schemas use: objects (every property, in order), strings (at most
    ``maxLength`` characters, default 200; no quotes, backslashes or control characters
    inside), string enums and arrays of them (``minItems`` to ``maxItems`` items, default
    0 to 8).
    Bounds keep a small model from writing one string until its token limit runs out.

    Raises:
        ValueError: The schema uses something else.

    Example:
        >>> print(schema_grammar({"type": "object", "properties": {
        ...     "relation": {"type": "string", "enum": ["same", "other"]}}}))
        root ::= "{" ws "\"relation\"" ws ":" ws r1 ws "}"
        r1 ::= "\"same\"" | "\"other\""
        ws ::= [ \t\n]{0,4}
    """
    rules: list[str] = []

    def rule(body: str) -> str:
        name = f"r{len(rules) + 1}"
        rules.append(f"{name} ::= {body}")
        return name

    def literal(text: str) -> str:
        return json.dumps(json.dumps(text))

    def bound(node: JsonObject, key: str, default: int) -> int:
        value = node.get(key, default)
        if not isinstance(value, int):
            raise ValueError(f"schema_grammar needs an integer {key}, not {value!r}")
        return value

    def of(node: JsonValue) -> str:
        if not isinstance(node, dict):
            raise ValueError(f"schema_grammar needs a schema object, not {node!r}")
        kind = node.get("type")
        enum = node.get("enum")
        if isinstance(enum, list):
            return rule(" | ".join(literal(str(v)) for v in enum))
        if kind == "string":
            return f'"\\"" [^"\\\\\\x00-\\x1f]{{0,{bound(node, "maxLength", 200)}}} "\\""'
        if kind == "array":
            item = of(node.get("items"))
            least = bound(node, "minItems", 0)
            more = max(0, bound(node, "maxItems", 8) - 1)
            repeat = f'("," ws {item} ws){{{max(0, least - 1)},{more}}}'
            body = f"{item} ws {repeat}"
            return rule(f'"[" ws {body} "]"' if least else f'"[" ws ({body})? "]"')
        if kind == "object":
            properties = node.get("properties", {})
            if not isinstance(properties, dict):
                raise ValueError(
                    f"schema_grammar needs an object of properties, not {properties!r}"
                )
            parts = [f'{literal(key)} ws ":" ws {of(value)}' for key, value in properties.items()]
            inner = ' ws "," ws '.join(parts)
            return f'"{{" ws {inner} ws "}}"'
        raise ValueError(f"schema_grammar covers objects, strings, enums and arrays, not {node}")

    root = of(schema)
    return "\n".join([f"root ::= {root}", *rules, "ws ::= [ \\t\\n]{0,4}"])


def json_schema_model(model: BaseChatModel, schema: JsonObject, name: str) -> BaseChatModel:
    """A copy of ``model`` held to ``schema`` where the model allows it (else ``model``).

    Args:
        model: Any chat model.
        schema: A JSON schema of an object (within what :func:`schema_grammar` covers).
        name: The schema's name (an endpoint's ``response_format`` needs one).
    """
    if isinstance(model, LocalChatModel):
        return model.model_copy(update={"grammar": schema_grammar(schema)})
    extra = getattr(model, "model_kwargs", None)
    if isinstance(extra, dict):
        spec = {"name": name, "strict": True, "schema": _unbounded(schema)}
        fmt = {"type": "json_schema", "json_schema": spec}
        return model.model_copy(update={"model_kwargs": {**extra, "response_format": fmt}})
    return model


def _unbounded(node: JsonValue) -> JsonValue:
    """``node`` without length bounds (a strict ``response_format`` refuses them)."""
    if isinstance(node, dict):
        bounds = ("maxLength", "maxItems", "minItems")
        return {k: _unbounded(v) for k, v in node.items() if k not in bounds}
    if isinstance(node, list):
        return [_unbounded(v) for v in node]
    return node


def read_json_object(reply: str) -> tuple[JsonObject | None, str]:
    r"""The JSON object of a reply, by the module's rule.

    Returns:
        ``(object, "ok")``, or ``(None, problem)``: ``empty``, ``too-long``, ``not-json``
        or ``not-an-object``.

    Example:
        >>> read_json_object('Here: ```json\n{"a": 1}\n```')
        ({'a': 1}, 'ok')
        >>> read_json_object("a plain sentence")
        (None, 'not-json')
    """
    if reply_too_long(reply) is not None:
        return None, "too-long"
    text = reply.strip()
    if not text:
        return None, "empty"
    start, end = text.find("{"), text.rfind("}")
    candidates = [text] if start < 0 or end < start else [text, text[start : end + 1]]
    for candidate in candidates:
        try:
            data = json.loads(candidate)
        except (ValueError, RecursionError):  # RecursionError: brackets nested too deep
            continue
        if isinstance(data, dict):
            return data, "ok"
        return None, "not-an-object"
    return None, "not-json"
