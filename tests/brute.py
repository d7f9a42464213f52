"""O(N²) references that the grid-based code must match exactly."""

import math

import numpy as np
import numpy.typing as npt

from shoal.components import NEIGHBOUR_LIMIT, Species
from shoal.systems.core.species_table import RELATION_FLEE, RELATION_IGNORE


def offsets(
    positions: npt.NDArray[np.float64], i: int, wrap: tuple[float, float] | None
) -> npt.NDArray[np.float64]:
    """Offsets from boid i to every boid, minimal image on a torus (same formula as shoal)."""
    d: npt.NDArray[np.float64] = positions - positions[i]
    if wrap is not None:
        size = np.asarray(wrap)
        d = d - size * np.floor(d * (1.0 / size) + 0.5)
    return d


def neighbour_sets(
    positions: npt.NDArray[np.float64],
    velocities: npt.NDArray[np.float64],
    species_of: list[Species],
    relations: npt.NDArray[np.int64],
    species_index: npt.NDArray[np.int64],
    wrap: tuple[float, float] | None,
) -> list[list[int]]:
    """Rows each boid sees: within radius, inside the view (or a predator), species not
    ignored; the k nearest."""
    result = []
    for i in range(len(positions)):
        sp = species_of[species_index[i]]
        d = offsets(positions, i, wrap)
        d2 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
        dist = np.sqrt(d2)
        ok = d2 <= sp.perception_radius**2
        relation = relations[species_index[i], species_index]
        ok &= relation != RELATION_IGNORE
        ok[i] = False
        speed = math.sqrt(velocities[i, 0] ** 2 + velocities[i, 1] ** 2)
        if sp.fov_degrees < 360 and speed > 0:
            hx, hy = velocities[i] / speed
            cos_half = math.cos(math.radians(sp.fov_degrees) / 2)
            in_view = hx * d[:, 0] + hy * d[:, 1] >= cos_half * dist
            ok &= (d2 == 0) | in_view | (relation == RELATION_FLEE)
        rows = np.flatnonzero(ok)
        cap = sp.max_neighbours or NEIGHBOUR_LIMIT
        if cap < len(rows):
            rows = np.array(sorted(rows, key=lambda j: (dist[j], j))[:cap])
        result.append(sorted(int(j) for j in rows))
    return result
