"""Swarm shooter: drones swarm your ship; it shoots the nearest by itself; you dodge.

``python -m examples.swarm_shooter``: WASD moves, R restarts, Escape quits (see `examples.cli`).
shoal here: in the game's own esper world, beside the game's own processor (shots, after shoal's
stages); the ship is prey (a one-boid species the drones chase, steered through its Velocity);
`Flock.query` + `despawn` for hits; `BOID_EATEN`; waves by `scatter` + `tune`.
"""

import math
from dataclasses import dataclass

import arcade
import arcade.key as K
import esper
from PIL import Image, ImageDraw

from examples.cli import run
from shoal.components import Attractor, Boid, Position, Species, Velocity
from shoal.systems import BOID_EATEN, LIFECYCLE_PRIORITY, RENDER_PRIORITY, FlockConfig, install
from shoal.systems.render import RenderSystem, SpeciesLook, fixed_fraction

WIDTH, HEIGHT, WORLD = 800, 450, "shooter"  # the game's own esper world; shoal goes in it
SHIP_SPEED, SHOT_SPEED, FIRE_EVERY, RANGE = 170.0, 480.0, 9, 260.0  # px/s, px/s, steps, px
# The ship is a boid (so drones can chase it) with a tiny max_force: the keys steer it, not shoal.
SHIP = Species("ship", min_speed=0, max_speed=SHIP_SPEED, max_force=1e-6)
DRONE = Species("drone", perception_radius=150, fov_degrees=360, max_speed=100, chase_weight=3,
                catch_radius=12, catch_cooldown=1.0)  # fmt: skip


def arrow(w: int, h: int, colour: tuple[int, int, int]) -> SpeciesLook:
    """An arrowhead facing +x (the way shoal turns sprites), drawn with PIL."""
    image = Image.new("RGBA", (w, h))
    points = [(0, 0), (w - 1, h / 2), (0, h - 1), (w / 4, h / 2)]
    ImageDraw.Draw(image).polygon(points, fill=colour)
    return SpeciesLook(arcade.Texture(image, hash=f"swarm-shooter-{w}x{h}-{colour}"))


@dataclass(slots=True)
class Shot:
    """The game's own component: a bullet sprite and its velocity (px/s)."""

    sprite: arcade.Sprite
    velocity: tuple[float, float]


@dataclass
class ShotSystem(esper.Processor):
    """The game's own processor: shots fly; a shot that meets a drone removes it."""

    view: "GameView"
    hits: int = 0

    def process(self, dt: float) -> None:
        """Move every shot; remove the drone it hits, and the shot if it hit or left."""
        for entity, shot in esper.get_component(Shot):
            shot.sprite.center_x += shot.velocity[0] * dt
            shot.sprite.center_y += shot.velocity[1] * dt
            near = self.view.flock.query(*shot.sprite.position, 10).tolist()
            hit = [e for e in near if esper.component_for_entity(e, Boid).species == "drone"]
            if hit:
                self.view.flock.despawn(hit[0])
                self.hits += 1
            if hit or not (0 < shot.sprite.center_x < WIDTH and 0 < shot.sprite.center_y < HEIGHT):
                shot.sprite.remove_from_sprite_lists()
                esper.delete_entity(entity)


