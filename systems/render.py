"""The render stage: the flock's sprites, fed in bulk from the store.

Add it yourself (it needs arcade, so `install` does not)::

    render = RenderSystem(flock)
    esper.add_processor(render, RENDER_PRIORITY)    # in the flock's world
    ...
    def on_draw(self):
        self.clear()
        render.draw()

Importing this module imports arcade: in headless programs set ``ARCADE_HEADLESS=1`` first.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import arcade
from PIL import Image, ImageDraw

from shoal.systems.processor import FlockProcessor
from shoal.systems.sprite_feed import SpriteFactory, SpriteFeed

if TYPE_CHECKING:
    from shoal.systems.flock import Flock

FISH_SIZE = (32, 16)
"""Width and height of the default fish texture (px); it faces +x."""

FISH_BODY = (255, 140, 50)
FISH_HEAD = (255, 236, 150)
FISH_TAIL = (205, 85, 35)
FISH_EYE = (20, 20, 30)

SPECIES_TINTS: tuple[tuple[int, int, int], ...] = (
    (255, 255, 255),  # the first species keeps the texture's own colours
    (140, 220, 255),
    (170, 255, 150),
    (255, 150, 220),
    (255, 255, 120),
)
"""Tint of each species' sprites (by species index, repeating)."""


def fish_texture(size: tuple[int, int] = FISH_SIZE) -> arcade.Texture:
    """A small fish drawn with PIL, facing +x: a pale head at the right, a dark tail at left.

    The head is the brightest part so that a picture shows which way a fish faces.
    """
    w, h = size
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    mid = (h - 1) / 2
    draw.polygon([(0, 0), (0.3 * w, mid), (0, h - 1)], fill=FISH_TAIL)
    draw.ellipse((0.18 * w, 0.15 * h, w - 1, 0.85 * h), fill=FISH_BODY)
    draw.ellipse((0.62 * w, 0.22 * h, w - 1, 0.78 * h), fill=FISH_HEAD)
    eye = (0.80 * w, 0.34 * h)
    draw.ellipse((eye[0] - 1, eye[1] - 1, eye[0] + 1, eye[1] + 1), fill=FISH_EYE)
    return arcade.Texture(image, hash=f"shoal-fish-{w}x{h}")


class RenderSystem(FlockProcessor):
    """Stage 7: keep one sprite per boid and feed their positions and headings each step.

    Args:
        flock: the flock to draw.
        texture: the sprites' texture, facing +x (default: `fish_texture()`).
        scale: sprite scale.
        tints: colour of each species' sprites, by species index (repeating).
        factory: makes a new boid's sprite from (entity, species index), replacing the
            texture / scale / tints defaults; its texture must face +x.
        fast: False forces the feed's per-sprite fallback.

    Attributes:
        sprites: the SpriteList to draw (`draw()` does it). Its sprites' own `position` /
            `angle` are not updated each step: see `shoal.systems.sprite_feed`.
        feed: the `SpriteFeed` that fills it.
    """

    def __init__(
        self,
        flock: "Flock",
        *,
        texture: arcade.Texture | None = None,
        scale: float = 1.0,
        tints: Sequence[tuple[int, int, int]] = SPECIES_TINTS,
        factory: SpriteFactory | None = None,
        fast: bool = True,
    ) -> None:
        super().__init__(flock)
        self.texture = fish_texture() if texture is None else texture
        self.scale = scale
        self.tints = tuple(tints) or ((255, 255, 255),)
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.feed = SpriteFeed(self.sprites, factory or self._make_sprite, fast=fast)

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Feed this step's positions and headings into the sprites."""
        self.update()

    def update(self) -> None:
        """Feed the store now (e.g. after spawning, before the first step is drawn)."""
        # Heading smoothing and interpolation between fixed steps belong here: compute other
        # positions / angles and pass them to self.feed.write after self.feed.match.
        self.feed.update(self.flock.store)

    def draw(self) -> None:
        """Draw the flock (call from `on_draw`)."""
        self.sprites.draw()

    def _make_sprite(self, entity: int, species: int) -> arcade.Sprite:
        sprite = arcade.Sprite(self.texture, scale=self.scale)
        sprite.color = arcade.types.Color(*self.tints[species % len(self.tints)])
        return sprite
