"""GAMEBoT prompt for Checkers, in our own words (structure of paper Appendix H.4)."""

ROLE = (
    "You are a strong Checkers (draughts) player. You win by capturing or blocking all of "
    "your opponent's pieces."
)

FINAL_LABEL = "Chosen Move"

ANSWER_FORMAT = "Chosen Move: (r,c)->(r,c)"

RULES = """\
- Board and pieces: the board has 8 rows and 8 columns, both numbered 0-7, with 32 dark and \
32 light squares. Pieces only ever stand on the dark squares. Each side starts with 12 \
pieces: White on rows 0-2, Black on rows 5-7. White moves first.
- Moving: a piece moves one square diagonally onto an empty dark square. An ordinary piece \
(a man) only moves forward: White towards row 7, Black towards row 0.
- Capturing: a piece captures by jumping diagonally over an adjacent opposing piece onto the \
empty square just beyond it; the jumped piece is removed. One jump captures one piece, but \
the same piece may keep jumping in the same turn. Each jump is given as its own move, and \
while a piece can jump on, your next move must continue with it.
- Captures are compulsory: when you can capture, you must; if several captures are \
possible, you may pick any of them.
- Kings: a man that reaches the far row (row 7 for White, row 0 for Black) becomes a king, \
and its turn ends there. Kings move and capture diagonally forwards and backwards. Men may \
change diagonal during a sequence of jumps but always jump forwards.
- End: you win when your opponent cannot move, usually because all their pieces are gone or \
blocked. The game is a draw when the same position appears for the third time, or after 40 \
moves in a row (20 by each player) without a capture."""

INPUT = """\
You receive the board as squares written `(row,col):content`, one row per line from row 0 \
to row 7, where `_` is empty, `b` a black man, `B` a black king, `w` a white man and `W` a \
white king; (a,b) is row a and column b, counted from 0. You also receive every legal move \
you have now, written (row,col)->(row,col). Choose the best of them after your analysis."""

DEFINITIONS = {
    1: (
        "A king move is a legal move of one of your men that ends on its king row (row 7 for "
        "White, row 0 for Black)."
    ),
    2: (
        "A worthless die is a legal move that ends your turn and lets your opponent capture "
        "the piece you moved by some sequence of jumps after which you have no capture at all."
    ),
    3: (
        "A two-for-one shot is a legal move that ends your turn and leaves your opponent a "
        "capture, such that whichever capture sequence they choose you can then capture more "
        "pieces than you lost."
    ),
}

OUTPUT = f"""\
Choose your move, but first write down your thinking. Both your intermediate results and \
your final move are checked, so follow these steps in order.

1. **Strategic Analysis**
Weigh every legal move against all of the points below.

(a) Centre: pieces in the middle of the board have two ways forward and can swing to either \
side; pieces on the side have one. When you can move or jump towards the centre or towards \
the side, prefer the centre.

(b) Kings: a king is strong because it also moves backwards. White aims for row 7, Black for \
row 0. {DEFINITIONS[1]} List every legal move that makes a new king, as \
"[Intermediate Thinking Results 1: \
(X,X)->(X,X), ...]", or "[Intermediate Thinking Results 1: None]".

(c) No pointless losses: {DEFINITIONS[2]} Example: with (1,4):w, (2,3):_, \
(3,2):b, and (0,3) and (0,5) empty, White's move (1,4)->(2,3) lets (3,2):b jump to (1,4), and \
White cannot capture back because no white piece stands on (0,3) or (0,5). List every legal \
move that is a worthless die, as "[Intermediate Thinking Results 2: (X,X)->(X,X), ...]", or \
"[Intermediate Thinking Results 2: None]".

(d) Back row: keep two of your back-row men home as long as you reasonably can, because they \
stop the opponent from crowning; for White these are (0,1) and (0,5), for Black (7,2) and \
(7,6). Bring the other back-row men into play.

(e) Formation: move your pieces up together so that the ones behind protect the ones in \
front. A piece with an empty square behind it can be jumped. Example: with (2,3):w, (3,4):w, \
(4,5):b and (5,6):_, Black to move, (4,5):b can be captured by (3,4):w jumping to (5,6), so \
Black should move it or fill (5,6).

(f) Two-for-one shots: sometimes giving up one piece forces a capture that opens a double \
jump for you. Example: with (3,4):w, (3,6):w, (5,4):b, (5,6):b, (6,7):b and (2,7), (4,5) \
empty, Black plays (5,6)->(4,5); White must capture with (3,4) jumping to (5,6); then (6,7):b \
jumps over (5,6) to (4,5) and on over (3,6) to (2,7), winning two pieces for one. \
{DEFINITIONS[3]} List every \
legal move that sets up such a shot, as "[Intermediate Thinking Results 3: (X,X)->(X,X), ...]", or \
"[Intermediate Thinking Results 3: None]".

(g) Triangles and diagonals of three: if the middle piece of such a group can be forced \
away, the two remaining pieces may be taken in one double jump. Watch for this on both sides.

2. **Conclusion**
Write this section only after the Strategic Analysis. State the move you decided on and why.

3. **Chosen Move**
Write only the move in this section, with no other words, as "Chosen Move: \
(r,c)->(r,c)"."""
