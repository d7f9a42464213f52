"""The source's layout: no Python file over 400 lines without a reason in its first lines,
and no import cycle between shoal's modules (imports for the type checker included)."""

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LONG = 400
PACKAGES = {"api": "shoal", "components": "shoal.components", "systems": "shoal.systems",
            "game": "shoal.game", "levels": "shoal.levels"}  # fmt: skip
"""The folders of the checkout and the packages setuptools maps them to (pyproject.toml)."""


def tracked_python() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed]


def test_a_file_over_400_lines_says_why_in_its_first_lines() -> None:
    unexplained = []
    for path in tracked_python():
        lines = path.read_text().splitlines()
        if len(lines) > LONG and "over 400 lines" not in " ".join(lines[:25]).lower():
            unexplained.append(f"{path.relative_to(ROOT)}: {len(lines)} lines")
    assert not unexplained, "split them, or say why one file in the module docstring"


def modules() -> dict[str, Path]:
    """shoal's modules by name, from the checkout's folders."""
    found = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            found[".".join((package, *parts))] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of shoal that module `name` imports, anywhere in it (as grimp reads them:
    `from a import b` imports module a.b where there is one, else a)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_two_modules_import_each_other_even_for_the_type_checker() -> None:
    known = modules()
    assert "shoal.systems.flock.flock" in known and "shoal.embed" in known
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert "shoal.systems.core.store" in graph["shoal.systems.flock.flock"]  # the scan reads
    assert cycles(graph) == []
