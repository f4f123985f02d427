"""Adversarial GAMEBoT replies: commentary around the move must not change it.

Each row is one reply to one of the eight GAMEBoT games with the move the answer rule reads
(or ``ambiguous`` when its final section names two different actions) and the move
GAMEBoT's released parsers read (``reader="released"``, kept for parity studies; ``none``
where they read no action). The replies repeat the final label's words in a remark after
the answer, negate a yes/no answer, put a sentence in brackets after the move, name two
actions in the final section, or write the label as a Markdown heading or a numbered line.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from langgraph_games.games import GameSession
from langgraph_games.games._answer import label_counts, negated
from langgraph_games.games._text import label_pattern
from langgraph_games.graphs.gamebot.graph import load_prompt, parse_gamebot_reply

AMBIGUOUS = "ambiguous"
NONE = "none"
OPENING = "P1: (1,0,1), P2: (0,7,1)"
"""Player 1's proposal in Negotiation (seed 0's pool is [1, 7, 2]), so that Player 2 may agree."""
OFFER = "P1: (0,7,0), P2: (1,0,2)"
OTHER = "P1: (1,3,1), P2: (0,4,1)"


class Case(NamedTuple):
    """One adversarial reply and what each reader makes of it."""

    name: str
    game: str
    text: str
    rule: str
    released: str


CASES = [
    # TicTacToe: label "Chosen Move" (the released parser splits on it case-sensitively).
    Case(
        "ttt-remark-repeats-label",
        "tictactoe",
        "Chosen Move: (1,1)\nThis Chosen Move beats (0,0) in every line.",
        "(1,1)",
        "(0,0)",
    ),
    Case(
        "ttt-bracketed-remark",
        "tictactoe",
        "Chosen Move: (2,2) ((0,0) would lose at once)",
        "(2,2)",
        "(2,2)",
    ),
    Case("ttt-numbered-markdown", "tictactoe", "3. **Chosen Move**: (0,2)", "(0,2)", "(0,2)"),
    Case("ttt-two-lines", "tictactoe", "Chosen Move: (1,1)\n(2,2)", AMBIGUOUS, "(1,1)"),
    Case(
        "ttt-line-opening-remark",
        "tictactoe",
        "Chosen Move: (2,0)\nChosen move explanation - (1,1) was taken.",
        "(2,0)",
        "(2,0)",
    ),
    Case("ttt-no-label-two-moves", "tictactoe", "I play (1,1), never (0,0).", AMBIGUOUS, "(1,1)"),
    # Connect4: the column decides; a lone digit names a column.
    Case(
        "c4-remark-repeats-label",
        "connect4",
        "Chosen Move: (0,3)\nMy chosen move keeps column 5 free.",
        "(0,3)",
        NONE,
    ),
    Case(
        "c4-bracketed-remark",
        "connect4",
        "Chosen Move: (0,3) (4 would let them connect)",
        "(0,3)",
        "(0,3)",
    ),
    Case("c4-heading", "connect4", "## Chosen Move\n(0,6)", "(0,6)", "(0,6)"),
    Case("c4-quoted-label", "connect4", "> **Chosen Move:** (0,5)", "(0,5)", "(0,5)"),
    Case("c4-two-moves", "connect4", "Chosen Move: (0,2) or (0,4)", AMBIGUOUS, "(0,2)"),
    # Othello: the released runner takes the last square anywhere in the reply.
    Case(
        "othello-remark-repeats-label",
        "othello",
        "Chosen Move: (C,5)\nAfter this chosen move, F4 stays open.",
        "(C,5)",
        "(F,4)",
    ),
    Case(
        "othello-bracketed-remark",
        "othello",
        "Chosen Move: (D,6) (E3 would give up a corner)",
        "(D,6)",
        "(E,3)",
    ),
    Case("othello-bullet-markdown", "othello", "- **Chosen Move:** (E,3)", "(E,3)", "(E,3)"),
    Case("othello-two-moves", "othello", "Chosen Move: (D,6) / (F,4)", AMBIGUOUS, "(F,4)"),
    Case(
        "othello-reason-names-another",
        "othello",
        "Chosen Move: (F,4). I considered C5 but it opens the diagonal.",
        "(F,4)",
        "(C,5)",
    ),
    # Checkers.
    Case(
        "checkers-remark-repeats-label",
        "checkers",
        "Chosen Move: (2,1)->(3,2)\nThe chosen move (2,5)->(3,6) would hang a piece.",
        "(2,1)->(3,2)",
        "(2,5)->(3,6)",
    ),
    Case(
        "checkers-bracketed-remark",
        "checkers",
        "Chosen Move: (2,3)->(3,4) ((2,5)->(3,4) also gets there)",
        "(2,3)->(3,4)",
        "(2,3)->(3,4)",
    ),
    Case(
        "checkers-numbered-dash",
        "checkers",
        "1) Chosen Move - (2,7)->(3,6)",
        "(2,7)->(3,6)",
        "(2,7)->(3,6)",
    ),
    Case(
        "checkers-two-lines",
        "checkers",
        "Chosen Move:\n(2,1)->(3,0)\n(2,3)->(3,2)",
        AMBIGUOUS,
        "(2,1)->(3,0)",
    ),
    Case("checkers-single-dash", "checkers", "Chosen Move: (2,1)-(3,0)", "(2,1)->(3,0)", NONE),
    # Pong: "[Action]" (also "Chosen Action", and "Action:" opening a line).
    Case(
        "pong-remark-with-action-colon",
        "pong",
        "[Action] 1 - Move Up\nThis action: keeps the paddle under the ball; Move Down misses.",
        "Move Up",
        "Move Up",
    ),
    Case(
        "pong-remark-repeats-label",
        "pong",
        "[Action] Move Down\nThe chosen action avoids going up too early.",
        "Move Down",
        "Move Down",
    ),
    Case(
        "pong-bracketed-remark",
        "pong",
        "[Action] 2 - Move Down (Move Up would miss the ball)",
        "Move Down",
        "Move Up",
    ),
    Case("pong-two-moves", "pong", "[Action] Move Up / Move Down", AMBIGUOUS, "Move Up"),
    Case("pong-markdown-label", "pong", "**[Action]** 0 - Stay Still", "Stay Still", "Stay Still"),
    # Surround.
    Case(
        "surround-bracketed-remark",
        "surround",
        "Chosen Action: Move Left (Move Up would be unsafe)",
        "Move Left",
        "Move Up",
    ),
    Case(
        "surround-remark-repeats-label",
        "surround",
        "Chosen Action: Move Down\nMy chosen action avoids Move Left, which is a dead end.",
        "Move Down",
        "Move Left",
    ),
    Case(
        "surround-heading", "surround", "### Chosen Action\nMove Right", "Move Right", "Move Right"
    ),
    Case(
        "surround-two-moves", "surround", "Chosen Action: Move Up, Move Left", AMBIGUOUS, "Move Up"
    ),
    Case(
        "surround-reason-after",
        "surround",
        "Chosen Action: Move Right (safe: 14 cells). Move Down is unsafe.",
        "Move Right",
        "Move Right",
    ),
    Case("surround-numbered", "surround", "1. Chosen Action: Move Up", "Move Up", "Move Up"),
    # Texas Hold'em.
    Case(
        "texas-remark-repeats-label",
        "texas_holdem",
        "Chosen Action: Check and Call\nThis chosen action avoids a fold.",
        "Check and Call",
        "Fold",
    ),
    Case(
        "texas-bracketed-remark",
        "texas_holdem",
        "Chosen Action: Raise Full Pot (Fold is too weak here)",
        "Raise Full Pot",
        "Raise Full Pot",
    ),
    Case("texas-markdown-label", "texas_holdem", "**Chosen Action:** All in", "All in", "All in"),
    Case(
        "texas-two-actions",
        "texas_holdem",
        "Chosen Action: Check and Call or Raise Full Pot",
        AMBIGUOUS,
        "Check and Call",
    ),
    Case("texas-short-form", "texas_holdem", "Chosen Action: call", "Check and Call", NONE),
    # Negotiation: Agree is a yes/no answer, so its negations are understood.
    Case(
        "negotiation-do-not-agree",
        "negotiation",
        f"Proposal: I do not agree. [{OFFER}]",
        OFFER,
        "Agree",
    ),
    Case(
        "negotiation-remark-repeats-label",
        "negotiation",
        f"Proposal: [{OFFER}]\nThis proposal: I don't agree with giving you both hats.",
        OFFER,
        "Agree",
    ),
    Case("negotiation-agree", "negotiation", "Proposal: [Agree]", "Agree", "Agree"),
    Case(
        "negotiation-cannot-agree",
        "negotiation",
        f"Proposal: I cannot agree to that; [{OTHER}]",
        OTHER,
        "Agree",
    ),
    Case(
        "negotiation-agree-with-reason",
        "negotiation",
        "Proposal: [Agree] (I agree to your split)",
        "Agree",
        "Agree",
    ),
    Case(
        "negotiation-disagree-in-brackets",
        "negotiation",
        f"Proposal: [{OFFER}] (I disagree with yours)",
        OFFER,
        "Agree",
    ),
    Case(
        "negotiation-two-actions",
        "negotiation",
        f"Proposal: [Agree], [{OFFER}]",
        AMBIGUOUS,
        "Agree",
    ),
    Case(
        "negotiation-no-agreement",
        "negotiation",
        f"Proposal: No agreement yet. [{OTHER}]",
        OTHER,
        "Agree",
    ),
    Case("negotiation-plain-agree", "negotiation", "Proposal: I agree.", "Agree", "Agree"),
    Case(
        "negotiation-never-agree-alone",
        "negotiation",
        "Proposal: I will never agree to this.",
        NONE,
        "Agree",
    ),
]


def _decision(case: Case, reader: str) -> dict[str, Any]:
    opening = [OPENING] if case.game == "negotiation" else []
    session = GameSession(case.game, seed=0, actions=opening)
    player = session.current_players[0]
    label = load_prompt(session.game).FINAL_LABEL
    decision = parse_gamebot_reply(
        session.game, session.state, player, case.text, label=label, scored=False, reader=reader
    )
    return decision.to_dict()


def _read(case: Case, reader: str) -> tuple[str, str | None]:
    decision = _decision(case, reader)
    return decision["status"], decision["action"]


def _expected(value: str) -> tuple[str, str | None]:
    if value == AMBIGUOUS:
        return "ambiguous", None
    if value == NONE:
        return "unparsable", None
    return "ok", value


def test_the_table_covers_every_game_with_forty_replies() -> None:
    assert len(CASES) >= 40
    assert len({case.name for case in CASES}) == len(CASES)
    games = {case.game for case in CASES}
    assert games == {
        "tictactoe",
        "connect4",
        "othello",
        "checkers",
        "pong",
        "surround",
        "texas_holdem",
        "negotiation",
    }
    assert sum(case.rule == AMBIGUOUS for case in CASES) >= 8
    assert sum(case.rule != case.released for case in CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_answer_rule_reads_the_move_not_the_commentary(case: Case) -> None:
    assert _read(case, "rule") == _expected(case.rule)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_released_reader_reads_as_gamebots_parsers(case: Case) -> None:
    assert _read(case, "released") == _expected(case.released)


@pytest.mark.parametrize("case", [c for c in CASES if c.rule == AMBIGUOUS], ids=lambda c: c.name)
def test_an_ambiguous_reply_names_both_actions(case: Case) -> None:
    decision = _decision(case, "rule")
    assert len(decision["info"]["named"]) == 2
    assert "reader" not in decision["info"]


@pytest.mark.parametrize("case", CASES[:8], ids=lambda c: c.name)
def test_a_released_reading_records_its_reader(case: Case) -> None:
    assert _decision(case, "released")["info"].get("reader") == "released"


@pytest.mark.parametrize(
    ("labels", "text", "counts"),
    [
        (("Chosen Move",), "Chosen Move: (1,1)", True),
        (("Chosen Move",), "3. **Chosen Move**: (1,1)", True),
        (("Chosen Move",), "### Chosen Move", True),
        (("Chosen Move",), "- Chosen Move (1,1)", True),
        (("Chosen Move",), "so my Chosen Move: (1,1)", True),
        (("Chosen Move",), "This chosen move wins", False),
        (("Chosen Move",), "Chosen move explanation: it blocks", False),
        (("Chosen Move",), "x" * 100 + "\n" + " " * 100 + "Chosen Move (1,1)", False),
        (("[Action]",), "I might move up ... **[Action]** stay still", True),
        (("Action:",), "Action: Move Up", True),
        (("Action:",), "This action: keeps the paddle up", False),
        (("Proposal:",), "**Proposal:** [Agree]", True),
        (("Proposal:",), "Proposal: I do not agree", True),
        (("Proposal:",), "This proposal: gives me 19", False),
    ],
)
def test_a_label_counts_where_it_stands_as_one(
    labels: tuple[str, ...], text: str, counts: bool
) -> None:
    match = label_pattern(*labels).search(text)
    assert match is not None
    assert label_counts(text, match) is counts


@pytest.mark.parametrize(
    ("text", "is_negated"),
    [
        ("I do not agree", True),
        ("I don't really agree", True),
        ("I cannot agree", True),
        ("No agreement", True),
        ("I will never agree", True),
        ("I agree", False),
        ("No, I agree", False),
        ("Not bad. I agree", False),
        ("[Agree]", False),
    ],
)
def test_a_negated_yes_no_answer_is_understood(text: str, is_negated: bool) -> None:
    assert negated(text, text.lower().index("agree")) is is_negated
