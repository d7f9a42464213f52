"""The sprite feed, checked by what is actually drawn (headless arcade, read back as pixels)."""

import itertools
import os
from collections.abc import Callable, Iterator

os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported anywhere

import arcade
import esper
import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

from shoal.components import Species
from shoal.systems import RENDER_PRIORITY, Flock, FlockConfig, install
from shoal.systems.flock import flock as flock_module
from shoal.systems.flock.ecs import in_world
from shoal.systems.flock.flock import SORT_EVERY
from shoal.systems.render import FISH_HEAD, FISH_SIZE, RenderSystem
from shoal.systems.render.sprite_feed import (
    SUPPORTED_ARCADE_MAJOR,
    SpriteFeed,
    fast_path_problem,
    heading_degrees,
)

WIDTH, HEIGHT = 320, 240
SCALE = 2.0  # big fish: robust pixel checks
# Farthest a drawn pixel can be from its boid's position: half the scaled diagonal, plus AA.
REACH = SCALE * float(np.hypot(*FISH_SIZE)) / 2 + 2
BLACK = (0, 0, 0)

Pixels = npt.NDArray[np.uint8]
_worlds = itertools.count()


@pytest.fixture
def make_flock() -> Iterator[Callable[[], Flock]]:
    """Flocks in worlds of their own, deleted after the test."""
    names: list[str] = []

    def make() -> Flock:
        names.append(f"sprite-feed-test-{next(_worlds)}")
        config = FlockConfig(width=WIDTH, height=HEIGHT, margin=20.0, seed=len(names))
        return install(config, [Species("fish")], world=names[-1])

    yield make
    for name in names:
        esper.delete_world(name)


def snapshot(window: arcade.Window, *renders: RenderSystem) -> Pixels:
    """Draw on black and read the window back: (height, width, 3), row 0 at the top."""
    window.clear(color=BLACK)
    for render in renders:
        render.draw()
    image = arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB")
    return np.asarray(image)


def fish_mask(pixels: Pixels) -> npt.NDArray[np.bool_]:
    return np.asarray(pixels.max(axis=2) > 40)


def head_mask(pixels: Pixels) -> npt.NDArray[np.bool_]:
    diff = np.abs(pixels.astype(int) - np.array(FISH_HEAD)).max(axis=2)
    return np.asarray(diff < 40)


