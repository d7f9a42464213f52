"""Navigation: flow fields round obstacles, and every goal behaviour that follows them."""

import math

import esper
import numpy as np
import pytest

from shoal.components import (
    Attractor,
    Circle,
    Food,
    Leader,
    Obstacle,
    Polygon,
    Position,
    Predator,
    Prey,
    Rect,
    Species,
    Velocity,
)
from shoal.systems import (
    BOID_EATEN,
    FOOD_BITTEN,
    PREY_CAUGHT,
    Flock,
    FlockConfig,
    Navigator,
    compile_field,
    install,
    navigator,
)
from shoal.systems.core.threads import set_threads
from shoal.systems.core.threads import threads as shoal_threads
from shoal.systems.obstacles.flow_kernel import C_DIST, C_VIS, PoolArray
from shoal.systems.obstacles.nav_grid import NavGrid, build_nav_grid, build_seek
from shoal.systems.obstacles.navigation import REUSE_SECONDS

from worlds import scratch_world

WALL = Rect(400, 300, 20, 400)  # x 390-410, y 100-500
NONE = np.zeros(0, np.int64)


def field_plane(
    shapes: list[Rect | Circle | Polygon], target: tuple[float, float]
) -> tuple[NavGrid, PoolArray]:
    grid = build_nav_grid(compile_field(shapes), 800.0, 600.0, False)
    plane = np.zeros((grid.ny, grid.nx, 4), np.float32)
    build_seek(grid, plane, *target, math.inf, NONE)
    return grid, plane


def at(grid: NavGrid, plane: PoolArray, x: float, y: float, column: int) -> float:
    ix, iy = grid.cell_of(x, y)
    return float(plane[iy, ix, column])


# --- the field itself -----------------------------------------------------------------------
def test_distance_round_a_wall_is_the_way_round_its_nearer_end() -> None:
    """Behind the wall the field's distance is the way round its nearer end: at least that
    long, and no more than the scheme's error and the price of passing near the wall; in
    open water, the straight line."""
    grid, plane = field_plane([WALL], (600.0, 300.0))
    corner = np.array([400.0, 500.0 + grid.clearance])
    for point in [(200.0, 300.0), (250.0, 420.0), (150.0, 250.0)]:
        p = np.array(point)
        shortest = np.linalg.norm(corner - p) + np.linalg.norm(corner - (600.0, 300.0))
        assert shortest * 0.98 < at(grid, plane, *point, C_DIST) < shortest * 1.2
    assert at(grid, plane, 700.0, 400.0, C_DIST) == pytest.approx(math.hypot(100, 100), rel=0.1)


def test_visibility_is_the_wall_s_shadow() -> None:
    grid, plane = field_plane([WALL], (600.0, 560.0))  # above the wall's top end (500)
    assert at(grid, plane, 200.0, 400.0, C_VIS) < 0.5  # in its shadow
    assert at(grid, plane, 300.0, 200.0, C_VIS) < 0.5
    assert at(grid, plane, 200.0, 560.0, C_VIS) > 0.9  # past its end, in sight
    assert at(grid, plane, 500.0, 300.0, C_VIS) > 0.9  # on the target's side


def test_way_behind_a_wall_heads_for_its_nearer_end(flock: Flock) -> None:
    nav = navigator(flock)
    points = np.array([(250.0, 380.0), (250.0, 220.0), (650.0, 300.0)])
    way = nav.way_to((550.0, 300.0), points)
    assert way.around.tolist() == [True, True, False]
    assert way.directions[0, 1] > 0.5 and way.directions[0, 0] > 0  # up round the top end
    assert way.directions[1, 1] < -0.5 and way.directions[1, 0] > 0  # down round the bottom
    assert way.directions[2] == pytest.approx([-1.0, 0.0])  # in sight: straight at it
    assert way.distances[2] == pytest.approx(100.0)
    assert np.all(way.distances[:2] > np.hypot(*(points[:2] - (550, 300)).T))


def test_a_walled_in_target_has_no_way(flock: Flock) -> None:
    box = [Rect(700, 100, 60, 4), Rect(700, 160, 60, 4), Rect(672, 130, 4, 64),
           Rect(728, 130, 4, 64)]  # fmt: skip
    with flock.in_world():
        for shape in box:
            esper.create_entity(Obstacle(shape))
    way = navigator(flock).way_to((700.0, 130.0), [(100.0, 500.0)])
    assert not way.around[0] and math.isinf(way.distances[0])


