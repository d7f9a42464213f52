"""Navigation scenes: a scripted leader tour through each level, and a wall maze.

Used by `benchmarks/navigation.py` (which prints the figures) and by the tests
(`tests/test_navigation_scenes.py`, which check the behaviour).

- A tour: the game's tank (`shoal.game.tank.Tank`, the level as shipped: its fish, sharks and
  food), its leader steered like a player's mouse: the target moves along the tour's
  waypoints at `TARGET_SPEED`, and the leader (which finds its own way round rocks) follows
  it; the tour ends with the leader stopping behind a rock. Measured: the share of fish in
  the leader's group (metrics' `groups`, linked within a fish's perception radius) every
  quarter second, and the share within `NEAR` px of the leader `SETTLE` s after it stopped.
- A maze: a host's wall `SpriteList` (columns of wall tiles, one gap each) handed to the
  flock with `add_obstacles`; a leader entity walks through the gaps and followers follow.
  Measured: the share of followers within `MAZE_NEAR` px of it when it has crossed the
  fourth column and stopped a little beyond it, and `SETTLE` s later.
"""

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import esper
import numpy as np

from shoal.components import Food, Leader, Position, Species, Velocity
from shoal.game.level import load_level
from shoal.game.tank import DT, Tank
from shoal.systems import Flock, FlockConfig, add_obstacles, install, navigator
from shoal.systems.metrics import groups
from shoal.systems.obstacles.field import first_hit, inside_obstacle, obstacle_field

Point = tuple[float, float]
Wall = TypeVar("Wall")

TARGET_SPEED = 70.0
"""px/s: how fast the tour's target moves (a player leading at a pace the school can keep)."""
NEAR = 200.0
SETTLE = 5.0
SAMPLE_EVERY = 0.25
LEADER_LINK = 1.5
"""A group of fish is the leader's when one of them is within this many follow distances."""
# The leader has stopped when slower than this (px/s).
_STOPPED = 1.0

TOURS: dict[str, tuple[Point, ...]] = {
    # Round the circle rock, over the blob, under it, and stop just behind the circle.
    "reef": ((620, 480), (900, 540), (1095, 400), (950, 250), (700, 250), (600, 390),
             (840, 395)),
    # Over, down between and under the kelp and the rocks hanging from the roof; round the
    # tip of the second and stop behind it.
    "kelp": ((330, 620), (437, 420), (555, 170), (663, 400), (760, 630), (862, 420),
             (905, 250), (985, 250), (1030, 420)),
    # Through the gaps between the pillars and the rocks; stop behind the diagonal bar.
    "caves": ((300, 460), (470, 415), (650, 450), (790, 300), (845, 270), (1000, 250),
              (1160, 255), (1165, 445)),
    # Round the rocks of open water (a torus); stop behind the small circle.
    "open_water": ((420, 420), (700, 330), (1000, 460), (1320, 340), (1250, 250),
                   (1320, 200)),
}  # fmt: skip
"""Each level's tour: waypoints after the leader's start; the last is where it stops."""


@dataclass(frozen=True, slots=True)
class TourResult:
    """What a tour measured (see the module docstring).

    Attributes:
        level: the level's name.
        fish: fish at the start.
        seconds: simulated time until the leader stopped.
        in_group: mean share of fish in the leader's group over the tour.
        in_group_min: the lowest share of any sample.
        hidden_at_stop: share of fish whose straight line to the leader crossed a rock when
            it stopped (it stopped behind a rock).
        near_after_stop: share of fish within NEAR px of the leader SETTLE s after it stopped.
        misplaced: the most boids, leader and food found inside a rock or outside the tank
            at any step.
        backwards: share of fish-steps drawn more than 90° from their motion.
    """

    level: str
    fish: int
    seconds: float
    in_group: float
    in_group_min: float
    hidden_at_stop: float
    near_after_stop: float
    misplaced: int
    backwards: float


