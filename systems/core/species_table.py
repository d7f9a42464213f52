"""SpeciesTable: the registered species, packed into arrays that the kernels read."""

import dataclasses
from typing import Any

import numpy as np
import numpy.typing as npt

from shoal.components.species import (
    ACCELERATIONS,
    COHESION_PULLS,
    FALLOFFS,
    FORCE_CAPS,
    LEADER_PULLS,
    SEPARATION_COMBINES,
    SPECIES_PARAMETERS,
    STEERING_STYLES,
    WALL_STYLES,
    Species,
)

# Columns of the parameter matrix (one row per species), one per declared parameter in the
# order of `Species`' fields; the kernels index with these. What a column holds is the
# declaration's `pack` of the value (e.g. cos of half the field of view, radians).
COLUMNS = {name: k for k, name in enumerate(SPECIES_PARAMETERS)}
N_PARAMS = len(COLUMNS)

P_PERCEPTION = COLUMNS["perception_radius"]
P_SEPARATION = COLUMNS["separation_radius"]
P_PERSONAL_SPACE = COLUMNS["personal_space"]
P_ALIGNMENT_RADIUS = COLUMNS["alignment_radius"]  # inf: the perception radius
P_COS_HALF_FOV = COLUMNS["fov_degrees"]  # -2.0 means "sees all around"
P_W_SEPARATION = COLUMNS["separation_weight"]
P_W_ALIGNMENT = COLUMNS["alignment_weight"]
P_W_COHESION = COLUMNS["cohesion_weight"]
P_COHESION_PULL = COLUMNS["cohesion_pull"]  # index into COHESION_PULLS
P_MIN_SPEED = COLUMNS["min_speed"]
P_MAX_SPEED = COLUMNS["max_speed"]
P_CRUISE_SPEED = COLUMNS["cruise_speed"]  # 0: none
P_CRUISE_RATE = COLUMNS["cruise_rate"]
P_MAX_FORCE = COLUMNS["max_force"]  # inf: unlimited
P_FORCE_CAP = COLUMNS["force_cap"]  # index into FORCE_CAPS
P_ACCELERATION = COLUMNS["acceleration"]  # index into ACCELERATIONS
P_MAX_TURN = COLUMNS["max_turn_rate"]  # rad/s, inf: unlimited
P_MAX_NEIGHBOURS = COLUMNS["max_neighbours"]  # the cap k, at most NEIGHBOUR_LIMIT
P_FALLOFF = COLUMNS["separation_falloff"]  # index into FALLOFFS
P_COMBINE = COLUMNS["separation_combine"]  # index into SEPARATION_COMBINES
P_WALLS = COLUMNS["walls"]  # index into WALL_STYLES
P_STYLE = COLUMNS["steering"]  # index into STEERING_STYLES
P_SEPARATE_TURN = COLUMNS["separate_turn"]  # rad/s
P_ALIGN_TURN = COLUMNS["align_turn"]
P_COHERE_TURN = COLUMNS["cohere_turn"]
P_OBSTACLE_WEIGHT = COLUMNS["obstacle_weight"]
P_LOOK_AHEAD = COLUMNS["look_ahead"]  # seconds
P_LEADER_WEIGHT = COLUMNS["leader_weight"]
P_FOLLOW_DISTANCE = COLUMNS["follow_distance"]
P_LEADER_RANGE = COLUMNS["leader_range"]
P_LEADER_CLEARANCE = COLUMNS["leader_clearance"]
P_LEADER_PULL = COLUMNS["leader_pull"]  # index into LEADER_PULLS
P_FOOD_WEIGHT = COLUMNS["food_weight"]
P_FOOD_RANGE = COLUMNS["food_range"]
P_FEAR_RADIUS = COLUMNS["fear_radius"]
P_FLEE_WEIGHT = COLUMNS["flee_weight"]
P_ALARM_WEIGHT = COLUMNS["alarm_weight"]
P_ALARM_SPEED = COLUMNS["alarm_speed"]
P_BURST_FACTOR = COLUMNS["burst_factor"]
P_BURST_TIME = COLUMNS["burst_time"]
P_CHASE_WEIGHT = COLUMNS["chase_weight"]
P_CATCH_RADIUS = COLUMNS["catch_radius"]
P_CATCH_COOLDOWN = COLUMNS["catch_cooldown"]
P_REJOIN_WEIGHT = COLUMNS["rejoin_weight"]
P_REJOIN_RADIUS = COLUMNS["rejoin_radius"]
P_WANDER_WEIGHT = COLUMNS["wander_weight"]
P_WANDER_RATE = COLUMNS["wander_rate"]
P_HEADING_NOISE = COLUMNS["heading_noise"]  # rad/√s
P_RHEOTAXIS = COLUMNS["rheotaxis"]  # 0..1: the share of the current cancelled

STYLE_REYNOLDS = STEERING_STYLES.index("reynolds")
STYLE_ACCUMULATE = STEERING_STYLES.index("accumulate")
STYLE_TURN = STEERING_STYLES.index("turn")
STYLE_ZONES = STEERING_STYLES.index("zones")

FALLOFF_INVERSE = FALLOFFS.index("inverse")
FALLOFF_SQUARE = FALLOFFS.index("inverse_square")
FALLOFF_LINEAR = FALLOFFS.index("linear")
FALLOFF_SOFT = FALLOFFS.index("soft")
COMBINE_MEAN = SEPARATION_COMBINES.index("mean")
PULL_STEADY = COHESION_PULLS.index("steady")
LEADER_SPRING = LEADER_PULLS.index("spring")
CAP_RULES = FORCE_CAPS.index("rules")
ACCELERATION_KEPT = ACCELERATIONS.index("kept")
WALLS_PUSH = WALL_STYLES.index("push")
WALLS_TURN = WALL_STYLES.index("turn")
WALLS_NEIGHBOURS = WALL_STYLES.index("neighbours")

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


def any_positive(params: npt.NDArray[np.float64], column: int) -> bool:
    """Whether some species' parameter `column` of `params` is > 0.

    Stages ask this every step to skip work no species wants; for a table of a few rows a
    Python max is several times cheaper than a numpy reduction (~0.5 against ~4 µs).
    """
    return max(params[:, column].tolist(), default=0.0) > 0.0


def pack(species: Species) -> npt.NDArray[np.float64]:
    """One species as a row of the parameter matrix (each parameter's declared `pack`)."""
    return np.array(
        [rule.pack(getattr(species, name)) for name, rule in SPECIES_PARAMETERS.items()]
    )


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

    def replace(self, species: list[Species], relations: npt.NDArray[np.int64]) -> None:
        """Hold `species` (in index order) and `relations` ((k, k) indices into
        `RELATIONS`) instead of what it held (a restored flock: both checked by the caller)."""
        self._species = list(species)
        self._index = {s.name: k for k, s in enumerate(species)}
        self.params = np.array([pack(s) for s in species]).reshape(len(species), N_PARAMS)
        self.relations = np.array(relations, dtype=np.int64)

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
