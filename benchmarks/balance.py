"""Level balance: scripted players play every bundled level through the game's own view.

Run: ``python benchmarks/balance.py`` (options: ``--levels reef kelp``, ``--players idle
clicker``, ``--seeds 0 1 2``, ``--seconds 60`` to cap each run; by default a run lasts until
the level ends, at most the level's own time limit, or 120 s of game time without one).

Each run builds the windowed game's `TankView` (headless, in a hidden window), starts the
level from its intro card with a key press and then feeds the view the input a player would
give: `on_mouse_motion`, `on_mouse_press` and `on_key_press`, in window pixels, before each
frame's `on_update` of exactly 1/60 s (one fixed step of the game's `StepClock`). Nothing is
drawn: the view's drawing does not change the game. The players:

- idle: never touches anything;
- random: moves the mouse to a random point of the tank about every second, never clicks;
- clicker: keeps the mouse on the leader fish and clicks food just above the school every
  frame (the game takes a click while the tank holds fewer than 100 pellets);
- reckless: leads the school home the shortest way (gathering the fish far from the leader
  first while too few are with it), never waiting for it, never steering round a shark;
- competent: leads the school home as the reckless player does, but waits for the school
  when it trails and steers away from the sharks within 200 px of the leader; never
  clicks.

It prints one row per level × player × seed: level, player, seed, outcome (won, lost or
unfinished when the limit came first), game time (s), fish home, fish lost to the sharks,
score; then the wall-clock time the whole took. Everything is seeded: the same options
print the same table.
"""

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import arcade

    from shoal.game.tank import Tank
    from shoal.game.tank_view import TankView

PLAYERS = ("idle", "random", "clicker", "reckless", "competent")
DEFAULT_SECONDS = 120.0
"""Game seconds a run lasts at most in a level without a time limit."""
RANDOM_EVERY = 60
"""Frames between the random player's mouse moves (a second at 60 frames a second)."""
SHARK_RADIUS = 200.0
"""px: the competent player steers away from the sharks this close to the leader."""
STEER_AHEAD = 150.0
"""px: how far the competent player pushes the mouse away from a close shark."""
GATHER_RADIUS = 300.0
"""px: fish this close to the leader are with it (a follower's default leader_range)."""
WAIT_FOR = 150.0
"""px: the competent player waits while the median fish with the leader is further off."""
FOOD_ABOVE = 40.0
"""px: the clicker drops food this far above the school's middle (pellets sink into it)."""
WINDOW = (1280, 720)  # the game's own window size (game/play.py)


@dataclass(frozen=True, slots=True)
class Row:
    """One run's result."""

    level: str
    player: str
    seed: int
    outcome: str  # "won", "lost" or "unfinished"
    seconds: float  # game time when the run stopped
    fish_home: int
    fish_lost: int  # eaten by the sharks
    score: int


