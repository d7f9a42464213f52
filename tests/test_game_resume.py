"""The fish tank resumes: a level left mid-way is saved beside the best scores, the next
start's card offers to continue it (C), and the tank comes back as it was (time, score so
far, food left, pellets, the leader, every fish and shark) and plays on exactly as if it had
never stopped. A broken, old or foreign save is ignored with one line; a finished level
deletes its save. Driven through the real view and its key handler, headless."""

from collections.abc import Iterator
from pathlib import Path

import arcade
import numpy as np
import pytest

from shoal.game.level import level_names, load_level
from shoal.game.tank import DT, Tank
from shoal.game.tank_save import read_tank
from shoal.game.tank_view import TankView

LEVEL = "caves"  # rocks, sharks, food: everything a save holds


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    win = arcade.Window(640, 400, "resume tests", visible=False)
    yield win
    win.close()


def view_of(window: arcade.Window, save: Path, *, intro: bool = False, seed: int = 5,
            fish: int | None = None) -> TankView:  # fmt: skip
    view = TankView(load_level(LEVEL), lambda lv: Tank(lv, seed=seed, fish=fish), intro=intro,
                    save=save, record_key=lambda lv: f"{lv.name} seed={seed}")  # fmt: skip
    window.show_view(view)
    return view


def played(view: TankView, steps: int) -> None:
    view.tank.target = (200.0, 300.0)
    for k in range(steps):
        if k == 30:
            assert view.tank.drop_food(300.0, 500.0) is not None
        view.step()


def state(tank: Tank) -> dict[str, object]:
    """What a player sees of a tank, and every boid's numbers (rows in order)."""
    flock = tank.flock
    return {
        "time": tank.time, "score": tank.score, "drops": tank.drops_left,
        "counts": (tank.food_eaten, tank.fish_eaten, tank.fish_home, tank.fish),
        "food": sorted((round(x, 9), round(y, 9), r) for _, x, y, r in tank.food()),
        "leader": tank.leader_at(1.0),
        "boids": np.hstack((flock.positions, flock.velocities)).tolist(),
        "species": flock.store.species.tolist(),
    }  # fmt: skip


def test_quitting_mid_level_saves_and_c_continues_exactly(window: arcade.Window,
                                                          tmp_path: Path) -> None:  # fmt: skip
    save = tmp_path / "tank-save.npz"
    view = view_of(window, save)
    played(view, 150)
    assert view.save_progress() == "" and save.is_file()
    before = state(view.tank)
    again = view_of(window, save, intro=True)
    card = again.card()
    assert card is not None and any(line.startswith("C: continue where you left off (")
                                    for line in card.lines)  # fmt: skip
    again.on_key_press(arcade.key.C, 0)
    assert not again.waiting and again.level.name == LEVEL
    assert state(again.tank) == before
    for tank in (view.tank, again.tank):  # both play on: the same steps, the same tank
        tank.target = (600.0, 250.0)
        for _ in range(90):
            tank.step(DT)
    assert state(again.tank) == state(view.tank)
    view.tank.close()
    again.tank.close()


def test_any_other_key_starts_afresh(window: arcade.Window, tmp_path: Path) -> None:
    save = tmp_path / "tank-save.npz"
    view = view_of(window, save)
    played(view, 40)
    view.save_progress()
    view.tank.close()
    again = view_of(window, save, intro=True)
    assert again.offer is not None
    again.on_key_press(arcade.key.A, 0)
    assert again.offer is None and not again.waiting and again.tank.time == 0.0
    again.tank.close()


def test_a_finished_level_deletes_its_save(window: arcade.Window, tmp_path: Path) -> None:
    save = tmp_path / "tank-save.npz"
    view = view_of(window, save)
    played(view, 20)
    view.save_progress()
    assert save.is_file()
    view.tank.fish_home, view.tank.food_eaten = view.tank.goal.fish_home, view.tank.goal.food_to_eat
    view.on_update(DT)
    assert view.tank.status == "won" and not save.exists()
    assert view.save_progress() == "" and not save.exists()  # nothing kept of an ended level
    view.tank.close()


def test_nothing_is_saved_before_the_level_begins(window: arcade.Window, tmp_path: Path) -> None:
    save = tmp_path / "tank-save.npz"
    view = view_of(window, save, intro=True)
    assert view.save_progress() == "" and not save.exists()
    view.tank.close()


@pytest.mark.parametrize(
    ("what", "damage"),
    [
        ("not a zip", lambda path: path.write_text("hello")),
        ("truncated", lambda path: path.write_bytes(path.read_bytes()[:3000])),
        ("not a tank", lambda path: np.savez(path, allow_pickle=False, a=np.zeros(3))),
    ],
)
def test_a_broken_save_is_ignored_with_one_line(window: arcade.Window, tmp_path: Path,
                                                what: str, damage: object) -> None:  # fmt: skip
    save = tmp_path / "tank-save.npz"
    view = view_of(window, save)
    played(view, 20)
    view.save_progress()
    view.tank.close()
    damage(save)  # type: ignore[operator]
    again = view_of(window, save, intro=True)
    assert again.offer is None, what
    assert again.hud.error.startswith("Saved game ignored: ") and "\n" not in again.hud.error
    assert str(save) in again.hud.error
    again.on_key_press(arcade.key.C, 0)  # C is any key now: the level starts afresh
    assert not again.waiting and again.tank.time == 0.0
    again.tank.close()


def test_a_hand_edited_save_is_refused_whole(window: arcade.Window, tmp_path: Path) -> None:
    """A save whose flock part is broken fails when it is restored: the level starts afresh
    (its own fish, food and time), with one line saying why."""
    save = tmp_path / "tank-save.npz"
    view = view_of(window, save)
    played(view, 40)
    view.save_progress()
    view.tank.close()
    with np.load(save) as arrays:
        edited = {key: arrays[key] for key in arrays.files}
    edited["boids.velocity"] = edited["boids.velocity"].copy()
    edited["boids.velocity"][0, 0] = np.nan
    np.savez(save, allow_pickle=False, **edited)
    again = view_of(window, save, intro=True)
    fresh = state(again.tank)
    again.on_key_press(arcade.key.C, 0)
    assert (
        again.hud.error.startswith("Saved game ignored: ") and "boids.velocity" in again.hud.error
    )
    assert state(again.tank) == fresh  # the level as it starts, nothing half restored
    again.tank.close()


def test_a_save_of_other_options_is_not_offered(window: arcade.Window, tmp_path: Path) -> None:
    save = tmp_path / "tank-save.npz"
    view = view_of(window, save)
    played(view, 20)
    view.save_progress()
    view.tank.close()
    other = view_of(window, save, intro=True, seed=6)
    assert other.offer is None and "other options" in other.hud.error
    other.tank.close()
    loaded = read_tank(save)
    assert loaded is not None and loaded.level == LEVEL and loaded.time > 0
    assert LEVEL in level_names()
