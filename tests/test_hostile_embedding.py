"""Hostile input for the host-game calls of issue 17 (ties, prey, bounds, the host's clock,
entities, rendering in one call): each refuses bad arguments with one clear line, and a
refused call changes nothing. The scene and the checks are those of tests/hostile.py; the
completeness test (test_hostile_coverage.py) counts these cases and NO_ARGUMENTS too."""

from collections.abc import Callable
from typing import Any

import arcade
import pytest

from shoal.components import Leader, Obstacle, Position, Predator, Prey, Rect, Species
from shoal.systems import FlockConfig, install, installed_flock, uninstall
from shoal.systems.render import SpeciesLook, add_rendering

from hostile import INF, NAN, Case, Scene, case, labelled, make_scene, refusal_test, sweep
from worlds import scratch_world


class Sprite:
    """What a tie reads of an arcade sprite."""

    def __init__(self, x: object = 10.0, y: object = 20.0) -> None:
        self.center_x, self.center_y = x, y


def tie_cases() -> list[Case]:
    cases = sweep(
        "Embedding.tie",
        lambda s, v: s.flock.tie(v, Leader()),
        r"tie: sprite",
        {
            "sprite an object": object(),
            "sprite None": None,
            "centre NaN": Sprite(NAN, 1.0),
            "centre a str": Sprite("1", 2.0),
        },
    )
    cases += sweep(
        "Embedding.tie",
        lambda s, v: s.flock.tie(Sprite(), *v),
        r"tie: roles",
        {
            "no role": (),
            "a role a str": ("leader",),
            "two leaders": (Leader(), Leader()),
            "an obstacle": (Obstacle(Rect(0, 0, 1, 1)),),
        },
    )
    cases += sweep(
        "Embedding.tie_all",
        lambda s, v: s.flock.tie_all(v, Predator()),
        r"tie_all: sprites",
        {
            "one sprite": Sprite(),
            "a number": 5,
            "a str": "abc",
            "a member a number": [Sprite(), 3],
            "a member at inf": [Sprite(INF, 0.0)],
        },
    )
    cases += _not_tied("Embedding.untie", lambda s, v: s.flock.untie(v), r"untie: ")
    cases += sweep(
        "Embedding.tied",
        lambda s, v: s.flock.tied(v),
        r"tied: entity = ",
        {"a str": "1", "a float": 1.5, "None": None},
    )
    cases += _not_tied("Embedding.entity_of", lambda s, v: s.flock.entity_of(v), r"entity_of: ")
    return cases


def _not_tied(covers: str, call: Callable[[Scene, Any], object], owner: str) -> list[Case]:
    """KeyError cases: `call` with a sprite that is not tied, and with None."""
    return [
        case(covers, what, _bound(call, value), owner + r".* is not tied", KeyError)
        for what, value in {"not tied": Sprite(), "None": None}.items()
    ]


def _bound(call: Callable[[Scene, Any], object], value: object) -> Callable[[Scene], object]:
    return lambda scene: call(scene, value)


def _look(name: str) -> Callable[[Scene, Any], object]:
    """Make a SpeciesLook with the value as its `name`."""
    return lambda scene, value: SpeciesLook(**{name: value})


def entity_and_clock_cases() -> list[Case]:
    cases = sweep(
        "Embedding.create_entity",
        lambda s, v: s.flock.create_entity(*v),
        r"create_entity: components",
        {
            "nothing": (),
            "a class": (Obstacle,),
            "None": (Position(1.0, 2.0), None),
            "a number": (3,),
        },
    )
    cases += sweep(
        "Embedding.delete_entity",
        lambda s, v: s.flock.delete_entity(v),
        r"delete_entity: entity = ",
        {"a str": "1", "a float": 2.5},
    )
    cases += [
        case(
            "Embedding.delete_entity",
            "no such entity",
            lambda s: s.flock.delete_entity(10**9),
            r"delete_entity: no entity 1000000000",
            KeyError,
        )
    ]
    cases += sweep(
        "Embedding.update",
        lambda s, v: s.flock.update(v),
        r"update: elapsed = ",
        {"NaN": NAN, "negative": -0.1, "inf": INF, "a str": "0.1", "None": None},
    )
    cases += [
        case(
            "Embedding.draw",
            "without rendering",
            lambda s: s.flock.draw(),
            r"draw: this flock has no rendering",
            RuntimeError,
        ),
        case("Embedding.draw", "alpha past 1", lambda s: _draw_with(s, 1.5), r"draw: alpha = "),
        case("Embedding.draw", "alpha a str", lambda s: _draw_with(s, "1"), r"draw: alpha = "),
    ]
    cases += sweep(
        "installed_flock",
        lambda s, v: installed_flock(v),
        r"installed_flock: world = ",
        {"a number": 3, "empty": ""},
    )
    cases += sweep(
        "add_rendering",
        lambda s, v: add_rendering(v),
        r"add_rendering: flock = ",
        {"a str": "flock", "None": None},
    )
    cases += [
        case(
            "add_rendering",
            "a second render stage",
            lambda s: add_rendering(s.flock),
            r"already has a RenderSystem",
            RuntimeError,
        )
    ]
    cases += sweep(
        "Flock.query",
        lambda s, v: s.flock.query(10.0, 10.0, 5.0, v),
        r"query: species",
        {"unknown species": "eel", "species a number": 3},
    )
    return cases


