"""Modules that moved keep their old import paths: a game written against an earlier
release of shoal still imports (the names are the very same objects as at their new home)."""

import importlib

import pytest

MOVED = {
    "shoal.systems.looks": "shoal.systems.render.looks",
    "shoal.systems.debug_overlay": "shoal.systems.render.debug_overlay",
    "shoal.systems.sprite_feed": "shoal.systems.render.sprite_feed",
    "shoal.systems.events": "shoal.systems.core.events",
}


@pytest.mark.parametrize(("old", "new"), MOVED.items())
def test_an_old_module_path_gives_the_same_names(old: str, new: str) -> None:
    alias, home = importlib.import_module(old), importlib.import_module(new)
    assert alias.__all__
    for name in alias.__all__:
        assert getattr(alias, name) is getattr(home, name), f"{old}.{name}"


def test_the_render_module_became_a_package_with_the_same_names() -> None:
    # What `shoal.systems.render` (a module before) and `shoal.systems.metrics` gave the
    # examples and games of earlier releases.
    earlier = {
        "shoal.systems.render": ("RenderSystem", "SpeciesLook", "fish_texture", "fixed_fraction",
                                 "shark_texture"),
        "shoal.systems.metrics": ("group_count", "mean_nn_distance", "milling", "polarization"),
    }  # fmt: skip
    for module, names in earlier.items():
        public = importlib.import_module(module).__all__
        assert set(names) <= set(public), f"{module} lost {set(names) - set(public)}"
