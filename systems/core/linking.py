"""Which boids form one group: linked when within a radius, chained (union-find on a grid).

The measures (`shoal.systems.metrics.groups`) check their input and call `linked`; the
seeking stage's rejoining (`systems/seeking/rejoin.py`) calls it on a species' boids each
step.
"""

import math

import numba
import numpy as np

from shoal.systems.core.grid import GridFrame, build_grid
from shoal.systems.core.maths import cell_range, wrapped
from shoal.systems.core.store import FloatArray, IntArray

# Margin against rounding for the linking grid: its cells' diagonal stays this much below the
# radius, so that two boids in one cell are surely linked even after rounding.
_CELL_SLACK = 1.0 + 1e-9


def linked(pos: FloatArray, link: float, size: tuple[float, float] | None) -> tuple[int, IntArray]:
    """The number of groups of the boids at `pos` (finite, (n, 2)), linked when at most
    `link` (> 0) apart, and the union-find forest that links them (`labels` numbers them).
    `size`: (width, height) of a torus (positions within it), None for an open world."""
    parent = np.arange(len(pos))
    if len(pos) == 0:
        return 0, parent
    if link >= _span(pos, size):  # every pair is linked (and a huge radius would overflow)
        return 1, np.zeros(len(pos), np.int64)
    wrap = size is not None
    width, height = size if size is not None else (0.0, 0.0)
    grid = build_grid(pos, _clique_cell(link, size), wrap, width, height)
    # Cells no wider than radius / sqrt(2) hold boids that are all linked to each other; the
    # grid may have grown them (cell cap), and then every pair must be checked.
    cliques = grid.cell_w**2 + grid.cell_h**2 <= (link / _CELL_SLACK) ** 2
    # How many cells away a linked boid can be (a distance spans at most floor(d / w) + 1).
    reach_x = int(link // grid.cell_w) + 1
    reach_y = int(link // grid.cell_h) + 1
    count = _count_groups(
        parent, pos, grid.order, grid.cell_start, grid.frame, reach_x, reach_y, link, cliques
    )
    return int(count), parent


def labels(count: int, parent: IntArray) -> IntArray:
    """Each boid's group of `linked`'s forest as a label 0 … count - 1, numbered in the order
    of each group's first boid."""
    return first_labels(count, parent)[0]


def first_labels(count: int, parent: IntArray) -> tuple[IntArray, IntArray]:
    """`labels`, and the first boid of each group (by label)."""
    if count <= 1:
        return np.zeros(len(parent), np.int64), np.zeros(min(count, len(parent)), np.int64)
    return _number_groups(parent, count)


@numba.njit(cache=True)
def _number_groups(parent: IntArray, count: int) -> tuple[IntArray, IntArray]:
    """One pass in boid order: a group is numbered when its first boid comes (numpy's
    unique, a scatter and a sort did the same in twenty times the time: 0.19 ms for 2,000
    fish in two schools, each step of a school that rejoins)."""
    n = len(parent)
    label_of_root = np.full(n, -1, np.int64)
    label = np.empty(n, np.int64)
    first = np.empty(count, np.int64)
    next_label = 0
    for i in range(n):
        root = _root(parent, i)
        if label_of_root[root] < 0:
            label_of_root[root] = next_label
            first[next_label] = i
            next_label += 1
        label[i] = label_of_root[root]
    return label, first


def _span(pos: FloatArray, size: tuple[float, float] | None) -> float:
    """A distance that no two of the boids are apart by more than (the short way round)."""
    if size is not None:
        return 0.5 * math.hypot(*size)
    return math.hypot(float(np.ptp(pos[:, 0])), float(np.ptp(pos[:, 1])))


def _clique_cell(radius: float, size: tuple[float, float] | None) -> float:
    """The cell size to ask for so that a cell's diagonal is (just) below `radius`.

    A torus grid divides the world into whole cells, rounding their number down, which widens
    them; ask for a size that already divides both sides into whole cells.
    """
    cell = radius / (math.sqrt(2.0) * _CELL_SLACK)
    if size is None:
        return cell
    counts = [side / cell for side in size]
    # A subnormal radius divides a side into infinitely many cells (a float's ceil of inf
    # raised): the grid caps the number of its cells anyway, so ask for the cell as it is.
    if not all(math.isfinite(count) for count in counts):
        return cell
    fits = min(side / math.ceil(count) for side, count in zip(size, counts, strict=True))
    return fits / _CELL_SLACK


@numba.njit(cache=True)
def _count_groups(
    parent: IntArray,
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    frame: GridFrame,
    reach_x: int,
    reach_y: int,
    radius: float,
    cliques: bool,
) -> int:
    """Connected components of the "within radius" graph, by union-find over pairs of cells.

    Phases: (if cells are cliques) join every cell into one group → for each pair of non-empty
    cells within reach, merge the groups of linked boids. Each merge leaves one group fewer.
    `parent` (0 … n - 1 on entry) ends as the union-find forest of the groups.
    """
    origin_x, origin_y, cell_w, cell_h, nx, ny, wrap, _, _ = frame
    n = positions.shape[0]
    groups: int = n
    if cliques:
        groups -= _join_each_cell(parent, order, cell_start)
    for a in range(nx * ny):
        if cell_start[a] == cell_start[a + 1]:
            continue
        x0, x1 = cell_range(a // ny, reach_x, nx, wrap)
        y0, y1 = cell_range(a % ny, reach_y, ny, wrap)
        for gx in range(x0, x1 + 1):
            for gy in range(y0, y1 + 1):
                b = (gx % nx) * ny + (gy % ny)
                if b < a or (b == a and cliques):  # each pair of cells once
                    continue
                if cell_start[b] == cell_start[b + 1]:
                    continue
                # Cell b spans [low_x, low_x + cell_w] by [low_y, low_y + cell_h].
                low_x = origin_x + (gx % nx) * cell_w
                low_y = origin_y + (gy % ny) * cell_h
                groups -= _link_cells(
                    a, b, low_x, low_y, cliques, parent, positions, order, cell_start, frame,
                    radius,
                )  # fmt: skip
    return groups


@numba.njit(cache=True)
def _join_each_cell(parent: IntArray, order: IntArray, cell_start: IntArray) -> int:
    """Put each cell's boids in one group (with its first boid); return the number of merges."""
    merges = 0
    for c in range(cell_start.shape[0] - 1):
        for k in range(cell_start[c] + 1, cell_start[c + 1]):
            parent[order[k]] = order[cell_start[c]]
            merges += 1
    return merges


@numba.njit(cache=True)
def _link_cells(
    a: int,
    b: int,
    low_x: float,
    low_y: float,
    cliques: bool,
    parent: IntArray,
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    frame: GridFrame,
    radius: float,
) -> int:
    """Merge the groups of linked boids of cells a and b (a == b: within a); return merges.

    With `cliques` each cell is already one group, so the first link joins the pair: skip
    pairs already joined through other cells and stop at the first link. Boids of a too far
    from b's rectangle are skipped before looking at b's boids; without that, two crowded
    cells that barely touch (diagonal neighbours two cells apart) cost |a| * |b| checks.
    """
    if cliques and _root(parent, order[cell_start[a]]) == _root(parent, order[cell_start[b]]):
        return 0
    _, _, cell_w, cell_h, _, _, wrap, width, height = frame
    r2 = radius * radius
    reach2 = r2 * _CELL_SLACK  # boids on a cell's wall may be a rounding error outside it
    merges = 0
    for p in range(cell_start[a], cell_start[a + 1]):
        i = order[p]
        x, y = positions[i, 0], positions[i, 1]
        gap_x = _gap_tospan(x, low_x, cell_w, width, wrap)
        gap_y = _gap_tospan(y, low_y, cell_h, height, wrap)
        if gap_x * gap_x + gap_y * gap_y > reach2:
            continue
        first = p + 1 if a == b else cell_start[b]  # within one cell, each pair once
        for q in range(first, cell_start[b + 1]):
            j = order[q]
            dx = wrapped(positions[j, 0] - x, width, wrap)
            dy = wrapped(positions[j, 1] - y, height, wrap)
            if dx * dx + dy * dy <= r2 and _merge(parent, i, j):
                merges += 1
                if cliques:
                    return merges
    return merges


@numba.njit(cache=True)
def _gap_tospan(x: float, low: float, span: float, size: float, wrap: bool) -> float:
    """Distance along one axis from x to the nearest point of [low, low + span]."""
    to_middle: float = wrapped(low + 0.5 * span - x, size, wrap)
    return max(abs(to_middle) - 0.5 * span, 0.0)


@numba.njit(cache=True)
def _root(parent: IntArray, i: int) -> int:
    """The representative of i's group; halves the path on the way (keeps trees shallow)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@numba.njit(cache=True)
def _merge(parent: IntArray, i: int, j: int) -> bool:
    """Join the groups of i and j; False if they were already one group."""
    ri = _root(parent, i)
    rj = _root(parent, j)
    if ri == rj:
        return False
    parent[max(ri, rj)] = min(ri, rj)
    return True
