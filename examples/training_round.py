"""Agent-ExpVer training rounds on the maze: experiences verified by replaying become truths.

What it shows:

- ``create_expver_graph`` is a compiled LangGraph graph: GeoLink (the EvoEmpirBench agent)
  plays a training map with the current truths in its prompt, InsightForce reflects on the
  episode ("Due to ..., ... happened. Next time, I should ..."), the same map is replayed
  with that experience, and only a replay that succeeds and scores higher promotes it to
  truths, which TruthWeaver merges into the store. After each round the test maps are
  played; a round that lowers the mean test score is reverted (paper eq. 6).
- The truths live in a store (here a :class:`~langgraph_games.memory.ChromaStore` in a
  folder); any strategy reads them with ``load_truths`` (``eval --truths DIR`` does).
- Stream events (``stream_mode="custom"``) report every step.

Offline by default: one scripted chat model plays every role. As GeoLink it walks off the
grid until a lesson tells it to follow the shortest open path; as InsightForce it proposes
that lesson, typing each lesson as advice or observation (only advice becomes a truth); as
TruthWeaver's relation check it finds the lessons unrelated. ``--model local`` runs the embedded
SmolLM2-135M in every role instead (slow; it rarely reaches a goal, so expect rejections).

Run: ``python examples/training_round.py [--rounds 2] [--steps 16] [--model local]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage

from langgraph_games.eval.running.training import describe_event, round_table
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.expver.graph import create_expver_graph
from langgraph_games.graphs.expver.parts import ExpVerOptions, Level, MemoryLedger
from langgraph_games.memory import ChromaStore, load_truths, minilm_index
from langgraph_games.models import ScriptedChatModel, load_chat_model

LESSON = "follow the shortest open path to the goal, one cell at a time"
MOVES = {(-1, 0): "0", (1, 0): "3", (0, -1): "6", (0, 1): "9"}


def shortest_path_move(prompt: str) -> str:
    """The first one-cell move toward G over the cells of the prompt's map not known as walls."""
    rows = [line.split("|", 1)[1].split() for line in prompt.splitlines() if " | " in line]
    cells = {(r, c): v for r, row in enumerate(rows) for c, v in enumerate(row)}
    agent = next(cell for cell, v in cells.items() if v == "A")
    goal = next(cell for cell, v in cells.items() if v == "G")
    came: dict[tuple[int, int], tuple[int, int]] = {goal: goal}
    queue = deque([goal])
    while queue:
        r, c = queue.popleft()
        for dr, dc in MOVES:
            nxt = (r + dr, c + dc)
            if cells.get(nxt, "#") != "#" and nxt not in came:
                came[nxt] = (r, c)
                queue.append(nxt)
    step = came.get(agent, agent)
    return MOVES.get((step[0] - agent[0], step[1] - agent[1]), "6")


def scripted(messages: Sequence[BaseMessage]) -> str:
    """Every role of the offline run, told apart by its system prompt."""
    system, user = str(messages[0].content), str(messages[-1].content)
    if "one lesson per meaning" in system:  # TruthWeaver's relation check
        return json.dumps({"relation": "unrelated", "reason": "different lessons"})
    if system.startswith("You are a coach"):  # InsightForce: typed lessons, as JSON
        summary = (
            "Due to stepping off the grid again and again, the goal was never reached. "
            f"Next time, I should {LESSON}."
        )
        lessons = [
            {"type": "advice", "section": "strength", "situation": "near walls",
             "action": "keep off them", "text": "Keep staying off the walls: no life was lost"},
            {"type": "observation", "section": "weakness", "situation": "", "action": "",
             "text": "Stepped off the grid on every move"},
        ]  # fmt: skip
        return json.dumps({"summary": summary, "lessons": lessons})
    if LESSON in system:  # GeoLink with the lesson in its prompt
        return f"The lesson says to follow the open path. Action: {shortest_path_move(user)}"
    return "I will wait here. Action: 6"


def level(split: str, index: int, steps: int) -> Level:
    """Map ``index`` of maze level 1's fixed ``train`` or ``eval`` set."""
    options = {"level": 1, "map_set": split, "map_index": index, "max_steps": steps}
    return Level(id=f"L1-{split}{index:02d}", options=options, seed=index)


async def train(model: BaseChatModel, store_dir: Path, rounds: int, steps: int) -> None:
    """Run the rounds and print what happened."""
    ledger = MemoryLedger()
    with ChromaStore(store_dir, index=minilm_index(["text"])) as store:
        graph = create_expver_graph(
            model,
            "maze",
            train_levels=[level("train", k, steps) for k in (1, 2, 3)],
            test_levels=[level("eval", k, steps) for k in (2, 3)],
            store=store,
            options=ExpVerOptions(
                rounds=rounds,
                levels_per_round=1,
                episode=EpisodeOptions(max_retries=0, max_steps=steps),
            ),
            ledger=ledger,
        )
        async for event in graph.astream({}, stream_mode="custom"):
            line = describe_event(event)
            if line:
                print(line)
        truths = load_truths(store, "maze")
    print(f"\ntruths in {store_dir.name}/ ({len(truths)}):")
    for number, truth in enumerate(truths, 1):
        print(f"  {number}. {truth}")
    rounds_done = [r for r in ledger.records.values() if r["kind"] == "round"]
    print()
    print(round_table(rounds_done))


def main(argv: Sequence[str] | None = None) -> None:
    """Train for a few rounds, then print the truths and the per-round table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=2, help="training rounds (default 2)")
    parser.add_argument("--steps", type=int, default=16, help="steps per episode (default 16)")
    parser.add_argument(
        "--model", default=None, help="a model spec (e.g. local) instead of the scripted model"
    )
    parser.add_argument("--max-tokens", type=int, default=160, help="with --model")
    parser.add_argument("--store", default=None, help="truth store folder (default: temporary)")
    args = parser.parse_args(argv)
    model: BaseChatModel = (
        load_chat_model(args.model, max_tokens=args.max_tokens)
        if args.model
        else ScriptedChatModel(script=scripted)
    )
    with tempfile.TemporaryDirectory() as scratch:
        store_dir = Path(args.store or Path(scratch) / "truths")
        asyncio.run(train(model, store_dir, args.rounds, args.steps))


if __name__ == "__main__":
    main()
