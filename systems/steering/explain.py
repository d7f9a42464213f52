"""One boid's steering terms as the steering stage computed them at the last step: what the
debug overlay shows when it explains a fish, and what `warm_up` compiles ahead."""

from shoal.systems.core.flock import Flock
from shoal.systems.core.store import FloatArray
from shoal.systems.steering.kernel import rule_forces


def rule_terms(flock: Flock, slot: int) -> FloatArray:
    """The steering kernel's terms for `slot` (cell order), as the rows of a (5, 2) array in
    the order of `RULES`, from the neighbours of the last step.

    Besides `SteeringSystem.run`, the one place that knows `rule_forces`' arguments: keep
    the two in step.
    """
    nb, store, table = flock.neighbours, flock.store, flock.species
    terms: FloatArray = rule_forces(
        slot, nb.slot_velocities, nb.slot_species, nb.order, store.alarm[nb.order],
        store.cooldown, table.params, table.relations, nb.start, nb.stop, nb.slots,
        nb.dx, nb.dy, nb.dist, flock.config.dt,
    )  # fmt: skip
    return terms
