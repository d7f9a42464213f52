"""Moved to `shoal.systems.render.looks`; this alias keeps older imports working."""

from shoal.systems.render.looks import (
    BIRD_SIZE,
    FISH_BODY,
    FISH_HEAD,
    FISH_SIZE,
    FISH_TAIL,
    SHARK_SIZE,
    SpeciesLook,
    bird_texture,
    fish_texture,
    shark_texture,
)

__all__ = [
    "BIRD_SIZE",
    "FISH_BODY",
    "FISH_HEAD",
    "FISH_SIZE",
    "FISH_TAIL",
    "SHARK_SIZE",
    "SpeciesLook",
    "bird_texture",
    "fish_texture",
    "shark_texture",
]
