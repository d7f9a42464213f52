"""Where the game writes (screenshots, stats) and the checks made before it does.

No arcade here: the command line checks its output paths before the (long) run starts, so
that a path it could never write fails at once with one line, not with a traceback after
the whole run. Writing can still fail later (the disk fills up meanwhile); then the
problem comes back as one line too, never as a traceback.
"""

import errno
import os
import stat
from pathlib import Path

import platformdirs
from PIL import Image

from shoal.game.level.messages import clip

APP = "shoal"
PROBE = b"\0" * 4096  # a small write tells a full disk from a merely writable folder
MAX_PATH_CHARS = 120
"""Longest path a message shows (the middle of a longer one is cut out)."""


def screenshot_folder() -> Path:
    """Where S saves screenshots: a shoal folder in the user's pictures (not the current
    folder, which may be a source checkout or read-only)."""
    return Path(platformdirs.user_pictures_dir()) / APP


def numbered_screenshot(level: str, step: int) -> Path:
    """A new screenshot path for `level` at `step` (a number added if that one exists; if
    the folder cannot even be looked at, the first name: saving will say why)."""
    folder = screenshot_folder()
    path = folder / f"shoal-{level}-{step:06d}.png"
    count = 1
    try:
        while path.exists():
            count += 1
            path = folder / f"shoal-{level}-{step:06d}-{count}.png"
    except OSError:  # a name too long, a folder we may not look into
        return folder / f"shoal-{level}-{step:06d}.png"
    return path


def writable_problem(path: Path) -> str:
    """ "" if a file can be written at `path`, else why not, in one line.

    It must not be a folder or a device, its folder must exist, and a small probe file
    must be writable there (which catches read-only folders and file systems, missing
    permissions and full disks). A link is checked where it leads. An existing file is not
    changed.
    """
    try:
        return _writable_problem(path)
    except (OSError, RuntimeError, ValueError) as error:  # too long, a loop, a NUL, no access
        return f"cannot write {shown(path)}: {_why(error)}"


def _writable_problem(path: Path) -> str:
    if path.is_symlink():
        target = Path(os.path.realpath(path))
        if target.is_symlink():
            return f"{shown(path)} is a loop of links"
        path = target
    if path.is_dir():
        return f"{shown(path)} is a folder, not a file"
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        return f"{shown(path)} is not a regular file"
    folder = path.parent
    if not folder.is_dir():
        return f"folder {shown(folder)} does not exist"
    if path.exists() and not os.access(path, os.W_OK):
        return f"cannot write {shown(path)}: permission denied"
    probe = folder / f".{path.name}.{os.getpid()}.shoal-probe"
    try:
        file = open(probe, "xb")  # noqa: SIM115 (closed below, then removed)
    except OSError as error:
        return f"cannot write in {shown(folder)}: {_why(error)}"
    try:
        with file:
            file.write(PROBE)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        return f"cannot write in {shown(folder)}: {_why(error)}"
    finally:
        probe.unlink(missing_ok=True)
    return ""


def save_image(image: Image.Image, path: Path) -> str:
    """Save `image` as a PNG at `path` (its folder made if needed); returns "" or the
    problem in one line."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, format="PNG")
    except OSError as error:
        return f"cannot save the screenshot to {shown(path)}: {_why(error)}"
    print(f"shoal: screenshot saved to {shown(path.resolve())}")
    return ""


def shown(path: Path | str) -> str:
    """`path` for a message: control characters (terminal escapes) written as escapes, and
    a long path cut in the middle (a message stays one short line)."""
    return clip(str(path), MAX_PATH_CHARS)


def _why(error: Exception) -> str:
    if isinstance(error, OSError) and error.errno == errno.ENOSPC:
        return "the disk is full"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return clip(str(error), MAX_PATH_CHARS)
