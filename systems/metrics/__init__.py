"""Measures of a flock: how aligned, how much it mills, how spread out, in how many groups.

Pure functions on numpy arrays (no esper, no arcade), so they work on a `FlockStore`'s views,
on a recorded run, or on any (n, 2) data::

    from shoal.systems.metrics import group_count, mean_nn_distance, milling, polarization

    polarization(store.velocities)                       # 1.0: all swim the same way
    milling(store.positions, store.velocities)           # 1.0: all circle the centre
    mean_nn_distance(store.positions, wrap_size=(w, h))  # typical spacing in a torus world
    group_count(store.positions, radius=50.0)            # schools linked within 50 units
    groups(store.positions, radius=50.0)                 # which school each boid is in
    sprite_overlap(store.positions, store.velocities, (24, 12))  # bodies drawn overlapping
    turn_reversals(headings, dt)                         # turn changes side, per boid per s

The two spatial measures use the cell-sorted grid of `shoal.systems.core.grid` and numba kernels,
so they take milliseconds for tens of thousands of boids.
"""

from shoal.systems.metrics.alignment import milling, polarization
from shoal.systems.metrics.groups import group_count, groups
from shoal.systems.metrics.motion import share_at_limit, sprite_overlap, turn_reversals
from shoal.systems.metrics.spacing import mean_nn_distance

__all__ = [
    "group_count",
    "groups",
    "mean_nn_distance",
    "milling",
    "polarization",
    "share_at_limit",
    "sprite_overlap",
    "turn_reversals",
]
