"""The five source posts' own code (../shared/seeds/), ported to numpy as the reference that
shoal's recipes (`shoal.recipes`) are measured against.

Each port follows its post's code line by line (the post's comments are quoted where the
port departs from plain transcription); only the language changed. Where a post leaves a
value out, the value is the one its recipe documents. Each returns its flock over time in
pixels and seconds, so that the metrics compare with shoal's: `Run.positions[k]` and
`Run.velocities[k]` are the flock after frame k + 1 (velocities in px/s).
"""

import math
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


@dataclass
class Run:
    """A port's flock over time: (frames, n, 2) positions and velocities (px, px/s)."""

    positions: Array
    velocities: Array


def _record(frames: int, n: int) -> Run:
    return Run(np.zeros((frames, n, 2)), np.zeros((frames, n, 2)))


# --- 000: Unity, 3-D (here 2-D), separation averaged with the walls as virtual boids ----------
def unity_000(
    seed: int, frames: int, count: int = 100, scale: float = 20.0, dt: float = 1 / 60
) -> Run:
    """Post 000's `Main` and `BoidScript`, in the plane (4 walls for the box's 6).

    World units are `scale` px. Each frame every boid integrates with the acceleration of
    the previous frame (d = v0 t + a t² / 2, v = v0 + a t, speed clamped to [BoidMinV,
    BoidMaxV]), then computes its next acceleration from the others as they are: Unity runs
    the boids' Update one after the other in an order it does not promise; the port
    updates all boids, then computes all accelerations.
    """
    min_x, max_x, min_y, max_y = -10.0, 10.0, 0.0, 20.0
    boid_max_v, boid_min_v, fov = 5.0, 2.0, 5.0
    rule1, rule2, rule3 = 5.0, 2.0, 1.0
    rng = np.random.default_rng(seed)
    pos = np.column_stack((rng.uniform(min_x, max_x, count), rng.uniform(min_y, max_y, count)))
    heading = rng.uniform(0, 2 * math.pi, count)  # Random.rotation, seen from above
    vel = 2.0 * np.column_stack((np.cos(heading), np.sin(heading)))  # Velocity = forward * 2
    acc = np.zeros((count, 2))
    run = _record(frames, count)
    # Plane normals (pointing into the box) and a point on each: Left, Right, Down, Up.
    normals = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    points = np.array([[min_x, 0.0], [max_x, 0.0], [0.0, min_y], [0.0, max_y]])
    for frame in range(frames):
        d_pos = vel * dt + 0.5 * acc * dt * dt
        vel = vel + acc * dt
        speed = np.linalg.norm(vel, axis=1)
        vel = vel / speed[:, None] * np.clip(speed, boid_min_v, boid_max_v)[:, None]
        pos = pos + d_pos
        # Acceleration for the next frame: (5 Rule1 + 2 Rule2 + 1 Rule3) / 8.
        acc = _unity_000_acceleration(pos, vel, normals, points, fov, (rule1, rule2, rule3))
        run.positions[frame] = (pos - [min_x, min_y]) * scale
        run.velocities[frame] = vel * scale
    return run


