"""Do the docs' species settings do what the docs say (issue 41, point 5)? One row per claim.

Over 400 lines: a checklist, every claim of the docs with its scene and its check, kept in
one file so that the docs' promises read in one place.

    python benchmarks/docs_values.py                       # seeds 0-2, about 3 minutes
    python benchmarks/docs_values.py --seeds 0 1 2 3
    python benchmarks/docs_values.py --only followers cave

Every species setting that README.md, docs/embedding.md and docs/behaviours.md recommend or
show, in the scene their text describes (and, for a picture, the run docs/behaviour_pictures.py
draws), measured with the benchmarks' own scenes. One row per (doc, setting, claim): the claim
in the doc's words, the check it is held to, the figures measured (one per seed, "a / b / c",
where the doc's claim is per seed) and PASS, FAIL or INFO (a figure with no claim to meet).

- ``followers``: each species the docs give for following a player, behind a leader circling
  at the speed its example's player walks (`spacing.run`: 100 followers, measured from 2 s
  for 10 s; with its ring of pillars where the doc's flies go round walls). For every one,
  issue 41's figures: the median nearest neighbour ≥ 8 px, at most 2 % of the followers
  within 1 px of another (the worst sample), the median distance to the leader ≤ 200 px. For
  a settling follower, what docs/behaviours.md's "Leaders" says it does: it settles
  `follow_distance` behind the leader (the followers' centre, along the leader's heading),
  matches its speed (their median speed), leaves the lane in front of it clear (the share
  within `leader_clearance` of its path, up to `LANE` follow distances ahead). Post 002's
  spring pull instead never settles (faster than the leader) and swims through and round it
  (a share of the followers in front of it).
- ``cave``: the fly through arcade's cellular cave (`big_map.run`).
- ``presets``: the values docs/behaviours.md gives for the presets.
- ``mill``, ``natural``, ``predator``, ``crowded``, ``zones``: the presets and Couzin's zones,
  as benchmarks/mill.py, natural.py, predator.py, game_spacing.py and zones.py measure them.
- ``recipes``: the five blog posts' models (`shoal.recipes`) against the ports of the posts'
  own code (tests/recipe_compare.py), at the seeds the docs and tests/test_recipes.py use.

A range or bound the doc gives as measured ("0.75–0.80", "0.21 at most") is held to it at
the doc's precision (a figure that rounds into it is in it); a rule ("≥ 0.6") or a target
(issue 41's) as it stands; a single figure ("polarization 0.10") to the tolerance written in
the row. A claim the docs make for seeds 0-N is checked at the seeds asked for; figures
the docs give as means over seeds (natural.py's) are means over them. Seeded: the same seeds
print the same table. tests/test_docs_values.py checks that every `Species(...)` in the
docs' code and every preset and recipe they name is measured here.
"""

import argparse
import math
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")  # the examples' species load textures
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # recipe_compare
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples: the guide's species
sys.path.insert(0, str(Path(__file__).resolve().parent))

import big_map
import game_spacing
import mill
import natural
import numpy as np
import predator
import recipe_compare
import spacing
import zones

import examples.from_arcade.dual_stick_shooter as shooter
import examples.from_arcade.procedural_caves_cellular as caves
import examples.from_arcade.sprite_move_scrolling as scrolling
import examples.from_arcade.template_platformer as platformer
from shoal.components import Position, Species, Velocity
from shoal.game.level import load_level
from shoal.game.presets import BURST, preset
from shoal.recipes import RECIPES, Recipe
from shoal.systems import Flock, FlockConfig, NavigationWarning, install, uninstall, warm_up

FRAMES = 60.0
"""An arcade example's frames a second: its player's px a frame × this is px/s."""
LANE = 3.0
"""Follow distances ahead of the leader that its lane reaches (as far as the followers'
own lane-clearing looks, systems/seeking/kernel.py)."""


# --- claims and rows ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Check:
    """What a figure must be: `low` ≤ figure ≤ `high`, shown as `text`."""

    text: str
    low: float = -math.inf
    high: float = math.inf

    def holds(self, value: float) -> bool:
        return self.low <= value <= self.high  # NaN holds nothing


def _half_unit(digits: int) -> float:
    """Half a unit of the last digit: a figure that rounds into a range is in it."""
    return 0.5 * 10.0**-digits


def at_least(value: float, digits: int = 0, unit: str = "", rounded: bool = False) -> Check:
    """A bound as it stands, or (`rounded`) a figure the doc gives as measured, at its
    precision."""
    return Check(f"≥ {value:.{digits}f}{unit}", value - (_half_unit(digits) if rounded else 0))


def at_most(value: float, digits: int = 0, unit: str = "", rounded: bool = False) -> Check:
    """As `at_least`."""
    return Check(f"≤ {value:.{digits}f}{unit}", high=value + (_half_unit(digits) if rounded else 0))


