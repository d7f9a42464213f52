"""The steering's fast path (`steering/plain.py`) gives a plain boid the same terms as the
general path (`vision.seen` and the per-neighbour rules), in every style, boundary and
falloff it takes: only the order of the sums differs (last bits)."""

from typing import Any

import esper
import numba
import numpy as np
import pytest

from shoal.components import Species
from shoal.systems import Flock, FlockConfig, install
from shoal.systems.core.species_table import P_MAX_NEIGHBOURS, SpeciesTable
from shoal.systems.core.vision import CELL_SAMPLE, Cells, Seen, buffers
from shoal.systems.neighbours import system as neighbours
from shoal.systems.steering.block import AT_OTHERS, Block, block_buffers
from shoal.systems.steering.general import general_terms
from shoal.systems.steering.plain import plain_gather, plain_terms_of, small_torus
from shoal.systems.steering.records import BoidState, SpeciesRules
from shoal.systems.steering.route import plain_species, rules_of
from shoal.systems.steering.system import SteeringSystem
from shoal.systems.steering.terms import (
    T_ALARM,
    T_ALARM_LEAD,
    T_ALIGNMENT_X,
    T_ALIGNMENT_Y,
    T_COHESION_X,
    T_COHESION_Y,
    T_FLEE_X,
    T_FLEE_Y,
    T_PREY,
    T_SEPARATION_X,
    T_SEPARATION_Y,
)

pytestmark = pytest.mark.slow  # compiles a kernel of its own (a few seconds)


@numba.njit(nogil=True)
def worst_difference(
    cells: Cells,
    state: BoidState,
    rules: SpeciesRules,
    dt: float,
    origin: tuple[float, float],
    out: Seen,
    block: Block,
) -> tuple[int, int, float, int, int]:
    """How many boids took the fast path, how many of those an alarm reached, the largest
    relative difference of their terms (separation, alignment, cohesion, fleeing from
    predators or with alarmed flockmates, the alarm level and its lead) from the general
    path's, how many of them had boids of another species in their block and how many of
    those fled a predator they sensed."""
    plain, alarmed, worst, mixed, fled = 0, 0, 0.0, 0, 0
    for i in range(cells.row.shape[0]):
        ok, sums, alarm, threat = plain_gather(i, cells, state.alarm_age, rules, dt, block)
        if not ok:
            continue
        plain += 1
        fast = plain_terms_of(i, cells, state.burst, rules.params, dt, origin, sums, alarm, threat)
        general = general_terms(i, cells, state, rules, dt, origin, 0.0, out)
        alarmed += fast[T_ALARM] > 0.0
        mixed += block.plain_at[AT_OTHERS] > 0
        fled += fast[T_ALARM] == 1.0
        pairs = (
            (fast[T_SEPARATION_X], general[T_SEPARATION_X]),
            (fast[T_SEPARATION_Y], general[T_SEPARATION_Y]),
            (fast[T_ALIGNMENT_X], general[T_ALIGNMENT_X]),
            (fast[T_ALIGNMENT_Y], general[T_ALIGNMENT_Y]),
            (fast[T_COHESION_X], general[T_COHESION_X]),
            (fast[T_COHESION_Y], general[T_COHESION_Y]),
            (fast[T_FLEE_X], general[T_FLEE_X]),
            (fast[T_FLEE_Y], general[T_FLEE_Y]),
            (fast[T_ALARM], general[T_ALARM]),
            (fast[T_ALARM_LEAD], general[T_ALARM_LEAD]),
        )
        for a, b in pairs:
            worst = max(worst, abs(a - b) / (abs(b) + 1e-6))
        if fast[T_PREY] != general[T_PREY]:  # the prey it chases: none on either path
            worst = np.inf
    return plain, alarmed, worst, mixed, fled


Figures = tuple[int, int, float, int, int]
"""`worst_difference`'s figures."""


def measure(flock: Flock) -> Figures:
    """`worst_difference` on the flock's last step."""
    state, store, table = flock.step_state, flock.store, flock.species
    out = buffers(max(1, int(table.params[:, P_MAX_NEIGHBOURS].max())))
    boids = BoidState(store.cooldown, store.alarm_age, store.burst)
    rules = SpeciesRules(*rules_of(table))
    result: Figures = worst_difference(
        state.cells, boids, rules, state.dt, flock.config.origin, out, block_buffers()
    )
    return result


