"""`shoal.install`: the flock, its stages and (when asked) its rendering, in one call."""

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from shoal.components import Species
from shoal.components import arguments as check
from shoal.systems import Flock, FlockConfig, uninstall
from shoal.systems import install as install_stages

if TYPE_CHECKING:
    from shoal.systems.render import SpeciesLook


def install(
    config: FlockConfig | None = None,
    species: Iterable[Species] = (),
    *,
    world: str | None = None,
    replace: bool = False,
    render: bool = False,
    looks: "Mapping[str, SpeciesLook] | None" = None,
) -> Flock:
    """Create a flock, register its stages in an esper world and, if asked, its rendering.

    ``shoal.uninstall(flock)`` removes all of it. Without `render` and `looks` this is
    `shoal.systems.install` and never imports arcade.

    Args:
        config: the world's bounds, boundary mode, fixed dt and seed (defaults:
            `FlockConfig()`).
        species: species to register now (more: `Flock.add_species`).
        world: None installs into the current esper world (the host's `esper.process(dt)`
            steps it); a name, into a world of shoal's own (created if needed, deleted by
            `uninstall`): step it with `flock.update(delta_time)` or `flock.step()`.
        replace: uninstall the flock already installed in that world first (a restarting
            level); without it a second install there raises RuntimeError.
        render: also add the render stage (imports arcade): `flock.draw()` draws the flock.
        looks: per species name, its `SpeciesLook` (texture, scale, tint, mirror, ...);
            giving looks implies `render`.

    Returns:
        The `Flock`.

    Raises:
        ValueError: an argument is not what it should be (the message names it; nothing is
            installed).
        RuntimeError: shoal is already installed in that world and `replace` is False.
    """
    check.instance("install", "render", render, bool)
    if looks is not None and not isinstance(looks, Mapping):
        check.fail("install", "looks", looks, "must be a mapping of species name to SpeciesLook")
    flock = install_stages(config, species, world=world, replace=replace)
    if render or looks is not None:
        from shoal.systems.render import add_rendering  # arcade: only when drawing is asked

        try:
            add_rendering(flock, looks=looks)
        except ValueError:
            uninstall(flock)  # a bad look: install nothing
            raise
    return flock