@numba.njit(cache=False)
def _unity_000_acceleration(
    pos: Array,
    vel: Array,
    normals: Array,
    points: Array,
    fov: float,
    factors: tuple[float, float, float],
) -> Array:
    """000's `Rule1`, `Rule2` and `Rule3` for every boid, weighted, as its loops write them
    (compiled: the tests run 100 seeds of 1,200 frames; numpy's (n, n, 2) arrays took
    1.6 s a seed, these loops 0.07 s)."""
    rule1, rule2, rule3 = factors
    acc = np.zeros_like(pos)
    for i in range(len(pos)):
        x, y = pos[i, 0], pos[i, 1]
        push_x = push_y = vel_x = vel_y = sum_x = sum_y = 0.0
        walls = 0
        # GetVirtualBoidsOnWall: a virtual boid at pos - d * normal; diff = -d * normal.
        for w in range(len(normals)):
            d = (x - points[w, 0]) * normals[w, 0] + (y - points[w, 1]) * normals[w, 1]
            if d <= fov:
                push_x += normals[w, 0] * 10.0 / (d * d)
                push_y += normals[w, 1] * 10.0 / (d * d)
                walls += 1
        seen = 0
        for j in range(len(pos)):  # GetOtherBoidsInFOV
            dx, dy = pos[j, 0] - x, pos[j, 1] - y
            dist = math.sqrt(dx * dx + dy * dy)
            if j == i or dist > fov:
                continue
            # Rule1: -diff.normalized * 10 / |diff|²
            push_x -= dx / dist * 10.0 / (dist * dist)
            push_y -= dy / dist * 10.0 / (dist * dist)
            vel_x, vel_y = vel_x + vel[j, 0], vel_y + vel[j, 1]
            sum_x, sum_y = sum_x + pos[j, 0], sum_y + pos[j, 1]
            seen += 1
        objects = walls + seen
        r1_x, r1_y = (push_x / objects, push_y / objects) if objects else (0.0, 0.0)
        # Rule2: the mean velocity of those in the FOV minus its own; Rule3: their centre.
        r2_x, r2_y = (vel_x / seen - vel[i, 0], vel_y / seen - vel[i, 1]) if seen else (0.0, 0.0)
        r3_x, r3_y = (sum_x / seen - x, sum_y / seen - y) if seen else (0.0, 0.0)
        total = rule1 + rule2 + rule3
        acc[i, 0] = (rule1 * r1_x + rule2 * r2_x + rule3 * r3_x) / total
        acc[i, 1] = (rule1 * r1_y + rule2 * r2_y + rule3 * r3_y) / total
    return acc


# --- 001: JavaScript canvas, additive rules, one boid after the other --------------------------
def canvas_001(seed: int, frames: int, fps: float = 60.0) -> Run:
    """Post 001's `Boids.update`, as written: for each boid in turn, fly towards the centre,
    avoid others, match velocity, limit speed, keep within bounds, move; every rule reads
    the boids before it already moved this frame (an in-place update). Velocities are in
    px per frame (one frame = 1 / `fps` s)."""
    width, height, margin, count = 540, 720, 100, 70
    visual_range2, avoid2 = 75.0**2, 20.0**2
    speed_limit, centering, avoid, matching, turn = 15.0, 0.005, 0.05, 0.05, 1.0
    rng = np.random.default_rng(seed)
    # new Boid(RAND() * width, RAND() * height, RAND() * 10 - 5, RAND() * 10 - 5)
    x = rng.random(count) * width
    y = rng.random(count) * height
    dx = rng.random(count) * 10 - 5
    dy = rng.random(count) * 10 - 5
    run = _record(frames, count)
    for frame in range(frames):
        for idx in range(count):
            others = np.arange(count) != idx
            d2 = (x - x[idx]) ** 2 + (y - y[idx]) ** 2
            seen = others & (d2 < visual_range2)
            if seen.any():  # flyTowardsCenter
                dx[idx] += (x[seen].mean() - x[idx]) * centering
                dy[idx] += (y[seen].mean() - y[idx]) * centering
            close = others & (d2 < avoid2)  # avoidOthers
            dx[idx] += (x[idx] - x[close]).sum() * avoid
            dy[idx] += (y[idx] - y[close]).sum() * avoid
            if seen.any():  # matchVelocity (reads its own dx as the rules above left it)
                dx[idx] += (dx[seen].mean() - dx[idx]) * matching
                dy[idx] += (dy[seen].mean() - dy[idx]) * matching
            speed2 = dx[idx] ** 2 + dy[idx] ** 2  # limitSpeed
            if speed2 > speed_limit**2:
                speed = math.sqrt(speed2)
                dx[idx] = dx[idx] / speed * speed_limit
                dy[idx] = dy[idx] / speed * speed_limit
            if x[idx] < margin:  # keepWithinBounds
                dx[idx] += turn
            if x[idx] > width - margin:
                dx[idx] -= turn
            if y[idx] < margin:
                dy[idx] += turn
            if y[idx] > height - margin:
                dy[idx] -= turn
            x[idx] += dx[idx]
            y[idx] += dy[idx]
        run.positions[frame] = np.column_stack((x, y))
        run.velocities[frame] = np.column_stack((dx, dy)) * fps
    return run


