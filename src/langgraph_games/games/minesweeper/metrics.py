"""The Minesweeper Agent metrics (paper Section 5.2, Table 1) from finished episodes.

Per episode (:func:`episode_metrics`): the win, the steps (every answer the model gave,
invalid ones included, as the paper's loop counted them) and the invalid steps (answers
the environment answered with an ``invalid ...`` string). With ``invalid_moves="step"``
the engine sees every answer; answers an episode loop rejected without applying them
(``invalid_moves="reject"``, or re-asks) are passed as ``rejected_answers`` and count as
both steps and invalid steps.

Over episodes (:func:`aggregate`): winning rate (a fraction, as in Table 1), average
steps and average invalid steps. :func:`format_table1` prints Table 1's layout: one line
per mine count and prompt variant.

Beyond the paper, every effective operation is checked against the logic solver
(:func:`move_check`): a reveal claims its cell is safe, a new flag claims a mine, removing
a flag claims the cell is not a mine. The claim is *proven* when the numbers on the board
prove it, *wrong* when they prove the opposite (revealing a certain mine, flagging a
certain safe cell) and a *guess* otherwise. Per episode the counts are ``moves_checked``,
``proven_moves``, ``guesses`` and ``wrong_moves``, plus ``avoidable_guesses`` (guesses made
while some move was certain); :func:`reasoning_row` sums them over episodes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from typing_extensions import NotRequired, TypedDict

from langgraph_games._json import JsonObject
from langgraph_games.games._numbers import read_int
from langgraph_games.games._tables import markdown_table
from langgraph_games.games.minesweeper.rules import COVERED, FLAG, MinesweeperState, Status
from langgraph_games.games.minesweeper.truth import analyse
from langgraph_games.games.session import GameSession

__all__ = [
    "COLUMNS",
    "REASONING_COLUMNS",
    "WIN_RULES",
    "MinesweeperMetrics",
    "MoveCheck",
    "aggregate",
    "episode_metrics",
    "format_reasoning",
    "format_table1",
    "move_check",
    "reasoning_row",
    "report_counts",
    "win_rule_line",
]

COLUMNS = ("Winning Rate", "Average Steps", "Average Invalid Steps")
REASONING_COLUMNS = (
    "Checked",
    "Proven %",
    "Guesses %",
    "Wrong %",
    "Avoidable guesses %",
    "Safe F1",
    "Mine F1",
)
"""Columns of the solver check (ours): verdicts on the moves, F1 of reported cells."""


class MinesweeperMetrics(TypedDict):
    """What the tables read of one episode's metrics (:func:`aggregate`, :func:`reasoning_row`).

    The solver check's counts and the reported cells' confusion counts (:func:`report_counts`)
    are optional: episodes of other runs may lack them. Results files are checked against
    this before a table reads them.
    """

    mines: int
    win: bool
    steps: float
    invalid_steps: float
    moves_checked: NotRequired[int]
    proven_moves: NotRequired[int]
    guesses: NotRequired[int]
    wrong_moves: NotRequired[int]
    avoidable_guesses: NotRequired[int]
    cell_reports: NotRequired[int]
    safe_tp: NotRequired[int]
    safe_fp: NotRequired[int]
    safe_fn: NotRequired[int]
    mine_tp: NotRequired[int]
    mine_fp: NotRequired[int]
    mine_fn: NotRequired[int]
    win_rule: NotRequired[str]


WIN_RULES = {
    "paper": "every mine flagged and every safe cell revealed, as the paper states it",
    "flags": "the flags exactly on the mines, as the released code checked it",
}
"""What each ``win_rule`` counts as a win (the tables name the rule behind their rates)."""


def win_rule_line(rules: Iterable[str | None]) -> str:
    """The line that names the win rule behind a table's winning rates.

    ``None`` stands for episodes recorded before their metrics named the rule.

    Example:
        >>> win_rule_line(["paper", "paper"])
        'Win rule: paper (every mine flagged and every safe cell revealed, as the paper states it)'
    """
    found = list(dict.fromkeys(rules))
    if len(found) == 1:
        rule = found[0]
        if rule is None:
            return "Win rule: not recorded (episodes from before the metrics named it)"
        return f"Win rule: {rule} ({WIN_RULES.get(rule, 'unknown rule')})"
    return "Win rules differ between rows: each row names its own in brackets"


class MoveCheck(TypedDict):
    """The solver's word on one move (:func:`move_check`)."""

    cell: str
    claim: Literal["safe", "mine", "not_mine"]
    verdict: Literal["proven", "guess", "wrong"]
    certain_available: bool


