"""Plots that never mislead (docs/results.md, "Saturated"): every plot of every experiment, and the
sweep plots, checked over the data their figures draw, not over pixels.

The tables are synthetic, shaped like each experiment's results (its quick points' labels and scenario
keys, every metric column): points past saturation, and incomplete points of closed workloads, carry
latencies and completion times of :data:`HUGE` cycles and confidence intervals wider than the mean,
as a run that ended early can. The rules:

- no latency, delay or completion of such a point is drawn as a value: nothing drawn in data
  coordinates reaches :data:`TOP`, and no y-axis reaches it either (the log scaling is not driven by
  them);
- where a curve goes past saturation it is marked instead at the top of its axes (a marker in axes
  coordinates, in the upper half, gid ``past-saturation``) at the first point past it, one marker per
  run of such points, not one per point, and the legend or title says what the marker means;
- every confidence interval drawn ends at or above zero, and above zero on a log axis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from flitcast.experiments import EXPERIMENTS
from flitcast.plot import PAST_STEP, PAST_Y
from flitcast.saturation import saturated

#: a past-saturation or incomplete point's latencies and completion (cycles): what a run that ended early reports
HUGE = 1e12
#: nothing drawn may reach this (HUGE cycles is above it in every unit the studies draw: ns, µs, byte times;
#: the collectives' real completions reach ten million cycles, on their panels' axis up to 10^8)
TOP = 1e9
LATENCIES = ("latency_mean", "latency_dest_mean", "latency_unicast_mean", "latency_multicast_mean", "packet_latency_mean", "network_latency_mean", "latency_p50", "latency_p99", "latency_max")
MARK = "past-saturation"


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The figures the plots save, by file name (nothing is written)."""
    import matplotlib.figure

    figures: dict[str, Any] = {}

    def save(figure: Any, path: Any, *args: Any, **kwargs: Any) -> None:
        figures[Path(path).name] = figure

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", save)
    return figures


def _metrics(i: int, load: float | None, top_load: float, past: bool) -> dict[str, Any]:
    """One row's metrics: plausible below saturation, a run that ended early past it."""
    light = load is None or load <= min(0.05, top_load / 10)
    base = 50.0 * (1 + (load or 0)) + i % 7
    row: dict[str, Any] = {c: HUGE if past else base * (1 + 0.1 * k) for k, c in enumerate(LATENCIES)}
    # an interval wider than the mean: at light load (few operations) and past saturation
    row["latency_ci95"] = 3 * HUGE if past else (1.5 if light else 0.2) * base
    carried = top_load / 2 if load is None else min(load, top_load / 2)
    row |= {
        "offered_load": load, "effective_load": load, "accepted_load": carried, "multicast_throughput": carried,
        "multicast_offered": load, "saturated": past, "saturation_reason": "drain" if past else "",
        "completion_cycles": HUGE if past else 1000.0 + 10 * i, "completion_dest_mean": HUGE if past else 800.0,
        "root_busy_cycles": 400.0 + i, "link_concentration": np.nan if past else 2.0,
        "link_concurrency": np.nan if past else 3.0, "cycles": 10_000, "error": "",
    }
    return row


def synthetic(experiment_id: str) -> pd.DataFrame:
    """A results table shaped like the experiment's (its quick points): open workloads saturate above half
    the highest load, closed ones leave every third point incomplete."""
    experiment = EXPERIMENTS[experiment_id]
    points = experiment.run_points(True)
    flats = [p.scenario.flat() for p in points]
    # (load 0 is a closed workload too: the collective program's one collective at cycle 0)
    loads = [f.get("workload.load") or None for f in flats]
    numeric = [x for x in loads if isinstance(x, (int, float))]
    top = max(numeric, default=1.0)
    rows = []
    for i, (point, flat, load) in enumerate(zip(points, flats, loads, strict=True)):
        load = float(load) if isinstance(load, (int, float)) else None
        past = i % 3 == 1 if load is None else load > top / 2
        rows.append({**dict(point.labels), **flat, **_metrics(i, load, top, past)})
    results = pd.DataFrame(rows)
    if experiment.derive is not None:
        results = experiment.derive(results)
    return results


