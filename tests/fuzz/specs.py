"""Hostile specs: player specs, model specs, game options, sweeps and other option strings.

:func:`spec_inputs` draws seeded strings for every parser of what a person types on the
command line: player specs ``name[:key=value...][:<model spec>]`` built from registered
names, their settings and model forms mixed with hostile pieces (huge digit runs, NUL,
look-alike letters, empty parts, stray separators); model specs alone; ``-o key=value``
options of every game with hostile values; ``--sweep`` ranges and lists; ``--rate-limit``,
``--history``, ``--games``, ``--variants`` and ``--workers`` values.

:data:`TARGETS` pairs each parser with its documented errors. :func:`check_input` runs one
input: it must give a result or one of those errors (a ``ValueError`` subclass of the
package, a :class:`~langgraph_games.games.errors.GameError`, or a ``ValueError`` the
package raises itself with a message), never another exception. LLM strategies are only
parsed: no model is loaded and no network is called (``load_chat_model`` is given
endpoint forms only, which build a client object and call nothing).
"""

from __future__ import annotations

import argparse
import linecache
import random
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph_games.cli._limits import parse_rate_limits
from langgraph_games.cli._options import parse_options, workers_of
from langgraph_games.cli.eval_cmd import parse_sweep, parse_variants
from langgraph_games.eval.protocols.smartplay import resolve_history, resolve_settings
from langgraph_games.games import list_games, make
from langgraph_games.games.base import Game
from langgraph_games.games.errors import GameError
from langgraph_games.models.errors import ModelError
from langgraph_games.models.factory import load_chat_model, rate_limit_for_spec
from langgraph_games.models.providers import split_model_url
from langgraph_games.players.base import Player
from langgraph_games.players.registry import (
    PLAYERS,
    PlayerSpecError,
    complete_model,
    make_player,
    parse_spec,
)
from langgraph_games.players.spec import PlayerSpec

__all__ = ["TARGETS", "Target", "check_input", "spec_inputs"]

PACKAGE = str(Path(__file__).resolve().parents[2] / "src" / "langgraph_games")

HOSTILE = (
    "",
    " ",
    ":",
    "::",
    "=",
    "==",
    "@",
    "..",
    ",",
    "\x00",
    "\t",
    "\n",
    "\u2028",
    "\ufeff",
    "ｍｉｎｉｍａｘ",
    "Мinimax",
    "9" * 5000,
    "-9" * 30,
    "1e999",
    "-1",
    "0",
    "nan",
    "inf",
    "true",
    "none",
    "null",
    "[1,2]",
    '{"a":' * 50,
    "[" * 2000,
    "💥" * 100,
    "x" * 10_000,
    "../../etc/passwd",
    "%s%n",
    "\\",
    "http://[::1",
    "http://h:99999999/v1",
)
MODELS = (
    "local",
    "local:/models/x.gguf",
    "LOCAL",
    "openai:gpt-4o",
    "openai:gpt@http://127.0.0.1:9/v1",
    "openai:gpt@http://[::1",
    "openai:",
    "anthropic:claude-sonnet-4-5",
    "ollama:llama3.1:8b@http://gpu:11434",
    "google_genai:gemini",
    "zzz:model",
    "9x:y",
    "a-b:c",
    ":model",
    "provider:",
    "openai:m@",
    "groq:m@ftp://x",
)


def _pick(rng: random.Random, choices: tuple[str, ...] | list[str]) -> str:
    return choices[rng.randrange(len(choices))]


def _value(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4:
        return _pick(rng, HOSTILE)
    if roll < 0.7:
        return str(rng.choice([0, 1, 2, 3, 5, 10, 30, -1, 10**6, 2**63, -(2**63)]))
    if roll < 0.85:
        return rng.choice(["a", "b", "cot", "paper", "memory", "no_dag", "easy", "hard", "eval"])
    return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 12)))


