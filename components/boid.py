"""The Boid marker: this entity is a member of a flock."""

from dataclasses import dataclass

from shoal.components.arguments import text


@dataclass(frozen=True, slots=True)
class Boid:
    """Marks an entity as a boid of a species.

    Create boids with `Flock.spawn` (vectorised). An entity created with
    `esper.create_entity(Position(...), Velocity(...), Boid("name"))` is adopted by the flock at
    its next step.

    Attributes:
        species: name of the species (a `Species` registered with the flock).
    """

    species: str

    def __post_init__(self) -> None:
        # Checked here, not at the next step, where it would stop the host's esper.process.
        text("Boid", "species", self.species)
