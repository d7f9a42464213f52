"""Moved to `shoal.systems.render.debug_overlay`; this alias keeps older imports working."""

from shoal.systems.render.debug_overlay import (
    DebugOverlay,
    Layer,
    applied,
    circles_layer,
    outlines_layer,
)

__all__ = ["DebugOverlay", "Layer", "applied", "circles_layer", "outlines_layer"]
