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
from pathlib import Path

import numpy as np

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
        OSError: the file cannot be written.
        RuntimeError: the flock was uninstalled, or its world deleted.
    """
    write_snapshot(path, snapshot(flock))


def load(flock: Flock, path: PathLike) -> dict[int, int]:
    """Read a save file and restore it into `flock` (see `restore`); returns each saved
    entity's new entity.

    Raises:
        SaveError: the file is missing, unreadable or not a flock shoal can restore here
            (one line naming the file); the flock is unchanged.
    """
    return restore(flock, read_snapshot(path), source=str(path))


def write_snapshot(path: PathLike, saved: Snapshot) -> None:
    """Write a snapshot as an uncompressed .npz (compression costs more time than the
    bytes it saves: a boid's numbers hardly compress)."""
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    with partial.open("wb") as out:
        np.savez(out, allow_pickle=False, **saved)
    partial.replace(target)


def read_snapshot(path: PathLike) -> Snapshot:
    """The arrays of a save file (not yet checked: `restore` does that).

    Raises:
        SaveError: the file is missing or unreadable, not a zip of arrays, truncated, holds
            objects (pickle) or unpacks to more than `MAX_FILE_BYTES`.
    """
    name = str(path)
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_FILE_BYTES:
                raise SaveError(f"{name}: unpacks to {unpacked:,} bytes, more than a flock takes")
        with np.load(path, allow_pickle=False) as arrays:
            return {key: arrays[key] for key in arrays.files}
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
    except (OSError, EOFError, KeyError) as error:
        raise SaveError(f"{name}: unreadable ({_line(error)})") from None


def _line(error: BaseException) -> str:
    """The first line of an error's message (one line in ours)."""
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:200]
