"""DebugOverlay: what one boid sees and why it turns, drawn over the flock in one batch.

For a selected boid: its perception radius, field-of-view cone and separation radius, lines
to the neighbours it saw, and its steering terms as arrows coloured per rule. For the whole
flock: the neighbour grid's cells. Other systems add their own layers (obstacle outlines, a
leader's radius, ...) as functions that add shapes to the batch::

    overlay = DebugOverlay(flock, render)
    overlay.add_layer("leader", circles_layer(lambda: ([leader.xy], [follow_range]), YELLOW))
    overlay.enabled = True
    overlay.select_nearest(mouse_x, mouse_y)
    ...
    overlay.draw()                                  # in on_draw, after the flock

Everything is built with numpy into one triangle list (`ShapeBatch`) and drawn with a single
OpenGL call, whatever the number of cells, neighbours and layers.

Importing this module imports arcade: in headless programs set ``ARCADE_HEADLESS=1`` first.
"""

import math
from collections.abc import Callable, Iterable

import arcade
import numpy as np
import numpy.typing as npt

from shoal.components import arguments as check
from shoal.components.species import Species
from shoal.systems.core.store import FloatArray
from shoal.systems.flock.flock import Flock
from shoal.systems.render.overlay_shapes import RGBA, ShapeBatch
from shoal.systems.render.system import RenderSystem
from shoal.systems.render.triangles import TriangleDrawer
from shoal.systems.steering.explain import rule_terms
from shoal.systems.steering.kernel import RULES

__all__ = ["DebugOverlay", "Layer", "applied", "circles_layer", "outlines_layer"]

Layer = Callable[[ShapeBatch], None]
"""Adds shapes to the overlay's batch; called every frame the overlay is drawn."""

GRID_LINES: RGBA = (255, 255, 255, 30)
PERCEPTION: RGBA = (130, 210, 255, 210)
FIELD_OF_VIEW: RGBA = (130, 210, 255, 32)
SEPARATION: RGBA = (255, 130, 130, 170)
NEIGHBOUR_LINES: RGBA = (255, 255, 255, 120)
NEIGHBOUR_DOTS: RGBA = (255, 255, 255, 230)
SELECTED: RGBA = (255, 225, 80, 255)
SELECTED_RING = 14.0  # px: around a fish, not over it
LEGEND_AT = (12.0, 10.0)  # bottom left of the legend (px)
LEGEND_SIZE = 12.0  # its font size (px)
TOTAL_FORCE: RGBA = (255, 255, 255, 255)
RULE_COLOURS: dict[str, RGBA] = {
    "separation": (255, 80, 80, 255),
    "alignment": (80, 230, 100, 255),
    "cohesion": (80, 160, 255, 255),
    "flee": (255, 160, 40, 255),
    "chase": (230, 90, 230, 255),
}
"""Arrow colour of each steering rule (by `steering_kernel` rule name)."""
FLOCKING_RULES = ("separation", "alignment", "cohesion")
"""The rules whose sum the steering stage clamps to the species' max force."""


