"""The steering kernel: how each boid reacts to the boids it sees.

Over 400 lines: the general path's gather and combine for every relation, and the drivers
that run them over chunks of boids; the fast path is `plain.py`, the styles `styles.py`,
the flight from predators `threat.py`.

Flockmates give separation, alignment and cohesion (per species style, `styles.py`; the
walls of a contain world count as neighbours for a species whose `walls` are
``neighbours``); avoided species add to separation out to the perception radius; predators
it flees give evasion (with prediction, out of the predator's path: the fountain) and raise
its alarm, which spreads to flockmates at the species' alarm speed; prey it chases give
pursuit (with prediction) and a catch target.

Phases per boid: look (`shoal.systems.core.vision.seen`: the neighbours it sees, in cell
order) → gather (sums over them, by relation and zone) → combine (by steering style) → write
its acceleration, alarm and target. Seeing and reacting are fused: no neighbour list is
stored. A flock that updates in place (`FlockConfig.update`) runs `steer_in_order` instead:
one boid after the other, in row order, each moved (`shoal.systems.core.integrate.advance`)
before the next one looks.
"""

import math
from typing import Final, cast

import numba
import numpy as np

from shoal.systems.core.config import BOUNDARY_WRAP
from shoal.systems.core.integrate import advance, moving_acceleration
from shoal.systems.core.maths import MAX_PREDICTION, clamp_length, seek, wrap_offset
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    COMBINE_MEAN,
    FALLOFF_LINEAR,
    P_ALARM_SPEED,
    P_ALIGNMENT_RADIUS,
    P_CHASE_WEIGHT,
    P_COMBINE,
    P_FALLOFF,
    P_FEAR_RADIUS,
    P_MAX_FORCE,
    P_MAX_NEIGHBOURS,
    P_MAX_SPEED,
    P_PERCEPTION,
    P_SEPARATION,
    P_STYLE,
    P_WALLS,
    RELATION_AVOID,
    RELATION_CHASE,
    RELATION_FLEE,
    RELATION_FLOCK,
    STYLE_ACCUMULATE,
    STYLE_REYNOLDS,
    STYLE_TURN,
    STYLE_ZONES,
    WALLS_NEIGHBOURS,
)
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import (
    Cells,
    CellsRecord,
    Seen,
    buffers,
    seen,
)
from shoal.systems.steering.block import (
    AT_ALARMED,
    AT_CELL,
    AT_COUNT,
    AT_OTHERS,
    AT_SPECIES,
    block_buffers,
)
from shoal.systems.steering.plain import (
    NO_ALARM,
    NO_SUMS,
    NO_THREAT,
    AlarmSums,
    PlainSums,
    ThreatSums,
    block_ready,
    copy_block,
    in_block,
    nearest_images,
    plain_boid,
    plain_gather,
    plain_others,
    plain_species,
    small_torus,
)
from shoal.systems.steering.styles import (
    MAX_SEPARATION_FACTOR,
    FlockTerms,
    accumulate,
    push,
    reynolds,
)
from shoal.systems.steering.styles import turn as turn_style
from shoal.systems.steering.styles import zones as zones_style
from shoal.systems.steering.threat import fleeing, flight

_GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))
NO_PREY = cast(int, np.int64(-1))  # typed: a literal -1 would give `_write` a second specialization
RULES = ("separation", "alignment", "cohesion", "flee", "chase")
"""The rows of `rule_forces`, in order."""

# (separation, alignment, cohesion, flee, chase) as x, y pairs, the limit on the sum of the
# first three, the boid's new alarm level, the slot of the prey it chases (-1: none) and how
# long before the step's end an alarm from a flockmate reached it (s). Read by name: the T_*
# constants (compile-time constants in the kernels).
# Final: the type checker reads them as literals, so it knows each slot's type.
T_SEPARATION_X: Final = 0
T_SEPARATION_Y: Final = 1
T_ALIGNMENT_X: Final = 2
T_ALIGNMENT_Y: Final = 3
T_COHESION_X: Final = 4
T_COHESION_Y: Final = 5
T_FLEE_X: Final = 6
T_FLEE_Y: Final = 7
T_CHASE_X: Final = 8
T_CHASE_Y: Final = 9
T_LIMIT: Final = 10
T_ALARM: Final = 11
T_PREY: Final = 12
T_ALARM_LEAD: Final = 13
Terms = tuple[
    float, float, float, float, float, float, float, float, float, float, float, float, int,
    float,
]  # fmt: skip


