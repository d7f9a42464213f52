"""Navigation: the shortest way round obstacles, as flow fields shared by all who seek one target.

Over 400 lines: the `Navigator` is one stateful object (its pool of fields, when each is
reused or rebuilt, the per-boid queries); the raster is `nav_grid.py`, the kernels
`flow_kernel.py` and `way_kernel.py`.

Each flock has one `Navigator` (`navigator(flock)`). It cuts the world into cells
(`shoal.systems.obstacles.nav_grid`), and keeps fields towards targets (leaders, food,
attractors, prey) and flee maps from threats, each built once and shared by every boid that
needs it, rebuilt when its target moves to another cell (a moving agent's or threat's: more than
`REUSE_CELLS` cells, or out of sight of where it was) or the obstacles change::

    nav = navigator(flock)
    way = nav.way_to((x, y), flock.positions)     # per boid: straight, or round along ...
    way.directions, way.distances                 # ... this direction, this far
    nav.enabled = False                           # goals steer straight again (as with no
                                                  # obstacles)

The goal behaviours use it: a boid whose straight line to its target is free steers exactly as
it would without obstacles; one whose line is blocked steers down the field instead. A field
costs a fast-marching sweep over the cells it needs (at most ~2 ms for a 1920 × 1080 tank);
sampling it costs a boid a few bilinear reads.
"""

import math
import warnings
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from shoal.components import Leader, Position, Predator, Prey
from shoal.components import arguments as check
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.threads import run_chunks
from shoal.systems.flock.ecs import components_of, entities_with
from shoal.systems.obstacles.checks import as_indices, as_limits, as_points
from shoal.systems.obstacles.field import ObstacleField, first_hit, obstacle_field, surface
from shoal.systems.obstacles.flow_kernel import (
    C_DIST,
    WAY_AROUND,
    WAY_UNKNOWN,
    WAY_VISIBLE,
    PoolArray,
)
from shoal.systems.obstacles.nav_grid import (
    MAX_NAV_CELLS,
    NAV_CELL,
    NAV_CLEARANCE,
    NavGrid,
    build_flee,
    build_nav_grid,
    build_seek,
)
from shoal.systems.obstacles.query_kernel import segment_hit
from shoal.systems.obstacles.way_kernel import sample_points, trace

if TYPE_CHECKING:
    from shoal.systems.flock.flock import Flock

MAX_FIELDS = 256
"""Fields kept at once; a target that would need more in one step is sought straight."""
REUSE_CELLS = 2.0
"""A moving target (a leader, sinking food, an attractor: `seek_slots`) or threat
(`flee_slot`) that is at most this many cells from where a field was built for it less than
`REUSE_SECONDS` ago, and sees that spot in a straight line, is given that field, not a new
one: it costs a field every few cells, not every cell. Boids that see the target still
steer at it exactly; the others follow the way to where it was, from where they see it (a
flee map: away from where the threat was, at most 2 cells off)."""
REUSE_SECONDS = 0.25
"""A field is reused (`REUSE_CELLS`) for this long after it was built: a target that stops
gets its own field soon after."""
WINDOW_REUSE = 60.0
"""px: in a window (a big world), a moving target's field is reused while the target is
this near where it was built (and sees that spot, for at most `REUSE_SECONDS`): its fields
reach every boid of the window, at up to a few ms each."""
WINDOW_CELLS = 1 << 17
"""Default `Navigator.max_cells`: a window of 3,620 × 3,620 px in cells of 10 px."""
MIN_CELLS = 1 << 10
"""The least `Navigator.max_cells`."""
WINDOW_MARGIN = 500.0
"""Default `Navigator.margin` (px)."""
WHOLE_WORLD_COARSEST = 1.5
"""A world is rasterized whole if `MAX_NAV_CELLS` cells of at most this many times
`Navigator.cell` cover it."""
MAX_POOL_BYTES = 256 << 20
"""Fields kept at once are fewer than `MAX_FIELDS` where more would take more memory."""
# Fields grow in slots of this many at a time.
_FIRST_SLOTS = 4

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


class NavigationWarning(UserWarning):
    """Navigation had to give something up: cells coarser than asked, or boids outside its
    window (see `Navigator.max_cells`)."""


