"""The history's plots (companion/plots.py): axes that hold every value, labels that fit a
phone, colours of at least 4.5:1 on the plot's background, and the numbers for the table
under each plot."""

from __future__ import annotations

from companion import plots


def contrast(foreground: str, background: str) -> float:
    """WCAG 2's contrast ratio of two #rrggbb colours."""
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                  for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_colour_reads_on_the_background():
    for colour in (plots.INK, *plots.COLOURS):
        assert contrast(colour, plots.BACKGROUND) >= 4.5, colour


def test_bars_scale_to_their_top_and_keep_their_numbers():
    plot = plots.bars("Jack's win rate", [("London 1888", 50.0), ("Mr. Jack", 100.0),
                                          ("Letters from Whitechapel", None)], unit="%",
                      top=100)
    full = plot["right"] - plot["left"]
    widths = [bar["width"] for bar in plot["bars"]]
    assert widths == [full / 2, full, 0]
    assert [bar["value"] for bar in plot["bars"]] == ["50%", "100%", "–"]
    assert plot["rows"] == [["London 1888", "50%"], ["Mr. Jack", "100%"],
                            ["Letters from Whitechapel", "–"]]
    assert [tick["label"] for tick in plot["ticks"]] == ["0%", "25%", "50%", "75%", "100%"]
    # Each label on its own line above its bar: rows never overlap.
    tops = [bar["label_y"] - plots.FONT for bar in plot["bars"]]
    assert all(b - a >= plots.BAR_ROW for a, b in zip(tops, tops[1:], strict=False))


def test_lines_fit_their_axis_and_write_a_few_months():
    months = [f"2024-{m:02d}" for m in range(1, 13)] + ["2025-01"]
    plot = plots.lines("Wins per month", months, [("Jack", [3] * 13),
                                                  ("Detectives", list(range(13)))])
    assert plot["ticks"][-1]["label"] == "20"  # the round top above 12
    assert len(plot["xlabels"]) <= plots.LABELS_MAX
    assert plot["xlabels"][0]["label"] == "2024-01"
    points = [tuple(map(float, p.split(","))) for p in plot["lines"][1]["points"].split()]
    assert points[0] == (plots.LEFT, plot["bottom"]) and points[-1][0] == plot["right"]
    assert all(plot["top"] <= y <= plot["bottom"] for _x, y in points)
    assert plot["rows"][12] == ["2025-01", "3", "12"]
    assert plot["columns"] == ["", "Jack", "Detectives"]


def test_nothing_to_draw():
    assert plots.lines("Wins per month", [], [("Jack", [])])["rows"] == []
    assert plots.bars("Jack's win rate", [])["bars"] == []


def test_an_axis_of_games_counts_in_whole_games():
    """Issue 38: a month of one game drew ticks "0.2" and "0.8", read as rates."""
    for highest in (0, 1, 2, 3, 4, 5, 7, 12, 19, 33, 250):
        plot = plots.lines("Wins per month", ["2026-01", "2026-02"],
                           [("Jack", [highest, 0]), ("Detectives", [0, 1])])
        labels = [str(tick["label"]) for tick in plot["ticks"]]
        assert all(label.isdigit() for label in labels), labels
        assert int(labels[-1]) >= highest
    one = plots.lines("Wins per month", ["2026-01"], [("Jack", [1])])
    assert [str(t["label"]) for t in one["ticks"]] == ["0", "1", "2", "3", "4"]


def test_a_percentage_axis_is_written_in_percent():
    plot = plots.lines("Jack's win rate", ["2026-01", "2026-02"], [("Jack", [20, 80])],
                       unit="%")
    assert [str(t["label"]) for t in plot["ticks"]] == ["0%", "25%", "50%", "75%", "100%"]
    assert plot["rows"] == [["2026-01", "20%"], ["2026-02", "80%"]]


def test_two_series_that_coincide_both_show():
    """Jack's wins were drawn under the detectives' where the two were equal: the first
    line is wide with round dots, the second thin and dashed with small squares, so the
    first shows around the second."""
    plot = plots.lines("Wins per month", ["2026-01", "2026-02"],
                       [("Jack", [2, 1]), ("Detectives", [2, 1])])
    first, second = plot["lines"]
    assert first["points"] == second["points"]
    assert first["width"] > 2 * second["width"] and first["size"] > second["size"]
    assert not first["dash"] and second["dash"]
    assert {first["marker"], second["marker"]} == {"circle", "square"}
