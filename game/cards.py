"""Cards: the boxes drawn over the tank (level intro, help, pause, game over, the finish).

A card is a title, some lines and a hint at the bottom, centred in the window and sized to
it: text scales with the window (see `ui_scale`) and long lines wrap, so a card fits from
640 × 400 up to 4K. arcade.Text lays text out when its text or size changes, so the texts
are kept and reused (`TextCache`) rather than made anew every frame.
"""

from dataclasses import dataclass

import arcade

TEXT = arcade.types.Color(215, 230, 245)
TITLE = arcade.types.Color(255, 225, 120)
HINT = arcade.types.Color(160, 200, 235)
SHADE = arcade.types.Color(8, 16, 28, 215)
BASE_WIDTH, BASE_HEIGHT = 1280, 720  # the window size at which the UI scale is 1


def ui_scale(width: int, height: int) -> float:
    """Text size factor for a window: 1 at 1280 × 720, 3 at 3840 × 2160; never below 0.75,
    so that text stays readable in a small window (lines wrap there instead)."""
    return max(0.75, min(width / BASE_WIDTH, height / BASE_HEIGHT, 4.0))


class TextCache:
    """arcade.Text objects by slot, remade only when their text, size or wrap width change."""

    def __init__(self) -> None:
        self._texts: dict[str, tuple[tuple[object, ...], arcade.Text]] = {}

    def get(self, slot: str, text: str, size: float, colour: arcade.types.Color,
            *, width: int | None = None, bold: bool = False, anchor_x: str = "left",
            align: str = "left") -> arcade.Text:  # fmt: skip
        """The Text of `slot` showing `text` (wrapped at `width` px when given)."""
        key = (text, round(size, 1), tuple(colour), width, bold, anchor_x, align)
        cached = self._texts.get(slot)
        if cached is not None and cached[0] == key:
            return cached[1]
        label = arcade.Text(text, 0, 0, colour, size, width=width, bold=bold,
                            anchor_x=anchor_x, anchor_y="top", align=align,
                            multiline=width is not None)  # fmt: skip
        self._texts[slot] = (key, label)
        return label


@dataclass(frozen=True, slots=True)
class Card:
    """What a card says.

    Attributes:
        title: the big line at the top.
        lines: the body, one paragraph each (they wrap).
        hint: the keys to press, at the bottom.
        banner: a small card near the top (pause) that leaves the tank in view.
    """

    title: str
    lines: tuple[str, ...] = ()
    hint: str = ""
    banner: bool = False


def draw_card(card: Card, texts: TextCache, width: int, height: int) -> None:
    """Draw `card` centred in a window of `width` × `height` px."""
    scale = ui_scale(width, height)
    pad = round(18 * scale)
    box_w = min(width - 2 * round(8 * scale), round((420 if card.banner else 760) * scale))
    inner = max(box_w - 2 * pad, 50)
    parts = [texts.get("card.title", card.title, 28 * scale, TITLE, width=inner, bold=True,
                       align="center")]  # fmt: skip
    parts += [texts.get(f"card.line{k}", line, 15 * scale, TEXT, width=inner, align="center")
              for k, line in enumerate(card.lines)]  # fmt: skip
    if card.hint:
        parts.append(texts.get("card.hint", card.hint, 14 * scale, HINT, width=inner,
                               align="center"))  # fmt: skip
    gap = round(12 * scale)
    box_h = sum(part.content_height for part in parts) + gap * (len(parts) - 1) + 2 * pad
    box_h = min(box_h, height)
    top = height - round(70 * scale) if card.banner else (height + box_h) / 2
    left = (width - box_w) / 2
    arcade.draw_lrbt_rectangle_filled(left, left + box_w, top - box_h, top, SHADE)
    y = top - pad
    for part in parts:
        part.position = (left + pad, y)
        part.draw()
        y -= part.content_height + gap
