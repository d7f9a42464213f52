"""The promise every hostile level file is held to, shared by the level fuzzing and hostile
tests: `load_level` either refuses the file with a short, printable, one-line LevelError
naming it, or returns a level the game can play (its Tank builds and steps, every position
and velocity finite). What loading and stepping cost in time, benchmarks/level_cost.py
prints: a timed assertion would fail on a busy machine, not on slow code."""

import importlib.resources
import json
from pathlib import Path
from typing import Any

import numpy as np

from shoal.game.level import MAX_MESSAGE_CHARS, Level, LevelError, load_level
from shoal.game.tank import Tank

PLAY_STEPS = 5


def packaged_texts() -> dict[str, str]:
    """The packaged levels' files, by file name."""
    files = importlib.resources.files("shoal.levels").iterdir()
    return {f.name: f.read_text(encoding="utf-8") for f in files if f.name.endswith(".tmj")}


TEXTS = packaged_texts()
DOCS: dict[str, Any] = {name: json.loads(text) for name, text in TEXTS.items()}


def check_refused_or_playable(path: Path) -> str:
    """Load the file: a quick one-line LevelError naming it ("refused"), or a playable
    level ("played")."""
    try:
        level = load_level(path)
    except LevelError as error:
        check_message(str(error), path)
        outcome = "refused"
    else:
        outcome = "played"
    if outcome == "played":
        check_playable(level)
    return outcome


def check_message(message: str, path: Path | None = None) -> None:
    """One short line, printable (no escape sequence reaches a terminal), naming the file."""
    if path is not None:
        assert message.startswith(f"{path}: "), message
    assert message.isprintable(), ascii(message)
    assert len(message) <= MAX_MESSAGE_CHARS, message


def check_playable(level: Level) -> None:
    """The level's tank builds and steps quickly, with finite state."""
    tank = Tank(level, seed=0)
    try:
        # Every spawn point's boids (a spawn of species "shark" makes sharks), and the sharks.
        assert len(tank.flock) == sum(spawn.count for spawn in level.spawns) + len(level.sharks)
        for _ in range(PLAY_STEPS):
            tank.step()
        store = tank.flock.store
        assert np.isfinite(store.positions).all() and np.isfinite(store.velocities).all()
    finally:
        tank.close()
    assert level.title.isprintable() and all(s.species.isprintable() for s in level.spawns)
