"""The collision kernel: no boid ends a step inside an obstacle, nor passes through one.

Over 400 lines: the phases of one compiled kernel, which share the obstacle layout and
inline into each other (cast, slide, push out, walk out, turn the velocity).

Phases per boid: did its move this step enter an obstacle? (a cast along the segment from
where it started: a wall thinner than a step is met, not jumped) → stop it just before the
contact and slide the rest of the move along the surface, up to the next one it meets →
still inside anything? (almost never: a grid cell lookup) → push out to the nearest surface
of the obstacle it is shallowest in, a few times (overlapping obstacles may push it into
another: then into the corner between the two surfaces) → if still inside, walk out along
several directions, and look at the free points round every obstacle and along the world's
edge, and take the nearest point outside every obstacle → remove the inward part of the
velocity, keeping the speed (turn, do not slow), and in a corner turn it along the face
that leads out.

Every candidate point is first put back into the world (clamped to the box, or wrapped), so
a boid between an obstacle and the tank wall ends up in the tank and outside the obstacle.
"""

import math

import numba
import numpy as np

from shoal.systems.core.config import BOUNDARY_WRAP
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import P_MAX_SPEED, P_MIN_SPEED
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.obstacles.query_kernel import containing, first_hit, shallowest
from shoal.systems.obstacles.shape_kernel import Geometry, exit_one

SKIN = 1e-3
"""How far outside the surface a pushed-out boid is put (px)."""

World = tuple[int, float, float, float, float]
"""The world as the kernel takes it, one record: boundary (an index of `BOUNDARY_MODES`),
width, height, left, bottom (numba passes a tuple of scalars by value, at no cost)."""

# Pushes to the nearest surface (or into the corner between two) before searching; more than
# 3 are only needed where three or more obstacles overlap.
_PUSH_TRIES = 4
# Two surfaces closer to parallel than this (sine of the angle) have no useful corner.
_MIN_CORNER_SINE = 0.05
# Directions tried by the search (evenly spread, plus the first push's normal), and the most
# obstacles one walk may cross.
_DIRECTIONS = 16
_MARCH_STEPS = 32
# The last resort also tries this many points along each edge of the world (and its corners).
_EDGE_POINTS = 64
# The most a boid turns a step to leave a corner (radians): its drawn heading lags at most 75°
# behind its velocity (render/headings.py: MAX_LAG), so a turn of over 165° in one step would
# draw it swimming backwards. A boid nose first in a narrow crevice turns round in two steps.
_MAX_CORNER_TURN = math.radians(120.0)


@numba.njit(cache=True)
def _in_world(x: float, y: float, world: World) -> tuple[float, float]:
    """The point put back into the world (from (left, bottom), width × height): wrapped
    round a torus, else clamped to the box."""
    boundary, width, height, left, bottom = world
    if boundary == BOUNDARY_WRAP:
        x -= left + width * np.floor((x - left) / width)
        y -= bottom + height * np.floor((y - bottom) / height)
        return left + (0.0 if x >= width else x), bottom + (0.0 if y >= height else y)
    return min(max(x, left), left + width), min(max(y, bottom), bottom + height)


# The rare path (a boid inside) calls these plain functions: inlining the geometry helpers at
# each of its call sites made the kernel take half as long again to compile, for no gain on a
# few boids a step.
@njit_no_refcount(cache=True)
def _containing(geometry: Geometry, x: float, y: float) -> int:
    shape_f, shape_i, seg, cell_start, cell_items, grid = geometry
    return containing(shape_f, shape_i, seg, cell_start, cell_items, grid, x, y)


@njit_no_refcount(cache=True)
def _shallowest(geometry: Geometry, x: float, y: float) -> tuple[int, float, float, float, float]:
    shape_f, shape_i, seg, cell_start, cell_items, grid = geometry
    return shallowest(shape_f, shape_i, seg, cell_start, cell_items, grid, x, y)


