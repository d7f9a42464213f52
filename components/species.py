"""Species: the parameter set that one group of boids shares."""

import math
from collections.abc import Callable
from dataclasses import dataclass

from shoal.components.parameters import check_field, declared, param

STEERING_STYLES = ("reynolds", "accumulate", "turn", "zones")
"""How a species turns its rules into motion:

- ``reynolds``: each rule asks for a desired velocity; steering = desired - current, clamped to
  ``max_force``; the weighted sum is clamped again (Reynolds 1999, "Steering Behaviors").
- ``accumulate``: the weighted raw rule vectors are added as acceleration (the common
  game-dev pseudocode: move towards the centre, match velocity, keep away), clamped to
  ``max_force`` (which may be infinite); speed is then kept within [min_speed, max_speed].
- ``turn``: constant-speed boids (set min_speed == max_speed) that turn their heading by at
  most ``separate_turn`` / ``align_turn`` / ``cohere_turn`` degrees per second per rule (the
  NetLogo "Flocking" model): a boid nearer its nearest flockmate than the separation radius
  turns towards that one's heading + 180°, else towards its flockmates' mean heading and
  towards their centre; the weights are not used.
- ``zones``: Couzin et al. (2002), "Collective memory and spatial sorting in animal groups":
  constant-speed boids (set min_speed == max_speed) that turn at most ``max_turn_rate``
  towards one desired direction. Flockmates inside the separation radius (zone of
  repulsion) come first: it heads away from them and ignores the rest. Else it heads along
  the sum of the unit headings of the flockmates inside the alignment radius (zone of
  orientation) and the unit vectors to those beyond it, out to the perception radius (zone
  of attraction). The weights are not used; `heading_noise` adds the model's random turns.
"""

FALLOFFS = ("inverse", "inverse_square", "linear", "soft")
"""How separation grows as a neighbour comes closer: (r/d), (r/d)², linear: the offset
itself over r (d/r, largest at the edge: the push of the common "move away by the offset"
pseudocode), or soft: (r/d) - 1, r the separation radius. Only ``soft`` starts from nothing
at the radius: with the others a neighbour crossing the radius switches a push on or off at
once, and a school whose fish sit near that distance jitters (each fish reversed its turn
12 times a second in the ``school`` preset with ``inverse``)."""

COHESION_PULLS = ("spring", "steady")
"""How cohesion pulls a boid of the ``accumulate`` style to the centre of its flockmates: in
proportion to its distance from it (a spring), or with the same strength at any distance
(cohesion_weight × max_speed, px/s², along the direction to the centre, as ``reynolds``
steers). A constant-speed boid circles that centre where the pull is the v² / r a circle
needs: a spring holds it at r = v / √weight only against an equal pull from the other side,
so a school that swims off as one keeps on; a steady pull turns every boid on a circle of r
= v / weight, and the school mills (the ``mill`` preset)."""

LEADER_PULLS = ("settle", "spring")
"""How a follower is drawn to its leader: ``settle``: it heads back at full speed from beyond
``leader_range``, and nearer it settles ``follow_distance`` behind the leader at the
leader's speed, out of the leader's lane (the game's school); ``spring``: it is pulled in
proportion to its distance from the leader (leader_weight px/s² for each px), twice as hard
beyond ``leader_range`` (the Unity post "【Unity】Boidsを使った「群れ」のシミュレーション",
kurokumasoft: a rule towards the leader, and one more towards it when the boid is too far);
it never settles, and keeps swimming through and round it."""

SEPARATION_COMBINES = ("sum", "mean")
"""How the pushes of several close neighbours make one separation: their sum, or their mean
over the neighbours (walls counted as neighbours included) inside the separation radius."""

FORCE_CAPS = ("rules_and_sum", "rules")
"""What ``max_force`` bounds in the ``reynolds`` and ``accumulate`` styles: each rule's steer
(reynolds) and the weighted sum of separation, alignment and cohesion, as Reynolds (1999)
does; or each rule's steer only, the weighted sum unbounded (the code of the Godot post,
"Godot EngineでBoids Flockingシミュレーションを実装する", BioErrorLog, adds its rules'
pushes without a cap). The accumulate style has no per-rule steer: with
``rules`` its sum is not bounded at all."""

ACCELERATIONS = ("fresh", "kept")
"""Whether a step's steering stands alone (``fresh``: the acceleration is worked out anew
every step, as every model but one does) or adds to the acceleration the boid had
(``kept``: the Godot post's code keeps ``acceleration`` as a member that each frame
adds to and never resets, so the steering of every frame so far adds up, and a boid turns
as slowly as that sum lets it). Speed limits still hold."""

