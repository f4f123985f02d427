"""Game options: each game's typed declaration, strict checks, one-line errors and listings."""

from __future__ import annotations

import json
from typing import Any

import pytest

from langgraph_games.cli import main
from langgraph_games.cli._options import parse_options
from langgraph_games.games import OptionError, UnknownGameError, make
from langgraph_games.games.base import Game
from langgraph_games.games.registry import game_class, game_classes


def _every_version() -> list[type[Game[Any]]]:
    """Every registered class, older versions included (``texas_holdem-v2``)."""
    classes = []
    for newest in game_classes():
        for version in range(1, newest.version + 1):
            try:
                classes.append(game_class(f"{newest.id}-v{version}"))
            except UnknownGameError:
                continue
    return classes


GAMES = _every_version()


def _cli_text(value: object) -> str:
    """A value as a person writes it after ``-o key=``: text bare, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: f"{c.id}-v{c.version}")
def test_every_declared_default_is_accepted_from_python_json_and_the_command_line(
    cls: type[Game[Any]],
) -> None:
    defaults = {info.name: info.default for info in cls.option_infos()}
    assert set(defaults) == set(cls.Options.model_fields)
    engine = make(f"{cls.id}-v{cls.version}", **defaults)
    assert engine.options == cls.Options()
    # What a results file or a checkpoint holds reads back: JSON values of every option.
    dumped = json.loads(json.dumps(engine.options.model_dump(mode="json")))
    assert make(f"{cls.id}-v{cls.version}", **dumped).options == engine.options
    # And so does what ``--option`` reads from the command line.
    given = parse_options([f"{name}={_cli_text(value)}" for name, value in dumped.items()])
    assert make(f"{cls.id}-v{cls.version}", **given).options == engine.options


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: f"{c.id}-v{c.version}")
def test_an_unknown_or_mistyped_option_of_every_game_is_one_line_naming_it(
    cls: type[Game[Any]],
) -> None:
    game_id = f"{cls.id}-v{cls.version}"
    infos = cls.option_infos()
    with pytest.raises(OptionError) as unknown:
        make(game_id, no_such_option=1)
    message = str(unknown.value)
    assert "\n" not in message and unknown.value.option == "no_such_option"
    assert message.startswith(f"Game {cls.id!r}: option 'no_such_option' is not an option")
    for info in infos:
        assert f"{info.name} ({info.type}, default {info.default!r})" in message
    if not infos:
        assert "This game takes no options." in message
    for info in infos:  # no option accepts a list
        with pytest.raises(OptionError) as wrong:
            make(game_id, **{info.name: [1]})
        message = str(wrong.value)
        assert "\n" not in message and wrong.value.option == info.name
        assert f"Game {cls.id!r}: option {info.name!r} has an invalid value [1]" in message
        assert f"Accepted: {info}." in message


@pytest.mark.parametrize(
    ("game", "options", "problem"),
    [
        ("maze", {"max_steps": "100"}, "'max_steps' has an invalid value '100'"),
        ("maze", {"max_steps": True}, "'max_steps' has an invalid value True (a bool is none"),
        ("maze", {"max_steps": 100.0}, "'max_steps' has an invalid value 100.0 (a float is none"),
        ("maze", {"level": True}, "'level' has an invalid value True (a bool is none"),
        ("maze", {"level": 2.0}, "'level' has an invalid value 2.0 (a float is none"),
        ("maze", {"level": "2"}, "'level' has an invalid value '2' (Input should be 1, 2 or 3)"),
        ("maze", {"full_vision": 1}, "'full_vision' has an invalid value 1"),
        ("maze", {"full_vision": "yes"}, "'full_vision' has an invalid value 'yes'"),
        ("negotiation", {"end_chance": "0.5"}, "'end_chance' has an invalid value '0.5'"),
        ("crafter", {"default_action": 3}, "'default_action' has an invalid value 3"),
    ],
)
def test_a_value_of_another_type_is_refused_not_converted(
    game: str, options: dict[str, object], problem: str
) -> None:
    with pytest.raises(OptionError, match="Accepted: ") as info:
        make(game, **options)
    assert problem in str(info.value)


def test_values_of_the_declared_types_are_still_accepted() -> None:
    # The opposite of the refusals above: an int is a valid float, None a valid optional.
    assert make("negotiation", end_chance=1).options.model_dump()["end_chance"] == 1.0
    assert make("maze", level=3, grid_size=None, full_vision=True).options.model_dump() == {
        **make("maze").options.model_dump(),
        "level": 3,
        "full_vision": True,
    }
    assert make("minesweeper", max_steps=None, rows=3, cols=3, mines=1).options_dict() == {
        "rows": 3,
        "cols": 3,
        "mines": 1,
        "max_steps": None,
    }


def test_a_misspelt_option_is_named_with_the_closest_one_and_a_long_value_is_cut() -> None:
    with pytest.raises(OptionError, match=r"'levl' is not an option.*Did you mean 'level'\?"):
        make("maze", levl=2)
    with pytest.raises(OptionError) as info:
        make("maze", max_steps="9" * 10_000)
    assert len(str(info.value)) < 400 and "99..." in str(info.value)


def test_options_list_their_types_bounds_and_defaults() -> None:
    infos = {info.name: info for info in game_class("maze").option_infos()}
    assert infos["level"].short() == "level (one of 1, 2, 3, default 1)"
    assert infos["map_index"].type == "int 1..30 or None"
    assert infos["max_steps"].type == "int >= 1"
    assert infos["full_vision"].type == "true or false"
    assert game_class("crafter").option_infos()[2].type == "text"


def test_the_command_line_refuses_a_mistyped_option_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "maze", "-o", "level=true", "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "option 'level' has an invalid value True" in err
    assert main(["play", "maze", "-o", "level=2", "-o", "full_vision=true", "-q"]) == 0


@pytest.mark.parametrize("command", ["play", "arena", "eval", "train"])
def test_help_lists_every_game_s_options(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Game options (--option KEY=VALUE;" in out
    assert "maze: level (one of 1, 2, 3, default 1); grid_size (int 7..15 or None" in out
    assert "tictactoe: none" in out


def test_games_lists_each_option_with_its_type_and_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "--option level (one of 1, 2, 3, default 1): 1: coins;" in out
    assert "--option end_chance (float 0.0..1.0, default 0.2):" in out
