"""Every species setting the docs show is measured by benchmarks/docs_values.py (issue 41,
point 5): a `Species(...)` added to (or changed in) the code of README.md, docs/embedding.md
or docs/behaviours.md, a preset or a recipe they name, fails here until the script measures
it. Runs nothing: the script itself prints what each setting does."""

import re
import sys
from pathlib import Path

# benchmarks/ is not a package: its scripts stand alone.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import docs_values

from shoal.components import Species
from shoal.game.presets import PRESETS
from shoal.recipes import RECIPES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/embedding.md", "docs/behaviours.md")
CODE = re.compile(r"```python\n(.*?)```", re.DOTALL)


def calls(code: str, name: str) -> list[str]:
    """Each `name(...)` call in `code`, from its name to its closing bracket."""
    found = []
    for match in re.finditer(rf"\b{name}\(", code):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(code)):
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            if depth == 0:
                break
        found.append(code[match.start() : end + 1])
    return found


def shown_species() -> list[tuple[str, Species]]:
    """(doc, species) for every `Species(...)` in the docs' Python code."""
    shown = []
    for doc in DOCS:
        for code in CODE.findall((ROOT / doc).read_text(encoding="utf-8")):
            for call in calls(code, "Species"):
                # The docs' own text, evaluated with nothing but Species in reach.
                shown.append((doc, eval(call, {"__builtins__": {}, "Species": Species})))
    return shown


def test_the_docs_show_species_in_their_code() -> None:
    docs = {doc for doc, _ in shown_species()}
    assert {"README.md", "docs/embedding.md"} <= docs


def test_every_species_in_the_docs_code_is_measured() -> None:
    for doc, species in shown_species():
        assert species in docs_values.MEASURED_SPECIES, (doc, species)


def test_every_follower_the_script_measures_has_its_speed_and_claim() -> None:
    for case in docs_values.FOLLOWERS:
        assert case.speed > 0 and case.claim and case.note


def test_every_preset_and_recipe_the_docs_name_is_measured() -> None:
    behaviours = (ROOT / "docs/behaviours.md").read_text(encoding="utf-8")
    section = behaviours.split("## Presets", 1)[1].split("\n## ", 1)[0]
    presets = set(re.findall(r"^- \*\*(\w+)\*\*", section, re.MULTILINE))
    assert presets == set(PRESETS) <= docs_values.MEASURED_PRESETS
    recipes = set(re.findall(r"^\| `(\w+)` \| 00\d", behaviours, re.MULTILINE))
    assert recipes == set(RECIPES) <= docs_values.MEASURED_RECIPES


def test_a_claim_holds_to_its_precision() -> None:
    assert docs_values.within(0.75, 0.80, 2).holds(0.804)
    assert not docs_values.within(0.75, 0.80, 2).holds(0.806)
    assert not docs_values.at_least(8.0).holds(7.9)  # a target as it stands
    assert not docs_values.at_most(2.0).holds(float("nan"))