# --- 002: Unity, a leader the flock returns to, Perlin noise -----------------------------------
def _fade(t: Array) -> Array:
    return t * t * t * (t * (t * 6 - 15) + 10)


def perlin(x: Array, y: Array, table: npt.NDArray[np.int64]) -> Array:
    """Ken Perlin's improved gradient noise in 2-D, mapped to [0, 1] as Unity's
    Mathf.PerlinNoise is (0.5 at the lattice points)."""
    xi, yi = np.floor(x).astype(np.int64) & 255, np.floor(y).astype(np.int64) & 255
    xf, yf = x - np.floor(x), y - np.floor(y)
    u, v = _fade(xf), _fade(yf)

    def grad(h: npt.NDArray[np.int64], gx: Array, gy: Array) -> Array:
        h = h & 7
        a = np.where(h < 4, gx, gy)
        b = np.where(h < 4, gy, gx)
        return np.where(h & 1, -a, a) + np.where(h & 2, -2.0 * b, 2.0 * b)

    aa, ab = table[table[xi] + yi], table[table[xi] + yi + 1]
    ba, bb = table[table[xi + 1] + yi], table[table[xi + 1] + yi + 1]
    low = grad(aa, xf, yf) + u * (grad(ba, xf - 1, yf) - grad(aa, xf, yf))
    high = grad(ab, xf, yf - 1) + u * (grad(bb, xf - 1, yf - 1) - grad(ab, xf, yf - 1))
    return np.clip(0.5 + 0.5 * (low + v * (high - low)) / 2.0, 0.0, 1.0)


def leader_at(t: float, centre: tuple[float, float], radius: float, speed: float) -> Array:
    """Where the leader of post 002's test is at time t: on a circle, at `speed`."""
    angle = speed * t / radius
    return np.array([centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)])


def unity_002(
    seed: int,
    frames: int,
    count: int = 50,
    leader: tuple[tuple[float, float], float, float] = ((640.0, 360.0), 150.0, 60.0),
    dt: float = 1 / 60,
) -> Run:
    """Post 002's `BoidsManager` and `Boids.Move`, with weights 1, turbulences 0, speeds
    60-120 px/s and MaxDistanceFromLeader 120 px (the post leaves them to a ScriptableObject).

    accel is the weighted mean of: towards the leader when farther than the max distance,
    towards the leader (GetCohesion), the flock's mean velocity (GetAlignment) and away from
    the flock's mean position (GetSeparation); Velocity += accel × PerlinNoise(time, random)
    each frame (no dt: the post adds it per frame), then its speed is clamped.
    """
    min_speed, max_speed, max_distance = 60.0, 120.0, 120.0
    w_leader = w_cohesion = w_alignment = w_separation = 1.0
    rng = np.random.default_rng(seed)
    table = np.tile(rng.permutation(256), 3)
    centre, radius, leader_speed = leader
    angle = rng.uniform(0, 2 * math.pi, count)
    dist = 100.0 * np.sqrt(rng.uniform(0, 1, count))
    pos = np.array(centre) + np.column_stack((dist * np.cos(angle), dist * np.sin(angle)))
    heading = rng.uniform(0, 2 * math.pi, count)
    vel = min_speed * np.column_stack((np.cos(heading), np.sin(heading)))
    run = _record(frames, count)
    total = w_leader + w_cohesion + w_alignment + w_separation
    for frame in range(frames):
        time = frame * dt
        lead = leader_at(time, centre, radius, leader_speed)
        ave_alignment = vel.mean(axis=0)  # the manager's Update, before the boids move
        ave_separation = pos.mean(axis=0)
        to_leader = lead - pos
        far = (to_leader**2).sum(axis=1) > max_distance**2
        head = np.where(far[:, None], to_leader, 0.0)  # HeadToLeader
        cohesion = to_leader  # GetCohesion, Lerp(cohesion, Velocity, 0)
        alignment = np.broadcast_to(ave_alignment, pos.shape)  # GetAlignment
        separation = pos - ave_separation  # GetSeparation
        accel = (
            head * w_leader + cohesion * w_cohesion + alignment * w_alignment
            + separation * w_separation
        ) / total  # fmt: skip
        noise = perlin(np.full(count, time), rng.random(count), table)
        vel = vel + accel * noise[:, None]
        speed = np.linalg.norm(vel, axis=1)
        vel = vel / speed[:, None] * np.clip(speed, min_speed, max_speed)[:, None]
        pos = pos + vel * dt
        run.positions[frame] = pos
        run.velocities[frame] = vel
    return run


