"""One rule for every GAMEBoT game: the first action after the last final label.

Text after the chosen move must not change it; a final section that lists two different
actions is ambiguous (a parse status of its own, fed back and counted), never resolved.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from langgraph_games.games import Game, GameSession, GameState, make
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.graphs.gamebot.graph import (
    load_prompt,
    parse_gamebot_reply,
    score_intermediate,
)
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import RandomPlayer

GAMES = [
    "tictactoe",
    "connect4",
    "othello",
    "checkers",
    "pong",
    "surround",
    "texas_holdem",
    "negotiation",
]


def _seat(game_id: str, actions: list[Any] | None = None) -> tuple[Game[Any], GameState, int]:
    session = GameSession(game_id, seed=0, actions=actions or [])
    return session.game, session.state, session.current_players[0]


def _read(game_id: str, text: str, actions: list[Any] | None = None) -> dict[str, Any]:
    game, state, player = _seat(game_id, actions)
    label = load_prompt(game).FINAL_LABEL
    return parse_gamebot_reply(game, state, player, text, label=label, scored=False).to_dict()


PROPOSAL = "P1: (1,0,1), P2: (0,7,1)"  # divides seed 0's pool [1, 7, 2]
ANSWER = "P1: (0,3,1), P2: (1,4,1)"


@pytest.mark.parametrize(
    ("game_id", "text", "actions", "expected"),
    [
        # The cases: the text after the move used to change it.
        (
            "texas_holdem",
            "Chosen Action: Raise Full Pot (I would never fold here)",
            None,
            "Raise Full Pot",
        ),
        ("tictactoe", "Chosen Move: (1,1) because it blocks (0,0)-(2,2)", None, "(1,1)"),
        (
            "negotiation",
            f"Proposal: [{ANSWER}] (I do not agree with your offer)",
            [PROPOSAL],
            ANSWER,
        ),
        (
            "negotiation",
            f"Proposal: [{PROPOSAL}] I think this is fair to both of us.",
            None,
            PROPOSAL,
        ),
        ("negotiation", f"Proposal: [{PROPOSAL}] (I do not agree to less)", None, PROPOSAL),
        # Commentary after the move, every other game.
        ("connect4", "Chosen Move: (0,3) since column 4 is weaker", None, "(0,3)"),
        ("othello", "Chosen Move: (C,5), not F4 which gives away the edge", None, "(C,5)"),
        ("checkers", "Chosen Move: (2,1)->(3,0) and never (2,3)->(3,4)", None, "(2,1)->(3,0)"),
        ("pong", "[Action] 1 - Move Up, since going down would miss", None, "Move Up"),
        ("surround", "Chosen Action: Move Up. Move Down would crash.", None, "Move Up"),
        # The same action named twice is one action.
        ("texas_holdem", "Chosen Action: Check and Call (call)", None, "Check and Call"),
        ("connect4", "Chosen Move: (3,3) or 3", None, "(0,3)"),  # the column decides
        ("pong", "[Action] 2 - Move Down", None, "Move Down"),
    ],
)
def test_text_after_the_move_does_not_change_it(
    game_id: str, text: str, actions: list[Any] | None, expected: str
) -> None:
    decision = _read(game_id, text, actions)
    assert (decision["status"], decision["action"]) == ("ok", expected)


@pytest.mark.parametrize(
    ("game_id", "text", "actions", "named"),
    [
        ("tictactoe", "Chosen Move: (1,1) or (2,2)", None, ["(1,1)", "(2,2)"]),
        ("connect4", "Chosen Move: (0,3), (0,4)", None, ["(0,3)", "(0,4)"]),
        ("othello", "Chosen Move: (C,5) / F4", None, ["(C,5)", "(F,4)"]),
        (
            "checkers",
            "Chosen Move:\n(2,1)->(3,0)\n(2,3)->(3,4)",
            None,
            ["(2,1)->(3,0)", "(2,3)->(3,4)"],
        ),
        ("pong", "[Action] Move Up/Move Down", None, ["Move Up", "Move Down"]),
        ("pong", "[Action] 1 - Move Down", None, ["Move Up", "Move Down"]),
        ("surround", "Chosen Action: Move Left, then Move Up", None, ["Move Left", "Move Up"]),
        ("texas_holdem", "Chosen Action: Raise Full Pot or Fold", None, ["Raise Full Pot", "Fold"]),
        ("negotiation", f"Proposal: [Agree] or [{ANSWER}]", [PROPOSAL], ["Agree", ANSWER]),
        # Without the label, the answer must name one action.
        ("tictactoe", "I like (0,0) but (2,2) is better", None, ["(0,0)", "(2,2)"]),
        ("negotiation", f"{ANSWER}, or I agree", [PROPOSAL], [ANSWER, "Agree"]),
    ],
)
def test_two_different_actions_in_the_final_section_are_ambiguous(
    game_id: str, text: str, actions: list[Any] | None, named: list[str]
) -> None:
    decision = _read(game_id, text, actions)
    assert decision["action"] is None and decision["status"] == "ambiguous"
    assert decision["info"]["named"] == named
    assert all(repr(a) in decision["info"]["problem"] for a in named)
    game, state, player = _seat(game_id, actions)
    assert game.parse_action(state, player, text) is None


def test_a_refused_proposal_gets_the_reason_of_what_was_written() -> None:
    game, state, player = _seat("negotiation")
    text = "Proposal: [P1: (1,4,1), P2: (0,4,1)] (this is my final offer)"
    decision = parse_gamebot_reply(
        game, state, player, text, label="Proposal", scored=False
    ).to_dict()
    assert decision["status"] == "illegal"
    assert "add up to [1, 8, 2] but the pool is [1, 7, 2]" in decision["info"]["problem"]


def test_answer_labels_of_every_game_match_its_prompt() -> None:
    for game_id in GAMES:
        game, prompt = make(game_id), load_prompt(game_id)
        assert game.answer_labels, game_id
        reading = game.read_action(game.initial_state(0), 0, prompt.ANSWER_FORMAT)
        assert reading.labelled, game_id


async def test_an_ambiguous_answer_is_fed_back_and_counted() -> None:
    answers = iter(["Chosen Move: (1,1) or (0,0)", "Chosen Move: (1,1)"])
    model = ScriptedChatModel(script=lambda messages: next(answers))
    episode = await run_episode(
        "tictactoe",
        [gamebot_player(model, "tictactoe", variant="action_only"), RandomPlayer(seed=1)],
        seed=0,
        options=EpisodeOptions(max_steps=1),
    )
    decision = episode["trajectory"][0]["decisions"]["0"]
    first, second = decision["attempts"]
    assert first["status"] == "ambiguous" and second["status"] == "ok"
    assert "'(1,1)', '(0,0)'" in first["feedback"] and decision["action"] == "(1,1)"
    counters = episode["result"]["players"][0]
    assert counters["ambiguous_answers"] == 1 and counters["invalid_answers"] == 1


def _noise(rng: random.Random) -> str:
    pieces = [
        "9" * rng.choice([10, 4400, 5000]),
        "".join(chr(rng.randrange(0x110000)) for _ in range(30))
        .encode("utf-8", "replace")
        .decode(),
        "[" * 200 + "(1,1)" + "]" * 200,
        "\x00\xff\ufffd",
        "P1: (" + "9" * 5000 + ",1,1), P2: (1,1,1)",
        "[Intermediate Thinking Results " + "7" * 5000 + ": 3]",
        "[Intermediate Thinking Results 1: Up " + "8" * 5000 + "]",
        "Chosen Move: Chosen Action: [Action] Proposal:",
        "(" * 300,
        "Move Up " * 50,
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))


@pytest.mark.parametrize("game_id", GAMES)
def test_readers_take_any_text_without_raising(game_id: str) -> None:
    rng = random.Random(game_id)
    game, state, player = _seat(game_id, [PROPOSAL] if game_id == "negotiation" else None)
    label = load_prompt(game).FINAL_LABEL
    for _ in range(30):
        text = _noise(rng)
        game.parse_action(state, player, text)
        decision = parse_gamebot_reply(game, state, player, text, label=label).to_dict()
        assert decision["status"] in {"ok", "illegal", "unparsable", "ambiguous"}
        score_intermediate(game, state, player, decision["intermediate"], decision["action"])
