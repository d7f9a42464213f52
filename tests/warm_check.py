"""After `warm_up()`, nothing a game does compiles a kernel: run in a fresh process.

``python tests/warm_check.py`` calls `warm_up()`, notes how many signatures every numba
dispatcher of shoal has, plays a scene that uses every stage (leaders, food, attractors,
predators, obstacles of every shape, several species and relations, every steering style,
contain, bounce and wrap worlds, a flock large enough for the threaded kernels, a world
navigated through a window (a big map), paused
steps, queries, metrics, navigation round a host's wall sprites and the navigator's queries,
the render stage and the debug overlay) and prints, as JSON, the
dispatchers that gained a signature, with the new ones (`new`). Then, as a control, it calls
a kernel with argument types that warm_up never uses and reports what that compiled
(`control`), so that the check is seen to catch one.
"""

import json
import math
import os
import sys
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import esper
import numba
import numpy as np

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
    RENDER_PRIORITY,
    Flock,
    FlockConfig,
    add_obstacles,
    install,
    navigator,
    remove_obstacles,
    uninstall,
    warm_up,
)
from shoal.systems.core.maths import clamp_length
from shoal.systems.metrics import group_count, groups, mean_nn_distance, milling, polarization
from shoal.systems.obstacles.field import first_hit, inside_obstacle, obstacle_field, surface
from shoal.systems.render import RenderSystem
from shoal.systems.render.debug_overlay import DebugOverlay

Signatures = dict[str, list[str]]
CROWD = 4500  # more than the threaded kernels' threshold (PARALLEL_MIN_BOIDS, 4,096)


def signatures() -> Signatures:
    """Every numba dispatcher in shoal's loaded modules, with its compiled signatures."""
    found: Signatures = {}
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("shoal.") or module is None:
            continue
        for value in vars(module).values():
            if isinstance(value, numba.core.dispatcher.Dispatcher):
                key = f"{value.py_func.__module__}.{value.py_func.__qualname__}"
                found.setdefault(key, [str(s) for s in value.signatures])
    return found


def species() -> list[Species]:
    """Five species that use every steering style, relation and option between them."""
    return [
        Species("fish", max_neighbours=6, wander_weight=0.5, fov_degrees=300),
        Species("eel", steering="accumulate", separation_falloff="inverse_square"),
        Species("bird", steering="turn", min_speed=60, max_speed=60, fov_degrees=360),
        Species("shark", max_speed=140, max_force=math.inf, max_turn_rate=math.inf),
        Species(
            "minnow",
            steering="zones",
            min_speed=50,
            max_speed=50,
            alignment_radius=30,
            heading_noise=0.3,
            burst_factor=2.0,
            walls="neighbours",
            separation_combine="mean",
            separation_falloff="linear",
            cruise_speed=50,
        ),
    ]


def populate(flock: Flock) -> None:
    """Boids of every species, every kind of agent and obstacle shape."""
    flock.relate("fish", "shark", "flee")
    flock.relate("shark", "fish", "chase")
    flock.relate("eel", "fish", "avoid")
    flock.relate("fish", "eel", "flock")
    flock.relate("minnow", "shark", "flee")
    for name, count in (("fish", 120), ("eel", 30), ("bird", 30), ("shark", 3), ("minnow", 20)):
        flock.scatter(name, count)
    with flock.in_world():
        esper.create_entity(Obstacle(Circle(200.0, 200.0, 30.0)))
        esper.create_entity(Obstacle(Rect(500.0, 300.0, 80.0, 40.0, 30.0)))
        concave = [(600.0, 100.0), (700.0, 100.0), (700.0, 200.0), (650.0, 140.0), (600.0, 200.0)]
        esper.create_entity(Obstacle(Polygon(concave)))
        esper.create_entity(Position(400.0, 300.0), Velocity(30.0, 10.0), Leader(("fish",)))
        esper.create_entity(Position(300.0, 400.0), Food(bites=2, radius=8.0))
        esper.create_entity(Position(350.0, 450.0), Velocity(0.0, -20.0), Food())
        esper.create_entity(Position(100.0, 500.0), Attractor(radius=150.0, dead_radius=20.0))
        esper.create_entity(
            Position(450.0, 250.0), Velocity(-20.0, 0.0), Predator(("fish",), catch_radius=10.0)
        )
        esper.create_entity(Position(700.0, 500.0), Velocity(0.0, -30.0), Prey(("shark",), 5.0))


def play(flock: Flock) -> None:
    """What a game does to a running flock: steps of any length, changes, queries, metrics."""
    for _ in range(20):
        flock.step()
    flock.step(1 / 30)
    flock.step(0)
    flock.tune("fish", cohesion_weight=1.5, max_neighbours=0)
    flock.despawn(flock.entities[:5].copy())
    flock.spawn("eel", [(100.0, 100.0)], [(10.0, 0.0)])
    for _ in range(5):
        flock.step()
    measure(flock)


