"""The render stage: the flock's sprites, smoothed, interpolated and fed in bulk.

At each fixed step the stage records where every boid is and turns its drawn heading towards
its velocity (`shoal.systems.render.headings`); `draw(alpha)` draws the blend between the last
two steps (`shoal.systems.render.interpolation`). What is drawn depends only on the steps taken
and on alpha, never on how often the host draws, and drawing never changes the simulation.
`draw()` without an alpha chooses it (`RenderSystem.auto_alpha`), and draws a paused flock
still.

Importing this module imports arcade: in headless programs set ``ARCADE_HEADLESS=1`` first.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import arcade
import numpy as np
import numpy.typing as npt

from shoal.components import arguments as check
from shoal.systems.core.config import checked_dt
from shoal.systems.core.step import Step
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.render.headings import blend_factors, side_view
from shoal.systems.render.interpolation import DrawHistory, WorldSize
from shoal.systems.render.looks import (
    DEFAULT_HEADING_SMOOTHING,
    MAX_SCALE,
    SpeciesLook,
    colour,
    fish_texture,
)
from shoal.systems.render.sprite_feed import SpriteFactory, SpriteFeed

if TYPE_CHECKING:
    from shoal.systems.flock.flock import Flock

SPECIES_TINTS: tuple[tuple[int, int, int], ...] = (
    (255, 255, 255),  # the first species keeps the texture's own colours
    (140, 220, 255),
    (170, 255, 150),
    (255, 150, 220),
    (255, 255, 120),
)
"""Tint of each species without a look of its own (by species index, repeating)."""


def fixed_fraction() -> float:
    """How far arcade's fixed clock is into the next step, in [0, 1]: the alpha to draw at.

    arcade runs `on_fixed_update` until the fixed clock has caught up with the frame clock;
    the remainder, over the fixed rate, is `arcade.clock.GLOBAL_FIXED_CLOCK.fraction`. It can
    pass 1 when the window's `fixed_frame_cap` skipped steps, hence the clamp.
    """
    return min(max(float(arcade.clock.GLOBAL_FIXED_CLOCK.fraction), 0.0), 1.0)


@dataclass(frozen=True, slots=True)
class DrawnFrame:
    """What the last `frame()` drew: one row per boid, in the store's row order then.

    Attributes:
        entities: entity of each row.
        positions: drawn positions (n, 2), interpolated.
        angles: drawn angles (arcade's clockwise degrees), smoothed and interpolated.
        alpha: the fraction between the last two fixed steps it was drawn at.
        steps: `RenderSystem.steps` when it was drawn (older than the render's: stale).
    """

    entities: IntArray
    positions: FloatArray
    angles: FloatArray
    alpha: float
    steps: int


class RenderSystem(FlockProcessor):
    """Stage 7: one sprite per boid, drawn where it is between fixed steps, facing its way.

    Args:
        flock: the flock to draw.
        looks: per species name, its texture, scale, tint and heading smoothing. Species
            without one get the defaults below.
        texture: default texture, facing +x (default: `fish_texture()`).
        scale: default sprite scale.
        tints: default tint of each species, by species index (repeating).
        heading_smoothing: default time constant (s) of the drawn-heading filter (0: none).
        factory: makes a new boid's sprite from (entity, species index), replacing the looks'
            texture / scale / tint (heading smoothing still applies); it must face +x.
        fast: False forces the feed's per-sprite fallback.

    Attributes:
        sprites: the SpriteList to draw (`draw()` does it). Its sprites' own `position` /
            `angle` are not updated each frame: see `shoal.systems.render.sprite_feed`.
        feed: the `SpriteFeed` that fills it.
        last_frame: what the last `frame()` drew (None before the first).
    """

    def __init__(
        self,
        flock: "Flock",
        *,
        looks: Mapping[str, SpeciesLook] | None = None,
        texture: arcade.Texture | None = None,
        scale: float = 1.0,
        tints: Sequence[tuple[int, int, int]] = SPECIES_TINTS,
        heading_smoothing: float = DEFAULT_HEADING_SMOOTHING,
        factory: SpriteFactory | None = None,
        fast: bool = True,
    ) -> None:
        super().__init__(flock)
        self.looks = _looks(looks)
        if texture is not None:
            check.instance("RenderSystem", "texture", texture, arcade.Texture)
        self.texture = fish_texture() if texture is None else texture
        check.number("RenderSystem", "scale", scale, low=0.0, above=True, high=MAX_SCALE)
        check.number("RenderSystem", "heading_smoothing", heading_smoothing, low=0.0)
        tints = _tints(tints)
        if factory is not None:
            check.function("RenderSystem", "factory", factory)
        check.instance("RenderSystem", "fast", fast, bool)
        self._defaults = [SpeciesLook(self.texture, scale, t, heading_smoothing) for t in tints]
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.feed = SpriteFeed(self.sprites, factory or self._make_sprite, fast=fast)
        self.history = DrawHistory.empty()
        self.last_frame: DrawnFrame | None = None
        self._steps = 0  # fixed steps and snaps recorded: with alpha, what a frame shows
        self._written: tuple[int, float] | None = None
        self._factors: tuple[float, int, FloatArray] = (0.0, -1, np.ones(0))
        # arcade's fixed-clock tick at the last step, and whether that step came on a new
        # tick (then the flock steps in on_fixed_update and a frame may draw between steps).
        self._tick = -1
        self._on_fixed_clock = False
        self._epoch = self.flock.store.epoch

    @property
    def steps(self) -> int:
        """Fixed steps (and `update` snaps) recorded so far."""
        return self._steps

    # --- looks ---------------------------------------------------------------------------
    def look_of(self, species: int) -> SpeciesLook:
        """The look of species index `species` (its own, or the defaults)."""
        check.integer("look_of", "species", species)
        names = self.flock.species.names
        if species < len(names) and names[species] in self.looks:
            return self.looks[names[species]]
        return self._defaults[species % len(self._defaults)]

    def set_look(self, name: str, look: SpeciesLook) -> None:
        """Give species `name` a new look; its boids' sprites change now (a Python loop over
        them: for tuning, not for every frame)."""
        check.text("set_look", "name", name)
        check.instance("set_look", "look", look, SpeciesLook)
        self.looks[name] = look
        self._factors = (0.0, -1, self._factors[2])  # recompute the heading filter
        if name not in self.flock.species:
            return
        store = self.flock.store
        ours = store.entities[store.species == self.flock.species.index(name)]
        for sprite in self.feed.sprites_of(ours):
            self._restyle(sprite, look)

    # --- the fixed step ------------------------------------------------------------------
    def run(self, step: Step) -> None:
        """Record this fixed step (`step.dt`): positions, and headings turned towards the
        velocities."""
        self.advance(step.dt)

    def advance(self, dt: float) -> None:
        """Record the store as the latest fixed step, `dt` seconds after the previous one."""
        if not check.is_number(dt):
            check.fail("advance", "dt", dt, "must be a number of seconds")
        dt = checked_dt(dt, "advance")
        tick = arcade.clock.GLOBAL_FIXED_CLOCK.ticks
        self._on_fixed_clock, self._tick = tick != self._tick, tick
        store = self.flock.store
        self._follow_store()
        factors = self._species_factors(dt)[store.species]
        self.history.advance(store.positions, store.velocities, factors)
        self._steps += 1

    def update(self) -> None:
        """Show the store as it is now: no interpolation until the next step, headings along
        the velocities (e.g. after spawning, before the first step is drawn)."""
        store = self.flock.store
        self._follow_store()
        self.history.snap(store.positions, store.velocities)
        self._steps += 1
        self.frame(1.0)

    # --- drawing -------------------------------------------------------------------------
    def frame(self, alpha: float = 1.0) -> DrawnFrame:
        """Write every sprite's position and angle `alpha` (0..1) of the way from the
        previous fixed step to the latest (1: the latest). Boids added or deleted since the
        latest step are shown or hidden at once."""
        alpha = check.number("frame", "alpha", alpha, low=0.0, high=1.0)
        store = self.flock.store
        self._start_again_if_cleared()
        history = self.history
        if not history.matches(store.entities):
            # Between steps: show the store's boids without recording them, so that what is
            # drawn after the next step does not depend on whether this frame was drawn.
            history = history.follow(store.entities, store.positions, store.velocities)
            self._written = None
        if self.feed.match(history.entities, store.species):
            self._written = None
        key = (self._steps, alpha)
        if self._written != key or self.last_frame is None:
            positions, angles = history.frame(alpha, self._torus(), self.flock.config.origin)
            sides = None
            facing, mirrors = self._species_drawing()
            if facing.any():
                angles = angles + facing[store.species]
            if mirrors.any():
                angles, sides = side_view(angles, mirrors[store.species])
            self.feed.write(positions, angles, sides=sides)
            self.last_frame = DrawnFrame(history.entities, positions, angles, alpha, self._steps)
            self._written = key if history is self.history else None
        return self.last_frame

    def draw(self, alpha: float | None = None) -> None:
        """Draw the flock `alpha` (0..1) of the way between the last two fixed steps (call
        from `on_draw`; 1 draws the latest step). None: `auto_alpha()`."""
        if alpha is None:
            alpha = self.auto_alpha()
        self.frame(check.number("draw", "alpha", alpha, low=0.0, high=1.0))
        self.sprites.draw()

    def auto_alpha(self) -> float:
        """The alpha a frame should draw at, from how the flock is stepped.

        - by `Flock.update` (from `on_update`): the remainder of its clock;
        - in `on_fixed_update` (each step on a new tick of arcade's fixed clock): the
          fixed clock's fraction (`fixed_fraction()`), as long as the last tick stepped;
        - otherwise (paused: ticks pass without a step; or stepped some other way): the
          alpha of the last frame drawn, so a paused flock is drawn exactly still, or 1
          (the latest step) if a step came since.
        """
        clock = self.flock.clock
        if clock is not None:
            return clock.fraction
        if self._on_fixed_clock and arcade.clock.GLOBAL_FIXED_CLOCK.ticks == self._tick:
            return fixed_fraction()
        last = self.last_frame
        return last.alpha if last is not None and last.steps == self._steps else 1.0

    # --- internals -----------------------------------------------------------------------
    def _start_again_if_cleared(self) -> None:
        """After `esper.clear_database` the entity ids start again: an id kept from before
        may name a new boid, which must not inherit the old one's sprite and path."""
        if self.flock.store.epoch == self._epoch:
            return
        self._epoch = self.flock.store.epoch
        self.sprites.clear()
        self.feed = SpriteFeed(self.sprites, self.feed.factory, fast=self.feed.fast_path)
        self.history = DrawHistory.empty()
        self._written = None

    def _follow_store(self) -> None:
        self._start_again_if_cleared()
        store = self.flock.store
        self.history = self.history.follow(store.entities, store.positions, store.velocities)
        self.feed.match(self.history.entities, store.species)
        self._written = None

    def _species_factors(self, dt: float) -> FloatArray:
        """Heading filter factor of each species index for a step of `dt` (cached)."""
        count = len(self.flock.species)
        cached_dt, cached_count, factors = self._factors
        if cached_dt != dt or cached_count != count:
            taus = np.array([self.look_of(i).heading_smoothing for i in range(count)])
            factors = blend_factors(dt, taus)
            self._factors = (dt, count, factors)
        return factors

    def _species_drawing(self) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
        """Per species index: the angle its texture's front points at (arcade's clockwise
        degrees to add to a heading), and whether it is a side view (`SpeciesLook`)."""
        looks = [self.look_of(i) for i in range(len(self.flock.species))]
        facing = np.array([look.facing for look in looks])
        return facing, np.array([look.mirror for look in looks], bool)

    def _torus(self) -> WorldSize | None:
        config = self.flock.config
        return (config.width, config.height) if config.wraps else None

    def _make_sprite(self, entity: int, species: int) -> arcade.Sprite:
        sprite = arcade.Sprite(self.texture)
        self._restyle(sprite, self.look_of(species))
        return sprite

    def _restyle(self, sprite: arcade.Sprite, look: SpeciesLook) -> None:
        sprite.texture = self.texture if look.texture is None else look.texture
        sprite.scale = look.scale
        sprite.color = arcade.types.Color(*look.tint)
        sprite.visible = look.visible


def _looks(looks: object) -> dict[str, SpeciesLook]:
    """`looks` as a dict of species name to `SpeciesLook`, or a ValueError naming the entry."""
    if looks is None:
        return {}
    if not isinstance(looks, Mapping):
        check.fail("RenderSystem", "looks", looks, "must be a mapping of species name to look")
    for name, look in looks.items():
        check.text("RenderSystem", "looks key", name)
        check.instance("RenderSystem", f"looks[{name!r}]", look, SpeciesLook)
    return dict(looks)


def _tints(tints: object) -> tuple[tuple[int, int, int], ...]:
    """`tints` as (r, g, b) tuples (white when empty), or a ValueError naming the entry."""
    if isinstance(tints, str) or not isinstance(tints, Sequence):
        check.fail("RenderSystem", "tints", tints, "must be a sequence of (r, g, b) colours")
    checked = tuple(colour("RenderSystem", f"tints[{k}]", t) for k, t in enumerate(tints))
    return checked or ((255, 255, 255),)
