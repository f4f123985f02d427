"""GAMEBoT prompt for Texas Hold'em, in our own words (structure of paper Appendix H.7).

The pre-flop table is GAMEBoT's data, kept number for number because subproblem 1 is
scored against it (``games.texas_holdem.truth.PREFLOP_WIN_PERCENT``).
"""

from langgraph_games.games.texas_holdem.truth import PREFLOP_WIN_PERCENT

ROLE = "You are a strong poker player, playing heads-up no-limit Texas Hold'em."

FINAL_LABEL = "Chosen Action"

ANSWER_FORMAT = "Chosen Action: <Fold, Check and Call, Raise Half Pot, Raise Full Pot or All in>"

_TABLE = ", ".join(f"{key}:{value:.1f}%" for key, value in PREFLOP_WIN_PERCENT.items())

RULES = """\
1. Each player holds two private cards, and up to five community cards are shared by both.
2. Both players start the match with 100 chips. Whoever has more chips at the end wins; a \
player who runs out of chips loses the match.
3. A hand has four betting rounds: pre-flop, flop, turn and river. Three community cards \
are dealt at the flop, then one at the turn and one at the river.
4. When it is your turn you choose one of five actions:
  - Fold: give up the hand; you put in no more chips and lose what you already put in.
  - Check and Call: if both players have put in the same amount, pass without betting \
(check); otherwise put in exactly what makes your chips in the pot equal to your \
opponent's (call).
  - Raise Half Pot: put in chips equal to half of the current pot.
  - Raise Full Pot: put in chips equal to the whole current pot.
  - All in: put in every chip you have left.
5. If nobody folds, the player with the better five-card hand, made from their two cards \
and the community cards, takes the pot.
6. Hand ranks, strongest first:
  - Rank 1 - Royal Flush: A, K, Q, J and 10, all of one suit.
  - Rank 2 - Straight Flush: five cards in sequence, all of one suit; the higher top card \
wins.
  - Rank 3 - Four of a Kind: four cards of one rank; a higher rank wins, then the fifth \
card.
  - Rank 4 - Full House: three cards of one rank plus two of another; the three decide \
first, then the two.
  - Rank 5 - Flush: five cards of one suit that are not in sequence; compare the highest \
card, then the next, and so on.
  - Rank 6 - Straight: five cards in sequence, not all of one suit; the higher top card \
wins (in A-2-3-4-5 the ace counts low).
  - Rank 7 - Three of a Kind: three cards of one rank; the higher rank wins.
  - Rank 8 - Two Pair: two cards of one rank and two of another; compare the higher pair, \
then the lower pair, then the fifth card.
  - Rank 9 - One Pair: two cards of one rank; compare the pair, then the other cards from \
the highest down.
  - Rank 10 - High Card: none of the above; compare the highest card, then the next, and \
so on. Cards rank from A (highest), K, Q, J, 10 down to 2."""

INPUT = """\
You receive:
- the betting round and the hand number;
- your two private cards and the community cards dealt so far, written suit first, e.g. \
"Hearts 10" or "Spades A";
- your chips left, the chips you have put in the pot this hand, and the same for your \
opponent;
- the actions you may choose now."""

DEFINITIONS = {
    1: (
        "Pre-flop, the winning probability of your two cards is read from this table. A key "
        'names the two ranks, higher first, with T for 10; "s" means both cards share a '
        'suit and "o" that they do not; a key without a letter covers both cases.\n'
        f"[{_TABLE}]"
    ),
    2: (
        "From the flop on, the answer is the rank number (Rank 1, Royal Flush, to Rank 10, "
        "High Card, as listed in the rules) of the best five-card hand you can make from your "
        "two cards and the community cards dealt so far."
    ),
}

OUTPUT = f"""\
Choose your action, but first write down your thinking. Both your intermediate results and \
your final action are checked, so follow these steps in order.

1. **Strategic Analysis**
Judge how likely you are to win with your cards and the community cards.

- {DEFINITIONS[1]}
Find the key of your two cards and give its winning probability as "[Intermediate Thinking \
Results 1: XX.X%]". For example, with "Hearts 9, Hearts 8" the key is 98s, so the answer is \
[Intermediate Thinking Results 1: 48.9%].
Above 57%, raising or going all in is reasonable; below 43%, folding is reasonable, except \
that when both players have put the same amount in the pot you should check rather than \
fold; between 43% and 57%, checking or calling is reasonable.

- {DEFINITIONS[2]} Give it as "[Intermediate Thinking Results 2: X]"; for \
example, three cards of one rank is Rank 7, so the answer is [Intermediate Thinking \
Results 2: 7].
With Two Pair (Rank 8) or better, raising or going all in is reasonable. With only a High \
Card (Rank 10) and both your private cards below J, folding is reasonable. Otherwise check \
or call. Again, check rather than fold when both players have put the same amount in.

Also weigh:
- how likely your hand is to improve with the cards still to come;
- which strong hands the community cards make possible for your opponent;
- what your opponent's bets so far suggest about their cards;
- how much you must pay compared with what the pot would give you;
- whether you act first or last in this round;
- an occasional bluff, which is risky and should stay rare.

2. **Conclusion**
State the action you chose and why, based on the analysis above.

3. **Chosen Action**
Write only your action in this section, with no other words, as "Chosen Action: Fold", \
"Chosen Action: Check and Call", "Chosen Action: Raise Half Pot", "Chosen Action: Raise \
Full Pot" or "Chosen Action: All in"."""
