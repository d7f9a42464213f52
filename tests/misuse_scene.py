"""The scene of `tests/test_misuse.py`: a flock with its render stage, the operations a
careless or hostile game might make on it (`Scene.do_*`), and what must hold after each
(`check_message`, `snapshot`, `assert_consistent`). The test draws the operations."""

import itertools
from collections.abc import Callable
from typing import Any

import esper
import numpy as np
import pytest

from shoal.components import (
    MAX_COORDINATE,
    Boid,
    Circle,
    Obstacle,
    Position,
    Predator,
    Rect,
    Species,
    Velocity,
)
from shoal.systems import (
    RENDER_PRIORITY,
    STAGES,
    Flock,
    FlockConfig,
    install,
    obstacle_field,
    uninstall,
)
from shoal.systems.flock.ecs import entities_with
from shoal.systems.render import RenderSystem

NAMES = ("a", "b")
W, H = 400.0, 300.0
Op = tuple[Any, ...]
_worlds = itertools.count()


# --- the scene --------------------------------------------------------------------------------
class Refused(Exception):
    """What a refused call must look like was checked; nothing changed."""


class Scene:
    """A flock with its render stage, poked at the way a careless or hostile game might."""

    def __init__(self, boundary: str, own_world: bool) -> None:
        self.world = f"misuse-{next(_worlds)}" if own_world else esper.current_world
        self.own_world = own_world
        self.config = FlockConfig(W, H, boundary=boundary, seed=1)
        self.rng = np.random.default_rng(1)
        # Entities that cannot be boids: the next step must refuse them (True), or may
        # (False: it shares a vector with a boid that may leave first).
        self.poisoned: dict[int, bool] = {}
        self.deleted = False  # the world was deleted: every call refuses
        self.obstacles: list[int] = []
        self.flock, self.render = self._install()

    def _install(self) -> tuple[Flock, RenderSystem]:
        species = [Species("a", catch_radius=4.0), Species("b", catch_radius=0.0)]
        flock = install(self.config, species, world=self.world if self.own_world else None)
        flock.relate("a", "b", "chase")
        render = RenderSystem(flock)
        with flock.in_world():
            esper.add_processor(render, RENDER_PRIORITY)
        return flock, render

    # --- helpers ---------------------------------------------------------------------------
    def esper(self) -> Any:
        """esper calls in the flock's world (the host's current one may be another)."""
        return self.flock.in_world()

    def boid(self, u: float, component: type[Any] = Boid) -> int | None:
        """A boid of the flock that esper still has, with a `component`, picked by u."""
        with self.esper():
            entities = [e for e in self.flock.entities.tolist()
                        if e in esper._entities and esper.has_component(e, component)]  # fmt: skip
        return entities[min(int(u * len(entities)), len(entities) - 1)] if entities else None

    def refused(self, call: Callable[[], object], kinds: tuple[type[Exception], ...],
                owner: str) -> None:  # fmt: skip
        """`call` must raise one of `kinds` with one short line naming `owner`, and change
        nothing (but for noticing a cleared world, which any call may do first)."""
        self.flock._members.check("refused", installed=False)
        before = snapshot(self)
        with pytest.raises(kinds) as raised:
            call()
        check_message(raised.value, owner)
        assert snapshot(self) == before, f"{owner} changed something before it refused"

    def apply(self, op: Op) -> None:
        if self.deleted:
            self.check_deleted()
            return
        getattr(self, f"do_{op[0]}")(*op[1:])

    # --- operations ------------------------------------------------------------------------
    def do_step(self, dt: float) -> None:
        if self.poisoned:
            try:
                self.flock.step(dt)
            except ValueError as error:  # refused, naming an entity; fixed, it steps
                check_message(error, "begin_step")
                assert "entit" in str(error)
            else:
                assert not any(self.poisoned.values()), "an entity that is no boid was taken"
            with self.esper():
                for entity in self.poisoned:
                    if entity in esper._entities:
                        esper.delete_entity(entity, immediate=True)
            self.poisoned.clear()
        self.flock.step(dt)
        assert_consistent(self)

    def do_spawn(self, name: str, count: int, u: float) -> None:
        points = self.rng.uniform((0, 0), (W * 0.99, H * 0.99), (count, 2))
        if name == "unknown":
            self.refused(lambda: self.flock.spawn(name, points), (ValueError,), "spawn")
            return
        entities = self.flock.spawn(name, points)
        assert len(entities) == count and all(e in self.flock.store for e in entities.tolist())

    def do_despawn(self, picks: list[str], u: float) -> None:
        chosen: list[int] = []
        bad = False
        for k, pick in enumerate(picks):
            entity = self.boid((u + 0.37 * k) % 1.0)
            if pick == "never":
                chosen.append(10**9 + len(chosen))
                bad = True
            elif pick == "gone" and entity is not None:
                with self.esper():
                    if esper.entity_exists(entity):  # (esper fails on one deleted both ways)
                        esper.delete_entity(entity, immediate=True)  # gone, not yet synced
                chosen.append(entity)
                bad = True
            elif entity is not None:
                chosen += [entity, entity] if pick == "twice" else [entity]
        if bad:
            self.refused(lambda: self.flock.despawn(chosen), (KeyError,), "despawn")
            return
        self.flock.despawn(chosen)
        assert not any(e in self.flock.store for e in chosen)

    def do_esper_delete(self, u: float, immediate: bool) -> None:
        entity = self.boid(u)
        with self.esper():  # esper itself fails on an entity deleted both ways
            if entity is not None and esper.entity_exists(entity):
                esper.delete_entity(entity, immediate=immediate)

    def do_esper_create(self, name: str, how: str) -> None:
        position, velocity = Position(50.0, 60.0), Velocity(20.0, 5.0)
        source = self.boid(0.5, Position) if how == "shared" else None
        with self.esper():
            if source is not None:
                position = esper.component_for_entity(source, Position)
            parts: list[Any] = [Boid(name)]
            if how != "no position":
                parts.append(position)
            if how != "no velocity":
                parts.append(velocity)
            entity = esper.create_entity(*parts)
            if how == "twins":  # a second entity with the same Position object
                self.poisoned[esper.create_entity(position, Velocity(1.0, 0.0), Boid("a"))] = True
        surely = name == "unknown" or how in ("no velocity", "no position", "twins")
        if surely or source is not None:
            self.poisoned[entity] = surely

    def do_replace(self, u: float, kind: str, how: str) -> None:
        entity = self.boid(u)
        if entity is None:
            return
        other = self.boid(1 - u, Position if kind == "Position" else Velocity)
        with self.esper():
            if kind == "Boid":
                name = {"new": "a", "other species": "b"}.get(how, "unknown")
                if how == "wrong type":
                    component: Any = Position(1.0, 1.0)
                else:
                    component = Boid(name)
                kind_type: type[Any] = Boid
            else:
                kind_type = Position if kind == "Position" else Velocity
                if how == "another boid's" and other is not None and other != entity:
                    component = esper.component_for_entity(other, kind_type)
                elif how == "wrong type":
                    component = Boid("a")
                else:
                    component = kind_type(123.0, 77.0)
        valid = not (
            how == "wrong type"
            or (kind == "Boid" and how in ("unknown", "another boid's"))
            or (kind != "Boid" and how == "another boid's" and component.bound)
        )

        def replace() -> None:
            with self.esper():
                esper.add_component(entity, component, type_alias=kind_type)

        with self.esper():
            present = esper.has_component(entity, kind_type)
        if not valid and present:  # a replacement: refused at once
            self.refused(replace, (ValueError,), "add_component")
            return
        replace()
        if not valid:  # added after a removal: esper has half done it; the step refuses
            self.poisoned[entity] = False

    def do_remove(self, u: float, kind: str) -> None:
        kind_type = {"Position": Position, "Velocity": Velocity, "Boid": Boid}[kind]
        entity = self.boid(u, kind_type)
        if entity is not None:
            with self.esper():
                esper.remove_component(entity, kind_type)

    def do_write(self, u: float, value: float) -> None:
        entity = self.boid(u, Position)
        if entity is None:
            return
        with self.esper():
            position = esper.component_for_entity(entity, Position)
        if not abs(value) <= MAX_COORDINATE:  # NaN too
            self.refused(lambda: setattr(position, "xy", (value, 10.0)), (ValueError,), "Position")
            return
        position.xy = (value, 10.0)
        assert position.xy == (value, 10.0)

    def do_clear(self) -> None:
        with self.esper():
            esper.clear_database()
        self.obstacles.clear()
        self.poisoned.clear()

    def do_obstacle(self, fx: float, fy: float) -> None:
        with self.esper():
            self.obstacles.append(esper.create_entity(Obstacle(Circle(fx * W, fy * H, 12.0))))

    def do_replace_obstacle(self, u: float, fy: float) -> None:
        alive = self.alive_obstacles()
        if alive:
            entity = alive[min(int(u * len(alive)), len(alive) - 1)]
            with self.esper():
                esper.add_component(entity, Obstacle(Rect(u * W, fy * H, 30.0, 8.0, 20.0)))

    def do_delete_obstacle(self, u: float, immediate: bool) -> None:
        alive = self.alive_obstacles()
        if alive:
            entity = alive[min(int(u * len(alive)), len(alive) - 1)]
            with self.esper():
                esper.delete_entity(entity, immediate=immediate)

    def alive_obstacles(self) -> list[int]:
        # esper itself fails on an entity deleted twice (deferred, then immediately):
        # its next process() finds the deferred one gone. Not shoal's to honour.
        with self.esper():
            return sorted(e for e in entities_with(Obstacle) if esper.entity_exists(e))

    def do_predator(self, fx: float, fy: float) -> None:
        with self.esper():
            esper.create_entity(Position(fx * W, fy * H), Predator(catch_radius=30.0, cooldown=0))

    def do_query(self, x: float, y: float, radius: float) -> None:
        got = set(self.flock.query(x, y, radius).tolist())
        d = self.flock.positions - np.array([x, y])
        if self.config.wraps:
            size = np.array([W, H])
            d = d - size * np.floor(d / size + 0.5)
        dist = np.hypot(d[:, 0], d[:, 1])
        entities = self.flock.entities
        surely = set(entities[dist < radius * (1 - 1e-9)].tolist())
        maybe = set(entities[dist <= radius * (1 + 1e-9) + 1e-9].tolist())
        assert surely <= got <= maybe, (x, y, radius, len(surely), len(got))

    def do_neighbours_of(self, u: float) -> None:
        entity = self.boid(u)
        if entity is None:
            self.refused(lambda: self.flock.neighbours_of(10**9), (KeyError,), "neighbours_of")
            return
        seen = self.flock.neighbours_of(entity).tolist()
        assert len(set(seen)) == len(seen) and entity not in seen
        assert all(e in self.flock.store for e in seen), "a neighbour that is no longer a boid"

    def do_remove_stage(self, index: int) -> None:
        with self.esper():
            esper.remove_processor(STAGES[index][0])

    def do_reinstall(self) -> None:
        old = self.flock
        uninstall(old)
        uninstall(old)  # twice: nothing more
        if self.own_world:  # install made the world: uninstall deleted it, with everything
            assert self.world not in esper.list_worlds()
            for call, owner in ((lambda: old.spawn("a", [(10.0, 10.0)]), "spawn"),
                                (old.step, "step")):  # fmt: skip
                with pytest.raises(RuntimeError) as raised:
                    call()
                check_message(raised.value, owner)
        else:
            self.refused(lambda: old.spawn("a", [(10.0, 10.0)]), (RuntimeError,), "spawn")
            self.refused(lambda: old.step(), (RuntimeError,), "step")
            with old.in_world():
                assert esper.get_processor(RenderSystem) is None  # its render stage went too
                for entity in self.poisoned:
                    if esper.entity_exists(entity):
                        esper.delete_entity(entity, immediate=True)
        self.poisoned.clear()
        self.flock, self.render = self._install()
        assert len(self.flock) == 0

    def do_delete_world(self) -> None:
        if not self.own_world:
            return  # the host's current world cannot be deleted (esper refuses)
        esper.delete_world(self.world)
        self.deleted = True
        self.check_deleted()

    def check_deleted(self) -> None:
        """Every call that needs the world refuses in one line; none makes it again."""
        calls: dict[str, Callable[[], object]] = {
            "spawn": lambda: self.flock.spawn("a", [(1.0, 1.0)]),
            "despawn": lambda: self.flock.despawn([]),
            "step": self.flock.step,
            "sync": self.flock.sync,
            "query": lambda: self.flock.query(1.0, 1.0, 5.0),
            "in_world": self.flock.in_world,
            "obstacle_field": lambda: obstacle_field(self.flock),
        }
        for owner, call in calls.items():
            with pytest.raises(RuntimeError) as raised:
                call()
            check_message(raised.value, owner)
        uninstall(self.flock)  # cleaning up after the world is gone is fine
        assert self.world not in esper.list_worlds()