WALL_STYLES = ("push", "turn", "neighbours")
"""How a species keeps off the walls of a ``contain`` world (`FlockConfig.margin`,
`FlockConfig.wall_weight`); in every style no boid ever leaves the box:

- ``push``: inside the margin a wall pushes as ((margin / d)² - 1) × wall_weight ×
  max_speed² / margin (zero at the margin, strong at the wall).
- ``turn``: inside the margin a wall pushes with a constant wall_weight × max_speed² /
  margin (the "turn back at the margin" of the common pseudocode).
- ``neighbours``: each wall nearer than the separation radius is a virtual boid at the foot
  of the perpendicular from the boid: it pushes through the separation rule (falloff,
  weight, and counted in a ``mean``), and the margin pushes nothing.
"""

BOUNDARY_MODES = ("contain", "bounce", "wrap")
"""World edges: steer back from a margin and never leave; reflect off the edges; torus."""

NEIGHBOUR_LIMIT = 512
"""A boid counts at most this many neighbours, the nearest. Schools rarely pack more into
a perception radius; boids spawned on one spot do, and counting every pair of them would
take time and memory growing as the square of their number."""


def _cos_half_fov(degrees: float) -> float:
    """The kernels' field-of-view test: cos(fov / 2), or -2 for "sees all around"."""
    return -2.0 if degrees >= 360 else math.cos(math.radians(degrees) / 2)


def _index_in(choices: tuple[str, ...], offset: int = 0) -> Callable[[str], float]:
    """Packs a choice as its index in `choices` (plus `offset`)."""
    return lambda value: float(choices.index(value) + offset)


