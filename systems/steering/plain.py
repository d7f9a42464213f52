"""The steering's fast path: the sums of a plain boid's flockmates, read straight off a
copy of the boids of its cell and the 8 round it (the 24 round it in a crowd's cells of half
the radius).

Over 400 lines: the fast path is one compiled unit, the block copy and the branch-free
loops that read it, and the terms from their sums; the general path is `general.py`, which
species this path serves `route.py` (its parameters, declared), its buffers `block.py`.

Most boids of most flocks are plain: their search stays within their cell and the 8 round it
(in a crowd, `neighbours.kernel.crowded`, cells are half the radius wide and the search
stays within the 24 round it), they flock with their own species and every other species
there is one they avoid, flee or ignore (a predator passing through a school: not one they
chase or flock with), no cap can bite (those cells hold no more boids than the cap, or no
cap is set and the boid sees no more than `NEIGHBOUR_LIMIT`), no two stand on one spot, they
steer in the `reynolds` or `accumulate` style, and every species parameter this path does not
implement has the value it assumes (`route.FAST_PATH_PARAMETERS`). A crowded cell (over
`vision.CELL_SAMPLE` boids) is read by the same evenly spaced sample as the general path
reads it (a far-seeing preset's 120-400 px cells of a dense school). Alarmed flockmates are
allowed: where the block holds one, the loop also gathers the alarm that reaches the boid,
as the general path would; the few boids of other species are copied apart, and a second
loop (`plain_others`) adds the pushes of those it avoids and its flight from the predators
it senses. For plain boids the general path (`vision.seen` writes the neighbours it sees
into a list; the steering reads the list back and sorts each by relation) does work that
cannot change the result. This loop instead tests every boid of the block (copied once per
cell and species, `copy_block`) and adds up those seen at once, with no branch: the compiler
runs it on several candidates at a time (SIMD). It sums in another order than the general
path (`fastmath` reassociation), so a plain boid's sums can differ from the general path's
in the last bits; the result is still the same for any thread count, since a boid's path and
sums depend only on the step's state.

On a torus too few cells across for the block (`small_torus`: a far-seeing preset in a
small world, the mill's 400 px in the open water, 4 × 2 cells), the rings of cells hold that
axis whole, and each boid reads the block's copies moved to the images nearest itself
(`nearest_images`).

The steering's boid loop runs the steps one by one (`route.plain_species` once a step,
`copy_block` once a cell and species, `block_ready`, `plain_boid` and, where the block
holds other species, `plain_others` once a boid) on arrays it read out of their tuples
once: numba counts a reference up and down, with atomic operations, each time an array is
read out of a tuple or handed to an inlined function, and in a loop over every boid those
dominated the step. `plain_gather` runs the same steps for one boid.
"""

import math

import numba
import numpy as np

from shoal.components.species import NEIGHBOUR_LIMIT
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    FALLOFF_LINEAR,
    FALLOFF_SOFT,
    FALLOFF_SQUARE,
    P_ALARM_SPEED,
    P_ALIGNMENT_RADIUS,
    P_COS_HALF_FOV,
    P_FALLOFF,
    P_FEAR_RADIUS,
    P_MAX_NEIGHBOURS,
    P_MAX_SPEED,
    P_PERCEPTION,
    P_SEPARATION,
    P_STYLE,
    RELATION_AVOID,
    RELATION_FLEE,
    RELATION_IGNORE,
)
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import (
    Cells,
    heading,
    ring_offsets,
    sample_stride,
)
from shoal.systems.steering.block import (
    AT_ALARMED,
    AT_CELL,
    AT_COUNT,
    AT_FIRST,
    AT_OTHERS,
    AT_READY,
    AT_SPECIES,
    AT_STRIDE,
    Block,
    Flockmates,
    flockmates,
)
from shoal.systems.steering.records import SpeciesRules
from shoal.systems.steering.route import plain_species
from shoal.systems.steering.styles import MAX_SEPARATION_FACTOR, flocking, push, separation
from shoal.systems.steering.terms import NO_PREY, Terms
from shoal.systems.steering.threat import fleeing, flight

