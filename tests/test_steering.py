"""rule_forces() shows exactly the terms that steering applies."""

import esper
import numpy as np
import pytest

from shoal.components import STEERING_STYLES, Species
from shoal.systems import FlockConfig, NeighbourSystem, SteeringSystem, install
from shoal.systems.steering.kernel import rule_forces


@pytest.mark.parametrize("style", STEERING_STYLES)
def test_rule_forces_sum_to_the_applied_acceleration(style: str) -> None:
    sp = Species("fish", steering=style, max_force=120.0)
    flock = install(FlockConfig(width=300, height=300, seed=2, boundary="wrap"), [sp])
    flock.scatter("fish", 200, centre=(150, 150), radius=60)
    for system in (NeighbourSystem, SteeringSystem):
        stage = esper.get_processor(system)
        assert stage is not None
        stage.process(1 / 60)
    cells, table = flock.step_state.cells, flock.species
    for slot in range(0, 200, 7):
        store = flock.store
        terms = rule_forces(
            slot, cells, store.cooldown, store.alarm_age, store.burst, table.params,
            table.relations, 1 / 60, flock.config.origin,
        )  # fmt: skip
        total = terms[:3].sum(axis=0)
        if style not in ("turn", "zones"):  # their turns are limited, not their sum
            length = np.linalg.norm(total)
            total = total * min(1.0, sp.max_force / length) if length else total
        total = total + terms[3] + terms[4]
        assert np.allclose(total, flock.store.accelerations[cells.row[slot]], atol=1e-9)
    assert np.any(flock.store.accelerations != 0)
