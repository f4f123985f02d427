"""Constrained answers with the embedded model: invalid rate, fallbacks, O, seconds.

Usage: python benchmarks/constrained_answers.py [--matches 3] [--max-tokens 96]
    [--games tictactoe connect4] [--retries 1]

Plays GAMEBoT (``gamebot:local``) against ``random`` on each game through ``run_eval``,
once free and once with ``constrain=true`` (a llama.cpp grammar that ends every reply
with ``Chosen Move:`` and one legal move), and prints side by side per game: the invalid
rate (share of decisions whose first answer had no legal move), fallbacks, O, W-D-L and
seconds per decision, with the constrained/free ratio of seconds per decision measured
in the same run. SmolLM2-135M, greedy; a few matches each keep it to a few minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.eval.scoring.metrics import player_rows
from langgraph_games.graphs.episode.options import EpisodeOptions


def play(game: str, constrain: bool, matches: int, max_tokens: int, retries: int) -> dict[str, Any]:
    """The GAMEBoT player's metrics row over ``matches`` matches against random."""
    agent = "gamebot:constrain=true:local" if constrain else "gamebot:local"
    spec = EvalSpec(
        game=game,
        agent=agent,
        opponents=["random"],
        repeats=matches,
        concurrency=1,
        episode=EpisodeOptions(max_retries=retries),
        model={"max_tokens": max_tokens},
        label="constrained" if constrain else "free",
    )
    with tempfile.TemporaryDirectory() as out:
        report = asyncio.run(run_eval(spec, out, progress=False))
        lines = report.results_path.read_text(encoding="utf-8").splitlines()
    if report.errors:
        raise SystemExit(f"{game} {agent}: {report.errors} episode(s) failed")
    records = [json.loads(line) for line in lines if line.strip()]
    records = [r for r in records if "result" in r]
    rows = [r for r in player_rows(records) if not str(r["player"]).startswith("random")]
    if len(rows) != 1:
        raise SystemExit(f"{game} {agent}: expected one GAMEBoT row, got {rows}")
    return rows[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--retries", type=int, default=1)
    parser.add_argument("--games", nargs="+", default=["tictactoe", "connect4"])
    args = parser.parse_args()
    rows = []
    for game in args.games:
        free = play(game, False, args.matches, args.max_tokens, args.retries)
        held = play(game, True, args.matches, args.max_tokens, args.retries)
        for label, row in (("free", free), ("constrained", held)):
            rows.append(
                [
                    game,
                    label,
                    row["decisions"],
                    f"{row['invalid_rate']:.2f}",
                    row["fallbacks"],
                    f"{row['O']:+.2f}",
                    f"{row['wins']}-{row['draws']}-{row['losses']}",
                    f"{row['seconds_per_decision']:.2f}",
                ]
            )
        ratio = held["seconds_per_decision"] / max(free["seconds_per_decision"], 1e-9)
        rows.append([game, "ratio s/dec", "", "", "", "", "", f"x{ratio:.2f}"])
    print(
        f"GAMEBoT with SmolLM2-135M vs random, {args.matches} match(es) per row, "
        f"max_tokens {args.max_tokens}, {args.retries} re-ask(s) ({machine()})\n"
    )
    headers = ["game", "answers", "decisions", "invalid", "fallbacks", "O", "W-D-L", "s/dec"]
    print(table(headers, rows))


if __name__ == "__main__":
    main()
