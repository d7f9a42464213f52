"""The debug overlay: its geometry (no OpenGL), what it explains, and what it draws."""

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported anywhere

import arcade
import esper
import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

from shoal.components import Species
from shoal.systems import RENDER_PRIORITY, Flock, FlockConfig, install
from shoal.systems.flock.ecs import in_world
from shoal.systems.neighbours.system import NeighbourSystem
from shoal.systems.render import RenderSystem
from shoal.systems.render.debug_overlay import (
    FIELD_OF_VIEW,
    PERCEPTION,
    RULE_COLOURS,
    DebugOverlay,
    applied,
    circles_layer,
    outlines_layer,
)
from shoal.systems.render.overlay_shapes import CIRCLE_SEGMENTS, ShapeBatch
from shoal.systems.steering.system import SteeringSystem

WIDTH, HEIGHT = 320, 240
DT = 1 / 60
WATER = (0, 0, 0)
RED = (255, 0, 0, 255)

Pixels = npt.NDArray[np.uint8]
_worlds = itertools.count()


@pytest.fixture
def make_flock() -> Iterator[Callable[..., Flock]]:
    names: list[str] = []

    def make(boundary: str = "contain") -> Flock:
        names.append(f"overlay-test-{next(_worlds)}")
        config = FlockConfig(
            width=WIDTH, height=HEIGHT, boundary=boundary, margin=20.0, seed=len(names)
        )
        return install(config, [Species("fish")], world=names[-1])

    yield make
    for name in names:
        esper.delete_world(name)


def school(flock: Flock) -> tuple[RenderSystem, int]:
    """A small school around the middle, stepped a few times; returns the render stage and
    the boid in the middle."""
    rng = np.random.default_rng(5)
    positions = rng.uniform(-35, 35, (24, 2)) + np.array([160.0, 120.0])
    positions[0] = (160.0, 120.0)
    entities = flock.spawn("fish", positions, np.tile((40.0, 10.0), (24, 1)))
    render = RenderSystem(flock)
    with in_world(flock.world):
        esper.add_processor(render, RENDER_PRIORITY)
    render.update()
    for _ in range(3):
        flock.step(DT)
    return render, int(entities[0])