# Reassociation lets the sums run in SIMD lanes; the other fast-math flags (no NaN, no inf)
# would be wrong here: radii and forces may be inf.
SIMD = {"reassoc", "contract"}

PlainSums = tuple[int, float, float, int, float, float, int, float, float]
"""count, sum_dx, sum_dy (offsets to all flockmates seen), aligned, sum_vx, sum_vy (their
velocities, within the alignment radius), separated, sep_x, sep_y (separation pushes)."""
NO_SUMS: PlainSums = (0, 0.0, 0.0, 0, 0.0, 0.0, 0, 0.0, 0.0)
"""The sums over no flockmates."""
AlarmSums = tuple[float, float, float, float]
"""The highest alarm level that reached the boid (ties: the one that came first), how long
before the step's end it came (s), and the velocities of the alarmed flockmates it saw,
weighted by their levels (x, y)."""
NO_ALARM: AlarmSums = (0.0, 0.0, 0.0, 0.0)
"""No alarm reached it."""
ThreatSums = tuple[bool, float, float]
"""Whether a predator it flees is within its fear radius, and its flight from them (x, y:
each predator's `flight` times the fear radius, summed as the general path sums them)."""
NO_THREAT: ThreatSums = (False, 0.0, 0.0)
"""No predator near."""
Boid = tuple[int, float, float, float, float]
"""A boid as the fast path reads it: its species, position (x, y) and velocity (x, y)."""


@numba.njit(cache=True, nogil=True, fastmath=SIMD, error_model="numpy", inline="always")
def plain_sums(
    m: int,
    xs: FloatArray,
    ys: FloatArray,
    mates: Flockmates,
    at: tuple[float, float],
    view: tuple[float, bool, float, float],
    radii: tuple[float, float, float],
    falloff: tuple[int, float],
    alarmed: bool,
    pace: tuple[float, float],
) -> tuple[int, PlainSums, tuple[float, float]]:
    """The sums over the first m boids of a block as seen from `at` (x, y; see `PlainSums`),
    how many of them stand exactly there (1: the boid itself; more: the general path must
    run, which gives coincident boids their own push) and, where one of them is `alarmed`,
    the velocities of those whose alarm reached the boid, weighted by their levels (x, y).

    `xs`, `ys` are the block's positions (the nearest images: offsets need no wrapping),
    `mates` the rest of its copies (`Flockmates`). `view` is (cos of half the field of
    view, sees all round, unit heading x, y); `radii` (perception, alignment, separation);
    `falloff` (power, shift): power 0, 1 or 2: the separation push of a neighbour at
    distance d grows as (radius / d - shift) ** power (capped, as `styles.push`; a shift
    of 1 is the soft falloff, 0 the others).

    The alarm, where one is near (`mates.alarm`, `mates.age`: the block's alarm levels and
    the ages of their alarms), is gathered in the same loop, as the general path gathers
    it: a flockmate's alarm spreads at the alarm speed from it (`pace`: the species' alarm
    speed, dt) and reaches the boid in this step if it has come its distance by the step's
    end. For each flockmate, the level that reached the boid (0: none) and how long before
    the step's end it did go into `mates.reached` and `mates.leads` (scratch), for
    `loudest_alarm`: in a scared school every fish is alarmed, and a loop of its own that
    branched on each flockmate cost more than the flocking.
    """
    vxs, vys, levels, ages, reached, leads = mates
    xi, yi = at
    cos_half, all_round, hx, hy = view
    perception, align_radius, sep_radius = radii
    falloff_power, falloff_shift = falloff
    alarm_speed, dt = pace
    r2 = perception * perception
    inv_sep = 1.0 / sep_radius
    # A product, not a division by the speed in the loop: without fast-math's reciprocal
    # flag the compiler keeps a division per candidate (the slowest operation there).
    alarm_pace = 1.0 / alarm_speed
    # int(0), not 0: numba compiles each callee a counter that starts as the literal 0
    # is handed to twice (once for the literal, as it infers the types): seconds at install.
    count = aligned = separated = here = int(0)
    sum_dx = sum_dy = sum_vx = sum_vy = sep_x = sep_y = alarm_vx = alarm_vy = 0.0
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
        if alarmed:  # a constant in each call (`plain_boid`)
            level = levels[t]
            lead = ages[t] + dt - d * alarm_pace
            hit = seen & (level > 0.0) & (lead >= 0.0)
            alarm_vx += vxs[t] * level if hit else 0.0
            alarm_vy += vys[t] * level if hit else 0.0
            reached[t] = level if hit else 0.0
            leads[t] = lead
    sums = (count, sum_dx, sum_dy, aligned, sum_vx, sum_vy, separated, -sep_x, -sep_y)
    return here, sums, (alarm_vx, alarm_vy)


