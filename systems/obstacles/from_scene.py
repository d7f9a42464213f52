"""Obstacles from a host's scene: its wall sprites or a Tiled layer, in one call.

    walls = arcade.SpriteList()            # or tile_map.sprite_lists["walls"]
    ...
    add_obstacles(flock, walls)            # boids steer round them and navigate past them

Duck-typed: no arcade here (only the rendering package imports it). An item may be:

- a sprite: anything with ``hit_box.get_adjusted_points()`` (arcade 3's sprites, tiles of a
  tile layer included): its hit box, in world coordinates, becomes a polygon;
- a Tiled object: anything with a ``shape`` that is a list of at least three (x, y) points
  (arcade's ``TiledObject`` of an object layer: rectangles and polygons);
- a `Circle`, `Rect` or `Polygon`.

Axis-aligned boxes side by side (a wall built of tiles) are merged into larger rectangles,
so that a wall of 40 tiles is one obstacle, not 40 (fewer to test, and no seams to push
boids into).
"""

from collections.abc import Iterable, Sequence
from itertools import islice
from numbers import Integral
from typing import TYPE_CHECKING

import esper

from shoal.components import arguments as check
from shoal.components.obstacle import Circle, Obstacle, Polygon, Rect, Shape

if TYPE_CHECKING:
    from shoal.systems.core.flock import Flock

MAX_ITEMS = 100_000
"""The most items one call takes (a tile layer of 300 × 300 tiles)."""
# Boxes whose sides agree within this (px) are merged.
_TOUCH = 1e-6

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def obstacle_shapes(items: Iterable[object], merge: bool = True) -> list[Shape]:
    """The obstacle shape of each item (see the module docstring).

    Args:
        items: sprites, Tiled objects or shapes (a SpriteList is an iterable of sprites).
        merge: join axis-aligned boxes that touch into larger rectangles.

    Raises:
        ValueError: an item is none of those, or its outline is not a simple polygon (the
            message names the item's index).
    """
    return _shapes("obstacle_shapes", items, merge)


def add_obstacles(flock: "Flock", items: Iterable[object], merge: bool = True) -> list[int]:
    """Add the items (a wall SpriteList, a Tiled layer, shapes) as obstacles of the flock's
    world; returns the new entities (delete them, or call `remove_obstacles`, to take the
    obstacles away: e.g. when the walls move; `uninstall` removes them with the flock).

    Args:
        flock: the flock whose boids avoid them.
        items: see `obstacle_shapes`.
        merge: join axis-aligned boxes that touch into larger rectangles.
    """
    from shoal.systems.core.flock import Flock

    check.instance("add_obstacles", "flock", flock, Flock)
    shapes = _shapes("add_obstacles", items, merge)
    # Made through the flock, so that `uninstall` takes them away with it.
    return [flock.create_entity(Obstacle(shape)) for shape in shapes]


def remove_obstacles(flock: "Flock", entities: Iterable[int]) -> None:
    """Delete obstacle entities made by `add_obstacles` (from the next step on)."""
    from shoal.systems.core.flock import Flock

    check.instance("remove_obstacles", "flock", flock, Flock)
    if isinstance(entities, str | bytes) or not isinstance(entities, Iterable):
        check.fail("remove_obstacles", "entities", entities, "must be an iterable of entities")
    listed = list(islice(entities, MAX_ITEMS + 1))
    if len(listed) > MAX_ITEMS:
        check.fail("remove_obstacles", "entities", entities, f"must hold at most {MAX_ITEMS}")
    with flock.in_world():
        for entity in listed:  # all checked before any is deleted: a refusal changes nothing
            valid = isinstance(entity, Integral) and not isinstance(entity, bool)
            if (
                not valid
                or not esper.entity_exists(entity)
                or not esper.has_component(entity, Obstacle)
            ):
                check.fail("remove_obstacles", "entities", entity, "is not an obstacle entity")
        for entity in {int(e) for e in listed}:
            esper.delete_entity(entity, immediate=True)


