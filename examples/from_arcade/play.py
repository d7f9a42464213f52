"""Let one of the arcade examples play itself, headless, and say what its flock did.

``python -m examples.from_arcade.play NAME [--seconds 60] [--screenshot PATH]`` runs the
example as arcade's window loop would (the clock ticks 1/60 s a frame, then ``on_update``;
``on_draw`` every few frames), pressing keys from a script (`SCRIPTS`), and prints one JSON
line of measures taken ten times a second after the first three seconds:

- ``follow_median`` / ``follow_p90``: px from the flock's boids to the player's sprite (the
  leader tied to the flock), the median and 90th percentile;
- ``near_enemy``: when an enemy (a tied predator) is within ``CONTESTED`` px of the player,
  the share of boids within ``NEAR`` px of an enemy;
- ``flee``: for boids within ``NEAR`` px of an enemy, the mean cosine between their velocity
  and the way straight away from that enemy (1: running straight away, 0: heedless);
- ``inside_walls``: boid samples inside a wall sprite (obstacles tied from the walls);
- ``steps``, ``restarts``, ``seconds`` (wall clock).
"""

import os

os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported

import argparse
import importlib
import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import arcade
import arcade.key as K
import numpy as np

FRAME = 1 / 60
"""Seconds a frame (arcade's default update rate)."""
WARM_UP = 3.0
"""Seconds before measuring: the flock gathers round the player first."""
NEAR = 80.0
"""px: a boid this close to an enemy's centre counts as near it."""
CONTESTED = 200.0
"""px: an enemy this close to the player contests the flock's place round it."""
DRAW_EVERY = 10
"""Frames between two draws, by default (drawing 1280 × 720 in software is slow; the flock
steps in on_update whether or not a frame is drawn)."""


@dataclass
class Script:
    """How to play one example: start it as its main() does, then hold keys frame by frame."""

    start: Callable[[Any], None]
    keys: Callable[[Any, int], set[int]]
    walls: Callable[[Any], Iterable[arcade.BasicSprite]] = lambda view: ()
    enemies: Callable[[Any], Iterable[arcade.BasicSprite]] = lambda view: ()
    every_second: Callable[[Any], None] = lambda view: None
    restart: Callable[[Any], bool] = lambda view: False