def within(low: float, high: float, digits: int = 0, unit: str = "", rounded: bool = True) -> Check:
    """The doc's measured range, at its precision (`rounded`), or a range as it stands."""
    half = _half_unit(digits) if rounded else 0.0
    return Check(f"{low:.{digits}f}–{high:.{digits}f}{unit}", low - half, high + half)


def about(value: float, tolerance: float, digits: int = 0, unit: str = "") -> Check:
    """A single figure of the doc, give or take `tolerance`."""
    return Check(f"{value:.{digits}f} ± {tolerance:.{digits}f}{unit}", value - tolerance,
                 value + tolerance)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: result is "PASS", "FAIL" or "INFO"."""

    doc: str
    setting: str
    claim: str
    check: str
    measured: str
    result: str


def row(
    doc: str, setting: str, claim: str, check: Check | None, values: Sequence[float],
    fmt: str = "{:.1f}",
) -> Row:  # fmt: skip
    """A row of figures (one per seed or run): PASS if every one meets `check`."""
    measured = " / ".join("never" if v == math.inf else fmt.format(v) for v in values)
    if check is None:
        return Row(doc, setting, claim, "", measured, "INFO")
    passed = bool(values) and all(check.holds(v) for v in values)
    return Row(doc, setting, claim, check.text, measured, "PASS" if passed else "FAIL")


def mean_row(
    doc: str, setting: str, claim: str, check: Check, values: Sequence[float],
    fmt: str = "{:.1f}",
) -> Row:  # fmt: skip
    """A row of figures, one per seed, whose mean the doc gives: PASS if the mean meets
    `check`."""
    shown = row(doc, setting, claim, check, [float(np.mean(values))], fmt)
    per_seed = " / ".join(fmt.format(v) for v in values)
    return replace(shown, measured=f"{per_seed} (mean {shown.measured})")


def told(doc: str, setting: str, claim: str, check: str, measured: str, passed: bool) -> Row:
    """A row whose figure is not a number (a phase, a count)."""
    return Row(doc, setting, claim, check, measured, "PASS" if passed else "FAIL")


# --- followers ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Follower:
    """A species the docs give for following a player, and the scene their text implies."""

    doc: str
    setting: str
    claim: str
    species: Species
    speed: float  # px/s: the leader's, round spacing.py's circle
    walls: tuple[bool, ...] = (False,)  # without and with spacing.py's pillars
    note: str = ""  # where the speed comes from
    settles: bool = True  # the "Leaders" claims of a settling follower apply
    target: bool = True  # issue 41's target applies (not to a port of a post's model)


FOLLOWERS = (
    Follower(
        "embedding.md", "FLY (the guide's code; sprite_move_scrolling)",
        "a swarm of flies that follows the player round the walls", scrolling.FLY,
        scrolling.PLAYER_MOVEMENT_SPEED * FRAMES, (False, True), "its player: 7 px a frame",
    ),
    Follower(
        "embedding.md", "FLY (procedural_caves_cellular)",
        "100 flies follow the player through a random cave", caves.FLY,
        caves.MOVEMENT_SPEED * FRAMES, (False, True), "its player: 5 px a frame",
    ),
    Follower(
        "embedding.md", "DRONE (dual_stick_shooter)",
        "drones escort the ship; leader_weight 2 for a player at 240 px/s", shooter.DRONE,
        shooter.MOVEMENT_SPEED * FRAMES, note="its ship: 4 px a frame",
    ),
    Follower(
        "embedding.md", "BEE (template_platformer)",
        "bees follow the player across the tile map; leader_weight 10 at 600 px/s",
        platformer.BEE, platformer.PLAYER_MOVEMENT_SPEED * FRAMES,
        note="its player: 10 px a frame",
    ),
    Follower(
        "README.md", 'Species("fish") (the pond)', "the fish follow the player's sprite",
        Species("fish"), 80.0, note="the mouse: spacing.py's 80 px/s for the default",
    ),
    Follower(
        "behaviours.md", "recipe leader (post 002, spring pull)",
        "pulled by its distance from the leader: it never settles, and swims through and "
        "round the leader", RECIPES["leader"](count=spacing.FOLLOWERS).species[0], 60.0,
        note="recipe_compare's leader: 60 px/s", settles=False, target=False,
    ),
)  # fmt: skip
"""Every follower the docs show. The speeds are their examples' players' (px a frame × 60)."""


@dataclass
class Following:
    """Called every measured step of `spacing.run`: where the followers are round their
    leader (medians over the steps are taken after)."""

    species: Species
    behind: list[float] = field(default_factory=list)  # px: their centre behind the leader
    speed: list[float] = field(default_factory=list)  # their median speed / the leader's
    lane: list[float] = field(default_factory=list)  # share in the lane in front of it
    ahead: list[float] = field(default_factory=list)  # share in front of it (along its heading)

    def __call__(self, flock: Flock, leader: Position, velocity: Velocity) -> None:
        speed = math.hypot(velocity.x, velocity.y)
        heading = np.array((velocity.x, velocity.y)) / speed
        offset = flock.positions - (leader.x, leader.y)
        ahead = offset @ heading
        side = offset @ np.array((-heading[1], heading[0]))
        self.behind.append(float(-ahead.mean()))
        self.speed.append(float(np.median(np.hypot(*flock.velocities.T))) / speed)
        reach = LANE * self.species.follow_distance
        lane = (ahead > 0.0) & (ahead < reach) & (np.abs(side) < self.species.leader_clearance)
        self.lane.append(float(lane.mean()))
        self.ahead.append(float((ahead > 0.0).mean()))


def follow(case: Follower, walls: bool, seed: int) -> tuple[spacing.Spacing, Following]:
    """One run of spacing.py's scene for `case`."""
    watch = Following(case.species)
    return spacing.run(case.species, case.speed, walls, seed, watch), watch


