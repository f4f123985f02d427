"""Texas Hold'em ground truth (GAMEBoT Appendix B): pre-flop odds and the made hand's rank."""

from __future__ import annotations

from langgraph_games.games.subproblems import Answer
from langgraph_games.games.texas_holdem.cards import RANKS, evaluate, hand_rank, rank_of, suit_of
from langgraph_games.games.texas_holdem.rules import TexasState

__all__ = ["PREFLOP_WIN_PERCENT", "hand_class", "preflop_percent", "texas_truth"]

_TABLE = (
    "AA:84.9 KK:82.1 QQ:79.6 JJ:77.1 TT:74.7 99:71.7 88:68.7 77:65.7 66:62.7 55:59.6 "
    "44:56.3 33:52.9 22:49.3 AKs:66.2 AKo:64.5 AK:64.9 AQ:64.0 AJ:63.0 AT:62.0 A9:60.0 "
    "A8:58.9 A7:57.7 A6:56.4 A5:56.3 A4:55.3 A3:54.5 A2:53.6 KQs:62.4 KQo:60.5 KQ:60.9 "
    "KJ:59.9 KT:59.0 K9:57.0 K8:55.0 K7:54.0 K6:52.9 K5:51.9 K4:50.9 K3:50.3 K2:49.1 "
    "QJs:59.1 QJo:57.0 QJ:57.4 QT:56.5 Q9:54.5 Q8:52.6 Q7:50.5 Q6:49.7 Q5:48.6 Q4:47.7 "
    "Q3:46.8 Q2:45.9 JTs:56.2 JTo:53.8 JT:54.4 J9:52.3 J8:50.4 J7:48.4 J6:46.4 J5:45.6 "
    "J4:44.6 J3:43.8 J2:42.8 T9s:52.4 T9o:49.8 T9:50.5 T8:48.5 T7:46.5 T6:44.6 T5:42.6 "
    "T4:41.8 T3:40.9 T2:40.1 98s:48.9 98o:46.1 98:46.8 97:44.8 96:42.9 95:40.9 94:38.9 "
    "93:38.3 92:37.4 87s:45.7 87o:42.7 87:43.4 86:41.5 85:39.6 84:37.5 83:35.6 82:35.0 "
    "76s:42.9 76o:39.7 76:40.4 75:38.5 74:36.5 73:34.6 72:32.6 72o:31.7 65s:40.3 65o:37.0 "
    "65:37.8 64:35.9 63:34.0 62:32.0 54s:38.5 54o:35.1 54:36.0 53:34.0 52:32.1 43s:35.7 "
    "43o:32.1 43:33.0 42:31.1 32s:33.1 32o:29.3 32:30.2"
)
PREFLOP_WIN_PERCENT: dict[str, float] = {
    key: float(value) for key, value in (item.split(":") for item in _TABLE.split())
}
"""The pre-flop winning probabilities (in %) listed in GAMEBoT's Texas Hold'em prompt."""


def hand_class(cards: tuple[int, int]) -> str:
    """The table key of two private cards: ``"AA"``, ``"AKs"``, ``"72o"`` or ``"K9"``.

    Suited/offsuit keys are used where the table has them; otherwise the plain key.

    Example:
        >>> from langgraph_games.games.texas_holdem.cards import parse_card
        >>> hand_class((parse_card("3d"), parse_card("4d")))  # the prompt's example
        '43s'
    """
    high, low = sorted(cards, key=rank_of, reverse=True)
    key = RANKS[rank_of(high)] + RANKS[rank_of(low)]
    if rank_of(high) == rank_of(low):
        return key
    specific = key + ("s" if suit_of(high) == suit_of(low) else "o")
    return specific if specific in PREFLOP_WIN_PERCENT else key


def preflop_percent(cards: tuple[int, int]) -> float:
    """The table's winning probability (in %) of two private cards."""
    return PREFLOP_WIN_PERCENT[hand_class(cards)]


def texas_truth(state: TexasState, player: int) -> dict[int, Answer]:
    """Pre-flop: the table's odds (1). Flop, turn, river: the best hand's rank 1-10 (2)."""
    hole = state.holes[player]
    if state.street == 0:
        return {1: preflop_percent(hole)}
    return {2: hand_rank(evaluate((*hole, *state.revealed)))}
