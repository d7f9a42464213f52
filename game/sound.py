"""Sound: a few of arcade's own effects for eating, a catch and the end of a level.

Two halves. `choose_backends` is arcade-free and runs before arcade is imported: importing
arcade opens an audio driver (OpenAL first), and on a machine with no audio device that
fills the terminal with the audio libraries' complaints. So headless runs, and machines where
no sound device or sound server can be found, get pyglet's silent driver from the start.
`Sounds` (which imports arcade lazily) plays the effects, with a mute switch, and stays
silent whenever a sound cannot be loaded or played.
"""

import os
import sys
from pathlib import Path
from typing import Any

EFFECTS = {
    "eat": (":resources:sounds/coin1.wav", 0.25),
    "catch": (":resources:sounds/hurt2.wav", 0.5),
    "won": (":resources:sounds/upgrade1.wav", 0.6),
    "lost": (":resources:sounds/gameover2.wav", 0.6),
}
"""Effect name → (arcade resource, volume 0..1)."""
MIN_GAP = 0.08
"""Seconds: the same effect is not restarted sooner (a school eating makes many bites)."""


def audio_device_found() -> bool:
    """False where sound surely cannot play: Linux/BSD with no sound card and no sound
    server (PulseAudio or PipeWire) to talk to. True elsewhere (Windows and macOS always
    have a driver that copes without a device)."""
    if sys.platform in ("win32", "darwin", "cygwin"):
        return True
    if Path("/dev/snd").is_dir() or os.environ.get("PULSE_SERVER"):
        return True
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    return bool(runtime) and any(
        (Path(runtime) / name).exists() for name in ("pulse/native", "pipewire-0")
    )


def choose_backends(headless: bool) -> bool:
    """Before arcade is imported: the silent driver when headless or without an audio
    device (a user's own ARCADE_SOUND_BACKENDS wins). Returns whether sound may play."""
    if "ARCADE_SOUND_BACKENDS" in os.environ:
        return "silent" not in os.environ["ARCADE_SOUND_BACKENDS"].split(",")[0]
    if headless or not audio_device_found():
        os.environ["ARCADE_SOUND_BACKENDS"] = "silent"
        return False
    os.environ.setdefault("ALSOFT_LOGLEVEL", "0")  # OpenAL Soft: errors are ours to report
    return True


class Sounds:
    """The game's effects, loaded on first use; `muted` silences them.

    Args:
        enabled: False keeps it silent (headless, no device, or tests).
    """

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled and _driver_plays()
        self.muted = False
        self._loaded: dict[str, Any] = {}
        self._last: dict[str, float] = {}

    def toggle_mute(self) -> bool:
        """Mute or unmute; returns whether it is muted now."""
        self.muted = not self.muted
        return self.muted

    def play(self, name: str, now: float) -> bool:
        """Play effect `name` (at most once every MIN_GAP s); returns whether it played."""
        if not self.enabled or self.muted or now - self._last.get(name, -1e9) < MIN_GAP:
            return False
        sound = self._load(name)
        if sound is None:
            return False
        self._last[name] = now
        try:
            sound.play(volume=EFFECTS[name][1])
        except Exception:  # a driver that fails mid-game: go quiet rather than crash
            self.enabled = False
            return False
        return True

    def _load(self, name: str) -> Any:
        if name not in self._loaded:
            import arcade

            try:
                self._loaded[name] = arcade.load_sound(EFFECTS[name][0])
            except Exception:  # a missing codec or resource: that effect stays silent
                self._loaded[name] = None
        return self._loaded[name]


def _driver_plays() -> bool:
    """Whether pyglet's audio driver (opened when arcade was imported) can make sound."""
    try:
        import pyglet.media.drivers as drivers

        driver = drivers.get_audio_driver()  # type: ignore[no-untyped-call]
    except Exception:
        return False
    return driver is not None and type(driver).__name__ != "SilentDriver"