@numba.njit(cache=True, nogil=True, error_model="numpy")
def steer(
    first: int,
    last: int,
    record: CellsRecord,
    cooldown: FloatArray,
    alarm_age: FloatArray,
    burst: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
    origin_x: float,
    origin_y: float,
    accelerations: FloatArray,
    alarm: FloatArray,
    alarm_lead: FloatArray,
    target_row: IntArray,
    goals: FloatArray,
) -> None:
    """Write the acceleration, alarm and chase target of slots [first, last) (store rows).

    Each boid looks at its neighbours once (`seen`, in cell order: nearby memory) and reacts
    to them at once: the lists are never stored. `cells.alarm` holds the alarm levels of the
    previous step; `cooldown` (seconds until each boid may catch again), `alarm_age` and
    `burst` (see `FlockStore`) are in row order. `goals` gets the flee (from a predator it
    sees) and chase terms, for navigation. (`origin_x`, `origin_y`) is the world's
    lower-left corner: two numbers, not a tuple, since a tuple beside the `Cells` tuple
    sends numba's dispatch down a slow path (~100 µs a call). `record` is the step's
    `Cells` as a plain tuple (see `CellsRecord`).
    """
    cells = Cells(*record)
    origin = (origin_x, origin_y)
    out = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max())))
    block = block_buffers()
    reach = plain_species(cells, params, relations)
    # Every array is read out of its tuple once, here: read in the loop (or handed to an
    # inlined function, with its tuple or alone), each counts a reference up and down, an
    # atomic operation (measured: over half of this loop's time at 10,000 boids).
    rows, species, cell, levels = cells.row, cells.species, cells.cell, cells.alarm
    xs, ys, vxs, vys = cells.x, cells.y, cells.vx, cells.vy
    at, block_x, block_y, block_vx, block_vy, block_level, block_age = (
        block.plain_at, block.plain_x, block.plain_y, block.plain_vx, block.plain_vy,
        block.plain_alarm, block.plain_age,
    )  # fmt: skip
    other_relation, other_x, other_y, other_vx, other_vy = (
        block.other_relation, block.other_x, block.other_y, block.other_vx, block.other_vy,
    )  # fmt: skip
    reached, leads = block.reached, block.leads
    image_x, image_y = block.image_x, block.image_y
    world = (cells.width, cells.height, cells.wrap)
    torus, reimage = (0.0, 0.0), False
    for i in range(first, last):
        s = species[i]
        plain, sums, heard, threat = False, NO_SUMS, NO_ALARM, NO_THREAT
        if reach[s]:  # the fast path (`plain.py`)
            if at[AT_CELL] != cell[i] or at[AT_SPECIES] != s:
                copy_block(cell[i], s, reach[s], cells, alarm_age, relations, block)
                torus = small_torus(cells, reach[s])
                reimage = torus[0] != 0.0 or torus[1] != 0.0
            if block_ready(s, at, params):
                near_x, near_y, far_x, far_y = block_x, block_y, other_x, other_y
                if reimage:  # a torus too few cells across: the images nearest boid i
                    m = at[AT_COUNT]
                    near_x, near_y = nearest_images(
                        m, block_x, block_y, xs[i], ys[i], torus, image_x, image_y
                    )
                    far_x, far_y = nearest_images(
                        at[AT_OTHERS],
                        other_x,
                        other_y,
                        xs[i],
                        ys[i],
                        torus,
                        image_x[m:],
                        image_y[m:],
                    )
                plain, sums, heard = plain_boid(
                    s, xs[i], ys[i], vxs[i], vys[i], params, dt, at[AT_COUNT], at[AT_ALARMED] == 1,
                    in_block(i, at), near_x, near_y, block_vx, block_vy, block_level,
                    block_age, reached, leads,
                )  # fmt: skip
                if plain and at[AT_OTHERS]:  # boids of other species in the block
                    plain, sums, threat = plain_others(
                        s, xs[i], ys[i], vxs[i], vys[i], rows[i], params, sums, at[AT_OTHERS],
                        other_relation, far_x, far_y, other_vx, other_vy,
                    )  # fmt: skip
        if plain:
            row = rows[i]
            t = _plain_terms(
                s, (xs[i] - origin_x, ys[i] - origin_y), vxs[i], vys[i], levels[i],
                burst[row] > 0.0, params, dt, world, sums, heard, threat,
            )  # fmt: skip
        else:
            t = _rule_terms(
                i, cells, cooldown, alarm_age, burst, params, relations, dt, origin, 0.0, out
            )
        prey = rows[t[T_PREY]] if t[T_PREY] >= 0 else -1
        _write(rows[i], prey, t, accelerations, alarm, alarm_lead, target_row, goals)


