"""shoal: flocking (boids) for python-arcade games, built as an esper ECS.

The names a host game needs, in one import, without learning esper::

    import shoal

    flock = shoal.install(shoal.FlockConfig(800, 600, seed=1), [shoal.Species("fish")],
                          world="fish", render=True)
    flock.scatter("fish", 300)
    flock.tie(player_sprite, shoal.Leader())    # the school follows the player's sprite
    ...
    flock.update(delta_time)                    # in on_update
    flock.draw()                                # in on_draw
    shoal.uninstall(flock)                      # all of it gone

Units everywhere: px (y up), seconds, px/s (not px per frame: arcade's ``change_x`` at 60
updates a second is a 60th of it), degrees. The drawing names (`SpeciesLook`,
`RenderSystem`, `add_rendering`, the textures) import arcade when first used, so that
``import shoal`` alone never does. The sub-packages: `shoal.components` (what an entity is),
`shoal.systems` (the stages, the flock and its install), `shoal.systems.render` (arcade
drawing), `shoal.systems.metrics` (measures of a flock) and `shoal.game` (the fish-tank game).
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

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
    Prey,
    Rect,
    Species,
    Velocity,
)
from shoal.embed import install
from shoal.systems import (
    BOID_EATEN,
    BOIDS_SPAWNED,
    FOOD_BITTEN,
    FOOD_EATEN,
    LEADER_LOST,
    PREY_CAUGHT,
    Flock,
    FlockConfig,
    NavigationWarning,
    Navigator,
    Preparation,
    SaveError,
    add_obstacles,
    installed_flock,
    load,
    navigator,
    prepare,
    remove_obstacles,
    restore,
    save,
    snapshot,
    uninstall,
    warm_up,
)

if TYPE_CHECKING:
    from shoal.systems.render import (
        RenderSystem,
        SpeciesLook,
        add_rendering,
        bird_texture,
        fish_texture,
        shark_texture,
    )

_DRAWING = (
    "RenderSystem",
    "SpeciesLook",
    "add_rendering",
    "bird_texture",
    "fish_texture",
    "shark_texture",
)


def __getattr__(name: str) -> Any:
    """The drawing names, imported from `shoal.systems.render` (and so arcade) on first use."""
    if name in _DRAWING:
        value = getattr(import_module("shoal.systems.render"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'shoal' has no attribute {name!r}")


__all__ = [
    "BOIDS_SPAWNED",
    "BOID_EATEN",
    "FOOD_BITTEN",
    "FOOD_EATEN",
    "LEADER_LOST",
    "PREY_CAUGHT",
    "Attractor",
    "Boid",
    "Circle",
    "Flock",
    "FlockConfig",
    "Food",
    "Leader",
    "NavigationWarning",
    "Navigator",
    "Obstacle",
    "Polygon",
    "Position",
    "Predator",
    "Preparation",
    "Prey",
    "Rect",
    "RenderSystem",
    "SaveError",
    "Species",
    "SpeciesLook",
    "Velocity",
    "add_obstacles",
    "add_rendering",
    "bird_texture",
    "fish_texture",
    "install",
    "installed_flock",
    "load",
    "navigator",
    "prepare",
    "remove_obstacles",
    "restore",
    "save",
    "shark_texture",
    "snapshot",
    "uninstall",
    "warm_up",
]
