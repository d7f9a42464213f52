"""Vision: who a boid sees. The one rule that the steering, the neighbour lists and the debug
overlay all use.

Over 400 lines: one compiled search (the block copy, the ring walk, the heap of the k
nearest) whose phases inline into each other.

A boid i sees boid j when species i does not ignore species j, their (wrap-aware) distance is
at most i's perception radius, and j lies inside i's field of view. A boid at exactly the same
place, any neighbour of a boid standing still, and a predator (species i flees species j)
count as seen whatever the field of view. Of those, only the k nearest are kept (ties broken
by row): k is the species' topological cap, at most `NEIGHBOUR_LIMIT`.

The boids are read in cell order (`Cells`, made by the neighbour stage): the cells are square-
ish and smaller than the perception radius, and a boid's search walks rings of cells outward
from its own. Once it has its k nearest and nothing beyond the ring can be nearer, it stops:
a boid in a dense crowd reads a few cells, not every boid within its radius. In a cell more
crowded than `CELL_SAMPLE` boids (boids almost on one spot), it reads an evenly spaced sample
of `CELL_SAMPLE` of them, so that no crowd makes the work grow as the square of its size.

Most boids search one ring (their radius is at most a cell wide): then the boids of their
cell and the 8 round it are copied once into a short contiguous block (in the order the rings
read them, so the result is the same), which every boid of that cell reads. In a crowd the
cells are half the radius wide (`neighbours.kernel.crowded`) and a boid searches two rings.

Phases per boid: its cell's block (or rings of cells outward, cells out of reach skipped) →
offsets to every candidate (a branch-free pass) → test those in range (relation, field of
view) → keep them (a max-heap of the k nearest once k are kept) → stop early when the k
nearest are certain.
"""

import math
from typing import NamedTuple, cast

import numba
import numpy as np

from shoal.systems.core.maths import index_in, wrap_offset
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    P_COS_HALF_FOV,
    P_MAX_NEIGHBOURS,
    P_PERCEPTION,
    RELATION_FLEE,
    RELATION_IGNORE,
)
from shoal.systems.core.store import FloatArray, IntArray

CELL_SAMPLE = 128
"""A boid reads at most this many boids of one cell (evenly spaced through it): only cells of
boids almost on one spot hold more."""
BLOCK = 9 * CELL_SAMPLE
"""Room for the boids of a cell and the 8 around it (see `Seen.near_slot`)."""


class Cells(NamedTuple):
    """The flock sorted by grid cell at the start of a step: what every boid's vision reads.

    Slot k is store row `row[k]`; the boids of one cell are contiguous: the slots of cell c
    are `cell_start[c]:cell_start[c + 1]`, with c = cx * ny + cy, and `cell[k]` is the cell
    of slot k. Cells are `size_x` × `size_y` from (`origin_x`, `origin_y`); in a torus
    (`wrap`) they tile the world `width` × `height` and their indices wrap. `positions`,
    `velocities`, `species` and `alarm` are the boids' values in slot order when the step
    began; `x`, `y`, `vx`, `vy` the same positions (on a torus, wrapped into the world: each
    within its cell) and velocities as contiguous arrays, for loops that run in SIMD.
    `cell_species[c]` is the one species of cell c's boids (-1: several; -2: none) and
    `cell_alarmed[c]` 1 where one of them is alarmed.
    """

    row: IntArray
    cell: IntArray
    cell_start: IntArray
    positions: FloatArray
    velocities: FloatArray
    species: IntArray
    alarm: FloatArray
    origin_x: float
    origin_y: float
    size_x: float
    size_y: float
    nx: int
    ny: int
    wrap: bool
    width: float
    height: float
    x: FloatArray
    y: FloatArray
    vx: FloatArray
    vy: FloatArray
    cell_species: IntArray
    cell_alarmed: IntArray


CellsRecord = tuple[
    IntArray, IntArray, IntArray, FloatArray, FloatArray, IntArray, FloatArray, float, float,
    float, float, int, int, bool, float, float, FloatArray, FloatArray, FloatArray, FloatArray,
    IntArray, IntArray,
]  # fmt: skip
"""The fields of `Cells` as a plain tuple, in order (`tuple(cells)`): a kernel called every
step takes this and makes its `Cells` with ``Cells(*record)``, since numba types a plain
tuple in compiled code but a named one in Python (~2.4 µs a call against ~0.1)."""


def cells_record(cells: Cells) -> CellsRecord:
    """`cells` as the plain tuple a kernel takes (see `CellsRecord`)."""
    return cast(CellsRecord, tuple(cells))


