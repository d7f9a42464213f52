"""The recipe for a new steering parameter (docs/architecture.md, "Adding a behaviour"):
declared in `Species` and read by the general path, it is right at once, because a species
whose value differs from its default takes the general path until the parameter joins the
fast path's declared set (`route.FAST_PATH_PARAMETERS`)."""

import dataclasses
import math
from typing import Any

import esper
import numpy as np
import pytest

from shoal.components import Species
from shoal.components.parameters import Param
from shoal.components.species import SPECIES_PARAMETERS
from shoal.systems import FlockConfig, install
from shoal.systems.steering.records import SpeciesRules
from shoal.systems.steering.route import FAST_PATH_PARAMETERS, assumed, plain_species, rules_of

DEFAULTS = Species("fish")


def another_value(name: str, rule: Param) -> object:
    """A valid value of parameter `name` other than its default."""
    default = getattr(DEFAULTS, name)
    if rule.choices:
        return next(choice for choice in rule.choices if choice != default)
    if default == math.inf:  # "no limit": a limit
        return 10.0
    step = 1 if rule.integer else 0.5
    if rule.high is not None and default + step > rule.high:
        return default - step
    if rule.at_most and default + step > getattr(DEFAULTS, rule.at_most):
        return default - step
    return default + step


def reach_of(species: Species, implemented: frozenset[str]) -> int:
    """How many rings of cells the fast path reads for `species` (0: the general path) in a
    school of it, with a fast path that implements `implemented`."""
    world = "fast-path-routing"
    flock = install(FlockConfig(width=400, height=300, seed=1), [species], world=world)
    try:
        flock.scatter(species.name, 50)
        flock.step()
        rules = SpeciesRules(*rules_of(flock.species, implemented))
        return int(plain_species(flock.step_state.cells, rules)[0])
    finally:
        esper.delete_world(world)


def test_every_declared_parameter_is_either_implemented_or_routed() -> None:
    # The fast path's set names declared parameters only (a renamed or removed parameter
    # fails here), and the parameters it leaves out are exactly those it checks.
    assert set(SPECIES_PARAMETERS) >= FAST_PATH_PARAMETERS
    columns, _ = assumed()
    left_out = {name for name in SPECIES_PARAMETERS if name not in FAST_PATH_PARAMETERS}
    assert len(columns) == len(left_out)


@pytest.mark.parametrize("name", list(SPECIES_PARAMETERS))
def test_a_parameter_the_fast_path_does_not_implement_sends_its_species_to_the_general_path(
    name: str,
) -> None:
    # Each parameter as if it had just been declared (left out of the fast path's set): a
    # species that changes it from its default takes the general path; one that keeps the
    # default stays on the fast path, and so does the changed one once the fast path
    # implements the parameter (unless the value itself is one the fast path does not
    # serve: another steering style).
    rule = SPECIES_PARAMETERS[name]
    change: dict[str, Any] = {name: another_value(name, rule)}  # Any: each field its type
    changed = dataclasses.replace(DEFAULTS, **change)
    new = FAST_PATH_PARAMETERS - {name}
    assert reach_of(DEFAULTS, new) > 0
    assert reach_of(changed, new) == 0
    if name != "steering":
        assert reach_of(changed, FAST_PATH_PARAMETERS) > 0


def test_the_assumed_values_are_the_packed_defaults() -> None:
    columns, values = assumed(frozenset())
    packed = np.array([rule.pack(getattr(DEFAULTS, n)) for n, rule in SPECIES_PARAMETERS.items()])
    assert np.array_equal(values, packed[columns])
    assert list(columns) == list(range(len(SPECIES_PARAMETERS)))
