"""Which hunting boids catch their prey this step, and which boids reach food and prey."""

import math

import numba
import numpy as np

from shoal.systems.core.grid import GridFrame, rows_within
from shoal.systems.core.maths import World, wrap_offset
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import P_CATCH_RADIUS
from shoal.systems.core.store import BoolArray, FloatArray, IntArray


@numba.njit(cache=True, error_model="numpy")
def find_catches(
    positions: FloatArray,
    species: IntArray,
    params: FloatArray,
    cooldown: FloatArray,
    targets: IntArray,
    wrap: bool,
    width: float,
    height: float,
) -> tuple[IntArray, IntArray]:
    """Pairs (hunter rows, prey rows): each hunter whose chosen prey is within its catch radius.

    Rows are visited in order, so when two hunters reach one prey the lower row wins; a boid
    caught this step catches nothing itself, and a resting hunter (cooldown > 0) waits.
    """
    inv_w = 1.0 / width if wrap else 0.0
    inv_h = 1.0 / height if wrap else 0.0
    n = positions.shape[0]
    caught = np.zeros(n, np.bool_)
    hunters = np.empty(n, np.int64)
    prey = np.empty(n, np.int64)
    count = 0
    for i in range(n):
        t = targets[i]
        if t < 0 or caught[i] or caught[t] or cooldown[i] > 0.0:
            continue
        dx = wrap_offset(positions[t, 0] - positions[i, 0], width, inv_w)
        dy = wrap_offset(positions[t, 1] - positions[i, 1], height, inv_h)
        reach = params[species[i], P_CATCH_RADIUS]
        if dx * dx + dy * dy <= reach * reach:
            caught[t] = True
            hunters[count] = i
            prey[count] = t
            count += 1
    return hunters[:count].copy(), prey[:count].copy()


@njit_no_refcount(cache=True)
def cool_down(cooldown: FloatArray, dt: float) -> None:
    """Count each resting boid's `cooldown` down by `dt` seconds, to 0 at the least (one
    pass, in place: numpy's subtract and maximum cost ~3 µs a step for a small flock)."""
    for i in range(cooldown.shape[0]):
        if cooldown[i] > 0.0:
            cooldown[i] = max(cooldown[i] - dt, 0.0)


Catchers = tuple[FloatArray, IntArray, BoolArray, FloatArray, FloatArray]
"""The boids that may reach an agent: their positions, species, whether each is taken
(caught this step) and its cooldown; and each species' reach (-inf: it never reaches one)."""
Targets = tuple[FloatArray, FloatArray, BoolArray, IntArray]
"""The agents boids reach: positions, radius, which species each concerns, and how many boids
may still reach each (0: it is not asked)."""


@numba.njit(cache=True, nogil=True)
def nearest_reaching(
    rows: IntArray,
    boids: Catchers,
    agent: tuple[float, float, float],
    concerned: BoolArray,
    most: int,
    world: World,
) -> IntArray:
    """The boids among `rows` (ascending) that reach an agent at (x, y) of `radius`
    (`agent`: food they bite, prey they catch) this step, nearest first (ties: the lower
    row), at most `most`. A boid reaches it if its species is `concerned`, it is not
    `taken` (caught this step), it rests no longer (`cooldown` 0) and it is within the
    agent's radius plus its species' `reach`. One call per agent: the numpy steps and the
    Python test per boid it replaces cost ~25 µs a pellet."""
    positions, species, taken, cooldown, reach = boids
    x, y, radius = agent
    wrap, width, height = world
    inv_w = 1.0 / width if wrap else 0.0
    inv_h = 1.0 / height if wrap else 0.0
    n = rows.shape[0]
    candidates = np.empty(n, np.int64)
    distance = np.empty(n)
    square = np.empty(n)
    found = 0
    for k in range(n):
        row = rows[k]
        if not concerned[species[row]] or taken[row]:
            continue
        dx = wrap_offset(positions[row, 0] - x, width, inv_w)
        dy = wrap_offset(positions[row, 1] - y, height, inv_h)
        candidates[found] = row
        distance[found] = math.hypot(dx, dy)
        square[found] = dx * dx + dy * dy
        found += 1
    nearest_first = np.argsort(distance[:found], kind="mergesort")  # stable: ties by row
    chosen = np.empty(min(found, max(most, 0)), np.int64)
    count = 0
    for k in nearest_first:
        if count == chosen.shape[0]:
            break
        row = candidates[k]
        limit = radius + reach[species[row]]
        if cooldown[row] > 0.0 or limit < 0.0 or square[k] > limit * limit:
            continue
        chosen[count] = row
        count += 1
    return chosen[:count].copy()


