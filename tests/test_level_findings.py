"""What fuzzing and attacking the level loader found, each case reduced to a regression test.

Each case is a small change to the reef level, written out (a derandomized fuzz run need not
draw it again), with what the loader did before the fix. Refused cases must be refused with
the given words in a short, printable line; the others must load and play, since they are
valid levels (or hold only parts that shoal never reads). The command line and a reload in
the game are checked on a few of them.
"""

import base64
import copy
import json
import math
import os
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from shoal.game.level import MAX_FOOD, MAX_SPAWN_COUNT, LevelError, load_level
from shoal.game.tank import Tank

from level_checks import DOCS, TEXTS, check_message, check_refused_or_playable

if TYPE_CHECKING:
    import arcade

Json = Any
# 64 MiB of zero tiles in 65 kB: a tile layer that would unpack to far more than it says.
BOMB = base64.b64encode(zlib.compress(bytes(64 << 20), 9)).decode()


def _spawn(doc: Json) -> Json:
    return next(o for o in doc["layers"][1]["objects"] if o["type"] == "spawn")


def _set_property(holder: Json, name: str, kind: str, value: Json) -> None:
    holder["properties"] = [p for p in holder.get("properties", []) if p["name"] != name]
    holder["properties"].append({"name": name, "type": kind, "value": value})


def _add_obstacle(doc: Json, **fields: Json) -> None:
    obstacle = {"id": 99, "name": "found", "type": "rock", "rotation": 0, "visible": True}
    doc["layers"][0]["objects"].append({**obstacle, **fields})


def _tile_layer(**fields: Json) -> Json:
    layer = {"id": 90, "name": "tiles", "type": "tilelayer", "opacity": 1, "visible": True}
    return {**layer, "x": 0, "y": 0, "width": 40, "height": 22, **fields}


# --- round 1 (issue 8): refused ---------------------------------------------------------------
def property_type_a_list(doc: Json) -> None:  # TypeError: unhashable type: 'list'
    next(p for p in doc["properties"] if p["name"] == "order")["type"] = []


def number_of_400_digits(doc: Json) -> None:  # OverflowError: int too large for a float
    _set_property(doc, "current_x", "float", 10**400)


def polygon_scaled_far_out(doc: Json) -> None:  # ValueError from the tank's obstacle field
    # The caves' ceiling times -1e300: its area overflows to NaN, which passed every check.
    ceiling = DOCS["caves.tmj"]["layers"][0]["objects"][0]["polygon"]
    far = [{"x": p["x"] * -1e300, "y": p["y"] * -1e300} for p in ceiling]
    _add_obstacle(doc, x=0, y=0, width=0, height=0, polygon=far)


def rectangle_thinner_than_a_float_step(doc: Json) -> None:  # ValueError: obstacle field
    _add_obstacle(doc, x=436.95, y=350, width=7e-299, height=300, rotation=12)


def current_of_1e300(doc: Json) -> None:  # the tank's state became NaN; bounce: ValueError
    _set_property(doc, "boundary", "string", "bounce")
    _set_property(doc, "current_y", "float", -1e300)


def school_in_a_pinhead(doc: Json) -> None:  # MemoryError (841 MiB) in the neighbour lists
    _set_property(_spawn(doc), "count", "int", MAX_SPAWN_COUNT)
    _set_property(_spawn(doc), "radius", "float", 1.0)


def template_dev_zero(doc: Json) -> None:  # read /dev/zero until memory ran out
    doc["layers"][0]["objects"][0]["template"] = "/dev/zero"


def tileset_property_of_1e999(doc: Json) -> None:  # OverflowError in pytiled_parser's round()
    # Found by reading pytiled_parser, not by the fuzzer: written as 1e999 by _write_found.
    tileset = {"firstgid": 1, "name": "t", "tilewidth": 32, "tileheight": 32, "tilecount": 0}
    doc["tilesets"] = [{**tileset, "properties": [{"name": "a", "type": "int", "value": math.inf}]}]