def stepped(
    species: Species, size: tuple[int, int], seed: int, fish: int, steps: int,
    boundary: str = "wrap",
) -> tuple[Cells, SpeciesTable, Figures]:  # fmt: skip
    """`fish` of `species` scattered in a world of `size`, after `steps` steps: the last
    step's cells, the species table and `measure`'s figures."""
    world = f"plain-path-{size[0]}x{size[1]}-{fish}-{boundary}-{seed}-{species.steering}"
    flock = install(FlockConfig(width=size[0], height=size[1], seed=seed, boundary=boundary),
                    [species], world=world)  # fmt: skip
    try:
        flock.scatter("fish", fish)
        for _ in range(steps):
            flock.step()
        return flock.step_state.cells, flock.species, measure(flock)
    finally:
        esper.delete_world(world)


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
    # 200 steps: a school forms, dense cells, many flockmates each.
    _, _, (plain, _, worst, _, _) = stepped(species, (800, 600), 1, 300, 200, boundary)
    assert plain > 150, f"only {plain} of 300 boids took the fast path"
    assert worst < 1e-9, worst
    assert np.isfinite(worst)


@pytest.mark.parametrize(("width", "height"), [(1000, 600), (700, 300)])
def test_a_torus_too_few_cells_across_takes_the_fast_path(width: int, height: int) -> None:
    # The open water's mill sees 400 px in a torus of 4 × 2 cells: the ring of cells holds
    # the world's whole height, and each boid needs the images of its block nearest itself.
    # (The first case's 400 fish crowd its 4 × 2 cells: they get 8 × 4 of half the radius,
    # of which a boid's 5 × 5 hold the whole height.)
    species = Species("fish", perception_radius=250.0, separation_radius=20.0)
    cells, table, (plain, _, worst, _, _) = stepped(species, (width, height), 4, 400, 60)
    reach = plain_species(cells, SpeciesRules(*rules_of(table)))[0]
    assert small_torus(cells, reach) != (0.0, 0.0), (cells.nx, cells.ny, reach)
    assert plain > 350, f"only {plain} of 400 boids took the fast path"
    assert worst < 1e-9, worst


def test_crowded_cells_are_read_by_the_general_paths_sample() -> None:
    # A dense school that sees far (the school preset's 120 px): its cells hold more than
    # CELL_SAMPLE fish, which both paths read by the same evenly spaced sample.
    species = Species("fish", perception_radius=120.0, separation_radius=20.0)
    cells, _, (plain, _, worst, _, _) = stepped(species, (600, 480), 3, 2500, 30)
    crowded = int(np.count_nonzero(np.diff(cells.cell_start) > CELL_SAMPLE))
    assert crowded >= 5, f"only {crowded} crowded cells"
    assert plain > 2000, f"only {plain} of 2,500 boids took the fast path"
    assert worst < 1e-9, worst


def test_alarmed_flockmates_reach_a_plain_boid_as_on_the_general_path() -> None:
    # A shark crosses a school: the fish it scares are alarmed, and the alarm spreads. Fish
    # whose blocks hold alarmed fish take the fast path, whose loop also gathers the alarm
    # (level, lead, the alarmed fish's velocities) as the general path does.
    fish = Species("fish", steering="accumulate", separation_weight=1.0, fear_radius=150.0)
    shark = Species("shark", perception_radius=40.0, max_speed=150.0, min_speed=100.0)
    world = "plain-path-alarm"
    flock = install(FlockConfig(width=900, height=700, seed=2, boundary="wrap"),
                    [fish, shark], world=world)  # fmt: skip
    try:
        flock.relate("fish", "shark", "flee")
        flock.scatter("fish", 400)
        flock.scatter("shark", 2)
        most_alarmed = (0, 0, 0.0, 0, 0)
        for step in range(240):
            flock.step()
            if step >= 120 and step % 10 == 0:
                result = measure(flock)
                assert result[2] < 1e-9, (step, result)
                most_alarmed = max(most_alarmed, result, key=lambda r: r[1])
    finally:
        esper.delete_world(world)
    plain, alarmed, _, _, _ = most_alarmed
    assert alarmed > 20, f"only {alarmed} alarmed fish (of {plain} plain) on the fast path"