@njit_no_refcount(cache=True)
def _exit(
    geometry: Geometry, o: int, x: float, y: float, dx: float, dy: float
) -> tuple[float, float, float]:
    return exit_one(geometry[0], geometry[1], geometry[2], o, x, y, dx, dy)


@njit_no_refcount(cache=True)
def _walk_out(
    geometry: Geometry,
    px: float,
    py: float,
    dx: float,
    dy: float,
    world: World,
) -> tuple[float, float, float, float, float]:
    """Walk from p along unit (dx, dy) through every obstacle in the way.

    Returns the distance walked (inf if the walk leaves the box or crosses too many
    obstacles), the first point outside all obstacles and the outward normal where it left
    the last one.
    """
    boundary, width, height, left, bottom = world
    x, y, walked, nx, ny = px, py, 0.0, dx, dy
    for _ in range(_MARCH_STEPS):
        o = _containing(geometry, x, y)
        if o < 0:
            return walked, x, y, nx, ny
        exit_at, nx, ny = _exit(geometry, o, x, y, dx, dy)
        if not math.isfinite(exit_at):
            break
        step = exit_at + SKIN
        walked += step
        x, y = x + step * dx, y + step * dy
        if boundary == BOUNDARY_WRAP:
            x, y = _in_world(x, y, world)
        elif not (left <= x <= left + width and bottom <= y <= bottom + height):
            break
    return math.inf, px, py, 0.0, 0.0


@njit_no_refcount(cache=True)
def _search_out(
    geometry: Geometry,
    px: float,
    py: float,
    first_nx: float,
    first_ny: float,
    world: World,
) -> tuple[bool, float, float, float, float]:
    """The nearest point outside every obstacle (and in the world) along any of a few
    directions from p: found?, the point, the outward normal there."""
    best = math.inf
    best_x, best_y, best_nx, best_ny = px, py, first_nx, first_ny
    for k in range(_DIRECTIONS + 1):
        if k == 0:
            dx, dy = first_nx, first_ny
        else:
            angle = 2.0 * math.pi * (k - 1) / _DIRECTIONS
            dx, dy = math.cos(angle), math.sin(angle)
        walked, x, y, nx, ny = _walk_out(geometry, px, py, dx, dy, world)
        if walked < best:
            best, best_x, best_y, best_nx, best_ny = walked, x, y, nx, ny
    return best < math.inf, best_x, best_y, best_nx, best_ny


@numba.njit(cache=True)
def _corner(
    ax: float, ay: float, anx: float, any_: float, bx: float, by: float, bnx: float, bny: float
) -> tuple[bool, float, float]:
    """The point SKIN outside both surface lines (through a with normal an, through b with
    normal bn): where two overlapping obstacles meet. False if the lines are near parallel."""
    det = anx * bny - any_ * bnx
    if abs(det) < _MIN_CORNER_SINE:
        return False, 0.0, 0.0
    ca = anx * ax + any_ * ay + SKIN
    cb = bnx * bx + bny * by + SKIN
    return True, (ca * bny - any_ * cb) / det, (anx * cb - ca * bnx) / det


@njit_no_refcount(cache=True)
def _nearest_free(
    geometry: Geometry,
    free: FloatArray,
    px: float,
    py: float,
    world: World,
) -> tuple[float, float, float]:
    """The nearest of the field's free points and the points along the world's edge that
    lies in the world and outside every obstacle: squared distance (inf: none) and point."""
    boundary, width, height, left, bottom = world
    best, best_x, best_y = math.inf, px, py
    # On a torus the right and top edges are the left and bottom ones: look a hair inside
    # them instead, or room along them (a corner left free by a big circle) is never seen.
    right = width - SKIN if boundary == BOUNDARY_WRAP else width
    top = height - SKIN if boundary == BOUNDARY_WRAP else height
    for k in range(free.shape[0] + 4 * (_EDGE_POINTS + 1)):
        if k < free.shape[0]:
            x, y = free[k, 0], free[k, 1]
        else:  # round the world's edge, corners included
            e = k - free.shape[0]
            side, t = e // (_EDGE_POINTS + 1), (e % (_EDGE_POINTS + 1)) / _EDGE_POINTS
            x = left + (t * right if side < 2 else (0.0 if side == 2 else right))
            y = bottom + (t * top if side >= 2 else (0.0 if side == 0 else top))
        d2 = (x - px) * (x - px) + (y - py) * (y - py)
        if d2 >= best:
            continue
        x, y = _in_world(x, y, world)
        if _containing(geometry, x, y) < 0:
            best, best_x, best_y = d2, x, y
    return best, best_x, best_y


