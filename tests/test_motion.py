"""Motion keeps every boid finite, within its speed limits and (contain) inside the box."""

import math

import esper
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.components import (
    ACCELERATIONS,
    FORCE_CAPS,
    STEERING_STYLES,
    Attractor,
    Position,
    Species,
)
from shoal.systems import FlockConfig, install

from worlds import scratch_world

W, H = 320.0, 240.0


@st.composite
def species(draw: st.DrawFn) -> Species:
    perception = draw(st.floats(1, 200))
    max_speed = draw(st.floats(1, 800))
    return Species(
        "s",
        perception_radius=perception,
        separation_radius=draw(st.floats(0, perception)),
        fov_degrees=draw(st.floats(0, 360)),
        separation_weight=draw(st.floats(-5, 20)),
        alignment_weight=draw(st.floats(-5, 20)),
        cohesion_weight=draw(st.floats(-5, 20)),
        min_speed=draw(st.floats(0, max_speed)),
        max_speed=max_speed,
        max_force=draw(st.one_of(st.floats(0.01, 1e5), st.just(math.inf))),
        max_turn_rate=draw(st.one_of(st.floats(0.01, 1e4), st.just(math.inf))),
        max_neighbours=draw(st.integers(0, 10)),
        separation_falloff=draw(st.sampled_from(["inverse", "inverse_square"])),
        steering=draw(st.sampled_from(STEERING_STYLES)),
        force_cap=draw(st.sampled_from(FORCE_CAPS)),
        acceleration=draw(st.sampled_from(ACCELERATIONS)),
    )


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(
    sp=species(),
    boundary=st.sampled_from(["contain", "bounce", "wrap"]),
    dt=st.floats(1e-4, 0.25),
    n=st.integers(0, 60),
    seed=st.integers(0, 1000),
    clumped=st.booleans(),
)
def test_state_stays_finite_and_within_limits(
    sp: Species, boundary: str, dt: float, n: int, seed: int, clumped: bool
) -> None:
    with scratch_world():
        config = FlockConfig(width=W, height=H, boundary=boundary, margin=20, dt=dt, seed=seed)
        flock = install(config, [sp])
        if clumped:  # on top of each other, on the edge
            flock.spawn("s", np.tile([[0.0, H / 2]], (n, 1)))
        else:
            flock.scatter("s", n)
        for _ in range(40):
            flock.step()
            pos, vel = flock.positions, flock.velocities
            assert np.all(np.isfinite(pos)) and np.all(np.isfinite(vel))
            speed = np.linalg.norm(vel, axis=1)
            assert np.all(speed <= sp.max_speed * (1 + 1e-9))
            assert np.all(speed >= sp.min_speed * (1 - 1e-9))
            if boundary == "wrap":
                assert np.all((pos >= 0) & (pos < (W, H)))
            else:
                assert np.all((pos >= 0) & (pos <= (W, H)))


def test_contain_turns_back_before_the_wall() -> None:
    flock = install(FlockConfig(width=W, height=H, margin=40), [Species("s")])
    flock.spawn("s", [[W / 2, H / 2]], [[100.0, 0.0]])
    xs = []
    for _ in range(240):
        flock.step()
        xs.append(flock.positions[0, 0])
    assert max(xs) < W  # the wall push alone turned it: it never touched the wall
    assert xs[-1] < max(xs)


def test_bounce_reflects() -> None:
    sp = Species("s", min_speed=100, max_speed=100, max_turn_rate=math.inf)
    flock = install(FlockConfig(width=W, height=H, boundary="bounce"), [sp])
    flock.spawn("s", [[W - 1, H / 2]], [[100.0, 0.0]])
    flock.step()
    assert flock.velocities[0, 0] < 0
    assert flock.positions[0, 0] <= W


def test_wrap_crosses_the_edge() -> None:
    sp = Species("s", min_speed=100, max_speed=100)
    flock = install(FlockConfig(width=W, height=H, boundary="wrap"), [sp])
    flock.spawn("s", [[W - 1, H / 2]], [[100.0, 0.0]])
    flock.step()
    assert 0 <= flock.positions[0, 0] < 1


def test_turn_rate_is_limited() -> None:
    sp = Species(
        "s",
        min_speed=100,
        max_speed=100,
        max_turn_rate=90,
        max_force=1e6,
        separation_weight=20,
        cohesion_weight=0,
    )
    flock = install(FlockConfig(width=W, height=H, boundary="wrap", dt=0.1), [sp])
    flock.spawn("s", [[10.0, 10.0], [10.0, 14.0]], [[100.0, 0.0], [100.0, 0.0]])
    before = np.arctan2(flock.velocities[:, 1], flock.velocities[:, 0])
    flock.step()
    after = np.arctan2(flock.velocities[:, 1], flock.velocities[:, 0])
    assert np.all(np.abs(after - before) <= math.radians(9) + 1e-9)
    assert np.any(np.abs(after - before) > math.radians(8.9))  # it did want to turn more


@pytest.mark.parametrize("speed", [1e-320, 5e-324, 1e-160])
def test_a_boid_almost_at_rest_speeds_up_to_its_min_speed_not_to_infinity(speed: float) -> None:
    """Found by the chaos test: a boid whose velocity had decayed to a subnormal number
    (1e-320 px/s) was scaled up to min_speed by min_speed / speed, which overflows: its
    velocity became ±inf."""
    with scratch_world():
        flock = install(FlockConfig(W, H, seed=1), [Species("s", min_speed=20.0, max_speed=20.0)])
        flock.spawn("s", [(100.0, 100.0)], [(speed, -speed)])
        flock.step(1 / 60)
        vx, vy = flock.velocities[0]
        assert math.isfinite(vx) and math.isfinite(vy)
        assert math.hypot(vx, vy) == pytest.approx(20.0)
        assert vx > 0.0 > vy  # the heading it had, however slow


def _pulled_speed_change(acceleration: str, steps: int) -> float:
    """How much a lone boid's velocity changed in `steps` steps of a pull of at most 50
    px/s² (an attractor far ahead of it, at right angles to its heading)."""
    with scratch_world():
        sp = Species(
            "s", steering="reynolds", max_speed=600.0, min_speed=0.0, max_force=50.0,
            max_turn_rate=math.inf, food_weight=1.0, acceleration=acceleration,
        )  # fmt: skip
        flock = install(FlockConfig(width=4000, height=4000, boundary="wrap", seed=1), [sp])
        flock.spawn("s", np.array([[100.0, 100.0]]), np.array([[10.0, 0.0]]))
        esper.create_entity(Position(100.0, 3000.0), Attractor(radius=4000.0))
        for _ in range(steps):
            flock.step()
        return float(np.linalg.norm(flock.velocities[0] - (10.0, 0.0)))


def test_a_kept_acceleration_adds_up_step_after_step() -> None:
    # ACCELERATIONS: a fresh pull of 50 px/s² changes the velocity by at most 50 px/s in a
    # second; a kept one adds up (post 003): after k steps it pulls k times as hard.
    steps = 30
    fresh = _pulled_speed_change("fresh", steps)
    kept = _pulled_speed_change("kept", steps)
    assert fresh <= 50.0 * steps / 60.0 + 1e-6, fresh
    # The kept pulls sum to 50 × (1 + 2 + ... + 30) / 60 px/s, less what the turn took.
    assert kept > 0.8 * 50.0 * steps * (steps + 1) / 2 / 60.0, (fresh, kept)
