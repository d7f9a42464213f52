"""Object templates (.tj): an object placed from one is filled in as Tiled means it; a
template is read once, small, and must be a JSON object template (not a device, not a tile,
naming no further template); a map names only so many.

No window and no OpenGL: a level loads and validates on its own.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from shoal.components import Rect
from shoal.game.level import MAX_TEMPLATES, LevelError, load_level

from level_maps import H, circle_polygon, tiled_map, write

ROCK = {"name": "boulder", "type": "rock", "width": 40, "height": 30, "rotation": 0}


def _template_map(tmp_path: Path, template: dict[str, Any], **extra: Any) -> Path:
    (tmp_path / "rock.tj").write_text(json.dumps({"type": "template", **template}))
    placed = {"id": 3, "template": "rock.tj", "x": 100, "y": 50, **extra}
    return write(tmp_path, tiled_map(obstacles=[placed]))


def test_an_object_template_fills_in_the_object(tmp_path: Path) -> None:
    level = load_level(_template_map(tmp_path, {"object": {**ROCK, "visible": True}}))
    assert level.obstacles[0].shape == Rect(120, H - 65, 40, 30)


def test_what_an_object_sets_itself_wins_over_its_template(tmp_path: Path) -> None:
    """As in Tiled: a resized copy of a template keeps its own size (pytiled_parser let the
    template's win)."""
    rock = {"object": {**ROCK, "visible": True}}
    level = load_level(_template_map(tmp_path, rock, width=10, name="pebble"))
    assert level.obstacles[0].shape == Rect(105, H - 65, 10, 30)


def test_a_template_polygon_obeys_the_limits(tmp_path: Path) -> None:
    huge = {**ROCK, "visible": True, "polygon": circle_polygon(300, 40)}
    with pytest.raises(LevelError, match=r'object 3 "boulder": polygon = .* must have 3 to 256'):
        load_level(_template_map(tmp_path, {"object": huge}))


def test_a_template_lacking_a_key_names_the_object(tmp_path: Path) -> None:
    with pytest.raises(
        LevelError, match=r'layer obstacles, object 3 "boulder": visible is missing'
    ):
        load_level(_template_map(tmp_path, {"object": ROCK}))


def test_a_template_of_the_wrong_kind_names_the_template(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match=r"object 3: template 'rock\.tj': width = 'wide' must"):
        load_level(_template_map(tmp_path, {"object": {**ROCK, "width": "wide"}}))


def test_a_tile_object_template_is_refused(tmp_path: Path) -> None:
    tile = {"object": {**ROCK, "visible": True, "gid": 1}, "tileset": {"source": "/dev/zero"}}
    with pytest.raises(LevelError, match=r"template 'rock\.tj': a tile object's template"):
        load_level(_template_map(tmp_path, tile))


def test_a_template_naming_a_template_is_refused(tmp_path: Path) -> None:
    chained = {"object": {**ROCK, "visible": True, "template": "rock.tj"}}
    with pytest.raises(LevelError, match=r"template 'rock\.tj': template = 'rock\.tj' must not"):
        load_level(_template_map(tmp_path, chained))


@pytest.mark.parametrize("name", ["/dev/zero", "/proc/self/environ", "/etc/passwd", "."])
def test_a_template_that_is_not_a_tj_file_is_refused_unread(tmp_path: Path, name: str) -> None:
    placed = {"id": 3, "template": name, "x": 100, "y": 50}
    path = write(tmp_path, tiled_map(obstacles=[placed]))
    with pytest.raises(LevelError, match="not a JSON object template"):
        load_level(path)


def test_a_template_that_links_to_a_device_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "zero.tj").symlink_to("/dev/zero")
    placed = {"id": 3, "template": "zero.tj", "x": 100, "y": 50}
    with pytest.raises(LevelError, match=r"template 'zero\.tj': cannot read the file: not a reg"):
        load_level(write(tmp_path, tiled_map(obstacles=[placed])))


def test_a_big_template_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "big.tj").write_text(json.dumps({"object": {"name": "x" * 100_000}}))
    placed = {"id": 3, "template": "big.tj", "x": 100, "y": 50}
    with pytest.raises(LevelError, match=r"template 'big\.tj': size = 1000\d\d bytes is too big"):
        load_level(write(tmp_path, tiled_map(obstacles=[placed])))


def test_a_map_may_name_only_so_many_template_files(tmp_path: Path) -> None:
    for k in range(MAX_TEMPLATES + 1):
        (tmp_path / f"r{k}.tj").write_text(json.dumps({"object": {**ROCK, "visible": True}}))
    rocks = [
        {"id": k, "template": f"r{k}.tj", "x": 5 + k, "y": 5} for k in range(MAX_TEMPLATES + 1)
    ]
    with pytest.raises(LevelError, match=f"object {MAX_TEMPLATES}: template 'r{MAX_TEMPLATES}.tj'"):
        load_level(write(tmp_path, tiled_map(obstacles=rocks)))
