"""Hostile level files, by subject: what a file may hold in its text, names and templates,
and what it costs to load and to play. Property tests (hypothesis) draw the files; the
promise is `level_checks.check_refused_or_playable` (quick; refused in one short printable
line, or played)."""

import json
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import shoal.game.level.templates as templates_module
from shoal.game.level import (
    MAX_FILE_BYTES,
    MAX_FOOD,
    MAX_OBSTACLE_VERTICES,
    MAX_TEXT_CHARS,
    MAX_TOTAL_FISH,
    LevelError,
    load_level,
)
from shoal.game.level.reading import read_json

from level_checks import DOCS, check_message, check_playable, check_refused_or_playable
from level_maps import point, tiled_map, tiled_object, write

QUICK = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Any text: control characters, escape sequences, bidi overrides, separators, lone
# surrogates (json.dumps writes them as \ud800 escapes), very long runs.
ANY_TEXT = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=50),
    st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "\u202e", "\u2028", "\ud800", "\x00", "é" * 61]),
    st.integers(1000, 100_000).map(lambda n: "\x1b" * n),
)


def _write(folder: Path, doc: dict[str, Any] | str, name: str = "test.tmj") -> Path:
    return write(folder, doc, name)


# --- text: names, titles, species, the file's own name ---------------------------------------
@pytest.mark.fuzz
@QUICK
@given(text=ANY_TEXT, where=st.sampled_from(["object", "layer", "property", "template"]))
def test_any_name_makes_a_short_printable_message(tmp_path: Path, text: str, where: str) -> None:
    rock = tiled_object(3, "lava", 10, 10, width=9, height=9)
    doc = tiled_map([rock])
    if where == "object":
        rock["name"] = text
    elif where == "layer":
        doc["layers"][0]["name"] = text or "x"
    elif where == "property":
        doc["properties"] = [{"name": text, "type": "string", "value": ""}]
    else:
        rock["template"] = text or "x"
    path = _write(tmp_path, doc)
    assert check_refused_or_playable(path) == "refused"


@pytest.mark.fuzz
@QUICK
@given(text=ANY_TEXT, field=st.sampled_from(["title", "species"]))
def test_a_shown_text_is_printable_and_short_or_refused(
    tmp_path: Path, text: str, field: str
) -> None:
    props = {field: ("string", text)}
    doc = tiled_map(props=props) if field == "title" else tiled_map(
        spawns=[point(7, "spawn", 40, 40, count=("int", 3), **props)])  # fmt: skip
    stripped = text.strip()
    valid = bool(stripped) and stripped.isprintable() and len(stripped) <= MAX_TEXT_CHARS
    try:
        level = load_level(_write(tmp_path, doc))
    except LevelError as error:
        assert not valid, str(error)
        check_message(str(error))
        assert f"{field} = " in str(error)
    else:
        assert valid
        assert (level.title if field == "title" else level.spawns[0].species) == stripped


def test_a_file_named_with_an_escape_sequence_is_named_safely(tmp_path: Path) -> None:
    path = _write(tmp_path, tiled_map(), "\x1b[31mred\x07.tmj")
    assert load_level(path).title == "\\x1b[31mred\\x07"
    with pytest.raises(LevelError) as caught:
        load_level(_write(tmp_path, "[]", "\x1b[2Jbroken.tmj"))
    check_message(str(caught.value))
    assert "\\x1b[2Jbroken.tmj: not a Tiled map" in str(caught.value)


@pytest.mark.parametrize(
    ("layer", "kind", "words"),
    [
        ("spawns\u200b", "rock", "layer spawns\\u200b: unknown object layer 'spawns\\u200b'"),
        ("\u0455pawns", "rock", "unknown object layer '\\u0455pawns' (object layers are"),
        ("obstacles", "\uff52ock", "class = '\\uff52ock' must be one of rock, plant"),
    ],
)
def test_look_alike_words_are_told_apart(tmp_path: Path, layer: str, kind: str, words: str) -> None:
    """A zero-width space, a Cyrillic s, a full-width r: the message shows them escaped."""
    doc = tiled_map([tiled_object(3, kind, 10, 10, width=9, height=9)])
    doc["layers"][0 if layer == "obstacles" else 1]["name"] = layer
    with pytest.raises(LevelError) as caught:
        load_level(_write(tmp_path, doc))
    check_message(str(caught.value))
    assert words in str(caught.value)


