"""FlockConfig: the world a flock lives in and how it is stepped."""

import math
from dataclasses import dataclass
from typing import Any

from shoal.components.arguments import is_number
from shoal.components.parameters import LARGEST
from shoal.components.species import BOUNDARY_MODES

# The boundary modes as the kernels take them (an index into BOUNDARY_MODES).
BOUNDARY_CONTAIN = BOUNDARY_MODES.index("contain")
BOUNDARY_BOUNCE = BOUNDARY_MODES.index("bounce")
BOUNDARY_WRAP = BOUNDARY_MODES.index("wrap")

UPDATES = ("simultaneous", "sequential")
"""How a flock's boids update in a step: all from the state the step began with, or one
after the other in row order (spawn order), each seeing the boids before it already moved
(the in-place loop of much boids pseudocode; it runs on one thread)."""

MAX_DT = 0.25
"""The longest step shoal takes, in seconds: beyond it fast boids jump through walls."""

MIN_DT = 1e-6
"""The shortest step shoal takes, in seconds: a shorter one is taken as a pause (rates per
second over a step of almost nothing would overflow)."""

# Refuse spawns that would exhaust memory before allocating anything (~200 bytes a boid in
# the store and neighbour lists, plus esper's own objects).
MAX_BOIDS = 2_000_000
"""The most boids a flock holds; larger spawns are refused before allocating."""


def checked_dt(dt: float, owner: str = "step") -> float:
    """`dt` as a float if it is a step length shoal can take, else a ValueError saying why.

    A number in [0, MAX_DT]; 0 (or less than MIN_DT) is a paused step: the flock syncs with
    the world and resolves overlaps, but nothing moves.
    """
    if isinstance(dt, bool) or not isinstance(dt, int | float):
        raise ValueError(f"{owner}: dt = {dt!r} must be a number of seconds")
    value = float(dt)
    if not 0.0 <= value <= MAX_DT:  # also false for NaN
        raise ValueError(
            f"{owner}: dt = {dt!r} s must be in [0, {MAX_DT}] (a longer frame: step several "
            "times with a fixed dt)"
        )
    return value if value >= MIN_DT else 0.0


