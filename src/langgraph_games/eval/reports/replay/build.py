"""From a results record to the data of its replay page: one frame per state, decisions beside.

Frame ``k`` shows the state after ``k`` moves together with the decision taken *at* that
state (what the model saw, its reasoning, its intermediate answers scored against the
ground truth of that very board, the action, rejected attempts with their feedback,
tokens and latency). The last frame shows the final state and the outcome; a forfeit
adds the forfeiting decision to it. States are rebuilt from ``result.record`` with
:meth:`GameSession.from_dict`, so a replay shows exactly what the engine played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langgraph_games.games.base import Game
from langgraph_games.games.replay_frames import PaletteTable, draw, draw_fallback, drawer_for
from langgraph_games.games.session import GameSession

__all__ = ["build_replay", "outcome_text", "record_id", "seat_names"]


def record_id(record: Mapping[str, Any]) -> str:
    """The id of a match or episode record (``match_id`` or ``episode_id``)."""
    return str(record.get("match_id") or record.get("episode_id") or record.get("id") or "")


def seat_names(record: Mapping[str, Any], game: Game[Any] | None) -> list[str]:
    """``"X (minimax)"`` per seat (just the player spec when the game is unknown)."""
    seats = [str(s) for s in record.get("seats") or []]
    if game is None:
        return seats
    return [f"{game.player_label(i)} ({spec})" for i, spec in enumerate(seats)]


def outcome_text(record: Mapping[str, Any], game: Game[Any] | None) -> str:
    """One line: who won, or the score and status of a single-agent episode."""
    if record.get("status") == "error":
        return f"error: {record.get('error', 'unknown')}"
    result = record.get("result") or {}
    returns = [float(r) for r in result.get("returns") or []]
    names = seat_names(record, game)
    status = str(result.get("status") or record.get("status") or "")
    if len(returns) == 1:
        metrics = record.get("metrics") or {}
        extra = ""
        for key in ("outcome", "status", "success", "win"):
            if key in metrics:
                extra = f", {key} {metrics[key]}"
                break
        return f"{status}: return {returns[0]:g} after {result.get('steps', '?')} steps{extra}"
    winners = [int(w) for w in result.get("winners") or []]
    if status == "forfeit" and result.get("forfeit") is not None:
        loser = int(result["forfeit"])
        who = names[loser] if loser < len(names) else f"seat {loser}"
        return f"forfeit by {who}; returns {', '.join(f'{r:g}' for r in returns)}"
    if winners:
        who = " and ".join(names[w] if w < len(names) else f"seat {w}" for w in winners)
        return f"{who} wins ({status}, {result.get('steps', '?')} moves)"
    return f"draw ({status}, {result.get('steps', '?')} moves)"


def _answers(game: Game[Any], decision: Mapping[str, Any]) -> list[dict[str, Any]]:
    subs = {s.index: s for s in game.subproblems}
    raw = {str(k): v for k, v in (decision.get("intermediate") or {}).items()}
    answers = []
    seen = set()
    for score in decision.get("scores") or []:
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
    game: Game[Any],
    seat: int,
    decision: Mapping[str, Any],
    players: Sequence[str],
    observation: str,
) -> dict[str, Any]:
    attempts = [
        {
            "status": str(a.get("status", "")),
            "action": a.get("action"),
            "raw": [str(x) for x in a.get("raw_outputs") or []],
            "feedback": a.get("feedback"),
            "info": a.get("info") or {},
        }
        for a in decision.get("attempts") or []
    ]
    return {
        "seat": seat,
        "label": game.player_label(seat) if seat < game.num_players else f"seat {seat}",
        "player": players[seat] if seat < len(players) else "",
        "action": decision.get("action"),
        "status": str(decision.get("status", "")),
        "fallback": decision.get("fallback"),
        "forfeit": bool(decision.get("forfeit")),
        "attempts": attempts,
        "answers": _answers(game, decision),
        "usage": {k: v for k, v in (decision.get("usage") or {}).items() if isinstance(v, int)},
        "latency": float(decision.get("latency_s") or 0.0),
        "observation": observation,
    }


def _moved(session: GameSession, index: int) -> str:
    if index == 0:
        return "start"
    joint = session.actions[index - 1]
    return "; ".join(f"{session.game.player_label(p)} played {a}" for p, a in sorted(joint.items()))


def build_replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The page data of one finished record (``kind`` ``match`` or ``episode``).

    Raises:
        ValueError: The record has no ``result.record`` to replay (e.g. it ended in an error).
        GameError: The game is not registered or the actions do not replay.
    """
    result = record.get("result") or {}
    if "record" not in result:
        raise ValueError(f"record {record_id(record)} has no game record to replay")
    session = GameSession.from_dict(result["record"])
    game = session.game
    players = [str(s) for s in record.get("seats") or []]
    by_step: dict[int, Mapping[str, Any]] = {}
    for entry in record.get("trajectory") or []:
        by_step.setdefault(int(entry.get("step", len(by_step))), entry)
    palettes = PaletteTable()
    with_drawing = drawer_for(game.id) is not draw_fallback
    steps = []
    for index, state in enumerate(session.states):
        entry = by_step.get(index, {})
        observations = entry.get("observations") or {}
        decisions = [
            _decision(game, int(seat), d, players, str(observations.get(str(seat), "")))
            for seat, d in sorted((entry.get("decisions") or {}).items(), key=lambda kv: int(kv[0]))
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
        "kind": str(record.get("kind", "")),
        "game": game.versioned_id,
        "gameName": game.name,
        "options": game.options_dict(),
        "seed": session.seed,
        "seats": names,
        "label": str(record.get("label") or ""),
        "status": str(result.get("status", "")),
        "outcome": outcome_text(record, game),
        "returns": list(result.get("returns") or []),
        "metrics": dict(record.get("metrics") or {}),
        "subproblems": [
            {"index": s.index, "name": s.name, "question": s.question, "scored": s.scored}
            for s in game.subproblems
        ],
        "palettes": palettes.data,
        "steps": steps,
    }
