"""Results files of GAMEBoT matches: bytes per episode, and report time over many of them.

Usage: python benchmarks/results_size.py [--episodes 1000] [--played 24] [--repeats 3]

Plays ``--played`` GAMEBoT matches per game (TicTacToe and Connect4) between two scripted
models that answer both subproblems: ``steady`` answers with a legal move at once,
``shaky`` first names no legal move at every other decision and is re-asked (so
decisions with two attempts, and their re-asked scores, are in the file). Each match is
written as the arena writes it (the run's fields, ``result`` and ``trajectory``), and the
table gives the JSON bytes per match. Then the matches are repeated into a results file of
``--episodes`` lines (each with its own ``match_id``) and ``build_report`` (what
``langgraph-games report`` runs) is timed over it, best of ``--repeats``.

Compare two commits in one run with ``benchmarks/compare_commits.py --baseline REV
results_size.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from langgraph_games.eval.reports.report import build_report
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions, gamebot_player, run_episode
from langgraph_games.models import ScriptedChatModel

GAMES = ("tictactoe", "connect4")
_MOVES = re.compile(r"moves: \[([^\]]*)\]")


def _script(shaky: bool) -> Any:
    def reply(messages: Sequence[BaseMessage]) -> str:
        prompt = next(str(m.text) for m in reversed(messages) if _MOVES.search(str(m.text)))
        legal = re.findall(r"'([^']+)'", _MOVES.findall(prompt)[-1])
        turn = prompt.count(":X") + prompt.count(":O")
        answers = (
            f"[Intermediate Thinking Results 1: {legal[turn % len(legal)]}]\n"
            f"[Intermediate Thinking Results 2: {'None' if turn % 3 else legal[0]}]\n"
        )
        if shaky and turn // 2 % 2 == 0 and "rejected" not in messages[-1].text:
            return answers + "**Conclusion** a far corner\n**Chosen Move**: (9,9)"
        return answers + f"**Conclusion** ok\n**Chosen Move**: {legal[(turn * 7) % len(legal)]}"

    return reply


def _match(game_id: str, seed: int) -> dict[str, Any]:
    game = make(game_id)
    names = ("steady", "shaky") if seed % 2 else ("shaky", "steady")
    players = [
        gamebot_player(ScriptedChatModel(script=_script(name == "shaky")), game, name=name)
        for name in names
    ]
    episode = asyncio.run(run_episode(game, players, seed=seed, options=EpisodeOptions()))
    result = episode["result"]
    assert result is not None
    return {
        "kind": "match",
        "spec_hash": "0123456789ab",
        "match_id": f"{game_id}-{seed}",
        "round": 0,
        "game": game.versioned_id,
        "options": {},
        "seed": seed,
        "seats": list(names),
        "started_at": 1.0,
        "status": result["status"],
        "result": result,
        "trajectory": episode["trajectory"],
        "duration_s": 0.5,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--played", type=int, default=24)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"GAMEBoT results files and report time ({machine()})\n")
    rows = []
    lines: list[str] = []
    for game_id in GAMES:
        texts = [json.dumps(_match(game_id, seed)) for seed in range(args.played)]
        size = sum(len(t.encode()) for t in texts) / len(texts)
        rows.append([f"{game_id} bytes/episode", f"{size:.0f}"])
        lines += texts
    print(table(["results file", "value"], rows))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "arena.jsonl"
        written = []
        for i in range(args.episodes):
            record = json.loads(lines[i % len(lines)])
            record["match_id"] = f"m{i}"
            written.append(json.dumps(record))
        path.write_text("\n".join(written) + "\n")
        took = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            report = build_report([path])
            took.append(time.perf_counter() - start)
        assert not report.empty
        megabytes = path.stat().st_size / 1e6
    best = min(took)
    print()
    print(
        table(
            ["report", "value"],
            [
                [f"build_report s per {args.episodes} episodes", f"{best:.3f}"],
                ["results file MB", f"{megabytes:.2f}"],
            ],
        )
    )


if __name__ == "__main__":
    main()
