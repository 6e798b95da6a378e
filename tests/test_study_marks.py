"""The study's values on our panels (flitcast.experiments.study_marks) and what makes a panel legible: each
stated value drawn in a band of the visible resolution its claims read it with, from the panel's own axis;
a note on a panel the study gives no number for, and on one whose axis the study's text keeps; log axes
ticked with plain numbers; bar values where the study's marks cannot cover them."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from flitcast.experiments.study_marks import NO_NUMBER, NOTE_GID, STUDY_GID, draw_study_values, finish_panel, tolerance
from flitcast.experiments.verdicts import VISIBLE


@pytest.fixture
def ax() -> Iterator[Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots()
    yield axes
    plt.close(fig)


def _note(ax: Any) -> str:
    return " ".join(t.get_text() for t in ax.texts if t.get_gid() == NOTE_GID)


def _bands(ax: Any) -> list[Any]:
    return [p for p in ax.patches if p.get_gid() == STUDY_GID]


def test_a_stated_value_is_drawn_in_a_band_of_the_visible_resolution_of_the_panels_axis(ax: Any) -> None:
    ax.plot([0, 2], [0, 0.5])
    ax.set_ylim(0, 0.5)  # (not the claims' 0–1: the band is what a reader of this panel can tell apart)
    assert draw_study_values(ax, "casetti-fig3", "fig3") == 1
    (band,) = _bands(ax)
    assert band.get_y() == pytest.approx(0.2 - VISIBLE * 0.5)
    assert band.get_height() == pytest.approx(2 * VISIBLE * 0.5)
    assert ax.get_ylim() == pytest.approx((0, 0.5))  # (drawing it moves no limit)
    assert "visible resolution" in " ".join(t.get_text() for t in ax.get_legend().get_texts())
    assert NO_NUMBER not in _note(ax)


def test_on_a_log_axis_the_band_is_a_factor(ax: Any) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xlim(8, 2**20)
    assert draw_study_values(ax, "collectives", "allreduce_torus") == 1
    (band,) = _bands(ax)
    factor = math.exp(VISIBLE * math.log(2**20 / 8))
    low, width = band.get_x(), band.get_width()
    assert low == pytest.approx(2048 / factor) and low + width == pytest.approx(2048 * factor)
    assert tolerance(ax, "x", 2048, 2048) == pytest.approx((2048 / factor, 2048 * factor))


def test_a_value_off_the_panels_axis_is_said_not_drawn(ax: Any) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xlim(8, 8192)  # (a quick run's sizes)
    assert draw_study_values(ax, "collectives", "broadcast_torus") == 0
    assert ax.get_xlim() == pytest.approx((8, 8192))
    assert "12,288, 524,288: beyond this axis" in _note(ax) and NO_NUMBER not in _note(ax)


def test_a_panel_without_a_stated_number_says_so_and_one_with_numbers_does_not(ax: Any) -> None:
    import matplotlib.pyplot as plt

    ax.plot([1, 2], [1, 2])
    ax.set_title("Fig. 15(a)")
    assert draw_study_values(ax, "sivaram-fig15", "fig15a") == 0
    assert _note(ax) == NO_NUMBER
    fig, other = plt.subplots()
    other.plot([0, 1], [0, 1])
    assert draw_study_values(other, "sivaram-fig15", "fig15b") == 1
    assert _note(other) == ""
    plt.close(fig)


def test_the_studys_axis_is_a_note_not_data(ax: Any) -> None:
    ax.plot([4, 16], [0, 3000])
    assert draw_study_values(ax, "oral-fig2", "fig2a") == 0
    assert not _bands(ax) and not [line for line in ax.get_lines() if line.get_gid() == STUDY_GID]
    assert _note(ax) == f"{NO_NUMBER}; study's axis: 0–1,600 µs"


def test_bars_carry_the_study_as_a_line_and_a_band_of_their_width_and_the_legend_sits_outside(ax: Any) -> None:
    from flitcast.plot import bar_values

    names = ["O4", "LRU", "MRU", "RND", "RR", "LRUC", "LRUD"]
    bars = ax.bar(names, [0.97, 0.97, 0.80, 0.92, 0.97, 0.97, 0.97], width=0.6)
    ax.set_ylim(0, 1.05)
    bar_values(ax, bars)
    finish_panel(ax, "banikazemi-fig7", "fig7b", bars=names)
    for band in _bands(ax):
        assert band.get_width() == pytest.approx(0.6)
        assert band.get_height() == pytest.approx(2 * VISIBLE * 1.05)
    # our values at the bars' feet, never under the study's marks at their tops
    labels = [t for t in ax.texts if t.get_gid() != NOTE_GID]
    assert [t.get_text() for t in labels] == ["0.97", "0.97", "0.80", "0.92", "0.97", "0.97", "0.97"]
    assert all(t.xy[1] == 0 for t in labels)
    legend = ax.get_legend()
    assert legend.get_bbox_to_anchor().bounds[0] > ax.get_window_extent().x1 - 1  # (right of the axes)


@pytest.mark.parametrize("base", [10, 2])
def test_log_ticks_read_as_plain_numbers(ax: Any, base: int) -> None:
    from flitcast.plot import plain_log_ticks

    ax.plot([10, 5000], [15, 70])
    ax.set_yscale("log")
    ax.set_xscale("log", base=base)
    plain_log_ticks(ax)
    ax.figure.canvas.draw()
    texts = [t.get_text() for t in ax.get_yticklabels(minor=True) + ax.get_yticklabels() + ax.get_xticklabels() if t.get_text()]
    assert texts
    assert not [t for t in texts if "^" in t or "×" in t or "$" in t], texts
    assert {"20", "30", "40"} <= set(texts)  # (the minor ticks of a span under a decade: 2×10^1 read as 20)
    assert ("1,000" if base == 10 else "1,024") in [t.get_text() for t in ax.get_xticklabels()]
