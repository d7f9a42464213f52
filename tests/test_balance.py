"""The game's balance rules, played through the windowed game's own input handlers by the
scripted players of `benchmarks/balance.py` (mouse motion, clicks and keys in window pixels,
one fixed step a 1/60 s frame): food and an idle mouse win nothing; leading wins.

The figures per level, player and seed are the benchmark's table (docs/game.md); these
tests check the rules on the levels where a cheap win would be easiest."""

import sys
from collections.abc import Iterator
from pathlib import Path

import arcade
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import balance

from shoal.game.level import level_names

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    win = arcade.Window(*balance.WINDOW, "balance tests", visible=False)
    yield win
    win.close()


@pytest.mark.parametrize("player", ["idle", "clicker"])
def test_neither_an_idle_mouse_nor_clicking_food_wins_the_first_level(
    window: arcade.Window, player: str
) -> None:
    """The easiest level, played to its time limit: the school never goes home by itself
    or after food (the player's pellets run out after a few clicks)."""
    row = balance.play(window, level_names()[0], player, 0, None)
    assert (row.outcome, row.fish_home) == ("lost", 0), row


def test_a_random_mouse_does_not_win_the_second_level(window: arcade.Window) -> None:
    row = balance.play(window, level_names()[1], "random", 0, None)
    assert row.outcome == "lost", row


def test_leading_the_school_home_wins_the_first_level(window: arcade.Window) -> None:
    """The competent player wins, with every fish it needed home and time to spare: the
    score counts the fish home and the seconds left."""
    row = balance.play(window, level_names()[0], "competent", 0, None)
    assert row.outcome == "won", row
    assert row.score > 10 * row.fish_home, row
