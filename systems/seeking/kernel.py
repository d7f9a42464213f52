"""The seeking kernel: each boid's reaction to leaders, food, attractors and predators.

Phases per boid: leader (head back from afar, settle behind it, clear its path; or a
spring pull) → food (nearest sensed item: arrive at its edge) → attractors (arrive at, or
be drawn at full strength to, their dead radius) → predators (evade with prediction; raises
its alarm) → wander. Each term is clamped to the species' max force, weighted, and added to
the boid's acceleration. A boid whose straight line
to a leader, food or attractor is blocked by an obstacle steers along that target's flow
field instead (`shoal.systems.obstacles.navigation`): round the obstacle, by the shortest way.
"""

import math

import numba

from shoal.systems.core.maths import (
    MAX_PREDICTION,
    arrive,
    clamp_length,
    seek,
    slowing_before,
    wrap_offset,
)
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    LEADER_SPRING,
    P_BURST_FACTOR,
    P_FEAR_RADIUS,
    P_FLEE_WEIGHT,
    P_FOLLOW_DISTANCE,
    P_FOOD_RANGE,
    P_FOOD_WEIGHT,
    P_LEADER_CLEARANCE,
    P_LEADER_PULL,
    P_LEADER_RANGE,
    P_LEADER_WEIGHT,
    P_MAX_FORCE,
    P_MAX_SPEED,
    P_SEPARATION,
    P_WANDER_WEIGHT,
)
from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.obstacles.flow_kernel import WAY_AROUND, WAY_UNKNOWN, WAY_VISIBLE, PoolArray
from shoal.systems.obstacles.way_kernel import sample

Agents = tuple[
    FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, BoolArray, IntArray
]
"""positions, velocities, radius, inner radius, weight, slowing, concerns, field slot (see
`seek_agents` and `shoal.systems.flock.agents.AgentArrays`); a leader's radius is how many
boids follow it (`SeekingSystem`)."""
Space = tuple[bool, float, float, PoolArray, float, float, float, float]
"""The world and the ways round its obstacles: whether it wraps (a torus), its width and
height; the field pool (`shoal.systems.obstacles.navigation.Navigator.pool`), the cell size
and the world's lower-left corner, where the cells start."""
Seekers = tuple[
    IntArray, FloatArray, FloatArray, IntArray, FloatArray, FloatArray, FloatArray, FloatArray,
    FloatArray,
]  # fmt: skip
"""The store's columns the seeking kernel reads: the rows in the order it visits them,
positions, velocities, species, wander angle, burst; and those it writes: accelerations,
alarm and goals (see `seek_agents`)."""
Torus = tuple[float, float, float, float]
"""width, height, 1 / width and 1 / height (0 and 0: no wrap), as `wrap_offset` takes them."""

