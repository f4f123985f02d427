"""Conformance checks every registered game must pass (``check_game``).

Run it over a third-party game before registering it::

    from langgraph_games.testing import check_game
    check_game("othello")          # raises ConformanceError listing every problem
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from langgraph_games.games.base import Game
from langgraph_games.games.errors import GameOverError, IllegalActionError
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.games.subproblems import AnswerKind

__all__ = ["ConformanceError", "ConformanceReport", "check_game", "playthrough"]


class ConformanceError(AssertionError):
    """A game broke the contract; the message lists every problem found."""


@dataclass
class ConformanceReport:
    """What :func:`check_game` examined."""

    game: str
    playouts: int = 0
    steps: int = 0
    problems: list[str] = field(default_factory=list)
    truth_seen: set[int] = field(default_factory=set)

    def fail(self, problem: str) -> None:
        """Record a problem (at most 20 are kept)."""
        if len(self.problems) < 20:
            self.problems.append(problem)


_KIND_TYPES: dict[AnswerKind, tuple[type, ...]] = {
    AnswerKind.SET: (frozenset,),
    AnswerKind.BOOL: (bool,),
    AnswerKind.NUMBER: (int, float),
    AnswerKind.LABEL: (str,),
    AnswerKind.MAPPING: (tuple,),
}


def check_game(
    game: Game[GameState] | str,
    *,
    seeds: Iterable[int] = range(5),
    max_steps: int = 5000,
    truth_every: int = 1,
) -> ConformanceReport:
    """Play seeded random games and check the game contract at every step.

    Checks: random play-outs end; acting players exist exactly until the end; legal
    actions are sorted, unique, non-empty strings that ``is_legal`` and ``parse_action``
    accept; illegal, out-of-turn and after-the-end actions raise ``IllegalActionError``;
    states round-trip through JSON; the same seed and actions rebuild the same states;
    returns have one entry per player; observations are text; ground truth (of the state
    and of the chosen action) answers only declared subproblems, each with an answer of
    its declared kind, and every declared subproblem is answered in some state of the
    play-outs (a subproblem that is not asked in a state is left out there).

    Args:
        game: An engine or a registered id.
        seeds: Seeds of the random play-outs (each also seeds the move choices).
        max_steps: A play-out longer than this is reported as not ending.
        truth_every: Check ground truth on every n-th state (1 = all).

    Returns:
        The report (with no problems).

    Raises:
        ConformanceError: At least one problem was found; all are listed.
    """
    engine = make(game) if isinstance(game, str) else game
    report = ConformanceReport(game=engine.versioned_id)
    _check_metadata(engine, report)
    for seed in seeds:
        _playout(engine, seed, max_steps, truth_every, report)
        report.playouts += 1
    for sub in engine.subproblems:
        if sub.index not in report.truth_seen:
            report.fail(
                f"subproblem {sub.index} never had a ground truth in {report.playouts} play-outs"
            )
    if report.problems:
        raise ConformanceError(
            f"{engine.versioned_id} breaks the game contract:\n- " + "\n- ".join(report.problems)
        )
    return report


def _check_metadata(game: Game[GameState], report: ConformanceReport) -> None:
    if not game.player_names:
        report.fail("player_names is empty")
    indices = [s.index for s in game.subproblems]
    if len(set(indices)) != len(indices):
        report.fail(f"subproblem indices repeat: {indices}")
    if not game.description:
        report.fail("description is empty")


def _check_state(
    game: Game[GameState], state: GameState, where: str, report: ConformanceReport
) -> None:
    try:
        again = game.state_from_json(game.state_to_json(state))
    except Exception as exc:  # noqa: BLE001 - any failure is a contract breach to report
        report.fail(f"{where}: state does not round-trip through JSON ({exc})")
        return
    if again != state:
        report.fail(f"{where}: state changed after a JSON round-trip")


def _check_step(
    game: Game[GameState], session: GameSession, where: str, report: ConformanceReport
) -> None:
    state = session.state
    acting = game.current_players(state)
    if game.is_terminal(state) == bool(acting):
        report.fail(f"{where}: acting players {acting} but terminal={game.is_terminal(state)}")
    if len(game.returns(state)) != game.num_players:
        report.fail(f"{where}: returns has {len(game.returns(state))} entries")
    if not all(math.isfinite(r) for r in game.returns(state)):
        report.fail(f"{where}: returns are not finite")
    for player in range(game.num_players):
        legal = game.legal_actions(state, player)
        if player not in acting:
            if legal:
                report.fail(f"{where}: player {player} is not acting but has legal actions")
            continue
        if not legal:
            report.fail(f"{where}: acting player {player} has no legal action")
        if list(legal) != sorted(set(legal)):
            report.fail(f"{where}: legal actions are not sorted and unique: {legal[:8]}")
        if not all(isinstance(a, str) and a for a in legal):
            report.fail(f"{where}: legal actions must be non-empty strings")
        for action in legal:
            if not game.is_legal(state, player, action):
                report.fail(f"{where}: is_legal rejects legal action {action!r}")
            if game.parse_action(state, player, action) != action:
                report.fail(f"{where}: parse_action does not read back {action!r}")
        if not isinstance(game.observation(state, player), str):
            report.fail(f"{where}: observation of player {player} is not text")
        bogus = "\u2400not-a-move"
        if game.is_legal(state, player, bogus):
            report.fail(f"{where}: is_legal accepts {bogus!r}")
        try:
            game.apply(state, {player: bogus})
            report.fail(f"{where}: applying {bogus!r} did not raise")
        except IllegalActionError as exc:
            if legal and legal[0] not in str(exc):
                report.fail(f"{where}: IllegalActionError does not list the legal moves")
    idle = [p for p in range(game.num_players) if p not in acting]
    if acting and idle and not game.simultaneous:
        action = game.legal_actions(state, acting[0])[0]
        try:
            game.apply(state, {idle[0]: action})
            report.fail(f"{where}: player {idle[0]} could act out of turn")
        except IllegalActionError:
            pass


def _check_truth(
    game: Game[GameState],
    state: GameState,
    joint: dict[int, str],
    where: str,
    report: ConformanceReport,
) -> None:
    """Truth answers only declared subproblems, each of its kind (absent = not asked)."""
    kinds = {sub.index: sub.kind for sub in game.subproblems}
    for player in game.current_players(state):
        truth = dict(game.ground_truth(state, player))
        by_action = game.action_ground_truth(state, player, joint[player])
        both = set(truth) & set(by_action)
        if both:
            report.fail(f"{where}: subproblems {sorted(both)} have state and action truths")
        truth.update(by_action)
        for index, answer in truth.items():
            if index not in kinds:
                report.fail(f"{where}: ground truth answers undeclared subproblem {index}")
                continue
            report.truth_seen.add(index)
            if not isinstance(answer, _KIND_TYPES[kinds[index]]):
                report.fail(
                    f"{where}: subproblem {index} truth {answer!r} is not a {kinds[index].value}"
                )


def _playout(
    game: Game[GameState], seed: int, max_steps: int, truth_every: int, report: ConformanceReport
) -> None:
    rng = random.Random(f"conformance:{seed}")
    session = GameSession(game, seed=seed)
    if session.state != game.initial_state(seed):
        report.fail(f"seed {seed}: initial_state is not deterministic")
    while not session.done:
        where = f"seed {seed} step {len(session.actions)}"
        _check_state(game, session.state, where, report)
        _check_step(game, session, where, report)
        if len(session.actions) >= max_steps:
            report.fail(f"seed {seed}: no end after {max_steps} steps of random play")
            return
        joint = {p: rng.choice(session.legal_actions(p)) for p in session.current_players}
        if game.subproblems and len(session.actions) % truth_every == 0:
            _check_truth(game, session.state, joint, where, report)
        session.step(joint)
        report.steps += 1
    where = f"seed {seed} end"
    _check_state(game, session.state, where, report)
    _check_step(game, session, where, report)
    try:
        game.apply(session.state, {0: "anything"})
        report.fail(f"{where}: an action after the end did not raise")
    except GameOverError:
        pass
    except IllegalActionError:
        report.fail(f"{where}: an action after the end must raise GameOverError")
    record = json.loads(json.dumps(session.to_dict()))
    rebuilt = GameSession(game, seed=record["seed"], actions=record["actions"])
    if rebuilt.states != session.states:
        report.fail(f"seed {seed}: replaying (game, options, seed, actions) gives other states")


def playthrough(game: Game[GameState] | str, seed: int = 0, max_steps: int = 400) -> str:
    """A seeded random game written out step by step, for golden-file tests.

    Each step shows the acting players' observations, the actions chosen (by a
    ``random.Random`` seeded from ``seed``), the events, and at the end the returns.
    """
    engine = make(game) if isinstance(game, str) else game
    rng = random.Random(f"playthrough:{seed}")
    session = GameSession(engine, seed=seed)
    lines = [f"# {engine.versioned_id} seed={seed} options={engine.options_dict()}"]
    while not session.done and len(session.actions) < max_steps:
        lines.append(f"\n## step {len(session.actions)}")
        joint = {}
        for player in session.current_players:
            lines.append(f"### observation of player {player} ({engine.player_label(player)})")
            lines.append(session.observe(player))
            if engine.subproblems:
                truth = engine.ground_truth(session.state, player)
                lines.append(f"### ground truth {_truth_json(truth)}")
            joint[player] = rng.choice(session.legal_actions(player))
            if engine.subproblems:
                by_action = engine.action_ground_truth(session.state, player, joint[player])
                if by_action:
                    lines.append(f"### ground truth of the action {_truth_json(by_action)}")
        events = session.step(joint)
        lines.append(f"### actions {json.dumps({str(p): a for p, a in joint.items()})}")
        lines.append(f"### events {json.dumps(events, sort_keys=True)}")
    lines.append("\n## end")
    lines.append(session.render())
    lines.append(f"returns {list(session.returns)}")
    return "\n".join(lines) + "\n"


def _truth_json(truth: Mapping[int, object]) -> str:
    shown = {k: sorted(v) if isinstance(v, frozenset) else v for k, v in truth.items()}
    return json.dumps(shown, sort_keys=True)
