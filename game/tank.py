"""The fish tank as a simulation: a level's world, the player's leader, the goal and score.

Over 400 lines: the tank's state (world, leader, food, goal, score) changes together every
step; the food, the leader's swimming and the open water are modules of their own.

No arcade here: the tank runs and is tested without a window; `game/tank_view.py` draws it.
"""

import itertools
import math
from dataclasses import dataclass, replace

import esper
import numpy as np

from shoal.components import Food, Leader, Obstacle, Position, Species, Velocity
from shoal.game.food import Sinking, TankSpace, drop_spot, free_spot, sink_food
from shoal.game.leader_fish import WAYPOINT_AHEAD, LeaderState, patrol_point, swim_towards
from shoal.game.level import Goal, Level, SpawnPoint
from shoal.game.open_water import OpenWaterSystem, RoomSystem
from shoal.systems import (
    BOID_EATEN,
    FOOD_BITTEN,
    SEEKING_PRIORITY,
    FlockConfig,
    inside_obstacle,
    install,
    navigator,
    obstacle_field,
)
from shoal.systems.flock.ecs import entities_with, in_world
from shoal.systems.metrics import group_count, mean_nn_distance, milling, polarization
from shoal.systems.obstacles.field import surface

DT = 1.0 / 60.0
MIN_FISH = 1
"""The fewest fish the game offers (--fish, the panel's slider): a tank of none has no one
to eat the food, and a level without a time limit could never end."""
MAX_FISH = 2000
"""The most fish the game offers (--fish, the panel's slider): what it can run at 60 steps
a second on a 2-core machine, drawing included (benchmarks/game_frames.py measures it)."""
# The "accumulate" style adds up separation from every close neighbour (Reynolds' style
# steers towards one averaged direction, so a crowd's pushes cancel and a big school packs
# ever tighter), out to a body length (the game draws a fish 24 px long). max_force caps
# what a fish does in a step, separation included: at 400 px/s² a fish could not turn from a
# crowd before it was in it, so the cap is high (the goals' pulls do not grow with it: a
# seek asks at most twice the max speed). A little random turning (heading_noise) parts
# fish that a rock's surface put on one spot: two boids on one spot get no separation and,
# moved alike, stayed on one spot. RoomSystem keeps fish off the rocks. Seeing all round
# would space a crowd more but lost the school its leader (the navigation tours). Measured
# with benchmarks/game_spacing.py (2,000 fish, seed 1, after 10 s), the median distance to
# the nearest fish, before → now: reef 9.8 → 10.6 px, open water 17.4 → 20.6, caves 5.8 →
# 7.5, kelp 5.7 → 7.4, and the crowded tenth no longer lies on one spot (kelp 1.1 → 2.6 px).
# The leader pulls hard (leader_weight 4; the leader swims slower than the fish,
# leader_fish.LEADER_SPEED), so the school keeps round it: on the autopilot's tour (no food
# or sharks, seeds 0-2, 60 s, benchmarks/follow.py) 62-82 % of the fish within 200 px of it
# and 98-100 % in its group (26-68 % and 30-85 % with 0.6 and a leader at 150 px/s). That
# pull packs a school, so each fish keeps a body of 21 px (personal_space): a level's school
# keeps a median 20-24 px to its nearest fish (16-19 px with the default 10). A fish a
# shark scares bursts to twice its speed for 0.6 s (the flash expansion the player sees):
# the led school loses 1-2 fish in the caves, 5-6 in open water (2-3 and 4-9 without;
# benchmarks/balance.py, competent player, seeds 0-1). Rejoining (rejoin_weight) is left
# off: the leader's pull already draws a split school back, and rejoining held 180 fish
# further from a stopped leader (tests/test_navigation_scenes.py).
FISH = Species(
    "fish", steering="accumulate", separation_weight=4.0, separation_radius=24.0,
    cohesion_weight=2.0, max_force=1500.0, leader_weight=4.0, personal_space=21.0,
    food_weight=2.0, fear_radius=120, heading_noise=0.3, burst_factor=2.0, burst_time=0.6,
)  # fmt: skip
# Sharks hunt alone: no alignment or cohesion, and each keeps away from the others out to its
# perception radius (the "avoid" relation, set in Tank). A long look-ahead, a strong obstacle
# weight and a quick turn keep them off the rocks; OpenWaterSystem (game/open_water.py)
# keeps them in open water and a shark's length apart. Measured over 30 s (autopilot) on
# caves seeds 0-4, kelp 0-2 and open water 0-2: no shark stays within 20 px of a spot for
# more than 1.4 s (a U-turn at its minimum speed; before, sharks sat pinned in a crevice of
# the caves for 6-19 s), sharks at least 151 px apart (59-97 px before) and within 25 px of
# a rock 0-6 % of the time (0-2.1 % on kelp seeds 0-7 and caves 0-4 since the open-water
# push was raised to 2,000 px/s², 2026-11-26).
SHARK = Species(
    "shark", min_speed=40, max_speed=125, max_force=260, max_turn_rate=240,
    perception_radius=150, separation_radius=120, separation_weight=3.0, alignment_weight=0.0,
    cohesion_weight=0.0, fov_degrees=300, obstacle_weight=6.0, look_ahead=1.5,
    catch_radius=12, catch_cooldown=4.0, wander_weight=0.8, wander_rate=1.0, leader_weight=0,
    food_weight=0,
)  # fmt: skip
LEADER_BODY = 6.0  # px: half the leader's width, kept clear of rocks on its way
DROPPED_FOOD = Food(bites=3, radius=6)
SINK_SPEED = 35.0  # px/s
MAX_FOOD_IN_TANK = 100
"""Most pellets in the tank at once (a level's and dropped ones): each costs Python work
every step (sinking, seeking, bites); clicking on, a player once made 2,000 that cost 38 ms
a step. The packaged levels start with 4 to 7."""
# The score rewards what leading does: every fish brought home (a fish lost to a shark is 10
# points gone) and the seconds to spare (a quick win is worth up to a fifth more). Food is a
# lure, worth a point a bite: clicking cannot buy a score.
POINTS_PER_FISH_HOME = 10
POINTS_PER_SECOND_LEFT = 2  # for each second of the time limit left when the level is won
POINTS_PER_BITE = 1