def _draw_with(scene: Scene, alpha: Any) -> None:
    """Draw through the scene's render stage (lent to the flock for the call)."""
    scene.flock.renderer = scene.render
    try:
        scene.flock.draw(alpha)
    finally:
        scene.flock.renderer = None


def value_cases() -> list[Case]:
    cases = sweep(
        "Prey",
        lambda s, v: Prey(radius=v),
        r"Prey: radius = ",
        labelled("radius", {"negative": -1.0, "NaN": NAN, "inf": INF, "a str": "3"}),
    )
    cases += sweep(
        "Prey",
        lambda s, v: Prey(v),
        r"Prey: species = ",
        labelled("species", {"a str": "fish", "holding a number": (3,)}),
    )
    cases += sweep(
        "FlockConfig.from_bounds",
        lambda s, v: FlockConfig.from_bounds(v),
        r"FlockConfig.from_bounds: bounds = ",
        {
            "a str": "big",
            "three numbers": (0, 1, 2),
            "NaN": (0, 500, 0, NAN),
            "right of left": (500, 0, 0, 500),
            "None": None,
        },
    )
    cases += sweep(
        "FlockConfig.from_bounds",
        lambda s, v: FlockConfig.from_bounds((0, 500, 0, 500), **v),
        r"FlockConfig.from_bounds: (width|left) comes from the bounds",
        {"width too": {"width": 3}, "left too": {"left": 3}},
    )
    cases += sweep(
        "FlockConfig",
        lambda s, v: FlockConfig(left=v),
        r"FlockConfig: left = ",
        {"left NaN": NAN, "left a str": "0"},
    )
    looks: dict[str, dict[str, object]] = {
        "tint": labelled("tint", {"alpha 256": (1, 2, 3, 256), "of five": (1, 2, 3, 4, 5)}),
        "visible": {"visible 1": 1, "visible a str": "yes"},
        "mirror": {"mirror None": None, "mirror 0": 0},
        "facing": {"facing NaN": NAN, "facing 400": 400.0, "facing a str": "up"},
    }
    for name, values in looks.items():
        cases += sweep("SpeciesLook", _look(name), rf"SpeciesLook: {name} = ", values)
    return cases


CASES: list[Case] = [*tie_cases(), *entity_and_clock_cases(), *value_cases()]

NO_ARGUMENTS: dict[str, str] = {
    "Embedding.created": "property",
    "Embedding.handlers": "property",
    "Embedding.installed": "property",
    "FlockConfig.origin": "property",
    "FlockConfig.bounds": "property",
    "SpeciesLook.shown": "property",
    "RenderSystem.auto_alpha": "reads the flock's clock and arcade's",
}
"""Public callables of these calls that take no arguments (see test_hostile_coverage.py)."""


test_a_hostile_host_call_is_refused_and_changes_nothing = refusal_test(CASES)


@pytest.mark.slow
def test_a_refused_tie_or_entity_leaves_nothing_behind(window: arcade.Window) -> None:
    """Beyond the scene's snapshot: no tie and no entity of the flock's own is left."""
    for hostile in CASES:
        with scratch_world():
            scene = make_scene()
            with pytest.raises(hostile.error):
                hostile.call(scene)
            assert len(scene.flock.ties) == 0 and scene.flock.created == [], hostile.what


@pytest.mark.parametrize("rendered", [False, True])
def test_drawing_an_uninstalled_flock_says_it_was_uninstalled(
    window: arcade.Window, rendered: bool
) -> None:
    """Issue 40: after `uninstall`, `draw` named the missing rendering, not the uninstall."""
    with scratch_world():
        flock = install(FlockConfig(400, 300), [Species("a")])
        if rendered:
            add_rendering(flock)
        uninstall(flock)
        with pytest.raises(RuntimeError, match=r"^draw: this flock was uninstalled"):
            flock.draw()
