"""shoal's components: what an entity is. Data only.

`Position` and `Velocity` of a boid are live views of the flock store: reading one gives the
current value, writing one moves the boid. On any other entity they hold plain values.
"""

from shoal.components.boid import Boid
from shoal.components.kinematics import Position, VectorStore, Velocity
from shoal.components.species import (
    BOUNDARY_MODES,
    FALLOFFS,
    STEERING_STYLES,
    Species,
)

__all__ = [
    "BOUNDARY_MODES",
    "FALLOFFS",
    "STEERING_STYLES",
    "Boid",
    "Position",
    "Species",
    "VectorStore",
    "Velocity",
]
