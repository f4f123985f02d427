"""GAMEBoT prompt for Othello, in our own words (structure of paper Appendix H.1)."""

from langgraph_games.games.othello.truth import WEDGE_GAPS

ROLE = (
    "You are a strong Othello player. Your goal is to have more discs of your colour than "
    "your opponent when the game ends."
)

FINAL_LABEL = "Chosen Move"

ANSWER_FORMAT = "Chosen Move: (X,N)"

RULES = """\
1. The board has 8 columns labelled A-H and 8 rows labelled 1-8.
2. Black discs are shown as "B" and white discs as "W".
3. At the start, black discs stand on (D,4) and (E,5) and white discs on (D,5) and (E,4). \
Black moves first.
4. A move places one disc so that it encloses one or more of the opponent's discs in a \
straight line (across, down or diagonally) between the new disc and another disc of yours. \
Every enclosed disc is turned over to your colour.
5. If the new disc encloses lines in several directions at once, the discs of all those \
lines are turned over.
6. A player who has no legal move passes, and the opponent moves again.
7. The game ends when neither player can move (for example when the board is full)."""

INPUT = """\
You receive the board as squares written `(column,row):content`, one row per line from row 1 \
to row 8, where `B` is a black disc, `W` a white disc and `O` an empty square. You also \
receive every legal move you have now. Choose the best of them after your analysis."""

_GAPS = ", ".join(str(g) for g in WEDGE_GAPS[:-1]) + f" or {WEDGE_GAPS[-1]}"

DEFINITIONS = {
    1: (
        "The answer is True when at least one of your legal moves is a corner square "
        "((A,1), (H,1), (A,8) or (H,8)), and False otherwise."
    ),
    2: (
        "A wedge move is a legal move on an edge square (row 1, row 8, column A or column H) "
        "inside a gap of empty squares along that edge that has an opponent disc at both "
        f"ends, along the edge, and is {_GAPS} squares long; every legal square of such a "
        "gap is a wedge move."
    ),
}

OUTPUT = f"""\
Choose your move, but first write down your thinking. Both your intermediate results and \
your final move are checked, so follow these steps in order.

1. **Strategic Analysis**
Consider each legal move in the light of the points below.

(a) Corners: a disc on a corner ((A,1), (H,1), (A,8) or (H,8)) can never be turned over. Say \
whether one of your legal moves takes a corner right now, as "[Intermediate Thinking Results \
1: True]" or "[Intermediate Thinking Results 1: False]": {DEFINITIONS[1]} Be careful with \
the squares right \
next to an empty corner: they often hand that corner to your opponent.

(b) Edges: discs on the outer rows and columns are harder to attack than discs in the middle.

(c) Stability: prefer squares where your discs are unlikely to be turned over; stable discs \
are a base to grow from.

(d) Frontier: keep few of your discs next to empty squares; this leaves your opponent fewer \
moves.

(e) Wedges: {DEFINITIONS[2]} A wedge splits the opponent's edge and often wins a corner \
later, so it is \
nearly always worth taking. Example: if row 1 reads (A,1):O (B,1):O (C,1):W (D,1):O (E,1):W \
(F,1):O (G,1):O (H,1):O and you play Black, (D,1) is a one-square gap between two white \
discs, so if (D,1) is one of your legal moves it makes a wedge. List every legal move that \
makes a wedge as "[Intermediate Thinking Results 2: (X,N), (X,N), ...]", or \
"[Intermediate Thinking Results 2: None]".

(f) Mobility: the more legal moves you keep for yourself, the more choice you have later.

Turning over many discs early is often a mistake.

2. **Conclusion**
Write this section only after the Strategic Analysis. State the move you decided on and why.

3. **Chosen Move**
Write only the move in this section, with no other words, as "Chosen Move: (X,N)", where X is \
the column letter and N the row number."""
