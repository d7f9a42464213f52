"""Recipes: five blog posts' boids models, each as shoal configured through its public API
(`FlockConfig`, `Species`, agents), with the post's world and starting flock.

    import shoal.recipes

    recipe = shoal.recipes.netlogo()       # or RECIPES["netlogo"]()
    setup = recipe.install()               # a flock in an esper world of its own, populated
    setup.flock.step()

The posts (Japanese, each with its code), numbered as the recipes cite them:

- 000: Narita's Unity post on Boids, on an engineers' blog (3-D; after a post on ants'
  pheromone trails).
- 001: "【JavaScript & Canvas】Boids アルゴリズム 習作", on the blog 雑食性雑感雑記.
- 002: "【Unity】Boidsを使った「群れ」のシミュレーション", kurokumasoft (くろくまそふと).
- 003: "Godot EngineでBoids Flockingシミュレーションを実装する", BioErrorLog.
- 004: "boids algorithm 実装方法についての簡単なメモ", after NetLogo's Flocking model.

Their models go back to Reynolds (1987), "Flocks, Herds, and Schools: A Distributed
Behavioral Model". The tests port each post's own code (``tests/sources.py``) and check that
the recipe's flock matches it in spacing, speed and polarization. Every recipe is 2-D (post
000 is 3-D in Unity: its box becomes a square) and steps at 60 Hz, one step for one frame or
tick of the post. What a recipe cannot reproduce exactly is said in its docstring.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import esper
import numpy as np

from shoal.components import Attractor, Leader, Position, Species, Velocity
from shoal.components import arguments as check
from shoal.systems import Flock, FlockConfig, install

DT = 1.0 / 60.0
NO_BODIES = 0.0
"""Every recipe's `personal_space`: the posts' boids have no bodies (they may overlap)."""
"""One frame (tick) of a post is one step of this many seconds."""
MAX_COUNT = 100_000
"""The most boids a recipe starts with."""


def _checked(owner: str, seed: object, count: object) -> tuple[int, int]:
    """A recipe's seed and boid count, checked (ValueError naming the recipe and field)."""
    return (check.integer(owner, "seed", seed, high=2**63 - 1),
            check.integer(owner, "count", count, low=1, high=MAX_COUNT))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Setup:
    """An installed recipe: its flock, and the entities of its agents by role ("leader",
    "prey"), which the host moves (write their `Position`)."""

    flock: Flock
    agents: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Recipe:
    """One post's model: the world, the species and how the post starts its flock.

    Attributes:
        name: the recipe's name (a key of `RECIPES`).
        source: the post it comes from (its file in the seeds folder) and its engine.
        config: the world (size, boundary, walls, update order, seed).
        species: the species (one per group of the post).
        populate: spawns the post's starting flock and agents into an installed flock;
            returns the agents' entities by role.
    """

    name: str
    source: str
    config: FlockConfig
    species: tuple[Species, ...]
    populate: Callable[[Flock], dict[str, int]] = field(repr=False)

    def install(self, world: str | None = None) -> Setup:
        """Install the recipe's flock (in esper world `world`, default: a world named after
        the recipe and its seed) and populate it as the post does."""
        name = world if world is not None else f"recipe-{self.name}-{self.config.seed}"
        flock = install(self.config, self.species, world=name)
        with flock.in_world():
            agents = self.populate(flock)
        return Setup(flock, agents)


def _uniform(flock: Flock, species: str, count: int, speed_range: tuple[float, float]) -> None:
    """`count` boids anywhere in the world, random headings, speeds in `speed_range`."""
    config, rng = flock.config, flock.rng
    pos = rng.uniform((0.0, 0.0), (config.width, config.height), (count, 2))
    heading = rng.uniform(0.0, 2.0 * math.pi, count)
    speed = rng.uniform(*speed_range, count)
    flock.spawn(species, pos, speed[:, None] * np.column_stack((np.cos(heading), np.sin(heading))))


# --- 000 ---------------------------------------------------------------------------------------
def virtual_walls(seed: int = 0, count: int = 100, scale: float = 20.0) -> Recipe:
    """Post 000 (Unity, 3-D): separation by inverse-square distance averaged over the
    neighbours in view *and the walls* (virtual boids at the foot of the perpendicular);
    alignment and cohesion; the rules' weighted mean (5, 2, 1) as acceleration; speed
    clamped to [2, 5] units/s.

    In the plane: the 20 × 20 × 20 box becomes a 20 × 20 square, one unit `scale` px. The
    weights follow from the post's: separation 5/8 × 10 units³/s² over (r² × max speed),
    alignment 2/8 per s, cohesion 1/8 per s². The post lets a boid cross a wall (its push is
    only a virtual boid's); shoal keeps it in.
    """
    seed, count = _checked("recipes.virtual_walls", seed, count)
    scale = check.number("recipes.virtual_walls", "scale", scale, low=0.0, above=True)
    fov = 5.0 * scale
    max_speed = 5.0 * scale
    config = FlockConfig(400.0 / 20.0 * scale, 400.0 / 20.0 * scale, "contain", margin=0.0,
                         seed=seed, dt=DT)  # fmt: skip
    species = Species(
        "boid", steering="accumulate", perception_radius=fov, separation_radius=fov,
        fov_degrees=360.0, separation_falloff="inverse_square", separation_combine="mean",
        walls="neighbours", separation_weight=5 / 8 * 10.0 * scale**3 / (fov**2 * max_speed),
        alignment_weight=2 / 8, cohesion_weight=1 / 8, min_speed=2.0 * scale,
        max_speed=max_speed, max_force=math.inf, max_turn_rate=math.inf,
        personal_space=NO_BODIES,
    )  # fmt: skip

    def populate(flock: Flock) -> dict[str, int]:
        _uniform(flock, "boid", count, (2.0 * scale, 2.0 * scale))  # Velocity = forward * 2
        return {}

    return Recipe("virtual_walls", "000 (Unity, 3-D)", config, (species,), populate)


