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

A tile map's walls are tens of thousands of sprites (arcade's procedural cave: 74,000), so
arcade's own unrotated sprites are read in bulk (`_tile_boxes`: their hit boxes' shared
points, positions and scales, into numpy), and boxes on a lattice are merged on an
occupancy grid (`_lattice_merged`); anything else takes the general, per-item path.
`add_obstacles` then compiles the flock's obstacle field, so that the next step does not
pay for it.
"""

from collections.abc import Iterable, Sequence
from itertools import chain, islice
from numbers import Integral
from operator import attrgetter
from typing import TYPE_CHECKING

import esper
import numpy as np

from shoal.components import arguments as check
from shoal.components.obstacle import Circle, Obstacle, Polygon, Rect, Shape
from shoal.components.parameters import MAX_COORDINATE
from shoal.systems.core.store import BoolArray, FloatArray, IntArray

if TYPE_CHECKING:
    from shoal.systems.flock.flock import Flock

MAX_ITEMS = 100_000
"""The most items one call takes (a tile layer of 300 × 300 tiles)."""
# Boxes whose sides agree within this (px) are merged.
_TOUCH = 1e-6
# The hit boxes whose adjusted points `_tile_boxes` computes itself (module, class name):
# arcade 3's, whose points are scaled, then rotated by -angle, then moved to the position.
_ARCADE_HIT_BOXES = frozenset({
    ("arcade.hitbox.base", "HitBox"), ("arcade.hitbox.base", "RotatableHitBox"),
})  # fmt: skip
_POINTS, _POSITION, _SCALE = attrgetter("points"), attrgetter("position"), attrgetter("scale")
# A box this thin for its distance from the origin may fail `Polygon`'s zero-area check (at
# 1e-12 of the span squared; the shoelace's rounding is ~1e-15 of it): it takes the general
# path, which says so.
_THIN = 2e-12
# The most cells of a lattice's occupancy grid (a byte each): more, and the boxes are merged
# one by one instead.
_MOST_CELLS = 1 << 24

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
    Compiles the flock's obstacle field before it returns (arcade's cave of 74,000 wall
    tiles: ~0.3 s in all), so that the next step costs what any other does.

    Args:
        flock: the flock whose boids avoid them.
        items: see `obstacle_shapes`.
        merge: join axis-aligned boxes that touch into larger rectangles.
    """
    from shoal.systems.flock.flock import Flock
    from shoal.systems.obstacles.field import refresh_obstacles

    check.instance("add_obstacles", "flock", flock, Flock)
    shapes = _shapes("add_obstacles", items, merge)
    # Made through the flock, so that `uninstall` takes them away with it.
    entities = [flock.create_entity(Obstacle(shape)) for shape in shapes]
    # Compiled now, not in the next step: a tile map's walls take a tenth of a second.
    refresh_obstacles(flock)
    return entities


def remove_obstacles(flock: "Flock", entities: Iterable[int]) -> None:
    """Delete obstacle entities made by `add_obstacles` (from the next step on), and
    compile the flock's obstacle field without them."""
    from shoal.systems.flock.flock import Flock
    from shoal.systems.obstacles.field import refresh_obstacles

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
    refresh_obstacles(flock)  # as add_obstacles: the next step finds the field up to date


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
    read, tiles = _tile_boxes(listed) if merge else (np.zeros(0, np.int64), np.zeros((0, 4)))
    rest = np.ones(len(listed), np.bool_)
    rest[read] = False
    for k in np.flatnonzero(rest).tolist():
        shape = _shape_of(owner, k, listed[k])
        box = _box_of(shape) if merge else None
        if box is None:
            shapes.append(shape)
        else:
            boxes.append(box)
    every = np.vstack((tiles, np.array(boxes, np.float64).reshape(-1, 4)))
    return shapes + _rects(_merged(every))


