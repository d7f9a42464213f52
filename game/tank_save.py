"""A level left mid-way: the tank saved when the player quits, and taken up again.

The save is one file, ``tank-save.npz``, beside the best scores in the user's data folder
(`records.data_folder`): the flock's own snapshot (`shoal.systems.saving`: fish, sharks,
their random generator, clock and navigation) and the tank's state (`TANK_KEYS`: the level,
the setup it was played with, time played, score so far, food left to drop, the leader and
where it was heading, every pellet and how fast it sinks). A finished level deletes it.

A save is untrusted like any file: one from another version, broken or hand-edited is
ignored with one line saying why (`SaveError`), never a crash, and never half restored:
everything is checked before the tank changes.
"""

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import esper
import numpy as np
import numpy.typing as npt

from shoal.components import Food, Position
from shoal.game.food import Sinking
from shoal.game.leader_fish import LeaderState
from shoal.game.level import Level, LevelError, load_level
from shoal.game.outputs import shown
from shoal.game.records import data_folder
from shoal.game.tank import MAX_FOOD_IN_TANK, Tank
from shoal.systems import SaveError, read_snapshot, restore, snapshot, write_snapshot
from shoal.systems.flock.ecs import in_world

FILE = "tank-save.npz"
TANK_KEYS = (
    "tank.key", "tank.level", "tank.time", "tank.counts", "tank.practice", "tank.leader",
    "tank.target", "tank.food",
)  # fmt: skip
"""The tank's own entries in a save (the rest is the flock's snapshot)."""
_LONGEST = 1e9  # s of play, points: more is a hand-edited file


def save_path() -> Path:
    """Where the game keeps a level left mid-way (not created here)."""
    return data_folder() / FILE


@dataclass(frozen=True, slots=True)
class TankSave:
    """A save read back: what the game offers to continue, and the arrays to do it with."""

    path: Path
    key: str  # the level's setup key (`records.setup_key`): the same options to continue
    level: str  # the level's name
    time: float  # seconds played
    arrays: dict[str, npt.NDArray[Any]]
    title: str = ""  # the level's title, once the game found the level


def write_tank(tank: Tank, key: str, path: Path) -> None:
    """Save `tank` (a level being played) under setup `key`.

    Raises:
        OSError: the file cannot be written.
    """
    saved = snapshot(tank.flock)
    leader = tank.leader
    food = []
    with in_world(tank.world):
        for entity, (item, position) in sorted(esper.get_components(Food, Position)):
            sinking = esper.try_component(entity, Sinking)
            speed = -1.0 if sinking is None else sinking.speed
            food.append((position.x, position.y, item.bites, item.radius, speed))
    drops = -1 if tank.drops_left is None else tank.drops_left
    saved.update({
        "tank.key": np.array(key), "tank.level": np.array(tank.level.name),
        "tank.time": np.array(tank.time),
        "tank.counts": np.array([tank.food_eaten, tank.fish_eaten, tank.fish_home, drops]),
        "tank.practice": np.array(tank.practice),
        "tank.leader": np.array([] if leader is None else
                                [leader.x, leader.y, leader.heading, leader.speed], float),
        "tank.target": np.array(tank.target, float),
        "tank.food": np.array(food, float).reshape(-1, 5),
    })  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    write_snapshot(path, saved)


def keep(tank: Tank, key: str, path: Path) -> str:
    """Save a level being played (`write_tank`) for next time; "" or the problem in a line.
    Nothing is kept of a level not begun, ended, or in free swim."""
    if tank.status != "playing" or tank.free or tank.time <= 0.0:
        return ""
    try:
        write_tank(tank, key, path)
    except OSError as error:
        return f"cannot save the game to {shown(path)}: {error.strerror or error}"
    return ""


def offer_of(path: Path, key_of: Callable[[Level], str]) -> tuple[TankSave | None, str]:
    """The save at `path` to offer, if there is one that was played with the setup
    `key_of` gives its level; else None and why not in a line ("" when there is none)."""
    try:
        offer = read_tank(path)
        if offer is None:
            return None, ""
        level = load_level(offer.level)
    except (SaveError, LevelError) as error:
        return None, str(error)
    if key_of(level) != offer.key:
        return None, f"{shown(path)} was played with other options"
    return replace(offer, title=level.title), ""


def read_tank(path: Path) -> TankSave | None:
    """The save at `path`, None if there is none.

    Raises:
        SaveError: one line naming the file and what is wrong with the tank's part (the
            flock's part is checked when it is restored).
    """
    if not path.exists():
        return None
    arrays = read_snapshot(path)
    name = str(path)
    for wanted in TANK_KEYS:
        if wanted not in arrays:
            raise SaveError(f"{name}: not a saved fish tank (no {wanted})")
    key, level, played = arrays["tank.key"], arrays["tank.level"], arrays["tank.time"]
    if not all(a.shape == () and a.dtype.kind == "U" for a in (key, level)):
        raise SaveError(f"{name}: tank.key, tank.level: must be names")
    if played.shape != () or played.dtype.kind != "f" or not 0.0 <= float(played) <= _LONGEST:
        raise SaveError(f"{name}: tank.time: must be seconds >= 0")
    return TankSave(path, str(key), str(level), float(played), arrays)


