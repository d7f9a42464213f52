"""A host's arcade sprites tied to roles: the flock reads where they are and how they really
move (px/s, from their motion between steps), follows a tied group as it changes, and
unties without a trace. Real arcade sprites, no window needed."""

import math

import arcade
import esper
import numpy as np
import pytest

import shoal
from shoal import FlockConfig, Leader, Position, Predator, Prey, Species, Velocity

DT = 1 / 60
FISH = Species("fish", max_speed=120, follow_distance=30)


def new_flock(*species: Species) -> shoal.Flock:
    """A flock in the test's own esper world (see conftest)."""
    return shoal.install(FlockConfig(800, 600, seed=4), list(species or [FISH]))


def sprite(x: float, y: float) -> arcade.Sprite:
    return arcade.SpriteSolidColor(10, 10, x, y, arcade.color.WHITE)


def vectors(flock: shoal.Flock, entity: int) -> tuple[tuple[float, float], tuple[float, float]]:
    with flock.in_world():
        at = esper.component_for_entity(entity, Position).xy
        moves = esper.component_for_entity(entity, Velocity).xy
    return at, moves


def test_a_tied_sprite_is_read_every_step_with_its_real_velocity() -> None:
    flock = new_flock()
    player = sprite(100, 100)
    entity = flock.tie(player, Leader())
    flock.step(DT)
    assert vectors(flock, entity) == ((100.0, 100.0), (0.0, 0.0))  # not moved yet: at rest
    player.center_x += 3.0  # 3 px per frame at 60 steps a second: 180 px/s
    player.center_y -= 1.0
    flock.step(DT)
    (x, y), (vx, vy) = vectors(flock, entity)
    assert (x, y) == (103.0, 99.0)
    assert vx == pytest.approx(180.0) and vy == pytest.approx(-60.0)
    flock.step(0.0)  # a paused step: the velocity stays what it was
    assert vectors(flock, entity)[1] == pytest.approx((180.0, -60.0))


def test_a_blocked_platformer_player_reads_as_standing() -> None:
    """arcade's platformer engine keeps change_x while a wall stops the player: the tie goes
    by where the sprite is, not by what it asked for."""
    flock = new_flock()
    wall = arcade.SpriteSolidColor(40, 200, 200, 100, arcade.color.GRAY)
    floor = arcade.SpriteSolidColor(800, 20, 400, 10, arcade.color.GRAY)
    walls: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
    walls.extend([wall, floor])
    player = sprite(160, 25)
    engine = arcade.PhysicsEnginePlatformer(player, walls=walls, gravity_constant=0.5)
    entity = flock.tie(player, Predator(catch_radius=0))
    for _ in range(120):  # runs right into the wall and keeps pushing
        player.change_x = 4.0
        engine.update()
        flock.step(DT)
    assert player.change_x == 4.0  # what arcade reports
    (x, _), (vx, vy) = vectors(flock, entity)
    assert x == pytest.approx(player.center_x) and x < wall.left
    assert abs(vx) < 1e-6 and abs(vy) < 1e-6  # what really happens: it stands


@pytest.mark.slow
def test_followers_settle_behind_a_tied_leader_that_moves() -> None:
    flock = new_flock()
    flock.scatter("fish", 20, centre=(200, 300), radius=40)
    player = sprite(200, 300)
    flock.tie(player, Leader())
    for step in range(600):  # the sprite moves right at 60 px/s, the host's own way
        player.center_x = 200 + step
        flock.step(DT)
    ahead = flock.positions[:, 0] - player.center_x
    distance = np.hypot(ahead, flock.positions[:, 1] - player.center_y)
    assert np.median(distance) < 120  # they came along with it (it went 600 px)
    assert np.mean(ahead < 0) > 0.6  # mostly behind it: they know which way it goes


