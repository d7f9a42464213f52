"""Object templates: the .tj files a map names, each read and checked once.

A map may place one template thousands of times; reading it for every object (as
pytiled_parser does) made a 100 kB map with one 3 MB template read gigabytes. Here each
file is read once, is small (`MAX_TEMPLATE_BYTES`), and a map names at most `MAX_TEMPLATES`.
A template must be a JSON template (.tj, or .json from older Tiled) of one object that is
not a tile and names no further template.
"""

from pathlib import Path
from typing import Any

from shoal.game.level.limits import MAX_TEMPLATE_BYTES, MAX_TEMPLATES
from shoal.game.level.messages import Where, quote
from shoal.game.level.reading import read_json
from shoal.game.level.schema import OBJECT_KEYS, OBJECT_OPTIONAL, check_keys, check_properties

_SUFFIXES = (".tj", ".json")


class Templates:
    """The templates of one map, by the name the map gives them.

    Args:
        folder: the map's folder: template names are relative to it.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._objects: dict[str, dict[str, Any]] = {}

    def object(self, name: str, where: Where) -> dict[str, Any]:
        """The template's object (checked like an object of the map, keys may be missing)."""
        if name not in self._objects:
            if len(self._objects) >= MAX_TEMPLATES:
                why = f"one template file too many (at most {MAX_TEMPLATES} in a map)"
                raise where.error(f"template {quote(name)}: {why}")
            self._objects[name] = self._read(name, where)
        return self._objects[name]

    def _read(self, name: str, where: Where) -> dict[str, Any]:
        what = f"template {quote(name)}: "
        if not name.lower().endswith(_SUFFIXES):
            raise where.error(f"{what}not a JSON object template (save it from Tiled as .tj)")
        raw = read_json(self.folder / name, where, MAX_TEMPLATE_BYTES, what)
        if "tileset" in raw:
            raise where.error(f"{what}a tile object's template (shoal has no tile objects)")
        obj = raw.get("object")
        if not isinstance(obj, dict):
            where.fail(f"{what}object", obj, "must be an object")
        if "template" in obj:
            where.fail(f"{what}template", obj["template"], "must not be set (one level only)")
        check_keys(obj, OBJECT_KEYS, where, required=False, prefix=what)
        check_keys(obj, OBJECT_OPTIONAL, where, required=False, prefix=what)
        check_properties(obj.get("properties", []), where, prefix=what)
        return obj
