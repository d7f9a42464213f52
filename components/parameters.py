"""Param: how one number of a `Species` is declared, checked, packed and documented.

Every species parameter is declared once, as a dataclass field whose metadata is a `Param`:
its default, unit, valid range and meaning. The checks (`check_field`), the kernels' column
(`SpeciesTable` packs `Param.pack(value)`), the API reference and the README table are all
derived from that one declaration, so a new parameter is one line in `Species`.
"""

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LARGEST = 1e6
"""No parameter of a species or a world exceeds this in magnitude (px, px/s, s, weights):
far beyond any game, and small enough that no product of parameters overflows."""

MAX_COORDINATE = 10 * LARGEST
"""No coordinate exceeds this in magnitude: of a `Position` or `Velocity`, of an obstacle's
centre, size or vertex, of a spawn. Ten times the largest world, so that a game may put
things well outside its world; far beyond, a square overflows and a torus's modulo loses
every digit (a boid written to -1e300 stayed off the torus)."""


def _float(value: Any) -> float:
    return float(value)


@dataclass(frozen=True, slots=True)
class Param:
    """The declaration of one species parameter (see the module docstring).

    Attributes:
        unit: its unit as shown in the docs ("px", "px/s", "×" for a weight, "" for none).
        doc: what it means, one line.
        low: the smallest valid value (None: no bound but ±LARGEST).
        high: the largest valid value (None: no bound but ±LARGEST).
        above: `low` itself is not valid (the value must be > low).
        infinite: ``math.inf`` is valid too (meaning "no limit").
        choices: the valid strings, for a parameter that is a choice.
        integer: the value must be an int.
        at_most: the name of another parameter that bounds this one from above.
        note: a few words added to the range in the docs, e.g. "0: ignore leaders".
        pack: turns the value into the float the kernels read (default: float(value)).
    """

    unit: str
    doc: str
    low: float | None = None
    high: float | None = None
    above: bool = False
    infinite: bool = False
    choices: tuple[str, ...] = ()
    integer: bool = False
    at_most: str = ""
    note: str = ""
    pack: Callable[[Any], float] = _float

    @property
    def valid(self) -> str:
        """The valid values in words, for the docs (e.g. "> 0, or inf (no limit)")."""
        text = ", ".join(f"`{c}`" for c in self.choices) if self.choices else self._range()
        return f"{text} ({self.note})" if self.note else text

    def _range(self) -> str:
        low = "finite" if self.low is None else f"{self.low:g}"
        if self.at_most:
            text = f"{low} … {self.at_most}"
        elif self.high is not None:
            text = f"{low} … {self.high:g}"
        elif self.low is None:
            text = "finite"
        else:
            text = f"{'>' if self.above else '≥'} {self.low:g}"
        if self.integer:
            text = f"integer {text}"
        return f"{text}, or inf (no limit)" if self.infinite else text


def param(default: Any, unit: str, doc: str, **rules: Any) -> Any:
    """A dataclass field declaring a species parameter: its default and its `Param`."""
    return dataclasses.field(default=default, metadata={"param": Param(unit, doc, **rules)})


def declared(cls: type) -> dict[str, Param]:
    """Every declared parameter of a dataclass, by name, in field order."""
    return {f.name: f.metadata["param"] for f in dataclasses.fields(cls) if "param" in f.metadata}


def check_field(owner: str, name: str, value: object, rule: Param, others: object) -> None:
    """Raise ValueError ``"{owner}: {name} = {value!r} must ..."`` if `value` breaks `rule`.

    `others` is the object holding the other parameters (for `at_most`).
    """

    def fail(why: str) -> None:
        raise ValueError(f"{owner}: {name} = {value!r} {why}")

    if rule.choices:
        if value not in rule.choices:
            fail(f"must be one of {rule.choices}")
        return
    if rule.integer:
        if isinstance(value, bool) or not isinstance(value, int):
            fail("must be an integer")
    elif isinstance(value, bool) or not isinstance(value, int | float):
        fail("must be a number")
    number = float(value)  # type: ignore[arg-type]
    if math.isnan(number):
        fail("must not be NaN")
    if math.isinf(number):
        if rule.infinite and number > 0:
            return
        fail(f"must be {_interval(rule)}" if rule.infinite else "must be finite")
    if abs(number) > LARGEST:
        fail(f"must be within ±{LARGEST:g}")
    too_low = rule.low is not None and (number < rule.low or (rule.above and number == rule.low))
    if too_low or (rule.high is not None and number > rule.high):
        fail(f"must be {_interval(rule)}")
    bound = getattr(others, rule.at_most) if rule.at_most else None
    # A bound that is not a number fails its own check, later.
    if isinstance(bound, int | float) and not isinstance(bound, bool) and number > bound:
        fail(f"must not exceed {rule.at_most} = {bound!r}")


def _interval(rule: Param) -> str:
    """The valid interval in the words of an error message ("in [0, 360]", "> 0 (or inf)")."""
    low = -LARGEST if rule.low is None else rule.low
    if rule.high is not None:
        text = f"in {'(' if rule.above else '['}{low:g}, {rule.high:g}]"
    else:
        text = f"{'>' if rule.above else '>='} {low:g}"
    return f"{text} (math.inf for no limit)" if rule.infinite else text
