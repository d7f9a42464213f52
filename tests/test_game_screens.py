"""The game explains itself and is fair: end cards say why, the finish card lists every
level, best scores persist, panel changes make a run practice, screenshots are confirmed,
the HUD fits any window, events play their sounds (M mutes them), and sound stays quiet
where it cannot play."""

import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import arcade
import esper
import numpy as np
import pytest

from shoal.components import Food, Position
from shoal.game import outputs, sound
from shoal.game.cards import TextCache, draw_card, ui_scale
from shoal.game.hud import Hud
from shoal.game.level import level_names, load_level
from shoal.game.records import Records, setup_key
from shoal.game.tank import DT, Tank
from shoal.game.tank_view import TankView
from shoal.systems.flock.ecs import in_world


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    win = arcade.Window(640, 400, "screen tests", visible=False)
    yield win
    win.close()


def view_of(window: arcade.Window, level: str = "", records: Records | None = None
            ) -> TankView:  # fmt: skip
    view = TankView(load_level(level or level_names()[0]), lambda lv: Tank(lv, seed=5),
                    intro=False, records=records)  # fmt: skip
    window.show_view(view)
    return view


def win_now(view: TankView) -> None:
    view.tank.fish_home = view.tank.goal.fish_home  # as if the school swam home
    view.tank.food_eaten = view.tank.goal.food_to_eat
    view.on_update(DT)


def test_game_over_says_why_and_offers_r_and_n(window: arcade.Window) -> None:
    view = view_of(window)
    view.tank.flock.despawn(view.tank.flock.entities[: view.tank.fish - 1].copy())
    view.on_update(DT)
    card = view.card()
    assert view.tank.status == "lost" and card is not None
    assert card.title == "Game over"
    assert "Too few fish left to bring 45 home" in card.lines[0]
    assert "R:" in card.hint and "N:" in card.hint
    view.on_key_press(arcade.key.R, 0)
    assert view.tank.status == "playing" and view.card() is None
    view.tank.close()


def test_a_level_that_keeps_no_fish_still_ends_when_the_last_is_eaten() -> None:
    tank = Tank(load_level("reef"), seed=5)
    try:
        tank.goal = replace(tank.goal, min_fish=0, time_limit=0.0)  # a level file may say so
        store = tank.flock.store
        tank.flock.despawn(store.entities[store.species == 0].copy())
        tank.step(DT)
        assert (tank.status, tank.reason) == ("lost", "No fish left: the sharks ate the whole "
                                              "school.")  # fmt: skip
    finally:
        tank.close()


def test_a_tank_of_no_fish_is_refused() -> None:
    with pytest.raises(ValueError, match=r"fish must be in 1\.\.2000"):
        Tank(load_level("reef"), fish=0)


def test_time_up_is_the_reason_on_a_timed_level(window: arcade.Window) -> None:
    view = view_of(window, "caves")
    view.tank.time = view.tank.goal.time_limit
    view.on_update(DT)
    card = view.card()
    assert card is not None and card.lines[0].startswith("Time is up")
    view.tank.close()


def test_after_the_last_level_a_finish_card_lists_every_level(window: arcade.Window) -> None:
    view = view_of(window)
    names = level_names()
    win_now(view)
    for _ in names[1:]:
        view.on_key_press(arcade.key.N, 0)  # the next level, skipped at once
    assert view.level.name == names[-1]
    view.on_key_press(arcade.key.N, 0)
    card = view.card()
    assert view.finished and card is not None
    assert len(card.lines) == len(names) + 1
    assert "won" in card.lines[0] and "skipped" in card.lines[1]
    draw_card(card, TextCache(), window.width, window.height)
    view.on_key_press(arcade.key.R, 0)
    assert not view.finished and view.level.name == names[0] and not view.results
    view.tank.close()


def test_a_won_level_keeps_its_best_score_between_runs(window: arcade.Window,
                                                       tmp_path: Path) -> None:  # fmt: skip
    path = tmp_path / "best.json"
    view = view_of(window, records=Records(path))
    win_now(view)
    score = view.tank.score
    assert Records(path).best_of(level_names()[0]) == score
    card = view.card()
    assert card is not None and "best" in card.lines[1]
    view.tank.close()
    view = view_of(window, records=Records(path))
    view.intro, view._waiting = True, True
    intro = view.card()
    assert intro is not None and f"Your best score here: {score}" in intro.lines
    view.tank.close()


