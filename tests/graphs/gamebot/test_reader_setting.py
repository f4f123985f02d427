"""The ``reader`` setting of GAMEBoT players and the ``--reader`` flag of arena and play.

``reader=rule`` (the default) reads moves by the answer rule; ``reader=released`` as
GAMEBoT's released parsers did, for parity studies. The setting travels in the player
spec (``gamebot:reader=released:<model>``), so results name the reader, and the player's
description (the run manifest's) records it when it is not the default.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_games.cli import main
from langgraph_games.cli._options import with_reader
from langgraph_games.games import GameSession, make
from langgraph_games.graphs.gamebot.graph import create_gamebot_agent, parse_gamebot_reply
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import request_for
from langgraph_games.players.errors import PlayerSettingError
from langgraph_games.players.registry import make_player, parse_spec

REMARK = "Chosen Action: Check and Call\nThis chosen action avoids a fold."


def test_the_spec_carries_the_reader() -> None:
    assert parse_spec("gamebot:reader=released:local").settings == {"reader": "released"}
    cot = parse_spec("gamebot:variant=cot:reader=rule")
    assert cot.settings == {"variant": "cot", "reader": "rule"}
    with pytest.raises(PlayerSettingError, match="released"):
        parse_spec("gamebot:reader=loose")


@pytest.mark.parametrize(
    ("spec", "action"), [("gamebot", "Check and Call"), ("gamebot:reader=released", "Fold")]
)
async def test_each_reader_plays_what_it_reads(spec: str, action: str) -> None:
    session = GameSession("texas_holdem", seed=0)
    model = ScriptedChatModel(responses=[REMARK])
    player = make_player(spec, session.game, model=model)
    decision = await player.adecide(request_for(session))
    assert decision.action == action
    released = spec.endswith("released")
    assert player.describe().get("reader") == ("released" if released else None)
    assert decision.info.get("reader") == ("released" if released else None)


def test_unknown_readers_and_games_without_a_released_parser_are_refused() -> None:
    with pytest.raises(ValueError, match="accepted: rule, released"):
        create_gamebot_agent(ScriptedChatModel(responses=["x"]), "tictactoe", reader="loose")  # type: ignore[arg-type]
    maze = make("maze")
    with pytest.raises(ValueError, match="released no parser for 'maze'"):
        parse_gamebot_reply(maze, maze.initial_state(0), 0, "Action: 1", reader="released")


def test_the_flag_adds_the_setting_to_every_gamebot_spec_that_has_none() -> None:
    specs = [
        "gamebot:variant=cot:local",
        "random",
        "gamebot",
        "gamebot:variant=cot:openai:gpt-4o@http://host/v1?a=b",
        "gamebot:reader=rule:local",
    ]
    assert with_reader(specs, "released") == [
        "gamebot:variant=cot:reader=released:local",
        "random",
        "gamebot:reader=released",
        "gamebot:variant=cot:reader=released:openai:gpt-4o@http://host/v1?a=b",
        "gamebot:reader=rule:local",  # the spec's own setting wins
    ]
    assert with_reader(specs, "rule") == specs  # the default changes no spec
    assert with_reader(specs, None) == specs
    with pytest.raises(ValueError, match="none of the players is one"):
        with_reader(["minimax", "random"], "released")


@pytest.mark.parametrize("command", ["arena", "play"])
def test_arena_and_play_take_the_flag(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, "tictactoe", "--players", "minimax", "random", "--reader", "released"]
    if command == "arena":
        argv += ["--out", str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--reader released is a setting of GAMEBoT players" in err
    assert err.count("\n") == 1
    assert "--reader {rule,released}" in _help(command, capsys)


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return capsys.readouterr().out
