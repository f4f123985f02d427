"""A labelled set of reflection lines: advice (tells the player what to do) or observation.

Written for the lesson-typing tests and benchmark. Observations include weaknesses worded
as fragments that read like imperatives ("Lose lives by walking blindly."); advice includes
plain imperatives a verb list misses ("Read the map before moving.").
"""

from __future__ import annotations

ADVICE = [
    "Read the map before moving.",
    "Avoid walking into walls.",
    "Do not walk into walls.",
    "Head for the goal first, then explore.",
    "Go to the goal before exploring.",
    "Collect every coin.",
    "Pick up all coins.",
    "Move right first, then up.",
    "Move up first, then right.",
    "Stay away from the monster's row.",
    "Count the steps left before taking a detour.",
    "Check the cell ahead for a wall before stepping.",
    "Take the key before going to the door.",
    "When a wall blocks the way, step around it.",
    "If two gems of one colour touch, match them first.",
    "Never step off the edge of the grid.",
    "Always keep two cells between you and a monster.",
    "Prefer moves that open a path towards the goal.",
    "Look at the whole board before choosing a match.",
    "Use the shortest open path to the goal.",
    "Next time, I should plan the route before the first move.",
    "I should stop repeating the same blocked move.",
    "It is better to wait a turn than to walk into a monster.",
    "Make sure the target cell is open before moving there.",
    "Keep moving along open cells.",
    "Try the bottom row when the top row is blocked.",
    "Clear the corners of the board early.",
    "Remember where the walls are and route around them.",
    "Save a life by stepping back when a monster is adjacent.",
    "Follow the open corridor instead of guessing.",
    "Match the colour with the most gems first.",
    "Write down the goal's position and steer towards it.",
    "Don't waste steps on moves off the grid.",
    "Only move left when the right side is walled off.",
    "Turn back as soon as a path ends in a dead end.",
    "Be careful near the edges of the maze.",
]

OBSERVATIONS = [
    "Lose lives by walking blindly.",
    "Waste of steps on off-grid moves.",
    "Lost a life to a wall.",
    "Never headed for the goal.",
    "Walked into the same wall three times.",
    "The agent ignored the coins.",
    "Too many moves off the grid.",
    "Hit a wall on the second move.",
    "Running out of steps before reaching the goal.",
    "Wandering in circles in the middle of the maze.",
    "The monster caught the agent near the exit.",
    "Matched small groups while big ones were available.",
    "No plan for reaching the goal.",
    "Repeated the same blocked move.",
    "Moving left whenever in doubt cost many steps.",
    "The route went through a dead end.",
    "Ended the game with two lives left.",
    "Picked up the key but never used it.",
    "Score dropped after every wall hit.",
    "Reached the goal in twelve steps.",
    "Found the shortest path quickly.",
    "Good use of the open corridor.",
    "Kept away from the monster the whole game.",
    "Collected all the coins on the way.",
    "Steady progress towards the goal.",
    "Lack of attention to the walls.",
    "Poor choice of the first move.",
    "Stepping off the edge again and again.",
    "Ignoring the goal's position.",
    "Slow start: the first five moves went nowhere.",
    "Over-cautious moves wasted time.",
    "Bumping into the top wall on most turns.",
    "Missed the gems in the corner.",
    "Spent the last steps walking back and forth.",
]

LINES = [(line, "advice") for line in ADVICE] + [(line, "observation") for line in OBSERVATIONS]
"""Every line with its label."""