def test_a_lost_level_keeps_its_best_try_until_it_is_won(window: arcade.Window,
                                                         tmp_path: Path) -> None:  # fmt: skip
    path, key = tmp_path / "best.json", level_names()[0]
    view = view_of(window, records=Records(path))
    view.tank.fish_home = 2  # 20 points, then the sharks' work
    view.tank.flock.despawn(view.tank.flock.entities[: view.tank.fish - 1].copy())
    view.on_update(DT)
    card = view.card()
    assert view.tank.status == "lost" and card is not None
    assert "Score 20 (your best try yet!)" in card.lines
    view.tank.close()
    assert (Records(path).best_of(key), Records(path).tried_of(key)) == (None, 20)
    view = view_of(window, records=Records(path))
    view.intro, view._waiting = True, True
    intro = view.card()
    assert intro is not None and "Your best try here: 20 (not won yet)" in intro.lines
    view._waiting = False
    win_now(view)
    assert (Records(path).best_of(key), Records(path).tried_of(key)) == (view.tank.score, None)
    view.tank.close()


def test_a_run_changed_with_the_panel_is_practice_and_not_kept(window: arcade.Window,
                                                               tmp_path: Path) -> None:  # fmt: skip
    records = Records(tmp_path / "best.json")
    view = view_of(window, records=records)
    view._tuned("fish")  # what the panel reports after it changed the school
    assert "fish" in view.tank.practice
    assert any("practice" in text for text, _ in view.hud.items(view.tank))
    win_now(view)
    assert records.best_of(level_names()[0]) is None
    card = view.card()
    assert card is not None and any("not scored" in line for line in card.lines)
    view.on_key_press(arcade.key.R, 0)  # a restart is a fair run again
    assert view.tank.practice == ""
    view.tank.close()


def test_records_survive_a_broken_or_unwritable_file(tmp_path: Path) -> None:
    broken = tmp_path / "best.json"
    broken.write_text("{ not json")
    records = Records(broken)
    assert records.best == {} and "not valid JSON" in records.problem
    assert records.add("reef", 10) and Records(broken).best_of("reef") == 10
    first_version = tmp_path / "old.json"
    first_version.write_text('{"reef": 30, "kelp": "x"}')  # wins only, one entry spoiled
    assert Records(first_version).best == {"reef": 30}
    blocked = Records(Path("/proc/shoal-test/best.json"))
    assert blocked.add("reef", 5) and blocked.best_of("reef") == 5  # kept for the session
    assert "cannot save" in blocked.problem
    assert setup_key("reef", 500, "mill") == "reef fish=500 preset=mill"


def test_s_saves_to_the_pictures_folder_and_says_so(window: arcade.Window) -> None:
    view = view_of(window)
    # What the working folder already holds stays out of it: the README's first command
    # leaves its headless demo's shoal-screenshot.png there, before the tests run.
    before = set(Path.cwd().glob("shoal-*.png"))
    view.on_key_press(arcade.key.S, 0)
    shots = list(outputs.screenshot_folder().glob("shoal-*.png"))
    assert shots and set(Path.cwd().glob("shoal-*.png")) == before
    assert "Screenshot saved" in view.hud._notice
    view.tank.close()


