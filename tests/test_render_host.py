"""Drawing as a host game draws: `flock.draw()` from on_draw, a paused flock drawn exactly
still, side-view textures mirrored instead of turned upside down, tints with alpha, hidden
species. Real arcade, headless; the pictures are read back with `arcade.get_image`."""

import itertools
from collections.abc import Callable

import arcade
import numpy as np
import pytest
from PIL import Image, ImageDraw

import shoal
from shoal import FlockConfig, Species, SpeciesLook

DT = 1 / 60
WHITE = (255, 255, 255)


def picture(window: arcade.Window, draw: Callable[[], None]) -> np.ndarray:
    window.clear(color=(0, 0, 0, 255))
    draw()
    return np.asarray(arcade.get_image().convert("RGB"), dtype=np.int16)


class Pond(arcade.View):
    """A host view: steps the flock in on_fixed_update (or on_update), unless paused."""

    def __init__(self, by_update: bool) -> None:
        super().__init__()
        self.by_update, self.paused = by_update, False
        self.flock = shoal.install(FlockConfig(320, 240, margin=20, seed=5), [Species("fish")],
                                   render=True)  # fmt: skip
        self.flock.scatter("fish", 30)
        self.frames: list[np.ndarray] = []

    def on_fixed_update(self, delta_time: float) -> None:
        if not (self.by_update or self.paused):
            self.flock.step(delta_time)

    def on_update(self, delta_time: float) -> None:
        if self.by_update and not self.paused:
            self.flock.update(delta_time)

    def on_draw(self) -> None:
        self.clear()
        self.flock.draw()
        self.frames.append(np.asarray(arcade.get_image().convert("RGB")))


def frames(window: arcade.Window, count: int, frame_time: float = 1 / 50) -> None:
    """Run `count` frames of `frame_time` s as arcade 3.3's window loop does: tick the
    clocks, the fixed updates that are due, on_update, on_draw (`window.test` always
    ticks exactly one fixed step a frame, so the fixed clock's fraction stays 0)."""
    clock, fixed = arcade.clock.GLOBAL_CLOCK, arcade.clock.GLOBAL_FIXED_CLOCK
    for _ in range(count):
        clock.tick(frame_time)
        while fixed.accumulated >= fixed.rate:
            fixed.tick(fixed.rate)
            window.dispatch_event("on_fixed_update", fixed.rate)
        window.dispatch_event("on_update", frame_time)
        window.dispatch_event("on_draw")
        window.dispatch_events()  # pyglet queues events outside its own dispatch: run them


@pytest.mark.parametrize("by_update", [False, True], ids=["on_fixed_update", "update"])
def test_a_paused_flock_is_drawn_exactly_still(window: arcade.Window, by_update: bool) -> None:
    pond = Pond(by_update)
    window.show_view(pond)
    frames(window, 20)  # 50 frames a second, 60 steps: between steps, mostly
    moving = pond.frames[-8:]
    assert pond.flock.steps > 15
    assert all(not np.array_equal(a, b) for a, b in itertools.pairwise(moving))
    pond.paused = True
    steps = pond.flock.steps
    frames(window, 12)  # arcade's fixed clock keeps ticking; the flock does not step
    assert pond.flock.steps == steps
    still = pond.frames[-12:]
    assert all(np.array_equal(still[0], frame) for frame in still[1:])
    window.show_view(arcade.View())
    shoal.uninstall(pond.flock)


def side_fish() -> arcade.Texture:
    """A fish seen from the side, facing right: a red head on the right, a green fin on top."""
    image = Image.new("RGBA", (40, 20))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 6, 39, 19), fill=(0, 0, 255))
    draw.rectangle((28, 6, 39, 19), fill=(255, 0, 0))  # head
    draw.rectangle((10, 0, 20, 5), fill=(0, 255, 0))  # dorsal fin
    return arcade.Texture(image, hash="test-side-fish")


def colour_centre(pixels: np.ndarray, colour: tuple[int, int, int]) -> tuple[float, float]:
    """Mean (x, y) of the pixels of `colour`, y up."""
    rows, cols = np.nonzero(np.all(np.abs(pixels - colour) < 40, axis=2))
    assert len(rows), f"no {colour} pixels"
    return float(cols.mean()), float(pixels.shape[0] - 1 - rows.mean())


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "per-sprite"])
def test_a_side_view_heading_left_is_mirrored_not_upside_down(
    window: arcade.Window, fast: bool
) -> None:
    flock = shoal.install(FlockConfig(320, 240, seed=1), [Species("fish", min_speed=50)])
    look = SpeciesLook(side_fish(), scale=2.0, heading_smoothing=0, mirror=True)
    shoal.add_rendering(flock, looks={"fish": look}, fast=fast)
    flock.spawn("fish", [(100, 120), (220, 120)], [(-60, 0), (60, 0)])
    pixels = picture(window, lambda: flock.draw(1.0))
    left_head, left_fin = (
        colour_centre(pixels[:, :160], (255, 0, 0)),
        colour_centre(pixels[:, :160], (0, 255, 0)),
    )
    right_head, right_fin = (
        colour_centre(pixels[:, 160:], (255, 0, 0)),
        colour_centre(pixels[:, 160:], (0, 255, 0)),
    )
    assert left_head[0] < 100 and left_fin[1] > 120  # heads left, fin still on top
    assert right_head[0] + 160 > 220 and right_fin[1] > 120  # heads right, fin on top
    # Climbing to the left: mirrored and tilted nose-up, never upside down.
    flock.velocities[0] = (-60, 30)
    flock.step(0.0)
    pixels = picture(window, lambda: flock.draw(1.0))
    head, fin = (
        colour_centre(pixels[:, :160], (255, 0, 0)),
        colour_centre(pixels[:, :160], (0, 255, 0)),
    )
    assert head[0] < 100 and fin[1] > 120
    shoal.uninstall(flock)