def run_tour(
    level: str, seed: int = 1, navigation: bool = True, agents: bool = False
) -> TourResult:
    """Lead the school of `level` round its tour; see `TourResult`.

    Without `agents` the level's food and sharks are taken out first, so that what is
    measured is the leading and the way round the rocks, not fish leaving to eat or fleeing.
    """
    # The tour is not a game (free swim): no goal ends it and no fish leaves for the home.
    tank = Tank(load_level(level), seed=seed, free=True)
    if not agents:
        _clear_agents(tank)
    try:
        navigator(tank.flock).enabled = navigation
        assert tank.leader is not None
        path = [tank.level.leader, *TOURS[level]]
        _check_free(tank, path)
        fish = tank.fish
        shares: list[float] = []
        misplaced = 0
        headings = HeadingCheck(tank.flock)
        walked, stopped_at, every, hidden = 0.0, -1.0, round(SAMPLE_EVERY / DT), 0.0
        step = 0
        while stopped_at < 0 or tank.time < stopped_at + SETTLE:
            walked += TARGET_SPEED * DT
            tank.target = _along(path, walked)
            tank.step(DT)
            headings.record(fish_rows(tank))
            misplaced = max(misplaced, tank.misplaced().total)
            step += 1
            if stopped_at < 0 and step % every == 0:
                shares.append(_share_in_leader_group(tank))
            arrived = walked >= _length(path)
            if stopped_at < 0 and arrived and tank.leader.speed < _STOPPED:
                stopped_at = tank.time
                hidden = _share_hidden(tank)
            if tank.time > 600.0:
                raise RuntimeError(f"tour of {level}: the leader never stopped")
        near = _share_near_leader(tank, NEAR)
        return TourResult(
            level, fish, round(stopped_at, 2), float(np.mean(shares)), float(np.min(shares)),
            hidden, near, misplaced, headings.share_backwards,
        )  # fmt: skip
    finally:
        tank.close()


def _clear_agents(tank: Tank) -> None:
    """Take the tank's food and sharks out."""
    flock = tank.flock
    sharks = flock.entities[flock.store.species == flock.species.index("shark")]
    flock.despawn(sharks.copy())
    with flock.in_world():
        for entity, _ in esper.get_component(Food):
            esper.delete_entity(entity, immediate=True)


def fish_rows(tank: Tank) -> np.ndarray:
    """Rows of the tank's fish (not the sharks)."""
    store = tank.flock.store
    return np.flatnonzero(store.species == tank.flock.species.index("fish"))


def _share_in_leader_group(tank: Tank) -> float:
    """Share of fish in the leader's group: fish are linked within their perception
    radius (metrics' `groups`), and a group is the leader's when one of its fish is within
    LEADER_LINK follow distances of the leader (the school settles one behind it)."""
    assert tank.leader is not None
    rows = fish_rows(tank)
    if not len(rows):
        return 0.0
    flock = tank.flock
    species = flock.species["fish"]
    wrap = (flock.config.width, flock.config.height) if flock.config.wraps else None
    labels = groups(flock.positions[rows], species.perception_radius, wrap)
    near = _offsets_to_leader(tank, rows) <= LEADER_LINK * species.follow_distance
    return float(np.mean(np.isin(labels, labels[near])))


def _offsets_to_leader(tank: Tank, rows: np.ndarray) -> np.ndarray:
    """Distance from each fish of `rows` to the leader (the short way round a torus)."""
    assert tank.leader is not None
    offsets = tank.flock.positions[rows] - (tank.leader.x, tank.leader.y)
    config = tank.flock.config
    if config.wraps:
        size = np.array([config.width, config.height])
        offsets -= np.rint(offsets / size) * size
    distances: np.ndarray = np.hypot(*offsets.T)
    return distances


