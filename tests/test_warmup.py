"""warm_up() prepares every kernel a game uses, without touching the caller's esper world."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import esper
import pytest

from shoal.components import Position
from shoal.systems import warm_up


def test_warm_up_leaves_the_current_world_alone(fresh_world: str) -> None:
    entity = esper.create_entity(Position(1, 2))
    worlds = set(esper.list_worlds())
    assert warm_up() >= 0.0
    assert esper.current_world == fresh_world
    assert set(esper.list_worlds()) == worlds
    assert esper.get_component(Position) == [(entity, esper.component_for_entity(entity, Position))]


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    """What tests/warm_check.py found, run in a fresh process (so that nothing compiled by
    other tests counts)."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("warm_check.py"))],
        env={**os.environ, "ARCADE_HEADLESS": "1"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.slow
def test_nothing_compiles_after_warm_up(report: dict[str, Any]) -> None:
    # Every stage, agent, obstacle shape, steering style, boundary mode, the threaded
    # kernels, queries, metrics, the render stage and the overlay (see warm_check.py).
    assert report["dispatchers"] > 20
    assert report["new"] == {}, f"compiled after warm_up: {report['new']}"


@pytest.mark.slow
def test_the_warm_up_check_sees_a_new_signature(report: dict[str, Any]) -> None:
    assert list(report["control"]) == ["shoal.systems.core.maths.clamp_length"]