# --- 003: Godot, Reynolds steering, a prey with a dead radius ----------------------------------
def godot_003(
    seed: int,
    frames: int,
    count: int = 60,
    prey: tuple[float, float] = (640.0, 360.0),
    dt: float = 1 / 60,
) -> Run:
    """Post 003's `_process`, with the values of the Godot copy of the post's code: speed
    600 px/s, perception 50 px, prey dead radius 10 px, steer force 50, weights 1.2 / 0.5 /
    1.0 / 0.5 (alignment, cohesion, separation, prey).

    As in the post, `acceleration` is a member that `_process` adds to and never resets: the
    steering of every frame so far adds up. Each rule's `steer(target)` is (target -
    velocity).normalized() * steer_force. Boids start as in the copy's `_ready`: spread over
    a band above the prey, at full speed in random directions.
    """
    move_speed, perception, dead, steer_force = 600.0, 50.0, 10.0, 50.0
    w_align, w_cohesion, w_separation, w_prey = 1.2, 0.5, 1.0, 0.5
    rng = np.random.default_rng(seed)
    pos = np.array(prey) + np.column_stack(
        (rng.uniform(-800, 800, count), rng.uniform(-600, -200, count))
    )
    direction = rng.uniform(-1, 1, (count, 2))
    vel = direction / np.linalg.norm(direction, axis=1)[:, None] * move_speed
    acc = np.zeros((count, 2))
    run = _record(frames, count)

    def steer(target: Array) -> Array:
        diff = target - vel
        norm = np.linalg.norm(diff, axis=1)
        return (
            np.where(norm[:, None] > 0, diff / np.maximum(norm, 1e-300)[:, None], 0.0) * steer_force
        )

    def unit(v: Array) -> Array:
        norm = np.linalg.norm(v, axis=1)
        return np.where(norm[:, None] > 0, v / np.maximum(norm, 1e-300)[:, None], 0.0)

    for frame in range(frames):
        diff = pos[None, :, :] - pos[:, None, :]  # other - self
        dist = np.linalg.norm(diff, axis=2)
        neighbours = (dist <= perception) & ~np.eye(count, dtype=bool)  # get_neighbors
        n = neighbours.sum(axis=1)
        some = n[:, None] > 0
        mean_v = (neighbours[..., None] * vel[None]).sum(axis=1) / np.maximum(n, 1)[:, None]
        align = np.where(some, steer(unit(mean_v) * move_speed), 0.0)
        mean_p = (neighbours[..., None] * pos[None]).sum(axis=1) / np.maximum(n, 1)[:, None]
        cohesion = np.where(some, steer(unit(mean_p - pos) * move_speed), 0.0)
        close = neighbours & (dist < perception / 2)
        n_close = close.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            away = np.where(close[..., None], -diff / dist[..., None] ** 2, 0.0).sum(axis=1)
        away = away / np.maximum(n_close, 1)[:, None]
        separation = np.where(n_close[:, None] > 0, steer(unit(away) * move_speed), 0.0)
        to_prey = np.array(prey) - pos
        outside = np.linalg.norm(to_prey, axis=1) >= dead
        centralization = np.where(outside[:, None], steer(unit(to_prey) * move_speed), 0.0)
        acc = acc + align * w_align + cohesion * w_cohesion + separation * w_separation
        acc = acc + centralization * w_prey
        vel = vel + acc * dt
        speed = np.linalg.norm(vel, axis=1)
        vel = np.where(speed[:, None] > move_speed, vel / speed[:, None] * move_speed, vel)
        pos = pos + vel * dt
        run.positions[frame] = pos
        run.velocities[frame] = vel
    return run