@dataclass(frozen=True, slots=True)
class Species:
    """Parameters shared by every boid of one species. Immutable and validated on creation.

    Change a running flock's species with `Flock.tune(name, field=value)`; it takes effect on
    the next step. Units: world units (pixels), seconds, degrees. Every number lies within
    ±`LARGEST` (max_force and max_turn_rate may also be ``math.inf``). Each parameter is
    declared once below, with its unit, valid range and meaning (see
    `shoal.components.parameters`): the checks, the kernels' packing and the docs all come
    from that declaration.

    Attributes:
        name: unique name of the species.
    """

    name: str
    perception_radius: float = param(
        50.0, "px", "how far a boid sees its neighbours", low=0.0, above=True
    )
    separation_radius: float = param(
        18.0,
        "px",
        "neighbours closer than this push it away (zone of repulsion)",
        low=0.0,
        at_most="perception_radius",
    )
    personal_space: float = param(
        10.0,
        "px",
        "flockmates never end a step closer than this (their bodies: a hard limit, whatever "
        "the weights)",
        low=0.0,
        note="0: no limit",
    )
    alignment_radius: float = param(
        math.inf,
        "px",
        "it matches the heading of flockmates nearer than this (zone of orientation)",
        low=0.0,
        infinite=True,
        at_most="perception_radius",
        note="inf: out to the perception radius",
    )
    fov_degrees: float = param(
        270.0,
        "degrees",
        "field of view centred on the heading (360: all round)",
        low=0.0,
        high=360.0,
        pack=_cos_half_fov,
    )
    separation_weight: float = param(1.6, "×", "weight of the separation rule")
    alignment_weight: float = param(1.0, "×", "weight of the alignment rule")
    cohesion_weight: float = param(0.8, "×", "weight of the cohesion rule")
    cohesion_pull: str = param(
        "spring",
        "",
        "accumulate style: how cohesion grows with the distance (see COHESION_PULLS)",
        choices=COHESION_PULLS,
        pack=_index_in(COHESION_PULLS),
    )
    min_speed: float = param(40.0, "px/s", "lowest speed", low=0.0, at_most="max_speed")
    max_speed: float = param(110.0, "px/s", "highest speed", low=0.0, above=True)
    cruise_speed: float = param(
        0.0,
        "px/s",
        "the speed it keeps when nothing else asks for one",
        low=0.0,
        at_most="max_speed",
        note="0: none",
    )
    cruise_rate: float = param(
        1.0, "1/s", "how fast it returns to its cruise speed (share of the gap per second)", low=0.0
    )
    max_force: float = param(
        160.0, "px/s²", "largest steering acceleration", low=0.0, above=True, infinite=True
    )
    force_cap: str = param(
        "rules_and_sum",
        "",
        "what max_force bounds: each rule's steer and their sum, or each rule only "
        "(see FORCE_CAPS)",
        choices=FORCE_CAPS,
        pack=_index_in(FORCE_CAPS),
    )
    acceleration: str = param(
        "fresh",
        "",
        "whether each step's steering stands alone or adds to the last (see ACCELERATIONS)",
        choices=ACCELERATIONS,
        pack=_index_in(ACCELERATIONS),
    )
    max_turn_rate: float = param(
        300.0,
        "degrees/s",
        "fastest change of heading",
        low=0.0,
        above=True,
        infinite=True,
        pack=math.radians,
    )
    max_neighbours: int = param(
        0,
        "boids",
        "count only the k nearest neighbours (topological)",
        low=0,
        high=NEIGHBOUR_LIMIT,
        integer=True,
        note=f"0: all, up to {NEIGHBOUR_LIMIT}",
        pack=lambda k: float(k or NEIGHBOUR_LIMIT),
    )
    separation_falloff: str = param(
        "inverse",
        "",
        "how separation grows as a neighbour comes closer (see FALLOFFS)",
        choices=FALLOFFS,
        pack=_index_in(FALLOFFS),
    )
    separation_combine: str = param(
        "sum",
        "",
        "how the pushes of several neighbours combine (see SEPARATION_COMBINES)",
        choices=SEPARATION_COMBINES,
        pack=_index_in(SEPARATION_COMBINES),
    )
    walls: str = param(
        "push",
        "",
        "how it keeps off the walls of a contain world (see WALL_STYLES)",
        choices=WALL_STYLES,
        pack=_index_in(WALL_STYLES),
    )
    steering: str = param(
        "reynolds",
        "",
        "how rules become motion (see STEERING_STYLES)",
        choices=STEERING_STYLES,
        pack=_index_in(STEERING_STYLES),
    )
    separate_turn: float = param(
        90.0,
        "degrees/s",
        "turn style: most it turns away from the nearest",
        low=0.0,
        pack=math.radians,
    )
    align_turn: float = param(
        300.0,
        "degrees/s",
        "turn style: most it turns to the neighbours' heading",
        low=0.0,
        pack=math.radians,
    )
    cohere_turn: float = param(
        180.0,
        "degrees/s",
        "turn style: most it turns towards their centre",
        low=0.0,
        pack=math.radians,
    )
    obstacle_weight: float = param(3.0, "×", "weight of obstacle avoidance")
    look_ahead: float = param(
        0.8, "s", "how far ahead it looks for obstacles, in seconds of travel", low=0.0, above=True
    )
    leader_weight: float = param(1.2, "×", "weight of following a leader", note="0: ignore leaders")
    follow_distance: float = param(
        60.0, "px", "followers settle this far behind their leader", low=0.0
    )
    leader_range: float = param(
        300.0, "px", "beyond this distance followers head straight back", low=0.0, above=True
    )
    leader_clearance: float = param(
        40.0, "px", "followers leave a lane this wide in front of the leader", low=0.0
    )
    leader_pull: str = param(
        "settle",
        "",
        "how a follower is drawn to its leader (see LEADER_PULLS)",
        choices=LEADER_PULLS,
        pack=_index_in(LEADER_PULLS),
    )
    food_weight: float = param(
        1.5, "×", "weight of seeking food and attractors", note="0: ignore food"
    )
    food_range: float = param(160.0, "px", "how far it senses food", low=0.0)
    fear_radius: float = param(110.0, "px", "it flees a predator closer than this", low=0.0)
    flee_weight: float = param(4.0, "×", "weight of fleeing predators")
    alarm_weight: float = param(
        1.5, "×", "weight of fleeing with a fleeing neighbour (alarm spread)", note="0: none"
    )
    alarm_speed: float = param(
        600.0, "px/s", "how fast alarm spreads from fish to fish", low=0.0, above=True
    )
    burst_factor: float = param(
        1.0,
        "×",
        "a fleeing boid may reach max_speed × this (a flash expansion)",
        low=1.0,
        high=10.0,
        note="1: no burst",
    )
    burst_time: float = param(0.5, "s", "how long a burst lasts, at most once per scare", low=0.0)
    chase_weight: float = param(2.0, "×", "weight of chasing prey (species it chases)")
    catch_radius: float = param(8.0, "px", "a hunting boid catches prey closer than this", low=0.0)
    catch_cooldown: float = param(1.5, "s", "a hunter rests this long after a catch", low=0.0)
    rejoin_weight: float = param(
        0.0,
        "×",
        "a calm boid steers towards other schools of its species it sees (see rejoin_radius)",
        low=0.0,
        note="0: none",
    )
    rejoin_radius: float = param(
        1000.0,
        "px",
        "how far it sees other schools of its species, not smaller than a third of its own "
        "(fish within twice the separation radius of each other, chained, are one school)",
        low=0.0,
    )
    wander_weight: float = param(0.0, "×", "weight of smooth random wandering", note="0: none")
    wander_rate: float = param(1.5, "rad/s", "how fast the wander direction changes", low=0.0)
    heading_noise: float = param(
        0.0,
        "rad/√s",
        "random turning: the heading's diffusion (white noise, as in Couzin et al. 2002)",
        low=0.0,
        note="0: none",
    )
    rheotaxis: float = param(
        0.0,
        "×",
        "share of the world's current (`Flock.current`) the boid swims against, keeping its "
        "place over the ground as fish do in a stream (0: the current carries it; 1: it holds "
        "its station)",
        low=0.0,
        high=1.0,
    )

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"Species: name = {self.name!r} must be a non-empty string")
        owner = f"Species {self.name!r}"
        for name, rule in SPECIES_PARAMETERS.items():
            check_field(owner, name, getattr(self, name), rule, self)


SPECIES_PARAMETERS = declared(Species)
"""Every species parameter's declaration (`Param`), by name, in field order."""
