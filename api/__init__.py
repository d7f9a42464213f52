"""shoal: flocking (boids) for python-arcade games, built as an esper ECS.

The names an embedding game needs, in one import::

    import shoal

    flock = shoal.install(shoal.FlockConfig(800, 600, seed=1), [shoal.Species("fish")])
    flock.scatter("fish", 300)
    flock.step()                     # or esper.process(dt) in the host's world

The sub-packages: `shoal.components` (what an entity is), `shoal.systems` (the stages, the
flock and its install), `shoal.systems.render` (arcade drawing; imports arcade),
`shoal.systems.metrics` (measures of a flock) and `shoal.game` (the fish-tank game).
This module imports neither arcade nor the game.
"""

from shoal.components import (
    Attractor,
    Boid,
    Circle,
    Food,
    Leader,
    Obstacle,
    Polygon,
    Position,
    Predator,
    Rect,
    Species,
    Velocity,
)
from shoal.systems import (
    Flock,
    FlockConfig,
    Preparation,
    add_obstacles,
    install,
    navigator,
    prepare,
    uninstall,
    warm_up,
)

__all__ = [
    "Attractor",
    "Boid",
    "Circle",
    "Flock",
    "FlockConfig",
    "Food",
    "Leader",
    "Obstacle",
    "Polygon",
    "Position",
    "Predator",
    "Preparation",
    "Rect",
    "Species",
    "Velocity",
    "add_obstacles",
    "install",
    "navigator",
    "prepare",
    "uninstall",
    "warm_up",
]
