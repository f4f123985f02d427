"""Scripted GeoLink and InsightForce models for the Agent-ExpVer tests (and spawned processes)."""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.store.base import BaseStore, GetOp, Op, PutOp, Result, SearchOp
from langgraph.store.memory import InMemoryStore

from langgraph_games.games.base import Game
from langgraph_games.games.maze.rules import MazeState
from langgraph_games.graphs.eeb.graph import eeb_player
from langgraph_games.graphs.expver.parts import Level, MemoryLedger
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players.base import (
    Decision,
    DecisionRequest,
    ParseStatus,
    Player,
    SearchPlayer,
)

GOOD = "Walk the shortest open path to the goal"
OVERFIT = "Run for the goal and ignore the map"
USELESS = "Go left whenever in doubt"
WANDER = "Explore the middle first"

_ROW = re.compile(r"^\s*(\d+) \| (.*)$")
_MOVES = {(-1, 0): "0", (1, 0): "3", (0, -1): "6", (0, 1): "9"}


KEEP = "Keep moving along open cells"
AVOID = "Avoid wasting steps at the edge"


def reflection(
    lesson: str,
    strength: str = KEEP,
    weakness: str = AVOID,
    *,
    types: tuple[str, str] = ("advice", "advice"),
    typed: bool = True,
) -> str:
    """InsightForce's reply: typed JSON (the strength's and weakness's types given), or the
    paper's three text sections (``typed=False``)."""
    summary = f"Due to aimless moves, the goal was missed. Next time, I should {lesson.lower()}."
    if not typed:
        return f"Experience Summary: {summary}\nStrengths:\n- {strength}\nWeaknesses:\n- {weakness}"
    lessons = [
        {"type": kind, "section": section, "text": text, "situation": "", "action": ""}
        for kind, section, text in zip(
            types, ("strength", "weakness"), (strength, weakness), strict=True
        )
    ]
    return json.dumps({"summary": summary, "lessons": lessons})


def is_typing(messages: Sequence[BaseMessage]) -> bool:
    return "You sort notes" in str(messages[0].content)


def is_relation(messages: Sequence[BaseMessage]) -> bool:
    return "one lesson per meaning" in str(messages[0].content)


def typing_reply(messages: Sequence[BaseMessage], observations: Sequence[str] = ()) -> str:
    """The typing call's answer: ``observation`` for the notes in ``observations``."""
    notes = re.findall(r"^\d+\. (.*)$", str(messages[-1].content), flags=re.MULTILINE)
    kinds = ["observation" if note in observations else "advice" for note in notes]
    return json.dumps({"types": kinds})


UNRELATED = json.dumps({"relation": "unrelated", "reason": "different lessons"})


def known_map(prompt: str) -> tuple[list[str], tuple[int, int], tuple[int, int]]:
    """The map of a maze prompt: rows of cells, the agent and the goal."""
    rows = [m.group(2).split() for line in prompt.splitlines() if (m := _ROW.match(line))]
    agent = goal = (0, 0)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell == "A":
                agent = (r, c)
            elif cell == "G":
                goal = (r, c)
    return ["".join(row) for row in rows], agent, goal


def path_action(prompt: str, target: tuple[int, int] | None = None) -> str:
    """One-cell step along a shortest path over cells not known to be walls (optimistic)."""
    rows, agent, goal = known_map(prompt)
    return bfs_action(rows, agent, target or goal)


def bfs_action(rows: Sequence[str], agent: tuple[int, int], target: tuple[int, int]) -> str:
    """The first one-cell move of a shortest path from ``agent`` to ``target`` (walls ``#``)."""
    size = len(rows)
    parent: dict[tuple[int, int], tuple[int, int] | None] = {target: None}
    queue = deque([target])
    while queue:
        cell = queue.popleft()
        for dr, dc in _MOVES:
            nxt = (cell[0] + dr, cell[1] + dc)
            inside = 0 <= nxt[0] < size and 0 <= nxt[1] < size
            if inside and nxt not in parent and rows[nxt[0]][nxt[1]] not in "#M":
                parent[nxt] = cell
                queue.append(nxt)
    step = parent.get(agent)
    if step is None:  # at the target, or boxed in: wander back and forth
        for (dr, dc), action in _MOVES.items():
            r, c = agent[0] + dr, agent[1] + dc
            if 0 <= r < size and 0 <= c < size and rows[r][c] not in "#M":
                return action
        return "6"
    return _MOVES[(step[0] - agent[0], step[1] - agent[1])]


