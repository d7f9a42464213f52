"""Shared fixtures: every test gets a fresh esper world, so tests never see each other's;
rendering tests share a hidden headless window."""

import os
import tempfile
from collections.abc import Iterator

# Render off-screen (EGL; Mesa llvmpipe without a GPU), also on a desktop. Must be set before
# anything imports arcade.
os.environ.setdefault("ARCADE_HEADLESS", "1")
# The game keeps best scores in the user's data folder and S saves to the pictures folder:
# tests (and the games they start) use throw-away ones, never the real ones.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="shoal-test-data-")
os.environ["XDG_PICTURES_DIR"] = tempfile.mkdtemp(prefix="shoal-test-pictures-")

import arcade
import pytest

from worlds import scratch_world


@pytest.fixture(autouse=True)
def fresh_world() -> Iterator[str]:
    """Run the test in a new, empty esper world; delete it afterwards."""
    with scratch_world() as name:
        yield name


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    """One hidden 320 x 240 headless window for a module (reuse one if another module left
    it open): drawing needs a window's OpenGL context."""
    try:
        yield arcade.get_window()
        return
    except RuntimeError:
        pass
    win = arcade.Window(320, 240, "shoal tests", visible=False)
    yield win
    win.close()