# --- what must hold ---------------------------------------------------------------------------
def check_message(error: BaseException, owner: str) -> None:
    """One short printable line that starts with the function's name."""
    text = error.args[0] if isinstance(error, KeyError) and error.args else str(error)
    assert isinstance(text, str) and text.isprintable() and len(text) <= 300, text
    assert text.startswith(f"{owner}:") or text.startswith(f"{owner} "), text


def snapshot(scene: Scene) -> Any:
    """The flock's rows, its world's entities and components, and its sprites."""
    flock = scene.flock
    store = flock.store
    rows = tuple(
        a.tobytes() for a in (store.entities, store.positions, store.velocities, store.species)
    )
    with flock.in_world():
        world = {e: {t: id(c) for t, c in esper._entities[e].items()} for e in esper._entities}
    return rows, world, flock.species.params.tobytes(), len(scene.render.sprites)


def assert_consistent(scene: Scene) -> None:
    flock, store = scene.flock, scene.flock.store
    store.check()
    entities = flock.entities.tolist()
    with flock.in_world():
        assert entities_with(Boid) == set(entities), "the store and esper's boids differ"
        positions = [esper.component_for_entity(e, Position) for e in entities]
        velocities = [esper.component_for_entity(e, Velocity) for e in entities]
        species = [esper.component_for_entity(e, Boid).species for e in entities]
        shapes = [(e, esper.component_for_entity(e, Obstacle).shape)
                  for e in sorted(entities_with(Obstacle))]  # fmt: skip
    assert len({id(p) for p in positions}) == len(positions), "a Position is shared"
    assert len({id(v) for v in velocities}) == len(velocities), "a Velocity is shared"
    for row, (position, velocity) in enumerate(zip(positions, velocities, strict=True)):
        assert position.bound and velocity.bound
        assert position.xy == tuple(flock.positions[row]), "a Position is stale"
        assert velocity.xy == tuple(flock.velocities[row]), "a Velocity is stale"
    assert [flock.species.index(s) for s in species] == store.species.tolist()
    field = obstacle_field(flock)
    assert field.entities.tolist() == [e for e, _ in shapes]
    assert field.shapes == tuple(s for _, s in shapes), "the obstacle field is stale"
    assert np.isfinite(flock.positions).all() and np.isfinite(flock.velocities).all()
    render = scene.render
    render.frame(1.0)
    assert render.feed.sprites_of(flock.entities) == [render.feed.sprite_of(e) for e in entities]
    for entity, index in zip(entities, store.species.tolist(), strict=True):
        tint = render.look_of(index).tint
        assert tuple(render.feed.sprite_of(entity).color)[:3] == tint, "a sprite of another species"
