"""SpriteFeed: every boid's position and heading into an arcade SpriteList, in bulk.

Setting `sprite.position` and `sprite.angle` costs about 2 µs a sprite (20 ms a frame for
10,000 boids), so the feed writes straight into the SpriteList's own per-slot buffer through
a numpy view: a few vectorised numpy calls a frame, whatever the number of boids.

That buffer is an arcade internal. Everything this module knows about arcade's internals is
listed in `fast_path_problem`, which checks it once when a feed is made; if anything is
missing or different the feed logs a warning once and falls back to the ordinary per-sprite
setters (correct, just slow).

What reads stale on the fast path: the feed updates what is *drawn*, not the Sprite objects.
A sprite's own `position`, `angle`, `hit_box` (so arcade's collision functions) and any other
SpriteList that holds it keep the values of the last `sync_sprites()` (or `sprite_of()` for one
sprite, or creation). Use `Flock.query` for "who is near", or call `sync_sprites()` before
using arcade's collision helpers on these sprites. The feed's own SpriteList must have no
spatial hash (it would go stale); such a list gets the fallback path.
"""

import logging
from array import array
from collections.abc import Callable
from typing import Any

import arcade
import numpy as np
import numpy.typing as npt

from shoal.systems.core.store import FloatArray, FlockStore, IntArray, index_in
from shoal.systems.render.drawing import write_sprites
from shoal.systems.render.headings import heading_degrees, kernel_floats, still

# heading_degrees lives in shoal.systems.render.headings; it is re-exported here, where it started.
__all__ = [
    "SUPPORTED_ARCADE_MAJOR",
    "SpriteFactory",
    "SpriteFeed",
    "fast_path_problem",
    "heading_degrees",
]

log = logging.getLogger(__name__)

SpriteFactory = Callable[[int, int], arcade.Sprite]
"""Makes the sprite of a new boid from its (entity, species index)."""

SUPPORTED_ARCADE_MAJOR = 3
"""The arcade major version whose SpriteList internals the fast path was written against."""

# Up to this many removed sprites go one by one; more are found in a single pass.
_FEW = 16

_warned = False


def fast_path_problem(sprites: arcade.SpriteList[Any]) -> str | None:
    """Why the fast path cannot write into `sprites`, or None if it can.

    These are all the arcade internals the feed relies on: `SpriteList.sprite_slot` (sprite ->
    buffer slot), `_sprite_pos_angle_data` (an array('f') of 4 floats a slot: x, y, depth,
    angle in clockwise degrees), `_sprite_size_data` (2 floats a slot: width, height; a
    negative width mirrors) and the `_sprite_pos_angle_changed` / `_sprite_size_changed`
    flags that make `draw()` upload them. A probe sprite on a throwaway list checks the
    layout, not just the names.
    """
    major = arcade.version.VERSION.split(".")[0]
    if major != str(SUPPORTED_ARCADE_MAJOR):
        return f"arcade {arcade.version.VERSION} is not {SUPPORTED_ARCADE_MAJOR}.x"
    if getattr(sprites, "spatial_hash", None) is not None:
        return "the SpriteList has a spatial hash, which the fast path would leave stale"
    for list_ in (sprites, arcade.SpriteList(lazy=True)):
        problem = _attribute_problem(list_)
        if problem:
            return problem
    return _layout_problem()


def _attribute_problem(sprites: arcade.SpriteList[Any]) -> str | None:
    for name in ("_sprite_pos_angle_data", "_sprite_size_data"):
        data = getattr(sprites, name, None)
        if not isinstance(data, array) or data.typecode != "f":
            return f"SpriteList.{name} is not an array('f')"
    if not isinstance(getattr(sprites, "sprite_slot", None), dict):
        return "SpriteList.sprite_slot is not a dict"
    for name in ("_sprite_pos_angle_changed", "_sprite_size_changed"):
        if not isinstance(getattr(sprites, name, None), bool):
            return f"SpriteList.{name} is not a bool"
    return None


