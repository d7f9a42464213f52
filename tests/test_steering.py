"""rule_forces() shows exactly the terms that steering applies."""

import esper
import numpy as np
import pytest

from shoal.components import STEERING_STYLES, Species
from shoal.systems import Flock, FlockConfig, NeighbourSystem, SteeringSystem, install
from shoal.systems.core.store import FloatArray
from shoal.systems.core.vision import cells_record
from shoal.systems.steering.kernel import rule_forces
from shoal.systems.steering.route import rules_of

from worlds import scratch_world


def _steered_school(sp: Species) -> Flock:
    """A school of 200 of `sp` in a 300 px torus after one step's neighbour and steering
    stages (the accelerations they applied are in the store)."""
    flock = install(FlockConfig(width=300, height=300, seed=2, boundary="wrap"), [sp])
    flock.scatter("fish", 200, centre=(150, 150), radius=60)
    for system in (NeighbourSystem, SteeringSystem):
        stage = esper.get_processor(system)
        assert stage is not None
        stage.process(1 / 60)
    return flock


@pytest.mark.parametrize("style", STEERING_STYLES)
def test_rule_forces_sum_to_the_applied_acceleration(style: str) -> None:
    sp = Species("fish", steering=style, max_force=120.0)
    flock = _steered_school(sp)
    cells, table = flock.step_state.cells, flock.species
    for slot in range(0, 200, 7):
        store = flock.store
        state = (store.cooldown, store.alarm_age, store.burst)
        terms = rule_forces(
            slot, cells_record(cells), state, rules_of(table), 1 / 60, flock.config.origin
        )
        total = terms[:3].sum(axis=0)
        if style not in ("turn", "zones"):  # their turns are limited, not their sum
            length = np.linalg.norm(total)
            total = total * min(1.0, sp.max_force / length) if length else total
        total = total + terms[3] + terms[4]
        assert np.allclose(total, flock.store.accelerations[cells.row[slot]], atol=1e-9)
    assert np.any(flock.store.accelerations != 0)


@pytest.mark.parametrize("style", ["reynolds", "accumulate"])
def test_a_rules_force_cap_leaves_the_sum_of_the_rules_unbounded(style: str) -> None:
    # FORCE_CAPS: "rules_and_sum" (the default) bounds the weighted sum of separation,
    # alignment and cohesion by max_force; "rules" (source post 003) does not.
    accelerations = {}
    for cap in ("rules_and_sum", "rules"):
        with scratch_world():
            accelerations[cap] = _applied_accelerations(style, cap)
    assert accelerations["rules_and_sum"].max() <= 40.0 + 1e-9
    assert accelerations["rules"].max() > 40.0 * 1.5


def _applied_accelerations(style: str, cap: str) -> FloatArray:
    """The accelerations steering applies to a school of 200 (max_force 40) in one step;
    checks that, with a `rules` cap, each is the plain sum of its terms."""
    sp = Species("fish", steering=style, max_force=40.0, force_cap=cap)
    flock = _steered_school(sp)
    cells, table, store = flock.step_state.cells, flock.species, flock.store
    for slot in range(0, 200, 7):
        state = (store.cooldown, store.alarm_age, store.burst)
        terms = rule_forces(
            slot, cells_record(cells), state, rules_of(table), 1 / 60, flock.config.origin
        )
        if cap == "rules":  # the applied acceleration is the plain sum of the terms
            expected = terms.sum(axis=0)
            assert np.allclose(expected, store.accelerations[cells.row[slot]], atol=1e-9)
    lengths: FloatArray = np.linalg.norm(store.accelerations[: len(store)], axis=1)
    return lengths
