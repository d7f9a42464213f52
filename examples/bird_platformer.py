"""Bird platformer: run and jump; the birds round the tree scatter when you come near.

``python -m examples.bird_platformer``: A/D or arrows run, W, Up or Space jumps, T makes the
birds tame or shy, Escape quits (see `examples.cli`).
shoal here: a world of its own (the game itself uses no esper), stepped with `Flock.step`; the
player's sprite is tied to the flock as a `Predator` that only scares (catch radius 0): shoal
reads where it is and how fast it really moves; platforms are `Obstacle`s and an `Attractor`
keeps the birds round the tree (`Flock.create_entity`); `Flock.tune` makes them tame or shy.
"""

import arcade
import arcade.key as K
from PIL import Image, ImageDraw

import shoal
from examples.cli import run
from shoal import Attractor, Obstacle, Position, Predator, Rect, Species, SpeciesLook

WIDTH, HEIGHT, BIRDS = 800, 450, "birds"  # BIRDS: the esper world shoal has to itself
GRAVITY, RUN, JUMP = 0.6, 4.0, 12.0  # arcade's platformer engine counts px per step
# Centre x, y, width, height of the ground and the ledges: sprites for the player to stand on,
# obstacles for the birds to fly round.
PLATFORMS = ((400, 20, 800, 40), (190, 140, 180, 16), (470, 230, 200, 16), (250, 320, 150, 16))
TREE = (660, 200)  # centre of the canopy
SHY, TAME = 140.0, 35.0  # fear radius (px): how near the player may come
BIRD = Species("bird", perception_radius=60, min_speed=30, max_speed=170, fear_radius=SHY,
               flee_weight=6, wander_weight=0.6, food_weight=1.0)  # fmt: skip


def player_texture() -> arcade.Texture:
    """A small runner, drawn with PIL: a red body and a round head."""
    image = Image.new("RGBA", (20, 34))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((3, 12, 16, 33), 4, fill=(200, 60, 50))
    draw.ellipse((4, 0, 15, 11), fill=(250, 210, 170))
    return arcade.Texture(image, hash="bird-platformer-player")


def bird_texture() -> arcade.Texture:
    """A swallow seen from above, facing +x (the way shoal turns sprites): dark swept wings,
    an orange head, so that a picture shows which way each bird flies."""
    image = Image.new("RGBA", (26, 22))
    draw = ImageDraw.Draw(image)
    draw.polygon([(1, 0), (18, 11), (1, 21), (8, 11)], fill=(40, 45, 75))
    draw.ellipse((4, 8, 20, 13), fill=(40, 45, 75))
    draw.ellipse((16, 7, 25, 14), fill=(240, 125, 55))
    return arcade.Texture(image, hash="bird-platformer-bird")


class GameView(arcade.View):
    """The level: ground, ledges, a tree with its birds, and the player."""

    def __init__(self, autopilot: bool = False) -> None:
        super().__init__()
        self.background_color = arcade.types.Color(160, 205, 240)
        self.autopilot, self.keys, self.heading = autopilot, set[int](), 1
        self.hud = arcade.Text("", 10, HEIGHT - 24, arcade.color.BLACK, 12)

    def setup(self) -> None:
        """Build the level; install shoal in its own esper world and put the agents there."""
        self.platforms: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
        for x, y, w, h in PLATFORMS:
            self.platforms.append(
                arcade.SpriteSolidColor(w, h, x, y, arcade.types.Color(90, 120, 60))
            )
        self.player = arcade.Sprite(player_texture(), center_x=60, center_y=60)
        self.engine = arcade.PhysicsEnginePlatformer(self.player, walls=self.platforms,
                                                     gravity_constant=GRAVITY)  # fmt: skip
        config = shoal.FlockConfig(WIDTH, HEIGHT, margin=40, seed=3)
        looks = {"bird": SpeciesLook(bird_texture())}
        self.flock = shoal.install(config, [BIRD], world=BIRDS, replace=True, looks=looks)
        self.flock.scatter("bird", 45, centre=TREE, radius=70)
        self.flock.tie(self.player, Predator(("bird",), catch_radius=0))  # it only scares them
        self.flock.create_entity(Position(*TREE), Attractor(900, dead_radius=50, species=("bird",)))
        for x, y, w, h in PLATFORMS:
            self.flock.create_entity(Obstacle(Rect(x, y, w, h)))

    def on_fixed_update(self, delta_time: float) -> None:
        """Move the player (arcade's engine), then step the birds (they read the player)."""
        if self.autopilot:  # run from end to end, jumping now and then
            if not 40 < self.player.center_x < WIDTH - 40:
                self.heading = 1 if self.player.center_x < WIDTH / 2 else -1
            self.keys = {K.D if self.heading > 0 else K.A}
            self.keys |= {K.SPACE} if self.flock.steps % 80 == 40 else set()
        right, left = self.keys & {K.D, K.RIGHT}, self.keys & {K.A, K.LEFT}
        self.player.change_x = RUN * (bool(right) - bool(left))
        if self.keys & {K.W, K.UP, K.SPACE} and self.engine.can_jump():
            self.engine.jump(JUMP)
        self.engine.update()
        self.flock.step(delta_time)  # every processor of shoal's world, the render stage too

    def on_draw(self) -> None:
        """Draw the tree, the ledges, the birds, the player and a line of help."""
        self.clear()
        x, y = TREE
        arcade.draw_lrbt_rectangle_filled(x - 10, x + 10, 40, y, (110, 80, 50))
        arcade.draw_circle_filled(x, y, 55, (70, 140, 70))
        self.platforms.draw()
        self.flock.draw()  # between the last two fixed steps (still while paused)
        arcade.draw_sprite(self.player)
        near = len(self.flock.query(*self.player.position, self.flock.species["bird"].fear_radius))
        mood = "shy" if self.flock.species["bird"].fear_radius == SHY else "tame"
        self.hud.text = f"birds are {mood} (T)    near you: {near}"
        self.hud.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Keys are held for running and jumping; T tames or frightens the birds; Escape quits."""
        self.keys.add(symbol)
        if symbol == K.T:  # a runtime change of a species parameter
            tame = self.flock.species["bird"].fear_radius == SHY
            self.flock.tune("bird", fear_radius=TAME if tame else SHY)
        elif symbol == K.ESCAPE:
            self.window.close()

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """A key let go."""
        self.keys.discard(symbol)


if __name__ == "__main__":
    run(GameView, "bird_platformer", WIDTH, HEIGHT)