@njit_no_refcount(cache=True)
def _free_position(
    geometry: Geometry,
    free: FloatArray,
    px: float,
    py: float,
    world: World,
) -> tuple[float, float, float, float]:
    """Where a boid at p (inside an obstacle) goes, and the outward normal of the surface it
    was pushed out of. If nothing in the world is free, a point still inside.

    Pushed out of one obstacle into another and back, it takes the corner between the two
    surfaces (linearised), which is where the nearest free point of two overlapping convex
    shapes lies.
    """
    o, qx, qy, nx, ny = _shallowest(geometry, px, py)
    first_nx, first_ny = nx, ny
    last_qx, last_qy, last_nx, last_ny = qx, qy, nx, ny  # the surface pushed out of before
    x, y = px, py
    for attempt in range(_PUSH_TRIES):
        x, y = _in_world(qx + SKIN * nx, qy + SKIN * ny, world)
        o, qx2, qy2, nx2, ny2 = _shallowest(geometry, x, y)
        if o < 0:
            return x, y, nx, ny
        if attempt > 0:
            ok, cx, cy = _corner(last_qx, last_qy, last_nx, last_ny, qx, qy, nx, ny)
            cx, cy = _in_world(cx, cy, world)
            if ok and _containing(geometry, cx, cy) < 0:
                mx, my = nx + last_nx, ny + last_ny
                norm = math.sqrt(mx * mx + my * my)
                return cx, cy, mx / norm, my / norm
        last_qx, last_qy, last_nx, last_ny = qx, qy, nx, ny
        qx, qy, nx, ny = qx2, qy2, nx2, ny2
    found, fx, fy, fnx, fny = _search_out(geometry, px, py, first_nx, first_ny, world)
    walked = (fx - px) * (fx - px) + (fy - py) * (fy - py) if found else math.inf
    d2, gx, gy = _nearest_free(geometry, free, px, py, world)
    if d2 < walked:  # from deep inside, straight out to the nearest known free room
        d = math.sqrt(d2)
        if d == 0.0:
            return gx, gy, first_nx, first_ny
        return gx, gy, (gx - px) / d, (gy - py) / d
    if found:
        return fx, fy, fnx, fny
    return x, y, nx, ny


@numba.njit(cache=True)
def _slide(
    vx: float, vy: float, nx: float, ny: float, min_speed: float, max_speed: float
) -> tuple[float, float]:
    """The velocity without its part into the surface of normal n, at its speed clamped to
    [min_speed, max_speed]: turned, not slowed."""
    speed = math.sqrt(vx * vx + vy * vy)
    target = min(max(speed, min_speed), max_speed)
    inward = min(vx * nx + vy * ny, 0.0)
    tx, ty = vx - inward * nx, vy - inward * ny
    along = math.sqrt(tx * tx + ty * ty)
    if along > 1e-9 * speed and along > 0.0:
        return tx / along * target, ty / along * target
    if inward < 0.0:  # straight in: slide along the surface, to the left
        return -ny * target, nx * target
    return nx * target, ny * target  # standing still: move off the surface


@njit_no_refcount(cache=True)
def _move(sx: float, sy: float, px: float, py: float, world: World) -> tuple[float, float]:
    """The move from s to p (the short way round a torus)."""
    boundary, width, height, _, _ = world
    dx, dy = px - sx, py - sy
    if boundary == BOUNDARY_WRAP:
        dx -= width * np.floor(dx / width + 0.5)
        dy -= height * np.floor(dy / height + 0.5)
    return dx, dy


