"""warm_up() prepares every kernel a game uses, without touching the caller's esper world; on
a cold cache the game's loading screen prepares the level's own kernels first, and starts the
game once they are ready."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import arcade
import esper
import pytest

from shoal.components import Position
from shoal.game import level_kernels, loading, play, screens
from shoal.game.level import level_names, load_level
from shoal.game.loading import LevelPreparation, LoadingView, prepare_level
from shoal.game.tank import Tank
from shoal.game.tank_view import TankView
from shoal.systems import Preparation, warm_up


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


FAKE_LEVEL_CHILD = """
import os, sys, time
print("0.4000\\tthe level", flush=True)
print("ready", flush=True)
while not os.path.exists(sys.argv[1]):  # compiling the rest, until the test lets it end
    time.sleep(0.02)
print("1.0000\\tready", flush=True)
"""


def _fake_level_child(monkeypatch: pytest.MonkeyPatch, script: str, *args: str) -> list[str]:
    """`prepare_level` with `script` as its child and the brief play in the thread recorded
    (not run); the list of the levels played."""
    played: list[str] = []
    monkeypatch.setattr(loading, "play_level_briefly",
                        lambda level, *_, **__: played.append(level.name))  # fmt: skip
    # As for a level the package did not come compiled with: the child's word is waited for.
    monkeypatch.setattr(loading, "compiled_with_package", lambda level, *_: False)

    def start(self: LevelPreparation, *_: object) -> "subprocess.Popen[str]":
        return subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                                text=True)  # fmt: skip

    monkeypatch.setattr(LevelPreparation, "_start_child", start)
    return played


def test_the_loading_screen_starts_the_level_once_the_child_says_ready(
    window: arcade.Window, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The child compiles the level's kernels, says so, and goes on with the rest: the game
    # starts then, not when the child ends.
    played = _fake_level_child(monkeypatch, FAKE_LEVEL_CHILD, str(tmp_path / "end"))
    preparation = prepare_level(load_level("reef"), 30, 0)
    made: list[arcade.View] = []

    def then() -> arcade.View:
        made.append(arcade.View())
        return made[0]

    view = LoadingView(preparation, then)
    window.show_view(view)
    view.on_draw()
    assert preparation.wait(60.0) and preparation.error is None
    assert played == ["reef"]  # its kernels loaded here, behind the screen
    assert not preparation.rest.is_set()  # the child still compiles the rest
    view.on_update(1 / 60)
    assert made and window.current_view is made[0]
    (tmp_path / "end").touch()
    assert preparation.rest.wait(60.0)


WAITING_CHILD = """
import os, sys, time
print("0.2000\\tthe level", flush=True)
for line in sys.argv[2:]:  # what the child says, then it compiles the rest until told to end
    print(line.replace("TAB", "\\t"), flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.02)