class Player:
    """A scripted player: given the view before each frame, it sends the view input events.

    Input goes through the view's handlers in window pixels, as pyglet would deliver it,
    so the camera's mapping and `Controls.click` are part of what is measured.
    """

    def __init__(self, view: "TankView", seed: int) -> None:
        self.view = view
        self.rng = random.Random(seed)
        self.mouse = (WINDOW[0] // 2, WINDOW[1] // 2)

    def act(self, frame: int) -> None:
        """This frame's input (none by default: the idle player)."""

    def move_to_world(self, x: float, y: float) -> None:
        """Move the mouse onto the tank point (x, y)."""
        screen = self.view.camera.project((x, y))
        # Mouse events carry whole pixels: the rounding a real mouse has.
        sx, sy = round(screen.x), round(screen.y)
        self.view.on_mouse_motion(sx, sy, sx - self.mouse[0], sy - self.mouse[1])
        self.mouse = (sx, sy)

    def click_world(self, x: float, y: float) -> None:
        """A left click on the tank point (x, y)."""
        import arcade

        screen = self.view.camera.project((x, y))
        self.view.on_mouse_press(round(screen.x), round(screen.y), arcade.MOUSE_BUTTON_LEFT, 0)

    # --- what the players look at -------------------------------------------------------
    @property
    def tank(self) -> "Tank":
        """The tank being played."""
        return self.view.tank

    def leader(self) -> tuple[float, float]:
        """Where the leader fish is (the levels all have one)."""
        leader = self.tank.leader
        assert leader is not None, "the balance players lead the school: a leader is needed"
        return leader.x, leader.y

    def positions(self, species: str) -> np.ndarray:
        """(n, 2) positions of the boids of `species`."""
        flock = self.tank.flock
        mask = flock.store.species == flock.species.index(species)
        return np.asarray(flock.store.positions[mask], float)

    def offsets(self, points: np.ndarray, origin: tuple[float, float]) -> np.ndarray:
        """`points` less `origin`, the short way round in a wrapping tank."""
        delta = np.asarray(points, float).reshape(-1, 2) - origin
        level = self.tank.level
        if level.boundary == "wrap":
            size = np.array([level.width, level.height])
            delta -= np.round(delta / size) * size
        return delta

    def in_tank(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) brought into the tank (round the edges of a wrapping one)."""
        level = self.tank.level
        if level.boundary == "wrap":
            return x % level.width, y % level.height
        return min(max(x, 0.0), level.width), min(max(y, 0.0), level.height)


class RandomPlayer(Player):
    """Moves the mouse to a random point of the tank every `RANDOM_EVERY` frames."""

    def act(self, frame: int) -> None:
        """Now and then, a new random point."""
        if frame % RANDOM_EVERY == 0:
            level = self.tank.level
            self.move_to_world(self.rng.uniform(0, level.width), self.rng.uniform(0, level.height))


class Clicker(Player):
    """Keeps the mouse on the leader and clicks food above the school, every frame."""

    def act(self, frame: int) -> None:
        """Follow the leader; a click above the middle of the school."""
        lx, ly = self.leader()
        self.move_to_world(lx, ly)
        fish = self.positions("fish")
        if not len(fish):
            return
        # The median is the middle of the bulk of the school, not of a few strays; taken
        # as offsets from the leader so a school across a wrapping edge is not split.
        mx, my = np.median(self.offsets(fish, (lx, ly)), axis=0)
        self.click_world(*self.in_tank(lx + float(mx), ly + float(my) + FOOD_ABOVE))


class Reckless(Player):
    """Leads the school home the shortest way: gathers the fish far from the leader first
    (as `Competent` does) but never waits for the school and never steers round a shark."""

    wait = False
    dodge = False

    def act(self, frame: int) -> None:
        """Aim the mouse at the gathering point or home (away from close sharks, and
        waiting for the school, only as a subclass asks)."""
        lx, ly = self.leader()
        fish = self.offsets(self.positions("fish"), (lx, ly))
        if not len(fish):
            return
        distance = np.hypot(*fish.T)
        goal_point = self.goal_point(fish, distance)
        if goal_point is None:
            return
        with_leader = distance[distance <= GATHER_RADIUS]
        if self.wait and len(with_leader) and float(np.median(with_leader)) > WAIT_FOR:
            goal_point = np.zeros(2)  # the school trails: stop and let it catch up
        direction = np.asarray(goal_point, float)
        for dx, dy in self.offsets(self.positions("shark"), (lx, ly)) if self.dodge else ():
            away = math.hypot(dx, dy)
            if away < SHARK_RADIUS:
                # A push away from the shark, as long as the way ahead at half the radius.
                push = STEER_AHEAD * 2.0 * (SHARK_RADIUS - away) / SHARK_RADIUS
                direction -= np.array([dx, dy]) / max(away, 1.0) * push
        self.move_to_world(*self.in_tank(lx + float(direction[0]), ly + float(direction[1])))

    def goal_point(self, fish: np.ndarray, distance: np.ndarray) -> np.ndarray | None:
        """Where to lead now, as an offset from the leader (None: nowhere to go): the
        middle of the fish far from the leader while too few are with it to meet the
        level's goal, else the home."""
        tank = self.tank
        needed = tank.goal.fish_home - tank.fish_home
        far = distance > GATHER_RADIUS
        if np.count_nonzero(~far) < needed and np.any(far):
            return np.asarray(np.median(fish[far], axis=0))  # gather the others first
        home = tank.level.home
        if home is None:
            return None
        lx, ly = self.leader()
        offset: np.ndarray = self.offsets(np.array([[home.x, home.y]]), (lx, ly))[0]
        return offset


class Competent(Reckless):
    """Leads the school home: gathers the fish first, waits while the school trails more
    than `WAIT_FOR` px behind (the mouse on the leader: it slows to a stop and the school
    catches up), and steers away from any shark within `SHARK_RADIUS` px; never clicks.
    The leader finds its own way round the rocks."""

    wait = True
    dodge = True


MAKERS: dict[str, Callable[["TankView", int], Player]] = {
    "idle": Player, "random": RandomPlayer, "clicker": Clicker, "reckless": Reckless,
    "competent": Competent,
}  # fmt: skip


def play(window: "arcade.Window", level_name: str, player_name: str, seed: int,
         seconds: float | None) -> Row:  # fmt: skip
    """One run of `level_name` by `player_name` with `seed`, at most `seconds` of game time
    (None: until the level ends, or `DEFAULT_SECONDS` in a level without a time limit)."""
    import arcade

    from shoal.game.level import load_level
    from shoal.game.tank import DT, Tank
    from shoal.game.tank_view import TankView

    level = load_level(level_name)
    view = TankView(level, lambda lv: Tank(lv, seed=seed), intro=True)
    window.show_view(view)
    tank = view.tank
    if seconds is not None:
        frames = round(seconds / DT)
    elif level.goal.time_limit:
        # The level ends itself at its time limit; two frames spare for the rounding of
        # the game's clock (60 steps of 1/60 s may add up to a hair under a second).
        frames = round(level.goal.time_limit / DT) + 2
    else:
        frames = round(DEFAULT_SECONDS / DT)
    view.on_key_press(arcade.key.ENTER, 0)  # any key starts the level from its card
    assert not view.waiting, "the intro card did not go away"
    player = MAKERS[player_name](view, seed)
    for frame in range(frames):
        if tank.status != "playing":
            break
        player.act(frame)
        before = view.steps_taken
        view.on_update(DT)
        assert view.steps_taken == before + 1, "a 1/60 s frame must run exactly one step"
    row = Row(level_name, player_name, seed,
              tank.status if tank.status != "playing" else "unfinished",
              round(tank.time, 2), tank.fish_home, tank.fish_eaten, tank.score)  # fmt: skip
    tank.close()
    return row


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play every run asked for and print the table."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")  # before arcade is first imported
    import arcade

    from shoal.game.level import level_names

    names = level_names()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", choices=names, default=names)
    parser.add_argument("--players", nargs="+", choices=PLAYERS, default=list(PLAYERS))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--seconds", type=float, default=None,
                        help="game seconds a run lasts at most (default: the level's "
                             f"time limit, or {DEFAULT_SECONDS:.0f} s without one)")  # fmt: skip
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    window = arcade.Window(*WINDOW, "balance benchmark", visible=False)
    started = time.perf_counter()
    header = f"{'level':<12}{'player':<11}{'seed':>5}  {'outcome':<11}{'time s':>8}"
    print(f"{header}{'home':>6}{'lost':>6}{'score':>7}", flush=True)
    for level_name in args.levels:
        for player_name in args.players:
            for seed in args.seeds:
                r = play(window, level_name, player_name, seed, args.seconds)
                print(f"{r.level:<12}{r.player:<11}{r.seed:>5}  {r.outcome:<11}"
                      f"{r.seconds:>8.2f}{r.fish_home:>6}{r.fish_lost:>6}{r.score:>7}",
                      flush=True)  # fmt: skip
    window.close()
    print(f"took {time.perf_counter() - started:.1f} s (wall clock)")


if __name__ == "__main__":
    main()