@njit_no_refcount(cache=True)
def _sweep(
    geometry: Geometry,
    sx: float,
    sy: float,
    px: float,
    py: float,
    world: World,
) -> tuple[bool, float, float, float, float]:
    """Whether the move from s to p entered an obstacle from outside; if so, the point just
    before the first contact (a hair off the surface) and the outward normal there.

    In a torus the move is the short way round: cast once from s and once, in p's frame,
    from p less the move, so that obstacles at either side of the edge are met.
    """
    boundary = world[0]
    dx, dy = _move(sx, sy, px, py, world)
    length = math.sqrt(dx * dx + dy * dy)
    if length == 0.0:
        return False, px, py, 0.0, 0.0
    ux, uy = dx / length, dy / length
    t, nx, ny, o = first_hit(geometry, sx, sy, ux, uy, length, 0.0)
    ox, oy = sx, sy
    if boundary == BOUNDARY_WRAP and (px - dx != sx or py - dy != sy):
        t2, nx2, ny2, o2 = first_hit(geometry, px - dx, py - dy, ux, uy, length, 0.0)
        if o2 >= 0 and (o < 0 or t2 < t):
            t, nx, ny, o, ox, oy = t2, nx2, ny2, o2, px - dx, py - dy
    if o < 0 or t > length:
        return False, px, py, 0.0, 0.0
    back = max(t - SKIN, 0.0)
    x, y = ox + back * ux + SKIN * nx, oy + back * uy + SKIN * ny
    x, y = _in_world(x, y, world)
    return True, x, y, nx, ny


@njit_no_refcount(cache=True)
def _slide_on(
    geometry: Geometry,
    cx: float,
    cy: float,
    nx: float,
    ny: float,
    ex: float,
    ey: float,
    world: World,
) -> tuple[float, float]:
    """Where a boid stopped at c on a surface of normal n goes with the rest of its move
    (to e): along the surface, up to the next surface it meets.

    Without this a boid that swims along a face, its heading tilted into it by a push that
    presses it on (a slot between two kelp stems narrower than a fish), met the face at the
    start of every step and stayed there, swimming at full speed.
    """
    rx, ry = _move(cx, cy, ex, ey, world)
    inward = min(rx * nx + ry * ny, 0.0)
    rx, ry = rx - inward * nx, ry - inward * ny
    hit, x, y, _, _ = _sweep(geometry, cx, cy, cx + rx, cy + ry, world)
    if hit:
        return x, y
    return _in_world(cx + rx, cy + ry, world)


@njit_no_refcount(cache=True)
def _off_corner(
    geometry: Geometry,
    px: float,
    py: float,
    heading: tuple[float, float],
    vx: float,
    vy: float,
    nx: float,
    ny: float,
    reach: float,
) -> tuple[float, float]:
    """The velocity v that `_slide` left along a surface of normal n, turned out of the
    corner when it runs into a second surface within `reach` (px); `heading` is the velocity
    the boid came in with.

    In a concave corner (a plant standing on the floor) the way along either surface leads
    into the other. Slid along one face, a boid hits the other in its next step, is put back
    on the corner and slid along that face, into the first: at full speed, on one spot, step
    after step, and every boid that comes there lies on that one point. So it leaves along
    whichever face leads away from the other, the one nearer its heading (speed kept),
    turning at most `_MAX_CORNER_TURN` a step.
    """
    speed = math.sqrt(vx * vx + vy * vy)
    if reach <= 0.0 or speed == 0.0:
        return vx, vy
    t, mx, my, o = first_hit(geometry, px, py, vx / speed, vy / speed, reach, 0.0)
    if o < 0 or t > reach:
        return vx, vy
    ax, ay = -ny, nx  # along the first face, away from the second
    if ax * mx + ay * my < 0.0:
        ax, ay = -ax, -ay
    bx, by = -my, mx  # along the second face, away from the first
    if bx * nx + by * ny < 0.0:
        bx, by = -bx, -by
    hx, hy = heading
    came = math.sqrt(hx * hx + hy * hy)
    if came == 0.0:
        hx, hy, came = vx, vy, speed
    hx, hy = hx / came, hy / came
    if ax * hx + ay * hy < bx * hx + by * hy:
        ax, ay = bx, by  # the face nearer the heading
    return _turned(hx, hy, ax, ay, speed)


