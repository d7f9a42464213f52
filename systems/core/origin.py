"""Worlds that do not start at (0, 0): the motion stage, whose kernel takes the world as
[0, width] × [0, height] and reads nothing else absolute, runs on positions shifted by the
world's origin, and shifts them back.

The other kernels need no shift: they work on differences between positions (neighbours,
steering, seeking, catches) or on positions' own extent (the grid), which do not depend on
where the world starts; the collision kernel, which also reads obstacles where they are,
takes the origin itself. The navigation's raster starts at the world's corner too
(`shoal.systems.obstacles.nav_grid.NavGrid`): its rasterizer takes the origin, and the
field kernels read points shifted by it (`NavGrid.local`; the seeking kernel's field reads
subtract it).
"""

from collections.abc import Iterator
from contextlib import contextmanager

from shoal.systems.core.config import FlockConfig
from shoal.systems.core.store import FloatArray


@contextmanager
def from_origin(positions: FloatArray, config: FlockConfig) -> Iterator[None]:
    """Run a block with `positions` (changed in place) measured from the world's lower-left
    corner, then put them back; nothing at all when the world starts at (0, 0)."""
    left, bottom = config.origin
    if left == 0.0 and bottom == 0.0:
        yield
        return
    positions[:, 0] -= left
    positions[:, 1] -= bottom
    try:
        yield
    finally:
        positions[:, 0] += left
        positions[:, 1] += bottom
