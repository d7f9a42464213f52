"""ShapeBatch: lines, circles, arrows and fills built with numpy as one triangle list.

The debug overlay draws everything it shows in a single OpenGL call: each shape is turned
into coloured triangles here (a line is a thin quad, so widths work on every OpenGL driver),
and the batch hands back one float32 array of vertices (x, y, r, g, b, a; colours 0..255).
No OpenGL and no arcade here, so the geometry can be tested on its own.
"""

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from shoal.systems.core.store import FloatArray

RGBA = tuple[int, int, int, int]
Colours = RGBA | npt.NDArray[np.float64]
"""One colour for every item, or one per item ((n, 4) array, 0..255)."""
Vertices = npt.NDArray[np.float32]
"""(m, 6) float32: x, y, r, g, b, a per vertex, three vertices a triangle."""

CIRCLE_SEGMENTS = 48
"""Segments of a circle outline: smooth at the radii the overlay draws (up to ~200 px)."""

ARROW_HEAD = 7.0
"""Length of an arrow head (px); its half-width is half that."""


class ShapeBatch:
    """Collects shapes as triangles; `vertices()` returns them all, in the order added.

    Later shapes are drawn over earlier ones. Points are world coordinates (what arcade draws
    with the default camera: pixels, y up).
    """

    def __init__(self) -> None:
        self._chunks: list[Vertices] = []
        self._count = 0

    def __len__(self) -> int:
        """Number of vertices so far."""
        return self._count

    def vertices(self) -> Vertices:
        """Every triangle added, as one (m, 6) float32 array."""
        if not self._chunks:
            return np.zeros((0, 6), np.float32)
        return np.concatenate(self._chunks)

    # --- primitives ----------------------------------------------------------------------
    def triangles(self, corners: npt.ArrayLike, colour: Colours) -> None:
        """Filled triangles: `corners` is (n, 3, 2), or (3n, 2) with three points a triangle;
        `colour` one for all or one per triangle."""
        points = np.asarray(corners, np.float64).reshape(-1, 2)
        if len(points) == 0:
            return
        chunk = np.empty((len(points), 6), np.float32)
        chunk[:, :2] = points
        chunk[:, 2:] = _per_vertex(colour, len(points) // 3, 3)
        self._chunks.append(chunk)
        self._count += len(chunk)

    def lines(
        self, starts: npt.ArrayLike, ends: npt.ArrayLike, colour: Colours, width: float
    ) -> None:
        """Straight segments from each of `starts` ((n, 2)) to the matching one of `ends`;
        `colour` one for all or one per segment."""
        a = np.asarray(starts, np.float64).reshape(-1, 2)
        b = np.asarray(ends, np.float64).reshape(-1, 2)
        if len(a) == 0:
            return
        along = b - a
        length = np.maximum(np.hypot(along[:, 0], along[:, 1]), 1e-9)[:, None]
        side = np.column_stack((-along[:, 1], along[:, 0])) / length * (width / 2)
        quad = np.stack((a + side, a - side, b + side, b + side, a - side, b - side), axis=1)
        self.triangles(quad, _per_item(colour, 2))

    def polyline(
        self, points: npt.ArrayLike, colour: RGBA, width: float, *, closed: bool = False
    ) -> None:
        """Segments joining consecutive `points` ((n, 2)); `closed` joins the last to the first."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        if len(p) < 2:
            return
        ends = np.roll(p, -1, axis=0) if closed else p[1:]
        self.lines(p if closed else p[:-1], ends, colour, width)

    def polygons(self, outlines: Iterable[npt.ArrayLike], colour: RGBA, width: float) -> None:
        """Closed outlines, each (k, 2)."""
        for outline in outlines:
            self.polyline(outline, colour, width, closed=True)

    def circles(
        self, centres: npt.ArrayLike, radii: npt.ArrayLike, colour: RGBA, width: float
    ) -> None:
        """Circle outlines: `centres` (n, 2), `radii` (n,) or one radius for all."""
        c = np.asarray(centres, np.float64).reshape(-1, 2)
        r = np.broadcast_to(np.asarray(radii, np.float64), (len(c),))
        if len(c) == 0:
            return
        ring = _UNIT_CIRCLE
        points = c[:, None, :] + r[:, None, None] * ring[None, :, :]
        self.lines(points[:, :-1].reshape(-1, 2), points[:, 1:].reshape(-1, 2), colour, width)

    def sector(
        self,
        centre: tuple[float, float],
        radius: float,
        start: float,
        end: float,
        colour: RGBA,
    ) -> None:
        """A filled pie slice from angle `start` to `end` (radians, counter-clockwise)."""
        steps = max(2, int(np.ceil(abs(end - start) / (2 * np.pi) * CIRCLE_SEGMENTS)))
        angles = np.linspace(start, end, steps + 1)
        rim = np.asarray(centre) + radius * np.column_stack((np.cos(angles), np.sin(angles)))
        hub = np.broadcast_to(np.asarray(centre, np.float64), (steps, 2))
        self.triangles(np.stack((hub, rim[:-1], rim[1:]), axis=1), colour)

    def arrows(
        self, starts: npt.ArrayLike, vectors: npt.ArrayLike, colour: Colours, width: float
    ) -> None:
        """Arrows from `starts` ((n, 2)) along `vectors` ((n, 2)); zero vectors draw nothing.
        `colour`: one for all or one per arrow."""
        v = np.asarray(vectors, np.float64).reshape(-1, 2)
        a = np.broadcast_to(np.asarray(starts, np.float64).reshape(-1, 2), v.shape)
        length = np.hypot(v[:, 0], v[:, 1])
        keep = length > 1e-9
        a, v, length = a[keep], v[keep], length[keep]
        if not isinstance(colour, tuple):
            colour = colour[keep]
        if len(a) == 0:
            return
        unit = v / length[:, None]
        head = np.minimum(ARROW_HEAD, length)[:, None]
        tip = a + v
        base = tip - unit * head
        side = np.column_stack((-unit[:, 1], unit[:, 0])) * head / 2
        self.lines(a, base, colour, width)
        self.triangles(np.stack((tip, base + side, base - side), axis=1), colour)

    def dots(self, points: npt.ArrayLike, colour: RGBA, size: float) -> None:
        """Filled squares `size` px wide centred on `points` ((n, 2))."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        if len(p) == 0:
            return
        h = size / 2
        corners = np.array([(-h, -h), (h, -h), (h, h), (-h, -h), (h, h), (-h, h)])
        self.triangles(p[:, None, :] + corners[None, :, :], colour)


def _circle(segments: int) -> FloatArray:
    angles = np.linspace(0.0, 2 * np.pi, segments + 1)
    return np.column_stack((np.cos(angles), np.sin(angles)))


_UNIT_CIRCLE = _circle(CIRCLE_SEGMENTS)  # closed: the last point is the first


def _per_item(colour: Colours, repeat: int) -> Colours:
    """Per-item colours repeated for each of the `repeat` parts an item is made of."""
    return colour if isinstance(colour, tuple) else np.repeat(np.asarray(colour), repeat, axis=0)


def _per_vertex(colour: Colours, triangles: int, repeat: int) -> npt.ArrayLike:
    """Colours for every vertex of `triangles` triangles (or one colour to broadcast)."""
    if isinstance(colour, tuple):
        return colour
    colours = np.asarray(colour, np.float64).reshape(-1, 4)
    if len(colours) != triangles:
        raise ValueError(f"ShapeBatch: {len(colours)} colours for {triangles} triangles")
    return np.repeat(colours, repeat, axis=0)
