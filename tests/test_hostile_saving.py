"""Hostile input for saving and restoring (issue 45): a save file is untrusted. Each bad file
(not a zip, truncated, pickle inside, another version, a key missing or unknown, wrong
shapes or dtypes, NaN and infinities, values out of range, an unknown species, another
world) is refused with one `SaveError` line that names the file, and the flock and its
world are exactly as before (tests/hostile.py checks it). Bad arguments of the calls
themselves are refused as every public call's are."""

import pickle
import tempfile
import zipfile
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import Any

import numpy as np

from shoal.systems import (
    SaveError,
    load,
    read_snapshot,
    restore,
    save,
    snapshot,
    write_snapshot,
)
from shoal.systems.saving.snapshot import Snapshot

from hostile import INF, NAN, Case, Scene, case, refusal_test, sweep

NO_ARGUMENTS = {"Flock.due_order": "reads the flock's own step"}

_FOLDER = Path(tempfile.mkdtemp(prefix="shoal-hostile-saves-"))
_NUMBERS = count()

Edit = Callable[[Snapshot], None]


def _set(key: str, value: Any) -> Edit:
    def edit(saved: Snapshot) -> None:
        saved[key] = np.asarray(value)

    return edit


def _put(key: str, index: Any, value: Any) -> Edit:
    def edit(saved: Snapshot) -> None:
        array = saved[key].copy()
        array[index] = value
        saved[key] = array

    return edit


def _drop(key: str) -> Edit:
    def edit(saved: Snapshot) -> None:
        del saved[key]

    return edit


def _edited(scene: Scene, edit: Edit) -> Path:
    """A save file of the scene's flock, edited."""
    saved = snapshot(scene.flock)
    edit(saved)
    path = _FOLDER / f"edited-{next(_NUMBERS)}.npz"
    np.savez(path, allow_pickle=False, **saved)
    return path


def _raw(scene: Scene, make: Callable[[Path, Path], None]) -> Path:
    """A file made by `make(good, path)` from a good save file of the scene's flock."""
    good = _FOLDER / f"good-{next(_NUMBERS)}.npz"
    save(scene.flock, good)
    path = _FOLDER / f"raw-{next(_NUMBERS)}.npz"
    make(good, path)
    return path


