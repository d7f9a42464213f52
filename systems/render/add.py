"""add_rendering: the render stage into a flock's world, in one call, so `flock.draw()` draws."""

from typing import Any

import esper

from shoal.components import arguments as check
from shoal.systems.flock.flock import Flock
from shoal.systems.install import RENDER_PRIORITY
from shoal.systems.render.system import RenderSystem


def add_rendering(flock: Flock, **options: Any) -> RenderSystem:
    """Add a `RenderSystem` for `flock` to its world (at `RENDER_PRIORITY`): from then on
    every step records what to draw and `flock.draw()` draws it. `uninstall` removes it.

    Args:
        flock: an installed flock without rendering.
        **options: `RenderSystem`'s keyword arguments (`looks`, `texture`, `scale`, ...).

    Returns:
        The render stage (its `sprites` is the SpriteList it draws).

    Raises:
        ValueError: an option is not what `RenderSystem` takes (the message names it).
        RuntimeError: the flock was uninstalled, or already has rendering.
    """
    check.instance("add_rendering", "flock", flock, Flock)
    if not flock.installed:
        raise RuntimeError("add_rendering: this flock was uninstalled; install a new one")
    with flock.in_world():
        if flock.renderer is not None or esper.get_processor(RenderSystem) is not None:
            raise RuntimeError("add_rendering: this flock's world already has a RenderSystem")
        render = RenderSystem(flock, **options)
        esper.add_processor(render, RENDER_PRIORITY)
    flock.renderer = render
    return render