def measure(flock: Flock) -> None:
    """The queries and metrics a game calls, with ints where a game might pass them."""
    config = flock.config
    wrap = (config.width, config.height) if config.wraps else None
    positions, velocities = flock.positions, flock.velocities
    flock.query(100, 100, 50)
    flock.query(100.5, 100.5, 50.5)
    flock.neighbours_of(int(flock.entities[0]))
    polarization(velocities)
    milling(positions, velocities)
    mean_nn_distance(positions, wrap)
    group_count(positions, 50.0, wrap)
    field = obstacle_field(flock)
    inside_obstacle(field, positions)
    surface(field, positions)
    first_hit(field, positions, positions + 10.0)
    groups(positions, 50.0, wrap)
    navigate(flock)


def navigate(flock: Flock) -> None:
    """Navigation: a host's wall sprites added and removed, steps round them, and the
    navigator's queries (ways, waypoints, fields towards targets and away from threats)."""
    walls: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
    for k in range(6):  # a wall of tiles across the leader's way, one gap
        walls.append(arcade.SpriteSolidColor(32, 32, 300 + 32 * k + 64 * (k > 2), 300))
    entities = add_obstacles(flock, walls)
    for _ in range(5):
        flock.step()
    nav = navigator(flock)
    positions = flock.positions
    nav.way_to((400.0, 200.0), positions, 6.0)
    nav.waypoint((400.0, 200.0), (400, 400), 40)
    slots = nav.seek_slots(positions[:3], np.array([100.0, math.inf, 500.0]))
    nav.sample(slots, positions[:3])
    nav.sample(np.array([nav.flee_slot(400, 400, 80)]), np.array([(410.0, 400.0)]))
    remove_obstacles(flock, entities)
    flock.step()


def draw(flock: Flock) -> None:
    """The render stage and the debug overlay, explaining one fish."""
    with flock.in_world():
        render = RenderSystem(flock)
        esper.add_processor(render, RENDER_PRIORITY)
    overlay = DebugOverlay(flock, render)
    overlay.toggle()
    overlay.select(int(flock.entities[0]))
    for _ in range(3):
        flock.step()
        render.draw(0.5)
        overlay.draw()
    overlay.forces_of(int(flock.entities[0]))


def crowd() -> None:
    """A flock past the threshold of the threaded kernels, a few steps."""
    flock = install(FlockConfig(3000, 3000, boundary="wrap", seed=2), species(), world="crowd")
    flock.scatter("fish", CROWD)
    flock.scatter("shark", 2)
    flock.relate("fish", "shark", "flee")
    for _ in range(3):
        flock.step()
    esper.delete_world("crowd")


def big_map() -> None:
    """A world too large to rasterize whole: navigation through a window that moves, with
    a tied leader and prey and a host's wall sprites (`Navigator.max_cells`)."""
    flock = install(FlockConfig(20_000, 20_000, seed=3), species(), world="big map")
    walls: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
    for k in range(8):  # a wall of tiles between the boids and their leader
        walls.append(arcade.SpriteSolidColor(32, 32, 3200, 2900 + 32 * k))
    add_obstacles(flock, walls)
    leader, prey = Position(3400.0, 3000.0), Position(3450.0, 3100.0)
    flock.create_entity(leader, Velocity(0.0, 0.0), Leader())
    flock.create_entity(prey, Velocity(0.0, 0.0), Prey())
    flock.scatter("fish", 40, centre=(3000.0, 3000.0), radius=100.0)
    flock.scatter("shark", 2, centre=(3000.0, 3000.0), radius=100.0)
    for k in range(6):
        if k == 3:  # far off: the window moves
            flock.positions[:] += 5000.0
            leader.x, prey.x = leader.x + 5000.0, prey.x + 5000.0
            leader.y, prey.y = leader.y + 5000.0, prey.y + 5000.0
        flock.step()
    navigator(flock).way_to((8400.0, 8000.0), flock.positions)
    esper.delete_world("big map")


def scene() -> None:
    """Every stage, in each boundary mode."""
    window = arcade.Window(320, 240, "warm check", visible=False)
    for k, boundary in enumerate(("contain", "bounce", "wrap")):
        # The bounce world updates in place (`FlockConfig.update`).
        update = "sequential" if boundary == "bounce" else "simultaneous"
        config = FlockConfig(800, 600, boundary=boundary, seed=k, update=update)
        flock = install(config, species(), world=boundary)
        populate(flock)
        play(flock)
        draw(flock)
        uninstall(flock)  # deletes the world install made
    crowd()
    big_map()
    window.close()


def control() -> None:
    """Compile a signature warm_up never made: a kernel helper called with ints."""
    clamp_length(3, 4, 1)


def new_signatures(before: Signatures, after: Signatures) -> dict[str, Any]:
    """Dispatchers with signatures that were not there before, and those signatures."""
    return {
        name: sorted(set(found) - set(before.get(name, [])))
        for name, found in after.items()
        if set(found) - set(before.get(name, []))
    }


def main() -> None:
    warm_up()
    warm = signatures()
    scene()
    played = signatures()
    control()
    report = {
        "dispatchers": len(warm),
        "new": new_signatures(warm, played),
        "control": new_signatures(played, signatures()),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