def test_s_in_a_folder_it_cannot_write_reports_and_goes_on(window: arcade.Window,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:  # fmt: skip
    monkeypatch.setattr(outputs, "screenshot_folder", lambda: Path("/proc/shoal-test"))
    view = view_of(window)
    view.on_key_press(arcade.key.S, 0)
    assert view.hud._notice.startswith("cannot save the screenshot")
    view.on_update(DT)  # and the game goes on
    assert view.steps_taken == 1
    view.tank.close()


@pytest.mark.parametrize("size", [(640, 400), (1280, 720), (3840, 2160)])
def test_the_hud_fits_the_window(window: arcade.Window, size: tuple[int, int]) -> None:
    width, height = size
    view = view_of(window, "caves")
    view.tank.mark_practice("fish changed with the panel")
    hud = Hud()
    hud.debug = True  # the speed readout shows with the debug overlay only
    hud.measure(0.0, 59.0, 12.5, 30)  # everything it can show (slowed down too)
    hud.draw(view.tank, width, height, 0.0)
    labels = [label for key, (_, label) in hud.texts._texts.items() if key.startswith("status")]
    assert len(labels) == len(hud.items(view.tank))
    for label in labels:
        assert label.x >= 0 and label.x + label.content_width <= width, label.text
        assert label.y <= height
    assert labels[0].font_size == pytest.approx(13 * ui_scale(width, height))
    view.tank.close()


def test_sound_is_silent_headless_and_without_a_device(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARCADE_SOUND_BACKENDS", raising=False)
    assert not sound.choose_backends(headless=True)
    assert os.environ["ARCADE_SOUND_BACKENDS"] == "silent"
    monkeypatch.delenv("ARCADE_SOUND_BACKENDS")
    monkeypatch.setattr(sound, "audio_device_found", lambda: False)
    assert not sound.choose_backends(headless=False)
    effects = sound.Sounds()
    assert not effects.enabled and not effects.play("eat", 0.0)


class RecordedSound:
    """A stand-in for an arcade Sound: each play is written down instead of heard."""

    def __init__(self, name: str, played: list[str]) -> None:
        self.name, self.played = name, played

    def play(self, volume: float = 1.0) -> None:
        self.played.append(self.name)


def step_until(view: TankView, happened: Callable[[], bool], steps: int = 120) -> None:
    for _ in range(steps):
        view.step()
        if happened():
            return
    raise AssertionError("it never happened")


def test_events_play_their_sounds_and_m_mutes(window: arcade.Window,
                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    played: list[str] = []
    effect_of = {path: name for name, (path, _) in sound.EFFECTS.items()}
    monkeypatch.setattr(arcade, "load_sound", lambda path: RecordedSound(effect_of[path], played))
    monkeypatch.setattr(sound, "_driver_plays", lambda: True)  # as on a machine with a device
    view = TankView(load_level("caves"), lambda lv: Tank(lv, seed=5), intro=False,
                    sounds=sound.Sounds())  # fmt: skip
    window.show_view(view)
    tank = view.tank
    store = tank.flock.store
    fish, shark = store.species == 0, np.flatnonzero(store.species == 1)[0]
    try:
        with in_world(tank.world):  # a pellet on a fish: it bites
            esper.create_entity(Position(*store.positions[fish][0]), Food(50, 8))
        step_until(view, lambda: tank.food_eaten > 0)
        assert played[-1] == "eat"
        store.positions[shark] = store.positions[fish][0] + (6.0, 0.0)  # a shark on a fish
        step_until(view, lambda: tank.fish_eaten > 0)
        assert played[-1] == "catch"
        view.on_key_press(arcade.key.M, 0)
        assert view.sounds.muted and view.hud._notice == "Sound off."
        heard, bites = len(played), tank.food_eaten
        time.sleep(sound.MIN_GAP)  # past the gap that keeps one effect from restarting
        step_until(view, lambda: tank.food_eaten > bites)
        assert len(played) == heard  # muted: a bite, and nothing played
        view.on_key_press(arcade.key.M, 0)
        assert not view.sounds.muted and view.hud._notice == "Sound on."
        tank.fish_home = tank.goal.fish_home
        view.step()
        assert tank.status == "won" and played[-1] == "won"
    finally:
        tank.close()


def test_no_audio_device_is_found_without_a_card_or_server(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:  # fmt: skip
    if not sys.platform.startswith("linux") or Path("/dev/snd").exists():
        pytest.skip("a Linux machine without a sound card")
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert not sound.audio_device_found()
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").touch()
    assert sound.audio_device_found()


def test_output_checks_name_the_problem(tmp_path: Path) -> None:
    folder = tmp_path / "shots.png"
    folder.mkdir()
    assert "is a folder" in outputs.writable_problem(folder)
    full = tmp_path / "full.png"
    full.symlink_to("/dev/full")
    assert "not a regular file" in outputs.writable_problem(full)
    assert "cannot write in /proc" in outputs.writable_problem(Path("/proc/x.png"))
    assert "does not exist" in outputs.writable_problem(tmp_path / "no" / "x.png")
    escape = tmp_path / "e\x1b[31m.png"  # a terminal escape in the name
    escape.mkdir()
    assert "\x1b" not in outputs.writable_problem(escape)
    assert "e\\x1b[31m.png is a folder" in outputs.writable_problem(escape)
    escape.rmdir()
    fine = tmp_path / "x.png"
    assert outputs.writable_problem(fine) == "" and not fine.exists()
    assert sorted(tmp_path.iterdir()) == sorted([folder, full])  # the probe is gone
    if os.geteuid() != 0:  # root writes anywhere: read-only folders only bind others
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
        assert "cannot write in" in outputs.writable_problem(locked / "x.png")
