"""Fish that swim but stay on one spot (issue 41: "no fish stuck").

Run: ``python benchmarks/stuck.py`` (``--help`` for the options). For each level × player ×
seed it builds the tank as the game does (`Tank(load_level(name), seed=...)`, the level's own
fish), runs `--seconds` of game time at the game's fixed step and prints, over every fish,
the longest stay: the worst fish's longest, how many fish stayed `--long` s or more, and
where the worst one stayed. The players: ``idle`` is the game with no input (the player's
leader keeps to where it starts), ``autopilot`` the scripted figure eight. A decided level
is played on (its status is set back to playing), as `benchmarks/game_spacing.py` does.

A stay: a fish's position is sampled every step; from each step t0 on, it stays while every
sample is within `--radius` px (15) of where it was at t0 (round a torus the short way); its
longest stay is the longest such run over all t0. Fish are followed by entity, not by store
row (rows move when a fish is eaten); an eaten fish's stay ends when it is eaten.
"""

import argparse
import time

import numpy as np

from shoal.game.level import level_names, load_level
from shoal.game.tank import DT, Tank
from shoal.systems import warm_up

PLAYERS = ("idle", "autopilot")


def fish_tracks(level_name: str, player: str, seed: int, seconds: float) -> tuple[
        np.ndarray, tuple[float, float] | None]:  # fmt: skip
    """Every fish's position at every step ((steps, fish, 2), NaN once eaten), and the
    tank's size where it wraps (None in a box)."""
    level = load_level(level_name)
    tank = Tank(level, seed=seed, autopilot=player == "autopilot", free=True)
    try:
        store, fish_index = tank.flock.store, tank.flock.species.index("fish")
        entities = np.sort(store.entities[store.species == fish_index])
        steps = round(seconds / DT)
        tracks = np.full((steps, len(entities), 2), np.nan)
        for k in range(steps):
            tank.step(DT)
            fish = store.species == fish_index
            columns = np.searchsorted(entities, store.entities[fish])
            known = (columns < len(entities)) & (entities[np.minimum(columns, len(entities) - 1)]
                                                 == store.entities[fish])  # fmt: skip
            tracks[k, columns[known]] = store.positions[fish][known]
        wrap = (level.width, level.height) if level.boundary == "wrap" else None
        return tracks, wrap
    finally:
        tank.close()


def longest_stays(tracks: np.ndarray, radius: float,
                  wrap: tuple[float, float] | None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per fish, its longest stay (in steps) and the step it began at (see the module
    docstring).

    One pass per lag: the (fish, t0) pairs still within `radius` of their start are checked
    one step further; a swimming fish leaves within a few tenths of a second, so after the
    first lags only the staying pairs are left and each lag costs little.
    """
    steps, fish = tracks.shape[:2]
    start_t, start_f = np.nonzero(~np.isnan(tracks[..., 0]))
    longest, began = np.zeros(fish, np.int64), np.zeros(fish, np.int64)
    size = None if wrap is None else np.asarray(wrap, float)
    lag = 1
    while len(start_t):
        later = start_t + lag
        alive = later < steps
        offset = tracks[np.minimum(later, steps - 1), start_f] - tracks[start_t, start_f]
        if size is not None:
            offset -= np.rint(offset / size) * size
        inside = alive & (np.hypot(offset[:, 0], offset[:, 1]) <= radius)  # NaN: eaten, out
        ended = ~inside
        # A pair that ends at this lag stayed lag - 1 steps (t0 .. t0 + lag - 1); lags grow,
        # so a later end is always the longer stay.
        longer = start_f[ended], start_t[ended]
        longest[longer[0]], began[longer[0]] = lag - 1, longer[1]
        start_t, start_f = start_t[inside], start_f[inside]
        lag += 1
    return longest, began


def report(level_name: str, player: str, seed: int, seconds: float, radius: float,
           long: float) -> str:  # fmt: skip
    """One table row: the worst fish's longest stay, how many stayed `long` s or more, where."""
    started = time.perf_counter()
    tracks, wrap = fish_tracks(level_name, player, seed, seconds)
    longest, began = longest_stays(tracks, radius, wrap)
    stays = longest * DT
    worst = int(np.argmax(stays))
    x, y = tracks[began[worst], worst]
    stuck = stays >= long
    places = sorted({(round(float(tracks[began[f], f, 0]) / 10) * 10,
                      round(float(tracks[began[f], f, 1]) / 10) * 10)
                     for f in np.flatnonzero(stuck)})  # fmt: skip
    where = " ".join(f"({px},{py})" for px, py in places[:4]) + (" …" if len(places) > 4 else "")
    return (f"| {level_name:<10} | {player:<9} | {seed:4} | {stays[worst]:9.1f} | "
            f"({x:6.0f}, {y:5.0f}) | {int(stuck.sum()):9} | {where or '-':<30} | "
            f"{time.perf_counter() - started:5.1f} |")  # fmt: skip


def main() -> None:
    """Parse the options; print one row per level × player × seed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=level_names(), metavar="NAME")
    parser.add_argument("--players", nargs="+", default=list(PLAYERS), choices=PLAYERS)
    parser.add_argument("--seeds", nargs="+", type=int, default=list(range(5)), metavar="N")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--radius", type=float, default=15.0, help="px: what one spot is")
    parser.add_argument("--long", type=float, default=20.0, help="s: a stay this long is stuck")
    args = parser.parse_args()
    print(f"kernels ready in {warm_up():.1f} s; {args.seconds:.0f} s of game time, a spot "
          f"{args.radius:.0f} px, stuck from {args.long:.0f} s")  # fmt: skip
    print(f"| level      | player    | seed | worst (s) | worst at (x, y) | ≥ {args.long:.0f} s "
          f"  | where they stayed (10 px)      | s     |")  # fmt: skip
    print("|------------|-----------|------|-----------|-----------------|-----------|"
          "--------------------------------|-------|")  # fmt: skip
    for level_name in args.levels:
        for player in args.players:
            for seed in args.seeds:
                print(report(level_name, player, seed, args.seconds, args.radius, args.long),
                      flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
