"""`import shoal` hands a host game the whole public API, and imports arcade only when asked
to draw (a headless simulation never needs it)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import shoal

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", shoal.__all__)
def test_every_name_of_the_front_door_is_there(name: str) -> None:
    assert getattr(shoal, name) is not None


@pytest.mark.slow
def test_import_shoal_does_not_import_arcade_until_drawing_is_asked() -> None:
    script = (
        "import sys, shoal\n"
        "assert 'arcade' not in sys.modules, 'import shoal imported arcade'\n"
        "flock = shoal.install(shoal.FlockConfig(300, 200), [shoal.Species('fish')])\n"
        "flock.scatter('fish', 10); flock.update(0.05)\n"
        "assert 'arcade' not in sys.modules, 'a headless flock imported arcade'\n"
        "assert shoal.SpeciesLook.__module__ == 'shoal.systems.render.looks'\n"
        "assert 'arcade' in sys.modules\n"
        "print('ok', flock.steps)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "ARCADE_HEADLESS": "1"},
        cwd=ROOT / "tests",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    word, steps = done.stdout.split()
    assert word == "ok" and int(steps) >= 1  # (the first steps may exceed a frame's budget)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'shoal' has no attribute 'Fish'"):
        _ = shoal.Fish  # module __getattr__: mypy takes any name


def test_install_refuses_bad_drawing_options_and_installs_nothing(fresh_world: str) -> None:
    with pytest.raises(ValueError, match=r"install: render = 'yes' must be a bool"):
        shoal.install(None, [shoal.Species("fish")], render="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"install: looks = \['fish'\] must be a mapping"):
        shoal.install(None, [shoal.Species("fish")], looks=["fish"])  # type: ignore[arg-type]
    assert shoal.installed_flock(fresh_world) is None
