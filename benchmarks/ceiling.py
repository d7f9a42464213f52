"""The compiled reference: a minimal exact-grid boids step in numba, on all cores.

The same job as shoal's core stages in benchmarks/flock.py (separation / alignment / cohesion
within a 50 px perception radius, Reynolds steering with max force, speed limits, torus world
at ~12 neighbours per boid at start, 300 warm-up steps, median ms of the timed steps), with none
of shoal's features: no field of view, no species, no esper, no checks. shoal's speed is given
as a multiple of this one, measured in the same run.

Run: ``python benchmarks/ceiling.py N STEPS`` prints JSON ``{"boids": N, "total_ms": ...}``;
``python benchmarks/flock.py --ceiling`` runs it beside shoal and prints the ratio.
"""

import json
import math
import statistics
import sys
import time
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

R, RS = 50.0, 18.0
W_SEP, W_ALI, W_COH = 1.6, 1.0, 0.8
VMIN, VMAX, FMAX = 40.0, 110.0, 160.0
DT = 1.0 / 60.0
Array = npt.NDArray[Any]


@nb.njit(cache=True)
def sort_by_cell(
    x: Array, y: Array, vx: Array, vy: Array, cell: float, ncx: int, ncy: int
) -> tuple[Array, Array, Array, Array, Array]:
    n = x.size
    ids = np.empty(n, np.int64)
    counts = np.zeros(ncx * ncy + 1, np.int64)
    for i in range(n):
        cx = min(int(x[i] / cell), ncx - 1)
        cy = min(int(y[i] / cell), ncy - 1)
        c = cy * ncx + cx
        ids[i] = c
        counts[c + 1] += 1
    for c in range(ncx * ncy):
        counts[c + 1] += counts[c]
    fill = counts[:-1].copy()
    sx, sy = np.empty(n), np.empty(n)
    svx, svy = np.empty(n), np.empty(n)
    for i in range(n):
        j = fill[ids[i]]
        fill[ids[i]] += 1
        sx[j], sy[j], svx[j], svy[j] = x[i], y[i], vx[i], vy[i]
    return sx, sy, svx, svy, counts


@nb.njit(parallel=True, fastmath=True, cache=True)
def steer(
    x: Array, y: Array, vx: Array, vy: Array, counts: Array, cell: float, ncx: int, ncy: int,
    w: float, h: float, nx: Array, ny: Array, nvx: Array, nvy: Array,
) -> None:  # fmt: skip
    n = x.size
    r2, rs2 = R * R, RS * RS
    for i in nb.prange(n):
        xi, yi = x[i], y[i]
        cx = min(int(xi / cell), ncx - 1)
        cy = min(int(yi / cell), ncy - 1)
        sepx = sepy = alx = aly = cox = coy = 0.0
        k = 0
        for oy in range(-1, 2):
            gy = (cy + oy) % ncy
            for ox in range(-1, 2):
                gx = (cx + ox) % ncx
                c = gy * ncx + gx
                for j in range(counts[c], counts[c + 1]):
                    if j == i:
                        continue
                    dx = x[j] - xi
                    dy = y[j] - yi
                    if dx > 0.5 * w:
                        dx -= w
                    elif dx < -0.5 * w:
                        dx += w
                    if dy > 0.5 * h:
                        dy -= h
                    elif dy < -0.5 * h:
                        dy += h
                    d2 = dx * dx + dy * dy
                    if d2 < r2 and d2 > 0.0:
                        k += 1
                        alx += vx[j]
                        aly += vy[j]
                        cox += dx
                        coy += dy
                        if d2 < rs2:
                            sepx -= dx / d2
                            sepy -= dy / d2
        ax = ay = 0.0
        if k > 0:
            # Reynolds steer for each rule: desired at max speed minus velocity, capped
            for rule in range(3):
                if rule == 0:
                    dx, dy, wgt = sepx, sepy, W_SEP
                elif rule == 1:
                    dx, dy, wgt = alx / k, aly / k, W_ALI
                else:
                    dx, dy, wgt = cox / k, coy / k, W_COH
                m = math.sqrt(dx * dx + dy * dy)
                if m > 0.0:
                    sx = dx / m * VMAX - vx[i]
                    sy = dy / m * VMAX - vy[i]
                    f = math.sqrt(sx * sx + sy * sy)
                    if f > FMAX:
                        sx *= FMAX / f
                        sy *= FMAX / f
                    ax += wgt * sx
                    ay += wgt * sy
        a = math.sqrt(ax * ax + ay * ay)
        if a > FMAX:
            ax *= FMAX / a
            ay *= FMAX / a
        ux = vx[i] + ax * DT
        uy = vy[i] + ay * DT
        s = math.sqrt(ux * ux + uy * uy)
        if s > VMAX:
            ux *= VMAX / s
            uy *= VMAX / s
        elif s < VMIN and s > 0.0:
            ux *= VMIN / s
            uy *= VMIN / s
        nvx[i], nvy[i] = ux, uy
        px = (xi + ux * DT) % w
        py = (yi + uy * DT) % h
        nx[i], ny[i] = px, py


def run(n: int, steps: int, warmup: int = 300, seed: int = 1) -> float:
    side = math.sqrt(n * math.pi * R * R / 12.0)
    ncx = ncy = max(3, int(side / R))
    cell = side / ncx
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(0, side, n), rng.uniform(0, side, n)
    ang = rng.uniform(0, 2 * math.pi, n)
    vx, vy = np.cos(ang) * 75.0, np.sin(ang) * 75.0
    nx, ny, nvx, nvy = (np.empty(n) for _ in range(4))
    times = []
    for step in range(warmup + steps):
        t = time.perf_counter()
        sx, sy, svx, svy, counts = sort_by_cell(x, y, vx, vy, cell, ncx, ncy)
        steer(sx, sy, svx, svy, counts, cell, ncx, ncy, side, side, nx, ny, nvx, nvy)
        x, nx, y, ny, vx, nvx, vy, nvy = nx, sx, ny, sy, nvx, svx, nvy, svy
        if step >= warmup:
            times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


if __name__ == "__main__":
    n, steps = int(sys.argv[1]), int(sys.argv[2])
    print(
        json.dumps(
            {"boids": n, "total_ms": round(run(n, steps), 3), "threads": nb.get_num_threads()}
        )
    )
