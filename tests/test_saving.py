"""Saving a flock and restoring it: the snapshot is plain data, and a flock saved after step N,
restored and stepped M more moves exactly as one stepped N + M times (positions and
velocities bit for bit), with obstacles, a tied leader, food, a predator entity, sharks and
wandering fish; at 1 and 2 threads; across a sort of the rows; through a file."""

from pathlib import Path
from typing import Any

import esper
import numpy as np
import pytest
from save_scene import Host, by_saved, flock_for, flocks, kept, new_host, run

import shoal
from shoal.components import Boid, Circle, Obstacle, Rect
from shoal.systems import restore, set_threads, snapshot, threads
from shoal.systems.flock import flock as flock_module
from shoal.systems.flock.flock import SORT_EVERY
from shoal.systems.obstacles.navigation import navigator

# Random (N, M) pairs, drawn once from a seeded generator so that every run tests the same.
_DRAWS = np.random.default_rng(45).integers((1, 1), (120, 90), size=(4, 2)).tolist()


def continued(school: int, sharks: int, before: int, after: int, *, through: Path | None = None
              ) -> tuple[dict[int, tuple[float, ...]], dict[int, tuple[float, ...]]]:  # fmt: skip
    """The boids after before + after steps in one go, and after a save at `before`, a
    restore into a new world and `after` more (by saved entity)."""
    with flocks() as made:
        host = new_host()
        whole = flock_for(host, "whole")
        made.append(whole)
        whole.scatter("fish", school)
        whole.scatter("shark", sharks)
        run(whole, host, 0, before)
        saved = snapshot(whole)
        if through is not None:
            shoal.save(whole, through)
        again = Host(agents=kept(whole))  # what the host saved of its own
        again.sprite.move(before - 1)
        run(whole, host, before, after)
        resumed = flock_for(again, "resumed")
        made.append(resumed)
        new_of = restore(resumed, saved) if through is None else shoal.load(resumed, through)
        run(resumed, again, before, after)
        return by_saved(whole), by_saved(resumed, new_of)


@pytest.mark.parametrize(("before", "after"), _DRAWS)
def test_a_restored_flock_continues_bit_for_bit(before: int, after: int) -> None:
    whole, resumed = continued(150, 3, before, after)
    assert len(whole) > 100
    assert resumed == whole


def test_the_scene_uses_what_it_saves() -> None:
    """The continuation test means something only if the scene's hidden state is live:
    navigation fields cached, wander angles, alarm, food bitten."""
    with flocks() as made:
        host = new_host()
        flock = flock_for(host, "live")
        made.append(flock)
        flock.scatter("fish", 150)
        flock.scatter("shark", 3)
        run(flock, host, 0, 120)
        saved = snapshot(flock)
        assert len(saved["nav.kind"]) > 0
        assert np.any(saved["boids.wander"] != 0.0)
        assert np.any(saved["boids.alarm"] > 0.0)
        assert len(saved["ties.entity"]) == 1


def test_continuation_through_a_file(tmp_path: Path) -> None:
    whole, resumed = continued(120, 2, 47, 40, through=tmp_path / "flock.npz")
    assert resumed == whole


@pytest.mark.slow
@pytest.mark.parametrize("count", [1, 2])
def test_continuation_at_one_and_two_threads_across_a_sort(count: int) -> None:
    """A flock large enough to run its kernels in chunks and to sort its rows, saved just
    before a sort is due (step SORT_EVERY) and after it."""
    before = threads()
    set_threads(count)
    try:
        for steps in (SORT_EVERY, SORT_EVERY + 3):
            whole, resumed = continued(4200, 4, steps, 20)
            assert resumed == whole, (count, steps)
    finally:
        set_threads(before)


def test_rows_saved_in_the_order_the_next_step_sorts_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flock_module, "SORT_MIN_ROWS", 0)
    whole, resumed = continued(100, 2, SORT_EVERY, 30)
    assert resumed == whole


def test_restore_into_the_same_flock_rewinds_it() -> None:
    with flocks() as made:
        host = new_host()
        flock = flock_for(host, "rewind")
        made.append(flock)
        flock.scatter("fish", 100)
        run(flock, host, 0, 30)
        saved, agents = snapshot(flock), kept(flock)
        run(flock, host, 30, 25)
        later = by_saved(flock)
        # The host puts its own things back as they were (food bitten meanwhile).
        for entity in flock.created:
            flock.delete_entity(entity)
        flock.create_entity(Obstacle(Circle(450.0, 300.0, 50.0)))
        flock.create_entity(Obstacle(Rect(200.0, 100.0, 40.0, 160.0)))
        for parts in agents:
            flock.create_entity(*parts)
        host.sprite.move(29)
        new_of = restore(flock, saved)
        run(flock, host, 30, 25)
        assert by_saved(flock, new_of) == later
        with flock.in_world():  # the boids of before the rewind are gone from the world
            assert len(esper.get_component(Boid)) == len(flock)


def test_a_snapshot_is_plain_arrays_that_numpy_saves_without_pickle(tmp_path: Path) -> None:
    with flocks() as made:
        host = new_host()
        flock = flock_for(host, "plain")
        made.append(flock)
        flock.scatter("fish", 20)
        run(flock, host, 0, 5)
        saved = snapshot(flock)
        assert all(isinstance(v, np.ndarray) and v.dtype.kind in "fiubU" for v in saved.values())
        assert str(saved["format"]) == "shoal flock" and int(saved["version"]) == 1
        path = tmp_path / "plain.npz"
        np.savez(path, allow_pickle=False, **saved)
        with np.load(path, allow_pickle=False) as back:
            assert set(back.files) == set(saved)
        flock.step()
        assert np.array_equal(saved["boids.position"][:0], np.zeros((0, 2)))  # a copy ...
        assert not np.array_equal(saved["boids.position"], flock.positions)  # ... not a view


def test_the_navigation_cache_is_rebuilt_as_it_was() -> None:
    with flocks() as made:
        host = new_host()
        flock = flock_for(host, "fields")
        made.append(flock)
        flock.scatter("fish", 60)
        run(flock, host, 0, 40)
        saved = snapshot(flock)
        again = flock_for(Host(agents=kept(flock)), "fields-again")
        made.append(again)
        restore(again, saved)
        nav, other = navigator(flock), navigator(again)
        assert list(nav._entries) == list(other._entries)
        for key, entry in nav._entries.items():
            assert np.array_equal(nav.pool[entry.slot], other.pool[other._entries[key].slot])


def test_the_embedding_guides_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/embedding.md's save/load example, as written: it saves, loads and finds its fish."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "embedding.md").read_text("utf-8")
    section = text.split("### Saving and loading", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    names: dict[str, Any] = {}
    exec(compile(code, "docs/embedding.md", "exec"), names)
    try:
        assert (tmp_path / "pond.npz").is_file()
        assert len(names["new_fish"]) == 200
        assert set(names["new_fish"]) == set(names["flock"].entities.tolist())
    finally:
        shoal.uninstall(names["flock"])


def test_restore_after_the_host_deleted_a_boid_through_esper() -> None:
    with flocks() as made:
        host = new_host()
        flock = flock_for(host, "deleted")
        made.append(flock)
        flock.scatter("fish", 30)
        run(flock, host, 0, 5)
        saved = snapshot(flock)
        with flock.in_world():
            esper.delete_entity(int(flock.entities[0]))  # deferred to the next process
        restore(flock, saved)
        assert len(flock) == 30
        flock.step()
        assert len(flock) == 30
