"""Install and uninstall: one call each way, and nothing left behind.

A host that restarts its level installs again and again: after `uninstall` its esper world
holds none of shoal's processors (the render stage included), entities or handlers; a world
that `install` created is gone; the host's sprites are untouched. A thousand restarts keep
one set of processors and flat memory.
"""

import gc
import tracemalloc
from pathlib import Path

import arcade
import esper
import pytest

import shoal
from shoal import BOID_EATEN, FlockConfig, Leader, Obstacle, Predator, Rect, Species
from shoal.systems import RENDER_PRIORITY, STAGES
from shoal.systems.flock.ecs import processors, remove_handler
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.render import RenderSystem

DT = 1 / 60
FISH = Species("fish")


class Handler:
    def __init__(self) -> None:
        self.calls = 0

    def on_boid_eaten(self, boid: int, hunter: int, x: float, y: float) -> None:
        self.calls += 1


def world_contents(name: str) -> tuple[list[str], int, dict[str, int]]:
    """The processors (by class name), entity count and handlers of esper world `name`."""
    previous = esper.current_world
    esper.switch_world(name)
    try:
        names = [type(p).__name__ for p in processors()]
        handlers = {event: len(found) for event, found in esper.event_registry.items()}
        return names, len(esper._entities), handlers
    finally:
        esper.switch_world(previous)


def play(flock: shoal.Flock, player: arcade.Sprite, steps: int = 3) -> None:
    flock.scatter("fish", 40)
    flock.tie(player, Leader())
    flock.create_entity(Obstacle(Rect(300, 200, 40, 40)))
    walls: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
    walls.append(arcade.SpriteSolidColor(20, 80, 450, 200, arcade.color.GRAY))
    shoal.add_obstacles(flock, walls)  # the host's wall sprites: gone with the flock too
    for _ in range(steps):
        player.center_x += 2
        flock.step(DT)


def test_uninstall_in_the_hosts_world_leaves_only_the_hosts(
    window: arcade.Window, fresh_world: str
) -> None:
    host = esper.create_entity(Handler())  # the host's own entity, processor and handler
    host_handler = Handler()
    esper.set_handler(BOID_EATEN, host_handler.on_boid_eaten)
    before = world_contents(fresh_world)
    player = arcade.SpriteSolidColor(10, 10, 100, 100, arcade.color.WHITE)
    flock = shoal.install(FlockConfig(600, 400, seed=1), [FISH], render=True)
    handler = Handler()
    flock.set_handler(BOID_EATEN, handler.on_boid_eaten)
    play(flock, player)
    flock.draw()
    names, entities, _ = world_contents(fresh_world)
    assert "RenderSystem" in names and entities > 40
    shoal.uninstall(flock)
    assert world_contents(fresh_world) == before
    assert esper.entity_exists(host)
    assert (player.center_x, player.center_y) == (106, 100)
    assert not flock.installed and flock.renderer is None
    calls = (
        lambda: flock.step(DT),
        lambda: flock.update(DT),
        lambda: flock.scatter("fish", 1),
        lambda: flock.draw(),  # it had rendering: the message says why it has none now
    )
    for call in calls:
        with pytest.raises(RuntimeError, match="this flock was uninstalled"):
            call()
    shoal.uninstall(flock)  # a second time: nothing to do
    remove_handler(BOID_EATEN, host_handler.on_boid_eaten)  # the host's, before its world goes


def test_uninstall_deletes_a_world_install_created(window: arcade.Window) -> None:
    assert "own-level" not in esper.list_worlds()
    flock = shoal.install(FlockConfig(600, 400), [FISH], world="own-level", render=True)
    play(flock, arcade.SpriteSolidColor(10, 10, 100, 100, arcade.color.WHITE))
    shoal.uninstall(flock)
    assert "own-level" not in esper.list_worlds()


def test_uninstall_removes_a_render_stage_the_host_added_itself(fresh_world: str) -> None:
    """The leak of issue 17: a RenderSystem added by hand stayed behind after uninstall."""
    flock = shoal.install(FlockConfig(600, 400), [FISH])
    esper.add_processor(RenderSystem(flock), RENDER_PRIORITY)
    shoal.uninstall(flock)
    assert world_contents(fresh_world)[0] == []


def test_install_replaces_or_refuses_a_second_flock(fresh_world: str) -> None:
    first = shoal.install(FlockConfig(600, 400), [FISH])
    with pytest.raises(RuntimeError, match=r"already installed .* replace=True"):
        shoal.install(FlockConfig(600, 400), [FISH])
    second = shoal.install(FlockConfig(600, 400), [FISH], replace=True)
    assert not first.installed and second.installed
    assert shoal.installed_flock(fresh_world) is second
    assert len(world_contents(fresh_world)[0]) == len(STAGES)