class DebugOverlay:
    """A toggleable debug view of a flock (see the module docstring).

    Args:
        flock: the flock to explain.
        render: its render stage, if any: shapes then follow the drawn (interpolated)
            positions; without it they use the store's.
        force_scale: arrow length per unit of steering acceleration (px per px/s², i.e. s²);
            None: per species, so that a push of its max force reaches its perception circle.
        line_width: width of the overlay's lines (px).
        show_grid: draw the neighbour grid's cells.
        show_legend: name the arrows' colours (bottom left) while a boid is selected, in
            `draw()`; a host that draws its own text at the bottom turns this off and calls
            `draw_legend` where the legend fits, e.g. in window pixels above its own text.

    Attributes:
        enabled: `draw()` draws only when True (the host toggles it).
        selected: entity of the boid explained, or None.
        layers: extra layers by name, drawn in insertion order after the built-in ones.
    """

    def __init__(
        self,
        flock: "Flock",
        render: "RenderSystem | None" = None,
        *,
        force_scale: float | None = None,
        line_width: float = 1.5,
        show_grid: bool = True,
        show_legend: bool = True,
    ) -> None:
        self.flock = check.instance("DebugOverlay", "flock", flock, Flock)
        if render is not None:
            check.instance("DebugOverlay", "render", render, RenderSystem)
        self.render = render
        if force_scale is not None:
            check.number("DebugOverlay", "force_scale", force_scale, low=0.0, above=True)
        self.force_scale = force_scale
        self.line_width = check.number("DebugOverlay", "line_width", line_width, low=0, above=True)
        self.show_grid = check.instance("DebugOverlay", "show_grid", show_grid, bool)
        self.show_legend = check.instance("DebugOverlay", "show_legend", show_legend, bool)
        self.enabled = False
        self.selected: int | None = None
        self.layers: dict[str, Layer] = {}
        self._gl: TriangleDrawer | None = None
        # The legend's size, and its words with their offsets from its left.
        self._legend: tuple[float, list[tuple[float, arcade.Text]]] | None = None

    # --- control -------------------------------------------------------------------------
    def toggle(self) -> bool:
        """Switch the overlay on or off; returns whether it is now on."""
        self.enabled = not self.enabled
        return self.enabled

    def select(self, entity: int | None) -> None:
        """Explain boid `entity` (None: nobody). KeyError if it is not a boid of the flock."""
        self.selected = None if entity is None else self._boid("select", entity)

    def select_nearest(self, x: float, y: float, max_distance: float = math.inf) -> int | None:
        """Select the boid drawn nearest to (x, y) (e.g. a mouse click), if any is within
        `max_distance`; returns its entity (the selection is unchanged when none is)."""
        x = check.number("select_nearest", "x", x)
        y = check.number("select_nearest", "y", y)
        check.number("select_nearest", "max_distance", max_distance, low=0.0, finite=False)
        entities, positions = self.flock.store.entities, self._positions()
        if len(entities) == 0:
            return None
        offsets = self._shortest(positions - (x, y))
        distance2 = np.einsum("ij,ij->i", offsets, offsets)
        row = int(np.argmin(distance2))
        if distance2[row] > max_distance**2:
            return None
        self.selected = int(entities[row])
        return self.selected

    def add_layer(self, name: str, layer: Layer) -> None:
        """Draw `layer` every frame (replacing any layer of that name)."""
        check.text("add_layer", "name", name)
        # Checked now: a bad layer found at draw time would stop the host's on_draw.
        self.layers[name] = check.function("add_layer", "layer", layer)

    def remove_layer(self, name: str) -> None:
        """Stop drawing layer `name` (no error if there is none)."""
        self.layers.pop(check.text("remove_layer", "name", name), None)

    # --- drawing -------------------------------------------------------------------------
    def draw(self) -> None:
        """Draw the overlay if enabled: one upload and one draw call."""
        if not self.enabled:
            return
        vertices = self.build().vertices()
        if self._gl is None:
            self._gl = TriangleDrawer(arcade.get_window().ctx)
        self._gl.draw(vertices)
        if self.show_legend:
            self.draw_legend(*LEGEND_AT)

    def draw_legend(self, x: float, y: float, size: float = LEGEND_SIZE) -> float:
        """Name the arrows' colours in a row whose bottom left is (x, y), in the coordinates
        of the camera in use, with `size` px text; only while enabled and a boid is selected
        (`draw()` calls it at `LEGEND_AT` unless `show_legend` is off). Returns the row's
        height (0 when nothing was drawn)."""
        x = check.number("draw_legend", "x", x)
        y = check.number("draw_legend", "y", y)
        size = check.number("draw_legend", "size", size, low=0.0, above=True)
        if not self.enabled or self.selected is None or self.selected not in self.flock.store:
            return 0.0
        if self._legend is None or self._legend[0] != size:
            self._legend = size, _legend(size)  # laid out once per size, not every frame
        for offset, text in self._legend[1]:
            text.position = (x + offset, y)
            text.draw()
        return float(max(text.content_height for _, text in self._legend[1]))

    def build(self) -> ShapeBatch:
        """Every shape the overlay shows now (no OpenGL: usable in tests)."""
        batch = ShapeBatch()
        if self.show_grid and len(self.flock.store):
            self._add_grid(batch)
        if self.selected is not None and self.selected in self.flock.store:
            self._add_selected(batch, self.selected)
        for layer in self.layers.values():
            layer(batch)
        return batch

    def forces_of(self, entity: int) -> dict[str, FloatArray]:
        """The steering terms boid `entity` got at the last step, by rule name (px/s²).

        Empty when the neighbours are not current (no step since boids came or went).
        """
        flock = self.flock
        cells, store = flock.step_state.cells, flock.store
        row = store.row(self._boid("forces_of", entity))
        if not self._neighbours_current() or row >= len(cells.row):
            return {}
        terms = rule_terms(flock, int(np.flatnonzero(cells.row == row)[0]))
        return dict(zip(RULES, terms, strict=False))

    def _boid(self, owner: str, entity: object) -> int:
        """`entity` as an int if it is a boid of the flock, else a KeyError naming the call."""
        key = check.entity(owner, entity)
        if key not in self.flock.store:
            raise KeyError(f"{owner}: entity {key} is not a boid of this flock")
        return key

    # --- the built-in layers -------------------------------------------------------------
    def _add_grid(self, batch: ShapeBatch) -> None:
        grid = self.flock.grid
        xs = grid.origin_x + grid.cell_w * np.arange(grid.nx + 1)
        ys = grid.origin_y + grid.cell_h * np.arange(grid.ny + 1)
        top, right = ys[-1], xs[-1]
        starts = np.concatenate(
            (
                np.column_stack((xs, np.full_like(xs, ys[0]))),
                np.column_stack((np.full_like(ys, xs[0]), ys)),
            )
        )
        ends = np.concatenate(
            (
                np.column_stack((xs, np.full_like(xs, top))),
                np.column_stack((np.full_like(ys, right), ys)),
            )
        )
        batch.lines(starts, ends, GRID_LINES, 1.0)

    def _add_selected(self, batch: ShapeBatch, entity: int) -> None:
        flock = self.flock
        row = flock.store.row(entity)
        species = flock.species[flock.species.names[int(flock.store.species[row])]]
        positions = self._positions()
        centre = positions[row]
        vx, vy = flock.store.velocities[row]
        self._add_vision(batch, centre, math.atan2(vy, vx), species)
        if self._neighbours_current():
            self._add_neighbours(batch, entity, centre, positions)
            self._add_forces(batch, entity, centre, species)
        batch.circles([centre], SELECTED_RING, SELECTED, 2.0)

    def _add_vision(
        self, batch: ShapeBatch, centre: FloatArray, heading: float, species: Species
    ) -> None:
        """Perception circle, field-of-view cone (blind spot left clear), separation circle."""
        radius = species.perception_radius
        if species.fov_degrees < 360:
            half = math.radians(species.fov_degrees) / 2
            sides = np.array([heading - half, heading + half])
            batch.sector((centre[0], centre[1]), radius, sides[0], sides[1], FIELD_OF_VIEW)
            edges = centre + radius * np.column_stack((np.cos(sides), np.sin(sides)))
            batch.lines([centre, centre], edges, PERCEPTION, self.line_width)
        batch.circles([centre], radius, PERCEPTION, self.line_width)
        if species.separation_radius > 0:
            batch.circles([centre], species.separation_radius, SEPARATION, self.line_width)

    def _add_neighbours(
        self, batch: ShapeBatch, entity: int, centre: FloatArray, positions: FloatArray
    ) -> None:
        seen = self.flock.neighbours_of(entity)
        if len(seen) == 0:
            return
        ends = centre + self._shortest(positions[self.flock.store.rows(seen)] - centre)
        batch.lines(np.broadcast_to(centre, ends.shape), ends, NEIGHBOUR_LINES, self.line_width)
        batch.dots(ends, NEIGHBOUR_DOTS, 4.0)

    def _add_forces(
        self, batch: ShapeBatch, entity: int, centre: FloatArray, species: Species
    ) -> None:
        scale = self.force_scale
        if scale is None:  # a push of max force reaches the perception circle
            finite = math.isfinite(species.max_force) and species.max_force > 0
            scale = species.perception_radius / species.max_force if finite else 0.3
        longest = 2 * species.perception_radius
        forces = self.forces_of(entity)
        if not forces:
            return
        arrows = np.array([_capped(force * scale, longest) for force in forces.values()])
        colours = np.array([RULE_COLOURS.get(name, TOTAL_FORCE) for name in forces], np.float64)
        batch.arrows(centre, arrows, colours, 2.5)
        batch.arrows(centre, _capped(applied(forces, species) * scale, longest), TOTAL_FORCE, 1.5)

    def _neighbours_current(self) -> bool:
        """Whether the last step's neighbours still refer to the store's rows (no boid came or
        went since)."""
        flock = self.flock
        return flock.step_state.layout == flock.store.layout and flock.step_state.number > 0

    # --- positions -----------------------------------------------------------------------
    def _positions(self) -> FloatArray:
        """Positions as drawn this step, in the store's rows; the store's own when nothing
        was drawn since the last step or boids came or went since."""
        store = self.flock.store
        if self.render is None or self.render.last_frame is None:
            return store.positions
        frame = self.render.last_frame
        current = frame.steps == self.render.steps
        if current and np.array_equal(frame.entities, store.entities):
            return frame.positions
        return store.positions

    def _shortest(self, offsets: FloatArray) -> FloatArray:
        """Offsets the short way round in a torus world (unchanged otherwise)."""
        config = self.flock.config
        if not config.wraps:
            return offsets
        size = np.array([config.width, config.height])
        shortest: FloatArray = offsets - size * np.round(offsets / size)
        return shortest