class Seen(NamedTuple):
    """One boid's neighbours as `seen` wrote them: slots, offsets (dx, dy) to them, distances.

    Buffers of the largest cap's length; the first `count` entries (seen's return value) are
    valid: in scan order, or sorted by (distance, row) when the cap was reached.
    """

    slot: IntArray
    dx: FloatArray
    dy: FloatArray
    dist: FloatArray
    # The boids of the 3×3 cells round cell near_at[0] (near_at[1] of them; -1: none yet),
    # copied in the order a ring search reads them: every boid of that cell whose search
    # stays within one cell reads this short contiguous copy instead of nine cells.
    near_slot: IntArray
    near_x: FloatArray
    near_y: FloatArray
    near_at: IntArray
    # Scratch for `_read_block`: the offsets and squared distances to the block's boids.
    off_x: FloatArray
    off_y: FloatArray
    off_d2: FloatArray


class Looker(NamedTuple):
    """The boid that looks, as `seen`'s loops read it: its slot and species, its position,
    the square of its perception radius, its view (cos of half its field of view, whether it
    sees all round, its unit heading x, y: `heading`) and its cap on neighbours."""

    i: int
    s: int
    x: float
    y: float
    r2: float
    cos_half: float
    all_round: bool
    hx: float
    hy: float
    cap: int


class Scene(NamedTuple):
    """What `seen`'s loops look at, besides the candidates' positions: each slot's species
    and store row, how each species treats each other, and the world's width and height
    with their inverses on a torus (0 elsewhere: offsets are not wrapped)."""

    species: IntArray
    row: IntArray
    relations: IntArray
    width: float
    height: float
    inv_w: float
    inv_h: float


def no_cells() -> Cells:
    """The cells of a flock with no boids."""
    ints, floats, flat = np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros(0)
    starts = np.zeros(2, np.int64)
    return Cells(ints, ints, starts, floats, floats, ints, flat, 0.0, 0.0, 1.0, 1.0, 1, 1,
                 False, 1.0, 1.0, flat, flat, flat, flat, np.full(1, -2, np.int64),
                 np.zeros(1, np.int64))  # fmt: skip


