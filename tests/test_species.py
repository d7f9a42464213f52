"""Species parameters are validated, and changes apply on the next step."""

import math

import numpy as np
import pytest

from shoal.components import Species
from shoal.systems import FlockConfig, install


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"perception_radius": -1}, "perception_radius"),
        ({"perception_radius": math.nan}, "perception_radius"),
        ({"separation_radius": 80}, "separation_radius"),
        ({"fov_degrees": 361}, "fov_degrees"),
        ({"fov_degrees": -5}, "fov_degrees"),
        ({"min_speed": 200}, "min_speed"),
        ({"max_speed": 0}, "max_speed"),
        ({"max_speed": math.inf}, "max_speed"),
        ({"max_force": -1}, "max_force"),
        ({"max_turn_rate": 0}, "max_turn_rate"),
        ({"alignment_weight": math.nan}, "alignment_weight"),
        ({"cohesion_weight": "1"}, "cohesion_weight"),
        ({"max_neighbours": -1}, "max_neighbours"),
        ({"max_neighbours": 2.5}, "max_neighbours"),
        ({"separation_falloff": "cubic"}, "separation_falloff"),
        ({"steering": "magic"}, "steering"),
        ({"align_turn": -1}, "align_turn"),
        ({"alignment_radius": 80}, "alignment_radius"),
        ({"separation_combine": "max"}, "separation_combine"),
        ({"walls": "bounce"}, "walls"),
        ({"cruise_speed": 200}, "cruise_speed"),
        ({"burst_factor": 0.5}, "burst_factor"),
        ({"alarm_speed": 0}, "alarm_speed"),
        ({"heading_noise": -0.1}, "heading_noise"),
    ],
)
def test_invalid_values_name_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        Species("fish", **changes)  # type: ignore[arg-type]


def test_unlimited_force_and_turn_are_allowed() -> None:
    Species("fish", max_force=math.inf, max_turn_rate=math.inf)


def test_bad_config_names_the_field() -> None:
    with pytest.raises(ValueError, match="boundary"):
        FlockConfig(boundary="torus")
    with pytest.raises(ValueError, match="width"):
        FlockConfig(width=-3)
    with pytest.raises(ValueError, match="dt"):
        FlockConfig(dt=math.nan)


def test_tune_applies_on_next_step_and_rejects_bad_values() -> None:
    flock = install(FlockConfig(boundary="wrap"), [Species("fish")])
    flock.scatter("fish", 50)
    flock.step()
    flock.tune("fish", min_speed=150.0, max_speed=150.0)
    flock.step()
    speeds = np.linalg.norm(flock.velocities, axis=1)
    assert np.allclose(speeds, 150.0)
    with pytest.raises(ValueError, match="max_speed"):
        flock.tune("fish", max_speed=-1)
    with pytest.raises(ValueError, match="no parameter 'colour'"):
        flock.tune("fish", colour="red")
    assert flock.species["fish"].max_speed == 150.0  # unchanged by the failed tune


def test_duplicate_species_is_refused() -> None:
    flock = install(FlockConfig(), [Species("fish")])
    with pytest.raises(ValueError, match="already registered"):
        flock.add_species(Species("fish"))


def test_config_sizes_are_floats_so_kernels_compile_once() -> None:
    config = FlockConfig(width=200, height=100, margin=10, wall_weight=2)
    assert all(type(v) is float for v in (config.width, config.height, config.margin, config.dt))
