"""GAMEBoT prompt for Negotiation v2, in our own words (structure of paper Appendix H.8)."""

ROLE = "You are a skilled negotiator who knows game theory."

FINAL_LABEL = "Proposal"

ANSWER_FORMAT = "Proposal: [P1: (x,y,z), P2: (x,y,z)] or Proposal: [Agree]"

RULES = """\
- Two players, Player 1 and Player 2, share out a pool of items of three types.
- Each player has a private value for one item of each type, which the other player does \
not know. For both players the whole pool is worth 30 in total.
- The players take turns; Player 1 goes first. In each round the player to move either \
accepts the opponent's latest proposal or makes a new proposal saying how many items of \
each type each player gets. When a proposal is accepted the game ends and each player \
receives the total value of the items they get.
- Each player wants as much value as possible for themselves.
- From round 9 on, before every round the game may end with probability 20%. If it ends \
without an accepted proposal, both players receive 0."""

INPUT = """\
You receive:
- the pool: how many items of each of the three types there are, e.g. [2, 3, 5];
- your own value for one item of each type, e.g. "P1 values: [4, 2, 2]" if you are \
Player 1;
- every proposal made so far, round by round, written as the counts each player gets, \
e.g. "Round 2 Player2 proposes: P1 [1, 1, 2], P2 [1, 2, 3]"."""

_VALUE = (
    "multiply the number of items of each type it gives you by your value for one item of "
    "that type, and add up the three products"
)

DEFINITIONS = {
    1: f"The value to you of your opponent's latest proposal: {_VALUE}.",
    2: f"The value to you of your own new proposal: {_VALUE}.",
}

OUTPUT = f"""\
Decide whether to accept your opponent's latest proposal, and if not, make your own. Both \
your intermediate results and your final proposal are checked, so follow these steps in \
order.

1. **Evaluation of the proposal**
- {DEFINITIONS[1]} Give the total as \
"[Intermediate Thinking Results 1: XXX]". For example, if you are Player 1 with values \
[3, 2, 4] and the latest proposal is [P1: (1,2,3), P2: (3,1,0)], you would get \
1*3 + 2*2 + 3*4 = 19, so the answer is [Intermediate Thinking Results 1: 19].
- Do the same for your opponent's earlier proposals and compare: are their offers getting \
better for you?
- From what your opponent keeps for themselves, guess which item types they value most.

2. **Strategic Analysis**
Weigh the following:
- The pool is worth 30 to you. An offer worth less than half of that (15) is usually worth \
answering with a proposal of your own rather than accepting.
- The round number and the risk of the game ending: early on you can ask for a lot; after \
round 8 every round risks ending with nothing for both, so be more willing to meet your \
opponent.
- When you propose, think about which types you value most and which your opponent seems \
to value most. If you both want the same type most, try to keep more of it.
- Look at which of your proposals were turned down and adjust.
- Hiding which types you value at first and revealing it later can steer your opponent, but \
it is a gamble.
- Never propose a split worth less than 15 to you; aiming higher is fine.

3. **Check Validity**
If you make a new proposal, check that it gives out exactly the pool: with pool [X,Y,Z] and \
proposal [P1: (X1,Y1,Z1), P2: (X2,Y2,Z2)], X1 + X2 must equal X, Y1 + Y2 must equal Y and \
Z1 + Z2 must equal Z. If it does not, fix it.
{DEFINITIONS[2]} Give it as "[Intermediate Thinking Results 2: XXX]".

4. **Conclusion**
State your decision and why, based on the analysis above.

5. **Proposal**
Write only your decision in this section, with no other words: "Proposal: [Agree]" to \
accept the latest proposal, or "Proposal: [P1: (x,y,z), P2: (x,y,z)]" for a new one, where \
each triple gives that player's number of items of the three types."""