def move_check(state: MinesweeperState, action: str) -> MoveCheck | None:
    """What the solver says about the claim an operation makes (``None``: no claim).

    Only operations the rules carry out make a claim: ``r`` on a covered or flagged cell
    (the cell is safe), ``f`` on a covered cell (a mine) and ``f`` on a flag (not a mine).

    Returns:
        ``{"cell", "claim", "verdict", "certain_available"}`` with ``verdict`` one of
        ``proven``, ``guess``, ``wrong``; ``certain_available`` tells whether any move
        was certain at that point (a safe cell to open or an unflagged certain mine).

    Example:
        >>> from langgraph_games.games import make
        >>> game = make("minesweeper", rows=2, cols=2, mines=1)
        >>> state = game.initial_state(0)
        >>> move_check(state, "r,0,0")["verdict"]
        'guess'
    """
    parts = action.split(",")
    if len(parts) != 3 or parts[0] not in ("r", "f"):
        return None
    row, col = read_int(parts[1]), read_int(parts[2])
    if row is None or col is None or not (0 <= row < state.rows and 0 <= col < state.cols):
        return None
    cell = row * state.cols + col
    shown = state.view[cell]
    if shown not in (COVERED, FLAG):
        return None
    if parts[0] == "f" and shown == COVERED and state.flags >= len(state.mines):
        return None  # refused by the flag cap
    analysis = analyse(state.view, state.rows, state.cols, len(state.mines))
    if parts[0] == "r" or shown == FLAG:
        claim: Literal["safe", "mine", "not_mine"] = "safe" if parts[0] == "r" else "not_mine"
        proven, wrong = cell in analysis.safe, cell in analysis.mines
    else:
        claim = "mine"
        proven, wrong = cell in analysis.mines, cell in analysis.safe
    flagged = {i for i, ch in enumerate(state.view) if ch == FLAG}
    return {
        "cell": f"({row},{col})",
        "claim": claim,
        "verdict": "proven" if proven else "wrong" if wrong else "guess",
        "certain_available": bool(analysis.safe) or bool(analysis.mines - flagged),
    }


def _reasoning_counts(session: GameSession) -> dict[str, int]:
    counts = {
        "moves_checked": 0,
        "proven_moves": 0,
        "guesses": 0,
        "wrong_moves": 0,
        "avoidable_guesses": 0,
    }
    for state, joint in zip(session.states, session.actions, strict=False):
        action = joint.get(0)
        if action is None or not isinstance(state, MinesweeperState):
            continue
        check = move_check(state, action)
        if check is None:
            continue
        counts["moves_checked"] += 1
        verdict = check["verdict"]
        counts["proven_moves"] += verdict == "proven"
        counts["wrong_moves"] += verdict == "wrong"
        counts["guesses"] += verdict == "guess"
        counts["avoidable_guesses"] += verdict == "guess" and check["certain_available"]
    return counts


def episode_metrics(session: GameSession, *, rejected_answers: int = 0) -> JsonObject:
    """Metrics of one finished (or stopped) Minesweeper episode.

    Args:
        session: The episode.
        rejected_answers: Answers the loop refused without applying them.

    Raises:
        TypeError: The session is not a Minesweeper episode.
    """
    state = session.state
    if not isinstance(state, MinesweeperState):
        raise TypeError(f"not a Minesweeper episode: {session.game.versioned_id}")
    return {
        "rows": state.rows,
        "cols": state.cols,
        "mines": len(state.mines),
        "status": state.status,
        "win": state.status == Status.WON,
        "steps": state.turn + rejected_answers,
        "invalid_steps": state.invalid_steps + rejected_answers,
        "win_rule": str(getattr(session.game.options, "win_rule", "paper")),
        **_reasoning_counts(session),
    }


