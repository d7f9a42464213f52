"""Which species the steering's fast path (`plain.py`) may serve: the species parameters it
implements, declared by name, and the check of every other one against the value it assumes.

A species parameter that is not in `FAST_PATH_PARAMETERS` sends every species whose value
for it differs from its default to the general path (`general.py`, which reads every
parameter): a new parameter is right on the day it lands, and fast once it is added here,
with the differential test (tests/test_fast_path_differential.py) as the safety net.
"""

from typing import Final

import numba
import numpy as np

from shoal.components.species import SPECIES_PARAMETERS, Species
from shoal.systems.core.species_table import (
    COLUMNS,
    P_PERCEPTION,
    P_STYLE,
    RELATION_FLOCK,
    STYLE_ACCUMULATE,
    STYLE_REYNOLDS,
    SpeciesTable,
)
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import Cells
from shoal.systems.steering.block import PLAIN_REACH
from shoal.systems.steering.records import RulesRecord, SpeciesRules

FAST_PATH_PARAMETERS: Final = frozenset(
    {
        # Read by the fast path as the general path reads them, at every value.
        "perception_radius",  # within `PLAIN_REACH` rings of cells (`plain_species`)
        "separation_radius",
        "alignment_radius",
        "fov_degrees",
        "max_neighbours",
        "separation_falloff",
        "separation_combine",
        "walls",
        "separation_weight",
        "alignment_weight",
        "cohesion_weight",
        "cohesion_pull",
        "force_cap",
        "max_speed",
        "max_force",
        "fear_radius",
        "flee_weight",
        "alarm_weight",
        "alarm_speed",
        "burst_factor",
        # At the values `plain_species` lets through: the reynolds and accumulate styles,
        # which do not read the turn and zones styles' parameters.
        "steering",
        "separate_turn",
        "align_turn",
        "cohere_turn",
        "max_turn_rate",
        # Only in a term the fast path never has: its boids chase nothing (a block that holds
        # a species they chase is left to the general path).
        "chase_weight",
        # Read by the later stages, by no steering term: the same terms at any value.
        "personal_space",
        "min_speed",
        "cruise_speed",
        "cruise_rate",
        "acceleration",
        "obstacle_weight",
        "look_ahead",
        "leader_weight",
        "follow_distance",
        "leader_range",
        "leader_clearance",
        "leader_pull",
        "food_weight",
        "food_range",
        "burst_time",
        "catch_radius",
        "catch_cooldown",
        "rejoin_weight",
        "rejoin_radius",
        "wander_weight",
        "wander_rate",
        "heading_noise",
        "rheotaxis",
    }
)
"""The species parameters the fast path implements (see the module's docstring)."""


def assumed(implemented: frozenset[str] = FAST_PATH_PARAMETERS) -> tuple[IntArray, FloatArray]:
    """The columns of the parameter matrix that the fast path does not implement (those of
    the parameters not in `implemented`), and the values it assumes there: each one's
    default, packed."""
    defaults = Species("assumed")
    names = [name for name in SPECIES_PARAMETERS if name not in implemented]
    columns = np.array([COLUMNS[name] for name in names], np.int64)
    values = np.array(
        [SPECIES_PARAMETERS[name].pack(getattr(defaults, name)) for name in names], np.float64
    )
    return columns, values


ASSUMED: Final = assumed()
"""`assumed()` of `FAST_PATH_PARAMETERS`: what `SpeciesRules` carries to the kernels."""


def rules_of(
    table: SpeciesTable, implemented: frozenset[str] = FAST_PATH_PARAMETERS
) -> RulesRecord:
    """The species of `table` as the kernels take them: `SpeciesRules` as a plain tuple (see
    `records`), with the assumptions of a fast path that implements `implemented`."""
    columns, values = ASSUMED if implemented == FAST_PATH_PARAMETERS else assumed(implemented)
    return table.params, table.relations, columns, values


@numba.njit(cache=True, nogil=True)
def plain_species(cells: Cells, rules: SpeciesRules) -> IntArray:
    """For each species, how many rings of cells round a boid's own its fast path reads
    (1 or 2; 0: the species takes the general path), as far as the species alone decides:
    every parameter the fast path does not implement has the value it assumes
    (`SpeciesRules.assumed_columns`, `.assumed_values`: `assumed`), it flocks with itself in the
    `reynolds` or `accumulate` style, and its search stays within `PLAIN_REACH` rings of
    cells (the fewest that hold its perception radius; on a torus an axis with too few
    cells for the block's copies to be the nearest images is held whole, and
    `plain.nearest_images` moves the copies to each boid's: `plain.small_torus`)."""
    params, relations = rules.params, rules.relations
    count = params.shape[0]
    reach = np.zeros(count, np.int64)
    for s in range(count):
        style = int(params[s, P_STYLE])
        if relations[s, s] != RELATION_FLOCK or style not in (STYLE_REYNOLDS, STYLE_ACCUMULATE):
            continue
        if not _as_assumed(params, s, rules.assumed_columns, rules.assumed_values):
            continue
        perception = params[s, P_PERCEPTION]
        for rings in range(1, PLAIN_REACH + 1):
            if (perception <= rings * cells.size_x or cells.nx == 1) and (
                perception <= rings * cells.size_y or cells.ny == 1
            ):
                reach[s] = rings
                break
    return reach


@numba.njit(cache=True, nogil=True)
def _as_assumed(params: FloatArray, s: int, columns: IntArray, values: FloatArray) -> bool:
    """Whether species s has the assumed value in each of `columns`."""
    same = True
    for k in range(columns.shape[0]):  # a loop: numba compiles no generator for `all`
        same &= params[s, columns[k]] == values[k]
    return same
