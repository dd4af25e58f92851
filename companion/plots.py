"""The history's plots as geometry for a server-drawn SVG (``templates/history/plot.svg``):
bars and lines with their axes, ticks and labels. Pure: numbers in, a dict out;
its words are ``companion.words`` Texts, drawn in the reader's language by the template.

Sized for a phone and a projector alike: the drawing is ``WIDTH`` units wide and scales
to its box, so in a phone's card (about 300 px wide) a label of ``FONT`` units is
still 15 px tall, and the
colours keep 4.5:1 against the plot's own background (the page's panel). Each plot
carries its numbers as ``rows`` for the table under it (its text alternative).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from companion.words import Text, _

WIDTH = 400
HEIGHT = 260
FONT = 20
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 64
"""Room for the y axis' labels, the right edge, the top, and the x labels with a legend."""
LABELS_MAX = 3
"""X labels drawn at most: a fourth month (7 characters) under a phone's plot would overlap."""
BACKGROUND = "#1c2026"
INK = "#eef0f3"
GRID = "#4a525e"
COLOURS = ("#e0b354", "#6fb3ff", "#5cc28a", "#ff8f8f")
"""The series' colours: each at least 4.5:1 on BACKGROUND (tests/test_plots.py)."""


STYLES = ({"width": 7, "dash": "", "marker": "circle", "size": 6},
          {"width": 3, "dash": "9 5", "marker": "square", "size": 4})
"""Each series' line and marker, so that where two coincide (as many Jack's wins as the
detectives' in a month) both stay visible: the first wide and round-dotted under the
second, which is thin, dashed, with small squares."""


def _nice_top(value: float) -> float:
    """A round top for the y axis at or above ``value`` (1, 2 or 5 times a power of 10)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value)


def _count_top(value: float) -> int:
    """A top for an axis of counts whose four steps are whole numbers: 4 for up to 4
    games, else four round steps (8, 20, 40 ...), so no tick reads "0.2" of a game."""
    return 4 * max(1, int(_nice_top(value / 4)))


def _ticks(top: float, unit: str) -> list[dict[str, Any]]:
    plot_height = HEIGHT - TOP - BOTTOM
    return [{"y": round(TOP + plot_height * (1 - i / 4), 1),
             "label": _number(top * i / 4, unit)} for i in range(5)]


def _number(value: float, unit: str) -> Text:
    """A number as its reader writes it (German 2,5 and 50 %): a Text, so a title, a
    label and a number are all drawn in the language of whoever reads the plot."""
    shown: int | float = int(value) if value == int(value) else round(value, 1)
    if unit == "%":
        return _("%(value)s%%", value=shown)
    # Only a number: no words to translate, the catalogue gives the sentence as it is.
    return Text("%(value)s", params={"value": shown})


def _frame(title: str, unit: str, top: float) -> dict[str, Any]:
    return {"title": title, "width": WIDTH, "height": HEIGHT, "font": FONT,
            "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
            "ticks": _ticks(top, unit), "background": BACKGROUND, "ink": INK, "grid": GRID}


BAR_ROW = 56
"""A horizontal bar's row: its label above it, then the bar with its value."""
BAR_LEFT = 28
"""Room left of the bars for the first tick's label ("0%") under them."""


def bars(title: str, items: Sequence[tuple[str, float | None]], unit: str = "",
         top: float | None = None) -> dict[str, Any]:
    """One horizontal bar per item (label, value; None: no value, "–"), each label on
    its own line above its bar, so a long game's title is written whole on a phone."""
    values = [value for _label, value in items if value is not None]
    top = top if top is not None else _nice_top(max(values, default=0))
    right = WIDTH - RIGHT - 56  # room for the value after the longest bar
    height = TOP + BAR_ROW * max(len(items), 1) + 36
    plot = {"title": title, "width": WIDTH, "height": height, "font": FONT,
            "background": BACKGROUND, "ink": INK, "grid": GRID, "horizontal": True,
            "left": BAR_LEFT, "right": right, "top": TOP, "bottom": height - 36,
            "ticks": [{"x": round(BAR_LEFT + (right - BAR_LEFT) * i / 4, 1),
                       "label": _number(top * i / 4, unit)} for i in range(5)]}
    plot["bars"] = []
    for index, (label, value) in enumerate(items):
        y = TOP + BAR_ROW * index
        length = 0 if value is None else (right - BAR_LEFT) * min(value, top) / top
        plot["bars"].append({
            "label": label, "label_y": y + FONT, "y": y + 24, "height": 24,
            "x": BAR_LEFT, "width": round(length, 1), "colour": COLOURS[0],
            "value_x": round(BAR_LEFT + length + 6, 1), "value_y": y + 36,
            "value": "–" if value is None else _number(round(value, 1), unit)})
    plot["rows"] = [[label, "–" if value is None else _number(round(value, 1), unit)]
                    for label, value in items]
    plot["columns"] = ["", title]
    return plot


def lines(title: str, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float]]],
          unit: str = "") -> dict[str, Any]:
    """One line per series (name, a value per label), over the labels in order (months);
    at most ``LABELS_MAX`` of the labels are written under the x axis, evenly spread."""
    highest = max((v for _name, values in series for v in values), default=0)
    # A percentage runs to 100 %; anything else is a count of games.
    top = 100 if unit == "%" else _count_top(highest)
    plot = _frame(title, unit, top)
    count = len(labels)
    span = (WIDTH - LEFT - RIGHT) / max(count - 1, 1)
    bottom = plot["bottom"]

    def at(index: int, value: float) -> tuple[float, float]:
        x = LEFT + span * index if count > 1 else (LEFT + WIDTH - RIGHT) / 2
        return round(x, 1), round(bottom - (bottom - TOP) * value / top, 1)

    plot["lines"] = []
    for number, (name, values) in enumerate(series):
        points = [at(index, value) for index, value in enumerate(values)]
        style = STYLES[number % len(STYLES)]
        plot["lines"].append({
            "name": name, "colour": COLOURS[number % len(COLOURS)], **style,
            "points": " ".join(f"{x:g},{y:g}" for x, y in points),
            "dots": [{"x": x, "y": y} for x, y in points] if count <= 24 else [],
            "legend_x": LEFT + number * 150})
    step = max(1, math.ceil(count / LABELS_MAX))
    # The last month ends at the right edge: written leftwards, or it would be cut; the
    # first starts at the axis, rightwards, clear of the value axis's 0.
    plot["xlabels"] = [{"x": at(index, 0)[0], "label": labels[index],
                        "anchor": "end" if count > 1 and index == count - 1
                        else "start" if count > 1 and index == 0 else "middle"}
                       for index in range(0, count, step)]
    plot["rows"] = [[label, *(_number(values[index], unit) for _name, values in series)]
                    for index, label in enumerate(labels)]
    plot["columns"] = ["", *(name for name, _values in series)]
    return plot

