"""How each species is drawn: `SpeciesLook`, and shoal's own procedural textures.

Every texture here is drawn with PIL at run time by this module (no image files, nothing
copied from elsewhere: they are under the project's licence). All face +x, the way a sprite
with angle 0 points, and the head is the brightest part so that a picture shows which way a
boid faces.
"""

from dataclasses import dataclass

import arcade
from PIL import Image, ImageDraw

from shoal.components import arguments as check

Colour = tuple[int, int, int]
"""An (r, g, b) colour, each 0..255."""
Tint = tuple[int, int, int] | tuple[int, int, int, int]
"""A tint: (r, g, b) or (r, g, b, alpha), each 0..255; an `arcade.types.Color` is one."""

FISH_SIZE = (32, 16)
"""Width and height of the default fish texture (px); it faces +x."""

FISH_BODY: Colour = (255, 140, 50)
FISH_HEAD: Colour = (255, 236, 150)
FISH_TAIL: Colour = (205, 85, 35)
EYE: Colour = (20, 20, 30)

SHARK_SIZE = (96, 40)
SHARK_BODY: Colour = (110, 125, 140)
SHARK_BELLY: Colour = (215, 225, 232)
SHARK_FIN: Colour = (80, 92, 105)

BIRD_SIZE = (24, 20)
BIRD_BODY: Colour = (185, 195, 210)
BIRD_HEAD: Colour = (255, 250, 205)

DEFAULT_HEADING_SMOOTHING = 0.08
"""Seconds: the drawn heading closes ~63 % of its gap to the velocity heading in this time.
Long enough to hide step-to-step wobble, short enough that a fish at full turn rate
(300°/s) is drawn no more than ~25° behind its course."""

WHITE: Colour = (255, 255, 255)

# Procedural textures: below 4 px a side the drawing is empty; above 4096 px one texture
# would take 64 MiB (and a sprite that large is not a boid).
MIN_TEXTURE_SIDE = 4
MAX_TEXTURE_SIDE = 4096
# A sprite scale beyond this covers any screen many times over.
MAX_SCALE = 1000.0


@dataclass(frozen=True, slots=True)
class SpeciesLook:
    """How one species is drawn.

    Attributes:
        texture: the sprite texture; None: `fish_texture()`.
        scale: sprite scale (>= 0; 0 draws nothing).
        tint: colour multiplied into the texture: (r, g, b), (r, g, b, alpha) or an
            `arcade.types.Color`, each 0..255 (white keeps the texture's own colours;
            alpha 0 is invisible).
        heading_smoothing: time constant (s) of the filter that turns the drawn heading
            towards the velocity heading; 0 draws the velocity heading as is.
        visible: False hides the species (its boids still swim; default True).
        mirror: for a side view (a fish seen from the side): a boid heading left is drawn
            mirrored left-right and tilted by its climb, never upside down. False
            (default): the texture turns with the heading, as seen from above.
        facing: which way the texture's front points, in degrees counter-clockwise from +x
            (0: to the right, as shoal's own textures; 90: up, as arcade's space-shooter
            ships; 180: to the left).
    """

    texture: arcade.Texture | None = None
    scale: float = 1.0
    tint: Tint = WHITE
    heading_smoothing: float = DEFAULT_HEADING_SMOOTHING
    visible: bool = True
    mirror: bool = False
    facing: float = 0.0

    def __post_init__(self) -> None:
        if self.texture is not None:
            check.instance("SpeciesLook", "texture", self.texture, arcade.Texture)
        check.number("SpeciesLook", "scale", self.scale, low=0.0, high=MAX_SCALE)
        check.number("SpeciesLook", "heading_smoothing", self.heading_smoothing, low=0.0)
        object.__setattr__(self, "tint", tint("SpeciesLook", "tint", self.tint))
        check.instance("SpeciesLook", "visible", self.visible, bool)
        check.instance("SpeciesLook", "mirror", self.mirror, bool)
        check.number("SpeciesLook", "facing", self.facing, low=-360.0, high=360.0)

    @property
    def shown(self) -> bool:
        """Whether the species' sprites can be seen at all (visible, scale and alpha > 0)."""
        return self.visible and self.scale > 0.0 and (len(self.tint) == 3 or self.tint[3] > 0)


