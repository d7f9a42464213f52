"""The steering's fast path: the sums of a plain boid's flockmates, read straight off a
copy of the boids of its cell and the 8 round it.

Most boids of most flocks are plain: their search stays within their cell and the 8 round
it, every boid there is of their own species, which they flock with, none is alarmed, no
cell is crowded (`vision.CELL_SAMPLE`), no cap can bite (those cells hold no more boids
than the cap), no two stand on one spot, and they steer in the `reynolds` or `accumulate`
style. For them the general path (`vision.seen` writes the neighbours it sees into a list;
the steering reads the list back and sorts each by relation) does work that cannot change
the result. This loop instead tests every boid of the block (copied once per cell,
`_copy_block`) and adds up those seen at once, with no branch: the
compiler runs it on several candidates at a time (SIMD). It sums in another order than the
general path (`fastmath` reassociation), so a plain boid's sums can differ from the general
path's in the last bits; the result is still the same for any thread count, since a boid's
path and sums depend only on the step's state.
"""

import math

import numba

from shoal.systems.core.species_table import (
    FALLOFF_LINEAR,
    FALLOFF_SOFT,
    FALLOFF_SQUARE,
    P_ALIGNMENT_RADIUS,
    P_COS_HALF_FOV,
    P_FALLOFF,
    P_MAX_NEIGHBOURS,
    P_PERCEPTION,
    P_SEPARATION,
    P_STYLE,
    RELATION_FLOCK,
    STYLE_ACCUMULATE,
    STYLE_REYNOLDS,
)
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import CELL_SAMPLE, Cells, Seen, heading, ring_offsets
from shoal.systems.steering.styles import MAX_SEPARATION_FACTOR

# Reassociation lets the sums run in SIMD lanes; the other fast-math flags (no NaN, no inf)
# would be wrong here: radii and forces may be inf.
_SIMD = {"reassoc", "contract"}

PlainSums = tuple[int, float, float, int, float, float, int, float, float]
"""count, sum_dx, sum_dy (offsets to all flockmates seen), aligned, sum_vx, sum_vy (their
velocities, within the alignment radius), separated, sep_x, sep_y (separation pushes)."""
NO_SUMS: PlainSums = (0, 0.0, 0.0, 0, 0.0, 0.0, 0, 0.0, 0.0)
"""The sums over no flockmates."""


@numba.njit(cache=True, nogil=True, fastmath=_SIMD, error_model="numpy")
def plain_sums(
    m: int,
    xs: FloatArray,
    ys: FloatArray,
    vxs: FloatArray,
    vys: FloatArray,
    xi: float,
    yi: float,
    view: tuple[float, bool, float, float],
    radii: tuple[float, float, float],
    falloff_power: int,
    falloff_shift: float,
) -> tuple[int, PlainSums]:
    """The sums over the first m boids of a block as seen from (xi, yi) (see `PlainSums`),
    and how many of them stand exactly there (1: the boid itself; more: the general path
    must run, which gives coincident boids their own push).

    `xs`, `ys`, `vxs`, `vys` are the block's positions (the nearest images: offsets need
    no wrapping) and velocities (`Seen.plain_x`...). `view` is (cos of half the field of
    view, sees all round, unit heading x, y); `radii` (perception, alignment, separation);
    `falloff_power` 0, 1 or 2: the separation push of a neighbour at distance d grows as
    (radius / d - falloff_shift) ** power (capped, as `styles.push`; a shift of 1 is the
    soft falloff, 0 the others).
    """
    cos_half, all_round, hx, hy = view
    perception, align_radius, sep_radius = radii
    r2 = perception * perception
    inv_sep = 1.0 / sep_radius
    count = aligned = separated = here = 0
    sum_dx = sum_dy = sum_vx = sum_vy = sep_x = sep_y = 0.0
    for t in range(m):
        dx = xs[t] - xi
        dy = ys[t] - yi
        d2 = dx * dx + dy * dy
        d = math.sqrt(d2)
        here += d2 == 0.0
        seen = (d2 <= r2) & (d2 > 0.0) & (all_round | (hx * dx + hy * dy >= cos_half * d))
        count += seen
        sum_dx += dx if seen else 0.0
        sum_dy += dy if seen else 0.0
        lined = seen & (d < align_radius)
        aligned += lined
        sum_vx += vxs[t] if lined else 0.0
        sum_vy += vys[t] if lined else 0.0
        close = seen & (d < sep_radius)
        separated += close
        # The push of `styles.push` is -(dx, dy) / d × min((radius / d) ** power, cap), or
        # -(dx, dy) / radius for power 0 (linear). Summed towards (+=) and turned round
        # after the loop: two subtracting sums keep the loop from running in SIMD.
        inv_d = 1.0 / d  # one division per candidate: the slowest operation here
        ratio = sep_radius * inv_d - falloff_shift
        factor = min(ratio * ratio if falloff_power == 2 else ratio, MAX_SEPARATION_FACTOR)
        scale = factor * inv_d if falloff_power else inv_sep
        sep_x += dx * scale if close else 0.0
        sep_y += dy * scale if close else 0.0
    return here, (count, sum_dx, sum_dy, aligned, sum_vx, sum_vy, separated, -sep_x, -sep_y)