# --- 001 ---------------------------------------------------------------------------------------
def canvas(seed: int = 0, count: int = 70) -> Recipe:
    """Post 001 (JavaScript canvas): each rule adds to the velocity (towards the centre of the
    boids within 75 px, away from those within 20 px by their offsets, towards their mean
    velocity), the speed is limited to 15 px a frame, and inside a 100 px margin a boid turns
    back by a constant 1 px a frame²; the boids update one after the other in place.

    Here: ``linear`` separation (the offsets themselves), ``turn`` walls and a
    ``sequential`` update. Per-frame factors become rates at 60 frames a second:
    centring 0.005 → cohesion 0.005 × 60² /s², matching 0.05 → alignment 0.05 × 60 /s,
    avoid 0.05 → separation 0.05 × 60² × 20 px / 900 px/s, the turn 1 px/frame² → 3,600
    px/s² (wall_weight × 900² / 100). The post limits the speed before the turn back and
    matches velocities with its own already changed by the two rules before; shoal adds all
    rules, then the walls, then limits the speed. The canvas does not stop a boid at its
    edge; shoal does.
    """
    seed, count = _checked("recipes.canvas", seed, count)
    fps, width, height, margin, limit = 60.0, 540.0, 720.0, 100.0, 15.0 * 60.0
    config = FlockConfig(width, height, "contain", margin=margin,
                         wall_weight=1.0 * fps * fps * margin / limit**2, seed=seed, dt=1 / fps,
                         update="sequential")  # fmt: skip
    species = Species(
        "boid", steering="accumulate", perception_radius=75.0, separation_radius=20.0,
        fov_degrees=360.0, separation_falloff="linear", walls="turn",
        separation_weight=0.05 * fps * fps * 20.0 / limit, alignment_weight=0.05 * fps,
        cohesion_weight=0.005 * fps * fps, min_speed=0.0, max_speed=limit,
        max_force=math.inf, max_turn_rate=math.inf,
        personal_space=NO_BODIES,
    )  # fmt: skip

    def populate(flock: Flock) -> dict[str, int]:
        rng = flock.rng
        pos = rng.uniform((0.0, 0.0), (width, height), (count, 2))
        flock.spawn("boid", pos, (rng.random((count, 2)) * 10.0 - 5.0) * fps)
        return {}

    return Recipe("canvas", "001 (JavaScript canvas)", config, (species,), populate)


# --- 002 ---------------------------------------------------------------------------------------
def leader(seed: int = 0, count: int = 50) -> Recipe:
    """Post 002 (Unity): every boid is drawn to a leader (twice as hard when farther than 120
    px), adds the flock's mean velocity and is pushed from the flock's centre by its
    distance from it; noise scales each frame's change; speed within [60, 120] px/s (the
    post's data asset is not shown: these are the recipe's values, weights 1).

    Here: a ``spring`` pull to the leader (`LEADER_PULLS`), a negative spring cohesion over
    the whole flock (its centre without the boid itself: (count - 1) / count of the post's) and
    alignment. The post's change per frame is the rules' mean (1/4) times the noise, whose
    mean, 1/2, stands for it: 60 × 1/8 = 7.5 per second. Adding the flock's mean velocity
    (1/8 of the speed a frame) drives every boid past its top speed, and the clamp back to
    it takes that share off the turn every other rule asks for: the weights are 7.5 × 8/9.
    The cruise at the top speed, closed within a frame, keeps the boids there as the post's
    clamp does. The leader is an agent: move its `Position` (setup.agents["leader"]).
    """
    seed, count = _checked("recipes.leader", seed, count)
    config = FlockConfig(1280.0, 720.0, "contain", seed=seed, dt=DT)
    weight = 60.0 / 8.0 * 8.0 / 9.0
    species = Species(
        "boid", steering="accumulate", perception_radius=2000.0, separation_radius=0.0,
        fov_degrees=360.0, alignment_weight=weight, cohesion_weight=-weight * (count - 1) / count,
        min_speed=60.0, max_speed=120.0, cruise_speed=120.0, cruise_rate=600.0,
        max_force=math.inf, max_turn_rate=math.inf, leader_weight=weight,
        leader_pull="spring", leader_range=120.0,
        personal_space=NO_BODIES,
    )  # fmt: skip

    def populate(flock: Flock) -> dict[str, int]:
        flock.scatter("boid", count, centre=(640.0, 360.0), radius=100.0)
        entity = esper.create_entity(Position(790.0, 360.0), Velocity(), Leader(("boid",)))
        return {"leader": entity}

    return Recipe("leader", "002 (Unity)", config, (species,), populate)


