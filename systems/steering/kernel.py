"""The steering kernel: how each boid reacts to the boids it sees, the driver of its two paths.

Each boid takes the fast path (`plain.py`) where it may (`route.py` says which species, the
block of cells round it and the boid itself the rest), else the general path
(`general.py`); both give its terms (`terms.Terms`), which are written into its row
(`terms.write_terms`). The styles that turn sums into terms are `styles.py`, the flight
from predators `threat.py`.

Phases per boid: look (the neighbours it sees, in cell order) → gather (sums over them, by
relation and zone) → combine (by steering style) → write its acceleration, alarm and target.
Seeing and reacting are fused: no neighbour list is stored. A flock that updates in place
(`FlockConfig.update`) runs `steer_in_order` instead: one boid after the other, in row
order, each moved (`shoal.systems.core.integrate.advance`) before the next one looks.
"""

import math

import numba
import numpy as np

from shoal.systems.core.config import BOUNDARY_WRAP
from shoal.systems.core.integrate import advance, moving_acceleration
from shoal.systems.core.maths import wrap_offset
from shoal.systems.core.species_table import P_MAX_NEIGHBOURS
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import Cells, CellsRecord, buffers
from shoal.systems.steering.block import (
    AT_ALARMED,
    AT_CELL,
    AT_COUNT,
    AT_OTHERS,
    AT_SPECIES,
    block_buffers,
    flockmates,
)
from shoal.systems.steering.general import general_terms
from shoal.systems.steering.plain import (
    NO_ALARM,
    NO_SUMS,
    NO_THREAT,
    block_ready,
    copy_block,
    in_block,
    nearest_images,
    plain_boid,
    plain_gather,
    plain_others,
    plain_terms,
    plain_terms_of,
    small_torus,
)
from shoal.systems.steering.records import (
    BoidState,
    RulesRecord,
    SpeciesRules,
    StateRecord,
    Steered,
    SteeredRecord,
)
from shoal.systems.steering.route import plain_species
from shoal.systems.steering.terms import (
    RULES,
    T_ALIGNMENT_X,
    T_ALIGNMENT_Y,
    T_CHASE_X,
    T_CHASE_Y,
    T_COHESION_X,
    T_COHESION_Y,
    T_FLEE_X,
    T_FLEE_Y,
    T_PREY,
    T_SEPARATION_X,
    T_SEPARATION_Y,
    write_terms,
)

__all__ = ["RULES", "rule_forces", "steer", "steer_chunks", "steer_in_order"]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def steer(
    first: int,
    last: int,
    record: CellsRecord,
    state_record: StateRecord,
    rules_record: RulesRecord,
    dt: float,
    origin_x: float,
    origin_y: float,
    out_record: SteeredRecord,
) -> None:
    """Write the acceleration, alarm and chase target of slots [first, last) (store rows).

    The records are plain tuples (see `records`): the step's `Cells`, `BoidState`,
    `SpeciesRules` and `Steered`; (`origin_x`, `origin_y`) is the world's lower-left
    corner: two numbers, not a tuple, since a tuple of numbers costs numba's dispatch
    ~2 µs a call (measured).

    Each boid looks at its neighbours once (`seen`, in cell order: nearby memory) and reacts
    to them at once: the lists are never stored. `cells.alarm` holds the alarm levels of the
    previous step; `goals` gets the flee (from a predator it sees) and chase terms, for
    navigation.
    """
    cells, state = Cells(*record), BoidState(*state_record)
    rules, out = SpeciesRules(*rules_record), Steered(*out_record)
    params = rules.params
    origin = (origin_x, origin_y)
    seen_buffers = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max())))
    block = block_buffers()
    reach = plain_species(cells, rules)
    # Every array is read out of its tuple once, here: read in the loop (or handed to an
    # inlined function, with its tuple or alone), each counts a reference up and down, an
    # atomic operation (measured: over half of this loop's time at 10,000 boids).
    rows, species, cell, levels = cells.row, cells.species, cells.cell, cells.alarm
    xs, ys, vxs, vys = cells.x, cells.y, cells.vx, cells.vy
    burst, alarm_age, relations = state.burst, state.alarm_age, rules.relations
    at, block_x, block_y = block.plain_at, block.plain_x, block.plain_y
    mates = flockmates(block)
    other_relation, other_x, other_y = block.other_relation, block.other_x, block.other_y
    other_vx, other_vy = block.other_vx, block.other_vy
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
                m = at[AT_COUNT]
                if reimage:  # a torus too few cells across: the images nearest boid i
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
                boid = (s, xs[i], ys[i], vxs[i], vys[i])
                alarmed, copied = at[AT_ALARMED] == 1, in_block(i, at)
                plain, sums, heard = plain_boid(
                    boid, params, dt, m, alarmed, copied, near_x, near_y, mates
                )
                if plain and at[AT_OTHERS]:  # boids of other species in the block
                    plain, sums, threat = plain_others(
                        boid, rows[i], params, sums, at[AT_OTHERS], other_relation, far_x,
                        far_y, other_vx, other_vy,
                    )  # fmt: skip
        if plain:
            row = rows[i]
            t = plain_terms(
                s, (xs[i] - origin_x, ys[i] - origin_y), vxs[i], vys[i], levels[i],
                burst[row] > 0.0, params, dt, world, sums, heard, threat,
            )  # fmt: skip
        else:
            t = general_terms(i, cells, state, rules, dt, origin, 0.0, seen_buffers)
        prey = rows[t[T_PREY]] if t[T_PREY] >= 0 else -1
        write_terms(rows[i], prey, t, out)


