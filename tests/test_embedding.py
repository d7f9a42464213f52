"""A host game embeds shoal: its own esper world, processors, entities and `Position` class.

Neither side may disturb the other: the host's entities move only by the host's processors,
the boids move exactly as they would alone, both sets of processors run in the documented
priority order, and esper never confuses the host's `Position` with shoal's (it keys
components by class). Also here: the API reference a host reads (docs/api.md) is complete and
up to date.
"""

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import itertools
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import esper
import numpy as np
import pytest

import shoal.components
import shoal.systems
from shoal.components import Boid, Predator, Species, Velocity
from shoal.components import Position as ShoalPosition
from shoal.systems import (
    BOID_EATEN,
    LIFECYCLE_PRIORITY,
    NEIGHBOURS_PRIORITY,
    RENDER_PRIORITY,
    SEEKING_PRIORITY,
    STAGES,
    STEERING_PRIORITY,
    Flock,
    FlockConfig,
    NeighbourSystem,
    install,
)

ROOT = Path(__file__).resolve().parent.parent
DT = 1 / 60
STEPS = 90
BOIDS = 60
CONFIG = FlockConfig(width=600, height=400, seed=11)
FISH = Species("fish")


# --- the host game ------------------------------------------------------------------------
@dataclass
class Position:
    """The host's own Position: the same name as shoal's, another class."""

    x: float
    y: float


@dataclass
class Fall:
    """The host's own component: vertical speed under gravity (px/s)."""

    vy: float = 0.0


class Gravity(esper.Processor):
    """The host's physics, on the host's Position."""

    def process(self, dt: float) -> None:
        for _, (position, fall) in esper.get_components(Position, Fall):
            fall.vy -= 98.0 * dt
            position.y += fall.vy * dt


@contextmanager
def world(name: str) -> Iterator[str]:
    """Run the block in a new esper world `name`; switch back and delete it afterwards."""
    previous = esper.current_world
    esper.switch_world(name)
    try:
        yield name
    finally:
        esper.switch_world(previous)
        if name in esper.list_worlds():
            esper.delete_world(name)
        for extra in [w for w in esper.list_worlds() if w.startswith(f"{name}-")]:
            esper.delete_world(extra)


def host_entities(count: int = 5) -> list[int]:
    """The host's bodies: its own Position and Fall, nothing of shoal's."""
    return [esper.create_entity(Position(50.0 * k, 300.0), Fall()) for k in range(count)]


def host_positions(entities: list[int]) -> list[tuple[float, float]]:
    return [(p.x, p.y) for p in (esper.component_for_entity(e, Position) for e in entities)]


def alone(steps: int = STEPS) -> list[np.ndarray[Any, Any]]:
    """The flock's positions after each step when nothing else shares its world."""
    flock = install(CONFIG, [FISH], world="embedding-reference")
    try:
        flock.scatter("fish", BOIDS)
        trail = []
        for _ in range(steps):
            flock.step(DT)
            trail.append(flock.positions.copy())
        return trail
    finally:
        esper.delete_world("embedding-reference")


def falling_alone(steps: int = STEPS) -> list[tuple[float, float]]:
    """Where the host's bodies end up when no flock shares the world."""
    with world("embedding-host-only"):
        bodies = host_entities()
        esper.add_processor(Gravity(), NEIGHBOURS_PRIORITY + 100)
        for _ in range(steps):
            esper.process(DT)
        return host_positions(bodies)


# --- shoal in the host's world -------------------------------------------------------------
def test_host_and_flock_share_a_world_without_disturbing_each_other() -> None:
    reference = alone()
    with world("embedding-host"):
        bodies = host_entities()
        # One host entity carries both Position classes: esper must keep them apart.
        both = esper.create_entity(Position(1.0, 2.0), ShoalPosition(3.0, 4.0))
        esper.add_processor(Gravity(), NEIGHBOURS_PRIORITY + 100)  # before shoal's stages
        flock = install(CONFIG, [FISH])
        assert flock.world == "embedding-host"
        fish = flock.scatter("fish", BOIDS)
        for k in range(STEPS):
            esper.process(DT)
            # The boids move exactly as they would alone: the host changes nothing of theirs.
            assert np.array_equal(flock.positions, reference[k])
        # The host's bodies moved by gravity alone, as they would without the flock.
        assert host_positions(bodies) == falling_alone()
        # esper keys components by class: each query finds its own class only.
        hosts = {e for e, _ in esper.get_component(Position)}
        assert hosts == {*bodies, both}
        shoals = {e for e, _ in esper.get_component(ShoalPosition)}
        assert shoals == {*fish.tolist(), both}
        assert all(isinstance(p, Position) for _, p in esper.get_component(Position))
        # The entity with both: shoal did not adopt it (no Boid) and moved neither vector.
        assert esper.component_for_entity(both, Position) == Position(1.0, 2.0)
        assert esper.component_for_entity(both, ShoalPosition).xy == (3.0, 4.0)
        assert both not in flock.entities
        # A boid's shoal Position is its live row; it has no host Position.
        row = flock.store.row(int(fish[0]))
        assert esper.component_for_entity(int(fish[0]), ShoalPosition).xy == tuple(
            flock.positions[row]
        )
        assert not esper.has_component(int(fish[0]), Position)


