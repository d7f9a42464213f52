"""Make the navigation pictures in docs/images (headless): ``python docs/navigation_pictures.py``.

- nav_tour_caves.png, nav_tour_reef.png: the game's own view during the scripted leader tour
  of `benchmarks/nav_scenes.py` (food and sharks taken out, as when it is measured), the
  school following its leader round the rocks; the tour's way drawn faintly.
- nav_maze.png: a host's wall SpriteList (the maze of `nav_scenes`) with 100 followers
  drawn by `RenderSystem`, the leader having just come through a gap.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")  # before arcade is imported
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import arcade
import esper
import nav_scenes

from shoal.components import Leader, Position, Species, Velocity
from shoal.game.level import load_level
from shoal.game.tank import DT, Tank
from shoal.game.tank_view import TankView
from shoal.systems import FlockConfig, add_obstacles, install
from shoal.systems.render import RenderSystem

OUT = Path(__file__).resolve().parent / "images"


def tour_picture(window: arcade.Window, level: str, seconds: float) -> None:
    """The game's view `seconds` into `level`'s tour, saved as nav_tour_LEVEL.png."""

    def tank_without_agents(lv: object) -> Tank:
        tank = Tank(load_level(level), seed=1)
        nav_scenes._clear_agents(tank)
        return tank

    view = TankView(load_level(level), tank_without_agents, intro=False)
    window.show_view(view)
    tank = view.tank
    path = [tank.level.leader, *nav_scenes.TOURS[level]]
    walked = 0.0
    while tank.time < seconds:
        walked += nav_scenes.TARGET_SPEED * DT
        tank.target = nav_scenes._along(path, walked)
        view.on_update(DT)
    view.on_draw()
    _draw_way(view, path)
    arcade.get_image().convert("RGB").save(OUT / f"nav_tour_{level}.png", optimize=True)
    tank.close()


def _draw_way(view: TankView, path: list[tuple[float, float]]) -> None:
    """The tour's waypoints as a faint line, in the view's world coordinates."""
    with view.camera.activate():
        arcade.draw_line_strip(path, (255, 255, 255, 60), 2)


def maze_picture() -> None:
    """The maze with its followers as the leader comes through the third gap."""
    width, height = int(nav_scenes.MAZE_WIDTH), int(nav_scenes.MAZE_HEIGHT)
    window = arcade.Window(width, height, "maze", visible=False)
    window.background_color = arcade.types.Color(18, 40, 70)
    walls: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    walls.extend(nav_scenes.maze_walls(
        lambda x, y: arcade.SpriteSolidColor(32, 32, x, y, (110, 100, 90, 255))))  # fmt: skip
    config = FlockConfig(width=width, height=height, margin=30.0, seed=1)
    flock = install(config, [Species("follower")], world="maze-picture")
    add_obstacles(flock, walls)
    path = nav_scenes.maze_path()
    flock.scatter("follower", nav_scenes.MAZE_FOLLOWERS, centre=path[0], radius=80.0)
    with flock.in_world():
        leader = esper.create_entity(Position(*path[0]), Velocity(), Leader())
        render = RenderSystem(flock)
        esper.add_processor(render, 100)
    marker = arcade.SpriteCircle(8, (255, 90, 60, 255))
    leaders: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    leaders.append(marker)
    walked, before = 0.0, path[0]
    gap_3 = nav_scenes._length(path[:7]) + 40.0  # just through the third gap
    while walked < gap_3:
        walked += nav_scenes.MAZE_SPEED * DT
        x, y = nav_scenes._along(path, walked)
        with flock.in_world():
            esper.component_for_entity(leader, Position).xy = (x, y)
            esper.component_for_entity(leader, Velocity).xy = (
                (x - before[0]) / DT, (y - before[1]) / DT)  # fmt: skip
        before = (x, y)
        flock.step(DT)
    marker.position = before
    window.clear()
    arcade.draw_line_strip(path, (255, 255, 255, 50), 2)
    walls.draw()
    render.draw(1.0)
    leaders.draw()
    arcade.get_image().convert("RGB").save(OUT / "nav_maze.png", optimize=True)
    window.close()


def main() -> None:
    """Every picture, in turn."""
    window = arcade.Window(1280, 720, "navigation pictures", visible=False)
    tour_picture(window, "caves", 9.0)
    tour_picture(window, "reef", 23.0)
    window.close()
    maze_picture()
    print(f"pictures saved in {OUT}")


if __name__ == "__main__":
    main()
