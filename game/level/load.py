"""The loader's entry points: find a level's file, read it, check it, build it."""

import importlib.resources
import math
import re
from pathlib import Path

from shoal.game.level.build import build_level
from shoal.game.level.limits import MAX_FILE_BYTES
from shoal.game.level.messages import LevelError, Where, quote
from shoal.game.level.model import Level
from shoal.game.level.reading import peek_order, read_json
from shoal.game.level.tree import check_map

PACKAGE = "shoal.levels"
SUFFIX = ".tmj"
_LEVEL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a bare name; anything else is a path


def load_level(name_or_path: str | Path) -> Level:
    """Load and validate a level.

    Args:
        name_or_path: a packaged level's name ("reef"), or the path of a Tiled JSON map.

    Raises:
        LevelError: the file is missing or unreadable, or the map is not a valid level.
    """
    path = resolve(name_or_path)
    where = Where(str(path))
    checked = check_map(read_json(path, where, MAX_FILE_BYTES), where, path.parent)
    return build_level(checked, path, where)


def level_names() -> list[str]:
    """Names of the packaged levels, in play order (map property ``order``, then name).

    Only the order is read here: a broken level is still listed (last), so that the game can
    offer it and show `load_level`'s error.
    """
    return sorted(packaged_names(), key=lambda name: (_order(name), name))


def packaged_names() -> list[str]:
    """Names of the packaged levels, in no particular order."""
    files = importlib.resources.files(PACKAGE).iterdir()
    return sorted(f.name[: -len(SUFFIX)] for f in files if f.name.endswith(SUFFIX))


def _order(name: str) -> float:
    try:
        return peek_order(resolve(name))
    except LevelError:
        return math.inf


def resolve(name_or_path: str | Path) -> Path:
    """The file of a packaged level's name, or the given path."""
    if isinstance(name_or_path, Path):
        return name_or_path
    if not isinstance(name_or_path, str):
        raise Where(quote(name_or_path)).error("not a level name or path")
    if not _LEVEL_NAME.fullmatch(name_or_path):
        return Path(name_or_path)
    resource = importlib.resources.files(PACKAGE) / f"{name_or_path}{SUFFIX}"
    if not resource.is_file():
        known = ", ".join(level_names())
        raise Where(name_or_path).error(f"no such level (packaged levels: {known})")
    if not isinstance(resource, Path):  # e.g. installed inside a zip archive
        raise Where(name_or_path).error("the packaged levels are not plain files")
    return resource