NAV_PRIORITY = 2.0
"""A follower out of sight of its leader, on the way round an obstacle, steers along the way
with this many times its leader weight: the school's cohesion would otherwise hold the boids
at the front of a crowd back on the wrong side of a wall."""
# A follower in front of its leader, within the clearance lane and this many follow
# distances ahead, steers out of the way (with twice the leader weight: it has priority).
_LANE_LENGTH = 3.0
_CLEAR_PRIORITY = 2.0
CROWD_SPACING = 0.4
"""Followers of a leader settle anywhere in a disc round the point where they settle, wide
enough for all of them this many separation radii apart (on a square lattice): each keeps
its own place instead of all aiming at one point, which packed 100 fast followers within
1 px of each other. The bodies (`shoal.systems.motion.bodies`) keep them apart inside it."""
MATCH_RATE = 5.0
"""1/s: how fast a settled follower closes the gap between its velocity and its leader's.
At 1/s a school braked by its own separation (each rule seeks its max speed along its own
direction) kept 70 % of its leader's speed, and fell 220 px behind one at 80 px/s; at 3/s,
squeezing between pillars 40 px apart, 205-210 px; at 5/s, 190 (`benchmarks/spacing.py`)."""


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def seek_agents(
    first: int,
    last: int,
    seekers: Seekers,
    params: FloatArray,
    space: Space,
    leaders: Agents,
    food: Agents,
    attractors: Agents,
    predators: Agents,
) -> None:
    """Add the seeking terms of rows order[first:last] to `accelerations`; set `alarm` to 1
    where it flees, and add its flight to `goals` (columns 0, 1). In grid-cell order (the
    neighbour stage's), neighbouring boids read neighbouring cells of a field: one field read
    from memory for many boids.

    Each kind of agent is (positions, velocities, radius, inner radius, weight, concerns,
    field slot): `concerns[k, s]` is True when agent k concerns species s, and the slot is
    agent k's field in `space`'s pool (-1: none), along which a boid whose straight line to
    the agent is blocked steers instead. `burst` (the store's) lets a boid in a burst flee
    at its burst speed.
    """
    order, positions, velocities, species, wander, burst, accelerations, alarm, goals = seekers
    wrap, width, height, pool, cell_w, cell_h, left, bottom = space
    inv_w = 1.0 / width if wrap else 0.0
    inv_h = 1.0 / height if wrap else 0.0
    torus = (width, height, inv_w, inv_h)
    leader_pos, leader_vel, followers, _, _, _, leads, leader_slot = leaders
    food_pos, _, food_radius, _, _, food_slowing, feeds, food_slot = food
    (
        attractor_pos,
        _,
        attractor_radius,
        attractor_dead,
        attractor_weight,
        attractor_slowing,
        draws,
        attractor_slot,
    ) = attractors
    predator_pos, predator_vel, _, _, _, _, scares, _ = predators
    for k in range(first, last):
        i = order[k]
        s = species[i]
        x, y = positions[i, 0], positions[i, 1]
        lx, ly = x - left, y - bottom  # where the fields read it: from the world's corner
        vx, vy = velocities[i, 0], velocities[i, 1]
        max_speed = params[s, P_MAX_SPEED]
        max_force = params[s, P_MAX_FORCE]
        ax = ay = 0.0
        # --- leader: along the way round obstacles when it is out of sight
        weight = params[s, P_LEADER_WEIGHT]
        k = _nearest(x, y, leader_pos, leads, s, torus, math.inf)
        if weight > 0.0 and k >= 0:
            dx = wrap_offset(leader_pos[k, 0] - x, width, inv_w)
            dy = wrap_offset(leader_pos[k, 1] - y, height, inv_h)
            way, dx, dy = _navigate(pool, leader_slot[k], cell_w, cell_h, wrap, lx, ly, dx, dy)
            lvx, lvy = leader_vel[k, 0], leader_vel[k, 1]
            if way == WAY_AROUND and (lvx != 0.0 or lvy != 0.0):  # out of sight: catch up
                fx, fy = seek(dx, dy, vx, vy, max_speed, max_force)
                fx, fy = NAV_PRIORITY * fx, NAV_PRIORITY * fy
            else:  # in sight, or waiting for it (along the way: arriving where it settles)
                fx, fy = _follow(params, s, vx, vy, dx, dy, lvx, lvy, followers[k])
            ax += weight * fx
            ay += weight * fy
        # --- food: the nearest item it senses, stopping short at its edge
        weight = params[s, P_FOOD_WEIGHT]
        k = _nearest(x, y, food_pos, feeds, s, torus, params[s, P_FOOD_RANGE])
        if weight > 0.0 and k >= 0:
            dx = wrap_offset(food_pos[k, 0] - x, width, inv_w)
            dy = wrap_offset(food_pos[k, 1] - y, height, inv_h)
            way, dx, dy = _navigate(pool, food_slot[k], cell_w, cell_h, wrap, lx, ly, dx, dy)
            if way != WAY_UNKNOWN:  # unknown: too far round to sense
                fx, fy = _arrive_at_edge(
                    dx, dy, food_radius[k], food_slowing[k], vx, vy, max_speed, max_force
                )
                ax += weight * fx
                ay += weight * fy
        # --- attractors: every one in range draws it, to its dead radius
        for k in range(attractor_pos.shape[0]):
            if not draws[k, s]:
                continue
            dx = wrap_offset(attractor_pos[k, 0] - x, width, inv_w)
            dy = wrap_offset(attractor_pos[k, 1] - y, height, inv_h)
            if dx * dx + dy * dy > attractor_radius[k] * attractor_radius[k]:
                continue
            way, dx, dy = _navigate(pool, attractor_slot[k], cell_w, cell_h, wrap, lx, ly, dx, dy)
            if way == WAY_UNKNOWN:
                continue
            fx, fy = _arrive_at_edge(
                dx, dy, attractor_dead[k], attractor_slowing[k], vx, vy, max_speed, max_force
            )
            ax += weight * attractor_weight[k] * fx
            ay += weight * attractor_weight[k] * fy
        # --- predators: evade each one inside the fear radius (the obstacle stage turns a
        # flight that would end against an obstacle along the flee map)
        fear = params[s, P_FEAR_RADIUS]
        fx, fy, scared = _evade(
            (x, y, vx, vy), predator_pos, predator_vel, scares, s, fear, max_speed, torus
        )
        if scared:
            # In a burst (a flash expansion) it flees faster, with the strength to get there.
            boost = params[s, P_BURST_FACTOR] if burst[i] > 0.0 else 1.0
            fx, fy = seek(fx, fy, vx, vy, max_speed * boost, max_force * boost)
            fx *= params[s, P_FLEE_WEIGHT]
            fy *= params[s, P_FLEE_WEIGHT]
            ax += fx
            ay += fy
            goals[i, 0] += fx
            goals[i, 1] += fy
            alarm[i] = 1.0
        # --- wander: steer towards a heading that drifts smoothly (see SeekingSystem)
        weight = params[s, P_WANDER_WEIGHT]
        if weight > 0.0 and (vx != 0.0 or vy != 0.0):
            angle = math.atan2(vy, vx) + wander[i]
            fx, fy = seek(math.cos(angle), math.sin(angle), vx, vy, max_speed, max_force)
            ax += weight * fx
            ay += weight * fy
        accelerations[i, 0] += ax
        accelerations[i, 1] += ay


