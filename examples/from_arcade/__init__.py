"""Four of arcade's own bundled examples, with shoal added as a user would (at most 10 lines
each, every one marked ``# shoal``; the rest is arcade's code as shipped, under its MIT
licence: LICENSE-arcade). Play one with ``python -m examples.from_arcade.NAME``; watch one
play itself headless with ``python -m examples.from_arcade.play NAME``.
"""
