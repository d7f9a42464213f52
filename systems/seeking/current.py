"""The world's current: a steady push on every boid, less the share its species swims against."""

import numpy as np

from shoal.systems.core.species_table import P_RHEOTAXIS
from shoal.systems.core.store import FloatArray, IntArray


def add_current(
    current: tuple[float, float], species: IntArray, params: FloatArray, accelerations: FloatArray
) -> None:
    """Add `current` (px/s²) to each boid's acceleration, times 1 - its species' rheotaxis.

    A fish that holds its station swims against the flow it feels; the steering rules then
    act over the ground, as they do in still water. A ring of fish circling at one speed under
    a steady side push F drifts square to it at about F / ω (its turning rate), as a charged
    particle's orbit does in crossed fields: the mill preset holds its place this way.
    """
    if current == (0.0, 0.0) or len(species) == 0:
        return
    share = 1.0 - params[species, P_RHEOTAXIS]
    accelerations += share[:, None] * np.asarray(current)