@numba.njit(cache=True)
def _turned(hx: float, hy: float, ex: float, ey: float, speed: float) -> tuple[float, float]:
    """`speed` along unit e, or where e is more than `_MAX_CORNER_TURN` from unit h, along h
    turned that far towards e."""
    if hx * ex + hy * ey >= math.cos(_MAX_CORNER_TURN):
        return ex * speed, ey * speed
    c, s = math.cos(_MAX_CORNER_TURN), math.sin(_MAX_CORNER_TURN)
    if hx * ey - hy * ex < 0.0:  # e is to the right
        s = -s
    return (hx * c - hy * s) * speed, (hx * s + hy * c) * speed


Colliders = tuple[FloatArray, FloatArray, IntArray]
"""The store's columns the collision kernel reads and writes: positions, velocities,
species. Where each boid began the step (`start`) stays apart: in this record it made the
kernel 4 × slower (2,000 boids among the benchmark's obstacles: 0.40 against 0.10 ms)."""


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def push_out(
    first: int,
    last: int,
    boids: Colliders,
    params: FloatArray,
    geometry: Geometry,
    free: FloatArray,
    start: FloatArray,
    world: World,
) -> int:
    """Stop every boid of rows [first, last) whose move from `start` (the positions when
    the step began; empty: do not look at the moves) entered an obstacle, and move every
    one inside an obstacle out of it, in place; returns how many it moved. The world
    (`World`) spans [left, left + width] × [bottom, bottom + height]."""
    positions, velocities, species = boids
    shape_f, shape_i, seg, cell_start, cell_items, grid = geometry
    swept = start.shape[0] == positions.shape[0]
    moved = 0
    for i in range(first, last):
        px, py = positions[i, 0], positions[i, 1]
        hit, nx, ny, reach = False, 0.0, 0.0, 0.0
        if swept:
            ex, ey = px, py
            dx, dy = _move(start[i, 0], start[i, 1], ex, ey, world)
            reach = math.sqrt(dx * dx + dy * dy)
            hit, px, py, nx, ny = _sweep(geometry, start[i, 0], start[i, 1], ex, ey, world)
            if hit:
                px, py = _slide_on(geometry, px, py, nx, ny, ex, ey, world)
        if containing(shape_f, shape_i, seg, cell_start, cell_items, grid, px, py) >= 0:
            px, py, nx, ny = _free_position(geometry, free, px, py, world)
        elif not hit:
            continue
        positions[i, 0], positions[i, 1] = px, py
        s = species[i]
        vx, vy = _slide(
            velocities[i, 0],
            velocities[i, 1],
            nx,
            ny,
            params[s, P_MIN_SPEED],
            params[s, P_MAX_SPEED],
        )
        # A step's travel ahead: where the next step's move would meet a second surface.
        heading = (velocities[i, 0], velocities[i, 1])
        vx, vy = _off_corner(geometry, px, py, heading, vx, vy, nx, ny, reach)
        velocities[i, 0], velocities[i, 1] = vx, vy
        moved += 1
    return moved


@numba.njit(cache=True, nogil=True, parallel=True)
def push_out_chunks(
    workers: int,
    chunks: int,
    n: int,
    boids: Colliders,
    params: FloatArray,
    geometry: Geometry,
    free: FloatArray,
    start: FloatArray,
    world: World,
) -> int:
    """`push_out` over rows [0, n) in `chunks` chunks on `workers` of numba's threads (see
    `core/threads.py`); returns how many it moved."""
    moved = 0
    for w in numba.prange(workers):
        for k in range(w, chunks, workers):
            first, last = n * k // chunks, n * (k + 1) // chunks
            moved += push_out(first, last, boids, params, geometry, free, start, world)
    return moved
