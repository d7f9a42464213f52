"""The fish-tank game: levels play, the CLI keeps its promises, the leader obeys the mouse."""

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import arcade
import numpy as np
import pytest
from PIL import Image

from shoal.game.level import level_names, load_level
from shoal.game.play import demo_summary
from shoal.game.tank import DT, Tank
from shoal.game.tank_view import TankView

STATS_KEYS = {"t", "fish", "polarization", "milling", "nn_distance", "groups", "fish_eaten",
              "food_eaten", "outside", "inside_obstacles"}  # fmt: skip


@pytest.mark.parametrize("name", level_names())
def test_every_level_plays_600_steps_with_every_fish_in_the_water(name: str) -> None:
    tank = Tank(load_level(name), seed=1, autopilot=True)
    try:
        for step in range(600):
            tank.step(DT)
            if step % 50 == 49 or tank.status != "playing":
                record = tank.stats()
                assert record.outside == 0, f"{name}: fish outside the tank at step {step}"
                assert record.inside_obstacles == 0, f"{name}: fish inside a rock at {step}"
            if tank.status != "playing":
                break
        assert tank.fish > 0
    finally:
        tank.close()


def game(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    return subprocess.run([sys.executable, "-m", "shoal.game", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip


@pytest.mark.slow
def test_headless_run_writes_a_screenshot_and_stats(tmp_path: Path) -> None:
    shot, stats = tmp_path / "tank.png", tmp_path / "stats.json"
    done = game("--headless", "--frames", "180", "--screenshot", str(shot), "--stats",
                str(stats), "--seed", "3", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    records = json.loads(stats.read_text())
    assert [r["t"] for r in records] == [1.0, 2.0, 3.0]
    assert all(set(r) == STATS_KEYS for r in records)
    assert records[-1]["outside"] == 0 and records[-1]["inside_obstacles"] == 0
    picture = np.asarray(Image.open(shot).convert("RGB")).reshape(-1, 3).astype(int)
    assert len(np.unique(picture // 16, axis=0)) > 10  # water, rocks, plants, fish: a scene


@pytest.mark.parametrize(
    "args",
    [
        ["--fish", "-3"],
        ["--fish", "0"],
        ["--fish", "2001"],
        ["--fish", "2000000"],
        ["--fish", "1" * 400],
        ["--frames", "1e9"],
        ["--level", "no-such-level"],
        ["--preset", "chaos"],
        ["--screenshot", "out.jpg"],
        ["--screenshot", "a-folder.png"],
        ["--stats", "a-folder.json"],
        ["--screenshot", "/proc/shoal.png"],
        ["--stats", "/sys/shoal.json"],
        ["--screenshot", "full.png"],
    ],
)
def test_user_mistakes_exit_2_with_one_line_before_the_run(args: list[str], tmp_path: Path
                                                           ) -> None:  # fmt: skip
    (tmp_path / "a-folder.png").mkdir()
    (tmp_path / "a-folder.json").mkdir()
    (tmp_path / "full.png").symlink_to("/dev/full")  # a full disk
    done = game(*args, "--headless", "--frames", "1", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert len(done.stderr) < 200
    assert "kernels" not in done.stdout  # refused before anything ran


def test_too_many_fish_names_the_limit(tmp_path: Path) -> None:
    done = game("--fish", "5000", "--headless", cwd=tmp_path)
    assert "1..2,000" in done.stderr and "smoothly" in done.stderr


@pytest.mark.slow
def test_a_one_step_run_says_one_step_and_stays_quiet(tmp_path: Path) -> None:
    done = game("--headless", "--frames", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "headless demo of Coral Reef: 0.02 s played, 60 fish, 0 home, 0 eaten by sharks" in (
        done.stdout
    )
    assert "status" not in done.stdout  # "status playing" said nothing to a player
    assert done.stderr == ""  # no audio-library noise, no warnings


def test_the_headless_demo_says_what_it_played() -> None:
    tank = Tank(load_level("caves"), seed=1, autopilot=True)
    try:
        for _ in range(120):
            tank.step(DT)
        tank.fish_eaten, tank.fish_home = 3, 2  # as if the sharks had caught some, and home
        line = demo_summary(tank)
        assert line == (f"shoal: headless demo of {tank.level.title}: 2.0 s played, "
                        f"{tank.fish} fish, 2 home, 3 eaten by sharks")  # fmt: skip
        tank.status = "lost"
        assert demo_summary(tank).endswith("; level lost")
    finally:
        tank.close()


def test_a_broken_level_file_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.tmj"
    broken.write_text('{"width": 40, "height":')
    done = game("--level", str(broken), "--headless", "--frames", "1", cwd=tmp_path)
    assert done.returncode == 2
    assert "broken.tmj" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    win = arcade.Window(640, 360, "test", visible=False)
    yield win
    win.close()


def make_view(level_name: str = "") -> TankView:
    level = load_level(level_name or level_names()[0])
    return TankView(level, lambda lv: Tank(lv, seed=2), intro=False)


def test_the_leader_swims_to_the_mouse_without_teleporting(window: arcade.Window) -> None:
    view = make_view()
    window.show_view(view)
    leader = view.tank.leader
    assert leader is not None
    start = (leader.x, leader.y)
    # The window shows the whole tank: this pixel is a quarter of the way in from the left.
    target_px = (window.width * 0.25, window.height * 0.5)
    view.on_mouse_motion(int(target_px[0]), int(target_px[1]), 0, 0)
    target = view.tank.target
    steps = []
    for _ in range(600):
        view.step()
        steps.append((leader.x, leader.y))
    path = np.array([start, *steps])
    assert np.linalg.norm(np.diff(path, axis=0), axis=1).max() <= 150 * DT + 1e-6
    assert math.dist(steps[-1], target) < 40
    assert math.dist(start, target) > 100
    view.tank.close()


def test_reloading_a_broken_level_keeps_the_current_one(window: arcade.Window, tmp_path: Path
                                                        ) -> None:  # fmt: skip
    source = load_level(level_names()[0]).path
    copy = tmp_path / "copy.tmj"
    copy.write_text(source.read_text())
    view = TankView(load_level(copy), lambda lv: Tank(lv, seed=2), intro=False)
    window.show_view(view)
    for _ in range(30):
        view.step()
    tank = view.tank
    copy.write_text("{ not json")
    view.reload()
    assert view.tank is tank  # still playing the same level
    assert "copy.tmj" in view.hud.error
    view.on_draw()  # and the error is drawn without trouble
    view.tank.close()


def test_clicking_drops_sinking_food(window: arcade.Window) -> None:
    view = make_view()
    window.show_view(view)
    before = len(view.tank.food_items())
    view.on_mouse_press(window.width // 2, window.height // 2, arcade.MOUSE_BUTTON_LEFT, 0)
    items = view.tank.food_items()
    assert len(items) == before + 1
    y0 = items[-1][1]
    view.step()
    assert view.tank.food_items()[-1][1] < y0
    view.tank.close()


def test_d_toggles_the_overlay_and_a_click_explains_a_fish(window: arcade.Window) -> None:
    view = make_view()
    window.show_view(view)
    assert not view.overlay.enabled
    view.on_key_press(arcade.key.D, 0)
    assert view.overlay.enabled and view.overlay.selected is not None
    view.on_draw()
    view.on_key_press(arcade.key.R, 0)  # a restart keeps it shown
    assert view.overlay.enabled
    fish = view.tank.flock
    x, y = view.camera.project(tuple(fish.positions[5]))
    view.on_mouse_press(round(x), round(y), arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.overlay.selected == int(fish.entities[5])
    view.on_key_press(arcade.key.D, 0)
    assert not view.overlay.enabled
    view.tank.close()


def test_on_draw_interpolates_at_the_step_clock_fraction(window: arcade.Window) -> None:
    view = make_view()
    window.show_view(view)
    view.on_update(DT * 1.25)  # one step due, a quarter of the next
    assert view.steps_taken == 1
    view.on_draw()
    assert view.render.last_frame is not None
    assert view.render.last_frame.alpha == pytest.approx(0.25)
    view.interpolate = False
    view.on_draw()
    assert view.render.last_frame.alpha == 1.0
    view.tank.close()
