"""Building the tank's level from the checked map: size, colour, settings, obstacles,
points and goal, in world coordinates (y up, origin bottom-left)."""

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

from pytiled_parser.layer import Layer as TiledLayer
from pytiled_parser.layer import LayerGroup, ObjectLayer

from shoal.components.species import BOUNDARY_MODES
from shoal.game.level.limits import (
    MAX_CURRENT,
    MAX_FOOD_DROPS,
    MAX_FOOD_TO_EAT,
    MAX_ORDER,
    MAX_TEXT_CHARS,
    MAX_TIME_LIMIT,
)
from shoal.game.level.messages import Where, clip, quote_word
from shoal.game.level.model import (
    DEFAULT_BACKGROUND,
    OBSTACLES_LAYER,
    SPAWNS_LAYER,
    Goal,
    Level,
)
from shoal.game.level.obstacles import Frame, Located, read_obstacles
from shoal.game.level.points import check_crowding, leader_start, place_points
from shoal.game.level.properties import check_names, prop_float, prop_int, prop_text
from shoal.game.level.tiled import colour, tiled_layers, tiled_properties
from shoal.game.level.tree import CheckedMap

_MAP_PROPERTIES = (
    "title",
    "order",
    "boundary",
    "current_x",
    "current_y",
    "fish_home",
    "food_to_eat",
    "min_fish",
    "time_limit",
    "food_drops",
)


def build_level(checked: CheckedMap, path: Path, where: Where) -> Level:
    """The level of a checked map read from `path`."""
    props = tiled_properties(checked.properties, where)
    check_names(props, _MAP_PROPERTIES, "map property", where)
    layers = _object_layers(tiled_layers(checked.layers, where), where)
    frame = Frame(checked.width, checked.height)
    obstacles = tuple(read_obstacles(layers.get(OBSTACLES_LAYER, []), frame))
    frame = replace(frame, obstacles=obstacles)
    at_spawns = where.at_layer(SPAWNS_LAYER)
    placed = place_points(layers[SPAWNS_LAYER], frame, at_spawns)
    boundary = _boundary(props, where)
    check_crowding(placed, frame, boundary, at_spawns)
    return Level(
        name=path.stem,
        # The file's name stands in for a title: shown, so made printable and short.
        title=prop_text(props, "title", clip(path.stem, MAX_TEXT_CHARS) or "level", where),
        path=path,
        order=prop_int(props, "order", 0, where, low=-MAX_ORDER, high=MAX_ORDER),
        width=frame.width,
        height=frame.height,
        background=_background(checked),
        boundary=boundary,
        current=(
            prop_float(props, "current_x", 0.0, where, low=-MAX_CURRENT, high=MAX_CURRENT),
            prop_float(props, "current_y", 0.0, where, low=-MAX_CURRENT, high=MAX_CURRENT),
        ),
        obstacles=tuple(obstacle for _, obstacle in obstacles),
        spawns=tuple(placed.spawns),
        sharks=tuple(placed.sharks),
        food=tuple(placed.food),
        leader=leader_start(placed, frame, at_spawns),
        goal=_goal(props, sum(s.count for s in placed.spawns), bool(placed.homes), where),
        home=placed.homes[0] if placed.homes else None,
        food_drops=_food_drops(props, where),
    )


def _food_drops(props: Mapping[str, object], where: Where) -> int | None:
    """Pellets the player may drop (None: the property is not set, no limit)."""
    if "food_drops" not in props:
        return None
    return prop_int(props, "food_drops", 0, where, low=0, high=MAX_FOOD_DROPS)


def _background(checked: CheckedMap) -> tuple[int, int, int]:
    return DEFAULT_BACKGROUND if checked.background is None else colour(checked.background)


def _boundary(props: Mapping[str, object], where: Where) -> str:
    boundary = prop_text(props, "boundary", "contain", where)
    if boundary not in BOUNDARY_MODES:
        modes = ", ".join(BOUNDARY_MODES)
        where.fail("boundary", boundary, f"must be one of {modes}", word=True)
    return boundary


def _goal(props: Mapping[str, object], fish: int, has_home: bool, where: Where) -> Goal:
    min_fish = prop_int(props, "min_fish", 1, where, low=0)
    if min_fish > fish:
        where.fail("min_fish", min_fish, f"must be at most the {fish} fish the spawns make")
    fish_home = prop_int(props, "fish_home", 0, where, low=0)
    if fish_home > fish:
        where.fail("fish_home", fish_home, f"must be at most the {fish} fish the spawns make")
    if fish_home and not has_home:
        where.fail("fish_home", fish_home, "needs a home (a point object of class 'home')")
    # A level with a home goal asks for no food unless it says so; one without asks for 10.
    food_to_eat = prop_int(props, "food_to_eat", 0 if fish_home else 10, where, low=0,
                           high=MAX_FOOD_TO_EAT)  # fmt: skip
    if not food_to_eat and not fish_home:
        where.fail("food_to_eat", food_to_eat, "must be at least 1 without a fish_home goal")
    return Goal(
        food_to_eat=food_to_eat,
        min_fish=min_fish,
        time_limit=prop_float(props, "time_limit", 0.0, where, low=0.0, high=MAX_TIME_LIMIT),
        fish_home=fish_home,
    )


def _object_layers(layers: Iterable[TiledLayer], where: Where) -> dict[str, list[Located]]:
    """The objects of each object layer by layer name (groups flattened, offsets applied)."""
    found: dict[str, list[Located]] = {}
    for layer, offset in _flatten(layers, (0.0, 0.0)):
        here = where.at_layer(layer.name)
        if layer.name not in (OBSTACLES_LAYER, SPAWNS_LAYER):
            known = f"object layers are {OBSTACLES_LAYER!r} and {SPAWNS_LAYER!r}"
            raise here.error(f"unknown object layer {quote_word(layer.name)} ({known})")
        objects = found.setdefault(layer.name, [])
        objects.extend((here.at_object(o.id, o.name), o, offset) for o in layer.tiled_objects)
    if not found.get(SPAWNS_LAYER):
        raise where.at_layer(SPAWNS_LAYER).error(
            "missing or empty (an object layer named 'spawns' must hold at least one spawn point)"
        )
    return found


def _flatten(
    layers: Iterable[TiledLayer], offset: tuple[float, float]
) -> Iterator[tuple[ObjectLayer, tuple[float, float]]]:
    """Object layers in order, with their offsets (a group's offset adds to its layers')."""
    for layer in layers:
        shift = (offset[0] + layer.offset.x, offset[1] + layer.offset.y)
        if isinstance(layer, LayerGroup):
            yield from _flatten(layer.layers or [], shift)
        elif isinstance(layer, ObjectLayer):
            yield layer, shift