def _share_hidden(tank: Tank) -> float:
    """Share of fish whose straight line to the leader meets a rock."""
    assert tank.leader is not None
    rows = fish_rows(tank)
    starts = tank.flock.positions[rows]
    ends = np.broadcast_to(np.array([(tank.leader.x, tank.leader.y)]), starts.shape)
    if tank.flock.config.wraps:  # the short way round
        size = np.array([tank.flock.config.width, tank.flock.config.height])
        ends = starts + (ends - starts) - np.rint((ends - starts) / size) * size
    blocked = first_hit(obstacle_field(tank.flock), starts, ends).obstacle >= 0
    return float(np.mean(blocked)) if len(rows) else 0.0


def _share_near_leader(tank: Tank, radius: float) -> float:
    rows = fish_rows(tank)
    return float(np.mean(_offsets_to_leader(tank, rows) <= radius)) if len(rows) else 0.0


def _check_free(tank: Tank, path: list[Point]) -> None:
    inside = inside_obstacle(obstacle_field(tank.flock), np.array(path, float))
    if inside.any():
        raise ValueError(f"tour of {tank.level.name}: waypoints {np.flatnonzero(inside)} in a rock")


def _length(path: list[Point]) -> float:
    return float(sum(math.dist(a, b) for a, b in itertools.pairwise(path)))


def _along(path: list[Point], distance: float) -> Point:
    """The point `distance` px along the polyline (its end beyond it)."""
    for a, b in itertools.pairwise(path):
        leg = math.dist(a, b)
        if distance <= leg:
            t = distance / leg
            return a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
        distance -= leg
    return path[-1]


class HeadingCheck:
    """Counts boids drawn more than 90° from their motion, with the render stage's heading
    smoothing (`shoal.systems.render.headings`, the default time constant)."""

    def __init__(self, flock: Flock) -> None:
        from shoal.systems.render.headings import heading_degrees
        from shoal.systems.render.looks import DEFAULT_HEADING_SMOOTHING

        self.flock = flock
        self.tau = DEFAULT_HEADING_SMOOTHING
        self.drawn = heading_degrees(flock.velocities).copy()
        self.before = flock.positions.copy()
        self.entities = flock.entities.copy()
        self.count = 0
        self.backwards = 0

    def record(self, rows: np.ndarray) -> None:
        """After a step: turn the drawn headings, compare with the motion of `rows`."""
        from shoal.systems.render.headings import (
            blend_factors,
            heading_degrees,
            smooth_headings,
            turn_between,
        )

        flock = self.flock
        if not np.array_equal(flock.entities, self.entities):  # boids eaten: start afresh,
            counted = self.count, self.backwards  # keeping what was counted so far
            self.__init__(flock)  # type: ignore[misc]
            self.count, self.backwards = counted
            return
        target = heading_degrees(flock.velocities)
        factors = blend_factors(DT, np.full(len(target), self.tau))
        self.drawn = smooth_headings(self.drawn, target, factors)
        moved = flock.positions - self.before
        self.before = flock.positions.copy()
        size = np.array([flock.config.width, flock.config.height])
        if flock.config.wraps:
            moved -= np.rint(moved / size) * size
        moving = rows[np.hypot(*moved[rows].T) > 0.2]
        motion = np.degrees(-np.arctan2(moved[moving, 1], moved[moving, 0]))
        off = np.abs(turn_between(self.drawn[moving], motion))
        self.count += len(moving)
        self.backwards += int(np.count_nonzero(off > 90.0))

    @property
    def share_backwards(self) -> float:
        """Share of the boid-steps recorded whose drawn heading was > 90° off their motion."""
        return self.backwards / self.count if self.count else 0.0