def violations(name: str, figure: Any) -> list[str]:
    """What ``figure`` draws against the rules (module doc)."""
    from matplotlib.collections import LineCollection, PathCollection
    from matplotlib.patches import Rectangle

    found: list[str] = []
    for ax in figure.axes:
        where = f"{name} [{ax.get_title() or ax.get_ylabel()}]"
        log = ax.get_yscale() == "log"
        if max(ax.get_ylim()) >= TOP:
            found.append(f"{where}: the y-axis reaches {max(ax.get_ylim()):g}")
        for line in ax.get_lines():
            y = np.ma.masked_invalid(np.asarray(line.get_ydata(), dtype=float))
            if line.get_gid() == MARK:
                # (in axes coordinates: the top of the axes, the markers of several curves at one x stacked down)
                if line.get_transform() != ax.get_xaxis_transform() or not ((y >= 0.5) & (y <= 1.0)).all():
                    found.append(f"{where}: a past-saturation marker not at the top of the axes")
                continue
            if line.get_transform() == ax.get_xaxis_transform() or line.get_gid() == "study":
                # (a line across the axes at one x, y in axes coordinates, or a value the study states: not data)
                continue
            if (y >= TOP).any():
                found.append(f"{where}: line {line.get_label()!r} draws {y.max():g}")
            if (y < 0).any() or (log and (y <= 0).any()):
                found.append(f"{where}: line {line.get_label()!r} goes down to {y.min():g}")
        for collection in ax.collections:
            if isinstance(collection, LineCollection):  # error bars
                for segment in collection.get_segments():
                    ys = np.asarray(segment, dtype=float)[:, 1]
                    if (ys >= TOP).any():
                        found.append(f"{where}: an interval reaches {ys.max():g}")
                    if (ys < 0).any() or (log and (ys <= 0).any()):
                        found.append(f"{where}: an interval goes down to {ys.min():g}{' on a log axis' if log else ''}")
            elif isinstance(collection, PathCollection):
                ys = np.asarray(collection.get_offsets(), dtype=float).reshape(-1, 2)[:, 1]
                if (ys[np.isfinite(ys)] >= TOP).any():
                    found.append(f"{where}: a marker at {ys.max():g}")
        for patch in ax.patches:
            if isinstance(patch, Rectangle) and abs(patch.get_height()) >= TOP:
                found.append(f"{where}: a bar of {patch.get_height():g}")
        if any(line.get_gid() == MARK for line in ax.get_lines()):
            legend = ax.get_legend()
            texts = [t.get_text() for t in legend.get_texts()] if legend else []
            if not any("past saturation" in t or "incomplete" in t for t in [*texts, ax.get_title()]):
                found.append(f"{where}: past-saturation markers that neither the legend nor the title explains")
    return found


def marks(figures: dict[str, Any]) -> list[float]:
    """The x of every past-saturation marker drawn."""
    return [float(x) for f in figures.values() for ax in f.axes for line in ax.get_lines() if line.get_gid() == MARK for x in line.get_xdata()]


@pytest.mark.parametrize("experiment_id", list(EXPERIMENTS))
def test_experiment_plots_draw_no_latency_past_saturation(experiment_id: str, drawn: dict[str, Any], tmp_path: Path) -> None:
    results = synthetic(experiment_id)
    assert results["saturated"].any()
    EXPERIMENTS[experiment_id].plot(results, tmp_path)
    assert drawn, "the experiment drew no figure"
    found = [v for name, figure in drawn.items() for v in violations(name, figure)]
    assert not found, "\n".join(found)


#: the experiments whose figures show a latency, delay or completion time (the others show accepted load,
#: throughput peaks or the modelled values alone): each marks its past-saturation points
MARKED = [
    "banikazemi-fig5", "casetti-fig6", "casetti-fig7", "casetti-fig10", "casetti-fig11", "oral-fig2", "oral-fig3",
    "oral-fig5", "oral-model", "oral-fig14", "sivaram-fig14", "sivaram-fig16", "sivaram-fig17", "sivaram-fig18", "sivaram-fig19",
    "zhou-one-source", "zhou-multi-source", "zhou-all-source", "dragonfly-routing", "collectives",
]


