"""After `play_level_briefly` (what the loading screen's child compiles before the tank
shows), the first minute of play compiles nothing more: run in a fresh process.

``python tests/level_check.py LEVEL [STEPS]`` plays the level briefly, notes every numba
dispatcher's signatures, then plays 60 s of it in a real (headless) view, as the scripted players of
`benchmarks/balance.py` do (one leads the school home round the sharks, one clicks a pellet
above the school each second), and prints as JSON the signatures that were new (`new`).
STEPS (default `LEVEL_STEPS`) plays the level for fewer steps first: a control, to see the
check catch what a shorter run leaves out.
"""

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import arcade
from balance import Clicker, Competent
from warm_check import new_signatures, signatures

from shoal.game.level import load_level
from shoal.game.level_kernels import LEVEL_STEPS, play_level_briefly
from shoal.game.tank import DT, Tank
from shoal.game.tank_view import TankView

PLAYED_SECONDS = 60.0


def main() -> None:
    """Play the level named on the command line briefly, then a minute; print what compiled."""
    name = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else LEVEL_STEPS
    play_level_briefly(load_level(name), None, 0, steps)
    before = signatures()
    window = arcade.Window(1280, 720, "level check", visible=False)
    view = TankView(load_level(name), lambda level: Tank(level), intro=False)
    window.show_view(view)
    leader, feeder = Competent(view, 0), Clicker(view, 0)
    for frame in range(round(PLAYED_SECONDS / DT)):
        leader.act(frame)
        if frame % 60 == 0:
            feeder.act(frame)  # the mouse on the school for a frame, and a pellet
        view.on_update(DT)  # the steps, the render stage's feed included (no draw call)
    after = signatures()
    print(json.dumps({"dispatchers": len(after), "new": new_signatures(before, after)}))


if __name__ == "__main__":
    main()
