"""How much open water a world has: the largest disc clear of its obstacles and walls.

A pattern needs room: a mill of 150 fish at 100 px/s turns on a ring some 120 px across its
middle and 170 px at its edge (the ``mill`` preset), and a ring pressed against rocks or a
wall breaks. `largest_open_disc` says where a world has room for it, and how much.
"""

import math

import numpy as np

from shoal.systems.obstacles.field import ObstacleField, surface


def largest_open_disc(
    field: ObstacleField, width: float, height: float, wrap: bool = False, step: float = 8.0
) -> tuple[float, float, float]:
    """The centre (x, y) and radius of the largest disc that touches no obstacle and, in a
    world with walls (not `wrap`), stays inside [0, width] × [0, height].

    Searched on a grid of `step` px (the answer is within about `step` of the best). In a
    torus (`wrap`) the obstacles are repeated round the world, so that a disc may lie across
    an edge.

    Args:
        field: the world's obstacles (`obstacle_field(flock)` or `compile_field`).
        width: the world's width, px (> 0).
        height: the world's height, px (> 0).
        wrap: the world is a torus.
        step: grid spacing, px (> 0).

    Returns:
        (x, y, radius); the radius is inf for a torus without obstacles.
    """
    if not (width > 0 and height > 0 and step > 0):
        raise ValueError(f"largest_open_disc: width, height and step must be > 0, got "
                         f"{width}, {height}, {step}")  # fmt: skip
    xs, ys = np.meshgrid(np.arange(0.0, width, step), np.arange(0.0, height, step))
    points = np.column_stack((xs.ravel(), ys.ravel()))
    if wrap:
        # The nearest copy of each obstacle: measure from the point shifted by each of the
        # nine images of the world.
        clear = np.full(len(points), math.inf)
        for dx in (-width, 0.0, width):
            for dy in (-height, 0.0, height):
                clear = np.minimum(clear, surface(field, points + np.array([dx, dy])).distance)
    else:
        clear = surface(field, points).distance
        walls = np.minimum.reduce(
            [points[:, 0], width - points[:, 0], points[:, 1], height - points[:, 1]]
        )
        clear = np.minimum(clear, walls)
    best = int(np.argmax(clear))
    return float(points[best, 0]), float(points[best, 1]), float(clear[best])