@dataclass(frozen=True, slots=True)
class FlockConfig:
    """Settings of one flock's world. Immutable and validated on creation.

    The world spans [left, left + width] × [bottom, bottom + height] (px, y up): by default
    from (0, 0); `FlockConfig.from_bounds` takes left, right, bottom, top, an arcade
    rectangle or a tile map instead.

    Attributes:
        width: world width in px (> 0).
        height: world height in px (> 0).
        boundary: ``"contain"``, ``"bounce"`` or ``"wrap"`` (see `BOUNDARY_MODES`).
        margin: ``contain``: distance from an edge at which boids start to turn back (px).
        wall_weight: ``contain``: strength of the walls, which repel like virtual boids
            with an inverse-square falloff.
        dt: the fixed step in seconds, used when `esper.process()` is called without one.
        seed: seed of the flock's random generator (spawn headings, tie-breaks).
        left: x of the world's left edge in px (default 0).
        bottom: y of the world's bottom edge in px (default 0).
        update: ``"simultaneous"`` or ``"sequential"`` (see `UPDATES`).
    """

    width: float = 1280.0
    height: float = 720.0
    boundary: str = "contain"
    margin: float = 60.0
    wall_weight: float = 1.0
    dt: float = 1.0 / 60.0
    seed: int = 0
    left: float = 0.0
    bottom: float = 0.0
    update: str = "simultaneous"

    def __post_init__(self) -> None:
        for name in ("width", "height", "margin", "wall_weight", "dt", "left", "bottom"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"FlockConfig: {name} = {value!r} must be a number")
            if not math.isfinite(value) or abs(value) > LARGEST:
                raise ValueError(
                    f"FlockConfig: {name} = {value!r} must be finite, within ±{LARGEST:g}"
                )
        if self.width <= 0 or self.height <= 0:
            raise ValueError(
                f"FlockConfig: width and height must be > 0, got {self.width} × {self.height}"
            )
        if self.boundary not in BOUNDARY_MODES:
            raise ValueError(
                f"FlockConfig: boundary = {self.boundary!r} must be one of {BOUNDARY_MODES}"
            )
        if self.margin < 0 or 2 * self.margin >= min(self.width, self.height):
            raise ValueError(
                f"FlockConfig: margin = {self.margin} must be in [0, half the smaller side)"
            )
        if self.wall_weight < 0:
            raise ValueError(f"FlockConfig: wall_weight = {self.wall_weight} must be >= 0")
        if not MIN_DT <= self.dt <= MAX_DT:
            raise ValueError(f"FlockConfig: dt = {self.dt} must be in [{MIN_DT}, {MAX_DT}] seconds")
        if self.update not in UPDATES:
            raise ValueError(f"FlockConfig: update = {self.update!r} must be one of {UPDATES}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"FlockConfig: seed = {self.seed!r} must be an integer >= 0")
        # Floats always: numba compiles a kernel once per argument type, and a width of 200
        # (int) beside 1280.0 (float) would compile every kernel twice.
        for name in ("width", "height", "margin", "wall_weight", "dt", "left", "bottom"):
            object.__setattr__(self, name, float(getattr(self, name)))
        if not math.isfinite(max(abs(self.left), abs(self.bottom)) + max(self.width, self.height)):
            raise ValueError(f"FlockConfig: the world {self.bounds} overflows")

    @property
    def wraps(self) -> bool:
        """True for a torus world."""
        return self.boundary == "wrap"

    @property
    def origin(self) -> tuple[float, float]:
        """(left, bottom): the world's lower-left corner in px."""
        return self.left, self.bottom

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) of the world in px."""
        return self.left, self.left + self.width, self.bottom, self.bottom + self.height

    @classmethod
    def from_bounds(cls, bounds: object, **settings: Any) -> "FlockConfig":
        """A config whose world is `bounds`; `settings` are the other fields (seed, ...).

        `bounds` is (left, right, bottom, top) in px; or anything with `left`, `right`,
        `bottom` and `top` (an arcade `Rect`, e.g. ``arcade.LRBT(...)``); or a tile map: an
        `arcade.TileMap` (its size in tiles × tile size × scaling, from its offset) or a
        pytiled_parser `TiledMap` (unscaled, from (0, 0)).

        Raises:
            ValueError: `bounds` is none of those, right <= left or top <= bottom, or a
                setting is invalid (see `FlockConfig`).
        """
        for name in ("width", "height", "left", "bottom"):
            if name in settings:
                raise ValueError(f"FlockConfig.from_bounds: {name} comes from the bounds")
        left, right, bottom, top = bounds_of("FlockConfig.from_bounds", bounds)
        if not (right > left and top > bottom):
            raise ValueError(
                f"FlockConfig.from_bounds: bounds = {(left, right, bottom, top)} must have "
                "right > left and top > bottom"
            )
        return cls(right - left, top - bottom, left=left, bottom=bottom, **settings)


def bounds_of(owner: str, bounds: object) -> tuple[float, float, float, float]:
    """(left, right, bottom, top) of a tuple, a rectangle or a tile map (see
    `FlockConfig.from_bounds`), as floats; ValueError if it is none of those."""
    found: Any = bounds
    if isinstance(bounds, tuple | list) and len(bounds) == 4:
        values = tuple(bounds)
    elif all(hasattr(bounds, side) for side in ("left", "right", "bottom", "top")):
        values = (found.left, found.right, found.bottom, found.top)
    elif all(hasattr(bounds, name) for name in ("tile_width", "tile_height", "scaling")):
        # arcade.TileMap: its width and height count tiles; its tiles are scaled, and placed
        # from its offset (load_tilemap(..., offset=...): a level that starts elsewhere).
        scale = found.scaling
        offset = getattr(found, "offset", (0.0, 0.0))
        x, y = offset if isinstance(offset, tuple) and len(offset) == 2 else (math.nan, math.nan)
        values = (x, x + found.width * found.tile_width * scale, y,
                  y + found.height * found.tile_height * scale)  # fmt: skip
    elif hasattr(bounds, "map_size") and hasattr(bounds, "tile_size"):  # pytiled_parser
        size, tile = found.map_size, found.tile_size
        values = (0, size.width * tile.width, 0, size.height * tile.height)
    else:
        raise ValueError(
            f"{owner}: bounds = {bounds!r:.80} must be (left, right, bottom, top), a rectangle "
            "with left/right/bottom/top, or a tile map"
        )
    if not all(is_number(v) and math.isfinite(v) for v in values):
        raise ValueError(f"{owner}: bounds = {values!r:.80} must be finite numbers (px)")
    left, right, bottom, top = (float(v) for v in values)
    return left, right, bottom, top