@numba.njit(cache=True, nogil=True, parallel=True)
def steer_chunks(
    workers: int,
    chunks: int,
    n: int,
    record: CellsRecord,
    cooldown: FloatArray,
    alarm_age: FloatArray,
    burst: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
    origin_x: float,
    origin_y: float,
    accelerations: FloatArray,
    alarm: FloatArray,
    alarm_lead: FloatArray,
    target_row: IntArray,
    goals: FloatArray,
) -> None:
    """`steer` over slots [0, n) in `chunks` chunks on `workers` of numba's threads (see
    `core/threads.py`; numba's parallel loops take no ``*args``, hence the list)."""
    for w in numba.prange(workers):
        for k in range(w, chunks, workers):  # a worker's chunks spread over the flock
            steer(
                n * k // chunks, n * (k + 1) // chunks, record, cooldown, alarm_age, burst,
                params, relations, dt, origin_x, origin_y, accelerations, alarm, alarm_lead,
                target_row, goals,
            )  # fmt: skip


@numba.njit(cache=True, nogil=True, error_model="numpy")
def steer_in_order(
    cells: Cells,
    rank: IntArray,
    cooldown: FloatArray,
    alarm_age: FloatArray,
    burst: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
    origin: tuple[float, float],
    noise: FloatArray,
    world: tuple[int, float, float, float, float],
    accelerations: FloatArray,
    kept: FloatArray,
    alarm: FloatArray,
    alarm_lead: FloatArray,
    target_row: IntArray,
    goals: FloatArray,
) -> None:
    """`steer` for a flock that updates in place: row by row (slot `rank[row]`), each boid
    moved in `cells` (its copy of the positions and velocities) before the next one looks,
    as the motion stage will move it (walls, limits, noise, boundary; not the later stages'
    forces; with the acceleration it kept, `kept`, where its species keeps one). `world` is
    (boundary, width, height, margin, wall_weight), `origin` the world's lower-left corner.

    A moved boid may have left the cell it was sorted into: each search reaches as far
    further as the farthest any boid has moved so far this step (not the fastest a boid
    could move: a species with a huge top speed made every search walk the whole grid).
    """
    out = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max())))
    boundary, width, height, margin, wall_weight = world
    inv_w = 1.0 / width if boundary == BOUNDARY_WRAP else 0.0
    inv_h = 1.0 / height if boundary == BOUNDARY_WRAP else 0.0
    noisy = noise.shape[0] > 0
    moved = 0.0
    for row in range(rank.shape[0]):
        i = rank[row]
        t = _rule_terms(
            i, cells, cooldown, alarm_age, burst, params, relations, dt, origin, moved, out
        )
        prey = cells.row[t[T_PREY]] if t[T_PREY] >= 0 else -1
        _write(cells.row[i], prey, t, accelerations, alarm, alarm_lead, target_row, goals)
        pos, vel = cells.positions, cells.velocities
        old_x, old_y = pos[i, 0], pos[i, 1]
        # `advance` takes the world as [0, width] × [0, height]: from its origin and back.
        s = cells.species[i]
        ax, ay = moving_acceleration(s, params, accelerations, kept, row)
        x, y, vx, vy = advance(
            pos[i, 0] - origin[0], pos[i, 1] - origin[1], vel[i, 0], vel[i, 1], ax, ay, s,
            params, dt, burst[row], noise[row] if noisy else 0.0, boundary, width, height,
            margin, wall_weight,
        )  # fmt: skip
        pos[i, 0], pos[i, 1] = x + origin[0], y + origin[1]
        vel[i, 0], vel[i, 1] = vx, vy
        dx = wrap_offset(pos[i, 0] - old_x, width, inv_w)
        dy = wrap_offset(pos[i, 1] - old_y, height, inv_h)
        moved = max(moved, math.hypot(dx, dy))
        out.near_at[0] = -1  # the vision's copy of a 3×3 block holds the old positions