@numba.njit(cache=True, nogil=True)
def reached_by(
    targets: Targets,
    boids: Catchers,
    farthest: float,
    rest: FloatArray,
    grid: tuple[IntArray, IntArray, GridFrame],
) -> tuple[IntArray, IntArray]:
    """The boids that reach each agent this step (food they bite, prey they catch), agent
    by agent: agent k's are those `nearest_reaching` chooses among the boids of `grid`
    (order, cell_start, frame) within its radius plus `farthest`, at most `left[k]` (0: it
    is not asked). A boid that reaches one rests at once (`cooldown` set to its species'
    `rest`), so a later agent of the step sees it resting. Returns the agent and the row of
    each, in the order they happen (one call for every agent: a grid query and a compiled
    call from Python cost ~18 µs a pellet within a step)."""
    agent_positions, agent_radius, agent_concerns, left = targets
    positions, species, _, cooldown, _ = boids
    order, cell_start, frame = grid
    world = (frame[6], frame[7], frame[8])
    agents = np.empty(8, np.int64)
    rows_of = np.empty(8, np.int64)
    count = 0
    for k in range(agent_positions.shape[0]):
        if left[k] <= 0:
            continue
        x, y, radius = agent_positions[k, 0], agent_positions[k, 1], agent_radius[k]
        rows = rows_within(positions, order, cell_start, frame, x, y, radius + farthest)
        agent = (x, y, radius)
        chosen = nearest_reaching(rows, boids, agent, agent_concerns[k], left[k], world)
        for row in chosen:
            if count == agents.shape[0]:  # room for twice as many
                agents = np.concatenate((agents, np.empty(count, np.int64)))
                rows_of = np.concatenate((rows_of, np.empty(count, np.int64)))
            agents[count], rows_of[count] = k, row
            count += 1
            cooldown[row] = rest[species[row]]
    return agents[:count].copy(), rows_of[:count].copy()


@numba.njit(cache=True, nogil=True)
def boids_near(
    cell_start: IntArray, frame: GridFrame, points: FloatArray, reach: FloatArray
) -> BoolArray:
    """`maybe_reached` on the grid's numbers (see there): a summed-area table of the cells'
    counts, then one look-up a point (numpy's two dozen calls cost ~50 µs a step)."""
    origin_x, origin_y, cell_w, cell_h, nx, ny, wrap, _, _ = frame
    table = np.zeros((nx + 1, ny + 1), np.int64)
    for cx in range(nx):
        for cy in range(ny):
            c = cx * ny + cy
            table[cx + 1, cy + 1] = (
                cell_start[c + 1] - cell_start[c] + table[cx, cy + 1] + table[cx + 1, cy]
                - table[cx, cy]
            )  # fmt: skip
    near = np.zeros(points.shape[0], np.bool_)
    for k in range(points.shape[0]):
        lo_x = np.floor((points[k, 0] - reach[k] - origin_x) / cell_w)
        hi_x = np.floor((points[k, 0] + reach[k] - origin_x) / cell_w)
        lo_y = np.floor((points[k, 1] - reach[k] - origin_y) / cell_h)
        hi_y = np.floor((points[k, 1] + reach[k] - origin_y) / cell_h)
        if not (lo_x <= hi_x and lo_y <= hi_y):
            near[k] = True  # a NaN: not counted in cells (an index from it reads anywhere)
            continue
        if wrap and (lo_x < 0 or hi_x >= nx or lo_y < 0 or hi_y >= ny):
            near[k] = True  # a reach across the torus's edge finds boids on the far side
            continue
        if hi_x < 0 or lo_x >= nx or hi_y < 0 or lo_y >= ny:
            continue
        x0, x1 = int(max(lo_x, 0.0)), int(min(hi_x, nx - 1.0))
        y0, y1 = int(max(lo_y, 0.0)), int(min(hi_y, ny - 1.0))
        count = table[x1 + 1, y1 + 1] - table[x0, y1 + 1] - table[x1 + 1, y0] + table[x0, y0]
        near[k] = count > 0
    return near