@dataclass(frozen=True, slots=True)
class Way:
    """Per point: the way to a target (see `Navigator.way_to`).

    Attributes:
        around: True where the straight line is blocked and the way goes round obstacles.
        directions: unit direction to head in now, (n, 2): straight at the target where
            `around` is False.
        distances: length of the way (px; round obstacles, a little more for each px
            near a wall: see `shoal.systems.obstacles.nav_grid.NEAR_COST`); inf where the
            target cannot be reached.
    """

    around: npt.NDArray[np.bool_]
    directions: FloatArray
    distances: FloatArray


@dataclass(slots=True)
class _Entry:
    """One cached field: its pool slot, when it was last used, what its march covered."""

    slot: int
    used: int
    complete: bool
    until: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    x: float = math.nan  # where its target (or threat) was when it was built
    y: float = math.nan
    built: int = 0  # the step it was built in


Key = tuple[str, int, float]


class Navigator:
    """The flow fields of one flock (`navigator(flock)`; one made with its own settings,
    ``Navigator(flock, cell=16)``, becomes the flock's navigator).

    A world that `MAX_NAV_CELLS` cells of at most `WHOLE_WORLD_COARSEST` × `cell` px cover
    (a game's tank) is rasterized whole. A larger one (a scrolling level, a tile map) is
    rasterized through a window round the boids and the leaders, prey and predators they
    react to, `margin` px wider on every side, in cells of `cell` px: fields and ways are
    known inside it, and it moves (a new raster, the fields built again) when they come
    within half a margin of its edge. Where the boids spread wider than `max_cells` cells
    cover, the window keeps to their goals (boids beyond it steer straight); where the goals
    do, and in a larger torus world, the cells grow. Each says so once, with a
    `NavigationWarning` naming `max_cells`.

    Args:
        flock: the flock whose world and obstacles it navigates.
        cell: side of a cell (px, > 0): the narrowest gap a way passes is about
            2 × clearance + a cell.
        clearance: room a way keeps from obstacles (px, >= 0; grown to close walls thinner
            than a cell when cells are large).
        max_cells: the most cells of a window (>= 1,024): its memory, 16 bytes a cell per
            field, and what a field costs to build, ~0.15 µs a cell it reaches.
        margin: room round the boids and their goals that a window covers (px, > 0): ways
            round walls that lead farther out than this are not found.

    Attributes:
        enabled: False makes every goal behaviour steer straight, as with no obstacles.
        builds: how many fields were built so far (a measure of its cost).
        windows: how many windows were rasterized so far.
    """

    def __init__(
        self,
        flock: "Flock",
        cell: float = NAV_CELL,
        clearance: float = NAV_CLEARANCE,
        max_cells: int = WINDOW_CELLS,
        margin: float = WINDOW_MARGIN,
    ) -> None:
        from shoal.systems.flock.flock import Flock

        self._flock = weakref.ref(check.instance("Navigator", "flock", flock, Flock))
        self._cell = check.number("Navigator", "cell", cell, low=0.0, above=True)
        self._clearance = check.number("Navigator", "clearance", clearance, low=0.0)
        self._max_cells = check.integer("Navigator", "max_cells", max_cells, low=MIN_CELLS)
        self._margin = check.number("Navigator", "margin", margin, low=0.0, above=True)
        self.enabled = True
        self.builds = 0
        self.windows = 0
        self._grid: NavGrid | None = None
        self._placed = -1  # the step whose boids the window was last checked against
        self._world: tuple[float, float, bool, tuple[float, float]] | None = None
        self._warned: set[str] = set()  # the warnings given (each once)
        self._entries: dict[Key, _Entry] = {}
        self._free: list[int] = []
        self.pool: PoolArray = np.zeros((0, 1, 1, 4), np.float32)
        _navigators[flock] = self  # the one the flock's stages use

    # --- settings -----------------------------------------------------------------------
    @property
    def cell(self) -> float:
        """Side of a cell (px); setting it rasterizes again."""
        return self._cell

    @cell.setter
    def cell(self, value: float) -> None:
        self._cell = check.number("Navigator", "cell", value, low=0.0, above=True)
        self._grid = None

    @property
    def clearance(self) -> float:
        """Room a way keeps from obstacles (px); setting it rasterizes again."""
        return self._clearance

    @clearance.setter
    def clearance(self, value: float) -> None:
        self._clearance = check.number("Navigator", "clearance", value, low=0.0)
        self._grid = None

    @property
    def max_cells(self) -> int:
        """The most cells of a window; setting it rasterizes again."""
        return self._max_cells

    @max_cells.setter
    def max_cells(self, value: int) -> None:
        self._max_cells = check.integer("Navigator", "max_cells", value, low=MIN_CELLS)
        self._grid = None

    @property
    def margin(self) -> float:
        """Room a window keeps round the boids and their goals (px); setting it places the
        window again."""
        return self._margin

    @margin.setter
    def margin(self, value: float) -> None:
        self._margin = check.number("Navigator", "margin", value, low=0.0, above=True)
        self._grid = None

    # --- the raster ---------------------------------------------------------------------
    @property
    def flock(self) -> "Flock":
        """The flock it navigates.

        Raises:
            RuntimeError: the flock was garbage-collected (the navigator outlived it).
        """
        flock = self._flock()
        if flock is None:
            raise RuntimeError("Navigator: its flock no longer exists")
        return flock

    @property
    def grid(self) -> NavGrid:
        """The walkable raster of the flock's obstacles (rebuilt when they change, and a
        window's moved when what it keeps in view nears its edge: checked once a step).

        A `shoal.systems.obstacles.nav_grid.NavGrid`; what it tells: ``left``, ``bottom``,
        ``width``, ``height`` (what the cells cover: the world, or a window of it),
        ``window`` (whether a window), ``nx``, ``ny`` (cells across and up), ``cell_w``,
        ``cell_h`` (a cell's size, px), ``clearance`` (px), ``blocked`` ((ny, nx), 1 where a
        cell is blocked), ``cell_of(x, y)`` (the cell holding a point)."""
        flock = self.flock
        obstacles = obstacle_field(flock)
        grid, config = self._grid, flock.config
        world = (config.width, config.height, config.wraps, config.origin)
        if grid is None or grid.field is not obstacles or self._world != world:
            self._world = world
            grid = self._rasterize(obstacles)
        elif grid.window and self._placed != self._now():
            self._placed = self._now()
            focus = self._focus()
            if focus is not None and not self._holds(grid, _grown(focus, 0.5 * self._margin)):
                grid = self._rasterize(obstacles, focus)
        return grid

    def _rasterize(self, obstacles: ObstacleField, focus: "Box | None" = None) -> NavGrid:
        """The raster of the whole world or, where that would be coarse, of a window round
        `focus` (see `_focus`; found when not given); empties the pool."""
        config = self.flock.config
        width, height = config.width, config.height
        if config.wraps or _whole_cell(width, height) <= WHOLE_WORLD_COARSEST * self._cell:
            cell = max(self._cell, _whole_cell(width, height))
            if cell > WHOLE_WORLD_COARSEST * self._cell:
                self._warn(
                    "torus",
                    f"a wrapping world of {width:g} × {height:g} px would need more than "
                    f"{MAX_NAV_CELLS:,} cells of {self._cell:g} px: its cells are {cell:.1f} "
                    "px, which close gaps narrower than them",
                )
            grid = build_nav_grid(
                obstacles, width, height, config.wraps, self._cell, self._clearance,
                config.origin,
            )  # fmt: skip
        else:
            grid = self._window(obstacles, focus if focus is not None else self._focus())
            self._placed = self._now()
        self._grid = grid
        self._entries.clear()
        self._free.clear()
        self.pool = np.zeros((0, grid.ny, grid.nx, 4), np.float32)
        return grid

    def _window(self, obstacles: ObstacleField, focus: "Box | None") -> NavGrid:
        """A raster of `max_cells` cells round `focus` (the world's centre when there is
        nothing to look at), `margin` px past it on every side, within the world, its cells
        on the world's lattice (a window moved keeps its cells' edges)."""
        config = self.flock.config
        left, bottom = config.origin
        if focus is None:
            x, y = left + config.width / 2, bottom + config.height / 2
            focus = (x, y, x, y)
        need_w, need_h = self._needs(focus)
        cell = self._cell
        budget = self._max_cells * cell * cell  # px² the cells may cover
        if need_w * need_h > budget:
            cell = math.sqrt(need_w * need_h / self._max_cells)
            budget = need_w * need_h
            self._warn(
                "coarse",
                f"what the window must keep in view (the goals: leaders, prey, predators; "
                f"or the boids, without goals) spans {focus[2] - focus[0]:g} × "
                f"{focus[3] - focus[1]:g} px, more than "
                f"max_cells = {self._max_cells:,} cells of {self._cell:g} px cover: the "
                f"cells are {cell:.1f} px, which close gaps narrower than them",
            )
        side_w = min(config.width, max(need_w, math.sqrt(budget)))
        if need_h > budget / side_w:  # a tall focus: the window as tall as it needs
            side_w = min(config.width, max(need_w, budget / need_h))
        side_h = min(config.height, budget / side_w)
        cells_x, cells_y = math.floor(config.width / cell), math.floor(config.height / cell)
        nx, ny = (
            max(1, min(cells_x, math.floor(side_w / cell))),
            max(1, min(cells_y, math.floor(side_h / cell))),
        )
        middle_x, middle_y = (focus[0] + focus[2]) / 2, (focus[1] + focus[3]) / 2
        i0 = min(max(round((middle_x - left) / cell - nx / 2), 0), max(cells_x - nx, 0))
        j0 = min(max(round((middle_y - bottom) / cell - ny / 2), 0), max(cells_y - ny, 0))
        self.windows += 1
        return build_nav_grid(
            obstacles, nx * cell, ny * cell, False, cell, self._clearance,
            (left + i0 * cell, bottom + j0 * cell), max_cells=nx * ny, window=True,
        )  # fmt: skip

    def _needs(self, box: "Box") -> tuple[float, float]:
        """The width and height a window needs to hold `box` with `margin` round it (at most
        the world's)."""
        config = self.flock.config
        return (
            min(config.width, box[2] - box[0] + 2.0 * self._margin),
            min(config.height, box[3] - box[1] + 2.0 * self._margin),
        )

    def _focus(self) -> "Box | None":
        """What a window keeps in view: the box round the boids and the leaders, prey and
        predator entities of the flock's world; where that needs more than `max_cells`
        cells, round those goals only (boids far from them then steer straight, with a
        warning), or round the boids when there are no goals. None: nothing in the world."""
        flock = self.flock
        goals = _goal_points(flock)
        boids = flock.store.positions
        every = _box(np.concatenate((boids, goals)))
        if every is None or not len(goals):
            return every
        need_w, need_h = self._needs(every)
        if need_w * need_h <= self._max_cells * self._cell * self._cell:
            return every
        self._warn(
            "spread",
            f"the boids spread over {every[2] - every[0]:g} × {every[3] - every[1]:g} px, "
            f"more than max_cells = {self._max_cells:,} cells of {self._cell:g} px cover: "
            "navigation covers the part round their goals, and boids beyond it steer "
            "straight at their goals",
        )
        return _box(goals)

    def _holds(self, grid: NavGrid, box: "Box") -> bool:
        """Whether the grid covers `box`, or reaches the world's edge where `box` passes it
        (a window's far edge stops less than a cell short of it)."""
        config = self.flock.config
        left, bottom = config.origin
        right, top = left + config.width, bottom + config.height
        x0, y0, x1, y1 = box
        gx1, gy1 = grid.left + grid.width, grid.bottom + grid.height
        return (
            (grid.left <= x0 or grid.left <= left)
            and (grid.bottom <= y0 or grid.bottom <= bottom)
            and (gx1 >= x1 or gx1 > right - grid.cell_w)
            and (gy1 >= y1 or gy1 > top - grid.cell_h)
        )

    def _warn(self, kind: str, what: str) -> None:
        """Say once for each `kind` what navigation had to give up (see `max_cells`)."""
        if kind in self._warned:
            return
        self._warned.add(kind)
        warnings.warn(
            f"shoal: Navigator: {what} (raise Navigator.max_cells, or Navigator.cell)",
            NavigationWarning,
            stacklevel=5,
        )

    @property
    def active(self) -> bool:
        """Whether goals navigate: enabled, and the world has obstacles."""
        return self.enabled and len(self.grid.field) > 0

    @property
    def obstacles(self) -> ObstacleField:
        """The obstacles it navigates round."""
        return self.grid.field

    # --- fields -------------------------------------------------------------------------
    def seek_slot(
        self, x: float, y: float, limit: float = math.inf, until: IntArray | None = None
    ) -> int:
        """The pool slot of the field towards (x, y), built if needed; -1 if none is free.

        The march goes out to `limit` (px along the way) or, given `until` (flat cell
        indices), just past those cells; a cached field that does not reach them is
        extended (rebuilt further).

        Raises:
            ValueError: x or y is not a finite number, `limit` is not > 0, or `until` holds
                something other than cell indices of the grid.
        """
        x, y = check.number("seek_slot", "x", x), check.number("seek_slot", "y", y)
        limit = check.number("seek_slot", "limit", limit, low=0.0, above=True, finite=False)
        grid = self.grid
        if until is not None:
            until = as_indices("seek_slot", "until", until, np.size(until), 0, grid.nx * grid.ny)
        return self._seek_slot(grid, x, y, limit, until)

    def _seek_slot(
        self, grid: NavGrid, x: float, y: float, limit: float, until: IntArray | None,
        reuse: bool = False,
    ) -> int:  # fmt: skip
        """`seek_slot`; with `reuse`, a field built for a spot near (x, y) will do (see
        `REUSE_CELLS`)."""
        cx, cy = grid.cell_of(x, y)
        key = ("seek", cy * grid.nx + cx, float(limit))
        entry = self._entries.get(key)
        needs = np.zeros(0, np.int64) if until is None else until
        if entry is None and reuse:
            near = self._near_field(grid, "seek", limit, x, y)
            if near is not None and (near.complete or self._covers(near, needs)):
                near.used = self._now()
                return near.slot
        if entry is not None and (entry.complete or self._covers(entry, needs)):
            entry.used = self._now()
            return entry.slot
        if entry is None:
            slot = self._slot()
            if slot < 0:
                return -1
            entry = self._entries[key] = _Entry(slot, self._now(), False)
        if until is not None:
            needs = np.union1d(entry.until, needs)
        entry.until, entry.used = needs, self._now()
        entry.built, entry.x, entry.y = self._now(), x, y
        stop = needs if until is not None else np.zeros(0, np.int64)
        entry.complete = build_seek(grid, self.pool[entry.slot], x, y, limit, stop)
        self.builds += 1
        return entry.slot

    def flee_slot(self, x: float, y: float, radius: float) -> int:
        """The pool slot of the flee map of a threat at (x, y) out to `radius`; -1 if none
        is free. A map built for a spot within `REUSE_CELLS` cells that (x, y) sees will do
        (a threat moves on every step).

        Raises:
            ValueError: x or y is not a finite number, or `radius` is not > 0.
        """
        x, y = check.number("flee_slot", "x", x), check.number("flee_slot", "y", y)
        radius = check.number("flee_slot", "radius", radius, low=0.0, above=True)
        return self._flee_slot(self.grid, x, y, radius)

    def _flee_slot(self, grid: NavGrid, x: float, y: float, radius: float) -> int:
        """`flee_slot` on good numbers (checked, or a stage's own), with the grid already
        read (a stage reads it once a step: each read checks the world's obstacles)."""
        cx, cy = grid.cell_of(x, y)
        key = ("flee", cy * grid.nx + cx, float(radius))
        entry = self._entries.get(key)
        if entry is None:
            entry = self._near_field(grid, "flee", radius, x, y)
        if entry is not None:
            entry.used = self._now()
            return entry.slot
        slot = self._slot()
        if slot < 0:
            return -1
        self._entries[key] = _Entry(slot, self._now(), True, x=x, y=y, built=self._now())
        build_flee(grid, self.pool[slot], x, y, radius)
        self.builds += 1
        return slot

    def seek_slots(self, targets: FloatArray, limits: FloatArray) -> IntArray:
        """`seek_slot` of each target (row) with its limit; all -1 when not `active`. These
        are the fields of moving agents (leaders, food, attractors): a field built for a
        spot within `REUSE_CELLS` cells of a target that the target sees will do.

        Raises:
            ValueError: `targets` is not an (n, 2) array of finite numbers, or `limits` not
                n numbers > 0.
        """
        targets = as_points("seek_slots", "targets", targets)
        limits = as_limits("seek_slots", "limits", limits, len(targets))
        grid = self.grid
        if not self.enabled or not len(grid.field):
            return np.full(len(targets), -1, np.int64)
        return self._seek_slots(grid, targets, limits)

    def _seek_slots(
        self, grid: NavGrid, targets: FloatArray, limits: FloatArray, until: IntArray | None = None
    ) -> IntArray:
        """`seek_slots` on good arguments (checked, or a stage's own), with the grid (one
        with obstacles) already read; each march goes just past the cells `until` if given
        (see `seek_slot`)."""
        slots = np.full(len(targets), -1, np.int64)
        for k, ((x, y), limit) in enumerate(zip(targets.tolist(), limits.tolist(), strict=True)):
            slots[k] = self._seek_slot(grid, x, y, limit, until, reuse=True)
        return slots

    def sample(
        self, slots: IntArray, points: FloatArray
    ) -> tuple[IntArray, FloatArray, FloatArray]:
        """Each point's way in its field slots[i] (-1: none): WAY_* code, direction,
        distance.

        Raises:
            ValueError: `points` is not an (n, 2) array of finite numbers, or `slots` not n
                pool slots (or -1).
        """
        points = as_points("sample", "points", points)
        grid = self.grid  # first: a new raster empties the pool
        slots = as_indices("sample", "slots", slots, len(points), -1, len(self.pool))
        return self._sample(grid, slots, points)

    def _sample(
        self, grid: NavGrid, slots: IntArray, points: FloatArray
    ) -> tuple[IntArray, FloatArray, FloatArray]:
        """`sample` on good arguments (checked, or a stage's own), with the grid already
        read."""
        n = len(points)
        way = np.zeros(n, np.int64)
        directions = np.zeros((n, 2))
        distances = np.full(n, math.inf)
        if n:
            run_chunks(
                sample_points, n, self.pool, slots, grid.cell_w, grid.cell_h, grid.wrap,
                grid.local(points), way, directions, distances,
            )  # fmt: skip
        return way, directions, distances

    def forget(self) -> None:
        """Drop every field (they are built again when next asked for)."""
        self._free = list(range(len(self.pool) - 1, -1, -1))
        self._entries.clear()

    # --- queries ------------------------------------------------------------------------
    def way_to(
        self, target: tuple[float, float], points: npt.ArrayLike, radius: float = 0.0
    ) -> Way:
        """Per point, the way to `target`: straight where the line is free, else round the
        obstacles (the field's descent); distances along the way.

        Args:
            target: (x, y) in the world.
            points: (n, 2) positions.
            radius: the line counts as free only if a disc this wide (px) passes.

        Raises:
            ValueError: `target` is not a pair of finite numbers, `points` not an (n, 2)
                array of finite numbers, or `radius` is negative.
        """
        x, y = check.pair("way_to", "target", target)
        pts = as_points("way_to", "points", points)
        radius = check.number("way_to", "radius", radius, low=0.0)
        return self._way_to(self.grid, x, y, pts, radius)

    def _way_to(self, grid: NavGrid, x: float, y: float, pts: FloatArray, radius: float) -> Way:
        """`way_to` on checked arguments, with the grid read once (reading `grid` checks
        the obstacles for changes: ~10 µs, and a way asked for it seven times)."""
        offsets = self._offsets(pts, x, y)
        straight = np.hypot(*offsets.T)
        with np.errstate(invalid="ignore", divide="ignore"):
            heading = np.where(straight[:, None] > 0, offsets / straight[:, None], 0.0)
        around = np.zeros(len(pts), np.bool_)
        obstacles = grid.field
        if not (self.enabled and len(obstacles)) or not len(pts):
            return Way(around, heading, straight)
        blocked = first_hit(obstacles, pts, pts + offsets, radius).obstacle >= 0
        if radius > 0.0:  # a disc already touching an obstacle is not stopped by it
            blocked |= surface(obstacles, pts).distance < radius
        if not blocked.any():
            return Way(around, heading, straight)
        # Some line is blocked: the field decides for every point (its visibility keeps
        # the clearance: a line that grazes a rock is taken round it).
        slot = self._seek_slot(grid, x, y, math.inf, grid.cells_of(pts))
        way, directions, distances = self._sample(grid, np.full(len(pts), slot, np.int64), pts)
        # Round where the field says so, and where it sees a line that the exact test
        # found blocked (an obstacle smaller than a cell).
        around = (way == WAY_AROUND) | (blocked & (way == WAY_VISIBLE))
        around &= np.hypot(*directions.T) > 0.0
        heading[around] = directions[around]
        straight[around] = distances[around]
        straight[blocked & (way == WAY_UNKNOWN)] = math.inf  # walled off from the target
        return Way(around, heading, straight)

    def waypoint(
        self, target: tuple[float, float], point: tuple[float, float], ahead: float,
        radius: float = 0.0,
    ) -> tuple[float, float, float]:  # fmt: skip
        """Where to head for from `point` on the way to `target`: the target itself when the
        line is free, else the point `ahead` px along the way round (which follows the way's
        bends); and the way's length from `point`.

        Args:
            target: (x, y) to reach.
            point: (x, y) to start from.
            ahead: how far along the way the waypoint lies (px, >= 0).
            radius: as in `way_to`.

        Raises:
            ValueError: `target` or `point` is not a pair of finite numbers, or `ahead` or
                `radius` is negative.
        """
        tx, ty = check.pair("waypoint", "target", target)
        px, py = check.pair("waypoint", "point", point)
        ahead = check.number("waypoint", "ahead", ahead, low=0.0)
        radius = check.number("waypoint", "radius", radius, low=0.0)
        grid = self.grid
        point_array = np.array([(px, py)])
        way = self._way_to(grid, tx, ty, point_array, radius)
        if not way.around[0]:
            return tx, ty, float(way.distances[0])
        slot = self._seek_slot(grid, tx, ty, math.inf, grid.cells_of(point_array))
        lx, ly = px - grid.left, py - grid.bottom  # the kernel's frame starts at the corner
        x, y, _ = trace(self.pool, slot, grid.cell_w, grid.cell_h, grid.wrap, lx, ly, ahead)
        return x + grid.left, y + grid.bottom, float(way.distances[0])

    # --- internals ----------------------------------------------------------------------
    def _now(self) -> int:
        return self.flock.step_state.number

    def _near_field(
        self, grid: NavGrid, kind: str, reach: float, x: float, y: float
    ) -> "_Entry | None":
        """The field of `kind` ("seek" or "flee") with this limit or radius (`reach`) built
        for the spot nearest (x, y) within `REUSE_CELLS` cells (in a window, `WINDOW_REUSE`
        px) in the last `REUSE_SECONDS`, if (x, y) sees that spot in a straight line."""
        most = REUSE_CELLS * max(grid.cell_w, grid.cell_h)
        if grid.window:  # its fields reach far: each costs more, and is worth more reuse
            most = max(most, WINDOW_REUSE)
        flock = self.flock
        oldest = self._now() - REUSE_SECONDS / (flock.step_state.dt or flock.config.dt)
        best, best_distance = None, math.inf
        for (k, _, r), entry in self._entries.items():
            if k == kind and r == reach and entry.built >= oldest:
                distance = math.hypot(*self._offset(x, y, entry.x, entry.y))
                if distance <= most and distance < best_distance:
                    best, best_distance = entry, distance
        if best is None or not self._sees(grid, (x, y), (best.x, best.y)):
            return None
        return best

    def _sees(self, grid: NavGrid, point: tuple[float, float], spot: tuple[float, float]) -> bool:
        """Whether the straight line from `point` to `spot` (the short way) is free."""
        # One segment straight to the kernel: `first_hit`'s checks and arrays cost ~15 µs,
        # and a step asks this once for each moving goal.
        x, y = point
        dx, dy = self._offset(x, y, *spot)
        return bool(segment_hit(grid.field.geometry, x, y, x + dx, y + dy, 0.0)[3] < 0)

    def _covers(self, entry: _Entry, cells: IntArray) -> bool:
        """Whether the field of `entry` reached every one of `cells` (or they are blocked)."""
        if not len(cells):
            return True
        grid, plane = self._grid, self.pool[entry.slot]
        assert grid is not None
        # Read through a flat view: `plane[..., 0].ravel()` would copy the whole plane.
        distance = plane.reshape(-1, plane.shape[-1])[cells, C_DIST]
        reached = np.isfinite(distance) | (grid.blocked.ravel()[cells] == 1)
        return bool(reached.all())

    def _slot(self) -> int:
        """A free pool slot: an unused one, one whose field was not used this step or the
        last (its target moved on), or a new one; -1 at MAX_FIELDS in use."""
        if self._free:
            return self._free.pop()
        now = self._now()
        stale = [key for key, entry in self._entries.items() if entry.used < now - 1]
        if stale:
            oldest = min(stale, key=lambda key: self._entries[key].used)
            return self._entries.pop(oldest).slot
        count = len(self.pool)
        slot_bytes = self.pool.itemsize * math.prod(self.pool.shape[1:])
        most = max(1, min(MAX_FIELDS, MAX_POOL_BYTES // slot_bytes))
        if count >= most:
            return -1
        grown = min(max(_FIRST_SLOTS, 2 * count), most)
        pool = np.zeros((grown, *self.pool.shape[1:]), np.float32)
        pool[:count] = self.pool
        self.pool = pool
        self._free.extend(range(grown - 1, count, -1))
        return count

    def _offset(self, x: float, y: float, to_x: float, to_y: float) -> tuple[float, float]:
        """`_offsets` of one point, without numpy (a step asks it for each field kept:
        ~1 µs, against ~10 for a numpy call); Python's round, like np.rint, rounds half to
        even: the same numbers."""
        config = self.flock.config
        dx, dy = to_x - x, to_y - y
        if config.wraps:
            dx -= round(dx / config.width) * config.width
            dy -= round(dy / config.height) * config.height
        return dx, dy

    def _offsets(self, pts: FloatArray, x: float, y: float) -> FloatArray:
        """Offsets from each point to (x, y), the short way round in a torus."""
        config = self.flock.config
        offsets = np.array([(x, y)]) - pts
        if config.wraps:
            size = np.array([config.width, config.height])
            offsets -= np.rint(offsets / size) * size
        return offsets


_navigators: "weakref.WeakKeyDictionary[Flock, Navigator]" = weakref.WeakKeyDictionary()
_GOALS = (Leader, Prey, Predator)
"""The agents a window keeps in view besides the boids: goals sought from any distance."""


def _goal_points(flock: "Flock") -> FloatArray:
    """(n, 2) positions of the flock world's leader, prey and predator entities (read
    straight from esper: `gather` builds what the stages need, ten times the cost)."""
    points: list[tuple[float, float]] = []
    with flock.in_world():
        for kind in _GOALS:
            for entity in entities_with(kind):
                position = (components_of(entity) or {}).get(Position)
                if position is not None:
                    points.append((position.x, position.y))
    return np.array(points, float).reshape(-1, 2)


def _whole_cell(width: float, height: float) -> float:
    """The side of the cells of a width × height world rasterized whole in MAX_NAV_CELLS."""
    return math.sqrt(width * height / MAX_NAV_CELLS)


def _grown(box: Box, by: float) -> Box:
    x0, y0, x1, y1 = box
    return x0 - by, y0 - by, x1 + by, y1 + by


def _box(points: FloatArray) -> "Box | None":
    """The bounding box of (n, 2) points (None if there are none)."""
    if not len(points):
        return None
    low, high = points.min(axis=0), points.max(axis=0)
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def navigator(flock: "Flock") -> Navigator:
    """The flock's `Navigator` (made on first use)."""
    from shoal.systems.flock.flock import Flock

    check.instance("navigator", "flock", flock, Flock)
    found = _navigators.get(flock)
    if found is None:
        found = _navigators[flock] = Navigator(flock)
    return found