# --- the text of the file: whitespace, byte-order mark, keys, nesting, numbers --------------
@pytest.mark.slow
@pytest.mark.fuzz
@QUICK
@given(
    before=st.text(" \t\r\n", max_size=8),
    after=st.text(" \t\r\n", max_size=8),
    bom=st.booleans(),
)
def test_json_whitespace_and_a_bom_around_a_map_change_nothing(
    tmp_path: Path, before: str, after: str, bom: bool
) -> None:
    text = ("\ufeff" if bom else "") + before + json.dumps(tiled_map()) + after
    assert load_level(_write(tmp_path, text)) .spawns == load_level(
        _write(tmp_path, tiled_map(), "plain.tmj")).spawns  # fmt: skip


@pytest.mark.slow
@pytest.mark.fuzz
@QUICK
@given(depth=st.integers(1, 200_000), kind=st.sampled_from(["[]", "{}"]))
def test_deep_nesting_anywhere_is_refused_or_read(tmp_path: Path, depth: int, kind: str) -> None:
    opening, closing = kind[0] * depth, kind[1] * depth
    nested = opening.replace("{", '{"a":') + "0" + closing
    doc = json.dumps(tiled_map()).replace('"tilesets": []', f'"tilesets": [{nested}]')
    path = _write(tmp_path, doc[: MAX_FILE_BYTES - 1])
    check_refused_or_playable(path)


JSON_NUMBERS = st.from_regex(
    r"-?(0|[1-9][0-9]{0,1200})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,5})?", fullmatch=True
)


@pytest.mark.slow
@pytest.mark.fuzz
@QUICK
@given(token=JSON_NUMBERS, key=st.sampled_from(["x", "y", "width", "rotation", "value", "id"]))
def test_any_json_number_anywhere_is_refused_or_played(
    tmp_path: Path, token: str, key: str
) -> None:
    rock = tiled_object(3, "rock", 250, 200, width=9, height=9)
    doc = json.dumps(tiled_map([rock], props={"order": ("int", 12345)}))
    old = {"x": "250", "y": "200", "width": "9", "rotation": "0", "value": "12345", "id": "3"}
    marker = f'"{key}": {old[key]}'
    changed = doc.replace(marker, f'"{key}": {token}', 1)
    assert changed != doc or token == old[key]
    check_refused_or_playable(_write(tmp_path, changed))


# --- templates --------------------------------------------------------------------------------
def test_a_template_used_thousands_of_times_is_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Path] = []

    def counting_read(path: Path, *args: Any, **kwargs: Any) -> dict[str, Any]:
        reads.append(path)
        return read_json(path, *args, **kwargs)

    monkeypatch.setattr(templates_module, "read_json", counting_read)
    rock = {"name": "r" * 60_000, "type": "rock", "width": 2, "height": 2, "rotation": 0}
    (tmp_path / "rock.tj").write_text(json.dumps({"object": {**rock, "visible": True}}))
    placed = [{"id": k, "template": "rock.tj", "x": k % 300, "y": 9} for k in range(1, 4000)]
    with pytest.raises(LevelError, match="vertices = 2052 of the obstacles up to this one"):
        load_level(_write(tmp_path, tiled_map(placed)))
    assert reads == [tmp_path / "rock.tj"]