def aggregate(episodes: Iterable[Mapping[str, Any]]) -> dict[str, float | int]:
    """Winning rate, average steps and average invalid steps over episodes.

    Example:
        >>> aggregate([{"win": True, "steps": 3, "invalid_steps": 0},
        ...            {"win": False, "steps": 5, "invalid_steps": 1}])
        {'Games': 2, 'Winning Rate': 0.5, 'Average Steps': 4.0, 'Average Invalid Steps': 0.5}
    """
    rows = list(episodes)
    n = len(rows)
    return {
        "Games": n,
        "Winning Rate": sum(1 for r in rows if r["win"]) / n if n else 0.0,
        "Average Steps": sum(float(r["steps"]) for r in rows) / n if n else 0.0,
        "Average Invalid Steps": sum(float(r["invalid_steps"]) for r in rows) / n if n else 0.0,
    }


def format_table1(rows: Mapping[tuple[int, str], Mapping[str, Any]]) -> str:
    """Table 1's layout: rows keyed by ``(mines, variant label)``, in the given order."""
    return _by_mines(COLUMNS, rows)


def reasoning_row(episodes: Iterable[Mapping[str, Any]]) -> dict[str, float | None]:
    """The solver check summed over episodes: moves checked and the share of each verdict.

    ``Avoidable guesses %`` is the share of guesses made while some move was certain.

    Example:
        >>> reasoning_row([{"moves_checked": 4, "proven_moves": 3, "guesses": 1,
        ...                 "wrong_moves": 0, "avoidable_guesses": 1}])["Proven %"]
        75.0
    """
    rows = list(episodes)
    checked = sum(int(r.get("moves_checked", 0)) for r in rows)
    guesses = sum(int(r.get("guesses", 0)) for r in rows)

    def share(key: str, total: int) -> float | None:
        return 100 * sum(int(r.get(key, 0)) for r in rows) / total if total else None

    def micro_f1(prefix: str) -> float | None:
        if not any(r.get("cell_reports") for r in rows):
            return None
        tp, fp, fn = (sum(int(r.get(f"{prefix}_{k}", 0)) for r in rows) for k in ("tp", "fp", "fn"))
        return 1.0 if tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn)

    return {
        "Checked": checked,
        "Proven %": share("proven_moves", checked),
        "Guesses %": share("guesses", checked),
        "Wrong %": share("wrong_moves", checked),
        "Avoidable guesses %": share("avoidable_guesses", guesses),
        "Safe F1": micro_f1("safe"),
        "Mine F1": micro_f1("mine"),
    }


def report_counts(decisions: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Confusion counts of the reported certain cells over an episode's decisions.

    ``decisions`` are the episode loop's per-step decisions (their first attempt's
    ``scores`` hold the subproblem scores of ``minesweeper:variant=cells``; a decision of an
    older file or without attempts, its own ``scores``): subproblem 1 counts as ``safe_*``,
    2 as ``mine_*``, and ``cell_reports`` is the number of decisions that were scored.
    """
    names = {1: "safe", 2: "mine"}
    counts = {"cell_reports": 0}
    for name in names.values():
        counts.update({f"{name}_tp": 0, f"{name}_fp": 0, f"{name}_fn": 0})
    for decision in decisions:
        attempts = decision.get("attempts") or []
        scores = (attempts[0].get("scores") if attempts else decision.get("scores")) or []
        counts["cell_reports"] += bool(scores)
        for score in scores:
            kind = names.get(int(score["index"]))
            if kind is None:
                continue
            for key in ("tp", "fp", "fn"):
                counts[f"{kind}_{key}"] += int(score.get(key, 0))
    return counts


def format_reasoning(rows: Mapping[tuple[int, str], Mapping[str, Any]]) -> str:
    """The solver check in Table 1's row layout, from :func:`reasoning_row` rows."""
    return _by_mines(REASONING_COLUMNS, rows)


def _by_mines(columns: Sequence[str], rows: Mapping[tuple[int, str], Mapping[str, Any]]) -> str:
    body = [[mines, label, *(row.get(c) for c in columns)] for (mines, label), row in rows.items()]
    return markdown_table(("Mines", "Model", *columns), body)
