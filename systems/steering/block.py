"""The steering's fast path's buffers (`plain.py`): its copy of a block of cells round a
boid's own, made once per cell and species (`plain.copy_block`), and its scratch.

Apart from the vision's buffers (`core.vision.Seen`, which the general path, the neighbour
lists and the debug overlay share): only the steering reads these.
"""

from typing import Final, NamedTuple

import numba
import numpy as np

from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import CELL_SAMPLE

PLAIN_REACH = 2
"""The most rings of cells round its own that the steering's fast path reads for a boid."""
PLAIN_BLOCK = (2 * PLAIN_REACH + 1) ** 2 * CELL_SAMPLE
"""Room for the boids of `PLAIN_REACH` rings of cells (see `Block.plain_at`)."""


# The fields of `Block.plain_at`, by name (the kernels read them as compile-time constants).
AT_CELL: Final = 0  # the cell the block is round
AT_COUNT: Final = 1  # how many boids of species AT_SPECIES the block holds
AT_READY: Final = 2  # 1 if the fast path may read them
AT_ALARMED: Final = 3  # 1 if one of them is alarmed
AT_FIRST: Final = 4  # the first slot of the copies of cell AT_CELL itself
AT_STRIDE: Final = 5  # and their stride
AT_SPECIES: Final = 6  # the species the block was copied for
AT_OTHERS: Final = 7  # how many boids of other species it holds
AT_FIELDS: Final = 8


class Block(NamedTuple):
    """The fast path's copy of the block of cells round cell plain_at[AT_CELL], for the
    boids of species plain_at[AT_SPECIES] (the fields of `plain_at`: the AT_* constants):
    if the fast path may read them, their positions (as the nearest images to that cell's:
    no wrap needed), velocities, alarm levels and the ages of their alarms; and the others'
    relations (from that species), positions, velocities. Buffers of `PLAIN_BLOCK` entries.
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


class Flockmates(NamedTuple):
    """The copies of a `Block`'s boids of the species it was copied for, but their positions
    (which a torus may move to each boid's nearest images, `plain.nearest_images`): their
    velocities, alarm levels and the ages of their alarms; and the scratch of
    `plain.plain_sums` (`reached`, `leads`)."""

    vx: FloatArray
    vy: FloatArray
    alarm: FloatArray
    age: FloatArray
    reached: FloatArray
    leads: FloatArray


@numba.njit(cache=True, nogil=True)
def flockmates(block: Block) -> Flockmates:
    """The `Flockmates` of `block` (its arrays, not copies)."""
    vx, vy, alarm, age = block.plain_vx, block.plain_vy, block.plain_alarm, block.plain_age
    return Flockmates(vx, vy, alarm, age, block.reached, block.leads)


@numba.njit(cache=True, nogil=True)
def block_buffers() -> Block:
    """Empty `Block` buffers (one set per thread, and per `Cells`: the copy belongs to the
    cells it was read from)."""
    plain = PLAIN_BLOCK
    return Block(
        np.full(AT_FIELDS, -1, np.int64), np.empty(plain), np.empty(plain), np.empty(plain),
        np.empty(plain), np.empty(plain), np.empty(plain), np.empty(plain, np.int64),
        np.empty(plain), np.empty(plain), np.empty(plain), np.empty(plain), np.empty(plain),
        np.empty(plain), np.empty(plain), np.empty(plain),
    )  # fmt: skip