"""


def test_the_level_the_package_came_with_is_not_waited_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Its kernels came compiled with the package: the thread loads them at once, while the
    # child (which never says ready here) goes on with the other levels and the rest.
    played = _fake_level_child(monkeypatch, WAITING_CHILD, str(tmp_path / "end"))
    monkeypatch.setattr(loading, "compiled_with_package", lambda level, *_: True)
    preparation = prepare_level(load_level("reef"))
    assert preparation.wait(60.0) and preparation.error is None
    assert played == ["reef"] and not preparation.rest.is_set()
    (tmp_path / "end").touch()
    assert preparation.rest.wait(60.0)


def test_each_later_level_is_ready_once_the_child_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    reef, caves, kelp = (load_level(name) for name in ("reef", "caves", "kelp"))
    said = f"levelTAB{caves.path.resolve()}"
    _fake_level_child(monkeypatch, WAITING_CHILD, str(tmp_path / "end"), "ready", said)
    preparation = prepare_level(load_level("reef"))
    assert preparation.wait(60.0) and preparation.level_ready(reef)
    deadline = time.monotonic() + 60.0
    while not preparation.level_ready(caves) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert preparation.level_ready(caves)
    assert not preparation.level_ready(kelp)  # the child has not reached it yet
    (tmp_path / "end").touch()
    assert preparation.rest.wait(60.0)
    assert preparation.level_ready(kelp)  # the child ended: nothing is left to wait for


def test_a_later_level_waits_on_a_card_until_its_kernels_are_ready(
    window: arcade.Window,
) -> None:
    # Played through the view's own input handlers: the intro card dismissed, Space to
    # pause, "." for one step. Nothing steps (the compiler would stall the frame) until the
    # level is ready; then it starts by itself.
    ready: set[str] = set()
    view = TankView(load_level("caves"), lambda level: Tank(level, seed=5),
                    level_ready=lambda level: level.name in ready)  # fmt: skip
    window.show_view(view)
    view.on_key_press(arcade.key.ENTER, 0)  # the intro card
    for _ in range(30):
        view.on_update(1 / 60)
    view.on_draw()
    assert view.steps_taken == 0 and view.card() == screens.preparing(view.level.title)
    drops = view.tank.drops_left
    view.on_mouse_press(640, 360, arcade.MOUSE_BUTTON_LEFT, 0)  # no food into a still tank
    view.on_key_press(arcade.key.SPACE, 0)  # no pause that would hold it once ready
    view.on_key_press(arcade.key.PERIOD, 0)
    assert view.steps_taken == 0 and view.tank.drops_left == drops and not view.paused
    ready.add("caves")
    for _ in range(30):
        view.on_update(1 / 60)
    assert view.steps_taken > 0 and view.card() is None
    view.tank.close()


def test_only_the_first_level_played_as_the_build_played_it_came_with_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(level_kernels, "cached", lambda kernel: True)
    reef, caves = load_level("reef"), load_level("caves")
    assert level_kernels.compiled_with_package(reef)
    assert not level_kernels.compiled_with_package(caves)
    assert not level_kernels.compiled_with_package(reef, fish=2000)  # a crowd's threaded kernels
    assert not level_kernels.compiled_with_package(reef, measures=True)  # --stats
    monkeypatch.setattr(level_kernels, "cached", lambda kernel: False)  # e.g. another CPU's
    assert not level_kernels.compiled_with_package(reef)


def test_a_level_child_that_ends_before_ready_leaves_the_level_to_the_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = _fake_level_child(monkeypatch, "print('0.5000\\tthe level')")
    preparation = prepare_level(load_level("reef"))
    assert preparation.wait(60.0) and preparation.error is None
    assert played == ["reef"] and preparation.fraction == 1.0
    assert preparation.rest.wait(60.0)


def test_a_cold_cache_prepares_the_level_first_and_a_warm_one_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    options = play_options()
    asked: list[tuple[str, int | None, int, bool]] = []

    def level_first(level: Any, fish: int | None, seed: int, measures: bool) -> Preparation:
        asked.append((level.name, fish, seed, measures))
        return Preparation()

    monkeypatch.setattr(play, "prepare_level", level_first)
    monkeypatch.setattr(play, "prepare", lambda: Preparation(label="all"))
    monkeypatch.setattr(play, "warm_up_compiled", lambda: False)
    assert play.prepare_kernels(load_level("reef"), options).label != "all"
    options.stats = Path("stats.json")  # --stats: its measures' kernels loaded there too
    play.prepare_kernels(load_level("reef"), options)
    assert asked == [("reef", 40, 3, False), ("reef", 40, 3, True)]
    monkeypatch.setattr(play, "warm_up_compiled", lambda: True)
    assert play.prepare_kernels(load_level("reef"), options).label == "all"
    assert len(asked) == 2


def play_options() -> Any:
    """The command line's options, with 40 fish and seed 3."""
    from shoal.game.__main__ import parse_args

    return parse_args(["--fish", "40", "--seed", "3"])


@pytest.mark.slow
def test_the_level_child_says_ready_before_it_compiles_the_rest() -> None:
    level = load_level("reef")
    script = "from shoal.game.loading import _level_child; "
    script += f"_level_child({str(level.path)!r}, 30, 0)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=900, env={**os.environ, "ARCADE_HEADLESS": "1"})  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    ready = lines.index(loading.READY)
    before = [float(line.split("\t")[0]) for line in lines[:ready]]
    after = [line.split("\t") for line in lines[ready + 1 :]]
    assert before and max(before) <= loading.LEVEL_SHARE
    assert {label for _, label in after} >= {"steering", "threads", "ready"}
    assert after[-1] == ["1.0000", "ready"]
    # Each other level, named once its kernels are cached, before the rest of the warm-up.
    named = [label for said, label in after if said == loading.LEVEL_READY]
    others = [load_level(name) for name in level_names() if name != "reef"]
    assert named == [str(other.path.resolve()) for other in others]
    assert after.index([loading.LEVEL_READY, named[-1]]) < after.index(["1.0000", "ready"])


@pytest.mark.slow
@pytest.mark.parametrize("level", ["reef", "caves", "open_water", "kelp", "reef 1"])
def test_a_levels_brief_play_holds_every_kernel_of_its_first_minute(level: str) -> None:
    # A fresh process: only what `play_level_briefly` compiled or loaded counts. "reef 1"
    # is the control: a play of one step misses kernels, and the check sees them.
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("level_check.py")),
                           *level.split()], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "ARCADE_HEADLESS": "1"})  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    new = json.loads(done.stdout.splitlines()[-1])["new"]
    if level.endswith(" 1"):
        assert new, "the control compiled nothing new: the check would catch nothing"
    else:
        assert new == {}, f"compiled in the first minute of play: {new}"