def picture(window: arcade.Window, *drawables: Callable[[], None]) -> Pixels:
    window.clear(color=WATER)
    for draw in drawables:
        draw()
    return np.asarray(arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB"))


def colour_near(pixels: Pixels, colour: tuple[int, ...], tolerance: int = 40) -> npt.NDArray[Any]:
    diff = np.abs(pixels.astype(int) - np.array(colour[:3])).max(axis=2)
    return np.asarray(diff < tolerance)


# --- geometry: no OpenGL ---------------------------------------------------------------
def test_shape_batch_builds_triangles_with_colours() -> None:
    batch = ShapeBatch()
    batch.lines([(0, 0), (0, 0)], [(10, 0), (0, 10)], RED, 2.0)
    assert len(batch) == 12  # two quads, two triangles each
    vertices = batch.vertices()
    assert vertices.dtype == np.float32 and vertices.shape == (12, 6)
    np.testing.assert_array_equal(vertices[:, 2:], np.tile(RED, (12, 1)))
    np.testing.assert_allclose(np.abs(vertices[:6, 1]).max(), 1.0)  # width 2 about y = 0
    batch.circles([(50, 50), (80, 80)], [10, 20], RED, 1.0)
    assert len(batch) == 12 + 2 * CIRCLE_SEGMENTS * 6
    ring = batch.vertices()[12 : 12 + CIRCLE_SEGMENTS * 6, :2]
    np.testing.assert_allclose(np.hypot(*(ring - (50, 50)).T), 10, atol=0.6)
    batch.arrows([(0, 0), (5, 5)], [(0, 0), (30, 0)], RED, 2.0)  # a zero vector draws nothing
    assert len(batch) == 12 + 2 * CIRCLE_SEGMENTS * 6 + 9
    assert batch.vertices()[-3:, 0].max() == pytest.approx(35.0)  # the tip


def test_overlay_shows_the_selected_boids_view_and_forces(
    make_flock: Callable[..., Flock],
) -> None:
    flock = make_flock()
    render, middle = school(flock)
    overlay = DebugOverlay(flock, render, show_grid=False)
    assert len(overlay.build()) == 0, "nothing selected, no grid: nothing to draw"
    overlay.select(middle)
    vertices = overlay.build().vertices()
    colours = {tuple(int(c) for c in v) for v in vertices[:, 2:]}
    assert PERCEPTION in colours and FIELD_OF_VIEW in colours
    assert {RULE_COLOURS[name] for name in ("separation", "alignment", "cohesion")} <= colours
    centre = render.last_frame.positions[flock.store.row(middle)]  # type: ignore[union-attr]
    assert np.hypot(*(vertices[:, :2] - centre).T).max() < 3 * 50 + 10
    with pytest.raises(KeyError):
        overlay.select(10**9)


def test_overlay_forces_are_what_the_steering_stage_applied(
    make_flock: Callable[..., Flock],
) -> None:
    flock = make_flock()
    _, middle = school(flock)
    with in_world(flock.world):  # only the two stages: the accelerations are steering's own
        esper.get_processor(NeighbourSystem).process(DT)  # type: ignore[union-attr]
        esper.get_processor(SteeringSystem).process(DT)  # type: ignore[union-attr]
    overlay = DebugOverlay(flock)
    forces = overlay.forces_of(middle)
    assert {"separation", "alignment", "cohesion"} <= set(forces)
    row = flock.store.row(middle)
    np.testing.assert_allclose(
        applied(forces, flock.species["fish"]), flock.store.accelerations[row], atol=1e-9
    )
    assert len(flock.neighbours_of(middle)) > 0


def test_select_nearest_picks_the_drawn_boid_wrap_aware(make_flock: Callable[..., Flock]) -> None:
    flock = make_flock("wrap")
    entities = flock.spawn("fish", [(5.0, 120.0), (160.0, 120.0)], [(20.0, 0.0)] * 2)
    overlay = DebugOverlay(flock)
    assert overlay.select_nearest(318.0, 121.0) == int(entities[0])  # across the edge
    assert overlay.select_nearest(150.0, 110.0, max_distance=20) == int(entities[1])
    assert overlay.select_nearest(100.0, 20.0, max_distance=20) is None
    assert overlay.selected == int(entities[1])  # a miss keeps the selection
    flock.despawn(entities[1])
    assert len(overlay.build()) > 0  # the grid; the deleted boid is skipped


def test_grid_layer_draws_every_cell_edge(make_flock: Callable[..., Flock]) -> None:
    flock = make_flock("wrap")
    flock.scatter("fish", 50)
    overlay = DebugOverlay(flock)
    grid = flock.grid
    assert len(overlay.build()) == (grid.nx + 1 + grid.ny + 1) * 6


# --- drawing -------------------------------------------------------------------------------
def test_overlay_draws_in_one_call_and_saves_a_legible_picture(
    window: arcade.Window, make_flock: Callable[..., Flock], tmp_path: Path
) -> None:
    flock = make_flock()
    render, middle = school(flock)
    overlay = DebugOverlay(flock, render)
    overlay.add_layer("rocks", outlines_layer(lambda: [[(20, 60), (60, 60), (40, 90)]], RED))
    overlay.add_layer("leader", circles_layer(lambda: ([(280, 200)], [25]), (255, 255, 0, 255)))
    overlay.select(middle)

    off = picture(window, render.draw, overlay.draw)
    assert not colour_near(off, PERCEPTION).any(), "a disabled overlay draws nothing"

    overlay.enabled = True
    calls = _count_gl_draws(overlay)
    pixels = picture(window, render.draw, overlay.draw)
    Image.fromarray(pixels).save(tmp_path / "overlay.png")
    assert calls() == 1, "the shapes go out in a single draw call"
    centre = render.last_frame.positions[flock.store.row(middle)]  # type: ignore[union-attr]
    rows, cols = np.nonzero(colour_near(pixels, PERCEPTION, 30))
    radii = np.hypot(cols + 0.5 - centre[0], HEIGHT - rows - 0.5 - centre[1])
    assert np.mean(np.abs(radii - 50) < 3) > 0.5, "the perception circle is where it should be"
    assert colour_near(pixels, RED, 30)[HEIGHT - 62 : HEIGHT - 59, 30:50].any(), "no rock layer"
    assert colour_near(pixels, (255, 255, 0), 30)[HEIGHT - 200, 300:310].any()  # the leader
    for name in ("separation", "alignment", "cohesion"):
        assert colour_near(pixels, RULE_COLOURS[name], 40).any(), f"no {name} arrow"


def _count_gl_draws(overlay: DebugOverlay) -> Callable[[], int]:
    """Count the overlay's OpenGL draw calls from now on."""
    overlay.draw()  # creates the drawer
    drawer = overlay._gl
    assert drawer is not None
    count = [0]
    render = drawer.geometry.render

    def counted(*args: Any, **kwargs: Any) -> None:
        count[0] += 1
        render(*args, **kwargs)

    drawer.geometry.render = counted  # type: ignore[method-assign]
    return lambda: count[0]
