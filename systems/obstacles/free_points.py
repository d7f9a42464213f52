"""Free points: a sample of the places just outside the obstacles, for the last resort of the
collision stage (a boid deep inside obstacles, whose nearest free room is far away).

Every region of free room is bounded by obstacle surfaces (or the world's edge, which the
collision stage samples itself), so points a hair outside every vertex, along every edge and
round every circle, kept where they lie outside every obstacle, reach into each region the
obstacles leave open: a tank tiled with rock but for one hole, or a disc covering all but
the tank's corners.
"""

import math

import numpy as np

from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.threads import run_chunks
from shoal.systems.obstacles.query_kernel import inside_points
from shoal.systems.obstacles.shape_kernel import (
    F_CX,
    F_CY,
    F_R,
    I_FIRST,
    I_KIND,
    I_LAST,
    KIND_CIRCLE,
    Geometry,
)

FREE_OFFSET = 1e-2
"""How far outside a surface the free points lie (px)."""
# Spacing of the points along edges and round circles (px), and the most per edge or circle.
_SPACING = 6.0
_MOST = 128


def free_points(geometry: Geometry) -> FloatArray:
    """(m, 2) points just outside the obstacles of `geometry`, each outside every one."""
    shape_f, shape_i, seg = geometry[:3]
    points = np.vstack(
        (_beside_vertices(shape_i, seg), _along_edges(seg), _round_circles(shape_f, shape_i))
    )
    if not len(points):
        return points
    inside = np.zeros(len(points), np.bool_)
    run_chunks(inside_points, len(points), geometry, points, inside)
    free: FloatArray = points[~inside]
    return free


def _beside_vertices(shape_i: IntArray, seg: FloatArray) -> FloatArray:
    """Each polygon vertex pushed out along the mean of its two edges' normals."""
    if not len(seg):
        return np.zeros((0, 2))
    previous = np.arange(len(seg)) - 1
    polygons = shape_i[shape_i[:, I_KIND] != KIND_CIRCLE]
    firsts, lasts = polygons[:, I_FIRST], polygons[:, I_LAST]
    previous[firsts] = lasts - 1  # the first vertex of a ring follows its last edge
    normal = seg[:, 4:6] + seg[previous, 4:6]
    length = np.hypot(*normal.T)
    normal /= np.where(length > 0.0, length, 1.0)[:, None]
    beside: FloatArray = seg[:, 0:2] + FREE_OFFSET * normal
    return beside


def _along_edges(seg: FloatArray) -> FloatArray:
    """Points every few px along each edge, pushed out along its normal."""
    if not len(seg):
        return np.zeros((0, 2))
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    counts = np.clip(np.ceil(length / _SPACING), 1, _MOST).astype(np.int64)
    edge = np.repeat(np.arange(len(seg)), counts)
    starts = np.cumsum(counts) - counts
    t = (np.arange(len(edge)) - starts[edge] + 0.5) / counts[edge]
    a, b, n = seg[edge, 0:2], seg[edge, 2:4], seg[edge, 4:6]
    along: FloatArray = a + t[:, None] * (b - a) + FREE_OFFSET * n
    return along


def _round_circles(shape_f: FloatArray, shape_i: IntArray) -> FloatArray:
    """Points every few px round each circle, a hair outside it."""
    circles = shape_f[shape_i[:, I_KIND] == KIND_CIRCLE]
    if not len(circles):
        return np.zeros((0, 2))
    radius = circles[:, F_R] + FREE_OFFSET
    counts = np.clip(np.ceil(2 * math.pi * radius / _SPACING), 8, _MOST).astype(np.int64)
    owner = np.repeat(np.arange(len(circles)), counts)
    starts = np.cumsum(counts) - counts
    angle = 2 * math.pi * (np.arange(len(owner)) - starts[owner]) / counts[owner]
    centre = circles[owner][:, [F_CX, F_CY]]
    round_: FloatArray = centre + radius[owner, None] * np.column_stack(
        (np.cos(angle), np.sin(angle))
    )
    return round_