# --- the maze --------------------------------------------------------------------------
MAZE_WIDTH, MAZE_HEIGHT = 1600.0, 900.0
MAZE_TILE = 32.0
MAZE_COLUMNS = (400.0, 700.0, 1000.0, 1300.0)
MAZE_GAPS = (760.0, 140.0, 760.0, 140.0)
"""Centre (y) of each column's gap."""
MAZE_GAP = 4 * MAZE_TILE
MAZE_NEAR = 250.0
# 100 default followers keep up with a leader walking 60 px/s in open water (all within
# MAZE_NEAR when it stops); 200 do not even there (at 70 px/s, a fifth within 250 px after
# 40 s: the school trails out), so the maze asks what open water allows.
MAZE_FOLLOWERS = 100
MAZE_SPEED = 60.0


@dataclass(frozen=True, slots=True)
class MazeResult:
    """What a maze walk measured.

    Attributes:
        followers: followers at the start.
        near_at_stop: share of followers within MAZE_NEAR px of the leader when it stops,
            past the fourth column.
        near: that share SETTLE s later.
        seconds: simulated time of the walk.
        inside: the most followers inside a wall at any step.
    """

    followers: int
    near_at_stop: float
    near: float
    seconds: float
    inside: int


def maze_walls(make_wall: Callable[[float, float], Wall]) -> list[Wall]:
    """The maze's wall tiles: for each column, `make_wall(x, y)` (a sprite centred there) at
    every tile of the column but its gap."""
    walls = []
    for x, gap in zip(MAZE_COLUMNS, MAZE_GAPS, strict=True):
        for k in range(int(MAZE_HEIGHT // MAZE_TILE) + 1):
            y = (k + 0.5) * MAZE_TILE
            if abs(y - gap) > MAZE_GAP / 2:
                walls.append(make_wall(x, y))
    return walls


def maze_path() -> list[Point]:
    """The leader's way: from the left, through each gap, to the right end."""
    path: list[Point] = [(150.0, 450.0)]
    for x, gap in zip(MAZE_COLUMNS, MAZE_GAPS, strict=True):
        path += [(x - 90.0, gap), (x + 90.0, gap)]
    return [*path, (1500.0, 300.0)]


def run_maze(
    walls: Sequence[object],
    seed: int = 1,
    navigation: bool = True,
    world: str = "maze",
    merge: bool = True,
) -> tuple[MazeResult, Flock]:
    """Walk a leader through the maze of `walls` (sprites, see `maze_walls`) with followers;
    `merge=False` keeps each tile an obstacle of its own (as a host adding its sprites one
    by one used to)."""
    config = FlockConfig(width=MAZE_WIDTH, height=MAZE_HEIGHT, margin=30.0, seed=seed)
    flock = install(config, [Species("follower")], world=world)
    add_obstacles(flock, walls, merge=merge)
    navigator(flock).enabled = navigation
    path = maze_path()
    flock.scatter("follower", MAZE_FOLLOWERS, centre=path[0], radius=80.0)
    with flock.in_world():
        leader = esper.create_entity(Position(*path[0]), Velocity(), Leader())
    field = obstacle_field(flock)
    walked, inside, t, at_stop = 0.0, 0, 0.0, -1.0
    end = _length(path)
    while walked < end + SETTLE * MAZE_SPEED:  # on to the end, then SETTLE s there
        before = _along(path, walked)
        walked += MAZE_SPEED * DT
        x, y = _along(path, walked)
        with flock.in_world():
            esper.component_for_entity(leader, Position).xy = (x, y)
            esper.component_for_entity(leader, Velocity).xy = (
                (x - before[0]) / DT, (y - before[1]) / DT)  # fmt: skip
        flock.step(DT)
        t += DT
        inside = max(inside, int(inside_obstacle(field, flock.positions).sum()))
        if at_stop < 0 and walked >= end:
            at_stop = _near(flock, (x, y))
    result = MazeResult(MAZE_FOLLOWERS, at_stop, _near(flock, (x, y)), round(t, 2), inside)
    return result, flock


def _near(flock: Flock, point: Point) -> float:
    return float(np.mean(np.hypot(*(flock.positions - point).T) <= MAZE_NEAR))
