"""The render stage through fixed steps: headings, interpolation, looks, consistency.

Pictures are drawn headless and read back as pixels; the pure parts (heading filter,
interpolation) are checked on arrays.
"""

import itertools
import math
import os
from collections.abc import Callable, Iterator
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
from shoal.systems.render import RenderSystem, fixed_fraction
from shoal.systems.render.headings import (
    MAX_LAG,
    blend_factors,
    heading_degrees,
    smooth_headings,
    still,
    wrap_degrees,
)
from shoal.systems.render.interpolation import DrawHistory
from shoal.systems.render.looks import (
    FISH_HEAD,
    FISH_SIZE,
    SpeciesLook,
    bird_texture,
    fish_texture,
    shark_texture,
)

WIDTH, HEIGHT = 320, 240
SCALE = 2.0
REACH = SCALE * float(np.hypot(*FISH_SIZE)) / 2 + 2
DT = 1 / 60
BLACK = (0, 0, 0)

Pixels = npt.NDArray[np.uint8]
_worlds = itertools.count()


@pytest.fixture
def make_flock() -> Iterator[Callable[..., Flock]]:
    """Flocks in worlds of their own (alone: boids far apart see nobody), deleted after."""
    names: list[str] = []

    def make(boundary: str = "contain", species: tuple[Species, ...] = ()) -> Flock:
        names.append(f"render-test-{next(_worlds)}")
        config = FlockConfig(
            width=WIDTH, height=HEIGHT, boundary=boundary, margin=20.0, seed=len(names)
        )
        return install(config, species or (Species("fish"),), world=names[-1])

    yield make
    for name in names:
        esper.delete_world(name)


def staged(flock: Flock, **options: object) -> RenderSystem:
    """A render stage added to the flock's world, fed once."""
    render = RenderSystem(flock, scale=SCALE, **options)  # type: ignore[arg-type]
    with in_world(flock.world):
        esper.add_processor(render, RENDER_PRIORITY)
    render.update()
    return render


