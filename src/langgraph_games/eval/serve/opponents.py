"""Which opponents a play server offers: chosen by the person who started it, never by a request.

A request names its opponent by spec, and a spec can name a model endpoint
(``gamebot:openai:gpt-4o@https://host/v1``) that the server would call with the user's key.
So a request may only pick one of the offered specs:

- with ``--opponents SPEC ...``: exactly those (checked when the server starts);
- without: every registered player in its plain form (no settings), LLM strategies on the
  embedded ``local`` model, which sends nothing anywhere.

Two spellings of one player are the same opponent (``gamebot:variant=cot:reader=rule:local``
is ``gamebot:reader=rule:variant=cot:local``; an LLM strategy without a model part plays
``local``).
"""

from __future__ import annotations

from collections.abc import Sequence

from langgraph_games.players.registry import (
    DEFAULT_MODEL,
    parse_spec,
    player_entries,
    player_entry,
)
from langgraph_games.players.spec import PlayerSpec

__all__ = ["NotOffered", "Opponents"]


class NotOffered(ValueError):
    """A request named an opponent the server does not offer."""


def _key(spec: PlayerSpec) -> PlayerSpec:
    """``spec`` with the model an LLM strategy plays when it names none filled in."""
    if player_entry(spec.name).needs_model and spec.model is None:
        return PlayerSpec(spec.name, dict(spec.settings), DEFAULT_MODEL)
    return spec


class Opponents:
    """The opponents one server offers.

    Args:
        specs: The offered specs (``--opponents``); empty: the default set (module doc).

    Raises:
        PlayerSpecError: One of ``specs`` is not a valid player spec.
    """

    def __init__(self, specs: Sequence[str] = ()) -> None:
        self.specs = tuple(dict.fromkeys(s.strip() for s in specs if s.strip()))
        self._keys = [_key(parse_spec(s)) for s in self.specs]

    def offered(self) -> list[str]:
        """The specs a request may name, as the page lists them."""
        if self.specs:
            return list(self.specs)
        return [
            f"{e.name}:{DEFAULT_MODEL}" if e.needs_model else e.name
            for e in player_entries()
            if e.name != "human"
        ]

    def choose(self, text: str) -> str:
        """The offered spec that ``text`` names (as the server's starter wrote it).

        Raises:
            PlayerSpecError: ``text`` is not a player spec (unknown name, bad setting).
            NotOffered: ``text`` is a spec, but not one this server offers.
        """
        wanted = _key(parse_spec(text))
        if self.specs:
            for spec, key in zip(self.specs, self._keys, strict=True):
                if key == wanted:
                    return spec
        else:
            for spec in self.offered():
                if _key(parse_spec(spec)) == wanted:
                    return spec
        raise NotOffered(
            f"opponent {text!r} is not offered by this server; it offers: "
            f"{', '.join(self.offered())} (whoever starts the server chooses them with "
            "--opponents)"
        )