# --- round 2 (issue 19): refused --------------------------------------------------------------
def a_4900_food_points(doc: Json) -> None:  # each step took 80-100 ms
    food = {"type": "food", "point": True, "width": 0, "height": 0, "rotation": 0}
    spawns = doc["layers"][1]["objects"]
    spawns += [{**food, "id": 500 + k, "name": "", "visible": True, "x": 100, "y": 100}
               for k in range(4900)]  # fmt: skip


def escape_sequences_in_a_name(doc: Json) -> None:  # cleared the terminal, set its title
    obj = doc["layers"][0]["objects"][0]
    obj.update(name="\x1b[2J\x1b[H\x1b]0;owned\x07", type="lava")


def a_500_kb_name(doc: Json) -> None:  # a 500 kB error line
    doc["layers"][0]["objects"][0].update(name="A" * 500_000, type="lava")


def a_500_kb_property_name(doc: Json) -> None:  # a 500 kB error line
    _set_property(doc, "B" * 500_000, "string", "")


def title_that_clears_the_terminal(doc: Json) -> None:  # printed as it was after the game
    _set_property(doc, "title", "string", "\x1b[2J\x1b[3J")


def a_lone_surrogate_title(doc: Json) -> None:  # UnicodeEncodeError when printed
    _set_property(doc, "title", "string", "\ud800")


def a_time_limit_of_1e308(doc: Json) -> None:  # a 309-digit count-down on the HUD
    _set_property(doc, "time_limit", "float", 1e308)


def a_template_path_holding_nul(doc: Json) -> None:  # a bare ValueError: the game crashed
    doc["layers"][0]["objects"][0]["template"] = "rock\x00.tj"


def a_key_written_twice(doc: Json) -> str:  # the second one counted, unseen
    return json.dumps(doc)[:-1] + ', "width": 512}'


def a_4000_digit_id(doc: Json) -> None:  # a 4,000-character error line
    doc["layers"][0]["objects"][0].update(id=10**3999, type="lava")


# --- loaded and played now --------------------------------------------------------------------
def leading_newline(doc: Json) -> str:  # refused: pytiled_parser read the first line only
    return "\n" + json.dumps(doc)


def byte_order_mark_and_whitespace(doc: Json) -> str:  # refused: "Unexpected UTF-8 BOM"
    return "\ufeff \r\n\t" + json.dumps(doc) + "\n\n"


def offsetx_without_offsety(doc: Json) -> None:  # refused with "KeyError: 'offsety'"
    doc["layers"][0]["offsetx"] = 0


def tile_layer_of_width_0(doc: Json) -> None:  # ZeroDivisionError in pytiled_parser
    doc["layers"].append(_tile_layer(width=0, height=0, encoding="base64", data="AAAAAA=="))


def tile_layer_zlib_bomb(doc: Json) -> None:  # 64 MiB unpacked from 65 kB (then refused)
    doc["layers"].append(_tile_layer(encoding="base64", compression="zlib", data=BOMB))


def external_tileset_dev_zero(doc: Json) -> None:  # read /dev/zero until memory ran out
    doc["tilesets"] = [{"firstgid": 1, "source": "/dev/zero"}]