def test_a_bad_look_installs_nothing(fresh_world: str) -> None:
    with pytest.raises(ValueError, match=r"RenderSystem: looks\['fish'\] = 3 must be a"):
        shoal.install(FlockConfig(600, 400), [FISH], looks={"fish": 3})  # type: ignore[dict-item]
    assert world_contents(fresh_world)[0] == []


def rss_bytes() -> int:
    """Resident memory of this process (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096


def live_gl_objects(window: arcade.Window) -> dict[str, int]:
    """OpenGL objects alive in the window's context (created minus freed), by kind."""
    stats = window.ctx.stats
    kinds = ("texture", "framebuffer", "buffer", "program", "vertex_array", "geometry")
    return {kind: getattr(stats, kind)[0] - getattr(stats, kind)[1] for kind in kinds}


@pytest.mark.slow
def test_a_thousand_restarts_keep_one_set_of_processors_and_flat_memory(
    window: arcade.Window,
) -> None:
    """A level that restarts 1,000 times, with rendering, a tied player and enemies, a
    handler and an obstacle: one set of processors; Python memory and live OpenGL objects
    the same after 1,000 restarts as after 200.

    The process's resident memory is reported, not held flat: Mesa's software renderer
    (llvmpipe) keeps freed buffer memory in a cache of its own, which grows with every
    new sprite drawn and levels off at tens of MB (~+70 MB in a 4,000-restart run of
    arcade alone, no shoal), so it says little about shoal.
    """
    player = arcade.SpriteSolidColor(10, 10, 100, 100, arcade.color.WHITE)
    enemies: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    enemies.append(arcade.SpriteSolidColor(10, 10, 500, 300, arcade.color.RED))
    handler = Handler()
    flock = None
    tracemalloc.start()
    marks: dict[int, tuple[int, dict[str, int], int]] = {}
    for restart in range(1, 1001):
        flock = shoal.install(FlockConfig(600, 400, seed=restart), [FISH], world="level",
                              replace=True, render=True)  # fmt: skip
        flock.set_handler(BOID_EATEN, handler.on_boid_eaten)
        flock.tie_all(enemies, Predator(catch_radius=0))
        play(flock, player, steps=2)
        window.clear()
        flock.draw()
        window.flip()  # a frame: arcade frees dead OpenGL objects here
        if restart in (200, 1000):
            gc.collect()
            window.ctx.gc()
            marks[restart] = (tracemalloc.get_traced_memory()[0], live_gl_objects(window),
                              rss_bytes())  # fmt: skip
    tracemalloc.stop()
    assert flock is not None
    names, _, handlers = world_contents("level")
    assert sorted(names) == sorted([cls.__name__ for cls, _ in STAGES] + ["RenderSystem"])
    assert handlers == {BOID_EATEN: 1}
    assert all(p.flock is flock for p in processors_of("level"))
    (heap_200, gl_200, rss_200), (heap_1000, gl_1000, rss_1000) = marks[200], marks[1000]
    print(
        f"\n800 restarts: Python heap {(heap_1000 - heap_200) / 1e3:+.1f} kB, live GL "
        f"objects {gl_200} -> {gl_1000}, process {(rss_1000 - rss_200) / 1e6:+.1f} MB"
    )
    assert heap_1000 - heap_200 < 400_000  # one flock leaked per restart would be MBs
    assert gl_1000 == gl_200
    shoal.uninstall(flock)
    assert "level" not in esper.list_worlds()


def processors_of(world: str) -> list[FlockProcessor]:
    previous = esper.current_world
    esper.switch_world(world)
    try:
        return [p for p in processors() if isinstance(p, FlockProcessor)]
    finally:
        esper.switch_world(previous)


def test_remove_handler_finds_a_bound_method(fresh_world: str) -> None:
    """esper 3.9's own remove_handler never finds a bound method (it compares a plain weak
    reference with the WeakMethod it stored); the flock's does."""
    flock = shoal.install(FlockConfig(600, 400), [FISH])
    handler = Handler()
    flock.set_handler(BOID_EATEN, handler.on_boid_eaten)
    esper.remove_handler(BOID_EATEN, handler.on_boid_eaten)
    assert world_contents(fresh_world)[2] == {BOID_EATEN: 1}  # esper's: still there
    flock.remove_handler(BOID_EATEN, handler.on_boid_eaten)
    assert world_contents(fresh_world)[2] == {}
