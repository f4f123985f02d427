"""GAMEBoT prompt for Connect Four, in our own words (structure of paper Appendix H.6)."""

ROLE = "You are a strong Connect Four player."

FINAL_LABEL = "Chosen Move"

ANSWER_FORMAT = "Chosen Move: (r,c)"

RULES = """\
1. Two players, X and O, play on an upright grid of 6 rows and 7 columns.
2. X usually starts; the players then take turns dropping one disc each.
3. A dropped disc falls to the lowest empty cell of its column.
4. The first player with four of their own discs in a line wins.
5. The line may be horizontal, vertical or diagonal."""

INPUT = """\
You receive the current grid as cells written `(row,col):disc`, where `X` is a disc of player \
1, `O` a disc of player 2 and `_` an empty cell. Indices start at 0: row 0 is the bottom row \
and row 5 the top row; column 0 is on the left. For example "(0,4):X" means player 1 has a \
disc in the bottom row, column 4. The grid is listed from the top row down. You also receive \
the valid moves: the lowest empty cell of every column that is not full."""

_WINNING = (
    "A winning move for a player is a valid move (the lowest empty cell of a column that is "
    "not full) where a disc of that player would complete four of that player's discs in a "
    "line: along the row, down the column or along either diagonal."
)

DEFINITIONS = {1: _WINNING, 2: _WINNING}

OUTPUT = f"""\
Choose where to drop your disc, but first write down your thinking. Both your intermediate \
results and your final move are checked, so follow these steps in order.

1. **Observations**
- List where your discs are and where your opponent's discs are.
- {_WINNING}
- For every valid move, count the discs of one colour that would line up with it: go left \
and right along the row, down the column, and both ways along each of the two diagonals, \
stopping at the first cell that is not that colour. Three such discs plus the new one make \
four in a row. Do this for your colour and for your opponent's colour.
- Give every winning move for you as "[Intermediate Thinking Results 1: (X,X), (X,X), ...]", \
or "[Intermediate Thinking Results 1: None]".
- Give every winning move for your opponent as "[Intermediate Thinking Results 2: (X,X), \
(X,X), ...]", or "[Intermediate Thinking Results 2: None]".

Example. You play O and the grid is (top row first)
(5,0):_ (5,1):_ (5,2):_ (5,3):_ (5,4):_ (5,5):_ (5,6):_
(4,0):_ (4,1):_ (4,2):_ (4,3):_ (4,4):_ (4,5):_ (4,6):_
(3,0):_ (3,1):_ (3,2):_ (3,3):_ (3,4):_ (3,5):_ (3,6):_
(2,0):X (2,1):_ (2,2):_ (2,3):_ (2,4):_ (2,5):_ (2,6):_
(1,0):O (1,1):O (1,2):O (1,3):_ (1,4):X (1,5):_ (1,6):_
(0,0):X (0,1):X (0,2):X (0,3):O (0,4):X (0,5):O (0,6):_
The valid moves are (3,0), (2,1), (2,2), (1,3), (2,4), (1,5) and (0,6).
Checking (1,3) for O: to the left (1,2):O, (1,1):O, (1,0):O make three, so (1,3) wins for O. \
Checking (1,3) for X: left stops at (1,2):O; right gives (1,4):X then (1,5):_, one disc; \
down is (0,3):O; the diagonals give (0,2):X and (0,4):X, one disc each way, so no win. \
Checking (0,6) for X: left stops at (0,5):O, so no win. The other valid moves complete no \
line for either player, so the answers are [Intermediate Thinking Results 1: (1,3)] and \
[Intermediate Thinking Results 2: None].

2. **Strategic Analysis**
If you have a winning move, play it. Otherwise, if your opponent has one, block it. \
Otherwise:
- Look for a move that builds two lines of three at once, so the opponent cannot block both.
- Stop an opponent who has two or three discs in a row with open cells at the ends.
- Prefer the middle columns early: they take part in the most possible lines.
- Think one move ahead: do not fill the cell just under a cell where your opponent would win, \
because that makes their winning cell playable.
- Aim for three in a row with empty playable cells on both ends.

3. **Conclusion**
State where you will drop your disc and why, based on the analysis above.

4. **Chosen Move**
Write only the move in this section, with no other words, as "Chosen Move: (r,c)", where r \
(0-5) is the row the disc lands on and c (0-6) is the column."""