_worlds = itertools.count()


@dataclass(frozen=True, slots=True)
class Misplaced:
    """Agents inside a rock or outside the tank (all 0 in a sound tank)."""

    fish: int
    sharks: int
    leader: int
    food: int

    @property
    def total(self) -> int:
        """All of them."""
        return self.fish + self.sharks + self.leader + self.food


@dataclass(frozen=True, slots=True)
class StatsRecord:
    """One simulated second of metrics (the --stats file has one per second)."""

    t: float
    fish: int
    polarization: float
    milling: float
    nn_distance: float | None  # None with fewer than two fish
    groups: int
    fish_eaten: int
    food_eaten: int
    outside: int
    inside_obstacles: int


class Tank:
    """One level being played: its flock, obstacles, food, sharks, leader, goal and score.

    Args:
        level: the level to build.
        seed: seed of everything random.
        fish: number of fish (None: the level's spawn counts), spread over its spawn points.
        species: the fish species (e.g. a preset applied to `FISH`).
        leader: False lets the school swim without a leader.
        autopilot: the leader follows a scripted path instead of the player's target.
        free: free swim: no goal and no end, and food without limit (for watching the
            presets and the tuning panel).
    """

    def __init__(
        self,
        level: Level,
        *,
        seed: int = 0,
        fish: int | None = None,
        species: Species = FISH,
        leader: bool = True,
        autopilot: bool = False,
        free: bool = False,
    ) -> None:
        if fish is not None and not MIN_FISH <= fish <= MAX_FISH:
            raise ValueError(f"Tank: fish must be in {MIN_FISH}..{MAX_FISH}, got {fish}")
        self.level = level
        self.autopilot = autopilot
        self.free = free
        self.world = f"tank-{next(_worlds)}"
        margin = min(40.0, level.width / 5, level.height / 5)
        config = FlockConfig(
            width=level.width, height=level.height, boundary=level.boundary, margin=margin,
            seed=seed,
        )  # fmt: skip
        self.flock = install(config, [species, SHARK], world=self.world)
        self.flock.relate("shark", "fish", "chase")
        self.flock.relate("fish", "shark", "flee")
        self.flock.relate("shark", "shark", "avoid")
        self.goal = _scaled_goal(level, fish)
        self.time = 0.0
        self.food_eaten = 0
        self.fish_eaten = 0
        self.fish_home = 0  # fish that reached the home (they leave the tank, safe)
        self.drops_left = None if free else level.food_drops  # None: no limit
        self.status = "playing"
        self.reason = ""  # why the level was won or lost, for the end screen
        self.practice = ""  # why this run does not count (a change made with the panel)
        self.leader: LeaderState | None = LeaderState(*level.leader) if leader else None
        self.target = level.leader
        self._leader_entity = -1
        self._populate(fish)
        self.space = TankSpace(level.width, level.height, level.boundary == "wrap",
                               obstacle_field(self.flock))  # fmt: skip
        self._place_food()
        self.leader_before = self._leader_pose()
        self.food_before: dict[int, tuple[float, float]] = {}
        self.flock.set_handler(FOOD_BITTEN, self._on_bite)
        self.flock.set_handler(BOID_EATEN, self._on_catch)

    # --- building ------------------------------------------------------------------------
    def _populate(self, fish: int | None) -> None:
        level, flock = self.level, self.flock
        with in_world(self.world):
            for obstacle in level.obstacles:
                esper.create_entity(Obstacle(obstacle.shape))
            for drop in level.food:
                esper.create_entity(Position(drop.x, drop.y), Food(drop.bites, drop.radius))
            if self.leader is not None:
                self._leader_entity = esper.create_entity(
                    Position(self.leader.x, self.leader.y), Velocity(), Leader(("fish",))
                )
            flock.current = level.current
            esper.add_processor(OpenWaterSystem(flock, "shark"), SEEKING_PRIORITY - 60)
            esper.add_processor(RoomSystem(flock, "fish"), SEEKING_PRIORITY - 70)
        for spawn, count in zip(level.spawns, _spread(fish, level), strict=True):
            centre, radius = _spawn_disc(level, spawn, count)
            flock.scatter("fish" if spawn.species not in flock.species else spawn.species,
                          count, centre=centre, radius=radius)  # fmt: skip
        if level.sharks:
            flock.spawn("shark", np.asarray(level.sharks, float))

    def close(self) -> None:
        """Stop listening to the tank's events and delete its esper world."""
        self.flock.remove_handler(FOOD_BITTEN, self._on_bite)
        self.flock.remove_handler(BOID_EATEN, self._on_catch)
        if self.world in esper.list_worlds():
            if esper.current_world == self.world:
                esper.switch_world("default")
            esper.delete_world(self.world)

    # --- playing -------------------------------------------------------------------------
    def step(self, dt: float = DT) -> None:
        """Move the leader and the food, then one fixed step of everything; check the goal."""
        if self.status != "playing":
            return
        self.leader_before = self._leader_pose()
        self.food_before = {entity: (x, y) for entity, x, y, _ in self.food()}
        self._move_leader(dt)
        with in_world(self.world):
            sink_food(self.space, dt)
        self.flock.step(dt)
        self.time += dt
        if not self.free:  # a free swim keeps every fish in view, and never ends
            self._bring_home()
            self._check_goal()

    def cannot_drop(self) -> str:
        """Why the player cannot drop a pellet now ("" when it can)."""
        if self.drops_left == 0:
            return "No food left to drop in this level: lead the school instead."
        with in_world(self.world):
            if len(entities_with(Food)) >= MAX_FOOD_IN_TANK:
                return f"The tank holds {MAX_FOOD_IN_TANK} pellets: let the fish eat some first."
        return ""

    def drop_food(self, x: float, y: float) -> tuple[float, float] | None:
        """Drop a pellet that sinks (a click in the game) at the free spot nearest (x, y)
        (a click in a rock drops it beside the rock); returns where it was dropped, or None
        when the player cannot drop one now (`cannot_drop` says why)."""
        if self.cannot_drop():
            return None
        if self.drops_left is not None:
            self.drops_left -= 1
        with in_world(self.world):
            x, y = drop_spot(self.space, x, y, DROPPED_FOOD.radius)  # beside any it would stack on
            esper.create_entity(Position(x, y), Sinking(SINK_SPEED),
                                Food(DROPPED_FOOD.bites, DROPPED_FOOD.radius))  # fmt: skip
        return x, y

    @property
    def fish(self) -> int:
        """Fish alive."""
        return int(np.count_nonzero(self.flock.store.species == self.flock.species.index("fish")))

    @property
    def score(self) -> int:
        """Points: fish brought home and bites eaten, plus the seconds left of the time
        limit once the level is won."""
        limit = self.goal.time_limit
        spare = max(0.0, limit - self.time) if self.status == "won" and limit else 0.0
        return (self.fish_home * POINTS_PER_FISH_HOME + self.food_eaten * POINTS_PER_BITE
                + int(spare) * POINTS_PER_SECOND_LEFT)  # fmt: skip

    def food(self) -> list[tuple[int, float, float, float]]:
        """(entity, x, y, radius) of every food item."""
        with in_world(self.world):
            return [(e, p.x, p.y, f.radius) for e, (f, p) in esper.get_components(Food, Position)]

    def food_items(self, alpha: float = 1.0) -> list[tuple[float, float, float]]:
        """(x, y, radius) of every food item, `alpha` of the way from the previous step to
        the latest (for drawing)."""
        items = []
        for entity, x, y, radius in self.food():
            bx, by = self.food_before.get(entity, (x, y))
            items.append((bx + (x - bx) * alpha, by + (y - by) * alpha, radius))
        return items

    def leader_at(self, alpha: float = 1.0) -> tuple[float, float, float] | None:
        """The leader's x, y and heading (rad) `alpha` of the way from the previous step to
        the latest (None without a leader)."""
        now = self._leader_pose()
        if now is None or self.leader_before is None:
            return now
        (bx, by, bh), (x, y, h) = self.leader_before, now
        if self.level.boundary == "wrap":  # across an edge: the short way
            x = bx + _wrapped(x - bx, self.level.width)
            y = by + _wrapped(y - by, self.level.height)
        turn = _wrapped(h - bh, 2 * math.pi)
        return bx + (x - bx) * alpha, by + (y - by) * alpha, bh + turn * alpha

    def mark_practice(self, why: str) -> None:
        """This run no longer counts (the fish were changed mid-level): say why."""
        if self.status == "playing" and not self.practice:
            self.practice = why

    # --- measuring -----------------------------------------------------------------------
    def stats(self) -> StatsRecord:
        """The metrics of the school now."""
        store, config = self.flock.store, self.flock.config
        fish = store.species == self.flock.species.index("fish")
        pos, vel = store.positions[fish], store.velocities[fish]
        wrap = (config.width, config.height) if config.wraps else None
        radius = self.flock.species["fish"].perception_radius
        outside = (pos < 0) | (pos > (config.width, config.height))
        inside = inside_obstacle(obstacle_field(self.flock), pos) if len(pos) else np.zeros(0)
        nn = mean_nn_distance(pos, wrap) if len(pos) > 1 else math.nan
        return StatsRecord(
            t=round(self.time, 3), fish=len(pos), polarization=polarization(vel),
            milling=milling(pos, vel) if len(pos) else 0.0,
            nn_distance=None if math.isnan(nn) else nn,
            groups=group_count(pos, radius, wrap) if len(pos) else 0,
            fish_eaten=self.fish_eaten, food_eaten=self.food_eaten,
            outside=int(np.count_nonzero(outside.any(axis=1))),
            inside_obstacles=int(np.count_nonzero(inside)),
        )  # fmt: skip

    def misplaced(self) -> Misplaced:
        """Boids, leader and food inside a rock or outside the tank, now."""
        width, height, field = self.level.width, self.level.height, self.space.field
        store = self.flock.store
        fish = store.species == self.flock.species.index("fish")
        leader = [] if self.leader is None else [(self.leader.x, self.leader.y)]
        counts = []
        for points in (store.positions[fish], store.positions[~fish], leader,
                       [(x, y) for _, x, y, _ in self.food()]):  # fmt: skip
            pts = np.asarray(points, float).reshape(-1, 2)
            bad = ((pts < 0) | (pts > (width, height))).any(axis=1)
            if len(field) and len(pts):
                bad |= inside_obstacle(field, pts)
            counts.append(int(np.count_nonzero(bad)))
        return Misplaced(*counts)

    # --- internals -----------------------------------------------------------------------
    def _leader_pose(self) -> tuple[float, float, float] | None:
        leader = self.leader
        return None if leader is None else (leader.x, leader.y, leader.heading)

    def _place_food(self) -> None:
        """The level's own pellets, moved out of any rock they were put in."""
        with in_world(self.world):
            for _, (food, position) in esper.get_components(Food, Position):
                position.xy = free_spot(self.space, position.x, position.y, food.radius)

    def _move_leader(self, dt: float) -> None:
        if self.leader is None:
            return
        level = self.level
        target = patrol_point(self.time, level.width, level.height) if self.autopilot else (
            self.target)  # fmt: skip
        waypoint, remaining = self._way_round(target)
        swim_towards(self.leader, waypoint, dt, remaining)
        self._keep_leader_in_the_tank()
        with in_world(self.world):
            esper.component_for_entity(self._leader_entity, Position).xy = (
                self.leader.x, self.leader.y)  # fmt: skip
            esper.component_for_entity(self._leader_entity, Velocity).xy = self.leader.velocity

    def _way_round(self, target: tuple[float, float]) -> tuple[tuple[float, float], float]:
        """The leader's next waypoint towards `target` round the rocks, and how far it is
        (a target in a rock is moved to the free spot nearest it)."""
        leader = self.leader
        assert leader is not None
        if len(self.space.field):
            target = free_spot(self.space, *target, LEADER_BODY)
        nav = navigator(self.flock)
        x, y, remaining = nav.waypoint(target, (leader.x, leader.y), WAYPOINT_AHEAD, LEADER_BODY)
        return (x, y), remaining

    def _keep_leader_in_the_tank(self) -> None:
        """The leader swims round rocks (pushed out of them) and stays in the tank."""
        leader, level = self.leader, self.level
        assert leader is not None
        if level.boundary == "wrap":
            leader.x %= level.width
            leader.y %= level.height
        else:
            leader.x = min(max(leader.x, 0.0), level.width)
            leader.y = min(max(leader.y, 0.0), level.height)
        field = obstacle_field(self.flock)
        if len(field) and inside_obstacle(field, [(leader.x, leader.y)])[0]:
            nearest = surface(field, [(leader.x, leader.y)])
            leader.x, leader.y = nearest.points[0] + nearest.normals[0] * 0.5
            if inside_obstacle(field, [(leader.x, leader.y)])[0]:  # pushed into another rock
                leader.x, leader.y = free_spot(self.space, leader.x, leader.y, 1.0)

    def _bring_home(self) -> None:
        """Fish inside the home are home: they leave the tank, safe from the sharks."""
        home = self.level.home
        if home is None:
            return
        flock = self.flock
        rows = np.flatnonzero(flock.store.species == flock.species.index("fish"))
        offsets = flock.store.positions[rows] - (home.x, home.y)
        if self.level.boundary == "wrap":  # the short way round
            size = np.array([self.level.width, self.level.height])
            offsets -= np.rint(offsets / size) * size
        arrived = rows[np.einsum("ij,ij->i", offsets, offsets) <= home.radius**2]
        if len(arrived):
            flock.despawn(flock.entities[arrived].copy())
            self.fish_home += len(arrived)

    def _check_goal(self) -> None:
        goal, fish, home = self.goal, self.fish, self.fish_home
        left = fish + home  # the fish the player still has: in the tank or home
        if fish == 0 and home == 0:  # whatever the goal: a level that keeps 0 fish would never end
            self.status = "lost"
            self.reason = "No fish left: the sharks ate the whole school."
        elif left < goal.min_fish:
            self.status = "lost"
            self.reason = f"Too few fish left: {left} of the {goal.min_fish} needed."
        elif left < goal.fish_home:
            self.status = "lost"
            self.reason = (f"Too few fish left to bring {goal.fish_home} home: the sharks "
                           f"ate {self.fish_eaten}.")  # fmt: skip
        elif home >= goal.fish_home and self.food_eaten >= goal.food_to_eat:
            self.status = "won"
            self.reason = self._won_reason()
        elif fish == 0:  # all home or eaten, and the goal's food not eaten: it never will be
            self.status = "lost"
            self.reason = f"No fish left in the tank: {self._progress()}."
        elif goal.time_limit and self.time >= goal.time_limit:
            self.status = "lost"
            self.reason = f"Time is up: {self._progress()} in {goal.time_limit:.0f} s."

    def _won_reason(self) -> str:
        if self.goal.fish_home:
            return (f"{self.fish_home} fish home in {self.time:.0f} s; "
                    f"{self.fish_eaten} lost to the sharks.")  # fmt: skip
        return f"The school ate {self.food_eaten} food with {self.fish} fish alive."

    def _progress(self) -> str:
        """How far the goal got, in words ("12 of 45 fish home, 3 of 10 food eaten")."""
        goal, parts = self.goal, []
        if goal.fish_home:
            parts.append(f"{self.fish_home} of {goal.fish_home} fish home")
        if goal.food_to_eat:
            parts.append(f"{self.food_eaten} of {goal.food_to_eat} food eaten")
        return ", ".join(parts)

    def _on_bite(self, food: int, boid: int, bites_left: int) -> None:
        self.food_eaten += 1

    def _on_catch(self, boid: int, hunter: int, x: float, y: float) -> None:
        self.fish_eaten += 1  # only fish are prey here