def follower_rows(case: Follower, seeds: Sequence[int]) -> Iterator[Row]:
    """Issue 41's figures for every walls variant, and the "Leaders" claims in open water."""
    for walls in case.walls:
        runs = [follow(case, walls, seed) for seed in seeds]
        where = f"{case.setting}, {case.speed:.0f} px/s{', pillars' if walls else ''}"
        target = "issue 41" if case.target else "issue 41 (n/a: the post's model packs)"
        figures = [r[0] for r in runs]
        yield row(case.doc, where, f"{case.claim}: {target}, median nearest neighbour",
                  at_least(8.0, unit=" px") if case.target else None,
                  [f.nearest for f in figures])  # fmt: skip
        yield row(case.doc, where, f"{target}, share within 1 px of another (worst sample)",
                  at_most(2.0, unit=" %") if case.target else None,
                  [100 * f.touching for f in figures], "{:.0f} %")  # fmt: skip
        yield row(case.doc, where, f"{target}, median distance to the leader",
                  at_most(200.0, unit=" px") if case.target else None,
                  [f.to_leader for f in figures], "{:.0f}")  # fmt: skip
        if not walls:
            yield from leader_rows(case, where, [r[1] for r in runs])


def leader_rows(case: Follower, where: str, watched: Sequence[Following]) -> Iterator[Row]:
    """docs/behaviours.md's "Leaders": a settling follower, or post 002's spring pull."""
    doc = "behaviours.md"
    if not case.settles:
        yield row(doc, where, "it never settles: the followers' median speed over the leader's",
                  at_least(1.5, 1, "×"), [float(np.median(w.speed)) for w in watched],
                  "{:.2f}")  # fmt: skip
        yield row(doc, where, "it swims through and round the leader: the share of the "
                  "followers in front of it (settling ones: none)", at_least(20.0, unit=" %"),
                  [100 * float(np.mean(w.ahead)) for w in watched], "{:.0f} %")  # fmt: skip
        return
    distance = case.species.follow_distance
    yield row(doc, where, f"they settle follow_distance ({distance:.0f} px) behind it: their "
              "centre behind it, along its heading",
              about(distance, distance / 2, unit=" px (± half)"),
              [float(np.median(w.behind)) for w in watched], "{:.0f}")  # fmt: skip
    yield row(doc, where, "and match its speed: their median speed over the leader's",
              within(0.8, 1.2, 1, "×", rounded=False),
              [float(np.median(w.speed)) for w in watched],
              "{:.2f}")  # fmt: skip
    yield row(doc, where, f"boids in front of it within leader_clearance "
              f"({case.species.leader_clearance:.0f} px) of its path get out of the way: "
              f"share in that lane, up to {LANE:.0f} follow distances ahead",
              at_most(5.0, unit=" %"), [100 * float(np.median(w.lane)) for w in watched],
              "{:.1f} %")  # fmt: skip


def followers(seeds: Sequence[int]) -> Iterator[Row]:
    for case in FOLLOWERS:
        yield from follower_rows(case, seeds)


def cave(seeds: Sequence[int]) -> Iterator[Row]:
    """The fly through arcade's cellular cave: benchmarks/big_map.py's walk."""
    runs = [big_map.run("cave", seed) for seed in seeds]
    doc, setting = "README.md, embedding.md", "FLY, 100 through the cave (big_map.py)"
    yield row(doc, setting, "98–100 % within 250 px of the player when it stops",
              within(98.0, 100.0, unit=" %"), [100 * r.near_at_stop for r in runs],
              "{:.0f} %")  # fmt: skip
    yield row(doc, setting, f"issue 41: median nearest neighbour, {big_map.SETTLE:.0f} s "
              "after the stop", at_least(8.0, unit=" px"), [r.nearest for r in runs])  # fmt: skip
    yield row(doc, setting, "no boid ends a step inside a wall: boids inside, all steps",
              at_most(0.0), [float(r.inside) for r in runs], "{:.0f}")  # fmt: skip


