"""Scripted episodes of every LLM strategy whose trajectories and prompts are pinned.

Each scenario plays whole episodes with scripted models (retries, fallbacks, defaults,
per-seat and per-episode memory, an evaluation run with concurrent episodes) and returns
its trajectories in JSON form (wall times left out) with a fingerprint of every prompt the
models were sent. ``graphs/golden/trajectories.json`` holds what the package wrote when it
was pinned; ``graphs/episode/test_pinned_trajectories.py`` checks that the package still
writes exactly that, so a change of how decisions are built, passed or recorded cannot
change a trajectory or a prompt unseen.

Regenerate (after an intended change only): ``python tests/pinned_trajectories.py``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from langgraph_games.eval.running import players as eval_players
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.games import make
from langgraph_games.games.smartplay.hanoi import ACTIONS as HANOI
from langgraph_games.graphs import (
    MS_STRATEGIES,
    EpisodeOptions,
    eeb_player,
    gamebot_player,
    minesweeper_player,
    run_episode,
    smartplay_player,
    spring_player,
)
from langgraph_games.graphs.spring.graph import SPRING_QUESTIONS
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import RandomPlayer

HERE = Path(__file__).parent / "graphs" / "golden"
PINNED = HERE / "trajectories.json"
_DROPPED = {"latency_s", "started_at", "duration_s"}  # wall times


def normalized(value: Any) -> Any:
    """``value`` without wall times (every ``latency_s``, ``started_at``, ``duration_s``)."""
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items() if k not in _DROPPED}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    return value


def fingerprint(messages: Sequence[BaseMessage]) -> str:
    """A short hash of one prompt (every message's type and text)."""
    text = "\n\x1e".join(f"{m.type}:{m.content}" for m in messages)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def cycling(answers: Sequence[str]) -> Callable[[Sequence[BaseMessage]], str]:
    """A script answering from ``answers`` in turn (the model is one per scenario)."""
    count = {"n": 0}

    def script(messages: Sequence[BaseMessage]) -> str:
        count["n"] += 1
        return answers[(count["n"] - 1) % len(answers)]

    return script


def spring_final(answers: Sequence[str]) -> Callable[[Sequence[BaseMessage]], str]:
    """SPRING: "ok" to every question but the final one, answered from ``answers`` in turn."""
    finals = cycling(answers)

    def script(messages: Sequence[BaseMessage]) -> str:
        return finals(messages) if messages[-1].content == SPRING_QUESTIONS["qa"] else "ok"

    return script


def by_prompt(choices: Sequence[str]) -> Callable[[Sequence[BaseMessage]], str]:
    """A script whose answer depends on the prompt only (safe under concurrency)."""

    def script(messages: Sequence[BaseMessage]) -> str:
        digest = int(fingerprint(messages), 16)
        return choices[digest % len(choices)]

    return script


async def _episodes(
    game: Any, players: Sequence[Any], seeds: Sequence[int], options: EpisodeOptions
) -> list[Any]:
    out = []
    for seed in seeds:
        episode = await run_episode(game, list(players), seed=seed, options=options)
        out.append(normalized(episode["trajectory"]))
    return out


def _prompts(*models: ScriptedChatModel) -> list[str]:
    return [fingerprint(call) for model in models for call in model.calls]


async def gamebot_tictactoe() -> dict[str, Any]:
    illegal = (
        "[Intermediate Thinking Results 1: (1,1)]\n[Intermediate Thinking Results 2: None]\n"
        "**Chosen Move**: (7,7)"
    )
    answers = [illegal, "Chosen Move: (0,0) or (2,2)", "Chosen Move: (1,1)", "Chosen Move: (0,0)"]
    answers += ["Chosen Move: (2,2)", "nothing", "Chosen Move: (0,2)", "Chosen Move: (2,0)"]
    model = ScriptedChatModel(script=cycling(answers))
    player = gamebot_player(model, "tictactoe")
    trajectories = await _episodes(
        "tictactoe", [player, RandomPlayer(seed=3)], [0, 1], EpisodeOptions(history=2)
    )
    return {"trajectories": trajectories, "prompts": _prompts(model)}


async def eeb_maze() -> dict[str, Any]:
    answers = ["Action: 9", "Sorry, I cannot", "garbage", "Action: 1", "move up two steps"]
    model = ScriptedChatModel(script=cycling(answers))
    player = eeb_player(model, "maze", detect_refusal=True)
    trajectories = await _episodes("maze", [player], [0, 1], EpisodeOptions(max_steps=6))
    return {"trajectories": trajectories, "prompts": _prompts(model)}


async def minesweeper_memory() -> dict[str, Any]:
    answers = ["r,0,0", "I am not sure", "f,1,1", "r,8,8", "r,12,3", "r,2,2", "f,1,1", "r,4,4"]
    memory = ScriptedChatModel(script=cycling(answers))
    cells = ScriptedChatModel(
        script=cycling(["[Intermediate Thinking Results 1: (0,0)]\nr,0,0", "r,3,3", "??"])
    )
    trajectories = await _episodes(
        "minesweeper",
        [minesweeper_player(memory, variant="memory")],
        [0, 1],
        EpisodeOptions(max_steps=8),
    )
    trajectories += await _episodes(
        "minesweeper",
        [minesweeper_player(cells, variant=MS_STRATEGIES["cells"])],
        [2],
        EpisodeOptions(max_retries=0, max_steps=5),
    )
    return {"trajectories": trajectories, "prompts": _prompts(memory, cells)}


async def spring_episodes() -> dict[str, Any]:
    full = ScriptedChatModel(script=spring_final(["Move West", "Do", "Move North"]))
    trajectories = await _episodes(
        "crafter", [spring_player(full, "crafter")], [0], EpisodeOptions(max_steps=3)
    )
    defaulted = ScriptedChatModel(script=spring_final(["Move West", "Hmm, not sure."]))
    trajectories += await _episodes(
        "crafter",
        [spring_player(defaulted, "crafter", variant="action_only", history_window=3)],
        [3, 4],
        EpisodeOptions(max_steps=4),
    )
    # Both seats played by one player: per-seat memory, retries with feedback, fallbacks.
    both = ScriptedChatModel(script=spring_final(["no idea", "(1,1)", "(0,0)", "(2,2)", "(0,2)"]))
    player = spring_player(both, "tictactoe", variant="step_by_step")
    trajectories += await _episodes(
        "tictactoe", [player, player], [0], EpisodeOptions(max_retries=1, max_steps=6)
    )
    return {"trajectories": trajectories, "prompts": _prompts(full, defaulted, both)}


async def smartplay_episodes() -> dict[str, Any]:
    hanoi = make("hanoi")
    solution = [HANOI[i] for i in (1, 0, 5, 1, 2, 3)]
    moves = ScriptedChatModel(
        script=cycling([t for c in solution for t in ("Let me think.", c)] + ["x", "nonsense"])
    )
    trajectories = await _episodes(
        hanoi, [smartplay_player(moves, hanoi)], [0, 1], EpisodeOptions(max_steps=8)
    )
    bandit = ScriptedChatModel(
        script=cycling(["Think.", "Pull slot machine 2.", "Hm.", "I am unsure."])
    )
    trajectories += await _episodes(
        "bandit",
        [smartplay_player(bandit, "bandit", default_action=None, history_length=3)],
        [5],
        EpisodeOptions(max_retries=1, max_steps=6),
    )
    crafter = make("crafter", length=8)
    walker = ScriptedChatModel(script=cycling(["Think.", "Move West", "Think.", "Do"]))
    trajectories += await _episodes(
        crafter, [smartplay_player(walker, crafter)], [1], EpisodeOptions()
    )
    return {"trajectories": trajectories, "prompts": _prompts(moves, bandit, walker)}


async def eval_runs() -> dict[str, Any]:
    """Evaluation runs (the executor path, four episodes at once) with prompt-only scripts."""
    models = {
        "ms": ScriptedChatModel(script=by_prompt(["r,0,0", "r,4,4", "f,2,2", "nope", "r,8,0"])),
        "sp": ScriptedChatModel(
            script=by_prompt(["Pull slot machine 1.", "Pull slot machine 3.", "hm"])
        ),
    }
    original = eval_players.load_chat_model
    eval_players.load_chat_model = lambda spec, **settings: models[spec]  # type: ignore[assignment]
    try:
        specs = [
            EvalSpec(
                game="minesweeper",
                agent="minesweeper:variant=memory:ms",
                repeats=4,
                episode=EpisodeOptions(max_steps=6),
            ),
            EvalSpec(
                game="bandit",
                agent="smartplay:sp",
                repeats=4,
                episode=EpisodeOptions(max_retries=1, max_steps=5),
            ),
        ]
        out: list[Any] = []
        with tempfile.TemporaryDirectory() as folder:
            for spec in specs:
                report = await run_eval(spec, folder, progress=False)
                records = ResultsFile(report.results_path).read().records
                for record in sorted(records, key=lambda r: r["seed"]):
                    out.append(normalized(record["trajectory"]))
    finally:
        eval_players.load_chat_model = original  # type: ignore[assignment]
    return {"trajectories": out, "prompts": sorted(_prompts(*models.values()))}


SCENARIOS: dict[str, Callable[[], Awaitable[dict[str, Any]]]] = {
    "gamebot_tictactoe": gamebot_tictactoe,
    "eeb_maze": eeb_maze,
    "minesweeper_memory": minesweeper_memory,
    "spring_episodes": spring_episodes,
    "smartplay_episodes": smartplay_episodes,
    "eval_runs": eval_runs,
}


async def play_scenarios(scenarios: Mapping[str, Callable[[], Awaitable[Any]]]) -> dict[str, Any]:
    """Each scenario's output, by scenario name, played one after another."""
    return {name: await scenario() for name, scenario in scenarios.items()}


def write_pinned(path: Path, scenarios: Mapping[str, Callable[[], Awaitable[Any]]]) -> None:
    """Play ``scenarios`` and write their outputs to ``path`` as the pinned JSON."""
    pinned = asyncio.run(play_scenarios(scenarios))
    path.write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {path.name} ({path.stat().st_size:,} bytes)\n")


async def play_all() -> dict[str, Any]:
    """Every scenario's trajectories and prompt fingerprints, by scenario name."""
    return await play_scenarios(SCENARIOS)


def main() -> None:
    write_pinned(PINNED, SCENARIOS)


if __name__ == "__main__":
    main()
