"""Fuzzing the level loader: a broken level file gives a LevelError, never a crash or a hang.

Each example starts from a packaged level and breaks it, either in its parsed JSON (values
of the wrong type, huge, negative or non-finite numbers, values at and past every limit,
deleted keys, duplicated, shuffled or dropped objects, scaled coordinates, wild polygons,
extra tile layers, tilesets, object templates (also used thousands of times), paths to
devices, links and pipes, group nesting, names and titles holding escape sequences, bidi
overrides, surrogates and look-alike letters) or in its raw bytes (cut short, flipped,
inserted, deleted, invalid UTF-8, numbers out of range, keys repeated, whitespace and a
byte-order mark around it). The property (`level_checks.check_refused_or_playable`):
`load_level` returns quickly, and either refuses the file with a LevelError whose message is
one short, printable line naming the file, or returns a level the game can play (its Tank
builds and steps quickly with every position and velocity finite). Any other exception
fails the test.

The examples are derandomized, so a run checks the same files every time (CI included);
`pytest --hypothesis-show-statistics` shows how many were refused and how many played.
A longer, random hunt: ``SHOAL_FUZZ_EXAMPLES=5000 pytest tests/test_level_fuzz.py``.
"""

import copy
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from shoal.game.level import MAX_TEMPLATE_BYTES
from shoal.systems import warm_up

from level_bytes import RAW_MUTATIONS
from level_checks import DOCS, TEXTS, check_refused_or_playable
from level_maps import circle_polygon
from level_mutations import NAMES, TEMPLATES, TREE_MUTATIONS, Json

pytestmark = [pytest.mark.fuzz, pytest.mark.slow]

LONG_RUN = int(os.environ.get("SHOAL_FUZZ_EXAMPLES", "0"))
"""Examples per test of a long hunt (fresh random ones each run); 0: the short CI run."""
TREE_EXAMPLES = LONG_RUN or 400
RAW_EXAMPLES = LONG_RUN or 500

# derandomize: the same examples on every run; deadline=None: the property times itself
# (hypothesis's deadline would also count the tank's first kernel compile). The autouse
# fresh-world fixture is shared by the examples harmlessly: every Tank makes its own world.
FUZZ = settings(
    derandomize=not LONG_RUN,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


# --- the property ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fuzz_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one file every example writes, in a folder of its own with the `TEMPLATES` and
    a link to /dev/zero, a link loop and a named pipe; the tank kernels compiled beforehand."""
    warm_up()
    folder = tmp_path_factory.mktemp("fuzz")
    rock = {"name": "rock", "type": "rock", "width": 20, "height": 20, "rotation": 0}
    ring = {**rock, "width": 0, "height": 0, "polygon": circle_polygon(200, 30)}
    big = {**rock, "name": "x" * (MAX_TEMPLATE_BYTES)}
    tile = {**rock, "gid": 1}
    for name, obj in zip(TEMPLATES, [rock, ring, big, tile], strict=True):
        (folder / name).write_text(json.dumps({"object": {**obj, "visible": True}}))
    (folder / "zero.tj").symlink_to("/dev/zero")
    (folder / "loop.tj").symlink_to("loop.tj")
    os.mkfifo(folder / "pipe.tj")
    return folder / "level.tmj"


def _mutated_tree(data: st.DataObject) -> Json:
    doc = copy.deepcopy(DOCS[data.draw(st.sampled_from(NAMES), label="level")])
    for mutation in data.draw(st.lists(st.sampled_from(TREE_MUTATIONS), min_size=1, max_size=3)):
        mutation(data, doc)
    return doc


@settings(FUZZ, max_examples=TREE_EXAMPLES)
@given(data=st.data())
def test_a_mutated_level_tree_is_refused_or_playable(fuzz_file: Path, data: st.DataObject) -> None:
    doc = _mutated_tree(data)
    text = json.dumps(doc)
    if data.draw(st.booleans(), label="infinities as 1e999"):
        # json writes inf as Infinity, which the loader refuses at once; 1e999 is a number
        # that Python's json reads as inf, and it reaches whatever reads that value.
        text = text.replace("Infinity", "1e999")
    fuzz_file.write_text(text, encoding="utf-8")
    event(check_refused_or_playable(fuzz_file))


@settings(FUZZ, max_examples=RAW_EXAMPLES)
@given(data=st.data())
def test_mutated_level_bytes_are_refused_or_playable(fuzz_file: Path, data: st.DataObject) -> None:
    raw = TEXTS[data.draw(st.sampled_from(NAMES), label="level")].encode()
    for mutation in data.draw(st.lists(st.sampled_from(RAW_MUTATIONS), min_size=1, max_size=3)):
        raw = mutation(data, raw)
    fuzz_file.write_bytes(raw)
    event(check_refused_or_playable(fuzz_file))
