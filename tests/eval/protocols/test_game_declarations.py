"""A game's family and paper protocol come from its own declaration, read through the registry."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from langgraph_games.eval.protocols.plans import PROTOCOLS, ablation_rows, plan_eval, protocol_for
from langgraph_games.eval.scoring.families import FAMILIES, family_of
from langgraph_games.games import registry
from langgraph_games.games.minesweeper import Minesweeper
from langgraph_games.games.protocol import AblationArm, EvalProtocol
from langgraph_games.graphs.minesweeper.prompts import VARIANT_LABELS, Variant


class ToyMines(Minesweeper):
    """A game declared only here: its family and protocol are data on the class."""

    id = "toy_mines"
    family = "smartplay"
    eval_protocol = EvalProtocol(
        level_option="mines",
        options={"rows": 5},
        sweep={"mines": (2, 4)},
        repeats=3,
        max_retries=1,
        ablation=(AblationArm("narrow"), AblationArm("wide", {"cols": 7})),
    )


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    games: dict[str, Any] = {k: dict(v) for k, v in registry._GAMES.items()}
    monkeypatch.setattr(registry, "_GAMES", games)
    registry.register(ToyMines)
    yield


@pytest.mark.usefixtures("toy_registered")
def test_a_new_game_gets_its_declared_family_and_protocol() -> None:
    family = family_of("toy_mines-v1")
    assert family.name == "smartplay"
    assert "toy_mines" in family.games and "bandit" in family.games
    assert FAMILIES["toy_mines"].name == "smartplay"
    assert protocol_for("toy_mines") is ToyMines.eval_protocol
    assert PROTOCOLS["toy_mines"] is ToyMines.eval_protocol

    spec = plan_eval("toy_mines", "minesweeper_solver")
    assert (spec.options, spec.sweep, spec.repeats) == ({"rows": 5}, {"mines": [2, 4]}, 3)
    assert spec.episode.max_retries == 1
    given = plan_eval("toy_mines", "minesweeper_solver", level=3, episodes=2, max_retries=0)
    assert (given.options, given.sweep, given.repeats) == ({"rows": 5, "mines": 3}, {}, 2)
    assert given.episode.max_retries == 0

    rows = ablation_rows("toy_mines", "minesweeper_solver")
    assert [(r.label, r.agent, r.options) for r in rows] == [
        ("narrow", "minesweeper_solver", {}),
        ("wide", "minesweeper_solver", {"cols": 7}),
    ]


def test_games_without_a_declaration_use_the_generic_family_and_defaults() -> None:
    assert family_of("othello").name == "generic"
    assert family_of("not_installed-v3").games == ("not_installed",)
    assert protocol_for("othello") is None
    spec = plan_eval("othello", "random")
    assert (spec.sweep, spec.repeats, spec.episode.max_retries) == ({}, 10, 2)
    with pytest.raises(ValueError, match="games with one: match2, maze, minesweeper"):
        ablation_rows("othello", "random")


def test_the_paper_families_and_protocols_are_declared_by_their_games() -> None:
    assert {g: f.name for g, f in FAMILIES.items()} == {
        "bandit": "smartplay",
        "crafter": "crafter",
        "hanoi": "smartplay",
        "match2": "match2",
        "maze": "maze",
        "messenger": "smartplay",
        "minesweeper": "minesweeper",
        "rock_paper_scissors": "smartplay",
    }
    assert list(PROTOCOLS) == ["match2", "maze", "minesweeper"]


def test_minesweeper_ablation_rows_name_the_strategy_variants() -> None:
    # The game declares Table 1's rows as data; they must match the strategy's variants.
    rows = ablation_rows("minesweeper", "local")
    assert [(r.label, r.agent) for r in rows] == [
        (VARIANT_LABELS[v], f"minesweeper:variant={v.value}:local") for v in Variant
    ]