def test_flee_map_leads_along_a_wall_not_into_it(flock: Flock) -> None:
    """Between a threat and a wall, the flight goes along the wall, away from the threat,
    not into the wall (the straight flight)."""
    nav = navigator(flock)
    slot = nav.flee_slot(330.0, 460.0, 300.0)  # a threat left of the wall, near its top
    _, directions, _ = nav.sample(np.array([slot]), np.array([(375.0, 440.0)]))
    assert directions[0, 0] < 0.3 and directions[0, 1] < -0.8  # along it, down


def test_open_water_has_no_fields_and_goes_straight() -> None:
    flock = install(FlockConfig(800, 600, seed=1), [Species("fish")])
    nav = navigator(flock)
    way = nav.way_to((700.0, 500.0), [(100.0, 100.0)])
    assert not nav.active and not way.around[0] and nav.builds == 0
    assert way.distances[0] == pytest.approx(math.hypot(600, 400))


def test_fields_are_shared_and_rebuilt_only_when_the_target_changes_cell(flock: Flock) -> None:
    nav = navigator(flock)
    first = nav.seek_slot(600.0, 300.0)
    assert nav.seek_slot(600.4, 300.2) == first and nav.builds == 1  # same cell
    nav.seek_slot(640.0, 300.0)
    assert nav.builds == 2
    with flock.in_world():
        esper.create_entity(Obstacle(Circle(100, 100, 20)))
    nav.seek_slot(600.0, 300.0)  # the obstacles changed: a new raster, new fields
    assert nav.builds == 3 and len(nav.grid.field) == 2


def test_a_moving_target_keeps_its_field_while_near_and_in_sight() -> None:
    """The fields of moving agents (`seek_slots`) and threats (`flee_slot`) are reused for a
    target within REUSE_CELLS cells of where they were built that sees that spot, for
    REUSE_SECONDS; beyond, behind a wall or later, a new one is built. An exact query
    (`seek_slot`) always gets a field of its own cell."""
    flock = install(FlockConfig(800, 600, seed=5), [Species("fish")])
    with flock.in_world():
        esper.create_entity(Obstacle(Rect(400, 300, 2, 400)))  # a thin wall, x 399-401
    nav = navigator(flock)
    limit, cell = np.array([math.inf]), nav.grid.cell_w

    def seek(x: float, y: float = 300.0) -> int:
        return int(nav.seek_slots(np.array([(x, y)]), limit)[0])

    first = seek(600.0)
    assert seek(600.0 + 1.5 * cell) == first and nav.builds == 1
    seek(600.0 + 2.5 * cell)
    assert nav.builds == 2
    nav.seek_slot(600.0 + 1.5 * cell, 300.0)  # the cell a field above was reused for
    assert nav.builds == 3
    seek(400.0 - 0.8 * cell)  # left of the wall ...
    seek(400.0 + 0.8 * cell)  # ... and right of it, 1.6 cells away: out of sight
    assert nav.builds == 5
    assert nav.flee_slot(200.0, 200.0, 100.0) == nav.flee_slot(200.0 + cell, 200.0, 100.0)
    assert nav.builds == 6
    seek(200.0, 100.0)
    for _ in range(math.ceil(REUSE_SECONDS * 60) + 1):
        flock.step(1 / 60)
    nav.flee_slot(200.0 + 1.5 * cell, 200.0, 100.0)  # near, but the map is too old now
    seek(200.0 + 1.5 * cell, 100.0)  # and so is the field
    assert nav.builds == 9


def test_navigator_refuses_bad_input(flock: Flock) -> None:
    nav = navigator(flock)
    with pytest.raises(ValueError, match=r"way_to: target = "):
        nav.way_to((math.nan, 1.0), [(0.0, 0.0)])
    with pytest.raises(ValueError, match=r"way_to: points = "):
        nav.way_to((1.0, 1.0), [(0.0, math.inf)])
    with pytest.raises(ValueError, match=r"way_to: radius = "):
        nav.way_to((1.0, 1.0), [(0.0, 0.0)], radius=-1.0)
    with pytest.raises(ValueError, match=r"Navigator: cell = "):
        Navigator(flock, cell=0.0)
    with pytest.raises(ValueError, match=r"navigator: flock = "):
        navigator("flock")  # type: ignore[arg-type]


# --- goal behaviours round a wall --------------------------------------------------------------
@pytest.fixture
def flock() -> Flock:
    """An 800 × 600 box with a wall in the middle."""
    flock = install(FlockConfig(800, 600, seed=5), [Species("fish")])
    with flock.in_world():
        esper.create_entity(Obstacle(WALL))
    return flock


def run(flock: Flock, seconds: float, navigate: bool) -> None:
    navigator(flock).enabled = navigate
    for _ in range(round(seconds * 60)):
        flock.step(1 / 60)


