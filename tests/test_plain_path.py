"""The steering's fast path (`steering/plain.py`) gives a plain boid the same terms as the
general path (`vision.seen` and the per-neighbour rules), in every style, boundary and
falloff it takes: only the order of the sums differs (last bits)."""

from typing import Any

import esper
import numba
import numpy as np
import pytest

from shoal.components import Species
from shoal.systems import FlockConfig, install
from shoal.systems.core.species_table import P_MAX_NEIGHBOURS
from shoal.systems.core.vision import Cells, Seen, buffers
from shoal.systems.steering.kernel import _plain_terms, _rule_terms
from shoal.systems.steering.plain import plain_gather

pytestmark = pytest.mark.slow  # compiles a kernel of its own (a few seconds)


@numba.njit
def worst_difference(
    cells: Cells, cooldown: Any, alarm_age: Any, burst: Any, params: Any, relations: Any,
    dt: float, origin: tuple[float, float], out: Seen,
) -> tuple[int, float]:  # fmt: skip
    """How many boids took the fast path, and the largest relative difference of their
    separation, alignment and cohesion terms from the general path's."""
    plain, worst = 0, 0.0
    for i in range(cells.row.shape[0]):
        ok, sums = plain_gather(i, cells, params, relations, out)
        if not ok:
            continue
        plain += 1
        fast = _plain_terms(i, cells, params, origin, sums)
        general = _rule_terms(
            i, cells, cooldown, alarm_age, burst, params, relations, dt, origin, 0.0, out
        )
        pairs = (
            (fast[0], general[0]), (fast[1], general[1]), (fast[2], general[2]),
            (fast[3], general[3]), (fast[4], general[4]), (fast[5], general[5]),
        )  # fmt: skip
        for a, b in pairs:  # separation, alignment, cohesion (x, y)
            worst = max(worst, abs(a - b) / (abs(b) + 1e-6))
    return plain, worst


CASES = [
    ("reynolds", "wrap", {}),
    ("reynolds", "contain", {"separation_falloff": "inverse_square"}),
    ("accumulate", "contain", {}),
    ("accumulate", "wrap", {"separation_falloff": "soft", "cohesion_pull": "steady"}),
    ("reynolds", "wrap", {"separation_falloff": "linear", "fov_degrees": 200.0}),
]


@pytest.mark.parametrize(("style", "boundary", "extra"), CASES)
def test_the_fast_path_gives_the_general_paths_terms(
    style: str, boundary: str, extra: dict[str, Any]
) -> None:
    species = Species(
        "fish", steering=style, separation_weight=1.0, alignment_weight=5.0,
        cohesion_weight=2.0, max_force=300.0, **extra,
    )  # fmt: skip
    world = f"plain-path-{style}-{boundary}-{len(extra)}"
    flock = install(FlockConfig(width=800, height=600, seed=1, boundary=boundary), [species],
                    world=world)  # fmt: skip
    try:
        flock.scatter("fish", 300)
        for _ in range(200):  # a school forms: dense cells, many flockmates each
            flock.step()
        state, store, table = flock.step_state, flock.store, flock.species
        out = buffers(max(1, int(table.params[:, P_MAX_NEIGHBOURS].max())))
        plain, worst = worst_difference(
            state.cells, store.cooldown, store.alarm_age, store.burst, table.params,
            table.relations, state.dt, flock.config.origin, out,
        )  # fmt: skip
    finally:
        esper.delete_world(world)
    assert plain > 150, f"only {plain} of 300 boids took the fast path"
    assert worst < 1e-9, worst
    assert np.isfinite(worst)
