"""A short soak: two simulated minutes of the game with churn leave nothing behind.

The full soak (`benchmarks/soak.py --minutes 30`) reports memory and step cost; this test
checks what must not grow whatever the machine: esper worlds (every closed level's world is
deleted), entities, and the Python objects alive from the first minute to the last.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # two simulated minutes of the game, in a process of its own

ROOT = Path(__file__).resolve().parent.parent


def test_two_minutes_of_churn_leave_nothing_behind() -> None:
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "soak.py"), "--minutes", "2", "--json"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    minutes = result["minutes"]
    assert result["steps"] == 7200
    assert result["levels_played"] >= 2  # levels were closed and new ones built
    assert result["worlds_max"] == 2  # "default" and the level being played
    assert all(m["fish"] > 0 for m in minutes)
    assert result["entities_max"] < 400  # fish, sharks, food, rocks: no pile of dead ones
    growth = result["objects_at_end"] / result["objects_after_minute_1"]
    assert growth < 1.02, f"{growth:.3f}× the Python objects after a minute"