def player_spec(rng: random.Random) -> str:
    """A player spec: a registered name (or not), settings (known or not), a model (or not)."""
    names = PLAYERS.names()
    name = _pick(rng, names) if rng.random() < 0.85 else _pick(rng, HOSTILE)
    if rng.random() < 0.1:
        name = name.upper() if rng.random() < 0.5 else f" {name} "
    parts = [name]
    try:
        fields = list(PLAYERS.entry(name).settings.model_fields)
    except PlayerSpecError:
        fields = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        key = _pick(rng, fields) if fields and rng.random() < 0.7 else _pick(rng, HOSTILE)
        parts.append(f"{key}={_value(rng)}" if rng.random() < 0.9 else key)
    if rng.random() < 0.5:
        parts.append(_pick(rng, MODELS) if rng.random() < 0.8 else _pick(rng, HOSTILE))
    separator = ":" if rng.random() < 0.9 else _pick(rng, (" : ", "::", ":="))
    return separator.join(parts)


def model_spec(rng: random.Random) -> str:
    """A model spec: an accepted form, damaged or not."""
    spec = _pick(rng, MODELS)
    roll = rng.random()
    if roll < 0.3:
        return spec + _pick(rng, HOSTILE)
    if roll < 0.5:
        return _pick(rng, HOSTILE) + spec
    if roll < 0.6:
        return spec.replace(":", _pick(rng, HOSTILE), 1)
    return spec


def game_option(rng: random.Random) -> str:
    """``<game>|key=value``: an option of a registered game (or not) with a hostile value."""
    info = rng.choice(list_games())
    names = [option.name for option in info.options]
    key = _pick(rng, names) if names and rng.random() < 0.8 else _pick(rng, HOSTILE)
    value = _value(rng)
    if rng.random() < 0.2:
        value = rng.choice(['"text"', "[1, 2]", '{"a": 1}', "1.5", "true", "NaN", "Infinity"])
    return f"{info.id}|{key}={value}" if rng.random() < 0.95 else f"{info.id}|{key}"


def sweep(rng: random.Random) -> str:
    """``--sweep`` items joined by ``|``: ranges (some huge, some empty) and lists."""
    items = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        key = (
            rng.choice(["map_index", "level", "variant", "seed", "x"]) if rng.random() < 0.9 else ""
        )
        roll = rng.random()
        if roll < 0.5:
            low = rng.choice([0, 1, 5, -3, 10**9, 2**63])
            high = rng.choice([0, 1, 30, 200, 10**9, 2**64, -1])
            items.append(f"{key}={low}..{high}")
        elif roll < 0.8:
            items.append(f"{key}=" + ",".join(_value(rng) for _ in range(rng.randrange(1, 6))))
        else:
            items.append(f"{key}={_pick(rng, HOSTILE)}")
    return "|".join(items)


def option_value(rng: random.Random) -> str:
    """A value for ``--rate-limit``, ``--history``, ``--games``, ``--variants``, ``--workers``."""
    forms = [
        lambda: _value(rng),
        lambda: f"{model_spec(rng)}={_value(rng)}",
        lambda: f"{rng.choice(['crafter', 'hanoi', 'bandit', 'x', ''])}={_value(rng)}",
        lambda: ",".join(_value(rng) for _ in range(rng.randrange(1, 4))),
        lambda: rng.choice(["auto", "AUTO", " 2 ", "0", "-1", "1.5", "messenger", "minecraft"]),
    ]
    return rng.choice(forms)()


def _player(text: str) -> PlayerSpec:
    return parse_spec(text)


def _built(text: str, game: Game[Any]) -> Player | PlayerSpec:
    """A search player built for ``game``; an LLM strategy's spec only parsed."""
    parsed = parse_spec(text)
    if PLAYERS.entry(parsed.name).needs_model:
        return parsed
    return make_player(parsed, game)


