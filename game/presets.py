"""Presets: species parameters that give the classic collective patterns of fish schools.

Each preset is a set of `Species` field values, no code: apply one to a species with
``preset("mill").species(base)`` (a new `Species`), or to a running flock with
``flock.tune("fish", **preset("mill").changes)``. Every preset sets the same fields (the ones in
`FLOCKING_FIELDS`; those it does not tune keep the `Species` default), so switching presets
live gives the same species whichever preset came before; the game's own fields (leader, food,
fear, obstacles) are left alone.

- ``school``: one aligned group that travels, its fish a body length or more apart. Strong
  alignment over a wide view, soft separation, a personal space of a body length, and a
  smooth wander that gives each fish a heading of its own for a while; parts of it that a
  predator split draw each other back (rejoining).
- ``mill``: one ring of fish circling an empty core, all the same way round. Constant speed,
  a steady pull to the centre of the fish in view (the ring's radius is speed /
  cohesion_weight = 100 px), alignment only with the fish within 50 px, a blind angle behind
  and a little heading noise: Couzin's "torus" regime, in simulated seconds (the same mill at
  30, 60 or 120 steps a second).
- ``baitball``: a slow ball with no direction of travel, denser than the school: its fish a
  body length apart (their personal space), pressed together by cohesion over a long range
  and kept swimming by a strong short-range separation and a smooth wander.
- ``scatter``: loose individuals. No alignment or cohesion, spacing out to the edge of
  perception, and wandering.

Every preset turns the flash expansion on (`BURST`).

Measured (150 fish from a disc in the middle of a 1280 × 720 tank, no leader; the scripts in
benchmarks/, the figures in docs/behaviours.md, "Presets"): the mill forms in 13-36 s and then
holds milling ≥ 0.6 and polarization ≤ 0.3 for a minute in 12 of 12 open-water runs (seeds
0-3 at 1/30, 1/60 and 1/120 s; benchmarks/mill.py), and in the levels with room for it
(formed within 60 s: the reef 10 of 10 seeds, the open-water level 20 of 20, its fish
swimming against most of its current; the kelp forest and the caves have no open disc wide
enough). A calm school reverses its turns about once a second and has a polarization of
0.90-0.98, its fish 31-36 px apart (benchmarks/natural.py, seeds 0-4); the baitball's are
28-29 px apart (the mean nearest neighbour, median 26-27 px) and their sprites overlap in
6-8 % of nearest pairs. With 2,000 fish in the game's tank the tank is too small for these
spacings (or a ring of them): see docs/behaviours.md.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from shoal.components import Species

Value = float | int | str
"""A Species field value: a number, or the name of a steering style or falloff."""

FLOCKING_FIELDS = (
    "perception_radius",
    "separation_radius",
    "personal_space",
    "alignment_radius",
    "fov_degrees",
    "separation_weight",
    "alignment_weight",
    "cohesion_weight",
    "cohesion_pull",
    "min_speed",
    "max_speed",
    "max_force",
    "force_cap",
    "acceleration",
    "max_turn_rate",
    "max_neighbours",
    "separation_falloff",
    "separation_combine",
    "steering",
    "separate_turn",
    "align_turn",
    "cohere_turn",
    "wander_weight",
    "wander_rate",
    "rejoin_weight",
    "rejoin_radius",
    "cruise_speed",
    "cruise_rate",
    "heading_noise",
    "burst_factor",
    "burst_time",
    "look_ahead",
    "rheotaxis",
)
"""The Species fields that make a flocking pattern: every preset sets all of them. The
look-ahead is one: how far ahead a fish may look for rocks depends on how tightly it turns
(the mill's); so is the personal space: how close the fish of a pattern may come (the
school's and the baitball's spacing)."""

BURST = {"burst_factor": 2.5, "burst_time": 0.8}
"""Every preset's flash expansion: a fish that takes fright may swim at up to 2.5 × its max
speed (275 px/s, 11 body lengths a second, for a 110 px/s fish) for at most 0.8 s, then
glides back down to its max speed within about a second (`GLIDE` = 0.25 s time constant);
once per scare (it bursts again only after it has calmed down). benchmarks/predator.py
measures it."""

_SPECIES_FIELDS = frozenset(f.name for f in fields(Species)) - {"name"}
_DEFAULTS: Mapping[str, Value] = {f: getattr(Species("default"), f) for f in FLOCKING_FIELDS}


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of Species field values that gives one collective pattern.

    Attributes:
        name: the preset's name (a key of `PRESETS`).
        description: one line for the HUD and ``--help``.
        changes: Species field -> value (read-only); apply with `species` or ``flock.tune``.
    """

    name: str
    description: str
    changes: Mapping[str, Value] = field(hash=False)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.changes) - _SPECIES_FIELDS)
        if unknown:
            raise ValueError(f"Preset {self.name!r}: not Species fields: {', '.join(unknown)}")
        # Read-only, so that no caller can change a shared preset by accident.
        object.__setattr__(self, "changes", MappingProxyType(dict(self.changes)))

    def species(self, base: Species) -> Species:
        """`base` with this preset's changes applied (validated by `Species`).

        Raises:
            ValueError: if a changed value is invalid for a Species.
        """
        # Any: each field has its own type, which a Mapping of them cannot say to mypy.
        changes: dict[str, Any] = dict(self.changes)
        return replace(base, **changes)