# --- presets ------------------------------------------------------------------------------
MEASURED_PRESETS = frozenset({"mill", "school", "baitball", "scatter"})
"""The presets whose claims this script measures (tests/test_docs_values.py: every one)."""


def preset_values(seeds: Sequence[int]) -> Iterator[Row]:
    """The values docs/behaviours.md gives for the presets themselves (no run)."""
    doc = "behaviours.md"
    for name in sorted(MEASURED_PRESETS):
        changes = preset(name).changes
        yield row(doc, f"preset {name}", "the flash expansion on: up to 2.5 × max speed",
                  about(BURST["burst_factor"], 0.0, 1, "×"), [float(changes["burst_factor"])],
                  "{:.1f}")  # fmt: skip
        yield row(doc, f"preset {name}", "for at most 0.8 s per scare",
                  about(BURST["burst_time"], 0.0, 1, " s"), [float(changes["burst_time"])],
                  "{:.1f}")  # fmt: skip
    mills = preset("mill").changes
    yield row(doc, "preset mill", "look for rocks 0.4 s ahead (48 px)",
              about(48.0, 0.0, unit=" px"),
              [float(mills["look_ahead"]) * float(mills["max_speed"])], "{:.0f}")  # fmt: skip
    yield row(doc, "preset mill", "its 100 px circle: radius v / cohesion_weight",
              about(100.0, 0.0, unit=" px"),
              [float(mills["max_speed"]) / float(mills["cohesion_weight"])], "{:.0f}")  # fmt: skip
    yield row(doc, "preset mill", "swims against three quarters of the current (rheotaxis)",
              about(0.75, 0.0, 2), [float(mills["rheotaxis"])], "{:.2f}")  # fmt: skip
    school = preset("school").changes
    yield row(doc, "preset school", "rejoins (weight 0.35, 1,000 px)", about(0.35, 0.0, 2),
              [float(school["rejoin_weight"])], "{:.2f}")  # fmt: skip
    yield row(doc, "preset school", "rejoins (weight 0.35, 1,000 px): radius",
              about(1000.0, 0.0, unit=" px"), [float(school["rejoin_radius"])],
              "{:.0f}")  # fmt: skip


# --- the mill -----------------------------------------------------------------------------
OPEN_SECONDS = 120
"""The picture's two minutes; the claims read the first 100 s (mill.py's 40 + 60)."""
MILL_FORM = 34
MILL_WINDOW = 60
LEVEL_FORM = {"reef": 65, "open_water": 43}
"""s: the latest a mill formed in each level by the docs (reef 17–65 s, open water 15–43)."""
NO_ROOM = {"kelp": 144.0, "caves": 137.0}
"""px: the radius of the largest open disc of the levels with no room for a mill."""


@cache
def open_water(seed: int, dt: float) -> tuple[list[float], ...]:
    return mill.open_water(seed, dt, 150, OPEN_SECONDS)


@cache
def in_level(name: str, seed: int) -> tuple[list[float], ...]:
    return mill.in_level(load_level(name), seed, 150, max(90, LEVEL_FORM[name] + MILL_WINDOW))


@dataclass(frozen=True, slots=True)
class Held:
    """How a mill did (mill.report's figures): when it formed (s, inf: not within `form`),
    and over the `MILL_WINDOW` s after, its worst milling and polarization."""

    formed: float
    worst_milling: float
    worst_polarization: float


def held(samples: tuple[list[float], ...], form: int) -> Held:
    start = mill.formed(samples[0][:form], samples[1][:form])  # sample k: second k + 1
    if start is None:
        return Held(math.inf, math.nan, math.nan)
    window = slice(start, start + MILL_WINDOW)
    return Held(start + 1, min(samples[0][window]), max(samples[1][window]))


def mill_ring(seed: int, seconds: float = 100.0) -> tuple[float, float]:
    """The open-water ring at the end of `seconds` (1/60 s): the median distance of its fish
    from its centre and the distance of the farthest 5 %."""
    species = preset("mill").species(Species("fish"))
    flock = install(FlockConfig(seed=seed, dt=1 / 60), [species], world=f"docs-ring-{seed}")
    try:
        flock.scatter("fish", 150, centre=(640.0, 360.0), radius=150.0)
        for _ in range(round(seconds * 60)):
            flock.step()
        reach = np.hypot(*(flock.positions - flock.positions.mean(axis=0)).T)
        return float(np.median(reach)), float(np.percentile(reach, 95))
    finally:
        uninstall(flock)