def _truncated(good: Path, path: Path) -> None:
    path.write_bytes(good.read_bytes()[: good.stat().st_size // 2])


def _text(good: Path, path: Path) -> None:
    path.write_text("level 3, score 120\n")


def _empty(good: Path, path: Path) -> None:
    path.write_bytes(b"")


def _pickled(good: Path, path: Path) -> None:
    with np.load(good) as arrays:
        saved = {key: arrays[key] for key in arrays.files}
    saved["boids.alarm"] = np.array([object()] * len(saved["boids.alarm"]), dtype=object)
    np.savez(path, allow_pickle=True, **saved)


def _pickle_member(good: Path, path: Path) -> None:
    """A zip member that is a bare pickle, not an .npy array."""
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(path, "w") as out:
        for info in source.infolist():
            out.writestr(info, source.read(info))
        out.writestr("evil.npy", pickle.dumps(print))


def _bomb(good: Path, path: Path) -> None:
    """A member that says it unpacks to 4 GB."""
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(path, "w") as out:
        for info in source.infolist():
            out.writestr(info, source.read(info))
    data = bytearray(path.read_bytes())
    # Raise the uncompressed size of the first entry in the central directory.
    at = data.rfind(b"PK\x01\x02")
    first = data.find(b"PK\x01\x02")
    assert at >= 0 and first >= 0
    data[first + 24 : first + 28] = (0xFFFFFFF0).to_bytes(4, "little")
    path.write_bytes(bytes(data))


def _nav(**changes: object) -> Edit:
    """A navigation cache of one field on a 4 × 4 grid, with `changes`."""
    values: dict[str, object] = {
        "settings": [10.0, 6.0, 1 << 17, 500.0], "grid": [4, 4], "enabled": True, "pool": 1,
        "free": np.zeros(0, int), "kind": [0], "cell": [3], "reach": [INF], "slot": [0],
        "used": [1], "complete": [True], "x": [1.0], "y": [1.0], "built": [1],
        "until_count": [0], "until": np.zeros(0, int),
    }  # fmt: skip
    values.update({key: [value] if key in ("slot", "cell") else value
                   for key, value in changes.items()})  # fmt: skip

    def edit(saved: Snapshot) -> None:
        saved.update({f"nav.{key}": np.asarray(value) for key, value in values.items()})

    return edit


_FILE_MATCH = r"^.*\.npz: "

_EDITS: dict[str, tuple[Edit, str]] = {
    "another version": (_set("version", 2), "another version of shoal"),
    "not a flock's": (_set("format", "shoal level"), "not a saved flock"),
    "a key missing": (_drop("boids.wander"), "missing boids.wander"),
    "the version missing": (_drop("version"), "no version"),
    "an unknown key": (_set("boids.mood", np.zeros(3)), "unknown entries boids.mood"),
    "positions of 3 columns": (
        lambda s: s.__setitem__("boids.position", np.zeros((len(s["boids.position"]), 3))),
        r"boids.position: shape",
    ),
    "too few velocities": (
        lambda s: s.__setitem__("boids.velocity", s["boids.velocity"][:-1]),
        r"boids.velocity: shape",
    ),
    "species as floats": (
        lambda s: s.__setitem__("boids.species", s["boids.species"].astype(float)),
        r"boids.species: holds float64",
    ),
    "species names as numbers": (_set("species.name", [1, 2]), r"species.name: must be"),
    "a position NaN": (_put("boids.position", (0, 0), NAN), "boids.position: holds NaN"),
    "a velocity inf": (_put("boids.velocity", (1, 1), INF), "boids.velocity: holds NaN or inf"),
    "a position far out": (_put("boids.position", (0, 1), 1e12), "beyond"),
    "an alarm of 5": (_put("boids.alarm", 0, 5.0), r"boids.alarm: values must be in"),
    "a cooldown < 0": (_put("boids.cooldown", 2, -1.0), r"boids.cooldown: values must be in"),
    "an unknown species": (_put("boids.species", 0, 7), "unknown species"),
    "a species < 0": (_put("boids.species", 0, -1), "unknown species"),
    "an entity twice": (_put("boids.entity", 1, -1), "entities must be distinct"),
    "a relation out of range": (_put("species.relations", (0, 1), 9), "species.relations"),
    "a max speed < 0": (_put("species.max_speed", 0, -5.0), r"species 'a': .*max_speed"),
    "a speed NaN": (_put("species.max_speed", 1, NAN), r"species 'b': .*max_speed"),
    "a steering style unknown": (_put("species.steering", 0, "warp"), r"species 'a': .*steering"),
    "a species named twice": (_put("species.name", 1, "a"), "named twice"),
    "a neighbour cap not whole": (_put("species.max_neighbours", 0, 2.5), "must be an integer"),
    "another world": (_set("config.width", 999.0), "config width differ"),
    "a config NaN": (_set("config.margin", NAN), "margin"),
    "an even rng increment": (_put("rng.state", 3, 2), "PCG64"),
    "a bad rng buffer": (_set("rng.buffer", [5, 0]), "rng.buffer"),
    "a step < 0": (_set("step.number", -3), "step.number"),
    "a dt too long": (_set("step.dt", 2.0), "step.dt"),
    "owed time < 0": (_set("clock.owed", -1.0), "clock.owed"),
    "a tied sprite more": (
        lambda s: s.update(
            {
                "ties.entity": np.array([99]),
                "ties.position": np.zeros((1, 2)),
                "ties.velocity": np.zeros((1, 2)),
                "ties.fresh": np.array([False]),
            }
        ),
        "1 tied sprites were saved, this flock has 0",
    ),
    "a navigation field in no slot": (_nav(slot=4), "slots"),
    "a navigator of too few cells": (_nav(settings=[10.0, 6.0, 16, 500.0]), "max_cells"),
    "a navigation cell off its grid": (_nav(cell=16), "outside its grid"),
    "a current too strong": (_set("step.current", [5e6, 0.0]), r"step.current: holds values"),
}

_FILES: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "not a zip": (_text, "not a save file"),
    "an empty file": (_empty, "not a save file"),
    "truncated": (_truncated, "not a save file|unreadable"),
    "an array of objects": (_pickled, "Python objects"),
    "a pickle member": (_pickle_member, "not an array"),
    "a zip bomb": (_bomb, "unpacks to"),
}


def file_cases() -> list[Case]:
    cases = [
        case(
            "load",
            f"a file with {what}",
            _loads(_editing(edit)),
            _FILE_MATCH + ".*" + why,
            SaveError,
        )
        for what, (edit, why) in _EDITS.items()
    ]
    cases += [
        case(
            "load",
            f"a file {what}",
            _loads(_making(make)),
            _FILE_MATCH + ".*(" + why + ")",
            SaveError,
        )
        for what, (make, why) in _FILES.items()
    ]
    cases.append(case("load", "no such file", lambda s: load(s.flock, _FOLDER / "none.npz"),
                      _FILE_MATCH + "no such file", SaveError))  # fmt: skip
    return cases


def _editing(edit: Edit) -> Callable[[Scene], Path]:
    return lambda scene: _edited(scene, edit)


def _making(make: Callable[[Path, Path], None]) -> Callable[[Scene], Path]:
    return lambda scene: _raw(scene, make)


def _loads(make: Callable[[Scene], Path]) -> Callable[[Scene], object]:
    return lambda scene: load(scene.flock, make(scene))


def argument_cases() -> list[Case]:
    not_flocks: dict[str, object] = {"flock None": None, "flock a str": "flock", "flock a dict": {}}
    cases = sweep("snapshot", lambda s, v: snapshot(v), r"snapshot: flock", not_flocks)
    cases += sweep("restore", lambda s, v: restore(v, snapshot(s.flock)), r"restore: flock",
                   not_flocks)  # fmt: skip
    cases += sweep("restore", lambda s, v: restore(s.flock, v), r"^snapshot: not a saved flock",
                   {"a list": [1, 2], "None": None, "an empty dict": {}})  # fmt: skip
    cases += [
        case("restore", "a snapshot with a list in it",
             lambda s: restore(s.flock, {**snapshot(s.flock), "boids.alarm": [0.0]}),
             r"^snapshot: boids.alarm: must be an array", SaveError),
        case("restore", "a source that is not a str",
             lambda s: restore(s.flock, snapshot(s.flock), source=3),  # type: ignore[arg-type]
             r"restore: source"),
    ]  # fmt: skip
    cases += sweep("save", lambda s, v: save(s.flock, v), r"save: path",
                   {"path None": None, "path a number": 3, "path empty": ""})  # fmt: skip
    cases += sweep("save", lambda s, v: save(v, _FOLDER / "x.npz"), r"snapshot: flock",
                   {"flock None": None})  # fmt: skip
    cases += sweep("load", lambda s, v: load(v, _FOLDER / "x.npz"), r"load: flock", not_flocks)
    cases += sweep("read_snapshot", lambda s, v: read_snapshot(v), r"read_snapshot: path",
                   {"path None": None, "path a list": ["a"]})  # fmt: skip
    cases += sweep("write_snapshot", lambda s, v: write_snapshot(_FOLDER / "w.npz", v),
                   r"write_snapshot: saved",
                   {"a list": [1], "a dict of lists": {"a": [1.0]},
                    "objects": {"a": np.array([None], dtype=object)}})  # fmt: skip
    cases += sweep("write_snapshot", lambda s, v: write_snapshot(v, {}), r"write_snapshot: path",
                   {"path None": None, "path a number": 7})  # fmt: skip
    cases += [
        case("SaveError", "a bad file read alone",
             lambda s: read_snapshot(_raw(s, _text)), _FILE_MATCH + "not a save file", SaveError),
        case("SaveError", "a bad file's arrays restored",
             lambda s: restore(s.flock, {"format": np.array("x")}, source="f.npz"),
             r"^f.npz: not a saved flock", SaveError),
    ]  # fmt: skip
    return cases


CASES = file_cases() + argument_cases()
test_saving_refuses = refusal_test(CASES)


def test_every_refusal_names_the_file_on_one_line() -> None:
    for hostile in CASES:
        if hostile.error is SaveError:
            assert hostile.match.startswith(("^", _FILE_MATCH)), hostile.what