def fish_texture(size: tuple[int, int] = FISH_SIZE) -> arcade.Texture:
    """A small fish facing +x: a pale head at the right, a dark forked tail at the left."""
    w, h = _texture_size("fish_texture", size)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    mid = (h - 1) / 2
    draw.polygon([(0, 0), (0.3 * w, mid), (0, h - 1)], fill=FISH_TAIL)
    draw.ellipse((0.18 * w, 0.15 * h, w - 1, 0.85 * h), fill=FISH_BODY)
    draw.ellipse((0.62 * w, 0.22 * h, w - 1, 0.78 * h), fill=FISH_HEAD)
    _eye(draw, 0.80 * w, 0.34 * h, 1)
    return arcade.Texture(image, hash=f"shoal-fish-{w}x{h}")


def shark_texture(size: tuple[int, int] = SHARK_SIZE) -> arcade.Texture:
    """A predator facing +x: a long grey body, a pale snout, fins and a tall tail."""
    w, h = _texture_size("shark_texture", size)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    mid = (h - 1) / 2
    draw.polygon([(0, 0.05 * h), (0.2 * w, mid), (0, 0.95 * h), (0.06 * w, mid)], fill=SHARK_FIN)
    draw.polygon([(0.40 * w, mid), (0.52 * w, 0.0), (0.62 * w, mid)], fill=SHARK_FIN)  # dorsal
    draw.polygon([(0.40 * w, mid), (0.50 * w, h - 1), (0.60 * w, mid)], fill=SHARK_FIN)  # pectoral
    draw.ellipse((0.12 * w, 0.28 * h, w - 1, 0.72 * h), fill=SHARK_BODY)
    draw.ellipse((0.66 * w, 0.34 * h, w - 1, 0.66 * h), fill=SHARK_BELLY)  # pale snout
    _eye(draw, 0.82 * w, 0.43 * h, 1.5)
    return arcade.Texture(image, hash=f"shoal-shark-{w}x{h}")


def bird_texture(size: tuple[int, int] = BIRD_SIZE) -> arcade.Texture:
    """A small bird seen from above, facing +x: swept wings, a pale head at the right."""
    w, h = _texture_size("bird_texture", size)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    mid = (h - 1) / 2
    wings = [(0.05 * w, 0), (0.65 * w, mid), (0.05 * w, h - 1), (0.30 * w, mid)]
    draw.polygon(wings, fill=BIRD_BODY)
    draw.ellipse((0.15 * w, 0.38 * h, 0.80 * w, 0.62 * h), fill=BIRD_BODY)
    draw.ellipse((0.68 * w, 0.33 * h, w - 1, 0.67 * h), fill=BIRD_HEAD)
    return arcade.Texture(image, hash=f"shoal-bird-{w}x{h}")


def colour(owner: str, name: str, value: object) -> Colour:
    """`value` as an (r, g, b) tuple of ints in 0..255, or a ValueError naming it."""
    r, g, b = check.integers(owner, name, value, 3, low=0, high=255)
    return r, g, b


def tint(owner: str, name: str, value: object) -> Tint:
    """`value` as an (r, g, b) or (r, g, b, alpha) tuple of ints in 0..255 (an arcade
    `Color` is a 4-tuple), or a ValueError naming it."""
    if isinstance(value, tuple | list) and len(value) == 4:
        r, g, b, a = check.integers(owner, name, value, 4, low=0, high=255)
        return r, g, b, a
    if isinstance(value, tuple | list) and len(value) == 3:
        return colour(owner, name, value)
    check.fail(owner, name, value, "must be 3 or 4 integers in [0, 255] (r, g, b[, alpha])")


def _texture_size(owner: str, size: object) -> tuple[int, int]:
    """`size` as (width, height) in whole pixels within the texture limits, or ValueError."""
    w, h = check.integers(owner, "size", size, 2, low=MIN_TEXTURE_SIDE, high=MAX_TEXTURE_SIDE)
    return w, h


def _eye(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=EYE)