def _preset(name: str, description: str, **tuned: Value) -> Preset:
    """A preset setting every field of `FLOCKING_FIELDS`: `tuned`, else the Species default."""
    extra = sorted(set(tuned) - set(FLOCKING_FIELDS))
    if extra:
        raise ValueError(f"Preset {name!r}: not flocking fields: {', '.join(extra)}")
    values: dict[str, Value] = {**_DEFAULTS, **BURST, **tuned}
    return Preset(name, description, {f: values[f] for f in FLOCKING_FIELDS})


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        _preset(
            "school",
            "one aligned school that travels together",
            # Alignment over a wide radius turns the whole school as one, even at the walls.
            # Separation adds up over every close neighbour ("accumulate"), so that a crowded
            # school keeps its spacing; "soft" (zero at the separation radius): with a push
            # that switched on at full strength as a neighbour crossed the radius, each fish
            # reversed its turn 12-15 times a second. A smooth wander gives each fish a
            # heading of its own for a second or two: without it the school swam as a
            # lattice (polarization 0.99-1.00). A field of view of 330° (not 300°): a
            # neighbour slipping in and out of the blind angle jolted the turn too. A cruise
            # between the speed limits: without it 80 % of a calm school swam at a limit.
            # Rejoining: halves that a predator split, 400 px apart and out of each other's
            # 120 px perception, swam apart for good; drawn to each other they are one
            # school again within 4-6 s (benchmarks/predator.py).
            # Spacing: separation out to 48 px (weight 3) keeps the fish 31-36 px apart and
            # a personal space of a body length keeps them off each other where the school
            # crowds at a wall, so that the baitball can be the denser shape without
            # sprites overlapping: with the softer separation (36 px, weight 1) and the
            # default 10 px personal space the school packed to 19-26 px, a quarter to a
            # half of its nearest pairs of 24 × 12 px sprites overlapping, and seed 2
            # milled (polarization 0.52). A personal space of 28 px jammed the school in
            # its turns at the walls (polarization 0.78 over 10 s, a fifth of its speed on
            # the spot). Alignment 12 (not 5) holds the polarization at 0.90-0.98 against
            # the stronger separation.
            # Measured: see the module docstring (benchmarks/natural.py).
            steering="accumulate",
            perception_radius=120.0,
            separation_radius=48.0,
            personal_space=24.0,  # a body length
            separation_falloff="soft",
            fov_degrees=330.0,
            separation_weight=3.0,
            alignment_weight=12.0,
            cohesion_weight=0.4,
            max_force=400.0,
            cruise_speed=75.0,
            cruise_rate=2.0,
            wander_weight=2.5,
            wander_rate=0.5,
            rejoin_weight=0.35,
            rejoin_radius=1000.0,
        ),
        _preset(
            "mill",
            "a rotating mill: every fish circles the middle the same way",
            # Every fish swims at one speed (120 px/s) and is pulled to the centre of the fish
            # it sees with the same strength at any distance (a steady pull of
            # cohesion_weight × speed = 144 px/s²): at speed v it can only circle that centre
            # where the pull is the v² / r a circle needs, r = v / cohesion_weight = 100 px.
            # A school that swims off as one does not last: its leading fish, pulled back as
            # hard as the rest, turn back (with a spring, the pull on them was weak in a small
            # school and the school travelled on in 1 run of 9). Alignment with the fish
            # within 50 px, weaker than the pull, turns the ring's fish the same way round;
            # the blind angle behind keeps a fish from matching the ones it has passed; the
            # heading noise breaks a school that swims straight. Separation by the inverse
            # square keeps the fish about 17-20 px apart. 120 px/s rather than 100: the
            # stronger pull that goes with it holds the ring against a level's current.
            # A fish looks for rocks 0.4 s (48 px) ahead, not 0.8 s: on its 100 px circle
            # a straight line of 96 px ends 39 px off its path (of 48 px: 11) and sees
            # rocks it would not meet (a ring drifting onto a rock broke up as it closed
            # round it): in the open-water level, seeds 0-15, the mill held in 13 runs
            # against 9 (benchmarks/mill.py).
            steering="accumulate",
            min_speed=120.0,
            max_speed=120.0,
            max_force=math.inf,
            perception_radius=400.0,
            alignment_radius=50.0,
            separation_radius=20.0,
            separation_falloff="inverse_square",
            fov_degrees=300.0,
            separation_weight=1.0,
            alignment_weight=0.7,
            cohesion_weight=1.2,
            cohesion_pull="steady",
            heading_noise=0.3,
            look_ahead=0.4,
            # The ring's fish swim against three quarters of a level's current, keeping the
            # ring in its place: a ring turning at ω = 1.2 rad/s under a steady side push F
            # drifts square to it at about F / ω (the open-water level's 15 px/s²: ~7 px/s,
            # onto a rock within the minute; a quarter of it: ~3 px/s). In the open-water
            # level, seeds 0-19, the mill held in 20 runs against 14; swimming against half
            # of it or all of it, in 19 (benchmarks/mill.py).
            rheotaxis=0.75,
        ),
        _preset(
            "baitball",
            "a tight ball of slow fish, each a body length from the next",
            # Cohesion over a long range (a spring to the centre of the fish in view) pulls
            # every fish to one centre (0.6, the school's 0.4); a short separation and under
            # it the bodies hold them about a body length apart (personal_space 24 px:
            # nearest neighbours 26-27 px, the median; the school's 30-36 px), so the ball
            # is the denser shape while two 24 × 12 px sprites at random angles seldom meet
            # (they clear each other only from about 26 px: 6-8 % of nearest pairs overlap).
            # A strong separation (15) over a short radius (32 px) parts fish before their
            # bodies touch: left to the bodies (a separation radius near the personal
            # space) the pull pressed the fish onto each other and they swam on the spot
            # (4 % of their speed became motion), or moved off as one (polarization
            # 0.5-0.8, their contacts aligning them). A smooth wander and a cruise speed
            # between the limits keep the ball without a direction of travel (polarization
            # about 0.1) and its fish at speeds of their own (12 % at a limit; 60-70 % at
            # 20 or 70 px/s without the cruise). Alignment is faint: any more and the ball
            # swims off as a school.
            steering="accumulate",
            perception_radius=200.0,
            separation_radius=32.0,
            personal_space=24.0,  # a body length
            separation_falloff="soft",
            fov_degrees=360.0,
            separation_weight=15.0,
            alignment_weight=0.1,
            cohesion_weight=0.6,
            max_force=300.0,
            min_speed=20.0,
            max_speed=70.0,
            cruise_speed=40.0,
            cruise_rate=2.0,
            wander_weight=1.5,
            wander_rate=1.0,
        ),
        _preset(
            "scatter",
            "loose fish wandering on their own",
            # No alignment or cohesion: each fish only keeps its distance (out to the edge of
            # its perception) and wanders, so the fish spread over the tank, each its own way.
            perception_radius=60.0,
            separation_radius=60.0,
            fov_degrees=360.0,
            separation_weight=2.0,
            alignment_weight=0.0,
            cohesion_weight=0.0,
            max_speed=70.0,
            wander_weight=1.0,
            wander_rate=1.0,
        ),
    )
}
"""The presets by name: ``school``, ``mill``, ``baitball``, ``scatter``."""


def preset(name: str) -> Preset:
    """The preset called `name`.

    Raises:
        ValueError: if there is no such preset (the message lists the known ones).
    """
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise ValueError(f"unknown preset {name!r}: choose one of {known}") from None