def test_deleting_the_hosts_entities_does_not_disturb_the_flock() -> None:
    reference = alone()
    with world("embedding-delete"):
        bodies = host_entities()
        both = esper.create_entity(Position(1.0, 2.0), ShoalPosition(3.0, 4.0))
        esper.add_processor(Gravity(), NEIGHBOURS_PRIORITY + 100)
        flock = install(CONFIG, [FISH])
        fish = set(flock.scatter("fish", BOIDS).tolist())
        for k in range(STEPS):
            if k == STEPS // 2:
                for entity in [*bodies, both]:
                    esper.delete_entity(entity)
            esper.process(DT)
            assert np.array_equal(flock.positions, reference[k])
        assert set(flock.entities.tolist()) == fish
        assert esper.get_component(Position) == []
        assert {e for e, _ in esper.get_component(ShoalPosition)} == fish


class Recorder(esper.Processor):
    """A host processor that notes when it ran and what the flock looked like then."""

    label = ""

    def __init__(self, flock: Flock, log: list[tuple[str, int, Any, Any]]) -> None:
        self.flock, self.log = flock, log

    def process(self, dt: float) -> None:
        store = self.flock.store
        self.log.append((self.label, self.flock.steps, store.positions.copy(),
                         store.accelerations.copy()))  # fmt: skip


class Input(Recorder):
    label = "input"


class Forces(Recorder):
    """Between steering and seeking: adds a current that pushes every boid to +x."""

    label = "forces"

    def process(self, dt: float) -> None:
        super().process(dt)
        self.flock.store.accelerations[:, 0] += 500.0


class Reactions(Recorder):
    label = "reactions"


class Bookkeeping(Recorder):
    label = "bookkeeping"


