"""Bodies: flockmates never end a step closer than their personal space.

The rules (separation above all) keep boids apart as a tendency, and any tendency can lose:
a strong leader or food pull, a crowd pressed against a wall, boids that do not see the one
behind them. This is the hard limit under the rules, the boids' bodies: after the move, two
flockmates closer than their `personal_space` are moved apart to it, each by half the
overlap. A contact never turns a boid nor moves it tail first (see `_part`).

It runs after the motion kernel, on the positions the step ends at, sorted into a grid of
its own whose cells are as wide as the largest personal space: a boid reads the 3 × 3
cells round its own, a few boids (the steering's cells, as wide as the perception radius,
held 5-10 times as many). Every boid's shift is computed from the same positions before any
is applied (a Jacobi pass), and the pass is serial: the result depends neither on the order
of the rows nor on the threads.
"""

import math

import numpy as np

from shoal.systems.core.integrate import bounded
from shoal.systems.core.maths import wrap_offset
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import P_PERSONAL_SPACE, RELATION_FLOCK
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.motion.kernel import Movers

PASSES = 2
"""Passes a step: one leaves a crowd pressed by a strong pull a fifth inside its personal
space (100 fast followers, `benchmarks/spacing.py`: median nearest neighbour 7.9 px at
10 px), two within a tenth (8.5-9.0 px). The second looks only at the boids that touched."""
CELLS_PER_BOID = 4
"""The grid has at most this many cells a boid (and `_MIN_CELLS`): boids spread over a
world far wider than their personal space get wider cells, not millions of them."""
_MIN_CELLS = 1024
_STILL = 0.15
"""px: a step shorter than this is not seen as a motion (`benchmarks/nav_scenes.py` counts
from 0.2 px): so far a boid may be shifted sideways in a step whatever its speed."""
# Two boids on exactly one spot part along this angle step (the golden angle) times the
# lower row: any fixed direction would make a stack part along one line.
_GOLDEN = math.pi * (3.0 - math.sqrt(5.0))

Scratch = FloatArray
"""(n, 8): per row, x, y as the pass reads them, personal space, a pass's shift (x, y), the
boid's move along its heading this step and the step's shift so far (x, y)."""
Grid = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, FloatArray, IntArray]
"""Per row its cell; per cell the first of its boids in cell order (and one past the
last); the rows in cell order; each row's place in that order; the rows that touched; and
in cell order the boids' x, y and personal space, and species (what the search reads, in
contiguous memory: read by row, the pass cost 70 ns a boid at 10,000 boids, 50 at 2,000)."""


def space(params: FloatArray) -> float:
    """The largest personal space of the species (0: no bodies)."""
    return float(params[:, P_PERSONAL_SPACE].max()) if len(params) else 0.0


def scratch(n: int) -> tuple[Scratch, Grid]:
    """What `keep_apart` needs for n boids."""
    cells = max(CELLS_PER_BOID * n, _MIN_CELLS)
    ints = np.zeros(n, np.int64)
    grid = (ints, np.zeros(cells + 1, np.int64), ints.copy(), ints.copy(), ints.copy(),
            np.zeros((n, 3)), ints.copy())  # fmt: skip
    return np.zeros((n, 8)), grid


