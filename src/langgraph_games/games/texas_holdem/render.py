"""Text views of Texas Hold'em: GAMEBoT's state text for one seat, and a full picture."""

from __future__ import annotations

from langgraph_games.games.texas_holdem.cards import card_code, card_name
from langgraph_games.games.texas_holdem.rules import STREETS, PostflopOrder, TexasState, to_call

__all__ = ["observation_text", "render_text"]


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _cards(cards: tuple[int, ...]) -> str:
    return "[" + ", ".join(card_name(c) for c in cards) + "]"


def observation_text(
    state: TexasState,
    player: int,
    legal: tuple[str, ...],
    hand_limit: int,
    postflop_order: PostflopOrder = "gamebot",
) -> str:
    """What ``player`` sees: its own cards only, the board, the chips and its actions.

    ``postflop_order`` says who acts first after the flop (see :class:`.rules.MatchRules`).
    """
    other = 1 - player
    if postflop_order == "gamebot":
        seat = (
            "You are on the button: you posted the small blind and act first in every round."
            if state.button == player
            else "Your opponent is on the button and acts first in every round; you posted "
            "the big blind."
        )
    elif state.button == player:
        seat = "You are on the button: you posted the small blind and act first before the flop."
    else:
        seat = (
            "Your opponent is on the button: you posted the big blind and act first after the flop."
        )
    lines = [
        f"Hand {state.hand} of at most {hand_limit}. {seat}",
        f"Current round is {STREETS[state.street]}",
        f"The cards in your hand are {_cards(state.holes[player])}",
        f"The community cards are {_cards(state.revealed)}",
        f"You now have {_chips(state.stacks[player])}. You have put "
        f"{_chips(state.committed[player])} in the pot. Your opponent has put "
        f"{_chips(state.committed[other])} in the pot and has {_chips(state.stacks[other])} left.",
    ]
    if legal:
        owed = to_call(state, player)
        cost = f"calling costs {min(owed, state.stacks[player])}" if owed else "you can check"
        lines.append(f"The pot holds {_chips(state.pot)}; {cost}.")
        lines.append(f"You can choose one of the following actions: [{', '.join(legal)}]")
    return "\n".join(lines)


def render_text(state: TexasState) -> str:
    """Both hands, the board, the chips and who acts (for people, not players)."""
    holes = [" ".join(card_code(c) for c in state.holes[p]) for p in (0, 1)]
    board = " ".join(card_code(c) for c in state.revealed) or "-"
    acting = "match over" if state.over else f"seat {state.to_act} to act"
    return (
        f"Hand {state.hand} ({STREETS[state.street]}), button: seat {state.button}; {acting}\n"
        f"Board: {board}\n"
        f"Seat 0: {holes[0]}  behind {state.stacks[0]}  in pot {state.committed[0]}\n"
        f"Seat 1: {holes[1]}  behind {state.stacks[1]}  in pot {state.committed[1]}"
    )