# --- 003 ---------------------------------------------------------------------------------------
def prey(seed: int = 0, count: int = 60) -> Recipe:
    """Post 003 (Godot): Reynolds steering (each rule: desired velocity at full speed minus
    the velocity, as a push of fixed strength 50) for alignment and cohesion within 50 px
    and separation within 25 px (by inverse distance, averaged), and seeking a prey that
    stops 10 px short of it (its dead radius); speed up to 600 px/s.

    As in the post, the acceleration is kept from frame to frame (``acceleration="kept"``:
    the post never resets it, so the steering of every frame so far adds up) and the rules'
    pushes add up without a cap on their sum (``force_cap="rules"``). The prey is an
    `Attractor` that draws at full strength up to its dead radius (``arrive=False``), as the
    post's does, and whose dead radius no boid ever enters (the post only stops pulling
    there).
    """
    seed, count = _checked("recipes.prey", seed, count)
    side = 2400.0  # the post's plane has no edge: a torus wide enough that none meet
    config = FlockConfig(side, side, "wrap", seed=seed, dt=DT)
    species = Species(
        "boid", steering="reynolds", perception_radius=50.0, separation_radius=25.0,
        fov_degrees=360.0, separation_combine="mean", alignment_weight=1.2,
        cohesion_weight=0.5, separation_weight=1.0, food_weight=0.5, min_speed=0.0,
        max_speed=600.0, max_force=50.0, force_cap="rules", acceleration="kept",
        max_turn_rate=math.inf,
        personal_space=NO_BODIES,
    )  # fmt: skip

    def populate(flock: Flock) -> dict[str, int]:
        rng = flock.rng
        centre = side / 2.0
        pos = centre + rng.uniform((-800, -600), (800, -200), (count, 2))
        direction = rng.uniform(-1.0, 1.0, (count, 2))
        flock.spawn("boid", pos, direction / np.linalg.norm(direction, axis=1)[:, None] * 600)
        entity = esper.create_entity(
            Position(centre, centre),
            Attractor(radius=side, dead_radius=10.0, weight=1.0, arrive=False),
        )
        return {"prey": entity}

    return Recipe("prey", "003 (Godot)", config, (species,), populate)


# --- 004 ---------------------------------------------------------------------------------------
def netlogo(seed: int = 0, count: int = 300, patch: float = 8.0) -> Recipe:
    """Post 004 (NetLogo-style, D3.js): constant speed on a torus; a boid nearer its nearest
    neighbour than the minimum separation turns towards that one's heading + 180° by at most
    max-separate-turn, else towards its neighbours' mean heading and their mean relative
    position by at most max-align-turn and max-cohere-turn; NetLogo Flocking's values
    (vision 3 patches, separation 1, turns 1.5°, 5°, 3° a tick, 1 patch a tick), a patch
    `patch` px, one tick a step of 1/60 s.

    Here: the ``turn`` style, per-rule turns in degrees a second (a tick's × 60), no limit
    on the total turn (the post adds the rules' turns). The post gives every group its own
    parameters: add a species per group (they flock together: relate them "flock").
    """
    seed, count = _checked("recipes.netlogo", seed, count)
    patch = check.number("recipes.netlogo", "patch", patch, low=0.0, above=True)
    side = 71.0 * patch
    config = FlockConfig(side, side, "wrap", seed=seed, dt=DT)
    ticks = 1.0 / DT
    species = Species(
        "boid", steering="turn", perception_radius=3.0 * patch, separation_radius=1.0 * patch,
        fov_degrees=360.0, min_speed=patch * ticks, max_speed=patch * ticks,
        max_turn_rate=math.inf, separate_turn=1.5 * ticks, align_turn=5.0 * ticks,
        cohere_turn=3.0 * ticks,
        personal_space=NO_BODIES,
    )  # fmt: skip

    def populate(flock: Flock) -> dict[str, int]:
        _uniform(flock, "boid", count, (patch * ticks, patch * ticks))
        return {}

    return Recipe("netlogo", "004 (NetLogo-style)", config, (species,), populate)


RECIPES: dict[str, Callable[..., Recipe]] = {
    "virtual_walls": virtual_walls,
    "canvas": canvas,
    "leader": leader,
    "prey": prey,
    "netlogo": netlogo,
}
"""Each post's recipe by name, in the posts' order (000-004)."""
