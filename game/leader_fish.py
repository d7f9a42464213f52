"""The player's leader fish: it swims towards a target point with its own limits, round the
rocks in its way (the flock's navigator finds the way)."""

import math
from dataclasses import dataclass

# The leader is slower than its school (FISH's max_speed 110 px/s), so the school keeps up
# with it and catches up after a turn or a gap: at 150 px/s the school trailed (on the
# autopilot's tour, 26-68 % of the fish within 200 px of it; 62-82 % at 85 px/s with FISH's
# leader_weight 4: benchmarks/follow.py, seeds 0-2, 60 s). 85 is the fastest measured that
# keeps the kelp's school (it files through the gaps) at 60 % or more.
LEADER_SPEED = 85.0  # px/s
LEADER_ACCELERATION = 300.0  # px/s²
LEADER_TURN_RATE = math.radians(240.0)  # rad/s
ARRIVE_RADIUS = 60.0  # px: it slows down inside this distance of the target
TURNING_SPEED = 0.2  # share of its speed it keeps while turning a right angle or more
WAYPOINT_AHEAD = 24.0  # px: going round a rock, it heads for a point this far along the way


@dataclass(slots=True)
class LeaderState:
    """Where the leader is, its heading (rad) and speed (px/s)."""

    x: float
    y: float
    heading: float = 0.0
    speed: float = 0.0

    @property
    def velocity(self) -> tuple[float, float]:
        """Its velocity vector."""
        return (self.speed * math.cos(self.heading), self.speed * math.sin(self.heading))


def swim_towards(
    state: LeaderState, target: tuple[float, float], dt: float, remaining: float | None = None
) -> None:
    """Turn (at most LEADER_TURN_RATE) and speed up or slow down towards `target`.

    It never teleports: the heading turns and the speed changes at limited rates, and it
    slows to a stop when it arrives. `remaining` is how far it still has to go when that is
    not the straight distance to `target` (a waypoint on the way round a rock: see
    `shoal.systems.Navigator.waypoint`).
    """
    dx, dy = target[0] - state.x, target[1] - state.y
    distance = math.hypot(dx, dy) if remaining is None else remaining
    turn = 0.0
    if math.hypot(dx, dy) > 1e-6:
        wanted = math.atan2(dy, dx)
        turn = (wanted - state.heading + math.pi) % (2 * math.pi) - math.pi
        limit = LEADER_TURN_RATE * dt
        state.heading += max(-limit, min(limit, turn))
    # Slow down to turn sharply (round a rock, back on itself): at full speed the turn
    # would carry it wide, into whatever it is turning round.
    sharpness = max(TURNING_SPEED, math.cos(min(abs(turn), math.pi / 2)))
    wanted_speed = LEADER_SPEED * min(1.0, distance / ARRIVE_RADIUS) * sharpness
    change = LEADER_ACCELERATION * dt
    state.speed += max(-change, min(change, wanted_speed - state.speed))
    vx, vy = state.velocity
    state.x += vx * dt
    state.y += vy * dt


def patrol_point(t: float, width: float, height: float) -> tuple[float, float]:
    """A scripted target for the autopilot (headless runs): a slow figure eight."""
    return (
        width / 2 + 0.32 * width * math.sin(0.25 * t),
        height / 2 + 0.28 * height * math.sin(0.5 * t),
    )
