"""Shared fixtures: every test gets a fresh esper world, so tests never see each other's."""

import os
from collections.abc import Iterator

# Render off-screen (EGL; Mesa llvmpipe without a GPU), also on a desktop. Must be set before
# anything imports arcade.
os.environ.setdefault("ARCADE_HEADLESS", "1")

import pytest

from worlds import scratch_world


@pytest.fixture(autouse=True)
def fresh_world() -> Iterator[str]:
    """Run the test in a new, empty esper world; delete it afterwards."""
    with scratch_world() as name:
        yield name
