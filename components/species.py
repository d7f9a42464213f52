"""Species: the parameter set that one group of boids shares."""

import math
from dataclasses import dataclass, fields
from typing import Any

STEERING_STYLES = ("reynolds", "accumulate", "turn")
"""How a species turns its rules into motion:

- ``reynolds``: each rule asks for a desired velocity; steering = desired - current, clamped to
  ``max_force``; the weighted sum is clamped again (Reynolds 1999, "Steering Behaviors").
- ``accumulate``: the weighted raw rule vectors are added as acceleration (the common
  game-dev pseudocode: move towards the centre, match velocity, keep away), clamped to
  ``max_force`` (which may be infinite); speed is then kept within [min_speed, max_speed].
- ``turn``: constant-speed boids (set min_speed == max_speed) that turn their heading by at
  most ``separate_turn`` / ``align_turn`` / ``cohere_turn`` degrees per rule per step
  (the NetLogo "Flocking" model); the weights are not used.
"""

FALLOFFS = ("inverse", "inverse_square")
"""How separation grows as a neighbour comes closer: (r/d) or (r/d)², r the separation radius."""

BOUNDARY_MODES = ("contain", "bounce", "wrap")
"""World edges: steer back from a margin and never leave; reflect off the edges; torus."""

NEIGHBOUR_LIMIT = 512
"""A boid counts at most this many neighbours, the nearest. Schools rarely pack more into
a perception radius; boids spawned on one spot do, and counting every pair of them would
take time and memory growing as the square of their number."""

LARGEST = 1e6
"""No parameter of a species or a world exceeds this in magnitude (px, px/s, s, weights):
far beyond any game, and small enough that no product of parameters overflows."""


@dataclass(frozen=True, slots=True)
class Species:
    """Parameters shared by every boid of one species. Immutable and validated on creation.

    Change a running flock's species with `Flock.tune(name, field=value)`; it takes effect on
    the next step. Units: world units (pixels), seconds, degrees. Every number lies within
    ±`LARGEST` (max_force and max_turn_rate may also be ``math.inf``).

    Attributes:
        name: unique name of the species.
        perception_radius: how far a boid sees its neighbours (px, > 0).
        separation_radius: neighbours closer than this push it away (px, 0..perception_radius).
        fov_degrees: field of view centred on the heading (0..360; 360 sees all around).
        separation_weight: weight of the separation rule.
        alignment_weight: weight of the alignment rule.
        cohesion_weight: weight of the cohesion rule.
        min_speed: lowest speed (px/s, >= 0).
        max_speed: highest speed (px/s, > 0, >= min_speed).
        max_force: largest steering acceleration (px/s², > 0; ``math.inf`` for none).
        max_turn_rate: fastest change of heading (deg/s, > 0; ``math.inf`` for none).
        max_neighbours: count only the k nearest neighbours (topological, 0..512); 0
            counts all, up to `NEIGHBOUR_LIMIT` (512), the nearest.
        separation_falloff: ``"inverse"`` or ``"inverse_square"`` (see `FALLOFFS`).
        steering: ``"reynolds"``, ``"accumulate"`` or ``"turn"`` (see `STEERING_STYLES`).
        separate_turn: ``turn`` style: max degrees per step turning away from the nearest.
        align_turn: ``turn`` style: max degrees per step turning to the neighbours' heading.
        cohere_turn: ``turn`` style: max degrees per step turning towards their centre.
        obstacle_weight: weight of obstacle avoidance (look-ahead steering around shapes).
        look_ahead: how far ahead a boid looks for obstacles, in seconds of travel (> 0).
        leader_weight: weight of following a leader (0: ignore leaders).
        follow_distance: followers settle this far behind their leader (px, >= 0).
        leader_range: beyond this distance followers head straight back (px, > 0).
        leader_clearance: followers leave a lane this wide in front of the leader (px, >= 0).
        food_weight: weight of seeking food and attractors (0: ignore them).
        food_range: how far a boid senses food (px, >= 0).
        fear_radius: prey flee a predator closer than this (px, >= 0).
        flee_weight: weight of fleeing predators.
        alarm_weight: weight of fleeing with a fleeing neighbour (alarm spread; 0: none).
        chase_weight: weight of chasing prey (species this one chases).
        catch_radius: a hunting boid catches prey closer than this (px, >= 0).
        catch_cooldown: seconds a hunter rests after a catch (>= 0).
        wander_weight: weight of smooth random wandering (0: none).
        wander_rate: how fast the wander direction changes (radians per second, >= 0).
    """

    name: str
    perception_radius: float = 50.0
    separation_radius: float = 18.0
    fov_degrees: float = 270.0
    separation_weight: float = 1.6
    alignment_weight: float = 1.0
    cohesion_weight: float = 0.8
    min_speed: float = 40.0
    max_speed: float = 110.0
    max_force: float = 160.0
    max_turn_rate: float = 300.0
    max_neighbours: int = 0
    separation_falloff: str = "inverse"
    steering: str = "reynolds"
    separate_turn: float = 1.5
    align_turn: float = 5.0
    cohere_turn: float = 3.0
    obstacle_weight: float = 3.0
    look_ahead: float = 0.8
    leader_weight: float = 1.2
    follow_distance: float = 60.0
    leader_range: float = 300.0
    leader_clearance: float = 40.0
    food_weight: float = 1.5
    food_range: float = 160.0
    fear_radius: float = 110.0
    flee_weight: float = 4.0
    alarm_weight: float = 1.5
    chase_weight: float = 2.0
    catch_radius: float = 8.0
    catch_cooldown: float = 1.5
    wander_weight: float = 0.0
    wander_rate: float = 1.5

    def __post_init__(self) -> None:
        _validate(self)