def circles_layer(
    source: Callable[[], tuple[npt.ArrayLike, npt.ArrayLike]], colour: RGBA, width: float = 1.5
) -> Layer:
    """A layer of circle outlines; `source()` gives (centres (n, 2), radii (n,)) each frame."""
    _check_layer("circles_layer", source, colour, width)

    def layer(batch: ShapeBatch) -> None:
        centres, radii = source()
        batch.circles(centres, radii, colour, width)

    return layer


def outlines_layer(
    source: Callable[[], Iterable[npt.ArrayLike]], colour: RGBA, width: float = 1.5
) -> Layer:
    """A layer of closed outlines; `source()` gives polygons ((k, 2) each) every frame."""
    _check_layer("outlines_layer", source, colour, width)

    def layer(batch: ShapeBatch) -> None:
        batch.polygons(source(), colour, width)

    return layer


def applied(forces: dict[str, FloatArray], species: Species) -> FloatArray:
    """What the steering stage adds up from these terms: the flocking rules (separation,
    alignment, cohesion) clamped to the species' max force, plus the others (flee, chase)."""
    check.instance("applied", "species", species, Species)
    if not isinstance(forces, dict):
        check.fail("applied", "forces", forces, "must be a dict of rule name to (2,) force")
    for name, force in forces.items():
        if not (isinstance(force, np.ndarray) and force.shape == (2,)):
            check.fail("applied", f"forces[{name!r}]", force, "must be a (2,) array")
    flocking = sum((forces[r] for r in FLOCKING_RULES if r in forces), np.zeros(2))
    length = float(np.hypot(*flocking))
    if length > species.max_force:
        flocking = flocking * (species.max_force / length)
    others = [force for name, force in forces.items() if name not in FLOCKING_RULES]
    total: FloatArray = flocking + sum(others, np.zeros(2))
    return total


def _check_layer(owner: str, source: object, colour: object, width: object) -> None:
    """ValueError unless a layer's source can be called and its colour and width are sound."""
    check.function(owner, "source", source)
    check.integers(owner, "colour", colour, 4, low=0, high=255)
    check.number(owner, "width", width, low=0.0, above=True)


def _legend(size: float) -> list[tuple[float, arcade.Text]]:
    """One coloured word per arrow, each with its offset from the row's left; anchored at
    their bottoms."""
    words: list[tuple[float, arcade.Text]] = []
    x = 0.0
    for name, colour in (*RULE_COLOURS.items(), ("total", TOTAL_FORCE)):
        text = arcade.Text(name, 0.0, 0.0, arcade.types.Color(*colour), size, anchor_y="bottom")
        words.append((x, text))
        x += text.content_width + size * 14 / 12  # a gap of 14 px at the usual 12 px size
    return words


def _capped(vector: FloatArray, longest: float) -> FloatArray:
    """`vector`, shortened to `longest` if longer (arrows stay on screen)."""
    length = float(np.hypot(*vector))
    return vector * (longest / length) if length > longest else vector
