"""Entities that boids react to: leaders, food, attractors, predators and prey.

Put one of these, with a `Position` (and a `Velocity` if it moves), on any entity: the
player's fish, a host game's sprite, a pellet; or tie a host's sprite to one with
`Flock.tie`. Each names the species it concerns; an empty tuple means every species.
Positions are in px (y up), velocities in px/s.
"""

import math
from dataclasses import dataclass
from typing import Any

from shoal.components.arguments import shown
from shoal.components.parameters import LARGEST


def _species_names(owner: str, species: object, name: str = "species") -> None:
    if not isinstance(species, tuple) or not all(isinstance(n, str) and n for n in species):
        raise ValueError(f"{owner}: {name} = {shown(species)} must be a tuple of species names")


def _non_negative(owner: str, name: str, value: object, positive: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{owner}: {name} = {shown(value)} must be a finite number")
    if value < 0 or (positive and value == 0) or value > LARGEST:
        bound = "> 0" if positive else ">= 0"
        raise ValueError(f"{owner}: {name} = {value!r} must be {bound} and <= {LARGEST:g}")


def _bites(owner: str, value: object, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{owner}: bites = {shown(value)} must be an integer >= {least}")


@dataclass(frozen=True, slots=True)
class Leader:
    """Boids of these species follow this entity (the nearest leader, if several).

    How they follow (weight, distance behind, range, clearance) is per species: see
    `Species.leader_weight` and the parameters after it.
    """

    species: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _species_names("Leader", self.species)


@dataclass(slots=True)
class Food:
    """Food that boids of these species sense, swim to, stop short of, and eat bite by bite.

    A boid bites when within `radius` plus its species' `catch_radius`; each bite fires
    `FOOD_BITTEN`; the last one fires `FOOD_EATEN` and deletes the entity. Food with a
    `Velocity` moves (sinking pellets) and settles on the floor of a contained tank.

    Attributes:
        bites: bites left (> 0).
        radius: size of the food; boids stop short of it (px, > 0).
        species: who eats it (empty: every species).
    """

    bites: int = 3
    radius: float = 6.0
    species: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _bites("Food", self.bites, 1)

    def __setattr__(self, name: str, value: Any) -> None:
        # Checked on every change, not only at creation: a game may change food later
        # (bites 0 eats it up at the next step).
        if name == "bites":
            _bites("Food", value, 0)
        elif name == "radius":
            _non_negative("Food", "radius", value, positive=True)
        elif name == "species":
            _species_names("Food", value)
        object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class Attractor:
    """Draws boids within `radius` towards it, and they stop at `dead_radius`; never eaten.

    Attributes:
        radius: how far it draws boids from (px, > 0).
        dead_radius: boids come no closer than this (px, >= 0, < radius).
        weight: strength, times the species' `food_weight`.
        species: who it draws (empty: every species).
        arrive: True: a boid slows down over the last 3 × dead_radius px before the dead
            radius (Reynolds' arrival; at least 3 px); False: it is drawn at full strength
            up to the dead radius, which holds it off (the prey of the Godot post, "Godot
            EngineでBoids Flockingシミュレーションを実装する", BioErrorLog), and swarms
            round it rather than settling.
    """

    radius: float = 200.0
    dead_radius: float = 40.0
    weight: float = 1.0
    species: tuple[str, ...] = ()
    arrive: bool = True

    def __post_init__(self) -> None:
        _non_negative("Attractor", "radius", self.radius, positive=True)
        _non_negative("Attractor", "dead_radius", self.dead_radius)
        _non_negative("Attractor", "weight", self.weight)
        if self.dead_radius >= self.radius:
            raise ValueError(f"Attractor: dead_radius = {self.dead_radius} must be < radius")
        _species_names("Attractor", self.species)
        if not isinstance(self.arrive, bool):
            raise ValueError(f"Attractor: arrive = {shown(self.arrive)} must be True or False")


@dataclass(slots=True)
class Predator:
    """A predator that is not a boid (a host's shark or player): prey flee it, it catches.

    Boids of the prey species flee it (with prediction from its `Velocity`, if any) inside
    their `fear_radius`. Within `catch_radius` it catches the nearest (fires `BOID_EATEN`,
    deletes the boid), then rests `cooldown` seconds. Moving it is the host's business; for
    a hunter that shoal moves, use a boid species related to its prey by "chase".

    Attributes:
        prey: species that fear it (empty: every species).
        catch_radius: px, >= 0 (0: it only scares).
        cooldown: seconds it rests after a catch (>= 0).
        resting: seconds of rest left (state).
    """

    prey: tuple[str, ...] = ()
    catch_radius: float = 14.0
    cooldown: float = 2.0
    resting: float = 0.0

    def __setattr__(self, name: str, value: Any) -> None:
        # Checked on every change, not only at creation (`resting` counts down each step).
        if name == "prey":
            _species_names("Predator", value, "prey")
        elif name in ("catch_radius", "cooldown", "resting"):
            _non_negative("Predator", name, value)
        object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class Prey:
    """A target that boids of these species hunt from any distance (a host's ship, an enemy).

    Unlike the "chase" relation between species, which works within the hunters' perception
    radius, hunters see prey wherever it is: each pursues the nearest prey that concerns its
    species, aiming where it will be (from its `Velocity`), with its species' `chase_weight`.
    A hunter within its species' `catch_radius` plus the prey's `radius` catches it: shoal
    fires `PREY_CAUGHT` and the hunter rests `catch_cooldown` seconds. The prey entity is not
    deleted: what a catch does (a hit, game over) is the host's business.

    Attributes:
        species: who hunts it (empty: every species).
        radius: size of the prey (px, >= 0): hunters catch it this much sooner.
    """

    species: tuple[str, ...] = ()
    radius: float = 0.0

    def __post_init__(self) -> None:
        _species_names("Prey", self.species)
        _non_negative("Prey", "radius", self.radius)
