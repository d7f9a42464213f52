"""The calls a host game makes that are not about boids: tie its sprites to roles, put
entities in the flock's world, step on its frame clock, draw.

`Flock` inherits these, so a host that never imports esper writes, e.g.::

    flock.tie(self.player, Leader())             # the flock follows the player's sprite
    flock.tie_all(self.enemy_list, Predator())   # and flees every enemy in the list
    flock.create_entity(Obstacle(Rect(400, 80, 200, 20)))
    ...
    flock.update(delta_time)                     # from on_update: fixed steps
    flock.draw()                                 # from on_draw (rendering installed)
"""

import inspect
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import esper

from shoal.components import arguments as check
from shoal.systems.core.config import FlockConfig
from shoal.systems.flock.clock import StepClock
from shoal.systems.flock.ecs import in_world
from shoal.systems.flock.members import Members
from shoal.systems.flock.ties import Ties


class Drawer(Protocol):
    """What draws a flock: shoal's render stage (`shoal.systems.render.RenderSystem`)."""

    def draw(self, alpha: float | None = None) -> None:
        """Draw the flock `alpha` of the way between its last two steps (None: choose)."""


class Embedding:
    """The host-facing calls of a `Flock` (see the module docstring); state set up by
    `_init_embedding`."""

    world: str
    config: FlockConfig
    ties: Ties
    renderer: Drawer | None
    clock: StepClock | None
    owns_world: bool
    _members: Members
    _updating: bool
    _created: set[int]
    _handlers: list[tuple[str, Callable[[], Callable[..., None] | None]]]

    if TYPE_CHECKING:

        def step(self, dt: float | None = None) -> None:
            """`Flock.step`."""

    def _init_embedding(self) -> None:
        self.ties = Ties(self.world)
        self.renderer = None
        self.clock = None  # the clock of `update`; None while the host steps the flock
        self.owns_world = False  # set by install: uninstall then deletes the world
        self._updating = False
        self._created = set()
        self._handlers = []

    # --- sprites as roles --------------------------------------------------------------
    def tie(self, sprite: object, *roles: object) -> int:
        """Tie a host's sprite to one or more roles; returns its entity in the flock's world.

        `roles` are `Leader`, `Predator`, `Prey` or `Attractor` components (one of each kind
        at most), e.g. ``flock.tie(player, Leader())``. At the start of every step the flock
        reads the sprite's `center_x`, `center_y` (px) and its velocity from how far it
        really moved since the previous step (px/s): a sprite blocked by a wall reads as
        standing, whatever its `change_x` says. Anything with `center_x` and `center_y`
        can be tied.

        Raises:
            ValueError: `sprite` has no finite centre, is already tied, or a role is not one
                of those components (nothing changes).
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        self._check_installed("tie")
        tie = self.ties.tie("tie", sprite, roles, group=False)
        return next(iter(tie.members.values())).entity

    def tie_all(self, sprites: object, *roles: object) -> None:
        """Tie every sprite of a group (an arcade SpriteList, or any iterable of sprites) to
        `roles`, following the group as it changes: a sprite appended later is tied at the
        next step, one removed is untied. Each sprite gets its own entity (see `tie`).

        Raises:
            ValueError: `sprites` is one sprite or not an iterable, is already tied, one of
                them has no finite centre, or a role is not one of the components `tie`
                takes (nothing changes).
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        self._check_installed("tie_all")
        self.ties.tie("tie_all", sprites, roles, group=True)

    def untie(self, target: object) -> None:
        """Untie a sprite or a group tied with `tie` / `tie_all`: their entities are deleted
        now. KeyError if it is not tied."""
        self.ties.untie("untie", target)

    def tied(self, entity: int) -> object | None:
        """The sprite tied to `entity` (e.g. the prey of a `PREY_CAUGHT` event), or None."""
        return self.ties.target_of(check.entity("tied", entity))

    def entity_of(self, sprite: object) -> int:
        """The entity of a tied sprite (tied alone or as a member of a tied group); KeyError
        if it is not tied."""
        return self.ties.entity_of(sprite)

    # --- other entities --------------------------------------------------------------------
    def create_entity(self, *components: Any) -> int:
        """Create an entity with `components` in the flock's world (an `Obstacle`, `Food`
        with its `Position`, ...) without switching esper worlds; returns it. `uninstall`
        deletes it with the flock.

        Raises:
            ValueError: no components, or one is not a component instance (a class, None, a
                number or a string).
        """
        self._check_installed("create_entity")
        if not components:
            check.fail("create_entity", "components", components, "must not be empty")
        for k, component in enumerate(components):
            # A class instead of an instance (Obstacle for Obstacle(...)) is the usual slip.
            if component is None or isinstance(component, type | str | bytes | int | float):
                why = "must be a component (an instance, e.g. Obstacle(Rect(...)))"
                check.fail("create_entity", f"components[{k}]", component, why)
        with in_world(self.world):
            entity = esper.create_entity(*components)
        self._created.add(entity)
        return entity

    def delete_entity(self, entity: int) -> None:
        """Delete an entity of the flock's world now.

        Raises:
            ValueError: `entity` is not an integer.
            KeyError: the flock's world has no such entity.
        """
        key = check.entity("delete_entity", entity)
        with in_world(self.world):
            if not esper.entity_exists(key):
                raise KeyError(f"delete_entity: no entity {key} in world {self.world!r}")
            esper.delete_entity(key, immediate=True)
        self._created.discard(key)

    # --- the host's clock --------------------------------------------------------------
    def update(self, elapsed: float) -> int:
        """Step the flock on its fixed timestep for `elapsed` seconds of the host's clock.

        Call it from arcade's ``on_update(delta_time)``: it takes as many steps of
        `FlockConfig.dt` as are due (a `StepClock`: at most a few a frame, the rest of a
        long stall dropped) and keeps the remainder for the next call, so the flock moves
        at the same speed whatever the frame rate. `draw()` then draws between the last two
        steps by that remainder. Not calling it pauses the flock, and the drawing stays
        still. Returns the steps taken.

        Raises:
            ValueError: `elapsed` is not a finite number of seconds >= 0.
        """
        self._check_installed("update")
        elapsed = check.number("update", "elapsed", elapsed, low=0.0)
        if self.clock is None or self.clock.step != self.config.dt:
            self.clock = StepClock(self.config.dt)
        self._updating = True
        try:
            return self.clock.tick(elapsed, self.step)
        finally:
            self._updating = False

    def draw(self, alpha: float | None = None) -> None:
        """Draw the flock (installed with rendering: ``shoal.install(..., render=True)``).

        `alpha` (0..1) is how far between the last two steps to draw; None chooses: the
        remainder of `update`, or arcade's fixed clock when the flock steps in
        `on_fixed_update`, and a still picture while the flock is paused.

        Raises:
            RuntimeError: the flock was uninstalled, or has no rendering installed.
        """
        if self._members.uninstalled:  # uninstall drops the renderer too: say why it is gone
            self._check_installed("draw")
        if self.renderer is None:
            raise RuntimeError(
                "draw: this flock has no rendering; install it with shoal.install(..., "
                "render=True) or shoal.systems.render.add_rendering(flock)"
            )
        self.renderer.draw(alpha)

    # --- lifetime ----------------------------------------------------------------------
    @property
    def installed(self) -> bool:
        """False once `uninstall` has removed the flock (its calls then raise)."""
        return not self._members.uninstalled

    @property
    def created(self) -> list[int]:
        """Entities made with `create_entity` that are still there (sorted)."""
        return sorted(self._created)

    @property
    def handlers(self) -> list[tuple[str, Callable[..., None]]]:
        """(event, handler) of each handler set with `set_handler` that is still alive."""
        alive = ((event, reference()) for event, reference in self._handlers)
        return [(event, handler) for event, handler in alive if handler is not None]

    def _forget_host(self) -> None:
        """Mark the flock uninstalled (`uninstall` calls this once it has removed everything
        from the world): its calls raise RuntimeError from now on."""
        self._members.uninstalled = True
        self.renderer = None
        self._created.clear()
        self._handlers.clear()

    def _remember_handler(self, event: str, handler: Callable[..., None]) -> None:
        """Keep, by weak reference as esper does, a handler set with `set_handler`."""
        reference = weakref.WeakMethod if inspect.ismethod(handler) else weakref.ref
        self._handlers.append((event, reference(handler)))

    def _check_installed(self, owner: str) -> None:
        """RuntimeError naming `owner` once the flock is uninstalled or its world deleted."""
        self._members.check(owner)