@pytest.mark.parametrize("experiment_id", MARKED)
def test_experiment_plots_mark_points_past_saturation(experiment_id: str, drawn: dict[str, Any], tmp_path: Path) -> None:
    results = synthetic(experiment_id)
    EXPERIMENTS[experiment_id].plot(results, tmp_path)
    xs = marks(drawn)
    assert xs, "no point past saturation is marked"
    past = results[results["saturated"]]
    columns = [c for c in ("workload.load", "load", "group", "message_bytes") if c in past]
    shown = {float(v) for c in columns for v in pd.to_numeric(past[c], errors="coerce").dropna()}
    assert set(xs) <= shown


def test_every_experiment_is_checked() -> None:
    assert set(MARKED) <= set(EXPERIMENTS)
    unmarked = set(EXPERIMENTS) - set(MARKED)
    # what the unmarked ones draw: accepted load and throughput peaks (a result past saturation too), and
    # oral's startup (the root's sending, a result of an incomplete run too) and modelled tree creation
    assert unmarked == {
        "banikazemi-fig6", "banikazemi-fig7", "banikazemi-fig8", "banikazemi-fig9", "banikazemi-grid",
        "casetti-fig3", "casetti-fig4", "casetti-fig5", "casetti-fig8", "casetti-fig9", "oral-fig4",
        "sivaram-fig15",
    }


# --- the sweep plots -------------------------------------------------------------------------------------------


def _sweep(program: str = "open_loop") -> pd.DataFrame:
    """Two curves (vcs = 2, 4) over loads 0.05 … 0.5: saturated from 0.4 with a latency that falls (a run that
    ended early), one point with 17.5 times the light-load latency but not flagged (a result: drawn), CIs wider
    than the mean at light load and at the flagged points."""
    rows = []
    for vcs in (2, 4):
        for i, load in enumerate(np.round(np.arange(0.05, 0.501, 0.05), 2)):
            flagged = load >= 0.4
            latency = {0.4: 3400.0, 0.45: 2000.0, 0.5: 1800.0}.get(load, 40.0 + 20 * i)
            if load == 0.35:
                latency = 700.0  # 17.5 × the 40 cycles at 0.05, not flagged: drawn
            ci = 1.5 * latency if load == 0.05 or flagged else 0.1 * latency
            rows.append({
                "workload.load": load, "network.vcs": vcs, "workload.program": program, "offered_load": load,
                "effective_load": load, "accepted_load": min(load, 0.38), "latency_mean": latency, "latency_ci95": ci,
                "saturated": bool(flagged), "error": "",
            })
    return pd.DataFrame(rows)


def test_sweep_latency_is_drawn_only_below_saturation(drawn: dict[str, Any], tmp_path: Path) -> None:
    from flitcast.plot import plot_latency_vs_load

    frame = _sweep()
    plot_latency_vs_load(frame, ["workload.load", "network.vcs"], tmp_path / "latency_vs_load.png")
    figure = drawn["latency_vs_load.png"]
    assert not violations("latency_vs_load.png", figure)
    latency, accepted = figure.axes
    past_loads = {0.4, 0.45, 0.5}
    for vcs in (2, 4):
        part = frame[frame["network.vcs"] == vcs]
        assert set(part.loc[saturated(part), "workload.load"]) == past_loads
    curves = [line for line in latency.get_lines() if line.get_label().startswith("vcs=")]
    assert len(curves) == 2
    for line in curves:
        x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
        drawn_at = {round(v, 2) for v in x[np.isfinite(y)]}
        assert drawn_at == {0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35}, "a latency drawn past saturation, or one not drawn below it"
    markers = [line for line in latency.get_lines() if line.get_gid() == MARK]
    assert len(markers) == 2
    for row, (marker, curve) in enumerate(zip(markers, curves, strict=True)):
        # one ▲ per curve, where it goes past saturation (not a row of them along the top) …
        assert [round(float(v), 2) for v in marker.get_xdata()] == [0.4]
        assert marker.get_color() == curve.get_color()
        # … the second curve's below the first's at the same load, so that both colours show
        assert list(marker.get_ydata()) == [pytest.approx(PAST_Y - PAST_STEP * row)]
    # the load axis still spans the loads past saturation
    assert latency.get_xlim()[1] >= 0.5
    # the scale: 40–700 cycles below saturation, linear (the 3,400 past it must not make it log)
    assert latency.get_yscale() == "linear" and latency.get_ylim()[1] < 1000
    # accepted load is a result past saturation too: every point drawn, the past ones hollow
    points = [line for line in accepted.get_lines() if line.get_label().startswith("vcs=")]
    assert all(len(line.get_xdata()) == 10 for line in points)