# --- 004: NetLogo-style, constant speed, a capped turn per rule, torus -------------------------
def diff_cyclic(a: Array, b: Array, period: float) -> Array:
    """The post's diffCyclic: a - b on a circle of `period`, in [-period / 2, period / 2]."""
    d = np.fmod(a - b, period)
    return np.where(np.abs(d) <= period / 2, d, np.where(d > 0, d - period, d + period))


def comp_degree(limit: float, deg: Array) -> Array:
    """The post's compDegree: `deg` clamped to [-limit, limit]."""
    return np.clip(deg, -limit, limit)


def netlogo_004(
    seed: int,
    frames: int,
    count: int = 300,
    patch: float = 8.0,
    fps: float = 60.0,
) -> Run:
    """Post 004's rules with NetLogo Flocking's default parameters (the post took its values
    from it): vision 3, minimum separation 1, max turns 1.5° (separate), 5° (align) and 3°
    (cohere) a tick, speed 1 patch a tick, a torus of 71 × 71 patches of `patch` px.

    Each tick every boid lists the others within its vision (from the positions the tick
    began with); if the nearest is closer than the minimum separation it turns towards that
    one's heading + 180° by at most max-separate-turn, else by the capped turn to its
    neighbours' mean heading plus the capped turn towards their mean relative position (both
    measured from its heading, as the post writes them). Then all move.
    """
    side = 71 * patch
    vision, min_sep, speed = 3 * patch, 1 * patch, 1 * patch
    sep_turn, align_turn, cohere_turn = 1.5, 5.0, 3.0
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(0, side, count), rng.uniform(0, side, count)
    deg = rng.uniform(0, 360, count)
    run = _record(frames, count)
    for frame in range(frames):
        rx = diff_cyclic(x[None, :], x[:, None], side)  # relative position of j from i
        ry = diff_cyclic(y[None, :], y[:, None], side)
        dist = np.hypot(rx, ry)
        seen = (dist < vision) & ~np.eye(count, dtype=bool)
        some = seen.any(axis=1)
        nearest = np.argmin(np.where(seen, dist, np.inf), axis=1)
        crowded = some & (dist[np.arange(count), nearest] < min_sep)
        rad = np.radians(deg)
        ax, ay = (seen * np.cos(rad)[None]).sum(axis=1), (seen * np.sin(rad)[None]).sum(axis=1)
        da = comp_degree(align_turn, diff_cyclic(np.degrees(np.arctan2(ay, ax)), deg, 360))
        cx, cy = (seen * rx).sum(axis=1), (seen * ry).sum(axis=1)
        dc = comp_degree(cohere_turn, diff_cyclic(np.degrees(np.arctan2(cy, cx)), deg, 360))
        ds = comp_degree(sep_turn, diff_cyclic(deg[nearest] + 180, deg, 360))
        deg = np.mod(deg + np.where(crowded, ds, np.where(some, da + dc, 0.0)), 360)
        rad = np.radians(deg)
        x = np.mod(x + speed * np.cos(rad), side)
        y = np.mod(y + speed * np.sin(rad), side)
        run.positions[frame] = np.column_stack((x, y))
        run.velocities[frame] = np.column_stack((np.cos(rad), np.sin(rad))) * speed * fps
    return run