def mill_rows(seeds: Sequence[int]) -> Iterator[Row]:
    yield from mill_open_water(seeds)
    yield from mill_levels(seeds)
    yield from mill_pictures()


def mill_open_water(seeds: Sequence[int]) -> Iterator[Row]:
    doc = "behaviours.md"
    for dt in mill.STEPS:
        runs = [held(open_water(seed, dt), MILL_FORM) for seed in seeds]
        where = f"preset mill, open water, 1/{1 / dt:.0f} s"
        yield row(doc, where, "forms (milling ≥ 0.75, polarization ≤ 0.2) within 15–34 s",
                  at_most(MILL_FORM, unit=" s"), [r.formed for r in runs], "{:.0f}")  # fmt: skip
        yield row(doc, where, "then holds a minute: milling ≥ 0.6 at every second; measured "
                  "0.75–0.80 at the worst", within(0.75, 0.80, 2),
                  [r.worst_milling for r in runs], "{:.2f}")  # fmt: skip
        yield row(doc, where, "and polarization ≤ 0.3; measured 0.21 at most",
                  at_most(0.21, 2, rounded=True), [r.worst_polarization for r in runs],
                  "{:.2f}")  # fmt: skip
        yield row(doc, where, "the nearest 5 % at 0.39–0.56 of the median distance from the "
                  "centre (at 100 s)", within(0.39, 0.56, 2),
                  [open_water(seed, dt)[2][99] for seed in seeds], "{:.2f}")  # fmt: skip
    rings = [mill_ring(seed) for seed in seeds]
    where = "preset mill, open water, 1/60 s"
    yield row(doc, where, "on its 100 px circle: the median distance from the centre",
              about(100.0, 20.0, unit=" px"), [r[0] for r in rings], "{:.0f}")  # fmt: skip
    yield row(doc, where, "the ring reaches about 170 px from its centre (farthest 5 %)",
              about(170.0, 20.0, unit=" px"), [r[1] for r in rings], "{:.0f}")  # fmt: skip


def mill_levels(seeds: Sequence[int]) -> Iterator[Row]:
    doc = "behaviours.md"
    for name, form in LEVEL_FORM.items():
        runs = [held(in_level(name, seed), form) for seed in seeds]
        where = f"preset mill, the {name} level"
        first = {"reef": 17, "open_water": 15}[name]
        yield row(doc, where, f"formed at {first}–{form} s", at_most(form, unit=" s"),
                  [r.formed for r in runs], "{:.0f}")  # fmt: skip
        yield row(doc, where, "and held for the minute after: worst milling",
                  at_least(mill.MILLING, 1), [r.worst_milling for r in runs],
                  "{:.2f}")  # fmt: skip
        yield row(doc, where, "and held for the minute after: worst polarization",
                  at_most(mill.POLARIZATION, 1), [r.worst_polarization for r in runs],
                  "{:.2f}")  # fmt: skip
    for name, radius in NO_ROOM.items():
        found = mill.room(load_level(name))[2]
        yield row(doc, f"preset mill, the {name} level", f"no room for a mill: its largest "
                  f"open disc has a radius of {radius:.0f} px (a mill needs {mill.ROOM:.0f})",
                  about(radius, 1.0, unit=" px"), [found], "{:.0f}")  # fmt: skip


def mill_pictures() -> Iterator[Row]:
    """The runs docs/behaviour_pictures.py draws (seed 0): a mill at the seconds shown."""
    doc = "behaviours.md"
    pictures = (
        ("behaviour_mill.png", open_water(0, 1 / 60), (40, 120)),
        ("behaviour_mill_reef.png", in_level("reef", 0), (45, 90)),
        ("behaviour_mill_open_water.png", in_level("open_water", 0), (45, 90)),
    )
    for picture, samples, seconds in pictures:
        for second in seconds:
            m, p = samples[0][second - 1], samples[1][second - 1]
            yield told(
                doc,
                f"preset mill, {picture} (seed 0)",
                f"a mill at {second} s",
                f"milling ≥ {mill.MILLING}, polarization ≤ {mill.POLARIZATION}",
                f"{m:.2f}, {p:.2f}",
                m >= mill.MILLING and p <= mill.POLARIZATION,
            )


# --- school, baitball, scatter ------------------------------------------------------------
@cache
def watched(name: str, seed: int, **changes: Any) -> dict[str, float]:
    return natural.watch(name, seed, 30.0, 10.0, **changes)


def per_seed(name: str, key: str, seeds: Sequence[int], **changes: Any) -> list[float]:
    return [watched(name, seed, **changes)[key] for seed in seeds]