def test_host_processors_run_in_the_documented_priority_order() -> None:
    with world("embedding-order"):
        flock = install(CONFIG, [FISH])
        flock.scatter("fish", BOIDS)
        log: list[tuple[str, int, Any, Any]] = []
        esper.add_processor(Bookkeeping(flock, log))  # esper's default priority: 0, last
        esper.add_processor(Reactions(flock, log), LIFECYCLE_PRIORITY - 50)
        esper.add_processor(Forces(flock, log), (STEERING_PRIORITY + SEEKING_PRIORITY) // 2)
        esper.add_processor(Input(flock, log), NEIGHBOURS_PRIORITY + 100)
        for system, priority in STAGES:
            processor = esper.get_processor(system)
            assert processor is not None and processor.priority == priority
        start = flock.positions.copy()
        for _ in range(3):
            esper.process(DT)
        labels = [entry[0] for entry in log]
        assert labels == ["input", "forces", "reactions", "bookkeeping"] * 3
        for k in range(3):
            (_, s_in, p_in, _), (_, s_force, p_force, a_force), (_, s_react, p_react, _), _ = log[
                4 * k : 4 * k + 4
            ]
            # Before neighbours and before steering: the boids have not moved this step.
            assert s_in == s_force == k and s_react == k + 1
            assert np.array_equal(p_in, p_force)
            assert np.any(a_force != 0)  # steering has written this step's accelerations
            assert not np.array_equal(p_react, p_in)  # after motion: they have moved
        # The host's force reached the boids: they drift to +x against the reference.
        assert np.mean(flock.positions[:, 0] - start[:, 0]) > np.mean(
            alone(3)[-1][:, 0] - start[:, 0]
        )


# --- shoal in a world of its own -----------------------------------------------------------
def test_flock_in_its_own_world_beside_the_host() -> None:
    reference = alone()
    with world("embedding-own"):
        bodies = host_entities()
        esper.add_processor(Gravity())
        flock = install(CONFIG, [FISH], world="embedding-own-flock")
        assert esper.current_world == "embedding-own"
        assert esper.get_processor(NeighbourSystem) is None  # none of shoal's stages here
        flock.scatter("fish", BOIDS)
        assert esper.get_component(ShoalPosition) == []  # the boids live in their world
        for k in range(STEPS):
            esper.process(DT)  # the host's step: gravity only
            flock.step(DT)  # the flock's step: its own world's processors only
            assert esper.current_world == "embedding-own"
            assert np.array_equal(flock.positions, reference[k])
        assert flock.steps == STEPS
        assert host_positions(bodies) == falling_alone()


class Catches:
    """Collects BOID_EATEN (esper keeps handlers by weak reference: keep this alive)."""

    def __init__(self) -> None:
        self.boids: list[int] = []

    def on_boid_eaten(self, boid: int, hunter: int, x: float, y: float) -> None:
        self.boids.append(boid)


def test_event_handlers_belong_to_the_world_they_were_set_in() -> None:
    """As the README says: set handlers while the flock's world is current."""
    host, in_flock_world = Catches(), Catches()
    with world("embedding-events"):
        esper.set_handler(BOID_EATEN, host.on_boid_eaten)
        flock = install(CONFIG, [FISH], world="embedding-events-flock")
        flock.scatter("fish", 20, centre=(300, 200), radius=30)
        esper.switch_world(flock.world)
        esper.create_entity(ShoalPosition(300, 200), Velocity(), Predator(catch_radius=200))
        esper.set_handler(BOID_EATEN, in_flock_world.on_boid_eaten)
        esper.switch_world("embedding-events")
        flock.step(DT)
        esper.remove_handler(BOID_EATEN, host.on_boid_eaten)
    assert len(in_flock_world.boids) == 1 and host.boids == []


def test_a_handler_may_despawn_another_boid() -> None:
    flock = install(CONFIG, [FISH])
    fish = flock.spawn("fish", [(100, 100), (500, 300), (150, 300), (305, 200)], [(0, 40)] * 4)
    esper.create_entity(ShoalPosition(300, 200), Predator(catch_radius=20, cooldown=0))

    class Chain:
        def on_boid_eaten(self, boid: int, hunter: int, x: float, y: float) -> None:
            flock.despawn([int(fish[0])])  # the game removes another fish in reaction

    chain = Chain()
    esper.set_handler(BOID_EATEN, chain.on_boid_eaten)
    flock.step(DT)
    assert sorted(flock.entities.tolist()) == sorted(int(e) for e in fish[1:3])


# --- the reference a host reads --------------------------------------------------------------
PACKAGES = (shoal.components, shoal.systems)


def own_docstring(package: ModuleType, name: str) -> str:
    """The docstring written for `name` itself: on its class or function, or, for a
    constant, the string right after its assignment. Never inherited or generated."""
    obj = getattr(package, name)
    if inspect.isclass(obj) or inspect.isfunction(obj):
        node = ast.parse(inspect.cleandoc("\n" + inspect.getsource(obj))).body[0]
        assert isinstance(node, ast.ClassDef | ast.FunctionDef)
        return ast.get_docstring(node) or ""
    body = ast.parse(inspect.getsource(load_make_api().origin(package, name))).body
    for node, after in itertools.pairwise(body):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        named = any(isinstance(t, ast.Name) and t.id == name for t in targets)
        if named and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            return str(after.value.value)
    return ""


def public_names() -> list[Any]:
    params = []
    for package in PACKAGES:
        for name in package.__all__:
            params.append(pytest.param(package, name, id=f"{package.__name__}.{name}"))
    return params


@pytest.mark.parametrize(("package", "name"), public_names())
def test_every_public_name_has_a_docstring(package: ModuleType, name: str) -> None:
    assert own_docstring(package, name).strip(), f"{package.__name__}.{name} has no docstring"


def load_make_api() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_api", ROOT / "docs" / "make_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_api_reference_and_the_species_table_are_up_to_date() -> None:
    # --check compares docs/api.md and the species table in docs/behaviours.md with what the
    # code gives now, and writes nothing.
    command = [sys.executable, str(ROOT / "docs" / "make_api.py"), "--check"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_a_stale_species_table_is_written_anew() -> None:
    make_api = load_make_api()
    page = (ROOT / "docs" / "behaviours.md").read_text(encoding="utf-8")
    stale = page.replace("| `max_speed` | `110.0` |", "| `max_speed` | `120.0` |")
    assert stale != page, "the species table has no max_speed row to make stale"
    assert make_api.with_species_table(stale) == page


def test_the_reference_lists_every_public_name_and_species_parameter() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for package in PACKAGES:
        for name in package.__all__:
            assert f"`{name}" in text, f"{package.__name__}.{name} is not in docs/api.md"
    for field in dataclasses.fields(Species):
        assert f"| `{field.name}` |" in text, f"Species.{field.name} is not in docs/api.md"
    for system, priority in [*STAGES, (None, RENDER_PRIORITY)]:
        assert f"| {priority} |" in text
        if system is not None:
            assert f"`{system.__name__}`" in text


def test_boids_are_marked_with_boid() -> None:
    """Hosts filter query results by species through the Boid marker (the README shows it)."""
    flock = install(CONFIG, [FISH, Species("eel")])
    eels = flock.scatter("eel", 3)
    flock.scatter("fish", 3)
    found = flock.query(300, 200, 1000).tolist()
    assert sorted(e for e in found if esper.component_for_entity(e, Boid).species == "eel") == (
        sorted(eels.tolist())
    )