def test_sweep_intervals_never_go_below_zero_on_a_log_axis(drawn: dict[str, Any], tmp_path: Path) -> None:
    from flitcast.plot import plot_latency_vs_load

    frame = _sweep()
    # a knee wide enough for a log axis below saturation: 40 → 1,200 cycles, none of it past the 10× rule
    frame.loc[frame["workload.load"] == 0.05, "latency_mean"] = 200.0
    frame.loc[frame["workload.load"] == 0.3, "latency_mean"] = 1900.0
    frame.loc[frame["workload.load"] == 0.05, "latency_ci95"] = 300.0
    frame.loc[frame["workload.load"] == 0.1, "latency_mean"] = 40.0  # (below the 0.05 point: log scaling)
    plot_latency_vs_load(frame, ["workload.load", "network.vcs"], tmp_path / "latency_vs_load.png")
    figure = drawn["latency_vs_load.png"]
    latency = figure.axes[0]
    assert latency.get_yscale() == "log"
    assert not violations("latency_vs_load.png", figure)


def test_closed_sweep_shows_no_completion_for_an_incomplete_point(drawn: dict[str, Any], tmp_path: Path) -> None:
    from flitcast.plot import plot_completion

    frame = pd.DataFrame({
        "workload.program": "torus_multicast", "workload.group_size": [4, 8, 12, 16],
        "completion_cycles": [300.0, 500.0, HUGE, 900.0], "latency_mean": [200.0, 300.0, HUGE, 500.0],
        "saturated": [False, False, True, False], "error": "",
    })
    plot_completion(frame, ["workload.group_size"], tmp_path / "completion_vs_group_size.png")
    figure = drawn["completion_vs_group_size.png"]
    assert not violations("completion_vs_group_size.png", figure)
    for ax in figure.axes:
        assert [float(x) for line in ax.get_lines() if line.get_gid() == MARK for x in line.get_xdata()] == [12.0]


def test_a_curve_is_marked_where_each_run_past_saturation_starts_and_once_per_colour(drawn: dict[str, Any], tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.plot import draw_latency, first_past

    x = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    past = [False, True, False, True, True, True]  # (a closed workload's incomplete points need not be contiguous)
    assert list(first_past(x, past)) == [False, True, False, True, False, False]
    assert list(first_past(x[::-1], past[::-1])) == [False, False, True, False, True, False]  # (by x, not by order given)
    fig, ax = plt.subplots()
    draw_latency(ax, x, [1.0] * 6, past, color="C0")
    draw_latency(ax, x, [2.0] * 6, past, color="C0")  # (another quantity of the same curve: no second ▲)
    draw_latency(ax, x, [3.0] * 6, past, color="C1")
    marks_drawn = [line for line in ax.get_lines() if line.get_gid() == MARK]
    assert [list(m.get_xdata()) for m in marks_drawn] == [[0.2, 0.4], [0.2, 0.4]]
    assert [m.get_color() for m in marks_drawn] == ["C0", "C1"]
    assert list(marks_drawn[1].get_ydata()) == [pytest.approx(PAST_Y - PAST_STEP)] * 2
    plt.close(fig)
