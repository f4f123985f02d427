"""Text views of Negotiation v2: GAMEBoT's pool, own values and history, and a summary."""

from __future__ import annotations

from langgraph_games.games.negotiation.rules import (
    AGREED,
    NO_DEAL,
    SEAT_NAMES,
    NegotiationState,
    Proposal,
)

__all__ = ["history_lines", "observation_text", "render_text"]


def _triple(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def history_lines(proposals: tuple[Proposal, ...]) -> list[str]:
    """``Round k PlayerN proposes: P1 [a, b, c], P2 [x, y, z]`` for every proposal."""
    return [
        f"Round {k} {SEAT_NAMES[(k - 1) % 2]} proposes: P1 {_triple(p[:3])}, P2 {_triple(p[3:])}"
        for k, p in enumerate(proposals, start=1)
    ]


def observation_text(state: NegotiationState, player: int, after_round: int, chance: float) -> str:
    """GAMEBoT's input for ``player``: the pool, its own values only, and every proposal."""
    lines = [
        f"You are {SEAT_NAMES[player]}.",
        f"Pool:    {_triple(state.pool)}",
        f"P{player + 1} values: {_triple(state.values[player])}",
        "Bargaining begins",
        *history_lines(state.proposals),
    ]
    if state.outcome == "open" and state.to_move == player:
        if state.proposals:
            task = f"agree to {SEAT_NAMES[1 - player]}'s latest proposal or make a new proposal"
        else:
            task = "make the first proposal"
        lines.append(f"Round {state.round}: your turn; {task}.")
        if state.round > after_round:
            lines.append(
                f"The game is past round {after_round}: before each further round it ends "
                f"without agreement with probability {chance:.0%}."
            )
    return "\n".join(lines)


def render_text(state: NegotiationState, returns: tuple[float, ...]) -> str:
    """Pool, both players' values, the history and the outcome."""
    lines = [
        f"Pool: {_triple(state.pool)}  P1 values: {_triple(state.values[0])}  "
        f"P2 values: {_triple(state.values[1])}",
        *history_lines(state.proposals),
    ]
    if state.outcome == AGREED:
        lines.append(f"Agreement: P1 {returns[0]:g}, P2 {returns[1]:g}")
    elif state.outcome == NO_DEAL:
        lines.append("The game ended without agreement: P1 0, P2 0")
    else:
        lines.append(f"Round {state.round}: {SEAT_NAMES[state.to_move]} to move")
    return "\n".join(lines)
