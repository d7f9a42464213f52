"""The records the steering's kernels take: a few named tuples instead of long lists of
arrays, each unpacked once per chunk of boids.

A kernel called from Python takes its records as plain tuples (`tuple(record)`): numba types
a plain tuple quickly but a named one slowly in its dispatch (~2.4 µs a call against ~0.1);
inside the kernels they are named again (``SpeciesRules(*rules)``) and read by name.
"""

from typing import NamedTuple

from shoal.systems.core.store import FloatArray, IntArray


class SpeciesRules(NamedTuple):
    """What the species are: their packed parameters (`SpeciesTable.params`), how each
    treats each other (`SpeciesTable.relations`), and the fast path's assumptions about
    the parameters it does not implement (`route.ASSUMED`: their columns and the values
    the fast path takes them to have)."""

    params: FloatArray
    relations: IntArray
    assumed_columns: IntArray
    assumed_values: FloatArray


class BoidState(NamedTuple):
    """Per-boid state the steering reads, in row order (see `FlockStore`): seconds until
    each boid may catch again, the age of its alarm, how long its burst still lasts."""

    cooldown: FloatArray
    alarm_age: FloatArray
    burst: FloatArray


class Steered(NamedTuple):
    """Where the steering writes, in row order: the accelerations, the alarm levels, how
    long before the step's end each alarm was raised, the row each boid chases (-1: none)
    and its goals (flee x, y, chase x, y)."""

    accelerations: FloatArray
    alarm: FloatArray
    alarm_lead: FloatArray
    target_row: IntArray
    goals: FloatArray


RulesRecord = tuple[FloatArray, IntArray, IntArray, FloatArray]
"""`SpeciesRules` as a plain tuple."""
StateRecord = tuple[FloatArray, FloatArray, FloatArray]
"""`BoidState` as a plain tuple."""
SteeredRecord = tuple[FloatArray, FloatArray, FloatArray, IntArray, FloatArray]
"""`Steered` as a plain tuple."""
