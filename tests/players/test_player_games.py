"""Players declare the games they can play; a run refuses the others before any episode."""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_games.cli import main
from langgraph_games.games.registry import list_games, make
from langgraph_games.games.session import GameSession
from langgraph_games.players import request_for
from langgraph_games.players.errors import PlayerSpecError
from langgraph_games.players.registry import make_player, player_entries, player_entry

ALL = sorted(info.id for info in list_games())
BOARD = ["checkers", "connect4", "othello", "tictactoe"]
GAMEBOT = [
    "checkers",
    "connect4",
    "negotiation",
    "othello",
    "pong",
    "surround",
    "texas_holdem",
    "tictactoe",
]
SMARTPLAY = ["bandit", "crafter", "hanoi", "messenger", "rock_paper_scissors"]

# What each player played before it declared its games (their builders or first
# decisions refused every other game; minimax raised "no evaluation function").
PLAYED_BEFORE = {
    "random": ALL,
    "human": ALL,
    "spring": ALL,
    "minimax": BOARD,
    "gamebot": GAMEBOT,
    "smartplay": SMARTPLAY,
    "eeb": ["match2", "maze"],
    "minesweeper": ["minesweeper"],
    "minesweeper_solver": ["minesweeper"],
    "maze_explorer": ["maze"],
    "match2_greedy": ["match2"],
    "pong_tracker": ["pong"],
    "surround_space": ["surround"],
    "holdem_equity": ["texas_holdem"],
    "negotiator": ["negotiation"],
}


def test_every_player_declares_the_games_it_played_before() -> None:
    declared = {e.name: e.playable() or ALL for e in player_entries()}
    assert declared == PLAYED_BEFORE


@pytest.mark.parametrize(
    "name", sorted(n for n in PLAYED_BEFORE if not player_entry(n).needs_model and n != "human")
)
def test_every_search_player_still_plays_each_game_it_declares(name: str) -> None:
    for game_id in player_entry(name).playable() or ALL:
        session = GameSession(game_id, seed=1)
        decision = make_player(name, session.game).decide(request_for(session))
        assert decision.action in session.legal_actions(), (name, game_id)


@pytest.mark.parametrize("game_id", ["negotiation", "texas_holdem", "pong", "maze"])
def test_minimax_is_refused_for_games_it_cannot_search(game_id: str) -> None:
    with pytest.raises(PlayerSpecError) as caught:
        make_player("minimax:depth=2", make(game_id))
    assert str(caught.value) == (
        f"Player 'minimax:depth=2' (minimax) cannot play {game_id!r}; "
        "it plays checkers, connect4, othello, tictactoe."
    )


@pytest.mark.parametrize("game_id", ["negotiation", "texas_holdem"])
def test_arena_refuses_before_any_episode(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", game_id, "--players", "minimax", "random", "--matches", "2"]
    assert main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"langgraph-games arena: error: Player 'minimax' cannot play {game_id!r}; "
        "it plays checkers, connect4, othello, tictactoe."
    )
    assert not any(path.suffix == ".jsonl" for path in tmp_path.rglob("*"))


def test_minimax_still_plays_an_arena_of_a_game_it_searches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "tictactoe", "--players", "minimax", "random", "--matches", "2"]
    assert main([*argv, "--out", str(tmp_path)]) == 0
    records = [p for p in tmp_path.rglob("*.jsonl") if p.read_text().strip()]
    text = "".join(p.read_text() for p in records)
    assert records and '"status": "error"' not in text


def test_games_verbose_and_help_say_which_games_each_player_plays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games", "-v"]) == 0
    out = capsys.readouterr().out
    blocks = out.split("\n\n")[0]
    negotiation = blocks[blocks.index("negotiation-v") :]
    players = next(line for line in negotiation.splitlines() if "players:" in line)
    assert "negotiator" in players and "minimax" not in players and "random" in players
    assert "[plays checkers, connect4, othello, tictactoe]" in out.replace("\n      ", " ")
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    help_text = capsys.readouterr().out.replace("\n      ", " ")
    assert "[plays checkers, connect4, othello, tictactoe]" in help_text
    assert "[plays every game]" in help_text
