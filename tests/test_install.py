"""install() in the host's world or shoal's own; stage order; host processors in between."""

from typing import Any

import esper
import numpy as np
import pytest

from shoal.components import Position, Species
from shoal.systems import (
    MOTION_PRIORITY,
    STAGES,
    FlockConfig,
    NeighbourSystem,
    install,
    uninstall,
)


class Recorder(esper.Processor):
    """A host processor that notes when it ran and what the flock looked like."""

    def __init__(self, log: list[Any], flock: Any) -> None:
        self.log, self.flock = log, flock

    def process(self, *args: Any) -> None:
        self.log.append(("host", self.flock.store.accelerations.copy(), self.flock.steps))


def test_host_world_processors_run_between_stages(fresh_world: str) -> None:
    flock = install(FlockConfig(), [Species("fish")])
    assert flock.world == fresh_world
    flock.scatter("fish", 40)
    log: list[Any] = []
    # Just before motion: the accelerations are fresh, the boids not yet moved.
    esper.add_processor(Recorder(log, flock), MOTION_PRIORITY + 50)
    esper.process(1 / 60)
    ((_, accelerations, steps_before_motion),) = log
    assert np.any(accelerations != 0)
    assert steps_before_motion == 0 and flock.steps == 1
    expected: list[type] = [
        system for system, priority in STAGES if priority > MOTION_PRIORITY + 50
    ]
    expected.append(Recorder)
    expected += [system for system, priority in STAGES if priority < MOTION_PRIORITY + 50]
    assert [type(p) for p in esper._processors] == expected
    assert [priority for _, priority in STAGES] == sorted(
        (priority for _, priority in STAGES), reverse=True
    )


def test_own_world_leaves_the_host_world_alone(fresh_world: str) -> None:
    host_entity = esper.create_entity(Position(1, 2))
    flock = install(FlockConfig(), [Species("fish")], world=f"{fresh_world}-shoal")
    assert esper.current_world == fresh_world
    flock.scatter("fish", 25)
    assert esper.current_world == fresh_world
    assert len(esper.get_component(Position)) == 1  # the fish live in shoal's world
    assert esper.get_processor(NeighbourSystem) is None
    before = flock.positions.copy()
    flock.step()
    assert esper.current_world == fresh_world
    assert not np.array_equal(before, flock.positions)
    assert esper.component_for_entity(host_entity, Position).xy == (1.0, 2.0)
    esper.delete_world(f"{fresh_world}-shoal")


def test_second_install_in_one_world_is_refused() -> None:
    install(FlockConfig(), [Species("fish")])
    with pytest.raises(RuntimeError, match="already installed"):
        install(FlockConfig(), [Species("fish")])


def test_uninstall_removes_processors_and_boids() -> None:
    flock = install(FlockConfig(), [Species("fish")])
    flock.scatter("fish", 10)
    uninstall(flock)
    esper.process()
    assert len(flock) == 0
    assert esper.get_processor(NeighbourSystem) is None
    assert esper.get_component(Position) == []
    install(FlockConfig(), [Species("fish")])  # installable again


def test_dt_comes_from_process_or_config() -> None:
    sp = Species("fish", min_speed=60, max_speed=60)
    flock = install(FlockConfig(dt=0.1, boundary="wrap"), [sp])
    flock.spawn("fish", [[100.0, 100.0]], [[60.0, 0.0]])
    flock.step()  # no dt given: the configured 0.1 s
    assert flock.positions[0, 0] == pytest.approx(106.0)
    esper.process(0.05)
    assert flock.positions[0, 0] == pytest.approx(109.0)