@pytest.mark.slow
@pytest.mark.parametrize("navigate", [True, False])
def test_followers_come_round_a_wall_to_their_leader(flock: Flock, navigate: bool) -> None:
    """The leader waits behind the wall: with navigation all followers come round within
    10 s; without it, most press against the wall."""
    with flock.in_world():
        esper.create_entity(Position(550, 300), Velocity(0, 0), Leader())
    flock.spawn("fish", np.random.default_rng(1).uniform((200, 250), (300, 350), (40, 2)))
    run(flock, 10.0, navigate)
    near = np.hypot(*(flock.positions - (550, 300)).T) < 150
    assert near.mean() > 0.9 if navigate else near.mean() < 0.5


CUP = Polygon([(250, 150), (420, 150), (420, 450), (250, 450), (250, 430), (400, 430),
               (400, 170), (250, 170)])  # fmt: skip
"""A cup open to the left, its bottom at x 400-420."""


@pytest.mark.slow
@pytest.mark.parametrize("navigate", [True, False])
def test_food_behind_a_wall_is_found_round_it(navigate: bool) -> None:
    """Fish in a cup with food beyond its bottom: with navigation they leave the cup and go
    round; without, they press against the bottom."""
    flock = install(FlockConfig(800, 600, seed=2), [Species("fish", food_range=400)])
    with flock.in_world():
        esper.create_entity(Obstacle(CUP))
        esper.create_entity(Position(480, 300), Food(bites=1000, radius=6))
    bites: list[int] = []

    class Count:
        def on_bite(self, food: int, boid: int, left: int) -> None:
            bites.append(boid)

    counter = Count()
    flock.set_handler(FOOD_BITTEN, counter.on_bite)
    flock.spawn("fish", [(300.0, 300.0), (310.0, 280.0), (290.0, 320.0)], [(0, 30)] * 3)
    run(flock, 12.0, navigate)
    assert (len(set(bites)) == 3) if navigate else not bites


@pytest.mark.slow
@pytest.mark.parametrize("navigate", [True, False])
def test_hunters_in_a_cup_come_round_it_to_a_prey_entity(navigate: bool) -> None:
    """A `Prey` entity (a host's tied sprite) beyond the cup's bottom, hunters inside: with
    navigation they leave the cup and catch it; without, they press against the bottom."""
    flock = install(FlockConfig(800, 600, seed=2), [Species("wasp", chase_weight=3)])
    with flock.in_world():
        esper.create_entity(Obstacle(CUP))
        esper.create_entity(Position(480, 300), Velocity(0, 0), Prey())
    hunters: set[int] = set()

    class Count:
        def on_catch(self, prey: int, hunter: int, x: float, y: float) -> None:
            hunters.add(hunter)

    counter = Count()
    flock.set_handler(PREY_CAUGHT, counter.on_catch)
    flock.spawn("wasp", [(300.0, 300.0), (310.0, 280.0), (290.0, 320.0)], [(0, 30)] * 3)
    run(flock, 12.0, navigate)
    assert (len(hunters) == 3) if navigate else not hunters


def test_food_sensed_from_nowhere_needs_no_field() -> None:
    """A species whose food range is 0 never smells food: the seeking stage asks the
    navigator for no field (it once asked for one with a limit of 0, which it refuses)."""
    flock = install(FlockConfig(800, 600, seed=2), [Species("fish", food_range=0.0)])
    with flock.in_world():
        esper.create_entity(Obstacle(CUP))
        esper.create_entity(Position(480, 300), Food(bites=10, radius=6))
    flock.spawn("fish", [(300.0, 300.0)], [(0, 30)])
    for _ in range(5):
        flock.step()
    assert navigator(flock).builds == 0
    assert np.isfinite(flock.positions).all()


@pytest.mark.slow
@pytest.mark.parametrize("navigate", [True, False])
def test_attractor_behind_a_wall_draws_round_it(flock: Flock, navigate: bool) -> None:
    with flock.in_world():
        esper.create_entity(Position(500, 300), Attractor(radius=400, dead_radius=30))
    flock.tune("fish", leader_weight=0.0)
    flock.spawn("fish", [(300.0, 300.0)], [(0.0, 20.0)])
    # With navigation it comes round in 5.3 s; without, it presses on the wall and slides
    # along it at its minimum speed, round the wall's end by 8.2 s (then it stays by the
    # attractor's rim: the motion stage keeps it out of the dead radius).
    run(flock, 6.5, navigate)
    reached = math.dist(flock.positions[0], (500, 300)) < 80
    assert reached if navigate else not reached


