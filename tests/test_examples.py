"""The example games and the README's "Use shoal in your game", tried as a new user would.

Each example runs headless for 300 fixed steps in a process of its own (arcade reads
ARCADE_HEADLESS once, at import) and saves a picture; each stays short and uses only the
public API; the README's minimal example runs as printed.
"""

import ast
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import shoal
import shoal.components
import shoal.systems
import shoal.systems.render

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES_DIR = ROOT / "examples"
HELPERS = {"__init__", "cli", "screenshots"}  # the shared command line and the picture taker
GAMES = sorted(p.stem for p in EXAMPLES_DIR.glob("*.py") if p.stem not in HELPERS)
MAX_LINES = 150
PUBLIC = {
    "shoal": set(shoal.__all__),
    "shoal.components": set(shoal.components.__all__),
    "shoal.systems": set(shoal.systems.__all__),
    "shoal.systems.render": set(shoal.systems.render.__all__),
}
SECTION = "## Use shoal in your game"


def headless_env() -> dict[str, str]:
    return {**os.environ, "ARCADE_HEADLESS": "1"}


def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SECTION in text, f"README.md has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1]
    return section.split("\n## ", 1)[0]


def test_there_are_at_least_three_games_and_each_has_a_picture() -> None:
    assert len(GAMES) >= 3
    screenshots = runpy.run_path(str(EXAMPLES_DIR / "screenshots.py"))  # not as __main__
    assert sorted(screenshots["EXAMPLES"]) == GAMES
    section = readme_section()
    for game in GAMES:
        assert (ROOT / "docs" / "images" / f"{game}.png").is_file()
        assert f"docs/images/{game}.png" in section
        assert f"examples/{game}.py" in section


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_example_runs_headless_for_300_steps(game: str, tmp_path: Path) -> None:
    picture = tmp_path / f"{game}.png"
    command = [sys.executable, "-m", f"examples.{game}", "--headless", "--frames", "300"]
    done = subprocess.run(
        [*command, "--screenshot", str(picture)],
        cwd=ROOT,
        env=headless_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    with Image.open(picture) as image:
        assert image.size == (800, 450)
        colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 20  # a scene, not a blank window


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.py")), ids=lambda p: p.name)
def test_example_files_are_short(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name}: {lines} lines"


@pytest.mark.parametrize("game", GAMES)
def test_examples_use_only_the_public_api(game: str) -> None:
    source = (EXAMPLES_DIR / f"{game}.py").read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("shoal"):
            assert node.module in PUBLIC, f"{game} imports from {node.module}"
            names = {alias.name for alias in node.names}
            assert names <= PUBLIC[node.module], f"{game}: {names - PUBLIC[node.module]}"
        elif isinstance(node, ast.Import):
            assert all(a.name == "shoal" or not a.name.startswith("shoal") for a in node.names)
        elif isinstance(node, ast.Attribute):
            # No private attributes of anyone's (esper's, arcade's or shoal's).
            assert not node.attr.startswith("_") or node.attr.startswith("__"), node.attr


@pytest.mark.slow
def test_the_readme_example_is_short_and_runs(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", readme_section(), re.S)
    example = blocks[0]
    assert len(example.strip().splitlines()) <= 30
    script = tmp_path / "pond.py"
    script.write_text(example, encoding="utf-8")
    # arcade.run() would run forever; window.test() runs the same loop (fixed updates
    # included) for a few frames. Then the fish must have moved.
    runner = (
        "import arcade, runpy, sys\n"
        "def run_briefly():\n"
        "    window = arcade.get_window()\n"
        "    window.test(20)\n"
        "    flock = window.current_view.flock\n"
        "    assert flock.steps > 0 and len(flock) == 300, (flock.steps, len(flock))\n"
        "    print('ok', flock.steps)\n"
        "arcade.run = run_briefly\n"
        "runpy.run_path(sys.argv[1], run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", runner, str(script)],
        cwd=tmp_path,
        env=headless_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("ok")