@njit_no_refcount(cache=True, nogil=True)
def keep_apart(
    movers: Movers,
    params: FloatArray,
    relations: IntArray,
    world: tuple[int, float, float],
    wrap: bool,
    reach: float,
    dt: float,
    work: Scratch,
    grid: Grid,
) -> int:
    """Part the flockmates closer than their personal space, in up to `PASSES` passes;
    returns how many boids touched another. `world`: boundary, width, height (positions
    from (0, 0)); `reach`: the largest personal space (`space`)."""
    positions, velocities, _, _, species, _, _, _ = movers
    n = positions.shape[0]
    cell, start, order, slot, touched, near, near_species = grid
    for i in range(n):
        work[i, 0], work[i, 1] = positions[i, 0], positions[i, 1]
        work[i, 2] = params[species[i], P_PERSONAL_SPACE]
        work[i, 5] = math.sqrt(velocities[i, 0] ** 2 + velocities[i, 1] ** 2) * abs(dt)
        work[i, 6] = work[i, 7] = 0.0
    layout = _sort(work, world, wrap, reach, cell, start, order)
    for t in range(n):
        i = order[t]
        slot[i] = t
        near[t, 0], near[t, 1], near[t, 2] = work[i, 0], work[i, 1], work[i, 2]
        near_species[t] = species[i]
    hits = 0
    for t in range(n):  # in cell order: the next boid reads the cells this one just read
        if _contacts(order[t], relations, world, wrap, layout, work, grid):
            touched[hits] = order[t]
            hits += 1
    for p in range(PASSES):
        for k in range(hits):
            i = touched[k]
            _part(i, velocities, world, work)
            near[slot[i], 0], near[slot[i], 1] = work[i, 0], work[i, 1]
        if p + 1 < PASSES:
            for k in range(hits):
                _contacts(touched[k], relations, world, wrap, layout, work, grid)
    for t in range(hits):
        i = touched[t]
        positions[i, 0], positions[i, 1] = work[i, 0], work[i, 1]
    return hits


Layout = tuple[int, int]
"""The grid's cells across and up."""


