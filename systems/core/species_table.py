"""SpeciesTable: the registered species, packed into arrays that the kernels read."""

import dataclasses
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from shoal.components.species import FALLOFFS, NEIGHBOUR_LIMIT, STEERING_STYLES, Species

# Columns of the parameter matrix (one row per species). Kernels index with these.
P_PERCEPTION = 0
P_SEPARATION = 1
P_COS_HALF_FOV = 2  # -2.0 means "sees all around"
P_W_SEPARATION = 3
P_W_ALIGNMENT = 4
P_W_COHESION = 5
P_MIN_SPEED = 6
P_MAX_SPEED = 7
P_MAX_FORCE = 8  # inf: unlimited
P_MAX_TURN = 9  # rad/s, inf: unlimited
P_MAX_NEIGHBOURS = 10  # the cap k, at most NEIGHBOUR_LIMIT
P_FALLOFF = 11  # exponent: 1 inverse, 2 inverse square
P_STYLE = 12  # index into STEERING_STYLES
P_SEPARATE_TURN = 13  # rad per step
P_ALIGN_TURN = 14
P_COHERE_TURN = 15
P_OBSTACLE_WEIGHT = 16
P_LOOK_AHEAD = 17  # seconds
P_LEADER_WEIGHT = 18
P_FOLLOW_DISTANCE = 19
P_LEADER_RANGE = 20
P_LEADER_CLEARANCE = 21
P_FOOD_WEIGHT = 22
P_FOOD_RANGE = 23
P_FEAR_RADIUS = 24
P_FLEE_WEIGHT = 25
P_ALARM_WEIGHT = 26
P_CHASE_WEIGHT = 27
P_CATCH_RADIUS = 28
P_CATCH_COOLDOWN = 29
P_WANDER_WEIGHT = 30
P_WANDER_RATE = 31
N_PARAMS = 32

STYLE_REYNOLDS = STEERING_STYLES.index("reynolds")
STYLE_ACCUMULATE = STEERING_STYLES.index("accumulate")
STYLE_TURN = STEERING_STYLES.index("turn")

RELATIONS = ("ignore", "flock", "avoid", "flee", "chase")
"""How a species treats another (`Flock.relate`): not at all; flocks with it (separation,
alignment, cohesion); keeps away from it (separation out to the perception radius); flees it
as a predator (evasion with prediction, inside the fear radius, alarm spreads); hunts it
(pursuit with prediction, catches it inside the catch radius)."""

# relations[i, j]: how species i treats species j, as an index into RELATIONS.
RELATION_IGNORE = RELATIONS.index("ignore")
RELATION_FLOCK = RELATIONS.index("flock")
RELATION_AVOID = RELATIONS.index("avoid")
RELATION_FLEE = RELATIONS.index("flee")
RELATION_CHASE = RELATIONS.index("chase")


