"""shoal's components: what an entity is. Data only.

`Position` and `Velocity` of a boid are live views of the flock store: reading one gives the
current value, writing one moves the boid. On any other entity they hold plain values.
"""

from shoal.components.agents import Attractor, Food, Leader, Predator, Prey
from shoal.components.boid import Boid
from shoal.components.kinematics import Position, VectorStore, Velocity
from shoal.components.obstacle import Circle, Obstacle, Polygon, Rect, Shape
from shoal.components.parameters import LARGEST, MAX_COORDINATE
from shoal.components.species import (
    ACCELERATIONS,
    BOUNDARY_MODES,
    COHESION_PULLS,
    FALLOFFS,
    FORCE_CAPS,
    LEADER_PULLS,
    NEIGHBOUR_LIMIT,
    SEPARATION_COMBINES,
    SPECIES_PARAMETERS,
    STEERING_STYLES,
    WALL_STYLES,
    Species,
)

__all__ = [
    "ACCELERATIONS",
    "BOUNDARY_MODES",
    "COHESION_PULLS",
    "FALLOFFS",
    "FORCE_CAPS",
    "LARGEST",
    "LEADER_PULLS",
    "MAX_COORDINATE",
    "NEIGHBOUR_LIMIT",
    "SEPARATION_COMBINES",
    "SPECIES_PARAMETERS",
    "STEERING_STYLES",
    "WALL_STYLES",
    "Attractor",
    "Boid",
    "Circle",
    "Food",
    "Leader",
    "Obstacle",
    "Polygon",
    "Position",
    "Predator",
    "Prey",
    "Rect",
    "Shape",
    "Species",
    "VectorStore",
    "Velocity",
]
