"""Seven-card hand evaluations per second: ours against rlcard, same hands, same run.

Usage: python benchmarks/hand_evaluator.py [--hands 50000]

Times ``texas_holdem.cards.evaluate`` plus ``hand_rank`` (GAMEBoT's 1-10 ranking) on
random seven-card hands, and rlcard's ``Hand.evaluateHand`` (the evaluator behind the
PettingZoo environment GAMEBoT used) on the same hands, converted to its card strings
beforehand. OpenSpiel's ``universal_poker`` (C++ ACPC evaluator) has no direct entry
point, so it is timed through full check-down showdowns (two hands each), which include
its game overhead. Ratios are ours / reference.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import machine, table
from langgraph_games.games.texas_holdem.cards import card_code, evaluate, hand_rank

SPIEL_PARAMS = {
    "betting": "nolimit",
    "numPlayers": 2,
    "numRounds": 4,
    "blind": "1 2",
    "firstPlayer": "1 1 1 1",
    "numSuits": 4,
    "numRanks": 13,
    "numHoleCards": 2,
    "numBoardCards": "0 3 1 1",
    "stack": "100 100",
}


def timed(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return len(items) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000, help="seven-card hands to time")
    args = parser.parse_args()
    rng = random.Random(0)
    hands = [rng.sample(range(52), 7) for _ in range(args.hands)]

    ours = timed(lambda h: hand_rank(evaluate(h)), hands)

    from rlcard.games.limitholdem.utils import Hand

    strings = [[card_code(c)[1].upper() + card_code(c)[0] for c in h] for h in hands]
    reference = timed(lambda s: Hand(s).evaluateHand(), strings)

    import pyspiel

    game = pyspiel.load_game("universal_poker", SPIEL_PARAMS)
    deals = [rng.sample(range(52), 9) for _ in range(args.hands // 2)]

    def showdown(dealt: list[int]) -> None:
        state = game.new_initial_state()
        k = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dealt[k])
                k += 1
            else:
                state.apply_action(1)

    spiel = 2 * timed(showdown, deals)
    rows = [
        ["ours (evaluate + hand_rank)", f"{ours:,.0f}", "1.00"],
        ["rlcard Hand.evaluateHand", f"{reference:,.0f}", f"{ours / reference:.2f}"],
        ["OpenSpiel universal_poker showdowns", f"{spiel:,.0f}", f"{ours / spiel:.2f}"],
    ]
    print(f"Seven-card hands evaluated per second ({machine()}, {args.hands:,} hands)\n")
    print(table(["evaluator", "hands/s", "ours/this"], rows))


if __name__ == "__main__":
    main()