# --- cost: loading at the limits, and playing -------------------------------------------------
def _at_the_limits() -> dict[str, Any]:
    """A valid map at the object, vertex, fish and food limits: 512 rocks of 4 vertices,
    MAX_FOOD food points, fish and sharks up to MAX_TOTAL_FISH, spread out."""
    rocks = [tiled_object(k, "rock", 4 + k % 32 * 10, 4 + k // 32 * 10, width=3, height=3)
             for k in range(1, MAX_OBSTACLE_VERTICES // 4 + 1)]  # fmt: skip
    food = [point(1000 + k, "food", 8 + k % 20 * 15, 8 + k // 20 * 20) for k in range(MAX_FOOD)]
    sharks = [point(2000 + k, "shark", 9 + k % 50 * 6, 9 + k // 50 * 40) for k in range(200)]
    school = point(999, "spawn", 160, 128, count=("int", MAX_TOTAL_FISH - 200),
                   radius=("float", 150))  # fmt: skip
    return tiled_map(rocks, [school, *food, *sharks], props={"food_to_eat": ("int", 99999)})


@pytest.mark.slow
def test_a_map_at_every_limit_loads_small_and_plays(tmp_path: Path) -> None:
    """Memory is checked here; what loading and stepping it cost in time,
    benchmarks/level_cost.py prints (a timed test would fail on a busy machine)."""
    path = _write(tmp_path, _at_the_limits())
    tracemalloc.start()
    try:
        level = load_level(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (len(level.obstacles), len(level.food), len(level.sharks)) == (512, MAX_FOOD, 200)
    assert peak < 40_000_000
    check_playable(level)


@pytest.mark.slow
def test_the_worst_files_load_in_bounded_memory(tmp_path: Path) -> None:
    """1 MiB files of the shapes that cost the most per byte: tiny JSON objects, numbers,
    properties, objects; each refused or read within 40 MB (the time: level_cost.py)."""
    reef = json.dumps(DOCS["reef.tmj"])
    room = MAX_FILE_BYTES - len(reef) - 100
    fills = {
        "empty objects": "[" + ",".join(["{}"] * (room // 3)) + "]",
        "numbers": "[" + ",".join(["0.5"] * (room // 4)) + "]",
        "deep lists": "[" * 900 + "]" * 900,
    }
    for name, fill in fills.items():
        path = _write(tmp_path, reef.replace('"tilesets": []', f'"tilesets": {fill}'), "w.tmj")
        tracemalloc.start()
        try:
            check_refused_or_playable(path)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 40_000_000, (name, peak)


# --- any level the loader takes plays -------------------------------------------------------
@st.composite
def playable_maps(draw: st.DrawFn) -> dict[str, Any]:
    """Maps within every limit, of any size and mix: rocks, food, sharks and spawn points
    placed at random (some put a point in a rock or crowd too much, and are refused)."""
    tiles = draw(st.tuples(st.integers(4, 60), st.integers(4, 40)), label="tiles")
    size = np.array(tiles) * 32.0
    counts = draw(st.tuples(
        st.integers(0, MAX_OBSTACLE_VERTICES // 4),  # rocks of 4 vertices
        st.integers(0, MAX_FOOD),
        st.integers(0, 30),  # sharks
        st.integers(1, 5),  # spawn points
    ), label="rocks, food, sharks, spawns")  # fmt: skip
    rng = np.random.default_rng(draw(st.integers(0, 2**32), label="seed"))
    rocks, food, sharks, spawn_points = counts

    corners = rng.uniform(4, size - 4, (rocks, 2))
    sides = rng.uniform(3, 40, (rocks, 2))
    objects = [tiled_object(k + 1, "rock", float(x), float(y), width=float(w), height=float(h),
                            rotation=float(rng.uniform(0, 90)))
               for k, ((x, y), (w, h)) in enumerate(zip(corners, sides, strict=True))]  # fmt: skip
    reach = np.hypot(sides[:, 0], sides[:, 1]) + 2  # a rock turns about its corner

    def spots(n: int) -> list[tuple[float, float]]:
        """n points clear of every rock (fewer where the rocks leave no room)."""
        found = rng.uniform(4, size - 4, (50 * n, 2))
        d = np.hypot(*(found[:, None, :] - corners[None, :, :]).transpose(2, 0, 1))
        clear = found[(d > reach).all(axis=1)] if rocks else found
        return [(float(x), float(y)) for x, y in clear[:n]]

    points = [point(1000 + k, "food", x, y) for k, (x, y) in enumerate(spots(food))]
    points += [point(2000 + k, "shark", x, y) for k, (x, y) in enumerate(spots(sharks))]
    per_spawn = (MAX_TOTAL_FISH - sharks) // spawn_points
    for k, (x, y) in enumerate(spots(spawn_points)):
        count = int(rng.integers(1, per_spawn + 1))
        radius = float(rng.uniform(4 * count**0.5, 300))  # room enough not to crowd
        points.append(point(3000 + k, "spawn", x, y, count=("int", count),
                            radius=("float", radius)))  # fmt: skip
    doc = tiled_map(objects, points, props={"food_to_eat": ("int", 99999)})
    doc.update(width=tiles[0], height=tiles[1])
    return doc


@pytest.mark.fuzz
@pytest.mark.slow
@settings(QUICK, max_examples=12)
@given(doc=playable_maps())
def test_any_level_within_the_limits_plays(tmp_path: Path, doc: dict[str, Any]) -> None:
    """Whatever mix of rocks, food, sharks and fish a level holds within the limits, it is
    refused with one line or builds and steps with finite state (what a step of such levels
    costs, benchmarks/level_cost.py prints)."""
    try:
        level = load_level(_write(tmp_path, doc))
    except LevelError as error:
        check_message(str(error))
        event(f"refused: {str(error).split(': ', 2)[-1][:40]}")
        return
    event("played")
    check_playable(level)
