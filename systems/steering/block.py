"""The steering's fast path's buffers (`plain.py`): its copy of a block of cells round a
boid's own, made once per cell and species (`plain.copy_block`), and its scratch.

Apart from the vision's buffers (`core.vision.Seen`, which the general path, the neighbour
lists and the debug overlay share): only the steering reads these.
"""

from typing import NamedTuple

import numba
import numpy as np

from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import CELL_SAMPLE

PLAIN_REACH = 2
"""The most rings of cells round its own that the steering's fast path reads for a boid."""
PLAIN_BLOCK = (2 * PLAIN_REACH + 1) ** 2 * CELL_SAMPLE
"""Room for the boids of `PLAIN_REACH` rings of cells (see `Block.plain_at`)."""


class Block(NamedTuple):
    """The fast path's copy of the block of cells round cell plain_at[0], for the boids of
    species plain_at[6]: how many boids of that species the block holds (plain_at[1]), 1 if
    the fast path may read them (plain_at[2]), 1 if one of them is alarmed (plain_at[3]),
    the first slot and the stride of the copies of cell plain_at[0] itself (plain_at[4:6]),
    how many boids of other species it holds (plain_at[7]); if it may, their positions (as
    the nearest images to that cell's: no wrap needed), velocities, alarm levels and the
    ages of their alarms; and the others' relations (from species plain_at[6]), positions,
    velocities. Buffers of `PLAIN_BLOCK` entries.
    """

    plain_at: IntArray
    plain_x: FloatArray
    plain_y: FloatArray
    plain_vx: FloatArray
    plain_vy: FloatArray
    plain_alarm: FloatArray
    plain_age: FloatArray
    other_relation: IntArray
    other_x: FloatArray
    other_y: FloatArray
    other_vx: FloatArray
    other_vy: FloatArray
    # On a torus too few cells across (`plain.small_torus`), the block's copies (plain_x,
    # plain_y, then other_x, other_y) moved to the images nearest one boid
    # (`plain.nearest_images`).
    image_x: FloatArray
    image_y: FloatArray
    # Scratch for `plain.plain_boid` (`reached`, `leads`: see `plain.plain_sums`).
    reached: FloatArray
    leads: FloatArray


@numba.njit(cache=True, nogil=True)
def block_buffers() -> Block:
    """Empty `Block` buffers (one set per thread, and per `Cells`: the copy belongs to the
    cells it was read from)."""
    plain = PLAIN_BLOCK
    return Block(
        np.full(8, -1, np.int64), np.empty(plain), np.empty(plain), np.empty(plain),
        np.empty(plain), np.empty(plain), np.empty(plain), np.empty(plain, np.int64),
        np.empty(plain), np.empty(plain), np.empty(plain), np.empty(plain), np.empty(plain),
        np.empty(plain), np.empty(plain), np.empty(plain),
    )  # fmt: skip