def test_prey_flee_a_tied_predator() -> None:
    flock = new_flock(Species("fish", fear_radius=150, flee_weight=6))
    flock.scatter("fish", 30, centre=(400, 300), radius=40)
    ship = sprite(400, 300)
    flock.tie(ship, Predator(catch_radius=0))
    for _ in range(180):
        flock.step(DT)
    distance = np.hypot(*(flock.positions - [ship.center_x, ship.center_y]).T)
    assert np.min(distance) > 100


def test_a_tied_group_follows_the_sprite_list_as_it_changes() -> None:
    flock = new_flock(Species("fish", fear_radius=120, flee_weight=6))
    flock.scatter("fish", 10, centre=(400, 300), radius=30)
    enemies: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    enemies.extend([sprite(100, 100), sprite(700, 500)])
    flock.tie_all(enemies, Predator(catch_radius=0))
    flock.step(DT)
    with flock.in_world():
        assert len(esper.get_component(Predator)) == 2
    newcomer = sprite(400, 300)
    enemies.append(newcomer)
    enemies[0].remove_from_sprite_lists()
    flock.step(DT)
    with flock.in_world():
        places = sorted(p.xy for _, (_, p) in esper.get_components(Predator, Position))
    assert places == [(400.0, 300.0), (700.0, 500.0)]
    assert flock.tied(flock.entity_of(newcomer)) is newcomer
    # Each member its own role: one predator's rest is not another's.
    with flock.in_world():
        roles = [r for _, r in esper.get_component(Predator)]
    assert roles[0] is not roles[1]
    flock.untie(enemies)
    flock.step(DT)
    with flock.in_world():
        assert esper.get_component(Predator) == []
        assert {e for e, _ in esper.get_component(Position)} == set(flock.entities.tolist())


def test_untie_deletes_the_entity_and_the_sprite_is_untouched() -> None:
    flock = new_flock()
    player = sprite(50, 60)
    entity = flock.tie(player, Leader(), Prey(radius=5))
    flock.step(DT)
    flock.untie(player)
    with flock.in_world():
        assert not esper.entity_exists(entity)
    assert (player.center_x, player.center_y) == (50, 60)
    assert flock.tied(entity) is None
    with pytest.raises(KeyError, match=r"untie: .* is not tied"):
        flock.untie(player)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda f, s: f.tie(object(), Leader()), r"tie: sprite = .* must have center_x"),
        (lambda f, s: f.tie(s), r"tie: roles = \(\) must name at least one role"),
        (lambda f, s: f.tie(s, "leader"), r"tie: roles\[0\] = 'leader' must be one of"),
        (lambda f, s: f.tie(s, Leader(), Leader()), r"tie: roles\[1\] = .* second role"),
        (lambda f, s: f.tie_all(s, Leader()), r"tie_all: sprites = .* is one sprite"),
        (lambda f, s: f.tie_all(5, Leader()), r"tie_all: sprites = 5 must be an iterable"),
        (lambda f, s: f.tie_all([s, 3], Leader()), r"tie_all: sprites\[1\] = 3 must have"),
    ],
)
def test_bad_ties_are_refused_and_change_nothing(call: object, message: str) -> None:
    flock = new_flock()
    player = sprite(10, 10)
    with flock.in_world():
        before = len(esper.get_component(Position))
    with pytest.raises(ValueError, match=message):
        call(flock, player)  # type: ignore[operator]
    with flock.in_world():
        assert len(esper.get_component(Position)) == before
    assert len(flock.ties) == 0


def test_a_sprite_is_tied_once_and_must_stay_finite() -> None:
    flock = new_flock()
    player = sprite(10, 10)
    flock.tie(player, Leader())
    with pytest.raises(ValueError, match=r"tie: sprite = .* is already tied"):
        flock.tie(player, Predator())
    player.center_x = math.inf
    with pytest.raises(ValueError, match=r"tie: sprite.center = \(inf, 10\) must be finite"):
        flock.step(DT)