# --- the scripts ---------------------------------------------------------------------------
class NoControllers:
    """What the shooter sees of game controllers when none is plugged in. Headless arcade has
    no `ControllerManager` (pyglet's input needs a display), so the script lends it this."""

    def get_controllers(self) -> list[Any]:
        """No controllers."""
        return []

    def event(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        """Register an event handler (none will ever fire)."""
        return handler


def _square(view: Any, frame: int) -> set[int]:
    """The shooter: fly a 240 px square round the middle, firing up and right by turns."""
    side = ((K.D,), (K.W,), (K.A,), (K.S,))[frame // 60 % 4]
    fire = K.UP if frame // 90 % 2 else K.RIGHT
    return {*side, fire}


def _shooter_start(view: Any) -> None:
    arcade.unschedule(view.spawn_enemy)  # the script spawns them on the simulated clock


def _shooter_restart(view: Any) -> bool:
    """Game over: press start (the controller's start button) for a frame."""
    view.player.start_pressed = view.game_over
    return bool(view.game_over)


def _runner(view: Any, frame: int) -> set[int]:
    """The platformer: run right to the end of the map and back, jumping every 1.2 s and
    whenever a wall stops the run (turn back if it stays stopped); stop a second in four."""
    player = view.player_sprite
    state = view.__dict__.setdefault("_script", {"dir": 1, "last": player.center_x, "stuck": 0})
    if not 150 < player.center_x < 3000:
        state["dir"] = -1 if player.center_x > 3000 else 1
    state["stuck"] = state["stuck"] + 1 if abs(player.center_x - state["last"]) < 0.5 else 0
    state["last"] = player.center_x
    if state["stuck"] > 45:  # the jumps did not get over it: the other way
        state["dir"], state["stuck"] = -state["dir"], 0
    jump = frame % 72 < 3 or 0 < state["stuck"] % 15 < 3
    if frame % 240 >= 180:  # a second's look round every four
        return set()
    return {K.RIGHT if state["dir"] > 0 else K.LEFT} | ({K.UP} if jump else set())


def _maze_walker(view: Any, frame: int) -> set[int]:
    """The scrolling level: walk right (then back left) through the columns of walls; when a
    wall stops the player, walk up or down along it until a gap lets it through."""
    player = view.player_sprite
    state = view.__dict__.setdefault("_script", {"dir": 1, "side": K.UP, "last": player.center_x})
    if player.center_x > 1700:
        state["dir"] = -1
    elif player.center_x < 120:
        state["dir"] = 1
    blocked = abs(player.center_x - state["last"]) < 0.5
    state["last"] = player.center_x
    keys = {K.RIGHT if state["dir"] > 0 else K.LEFT}
    if blocked:
        if not -100 < player.center_y < 1650:  # the end of the column: try the other way
            state["side"] = K.DOWN if state["side"] == K.UP else K.UP
        keys.add(state["side"])
    return keys


SCRIPTS: dict[str, Script] = {
    "dual_stick_shooter": Script(
        start=_shooter_start,
        keys=_square,
        enemies=lambda view: view.enemy_list,
        every_second=lambda view: view.spawn_enemy(1.0),
        restart=_shooter_restart,
    ),
    "template_platformer": Script(
        start=lambda view: view.reset(),
        keys=_runner,
        walls=lambda view: view.scene["Platforms"],
    ),
    "sprite_move_scrolling": Script(
        start=lambda view: view.setup(),
        keys=_maze_walker,
        walls=lambda view: view.wall_list,
    ),
}
"""Each example's script, by module name."""


# --- measuring -----------------------------------------------------------------------------
@dataclass
class Measures:
    """Samples of where the boids are, against the player, the enemies and the walls."""

    follow: list[float] = field(default_factory=list)  # a median distance per sample
    near: list[float] = field(default_factory=list)  # share near an enemy, contested samples
    flee: list[float] = field(default_factory=list)  # cosines: velocity vs away from enemy
    inside_walls: int = 0
    restarts: int = 0

    def sample(self, view: Any, script: Script) -> None:
        """Measure the flock as it is now."""
        positions = view.flock.positions
        if len(positions) == 0:
            return
        leader = _player(view)
        self.follow.append(float(np.median(np.hypot(*(positions - leader.position).T))))
        enemies = np.array([e.position for e in script.enemies(view)]).reshape(-1, 2)
        if len(enemies):
            offsets = positions[:, None, :] - enemies[None, :, :]
            gaps = np.hypot(offsets[..., 0], offsets[..., 1])
            nearest = gaps.argmin(axis=1)
            rows = np.flatnonzero(gaps.min(axis=1) < NEAR)
            self._fleeing(view.flock.velocities[rows], offsets[rows, nearest[rows]])
            if np.min(np.hypot(*(enemies - leader.position).T)) < CONTESTED:
                self.near.append(float(np.mean(gaps.min(axis=1) < NEAR)))
        for wall in script.walls(view):
            inside_x = np.abs(positions[:, 0] - wall.center_x) < wall.width / 2 - 0.5
            inside_y = np.abs(positions[:, 1] - wall.center_y) < wall.height / 2 - 0.5
            self.inside_walls += int(np.count_nonzero(inside_x & inside_y))

    def _fleeing(self, velocities: np.ndarray, away: np.ndarray) -> None:
        speeds = np.hypot(*velocities.T) * np.hypot(*away.T)
        moving = speeds > 0
        cosines = np.sum(velocities * away, axis=1)[moving] / speeds[moving]
        self.flee.extend(cosines.tolist())

    def report(self) -> dict[str, float]:
        """The measures as a dict (see the module docstring)."""
        follow = np.array(self.follow or [np.nan])
        return {
            "follow_median": round(float(np.median(follow)), 1),
            "follow_p90": round(float(np.percentile(follow, 90)), 1),
            "near_enemy": round(float(np.mean(self.near or [0.0])), 4),
            "flee": round(float(np.mean(self.flee or [np.nan])), 3),
            "inside_walls": self.inside_walls,
            "restarts": self.restarts,
        }


def _player(view: Any) -> arcade.BasicSprite:
    sprite: arcade.BasicSprite = getattr(view, "player_sprite", None) or view.player
    return sprite


# --- playing -------------------------------------------------------------------------------
def play(
    name: str, seconds: float, screenshot: Path | None, draw_every: int = DRAW_EVERY
) -> dict[str, Any]:
    """Play example `name` for `seconds` of game time, drawing every `draw_every` frames;
    return its measures."""
    random.seed(17)  # the examples' own random choices (enemy spawns, gaps in the walls)
    if not hasattr(arcade, "ControllerManager"):
        setattr(arcade, "ControllerManager", NoControllers)  # noqa: B010 (absent headless)
    module = importlib.import_module(f"examples.from_arcade.{name}")
    script = SCRIPTS[name]
    window = arcade.Window(module.WINDOW_WIDTH, module.WINDOW_HEIGHT, name, visible=False)
    view = module.GameView()
    script.start(view)
    window.show_view(view)
    measures, held = Measures(), set[int]()
    started = time.perf_counter()
    frames = round(seconds / FRAME)
    for frame in range(frames):
        held = _press(view, held, script.keys(view, frame))
        if frame % 60 == 59:
            script.every_second(view)
        arcade.clock.GLOBAL_CLOCK.tick(FRAME)
        view.on_update(FRAME)
        if script.restart(view):
            measures.restarts += 1
        if frame % draw_every == 0 or frame == frames - 1:
            view.on_draw()
        if frame * FRAME >= WARM_UP and frame % 6 == 0:
            measures.sample(view, script)
    if screenshot is not None:
        arcade.get_image().convert("RGB").save(screenshot, optimize=True)
    result = {"game": name, "steps": view.flock.steps, **measures.report()}
    result["seconds"] = round(time.perf_counter() - started, 1)
    window.close()
    return result


def _press(view: Any, held: set[int], wanted: set[int]) -> set[int]:
    """Send the key presses and releases that turn `held` into `wanted`."""
    for key in sorted(held - wanted):
        view.on_key_release(key, 0)
    for key in sorted(wanted - held):
        view.on_key_press(key, 0)
    return wanted


def main() -> None:
    """Parse the options, play, print the measures."""
    parser = argparse.ArgumentParser(prog="python -m examples.from_arcade.play")
    parser.add_argument("name", choices=sorted(SCRIPTS))
    parser.add_argument("--seconds", type=float, default=60.0, help="game time to play")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save the last frame")
    parser.add_argument("--draw-every", type=int, default=DRAW_EVERY, metavar="N",
                        help="draw every N frames")  # fmt: skip
    args = parser.parse_args()
    print(json.dumps(play(args.name, args.seconds, args.screenshot, max(args.draw_every, 1))))


if __name__ == "__main__":
    main()
