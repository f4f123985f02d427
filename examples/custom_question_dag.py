"""Compose your own question DAG and play Rock-Paper-Scissors with it.

What it shows:

- ``create_question_dag`` compiles any DAG of questions to a LangGraph graph. Here four
  questions in three levels: ``tally`` and ``scores`` have no parents, so they are asked
  at the same time; ``predict`` sees only ``tally``'s answer; ``choose`` sees ``predict``
  and ``scores``. The final answer is mapped to an action by SmartPlay's earliest-position
  rule (``Rock`` when it names none).
- Wrapping the compiled graph as a :class:`~langgraph_games.players.Player` (a dozen
  lines), so the episode loop (``run_episode``), arenas and evaluation runs can use it.
- Scoring the episode with the SmartPlay metrics and comparing with a random player on
  the same seed.

Offline by default: a scripted model answers each question from the prompt it is given
(it counts the opponent's hands in the observations, so the DAG really passes answers
along its edges). ``--model local`` runs the embedded SmolLM2-135M instead (slow: three
calls per step; use ``--steps``), ``--model openai:<model>`` any OpenAI-compatible model.

Run: ``python examples/custom_question_dag.py [--seed 0] [--steps 50] [--model local]``
"""

from __future__ import annotations

import argparse
import asyncio
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage

from langgraph_games.games import make
from langgraph_games.games.session import GameSession
from langgraph_games.games.smartplay.metrics import episode_metrics
from langgraph_games.graphs import EpisodeOptions, create_question_dag, run_episode
from langgraph_games.graphs.question_dag.graph import plan_question_dag
from langgraph_games.models import ScriptedChatModel, load_chat_model
from langgraph_games.players import RandomPlayer
from langgraph_games.players.base import Decision, DecisionRequest, ParseStatus, Player

HANDS = ("Rock", "Paper", "Scissor")
BEATEN_BY = {"Rock": "Paper", "Paper": "Scissor", "Scissor": "Rock"}

QUESTIONS = {
    "tally": "Count how often the opponent chose Rock, Paper and Scissor in the observations.",
    "scores": "Which hand beats which, and what does a win with each hand score?",
    "predict": "Which hand is the opponent most likely to choose next?",
    "choose": "Choose your hand for this round: Rock, Paper or Scissor.",
}
EDGES = {"predict": ["tally"], "choose": ["predict", "scores"]}


def scripted_reasoner() -> ScriptedChatModel:
    """A stand-in for an LLM that answers each question from the prompt it receives."""

    def answer(messages: Sequence[BaseMessage]) -> str:
        question = str(messages[-1].content)
        if question == QUESTIONS["tally"]:
            seen = "\n".join(str(m.content) for m in messages if isinstance(m, SystemMessage))
            hands = Counter(re.findall(r"the opponent chose (Rock|Paper|Scissor)", seen))
            return ", ".join(f"{hand}: {hands[hand]}" for hand in HANDS)
        if question == QUESTIONS["scores"]:
            return "Paper beats rock, scissors beat paper, rock beats scissors."
        parent = next(str(m.content) for m in messages if isinstance(m, AIMessage))
        if question == QUESTIONS["predict"]:
            counts = {h: int(n) for h, n in re.findall(r"(Rock|Paper|Scissor): (\d+)", parent)}
            likely = max(HANDS, key=lambda hand: counts.get(hand, 0))
            return f"The opponent will most likely choose {likely}."
        predicted = re.findall(r"choose (Rock|Paper|Scissor)", parent)
        return f"I choose {BEATEN_BY[predicted[0]]}." if predicted else "I am not sure."

    return ScriptedChatModel(script=answer)


class DagPlayer(Player):
    """Any question DAG as a player: it remembers the episode's observations."""

    def __init__(self, dag: Any, window: int, name: str = "question_dag") -> None:
        self.dag, self.window, self.name = dag, window, name
        self.seen: dict[int, str] = {}  # observation per step of the current episode

    async def adecide(self, request: DecisionRequest) -> Decision:
        """Ask the DAG with the recent observations; defaulted answers are marked."""
        turn = request.state.turn
        start = max(0, turn - self.window + 1)
        earlier = [self.seen[t] for t in range(start, turn) if t in self.seen]
        self.seen[turn] = request.observation
        out = await self.dag.ainvoke(
            {
                "observation": request.observation,
                "recent_observations": earlier,
                "legal_actions": list(request.legal_actions),
                "step": turn,
            }
        )
        return Decision(
            action=out["action"],
            status=ParseStatus.FALLBACK if out["defaulted"] else ParseStatus.OK,
            raw_outputs=out["raw_outputs"],
            usage={"calls": out["calls"], **out["usage"]},
            info={"answers": out["answers"]},
        )

    def describe(self) -> dict[str, Any]:
        """What the player is, for results files."""
        return {"kind": "question_dag", "questions": list(QUESTIONS)}


def build_dag(model: BaseChatModel, manual: str, window: int) -> Any:
    """The custom DAG: role, the game's manual as context, a window of observations."""
    return create_question_dag(
        model,
        QUESTIONS,
        EDGES,
        actions=HANDS,
        game_name="Rock-Paper-Scissors",
        context=manual,
        history_window=window,
        action_rule="earliest_position",
        default_action="Rock",
    )


async def play(model: BaseChatModel, seed: int, steps: int | None, window: int) -> None:
    """Print the DAG's levels, play one episode with it and one at random, compare."""
    game = make("rock_paper_scissors")
    manual = game.manual(game.initial_state(seed))  # type: ignore[attr-defined]
    plan = plan_question_dag(QUESTIONS, EDGES)
    print("Question levels (a level's questions are asked concurrently):")
    for level in range(max(plan.levels.values()) + 1):
        names = [q for q in plan.order if plan.levels[q] == level]
        print(f"  level {level}: {', '.join(names)}")
    player = DagPlayer(build_dag(model, manual, window), window)
    options = EpisodeOptions(max_steps=steps)
    ours = await run_episode(game, [player], seed=seed, options=options)
    baseline = await run_episode(game, [RandomPlayer(seed=seed)], seed=seed, options=options)

    last = ours["trajectory"][-1]["decisions"]["0"]["attempts"][-1]
    print(f"\nThe answers of the last step ({len(ours['trajectory'])}):")
    for question, answer in last["info"]["answers"].items():
        print(f"  {question}: {answer}")
    for label, episode in (("question DAG", ours), ("random", baseline)):
        session = GameSession.from_dict(episode["result"]["record"])
        found = episode_metrics(session)
        print(
            f"{label:>12}: SmartPlay score {found['score']:g} optimal hands in "
            f"{found['steps']} rounds, reward {found['reward']:+g}"
        )
    calls = ours["result"]["players"][0]["model_calls"]
    print(f"model calls: {calls} ({len(QUESTIONS)} per step)")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the flags and play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=None, help="stop after N rounds")
    parser.add_argument("--window", type=int, default=20, help="observations shown")
    parser.add_argument("--model", default=None, help="model spec (default: scripted)")
    args = parser.parse_args(argv)
    model = scripted_reasoner() if args.model is None else load_chat_model(args.model)
    asyncio.run(play(model, args.seed, args.steps, args.window))


if __name__ == "__main__":
    main()
