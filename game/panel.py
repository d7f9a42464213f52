"""The tuning panel: arcade.gui sliders for the fish species and the school, and presets.

`arcade.gui` cannot be imported in headless mode, so the game imports this module only when
the panel is first opened (P). Every change applies live through `Flock.tune`; a value the
species refuses (say a minimum speed above the maximum) is shown and changes nothing.
"""

from collections.abc import Callable

import arcade
import arcade.gui as gui
import numpy as np

from shoal.game.presets import PRESETS, preset
from shoal.game.tank import MAX_FISH, MIN_FISH, Tank

SLIDERS: tuple[tuple[str, float, float], ...] = (
    ("separation_weight", 0.0, 5.0),
    ("alignment_weight", 0.0, 5.0),
    ("cohesion_weight", 0.0, 5.0),
    ("perception_radius", 10.0, 150.0),
    ("separation_radius", 0.0, 60.0),
    ("min_speed", 0.0, 200.0),
    ("max_speed", 10.0, 300.0),
)
"""The fish species' parameters on the panel: (field, lowest, highest)."""
TEXT = arcade.types.Color(225, 235, 245)
WIDTH = 260


class TuningPanel:
    """Sliders and a preset menu at the right of the window, over the tank.

    Args:
        window: the game window (the panel takes its mouse events while enabled).
        tank: the tank whose fish it tunes (`attach` another when the level changes).
        report: shows a one-line message (refused values).
        changed: told the name of each change applied ("fish", a field, "preset"): the
            game marks the run as practice.
    """

    def __init__(self, window: arcade.Window, tank: Tank, report: Callable[[str], None],
                 changed: Callable[[str], None] = lambda what: None) -> None:  # fmt: skip
        self.manager = gui.UIManager(window)
        self.report = report
        self.changed = changed
        self.tank = tank
        self.sliders: dict[str, gui.UISlider] = {}
        self.labels: dict[str, gui.UILabel] = {}
        box = gui.UIBoxLayout(vertical=True, space_between=2)
        for field, low, high in (*SLIDERS, ("fish", float(MIN_FISH), float(MAX_FISH))):
            self._add_slider(box, field, low, high)
        choices: list[str | None] = list(sorted(PRESETS))
        self.presets = gui.UIDropdown(default="(preset)", options=choices, width=WIDTH)
        self.presets.on_change = self._on_preset  # type: ignore[method-assign]
        box.add(self.presets)
        anchor = gui.UIAnchorLayout()
        anchor.add(box.with_background(color=arcade.types.Color(0, 0, 0, 150)).with_padding(
            all=8), anchor_x="right", anchor_y="top", align_x=-8, align_y=-40)  # fmt: skip
        self.manager.add(anchor)
        self.attach(tank)

    @property
    def enabled(self) -> bool:
        """True while shown (and taking mouse events)."""
        return bool(self.manager._enabled)

    def toggle(self) -> bool:
        """Show or hide the panel; returns whether it is shown."""
        if self.enabled:
            self.manager.disable()
        else:
            self.manager.enable()
        return self.enabled

    def draw(self) -> None:
        """Draw it (call in on_draw, in window pixels)."""
        if self.enabled:
            self.manager.draw()

    def attach(self, tank: Tank) -> None:
        """Tune `tank` from now on; the sliders show its fish species."""
        self.tank = tank
        species = tank.flock.species["fish"]
        for field, slider in self.sliders.items():
            value = float(tank.fish if field == "fish" else getattr(species, field))
            slider.value = min(max(value, slider.min_value), slider.max_value)
            self._label(field, value)

    # --- changes -------------------------------------------------------------------------
    def _add_slider(self, box: gui.UIBoxLayout, field: str, low: float, high: float) -> None:
        label = gui.UILabel(text=field, width=WIDTH, text_color=TEXT, font_size=11)
        slider = gui.UISlider(value=low, min_value=low, max_value=high, width=WIDTH, height=22)

        def changed(event: gui.UIOnChangeEvent) -> None:
            self.set(field, float(event.new_value))

        slider.on_change = changed  # type: ignore[method-assign]
        box.add(label)
        box.add(slider)
        self.sliders[field] = slider
        self.labels[field] = label

    def set(self, field: str, value: float) -> None:
        """Apply one value live: a species parameter, or the number of fish."""
        if field == "fish":
            self._set_fish(round(value))
        else:
            try:
                self.tank.flock.tune("fish", **{field: value})
            except ValueError as error:
                self.report(str(error))
                return
        self._label(field, value)
        self.changed(field)

    def _set_fish(self, count: int) -> None:
        tank, store = self.tank, self.tank.flock.store
        fish_rows = np.flatnonzero(store.species == tank.flock.species.index("fish"))
        if count < len(fish_rows):
            tank.flock.despawn(store.entities[fish_rows[count:]].copy())
        elif count > len(fish_rows):
            centre = tank.level.leader if tank.leader is None else (tank.leader.x, tank.leader.y)
            tank.flock.scatter("fish", count - len(fish_rows), centre=centre, radius=80.0)

    def _on_preset(self, event: gui.UIOnChangeEvent) -> None:
        if event.new_value not in PRESETS:
            return
        changes = preset(str(event.new_value)).changes
        try:
            self.tank.flock.tune("fish", **changes)
        except ValueError as error:
            self.report(str(error))
        else:
            self.changed("preset")
        self.attach(self.tank)

    def _label(self, field: str, value: float) -> None:
        shown = f"{value:.0f}" if field == "fish" else f"{value:.2f}"
        self.labels[field].text = f"{field.replace('_', ' ')}: {shown}"
