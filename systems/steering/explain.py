"""One boid's steering terms as the steering stage computed them at the last step: what the
debug overlay shows when it explains a fish, and what `warm_up` compiles ahead."""

from shoal.systems.core.store import FloatArray
from shoal.systems.core.vision import cells_record
from shoal.systems.flock.flock import Flock
from shoal.systems.steering.kernel import rule_forces
from shoal.systems.steering.route import rules_of


def rule_terms(flock: Flock, slot: int) -> FloatArray:
    """The steering kernel's terms for `slot` (cell order), as the rows of a (5, 2) array in
    the order of `RULES`, from the cells of the last step (what the boid saw then).

    Besides `SteeringSystem.run`, the one place that knows `rule_forces`' arguments: keep
    the two in step.
    """
    step, table, store = flock.step_state, flock.species, flock.store
    if not 0 <= slot < len(step.cells.row):  # the kernel does not check: it would crash
        raise IndexError(f"rule_terms: slot {slot} not in the last step's {len(step.cells.row)}")
    state = (store.cooldown, store.alarm_age, store.burst)
    terms: FloatArray = rule_forces(
        slot, cells_record(step.cells), state, rules_of(table), step.dt, flock.config.origin
    )
    return terms