@njit_no_refcount(cache=True, nogil=True)
def _write(
    row: int, target: int, t: Terms, accelerations: FloatArray, alarm: FloatArray,
    alarm_lead: FloatArray, target_row: IntArray, goals: FloatArray,
) -> None:  # fmt: skip
    """Store a boid's terms in its row: clamp(flocking, limit) + flee + chase, its alarm and
    target (the row of the prey it chases, -1: none), and its flee (from a predator it sees,
    not a scared neighbour) and chase terms as goals."""
    ax, ay = clamp_length(
        t[T_SEPARATION_X] + t[T_ALIGNMENT_X] + t[T_COHESION_X],
        t[T_SEPARATION_Y] + t[T_ALIGNMENT_Y] + t[T_COHESION_Y],
        t[T_LIMIT],
    )
    accelerations[row, 0] = ax + t[T_FLEE_X] + t[T_CHASE_X]
    accelerations[row, 1] = ay + t[T_FLEE_Y] + t[T_CHASE_Y]
    alarm[row] = t[T_ALARM]
    alarm_lead[row] = t[T_ALARM_LEAD]
    target_row[row] = target
    fled = t[T_ALARM] == 1.0  # alarm 1: it flees a predator it sees
    goals[row, 0], goals[row, 1] = (t[T_FLEE_X], t[T_FLEE_Y]) if fled else (0.0, 0.0)
    goals[row, 2], goals[row, 3] = t[T_CHASE_X], t[T_CHASE_Y]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def rule_forces(
    slot: int,
    cells: Cells,
    cooldown: FloatArray,
    alarm_age: FloatArray,
    burst: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
    origin: tuple[float, float],
) -> FloatArray:
    """One boid's terms as the rows of a (5, 2) array, in the order of `RULES`.

    `steer` applies: clamp(separation + alignment + cohesion, max force) + flee + chase.
    This runs the very same code (for debugging and the overlay).
    """
    out, block = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max()))), block_buffers()
    plain, sums, heard, threat = plain_gather(slot, cells, alarm_age, params, relations, dt, block)
    if plain:
        t = plain_terms_of(slot, cells, burst, params, dt, origin, sums, heard, threat)
    else:
        t = _rule_terms(
            slot, cells, cooldown, alarm_age, burst, params, relations, dt, origin, 0.0, out
        )
    terms = np.empty((5, 2))
    terms[0, 0], terms[0, 1], terms[1, 0], terms[1, 1] = (
        t[T_SEPARATION_X],
        t[T_SEPARATION_Y],
        t[T_ALIGNMENT_X],
        t[T_ALIGNMENT_Y],
    )
    terms[2, 0], terms[2, 1], terms[3, 0], terms[3, 1] = (
        t[T_COHESION_X],
        t[T_COHESION_Y],
        t[T_FLEE_X],
        t[T_FLEE_Y],
    )
    terms[4, 0], terms[4, 1] = t[T_CHASE_X], t[T_CHASE_Y]
    return terms


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def _rule_terms(
    i: int,
    cells: Cells,
    cooldown: FloatArray,
    alarm_age: FloatArray,
    burst: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
    origin: tuple[float, float],
    slack: float,
    out: Seen,
) -> Terms:
    """Slot i's terms (see `Terms`), from the neighbours it sees (written into `out`): the
    general path, for any boid (`_plain_terms` is the fast one, for plain boids)."""
    slot_vel, slot_species, slot_row, slot_alarm = (
        cells.velocities, cells.species, cells.row, cells.alarm,
    )  # fmt: skip
    s = slot_species[i]
    vx = slot_vel[i, 0]
    vy = slot_vel[i, 1]
    sep_radius = params[s, P_SEPARATION]
    align_radius = params[s, P_ALIGNMENT_RADIUS]
    perception = params[s, P_PERCEPTION]
    fear = params[s, P_FEAR_RADIUS]
    max_speed = params[s, P_MAX_SPEED]
    falloff = int(params[s, P_FALLOFF])
    style = int(params[s, P_STYLE])
    alarm_speed = params[s, P_ALARM_SPEED]
    # Unit headings and offsets cost a square root and divisions per neighbour: only the
    # styles that use them gather them (turn: headings; zones: all three).
    headings = style in (STYLE_TURN, STYLE_ZONES)
    zoned = style == STYLE_ZONES
    # --- gather: sums over its neighbours, by relation and zone --------------------------
    count = aligned = separated = repelled = attracted = 0
    sum_vx = sum_vy = 0.0  # velocities of flockmates in the zone of orientation
    sum_hx = sum_hy = 0.0  # their unit headings (turn and zones styles)
    sum_dx = sum_dy = 0.0  # offsets to all flockmates: their centre, relative to i
    att_x = att_y = 0.0  # unit offsets to flockmates beyond the zone of orientation (zones)
    sep_x = sep_y = 0.0
    rep_x = rep_y = 0.0  # unit offsets away from flockmates in the zone of repulsion (zones)
    # Turn style: the nearest flockmate inside the separation radius, or avoided boid.
    nearest = math.inf
    near_dx = near_dy = near_wx = near_wy = 0.0
    alarm_vx = alarm_vy = 0.0  # alarmed flockmates' velocities, weighted by their alarm
    alarm_seen = 0.0  # the highest alarm that reached it
    alarm_lead = 0.0  # how long before the end of this step that alarm reached it (s)
    threatened = False
    flee_x = flee_y = 0.0
    prey = -1
    prey_dist = math.inf
    prey_x = prey_y = 0.0
    seen_count = seen(i, cells, params, relations, out, slack)
    seen_slot, seen_dx, seen_dy, seen_dist = out.slot, out.dx, out.dy, out.dist
    for q in range(seen_count):
        j = seen_slot[q]
        relation = relations[s, slot_species[j]]
        dx = seen_dx[q]
        dy = seen_dy[q]
        d = seen_dist[q]
        wx = slot_vel[j, 0]
        wy = slot_vel[j, 1]
        if relation == RELATION_FLOCK:
            count += 1
            sum_dx += dx
            sum_dy += dy
            if d < align_radius:
                aligned += 1
                sum_vx += wx
                sum_vy += wy
                if headings:
                    w_speed = math.sqrt(wx * wx + wy * wy)
                    if w_speed > 0.0:
                        sum_hx += wx / w_speed
                        sum_hy += wy / w_speed
            elif zoned and d > 0.0:
                attracted += 1
                att_x += dx / d
                att_y += dy / d
            # An alarm spreads from a boid at the alarm speed since its level last rose:
            # it reaches this boid in this step if it has come d px by the step's end.
            lead = alarm_age[slot_row[j]] + dt - d / alarm_speed if slot_alarm[j] else -1.0
            if lead >= 0.0:
                alarm_vx += wx * slot_alarm[j]
                alarm_vy += wy * slot_alarm[j]
                if slot_alarm[j] > alarm_seen or (
                    slot_alarm[j] == alarm_seen and lead > alarm_lead
                ):
                    alarm_seen, alarm_lead = slot_alarm[j], lead
            if d < sep_radius:
                separated += 1
                px, py = _push(i, j, slot_row, dx, dy, d, sep_radius, falloff)
                sep_x += px
                sep_y += py
                if zoned and d > 0.0:
                    repelled += 1
                    rep_x -= dx / d
                    rep_y -= dy / d
                if d < nearest:
                    nearest, near_dx, near_dy, near_wx, near_wy = d, dx, dy, wx, wy
        elif relation == RELATION_AVOID:
            separated += 1
            px, py = _push(i, j, slot_row, dx, dy, d, perception, falloff)
            sep_x += px
            sep_y += py
            if zoned and d > 0.0:
                repelled += 1
                rep_x -= dx / d
                rep_y -= dy / d
            if d < nearest:
                nearest, near_dx, near_dy, near_wx, near_wy = d, dx, dy, wx, wy
        elif relation == RELATION_FLEE and d < fear:
            threatened = True
            fx, fy = flight(dx, dy, d, wx, wy, vx, vy, max_speed, slot_row[i])
            flee_x += fx * fear
            flee_y += fy * fear
        elif relation == RELATION_CHASE and d < prey_dist:
            # Pursue: head for where the prey will be when we could reach it (looking at
            # most MAX_PREDICTION s ahead: a fast prey far off would send it off the map).
            ahead = min(d / max_speed, MAX_PREDICTION)
            prey, prey_dist = j, d
            prey_x = dx + wx * ahead
            prey_y = dy + wy * ahead
    at = (cells.positions[i, 0] - origin[0], cells.positions[i, 1] - origin[1])
    world = (cells.width, cells.height, cells.wrap)
    sep_x, sep_y = _separation(params, s, at, world, separated, sep_x, sep_y)
    # --- combine ------------------------------------------------------------------------
    if style in (STYLE_REYNOLDS, STYLE_ACCUMULATE):
        sx, sy, alx, aly, cx, cy, limit = _flocking(
            params, s, style, vx, vy, aligned, count, sep_x, sep_y, sum_vx, sum_vy, sum_dx,
            sum_dy,
        )  # fmt: skip
    elif style == STYLE_TURN:
        away = _away(near_dx, near_dy, near_wx, near_wy)
        sx, sy, alx, aly, cx, cy, limit = turn_style(
            params, s, vx, vy, dt, nearest < math.inf, away, sum_hx, sum_hy, sum_dx, sum_dy
        )
    else:
        sx, sy, alx, aly, cx, cy, limit = zones_style(
            params, s, vx, vy, dt, repelled, rep_x, rep_y, aligned, sum_hx, sum_hy,
            attracted, att_x, att_y,
        )  # fmt: skip
    row = slot_row[i]
    bursting = burst[row] > 0.0
    fx, fy, alarm = fleeing(
        params, s, vx, vy, threatened, flee_x, flee_y, slot_alarm[i], alarm_seen, alarm_vx,
        alarm_vy, bursting, dt,
    )  # fmt: skip
    # Chasing: only when rested.
    hx = hy = 0.0
    if prey >= 0 and cooldown[row] <= 0.0:
        hx, hy = seek(prey_x, prey_y, vx, vy, max_speed, params[s, P_MAX_FORCE])
        hx *= params[s, P_CHASE_WEIGHT]
        hy *= params[s, P_CHASE_WEIGHT]
    else:
        prey = -1
    lead = 0.0 if threatened else min(alarm_lead, dt)
    return sx, sy, alx, aly, cx, cy, fx, fy, hx, hy, limit, alarm, prey, lead


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def _plain_terms(
    s: int, at: tuple[float, float], vx: float, vy: float, before: float, bursting: bool,
    params: FloatArray, dt: float, world: tuple[float, float, bool], sums: PlainSums,
    heard: AlarmSums, threat: ThreatSums,
) -> Terms:  # fmt: skip
    """`_rule_terms` of a plain boid of species s (`plain.py`) at `at` (from the world's
    lower-left corner) moving at (vx, vy), alarmed at level `before`, from its sums (over
    its flockmates and the boids it avoids), the alarm that reached it and the predators it
    senses: nothing it sees is a prey."""
    count, sum_dx, sum_dy, aligned, sum_vx, sum_vy, separated, sep_x, sep_y = sums
    sep_x, sep_y = _separation(params, s, at, world, separated, sep_x, sep_y)
    sx, sy, alx, aly, cx, cy, limit = _flocking(
        params, s, int(params[s, P_STYLE]), vx, vy, aligned, count, sep_x, sep_y, sum_vx,
        sum_vy, sum_dx, sum_dy,
    )  # fmt: skip
    alarm_seen, alarm_lead, alarm_vx, alarm_vy = heard
    threatened, flee_x, flee_y = threat
    fx = fy = alarm = 0.0
    if threatened or alarm_seen > 0.0 or before > 0.0:
        fx, fy, alarm = fleeing(
            params, s, vx, vy, threatened, flee_x, flee_y, before, alarm_seen, alarm_vx,
            alarm_vy, bursting, dt,
        )  # fmt: skip
    lead = 0.0 if threatened else min(alarm_lead, dt)
    return sx, sy, alx, aly, cx, cy, fx, fy, 0.0, 0.0, limit, alarm, NO_PREY, lead


