"""A GAMEBoT decision's work as plain calls, for the baselines that do it by hand."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from langgraph_games.games import GameSession
from langgraph_games.graphs.gamebot.graph import parse_gamebot_reply, score_intermediate


def read_and_play(session: GameSession, seat: int, text: str) -> None:
    """Read ``seat``'s reply, score it against the ground truth, and play its move.

    The first legal move is played when the reply names none (or an illegal one).
    """
    decision = parse_gamebot_reply(session.game, session.state, seat, text)
    decision.scores = score_intermediate(
        session.game, session.state, seat, decision.intermediate, decision.action
    )
    action = decision.action
    if action is None or not session.game.is_legal(session.state, seat, action):
        action = session.legal_actions(seat)[0]
    session.step(action, seat)


def ask_play_loop(schema: type[Any], ask: Any, play: Any) -> Any:
    """The minimal two-node LangGraph loop: ``ask``, then ``play``, until ``play`` sets ``done``.

    ``schema`` is the graph's state (a ``TypedDict`` with a ``done`` key); ``ask`` and
    ``play`` are its two nodes. Returns the compiled graph.
    """

    def route(state: Any) -> str:
        return END if state.get("done") else "ask"

    builder = StateGraph(schema)
    builder.add_node("ask", ask)
    builder.add_node("play", play)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", "play")
    builder.add_conditional_edges("play", route)
    return builder.compile()