@numba.njit(cache=True, nogil=True)
def buffers(length: int) -> Seen:
    """Empty `Seen` buffers for lists of up to `length` neighbours (one set per thread, and
    per `Cells`: the block copy belongs to the cells it was read from)."""
    block = BLOCK
    return Seen(
        np.empty(length, np.int64), np.empty(length), np.empty(length), np.empty(length),
        np.empty(block, np.int64), np.empty(block), np.empty(block), np.full(2, -1, np.int64),
        np.empty(block), np.empty(block), np.empty(block),
    )  # fmt: skip


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def seen(
    i: int, cells: Cells, params: FloatArray, relations: IntArray, out: Seen, slack: float
) -> int:
    """Write the neighbours that slot i sees into `out`; return how many.

    `slack`: how far a boid may have moved away from the cell it was sorted into (0 but in
    a flock that updates in place): the search reaches that much further.
    """
    s = cells.species[i]
    radius = params[s, P_PERCEPTION]
    r2 = radius * radius
    far = radius + slack
    far2 = far * far
    cos_half = params[s, P_COS_HALF_FOV]
    cap = int(params[s, P_MAX_NEIGHBOURS])
    all_round, hx, hy = heading(cells.velocities[i, 0], cells.velocities[i, 1], cos_half)
    xi, yi = cells.positions[i, 0], cells.positions[i, 1]
    inv_w = 1.0 / cells.width if cells.wrap else 0.0
    inv_h = 1.0 / cells.height if cells.wrap else 0.0
    ny = cells.ny
    cx, cy = cells.cell[i] // ny, cells.cell[i] % ny
    # Where the boid sits in its own cell: how far the cell walls are on each side.
    fx = _inside(xi - cells.origin_x - cx * cells.size_x, cells.size_x)
    fy = _inside(yi - cells.origin_y - cy * cells.size_y, cells.size_y)
    # At most the whole grid: a huge radius in a small world must not mean a huge loop.
    reach_x = min(math.ceil(far / cells.size_x), cells.nx)
    reach_y = min(math.ceil(far / cells.size_y), ny)
    down_x, up_x = ring_offsets(cx, reach_x, cells.nx, cells.wrap)
    down_y, up_y = ring_offsets(cy, reach_y, ny, cells.wrap)
    # The cell's arrays, read out here: handing the whole `Cells` tuple to a callee costs
    # more than reading the cell (measured: 2,000 boids, 3.5 ms against 1.8 ms a step).
    cell_start, positions = cells.cell_start, cells.positions
    looker = Looker(i, s, xi, yi, r2, cos_half, all_round, hx, hy, cap)
    scene = Scene(cells.species, cells.row, relations, cells.width, cells.height, inv_w, inv_h)
    # int(0), not 0: numba compiles each callee a counter that starts as the literal 0
    # is handed to twice (once for the literal, as it infers the types): seconds at install.
    count = int(0)
    if reach_x == 1 and reach_y == 1:  # the usual search: its cell and the 8 round it
        rings = (down_x, up_x, down_y, up_y)
        m = _gather_block(cells.cell[i], cx, cy, rings, cell_start, positions, cells.nx, ny, out)
        if m >= 0:
            count = _read_block(looker, scene, m, count, out)
            if count == cap:
                _sort_heap(cap, cells.row, out)
            return count
    # Only the cells in the grid are walked: in a long thin world (a torus 12,900 cells
    # by 9, a radius that spans it) walking each ring's whole square and skipping what is
    # off the grid cost minutes a step.
    for ring in range(max(down_x, up_x, down_y, up_y) + 1):
        x_low, x_high, x_step = -min(ring, down_x), min(ring, up_x), 1
        if ring > down_y and ring > up_y:  # the ring's top and bottom rows are off the grid:
            x_low = -ring if ring <= down_x else ring  # only its side columns are left
            x_high = ring if ring <= up_x else -ring
            x_step = 2 * ring
        for ox in range(x_low, x_high + 1, x_step):
            gap_x = _gap(ox, fx, cells.size_x, cells.nx, cells.wrap)
            side = ox == -ring or ox == ring  # a whole column of the ring, else its ends
            y_low, y_high = (max(-ring, -down_y), min(ring, up_y)) if side else (-ring, ring)
            for oy in range(y_low, y_high + 1, 1 if side else max(2 * ring, 1)):
                if oy < -down_y or oy > up_y:
                    continue
                gap_y = _gap(oy, fy, cells.size_y, ny, cells.wrap)
                if gap_x * gap_x + gap_y * gap_y > far2:
                    continue  # the whole cell is out of reach
                c = index_in(cx + ox, cells.nx) * ny + index_in(cy + oy, ny)
                first, last = cell_start[c], cell_start[c + 1]
                count = _read_cell(looker, scene, first, last, positions, count, out)
        if count == cap and out.dist[0] + slack < _beyond(
            ring, fx, fy, cells.size_x, cells.size_y, cells.wrap, down_x, up_x, down_y, up_y
        ):
            break  # nothing outside these rings can be nearer than the farthest kept
    if count == cap:
        _sort_heap(cap, cells.row, out)
    return count


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def _read_cell(
    looker: Looker,
    scene: Scene,
    first: int,
    last: int,
    positions: FloatArray,
    count: int,
    out: Seen,
) -> int:
    """Test the boids of slots [first, last) (one cell) and keep those the `looker` sees;
    returns the new count. They are copied into the block buffer first (a crowded cell's by
    sample), so that one loop, `_read_block`'s, tests every candidate."""
    m = int(0)  # typed from the start, as `seen`'s count
    for j in range(first, last, sample_stride(last - first)):
        out.near_slot[m] = j
        out.near_x[m], out.near_y[m] = positions[j, 0], positions[j, 1]
        m += 1
    out.near_at[0] = -1  # the buffer no longer holds a cell's block
    return _read_block(looker, scene, m, count, out)