class GameView(arcade.View):
    """One game: the ship, the drones and the shots."""

    def __init__(self, autopilot: bool = False) -> None:
        super().__init__()
        self.background_color = arcade.types.Color(18, 18, 30)
        self.autopilot, self.keys = autopilot, set[int]()  # keys held
        self.hud = arcade.Text("", 10, HEIGHT - 24, arcade.color.LIGHT_GRAY, 12)

    def setup(self) -> None:
        """Start a game in a fresh esper world of the game's own, with shoal installed in it."""
        esper.switch_world("default")  # a world cannot delete itself; the last game's goes
        if WORLD in esper.list_worlds():
            esper.delete_world(WORLD)
        esper.switch_world(WORLD)
        self.flock = install(FlockConfig(WIDTH, HEIGHT, margin=30, seed=7), [SHIP, DRONE])
        self.flock.relate("drone", "ship", "chase")
        self.shots = ShotSystem(self)
        esper.add_processor(self.shots, LIFECYCLE_PRIORITY - 50)  # after shoal moved the drones
        looks = {"ship": arrow(28, 20, (120, 230, 255)), "drone": arrow(18, 14, (255, 90, 90))}
        self.render = RenderSystem(self.flock, looks=looks)
        esper.add_processor(self.render, RENDER_PRIORITY)
        esper.set_handler(BOID_EATEN, self.on_boid_eaten)  # esper keeps handlers per world
        (self.ship,) = self.flock.spawn("ship", [(WIDTH / 2, HEIGHT / 2)], [(0.0, 0.0)])
        esper.add_component(self.ship, Attractor(2000, 0, 0.7, ("drone",)))  # draws far drones
        self.shot_sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.wave, self.over = 0, False

    def on_boid_eaten(self, boid: int, hunter: int, x: float, y: float) -> None:
        """A drone caught the ship (shoal has removed its boid): the game is over."""
        self.over = self.over or bool(boid == self.ship)

    def on_fixed_update(self, delta_time: float) -> None:
        """Steer the ship, fire, run every processor of the world, then react."""
        if self.over:
            return
        x, y = esper.component_for_entity(self.ship, Position).xy
        if self.autopilot:  # circle the arena
            turn = self.flock.steps / 180  # radians: once round in 19 s
            gx, gy = WIDTH / 2 + 250 * math.cos(turn), HEIGHT / 2 + 130 * math.sin(turn)
            self.keys = {K.D if gx > x else K.A, K.W if gy > y else K.S}
        dx, dy = (K.D in self.keys) - (K.A in self.keys), (K.W in self.keys) - (K.S in self.keys)
        speed = SHIP_SPEED / (math.hypot(dx, dy) or 1.0)
        esper.component_for_entity(self.ship, Velocity).xy = (dx * speed, dy * speed)
        near = [e for e in self.flock.query(x, y, RANGE).tolist() if e != self.ship]
        if near and self.flock.steps % FIRE_EVERY == 0:  # at the nearest: an entity with a Shot
            tx, ty = min((esper.component_for_entity(e, Position).xy for e in near),
                         key=lambda spot: math.dist(spot, (x, y)))  # fmt: skip
            v = SHOT_SPEED / (math.dist((tx, ty), (x, y)) or 1.0)
            sprite = arcade.SpriteCircle(3, arcade.color.YELLOW, center_x=x, center_y=y)
            self.shot_sprites.append(sprite)
            esper.create_entity(Shot(sprite, ((tx - x) * v, (ty - y) * v)))
        esper.process(delta_time)  # shoal's stages, then the shots, then the sprites
        if len(self.flock) <= 1:  # only the ship: more drones, a little faster, from a corner
            self.wave += 1
            self.flock.tune("drone", max_speed=88 + 12 * self.wave)
            corner = ((60, 60), (WIDTH - 60, HEIGHT - 60), (60, HEIGHT - 60))[self.wave % 3]
            self.flock.scatter("drone", 20 + 10 * self.wave, centre=corner, radius=50)

    def on_draw(self) -> None:
        """Draw shoal's sprites (drones and ship), the shots and the score."""
        self.clear()
        self.render.draw(fixed_fraction())  # between the last two fixed steps
        self.shot_sprites.draw()
        caught = "    CAUGHT! R: play again" if self.over else ""
        self.hud.text = f"wave {self.wave}    drones shot {self.shots.hits}{caught}"
        self.hud.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Movement keys are held; R restarts; Escape quits."""
        self.keys.add(symbol)
        if symbol == K.R:
            self.setup()
        elif symbol == K.ESCAPE:
            self.window.close()

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """A movement key let go."""
        self.keys.discard(symbol)


if __name__ == "__main__":
    run(GameView, "swarm_shooter", WIDTH, HEIGHT)
