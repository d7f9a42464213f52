"""Kernels compiled without reference counting (`core/refcount.py`) keep its rule: they make
no array, return none, and call no kernel that does (an array made there would never be
freed; one returned would be freed while its caller still uses it)."""

import ast
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import shoal.systems
from shoal.systems.core.refcount import njit_no_refcount

SYSTEMS = Path(shoal.systems.__file__).parent
MAKES_ARRAYS = (
    "np.empty", "np.zeros", "np.full", "np.ones", "np.array(", "np.arange", ".copy()",
    "_like(", "np.concatenate", "np.sort", "np.argsort", "np.cumsum", "np.where(",
    "np.unique", "np.bincount", "buffers(",
)  # fmt: skip
ARRAY_TYPES = ("Array", "Cells", "Seen", "Slots", "Geometry", "Record", "Pool", "Block")


@dataclass
class Kernel:
    """A compiled function of the package, as its source tells."""

    where: str
    uncounted: bool  # compiled by njit_no_refcount
    makes_arrays: list[str]
    returns_array: bool
    calls: set[str]


def kernels() -> dict[str, Kernel]:
    """Every compiled function of shoal.systems by name (names are unique there)."""
    found: dict[str, Kernel] = {}
    for path in sorted(SYSTEMS.rglob("*.py")):
        source = path.read_text()
        for node in ast.parse(source).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            decorators = " ".join(ast.unparse(d) for d in node.decorator_list)
            if "njit" not in decorators:
                continue
            body = ast.unparse(node)
            returns = ast.unparse(node.returns) if node.returns else ""
            assert node.name not in found, f"two kernels named {node.name}"
            found[node.name] = Kernel(
                f"{path.relative_to(SYSTEMS)}:{node.lineno}",
                "njit_no_refcount" in decorators,
                [call for call in MAKES_ARRAYS if call in body],
                any(kind in returns for kind in ARRAY_TYPES),
                {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name)},
            )  # fmt: skip
    return found


def breaks_the_rule(name: str, found: dict[str, Kernel], path: tuple[str, ...] = ()) -> str:
    """Why kernel `name` may not run uncounted (through the kernels it calls), or ''."""
    kernel = found[name]
    if kernel.makes_arrays:
        return f"{' -> '.join((*path, name))} makes arrays ({kernel.makes_arrays})"
    if kernel.returns_array:
        return f"{' -> '.join((*path, name))} returns an array"
    for callee in sorted(kernel.calls & found.keys()):
        if callee not in path and callee != name:
            why = breaks_the_rule(callee, found, (*path, name))
            if why:
                return why
    return ""


def test_uncounted_kernels_make_and_return_no_array() -> None:
    found = kernels()
    uncounted = [name for name, kernel in found.items() if kernel.uncounted]
    assert len(uncounted) > 40, uncounted  # the per-boid helpers of every stage
    broken = {found[name].where: breaks_the_rule(name, found) for name in uncounted}
    assert not any(broken.values()), {where: why for where, why in broken.items() if why}


def test_the_rule_catches_a_kernel_that_makes_or_returns_an_array() -> None:
    found = {
        "helper": Kernel("a", True, [], False, {"maker"}),
        "maker": Kernel("b", False, ["np.empty"], False, set()),
        "giver": Kernel("c", False, [], True, set()),
        "fine": Kernel("d", True, [], False, {"giver"}),
    }
    assert "maker makes arrays" in breaks_the_rule("helper", found)
    assert "giver returns an array" in breaks_the_rule("fine", found)


def test_an_uncounted_kernel_reads_and_writes_the_arrays_it_is_given() -> None:
    @njit_no_refcount(cache=False)
    def scale_into(values: np.ndarray, factor: float, out: np.ndarray) -> float:
        total = 0.0
        for i in range(values.shape[0]):
            out[i] = values[i] * factor
            total += out[i]
        return total

    values, out = np.arange(5.0), np.zeros(5)
    assert scale_into(values, 2.0, out) == 20.0
    assert out.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
