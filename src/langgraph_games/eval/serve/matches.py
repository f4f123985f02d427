"""Matches a person plays in the browser against any player spec.

A match is one episode of the episode loop with the ``human`` player in the person's seat
and the opponent resolved from its spec exactly as the arena resolves it
(:func:`~langgraph_games.eval.running.players.resolve`). The episode runs on an in-memory
checkpointer under a thread of its own (the match id): it stops at each of the person's
moves on the human player's interrupt, and :meth:`Match.move` resumes it with the move.
A move is read with the game's reader first (:func:`read_human_move`), so a move that
names no legal move is refused with the reason and the episode is not touched.

A finished match becomes one ``kind: "match"`` record (the fields the arena's executor
writes: ``match_id``, ``game``, ``options``, ``seed``, ``seats``, ``status``, ``result``,
``trajectory``, ``started_at``, ``duration_s``; plus ``source: "serve"`` and
``human_seat``) appended to ``serve.jsonl`` with :class:`ResultsFile`, and its replay
page is written with the replay builder.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from typing_extensions import NotRequired, TypedDict

from langgraph_games.eval.reports.replay.build import build_replay, outcome_text
from langgraph_games.eval.reports.replay.page import page_name, render_page
from langgraph_games.eval.running.players import ModelPool, check_models, resolve
from langgraph_games.eval.running.records import MatchLine
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.serve.opponents import NotOffered, Opponents
from langgraph_games.games.base import Game
from langgraph_games.games.parts import BoardGrid, PartsView, parts_of
from langgraph_games.games.registry import list_games, make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.graphs.episode.records import (
    EpisodeOutput,
    PendingInterrupt,
    Step,
    first_answers,
)
from langgraph_games.graphs.episode.run import run_episode
from langgraph_games.graphs.human.player import HumanPlayer, MoveRequest, read_human_move
from langgraph_games.players.base import Decision, DecisionRequest, Player, SearchPlayer
from langgraph_games.players.budget import within_budget
from langgraph_games.players.registry import player_entries

__all__ = [
    "GRID_GAMES",
    "AgentView",
    "Catalog",
    "GridView",
    "InThread",
    "Match",
    "MatchError",
    "MatchTable",
    "MatchView",
    "catalog",
    "grid_view",
]

GRID_GAMES: Mapping[str, BoardGrid] = PartsView(lambda parts: parts.grid)
"""Games drawn as a clickable grid, as each declares it (``grid`` of its
:class:`~langgraph_games.games.parts.GameParts`); ``board`` is row-major. Other games get a
button per legal move."""


class InThread(Player):
    """A search player whose decisions run in a worker thread, off the server's loop.

    Args:
        inner: The search player (its work bounded by :func:`~langgraph_games.players.
            budget.within_budget`).
    """

    def __init__(self, inner: SearchPlayer) -> None:
        self.inner = inner
        self.name = inner.name

    async def adecide(self, request: DecisionRequest) -> Decision:
        """``inner.decide`` in a worker thread."""
        return await asyncio.to_thread(self.inner.decide, request)

    def describe(self) -> dict[str, Any]:
        """The inner player's description."""
        return self.inner.describe()


class GameOffer(TypedDict):
    """A game of the catalog."""

    id: str
    versioned_id: str
    name: str
    seats: list[str]
    grid: bool


class PlayerOffer(TypedDict):
    """A registered player of the catalog (``games``: those it can play)."""

    name: str
    form: str
    description: str
    needs_model: bool
    games: list[str]


class Catalog(TypedDict):
    """What the page offers (``GET /api/catalog``)."""

    games: list[GameOffer]
    players: list[PlayerOffer]
    opponents: list[str]


class GridCell(TypedDict):
    """One cell of a clickable grid: its mark and the move a click plays."""

    row: int
    col: int
    mark: str
    move: str | None


class GridView(TypedDict):
    """A clickable grid, rows top first."""

    rows: int
    cols: int
    cells: list[list[GridCell]]


class AttemptView(TypedDict):
    """One answer of the agent: how it was read, its text and the feedback it got."""

    status: str | None
    text: str
    feedback: str | None


class AnswerView(TypedDict):
    """The agent's answer to one subproblem and how it scored."""

    index: int
    answer: str
    answered: bool
    parsed: object
    truth: object
    correct: bool
    metric: str | None
    value: float | None


class AgentView(TypedDict):
    """The agent's latest decision: its move, raw answers and scores."""

    step: int
    action: str | None
    status: str
    fallback: str | None
    attempts: list[AttemptView]
    answers: list[AnswerView]


