"""The game as a user runs it: ``python -m shoal.game`` in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from shoal.game.__main__ import display_missing, parse_args
from shoal.game.help_text import GOAL, KEYS


def run_game(*args: str, cwd: Path, headless: bool = True, display: str | None = None
             ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "ARCADE_HEADLESS"}
    if headless:
        env["ARCADE_HEADLESS"] = "1"
    if display is not None:
        env["DISPLAY"] = display
    return subprocess.run([sys.executable, "-m", "shoal.game", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip


def fish_pixels(path: Path) -> int:
    """Pixels of the fish's orange / pale-yellow colours (red well above blue)."""
    pixels = np.asarray(Image.open(path).convert("RGB")).astype(int)
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return int(np.count_nonzero((red > 180) & (red - blue > 80) & (green > 60)))


@pytest.mark.slow
def test_headless_run_saves_a_screenshot_with_fish(tmp_path: Path) -> None:
    shot = tmp_path / "s.png"
    done = run_game("--headless", "--frames", "120", "--screenshot", str(shot), "--fish",
                    "200", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    with Image.open(shot) as image:
        assert image.size == (1280, 720)
    assert fish_pixels(shot) > 200 * 30  # ~24 x 12 px fish; schools hide some
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_without_a_window_it_falls_back_to_headless(tmp_path: Path) -> None:
    """DISPLAY points nowhere: the window cannot open, so it says so and plays headless."""
    done = run_game("--fish", "30", "--frames", "5", cwd=tmp_path, headless=False,
                    display=":shoal-test-no-such-display")  # fmt: skip
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


def test_help_names_every_control_and_the_goal(capsys: pytest.CaptureFixture[str]) -> None:
    """``shoal --help`` ends with the help card's own lines (one source) and the goal."""
    with pytest.raises(SystemExit) as exited:
        parse_args(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    for line in KEYS:  # as the help card shows them, each on its own line
        assert f"\n  {line}\n" in text
    for control in ("Mouse", "Click", "Space", "Period", "R:", "N:", "L:", "D:", "P:", "S:",
                    "M:", "F:", "H:", "Esc"):  # fmt: skip
        assert control in text
    assert " ".join(text.split("Goal:")[1].split()) == " ".join(GOAL.split("Goal:")[1].split())


def test_help_imports_no_arcade() -> None:
    """--help is read before the headless decision: it must not import arcade."""
    code = ("import sys\nfrom shoal.game.__main__ import epilog\nepilog()\n"
            "assert 'arcade' not in sys.modules, 'the help text imported arcade'\n")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
