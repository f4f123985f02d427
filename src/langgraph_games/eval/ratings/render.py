"""A leaderboard as Markdown tables and JSON, and the files ``leaderboard`` writes.

Each board prints two tables: players (rank, matches, W-D-L, the ranking rating, Elo,
skill ``mu``, O, I and win rate, each with its interval as ``value [low, high]``; the
rank is by the rating's low end, and a provisional player, with fewer matches than the
threshold, is marked ``*`` with a footnote saying so) and pairs (A's W-D-L and
score rate against B, the rating differences, and the matches needed to tell them
apart). With more than one game, the paper's cross-game table (O and I per game,
``Avg. O``, ``Avg. I``, ``Avg.``) follows the boards, as ``report`` prints it.
``write_leaderboard`` writes ``leaderboard.md``, ``leaderboard.json`` and, with
matplotlib (the ``plots`` extra), ``leaderboard.png``; without it the Markdown says the
plot was skipped and why.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from langgraph_games.eval.ratings.leaderboard import Board, Leaderboard
from langgraph_games.eval.ratings.stats import Estimate
from langgraph_games.games._tables import markdown_table

__all__ = ["Written", "leaderboard_json", "leaderboard_markdown", "write_leaderboard"]


def _cell(value: Estimate, fmt: Callable[[float], str]) -> str:
    if value.value is None:
        return "-"
    if value.low is None or value.high is None:
        return fmt(value.value)
    return f"{fmt(value.value)} [{fmt(value.low)}, {fmt(value.high)}]"


def _rating(x: float) -> str:
    return f"{x:.0f}"


def _signed(x: float) -> str:
    return f"{x:+.0f}"


def _two(x: float) -> str:
    return f"{x:.2f}"


def _signed_one(x: float) -> str:
    return f"{x:+.1f}"


def _one(x: float) -> str:
    return f"{x:.1f}"


PROVISIONAL = "*"
"""Marks a provisional player (fewer matches than ``min_matches``) in tables and the plot."""


def _marked(name: str, provisional: bool) -> str:
    return f"{name} {PROVISIONAL}" if provisional else name


def board_markdown(board: Board, confidence: float, min_matches: int = 10) -> str:
    """The players' and pairs' tables of one board."""
    ci = f"{round(100 * confidence)}% CI"
    title = "overall" if board.name == "overall" else board.name
    lines = [f"## {title}: leaderboard over {board.matches} matches", ""]
    lines.append(
        markdown_table(
            [
                "#",
                "player",
                "matches",
                "W-D-L",
                f"rating [{ci}]",
                f"Elo [{ci}]",
                f"skill mu [{ci}]",
                "sigma",
                f"O [{ci}]",
                f"I [{ci}]",
                f"win rate [{ci}]",
            ],
            [
                [
                    rank,
                    _marked(s.player, s.provisional),
                    s.matches,
                    f"{s.wins}-{s.draws}-{s.losses}",
                    _cell(s.rating, _rating),
                    _cell(s.elo, _rating),
                    _cell(s.mu, _one),
                    None if math.isnan(s.sigma) else _two(s.sigma),
                    _cell(s.outcome, _two),
                    _cell(s.intermediate, _two),
                    _cell(s.win_rate, _two),
                ]
                for rank, s in enumerate(board.standings, start=1)
            ],
        )
    )
    lines += ["", f"Ranked by the low end of the rating's {ci}."]
    if any(s.provisional for s in board.standings):
        lines[-1] += (
            f" `{PROVISIONAL}` provisional: fewer than {min_matches} matches, too few for "
            "the rank to be trusted (`--min-matches`)."
        )
    if board.pooling:
        lines += ["", f"Overall: {board.pooling}."]
    if board.pairs:
        lines += ["", "### Pairs (A against B)", ""]
        lines.append(
            markdown_table(
                [
                    "A",
                    "B",
                    "matches",
                    "A's W-D-L",
                    f"A's score rate [{ci}]",
                    f"Elo A-B [{ci}]",
                    f"mu A-B [{ci}]",
                    "matches to tell apart",
                ],
                [
                    [
                        p.a,
                        p.b,
                        p.separation.matches,
                        f"{p.wins}-{p.draws}-{p.losses}",
                        _cell(p.score_rate, _two),
                        _cell(p.elo_diff, _signed),
                        _cell(p.mu_diff, _signed_one),
                        p.separation.describe(),
                    ]
                    for p in board.pairs
                ],
            )
        )
    return "\n".join(lines) + "\n"


def leaderboard_markdown(leaderboard: Leaderboard) -> str:
    """Every board, how it was computed, and what was left out."""
    s = leaderboard.settings
    parts = [board_markdown(board, s.confidence, s.min_matches) for board in leaderboard.boards]
    if leaderboard.cross_game is not None:
        parts.append(leaderboard.cross_game.markdown())
    matches = sum(b.matches for b in leaderboard.boards if b.name != "overall")
    skill = (
        f" and openskill's {leaderboard.skill_model.replace('_', '-')} mu (sigma its "
        "uncertainty), each"
        if leaderboard.skill_model
        else ""
    )
    parts.append(
        f"Rating: a Bradley-Terry fit of all the matches at once on Elo's scale (a prior "
        f"of {s.elo.base:.0f} ± {s.prior_sd:g}), its interval from the fit's standard error; "
        "the rank is by the interval's low end, a conservative rating that keeps a player "
        "with few matches below one that showed the same level over many. "
        f"Elo (start {s.elo.base:.0f}, K {s.elo.k:g}, scale {s.elo.scale:g}){skill} "
        f"averaged over {s.orderings} seeded orderings of the matches; a draw counts half. "
        f"Intervals: {s.bootstrap} bootstrap replicates resampling each game's matches "
        f"(seed {s.seed}). Matches to tell apart: the normal approximation on A's score "
        f"rate (one win and one loss added to the variance). {matches} matches from "
        f"{leaderboard.files} file(s).\n"
    )
    if leaderboard.notes:
        parts.append(
            "## Notes: what was left out, and why\n\n"
            + "\n".join(f"- {note}" for note in leaderboard.notes)
            + "\n"
        )
    return "\n".join(parts)


def _jsonable(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def leaderboard_json(leaderboard: Leaderboard) -> dict[str, object]:
    """Everything as plain data (the boards, settings, counts and notes)."""
    boards = []
    for board in leaderboard.boards:
        data = dataclasses.asdict(board)
        for pair, source in zip(data["pairs"], board.pairs, strict=True):
            pair["separation"]["separated"] = source.separation.separated
            pair["separation"]["text"] = source.separation.describe()
        boards.append(data)
    settings = dataclasses.asdict(leaderboard.settings)
    result: dict[str, object] = {
        "settings": settings,
        "skill_model": leaderboard.skill_model,
        "files": leaderboard.files,
        "left_out": leaderboard.counts,
        "notes": leaderboard.notes,
        "boards": boards,
        "cross_game": None if leaderboard.cross_game is None else leaderboard.cross_game.to_dict(),
    }
    return {key: _jsonable(value) for key, value in result.items()}


@dataclass
class Written:
    """Files ``write_leaderboard`` wrote, and why the plot was skipped if it was."""

    markdown: Path
    json: Path
    plot: Path | None = None
    plot_skipped: str | None = None


def write_leaderboard(leaderboard: Leaderboard, out_dir: str | Path) -> Written:
    """Write ``leaderboard.md``, ``leaderboard.json`` and (with matplotlib) the plot.

    Args:
        leaderboard: From :func:`~langgraph_games.eval.ratings.leaderboard.build_leaderboard`.
        out_dir: Folder (created).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = Written(markdown=out / "leaderboard.md", json=out / "leaderboard.json")
    try:
        plotting = importlib.import_module("langgraph_games.eval.ratings.plot")
    except ImportError as exc:
        written.plot_skipped = (
            f"plot skipped: matplotlib is not installed ({exc}); install the 'plots' "
            "extra: pip install -e '.[plots]' in a source checkout"
        )
    else:
        written.plot = plotting.plot_leaderboard(leaderboard, out / "leaderboard.png")
    text = leaderboard_markdown(leaderboard)
    if written.plot is not None:
        text += f"\n![leaderboard]({written.plot.name})\n"
    if written.plot_skipped:
        text += f"\n{written.plot_skipped}\n"
    written.markdown.write_text(text, encoding="utf-8")
    written.json.write_text(
        json.dumps(leaderboard_json(leaderboard), indent=2) + "\n", encoding="utf-8"
    )
    return written
