"""Cost in money: token counts times a price table the user can extend.

A :class:`PriceTable` maps model names to US dollars per million input and output tokens.
The package ships :data:`DEFAULT_PRICES`, a few OpenAI models at the list prices OpenAI
published as of :data:`PRICES_AS_OF`; prices change, so check your provider's current
pricing and give your own with ``--prices FILE`` (or ``LANGGRAPH_GAMES_PRICES=FILE``), a
TOML or JSON table whose entries override and extend the shipped ones::

    ["gpt-4o-mini"]
    input = 0.15    # USD per 1M input tokens
    output = 0.60   # USD per 1M output tokens

    ["anthropic:claude-sonnet-4-5"]   # a provider-qualified name wins over a bare one
    input = 3.0
    output = 15.0

A player's model is found from its spec (``gamebot:openai:gpt-4o-mini`` prices as
``openai:gpt-4o-mini``, else ``gpt-4o-mini``); a model served from another URL
(``@http://...``) is priced under the same name, so give a table for such a server. The
embedded local model costs nothing (``local``: 0). A player without a model, or whose
model has no price, has no cost (``-`` in tables). Replies served from the model-call cache
hold no tokens, so they cost nothing.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict

from langgraph_games._settings_files import parse_toml, read_settings_text
from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.players.registry import DEFAULT_MODEL, parse_spec, player_entry

__all__ = [
    "DEFAULT_PRICES",
    "PRICES_AS_OF",
    "PRICES_ENV",
    "PlayerCost",
    "Price",
    "PriceTable",
    "cost_section",
    "load_prices",
    "model_of_spec",
    "player_costs",
]

PRICES_ENV = "LANGGRAPH_GAMES_PRICES"
"""The environment variable naming a price file (what ``--prices`` gives)."""

PRICES_AS_OF = "2025-05"
"""When :data:`DEFAULT_PRICES` were OpenAI's published list prices (standard tier)."""


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens.

    Attributes:
        input: Per million input (prompt) tokens.
        output: Per million output (completion) tokens.
    """

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """The cost of so many tokens, in US dollars.

        Example:
            >>> Price(0.15, 0.60).cost(1_000_000, 500_000)
            0.45
        """
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


DEFAULT_PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "o3-mini": Price(1.10, 4.40),
    "local": Price(0.0, 0.0),
}
"""Shipped prices (USD per 1M tokens), as published as of :data:`PRICES_AS_OF`: check them."""


@dataclass(frozen=True)
class PriceTable:
    """Prices by model name (see the module docstring for how a name is looked up).

    Example:
        >>> table = PriceTable({"gpt-x": Price(1.0, 2.0)})
        >>> table.cost("openai:gpt-x", 1000, 1000), table.cost("other", 5, 5)
        (0.003, None)
    """

    prices: Mapping[str, Price] = field(default_factory=dict)
    source: str = "shipped prices"

    def price(self, model: str | None) -> Price | None:
        """The price of ``model`` (``provider:name`` first, then ``name``), if known."""
        if not model:
            return None
        if model in self.prices:
            return self.prices[model]
        provider, sep, name = model.partition(":")
        if sep and name in self.prices:
            return self.prices[name]
        if provider.lower() == "local":
            return self.prices.get("local")
        return None

    def cost(self, model: str | None, input_tokens: int, output_tokens: int) -> float | None:
        """The cost in US dollars, ``None`` when the model's price is unknown."""
        price = self.price(model)
        return None if price is None else round(price.cost(input_tokens, output_tokens), 6)


def _parse(text: str, where: str, json_file: bool) -> object:
    if not json_file:
        return parse_toml(text, where)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{where}: not valid JSON ({exc})") from None


def _price(name: str, entry: object, where: str) -> Price:
    values: list[float] = []
    for side in ("input", "output"):
        value = entry.get(side) if isinstance(entry, Mapping) else None
        if (
            not isinstance(value, (int, float))
            or isinstance(value, bool)
            or not math.isfinite(value)
            or value < 0
        ):
            raise ValueError(
                f"{where}: {name!r} needs input and output, US dollars per 1M tokens >= 0 "
                f"(e.g. input = 0.15, output = 0.60); got {entry!r}"[:300]
            )
        values.append(float(value))
    return Price(values[0], values[1])


def load_prices(path: str | os.PathLike[str] | None = None) -> PriceTable:
    """The shipped prices, extended and overridden by a price file.

    Args:
        path: A TOML or JSON (``.json``) file; ``None``: the file ``LANGGRAPH_GAMES_PRICES``
            names, else none.

    Raises:
        ValueError: The file is missing, does not parse, or an entry is not a price (one
            line naming the file and the entry).
    """
    given = path if path is not None else (os.environ.get(PRICES_ENV) or None)
    if given is None:
        return PriceTable(dict(DEFAULT_PRICES))
    file = Path(given).expanduser()
    where = f"price file {file}"
    text = read_settings_text(file, where)
    data = _parse(text, where, file.suffix.lower() == ".json")
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: must be a table of model name -> {{input, output}}")
    prices = dict(DEFAULT_PRICES)
    for name, entry in data.items():
        prices[str(name)] = _price(str(name), entry, where)
    return PriceTable(prices, source=f"{file} and the shipped prices")