@njit_no_refcount(cache=True, nogil=True)
def plain_terms_of(
    slot: int, cells: Cells, burst: FloatArray, params: FloatArray, dt: float,
    origin: tuple[float, float], sums: PlainSums, heard: AlarmSums, threat: ThreatSums,
) -> Terms:  # fmt: skip
    """`_plain_terms` of one slot, its numbers read from `cells` (for `rule_forces` and
    tests; the boid loop of `steer` reads them from arrays it took out of `cells` once)."""
    return _plain_terms(
        cells.species[slot], (cells.x[slot] - origin[0], cells.y[slot] - origin[1]),
        cells.vx[slot], cells.vy[slot], cells.alarm[slot], burst[cells.row[slot]] > 0.0,
        params, dt, (cells.width, cells.height, cells.wrap), sums, heard, threat,
    )  # fmt: skip


@njit_no_refcount(cache=True, nogil=True)
def _separation(
    params: FloatArray, s: int, at: tuple[float, float], world: tuple[float, float, bool],
    separated: int, sep_x: float, sep_y: float,
) -> tuple[float, float]:  # fmt: skip
    """The separation sum of a boid at `at` (from the world's lower-left corner; `world`:
    width, height, wraps) with the walls' pushes added (where they count as neighbours),
    as a mean where the species averages its separation."""
    if int(params[s, P_WALLS]) == WALLS_NEIGHBOURS and not world[2]:
        px, py, walls = _walls(
            at, world[0], world[1], params[s, P_SEPARATION], int(params[s, P_FALLOFF])
        )
        sep_x += px
        sep_y += py
        separated += walls
    if int(params[s, P_COMBINE]) == COMBINE_MEAN and separated > 0:
        return sep_x / separated, sep_y / separated
    return sep_x, sep_y