def _scaled_goal(level: Level, fish: int | None) -> Goal:
    """The level's goal; with another number of fish, the fish to keep and to bring home in
    proportion (a bigger school must keep as large a share of itself alive)."""
    goal, usual = level.goal, sum(spawn.count for spawn in level.spawns)
    if fish is None or usual == 0 or fish == usual:
        return goal
    return replace(goal, min_fish=min(fish, math.ceil(goal.min_fish * fish / usual)),
                   fish_home=min(fish, math.ceil(goal.fish_home * fish / usual)))  # fmt: skip


def _spawn_disc(level: Level, spawn: SpawnPoint, count: int
                ) -> tuple[tuple[float, float], float]:  # fmt: skip
    """Where `count` fish of `spawn` start: its own disc, or for a bigger school a disc
    grown to keep the density the level meant (2,000 fish in a disc made for 60 would
    start 2 px apart), moved away from the walls as far as it must to fit in the tank."""
    if count <= spawn.count or spawn.count == 0:
        return (spawn.x, spawn.y), spawn.radius
    pad = 10.0
    most = min(level.width, level.height) / 2 - pad
    radius = max(spawn.radius, min(spawn.radius * math.sqrt(count / spawn.count), most))
    x = min(max(spawn.x, radius + pad), level.width - radius - pad)
    y = min(max(spawn.y, radius + pad), level.height - radius - pad)
    return (x, y), radius


def _wrapped(delta: float, size: float) -> float:
    """`delta` brought into [-size/2, size/2) (the short way round)."""
    return (delta + size / 2) % size - size / 2


def _spread(fish: int | None, level: Level) -> list[int]:
    """Fish per spawn point: the level's counts, or `fish` shared out in their proportions."""
    counts = [spawn.count for spawn in level.spawns]
    if fish is None or not counts:
        return counts
    total = sum(counts) or 1
    shares = [fish * count // total for count in counts]
    shares[0] += fish - sum(shares)
    return shares
