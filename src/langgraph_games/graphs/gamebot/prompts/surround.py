"""GAMEBoT prompt for Surround, in our own words (structure of paper Appendix H.3)."""

from langgraph_games.games.surround.truth import SAFE_CELLS

ROLE = (
    "You are a skilled player of Surround on the Atari 2600. You want to stay alive longer "
    "than your opponent and to box them in."
)

FINAL_LABEL = "Chosen Action"

ANSWER_FORMAT = "Chosen Action: <Move Up, Move Down, Move Left or Move Right>"

RULES = """\
- The field is a grid of 20 rows and 40 columns; its outermost rows and columns are wall.
- You and your opponent move one cell at the same time, every step, and each of you leaves \
a wall behind on every cell you leave.
- Running into a wall (the border, any trail, or either player) ends the game for you. You \
may only move onto empty cells (value 0); turning straight back is a crash too.
- If both players move onto the same cell, or into each other's cells, both crash and the \
game is a draw. If only one crashes, the other wins.
- Goal: survive and outlast your opponent. Keep enough open room ahead of you so you do not \
wall yourself in, and try to cut your opponent off until they run out of space."""

INPUT = """\
You receive:
- a first line saying which player you are and the codes that mark you and your opponent;
- your moving trace: every cell you have occupied, as (row,col)->(row,col)->..., the last \
one being where you are now;
- the whole grid, one row per line, each cell written (row,col):value, where (0,0) is the \
top-left cell, rows grow downwards and columns to the right. The values are: 0 empty, \
1 wall or old trail, 2 Player 2's last position, 3 Player 2's current position, \
4 Player 1's last position, 5 Player 1's current position."""

DEFINITIONS = {
    1: (
        "The values to give are those of the cells up (row - 1), down (row + 1), left "
        "(column - 1) and right (column + 1) of your current position; a cell outside the "
        "grid counts as -1."
    ),
    2: "A valid move is a move onto an empty cell (value 0).",
    3: (
        f"A valid move is Safe when at least {SAFE_CELLS} empty cells, the cell you move to "
        "included, are connected to the cell you move to by steps up, down, left and right "
        "through empty cells; otherwise it is Unsafe."
    ),
}

OUTPUT = f"""\
Choose your move, but first write down your thinking. Both your intermediate results and \
your final move are checked, so follow these steps in order.

1. **Current Position Analysis**
- Give the (row, column) of your current position, the cell holding your current-position \
code.
- Read the values of the four cells next to it. {DEFINITIONS[1]} Give them as \
"[Intermediate Thinking Results 1: Up X, Down X, Left X, Right X]".
- Example: you are Player 1 at (7,20); (6,20) holds 1, (8,20) holds 0, (7,19) holds 4 (your \
last position) and (7,21) holds 0, so the answer is [Intermediate Thinking Results 1: \
Up 1, Down 0, Left 4, Right 0].

2. **Valid Actions**
- {DEFINITIONS[2]} List every valid move as "[Intermediate Thinking Results 2: Move \
X, Move X, ...]"; if there is none, write "[Intermediate Thinking Results 2: None]".
- Example: [Intermediate Thinking Results 2: Move Down, Move Right]

3. **Strategic Analysis**
Explain how you choose, weighing:
- Room to survive: never trap yourself. {DEFINITIONS[3]} For each valid move, count them: \
start a list with the cell \
you would move to; for each cell in the list, look at its four neighbours and add every \
empty one that is not yet listed; stop when nothing new turns up or the list reaches {SAFE_CELLS}.
  Example, a corner of the grid, with you (code 5) at (6,11):
  (5,10):1 (5,11):1 (5,12):1 (5,13):1
  (6,10):0 (6,11):5 (6,12):0 (6,13):1
  (7,10):1 (7,11):0 (7,12):0 (7,13):1
  (8,10):1 (8,11):1 (8,12):1 (8,13):1
  Moving right puts you on (6,12). List: [(6,12)].
  - (6,12): up (5,12) is 1, right (6,13) is 1, left (6,11) is you, down (7,12) is 0: add it.
  - (7,12): up (6,12) is listed, right (7,13) is 1, down (8,12) is 1, left (7,11) is 0: add it.
  - (7,11): up (6,11) is you, left (7,10) is 1, down (8,11) is 1, right (7,12) is listed.
  Nothing new: the list [(6,12), (7,12), (7,11)] holds 3 cells, fewer than {SAFE_CELLS}, so moving \
right is unsafe. Moving down starts in the same pocket and is unsafe as well.
  Do this for every valid move, then label each one Safe (at least {SAFE_CELLS} cells) or \
Unsafe, as \
"[Intermediate Thinking Results 3: Move X Safe, Move X Unsafe, ...]", for example \
[Intermediate Thinking Results 3: Move Right Unsafe, Move Down Unsafe, Move Left Safe].
- Cutting off the opponent: steer so that their open area shrinks.
- Risk: keep away from cells your opponent could also step onto next, and from walls you \
could not turn away from.

4. **Conclusion**
State the move you chose and why, based on the analysis above.

5. **Chosen Action**
Write only your move in this section, with no other words, as "Chosen Action: Move Up", \
"Chosen Action: Move Down", "Chosen Action: Move Left" or "Chosen Action: Move Right"."""