def _model(text: str) -> Any:
    model, url = split_model_url(text)
    assert isinstance(model, str) and (url is None or url.startswith(("http://", "https://")))
    rate_limit_for_spec(text, {"*": 1.0, text: 2.0})
    if text.strip().lower().partition(":")[0] == "local":
        return model  # the embedded model's spec: parsed, never loaded
    return load_chat_model(text)


def _option(text: str) -> Game[Any]:
    game, _, pair = text.partition("|")
    return make(game, **parse_options([pair]))


def _sweep(text: str) -> dict[str, list[Any]]:
    return parse_sweep(text.split("|"))


def _rate(text: str) -> Any:
    return parse_rate_limits([text])


def _history(text: str) -> Any:
    return resolve_history([text], ["Bandit", "Hanoi", "Crafter"])


def _games(text: str) -> Any:
    return resolve_settings(text.split(","))


def _variants(text: str) -> Any:
    return parse_variants(text)


def _workers(text: str) -> Any:
    return workers_of(argparse.Namespace(workers=text))


def _complete(text: str) -> str:
    return complete_model(text, "local")


@dataclass(frozen=True)
class Target:
    """A parser, how its inputs are drawn, and what else it needs.

    Attributes:
        name: Test id.
        draw: A seeded input.
        call: The parser applied to an input (and, for player builds, a game).
        needs_game: ``call`` takes a game engine too.
        share: This target's share of a run's inputs, relative to the others (model specs
            build client objects, some milliseconds each, so they get fewer).
    """

    name: str
    draw: Callable[[random.Random], str]
    call: Callable[..., Any]
    needs_game: bool = False
    share: float = 1.0

    def count(self, total: int) -> int:
        """This target's inputs when a run draws ``total`` in all."""
        return max(1, round(total * self.share / sum(t.share for t in TARGETS)))


TARGETS: tuple[Target, ...] = (
    Target("parse_spec", player_spec, _player),
    Target("complete_model", player_spec, _complete),
    Target("make_player", player_spec, _built, needs_game=True),
    Target("model_spec", model_spec, _model, share=0.3),
    Target("game_option", game_option, _option),
    Target("sweep", sweep, _sweep),
    Target("rate_limit", option_value, _rate),
    Target("history", option_value, _history),
    Target("smartplay_games", option_value, _games),
    Target("spring_variants", option_value, _variants),
    Target("workers", option_value, _workers),
)
"""Every parser of what is typed on the command line that the fuzz drives."""


def spec_inputs(target: Target, seed: int, count: int) -> Iterator[str]:
    """``count`` seeded inputs for ``target``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield target.draw(rng)


def _raised_here(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by a ``raise`` statement of the package (with a message)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames or not frames[-1].filename.startswith(PACKAGE) or not str(exc):
        return False
    line = linecache.getline(frames[-1].filename, frames[-1].lineno or 0).strip()
    return line.startswith("raise ")


def documented(exc: BaseException) -> bool:
    """Whether ``exc`` is one of the errors the package documents for bad input."""
    if isinstance(exc, (GameError, ModelError)) and str(exc):
        return True
    if not isinstance(exc, ValueError) or not str(exc):
        return False
    own = type(exc).__module__.startswith("langgraph_games")
    return own or _raised_here(exc)


def check_input(target: Target, text: str, games: list[Game[Any]], number: int) -> str | None:
    """Run one input: ``None`` when it gave a result or a documented error, else the crash."""
    args: tuple[Any, ...] = (text,)
    if target.needs_game:
        args = (text, games[number % len(games)])
    try:
        target.call(*args)
    except Exception as exc:  # noqa: BLE001 - the crash is the finding
        if documented(exc):
            return None
        frames = traceback.extract_tb(exc.__traceback__)
        at = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
        return f"{target.name} {text[:120]!r}: {type(exc).__name__} at {at}: {str(exc)[:200]}"
    return None


def engines() -> list[Game[Any]]:
    """One engine of every registered game, for player builds."""
    return [make(info.id) for info in list_games()]