@numba.njit(cache=True, nogil=True, parallel=True)
def seek_chunks(
    workers: int,
    chunks: int,
    n: int,
    seekers: Seekers,
    params: FloatArray,
    space: Space,
    leaders: Agents,
    food: Agents,
    attractors: Agents,
    predators: Agents,
) -> None:
    """`seek_agents` over [0, n) in `chunks` chunks on `workers` of numba's threads (see
    `core/threads.py`)."""
    for w in numba.prange(workers):
        for k in range(w, chunks, workers):
            first, last = n * k // chunks, n * (k + 1) // chunks
            seek_agents(first, last, seekers, params, space, leaders, food, attractors, predators)


@njit_no_refcount(cache=True)
def _navigate(
    pool: PoolArray,
    slot: int,
    cell_w: float,
    cell_h: float,
    wrap: bool,
    x: float,
    y: float,
    dx: float,
    dy: float,
) -> tuple[int, float, float]:
    """The offset to steer at for a target at offset (dx, dy): itself if the line is free
    (or there is no field), else along field `slot` as far as the way is long."""
    if slot < 0:
        return WAY_VISIBLE, dx, dy
    way, gx, gy, distance = sample(pool, slot, cell_w, cell_h, wrap, x, y)
    if way == WAY_AROUND:
        return way, gx * distance, gy * distance
    return way, dx, dy


@njit_no_refcount(cache=True)
def _nearest(
    x: float,
    y: float,
    agent_pos: FloatArray,
    concerns: BoolArray,
    s: int,
    torus: Torus,
    reach: float,
) -> int:
    """Index of the nearest agent concerning species s within `reach`, or -1."""
    width, height, inv_w, inv_h = torus
    best = -1
    best_d2 = reach * reach
    for k in range(agent_pos.shape[0]):
        if not concerns[k, s]:
            continue
        dx = wrap_offset(agent_pos[k, 0] - x, width, inv_w)
        if dx * dx > best_d2:  # d² ≥ dx²: beyond the best so far (most food is far off)
            continue
        dy = wrap_offset(agent_pos[k, 1] - y, height, inv_h)
        d2 = dx * dx + dy * dy
        if d2 <= best_d2:
            best, best_d2 = k, d2
    return best


@numba.njit(cache=True)
def _arrive_at_edge(
    dx: float,
    dy: float,
    edge: float,
    slowing: float,
    vx: float,
    vy: float,
    max_speed: float,
    max_force: float,
) -> tuple[float, float]:
    """Arrival at the point `edge` short of offset (dx, dy), slowing down inside `slowing`
    px of it (0: a seek at full speed up to it): boids stop short of food."""
    d = math.sqrt(dx * dx + dy * dy)
    if d <= edge:
        return 0.0, 0.0
    scale = (d - edge) / d
    return arrive(dx * scale, dy * scale, vx, vy, max_speed, max_force, slowing)


