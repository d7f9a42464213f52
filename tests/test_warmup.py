"""warm_up() prepares the kernels without touching the caller's esper world."""

import esper

from shoal.components import Position
from shoal.systems import warm_up


def test_warm_up_leaves_the_current_world_alone(fresh_world: str) -> None:
    entity = esper.create_entity(Position(1, 2))
    worlds = set(esper.list_worlds())
    assert warm_up() >= 0.0
    assert esper.current_world == fresh_world
    assert set(esper.list_worlds()) == worlds
    assert esper.get_component(Position) == [(entity, esper.component_for_entity(entity, Position))]
