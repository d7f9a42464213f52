"""Fish pond: row your boat; fish flee it, ducklings follow it, bread draws all, a pike hunts.

``python -m examples.fish_pond``: the boat rows towards the mouse pointer, a click throws bread
there, Space casts the net, Escape quits (see `examples.cli`).
shoal here: installed in the game's current esper world and stepped by its `esper.process`; the
boat (the game's own sprite) is tied to the flock as a `Predator` that only scares the fish and
a `Leader` for the ducklings; bread is `Food` (`FOOD_EATEN`); the pike is a boid species that
chases the fish (`relate`, `BOID_EATEN`); the net uses `Flock.query` by species and `despawn`;
`scatter` restocks the pond.
"""

import math

import arcade
import esper
from PIL import Image, ImageDraw

import shoal
from examples.cli import run
from shoal import BOID_EATEN, FOOD_EATEN, Food, Leader, Position, Predator, Species, SpeciesLook

WIDTH, HEIGHT = 800, 450
BOAT_SPEED, NET_RADIUS, STOCK = 90.0, 45.0, 70  # px/s, px, fish the pond is restocked to
LILY_PADS = ((250, 140, 36), (560, 320, 44), (640, 110, 30))  # x, y, radius
FISH = Species("fish", fear_radius=90, food_range=220, leader_weight=0)
PIKE = Species("pike", perception_radius=110, min_speed=30, max_speed=120, max_force=220,
               separation_radius=40, catch_radius=10, catch_cooldown=4, food_weight=0)  # fmt: skip
DUCK = Species("duck", min_speed=0, max_speed=100, separation_radius=22, follow_distance=40,
               fear_radius=0, food_range=120)  # fmt: skip
Shapes = list[tuple[tuple[float, ...], tuple[int, int, int]]]  # ellipse boxes or polygons
BOAT: Shapes = [((0, 2, 40, 2, 52, 10, 40, 18, 0, 18), (130, 85, 45)),
                ((4, 5, 38, 5, 46, 10, 38, 15, 4, 15), (175, 125, 70)),
                ((16, 6, 24, 14), (235, 235, 235))]  # fmt: skip
DUCKLING: Shapes = [((0, 2, 14, 12), (250, 215, 60)), ((9, 3, 17, 11), (255, 235, 90)),
                    ((16, 5, 20, 7, 16, 9), (240, 130, 40))]  # fmt: skip


def texture(name: str, size: tuple[int, int], shapes: Shapes) -> arcade.Texture:
    """Shapes drawn in order with PIL (4 numbers: an ellipse's box), facing +x."""
    image = Image.new("RGBA", size)
    draw = ImageDraw.Draw(image)
    for xy, colour in shapes:
        if len(xy) == 4:
            draw.ellipse(xy, fill=colour)
        else:
            draw.polygon(xy, fill=colour)
    return arcade.Texture(image, hash=f"fish-pond-{name}")


class GameView(arcade.View):
    """The pond: the boat, the fish, the pike, the ducklings and the bread."""

    def __init__(self, autopilot: bool = False) -> None:
        super().__init__()
        self.background_color = arcade.types.Color(40, 110, 120)
        self.autopilot, self.pointer = autopilot, (WIDTH / 2, HEIGHT / 2)
        self.hud = arcade.Text("", 10, HEIGHT - 24, arcade.color.WHITE, 12)

    def setup(self) -> None:
        """Install shoal in the current esper world and fill the pond."""
        fish, pike = SpeciesLook(scale=0.7), SpeciesLook(shoal.shark_texture(), 0.6)
        looks = {
            "fish": fish,
            "pike": pike,
            "duck": SpeciesLook(texture("duck", (20, 14), DUCKLING)),
        }
        config = shoal.FlockConfig(WIDTH, HEIGHT, margin=30, seed=5)
        self.flock = shoal.install(config, [FISH, PIKE, DUCK], looks=looks)
        self.flock.relate("pike", "fish", "chase")
        self.flock.relate("fish", "pike", "flee")
        self.flock.relate("fish", "duck", "avoid")
        self.flock.scatter("fish", STOCK)
        self.flock.spawn("pike", [(700, 380)])
        self.flock.scatter("duck", 5, centre=(WIDTH / 2 - 60, HEIGHT / 2), radius=20)
        # The boat is the game's own sprite: tied, it scares the fish and leads the ducklings.
        self.boat = arcade.Sprite(texture("boat", (53, 21), BOAT), center_x=400, center_y=225)
        self.flock.tie(self.boat, Predator(("fish",), catch_radius=0), Leader(("duck",)))
        esper.set_handler(FOOD_EATEN, self.on_food_eaten)  # esper keeps handlers per world
        esper.set_handler(BOID_EATEN, self.on_boid_eaten)
        self.netted = self.fed = self.lost = 0

    def on_food_eaten(self, food: int) -> None:
        """The last bite of a piece of bread."""
        self.fed += 1

    def on_boid_eaten(self, boid: int, hunter: int, x: float, y: float) -> None:
        """The pike caught a fish."""
        self.lost += 1

    def on_fixed_update(self, delta_time: float) -> None:
        """Row the boat, step the world (shoal reads the boat), restock now and then."""
        steps, (x, y) = self.flock.steps, self.boat.position
        if self.autopilot:  # a figure of eight; bread and the net now and then
            self.pointer = (400 + 300 * math.sin(steps / 150), 225 + 130 * math.sin(steps / 75))
            if steps % 120 == 60:
                self.throw_bread(x + 60, y)
            if steps % 90 == 0:
                self.cast_net()
        dx, dy = self.pointer[0] - x, self.pointer[1] - y
        speed = min(BOAT_SPEED, 2 * math.hypot(dx, dy)) / (math.hypot(dx, dy) or 1.0)
        self.boat.position = (x + dx * speed * delta_time, y + dy * speed * delta_time)
        if dx or dy:
            self.boat.angle = -math.degrees(math.atan2(dy, dx))  # arcade turns clockwise
        esper.process(delta_time)
        if steps % 240 == 0 and len(self.flock) < STOCK:  # new fish swim in from the left
            self.flock.scatter("fish", 6, centre=(40, HEIGHT / 2), radius=20)

    def throw_bread(self, x: float, y: float) -> None:
        """Bread: an entity with a Position and Food (for fish and ducklings)."""
        esper.create_entity(Position(x, y), Food(bites=4, radius=5, species=("fish", "duck")))

    def cast_net(self) -> None:
        """Net the fish within reach of the boat (not the ducklings)."""
        fish = self.flock.query(*self.boat.position, NET_RADIUS, species="fish")
        self.flock.despawn(fish)
        self.netted += len(fish)

    def on_draw(self) -> None:
        """Draw the lily pads, the bread, the boids, the boat and the score."""
        self.clear()
        for x, y, r in LILY_PADS:
            arcade.draw_circle_filled(x, y, r, (70, 150, 60))
        for _, (food, at) in esper.get_components(Food, Position):
            arcade.draw_circle_filled(at.x, at.y, food.radius, (230, 200, 140))
        self.flock.draw()  # between the last two fixed steps
        arcade.draw_sprite(self.boat)
        self.hud.text = f"netted {self.netted}   bread eaten {self.fed}   pike's catch {self.lost}"
        self.hud.draw()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The boat rows towards the pointer."""
        self.pointer = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click throws bread."""
        self.throw_bread(x, y)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Space casts the net; Escape quits."""
        if symbol == arcade.key.SPACE:
            self.cast_net()
        elif symbol == arcade.key.ESCAPE:
            self.window.close()


if __name__ == "__main__":
    run(GameView, "fish_pond", WIDTH, HEIGHT)