def _tile_boxes(listed: list[object]) -> tuple[IntArray, FloatArray]:
    """The items that are arcade sprites of an unrotated axis-aligned box (a tile map's
    tiles), read in bulk: their indices and (n, 4) boxes x0, y0, x1, y1 in the world.

    The same numbers as `_box_of` of the general path (arcade's adjusted points are the
    points times the scale plus the position, and sprites of one texture share their
    points, classified once here). A sprite of any other kind, or whose box the general
    path might refuse (not finite, too far out, too thin), is left to that path.
    """
    none = np.zeros(0, np.int64), np.zeros((0, 4))
    hit_boxes = [getattr(item, "hit_box", None) for item in listed]
    kinds: dict[type, bool] = {}
    picked: list[int] = []
    for k, hit_box in enumerate(hit_boxes):
        kind = type(hit_box)
        plain = kinds.get(kind)
        if plain is None:
            plain = kinds[kind] = (kind.__module__, kind.__qualname__) in _ARCADE_HIT_BOXES
        if plain:
            picked.append(k)
    if not picked:
        return none
    chosen = [hit_boxes[k] for k in picked]
    # One part at a time, never a tuple per sprite: 74,000 new containers would set off a
    # full collection of the host's heap (0.2 s with arcade's cave in it).
    try:
        points = list(map(_POINTS, chosen))
        position = _pairs(list(map(_POSITION, chosen)))
        scale = _pairs(list(map(_SCALE, chosen)))
        angles = np.array([getattr(hit_box, "angle", 0.0) for hit_box in chosen], np.float64)
    except (AttributeError, TypeError, ValueError):  # not as arcade 3 makes them
        return none
    if position is None or scale is None:
        return none
    # Each distinct points object classified once: (x0, y0, x1, y1) of its box, or NaN.
    shared, which = np.unique(np.array([id(p) for p in points], np.int64), return_inverse=True)
    first = {id(p): p for p in points}
    local = np.array([_local_box(first[key]) for key in shared.tolist()]).reshape(-1, 4)
    local = local[which]
    # Adjusted as arcade does (x * scale_x + position_x), then ordered: a scale may be < 0.
    xa, xb = (local[:, [0, 2]] * scale[:, :1] + position[:, :1]).T
    ya, yb = (local[:, [1, 3]] * scale[:, 1:] + position[:, 1:]).T
    boxes = np.column_stack(
        (np.minimum(xa, xb), np.minimum(ya, yb), np.maximum(xa, xb), np.maximum(ya, yb))
    )
    with np.errstate(invalid="ignore", over="ignore"):
        span = np.abs(boxes).max(axis=1)
        width, height = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
        fine = (
            (angles == 0.0)
            & np.isfinite(boxes).all(axis=1)
            & (span <= MAX_COORDINATE)
            & (width > 0.0)
            & (height > 0.0)
            & (width * height > _THIN * np.maximum(span * span, 1.0))
        )
    return np.array(picked, np.int64)[fine], boxes[fine]


def _pairs(values: list[Sequence[float]]) -> FloatArray | None:
    """(n, 2) floats of n pairs (None unless each is a pair): a third of `np.array`'s time
    on a list of tuples."""
    if set(map(len, values)) - {2}:
        return None
    flat = np.fromiter(chain.from_iterable(values), np.float64, count=2 * len(values))
    return flat.reshape(-1, 2)


def _local_box(points: object) -> tuple[float, float, float, float]:
    """The box of hit-box points that are an axis-aligned rectangle's corners in order
    round it (either way), else NaNs."""
    nothing = (np.nan, np.nan, np.nan, np.nan)
    try:
        ring = np.array(points, np.float64)
    except (TypeError, ValueError):
        return nothing
    if ring.shape != (4, 2) or not np.isfinite(ring).all():
        return nothing
    step = np.roll(ring, -1, axis=0) - ring  # each side moves along exactly one axis
    if not np.all((step == 0.0).sum(axis=1) == 1):
        return nothing
    x0, y0 = ring.min(axis=0)
    x1, y1 = ring.max(axis=0)
    corners = {(x, y) for x in (x0, x1) for y in (y0, y1)}
    if {(float(x), float(y)) for x, y in ring} != corners:
        return nothing
    return float(x0), float(y0), float(x1), float(y1)


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


