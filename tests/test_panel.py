"""In a real window under Xvfb: the tuning panel (arcade.gui cannot run headless) and the
game's own loop (arcade.run calling on_fixed_update and on_draw)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Each starts the game in a real (virtual) window under xvfb-run: seconds each.
pytestmark = [pytest.mark.window, pytest.mark.slow]

HERE = Path(__file__).resolve().parent


def under_xvfb(*command: str) -> subprocess.CompletedProcess[str]:
    """Run a command on a virtual screen (fails in CI, skips elsewhere, without Xvfb)."""
    if shutil.which("xvfb-run") is None:
        if os.environ.get("CI"):
            pytest.fail("xvfb-run is missing: .ci/run installs the Debian package xvfb")
        pytest.skip("xvfb-run not installed (Debian package xvfb)")
    env = {k: v for k, v in os.environ.items() if k != "ARCADE_HEADLESS"}
    return subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", *command],
        env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def test_panel_sliders_and_presets_apply_live(tmp_path: Path) -> None:
    shot = tmp_path / "panel.png"
    done = under_xvfb(sys.executable, str(HERE / "panel_check.py"), str(shot))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "panel ok" in done.stdout
    assert shot.is_file()


def test_a_2000_fish_tank_keeps_drawing_in_a_real_window() -> None:
    done = under_xvfb(sys.executable, str(HERE / "loop_check.py"))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "loop ok" in done.stdout


def test_the_game_plays_in_a_window(tmp_path: Path) -> None:
    shot, stats = tmp_path / "window.png", tmp_path / "stats.json"
    done = under_xvfb(sys.executable, "-m", "shoal.game", "--level", "caves", "--frames",
                      "150", "--screenshot", str(shot), "--stats", str(stats))  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert shot.is_file()
    records = json.loads(stats.read_text())
    assert [r["t"] for r in records] == [1.0, 2.0]
    assert records[-1]["inside_obstacles"] == 0