@njit_no_refcount(cache=True, nogil=True, error_model="numpy", fastmath={"nnan", "nsz", "reassoc"})
def loudest_alarm(m: int, reached: FloatArray, leads: FloatArray) -> tuple[float, float]:
    """The highest alarm level that reached a plain boid and how long before the step's end
    it came (ties: the one that came first; (0, 0): none), from the first m entries that
    `plain_sums` wrote into `reached` and `leads`.

    Two maxima, each a loop the compiler runs in SIMD lanes (no level is NaN, and a max is
    exact in any order): the highest level, then the longest lead among the entries at it."""
    top = 0.0
    for t in range(m):
        top = max(top, reached[t])
    if top <= 0.0:
        return 0.0, 0.0
    lead = -math.inf
    for t in range(m):
        lead = max(lead, leads[t] if reached[t] == top else -math.inf)
    return top, lead


@numba.njit(cache=True, nogil=True)
def small_torus(cells: Cells, reach: int) -> tuple[float, float]:
    """The world's width and height along each axis of a torus too few cells across for a
    block of `reach` rings round a cell (under 2 × reach + 2: a boid's offset to a copy
    may be over half the world), 0 along the others: there the rings hold the whole axis,
    and the copies of a block, the images nearest its middle cell, need not be those
    nearest each boid."""
    least = 2 * reach + 2
    width = cells.width if cells.wrap and cells.nx < least else 0.0
    height = cells.height if cells.wrap and cells.ny < least else 0.0
    return width, height