def _fail(species: Any, field: str, why: str) -> None:
    value = getattr(species, field, None)
    raise ValueError(f"Species {species.name!r}: {field} = {value!r} {why}")


def _validate(s: Species) -> None:
    if not isinstance(s.name, str) or not s.name:
        raise ValueError(f"Species: name = {s.name!r} must be a non-empty string")
    for f in fields(s):
        value = getattr(s, f.name)
        if f.type in (float, "float"):
            if isinstance(value, bool) or not isinstance(value, int | float):
                _fail(s, f.name, "must be a number")
            if math.isnan(value):
                _fail(s, f.name, "must not be NaN")
            if math.isinf(value) and f.name not in ("max_force", "max_turn_rate"):
                _fail(s, f.name, "must be finite")
            if math.isfinite(value) and abs(value) > LARGEST:
                _fail(s, f.name, f"must be within ±{LARGEST:g}")
    if s.perception_radius <= 0:
        _fail(s, "perception_radius", "must be > 0")
    if not 0 <= s.separation_radius <= s.perception_radius:
        _fail(s, "separation_radius", f"must be in [0, perception_radius={s.perception_radius}]")
    if not 0 <= s.fov_degrees <= 360:
        _fail(s, "fov_degrees", "must be in [0, 360]")
    if s.min_speed < 0:
        _fail(s, "min_speed", "must be >= 0")
    if s.max_speed <= 0:
        _fail(s, "max_speed", "must be > 0")
    if s.min_speed > s.max_speed:
        _fail(s, "min_speed", f"must not exceed max_speed = {s.max_speed}")
    if s.max_force <= 0:
        _fail(s, "max_force", "must be > 0 (math.inf for no limit)")
    if s.max_turn_rate <= 0:
        _fail(s, "max_turn_rate", "must be > 0 (math.inf for no limit)")
    if isinstance(s.max_neighbours, bool) or not isinstance(s.max_neighbours, int):
        _fail(s, "max_neighbours", "must be an integer")
    if not 0 <= s.max_neighbours <= NEIGHBOUR_LIMIT:
        _fail(s, "max_neighbours", f"must be in [0, {NEIGHBOUR_LIMIT}] (0 counts all)")
    if s.separation_falloff not in FALLOFFS:
        _fail(s, "separation_falloff", f"must be one of {FALLOFFS}")
    if s.steering not in STEERING_STYLES:
        _fail(s, "steering", f"must be one of {STEERING_STYLES}")
    for name in ("separate_turn", "align_turn", "cohere_turn"):
        if not 0 <= getattr(s, name) <= 180:
            _fail(s, name, "must be in [0, 180] degrees per step")
    for name in ("follow_distance", "leader_clearance", "food_range", "fear_radius",
                 "catch_radius", "catch_cooldown", "wander_rate"):  # fmt: skip
        if getattr(s, name) < 0:
            _fail(s, name, "must be >= 0")
    for name in ("look_ahead", "leader_range"):
        if getattr(s, name) <= 0:
            _fail(s, name, "must be > 0")