@numba.njit(cache=True, nogil=True)
def sample_stride(count: int) -> int:
    """The step between the boids read of a cell of `count` boids: 1 (all of them) up to
    `CELL_SAMPLE`, else the stride of an evenly spaced sample of at most `CELL_SAMPLE`. The
    steering's fast path copies a crowded cell by the same sample."""
    return max(1, (count + CELL_SAMPLE - 1) // CELL_SAMPLE)


@njit_no_refcount(cache=True, nogil=True)
def _gather_block(
    c: int,
    cx: int,
    cy: int,
    rings: tuple[int, int, int, int],
    cell_start: IntArray,
    positions: FloatArray,
    nx: int,
    ny: int,
    out: Seen,
) -> int:
    """Copy the boids of cell c and the cells one ring round it into `out.near_*`, in the
    order `seen`'s rings read them (so either way a boid's list comes out the same); return
    how many, or -1 where a cell holds more than `CELL_SAMPLE` (read by sample instead).
    `rings`: how many cells below and above cell (cx, cy) along x, then y, the search may go
    (`ring_offsets`). Kept for the next boid of the same cell."""
    if out.near_at[0] == c:
        return int(out.near_at[1])
    down_x, up_x, down_y, up_y = rings
    m = int(0)  # typed from the start, as `seen`'s count
    for ring in range(2):
        for ox in range(-min(ring, down_x), min(ring, up_x) + 1):
            side = ox == -ring or ox == ring
            for oy in range(-ring, ring + 1, 1 if side else max(2 * ring, 1)):
                if oy < -down_y or oy > up_y:
                    continue
                other = index_in(cx + ox, nx) * ny + index_in(cy + oy, ny)
                first, last = cell_start[other], cell_start[other + 1]
                if last - first > CELL_SAMPLE:
                    out.near_at[0], out.near_at[1] = c, -1
                    return -1
                for j in range(first, last):
                    out.near_slot[m] = j
                    out.near_x[m], out.near_y[m] = positions[j, 0], positions[j, 1]
                    m += 1
    out.near_at[0], out.near_at[1] = c, m
    return m


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def _read_block(looker: Looker, scene: Scene, m: int, count: int, out: Seen) -> int:
    """Test the first m boids of the block buffer and keep those the `looker` sees (after
    the `count` kept so far); returns the new count.

    Every candidate of a boid goes through this one loop, with no call in it: a numba call
    that takes arrays costs tens of ns (reference counts), more than the test itself.
    """
    i, s, xi, yi, r2, cos_half, all_round, hx, hy, cap = looker
    species, row, relations, width, height, inv_w, inv_h = scene
    near_slot, near_x, near_y = out.near_slot, out.near_x, out.near_y
    slot, kept_dx, kept_dy, dist = out.slot, out.dx, out.dy, out.dist
    # Two passes: the offsets of every candidate in a loop without branches (it vectorises:
    # 35 % off the whole search at 500 to 10,000 boids), then the tests on those in range.
    ox, oy, od2 = out.off_x, out.off_y, out.off_d2
    for t in range(m):
        dx = wrap_offset(near_x[t] - xi, width, inv_w)
        dy = wrap_offset(near_y[t] - yi, height, inv_h)
        ox[t] = dx
        oy[t] = dy
        od2[t] = dx * dx + dy * dy
    for t in range(m):
        d2 = od2[t]
        j = near_slot[t]
        if d2 > r2 or j == i:
            continue
        dx = ox[t]
        dy = oy[t]
        relation = relations[s, species[j]]
        if relation == RELATION_IGNORE:
            continue
        d = math.sqrt(d2)
        # Predators are sensed all round (as fish feel them with their lateral line).
        if not (
            all_round or d2 == 0.0 or relation == RELATION_FLEE or hx * dx + hy * dy >= cos_half * d
        ):
            continue
        if count < cap:
            slot[count], kept_dx[count], kept_dy[count], dist[count] = j, dx, dy, d
            count += 1
            if count == cap:  # from now on a max-heap of the k nearest (farthest on top)
                for node in range(cap // 2 - 1, -1, -1):
                    _sift_down(node, cap, row, slot, kept_dx, kept_dy, dist)
        elif _nearer(d, row[j], dist[0], row[slot[0]]):
            slot[0], kept_dx[0], kept_dy[0], dist[0] = j, dx, dy, d
            _sift_down(int(0), cap, row, slot, kept_dx, kept_dy, dist)  # as `seen`'s count
    return count


@numba.njit(cache=True, nogil=True)
def heading(vx: float, vy: float, cos_half: float) -> tuple[bool, float, float]:
    """Whether a boid moving at (vx, vy) sees all round (no blind angle, or standing still),
    and its unit heading."""
    speed = math.sqrt(vx * vx + vy * vy)
    if speed == 0.0:
        return True, 0.0, 0.0
    return cos_half < -1.5, vx / speed, vy / speed


@numba.njit(cache=True, nogil=True)
def _inside(offset: float, size: float) -> float:
    """The boid's offset from its cell's low wall, kept in [0, size] against rounding."""
    return min(max(offset, 0.0), size)


@numba.njit(cache=True, nogil=True)
def ring_offsets(c: int, reach: int, n_cells: int, wrap: bool) -> tuple[int, int]:
    """How many cells below and above cell c the search may go along one axis: within the
    grid, and in a torus never round to a cell already visited."""
    if wrap:
        down = (n_cells - 1) // 2
        return min(reach, down), min(reach, n_cells - 1 - down)
    return min(reach, c), min(reach, n_cells - 1 - c)


@numba.njit(cache=True, nogil=True)
def _gap(offset: int, f: float, size: float, n_cells: int, wrap: bool) -> float:
    """Along one axis, the distance from a boid at f in its cell to the cell `offset` away
    (in a torus, the shorter way round)."""
    if wrap and offset != 0:
        other = offset - n_cells if offset > 0 else offset + n_cells
        return min(_one_way_gap(offset, f, size), _one_way_gap(other, f, size))
    return _one_way_gap(offset, f, size)


@numba.njit(cache=True, nogil=True)
def _one_way_gap(offset: int, f: float, size: float) -> float:
    if offset > 0:
        return (offset - 1) * size + (size - f)
    if offset < 0:
        return (-offset - 1) * size + f
    return 0.0


@numba.njit(cache=True, nogil=True)
def _beyond(
    ring: int,
    fx: float,
    fy: float,
    size_x: float,
    size_y: float,
    wrap: bool,
    down_x: int,
    up_x: int,
    down_y: int,
    up_y: int,
) -> float:
    """The least distance from the boid to any cell outside rings 0..ring (inf if none)."""
    best = math.inf
    if wrap:  # the cells left may be nearer the other way round
        if ring < max(down_x, up_x):
            best = min(best, ring * size_x + min(fx, size_x - fx))
        if ring < max(down_y, up_y):
            best = min(best, ring * size_y + min(fy, size_y - fy))
        return best
    if ring < down_x:
        best = min(best, fx + ring * size_x)
    if ring < up_x:
        best = min(best, size_x - fx + ring * size_x)
    if ring < down_y:
        best = min(best, fy + ring * size_y)
    if ring < up_y:
        best = min(best, size_y - fy + ring * size_y)
    return best


# --- the k nearest: a max-heap (farthest on top) over the buffer ---------------------------
@numba.njit(cache=True, nogil=True)
def _nearer(da: float, ra: int, db: float, rb: int) -> bool:
    """(distance, row) a is nearer than b: ties go to the lower row, so that the choice does
    not depend on the grid or the threads."""
    return da < db or (da == db and ra < rb)


@njit_no_refcount(cache=True, nogil=True)
def _swap(a: int, b: int, slot: IntArray, dx: FloatArray, dy: FloatArray, dist: FloatArray) -> None:
    slot[a], slot[b] = slot[b], slot[a]
    dx[a], dx[b] = dx[b], dx[a]
    dy[a], dy[b] = dy[b], dy[a]
    dist[a], dist[b] = dist[b], dist[a]


@njit_no_refcount(cache=True, nogil=True)
def _sift_down(
    node: int,
    size: int,
    row: IntArray,
    slot: IntArray,
    dx: FloatArray,
    dy: FloatArray,
    dist: FloatArray,
) -> None:
    """Restore the max-heap of the first `size` entries below `node`."""
    while True:
        child = 2 * node + 1
        if child >= size:
            return
        if child + 1 < size and _nearer(
            dist[child], row[slot[child]], dist[child + 1], row[slot[child + 1]]
        ):
            child += 1
        if not _nearer(dist[node], row[slot[node]], dist[child], row[slot[child]]):
            return
        _swap(node, child, slot, dx, dy, dist)
        node = child


@njit_no_refcount(cache=True, nogil=True)
def _sort_heap(size: int, row: IntArray, out: Seen) -> None:
    """Sort the heap's entries nearest first (heap sort)."""
    slot, dx, dy, dist = out.slot, out.dx, out.dy, out.dist
    for last in range(size - 1, 0, -1):
        _swap(int(0), last, slot, dx, dy, dist)  # typed: as `seen`'s count
        _sift_down(int(0), last, row, slot, dx, dy, dist)


# --- every boid's list, on demand (tests, the overlay, `Flock.neighbours`) -----------------
@numba.njit(cache=True, nogil=True)
def count_seen(cells: Cells, params: FloatArray, relations: IntArray, out: Seen) -> IntArray:
    """How many neighbours each slot sees."""
    n = cells.row.shape[0]
    counts = np.empty(n, np.int64)
    for i in range(n):
        counts[i] = seen(i, cells, params, relations, out, 0.0)
    return counts


@njit_no_refcount(cache=True, nogil=True)
def list_seen(
    cells: Cells, params: FloatArray, relations: IntArray, start: IntArray, out: Seen, flat: Seen
) -> None:
    """Write each slot's neighbours into `flat` from `start[slot]` (from `count_seen`)."""
    for i in range(cells.row.shape[0]):
        count = seen(i, cells, params, relations, out, 0.0)
        for q in range(count):
            p = start[i] + q
            flat.slot[p], flat.dx[p] = out.slot[q], out.dx[q]
            flat.dy[p], flat.dist[p] = out.dy[q], out.dist[q]
