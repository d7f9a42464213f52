"""In how many separate groups a flock is: boids linked when within a radius."""

import numpy.typing as npt

from shoal.components import arguments as check
from shoal.systems.core.linking import labels, linked
from shoal.systems.core.store import IntArray
from shoal.systems.metrics.points import as_points, as_wrap_size


def group_count(
    positions: npt.ArrayLike, radius: float, wrap_size: tuple[float, float] | None = None
) -> int:
    """The number of separate groups: boids are linked when at most `radius` apart.

    Groups are the connected components of that link graph, so a chain of boids each within
    `radius` of the next is one group however long it is.

    Args:
        positions: (n, 2) positions.
        radius: the link distance (finite, > 0); boids exactly `radius` apart are linked.
        wrap_size: (width, height) of a torus world: distances then go the short way round
            (minimal image) and positions are taken modulo the size. None for an open world.

    Returns:
        The number of groups; 0 for no boids, and a lone boid is a group of its own.

    Raises:
        ValueError: if `positions` is not a finite (n, 2) array, `radius` is not finite and
            positive, or `wrap_size` is not two positive finite numbers.
    """
    return _linked("group_count", positions, radius, wrap_size)[0]


def groups(
    positions: npt.ArrayLike, radius: float, wrap_size: tuple[float, float] | None = None
) -> IntArray:
    """Which group each boid is in (the groups of `group_count`): labels 0 … count - 1,
    numbered in the order of each group's first boid.

    E.g. the share of a school in the same group as its leader::

        labels = groups(np.vstack((fish, [leader])), radius)
        share = np.mean(labels[:-1] == labels[-1])

    Args and errors as for `group_count`.
    """
    return labels(*_linked("groups", positions, radius, wrap_size))


def _linked(
    owner: str, positions: npt.ArrayLike, radius: float, wrap_size: tuple[float, float] | None
) -> tuple[int, IntArray]:
    """The number of groups and the union-find forest that links them (checked input)."""
    pos = as_points(owner, "positions", positions)
    link = check.number(owner, "radius", radius, low=0.0, above=True)
    return linked(pos, link, as_wrap_size(owner, wrap_size))
