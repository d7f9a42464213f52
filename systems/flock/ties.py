"""Ties: a host's own objects (arcade sprites) standing in the flock's world as agents.

A host game moves its sprites itself. Tied to a role (`Leader`, `Predator`, `Prey`,
`Attractor`), a sprite gets an entity in the flock's world with that role, a `Position` and
a `Velocity`, which the flock brings up to date at the start of every step: the position is
the sprite's `center_x`, `center_y` (px); the velocity is how far the sprite really moved
since the previous step over the step's length (px/s). Not the sprite's `change_x`, which is
in px per frame and says what the host asked for, not what happened (a platformer's player
pushing against a wall reports a `change_x` but stands still).

Anything with numeric `center_x` and `center_y` can be tied (this module never imports
arcade). A tied group (an arcade `SpriteList`, or any iterable of such objects) is followed
as it changes: sprites added to it get an entity at the next step, removed ones lose theirs.
There are few tied objects (tens, not thousands): one Python pass over them per step.
"""

import copy
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import esper

from shoal.components import Attractor, Leader, Position, Predator, Prey, Velocity
from shoal.components import arguments as check
from shoal.systems.flock.ecs import in_world

ROLES = (Leader, Predator, Prey, Attractor)
"""The components a tied object can carry (its roles for the flock)."""

Role = Leader | Predator | Prey | Attractor


@dataclass(slots=True)
class _Member:
    """One tied object: its entity, the vectors shoal reads, where it was at the last step."""

    target: Any
    entity: int
    position: Position
    velocity: Velocity
    fresh: bool = True  # no step has seen it yet: its velocity is unknown (0)


@dataclass(slots=True)
class _Tie:
    """What `Flock.tie` or `Flock.tie_all` was given: one object or a group, and the roles."""

    target: Any
    roles: tuple[Role, ...]
    group: bool
    members: dict[int, _Member] = field(default_factory=dict)  # by id() of the object


class Ties:
    """The tied objects of one flock's world (`Flock.tie`, `Flock.tie_all`, `Flock.untie`)."""

    def __init__(self, world: str) -> None:
        self.world = world
        self._ties: dict[int, _Tie] = {}  # by id() of what was tied

    def __len__(self) -> int:
        """How many objects are tied now (members of groups counted one by one)."""
        return sum(len(tie.members) for tie in self._ties.values())

    def __contains__(self, target: object) -> bool:
        return id(target) in self._ties and self._ties[id(target)].target is target

    def tie(self, owner: str, target: object, roles: tuple[object, ...], group: bool) -> _Tie:
        """Tie `target` (one object, or a group when `group`) to `roles`; checks everything
        before it changes anything."""
        checked = _roles(owner, roles)
        name = "sprites" if group else "sprite"
        if target in self:
            check.fail(owner, name, target, "is already tied (untie it first)")
        if group:
            if _has_centre(target):
                check.fail(owner, name, target, "is one sprite: use Flock.tie")
            if isinstance(target, str | bytes) or not isinstance(target, Iterable):
                check.fail(owner, name, target, "must be an iterable of sprites")
            for k, member in enumerate(target):
                _centre(owner, f"sprites[{k}]", member)
        else:
            _centre(owner, "sprite", target)
        tie = _Tie(target, checked, group)
        self._ties[id(target)] = tie
        self._follow(tie)
        return tie

    def untie(self, owner: str, target: object) -> None:
        """Delete the entities of `target` (a tied object or group); KeyError if not tied."""
        if target not in self:
            raise KeyError(f"{owner}: {check.shown(target)} is not tied to this flock")
        tie = self._ties.pop(id(target))
        with in_world(self.world):
            for member in tie.members.values():
                _delete(member.entity)

    def clear(self) -> None:
        """Untie everything."""
        for tie in list(self._ties.values()):
            self.untie("clear", tie.target)

    def members(self) -> list[_Member]:
        """Every tied object's entry (entity, vectors, whether fresh), in the order they
        were tied (a group's members in its order when last followed)."""
        return [member for tie in self._ties.values() for member in tie.members.values()]

    def entity_of(self, target: object) -> int:
        """The entity of a tied object (one tied with `tie`, or a member of a tied group)."""
        for tie in self._ties.values():
            member = tie.members.get(id(target))
            if member is not None and member.target is target:
                return member.entity
        raise KeyError(f"entity_of: {check.shown(target)} is not tied to this flock")

    def target_of(self, entity: int) -> object | None:
        """The object tied to `entity`, or None."""
        for tie in self._ties.values():
            for member in tie.members.values():
                if member.entity == entity:
                    target: object = member.target
                    return target
        return None

    def refresh(self, dt: float) -> None:
        """Bring every tied entity up to date: groups' members, positions, velocities.

        `dt` is the length of the step about to run (s); a paused step (0) keeps the
        velocities. Raises ValueError if a tied object has no finite centre.
        """
        for tie in self._ties.values():
            if tie.group:
                self._follow(tie)
            for member in tie.members.values():
                x, y = _centre("tie", "sprite", member.target)
                if member.fresh:
                    member.fresh = False
                elif dt > 0.0:
                    px, py = member.position.xy
                    member.velocity.xy = ((x - px) / dt, (y - py) / dt)
                member.position.xy = (x, y)

    def _follow(self, tie: _Tie) -> None:
        """Give new members of a tie their entities and drop those of members that left."""
        current = [tie.target] if not tie.group else list(tie.target)
        ids = {id(target): target for target in current}
        members = tie.members
        with in_world(self.world):
            for key in [k for k, m in members.items() if ids.get(k) is not m.target]:
                _delete(members.pop(key).entity)
            for key, target in ids.items():
                if key not in members:
                    members[key] = _member(target, tie.roles)