@numba.njit(cache=True, nogil=True, inline="always")
def plain_gather(
    i: int, cells: Cells, params: FloatArray, relations: IntArray, out: Seen
) -> tuple[bool, PlainSums]:
    """Slot i's sums by the fast path (`plain_sums` over its cell's block, copied for the
    boids of that cell by `_copy_block`), and whether it could take it (a plain boid: see
    this module's docstring); (False, zeros) where the general path must run."""
    s = cells.species[i]
    style = int(params[s, P_STYLE])
    if relations[s, s] != RELATION_FLOCK or style not in (STYLE_REYNOLDS, STYLE_ACCUMULATE):
        return False, NO_SUMS
    nx, ny, wrap = cells.nx, cells.ny, cells.wrap
    perception = params[s, P_PERCEPTION]
    # Its search must stay within one ring of cells; on a torus, the ring's cells must be
    # the nearest images (4 cells across at least: an offset within the ring is then at
    # most half the world).
    if (perception > cells.size_x and nx > 1) or (perception > cells.size_y and ny > 1):
        return False, NO_SUMS
    if wrap and (nx < 4 or ny < 4):
        return False, NO_SUMS
    c = cells.cell[i]
    at = out.plain_at
    if at[0] != c:
        _copy_block(c, s, cells.cell_start, cells.x, cells.y, cells.vx, cells.vy,
                    cells.cell_species, cells.cell_alarmed, (nx, ny, wrap),
                    (cells.width, cells.height), out)  # fmt: skip
    if not at[2] or at[1] - 1 >= params[s, P_MAX_NEIGHBOURS]:
        return False, NO_SUMS
    cos_half = params[s, P_COS_HALF_FOV]
    all_round, hx, hy = heading(cells.vx[i], cells.vy[i], cos_half)
    falloff = int(params[s, P_FALLOFF])
    power = 0 if falloff == FALLOFF_LINEAR else (2 if falloff == FALLOFF_SQUARE else 1)
    shift = 1.0 if falloff == FALLOFF_SOFT else 0.0
    here, sums = plain_sums(
        at[1], out.plain_x, out.plain_y, out.plain_vx, out.plain_vy, cells.x[i], cells.y[i],
        (cos_half, all_round, hx, hy),
        (perception, params[s, P_ALIGNMENT_RADIUS], params[s, P_SEPARATION]), power, shift,
    )  # fmt: skip
    if here > 1:  # another boid on its very spot: the general path's push parts them
        return False, NO_SUMS
    return True, sums


@numba.njit(cache=True, nogil=True)
def _copy_block(
    c: int, s: int, starts: IntArray, xs: FloatArray, ys: FloatArray, vxs: FloatArray,
    vys: FloatArray, cell_species: IntArray, cell_alarmed: IntArray,
    grid: tuple[int, int, bool], world: tuple[float, float], out: Seen,
) -> None:  # fmt: skip
    """Fill `out.plain_*` for the boids of cell c (species s): whether the fast path may read
    the block (all of species s, none alarmed, no cell crowded: `seen` samples a crowded
    cell, the fast path leaves it to it), how many boids it holds and, if it may, their
    positions and velocities. The block is copied a column of 3 cells (contiguous slots)
    at a time; a column or row across a torus's edge is moved by the world's width or
    height, so that every position is the image nearest cell c."""
    nx, ny, wrap = grid
    width, height = world
    cx, cy = c // ny, c % ny
    down_x, up_x = ring_offsets(cx, 1, nx, wrap)
    down_y, up_y = ring_offsets(cy, 1, ny, wrap)
    at = out.plain_at
    at[0], at[1], at[2] = c, 0, 0
    m = 0
    for ox in range(-down_x, up_x + 1):
        gx, shift_x = cx + ox, 0.0
        if gx < 0:
            gx, shift_x = gx + nx, -width
        elif gx >= nx:
            gx, shift_x = gx - nx, width
        for oy in range(-down_y, up_y + 1):
            gy, shift_y = cy + oy, 0.0
            if gy < 0:
                gy, shift_y = gy + ny, -height
            elif gy >= ny:
                gy, shift_y = gy - ny, height
            g = gx * ny + gy
            first, last = starts[g], starts[g + 1]
            kind = cell_species[g]
            if (kind != s and kind != -2) or cell_alarmed[g] or last - first > CELL_SAMPLE:
                return
            for j in range(first, last):
                out.plain_x[m], out.plain_y[m] = xs[j] + shift_x, ys[j] + shift_y
                out.plain_vx[m], out.plain_vy[m] = vxs[j], vys[j]
                m += 1
    at[1], at[2] = m, 1
