"""Couzin's zones (issue 18, item 5): sweep the width of the zone of orientation and print (or
plot) the school's polarization and milling: the phase diagram of Couzin et al. (2002),
"Collective memory and spatial sorting in animal groups".

Run: ``python benchmarks/zones.py`` (``--help`` for the options; ``--plot FILE`` draws the
diagram, with matplotlib: ``pip install ".[plots]"``). The model is the ``zones`` steering
style with the paper's values in body lengths L (`--length` px): N = 100, zone of repulsion
r_r = 1 L, zone of attraction Δr_a = 14 L wide beyond the zone of orientation (Δr_o, swept),
a field of view of 270°, speed 3 L/s, turning rate 40°/s, and heading noise σ = 0.05 rad per
step of τ = 0.1 s (0.158 rad/√s). The boids start in a disc of 6 L and run `--seconds` at the
paper's step τ in an open world (a box too large to meet); each point is the mean over the
last `--tail` s.

The paper's four phases, as Δr_o grows: swarm (low polarization and milling), torus (milling
high, polarization low), dynamic parallel (polarization between about 0.5 and 0.95: a
travelling school that bends and turns), highly parallel (polarization above 0.95). In this
2-D version the torus holds over a wider band of Δr_o than in the paper's 3-D one, and the
torus and the parallel groups both occur at Δr_o ≈ 9-12 (which one depends on the start:
the paper's "collective memory").
"""

import argparse
from dataclasses import dataclass

import esper
import numpy as np

from shoal.components import Species
from shoal.systems import FlockConfig, install, warm_up
from shoal.systems.metrics import milling, polarization

TAU = 0.1  # s: the paper's step
WORLD = 20000.0  # px: the group never meets the walls
PHASES = ("swarm", "torus", "dynamic parallel", "highly parallel")
EXAMPLES = ((0.0, 0, "swarm"), (6.0, 0, "torus"), (9.5, 1, "dynamic parallel"),
            (14.0, 0, "highly parallel"))  # fmt: skip
"""(Δr_o, seed, phase): one run of each phase (tests/test_zones.py, the docs' pictures)."""


@dataclass(frozen=True, slots=True)
class Couzin:
    """The paper's model in body lengths of `length` px (see the module docstring)."""

    orientation: float  # Δr_o, L
    attraction: float = 14.0  # Δr_a, L
    length: float = 10.0  # px
    count: int = 100

    def species(self) -> Species:
        """The ``zones`` species with these zones (no bodies: the paper's fish are points,
        and its zone of repulsion, one body length, is where bodies would act)."""
        repulsion = 1.0 * self.length
        orientation = repulsion + self.orientation * self.length
        return Species(
            "fish", steering="zones", separation_radius=repulsion,
            alignment_radius=orientation,
            perception_radius=orientation + self.attraction * self.length, fov_degrees=270.0,
            min_speed=3.0 * self.length, max_speed=3.0 * self.length, max_turn_rate=40.0,
            heading_noise=0.05 / np.sqrt(TAU), max_force=np.inf, personal_space=0.0,
        )  # fmt: skip


def run(model: Couzin, seed: int, seconds: float, tail: float) -> tuple[float, float]:
    """Polarization and milling, each the mean over the last `tail` s (sampled each second)."""
    world = f"zones-{model.orientation}-{seed}"
    flock = install(FlockConfig(WORLD, WORLD, "contain", seed=seed, dt=TAU), [model.species()],
                    world=world)  # fmt: skip
    try:
        flock.scatter("fish", model.count, centre=(WORLD / 2, WORLD / 2),
                      radius=6.0 * model.length)  # fmt: skip
        samples = []
        for second in range(round(seconds)):
            for _ in range(round(1 / TAU)):
                flock.step()
            if second >= seconds - tail:
                pos, vel = flock.positions, flock.velocities
                samples.append((polarization(vel), milling(pos, vel)))
        mean = np.mean(samples, axis=0)
        return float(mean[0]), float(mean[1])
    finally:
        esper.delete_world(world)


def phase(polar: float, mill: float) -> str:
    """The paper's phase of a group with these (time-averaged) measures."""
    if polar > 0.95:
        return "highly parallel"
    if polar >= 0.5 and mill < 0.5:
        return "dynamic parallel"
    if mill >= 0.5 and polar < 0.5:
        return "torus"
    if polar < 0.3 and mill < 0.3:
        return "swarm"
    return "between"


def plot(rows: list[tuple[float, int, float, float]], path: str, attraction: float) -> None:
    """The phase diagram: polarization and milling of each run against Δr_o, the phase most
    runs of a width are in shaded behind."""
    import matplotlib  # only for the picture: an optional extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = np.array(rows)
    widths = np.unique(data[:, 0])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    shades = dict(zip((*PHASES, "between"), ("0.93", "#fde2e2", "#e2ecfd", "#c9dcfb", "1.0"),
                      strict=True))  # fmt: skip
    majority = []
    for w in widths:
        shown = [phase(p, m) for p, m in data[data[:, 0] == w][:, 2:]]
        majority.append(max(set(shown), key=shown.count))
    edges = np.r_[widths[0] - 0.25, (widths[1:] + widths[:-1]) / 2, widths[-1] + 0.25]
    for k, name in enumerate(majority):
        ax.axvspan(edges[k], edges[k + 1], color=shades[name], lw=0)
        if k == 0 or majority[k - 1] != name:
            ax.text(edges[k] + 0.1, 0.97, name, fontsize=8, va="top", rotation=90)
    for column, label, colour in ((2, "polarization", "tab:blue"), (3, "milling", "tab:red")):
        ax.scatter(data[:, 0], data[:, column], s=12, color=colour, alpha=0.5)
        means = [data[data[:, 0] == w, column].mean() for w in widths]
        ax.plot(widths, means, color=colour, label=f"{label} (dots: seeds; line: mean)")
    ax.set_xlim(edges[0], edges[-1])
    ax.set_xlabel("width of the zone of orientation Δr_o (body lengths)")
    ax.set_ylabel("time-averaged measure")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"Couzin et al. (2002) zones in shoal: N = 100, Δr_a = {attraction:g} L; "
                 "shading: the phase of most seeds", fontsize=9)  # fmt: skip
    ax.legend(loc="center left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    """Print the table (and draw the diagram with --plot)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", type=float, nargs="*",
                        default=[0, 0.5, 1, 2, 3, 4, 6, 8, 9, 9.5, 10, 11, 12, 14])  # fmt: skip
    parser.add_argument("--attraction", type=float, default=14.0, help="Δr_a, body lengths")
    parser.add_argument("--length", type=float, default=10.0, help="a body length, px")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=150.0)
    parser.add_argument("--tail", type=float, default=50.0)
    parser.add_argument("--plot", default="", help="draw the diagram into this PNG")
    args = parser.parse_args()
    warm_up()
    rows: list[tuple[float, int, float, float]] = []
    print("Δr_o   seed  polarization  milling  phase")
    for width in args.widths:
        model = Couzin(width, args.attraction, args.length)
        for seed in range(args.seeds):
            polar, mill = run(model, seed, args.seconds, args.tail)
            rows.append((width, seed, polar, mill))
            print(f"{width:5.1f}  {seed:4d}  {polar:12.2f}  {mill:7.2f}  {phase(polar, mill)}",
                  flush=True)  # fmt: skip
    if args.plot:
        plot(rows, args.plot, args.attraction)


if __name__ == "__main__":
    main()
