"""Presets: species parameters that give the classic collective patterns of fish schools.

Each preset is a set of `Species` field values, no code: apply one to a species with
``preset("mill").species(base)`` (a new `Species`), or to a running flock with
``flock.tune("fish", **preset("mill").changes)``. Every preset sets the same fields (the ones in
`FLOCKING_FIELDS`; those it does not tune keep the `Species` default), so switching presets
live gives the same species whichever preset came before; the game's own fields (leader, food,
fear, obstacles) are left alone.

- ``school``: one aligned group that travels. Strong alignment over a wide view, with room
  between fish.
- ``mill``: one ring of fish circling an empty core, all the same way round. Constant speed,
  cohesion that grows with the distance to the centre of the fish in view (a spring: the
  ring's radius is speed / √cohesion_weight = 100 px), alignment only with the fish within
  30 px, and a blind angle behind: Couzin's "torus" regime, in simulated seconds (the same
  mill at 30, 60 or 120 steps a second; benchmarks/mill.py).
- ``baitball``: a tight, slow, dense ball. Cohesion over a long range, separation only at
  close range, little alignment.
- ``scatter``: loose individuals. No alignment or cohesion, spacing out to the edge of
  perception, and wandering.

Measured: 150 fish scattered in a disc of radius 150 in the middle of a 1280 × 720 tank
(``FlockConfig`` defaults: ``contain``, margin 60, dt 1/60), no leader, after 30 s; mean over
seeds 0-7, the range in brackets. ``groups`` links fish within the preset's own perception
radius; ``groups 50`` within 50 px (the default perception), one yardstick for all four:

| preset   | polarization     | milling          | mean_nn_distance | groups     | groups 50     |
|----------|------------------|------------------|------------------|------------|---------------|
| school   | 0.99 (0.95-1.00) | 0.03 (0.00-0.10) | 20.5 (17.9-20.9) | 1          | 1             |
| mill     | 0.20 (0.03-0.48) | 0.94 (0.82-0.98) | 10.2 (9.9-10.8)  | 1          | 1             |
| baitball | 0.18 (0.08-0.24) | 0.07 (0.00-0.14) | 7.0 (6.7-7.4)    | 1          | 1             |
| scatter  | 0.06 (0.01-0.16) | 0.03 (0.01-0.05) | 51.0 (49.5-53.3) | 69 (63-73) | 109 (104-118) |

The mill forms from a disc spawn in 20-40 s (at 30 s some seeds still travel a little:
polarization up to 0.48) and then holds: over the following minute milling stays at 0.90 or
more and polarization at 0.30 or less in 11 of 12 runs (seeds 0-3 at 1/30, 1/60 and 1/120
s; the twelfth peaks just over 0.30), measured by benchmarks/mill.py.
Obstacles, food and currents (the game's levels) disturb the patterns, the mill most: without
sharks or a leader it holds in the reef (3 seeds of 4), not among the kelp or in the caves
(too little open room) nor in open water (the current and the food pull the ring apart).
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
    "alignment_radius",
    "fov_degrees",
    "separation_weight",
    "alignment_weight",
    "cohesion_weight",
    "min_speed",
    "max_speed",
    "max_force",
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
    "cruise_speed",
    "cruise_rate",
    "heading_noise",
)
"""The Species fields that make a flocking pattern: every preset sets all of them."""

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
    return Preset(name, description, {f: tuned.get(f, _DEFAULTS[f]) for f in FLOCKING_FIELDS})


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        _preset(
            "school",
            "one aligned school that travels together",
            # Alignment over a wide radius turns the whole school as one, even at the walls.
            # Separation adds up over every close neighbour ("accumulate"), so that a crowded
            # school keeps its spacing: 2,000 fish on the reef stay 10.5 px apart after 12 s
            # (8.0 with Reynolds' averaged separation, whose pushes cancel in a crowd); light
            # against a strong alignment, so that every seed still travels as one school.
            steering="accumulate",
            perception_radius=120.0,
            separation_radius=21.0,
            fov_degrees=300.0,
            separation_weight=1.0,
            alignment_weight=5.0,
            cohesion_weight=0.4,
            max_force=400.0,
            # A cruise between the speed limits: without it 80 % of a calm school swam at
            # a limit; with it 19 % (benchmarks/natural.py).
            cruise_speed=75.0,
            cruise_rate=2.0,
        ),
        _preset(
            "mill",
            "a rotating mill: every fish circles the middle the same way",
            # Every fish swims at one speed and is drawn to the centre of all the fish it sees
            # as by a spring (cohesion grows with the distance): at speed v it can only circle
            # that centre where the pull is the v² / r a circle needs, r = v / √cohesion_weight
            # = 100 px. So the school is a ring with an empty core. Alignment with the few
            # fish within 30 px turns the ring's fish the same way round; the blind angle
            # behind keeps a fish from matching the ones it has passed. Measured (open water,
            # 150 fish, benchmarks/mill.py): weaker alignment (0.5) leaves streams circling
            # both ways for a minute or more (milling near 0 in 2 of 4 seeds), stronger (3.0)
            # or a wider blind angle (220°) lets the ring break into one travelling school.
            steering="accumulate",
            min_speed=100.0,
            max_speed=100.0,
            max_force=math.inf,
            perception_radius=400.0,
            alignment_radius=30.0,
            separation_radius=16.0,
            fov_degrees=300.0,
            separation_weight=2.0,
            alignment_weight=1.5,
            cohesion_weight=1.0,
        ),
        _preset(
            "baitball",
            "a tight, dense ball of slow fish",
            # Cohesion over a long range pulls every fish to one centre; separation only
            # inside 12 px sets how dense the ball is; a little alignment keeps it calm.
            perception_radius=200.0,
            separation_radius=12.0,
            fov_degrees=360.0,
            separation_weight=5.0,
            alignment_weight=0.2,
            cohesion_weight=2.5,
            min_speed=20.0,
            max_speed=70.0,
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
