"""Put a saved flock back: its boids as new entities of the flock's world, and its state.

`restore(flock, snapshot)` checks the whole snapshot first (`checks.plan`: a refused one
changes nothing), then replaces the flock's boids, species and relations, random generator,
step clock and current by the saved ones, gives the tied sprites their last motion back and
rebuilds the navigation fields the flock had. Steps after it continue the saved flock bit for
bit, given the same obstacles and agents in the world (see docs/embedding.md).
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import esper
import numpy as np

from shoal.components import Boid, Position, Velocity
from shoal.components import arguments as check
from shoal.systems.core.step import Step
from shoal.systems.flock.clock import StepClock
from shoal.systems.flock.ecs import in_world, processors
from shoal.systems.flock.flock import Flock
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.obstacles.nav_state import resume_nav
from shoal.systems.saving.checks import Plan, plan


def restore(flock: Flock, snapshot: object, source: str = "snapshot") -> dict[int, int]:
    """Replace the flock's boids and state by a snapshot's (`snapshot(flock)`, or one read
    with `read_snapshot`); returns each saved entity's new entity (boids and tied sprites),
    so that a host can find its own objects again.

    Install the flock with the saved flock's `FlockConfig`, and before restoring create the
    world's obstacles and agents again and tie the same sprites in the same order (their
    last motion is restored). The flock's boids are replaced (despawned), its other
    entities are left alone.

    Raises:
        SaveError: the snapshot is not one shoal can restore into this flock (one line,
            starting with `source`); nothing changed.
        ValueError: `flock` is not a `Flock`, or `source` not a str.
        RuntimeError: the flock was uninstalled, or its world deleted.
    """
    check.instance("restore", "flock", flock, Flock)
    check.text("restore", "source", source)
    flock._members.check("restore")
    checked = plan(snapshot, flock, source)
    flock._members.drop_gone()  # deleted through esper since the last step: not to despawn
    flock.despawn(flock.entities.copy())
    flock.species.replace(checked.species, checked.relations)
    flock._markers = {s.name: Boid(s.name) for s in checked.species}
    flock._grid = None
    with _collector_paused():
        entities = _boids(flock, checked)
    flock.rng.bit_generator.state = checked.rng
    _clock(flock, checked)
    tied = _ties(flock, checked)
    resume_nav(flock, checked.nav)
    saved = checked.columns["entity"].tolist()
    return {**dict(zip(saved, entities.tolist(), strict=True)), **tied}


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the boids' entities are made: some
    60,000 new objects (no cycles among them) set off collections that walk the host's
    whole heap, which cost 3 to 8 times the work itself (10,000 boids beside a flock of as
    many: 130-280 ms against 28-55 ms a restore, measured side by side)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _boids(flock: Flock, checked: Plan) -> np.ndarray:
    """New entities for the saved boids, their rows in the saved order, every column."""
    columns = checked.columns
    count = len(columns["entity"])
    names = [s.name for s in checked.species]
    kinds = columns["species"].tolist()
    with in_world(flock.world):
        markers = [flock._markers[names[k]] for k in kinds]
        entities = np.fromiter(
            (esper.create_entity(Position(), Velocity(), marker) for marker in markers),
            np.int64,
            count,
        )
        flock._members.adopt(entities, columns["species"], columns["position"], columns["velocity"])
    store = flock.store
    for name, values in columns.items():
        if name != "entity":
            store.column(name)[:] = values
    store.version += 1
    flock._members.joined.clear()  # restored as they were, not new to the next step
    return entities


def _clock(flock: Flock, checked: Plan) -> None:
    """The step number and length the navigation's reuse reads, and `update`'s clock."""
    store = flock.store
    flock.step_state = Step(checked.number, checked.dt, store.layout)
    with in_world(flock.world):  # each stage ran that step: the next one begins a new step
        for stage in processors():
            if isinstance(stage, FlockProcessor) and stage.flock is flock:
                stage._ran = checked.number
    flock._step_entities = store.entities.copy()
    flock.steps = checked.steps
    flock.current = checked.current
    on, owed, dropped, paused = checked.clock
    flock.clock = None
    if on:
        flock.clock = StepClock(flock.config.dt)
        flock.clock.owed, flock.clock.dropped, flock.clock.paused = owed, dropped, paused


def _ties(flock: Flock, checked: Plan) -> dict[int, int]:
    """The tied sprites' last positions and velocities, in the order they were tied."""
    ties = checked.ties
    members = flock.ties.members()
    found = {}
    for k, member in enumerate(members):
        member.position.xy = tuple(ties["position"][k].tolist())
        member.velocity.xy = tuple(ties["velocity"][k].tolist())
        member.fresh = bool(ties["fresh"][k])
        found[int(ties["entity"][k])] = member.entity
    return found
