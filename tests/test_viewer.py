"""The flock viewer, run as a user would: ``python -m shoal.game`` in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from shoal.game.__main__ import display_missing


def run_game(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "shoal.game", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def fish_pixels(path: Path) -> int:
    """Pixels of the fish's orange / pale-yellow colours (red well above blue)."""
    pixels = np.asarray(Image.open(path).convert("RGB")).astype(int)
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return int(np.count_nonzero((red > 180) & (red - blue > 80) & (green > 60)))


def test_headless_run_saves_a_screenshot_with_fish(tmp_path: Path) -> None:
    shot = tmp_path / "s.png"
    done = run_game("--headless", "--frames", "120", "--screenshot", str(shot), "--fish", "200")
    assert done.returncode == 0, done.stderr
    assert shot.is_file()
    with Image.open(shot) as image:
        assert image.size == (1280, 720)
    # 200 fish of ~24 x 12 px; overlaps in schools hide some of them
    assert fish_pixels(shot) > 200 * 40
    assert "Traceback" not in done.stderr


def test_no_fish_means_only_water(tmp_path: Path) -> None:
    shot = tmp_path / "empty.png"
    done = run_game("--headless", "--frames", "2", "--fish", "0", "--screenshot", str(shot))
    assert done.returncode == 0, done.stderr
    assert fish_pixels(shot) == 0


def test_negative_fish_is_a_one_line_usage_error() -> None:
    done = run_game("--fish", "-3")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--fish" in done.stderr
    assert "Traceback" not in done.stderr


def test_other_bad_options_are_usage_errors(tmp_path: Path) -> None:
    for args in (
        ["--fish", "many"],
        ["--frames", "-1"],
        ["--seed", "-5"],
        ["--screenshot", str(tmp_path / "missing" / "s.png")],
        ["--nonsense"],
    ):
        done = run_game(*args)
        assert done.returncode == 2, args
        assert len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_without_a_window_it_falls_back_to_headless(tmp_path: Path) -> None:
    """DISPLAY points nowhere: the window cannot open, so it says so and runs headless."""
    done = subprocess.run(
        [sys.executable, "-m", "shoal.game", "--fish", "30", "--frames", "5"],
        env={
            **{k: v for k, v in os.environ.items() if k != "ARCADE_HEADLESS"},
            "DISPLAY": ":shoal-test-no-such-display",
        },
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "headless" in done.stdout
    assert (tmp_path / "shoal-screenshot.png").is_file()
    assert "Traceback" not in done.stderr


def test_display_detection() -> None:
    if sys.platform.startswith("linux"):
        saved = {k: os.environ.pop(k) for k in ("DISPLAY", "WAYLAND_DISPLAY") if k in os.environ}
        try:
            assert display_missing()
        finally:
            os.environ.update(saved)