@njit_no_refcount(cache=True, nogil=True)
def _sort(
    work: Scratch,
    world: tuple[int, float, float],
    wrap: bool,
    reach: float,
    cell: IntArray,
    start: IntArray,
    order: IntArray,
) -> Layout:
    """Sort the boids into cells at least `reach` wide (a counting sort): a torus is tiled
    whole, else the boids' bounding box; at most `len(start) - 1` cells."""
    n = work.shape[0]
    if wrap:
        left, bottom, right, top = 0.0, 0.0, world[1], world[2]
    else:
        left, bottom, right, top = math.inf, math.inf, -math.inf, -math.inf
        for i in range(n):
            left, right = min(left, work[i, 0]), max(right, work[i, 0])
            bottom, top = min(bottom, work[i, 1]), max(top, work[i, 1])
    width, height = max(right - left, 1e-9), max(top - bottom, 1e-9)
    size = max(reach, math.sqrt(width * height / (len(start) - 1)))
    nx = max(int(width / size), 1) if wrap else int(width / size) + 1
    ny = max(int(height / size), 1) if wrap else int(height / size) + 1
    while nx * ny > len(start) - 1:  # rounding: one more column or row than the area
        size *= 1.01
        nx = max(int(width / size), 1) if wrap else int(width / size) + 1
        ny = max(int(height / size), 1) if wrap else int(height / size) + 1
    if wrap:  # cells that tile the torus exactly, each at least `size` wide
        size_x, size_y = width / nx, height / ny
    else:
        size_x = size_y = size
    start[: nx * ny + 1] = 0
    for i in range(n):
        cx = min(max(int((work[i, 0] - left) / size_x), 0), nx - 1)
        cy = min(max(int((work[i, 1] - bottom) / size_y), 0), ny - 1)
        cell[i] = cx * ny + cy
        start[cell[i] + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    for i in range(n):  # rows in cell order, each cell's in row order
        order[start[cell[i]]] = i
        start[cell[i]] += 1
    for c in range(nx * ny, 0, -1):
        start[c] = start[c - 1]
    start[0] = 0
    return nx, ny


@njit_no_refcount(cache=True, nogil=True, inline="always")
def _contacts(
    i: int,
    relations: IntArray,
    world: tuple[int, float, float],
    wrap: bool,
    layout: Layout,
    work: Scratch,
    grid: Grid,
) -> bool:
    """Row i's shift (into `work[i, 3:5]`) away from the flockmates closer than their
    personal space; True if it touches one."""
    own = work[i, 2]
    sx = sy = 0.0
    if own > 0.0:
        cell, start, order, slot, _, near, near_species = grid
        _, width, height = world
        inv_w = 1.0 / width if wrap else 0.0
        inv_h = 1.0 / height if wrap else 0.0
        nx, ny = layout
        k = slot[i]
        s = near_species[k]
        x, y = work[i, 0], work[i, 1]
        cx, cy = cell[i] // ny, cell[i] % ny
        # A torus of fewer than 3 cells across would reach one cell twice.
        low_x, high_x = (-1, 1) if not wrap or nx >= 3 else (0, nx - 1)
        low_y, high_y = (-1, 1) if not wrap or ny >= 3 else (0, ny - 1)
        for ox in range(low_x, high_x + 1):
            gx = _wrapped(cx + ox, nx, wrap)
            if gx < 0:
                continue
            for oy in range(low_y, high_y + 1):
                gy = _wrapped(cy + oy, ny, wrap)
                if gy < 0:
                    continue
                g = gx * ny + gy
                for q in range(start[g], start[g + 1]):
                    reach = 0.5 * (own + near[q, 2])
                    dx = wrap_offset(x - near[q, 0], width, inv_w)
                    dy = wrap_offset(y - near[q, 1], height, inv_h)
                    d2 = dx * dx + dy * dy
                    if d2 >= reach * reach or q == k:
                        continue
                    if relations[s, near_species[q]] != RELATION_FLOCK:
                        continue
                    d = math.sqrt(d2)
                    if d > 0.0:
                        ux, uy = dx / d, dy / d
                    else:  # on one spot: part along a direction of the pair's own
                        j = order[q]
                        angle = _GOLDEN * min(i, j) + (0.0 if i < j else math.pi)
                        ux, uy = math.cos(angle), math.sin(angle)
                    sx += ux * 0.5 * (reach - d)
                    sy += uy * 0.5 * (reach - d)
    work[i, 3], work[i, 4] = sx, sy
    return sx != 0.0 or sy != 0.0


@njit_no_refcount(cache=True, nogil=True)
def _wrapped(index: int, count: int, wrap: bool) -> int:
    """A cell column or row one off the grid's edge, round a torus (without the integer
    division of a modulo: 18 a boid cost half the pass); -1 off a box's grid."""
    if 0 <= index < count:
        return index
    if wrap:
        return index + count if index < 0 else index - count
    return -1


@njit_no_refcount(cache=True, nogil=True)
def _part(i: int, velocities: FloatArray, world: tuple[int, float, float], work: Scratch) -> None:
    """Apply row i's shift, its position kept in the world (`bounded`).

    A contact moves a boid, never turns it (the turn a rule asks for is bounded by
    `max_turn_rate`), nor moves it tail first: a fish drawn heading one way while it moves
    another is seen swimming backwards. So a step's shifts (`work[i, 6:8]` so far) take
    back at most its own move along its heading (`work[i, 5]`) and move it sideways at most
    as far as it still moves forward (or `_STILL`): its motion stays within 45° of its
    heading. The boid it touches takes its half all the same, and the rest is parted in
    the next steps. Its velocity is left as it is: braking a boid that closes on another
    kept a fleeing fish in its school, within 3 px of the predator (`benchmarks/
    predator.py`: 26 px at the closest without, 28 without bodies).
    """
    sx, sy = work[i, 3], work[i, 4]
    if sx == 0.0 and sy == 0.0:
        return
    vx, vy = velocities[i, 0], velocities[i, 1]
    speed = math.sqrt(vx * vx + vy * vy)
    # This step's shifts so far and this one, within the limits as a whole.
    tx, ty = work[i, 6] + sx, work[i, 7] + sy
    if speed == 0.0:  # no heading: at most a step too short to be seen
        most = math.sqrt(tx * tx + ty * ty)
        if most > _STILL:
            tx, ty = tx * _STILL / most, ty * _STILL / most
    else:
        hx, hy = vx / speed, vy / speed
        ahead = tx * hx + ty * hy
        side_x, side_y = tx - ahead * hx, ty - ahead * hy
        ahead = max(ahead, -work[i, 5])
        side = math.sqrt(side_x * side_x + side_y * side_y)
        most = max(work[i, 5] + ahead, _STILL)
        if side > most:
            side_x, side_y = side_x * most / side, side_y * most / side
        tx, ty = ahead * hx + side_x, ahead * hy + side_y
    sx, sy = tx - work[i, 6], ty - work[i, 7]
    work[i, 6], work[i, 7] = tx, ty
    boundary, width, height = world
    work[i, 0], work[i, 1], velocities[i, 0], velocities[i, 1] = bounded(
        work[i, 0] + sx, work[i, 1] + sy, vx, vy, boundary, width, height
    )