@njit_no_refcount(cache=True, nogil=True)
def _flocking(
    params: FloatArray, s: int, style: int, vx: float, vy: float, aligned: int, count: int,
    sep_x: float, sep_y: float, sum_vx: float, sum_vy: float, sum_dx: float, sum_dy: float,
) -> FlockTerms:  # fmt: skip
    """The flocking terms of the `reynolds` or `accumulate` style."""
    if style == STYLE_REYNOLDS:
        return reynolds(
            params, s, vx, vy, aligned, count, sep_x, sep_y, sum_vx, sum_vy, sum_dx, sum_dy
        )
    return accumulate(
        params, s, vx, vy, aligned, count, sep_x, sep_y, sum_vx, sum_vy, sum_dx, sum_dy
    )


@njit_no_refcount(cache=True, nogil=True)
def _push(
    i: int, j: int, slot_row: IntArray, dx: float, dy: float, d: float, radius: float,
    falloff: int,
) -> tuple[float, float]:  # fmt: skip
    """Separation push away from a neighbour at offset (dx, dy), distance d < radius."""
    if d > 0.0:
        return push(dx, dy, d, radius, falloff)
    if falloff == FALLOFF_LINEAR:  # the offset itself: nothing
        return 0.0, 0.0
    # Same spot: part in a direction fixed by the pair (by row), opposite for each.
    a, b = slot_row[i], slot_row[j]
    angle = _GOLDEN_ANGLE * (min(a, b) + max(a, b)) + (math.pi if a > b else 0.0)
    return math.cos(angle) * MAX_SEPARATION_FACTOR, math.sin(angle) * MAX_SEPARATION_FACTOR