def natural_rows(seeds: Sequence[int]) -> Iterator[Row]:
    """docs/behaviours.md's school, baitball and scatter: natural.py's figures, per seed and
    their mean (the docs' figures are means over seeds 0-2)."""
    doc = "behaviours.md"
    school = "preset school"
    yield mean_row(doc, school, "its fish reverse their turn about once a second (0.8–1.0; "
                   "1.2–1.9 where it crowds at a wall)", within(0.8, 1.9, 1, "/s"),
                   per_seed("school", "reversals/s", seeds), "{:.2f}")  # fmt: skip
    yield mean_row(doc, school, "under a tenth sit at a speed limit", at_most(10.0, unit=" %"),
                   [100 * v for v in per_seed("school", "at a limit", seeds)],
                   "{:.1f} %")  # fmt: skip
    yield mean_row(doc, school, "polarization 0.90–0.98", within(0.90, 0.98, 2),
                   per_seed("school", "polarization", seeds), "{:.2f}")  # fmt: skip
    yield mean_row(doc, f"{school}, wander_weight 0", "(0.95–0.99, a lattice, without the "
                   "wander)", within(0.95, 0.99, 2),
                   per_seed("school", "polarization", seeds, wander_weight=0.0),
                   "{:.2f}")  # fmt: skip
    yield mean_row(doc, school, "nearest neighbour 31–36 px (mean)",
                   within(31.0, 36.0, 1, " px"), per_seed("school", "mean nn", seeds))  # fmt: skip
    ball = "preset baitball"
    yield mean_row(doc, ball, "no direction of travel (polarization 0.07–0.16)",
                   within(0.07, 0.16, 2), per_seed("baitball", "polarization", seeds),
                   "{:.2f}")  # fmt: skip
    yield mean_row(doc, ball, "denser than the school: nearest neighbour 28–29 px (mean)",
                   within(28.0, 29.0, 1, " px"),
                   per_seed("baitball", "mean nn", seeds))  # fmt: skip
    yield mean_row(doc, ball, "6–8 % of nearest pairs of 24 × 12 px sprites overlap",
                   within(6.0, 8.0, unit=" %"),
                   [100 * v for v in per_seed("baitball", "overlap", seeds)],
                   "{:.1f} %")  # fmt: skip
    loose = "preset scatter"
    yield mean_row(doc, loose, "loose fish wandering on their own: no common heading "
                   "(polarization)", at_most(0.3, 1), per_seed("scatter", "polarization", seeds),
                   "{:.2f}")  # fmt: skip
    yield mean_row(
        doc,
        loose,
        "loose: median nearest neighbour, wider than the baitball's 26–27 px",
        at_least(27.0, unit=" px"),
        per_seed("scatter", "median nn", seeds),
    )


CROWDED = {("mill", "reef"): 6.6, ("mill", "open_water"): 8.0, ("baitball", "reef"): 11.5,
           ("baitball", "open_water"): 18.5, ("school", "reef"): 10.2,
           ("school", "open_water"): 13.3}  # fmt: skip
"""px: docs/behaviours.md's mean distance to the nearest fish, 2,000 fish, 5 s in."""


def crowded(seeds: Sequence[int]) -> Iterator[Row]:
    """2,000 fish in the game's tank (benchmarks/game_spacing.py: its own seed, 1)."""
    for (name, level), figure in CROWDED.items():
        mean = game_spacing.spacing(level, name, 2000, 5.0, {})[2]
        yield row("behaviours.md", f"preset {name}, 2,000 fish, the {level} level",
                  f"mean distance to the nearest fish {figure} px (game_spacing.py)",
                  about(figure, 0.15 * figure, 1, " px (± 15 %)"), [mean])  # fmt: skip


# --- a predator's pass --------------------------------------------------------------------
REJOIN = {0: 4.6, 1: 3.7, 2: math.inf, 3: math.inf}
"""s: when the school was one again after the predator left, by seed (inf: not within 20 s)."""


@cache
def passed(seed: int) -> predator.Pass:
    return predator.predator_pass(seed)


