"""A saved flock as a file: numpy's .npz (a zip of .npy arrays), written and read without
pickle.

`save(flock, path)` writes `snapshot(flock)`; `load(flock, path)` reads and restores it. A
save file is untrusted input: reading never runs code from it (`allow_pickle=False`: an
array of objects is refused), refuses a member that would unpack to more than
`MAX_FILE_BYTES`, and every value is checked before the flock changes (`checks.py`). Any
problem is one `SaveError` line naming the file.
"""

import os
import zipfile
import zlib
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from shoal.components import arguments as check
from shoal.systems.flock.flock import Flock
from shoal.systems.saving.errors import SaveError
from shoal.systems.saving.restore import restore
from shoal.systems.saving.snapshot import Snapshot, snapshot

MAX_FILE_BYTES = 1 << 30
"""The most a save file may unpack to (a flock of `MAX_BOIDS` boids takes ~260 MB)."""

PathLike = str | os.PathLike[str]


def save(flock: Flock, path: PathLike) -> None:
    """Write the flock's snapshot to `path` (.npz; written whole, then moved into place, so
    a crash while writing leaves the old file).

    Raises:
        ValueError: `flock` is not a `Flock`, or `path` not a path.
        OSError: the file cannot be written.
        RuntimeError: the flock was uninstalled, or its world deleted.
    """
    _path("save", path)
    write_snapshot(path, snapshot(flock))


def load(flock: Flock, path: PathLike) -> dict[int, int]:
    """Read a save file and restore it into `flock` (see `restore`); returns each saved
    entity's new entity.

    Raises:
        SaveError: the file is missing, unreadable or not a flock shoal can restore here
            (one line naming the file); the flock is unchanged.
        ValueError: `flock` is not a `Flock`, or `path` not a path.
    """
    check.instance("load", "flock", flock, Flock)
    return restore(flock, read_snapshot(path), source=str(path))


def write_snapshot(path: PathLike, saved: Snapshot) -> None:
    """Write a snapshot as an uncompressed .npz (compression costs more time than the
    bytes it saves: a boid's numbers hardly compress).

    Raises:
        ValueError: `path` is not a path, or `saved` not a mapping of str to arrays of
            numbers, bools or text.
        OSError: the file cannot be written.
    """
    target = _path("write_snapshot", path)
    if not isinstance(saved, Mapping) or not all(
        isinstance(key, str) and isinstance(value, np.ndarray) and value.dtype.kind in "fiubU"
        for key, value in saved.items()
    ):
        check.fail("write_snapshot", "saved", saved, "must map names to arrays of numbers or text")
    partial = target.with_name(target.name + ".partial")
    with partial.open("wb") as out:
        np.savez(out, allow_pickle=False, **saved)
    partial.replace(target)


def read_snapshot(path: PathLike) -> Snapshot:
    """The arrays of a save file (not yet checked: `restore` does that).

    Raises:
        ValueError: `path` is not a path.
        SaveError: the file is missing or unreadable, not a zip of arrays, truncated, holds
            objects (pickle) or unpacks to more than `MAX_FILE_BYTES`.
    """
    name = str(_path("read_snapshot", path))
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_FILE_BYTES:
                raise SaveError(f"{name}: unpacks to {unpacked:,} bytes, more than a flock takes")
        with np.load(path, allow_pickle=False) as arrays:
            found = {key: arrays[key] for key in arrays.files}
    except SaveError:
        raise
    except FileNotFoundError:
        raise SaveError(f"{name}: no such file") from None
    except zipfile.BadZipFile as error:
        raise SaveError(f"{name}: not a save file (not a zip of arrays: {error})") from None
    except ValueError as error:
        if "pickle" in str(error):
            raise SaveError(f"{name}: holds Python objects, which shoal never loads") from None
        raise SaveError(f"{name}: unreadable array ({_line(error)})") from None
    except (OSError, EOFError, KeyError, zlib.error) as error:
        raise SaveError(f"{name}: unreadable ({_line(error)})") from None
    for key, value in found.items():
        if not isinstance(value, np.ndarray):  # numpy hands a member that is no .npy as bytes
            raise SaveError(f"{name}: {key} is not an array")
    return found


def _path(owner: str, path: object) -> Path:
    """`path` as a Path, or a ValueError naming `owner`."""
    if not isinstance(path, str | os.PathLike) or not str(path):
        check.fail(owner, "path", path, "must be a file path (a str or a Path)")
    return Path(path)


def _line(error: BaseException) -> str:
    """The first line of an error's message (one line in ours)."""
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:200]