def pack(species: Species) -> npt.NDArray[np.float64]:
    """One species as a row of the parameter matrix."""
    row = np.zeros(N_PARAMS)
    row[P_PERCEPTION] = species.perception_radius
    row[P_SEPARATION] = species.separation_radius
    fov = math.radians(species.fov_degrees)
    row[P_COS_HALF_FOV] = -2.0 if species.fov_degrees >= 360 else math.cos(fov / 2)
    row[P_W_SEPARATION] = species.separation_weight
    row[P_W_ALIGNMENT] = species.alignment_weight
    row[P_W_COHESION] = species.cohesion_weight
    row[P_MIN_SPEED] = species.min_speed
    row[P_MAX_SPEED] = species.max_speed
    row[P_MAX_FORCE] = species.max_force
    row[P_MAX_TURN] = math.radians(species.max_turn_rate)
    row[P_MAX_NEIGHBOURS] = species.max_neighbours or NEIGHBOUR_LIMIT
    row[P_FALLOFF] = FALLOFFS.index(species.separation_falloff) + 1
    row[P_STYLE] = STEERING_STYLES.index(species.steering)
    row[P_SEPARATE_TURN] = math.radians(species.separate_turn)
    row[P_ALIGN_TURN] = math.radians(species.align_turn)
    row[P_COHERE_TURN] = math.radians(species.cohere_turn)
    row[P_OBSTACLE_WEIGHT] = species.obstacle_weight
    row[P_LOOK_AHEAD] = species.look_ahead
    row[P_LEADER_WEIGHT] = species.leader_weight
    row[P_FOLLOW_DISTANCE] = species.follow_distance
    row[P_LEADER_RANGE] = species.leader_range
    row[P_LEADER_CLEARANCE] = species.leader_clearance
    row[P_FOOD_WEIGHT] = species.food_weight
    row[P_FOOD_RANGE] = species.food_range
    row[P_FEAR_RADIUS] = species.fear_radius
    row[P_FLEE_WEIGHT] = species.flee_weight
    row[P_ALARM_WEIGHT] = species.alarm_weight
    row[P_CHASE_WEIGHT] = species.chase_weight
    row[P_CATCH_RADIUS] = species.catch_radius
    row[P_CATCH_COOLDOWN] = species.catch_cooldown
    row[P_WANDER_WEIGHT] = species.wander_weight
    row[P_WANDER_RATE] = species.wander_rate
    return row


class SpeciesTable:
    """The species of one flock, by name and by index, and their packed parameters."""

    def __init__(self) -> None:
        self._species: list[Species] = []
        self._index: dict[str, int] = {}
        self.params = np.zeros((0, N_PARAMS))
        self.relations = np.zeros((0, 0), dtype=np.int64)

    def __len__(self) -> int:
        return len(self._species)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def __getitem__(self, name: str) -> Species:
        return self._species[self.index(name)]

    @property
    def names(self) -> list[str]:
        """Names in index order."""
        return [s.name for s in self._species]

    def index(self, name: str) -> int:
        """Index of a species; ValueError naming it if unknown."""
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"unknown species {name!r}; known: {self.names}") from None

    def add(self, species: Species) -> int:
        """Register a species (flocks with itself, ignores the others) and return its index."""
        if not isinstance(species, Species):
            raise TypeError(f"expected a Species, got {type(species).__name__}")
        if species.name in self._index:
            raise ValueError(f"species {species.name!r} is already registered")
        index = len(self._species)
        self._species.append(species)
        self._index[species.name] = index
        self.params = np.vstack([self.params, pack(species)])
        relations = np.zeros((index + 1, index + 1), dtype=np.int64)
        relations[:index, :index] = self.relations
        relations[index, index] = RELATION_FLOCK
        self.relations = relations
        return index

    def tune(self, name: str, **changes: Any) -> Species:
        """Replace some parameters of a species (validated); returns the new Species."""
        index = self.index(name)
        if "name" in changes:
            raise ValueError("a species cannot be renamed")
        known = {f.name for f in dataclasses.fields(Species)}
        for field in changes:
            if field not in known:
                raise ValueError(f"Species has no parameter {field!r}")
        species = dataclasses.replace(self._species[index], **changes)
        self._species[index] = species
        self.params[index] = pack(species)
        return species

    def relate(self, observer: str, other: str, relation: str) -> None:
        """Set how species `observer` treats species `other` (one of `RELATIONS`)."""
        if relation not in RELATIONS:
            raise ValueError(f"relation {relation!r} must be one of {RELATIONS}")
        self.relations[self.index(observer), self.index(other)] = RELATIONS.index(relation)

    def relation(self, observer: str, other: str) -> str:
        """How species `observer` treats species `other`."""
        return RELATIONS[self.relations[self.index(observer), self.index(other)]]

    @property
    def max_perception(self) -> float:
        """The largest perception radius (the grid's cell size); 1.0 with no species."""
        return float(self.params[:, P_PERCEPTION].max()) if len(self) else 1.0