@numba.njit(cache=True, nogil=True)
def _walls(
    at: tuple[float, float], width: float, height: float, radius: float, falloff: int
) -> tuple[float, float, int]:
    """The pushes of the walls nearer than `radius` to a boid at `at` (from the world's
    lower-left corner), each a virtual boid at the foot of the perpendicular (as Narita's
    Unity post on Boids has its walls), and how many there are."""
    x, y = at
    px = py = 0.0
    count = 0
    # Each wall by its inward normal (nx, ny) and the boid's distance to it.
    for nx, ny, d in ((1.0, 0.0, x), (-1.0, 0.0, width - x), (0.0, 1.0, y),
                      (0.0, -1.0, height - y)):  # fmt: skip
        if d >= radius:
            continue
        count += 1
        if d > 0.0:
            fx, fy = push(-nx * d, -ny * d, d, radius, falloff)
        elif falloff != FALLOFF_LINEAR:  # on the wall: straight back in, hard
            fx, fy = nx * MAX_SEPARATION_FACTOR, ny * MAX_SEPARATION_FACTOR
        else:
            fx = fy = 0.0
        px += fx
        py += fy
    return px, py, count


@numba.njit(cache=True, nogil=True)
def _away(dx: float, dy: float, wx: float, wy: float) -> float:
    """Turn style: the heading that turns away from the nearest, its heading + 180° (from
    its position if it stands still)."""
    if wx != 0.0 or wy != 0.0:
        return math.atan2(-wy, -wx)
    return math.atan2(-dy, -dx)
