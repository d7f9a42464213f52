"""Saving and restoring a flock: a plain snapshot of its state, and a .npz file of it.

    import shoal

    shoal.save(flock, path)           # when the player quits
    ...
    flock = shoal.install(config, world="fish")   # the same FlockConfig
    # the host's obstacles, food, leaders again; the same sprites tied, in the same order
    new_of = shoal.load(flock, path)  # saved entity -> its entity now

`snapshot.py` (what is saved), `checks.py` (every check before a restore), `restore.py`
(the flock rebuilt), `save_file.py` (the file), `errors.py` (`SaveError`).
"""

from shoal.systems.saving.errors import SaveError
from shoal.systems.saving.restore import restore
from shoal.systems.saving.save_file import load, read_snapshot, save, write_snapshot
from shoal.systems.saving.snapshot import FORMAT, VERSION, Snapshot, snapshot

__all__ = [
    "FORMAT",
    "VERSION",
    "SaveError",
    "Snapshot",
    "load",
    "read_snapshot",
    "restore",
    "save",
    "snapshot",
    "write_snapshot",
]
