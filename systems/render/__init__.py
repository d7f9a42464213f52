"""Rendering: the flock drawn through an arcade SpriteList (the only part of systems that
imports arcade).

`shoal.install(..., render=True)` adds it (`shoal.systems.install` does not, so that a
headless simulation never needs arcade); or add it to an installed flock::

    add_rendering(flock, looks={"shark": SpeciesLook(shark_texture(), scale=0.8)})
    ...
    def on_draw(self):
        self.clear()
        flock.draw()          # between the last two steps; still while the flock is paused

Modules: `system` (the stage: record each step, draw a frame), `add` (`add_rendering`),
`sprite_feed` (positions and angles into the SpriteList in bulk), `interpolation` and
`headings` (what is drawn between two steps), `drawing` (their compiled loops), `looks`
(textures and per-species looks), `debug_overlay`, `overlay_shapes` and `triangles` (the D
overlay). The package's names are imported on first use, and with them arcade (in headless
programs set ``ARCADE_HEADLESS=1`` first): `drawing` imports no arcade, so that the warm-up
compiles its kernels in a program that never draws.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shoal.systems.render.add import add_rendering
    from shoal.systems.render.looks import (
        FISH_BODY,
        FISH_HEAD,
        FISH_SIZE,
        FISH_TAIL,
        SpeciesLook,
        Tint,
        bird_texture,
        fish_texture,
        shark_texture,
    )
    from shoal.systems.render.system import (
        SPECIES_TINTS,
        DrawnFrame,
        RenderSystem,
        fixed_fraction,
    )

_HOMES = {
    "add_rendering": "add",
    "FISH_BODY": "looks",
    "FISH_HEAD": "looks",
    "FISH_SIZE": "looks",
    "FISH_TAIL": "looks",
    "SpeciesLook": "looks",
    "Tint": "looks",
    "bird_texture": "looks",
    "fish_texture": "looks",
    "shark_texture": "looks",
    "SPECIES_TINTS": "system",
    "DrawnFrame": "system",
    "RenderSystem": "system",
    "fixed_fraction": "system",
}


def __getattr__(name: str) -> Any:
    """The package's names, imported from their modules (and so arcade) on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "FISH_BODY",
    "FISH_HEAD",
    "FISH_SIZE",
    "FISH_TAIL",
    "SPECIES_TINTS",
    "DrawnFrame",
    "RenderSystem",
    "SpeciesLook",
    "Tint",
    "add_rendering",
    "bird_texture",
    "fish_texture",
    "fixed_fraction",
    "shark_texture",
]