def _merged(boxes: FloatArray) -> FloatArray:
    """Boxes ((n, 4) x0, y0, x1, y1) that touch joined: first into runs along each row, then
    runs stacked up; in the order of x0, x1, then y0."""
    on_lattice = _lattice_merged(boxes)
    if on_lattice is not None:
        return on_lattice
    listed: list[Box] = [(x0, y0, x1, y1) for x0, y0, x1, y1 in boxes.tolist()]
    joined = _join(_join(listed, along_x=True), along_x=False)
    return np.array(joined, np.float64).reshape(-1, 4)


def _lattice_merged(boxes: FloatArray) -> FloatArray | None:
    """`_merged` for boxes on a lattice (a tile map's), on an occupancy grid; None if they
    are not on one.

    A lattice: the boxes that share a left side share their right side too (a column), the
    columns neither overlap nor are thinner than a few `_TOUCH`, and the same across (rows).
    Then a box joins only a neighbour in the next column or row, and only where the two
    lines touch within `_TOUCH`: the very rectangles that joining box by box gives.
    """
    if not len(boxes):
        return boxes
    columns, rows = _lines(boxes[:, 0], boxes[:, 2]), _lines(boxes[:, 1], boxes[:, 3])
    if columns is None or rows is None:
        return None
    column, left, right, touch_x = columns
    row, bottom, top, touch_y = rows
    if len(left) * len(bottom) > _MOST_CELLS:
        return None
    # Runs along each row: a cell continues to the right where the next one is taken and
    # its column touches this one. A spare empty column ends the last runs.
    taken = np.zeros((len(bottom), len(left) + 1), np.bool_)
    taken[row, column] = True
    joins = taken[:, :-1] & taken[:, 1:] & np.append(touch_x, False)
    starts = taken[:, :-1] & ~np.hstack((np.zeros((len(bottom), 1), np.bool_), joins[:, :-1]))
    run_row, first = np.nonzero(starts)
    last = np.nonzero(taken[:, :-1] & ~joins)[1]  # row by row, as the starts
    # Runs of the same columns stacked up, where the next run lies in the next row and the
    # two rows touch.
    order = np.lexsort((run_row, last, first))
    run_row, first, last = run_row[order], first[order], last[order]
    stacked = np.zeros(len(order), np.bool_)
    stacked[1:] = (
        (first[1:] == first[:-1])
        & (last[1:] == last[:-1])
        & (run_row[1:] == run_row[:-1] + 1)
        & np.append(touch_y, False)[run_row[:-1]]
    )
    heads = np.flatnonzero(~stacked)
    tails = np.append(heads[1:], len(order)) - 1
    merged: FloatArray = np.column_stack(
        (left[first[heads]], bottom[run_row[heads]], right[last[heads]], top[run_row[tails]])
    )
    return merged


def _lines(
    low: FloatArray, high: FloatArray
) -> tuple[IntArray, FloatArray, FloatArray, BoolArray] | None:
    """The lattice lines of boxes along one axis (their low and high sides): each box's
    line, each line's low and high side, and whether each line touches the next; None if
    the boxes are not on a lattice along this axis (see `_lattice_merged`)."""
    lows, line = np.unique(low, return_inverse=True)
    highs = np.empty(len(lows))
    highs[line] = high
    if not np.array_equal(highs[line], high):  # a line with two high sides
        return None
    if np.any(highs - lows <= 4 * _TOUCH) or np.any(highs[:-1] > lows[1:] + _TOUCH):
        return None  # too thin, or overlapping: join them box by box
    touch: BoolArray = lows[1:] <= highs[:-1] + _TOUCH
    return line.astype(np.int64), lows, highs, touch


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


def _rects(boxes: FloatArray) -> list[Shape]:
    """A `Rect` of each box ((n, 4) x0, y0, x1, y1), made from columns of floats: no
    container per box (see `_tile_boxes`)."""
    x0, y0, x1, y1 = boxes.T
    columns = ((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)
    x, y, width, height = (column.tolist() for column in columns)
    return [Rect(a, b, w, h) for a, b, w, h in zip(x, y, width, height, strict=True)]