@pytest.mark.slow
@pytest.mark.parametrize("navigate", [True, False])
def test_a_hunter_chases_its_prey_round_a_wall(navigate: bool) -> None:
    species = [Species("bait", min_speed=0, max_speed=1, perception_radius=300),
               Species("shark", perception_radius=300, min_speed=20, max_speed=120)]  # fmt: skip
    flock = install(FlockConfig(800, 600, seed=1), species)
    flock.relate("shark", "bait", "chase")
    with flock.in_world():
        esper.create_entity(Obstacle(Rect(400, 300, 20, 300)))
    flock.spawn("bait", [(500.0, 300.0)], [(0.0, 0.0)])
    flock.spawn("shark", [(300.0, 300.0)], [(50.0, 0.0)])
    caught: list[int] = []

    class Count:
        def on_catch(self, boid: int, hunter: int, x: float, y: float) -> None:
            caught.append(boid)

    counter = Count()
    flock.set_handler(BOID_EATEN, counter.on_catch)
    run(flock, 15.0, navigate)
    assert bool(caught) == navigate


@pytest.mark.slow
@pytest.mark.parametrize("threat", ["boid", "entity"])
def test_cornered_boids_flee_along_the_wall_not_into_it(threat: str) -> None:
    """Fish between a predator closing in and a long wall: with navigation they run along
    the wall and round its end (away along free space); without, they stay pinned against
    it, near the predator. Both kinds of predator: a boid species they flee (steering
    stage) and a Predator entity the host moves (seeking stage)."""

    def distance_from_threat(navigate: bool) -> float:
        with scratch_world():
            fish = Species("fish", fear_radius=200, perception_radius=200, fov_degrees=360)
            flock = install(FlockConfig(900, 600, seed=4), [fish])
            hunter = -1
            with flock.in_world():
                esper.create_entity(Obstacle(Rect(500, 250, 20, 420)))  # y 40-460
                if threat == "entity":
                    hunter = esper.create_entity(Position(300, 250), Velocity(30, 0), Predator())
            if threat == "boid":
                flock.add_species(Species("shark", min_speed=20, max_speed=30, wander_weight=0,
                                          perception_radius=200))  # fmt: skip
                flock.relate("fish", "shark", "flee")
                flock.relate("shark", "fish", "chase")
                flock.spawn("shark", [(300.0, 250.0)], [(30.0, 0.0)])
            flock.spawn("fish", np.random.default_rng(4).uniform((420, 200), (470, 300), (20, 2)))
            navigator(flock).enabled = navigate
            for _ in range(240):
                if hunter >= 0:  # the host walks its predator towards the wall
                    with flock.in_world():
                        where = esper.component_for_entity(hunter, Position)
                        where.xy = (min(where.x + 0.5, 470.0), where.y)
                flock.step(1 / 60)
            fish = flock.store.species == flock.species.index("fish")
            with flock.in_world():
                at = (esper.component_for_entity(hunter, Position).xy if hunter >= 0
                      else flock.positions[~fish][0])  # fmt: skip
            return float(np.hypot(*(flock.positions[fish] - np.asarray(at)).T).mean())

    # Measured (seed 4): a Predator entity 1.8× as far with navigation; a shark 1.1× (the
    # fish that meet the wall slide along it either way; this measured the fish's spread
    # from one of them, not from the shark, before).
    assert distance_from_threat(True) > (1.25 if threat == "entity" else 1.05) * (
        distance_from_threat(False)
    )


@pytest.mark.slow
def test_navigation_does_not_depend_on_the_thread_count() -> None:
    def positions(count: int) -> np.ndarray:
        previous = shoal_threads()
        set_threads(count)
        try:
            with scratch_world():
                flock = install(FlockConfig(800, 600, seed=8), [Species("fish")])
                with flock.in_world():
                    esper.create_entity(Obstacle(WALL))
                    esper.create_entity(Position(600, 300), Velocity(0, 0), Leader())
                flock.scatter("fish", 5000, centre=(200, 300), radius=150)
                for _ in range(30):
                    flock.step(1 / 60)
                return flock.positions.copy()
        finally:
            set_threads(previous)

    assert np.array_equal(positions(1), positions(2))


@pytest.mark.slow
def test_open_water_behaves_exactly_as_without_navigation() -> None:
    """A rock far from the school and its leader changes nothing: same positions, bit for
    bit, with navigation on and off."""

    def positions(navigate: bool) -> np.ndarray:
        with scratch_world():
            flock = install(FlockConfig(1200, 800, seed=4), [Species("fish")])
            with flock.in_world():
                esper.create_entity(Obstacle(Circle(1100, 700, 30)))
                esper.create_entity(Position(400, 300), Velocity(20, 0), Leader())
                esper.create_entity(Position(300, 200), Food(bites=100))
            flock.scatter("fish", 200, centre=(250, 300), radius=80)
            run(flock, 3.0, navigate)
            return flock.positions.copy()

    assert np.array_equal(positions(True), positions(False))
