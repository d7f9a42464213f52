"""Results: each level's outcome in this session, and the best score per level kept on disk.

The best scores live in ``best.json`` in the user's data folder (platformdirs finds it:
``~/.local/share/shoal`` on Linux, ``%LOCALAPPDATA%\\shoal`` on Windows, ``~/Library/
Application Support/shoal`` on macOS). A best is kept per level *and setup*: a school of
another size or a preset is a different game, so it gets its own line. A level not won yet
keeps its best try (the best score of a lost run) instead, so that a player stuck on it
sees their progress. A file that cannot be read or written never stops the game: the
records then last for this session only, and `Records.problem` says why.
"""

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from shoal.game.outputs import shown

APP = "shoal"
FILE = "best.json"
MAX_FILE_BYTES = 1024 * 1024
"""Largest best-scores file read: a real one is a few hundred bytes a level played."""


def data_folder() -> Path:
    """The user's data folder for shoal (not created here)."""
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


@dataclass(frozen=True, slots=True)
class Result:
    """How one level went.

    Attributes:
        level: the level's title.
        status: "won", "lost" or "skipped" (N before the end).
        score: points when it ended.
        reason: one line saying why it ended.
        practice: why it does not count ("" when it does).
        best: the best score of this level and setup, this one included (None: none won).
        best_try: the best score of a lost run of this level and setup, this one included,
            while it was never won (None: none).
    """

    level: str
    status: str
    score: int
    reason: str
    practice: str = ""
    best: int | None = None
    best_try: int | None = None


class Records:
    """The best winning score of each level and setup (and of a level not won yet, its best
    try), read from and written to `path`: ``{"won": {key: score}, "tried": {...}}`` (a
    file of the first version, ``{key: score}``, holds wins).

    Args:
        path: the JSON file (default: ``best.json`` in `data_folder()`).
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = data_folder() / FILE if path is None else path
        self.problem = ""  # why the file could not be read or written ("" when fine)
        self.best: dict[str, int] = {}
        self.tried: dict[str, int] = {}
        raw = self._read()
        if set(raw) <= {"won", "tried"} and all(isinstance(v, dict) for v in raw.values()):
            self.best, self.tried = _scores(raw.get("won", {})), _scores(raw.get("tried", {}))
        else:
            self.best = _scores(raw)

    def best_of(self, key: str) -> int | None:
        """The best score kept for `key` (None: never won)."""
        return self.best.get(key)

    def tried_of(self, key: str) -> int | None:
        """The best score of a lost run of `key`, while it was never won (else None)."""
        return None if key in self.best else self.tried.get(key)

    def add(self, key: str, score: int, won: bool = True) -> bool:
        """Keep `score` if it beats the one kept: a won level's best, or (`won` False) a
        lost one's best try, until it is won. Returns whether it did."""
        kept = self.best if won else self.tried
        if (not won and key in self.best) or kept.get(key, -1) >= score:
            return False
        kept[key] = score
        if won:
            self.tried.pop(key, None)
        self._write()
        return True

    def _read(self) -> dict[str, object]:
        try:
            if not stat.S_ISREG(self.path.stat().st_mode):  # a pipe would wait for a writer
                self.problem = f"{shown(self.path)} is not a regular file: starting afresh"
                return {}
            with self.path.open("rb") as file:
                data = file.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return {}
        except OSError as error:
            self.problem = f"cannot read {shown(self.path)}: {error.strerror or error}"
            return {}
        if len(data) > MAX_FILE_BYTES:
            self.problem = f"{shown(self.path)} is too big for best scores: starting afresh"
            return {}
        try:
            raw = json.loads(data)
        except (ValueError, RecursionError):  # broken, or nested thousands deep
            self.problem = f"{shown(self.path)} is not valid JSON: starting afresh"
            return {}
        if not isinstance(raw, dict):
            self.problem = f"{shown(self.path)} does not hold an object: starting afresh"
            return {}
        return raw

    def _write(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(self.path.name + ".part")
            scores = {"won": self.best, "tried": self.tried}
            partial.write_text(json.dumps(scores, indent=1, sort_keys=True), encoding="utf-8")
            os.replace(partial, self.path)  # whole or not at all, even if the game is killed
            self.problem = ""
        except OSError as error:
            why = error.strerror or error
            self.problem = f"cannot save the best scores to {shown(self.path)}: {why}"


def _scores(raw: object) -> dict[str, int]:
    """The sound entries of one table of scores: a hand-edited file must not break the game."""
    if not isinstance(raw, dict):
        return {}
    return {str(k): int(v) for k, v in raw.items() if type(v) is int and v >= 0}


def setup_key(level: str, fish: int | None, preset: str | None) -> str:
    """The key of a level played with a school of `fish` (None: the level's own) and a
    preset (None: the game's own fish)."""
    key = level
    if fish is not None:
        key += f" fish={fish}"
    if preset is not None:
        key += f" preset={preset}"
    return key