def predator_rows(seeds: Sequence[int]) -> Iterator[Row]:
    """benchmarks/predator.py's pass through a school, per seed (the docs': seeds 0-3)."""
    doc, where = "behaviours.md", "preset school on the game's fish, a predator at 150 px/s"
    runs = [passed(seed) for seed in seeds]
    figures: tuple[tuple[str, Check, Callable[[predator.Pass], float], str], ...] = (
        ("a cruise of 88–90 px/s", within(88, 90), lambda r: r.cruise, "{:.0f}"),
        ("the fastest fish 160–162 px/s", within(160, 162), lambda r: r.peak, "{:.0f}"),
        ("(bound 275)", about(275, 0), lambda r: r.bound, "{:.0f}"),
        ("59–87 % of the fish burst", within(59, 87, unit=" %"),
         lambda r: 100 * r.burst_share, "{:.0f} %"),
        ("the predator's nearest fish 32–64 px away (median) while it is inside the school",
         within(32, 64, unit=" px"), lambda r: r.vacuole_median, "{:.0f}"),
        ("4–19 px at the closest (the vacuole)", within(4, 19, unit=" px"),
         lambda r: r.vacuole_least, "{:.0f}"),
        ("every fish ahead of it in its lane ended behind it (the fountain)",
         about(100, 0, unit=" %"), lambda r: 100 * r.fountain, "{:.0f} %"),
    )  # fmt: skip
    for claim, check, figure, fmt in figures:
        yield row(doc, where, claim, check, [figure(r) for r in runs], fmt)
    for seed in (s for s in seeds if s in REJOIN):
        expected = REJOIN[seed]
        check = (at_least(20.0, unit=" s: not within 20 s") if expected == math.inf
                 else about(expected, 0.05, 1, " s"))  # fmt: skip
        yield row(doc, f"{where} (seed {seed})", "the school was one again (s after the "
                  "predator left)", check, [passed(seed).rejoin])  # fmt: skip
    picture = passed(1)
    yield told(doc, "preset school, behaviour_predator.png (seed 1)", "every one of the fish "
               "in its way went round it; the halves rejoin (within the 10 s drawn)",
               "fountain 100 %, rejoined ≤ 10 s",
               f"{picture.fountain:.0%} of {picture.lane_fish}, {picture.rejoin:.1f} s",
               picture.fountain == 1.0 and picture.rejoin <= 10.0)  # fmt: skip


# --- Couzin's zones -----------------------------------------------------------------------
ZONE_BANDS = {0.0: "swarm", 1.0: "swarm", 2.0: "swarm", 4.0: "torus", 6.0: "torus",
              8.0: "torus", 10.5: "highly parallel", 12.0: "highly parallel",
              14.0: "highly parallel"}  # fmt: skip
"""Δr_o (body lengths) → docs/behaviours.md's phase: swarm 0–2, torus 4–8, highly parallel
from 10.5 (dynamic parallel at 9.5 in 3 seeds of 6: `DYNAMIC_SEEDS`)."""
DYNAMIC_SEEDS = range(6)


@cache
def zone_phase(width: float, seed: int) -> str:
    return zones.phase(*zones.run(zones.Couzin(width), seed, 150.0, 50.0))


def zones_rows(seeds: Sequence[int]) -> Iterator[Row]:
    doc = "behaviours.md"
    for width, seed, expected in zones.EXAMPLES:
        found = zone_phase(width, seed)
        yield told(doc, f"zones Δr_o = {width:g}, behaviour_phases_sheet.png (seed {seed})",
                   f"one group of each phase: {expected}", expected, found,
                   found == expected)  # fmt: skip
    for width, expected in ZONE_BANDS.items():
        phases = [zone_phase(width, seed) for seed in seeds]
        yield told(doc, f"zones Δr_o = {width:g}", f"the phases in the paper's order: "
                   f"{expected}", expected, " / ".join(phases),
                   all(p == expected for p in phases))  # fmt: skip
    phases = [zone_phase(9.5, seed) for seed in DYNAMIC_SEEDS]
    count = phases.count("dynamic parallel")
    yield told(
        doc,
        "zones Δr_o = 9.5 (seeds 0-5)",
        "dynamic parallel in 3 seeds of 6",
        "3 of 6",
        f"{count} of 6 ({' / '.join(phases)})",
        count == 3,
    )


# --- the blog posts' recipes --------------------------------------------------------------
@cache
def recipe_run(name: str, seed: int, tail: int = recipe_compare.TAIL) -> recipe_compare.Measures:
    return recipe_compare.recipe(name, seed, tail)[0]


@cache
def port_run(name: str, seed: int, tail: int = recipe_compare.TAIL) -> recipe_compare.Measures:
    return recipe_compare.port(name, seed, tail)


def compared(name: str, measure: str) -> tuple[float, float, str]:
    """(shoal, port, over what) as tests/test_recipes.py compares them."""
    if (name, measure) in recipe_compare.SEED_MEANS:
        seeds, tail = recipe_compare.SEED_MEANS[name, measure]
        ours = np.mean([recipe_run(name, s, tail)[measure] for s in seeds])
        theirs = np.mean([port_run(name, s, tail)[measure] for s in seeds])
        return float(ours), float(theirs), f"mean of seeds {seeds.start}-{seeds.stop - 1}"
    return recipe_run(name, 0)[measure], port_run(name, 0)[measure], "seed 0"


