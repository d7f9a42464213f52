"""Argument checks at shoal's public API: one clear line, raised before anything changes.

A library that lives inside someone else's game must not be the thing that crashes it with
a traceback from deep inside numpy or numba, nor pass a NaN on silently. Every public
function checks what it is given with these helpers. The convention, everywhere in shoal:

- ``ValueError`` for an argument of the wrong type or value (a str where a number goes,
  NaN, a negative count, a wrong array shape, an unknown species name), with a message that
  starts with the function or class and names the argument:
  ``scatter: count = -1 must be an integer >= 0``;
- ``KeyError`` for an entity that is not a boid of the flock (a lookup that found nothing).

The checks run once per call at the API boundary, never per boid or inside a kernel.
"""

import math
import reprlib
from collections.abc import Callable
from numbers import Integral, Real
from typing import Any, NoReturn, TypeVar

_T = TypeVar("_T")

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxtuple = 6


def shown(value: object) -> str:
    """`value`'s repr, shortened and on one line (a huge array must not flood the message)."""
    return " ".join(_SHORT.repr(value).split())


def fail(owner: str, name: str, value: object, why: str) -> NoReturn:
    """Raise ``ValueError("owner: name = value why")``."""
    raise ValueError(f"{owner}: {name} = {shown(value)} {why}")


def is_number(value: object) -> bool:
    """A real number (Python's or numpy's), not a bool."""
    if type(value) is float or type(value) is int:  # the common case, without the ABC check
        return True
    return isinstance(value, Real) and not isinstance(value, bool)


def number(
    owner: str,
    name: str,
    value: object,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    above: bool = False,
    finite: bool = True,
) -> float:
    """`value` as a float if it is a number in [low, high] (`above`: > low), else ValueError.

    NaN is always refused; infinities unless `finite` is False.
    """
    if not is_number(value):
        fail(owner, name, value, "must be a number")
    result = float(value)  # type: ignore[arg-type]
    if math.isnan(result) or (finite and math.isinf(result)):
        fail(owner, name, value, "must be finite" if finite else "must not be NaN")
    if result < low or (above and result == low) or result > high:
        fail(owner, name, value, f"must be {_interval(low, high, above)}")
    return result


def integer(owner: str, name: str, value: object, *, low: int = 0, high: float = math.inf) -> int:
    """`value` as an int if it is an integer (not a bool) in [low, high], else ValueError."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        fail(owner, name, value, f"must be an integer {_interval(low, high, False)}")
    result = int(value)
    if not low <= result <= high:
        fail(owner, name, value, f"must be an integer {_interval(low, high, False)}")
    return result


def integers(
    owner: str, name: str, value: object, count: int, *, low: int, high: int
) -> tuple[int, ...]:
    """`value` as `count` integers in [low, high] (a colour, a size in pixels), else ValueError."""
    items = value if isinstance(value, tuple | list) else ()
    in_range = all(
        isinstance(v, Integral) and not isinstance(v, bool) and low <= int(v) <= high for v in items
    )
    if len(items) != count or not in_range:
        fail(owner, name, value, f"must be {count} integers in [{low}, {high}]")
    return tuple(int(v) for v in items)


def text(owner: str, name: str, value: object) -> str:
    """`value` if it is a non-empty str, else ValueError."""
    if not isinstance(value, str) or not value:
        fail(owner, name, value, "must be a non-empty string")
    return value


def instance(owner: str, name: str, value: object, kind: type[_T]) -> _T:
    """`value` if it is a `kind`, else ValueError naming what was given instead."""
    if not isinstance(value, kind):
        article = "an" if kind.__name__[0] in "AEIOU" else "a"
        fail(owner, name, value, f"must be {article} {kind.__name__}, not {type(value).__name__}")
    return value


def function(owner: str, name: str, value: object) -> Callable[..., Any]:
    """`value` if it can be called, else ValueError."""
    if not callable(value):
        fail(owner, name, value, "must be callable")
    return value


def pair(owner: str, name: str, value: object) -> tuple[float, float]:
    """`value` as two finite floats (a point or a size given as (x, y)), else ValueError."""
    if isinstance(value, str | bytes) or not hasattr(value, "__len__") or len(value) != 2:
        fail(owner, name, value, "must be a pair of numbers (x, y)")
    items: Any = value
    first, second = items[0], items[1]
    if not (is_number(first) and is_number(second)):
        fail(owner, name, value, "must be a pair of numbers (x, y)")
    if not (math.isfinite(first) and math.isfinite(second)):
        fail(owner, name, value, "must be finite")
    return float(first), float(second)


def entity(owner: str, value: object) -> int:
    """`value` as an int if it can be an esper entity id (an integer, not a bool)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        fail(owner, "entity", value, "must be an entity (an integer)")
    return int(value)


def _interval(low: float, high: float, above: bool) -> str:
    if high == math.inf:
        return f"> {low:g}" if above else f">= {low:g}"
    if low == -math.inf:
        return f"<= {high:g}"
    return f"in ({low:g}, {high:g}]" if above else f"in [{low:g}, {high:g}]"