def world_xy(rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """Pixel centres in world coordinates (y up)."""
    return np.column_stack((cols + 0.5, HEIGHT - rows - 0.5))


def drawn_at(pixels: Pixels, x: float, y: float, radius: int = 1) -> bool:
    """Is there fish colour within `radius` pixels of world point (x, y)?"""
    row, col = HEIGHT - 1 - round(y - 0.5), round(x - 0.5)
    patch = pixels[max(row - radius, 0) : row + radius + 1, max(col - radius, 0) : col + radius + 1]
    return bool(fish_mask(patch).any())


def assert_drawn_where_store_says(pixels: Pixels, flock: Flock) -> None:
    """Every boid has fish colour at its position, and every fish pixel is near some boid."""
    positions = flock.store.positions
    for x, y in positions.tolist():
        assert drawn_at(pixels, x, y), f"no fish drawn at boid position ({x:.1f}, {y:.1f})"
    rows, cols = np.nonzero(fish_mask(pixels))
    if len(rows) == 0:
        assert len(positions) == 0
        return
    points = world_xy(rows, cols)
    nearest = np.min(np.linalg.norm(points[:, None, :] - positions[None, :, :], axis=2), axis=1)
    assert nearest.max() <= REACH, f"fish pixel {nearest.max():.1f} px from every boid"


def render_of(flock: Flock, *, fast: bool = True) -> RenderSystem:
    render = RenderSystem(flock, scale=SCALE, fast=fast)
    render.update()
    return render


# --- (e) the arcade internals the fast path relies on --------------------------------------
def test_fast_path_is_active_on_this_arcade(
    window: arcade.Window, make_flock: Callable[[], Flock]
) -> None:
    """Fails loudly when an arcade upgrade changes the SpriteList internals the feed writes."""
    assert arcade.version.VERSION.split(".")[0] == str(SUPPORTED_ARCADE_MAJOR)
    assert fast_path_problem(arcade.SpriteList()) is None
    render = render_of(make_flock())
    assert render.feed.fast_path


def test_spatial_hash_list_takes_the_fallback(
    window: arcade.Window, make_flock: Callable[[], Flock]
) -> None:
    flock = make_flock()
    flock.spawn("fish", [(100.0, 100.0)], [(10.0, 0.0)])
    sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList(use_spatial_hash=True)
    feed = SpriteFeed(sprites, lambda entity, species: arcade.SpriteSolidColor(4, 4))
    assert not feed.fast_path
    feed.update(flock.store)
    assert sprites[0].position == (100.0, 100.0)


def test_heading_degrees_are_clockwise() -> None:
    angles = heading_degrees(np.array([[1.0, 0.0], [0.0, 1.0], [0.0, -2.0], [-1.0, -1.0]]))
    np.testing.assert_allclose(angles, [0.0, -90.0, 90.0, 135.0])


# --- (a) fish face where they swim --------------------------------------------------------
def test_fish_noses_point_where_they_swim(
    window: arcade.Window, make_flock: Callable[[], Flock], tmp_path: object
) -> None:
    flock = make_flock()
    velocities = np.array([[60.0, 0.0], [0.0, 60.0], [-60.0, 0.0]])
    flock.spawn("fish", [(60.0, 120.0), (160.0, 120.0), (260.0, 120.0)], velocities)
    render = render_of(flock)
    path = os.path.join(str(tmp_path), "headings.png")
    Image.fromarray(snapshot(window, render)).save(path)

    pixels = np.asarray(Image.open(path).convert("RGB"))  # judge the saved picture itself
    for (x, y), velocity in zip(flock.store.positions, velocities, strict=True):
        near = (
            np.linalg.norm(
                world_xy(*np.indices(pixels.shape[:2]).reshape(2, -1)) - (x, y), axis=1
            ).reshape(pixels.shape[:2])
            <= REACH
        )
        fish = world_xy(*np.nonzero(fish_mask(pixels) & near)).mean(axis=0)
        nose = world_xy(*np.nonzero(head_mask(pixels) & near)).mean(axis=0)
        facing = (nose - fish) / np.linalg.norm(nose - fish)
        assert facing @ (velocity / np.linalg.norm(velocity)) > 0.9, (
            f"fish at ({x}, {y}) moving {velocity} faces {facing}"
        )


def test_a_stopped_fish_keeps_its_heading(
    window: arcade.Window, make_flock: Callable[[], Flock]
) -> None:
    flock = make_flock()
    (entity,) = flock.spawn("fish", [(100.0, 100.0)], [(0.0, 30.0)])
    render = render_of(flock)
    flock.store.velocities[:] = 0.0
    render.update()
    assert render.feed.sprite_of(int(entity)).angle == pytest.approx(-90.0)


# --- (b) drawn where the store says ----------------------------------------------------
def test_sprites_are_drawn_at_the_store_positions(
    window: arcade.Window, make_flock: Callable[[], Flock], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flock_module, "SORT_MIN_ROWS", 0)  # sorts as a large flock would
    flock = make_flock()
    flock.scatter("fish", 25)
    render = render_of(flock)
    assert_drawn_where_store_says(snapshot(window, render), flock)
    with in_world(flock.world):
        esper.add_processor(render, RENDER_PRIORITY)
    entities = flock.entities.copy()
    for _ in range(SORT_EVERY + 2):
        flock.step(1 / 60)  # the render stage feeds the moved boids, sorted on the way
    assert not np.array_equal(flock.entities, entities)
    assert_drawn_where_store_says(snapshot(window, render), flock)


# --- (c) deleted boids vanish ----------------------------------------------------------
def test_a_deleted_boid_is_no_longer_drawn(
    window: arcade.Window, make_flock: Callable[[], Flock]
) -> None:
    flock = make_flock()
    entities = flock.spawn(
        "fish", [(60.0, 60.0), (160.0, 120.0), (260.0, 180.0)], [(20.0, 0.0)] * 3
    )
    render = render_of(flock)
    assert drawn_at(snapshot(window, render), 160.0, 120.0)

    flock.despawn(int(entities[1]))  # swap-remove: the last boid moves into row 1
    render.update()
    pixels = snapshot(window, render)
    assert not drawn_at(pixels, 160.0, 120.0, radius=10)
    assert drawn_at(pixels, 60.0, 60.0) and drawn_at(pixels, 260.0, 180.0)
    assert len(render.sprites) == 2

    with in_world(flock.world):  # game code deleting through esper: gone at the next step
        esper.add_processor(render, RENDER_PRIORITY)
        esper.delete_entity(int(entities[0]))
    flock.step(1 / 60)
    assert len(render.sprites) == 1
    assert_drawn_where_store_says(snapshot(window, render), flock)


# --- (d) churn -------------------------------------------------------------------------
@pytest.mark.slow
def test_sprites_follow_the_store_through_spawn_and_despawn_churn(
    window: arcade.Window, make_flock: Callable[[], Flock]
) -> None:
    flock = make_flock()
    rng = np.random.default_rng(7)
    fast, slow = render_of(flock), render_of(flock, fast=False)
    assert fast.feed.fast_path and not slow.feed.fast_path
    for round_ in range(25):
        if len(flock) and rng.random() < 0.8:
            doomed = rng.choice(flock.entities, rng.integers(0, len(flock) + 1), replace=False)
            flock.despawn(doomed)
        flock.scatter("fish", int(rng.integers(0, 30)))
        if rng.random() < 0.4:  # as the flock does every SORT_EVERY steps
            flock.store.reorder(rng.permutation(len(flock)))
        if rng.random() < 0.5:
            flock.store.positions[:] += rng.uniform(-5, 5, (len(flock), 2))
            flock.store.positions[:] = np.clip(flock.store.positions, 10, (WIDTH - 10, HEIGHT - 10))
        fast.update()
        slow.update()
        assert_feed_matches_store(fast, flock, f"round {round_}")
        assert_feed_matches_store(slow, flock, f"round {round_} (fallback)")
        if round_ % 5 == 4:
            pixels = snapshot(window, fast)
            assert_drawn_where_store_says(pixels, flock)
            assert np.array_equal(pixels, snapshot(window, slow)), "fast and fallback differ"


def assert_feed_matches_store(render: RenderSystem, flock: Flock, when: str) -> None:
    store = flock.store
    assert len(render.sprites) == len(store) == len(render.feed), when
    sprites = [render.feed.sprite_of(int(entity)) for entity in store.entities]
    assert len({id(sprite) for sprite in sprites}) == len(sprites), f"{when}: shared sprite"
    assert all(sprite in render.sprites for sprite in sprites), f"{when}: sprite not listed"
    if sprites:
        drawn = np.array([sprite.position for sprite in sprites])
        np.testing.assert_allclose(drawn, store.positions, atol=1e-3, err_msg=when)
        np.testing.assert_allclose(
            [sprite.angle for sprite in sprites],
            heading_degrees(store.velocities),
            atol=1e-3,
            err_msg=when,
        )
