"""Misuse of the API, and of esper on shoal's entities: every call does the right thing or
raises one clear error and changes nothing, and the flock stays consistent with its world.

Hypothesis draws a flock (in the host's current world or a world of its own, any boundary)
and a list of operations a careless or hostile game might make: spawns of unknown species,
despawns of gone, never-seen and repeated entities, esper deleting boids (deferred and
immediate), creating boids without a Velocity, of unknown species or sharing another boid's
Position, replacing a boid's Position, Velocity or Boid (with a valid, a foreign, a shared or
a wrongly typed component), removing them, writing a Position out of range, clearing the
database (ids start again at 1), replacing and deleting obstacles, removing a stage,
uninstalling and installing again, deleting the world, queries with any point and radius.

The promise checked after each operation:
- a refused call raises ValueError, KeyError or RuntimeError with one short printable line
  that names the function, and the flock, its world and its sprites are as before;
- after each step, the store, esper's `Boid` entities, their bound `Position` and `Velocity`
  (one each, equal to the store's rows), their species, the obstacle field and the sprites
  agree; a query finds exactly the boids in range (brute force);
- an entity that cannot be a boid makes the next step refuse it (naming it) until it is
  gone; the world is never made again once deleted.
"""

import math

import arcade
import esper
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shoal.systems import STAGES

from misuse_scene import NAMES, Op, Scene
from worlds import scratch_world

pytestmark = pytest.mark.fuzz


# --- operations -------------------------------------------------------------------------------
def unit() -> st.SearchStrategy[float]:
    return st.floats(0, 1)


def species_name() -> st.SearchStrategy[str]:
    return st.sampled_from([*NAMES, "unknown"])


def operations() -> st.SearchStrategy[Op]:
    coordinate = st.one_of(st.floats(-50, 450), st.floats(-1e30, 1e30))
    radius = st.one_of(st.floats(0, 500), st.floats(0, 1e22), st.sampled_from([0.0, 1e21]))
    return st.one_of(
        st.tuples(st.just("step"), st.sampled_from([0.0, 1 / 60, 0.25])),
        st.tuples(st.just("spawn"), species_name(), st.integers(0, 12), unit()),
        st.tuples(
            st.just("despawn"),
            st.lists(st.sampled_from(["boid", "gone", "never", "twice"]), max_size=4),
            unit(),
        ),
        st.tuples(st.just("esper_delete"), unit(), st.booleans()),
        st.tuples(
            st.just("esper_create"),
            species_name(),
            st.sampled_from(["whole", "no velocity", "no position", "shared", "twins"]),
        ),
        st.tuples(
            st.just("replace"),
            unit(),
            st.sampled_from(["Position", "Velocity", "Boid"]),
            st.sampled_from(["new", "other species", "unknown", "another boid's", "wrong type"]),
        ),
        st.tuples(st.just("remove"), unit(), st.sampled_from(["Position", "Velocity", "Boid"])),
        st.tuples(st.just("write"), unit(), st.sampled_from([5.0, -3e6, 2e7, math.nan, 1e300])),
        st.tuples(st.just("clear")),
        st.tuples(st.just("obstacle"), unit(), unit()),
        st.tuples(st.just("replace_obstacle"), unit(), unit()),
        st.tuples(st.just("delete_obstacle"), unit(), st.booleans()),
        st.tuples(st.just("predator"), unit(), unit()),
        st.tuples(st.just("query"), coordinate, coordinate, radius),
        st.tuples(st.just("neighbours_of"), unit()),
        st.tuples(st.just("remove_stage"), st.integers(0, len(STAGES) - 1)),
        st.tuples(st.just("reinstall")),
        st.tuples(st.just("delete_world")),
    )


# --- the tests --------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _window(window: arcade.Window) -> None:
    """Sprites need an OpenGL context."""


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    boundary=st.sampled_from(["contain", "bounce", "wrap"]),
    own_world=st.booleans(),
    ops=st.lists(operations(), min_size=5, max_size=40),
)
def test_misuse_is_refused_or_honoured_and_the_flock_stays_consistent(
    boundary: str, own_world: bool, ops: list[Op]
) -> None:
    with scratch_world():
        scene = Scene(boundary, own_world)
        scene.do_spawn("a", 12, 0.0)
        try:
            for op in ops:
                scene.apply(op)
            if not scene.deleted:
                scene.do_step(1 / 60)
        finally:
            if scene.own_world and scene.world in esper.list_worlds():
                esper.delete_world(scene.world)


@pytest.mark.slow
def test_the_operations_reach_every_misuse() -> None:
    """Every `do_` method of Scene is reachable from the strategy."""
    done = {name[3:] for name in dir(Scene) if name.startswith("do_")}
    drawn: set[str] = set()

    @settings(max_examples=400, derandomize=True, database=None)
    @given(op=operations())
    def collect(op: Op) -> None:
        drawn.add(op[0])

    collect()
    assert drawn == done
