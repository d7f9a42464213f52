"""Small Tiled maps written by hand, for the level tests: a valid 10 × 8 map of 32 px tiles
(320 × 256 px) with one spawn point, and the pieces to build others."""

import json
import math
from pathlib import Path
from typing import Any

MAP_W, MAP_H, TILE = 10, 8, 32  # 320 × 256 px
H = MAP_H * TILE


def tiled_object(ident: int, kind: str, x: object, y: object, **extra: Any) -> dict[str, Any]:
    """A rectangle object (or any other, given its keys) of class `kind`."""
    obj = {"id": ident, "name": f"o{ident}", "type": kind, "x": x, "y": y, "width": 0}
    obj.update(height=0, rotation=0, visible=True)
    obj.update(extra)
    return obj


def point(ident: int, kind: str, x: float, y: float, **props: Any) -> dict[str, Any]:
    """A point object; props: name=(type, value)."""
    properties = [{"name": k, "type": t, "value": v} for k, (t, v) in props.items()]
    return tiled_object(ident, kind, x, y, point=True, properties=properties)


def object_layer(ident: int, name: str, objects: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": ident,
        "name": name,
        "type": "objectgroup",
        "draworder": "topdown",
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
        "objects": objects,
    }


def tiled_map(
    obstacles: list[dict[str, Any]] | None = None,
    spawns: list[dict[str, Any]] | None = None,
    props: dict[str, tuple[str, Any]] | None = None,
) -> dict[str, Any]:
    """A valid Tiled 1.10 map, 10 × 8 tiles of 32 px, no tilesets."""
    if spawns is None:
        spawns = [point(100, "spawn", 40, 40, count=("int", 10), radius=("float", 20))]
    return {
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": MAP_W,
        "height": MAP_H,
        "tilewidth": TILE,
        "tileheight": TILE,
        "nextlayerid": 3,
        "nextobjectid": 200,
        "backgroundcolor": "#102030",
        "properties": [{"name": k, "type": t, "value": v} for k, (t, v) in (props or {}).items()],
        "tilesets": [],
        "layers": [
            object_layer(1, "obstacles", obstacles or []),
            object_layer(2, "spawns", spawns),
        ],
    }


def write(directory: Path, content: dict[str, Any] | str, name: str = "test.tmj") -> Path:
    """Write a map (or any text) into the folder; returns its path."""
    path = directory / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


def circle_polygon(n: int, radius: float) -> list[dict[str, float]]:
    """A Tiled polygon of n points on a circle about the object's position."""
    turns = (2 * math.pi * k / n for k in range(n))
    return [{"x": radius * math.cos(t), "y": radius * math.sin(t)} for t in turns]
