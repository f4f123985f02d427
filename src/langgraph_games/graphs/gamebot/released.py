r"""GAMEBoT's released move parsers, kept as a second reader for parity studies.

The answer rule (:mod:`langgraph_games.games._answer`) is the default reader of every
GAMEBoT game. ``reader="released"`` (``gamebot:reader=released``, ``--reader released``)
reads a reply as the paper's released runners did instead, so that a run can be compared
with the paper's numbers. What each runner did, in our words:

==============  ==========================================================================
game            released reading
==============  ==========================================================================
TicTacToe       the text after the last ``Chosen Move`` (that case only), first ``(r,c)``
                written with no space after ``(``
Connect4        after the last ``chosen move`` (any case), first ``(r,c)``; the ``c``
                is the column
Othello         no label: the *last* ``(C,4)``, ``(C4)`` or ``C4`` anywhere in the reply
                (capital letters only)
Checkers        after the last ``chosen move``, first ``(r,c)->(r,c)`` (an arrow ``->``)
Pong            after the last ``[action]``: ``move up`` if it is written anywhere there,
                else ``move down``, else ``stay still`` (an order of preference, not of
                position)
Surround        after the last ``chosen action``: ``move up``, else ``move right``, else
                ``move left``, else ``move down``
Texas Hold'em   after the last ``chosen action``: the first of ``fold``, ``check and
                call``, ``raise half pot``, ``raise full pot``, ``all in``
Negotiation     after the last ``proposal:``: ``Agree`` if ``agree`` is written anywhere
                there (``disagree`` and ``I do not agree`` included), else the first
                ``(a,b,c), p2: (x,y,z)``
==============  ==========================================================================

Labels are found anywhere, inside words and remarks included, and commentary is read like
the answer: this is where the two readers differ. A reply the released parser reads no
move from is reported unparsable; the game's fallback then applies as for any unusable
answer (the runners substituted a move at once: Stay Still, Atari's no-op, Fold, Agree,
``D4`` then a random legal move). Every number is read from a bounded digit run.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from langgraph_games.games._answer import AnswerStatus, Reading
from langgraph_games.games._grid import cell_name
from langgraph_games.games.base import Game
from langgraph_games.games.connect4 import Connect4, Connect4State
from langgraph_games.games.negotiation.rules import AGREE, proposal_name
from langgraph_games.games.state import GameState

__all__ = ["RELEASED_GAMES", "read_released"]

_CELL = re.compile(r"\((\d),\s*(\d)\)")
_MOVE = re.compile(r"\((\d),\s*(\d)\)\s*->\s*\((\d),\s*(\d)\)")
# As released, a square's row is any digit run; the move named keeps at most six of its
# digits (no board has more rows), so no long run reaches int().
_SQUARE = re.compile(r"\(([A-Z]),?\s*(\d+)\)|([A-Z])(\d+)")
_TEXAS = re.compile(r"fold|check and call|raise half pot|raise full pot|all in")
_TEXAS_NAMES = {
    "fold": "Fold",
    "check and call": "Check and Call",
    "raise half pot": "Raise Half Pot",
    "raise full pot": "Raise Full Pot",
    "all in": "All in",
}
_COUNT = r"(\d{1,6})(?!\d)"
_PROPOSAL = re.compile(
    rf"\({_COUNT},\s*{_COUNT},\s*{_COUNT}\),\s*p2:\s*\({_COUNT},\s*{_COUNT},\s*{_COUNT}\)"
)
_PONG = (("move up", "Move Up"), ("move down", "Move Down"), ("stay still", "Stay Still"))
_SURROUND = (
    ("move up", "Move Up"),
    ("move right", "Move Right"),
    ("move left", "Move Left"),
    ("move down", "Move Down"),
)


def _after_last(text: str, label: str) -> tuple[str, bool]:
    """The text after the last ``label`` (all of it when there is none), and whether found.

    The runners split the reply at every occurrence and kept the last piece.
    """
    at = text.rfind(label)
    return (text, False) if at < 0 else (text[at + len(label) :], True)


def _tictactoe(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    section, labelled = _after_last(text, "Chosen Move")
    cell = _CELL.search(section)
    return (None if cell is None else cell_name(int(cell[1]), int(cell[2]))), labelled


def _connect4(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    section, labelled = _after_last(text.lower(), "chosen move")
    cell = _CELL.search(section)
    if cell is None:
        return None, labelled
    column = int(cell[2])
    landing = None
    if isinstance(game, Connect4) and isinstance(state, Connect4State):
        landing = game.drop_cell(state, column)
    return landing or f"column {column}", labelled


def _othello(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    last = None
    for last in _SQUARE.finditer(text):  # noqa: B007 - the last match is wanted
        pass
    if last is None:
        return None, False
    letter, digits = (last[1], last[2]) if last[1] else (last[3], last[4])
    row = str(int(digits)) if len(digits) <= 6 else digits[:6] + "..."
    return f"({letter},{row})", False


def _checkers(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    section, labelled = _after_last(text.lower(), "chosen move")
    move = _MOVE.search(section)
    if move is None:
        return None, labelled
    return f"({move[1]},{move[2]})->({move[3]},{move[4]})", labelled


def _first_written(section: str, preference: tuple[tuple[str, str], ...]) -> str | None:
    return next((action for phrase, action in preference if phrase in section), None)


def _pong(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    section, labelled = _after_last(text.lower(), "[action]")
    return _first_written(section, _PONG), labelled


def _surround(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    section, labelled = _after_last(text.lower(), "chosen action")
    return _first_written(section, _SURROUND), labelled


def _texas(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    section, labelled = _after_last(text.lower(), "chosen action")
    phrase = _TEXAS.search(section)
    return (None if phrase is None else _TEXAS_NAMES[phrase[0]]), labelled


def _negotiation(game: Game[GameState], state: GameState, text: str) -> tuple[str | None, bool]:
    section, labelled = _after_last(text.lower(), "proposal:")
    if "agree" in section:
        return AGREE, labelled
    proposal = _PROPOSAL.search(section)
    if proposal is None:
        return None, labelled
    a, b, c, x, y, z = (int(count) for count in proposal.groups())  # six digits at most
    return proposal_name((a, b, c, x, y, z)), labelled


_READERS: dict[str, Callable[[Game[GameState], GameState, str], tuple[str | None, bool]]] = {
    "tictactoe": _tictactoe,
    "connect4": _connect4,
    "othello": _othello,
    "checkers": _checkers,
    "pong": _pong,
    "surround": _surround,
    "texas_holdem": _texas,
    "negotiation": _negotiation,
}

RELEASED_GAMES: tuple[str, ...] = tuple(_READERS)
"""The games whose released parser :func:`read_released` reproduces."""


def read_released(game: Game[GameState], state: GameState, player: int, text: str) -> Reading:
    r"""Read the move of ``text`` as GAMEBoT's released runner of ``game`` did.

    Args:
        game: The game (one of :data:`RELEASED_GAMES`).
        state: The state the reply answers.
        player: The seat that replied.
        text: The reply.

    Returns:
        The reading: found (with whether the move is legal) or none, never ambiguous;
        ``labelled`` says whether the runner's label was in the reply (Othello's runner
        had none).

    Raises:
        ValueError: ``game`` has no released parser; the message lists those that do.

    Example:
        >>> from langgraph_games.games import make
        >>> texas = make("texas_holdem")
        >>> text = "Chosen Action: Check and Call\nThis chosen action avoids a fold."
        >>> read_released(texas, texas.initial_state(0), 0, text).action
        'Fold'
    """
    reader = _READERS.get(game.id)
    if reader is None:
        raise ValueError(
            f"GAMEBoT released no parser for {game.id!r}; the released reader reads "
            f"{', '.join(RELEASED_GAMES)}"
        )
    action, labelled = reader(game, state, text)
    if action is None:
        return Reading(AnswerStatus.NONE, None, (), labelled)
    legal = game.is_legal(state, player, action)
    return Reading(AnswerStatus.FOUND, action, (action,), labelled, legal)