class MatchView(TypedDict):
    """What the page shows of a match (``GET /api/matches/<id>``).

    ``winners``, ``returns`` and ``status`` come once it is finished.
    """

    match_id: str
    game: str
    game_name: str
    seed: int
    seats: list[str]
    human_seat: int
    turn: int
    board: str
    grid: GridView | None
    legal_moves: list[str]
    to_move: list[str]
    your_turn: bool
    prompt: str | None
    agent: AgentView | None
    finished: bool
    outcome: str | None
    replay: str | None
    winners: NotRequired[list[int]]
    returns: NotRequired[list[float]]
    status: NotRequired[str | None]


class MatchError(ValueError):
    """A request the server refuses; ``status`` is the HTTP status to answer with.

    Attributes:
        status: 400 (bad input), 403 (not offered here), 404 (no such match), 409 (not
            now), 503 (full).
        extra: More JSON fields for the answer (e.g. the legal moves).
    """

    def __init__(self, message: str, status: int = 400, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


def catalog(opponents: Opponents | None = None) -> Catalog:
    """What the page offers: two-player games, registered players, opponent specs.

    The opponent specs are ``opponents``' offer (the default offer when ``None``).
    """
    games: list[GameOffer] = [
        {
            "id": info.id,
            "versioned_id": info.versioned_id,
            "name": info.name,
            "seats": [make(info.id).player_label(seat) for seat in range(2)],
            "grid": parts_of(info.id).grid is not None,
        }
        for info in list_games()
        if info.num_players == 2
    ]
    players: list[PlayerOffer] = [
        {
            "name": entry.name,
            "form": entry.form(),
            "description": entry.description,
            "needs_model": entry.needs_model,
            "games": entry.playable() or list(entry.games),
        }
        for entry in player_entries()
        if entry.name != "human"
    ]
    offered = (opponents or Opponents()).offered()
    return {"games": games, "players": players, "opponents": offered}


def grid_view(game: Game[GameState], state: object, legal: list[str]) -> GridView | None:
    """A clickable grid of a :data:`GRID_GAMES` game, or ``None``.

    Rows come top first as shown to people; each cell has its mark (``""`` when empty)
    and the legal move a click plays (``None`` for none). In Connect4 a click anywhere in
    a column plays that column's landing cell.
    """
    shape = parts_of(game).grid
    board = getattr(state, "board", None)
    if shape is None or not isinstance(board, str):
        return None
    rows, cols, bottom_up = shape.rows, shape.cols, shape.bottom_up
    by_cell: dict[tuple[int, int], str] = {}
    by_col: dict[int, str] = {}
    for action in legal:
        r, c = (int(x) for x in action.strip("()").split(","))
        by_cell[(r, c)] = action
        by_col[c] = action
    order = range(rows - 1, -1, -1) if bottom_up else range(rows)
    cells: list[list[GridCell]] = [
        [
            {
                "row": r,
                "col": c,
                "mark": "" if board[r * cols + c] in "_." else board[r * cols + c],
                "move": by_col.get(c) if bottom_up else by_cell.get((r, c)),
            }
            for c in range(cols)
        ]
        for r in order
    ]
    return {"rows": rows, "cols": cols, "cells": cells}


def agent_decision(trajectory: Sequence[Step], seat: int) -> AgentView | None:
    """The agent's latest decision in ``trajectory``: its move, raw answers and scores."""
    for step in reversed(trajectory):
        decision = (step.get("decisions") or {}).get(str(seat))
        if decision is None:
            continue
        raw: list[AttemptView] = [
            {
                "status": attempt.get("status"),
                "text": "\n".join(attempt.get("raw_outputs") or []),
                "feedback": attempt.get("feedback"),
            }
            for attempt in decision.get("attempts") or []
        ]
        said, scores = first_answers(decision)
        intermediate = {str(k): v for k, v in said.items()}
        answers: list[AnswerView] = [
            {
                "index": score["index"],
                "answer": intermediate.get(str(score["index"]), ""),
                "answered": bool(score.get("answered")),
                "parsed": score.get("parsed"),
                "truth": score.get("truth"),
                "correct": bool(score.get("correct")),
                "metric": score.get("metric"),
                "value": score.get("value"),
            }
            for score in scores
        ]
        return {
            "step": step.get("step"),
            "action": decision.get("action"),
            "status": decision.get("status"),
            "fallback": decision.get("fallback"),
            "attempts": raw,
            "answers": answers,
        }
    return None


def _actions(game: Game[GameState], trajectory: Sequence[Step]) -> list[str | dict[str, str]]:
    actions: list[str | dict[str, str]] = []
    for step in trajectory:
        joint = {str(k): str(v) for k, v in (step.get("actions") or {}).items()}
        if not game.simultaneous and len(joint) == 1:
            actions.append(next(iter(joint.values())))
        else:
            actions.append(dict(sorted(joint.items())))
    return actions


def _move_request(pending: PendingInterrupt | None) -> MoveRequest | None:
    """The human player's move request an episode waits on, if it waits on one."""
    value = pending["value"] if pending is not None else None
    return cast(MoveRequest, value) if isinstance(value, dict) else None


@dataclass
class Match:
    """One match of a person against an agent (use :meth:`MatchTable.new`)."""

    match_id: str
    game: Game[GameState]
    opponent: str
    human_seat: int
    seed: int
    players: list[Player]
    options: EpisodeOptions
    started_at: float = field(default_factory=time.time)
    touched: float = field(default_factory=time.monotonic)
    run: EpisodeOutput | None = None
    record: MatchLine | None = None
    replay: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def seats(self) -> list[str]:
        """The player spec of each seat (``human`` for the person)."""
        return ["human" if s == self.human_seat else self.opponent for s in range(2)]

    @property
    def trajectory(self) -> list[Step]:
        """The steps played so far."""
        return self.run["trajectory"] if self.run is not None else []

    async def step(self, resume: str | None = None) -> None:
        """Start the episode, or resume it with the person's move."""
        play = functools.partial(
            run_episode,
            self.game,
            self.players,
            options=self.options,
            thread_id=self.match_id,
            seed=self.seed,
        )
        if resume is None:
            self.run = await play()
        else:
            assert self.run is not None, "a match is resumed after it started"
            self.run = await play(resume=resume, checkpointer=self.run["checkpointer"])

    def session(self) -> GameSession:
        """The game as played so far."""
        return GameSession(
            self.game.versioned_id,
            seed=self.seed,
            actions=_actions(self.game, self.trajectory),
            **self.game.options_dict(),
        )

    def check_move(self, move: object) -> str:
        """The legal move ``move`` names, read with the game's reader.

        Raises:
            MatchError: The match is over (409), or the move names no legal move now
                (400, with the reason and the legal moves).
        """
        pending = _move_request(self.run.get("interrupt") if self.run is not None else None)
        if self.record is not None or pending is None:
            raise MatchError(f"match {self.match_id} is over; start a new one", status=409)
        state = self.session().state
        action, problem = read_human_move(self.game, state, self.human_seat, move)
        if action is None:
            legal = list(pending["legal_moves"])
            raise MatchError(
                f"{problem}; legal moves: {', '.join(legal)}", legal_moves=legal, move=move
            )
        return action

    def to_record(self, duration_s: float) -> MatchLine:
        """The finished match as a results record, in the arena's shape."""
        assert self.run is not None and self.run["result"] is not None, "a finished match"
        result = self.run["result"]
        return {
            "kind": "match",
            "source": "serve",
            "match_id": self.match_id,
            "game": self.game.versioned_id,
            "options": self.game.options_dict(),
            "seed": self.seed,
            "seats": self.seats,
            "human_seat": self.human_seat,
            "started_at": self.started_at,
            "status": result["status"],
            "result": {**result, "players": [{**seat} for seat in result["players"]]},
            "trajectory": self.trajectory,
            "duration_s": duration_s,
        }

    def view(self) -> MatchView:
        """What the page shows: board, legal moves, whose turn, the agent's last decision."""
        session = self.session()
        state = session.state
        pending = _move_request(self.run.get("interrupt") if self.run is not None else None)
        legal = list(pending["legal_moves"]) if pending else []
        agent_seat = 1 - self.human_seat
        view: MatchView = {
            "match_id": self.match_id,
            "game": self.game.versioned_id,
            "game_name": self.game.name,
            "seed": self.seed,
            "seats": [f"{self.game.player_label(s)} ({spec})" for s, spec in enumerate(self.seats)],
            "human_seat": self.human_seat,
            "turn": state.turn,
            "board": self.game.render(state),
            "grid": grid_view(self.game, state, legal),
            "legal_moves": legal,
            "to_move": [self.game.player_label(p) for p in self.game.current_players(state)],
            "your_turn": pending is not None,
            "prompt": pending["prompt"] if pending else None,
            "agent": agent_decision(self.trajectory, agent_seat),
            "finished": self.record is not None,
            "outcome": None,
            "replay": self.replay,
        }
        if self.record is not None:
            result = self.record["result"]
            view["outcome"] = outcome_text(self.record, self.game)
            view["winners"] = list(result.get("winners") or [])
            view["returns"] = list(result.get("returns") or [])
            view["status"] = result.get("status")
        return view


class MatchTable:
    """The server's matches by id: capped, idle ones expire, finished ones are recorded.

    All coroutines run on the server's one event loop.

    Args:
        out_dir: Folder of ``serve.jsonl`` and ``replays/``.
        models: Chat models, loaded once per model spec and shared by matches.
        max_matches: Matches held at once (a new one past the cap first drops expired
            ones, then is refused with 503).
        idle_s: A match untouched this long is dropped.
        options: Episode options (retries, fallback, step limit) of the agent's seat.
        opponents: The opponents a request may name (default: :class:`Opponents`' default
            offer, no model but the embedded one).
    """

    def __init__(
        self,
        out_dir: str | Path,
        *,
        models: ModelPool | None = None,
        max_matches: int = 16,
        idle_s: float = 1800.0,
        options: EpisodeOptions | None = None,
        opponents: Opponents | None = None,
    ) -> None:
        self.out_dir = Path(out_dir)
        self.opponents = opponents or Opponents()
        self.results = ResultsFile(self.out_dir / "serve.jsonl")
        self.replays = self.out_dir / "replays"
        self.models = models or ModelPool()
        self.max_matches = max_matches
        self.idle_s = idle_s
        self.options = options or EpisodeOptions()
        self.matches: dict[str, Match] = {}
        self._guard = threading.Lock()

    def expire(self, now: float | None = None) -> list[str]:
        """Drop matches idle longer than ``idle_s``; returns their ids."""
        now = time.monotonic() if now is None else now
        with self._guard:
            old = [k for k, m in self.matches.items() if now - m.touched > self.idle_s]
            for key in old:
                del self.matches[key]
        return old

    def get(self, match_id: str) -> Match:
        """The match ``match_id``, marked as used now.

        Raises:
            MatchError: No such match (404): never started, expired or dropped.
        """
        match = self.matches.get(match_id)
        if match is None:
            raise MatchError(
                f"no match {match_id!r} (never started, or dropped after {self.idle_s:g} s "
                "idle); start a new one",
                status=404,
            )
        match.touched = time.monotonic()
        return match

    async def new(self, request: Mapping[str, object]) -> Match:
        """Start a match from ``{"game", "opponent", "human_seat", "seed"}``.

        The episode runs until the person's first move (or to the end).

        Raises:
            MatchError: A field is missing or wrong (400), the opponent is not offered here
                (403), or the table is full (503).
        """
        game_id = request.get("game")
        opponent = request.get("opponent")
        if not isinstance(game_id, str) or not game_id:
            raise MatchError("'game' must be a game id, e.g. tictactoe")
        if not isinstance(opponent, str) or not opponent.strip():
            raise MatchError("'opponent' must be a player spec, e.g. minimax or gamebot:local")
        seat = request.get("human_seat", 0)
        seed = request.get("seed", 0)
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
            raise MatchError(f"'human_seat' must be 0 or 1, got {seat!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise MatchError(f"'seed' must be an integer, got {seed!r}")
        game = make(game_id)  # UnknownGameError is a ValueError: answered with 400
        if game.num_players != 2:
            raise MatchError(f"{game.id} has {game.num_players} seat(s); pick a two-player game")
        try:
            offered = self.opponents.choose(opponent.strip())
        except NotOffered as exc:
            raise MatchError(str(exc), status=403, opponents=self.opponents.offered()) from exc
        recipe = resolve(offered, self.models)
        agent = await asyncio.to_thread(recipe.build, game, seed=seed * 10 + 1 - seat)
        if isinstance(agent, SearchPlayer):  # bounded work, off the loop other matches use
            agent = InThread(within_budget(agent))
        if agent.interactive:
            raise MatchError(f"{opponent!r} asks a person too; pick an agent to play against")
        await asyncio.to_thread(check_models, [recipe])
        self.expire()
        with self._guard:
            if len(self.matches) >= self.max_matches:
                raise MatchError(
                    f"{self.max_matches} matches are open, the most this server holds; "
                    "finish one or wait until idle ones expire",
                    status=503,
                )
            match_id = f"serve-{secrets.token_hex(6)}"
            players: list[Player] = [HumanPlayer(), agent] if seat == 0 else [agent, HumanPlayer()]
            match = Match(
                match_id=match_id,
                game=game,
                opponent=offered,
                human_seat=seat,
                seed=seed,
                players=players,
                options=self.options,
            )
            self.matches[match_id] = match
        async with match.lock:
            await match.step()
            await self._finish(match)
        return match

    async def move(self, match_id: str, move: object) -> Match:
        """Play the person's move and run the agent until the person's next move.

        Raises:
            MatchError: No such match (404), it is over (409), or the move is refused (400).
        """
        match = self.get(match_id)
        async with match.lock:
            action = match.check_move(move)
            await match.step(resume=action)
            await self._finish(match)
        return match

    async def _finish(self, match: Match) -> None:
        if match.run is None or match.run["result"] is None or match.record is not None:
            return
        record = match.to_record(time.time() - match.started_at)
        await asyncio.to_thread(self.results.append, record)
        match.record = record
        match.replay = await asyncio.to_thread(self._write_replay, record)

    def _write_replay(self, record: MatchLine) -> str:
        self.replays.mkdir(parents=True, exist_ok=True)
        name = page_name(record)
        (self.replays / name).write_text(
            render_page(build_replay(record), index_href=None), encoding="utf-8"
        )
        return f"/replays/{name}"
