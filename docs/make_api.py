"""Write docs/api.md, shoal's API reference, from the code itself.

Run from the repository root: ``python docs/make_api.py`` (``--output PATH`` writes elsewhere,
``--check`` only says whether docs/api.md and the species table are up to date). It reads
the public names of
`shoal.components`, `shoal.systems` and `shoal.systems.render` (their ``__all__``), their
signatures as written in the source, and the first paragraph of their docstrings; constants
are documented by the string right after their assignment (or, failing that, the comment on or
above it). The species parameters come from their declarations in `Species` (default,
unit, range and meaning: `shoal.components.SPECIES_PARAMETERS`). It also writes the species
table into docs/behaviours.md between its markers.
"""

import argparse
import ast
import dataclasses
import importlib
import inspect
import os
import re
import sys
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

# The render module imports arcade: never open a window for the docs.
os.environ.setdefault("ARCADE_HEADLESS", "1")

import shoal
from shoal import components, embed, recipes, systems
from shoal.components import SPECIES_PARAMETERS, Species
from shoal.systems import render
from shoal.systems.core import events

OUTPUT = Path(__file__).resolve().parent / "api.md"
BEHAVIOURS = Path(__file__).resolve().parent / "behaviours.md"
SPECIES_BEGIN = "<!-- species table: written by docs/make_api.py -->"
SPECIES_END = "<!-- end of species table -->"


# --- reading the source ------------------------------------------------------------------
def first_paragraph(doc: str | None) -> str:
    """The first paragraph of a docstring, on one line (with the list after it, if it ends
    with a colon)."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    text = " ".join(line.strip() for line in paragraphs[0].splitlines())
    if text.endswith(":") and len(paragraphs) > 1:
        text += "\n\n" + paragraphs[1].replace("``", "`")
    return text


def source_node(obj: Any) -> ast.ClassDef | ast.FunctionDef:
    """The class or function definition of `obj`, parsed from its source."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
    node = tree.body[0]
    if not isinstance(node, ast.ClassDef | ast.FunctionDef):
        raise TypeError(f"{obj!r} is not a class or function")
    return node


def docstring(obj: Any) -> str:
    """The docstring written on a class or function itself (never inherited or generated)."""
    return ast.get_docstring(source_node(obj)) or ""


def origin(package: ModuleType, name: str) -> ModuleType:
    """The module that defines `name`, which `package` re-exports (at its top, or for the
    type checker where it imports its names on first use)."""
    for node in ast.walk(ast.parse(inspect.getsource(package))):
        named = isinstance(node, ast.ImportFrom) and any(a.name == name for a in node.names)
        if named and isinstance(node, ast.ImportFrom) and node.module:
            return importlib.import_module(node.module)
    return package


def constant_doc(module: ModuleType, name: str) -> str:
    """A module constant's documentation: the string after it, else its comment."""
    source = inspect.getsource(module)
    body = ast.parse(source).body
    lines = source.splitlines()
    for k, node in enumerate(body):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
            continue
        after = body[k + 1] if k + 1 < len(body) else None
        text = (
            after.value.value
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
            else None
        )
        if isinstance(text, str):
            return text
        line = lines[node.lineno - 1]
        if "#" in line:
            return line.split("#", 1)[1].strip()
        above: list[str] = []
        for text in reversed(lines[: node.lineno - 1]):
            if not text.startswith("#"):
                break
            above.insert(0, text.lstrip("# "))
        return " ".join(above)
    return ""


def attributes(doc: str, sections: tuple[str, ...] = ("Attributes:", "Args:")) -> dict[str, str]:
    """The entries of a Google-style "Attributes:" (or "Args:") section, each on one line."""
    entries: dict[str, str] = {}
    inside, current = False, ""
    for line in inspect.cleandoc(doc).splitlines():
        if line.strip() in sections:
            inside = True
            continue
        if not inside:
            continue
        match = re.match(r"^    (\w+(?:, \w+)*): (.*)$", line)
        if match:
            current = match.group(1)
            entries[current] = match.group(2).strip()
        elif line.startswith("        ") and current:
            entries[current] += " " + line.strip()
        elif line.strip() == "" or not line.startswith(" "):
            inside = inside and line.strip() == ""
            current = ""
    return entries