RECIPE_MEANS = (
    ("virtual_walls", "polarization", range(40), 600, 0.19, 0.17, 2),
    ("leader", "spacing", range(8), recipe_compare.TAIL, 4.1, 3.8, 1),
    ("prey", "spacing", range(10), recipe_compare.TAIL, 73.6, 71.5, 1),
    ("prey", "polarization", range(20), 600, 0.22, 0.20, 2),
)
"""docs/behaviours.md's means over seeds: (recipe, measure, seeds, tail frames, shoal's,
the port's, digits)."""


@contextmanager
def settling_leader() -> Iterator[None]:
    """Post 002's recipe with the game's settling follow (docs/behaviours.md compares them):
    `RECIPES["leader"]` swapped for the time, so that recipe_compare moves its leader."""
    original = RECIPES["leader"]

    def settling(**options: Any) -> Recipe:
        made = original(**options)
        return replace(made, species=(replace(made.species[0], leader_pull="settle"),))

    RECIPES["leader"] = settling
    try:
        yield
    finally:
        RECIPES["leader"] = original


def recipe_rows(seeds: Sequence[int]) -> Iterator[Row]:
    """docs/behaviours.md's recipes, at the seeds it names (not --seeds: the comparisons are
    tests/test_recipes.py's)."""
    doc = "behaviours.md"
    for name in RECIPES:
        for measure in recipe_compare.MEASURES:
            ours, theirs, over = compared(name, measure)
            gap = 100 * abs(ours - theirs) / abs(theirs)
            yield row(doc, f"recipe {name} ({over})", f"{measure} within 15 % of the post's "
                      f"port ({theirs:.2f})", at_most(15.0, unit=" %"), [gap],
                      f"{ours:.2f}: {{:.1f}} %")  # fmt: skip
    for name, measure, seeds_of, tail, given, port_given, digits in RECIPE_MEANS:
        mean = float(np.mean([recipe_run(name, s, tail)[measure] for s in seeds_of]))
        port = float(np.mean([port_run(name, s, tail)[measure] for s in seeds_of]))
        setting = f"recipe {name} (seeds {seeds_of.start}-{seeds_of.stop - 1})"
        yield row(doc, setting, f"{measure}: means {given} against the port's {port_given}",
                  about(given, 0.1 * given, digits, " (± 10 %)"), [mean],
                  f"{{:.{digits + 1}f}} (port {port:.{digits + 1}f})")  # fmt: skip
    nearest = recipe_compare.recipe("prey", 0)[1]
    yield row(doc, "recipe prey (seed 0)", "a dead radius (10 px) that no boid enters: the "
              "nearest boid to the prey", at_least(10.0, 2, " px", rounded=True), [nearest],
              "{:.2f}")  # fmt: skip
    with settling_leader():
        settled = recipe_compare.recipe("leader", 0)[0]
    setting = "recipe leader, leader_pull settle (seed 0)"
    yield row(doc, setting, "packs onto the point behind the leader: spacing 0.4 px (the "
              "post's 4.8)", about(0.4, 0.4, 1, " px"), [settled["spacing"]])  # fmt: skip
    yield row(doc, setting, "at 100 px/s (the post's 120)",
              about(100.0, 10.0, unit=" px/s (± 10 %)"), [settled["speed"]])  # fmt: skip


# --- the table ----------------------------------------------------------------------------
SECTIONS: dict[str, Callable[[Sequence[int]], Iterator[Row]]] = {
    "followers": followers,
    "cave": cave,
    "presets": preset_values,
    "mill": mill_rows,
    "natural": natural_rows,
    "crowded": crowded,
    "predator": predator_rows,
    "zones": zones_rows,
    "recipes": recipe_rows,
}
MEASURED_SPECIES = tuple(case.species for case in FOLLOWERS)
"""The species the docs show in code, each measured (tests/test_docs_values.py)."""
MEASURED_RECIPES = frozenset(RECIPES)


def print_row(r: Row) -> None:
    print(f"| {r.doc} | {r.setting} | {r.claim} | {r.check} | {r.measured} | {r.result} |",
          flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS))
    args = parser.parse_args()
    # A wide torus's navigator warns that its cells are coarse: the scenes' own business.
    warnings.simplefilter("ignore", NavigationWarning)
    warm_up()
    print(
        f"seeds {' '.join(map(str, args.seeds))}; followers' speeds: "
        + "; ".join(f"{case.setting} {case.speed:.0f} px/s ({case.note})" for case in FOLLOWERS)
    )
    print("| doc | setting | claim | check | measured | result |")
    print("|---|---|---|---|---|---|")
    counts = {"PASS": 0, "FAIL": 0, "INFO": 0}
    for name in args.only:
        for r in SECTIONS[name](args.seeds):
            print_row(r)
            counts[r.result] += 1
    print(", ".join(f"{count} {result}" for result, count in counts.items()))


if __name__ == "__main__":
    main()