def system_and_user(messages: Sequence[BaseMessage]) -> tuple[str, str]:
    return str(messages[0].content), str(messages[-1].content)


def is_reflection(messages: Sequence[BaseMessage]) -> bool:
    return "You are a coach" in str(messages[0].content)


Policy = Callable[[str, str], str]


def geolink_script(policy: Policy) -> Callable[[Sequence[BaseMessage]], str]:
    """A maze agent's replies: ``policy(system, user)`` gives the action."""

    def script(messages: Sequence[BaseMessage]) -> str:
        system, user = system_and_user(messages)
        return f"I weigh the moves. Action: {policy(system, user)}"

    return script


def has(lesson: str, text: str) -> bool:
    return lesson.lower() in text.lower()


def lesson_policy(system: str, user: str) -> str:
    """Without a lesson: left forever (off the grid); GOOD: shortest path; WANDER: explore
    toward the middle and stay there; USELESS: left."""
    if has(GOOD, system):
        return path_action(user)
    if has(WANDER, system):
        rows, _, _ = known_map(user)
        return path_action(user, (len(rows) // 2, len(rows) // 2))
    return "6"


def reflect_script(replies: dict[str, str] | str) -> Callable[[Sequence[BaseMessage]], str]:
    """InsightForce's replies, one per level (keyed by a word of the prompt), or always one."""

    def script(messages: Sequence[BaseMessage]) -> str:
        if is_typing(messages):
            return typing_reply(messages)
        if isinstance(replies, str):
            return replies
        text = "\n".join(str(m.content) for m in messages)
        for key, reply in replies.items():
            if key in text:
                return reply
        return "I do not know."

    return script


class SplitPlayer:
    """Player factory: a scripted EEB agent whose policy depends on the level's map set."""

    def __init__(self, train: Policy, test: Policy) -> None:
        self.train, self.test = train, test
        self.models: list[ScriptedChatModel] = []

    def __call__(self, model: Any, game: Game[Any]) -> Player:
        options = game.options_dict()
        policy = self.test if options.get("map_set") == "eval" else self.train
        scripted = ScriptedChatModel(script=geolink_script(policy))
        self.models.append(scripted)
        return eeb_player(scripted, game)


def overfit_test_policy(system: str, user: str) -> str:
    """On test maps: the shortest path without lessons, and off the grid with OVERFIT."""
    return "6" if has(OVERFIT, system) else path_action(user)


def overfit_train_policy(system: str, user: str) -> str:
    return path_action(user) if has(OVERFIT, system) or has(GOOD, system) else "6"


def coach_script(lesson: str = GOOD) -> Callable[[Sequence[BaseMessage]], str]:
    """One model for every role: TruthWeaver (finds lessons unrelated), InsightForce (proposes
    ``lesson``) and GeoLink (:func:`lesson_policy`)."""

    def script(messages: Sequence[BaseMessage]) -> str:
        system, user = system_and_user(messages)
        if is_relation(messages):
            return UNRELATED
        if is_typing(messages):
            return typing_reply(messages)
        if is_reflection(messages):
            return reflection(lesson)
        return f"I weigh the moves. Action: {lesson_policy(system, user)}"

    return script


def install_coach(monkeypatch: Any, lesson: str = GOOD) -> None:
    """Model spec ``coach`` (any spec, in fact) resolves to :func:`coach_script`."""
    import langgraph_games.eval.running.players as eval_players

    def load(spec: str, **settings: Any) -> ScriptedChatModel:
        return ScriptedChatModel(script=coach_script(lesson), name_=spec)

    monkeypatch.setattr(eval_players, "load_chat_model", load)


STEPS = 16


def level(split: str, k: int, steps: int = STEPS) -> Level:
    """Maze level 1, map ``k`` of the fixed ``train`` or ``eval`` set."""
    return Level(
        id=f"L1-{split}{k}",
        options={"level": 1, "map_set": split, "map_index": k, "max_steps": steps},
        seed=k,
    )


def replay_only(system: str, user: str) -> str:
    """Follows GOOD or OVERFIT only in a verification replay (whose prompt names the attempt)."""
    if "From my last attempt" in system and (has(GOOD, system) or has(OVERFIT, system)):
        return path_action(user)
    return "6"


class LessonPlayer(SearchPlayer):
    """A fast stand-in for GeoLink (no model, no prompt): the shortest path on the true map
    when ``policy(truths)`` says so, else off the grid (left). For the exhaustive crash test,
    whose subject is durability, not the agent."""

    def __init__(self, follows: Callable[[str], bool]) -> None:
        self.follows = follows
        self.name = "lesson-player"

    def describe(self) -> dict[str, Any]:
        return {"kind": "lesson-player"}

    def decide(self, request: DecisionRequest) -> Decision:
        state = request.state
        assert isinstance(state, MazeState)
        action = "6"
        if self.follows("\n".join(request.truths)):
            n = state.size
            rows = [state.cells[i : i + n] for i in range(0, n * n, n)]
            action = bfs_action(rows, state.agent, (0, n - 1))
        return Decision(action=action, status=ParseStatus.OK, raw_outputs=[f"Action: {action}"])


def lesson_players(
    train: Callable[[str], bool], test: Callable[[str], bool]
) -> Callable[[Any, Game[Any]], Player]:
    def build(model: Any, game: Game[Any]) -> Player:
        return LessonPlayer(test if game.options_dict().get("map_set") == "eval" else train)

    return build


def train_and_die(out: str, truth_write: int) -> None:
    """Run ``langgraph-games train maze`` with the coach model and kill the process (exit 3)
    just before the ``truth_write``-th write to the truth base (inside TruthWeaver's insert).

    Runs in a spawned process (importable top-level function)."""
    import os

    import pytest

    from langgraph_games.cli import main
    from langgraph_games.memory.chroma_store import ChromaStore

    install_coach(pytest.MonkeyPatch())
    original = ChromaStore.batch
    seen = {"truths": 0}

    def batch(self: ChromaStore, ops: Any) -> Any:
        ops = list(ops)
        if any(
            getattr(op, "namespace", ())[:1] == ("truths",) and hasattr(op, "value") for op in ops
        ):
            seen["truths"] += 1
            if seen["truths"] == truth_write:
                os._exit(3)
        return original(self, ops)

    ChromaStore.batch = batch  # type: ignore[method-assign]
    main(["train", "maze", "--rounds", "2", "--model", "coach", "--out", out, "-q"])


def coach(messages: Sequence[BaseMessage]) -> str:
    """:func:`coach_script` as a top-level function (pickled by reference into workers)."""
    return coach_script()(messages)


class CountingStore(BaseStore):
    """A store (default a new InMemoryStore) behind a wrapper that counts operations by kind
    and namespace root, once ``counting`` is on (:class:`RoundLedger` turns it on)."""

    def __init__(self, inner: BaseStore | None = None) -> None:
        self.inner = inner if inner is not None else InMemoryStore()
        self.counts: Counter[tuple[str, str]] = Counter()
        self.counting = False

    def _count(self, ops: Iterable[Op]) -> list[Op]:
        ops = list(ops)
        for op in ops if self.counting else ():
            if isinstance(op, SearchOp):
                self.counts["search", op.namespace_prefix[0]] += 1
            elif isinstance(op, GetOp):
                self.counts["get", op.namespace[0]] += 1
            elif isinstance(op, PutOp):
                self.counts["put", op.namespace[0]] += 1
        return ops

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return self.inner.batch(self._count(ops))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await self.inner.abatch(self._count(ops))


class RoundLedger(MemoryLedger):
    """Starts the store's count once the baseline (round 0) is recorded: round 1 alone."""

    def __init__(self, store: CountingStore) -> None:
        super().__init__()
        self.store = store

    def add(self, record: Any) -> None:
        super().add(record)
        self.store.counting = self.store.counting or record["id"] == "round/0/test"
