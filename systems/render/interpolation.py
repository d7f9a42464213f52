"""What is drawn between fixed steps: each boid's last two positions and drawn headings.

The simulation steps on a fixed clock; the screen refreshes at its own rate. Drawing the
latest step as is makes motion stutter whenever the two rates beat against each other, so
the renderer keeps every boid's state at the previous and at the latest step and draws the
blend ``previous + alpha * (latest - previous)``, alpha being how far the fixed clock is
into the next step (arcade's `GLOBAL_FIXED_CLOCK.fraction`). Drawn motion then lags the
simulation by at most one step, and what is drawn depends only on the steps taken and on
alpha, never on how many frames were drawn in between.
"""

from dataclasses import dataclass

import numpy as np

from shoal.systems.core.store import FloatArray, IntArray, index_in
from shoal.systems.render.drawing import between_into, turn_into
from shoal.systems.render.headings import (
    MAX_LAG,
    STILL_SPEED,
    heading_degrees,
    kernel_floats,
    still,
)

WorldSize = tuple[float, float]
"""Width and height of a torus world (positions wrap at them)."""


@dataclass(slots=True)
class DrawHistory:
    """Per boid, in the store's row order as of the last `follow`: its state at two steps.

    Attributes:
        entities: entity of each row.
        previous, latest: positions at the previous and the latest fixed step, (n, 2).
        previous_angles, latest_angles: smoothed drawn headings then (arcade degrees).
    """

    entities: IntArray
    previous: FloatArray
    latest: FloatArray
    previous_angles: FloatArray
    latest_angles: FloatArray

    @classmethod
    def empty(cls) -> "DrawHistory":
        """No boids."""
        return cls(np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros((0, 2)), *[np.zeros(0)] * 2)

    def __len__(self) -> int:
        return len(self.entities)

    def matches(self, entities: IntArray) -> bool:
        """True when the rows are already those of `entities`."""
        return len(entities) == len(self.entities) and bool(np.array_equal(entities, self.entities))

    def follow(
        self, entities: IntArray, positions: FloatArray, velocities: FloatArray
    ) -> "DrawHistory":
        """This history in the rows of `entities`, the store's rows now.

        Boids it knew keep their history wherever swap-remove moved them; deleted ones are
        dropped; new ones start at rest at `positions`, facing along `velocities`. Returns
        self when nothing changed, else a new history (self is not modified).
        """
        if self.matches(entities):
            return self
        start_angles = np.where(still(velocities), 0.0, heading_degrees(velocities))
        if len(self) == 0:
            return DrawHistory(
                entities.copy(), positions.copy(), positions.copy(), start_angles, start_angles
            )
        source, known = index_in(self.entities, entities)
        fresh = ~known
        pick_rows = known[:, None]
        return DrawHistory(
            entities.copy(),
            np.where(pick_rows, self.previous[source], positions),
            np.where(pick_rows, self.latest[source], positions),
            np.where(fresh, start_angles, self.previous_angles[source]),
            np.where(fresh, start_angles, self.latest_angles[source]),
        )

    def advance(self, positions: FloatArray, velocities: FloatArray, factors: FloatArray) -> None:
        """Record a fixed step: latest becomes previous; smooth the headings towards the
        velocities by `factors` (see `shoal.systems.headings.blend_factors`)."""
        self.previous, self.latest = self.latest, positions.copy()
        self.previous_angles = self.latest_angles
        self.latest_angles = np.empty(len(positions))
        turn_into(
            self.previous_angles, kernel_floats(velocities), kernel_floats(factors), STILL_SPEED,
            MAX_LAG, self.latest_angles,
        )  # fmt: skip

    def snap(self, positions: FloatArray, velocities: FloatArray) -> None:
        """Forget the past: draw every boid at `positions`, facing along `velocities` (boids
        at rest keep their heading)."""
        self.previous, self.latest = positions.copy(), positions.copy()
        angles = np.where(still(velocities), self.latest_angles, heading_degrees(velocities))
        self.previous_angles, self.latest_angles = angles, angles.copy()

    def frame(
        self,
        alpha: float,
        torus: WorldSize | None,
        origin: tuple[float, float] = (0.0, 0.0),
    ) -> tuple[FloatArray, FloatArray]:
        """Positions and angles to draw `alpha` (0..1) of the way from previous to latest
        (`torus`, `origin`: the size and corner of a torus world): angles turn the short
        way round; in a torus a boid that crossed an edge moves the short way, across the
        edge, and is drawn wrapped back into the world (it never sweeps across the screen).
        At 0 and 1 the recorded arrays themselves."""
        if alpha >= 1.0:
            return self.latest, self.latest_angles
        if alpha <= 0.0:
            return self.previous, self.previous_angles
        positions, angles = np.empty((len(self), 2)), np.empty(len(self))
        previous, latest = self.previous_angles, self.latest_angles
        between_into(
            self.previous, self.latest, previous, latest, float(alpha), _torus(torus, origin),
            positions, angles,
        )  # fmt: skip
        return positions, angles


def _torus(
    torus: WorldSize | None, origin: tuple[float, float]
) -> tuple[float, float, float, float]:
    """A torus world's size and corner as `between_into` takes them (floats: the one type
    it was compiled for); sizes 0, no wrapping, for any other world."""
    if torus is None:
        return 0.0, 0.0, 0.0, 0.0
    return float(torus[0]), float(torus[1]), float(origin[0]), float(origin[1])
