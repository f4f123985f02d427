"""GAMEBoT prompt for Pong, in our own words (structure of paper Appendix H.2)."""

ROLE = (
    "You are a skilled player of Atari Pong. You move the right-hand paddle and try to get "
    "the ball past the player on the left."
)

FINAL_LABEL = "[Action]"

ANSWER_FORMAT = "[Action] <1 - Move Up, 2 - Move Down or 0 - Stay Still>"

RULES = """\
1. The game is described in screen coordinates. x grows to the right and y grows upwards.
2. Your paddle is the right one and always stands at x = 140; your opponent's paddle stands \
at x = 20. A paddle is a vertical segment given by its lowest and highest y.
3. The lower wall is at y = 16 and the upper wall at y = 176. The ball bounces off both \
walls like a mirror: its vertical direction flips and its horizontal direction stays.
4. When the ball reaches x = 140 inside your paddle's range it is sent back to the left; \
hitting it near an end of the paddle sends it back at a steeper angle than hitting it with \
the middle. If it reaches x = 140 outside your paddle, your opponent scores, and the other \
way round at x = 20.
5. Every step you pick one action: 0 - Stay Still, 1 - Move Up, 2 - Move Down.
6. A sound plan: while the ball travels to the left, bring your paddle back to the middle \
of the field. While it travels to the right, work out where it will cross x = 140 and move \
so that your paddle covers that point. To make the return hard for your opponent, meet the \
ball near an end of your paddle."""

INPUT = """\
You receive the three most recent frames, oldest first (just after a serve there are fewer). \
Each frame is a dictionary:
- 'ball_x', 'ball_y': where the ball is;
- 'player_x', 'player_y': your paddle's x (always 140) and its [lowest y, highest y];
- 'opponent_x', 'opponent_y': the same for your opponent's paddle (x is always 20);
- 'upper_bound', 'lower_bound': the y of the upper wall (176) and of the lower wall (16).
You also receive the score."""

DEFINITIONS = {
    1: (
        "The direction comes from the ball's two most recent positions: Right if its x grew, "
        "otherwise Left; Up if its y grew, otherwise Down."
    ),
    2: (
        "The landing point is the ball's y when its x reaches your paddle's x (140), following "
        "the straight line through its two most recent positions and bouncing off the walls "
        "at y = 16 and y = 176 like a mirror; it is asked while the ball moves towards you."
    ),
}

OUTPUT = f"""\
Choose your action, but first write down your thinking. Both your intermediate results and \
your final action are checked, so follow these steps in order.

**[Observation]**
Compare the ball's positions across the frames. {DEFINITIONS[1]} Give the direction as \
"[Intermediate Thinking \
Results 1: Left Down/ Right Up/ Left Up/ Right Down]", keeping only the one that applies.

**[Thought]**
Predict the ball's y at the moment its x equals your paddle's x (140). {DEFINITIONS[2]}
- Take the line through the ball's two latest positions, y = m * x + b, and put x = 140 in it.
- The prediction holds only if it lies between 16 and 176. If it does not, the ball meets a \
wall first: find the x where the line reaches that wall's y, flip the sign of the slope, \
write the new line through that wall point, and evaluate it at x = 140 again.
- Repeat this check. If after three rounds the prediction still does not hold, simply move \
your paddle to the middle of the field.
- Compare the predicted y with your paddle's range and decide whether to go up, go down or \
stay.
Give the predicted y as "[Intermediate Thinking Results 2: XXX]".

Example. Frames 2 and 3 show the ball at (96, 128) and then at (100, 136), and your paddle \
covers [100, 116].
The ball moves right (96 < 100) and up (128 < 136): [Intermediate Thinking Results 1: Right Up]
Slope m = (136 - 128) / (100 - 96) = 2, and b = 136 - 2 * 100 = -64, so y = 2x - 64. At \
x = 140 this gives 216, above 176, so the ball first hits the upper wall where 2x - 64 = 176, \
at x = 120. After the bounce the slope is -2 and the line through (120, 176) is \
y = -2x + 416. At x = 140 this gives 136, which lies between 16 and 176.
The ball will arrive at y = 136, above your paddle's top (116), so move up.
[Intermediate Thinking Results 2: 136]

**[Action]**
Write only your action, based on your thought, in the form "[Action] 1 - Move Up", \
"[Action] 2 - Move Down" or "[Action] 0 - Stay Still"."""
