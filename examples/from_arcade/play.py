"""Let one of the arcade examples play itself, headless, and say what its flock did.

``python -m examples.from_arcade.play NAME [--seconds 60] [--screenshot PATH]`` runs the
example as arcade's window loop would (the clock ticks 1/60 s a frame, then ``on_update``;
``on_draw`` every few frames), pressing keys from a script (`SCRIPTS`), and prints one JSON
line of measures taken ten times a second after the first three seconds:

- ``follow_median`` / ``follow_p90``: px from the flock's boids to the player's sprite (the
  leader tied to the flock), the median and 90th percentile;
- ``with_player`` / ``with_player_end``: the share of boids within ``WITH_PLAYER`` px of the
  player, the mean over the samples and at the last one;
- ``near_enemy``: when an enemy (a tied predator) is within ``CONTESTED`` px of the player,
  the share of boids within ``NEAR`` px of an enemy;
- ``flee``: for boids within ``NEAR`` px of an enemy, the mean cosine between their velocity
  and the way straight away from that enemy (1: running straight away, 0: heedless);
- ``inside_walls``: boid samples inside a wall sprite (obstacles tied from the walls);
- ``walked``: px the player walked while measured (the script does move it);
- ``steps``, ``restarts``, ``seconds`` (wall clock).
"""

import os

os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported

import argparse
import importlib
import json
import random
import time
from collections import deque
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
WITH_PLAYER = 250.0
"""px: a boid this close to the player counts as with it."""
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
    tiles: Callable[[Any], tuple[np.ndarray, float] | None] = lambda view: None
    """The walls as a grid of tiles, (rows from the bottom, columns) of 1 for a wall, and the
    tile's size in px: checked instead of the wall sprites one by one (the cave has 74,000)."""


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


CAVE_LEG = 60
"""Tiles: the cave's walker goes this far along the shortest way (or to the end of its cave),
then on to another tile as far."""
CAVE_TILE = 32.0
"""px: the cave's tile (arcade's SPRITE_SIZE)."""
CAVE_AIM = 4.0
"""px: the walker aims this far above a tile's centre: the player's hit box (16 × 24 px)
reaches 16 px below its centre and 8 above, so that it clears a tile-high passage."""


def _cave_walker(view: Any, frame: int) -> set[int]:
    """The cave: walk the shortest way from the player's tile to a tile `CAVE_LEG` tiles away
    (4-connected, open tiles of `view.grid`), then on to another, tile centre to tile centre,
    pressing the arrows toward the next; a new way from where it is if a wall stops it."""
    player = view.player_sprite
    state = view.__dict__.setdefault("_script", {"way": [], "next": 0, "rng": random.Random(3),
                                                 "last": player.position, "stuck": 0})  # fmt: skip
    moved = player.position != state["last"]
    state["stuck"] = 0 if moved else state["stuck"] + 1
    state["last"] = player.position
    if state["next"] >= len(state["way"]) or state["stuck"] > 20:
        state["way"] = _cave_way(view.grid, player.position, state["rng"])
        state["next"], state["stuck"] = 0, 0
    keys: set[int] = set()
    while state["next"] < len(state["way"]):
        row, column = state["way"][state["next"]]
        dx = (column + 0.5) * CAVE_TILE - player.center_x
        dy = (row + 0.5) * CAVE_TILE + CAVE_AIM - player.center_y
        if abs(dx) > 2.5 or abs(dy) > 2.5:
            keys |= {K.RIGHT if dx > 0 else K.LEFT} if abs(dx) > 2.5 else set()
            keys |= {K.UP if dy > 0 else K.DOWN} if abs(dy) > 2.5 else set()
            break
        state["next"] += 1  # there: on to the next tile
    return keys


def _cave_way(
    grid: list[list[int]], position: tuple[float, float], rng: random.Random
) -> list[tuple[int, int]]:
    """The shortest way (tiles, row and column) from the open tile at `position` to a random
    tile `CAVE_LEG` steps away, or as far as its cave goes."""
    column, row = int(position[0] // CAVE_TILE), int((position[1] - CAVE_AIM) // CAVE_TILE)
    start = min(
        ((r, c) for r in (row - 1, row, row + 1) for c in (column - 1, column, column + 1)
         if 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == 0),
        key=lambda cell: abs(cell[0] - row) + abs(cell[1] - column),
    )  # fmt: skip
    parent, steps, queue = {start: start}, {start: 0}, deque([start])
    while queue:
        r, c = queue.popleft()
        if steps[(r, c)] >= CAVE_LEG:
            continue
        for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            inside = 0 <= cell[0] < len(grid) and 0 <= cell[1] < len(grid[0])
            if inside and cell not in parent and grid[cell[0]][cell[1]] == 0:
                parent[cell], steps[cell] = (r, c), steps[(r, c)] + 1
                queue.append(cell)
    farthest = max(steps.values())
    way = [rng.choice([cell for cell, k in steps.items() if k == farthest])]
    while way[-1] != start:
        way.append(parent[way[-1]])
    return way[::-1]


def _cave_tiles(view: Any) -> tuple[np.ndarray, float]:
    """The cave's grid as an array (made once, on the first call)."""
    if "_tiles" not in view.__dict__:
        view.__dict__["_tiles"] = np.asarray(view.grid, np.int8)
    return view.__dict__["_tiles"], CAVE_TILE


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
    "procedural_caves_cellular": Script(
        start=lambda view: view.setup(),  # after play() has seeded random: the same cave
        keys=_cave_walker,
        tiles=_cave_tiles,
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
    with_player: list[float] = field(default_factory=list)  # share within WITH_PLAYER px
    inside_walls: int = 0
    restarts: int = 0
    walked: float = 0.0
    last: tuple[float, float] | None = None  # the player's position at the last sample

    def sample(self, view: Any, script: Script) -> None:
        """Measure the flock as it is now."""
        positions = view.flock.positions
        if len(positions) == 0:
            return
        leader = _player(view)
        distances = np.hypot(*(positions - leader.position).T)
        self.follow.append(float(np.median(distances)))
        self.with_player.append(float(np.mean(distances < WITH_PLAYER)))
        if self.last is not None:
            self.walked += float(np.hypot(*np.subtract(leader.position, self.last)))
        self.last = leader.position
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
        tiles = script.tiles(view)
        if tiles is not None:
            self.inside_walls += _inside_tiles(positions, *tiles)

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
            "with_player": round(float(np.mean(self.with_player or [np.nan])), 4),
            "with_player_end": round(self.with_player[-1] if self.with_player else np.nan, 4),
            "inside_walls": self.inside_walls,
            "walked": round(self.walked),
            "restarts": self.restarts,
        }


def _inside_tiles(positions: np.ndarray, grid: np.ndarray, tile: float) -> int:
    """Boids more than 0.5 px inside the walls of a tile `grid` (see `Script.tiles`): all four
    corners of a 1 px square round the boid in wall tiles (a boid on the seam between two
    wall tiles is inside too)."""
    inside = np.ones(len(positions), bool)
    for ox, oy in ((-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)):
        columns = np.floor((positions[:, 0] + ox) / tile).astype(np.int64)
        rows = np.floor((positions[:, 1] + oy) / tile).astype(np.int64)
        on_map = (columns >= 0) & (columns < grid.shape[1]) & (rows >= 0) & (rows < grid.shape[0])
        wall = np.zeros(len(positions), bool)
        wall[on_map] = grid[rows[on_map], columns[on_map]] == 1
        inside &= wall
    return int(np.count_nonzero(inside))


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