def _member(target: object, roles: tuple[Role, ...]) -> _Member:
    """A new entity, in the current world, for a tied object: its place, at rest, its roles
    (each member its own copy: a predator's rest, for one, is its own)."""
    x, y = _centre("tie", "sprite", target)
    position, velocity = Position(x, y), Velocity()
    parts = [copy.copy(role) for role in roles]
    entity = esper.create_entity(position, velocity, *parts)
    return _Member(target, entity, position, velocity)


def _delete(entity: int) -> None:
    if esper.entity_exists(entity):
        esper.delete_entity(entity, immediate=True)


def _roles(owner: str, roles: tuple[object, ...]) -> tuple[Role, ...]:
    """`roles` if it is one or more role components of different kinds, else ValueError."""
    if not roles:
        check.fail(owner, "roles", roles, "must name at least one role (Leader, Predator, ...)")
    checked: list[Role] = []
    for k, role in enumerate(roles):
        if not isinstance(role, Leader | Predator | Prey | Attractor):
            names = ", ".join(kind.__name__ for kind in ROLES)
            check.fail(owner, f"roles[{k}]", role, f"must be one of {names}")
        if any(type(other) is type(role) for other in checked):
            check.fail(owner, f"roles[{k}]", role, "is a second role of the same kind")
        checked.append(role)
    return tuple(checked)


def _has_centre(target: object) -> bool:
    return hasattr(target, "center_x") and hasattr(target, "center_y")


def _centre(owner: str, name: str, target: object) -> tuple[float, float]:
    """The (center_x, center_y) of `target` as finite floats, else ValueError."""
    if not _has_centre(target):
        check.fail(owner, name, target, "must have center_x and center_y (an arcade Sprite)")
    sprite: Any = target
    x, y = sprite.center_x, sprite.center_y
    if not (check.is_number(x) and check.is_number(y) and math.isfinite(x) and math.isfinite(y)):
        check.fail(owner, f"{name}.center", (x, y), "must be finite numbers (px)")
    return float(x), float(y)
