"""Hostile input to the rendering: the render stage, its looks and textures, and the debug
overlay with its layers (see tests/hostile.py)."""

from collections.abc import Callable

import numpy as np

from shoal.components import Species
from shoal.systems.render import (
    RenderSystem,
    SpeciesLook,
    bird_texture,
    fish_texture,
    shark_texture,
)
from shoal.systems.render.debug_overlay import DebugOverlay, applied, circles_layer, outlines_layer

from hostile import INF, NAN, Case, Scene, case, keyword, labelled, on_event, refusal_test, sweep


def render_cases() -> list[Case]:
    cases = sweep(
        "RenderSystem",
        lambda s, v: RenderSystem(v),
        r"RenderSystem: flock = ",
        {"flock a str": "x"},
    )
    settings: dict[str, dict[str, object]] = {
        "looks": {
            "looks a str": "x",
            "a look that is a str": {"a": "look"},
            "a number as name": {5: SpeciesLook()},
        },
        "texture": {"texture a str": "fish.png"},
        "scale": labelled("scale", {"zero": 0.0, "NaN": NAN, "a str": "1", "inf": INF}),
        "tints": {
            "a tint over 255": [(300, 0, 0)],
            "tints a str": "red",
            "a float tint": [(1.5, 0, 0)],
            "a tint of two": [(1, 2)],
        },
        "heading_smoothing": labelled("smoothing", {"negative": -1.0, "NaN": NAN, "inf": INF}),
        "factory": {"factory a number": 5},
        "fast": {"fast a str": "yes"},
    }
    for name, values in settings.items():
        cases += sweep(
            "RenderSystem",
            keyword(RenderSystem, name, flock=True),
            rf"RenderSystem: {name}",
            values,
        )
    looks: dict[str, dict[str, object]] = {
        "texture": {"texture a str": "x"},
        "scale": labelled(
            "scale",
            {"negative": -1.0, "NaN": NAN, "inf": INF, "a str": "1", "1e9": 1e9},
        ),
        "tint": labelled(
            "tint",
            {
                "over 255": (300, 0, 0),
                "of two": (1, 2),
                "a str": "red",
                "of floats": (1.5, 2.0, 3.0),
                "None": None,
            },
        ),
        "heading_smoothing": labelled(
            "smoothing", {"negative": -1.0, "NaN": NAN, "inf": INF, "a str": "0"}
        ),
    }
    for name, values in looks.items():
        cases += sweep(
            "SpeciesLook", keyword(SpeciesLook, name), rf"SpeciesLook: {name} = ", values
        )
    sizes = {
        "zero": (0, 0),
        "negative": (-1, 5),
        "a million a side": (10**6, 10**6),
        "floats": (3.5, 4.0),
        "a str": "big",
        "one number": (16,),
        "None": None,
        "a bool": (True, 4),
    }
    cases += sweep("fish_texture", lambda s, v: fish_texture(v), r"fish_texture: size = ", sizes)
    cases += sweep(
        "shark_texture",
        lambda s, v: shark_texture(v),
        r"shark_texture: size = ",
        {"too wide": (10**5, 40), "zero high": (10, 0)},
    )
    cases += sweep(
        "bird_texture",
        lambda s, v: bird_texture(v),
        r"bird_texture: size = ",
        {"too small": (2, 2), "a str inside": ("a", 1)},
    )
    return cases


def render_call_cases() -> list[Case]:
    alphas = {"NaN": NAN, "negative": -0.1, "past 1": 1.5, "a str": "1", "None": None, "inf": INF}
    cases = sweep("RenderSystem.frame", lambda s, v: s.render.frame(v), r"frame: alpha = ", alphas)
    cases += sweep(
        "RenderSystem.draw",
        lambda s, v: s.render.draw(v),
        r"draw: alpha = ",
        {"NaN": NAN, "2": 2.0, "a str": "x"},
    )
    cases += sweep(
        "RenderSystem.look_of",
        lambda s, v: s.render.look_of(v),
        r"look_of: species = ",
        {"negative": -1, "a str": "a", "a float": 1.5, "None": None},
    )
    cases += sweep(
        "RenderSystem.set_look",
        lambda s, v: s.render.set_look(v, SpeciesLook()),
        r"set_look: name = ",
        {"name a number": 5, "name empty": ""},
    )
    cases += sweep(
        "RenderSystem.set_look",
        lambda s, v: s.render.set_look("a", v),
        r"set_look: look = ",
        {"look a str": "x", "look None": None},
    )
    cases += sweep(
        "RenderSystem.advance",
        lambda s, v: s.render.advance(v),
        r"advance: dt = ",
        {"NaN": NAN, "negative": -1.0, "1 s": 1.0, "a str": "x"},
    )
    return cases


