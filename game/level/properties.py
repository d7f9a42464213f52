"""Reading the values of Tiled properties and classes, with their ranges.

Unknown names are errors, so that a typo never silently drops a setting.
"""

from collections.abc import Mapping, Sequence

from pytiled_parser import tiled_object as tiled

from shoal.game.level.limits import MAX_TEXT_CHARS
from shoal.game.level.messages import Where, quote_word
from shoal.game.level.schema import finite

Properties = Mapping[str, object]


def class_of(obj: tiled.TiledObject) -> str:
    """Tiled 1.9 calls it class, earlier and later versions type; pytiled_parser reads both."""
    return (obj.class_ or "").strip().lower()


def check_names(props: Properties, allowed: Sequence[str], what: str, where: Where) -> None:
    """Every property name is one of `allowed`."""
    for name in props:
        if name not in allowed:
            expected = ", ".join(allowed) if allowed else "none"
            raise where.error(f"unknown {what} {quote_word(name)} (expected: {expected})")


def prop_text(props: Properties, name: str, default: str, where: Where) -> str:
    """A short, printable, non-empty string property, stripped: it is shown to the player
    (no control characters or escape sequences that would act on a terminal)."""
    value = props.get(name, default)
    if not isinstance(value, str) or not value.strip():
        where.fail(name, value, "must be a non-empty string")
    text = value.strip()
    if not text.isprintable():
        where.fail(name, value, "must be printable (no control or formatting characters)")
    if len(text) > MAX_TEXT_CHARS:
        where.fail(name, value, f"is {len(text)} characters long (at most {MAX_TEXT_CHARS})")
    return text


def prop_int(
    props: Properties,
    name: str,
    default: int | None,
    where: Where,
    *,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """An integer property in [low, high]; a missing one without a default is an error."""
    if name not in props and default is None:
        raise where.error(f"{name} is missing (an int property)")
    value = props.get(name, default)
    # A float property holding a whole number is fine; True is not 1.
    if not finite(value) or not float(value).is_integer():
        where.fail(name, value, "must be an integer")
    number = int(value)
    check_range(name, number, low, high, where)
    return number


def prop_float(
    props: Properties,
    name: str,
    default: float,
    where: Where,
    *,
    low: float | None = None,
    high: float | None = None,
) -> float:
    """A finite number property in [low, high]."""
    value = props.get(name, default)
    if not finite(value):
        where.fail(name, value, "must be a finite number")
    check_range(name, value, low, high, where)
    return float(value)


def check_range(
    name: str, value: float, low: float | None, high: float | None, where: Where
) -> None:
    """low <= value <= high (a bound that is None is not checked)."""
    if low is not None and value < low:
        where.fail(name, value, f"must be at least {_bound(low)}")
    if high is not None and value > high:
        where.fail(name, value, f"must be at most {_bound(high)}")


def _bound(number: float) -> str:
    return str(number) if isinstance(number, int) else f"{number:g}"
