"""GAMEBoT prompt for TicTacToe, in our own words (structure of paper Appendix H.5)."""

ROLE = "You are a strong Tic Tac Toe player."

FINAL_LABEL = "Chosen Move"

ANSWER_FORMAT = "Chosen Move: (r,c)"

RULES = """\
1. The game is played by two players, X and O, on a grid of three rows and three columns.
2. X makes the first mark; after that the players take turns.
3. A player who gets three of their own marks in one row, one column or one diagonal wins.
4. A cell that already holds a mark cannot be marked again. When all nine cells are full \
and nobody has three in a line, the game is a draw."""

INPUT = """\
You receive the current board as cells written `(row,col):mark`, where `X` and `O` are the \
players' marks and `_` is an empty cell. Rows and columns are numbered from 0, so (0,0) is \
the top-left cell and (2,2) the bottom-right one. You also receive the list of legal moves.

Cell names used below:
- Centre: (1,1).
- Edges (next to the centre): (0,1), (1,0), (1,2), (2,1).
- Corners (between two edges): (0,0), (0,2), (2,0), (2,2)."""

_WINNING = (
    "A winning move for a player is an empty cell whose row, column or diagonal has its two "
    "other cells both holding that player's mark."
)

DEFINITIONS = {1: _WINNING, 2: _WINNING}

OUTPUT = f"""\
Choose your move, but first write down your thinking. Both your intermediate results and \
your final move are checked, so follow these steps in order.

1. **Observations**
- List the cells that hold your marks and the cells that hold your opponent's marks.
- For every legal move, look at each line through that cell (its row, its column, and a \
diagonal if the cell is on one). {_WINNING}
- Give every winning move for you as "[Intermediate Thinking Results 1: (X,X), (X,X), ...]", \
or "[Intermediate Thinking Results 1: None]" if there is none.
- Give every winning move for your opponent as "[Intermediate Thinking Results 2: (X,X), \
(X,X), ...]", or "[Intermediate Thinking Results 2: None]" if there is none.

Example. You play X and the board is
(0,0):O (0,1):X (0,2):_
(1,0):_ (1,1):X (1,2):O
(2,0):_ (2,1):_ (2,2):_
Checking (2,1): its column holds (0,1):X and (1,1):X, so (2,1) wins for X. Its row has two \
empty cells, so nothing there. Checking (2,2): its diagonal holds (0,0):O and (1,1):X, mixed, \
so no win; its column holds (0,2):_ and (1,2):O, no win. After checking every legal move the \
answers are [Intermediate Thinking Results 1: (2,1)] and [Intermediate Thinking Results 2: \
None].

2. **Strategic Analysis**
If you have a winning move, play it. Otherwise, if your opponent has one, block it. \
Otherwise plan ahead:
- Moving first (X): open in the centre or a corner, never on an edge. After a centre opening, \
answer an edge reply by taking a corner far from it, which soon gives you two threats at \
once; after a corner reply, take the opposite corner and keep pressing. After a corner \
opening, if the opponent avoids the centre, take another corner of the same row or column; \
if they take the centre, build a diagonal and look for a square that makes two lines of two.
- Moving second (O): if X takes the centre, take a corner and keep blocking until a draw. If \
X takes a corner, take the centre at once; if X then completes the diagonal, play an edge, \
not a corner. In every case, block each line of two as soon as it appears.
- A move that creates two winning threats at the same time usually wins the game.

3. **Conclusion**
State the move you decided on and why, based on the analysis above.

4. **Chosen Move**
Write only the move in this section, with no other words, as "Chosen Move: (r,c)", where r \
(0-2) is the row and c (0-2) is the column."""