def overlay_cases() -> list[Case]:
    cases = sweep(
        "DebugOverlay",
        lambda s, v: DebugOverlay(v),
        r"DebugOverlay: flock = ",
        {"flock a str": "x"},
    )
    settings: dict[str, dict[str, object]] = {
        "render": {"render a str": "r"},
        "force_scale": labelled("force_scale", {"zero": 0.0, "NaN": NAN, "a str": "1"}),
        "line_width": labelled("line_width", {"zero": 0.0, "NaN": NAN, "negative": -1.0}),
        "show_grid": {"show_grid a str": "yes"},
        "show_legend": {"show_legend an int": 1},
    }
    for name, values in settings.items():
        cases += sweep(
            "DebugOverlay",
            keyword(DebugOverlay, name, flock=True),
            rf"DebugOverlay: {name} = ",
            values,
        )
    cases += [
        case(
            "DebugOverlay.select",
            "an unknown entity",
            lambda s: s.overlay.select(99999),
            r"select: entity 99999 is not a boid",
            KeyError,
        ),
        case(
            "DebugOverlay.select",
            "food, not a boid",
            lambda s: s.overlay.select(s.food),
            r"select: entity \d+ is not a boid",
            KeyError,
        ),
        case(
            "DebugOverlay.forces_of",
            "an unknown entity",
            lambda s: s.overlay.forces_of(99999),
            r"forces_of: entity 99999 is not a boid",
            KeyError,
        ),
    ]
    cases += sweep(
        "DebugOverlay.select",
        lambda s, v: s.overlay.select(v),
        r"select: entity = ",
        {"a str": "a", "a float": 1.5, "a bool": True},
    )
    cases += sweep(
        "DebugOverlay.forces_of",
        lambda s, v: s.overlay.forces_of(v),
        r"forces_of: entity = ",
        {"a str": "x"},
    )
    nearest = "DebugOverlay.select_nearest"
    cases += sweep(
        nearest,
        lambda s, v: s.overlay.select_nearest(v, 10.0),
        r"select_nearest: x = ",
        {"x NaN": NAN, "x a str": "a"},
    )
    cases += sweep(
        nearest,
        lambda s, v: s.overlay.select_nearest(10.0, v),
        r"select_nearest: y = ",
        {"y inf": INF},
    )
    cases += sweep(
        nearest,
        lambda s, v: s.overlay.select_nearest(10.0, 10.0, v),
        r"select_nearest: max_distance = ",
        labelled("max_distance", {"negative": -1.0, "NaN": NAN, "a str": "far"}),
    )
    for k, name in enumerate(("x", "y", "size")):

        def legend_at(s: Scene, v: object, k: int = k) -> object:
            arguments: list[object] = [10.0, 10.0, 12.0]
            arguments[k] = v
            return s.overlay.draw_legend(*arguments)  # type: ignore[arg-type]  # on purpose

        cases += sweep(
            "DebugOverlay.draw_legend",
            legend_at,
            rf"draw_legend: {name} = ",
            labelled(name, {"NaN": NAN, "a str": "1"} if name != "size" else {
                "zero": 0.0, "negative": -1.0, "inf": INF, "a str": "big"}),
        )  # fmt: skip
    cases += sweep(
        "DebugOverlay.add_layer",
        lambda s, v: s.overlay.add_layer(v, on_event),
        r"add_layer: name = ",
        {"name a number": 5, "name empty": ""},
    )
    cases += sweep(
        "DebugOverlay.add_layer",
        lambda s, v: s.overlay.add_layer("x", v),
        r"add_layer: layer = ",
        {"layer a number": 5, "layer None": None},
    )
    cases += sweep(
        "DebugOverlay.remove_layer",
        lambda s, v: s.overlay.remove_layer(v),
        r"remove_layer: name = ",
        {"a number": 5, "None": None},
    )
    cases += layer_cases("circles_layer", circles_layer) + layer_cases(
        "outlines_layer", outlines_layer
    )
    force = {"separation": np.array([1.0, 0.0])}
    cases += sweep(
        "applied",
        lambda s, v: applied(v, Species("a")),
        r"applied: forces",
        {
            "forces a str": "x",
            "a list as force": {"separation": [1.0, 2.0]},
            "a force of three": {"x": np.zeros(3)},
        },
    )
    cases += sweep(
        "applied", lambda s, v: applied(force, v), r"applied: species = ", {"species a str": "fish"}
    )
    return cases


def layer_cases(name: str, make: Callable[..., object]) -> list[Case]:
    def source() -> tuple[list[tuple[float, float]], list[float]]:
        return [(0.0, 0.0)], [1.0]

    red = (255, 0, 0, 255)
    cases = sweep(
        name,
        lambda s, v: make(v, red),
        rf"{name}: source = ",
        {"source a number": 5, "source None": None},
    )
    cases += sweep(
        name,
        lambda s, v: make(source, v),
        rf"{name}: colour = ",
        {"three values": (255, 0, 0), "over 255": (300, 0, 0, 255), "a str": "red"},
    )
    cases += sweep(
        name,
        lambda s, v: make(source, red, v),
        rf"{name}: width = ",
        {"width zero": 0.0, "width NaN": NAN},
    )
    return cases


CASES: list[Case] = [
    *render_cases(),
    *render_call_cases(),
    *overlay_cases(),
]


test_a_hostile_call_is_refused_and_changes_nothing = refusal_test(CASES)