@numba.njit(cache=True, nogil=True, fastmath=SIMD, error_model="numpy")
def nearest_images(
    m: int,
    xs: FloatArray,
    ys: FloatArray,
    x: float,
    y: float,
    torus: tuple[float, float],
    to_x: FloatArray,
    to_y: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """The first m copies of a block (`xs`, `ys`: the images nearest its middle cell) as the
    images nearest (x, y) along the axes where `torus` (`small_torus`) is not 0, written
    into `to_x`, `to_y`; returns the arrays to read (the copies themselves along an axis
    that needs no move). Written apart, not in place: a copy moved by the world's size and
    back is not always the same number to the last bit, and a boid's own copy must stay
    exactly on it (`plain_sums` counts the boids on its very spot)."""
    width, height = torus
    if width:
        _nearest_along(m, xs, x, width, to_x)
        xs = to_x
    if height:
        _nearest_along(m, ys, y, height, to_y)
        ys = to_y
    return xs, ys


@numba.njit(cache=True, nogil=True, fastmath=SIMD, error_model="numpy", inline="always")
def _nearest_along(m: int, values: FloatArray, centre: float, size: float, to: FloatArray) -> None:
    # `maths.wrap_offset`'s formula, applied to the copy rather than to the offset: a copy
    # that needs no move stays the very number copied (centre + offset need not be), so a
    # boid's own copy stays exactly on it.
    inv_size = 1.0 / size
    for t in range(m):
        to[t] = values[t] - size * np.floor((values[t] - centre) * inv_size + 0.5)


@njit_no_refcount(cache=True, nogil=True, fastmath=SIMD, error_model="numpy")
def plain_boid(
    boid: Boid,
    params: FloatArray,
    dt: float,
    m: int,
    alarmed: bool,
    copied: bool,
    xs: FloatArray,
    ys: FloatArray,
    mates: Flockmates,
) -> tuple[bool, PlainSums, AlarmSums]:
    """The sums of a boid (species s at (x, y) moving at (vx, vy)) over the first m boids of
    its cell's block (`copy_block`: positions `xs`, `ys`, the rest in `mates`; `alarmed`:
    one of them is alarmed; `copied`: the boid itself is one of them, which it is unless
    its cell is crowded and read by sample), and whether the fast path holds for it:
    (False, zeros) where another boid stands on its very spot (the general path's push
    parts them), or where it sees more flockmates than its species' cap (the general path
    keeps the nearest).

    A call, not inlined: an inlined function's array arguments each count a reference up
    and down per boid (atomic operations: measured 7.1 against 10.3 ms a step at 10,000
    boids, one thread). `plain_sums` is inlined into it (a call there measured 11 ms)."""
    s, x, y, vx, vy = boid
    cos_half = params[s, P_COS_HALF_FOV]
    all_round, hx, hy = heading(vx, vy, cos_half)
    perception = params[s, P_PERCEPTION]
    falloff = int(params[s, P_FALLOFF])
    power = 0 if falloff == FALLOFF_LINEAR else (2 if falloff == FALLOFF_SQUARE else 1)
    shift = 1.0 if falloff == FALLOFF_SOFT else 0.0
    radii = (perception, params[s, P_ALIGNMENT_RADIUS], params[s, P_SEPARATION])
    pace = (params[s, P_ALARM_SPEED], dt)
    # A call for each value of `alarmed` and `all_round`, each a constant in its call: the
    # compiler makes a loop for each (one loop that tested `alarmed` kept the calm flock's
    # loop from running in SIMD: 30 % slower; one that sees all round skips the test of
    # the field of view).
    at, fall = (x, y), (power, shift)
    if alarmed:
        if all_round:
            view = (cos_half, True, hx, hy)
            here, sums, alarm_v = plain_sums(m, xs, ys, mates, at, view, radii, fall, True, pace)
        else:
            view = (cos_half, False, hx, hy)
            here, sums, alarm_v = plain_sums(m, xs, ys, mates, at, view, radii, fall, True, pace)
    elif all_round:
        view = (cos_half, True, hx, hy)
        here, sums, alarm_v = plain_sums(m, xs, ys, mates, at, view, radii, fall, False, pace)
    else:
        view = (cos_half, False, hx, hy)
        here, sums, alarm_v = plain_sums(m, xs, ys, mates, at, view, radii, fall, False, pace)
    if here > copied or sums[0] > params[s, P_MAX_NEIGHBOURS]:
        return False, NO_SUMS, NO_ALARM
    if not alarmed:
        return True, sums, NO_ALARM
    # (0, 0) and no velocities: none reached.
    top, lead = loudest_alarm(m, mates.reached, mates.leads)
    return True, sums, (top, lead, alarm_v[0], alarm_v[1])


@njit_no_refcount(cache=True, nogil=True, fastmath=SIMD, error_model="numpy")
def plain_others(
    boid: Boid,
    row: int,
    params: FloatArray,
    sums: PlainSums,
    m: int,
    relation: IntArray,
    xs: FloatArray,
    ys: FloatArray,
    vxs: FloatArray,
    vys: FloatArray,
) -> tuple[bool, PlainSums, ThreatSums]:
    """A plain boid's sums (`boid`: of species s, at (x, y), moving at (vx, vy); store row `row`)
    with the boids of other species in its block added: the first m of the block's foreign
    copies (`copy_block`: each one's relation to species s, position, velocity). An avoided
    boid it sees pushes it off as a flockmate inside the separation radius would, out to
    its perception radius; a predator it senses (all round) within its fear radius makes it
    flee. (False, zeros) where one stands on its very spot or it sees more boids than its
    species' cap (the general path parts them, or keeps the nearest)."""
    s, x, y, vx, vy = boid
    cos_half = params[s, P_COS_HALF_FOV]
    all_round, hx, hy = heading(vx, vy, cos_half)
    perception = params[s, P_PERCEPTION]
    fear = params[s, P_FEAR_RADIUS]
    max_speed = params[s, P_MAX_SPEED]
    falloff = int(params[s, P_FALLOFF])
    r2 = perception * perception
    count, sum_dx, sum_dy, aligned, sum_vx, sum_vy, separated, sep_x, sep_y = sums
    others = int(0)  # typed from the start, as in `plain_sums`
    threatened = bool(False)
    flee_x = flee_y = 0.0
    for t in range(m):
        dx = xs[t] - x
        dy = ys[t] - y
        d2 = dx * dx + dy * dy
        if d2 > r2:
            continue
        if d2 == 0.0:
            return False, NO_SUMS, NO_THREAT
        d = math.sqrt(d2)
        if relation[t] == RELATION_FLEE:  # sensed all round (`vision`)
            others += 1
            if d < fear:
                threatened = True
                fx, fy = flight(dx, dy, d, vxs[t], vys[t], vx, vy, max_speed, row)
                flee_x += fx * fear
                flee_y += fy * fear
        elif all_round or hx * dx + hy * dy >= cos_half * d:  # avoided, in view
            others += 1
            separated += 1
            px, py = push(dx, dy, d, perception, falloff)
            sep_x += px
            sep_y += py
    if count + others > params[s, P_MAX_NEIGHBOURS]:
        return False, NO_SUMS, NO_THREAT
    sums = (count, sum_dx, sum_dy, aligned, sum_vx, sum_vy, separated, sep_x, sep_y)
    return True, sums, (threatened, flee_x, flee_y)


@njit_no_refcount(cache=True, nogil=True)
def block_ready(s: int, at: IntArray, params: FloatArray) -> bool:
    """Whether the block copied last (`copy_block`, `at`: `Block.plain_at`) may serve a boid
    of species s: it was copied for species s, every other species in it is one species s
    avoids, flees or ignores, and the species' cap on neighbours cannot bite (a block larger
    than a cap that was set leaves its boids to the general path at once; with no cap set,
    `plain_boid` and `plain_others` check the boids it sees)."""
    cap = params[s, P_MAX_NEIGHBOURS]
    return bool(
        at[AT_READY] == 1 and (at[AT_COUNT] + at[AT_OTHERS] - 1 < cap or cap >= NEIGHBOUR_LIMIT)
    )


@njit_no_refcount(cache=True, nogil=True)
def in_block(i: int, at: IntArray) -> bool:
    """Whether slot i (of the block's own cell) was copied: its cell is read whole, or by a
    sample that takes it."""
    return bool((i - at[AT_FIRST]) % at[AT_STRIDE] == 0)


@numba.njit(cache=True, nogil=True)
def plain_gather(
    i: int, cells: Cells, alarm_age: FloatArray, rules: SpeciesRules, dt: float, block: Block
) -> tuple[bool, PlainSums, AlarmSums, ThreatSums]:
    """Slot i's sums by the fast path, and whether it could take it (see this module's
    docstring); (False, zeros) where the general path must run. One boid at a time, for
    the debugger and tests: the steering's boid loop runs the same steps (`route.plain_species`,
    `copy_block`, `block_ready`, `plain_boid`, `plain_others`) with the arrays read out
    once. `alarm_age` is in row order (`FlockStore`)."""
    params, relations = rules.params, rules.relations
    s, c = cells.species[i], cells.cell[i]
    reach = plain_species(cells, rules)[s]
    if not reach:
        return False, NO_SUMS, NO_ALARM, NO_THREAT
    at = block.plain_at
    if at[AT_CELL] != c or at[AT_SPECIES] != s:
        copy_block(c, s, reach, cells, alarm_age, relations, block)
    if not block_ready(s, at, params):
        return False, NO_SUMS, NO_ALARM, NO_THREAT
    x, y, vx, vy = cells.x[i], cells.y[i], cells.vx[i], cells.vy[i]
    torus = small_torus(cells, reach)
    m, others = at[AT_COUNT], at[AT_OTHERS]
    block_x, block_y = nearest_images(
        m, block.plain_x, block.plain_y, x, y, torus, block.image_x, block.image_y
    )
    other_x, other_y = nearest_images(
        others, block.other_x, block.other_y, x, y, torus, block.image_x[m:], block.image_y[m:]
    )
    boid = (s, x, y, vx, vy)
    alarmed, copied = at[AT_ALARMED] == 1, in_block(i, at)
    mates = flockmates(block)
    plain, sums, heard = plain_boid(boid, params, dt, m, alarmed, copied, block_x, block_y, mates)
    if not (plain and others):
        return plain, sums, heard, NO_THREAT
    plain, sums, threat = plain_others(
        boid, cells.row[i], params, sums, others, block.other_relation, other_x, other_y,
        block.other_vx, block.other_vy,
    )  # fmt: skip
    return plain, sums, heard if plain else NO_ALARM, threat


@njit_no_refcount(cache=True, nogil=True)
def copy_block(
    c: int,
    s: int,
    reach: int,
    cells: Cells,
    alarm_age: FloatArray,
    relations: IntArray,
    block: Block,
) -> None:
    """Fill `block` for the boids of species s in cell c: whether the fast path may
    read the block (every other species in it is one that s avoids, flees or ignores), how
    many of its boids are of species s, whether one is alarmed, where cell c's copies start
    and their stride, the species it was copied for and how many foreign boids it holds;
    if it may, the positions, velocities and alarms of its boids of species s and (in
    `block.other_*`) the relations, positions and velocities of the others (those s ignores
    are left out). A cell more crowded than `CELL_SAMPLE` is copied by the evenly spaced
    sample that `seen` reads of it. The block (`reach` rings of cells round cell c) is
    copied a column of cells (contiguous slots) at a time; a column or row across a
    torus's edge is moved by the world's width or height, so that every position is the
    image nearest cell c."""
    # Every array is read out of its tuple once, here, before the loops: compiled with
    # reference counting (as it was), each read inside them counted a reference up and down
    # for each boid copied; compiled without (core/refcount.py), the loops stay as lean.
    nx, ny, wrap = cells.nx, cells.ny, cells.wrap
    starts, xs, ys, vxs, vys = cells.cell_start, cells.x, cells.y, cells.vx, cells.vy
    cell_species, cell_alarmed = cells.cell_species, cells.cell_alarmed
    levels, rows, species = cells.alarm, cells.row, cells.species
    to_x, to_y, to_vx, to_vy = block.plain_x, block.plain_y, block.plain_vx, block.plain_vy
    to_level, to_age = block.plain_alarm, block.plain_age
    other_relation, other_x, other_y = block.other_relation, block.other_x, block.other_y
    other_vx, other_vy = block.other_vx, block.other_vy
    cx, cy = c // ny, c % ny
    down_x, up_x = ring_offsets(cx, reach, nx, wrap)
    down_y, up_y = ring_offsets(cy, reach, ny, wrap)
    at = block.plain_at
    (
        at[AT_CELL],
        at[AT_COUNT],
        at[AT_READY],
        at[AT_ALARMED],
        at[AT_FIRST],
        at[AT_STRIDE],
        at[AT_SPECIES],
        at[AT_OTHERS],
    ) = c, 0, 0, 0, 0, 1, s, 0
    alarmed = bool(False)  # typed from the start, as in `plain_sums`
    m = others = int(0)
    for ox in range(-down_x, up_x + 1):
        gx, shift_x = _across_edge(cx + ox, nx, cells.width)
        for oy in range(-down_y, up_y + 1):
            gy, shift_y = _across_edge(cy + oy, ny, cells.height)
            g = gx * ny + gy
            first, last = starts[g], starts[g + 1]
            mixed = cell_species[g] != s and cell_species[g] != -2
            stride = sample_stride(last - first)  # as `seen` reads it
            if g == c:
                at[AT_FIRST], at[AT_STRIDE] = first, stride
            # Alarm ages are by row: read only where the cell holds an alarm.
            alarmed_cell = cell_alarmed[g] != 0
            alarmed |= alarmed_cell
            for j in range(first, last, stride):
                if mixed and species[j] != s:
                    relation = relations[s, species[j]]
                    if relation == RELATION_IGNORE:
                        continue
                    if relation != RELATION_AVOID and relation != RELATION_FLEE:
                        return
                    other_relation[others] = relation
                    other_x[others], other_y[others] = xs[j] + shift_x, ys[j] + shift_y
                    other_vx[others], other_vy[others] = vxs[j], vys[j]
                    others += 1
                    continue
                to_x[m], to_y[m] = xs[j] + shift_x, ys[j] + shift_y
                to_vx[m], to_vy[m] = vxs[j], vys[j]
                level = levels[j] if alarmed_cell else 0.0
                to_level[m] = level
                to_age[m] = alarm_age[rows[j]] if level else 0.0
                m += 1
    at[AT_COUNT], at[AT_READY], at[AT_ALARMED], at[AT_OTHERS] = m, 1, alarmed, others


@numba.njit(cache=True, nogil=True)
def _across_edge(index: int, count: int, size: float) -> tuple[int, float]:
    """A cell index outside [0, count), by less than `count` (the rings of `ring_offsets`,
    one or two), brought back across a torus's edge, and how far its boids must move to be
    the images nearest the inside (0 where it is inside)."""
    if index < 0:
        return index + count, -size
    if index >= count:
        return index - count, size
    return index, 0.0


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def plain_terms(
    s: int,
    at: tuple[float, float],
    vx: float,
    vy: float,
    before: float,
    bursting: bool,
    params: FloatArray,
    dt: float,
    world: tuple[float, float, bool],
    sums: PlainSums,
    heard: AlarmSums,
    threat: ThreatSums,
) -> Terms:
    """`general.general_terms` of a plain boid of species s (`plain.py`) at `at` (from the world's
    lower-left corner) moving at (vx, vy), alarmed at level `before`, from its sums (over
    its flockmates and the boids it avoids), the alarm that reached it and the predators it
    senses: nothing it sees is a prey."""
    count, sum_dx, sum_dy, aligned, sum_vx, sum_vy, separated, sep_x, sep_y = sums
    sep_x, sep_y = separation(params, s, at, world, separated, sep_x, sep_y)
    sx, sy, alx, aly, cx, cy, limit = flocking(
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
    slot: int,
    cells: Cells,
    burst: FloatArray,
    params: FloatArray,
    dt: float,
    origin: tuple[float, float],
    sums: PlainSums,
    heard: AlarmSums,
    threat: ThreatSums,
) -> Terms:
    """`plain_terms` of one slot, its numbers read from `cells` (for `rule_forces` and
    tests; the boid loop of `steer` reads them from arrays it took out of `cells` once)."""
    return plain_terms(
        cells.species[slot], (cells.x[slot] - origin[0], cells.y[slot] - origin[1]),
        cells.vx[slot], cells.vy[slot], cells.alarm[slot], burst[cells.row[slot]] > 0.0,
        params, dt, (cells.width, cells.height, cells.wrap), sums, heard, threat,
    )  # fmt: skip