def arguments(node: ast.FunctionDef, drop_self: bool) -> str:
    """A function's parameters as written in the source (without `self` / `cls`)."""

    def one(arg: ast.arg, default: ast.expr | None, prefix: str = "") -> str:
        text = prefix + arg.arg + (f": {ast.unparse(arg.annotation)}" if arg.annotation else "")
        if default is not None:
            text += f" = {ast.unparse(default)}" if arg.annotation else f"={ast.unparse(default)}"
        return text

    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    parts = [one(a, d) for a, d in zip(positional, [*defaults, *args.defaults], strict=True)]
    if drop_self:
        parts = parts[1:]
    if args.vararg:
        parts.append(one(args.vararg, None, "*"))
    elif args.kwonlyargs:
        parts.append("*")
    parts += [one(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    if args.kwarg:
        parts.append(one(args.kwarg, None, "**"))
    return ", ".join(parts)


def signature(obj: Any) -> str:
    """How to call a class or a function, as written in the source."""
    if inspect.isfunction(obj):
        node = source_node(obj)
        assert isinstance(node, ast.FunctionDef)
        returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
        return f"{obj.__name__}({arguments(node, drop_self=False)}){returns}"
    node = source_node(obj)
    own_init = any(isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in node.body)
    if isinstance(obj, type) and dataclasses.is_dataclass(obj) and not own_init:
        fields = [
            ast.unparse(item)
            for item in node.body
            if isinstance(item, ast.AnnAssign) and "ClassVar" not in ast.unparse(item.annotation)
            and isinstance(item.target, ast.Name) and not item.target.id.startswith("_")
        ]  # fmt: skip
        return f"{obj.__name__}({', '.join(fields)})"
    for cls in obj.__mro__:  # the first __init__ written in Python with named parameters
        init = vars(cls).get("__init__")
        if not inspect.isfunction(init) or cls.__module__ == "esper":
            continue
        init_node = source_node(init)
        assert isinstance(init_node, ast.FunctionDef)
        if init_node.args.args[1:] or init_node.args.kwonlyargs:  # not (self, *args, **kwargs)
            return f"{obj.__name__}({arguments(init_node, drop_self=True)})"
    return f"{obj.__name__}()"


# --- writing -------------------------------------------------------------------------------
def entry(obj: Any, name: str, package: ModuleType, calls: bool = False) -> list[str]:
    """One public name: its signature (or value) and the first paragraph of its docs; with
    `calls`, a class's public methods and properties too (see `methods`)."""
    if obj is Species:  # its parameters have a table of their own
        heading = "Species(name: str, **parameters)"
        return [f"### `{heading}`", "", first_paragraph(docstring(obj)), "",
                "The parameters: see [Species parameters](#species-parameters).", ""]  # fmt: skip
    if getattr(obj, "_is_protocol", False):
        return [f"### `{name}` (a protocol)", "", first_paragraph(docstring(obj)), ""]
    if inspect.isclass(obj) or inspect.isfunction(obj):
        lines = [f"### `{signature(obj)}`", "", first_paragraph(docstring(obj))]
        fields = attributes(docstring(obj))
        if fields:
            lines += [""] + [f"- `{key}`: {text}" for key, text in fields.items()]
        errors = attributes(docstring(obj), ("Raises:",))
        if errors:
            lines += [""] + [f"- raises `{key}`: {text}" for key, text in errors.items()]
        if inspect.isclass(obj):  # without `calls`, its other constructors still
            found = methods(obj, obj.__name__, constructors_only=not calls)
            listed = [f"- {heading}: {doc}" for heading, doc in found]
            lines += ["", *listed] if listed else []
        return [*lines, ""]
    if isinstance(obj, types.UnionType):
        heading = f"{name} = {' | '.join(getattr(t, '__name__', str(t)) for t in obj.__args__)}"
    elif len(repr(obj)) <= 60:
        heading = f"{name} = {obj!r}"
    else:
        heading = name
    doc = first_paragraph(constant_doc(origin(package, name), name)) or "(no docstring yet)"
    return [f"### `{heading}`", "", doc, ""]


def methods(
    cls: type, owner: str = "flock", constructors_only: bool = False
) -> Iterator[tuple[str, str]]:
    """(heading, first paragraph and errors) of each public method and property of `cls`
    and of its bases written in shoal (`Flock`'s host calls come from `Embedding`), in
    source order; headings call them on `owner` (an instance's or the class's name).
    `constructors_only`: its classmethods only (`FlockConfig.from_bounds`)."""
    nodes = [
        node
        for base in cls.__mro__
        if base.__module__.startswith("shoal")
        for node in source_node(base).body
    ]
    for node in nodes:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        if constructors_only and "classmethod" not in map(ast.unparse, node.decorator_list):
            continue
        doc = first_paragraph(ast.get_docstring(node))
        errors = attributes(ast.get_docstring(node) or "", ("Raises:",))
        doc += "".join(f" Raises `{key}`: {text}" for key, text in errors.items())
        if any(ast.unparse(d) == "property" for d in node.decorator_list):
            returns = f": {ast.unparse(node.returns)}" if node.returns else ""
            yield f"`{owner}.{node.name}{returns}` (property)", doc
        elif not any(ast.unparse(d).endswith(".setter") for d in node.decorator_list):
            returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
            yield f"`{owner}.{node.name}({arguments(node, drop_self=True)}){returns}`", doc


def species_rows() -> list[str]:
    """The species parameter table, from each parameter's declaration (`Param`): default,
    unit, valid range and meaning (× marks a dimensionless weight)."""
    rows = ["| parameter | default | unit | range | meaning |", "|---|---|---|---|---|"]
    rows.append("| `name` | required |  | non-empty, unique in the flock | the species' name |")
    defaults = {f.name: f.default for f in dataclasses.fields(Species)}
    for name, rule in SPECIES_PARAMETERS.items():
        rows.append(
            f"| `{name}` | `{defaults[name]!r}` | {rule.unit} | {rule.valid} | {rule.doc} |"
        )
    return rows


def with_species_table(page: str) -> str:
    """`page` with the table between its species markers written anew."""
    begin, end = page.find(SPECIES_BEGIN), page.find(SPECIES_END)
    if begin < 0 or end < begin:
        markers = f"{SPECIES_BEGIN} ... {SPECIES_END}"
        raise SystemExit(f"make_api: {BEHAVIOURS.name} has no {markers} markers")
    table = "\n".join(species_rows())
    return f"{page[: begin + len(SPECIES_BEGIN)]}\n{table}\n{page[end:]}"


def event_rows() -> list[str]:
    """The events: name, value and the handler's arguments (from `shoal.systems.core.events`)."""
    arguments_of = dict(re.findall(r"^\| `(\w+)` \| (.+?) \|$", events.__doc__ or "", re.M))
    rows = ["| event | value | handler arguments |", "|---|---|---|"]
    for name in sorted(n for n in systems.__all__ if isinstance(getattr(events, n, None), str)):
        rows.append(f"| `{name}` | `{getattr(events, name)!r}` | {arguments_of.get(name, '')} |")
    return rows


def stage_rows() -> list[str]:
    """The stages in the order they run, with their priority constants."""
    constants = {getattr(systems, n): n for n in systems.__all__ if n.endswith("_PRIORITY")}
    rows = ["| priority | constant | processor | does |", "|---|---|---|---|"]
    stages: list[tuple[type, int]] = [
        *systems.STAGES,
        (render.RenderSystem, systems.RENDER_PRIORITY),
    ]
    for cls, priority in stages:
        doc = first_paragraph(docstring(cls))
        rows.append(f"| {priority} | `{constants[priority]}` | `{cls.__name__}` | {doc} |")
    return rows


def section(
    title: str, intro: str, names: list[str], package: ModuleType, calls: bool = False
) -> list[str]:
    """A section with an entry for each of `names` (public names of `package`); `calls`:
    list each class's methods (see `entry`)."""
    lines = [f"## {title}", "", intro, ""]
    for name in names:
        lines += entry(getattr(package, name), name, package, calls)
    return lines


def front_door() -> list[str]:
    """`import shoal`: where each of its names comes from, and its own `install`."""
    lines = ["## `import shoal`", "", first_paragraph(shoal.__doc__), "",
             "| name | is |", "|---|---|"]  # fmt: skip
    for name in sorted(shoal.__all__, key=str.lower):
        homes = [p.__name__ for p in (components, systems, render) if name in p.__all__]
        if name == "install":
            where = "below (`shoal.systems.install`, plus rendering when asked)"
        elif isinstance(getattr(shoal, name), str):
            where = f"`{homes[0]}.{name}`, an event (see [Events](#events))"
        else:
            where = f"`{homes[0]}.{name}`"
        lines.append(f"| `{name}` | {where} |")
    return [*lines, "", *entry(embed.install, "install", embed)]


def build() -> str:
    """The whole reference, as Markdown."""
    sys_all: list[str] = list(systems.__all__)
    documented_elsewhere = {n for n in sys_all if n.endswith("_PRIORITY")}
    documented_elsewhere |= {n for n in sys_all if isinstance(getattr(events, n, None), str)}
    install_names = ["install", "uninstall", "warm_up", "FlockConfig", "MAX_BOIDS"]
    stage_names = [cls.__name__ for cls, _ in systems.STAGES] + ["STAGES"]
    other = [
        n for n in sorted(sys_all, key=str.lower)
        if n not in {*install_names, *stage_names, *documented_elsewhere, "Flock"}
    ]  # fmt: skip
    lines = [
        "# shoal API reference",
        "",
        "Generated by `python docs/make_api.py` from the code and its docstrings; do not edit",
        "it by hand (a test checks that it is up to date). Units: world units (px, y up),",
        "seconds, px/s (per second, never per frame), degrees unless said otherwise. How to use",
        "it in a game: [embedding.md](embedding.md).",
        "",
    ]
    lines += front_door()
    lines += section("Install", first_paragraph(systems.__doc__), install_names, systems)
    lines += ["## Flock", "", first_paragraph(docstring(systems.Flock)), ""]
    for heading, doc in methods(systems.Flock):
        lines += [f"- {heading}: {doc}"]
    lines += [""]
    lines += [
        "## Components",
        "",
        first_paragraph(components.__doc__),
        "",
    ]
    for name in components.__all__:
        lines += entry(getattr(components, name), name, components)
    lines += ["## Systems and their stages", "", "esper runs higher priorities first; each "
              "step runs these stages in this order (`STAGES` lists all but the render stage, "
              "which you add yourself).", "", *stage_rows(), ""]  # fmt: skip
    for name in stage_names:
        lines += entry(getattr(systems, name), name, systems)
    lines += section("More from shoal.systems", "Queries and tools.", other, systems, True)
    lines += ["## Events", "", first_paragraph(events.__doc__), "", *event_rows(), ""]
    lines += section("Rendering: shoal.systems.render", first_paragraph(render.__doc__),
                     list(render.__all__), render)  # fmt: skip
    recipe_names = ["RECIPES", "Recipe", "Setup", *(n for n in recipes.RECIPES)]
    lines += section("Recipes: shoal.recipes", first_paragraph(recipes.__doc__), recipe_names,
                     recipes)  # fmt: skip
    lines += ["## Species parameters", "", first_paragraph(docstring(Species)), ""]
    lines += [*species_rows(), ""]
    # Docstrings quote code RST-style (``x``); Markdown wants single backticks.
    return "\n".join(lines).replace("``", "`").rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or check) the reference; returns the exit status."""
    parser = argparse.ArgumentParser(description="Write shoal's API reference.")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where to write it")
    parser.add_argument("--check", action="store_true", help="only check it is up to date")
    args = parser.parse_args(argv)
    behaviours = BEHAVIOURS.read_text(encoding="utf-8")
    outputs = {args.output: build(), BEHAVIOURS: with_species_table(behaviours)}
    stale = [
        p for p, text in outputs.items() if (p.read_text("utf-8") if p.exists() else "") != text
    ]
    if args.check:
        for path in stale:
            print(f"{path} is out of date: run python docs/make_api.py", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(outputs[path], encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
