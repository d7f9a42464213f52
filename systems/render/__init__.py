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
`headings` (what is drawn between two steps), `looks` (textures and per-species looks),
`debug_overlay`, `overlay_shapes` and `triangles` (the D overlay). Importing this package
imports arcade: in headless programs set ``ARCADE_HEADLESS=1`` first.
"""

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
from shoal.systems.render.system import SPECIES_TINTS, DrawnFrame, RenderSystem, fixed_fraction

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
