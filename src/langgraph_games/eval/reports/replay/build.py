"""From a results record to the data of its replay page: one frame per state, decisions beside.

Frame ``k`` shows the state after ``k`` moves together with the decision taken *at* that
state (what the model saw, its reasoning, its intermediate answers scored against the
ground truth of that very board, the action, rejected attempts with their feedback,
tokens and latency). The last frame shows the final state and the outcome; a forfeit
adds the forfeiting decision to it. States are rebuilt from ``result.record`` with
:meth:`GameSession.from_dict`, so a replay shows exactly what the engine played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph_games.eval.running.records import ResultsLine, is_failed
from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import PaletteTable, draw, draw_fallback, drawer_for
from langgraph_games.games.session import GameSession
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.records import DecisionRecord, Step, first_answers

__all__ = ["build_replay", "outcome_text", "record_id", "seat_names"]


def record_id(record: ResultsLine) -> str:
    """The id of a match or episode record (``match_id`` or ``episode_id``; ``""`` if none).

    Ids are optional in every line type: hand-made files may have none.
    """
    if record["kind"] == "round":
        return record.get("id", "")
    if record["kind"] == "match":
        return record.get("match_id", "")
    return record.get("episode_id") or ("" if is_failed(record) else record.get("id", ""))


def seat_names(record: ResultsLine, game: Game[GameState] | None) -> list[str]:
    """``"X (minimax)"`` per seat (just the player spec when the game is unknown)."""
    seats = [] if record["kind"] == "round" else record.get("seats", [])
    if game is None:
        return seats
    return [f"{game.player_label(i)} ({spec})" for i, spec in enumerate(seats)]


def outcome_text(record: ResultsLine, game: Game[GameState] | None) -> str:
    """One line: who won, or the score and status of a single-agent episode."""
    if record["kind"] == "round":
        return f"round {record['round']}"
    if is_failed(record):
        return f"error: {record.get('error', 'unknown')}"
    result = record["result"]
    returns = [float(r) for r in result["returns"]]
    names = seat_names(record, game)
    # The result's status is optional in hand-made lines; the line's own may stand in.
    status = str(result.get("status") or record.get("status") or "")
    if len(returns) == 1:
        # Public: also given episode lines built by hand from run_episode, without metrics.
        metrics = record.get("metrics", {}) if record["kind"] == "episode" else {}
        extra = ""
        for key in ("outcome", "status", "success", "win"):
            if key in metrics:
                extra = f", {key} {metrics[key]}"
                break
        return f"{status}: return {returns[0]:g} after {result.get('steps', '?')} steps{extra}"
    winners = result.get("winners", [])
    loser = result.get("forfeit")
    if status == "forfeit" and loser is not None:
        who = names[loser] if loser < len(names) else f"seat {loser}"
        return f"forfeit by {who}; returns {', '.join(f'{r:g}' for r in returns)}"
    if winners:
        who = " and ".join(names[w] if w < len(names) else f"seat {w}" for w in winners)
        return f"{who} wins ({status}, {result.get('steps', '?')} moves)"
    return f"draw ({status}, {result.get('steps', '?')} moves)"


def _answers(game: Game[GameState], decision: DecisionRecord) -> list[dict[str, Any]]:
    subs = {s.index: s for s in game.subproblems}
    said, scores = first_answers(decision)
    raw = {str(k): v for k, v in said.items()}
    answers = []
    seen = set()
    for score in scores:
        index = int(score["index"])
        seen.add(index)
        sub = subs.get(index)
        answers.append(
            {
                "index": index,
                "name": sub.name if sub else f"subproblem {index}",
                "question": sub.question if sub else "",
                "answer": raw.get(str(index), ""),
                "answered": bool(score.get("answered")),
                "parsed": score.get("parsed"),
                "truth": score.get("truth"),
                "correct": bool(score.get("correct")),
                "value": score.get("value"),
                "metric": score.get("metric", ""),
                "scored": bool(score.get("scored", sub.scored if sub else True)),
            }
        )
    for key, text in sorted(raw.items()):  # answers that were not scored (no ground truth)
        if key.isdigit() and int(key) not in seen:
            sub = subs.get(int(key))
            answers.append(
                {
                    "index": int(key),
                    "name": sub.name if sub else f"subproblem {key}",
                    "question": sub.question if sub else "",
                    "answer": text,
                    "answered": True,
                    "parsed": None,
                    "truth": None,
                    "correct": None,
                    "value": None,
                    "metric": "",
                    "scored": False,
                }
            )
    return answers


def _decision(
    game: Game[GameState],
    seat: int,
    decision: DecisionRecord,
    players: Sequence[str],
    observation: str,
) -> dict[str, Any]:
    attempts = [
        {
            "status": a["status"],
            "action": a["action"],
            "raw": list(a["raw_outputs"]),
            "feedback": a.get("feedback"),  # only rejected attempts have feedback
            "info": a["info"],
        }
        for a in decision["attempts"]
    ]
    return {
        "seat": seat,
        "label": game.player_label(seat) if seat < game.num_players else f"seat {seat}",
        "player": players[seat] if seat < len(players) else "",
        "action": decision["action"],
        "status": decision["status"],
        "fallback": decision["fallback"],
        "forfeit": decision["forfeit"],
        "attempts": attempts,
        "answers": _answers(game, decision),
        "usage": {k: v for k, v in decision["usage"].items() if isinstance(v, int)},
        "latency": float(decision["latency_s"]),
        "observation": observation,
    }


def _moved(session: GameSession, index: int) -> str:
    if index == 0:
        return "start"
    joint = session.actions[index - 1]
    return "; ".join(f"{session.game.player_label(p)} played {a}" for p, a in sorted(joint.items()))


def build_replay(record: ResultsLine) -> dict[str, Any]:
    """The page data of one finished record (``kind`` ``match`` or ``episode``).

    Raises:
        ValueError: The record has no ``result.record`` to replay (e.g. it ended in an error).
        GameError: The game is not registered or the actions do not replay.
    """
    if record["kind"] == "round" or is_failed(record) or "record" not in record["result"]:
        raise ValueError(f"record {record_id(record)} has no game record to replay")
    result = record["result"]
    session = GameSession.from_dict(result["record"])
    game = session.game
    players = record.get("seats", [])
    by_step: dict[int, Step] = {}
    for entry in record.get("trajectory", []):  # hand-made lines may have no trajectory
        by_step.setdefault(entry["step"], entry)
    palettes = PaletteTable()
    with_drawing = drawer_for(game.id) is not draw_fallback
    steps = []
    for index, state in enumerate(session.states):
        at = by_step.get(index)
        observations = {} if at is None else at["observations"]
        decisions = [
            _decision(game, int(seat), d, players, str(observations.get(str(seat), "")))
            for seat, d in sorted(
                ({} if at is None else at["decisions"]).items(), key=lambda kv: int(kv[0])
            )
        ]
        acting = game.current_players(state)
        step: dict[str, Any] = {
            "index": index,
            "moved": _moved(session, index),
            "toMove": ", ".join(game.player_label(p) for p in acting) if acting else "",
            "panels": [palettes.panel_json(p) for p in draw(game, state)],
            "decisions": decisions,
            "events": list(session.events[index - 1]) if index else [],
        }
        if with_drawing:
            step["render"] = game.render(state)
        steps.append(step)
    names = seat_names(record, game)
    return {
        "id": record_id(record),
        "kind": record["kind"],
        "game": game.versioned_id,
        "gameName": game.name,
        "options": game.options_dict(),
        "seed": session.seed,
        "seats": names,
        "label": record.get("label", "") if record["kind"] == "episode" else "",
        "status": result.get("status", ""),
        "outcome": outcome_text(record, game),
        "returns": list(result["returns"]),
        "metrics": dict(record.get("metrics", {})) if record["kind"] == "episode" else {},
        "subproblems": [
            {"index": s.index, "name": s.name, "question": s.question, "scored": s.scored}
            for s in game.subproblems
        ],
        "palettes": palettes.data,
        "steps": steps,
    }
