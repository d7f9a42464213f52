"""A throw-away esper world as a context manager (for hypothesis tests: one per example)."""

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

import esper

_names = itertools.count()


@contextmanager
def scratch_world() -> Iterator[str]:
    """Run the block in a new, empty esper world; delete it afterwards."""
    previous = esper.current_world
    name = f"scratch-{next(_names)}"
    esper.switch_world(name)
    try:
        yield name
    finally:
        esper.switch_world(previous)
        esper.delete_world(name)
