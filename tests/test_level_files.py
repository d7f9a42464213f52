"""Level files that cannot be read: missing, a directory, a device, a link to one, a named
pipe, a link loop, a path holding a NUL or too long, a huge file, a huge count, not a path at
all. Each is refused with one short line naming the file, unread and without a big
allocation.

No window and no OpenGL: a level loads and validates on its own.
"""

import os
import tracemalloc
from pathlib import Path

import pytest

from shoal.game.level import LevelError, load_level

from level_maps import point, tiled_map, write


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match=r"nope\.tmj: cannot read the file: No such file"):
        load_level(tmp_path / "nope.tmj")


def test_a_directory(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match="cannot read the file"):
        load_level(tmp_path)


def test_an_unknown_level_name() -> None:
    with pytest.raises(LevelError, match=r"atlantis: no such level \(packaged levels: reef"):
        load_level("atlantis")


def test_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.tmj"
    with path.open("wb") as file:
        file.truncate(64 * 1024 * 1024)  # sparse: costs no disk
    with pytest.raises(LevelError, match="is too big for a level"):
        load_level(path)


def test_a_huge_count_is_refused_before_anything_is_allocated(tmp_path: Path) -> None:
    doc = tiled_map(spawns=[point(7, "spawn", 40, 40, count=("int", 10**12))])
    path = write(tmp_path, doc)
    tracemalloc.start()
    try:
        with pytest.raises(LevelError, match="must be at most"):
            load_level(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_level_error_is_a_value_error() -> None:
    assert issubclass(LevelError, ValueError)


def test_a_device_is_refused_unread() -> None:
    with pytest.raises(LevelError, match=r"^/dev/zero: cannot read the file: not a regular file"):
        load_level(Path("/dev/zero"))


def test_a_link_to_a_device_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "zero.tmj").symlink_to("/dev/zero")
    with pytest.raises(LevelError, match=r"zero\.tmj: cannot read the file: not a regular file"):
        load_level(tmp_path / "zero.tmj")


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.tmj")
    with pytest.raises(LevelError, match=r"pipe\.tmj: cannot read the file: not a regular file"):
        load_level(tmp_path / "pipe.tmj")


def test_a_link_loop_is_refused(tmp_path: Path) -> None:
    (tmp_path / "loop.tmj").symlink_to("loop.tmj")
    with pytest.raises(LevelError, match=r"loop\.tmj: cannot read the file: Too many levels"):
        load_level(tmp_path / "loop.tmj")


def test_a_path_holding_a_nul_is_refused_in_one_clear_line() -> None:
    with pytest.raises(LevelError, match=r"^a\\x00b\.tmj: cannot read the file: its path holds"):
        load_level("a\x00b.tmj")


def test_a_name_too_long_for_the_system_is_refused_in_one_short_line() -> None:
    with pytest.raises(LevelError, match="File name too long") as caught:
        load_level("x" * 5000)
    assert len(str(caught.value)) < 300


def test_a_level_that_is_not_a_name_or_path() -> None:
    with pytest.raises(LevelError, match=r"^\[1, 2\]: not a level name or path"):
        load_level([1, 2])  # type: ignore[arg-type]
