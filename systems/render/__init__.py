"""Rendering: the flock drawn through an arcade SpriteList (the only part of systems that
imports arcade).

Add it yourself (`install` does not, so that a headless simulation never needs arcade)::

    render = RenderSystem(flock, looks={"shark": SpeciesLook(shark_texture(), scale=0.8)})
    esper.add_processor(render, RENDER_PRIORITY)    # in the flock's world
    ...
    def on_draw(self):
        self.clear()
        render.draw(fixed_fraction())               # between the last two fixed steps

Modules: `system` (the stage: record each step, draw a frame), `sprite_feed` (positions and
angles into the SpriteList in bulk), `interpolation` and `headings` (what is drawn between
two steps), `looks` (textures and per-species looks), `debug_overlay`, `overlay_shapes` and
`triangles` (the D overlay). Importing this package imports arcade: in headless programs set
``ARCADE_HEADLESS=1`` first.
"""

from shoal.systems.render.looks import (
    FISH_BODY,
    FISH_HEAD,
    FISH_SIZE,
    FISH_TAIL,
    SpeciesLook,
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
    "bird_texture",
    "fish_texture",
    "fixed_fraction",
    "shark_texture",
]
