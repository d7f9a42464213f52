"""The command line and the game's files against hostile input (issue 19): any options, any
output path, any best-scores file, a player who never stops clicking.

Property tests: whatever the options, `parse_args` either accepts them or exits with status 2
and one short printable line; the output and level checks that follow never raise and
answer in one short printable line. Then each case found, reduced: paths too long for the
system, links that loop or lead nowhere, an unknown option holding a terminal escape, a seed
of thousands of digits, a best-scores file nested 100,000 deep or a pipe, a full disk and a
pictures folder that cannot be looked at under the S key, and a click for every pellet.
"""

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import arcade
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shoal.game import outputs
from shoal.game.__main__ import first_level, output_problem, parse_args
from shoal.game.level import MAX_MESSAGE_CHARS, LevelError, level_names, load_level
from shoal.game.records import Records
from shoal.game.tank import MAX_FOOD_IN_TANK, Tank
from shoal.game.tank_view import TankView

OPTIONS = ["--level", "--seed", "--fish", "--preset", "--no-leader", "--headless", "--frames",
           "--screenshot", "--stats", "--help-me", "-x", "--"]  # fmt: skip
ODD_VALUES = ["-1", "1e3", "0x10", "٣", "9" * 5000, "2001", "99999999999999999999", "\x1b[2J",
              "a.png", "/proc/x.png", "/dev/full", "a" * 5000 + ".png", "a/" * 3000 + "x.json",
              ".", "/", "reef", "caves"]  # fmt: skip
HOSTILE_TEXT = st.one_of(st.text(max_size=40), st.sampled_from(ODD_VALUES))
QUICK = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def short_line(text: str, limit: int = 250) -> None:
    assert "\n" not in text.strip() and text.strip().isprintable(), ascii(text)
    assert len(text.strip()) <= limit, text


@pytest.mark.slow
@pytest.mark.fuzz
@QUICK
@given(argv=st.lists(st.one_of(st.sampled_from(OPTIONS), HOSTILE_TEXT), max_size=6))
def test_any_options_are_taken_or_refused_in_one_line(argv: list[str]) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            options = parse_args(argv)
        except SystemExit as stop:
            assert stop.code == 2
            short_line(err.getvalue())
            return
    short_line(output_problem(options))  # never raises, whatever the paths


@pytest.mark.slow
@pytest.mark.fuzz
@QUICK
@given(text=HOSTILE_TEXT)
def test_any_level_option_loads_or_is_refused_in_one_line(text: str) -> None:
    try:
        first_level(text)
    except LevelError as error:
        short_line(str(error), MAX_MESSAGE_CHARS)


@pytest.mark.slow
@pytest.mark.fuzz
@QUICK
@given(name=HOSTILE_TEXT, folder=st.sampled_from(["", "/proc/", "/sys/", "/dev/", "no/such/"]))
def test_any_output_path_is_checked_without_raising(name: str, folder: str) -> None:
    short_line(outputs.writable_problem(Path(folder + name + ".png")))


# --- the command line, as a user runs it --------------------------------------------------------
def game(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    return subprocess.run([sys.executable, "-m", "shoal.game", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--screenshot", "a" * 300 + ".png"], "File name too long"),
        (["--stats", "a/" * 3000 + "x.json"], "File name too long"),
        (["--screenshot", "loop.png"], "loop of links"),
        (["--screenshot", "nowhere.png"], "does not exist"),
        (["--seed", "9" * 5000], "--seed"),
        (["--seed", str(2**64)], "--seed"),
        (["--bogus\x1b[31m"], "unrecognized arguments: --bogus\\x1b[31m"),
        (["--" + "y" * 3000], "unrecognized arguments"),
    ],
)
def test_hostile_options_exit_2_with_one_short_line(args: list[str], says: str,
                                                    tmp_path: Path) -> None:  # fmt: skip
    """Before: a traceback for a path too long for the system; a link that loops or leads
    nowhere failed only after the whole run; an unknown option was echoed raw (a terminal
    escape in it reached the terminal) and in full."""
    (tmp_path / "loop.png").symlink_to("loop.png")
    (tmp_path / "nowhere.png").symlink_to("/no/such/folder/x.png")
    done = game(*args, "--headless", "--frames", "1", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "kernels" not in done.stdout
    short_line(done.stderr)
    assert says in done.stderr


# --- files the game reads and writes ------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"[" * 100_000, "not valid JSON"),
        (b"\xff\xfe{", "not valid JSON"),
        (b"{}" + b" " * (2 * 1024 * 1024), "too big"),
        ("pipe", "not a regular file"),
    ],
)
def test_a_hostile_best_scores_file_starts_afresh(content: bytes | str, says: str,
                                                  tmp_path: Path) -> None:  # fmt: skip
    """Before: a file nested 100,000 deep raised RecursionError at the game's start; a named
    pipe would have waited for a writer for ever."""
    path = tmp_path / "best\x1b[2J.json"
    if isinstance(content, str):  # "pipe"
        os.mkfifo(path)
    else:
        path.write_bytes(content)
    records = Records(path)
    assert records.best == {} and says in records.problem
    short_line(records.problem)


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    win = arcade.Window(640, 400, "hostile game tests", visible=False)
    yield win
    win.close()


def view_of(window: arcade.Window, free: bool = False) -> TankView:
    view = TankView(load_level(level_names()[0]), lambda lv: Tank(lv, seed=5, free=free),
                    intro=False)  # fmt: skip
    window.show_view(view)
    return view


@pytest.mark.slow
@pytest.mark.parametrize("where", ["a name too long", "a full disk"])
def test_s_where_it_cannot_save_says_so_and_the_game_goes_on(
    window: arcade.Window, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, where: str
) -> None:
    """Before: a pictures folder whose name is too long for the system crashed the game
    (OSError from Path.exists) at the S key."""
    if where == "a name too long":
        monkeypatch.setattr(outputs, "screenshot_folder", lambda: tmp_path / ("p" * 5000))
    else:
        full = tmp_path / "full.png"
        full.symlink_to("/dev/full")
        monkeypatch.setattr("shoal.game.controls.numbered_screenshot", lambda *a: full)
    view = view_of(window)
    view.on_key_press(arcade.key.S, 0)
    notice = view.hud._notice
    assert notice.startswith("cannot save the screenshot")
    short_line(notice, 300)
    view.on_update(1 / 60)
    assert view.steps_taken == 1
    view.tank.close()


def test_clicking_on_and_on_drops_at_most_so_many_pellets(window: arcade.Window) -> None:
    """Before: every click dropped a pellet; 2,000 made a step cost 38 ms (of 16.7). A free
    swim has no pellet allowance (a level's runs out first): the tank's cap holds there."""
    view = view_of(window, free=True)
    for k in range(MAX_FOOD_IN_TANK + 20):
        view.on_mouse_press(100 + k % 300, 300, arcade.MOUSE_BUTTON_LEFT, 0)
    assert len(view.tank.food()) == MAX_FOOD_IN_TANK
    assert f"holds {MAX_FOOD_IN_TANK} pellets" in view.hud._notice
    view.tank.close()
    view = view_of(window)  # a level: its pellets, then a notice that none are left
    for k in range(10):
        view.on_mouse_press(100 + 30 * k, 300, arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.tank.drops_left == 0
    assert view.level.food_drops is not None
    assert len(view.tank.food()) == len(view.level.food) + view.level.food_drops
    assert "No food left to drop" in view.hud._notice
    view.tank.close()
