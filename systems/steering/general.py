"""The steering's general path: a boid's terms from the neighbours it sees (`general_terms`),
for any boid, reading every species parameter.

Phases per boid: look (`shoal.systems.core.vision.seen`: the neighbours it sees, in cell
order, into a list) → gather (sums over them, by relation and zone) → combine (by steering
style, `styles.py`) → its terms (`terms.Terms`). The fast path (`plain.py`) gives the same
terms for the boids it serves; `route.py` says which.

Flockmates give separation, alignment and cohesion (the walls of a contain world count as
neighbours for a species whose `walls` are ``neighbours``); avoided species add to
separation out to the perception radius; predators it flees give evasion (with prediction,
out of the predator's path: the fountain) and raise its alarm, which spreads to flockmates
at the species' alarm speed; prey it chases give pursuit (with prediction) and a catch
target.
"""

import math

import numba

from shoal.systems.core.maths import MAX_PREDICTION, seek
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    FALLOFF_LINEAR,
    P_ALARM_SPEED,
    P_ALIGNMENT_RADIUS,
    P_CHASE_WEIGHT,
    P_FALLOFF,
    P_FEAR_RADIUS,
    P_MAX_FORCE,
    P_MAX_SPEED,
    P_PERCEPTION,
    P_SEPARATION,
    P_STYLE,
    RELATION_AVOID,
    RELATION_CHASE,
    RELATION_FLEE,
    RELATION_FLOCK,
    STYLE_ACCUMULATE,
    STYLE_REYNOLDS,
    STYLE_TURN,
    STYLE_ZONES,
)
from shoal.systems.core.store import IntArray
from shoal.systems.core.vision import Cells, Seen, seen
from shoal.systems.steering.records import BoidState, SpeciesRules
from shoal.systems.steering.styles import MAX_SEPARATION_FACTOR, flocking, push, separation
from shoal.systems.steering.styles import turn as turn_style
from shoal.systems.steering.styles import zones as zones_style
from shoal.systems.steering.terms import Terms
from shoal.systems.steering.threat import fleeing, flight

_GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def general_terms(
    i: int,
    cells: Cells,
    state: BoidState,
    rules: SpeciesRules,
    dt: float,
    origin: tuple[float, float],
    slack: float,
    out: Seen,
) -> Terms:
    """Slot i's terms (see `Terms`), from the neighbours it sees (written into `out`; `slack`:
    see `seen`): the general path, for any boid (`plain.plain_terms` is the fast one, for
    the boids `route.plain_species` lets through)."""
    params, relations = rules.params, rules.relations
    cooldown, alarm_age, burst = state.cooldown, state.alarm_age, state.burst
    slot_vel, slot_species = cells.velocities, cells.species
    slot_row, slot_alarm = cells.row, cells.alarm
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
    # int(0), not 0: numba compiles each callee a counter that starts as the literal 0
    # is handed to twice (once for the literal, as it infers the types): seconds at install.
    count = aligned = separated = repelled = attracted = int(0)
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
    threatened = bool(False)  # the same for the literal False
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
    sep_x, sep_y = separation(params, s, at, world, separated, sep_x, sep_y)
    # --- combine ------------------------------------------------------------------------
    if style in (STYLE_REYNOLDS, STYLE_ACCUMULATE):
        sx, sy, alx, aly, cx, cy, limit = flocking(
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


@njit_no_refcount(cache=True, nogil=True)
def _push(
    i: int,
    j: int,
    slot_row: IntArray,
    dx: float,
    dy: float,
    d: float,
    radius: float,
    falloff: int,
) -> tuple[float, float]:
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
def _away(dx: float, dy: float, wx: float, wy: float) -> float:
    """Turn style: the heading that turns away from the nearest, its heading + 180° (from
    its position if it stands still)."""
    if wx != 0.0 or wy != 0.0:
        return math.atan2(-wy, -wx)
    return math.atan2(-dy, -dx)