# --- reading items ----------------------------------------------------------------------
def _shapes(owner: str, items: Iterable[object], merge: bool) -> list[Shape]:
    """`obstacle_shapes`, its errors naming `owner`."""
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        check.fail(owner, "items", items, "must be an iterable of sprites or shapes")
    if not isinstance(merge, bool):
        check.fail(owner, "merge", merge, "must be True or False")
    listed = list(islice(items, MAX_ITEMS + 1))
    if len(listed) > MAX_ITEMS:
        check.fail(owner, "items", items, f"must hold at most {MAX_ITEMS} items")
    shapes: list[Shape] = []
    boxes: list[Box] = []
    for k, item in enumerate(listed):
        shape = _shape_of(owner, k, item)
        box = _box_of(shape) if merge else None
        if box is None:
            shapes.append(shape)
        else:
            boxes.append(box)
    return shapes + [_rect(box) for box in _merged(boxes)]


def _shape_of(owner: str, k: int, item: object) -> Shape:
    """The shape of item k, or a ValueError naming it."""
    if isinstance(item, Circle | Rect | Polygon):
        return item
    points = _outline(item)
    if points is None:
        check.fail(
            owner, f"items[{k}]", item,
            "must be a sprite (with a hit_box), a Tiled object (with a shape) or a shape",
        )  # fmt: skip
    try:
        return Polygon(points)
    except ValueError as error:
        raise ValueError(f"{owner}: items[{k}]: {error}") from None


def _outline(item: object) -> Sequence[Sequence[float]] | None:
    """The item's outline as points, or None if it has none."""
    hit_box = getattr(item, "hit_box", None)
    if hit_box is not None and callable(getattr(hit_box, "get_adjusted_points", None)):
        return list(hit_box.get_adjusted_points())
    shape = getattr(item, "shape", None)
    if not isinstance(shape, Sequence) or len(shape) < 3:
        return None
    if all(isinstance(p, Sequence) and len(p) == 2 for p in shape):
        return list(shape)
    return None


def _box_of(shape: Shape) -> Box | None:
    """The box of a shape that is exactly an axis-aligned rectangle, else None."""
    if isinstance(shape, Rect) and shape.angle_degrees % 90.0 == 0.0:
        x0, y0 = min(p[0] for p in shape.corners()), min(p[1] for p in shape.corners())
        x1, y1 = max(p[0] for p in shape.corners()), max(p[1] for p in shape.corners())
        return x0, y0, x1, y1
    if not isinstance(shape, Polygon) or len(shape.points) != 4:
        return None
    xs, ys = sorted({p[0] for p in shape.points}), sorted({p[1] for p in shape.points})
    if len(xs) != 2 or len(ys) != 2:
        return None
    corners = {(x, y) for x in xs for y in ys}
    return (xs[0], ys[0], xs[1], ys[1]) if set(shape.points) == corners else None


def _merged(boxes: list[Box]) -> list[Box]:
    """Boxes that touch joined: first into runs along each row, then runs stacked up."""
    return _join(_join(boxes, along_x=True), along_x=False)


def _join(boxes: list[Box], along_x: bool) -> list[Box]:
    """Join boxes of the same extent across `along_x` whose ends touch or overlap."""
    if along_x:
        keyed = sorted(boxes, key=lambda b: (b[1], b[3], b[0]))
    else:
        keyed = sorted(boxes, key=lambda b: (b[0], b[2], b[1]))
    out: list[Box] = []
    for box in keyed:
        if out and _continues(out[-1], box, along_x):
            last = out[-1]
            out[-1] = (
                (last[0], last[1], max(last[2], box[2]), last[3])
                if along_x
                else (last[0], last[1], last[2], max(last[3], box[3]))
            )
        else:
            out.append(box)
    return out


def _continues(last: Box, box: Box, along_x: bool) -> bool:
    """Whether `box` has `last`'s extent across the axis and starts where `last` ends."""
    if along_x:
        same = abs(last[1] - box[1]) <= _TOUCH and abs(last[3] - box[3]) <= _TOUCH
        return same and box[0] <= last[2] + _TOUCH
    same = abs(last[0] - box[0]) <= _TOUCH and abs(last[2] - box[2]) <= _TOUCH
    return same and box[1] <= last[3] + _TOUCH


def _rect(box: Box) -> Rect:
    x0, y0, x1, y1 = box
    return Rect((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)
