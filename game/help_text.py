"""The game's controls and goal in words, for the help card (H) and ``shoal --help``: one
source, so that the two cannot drift apart.

Plain text, no arcade: the command line reads it before it decides on headless mode.
"""

KEYS = (
    "Mouse: lead the school.   Click: drop food.",
    "Space: pause.   Period: one step.   R: restart.   N: next level.   L: reload the level.",
    "D: debug overlay.   P: tuning panel.   S: screenshot.   M: mute.   F: fullscreen.",
    "H: this help.   Esc: quit.",
)
"""Every key and what it does, a line per group (the help card shows them as they are)."""
GOAL = (
    "Goal: lead your school into its home (the ring) before the time runs out; sharks eat the "
    "fish that stray; dropped food is a lure, and you have only a few pellets."
)
"""The game's goal in one sentence (each level's card gives its own numbers)."""
