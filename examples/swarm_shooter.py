"""Swarm shooter: drones swarm your ship; it shoots the nearest by itself; you dodge.

``python -m examples.swarm_shooter``: WASD moves, R restarts, Escape quits (see `examples.cli`).
shoal here: in the game's own esper world, beside the game's own processor (shots, after shoal's
stages); the ship (the game's own sprite) is tied to the flock as `Prey`: the drones hunt it
from anywhere and `PREY_CAUGHT` ends the game; `Flock.query` by species + `despawn` for hits;
waves by `scatter` + `tune`.
"""

import math
from dataclasses import dataclass

import arcade
import arcade.key as K
import esper
from PIL import Image, ImageDraw

import shoal
from examples.cli import run
from shoal import PREY_CAUGHT, Position, Prey, Species, SpeciesLook

WIDTH, HEIGHT, WORLD = 800, 450, "shooter"  # the game's own esper world; shoal goes in it
SHIP_SPEED, SHOT_SPEED, FIRE_EVERY, RANGE = 170.0, 480.0, 9, 260.0  # px/s, px/s, steps, px
DRONE = Species("drone", perception_radius=150, fov_degrees=360, max_speed=100, chase_weight=3,
                catch_radius=12, catch_cooldown=1.0)  # fmt: skip


def arrow(w: int, h: int, colour: tuple[int, int, int]) -> arcade.Texture:
    """An arrowhead facing +x (the way shoal turns sprites), drawn with PIL."""
    image = Image.new("RGBA", (w, h))
    points = [(0, 0), (w - 1, h / 2), (0, h - 1), (w / 4, h / 2)]
    ImageDraw.Draw(image).polygon(points, fill=colour)
    return arcade.Texture(image, hash=f"swarm-shooter-{w}x{h}-{colour}")


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
            hit = self.view.flock.query(*shot.sprite.position, 10, species="drone").tolist()
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
        looks = {"drone": SpeciesLook(arrow(18, 14, (255, 90, 90)))}
        self.flock = shoal.install(shoal.FlockConfig(WIDTH, HEIGHT, margin=30, seed=7), [DRONE],
                                   looks=looks)  # fmt: skip
        self.shots = ShotSystem(self)
        esper.add_processor(self.shots, shoal.systems.LIFECYCLE_PRIORITY - 50)  # drones moved
        self.flock.set_handler(PREY_CAUGHT, self.on_prey_caught)
        self.ship = arcade.Sprite(arrow(28, 20, (120, 230, 255)), center_x=WIDTH / 2,
                                  center_y=HEIGHT / 2)  # the game's own sprite  # fmt: skip
        self.flock.tie(self.ship, Prey(("drone",), radius=10))  # the drones hunt it from anywhere
        self.shot_sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.wave, self.over = 0, False

    def on_prey_caught(self, prey: int, hunter: int, x: float, y: float) -> None:
        """A drone caught the ship: the game is over."""
        self.over = True

    def on_fixed_update(self, delta_time: float) -> None:
        """Steer the ship, fire, run every processor of the world, then react."""
        if self.over:
            return
        x, y = self.ship.position
        if self.autopilot:  # circle the arena
            turn = self.flock.steps / 180  # radians: once round in 19 s
            gx, gy = WIDTH / 2 + 250 * math.cos(turn), HEIGHT / 2 + 130 * math.sin(turn)
            self.keys = {K.D if gx > x else K.A, K.W if gy > y else K.S}
        dx, dy = (K.D in self.keys) - (K.A in self.keys), (K.W in self.keys) - (K.S in self.keys)
        step = SHIP_SPEED * delta_time / (math.hypot(dx, dy) or 1.0)  # px/s over this step
        self.ship.position = (min(max(x + dx * step, 15), WIDTH - 15),
                              min(max(y + dy * step, 15), HEIGHT - 15))  # fmt: skip
        if dx or dy:
            self.ship.angle = -math.degrees(math.atan2(dy, dx))  # arcade turns clockwise
        near = self.flock.query(x, y, RANGE, species="drone").tolist()
        if near and self.flock.steps % FIRE_EVERY == 0:  # at the nearest: an entity with a Shot
            tx, ty = min((esper.component_for_entity(e, Position).xy for e in near),
                         key=lambda spot: math.dist(spot, (x, y)))  # fmt: skip
            v = SHOT_SPEED / (math.dist((tx, ty), (x, y)) or 1.0)
            sprite = arcade.SpriteCircle(3, arcade.color.YELLOW, center_x=x, center_y=y)
            self.shot_sprites.append(sprite)
            esper.create_entity(Shot(sprite, ((tx - x) * v, (ty - y) * v)))
        esper.process(delta_time)  # shoal's stages (they read the ship), the shots, the sprites
        if len(self.flock) == 0:  # all shot: more drones, a little faster, from a corner
            self.wave += 1
            self.flock.tune("drone", max_speed=88 + 12 * self.wave)
            corner = ((60, 60), (WIDTH - 60, HEIGHT - 60), (60, HEIGHT - 60))[self.wave % 3]
            self.flock.scatter("drone", 20 + 10 * self.wave, centre=corner, radius=50)

    def on_draw(self) -> None:
        """Draw the drones (shoal's sprites), the ship, the shots and the score."""
        self.clear()
        self.flock.draw()  # between the last two fixed steps
        arcade.draw_sprite(self.ship)
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