def snapshot(window: arcade.Window, render: RenderSystem, alpha: float = 1.0) -> Pixels:
    """Draw on black and read the window back: (height, width, 3), row 0 at the top."""
    window.clear(color=BLACK)
    render.draw(alpha)
    return np.asarray(arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB"))


def world_xy(rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    return np.column_stack((cols + 0.5, HEIGHT - rows - 0.5))


def lit(pixels: Pixels) -> npt.NDArray[np.bool_]:
    return np.asarray(pixels.max(axis=2) > 40)


def heads(pixels: Pixels) -> npt.NDArray[np.bool_]:
    return np.asarray(np.abs(pixels.astype(int) - np.array(FISH_HEAD)).max(axis=2) < 40)


def near(pixels: Pixels, x: float, y: float, reach: float = REACH) -> npt.NDArray[np.bool_]:
    points = world_xy(*np.indices(pixels.shape[:2]).reshape(2, -1))
    inside = np.linalg.norm(points - (x, y), axis=1) <= reach
    return np.asarray(inside.reshape(pixels.shape[:2]), bool)


def centroid(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    assert mask.any(), "nothing drawn there"
    return np.asarray(world_xy(*np.nonzero(mask)).mean(axis=0), np.float64)


def facing(pixels: Pixels, x: float, y: float) -> npt.NDArray[np.float64]:
    """Unit vector from a fish's middle to its (pale) head, from the picture."""
    around = near(pixels, x, y)
    nose = centroid(heads(pixels) & around) - centroid(lit(pixels) & around)
    return nose / np.linalg.norm(nose)


# --- headings: the filter on its own ------------------------------------------------------
def test_headings_are_numpys_arctan2_within_a_millionth_of_a_degree() -> None:
    """The compiled atan2 (a series, `shoal.systems.render.drawing`) against numpy's, on
    random velocities of every size and direction and on the axes and diagonals."""
    rng = np.random.default_rng(7)
    velocities = rng.normal(size=(20_000, 2)) * 10.0 ** rng.uniform(-6, 6, (20_000, 1))
    exact = np.array([[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]])
    velocities = np.vstack([velocities, exact * 3.0])
    expected = np.degrees(-np.arctan2(velocities[:, 1], velocities[:, 0]))
    angles = heading_degrees(velocities)
    np.testing.assert_allclose(angles, expected, rtol=0, atol=1e-6)
    np.testing.assert_array_equal(angles[-8:], [0, -90, -180, 90, -45, -135, 135, 45])


def test_heading_filter_turns_the_short_way_round() -> None:
    drawn, target = np.array([170.0, -170.0, 10.0]), np.array([-170.0, 170.0, -10.0])
    half = smooth_headings(drawn, target, np.full(3, 0.5))
    np.testing.assert_allclose(np.abs(wrap_degrees(half)), [180.0, 180.0, 0.0], atol=1e-9)
    _, between = history((0.0, 0.0), (0.0, 0.0), drawn, target).frame(0.5, None)
    np.testing.assert_allclose(np.abs(wrap_degrees(between)), [180, 180, 0], atol=1e-9)
    snapped = smooth_headings(drawn, target, np.ones(3))
    np.testing.assert_allclose(wrap_degrees(snapped - target), 0.0, atol=1e-9)


def test_heading_filter_holds_still_boids_and_uses_the_time_constant() -> None:
    velocities = np.array([[0.0, 0.0], [10.0, 0.0]])
    assert still(velocities).tolist() == [True, False]
    factors = blend_factors(0.1, np.array([0.0, 0.1]))
    np.testing.assert_allclose(factors, [1.0, 1.0 - math.exp(-1.0)])
    new = smooth_headings(
        np.array([90.0, 90.0]), heading_degrees(velocities), factors, still(velocities)
    )
    np.testing.assert_allclose(new, [90.0, 90.0 * math.exp(-1.0)])


def test_a_sudden_swerve_is_drawn_as_a_quick_turn_never_sideways() -> None:
    """However slow the filter, the drawn heading ends a step within MAX_LAG of the
    velocity's (a fish turned along a rock in one step is not drawn sliding sideways)."""
    drawn, target = np.array([0.0, 0.0, 0.0]), np.array([170.0, -120.0, 30.0])
    new = smooth_headings(drawn, target, np.full(3, 0.01))
    np.testing.assert_allclose(new, [170.0 - MAX_LAG, -120.0 + MAX_LAG, 0.3], atol=1e-9)


def history(
    start: tuple[float, float], end: tuple[float, float], start_angles: Any, end_angles: Any
) -> DrawHistory:
    """A history of boids from `start` to `end` (all of them), turning between the angles."""
    n = len(np.atleast_1d(start_angles))
    return DrawHistory(
        np.arange(n), np.array([start] * n), np.array([end] * n),
        np.atleast_1d(np.asarray(start_angles, float)),
        np.atleast_1d(np.asarray(end_angles, float)),
    )  # fmt: skip


def test_a_frame_crosses_a_torus_edge_the_short_way() -> None:
    crossed = history((310.0, 100.0), (6.0, 100.0), 0.0, 0.0)  # crossed x = 320
    torus = (320.0, 240.0)
    np.testing.assert_allclose(crossed.frame(0.5, torus)[0], [[318.0, 100.0]])
    np.testing.assert_allclose(crossed.frame(0.75, torus)[0], [[2.0, 100.0]])
    np.testing.assert_allclose(crossed.frame(0.5, None)[0], [[158.0, 100.0]])  # no torus
    # A torus whose corner is not at (0, 0): wrapped back into [-100, 220) × [50, 290).
    shifted = history((210.0, 60.0), (-94.0, 280.0), 0.0, 0.0)
    np.testing.assert_allclose(shifted.frame(0.75, torus, (-100.0, 50.0))[0], [[-98.0, 285.0]])


def test_history_follows_entities_through_swap_remove() -> None:
    history = DrawHistory.empty().follow(
        np.array([5, 6, 7]), np.array([[0.0, 0], [1, 1], [2, 2]]), np.array([[1.0, 0]] * 3)
    )
    history.advance(np.array([[0.0, 1], [1, 2], [2, 3]]), np.array([[0.0, 1]] * 3), np.ones(3))
    moved = history.follow(
        np.array([5, 7, 9]), np.array([[0.0, 1], [2, 3], [9, 9]]), np.array([[-1.0, 0]] * 3)
    )
    np.testing.assert_array_equal(moved.previous, [[0, 0], [2, 2], [9, 9]])
    np.testing.assert_array_equal(moved.latest, [[0, 1], [2, 3], [9, 9]])
    np.testing.assert_allclose(wrap_degrees(moved.latest_angles), [-90, -90, -180], atol=1e-9)
    assert history.follow(history.entities, history.latest, np.zeros((3, 2))) is history


# --- headings on screen ---------------------------------------------------------------
def test_fish_face_right_up_and_left_after_steps(
    window: arcade.Window, make_flock: Callable[..., Flock], tmp_path: object
) -> None:
    flock = make_flock()
    velocities = np.array([[60.0, 0.0], [0.0, 60.0], [-60.0, 0.0]])
    flock.spawn("fish", [(70.0, 120.0), (160.0, 110.0), (250.0, 120.0)], velocities)
    render = staged(flock)
    for _ in range(10):
        flock.step(DT)
    pixels = snapshot(window, render)
    Image.fromarray(pixels).save(os.path.join(str(tmp_path), "facing.png"))
    for (x, y), velocity in zip(flock.positions, velocities, strict=True):
        assert facing(pixels, x, y) @ (velocity / 60.0) > 0.9, f"fish at ({x:.0f}, {y:.0f})"


def test_drawn_heading_follows_a_sudden_turn_smoothly(
    window: arcade.Window, make_flock: Callable[..., Flock]
) -> None:
    flock = make_flock()
    (entity,) = flock.spawn("fish", [(160.0, 120.0)], [(50.0, 0.0)])
    render = staged(flock, heading_smoothing=0.1)
    flock.store.velocities[:] = (0.0, 50.0)  # the boid now swims up: arcade angle -90
    angles = []
    for _ in range(30):
        flock.step(DT)
        angles.append(float(render.frame(1.0).angles[0]))
    turned = -np.array(angles)
    assert 0 < turned[0] < 30, "the first step turns only part of the way"
    assert np.all(np.diff(turned) >= -1e-9), "the drawn heading never swings back"
    assert turned[-1] == pytest.approx(90.0, abs=2.0)
    assert int(entity) in flock.store


def test_no_spin_when_the_heading_crosses_180_degrees(
    window: arcade.Window, make_flock: Callable[..., Flock]
) -> None:
    flock = make_flock()
    flock.spawn("fish", [(160.0, 120.0)], [(-50.0, 1.0)])  # just above due left
    render = staged(flock)
    flock.store.velocities[:] = (-50.0, -1.0)  # just below: a 2.3° turn, not 357.7°
    flock.step(DT)
    for alpha in (0.0, 0.5, 1.0):
        angle = float(render.frame(alpha).angles[0])
        assert abs(abs(wrap_degrees(np.array([angle]))[0]) - 180.0) < 3.0


# --- interpolation on screen -------------------------------------------------------------
def test_sprites_are_drawn_between_the_last_two_steps(
    window: arcade.Window, make_flock: Callable[..., Flock]
) -> None:
    flock = make_flock()
    flock.spawn("fish", [(100.0, 120.0)], [(120.0, 0.0)])
    render = staged(flock)
    before = flock.positions[0].copy()
    for _ in range(6):
        before = flock.positions[0].copy()
        flock.step(DT)
    after = flock.positions[0].copy()
    assert after[0] - before[0] > 1.0
    for alpha in (0.0, 0.5, 1.0):
        pixels = snapshot(window, render, alpha)
        expected = before + alpha * (after - before)
        np.testing.assert_allclose(render.last_frame.positions[0], expected)  # type: ignore[union-attr]
        drawn = centroid(lit(pixels) & near(pixels, *expected))
        assert abs(drawn[1] - expected[1]) < 1.5 and abs(drawn[0] - expected[0]) < 4


def test_torus_edge_crossing_is_not_drawn_across_the_screen(
    window: arcade.Window, make_flock: Callable[..., Flock]
) -> None:
    flock = make_flock("wrap")
    flock.spawn("fish", [(319.5, 120.0)], [(100.0, 0.0)])
    render = staged(flock)
    flock.step(DT)  # crosses x = 320
    assert flock.positions[0, 0] < 5
    xs = [float(render.frame(alpha).positions[0, 0]) for alpha in np.linspace(0, 1, 11)]
    assert all(x > 310 or x < 5 for x in xs), xs


def test_what_is_drawn_does_not_depend_on_how_often_it_is_drawn(
    window: arcade.Window, make_flock: Callable[..., Flock]
) -> None:
    """Same steps, one flock drawn at many alphas between steps and one never: same frames."""
    shown, hidden = make_flock("wrap"), make_flock("wrap")
    renders = [staged(f, heading_smoothing=0.2) for f in (shown, hidden)]
    for flock in (shown, hidden):
        flock.rng = np.random.default_rng(3)
        flock.scatter("fish", 60)
    for step in range(40):
        if step % 10 == 5:  # boids come and go between steps
            for flock in (shown, hidden):
                flock.despawn(flock.entities[:3])
                flock.scatter("fish", 4)
            renders[0].frame(0.3)  # a frame between the spawn and the next step
        for flock in (shown, hidden):
            flock.step(DT)
        for alpha in (0.1, 0.7, 1.0):
            renders[0].frame(alpha)
    np.testing.assert_array_equal(shown.positions, hidden.positions)  # the simulation
    a, b = (render.frame(0.37) for render in renders)
    np.testing.assert_array_equal(a.entities, b.entities)
    np.testing.assert_array_equal(a.positions, b.positions)
    np.testing.assert_array_equal(a.angles, b.angles)


def test_fixed_fraction_is_the_fixed_clock_fraction_clamped() -> None:
    fraction = fixed_fraction()
    assert 0.0 <= fraction <= 1.0
    raw = arcade.clock.GLOBAL_FIXED_CLOCK.fraction
    assert fraction == min(max(raw, 0.0), 1.0)


# --- consistency ----------------------------------------------------------------------
def test_deleted_boids_vanish_at_once_and_new_ones_appear(
    window: arcade.Window, make_flock: Callable[..., Flock]
) -> None:
    flock = make_flock()
    entities = flock.spawn(
        "fish", [(60.0, 60.0), (160.0, 120.0), (260.0, 180.0)], [(20.0, 0.0)] * 3
    )
    render = staged(flock)
    flock.step(DT)
    flock.despawn(int(entities[1]))  # between steps: the frame drawn next must not show it
    pixels = snapshot(window, render, 0.5)
    assert not (lit(pixels) & near(pixels, 160.0, 120.0, 10)).any()
    assert len(render.sprites) == 2
    (new,) = flock.spawn("fish", [(160.0, 60.0)], [(0.0, 20.0)])
    pixels = snapshot(window, render, 0.5)
    assert (lit(pixels) & near(pixels, 160.0, 60.0, 4)).any()
    assert render.feed.sprite_of(int(new)) in render.sprites


@pytest.mark.slow
@pytest.mark.parametrize("fast", [True, False], ids=["bulk", "per-sprite fallback"])
def test_sprites_and_store_agree_through_steps_and_churn(
    window: arcade.Window, make_flock: Callable[..., Flock], fast: bool
) -> None:
    flock = make_flock("wrap")
    render = staged(flock, fast=fast)
    assert render.feed.fast_path == fast
    rng = np.random.default_rng(11)
    for round_ in range(30):
        if len(flock) and rng.random() < 0.7:
            flock.despawn(
                rng.choice(flock.entities, rng.integers(0, len(flock) + 1), replace=False)
            )
        flock.scatter("fish", int(rng.integers(0, 25)))
        if rng.random() < 0.5:
            render.frame(float(rng.random()))
        flock.step(DT)
        frame = render.frame(1.0)
        assert len(render.sprites) == len(flock) == len(render.feed), round_
        np.testing.assert_array_equal(frame.entities, flock.entities)
        np.testing.assert_allclose(frame.positions, flock.positions)
        sprites = [render.feed.sprite_of(int(e)) for e in flock.entities]
        assert len({id(s) for s in sprites}) == len(sprites)
        if sprites:
            np.testing.assert_allclose([s.position for s in sprites], flock.positions, atol=1e-3)


# --- looks ------------------------------------------------------------------------------
@pytest.mark.parametrize("make_texture", [fish_texture, shark_texture, bird_texture])
def test_our_textures_face_plus_x(make_texture: Callable[[], arcade.Texture]) -> None:
    image = np.asarray(make_texture().image.convert("RGBA")).astype(int)
    opaque = image[..., 3] > 0
    brightness = image[..., :3].sum(axis=2)
    bright = opaque & (brightness >= np.percentile(brightness[opaque], 90))
    columns = np.indices(opaque.shape)[1]
    assert columns[bright].mean() > columns[opaque].mean() + 2, "the head is not at +x"


def test_each_species_gets_its_own_look(
    window: arcade.Window, make_flock: Callable[..., Flock]
) -> None:
    flock = make_flock(species=(Species("fish"), Species("shark")))
    shark = shark_texture()
    looks = {"shark": SpeciesLook(shark, scale=1.0, tint=(255, 120, 120), heading_smoothing=0)}
    render = RenderSystem(flock, looks=looks)
    (fish,) = flock.spawn("fish", [(80.0, 120.0)], [(30.0, 0.0)])
    (big,) = flock.spawn("shark", [(220.0, 120.0)], [(30.0, 0.0)])
    render.update()
    assert render.feed.sprite_of(int(big)).texture is shark
    assert tuple(render.feed.sprite_of(int(big)).color)[:3] == (255, 120, 120)
    assert render.feed.sprite_of(int(fish)).texture is render.texture
    pixels = snapshot(window, render)
    fish_width = np.ptp(np.nonzero(lit(pixels) & near(pixels, 80, 120, 60))[1])
    shark_width = np.ptp(np.nonzero(lit(pixels) & near(pixels, 220, 120, 60))[1])
    assert shark_width > 2 * fish_width

    render.set_look("fish", SpeciesLook(bird_texture(), scale=2.0))
    sprite = render.feed.sprite_of(int(fish))
    assert sprite.scale == (2.0, 2.0) and sprite.texture is render.looks["fish"].texture


def test_a_look_refuses_bad_values() -> None:
    with pytest.raises(ValueError, match="scale"):
        SpeciesLook(scale=-1)
    with pytest.raises(ValueError, match="heading_smoothing"):
        SpeciesLook(heading_smoothing=-1)
    with pytest.raises(ValueError, match="tint"):
        SpeciesLook(tint=(300, 0, 0))