def resume(tank: Tank, saved: TankSave) -> None:
    """Put a save into `tank`, a fresh tank of the saved level made with the same options:
    the flock as it was, the pellets, the leader, the time and the score so far.

    Raises:
        SaveError: the save does not fit this tank, or is broken (one line naming the
            file); the tank is unchanged.
    """
    name, arrays = str(saved.path), saved.arrays
    if saved.level != tank.level.name:
        raise SaveError(f"{name}: saved in level {saved.level!r}, not {tank.level.name!r}")
    counts, leader, target, food = _tank_values(name, arrays, tank)
    flock_part = {k: v for k, v in arrays.items() if not k.startswith("tank.")}
    with in_world(tank.world):  # the level's own pellets go: the saved ones replace them
        pellets = [entity for entity, _ in esper.get_component(Food)]
    restore(tank.flock, flock_part, source=name)  # checks everything before it changes any
    with in_world(tank.world):
        for entity in pellets:
            esper.delete_entity(entity, immediate=True)
        for x, y, bites, radius, speed in food.tolist():
            parts: list[object] = [Position(x, y), Food(int(bites), radius)]
            if speed >= 0.0:
                parts.append(Sinking(speed))
            esper.create_entity(*parts)
    tank.time = saved.time
    tank.food_eaten, tank.fish_eaten, tank.fish_home, drops = counts
    tank.drops_left = None if drops < 0 else drops
    tank.practice = str(arrays["tank.practice"])
    if tank.leader is not None and leader is not None:
        tank.leader = leader
    tank.target = target
    tank.leader_before = tank.leader_at()
    tank.food_before = {}


def _tank_values(name: str, arrays: dict[str, npt.NDArray[Any]], tank: Tank
                 ) -> tuple[list[int], LeaderState | None, tuple[float, float],
                            npt.NDArray[np.float64]]:  # fmt: skip
    """The tank's part of a save, checked: counts, leader, target, pellets."""

    def fail(why: str) -> SaveError:
        return SaveError(f"{name}: {why}")

    counts, leader = arrays["tank.counts"], arrays["tank.leader"]
    if (
        counts.shape != (4,)
        or counts.dtype.kind != "i"
        or not (counts.min() >= -1 and counts[:3].min() >= 0 and counts.max() <= _LONGEST)
    ):
        raise fail(
            "tank.counts: must be 4 whole numbers >= 0 (food eaten, fish eaten, home, drops)"
        )
    if arrays["tank.practice"].dtype.kind != "U" or arrays["tank.practice"].shape:
        raise fail("tank.practice: must be a line of text")
    width, height = tank.level.width, tank.level.height
    state = None
    if leader.dtype.kind != "f" or leader.shape not in ((0,), (4,)):
        raise fail("tank.leader: must be x, y, heading, speed (or nothing)")
    if leader.shape == (4,):
        x, y, heading, speed = leader.tolist()
        if not (0 <= x <= width and 0 <= y <= height and abs(heading) < 1e3
                and 0 <= speed <= _LONGEST):  # fmt: skip
            raise fail("tank.leader: outside the tank, or not finite numbers")
        state = LeaderState(x, y, heading, speed)
    target = arrays["tank.target"]
    if target.shape != (2,) or target.dtype.kind != "f" or not np.all(np.isfinite(target)):
        raise fail("tank.target: must be a point (x, y)")
    food = arrays["tank.food"]
    if food.dtype.kind != "f" or food.ndim != 2 or food.shape[1] != 5:
        raise fail("tank.food: must be rows of x, y, bites, radius, sinking speed")
    if len(food) > MAX_FOOD_IN_TANK or not np.all(np.isfinite(food)):
        raise fail(f"tank.food: at most {MAX_FOOD_IN_TANK} pellets of finite numbers")
    x, y, bites, radius, speed = food.T
    inside = (x >= 0) & (x <= width) & (y >= 0) & (y <= height)
    sound = (bites >= 1) & (bites == np.floor(bites)) & (bites <= 1e6) & (radius > 0)
    if not np.all(inside & sound & (radius <= 1e3) & (speed >= -1.0) & (speed <= 1e4)):
        raise fail("tank.food: a pellet outside the tank, or with bites or size out of range")
    found = [int(v) for v in counts.tolist()]
    return found, state, (float(target[0]), float(target[1])), food.astype(np.float64)


def clear(path: Path) -> None:
    """Delete the save (a finished level); no error if there is none or it cannot go."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
