"""The steering's fast path: the sums of a plain boid's flockmates, read straight off a
copy of the boids of its cell and the 8 round it.

Most boids of most flocks are plain: their search stays within their cell and the 8 round
it, every boid there is of their own species, which they flock with, none is alarmed, no
cell is crowded (`vision.CELL_SAMPLE`), no cap can bite (those cells hold no more boids
than the cap), no two stand on one spot, and they steer in the `reynolds` or `accumulate`
style. For them the general path (`vision.seen` writes the neighbours it sees into a list;
the steering reads the list back and sorts each by relation) does work that cannot change
the result. This loop instead tests every boid of the block (copied once per cell,
`steering.kernel._plain_block`) and adds up those seen at once, with no branch: the
compiler runs it on several candidates at a time (SIMD). It sums in another order than the
general path (`fastmath` reassociation), so a plain boid's sums can differ from the general
path's in the last bits; the result is still the same for any thread count, since a boid's
path and sums depend only on the step's state.
"""

import math

import numba

from shoal.systems.core.store import FloatArray
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