def test_without_mirror_a_texture_turns_with_the_heading(window: arcade.Window) -> None:
    flock = shoal.install(FlockConfig(320, 240, seed=1), [Species("fish", min_speed=50)])
    shoal.add_rendering(flock, looks={"fish": SpeciesLook(side_fish(), 2.0, heading_smoothing=0)})
    flock.spawn("fish", [(100, 120)], [(-60, 0)])
    pixels = picture(window, lambda: flock.draw(1.0))
    assert colour_centre(pixels, (0, 255, 0))[1] < 120  # seen from above: fin below
    shoal.uninstall(flock)


@pytest.mark.parametrize(
    ("look", "seen"),
    [
        (SpeciesLook(tint=arcade.types.Color(255, 255, 255, 255)), True),
        (SpeciesLook(tint=(255, 255, 255, 0)), False),
        (SpeciesLook(scale=0), False),
        (SpeciesLook(visible=False), False),
    ],
    ids=["an arcade Color", "alpha 0", "scale 0", "hidden"],
)
def test_tints_with_alpha_and_hidden_species(
    window: arcade.Window, look: SpeciesLook, seen: bool
) -> None:
    flock = shoal.install(FlockConfig(320, 240, seed=1), [Species("fish"), Species("eel")])
    flock.scatter("fish", 20)
    flock.scatter("eel", 20)
    shoal.add_rendering(flock, looks={"fish": look, "eel": SpeciesLook(visible=False)})
    lit = int(np.count_nonzero(picture(window, flock.draw).sum(axis=2)))
    assert (lit > 500) == seen and look.shown == seen
    shoal.uninstall(flock)


def test_a_half_transparent_tint_blends(window: arcade.Window) -> None:
    flock = shoal.install(FlockConfig(320, 240, seed=1), [Species("fish")])
    flock.spawn("fish", [(160, 120)], [(50, 0)])
    shoal.add_rendering(flock, looks={"fish": SpeciesLook(tint=(255, 255, 255, 128), scale=3)})
    pixels = picture(window, lambda: flock.draw(1.0))
    brightest = int(pixels.max())
    assert 100 < brightest < 160  # about half of the texture's 255 over black
    shoal.uninstall(flock)


def test_draw_without_rendering_says_how_to_get_it() -> None:
    flock = shoal.install(FlockConfig(320, 240), [Species("fish")])
    with pytest.raises(RuntimeError, match=r"render=True"):
        flock.draw()
    shoal.uninstall(flock)


def test_looks_refuse_bad_tints_and_flags() -> None:
    with pytest.raises(ValueError, match=r"SpeciesLook: tint = \(1, 2, 3, 300\) must be 4"):
        SpeciesLook(tint=(1, 2, 3, 300))
    with pytest.raises(ValueError, match=r"SpeciesLook: tint = \(1, 2\) must be 3 or 4"):
        SpeciesLook(tint=(1, 2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"SpeciesLook: mirror = 'yes' must be a bool"):
        SpeciesLook(mirror="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"SpeciesLook: visible = 0 must be a bool"):
        SpeciesLook(visible=0)  # type: ignore[arg-type]


def test_a_texture_facing_up_is_turned_to_the_heading(window: arcade.Window) -> None:
    """arcade's space-shooter ships point up: facing=90 turns their nose to the heading."""
    image = Image.new("RGBA", (20, 40))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 19, 39), fill=(0, 0, 255))
    draw.rectangle((0, 0, 19, 9), fill=(255, 0, 0))  # the nose, at the top of the image
    ship = arcade.Texture(image, hash="test-ship-up")
    flock = shoal.install(FlockConfig(320, 240, seed=1), [Species("ship", min_speed=50)])
    shoal.add_rendering(flock, looks={"ship": SpeciesLook(ship, 2.0, heading_smoothing=0,
                                                          facing=90)})  # fmt: skip
    flock.spawn("ship", [(160, 120)], [(60, 0)])  # heading right
    pixels = picture(window, lambda: flock.draw(1.0))
    nose, body = colour_centre(pixels, (255, 0, 0)), colour_centre(pixels, (0, 0, 255))
    assert nose[0] > body[0] + 10 and abs(nose[1] - body[1]) < 3
    shoal.uninstall(flock)