@numba.njit(cache=True, nogil=True, parallel=True)
def steer_chunks(
    workers: int,
    chunks: int,
    n: int,
    record: CellsRecord,
    state: StateRecord,
    rules: RulesRecord,
    dt: float,
    origin_x: float,
    origin_y: float,
    out: SteeredRecord,
) -> None:
    """`steer` over slots [0, n) in `chunks` chunks on `workers` of numba's threads (see
    `core/threads.py`). Its records are handed on one by one: numba's parallel loop takes
    neither ``*args`` nor a tuple of tuples (it fails to compile)."""
    for w in numba.prange(workers):
        for k in range(w, chunks, workers):  # a worker's chunks spread over the flock
            first, last = n * k // chunks, n * (k + 1) // chunks
            steer(first, last, record, state, rules, dt, origin_x, origin_y, out)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def steer_in_order(
    record: CellsRecord,
    rank: IntArray,
    state_record: StateRecord,
    rules_record: RulesRecord,
    dt: float,
    origin: tuple[float, float],
    noise: FloatArray,
    world: tuple[int, float, float, float, float],
    kept: FloatArray,
    out_record: SteeredRecord,
) -> None:
    """`steer` for a flock that updates in place: row by row (slot `rank[row]`), each boid
    moved in `cells` (`record`: its copy of the positions and velocities) before the next
    one looks, as the motion stage will move it (walls, limits, noise, boundary; not the
    later stages' forces; with the acceleration it kept, `kept`, where its species keeps
    one). `world` is (boundary, width, height, margin, wall_weight), `origin` the world's
    lower-left corner; the records as `steer`'s (`records.SteerJob`).

    A moved boid may have left the cell it was sorted into: each search reaches as far
    further as the farthest any boid has moved so far this step (not the fastest a boid
    could move: a species with a huge top speed made every search walk the whole grid).
    """
    cells, state = Cells(*record), BoidState(*state_record)
    rules, out = SpeciesRules(*rules_record), Steered(*out_record)
    params, burst = rules.params, state.burst
    seen_buffers = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max())))
    boundary, width, height, margin, wall_weight = world
    inv_w = 1.0 / width if boundary == BOUNDARY_WRAP else 0.0
    inv_h = 1.0 / height if boundary == BOUNDARY_WRAP else 0.0
    noisy = noise.shape[0] > 0
    moved = 0.0
    for row in range(rank.shape[0]):
        i = rank[row]
        t = general_terms(i, cells, state, rules, dt, origin, moved, seen_buffers)
        prey = cells.row[t[T_PREY]] if t[T_PREY] >= 0 else -1
        write_terms(cells.row[i], prey, t, out)
        pos, vel = cells.positions, cells.velocities
        old_x, old_y = pos[i, 0], pos[i, 1]
        # `advance` takes the world as [0, width] × [0, height]: from its origin and back.
        s = cells.species[i]
        ax, ay = moving_acceleration(s, params, out.accelerations, kept, row)
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
        seen_buffers.near_at[0] = -1  # the vision's copy of a 3×3 block holds the old positions


@numba.njit(cache=True, nogil=True, error_model="numpy")
def rule_forces(
    slot: int,
    record: CellsRecord,
    state_record: StateRecord,
    rules_record: RulesRecord,
    dt: float,
    origin: tuple[float, float],
) -> FloatArray:
    """One boid's terms as the rows of a (5, 2) array, in the order of `RULES`.

    `steer` applies: clamp(separation + alignment + cohesion, max force) + flee + chase.
    This runs the very same code (for debugging and the overlay); the records as `steer`'s.
    """
    cells, state, rules = Cells(*record), BoidState(*state_record), SpeciesRules(*rules_record)
    params = rules.params
    seen_buffers = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max())))
    block = block_buffers()
    plain, sums, heard, threat = plain_gather(slot, cells, state.alarm_age, rules, dt, block)
    if plain:
        t = plain_terms_of(slot, cells, state.burst, params, dt, origin, sums, heard, threat)
    else:
        t = general_terms(slot, cells, state, rules, dt, origin, 0.0, seen_buffers)
    terms = np.empty((5, 2))
    terms[0, 0], terms[0, 1] = t[T_SEPARATION_X], t[T_SEPARATION_Y]
    terms[1, 0], terms[1, 1] = t[T_ALIGNMENT_X], t[T_ALIGNMENT_Y]
    terms[2, 0], terms[2, 1] = t[T_COHESION_X], t[T_COHESION_Y]
    terms[3, 0], terms[3, 1] = t[T_FLEE_X], t[T_FLEE_Y]
    terms[4, 0], terms[4, 1] = t[T_CHASE_X], t[T_CHASE_Y]
    return terms
