"""A boid's steering terms, as both paths hand them on (`Terms`, read by name: the T_*
constants), and how they are written into its row (`write_terms`)."""

from typing import Final, cast

import numpy as np

from shoal.systems.core.maths import clamp_length
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.store import FloatArray
from shoal.systems.steering.records import Steered

RULES = ("separation", "alignment", "cohesion", "flee", "chase")
"""The rows of `kernel.rule_forces`, in order."""
NO_PREY = cast(int, np.int64(-1))  # typed: a literal -1 would give a second specialization

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
"""The terms, in the order of the T_* constants (one line: a type, not a list to read)."""


@njit_no_refcount(cache=True, nogil=True)
def write_terms(row: int, target: int, t: Terms, out: Steered) -> None:
    """Store a boid's terms in its row: clamp(flocking, limit) + flee + chase, its alarm and
    target (the row of the prey it chases, -1: none), and its flee (from a predator it sees,
    not a scared neighbour) and chase terms as goals."""
    accelerations, goals = out.accelerations, out.goals
    ax, ay = clamp_length(
        t[T_SEPARATION_X] + t[T_ALIGNMENT_X] + t[T_COHESION_X],
        t[T_SEPARATION_Y] + t[T_ALIGNMENT_Y] + t[T_COHESION_Y],
        t[T_LIMIT],
    )
    accelerations[row, 0] = ax + t[T_FLEE_X] + t[T_CHASE_X]
    accelerations[row, 1] = ay + t[T_FLEE_Y] + t[T_CHASE_Y]
    out.alarm[row] = t[T_ALARM]
    out.alarm_lead[row] = t[T_ALARM_LEAD]
    out.target_row[row] = target
    fled = t[T_ALARM] == 1.0  # alarm 1: it flees a predator it sees
    goals[row, 0], goals[row, 1] = (t[T_FLEE_X], t[T_FLEE_Y]) if fled else (0.0, 0.0)
    goals[row, 2], goals[row, 3] = t[T_CHASE_X], t[T_CHASE_Y]


@njit_no_refcount(cache=True, nogil=True)
def terms_into(t: Terms, to: FloatArray) -> None:
    """Write the terms into `to`, each at its slot (`T_*`): for tests and debugging."""
    to[T_SEPARATION_X], to[T_SEPARATION_Y] = t[T_SEPARATION_X], t[T_SEPARATION_Y]
    to[T_ALIGNMENT_X], to[T_ALIGNMENT_Y] = t[T_ALIGNMENT_X], t[T_ALIGNMENT_Y]
    to[T_COHESION_X], to[T_COHESION_Y] = t[T_COHESION_X], t[T_COHESION_Y]
    to[T_FLEE_X], to[T_FLEE_Y] = t[T_FLEE_X], t[T_FLEE_Y]
    to[T_CHASE_X], to[T_CHASE_Y] = t[T_CHASE_X], t[T_CHASE_Y]
    to[T_LIMIT], to[T_ALARM] = t[T_LIMIT], t[T_ALARM]
    to[T_PREY], to[T_ALARM_LEAD] = t[T_PREY], t[T_ALARM_LEAD]


T_SLOTS: Final = {name: value for name, value in dict(globals()).items() if name.startswith("T_")}
"""Every T_* constant by name."""