def model_of_spec(spec: str) -> str | None:
    """The model a player spec plays on, without its URL; ``None`` for a player with none.

    Example:
        >>> model_of_spec("gamebot:variant=cot:openai:gpt-4o-mini@http://h:8/v1")
        'openai:gpt-4o-mini'
        >>> model_of_spec("gamebot"), model_of_spec("random")
        ('local', None)
    """
    try:
        parsed = parse_spec(spec)
        if not player_entry(parsed.name).needs_model:
            return None
    except Exception:  # noqa: BLE001 - a label that is no spec (a person, an old name)
        return None
    model = (parsed.model or DEFAULT_MODEL).strip()
    return model.partition("@")[0]


@dataclass
class _Spent:
    calls: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


def _decision_usage(record: Mapping[str, Any]) -> dict[int, _Spent]:
    """Calls and cached replies per seat, from the trajectory's decisions."""
    spent: dict[int, _Spent] = {}
    for step in record.get("trajectory") or []:
        for seat, decision in (step.get("decisions") or {}).items():
            item = spent.setdefault(int(seat), _Spent())
            for attempt in decision.get("attempts") or []:
                usage = attempt.get("usage") or {}
                item.calls += int(usage.get("calls", 0) or 0)
                item.cached += int(usage.get("cached_calls", 0) or 0)
    return spent


class PlayerCost(TypedDict):
    """One player's row of :func:`player_costs` (``cost_usd``: ``None`` without a price)."""

    player: str
    calls: int
    cached: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None


def player_costs(records: Iterable[Mapping[str, Any]], prices: PriceTable) -> list[PlayerCost]:
    """Per player of the match and episode records: calls, cached replies, tokens, cost.

    Rows in the order players are first met; ``cost_usd`` is ``None`` where the model's
    price is unknown (or the player has no model).
    """
    totals: dict[str, _Spent] = {}
    for record in records:
        if record.get("kind") not in ("match", "episode") or record.get("status") == "error":
            continue
        seats = record.get("seats") or [record.get("label")]
        counters = (record.get("result") or {}).get("players") or []
        usage = _decision_usage(record)
        for seat, spec in enumerate(seats):
            if spec is None:
                continue
            item = totals.setdefault(str(spec), _Spent())
            seat_counters = counters[seat] if seat < len(counters) else {}
            item.input_tokens += int(seat_counters.get("input_tokens", 0) or 0)
            item.output_tokens += int(seat_counters.get("output_tokens", 0) or 0)
            item.calls += int(seat_counters.get("model_calls", 0) or 0)
            item.cached += usage.get(seat, _Spent()).cached
    rows: list[PlayerCost] = []
    for spec, item in totals.items():
        rows.append(
            {
                "player": spec,
                "calls": item.calls,
                "cached": item.cached,
                "input_tokens": item.input_tokens,
                "output_tokens": item.output_tokens,
                "cost_usd": prices.cost(model_of_spec(spec), item.input_tokens, item.output_tokens),
            }
        )
    return rows


def cost_section(records: Iterable[Mapping[str, Any]], prices: PriceTable) -> str:
    """A Markdown section of :func:`player_costs`, ``""`` when no player used a model.

    Example:
        >>> record = {"kind": "match", "seats": ["gamebot:openai:gpt-4o", "random"],
        ...           "result": {"players": [{"model_calls": 4, "input_tokens": 200_000,
        ...                                   "output_tokens": 10_000}, {}]}}
        >>> print(cost_section([record], PriceTable(DEFAULT_PRICES)))
        ## Cost (USD)
        <BLANKLINE>
        | player                | calls   | cached   | tokens in   | tokens out   | cost (USD)   |
        |-----------------------|---------|----------|-------------|--------------|--------------|
        | gamebot:openai:gpt-4o | 4       | 0        | 200000      | 10000        | 0.6000       |
        | random                | 0       | 0        | 0           | 0            | -            |
        <BLANKLINE>
        Prices: shipped prices (USD per 1M tokens; shipped ones as of 2025-05: check them).
    """
    rows = player_costs(records, prices)
    if not any(r["calls"] or r["cached"] or r["input_tokens"] for r in rows):
        return ""
    headers = ["player", "calls", "cached", "tokens in", "tokens out", "cost (USD)"]
    body = [
        [
            r["player"],
            r["calls"],
            r["cached"],
            r["input_tokens"],
            r["output_tokens"],
            "-" if r["cost_usd"] is None else f"{r['cost_usd']:.4f}",
        ]
        for r in rows
    ]
    table = markdown_table(headers, body)
    note = (
        f"Prices: {prices.source} (USD per 1M tokens; shipped ones as of {PRICES_AS_OF}: "
        "check them)."
    )
    return f"## Cost (USD)\n\n{table}\n\n{note}"