def _layout_problem() -> str | None:
    """Check on a throwaway lazy list (no OpenGL) that a slot holds (x, y, depth, angle)."""
    probe_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList(lazy=True)
    probe_list.append(arcade.SpriteSolidColor(4, 4, color=arcade.color.WHITE))  # slot 0
    probe = arcade.SpriteSolidColor(4, 4, 12.5, -7.25, color=arcade.color.WHITE, angle=33.0)
    probe.depth = 0.5
    probe_list.append(probe)
    try:
        slot = probe_list.sprite_slot[probe]
        got = tuple(probe_list._sprite_pos_angle_data[4 * slot : 4 * slot + 4])
        size = tuple(probe_list._sprite_size_data[2 * slot : 2 * slot + 2])
    except (AttributeError, IndexError, KeyError, TypeError) as error:
        return f"SpriteList buffer layout changed ({error!r})"
    if got != (12.5, -7.25, 0.5, 33.0):
        return f"SpriteList slot layout is {got}, expected (x, y, depth, angle)"
    if size != (4.0, 4.0):
        return f"SpriteList size slot is {size}, expected (width, height)"
    return None


class SpriteFeed:
    """Keeps one sprite per boid in an arcade SpriteList and writes their positions and angles.

    Each `update(store)` first matches sprites to the store's rows (adds a sprite for each
    new boid, removes those of deleted boids, follows the rows that swap-remove moved), then
    writes every row's position and heading. Matching costs O(1) Python work when no boid came
    or went, and Python work per added, removed or moved boid otherwise.

    The feed owns its SpriteList: add or remove its sprites only through the flock. (If the
    list's length stops matching, the feed rebuilds it from scratch.)

    Args:
        sprites: the list to fill; None makes one. It must be empty.
        factory: makes the sprite of a new boid from (entity, species index); its texture
            must face +x.
        fast: False forces the per-sprite fallback (for comparison and benchmarks).
    """

    def __init__(
        self,
        sprites: arcade.SpriteList[Any] | None,
        factory: SpriteFactory,
        *,
        fast: bool = True,
    ) -> None:
        self.sprites: arcade.SpriteList[Any] = arcade.SpriteList() if sprites is None else sprites
        if len(self.sprites):
            raise ValueError("SpriteFeed: the SpriteList must start empty")
        self.factory = factory
        self._entities: IntArray = np.zeros(0, np.int64)  # entity of each row, as last matched
        self._species: IntArray = np.zeros(0, np.int64)  # its species (its sprite's look)
        self._slots: npt.NDArray[np.intp] = np.zeros(0, np.intp)  # buffer slot of each row
        self._in_order = True  # slots == arange(n): write with slices, not a scatter
        self._sprite_of: dict[int, arcade.Sprite] = {}
        self._fast = fast and self._check_fast_path()

    @property
    def fast_path(self) -> bool:
        """True when the feed writes arcade's buffer directly (see the module docstring)."""
        return self._fast

    def __len__(self) -> int:
        return len(self._entities)

    # --- per frame -----------------------------------------------------------------------
    def update(self, store: FlockStore) -> None:
        """Match sprites to the store's rows, then draw each boid where it is, facing its way."""
        self.match(store.entities, store.species)
        self.write(store.positions, heading_degrees(store.velocities), store.velocities)

    def match(self, entities: IntArray, species: IntArray) -> bool:
        """Make row i of the feed the sprite of `entities[i]`, adding and removing sprites
        (a boid whose species changed gets a new sprite, made for its new species).

        Returns:
            True if any row changed (then every row must be written again).
        """
        if len(self.sprites) != len(self._entities):
            self._rebuild()  # someone changed our list behind our back
        if (
            len(entities) == len(self._entities)
            and np.array_equal(entities, self._entities)
            and np.array_equal(species, self._species)
        ):
            return False
        slots = self._reordered_slots(entities, species)
        if slots is None:
            self._drop_changed_species(entities, species)
            self._remove_gone(entities)
            self._add_new(entities, species)
            slots = self._mapped_slots(entities)
        self._entities, self._species, self._slots = entities.copy(), species.copy(), slots
        self._in_order = bool(np.array_equal(slots, np.arange(len(slots))))
        return True

    def write(
        self,
        positions: FloatArray,
        angles: FloatArray,
        velocities: FloatArray | None = None,
        sides: FloatArray | None = None,
    ) -> None:
        """Draw row i at `positions[i]` turned by `angles[i]` (arcade's clockwise degrees).

        Rows whose `velocities` are ~0 keep their last angle. `sides` (see
        `headings.side_view`): rows with -1 are drawn mirrored left-right, +1 not, 0 as they
        are. Call `match` first: the rows must be the feed's rows.
        """
        n = len(self._entities)
        if len(positions) != n or len(angles) != n:
            raise ValueError(
                f"SpriteFeed.write: {len(positions)} rows, the feed has {n}; call match() first"
            )
        if n == 0:
            return
        if self._fast:
            self._write_buffer(positions, angles, velocities)
        else:
            self._write_sprites(positions, angles, velocities)
        if sides is not None:
            self._write_sides(sides)

    # --- sprite objects ------------------------------------------------------------------
    def sprite_of(self, entity: int) -> arcade.Sprite:
        """The sprite of boid `entity`, its own position and angle brought up to date."""
        sprite = self._sprite_of[entity]
        if self._fast:
            self._sync_sprite(sprite, self._buffer())
        return sprite

    def sprites_of(self, entities: IntArray) -> list[arcade.Sprite]:
        """The sprites of those of `entities` that the feed has, as they are (on the fast
        path their own position and angle may be stale): to restyle them."""
        sprite_of = self._sprite_of
        return [sprite_of[e] for e in entities.tolist() if e in sprite_of]

    def sync_sprites(self) -> None:
        """Bring every sprite object's position, angle and hit box up to what is drawn.

        Costs ~2 µs a sprite: call it before arcade collision checks, not every frame.
        """
        if not self._fast:
            return
        buffer = self._buffer()
        for sprite in self._sprite_of.values():
            self._sync_sprite(sprite, buffer)

    # --- matching ------------------------------------------------------------------------
    def _reordered_slots(
        self, entities: IntArray, species: IntArray
    ) -> npt.NDArray[np.intp] | None:
        """The slots of the same boids, of the same species, in another row order (the
        flock sorts its rows every so often): each keeps its sprite and slot. None if any
        boid came, went or changed species."""
        if len(entities) != len(self._entities) or len(entities) == 0:
            return None
        source, found = index_in(self._entities, entities)
        if not found.all() or not np.array_equal(self._species[source], species):
            return None
        return self._slots[source]

    def _drop_changed_species(self, entities: IntArray, species: IntArray) -> None:
        """Forget the rows of boids whose species changed: they come back as new ones."""
        _, old, new = np.intersect1d(
            self._entities, entities, assume_unique=True, return_indices=True
        )
        changed = old[self._species[old] != species[new]]
        if not len(changed):
            return
        self._remove_sprites(self._entities[changed])
        keep = np.ones(len(self._entities), bool)
        keep[changed] = False
        self._entities, self._slots = self._entities[keep], self._slots[keep]
        self._species = self._species[keep]

    def _remove_gone(self, entities: IntArray) -> None:
        self._remove_sprites(np.setdiff1d(self._entities, entities, assume_unique=True))

    def _remove_sprites(self, gone: IntArray) -> None:
        doomed = [self._sprite_of.pop(entity) for entity in gone.tolist()]
        if len(doomed) <= _FEW:
            for sprite in doomed:
                self.sprites.remove(sprite)
            return
        # SpriteList.remove searches the list (~70 µs a sprite at 10,000): for many, find
        # them all in one pass and pop from the end so the indices stay valid.
        ids = {id(sprite) for sprite in doomed}
        indices = [i for i, sprite in enumerate(self.sprites) if id(sprite) in ids]
        for index in reversed(indices):
            self.sprites.pop(index)

    def _add_new(self, entities: IntArray, species: IntArray) -> None:
        new_rows = np.flatnonzero(~np.isin(entities, self._entities, assume_unique=True))
        for row in new_rows.tolist():
            entity = int(entities[row])
            sprite = self.factory(entity, int(species[row]))
            self.sprites.append(sprite)
            self._sprite_of[entity] = sprite

    def _mapped_slots(self, entities: IntArray) -> npt.NDArray[np.intp]:
        """Row -> slot rebuilt: rows that kept their entity keep their slot (slots are stable
        while a sprite stays in the list), so only moved and new rows cost a dict look-up."""
        old_entities, old_slots = self._entities, self._slots
        kept = min(len(old_entities), len(entities))
        same = np.zeros(len(entities), bool)
        same[:kept] = entities[:kept] == old_entities[:kept]
        slots = np.empty(len(entities), np.intp)
        slots[:kept][same[:kept]] = old_slots[:kept][same[:kept]]
        changed = np.flatnonzero(~same)
        slot_of, sprite_of = self.sprites.sprite_slot, self._sprite_of
        slots[changed] = [slot_of[sprite_of[e]] for e in entities[changed].tolist()]
        return slots

    def _rebuild(self) -> None:
        log.warning("SpriteFeed: its SpriteList was changed from outside; rebuilding it")
        self.sprites.clear()
        self._sprite_of.clear()
        self._entities = np.zeros(0, np.int64)
        self._species = np.zeros(0, np.int64)
        self._slots = np.zeros(0, np.intp)

    # --- writing -------------------------------------------------------------------------
    def _buffer(self) -> npt.NDArray[np.float32]:
        """A (slots, 4) view of x, y, depth, angle. Do not keep it: while a view exists the
        array cannot grow, and arcade grows it when sprites are added."""
        data = self.sprites._sprite_pos_angle_data
        return np.frombuffer(data, np.float32).reshape(-1, 4)

    def _write_buffer(
        self, positions: FloatArray, angles: FloatArray, velocities: FloatArray | None
    ) -> None:
        buffer = self._buffer()
        if velocities is not None:
            stopped = still(velocities)
            if stopped.any():
                angles = np.where(stopped, buffer[self._slots, 3], angles)
        write_sprites(kernel_floats(positions), kernel_floats(angles), self._slots, buffer)
        self.sprites._sprite_pos_angle_changed = True

    def _write_sprites(
        self, positions: FloatArray, angles: FloatArray, velocities: FloatArray | None
    ) -> None:
        """The fallback: arcade's public setters, one sprite at a time."""
        stopped = still(velocities) if velocities is not None else np.zeros(len(angles), bool)
        sprite_of = self._sprite_of
        for entity, (x, y), angle, halted in zip(
            self._entities.tolist(),
            positions.tolist(),
            angles.tolist(),
            stopped.tolist(),
            strict=True,
        ):
            sprite = sprite_of[entity]
            sprite.position = (x, y)
            if not halted:
                sprite.angle = angle

    def _write_sides(self, sides: FloatArray) -> None:
        """Mirror (or unmirror) the rows that `sides` names, by the sign of their width."""
        if not self._fast:
            sprite_of = self._sprite_of
            for entity, side in zip(self._entities.tolist(), sides.tolist(), strict=True):
                if side != 0.0:
                    sprite = sprite_of[entity]
                    sprite.scale_x = abs(sprite.scale_x) * side
            return
        sizes = np.frombuffer(self.sprites._sprite_size_data, np.float32).reshape(-1, 2)
        rows = slice(0, len(self._slots)) if self._in_order else self._slots
        widths = np.abs(sizes[rows, 0])
        sizes[rows, 0] = np.where(sides != 0.0, widths * sides, sizes[rows, 0])
        self.sprites._sprite_size_changed = True

    def _sync_sprite(self, sprite: arcade.Sprite, buffer: npt.NDArray[np.float32]) -> None:
        x, y, _, angle = buffer[self.sprites.sprite_slot[sprite]].tolist()
        sprite.position = (x, y)  # the setters also move the hit box
        sprite.angle = angle

    def _check_fast_path(self) -> bool:
        problem = fast_path_problem(self.sprites)
        if problem is None:
            return True
        global _warned
        if not _warned:
            log.warning("SpriteFeed: per-sprite fallback (slow): %s", problem)
            _warned = True
        return False