Case = Callable[[Json], str | None]
REFUSED: dict[str, tuple[Case, str]] = {
    "property type a list": (property_type_a_list, "order.type = [] must be one of"),
    "number of 400 digits": (number_of_400_digits, "must be a finite number"),
    # The shape refuses it first now (no coordinate beyond ±MAX_COORDINATE, issue 19).
    "polygon scaled far out": (polygon_scaled_far_out, "must lie within ±1e+07"),
    "thin rectangle": (rectangle_thinner_than_a_float_step, "width = 7e-299 must be at least 1"),
    "current of 1e300": (current_of_1e300, "current_y = -1e+300 must be at least -1000"),
    "school in a pinhead": (school_in_a_pinhead, "would start in one 50 px square"),
    "template /dev/zero": (template_dev_zero, "template '/dev/zero': not a JSON object template"),
    "tileset property of 1e999": (tileset_property_of_1e999, "not valid JSON: 1e999 is too big"),
    "4,900 food points": (a_4900_food_points, f"food points = {MAX_FOOD + 1} are too many"),
    "escape sequences in a name": (escape_sequences_in_a_name, '"\\x1b[2J\\x1b[H\\x1b]0;o'),
    "a 500 kB name": (a_500_kb_name, 'object 1 "AAAAAAAAAAAAAAAAAAA…AAAAAAAAAAAAAAAAAAA"'),
    "a 500 kB property name": (a_500_kb_property_name, "unknown map property 'BBBBBBB"),
    "title that clears the terminal": (title_that_clears_the_terminal, "title = '\\x1b[2J"),
    "a lone surrogate title": (a_lone_surrogate_title, "title = '\\ud800' must be printable"),
    "time limit of 1e308": (a_time_limit_of_1e308, "time_limit = 1e+308 must be at most 86400"),
    "template path with NUL": (a_template_path_holding_nul, "'rock\\x00.tj': cannot read"),
    "a key written twice": (a_key_written_twice, "the key 'width' appears twice in one object"),
    "a 4000-digit id": (a_4000_digit_id, "not valid JSON: a number of 4000 digits is too long"),
}
PLAYED: dict[str, Case] = {
    "leading newline": leading_newline,
    "byte-order mark and whitespace": byte_order_mark_and_whitespace,
    "offsetx without offsety": offsetx_without_offsety,
    "tile layer of width 0": tile_layer_of_width_0,
    "tile layer zlib bomb": tile_layer_zlib_bomb,
    "external tileset /dev/zero": external_tileset_dev_zero,
}


def _write_found(case: Case, path: Path) -> Path:
    doc = copy.deepcopy(DOCS["reef.tmj"])
    text = case(doc)
    if text is None:
        text = json.dumps(doc).replace("Infinity", "1e999")
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("case", REFUSED)
def test_what_was_found_is_refused_in_one_short_printable_line(case: str, tmp_path: Path) -> None:
    change, words = REFUSED[case]
    path = _write_found(change, tmp_path / "found.tmj")
    assert check_refused_or_playable(path) == "refused"
    with pytest.raises(LevelError) as caught:
        load_level(path)
    assert words in str(caught.value)


@pytest.mark.parametrize("case", PLAYED)
def test_what_was_found_valid_loads_and_plays(case: str, tmp_path: Path) -> None:
    path = _write_found(PLAYED[case], tmp_path / "found.tmj")
    assert check_refused_or_playable(path) == "played"
    assert load_level(path).spawns == load_level("reef").spawns


# Subprocesses are slow (~1 s each): the command line gets a few of the findings.
@pytest.mark.slow
@pytest.mark.parametrize(
    "case", ["property type a list", "current of 1e300", "escape sequences in a name"]
)
def test_the_game_refuses_a_found_level_in_one_line(case: str, tmp_path: Path) -> None:
    path = _write_found(REFUSED[case][0], tmp_path / "found.tmj")
    level = ["--level", str(path), "--headless", "--frames", "5"]
    command = [sys.executable, "-m", "shoal.game", *level]
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    done = subprocess.run(
        command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"shoal: error: {path}: "), done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    check_message(done.stderr.rstrip("\n"))
    assert REFUSED[case][1] in done.stderr


def test_reloading_a_broken_level_keeps_the_current_one(
    window: "arcade.Window", tmp_path: Path
) -> None:
    from shoal.game.tank_view import TankView  # imports arcade: only this test needs it

    path = tmp_path / "reef.tmj"
    path.write_text(TEXTS["reef.tmj"], encoding="utf-8")
    view = TankView(load_level(path), lambda level: Tank(level, seed=2))
    window.show_view(view)
    view.step()
    tank = view.tank
    try:
        for case in ("school in a pinhead", "escape sequences in a name", "a 500 kB name"):
            _write_found(REFUSED[case][0], path)
            view.reload()
            assert view.tank is tank, case  # still playing the level it had
            assert view.hud.error.startswith(f"{path}: ") and REFUSED[case][1] in view.hud.error
            check_message(view.hud.error, path)
        view.on_draw()  # and the error is drawn without trouble
    finally:
        view.tank.close()