@njit_no_refcount(cache=True)
def _follow(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    dx: float,
    dy: float,
    lvx: float,
    lvy: float,
    followers: float,
) -> tuple[float, float]:
    """Leader following, the leader at offset (dx, dy) moving at (lvx, lvy) and followed
    by about `followers` boids: back from afar; else clear its lane, or settle in the
    followers' disc behind it (or, with a ``spring`` pull, drawn by its distance, see
    `LEADER_PULLS`)."""
    max_speed = params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    behind = params[s, P_FOLLOW_DISTANCE]
    far = dx * dx + dy * dy > params[s, P_LEADER_RANGE] ** 2
    if int(params[s, P_LEADER_PULL]) == LEADER_SPRING:  # the offset, twice from afar
        factor = 2.0 if far else 1.0
        return clamp_length(factor * dx, factor * dy, max_force)
    if far:
        return seek(dx, dy, vx, vy, max_speed, max_force)
    room = CROWD_SPACING * params[s, P_SEPARATION] * math.sqrt(followers / math.pi)
    leader_speed = math.sqrt(lvx * lvx + lvy * lvy)
    if leader_speed == 0.0:  # no front or back: just stay near it
        edge = max(behind, room)
        return _arrive_at_edge(dx, dy, edge, slowing_before(edge), vx, vy, max_speed, max_force)
    hx, hy = lvx / leader_speed, lvy / leader_speed
    ahead = -(dx * hx + dy * hy)  # how far in front of the leader the boid is
    side = -(dx * -hy + dy * hx)  # and to which side of its path (left > 0)
    if 0.0 < ahead < _LANE_LENGTH * behind and abs(side) < params[s, P_LEADER_CLEARANCE]:
        away = 1.0 if side >= 0.0 else -1.0
        fx, fy = seek(-hy * away, hx * away, vx, vy, max_speed, max_force)
        return _CLEAR_PRIORITY * fx, _CLEAR_PRIORITY * fy
    # Settle in the disc `room` px round the point `behind` px behind the leader (arriving
    # at its rim from outside), matching the leader's velocity.
    tx, ty = dx - hx * behind, dy - hy * behind
    out = math.sqrt(tx * tx + ty * ty)
    inside = 0.0 if out <= room else (out - room) / out
    return arrive(
        tx * inside,
        ty * inside,
        MATCH_RATE * (vx - lvx),
        MATCH_RATE * (vy - lvy),
        max_speed,
        max_force,
        max(behind, 1.0),
    )


@njit_no_refcount(cache=True)
def _evade(
    boid: tuple[float, float, float, float],
    predator_pos: FloatArray,
    predator_vel: FloatArray,
    scares: BoolArray,
    s: int,
    fear: float,
    max_speed: float,
    torus: Torus,
) -> tuple[float, float, bool]:
    """Sum of flight directions from the predators that scare species s within `fear`, for
    a boid at (x, y) moving at (vx, vy) (`boid`)."""
    x, y, vx, vy = boid
    width, height, inv_w, inv_h = torus
    fx = fy = 0.0
    scared = False
    for k in range(predator_pos.shape[0]):
        if not scares[k, s]:
            continue
        dx = wrap_offset(predator_pos[k, 0] - x, width, inv_w)
        dy = wrap_offset(predator_pos[k, 1] - y, height, inv_h)
        d = math.sqrt(dx * dx + dy * dy)
        if d >= fear:
            continue
        scared = True
        pvx, pvy = predator_vel[k, 0], predator_vel[k, 1]
        ahead = min(d / (max_speed + math.sqrt(pvx * pvx + pvy * pvy)), MAX_PREDICTION)
        px, py = dx + pvx * ahead, dy + pvy * ahead  # where it will be
        pd = math.sqrt(px * px + py * py)
        if pd > 0.0:
            fx -= px / pd * fear / pd
            fy -= py / pd * fear / pd
        elif d > 0.0:
            fx -= dx / d
            fy -= dy / d
        else:  # on top of us: any way out
            fx -= vx
            fy -= vy
    return fx, fy, scared
