"""Moved to `shoal.systems.render.sprite_feed`; this alias keeps older imports working.

Importing it imports arcade, as the rendering package does.
"""

from shoal.systems.render.sprite_feed import (
    SUPPORTED_ARCADE_MAJOR,
    SpriteFactory,
    SpriteFeed,
    fast_path_problem,
    heading_degrees,
)

__all__ = [
    "SUPPORTED_ARCADE_MAJOR",
    "SpriteFactory",
    "SpriteFeed",
    "fast_path_problem",
    "heading_degrees",
]