def test_a_predator_and_an_avoided_species_in_the_block_keep_the_fast_path() -> None:
    # Sharks hunt a school, which also keeps clear of a few turtles: the fish whose blocks
    # hold a shark or a turtle stay on the fast path, which adds the turtles' pushes and the
    # flight from the sharks as the general path does. A species the fish flock with would
    # send them to the general path (the third part: the same flock, fish flocking with
    # turtles).
    fish = Species("fish", perception_radius=60.0, fear_radius=60.0, separation_weight=1.0)
    shark = Species("shark", perception_radius=40.0, max_speed=150.0, min_speed=100.0)
    turtle = Species("turtle", perception_radius=30.0, max_speed=30.0, min_speed=10.0)
    world = "plain-path-others"
    flock = install(FlockConfig(width=900, height=700, seed=4, boundary="contain"),
                    [fish, shark, turtle], world=world)  # fmt: skip
    try:
        flock.relate("fish", "shark", "flee")
        flock.relate("shark", "fish", "chase")
        flock.relate("fish", "turtle", "avoid")
        flock.scatter("fish", 400)
        flock.scatter("shark", 3)
        flock.scatter("turtle", 6)
        mixed = fled = 0
        for step in range(200):
            flock.step()
            if step >= 60 and step % 10 == 0:
                _, _, worst, in_mixed, fleeing = measure(flock)
                assert worst < 1e-9, (step, worst)
                mixed, fled = mixed + in_mixed, fled + fleeing
        flock.relate("fish", "turtle", "flock")
        flock.step()
        plain_with_turtles, _, worst, _, _ = measure(flock)
        flock.relate("fish", "turtle", "avoid")
        flock.step()
        plain_avoiding, _, _, _, _ = measure(flock)
    finally:
        esper.delete_world(world)
    assert mixed > 200, f"only {mixed} fish took the fast path beside another species"
    assert fled > 10, f"only {fled} fish fled a shark on the fast path"
    assert worst < 1e-9, worst
    assert plain_with_turtles < plain_avoiding, (plain_with_turtles, plain_avoiding)


@pytest.mark.parametrize(
    ("width", "height", "fish", "small"), [(600, 480, 3500, False), (250, 250, 400, True)]
)
def test_a_crowds_half_width_cells_take_the_fast_path(
    width: int, height: int, fish: int, small: bool
) -> None:
    # ~45 fish share a fish's cell of the radius: the cells are half the radius wide, and
    # the fast path reads each fish's 5 × 5 of them. In a torus 5 cells across (the second
    # case) those hold the whole world, and each fish reads the images nearest itself.
    species = Species("fish", steering="accumulate", perception_radius=60.0 if not small
                      else 100.0, separation_radius=15.0, separation_falloff="soft",
                      fov_degrees=360.0)  # fmt: skip
    cells, table, (plain, _, worst, _, _) = stepped(species, (width, height), 5, fish, 5)
    radius = species.perception_radius
    assert radius / 2 <= min(cells.size_x, cells.size_y) < radius, (cells.size_x, cells.size_y)
    reach = plain_species(cells, SpeciesRules(*rules_of(table)))[0]
    assert reach == 2
    assert (small_torus(cells, reach) != (0.0, 0.0)) == small, (cells.nx, cells.ny)
    assert plain > 0.9 * fish, f"only {plain} of {fish} fish took the fast path"
    assert worst < 1e-9, worst


def test_half_width_cells_give_the_same_accelerations(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same crowd's step sorted into cells of the radius and of half of it: every boid
    # sees the same boids, and its acceleration differs in the last bits only (the order of
    # its sums).
    species = Species("fish", perception_radius=60.0, separation_radius=15.0)
    world = "plain-path-both-grids"
    flock = install(FlockConfig(width=600, height=480, seed=6, boundary="wrap"), [species],
                    world=world)  # fmt: skip
    try:
        flock.scatter("fish", 3500)
        flock.step()
        accelerations, widths = [], []
        for halve in (False, True):
            monkeypatch.setattr(neighbours, "crowded", lambda _starts, halve=halve: halve)
            step = flock.step_state
            step.cells = neighbours.sorted_cells(flock, one_call=False)
            with flock.in_world():
                stage = esper.get_processor(SteeringSystem)
                assert isinstance(stage, SteeringSystem)
                stage.run(step)
            accelerations.append(flock.store.accelerations.copy())
            widths.append(step.cells.size_x)
    finally:
        esper.delete_world(world)
    assert widths[1] < widths[0], widths
    full, half = accelerations
    assert np.abs(half - full).max() <= 1e-9 * np.abs(full).max()
