"""Plots of sweep tables (matplotlib is imported only when a plot is drawn, with the Agg backend).

A sweep's plot (:func:`plot_sweep`) depends on its workload:

- an open workload (a load axis): latency and accepted load against the load applied —
  ``latency_vs_load.png``. The x-axis is ``effective_load`` (flits of the operations times their
  destinations, m·B_i of study 000 §7.2) wherever a multicast makes it differ from ``offered_load``,
  else ``offered_load`` (they are equal for unicast traffic). The grey dotted line is what every
  delivered flit would give: accepted = effective, times (M + ⌈M/P⌉·H)/M where multidestination worms
  carry H header flits per packet (``accepted_load`` counts every flit ejected, headers too);
- a closed workload (program ``batch`` or ``torus_multicast``: a fixed set of operations run to
  completion, no load axis): ``completion_cycles`` and ``latency_mean`` against the first varied key —
  ``completion_vs_<key>.png``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.saturation import past_saturation

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "closed_workload",
    "header_factor",
    "load_column",
    "model_plot",
    "plot_completion",
    "plot_latency_vs_load",
    "plot_sweep",
    "sweep_plot_name",
    "x_key",
]

LOAD_KEY = "workload.load"
#: programs that run a fixed set of operations to completion: their load columns are empty
CLOSED_PROGRAMS = ("batch", "torus_multicast")


def closed_workload(frame: pd.DataFrame) -> bool:
    """Every point of ``frame`` runs a closed workload (it has no load axis)."""
    if "workload.program" in frame.columns and len(frame):
        return bool(frame["workload.program"].isin(CLOSED_PROGRAMS).all())
    return False


def load_column(frame: pd.DataFrame) -> str:
    """The load to plot against: ``effective_load`` if it differs from ``offered_load`` anywhere in
    ``frame`` (multicast), else ``offered_load``."""
    if "effective_load" not in frame.columns:
        return "offered_load"
    offered = frame["offered_load"].astype(float)
    effective = frame["effective_load"].astype(float)
    both = offered.notna() & effective.notna()
    differs = ((offered - effective).abs() > 1e-9 * effective.abs().clip(lower=1e-12))[both]
    return "effective_load" if bool(differs.any()) else "offered_load"


def header_factor(row: Any) -> float:
    """Flits ejected per payload flit of an operation: (M + ⌈M/P⌉·H)/M for a message of M flits in
    packets of at most P flits, each carrying H header flits (``workload.header_flits``, multidestination
    worms); 1 without headers. ``row`` is a row (or any mapping) of a results table."""
    headers = _number(row, "workload.header_flits")
    message = _number(row, "workload.message_flits")
    packet = _number(row, "workload.packet_flits")
    if not headers or not message or not packet:
        return 1.0
    return (message + math.ceil(message / packet) * headers) / message


def _number(row: Any, key: str) -> float:
    try:
        value = float(row[key])
    except (KeyError, TypeError, ValueError):
        return 0.0
    return value if math.isfinite(value) else 0.0


def x_key(frame: pd.DataFrame, varied: Sequence[str]) -> str:
    """The x-axis of a closed workload's sweep: the first varied key with numbers for values, else the
    first varied key."""
    present = [k for k in varied if k in frame.columns]
    if not present:
        raise ValueError(f"none of the varied keys {list(varied)} is a column of the table")
    return next((k for k in present if _numeric(frame[k])), present[0])


def _numeric(column: pd.Series) -> bool:
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return is_numeric_dtype(column) and not is_bool_dtype(column)


def sweep_plot_name(frame: pd.DataFrame, varied: Sequence[str]) -> str:
    """The file name of a sweep's plot: ``latency_vs_load.png`` for an open workload,
    ``completion_vs_<key>.png`` (the varied key on the x-axis, without its table) for a closed one."""
    if closed_workload(frame):
        return f"completion_vs_{x_key(frame, varied).split('.', 1)[-1]}.png"
    return "latency_vs_load.png"


def plot_sweep(frame: pd.DataFrame, varied: Sequence[str], directory: str | os.PathLike[str]) -> Path:
    """Draw a sweep's plot into ``directory`` (module doc) and return its path."""
    path = Path(directory) / sweep_plot_name(frame, varied)
    if closed_workload(frame):
        plot_completion(frame, varied, path)
    else:
        plot_latency_vs_load(frame, varied, path)
    return path


def _label(keys: Sequence[str], values: Sequence[Any]) -> str:
    return ", ".join(f"{k.split('.', 1)[-1]}={v}" for k, v in zip(keys, values, strict=True))


def _parts(data: pd.DataFrame, groups: Sequence[str]) -> list[tuple[tuple[Any, ...], pd.DataFrame]]:
    """(values of the group keys, rows) per combination of ``groups``, in order of appearance."""
    if not groups:
        return [((), data)]
    # list-valued parameters are not hashable; group on their text
    keyed = data.assign(**{f"__{k}": data[k].map(repr) for k in groups})
    return [(tuple(g[k].iloc[0] for k in groups), g) for _, g in keyed.groupby([f"__{k}" for k in groups], sort=False)]


def _hollow(ax: Any, x: Any, y: Any, mask: Any, color: str) -> None:
    ax.scatter(x[mask], y[mask], s=60, facecolors="white", edgecolors=color, zorder=3, linewidths=1.5)


def plot_latency_vs_load(frame: pd.DataFrame, varied: Sequence[str], path: str | os.PathLike[str]) -> None:
    """Latency (mean ± 95% CI) and accepted load against the load applied (:func:`load_column`), one line
    per combination of the other varied keys; points past saturation (flitcast.saturation) are drawn hollow; the grey dotted line is
    accepted = load, with the header flits of multidestination worms where there are any (module doc)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    load = load_column(frame)
    name = load.removesuffix("_load")  # offered | effective
    groups = [k for k in varied if k != LOAD_KEY and k in frame.columns]
    data = frame.sort_values(load, kind="stable")

    fig, (ax_lat, ax_acc) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
    try:
        for values, part in _parts(data, groups):
            label = _label(groups, values) if groups else None
            x = part[load].astype(float)
            y = part["latency_mean"].astype(float)
            accepted = part["accepted_load"].astype(float)
            err = part["latency_ci95"].astype(float).fillna(0.0)
            saturated = past_saturation(part, []).to_numpy()
            line = ax_lat.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
            color = line[0].get_color()
            _hollow(ax_lat, x, y, saturated, color)
            ax_acc.plot(x, accepted, marker="o", color=color, label=label)
            _hollow(ax_acc, x, accepted, saturated, color)
        latencies = data["latency_mean"].astype(float)
        latencies = latencies[latencies > 0]
        if len(latencies) and latencies.max() > 20 * latencies.min():
            ax_lat.set_yscale("log")  # past saturation latency explodes; keep the knee readable
        _identity_lines(ax_acc, data, load, name)
        axis = f"{name} load (flits/node/cycle)"
        latency = "operation latency (cycles)" if name == "effective" else "message latency (cycles)"
        ax_lat.set(xlabel=axis, ylabel=latency, title=f"Latency vs {name} load (hollow: past saturation)")
        ax_acc.set(xlabel=axis, ylabel="accepted load (flits/node/cycle)", title=f"Accepted vs {name} load")
        for ax in (ax_lat, ax_acc):
            ax.grid(True, alpha=0.3)
            if groups:
                ax.legend(fontsize="small")
        if ax_acc.get_legend_handles_labels()[0]:
            ax_acc.legend(fontsize="small")
        fig.savefig(path, dpi=120)
    finally:
        plt.close(fig)


def _identity_lines(ax: Any, data: pd.DataFrame, load: str, name: str) -> None:
    """accepted = load, one grey line per ratio of ejected to payload flits (:func:`header_factor`)."""
    if not len(data):
        return
    factors = data.apply(header_factor, axis=1).round(9)
    x = data[load].astype(float)
    styles = [":", "-.", "--", (0, (1, 3))]
    for i, factor in enumerate(sorted(set(factors))):
        top = float(x[factors == factor].max())
        if not math.isfinite(top):
            continue
        label = f"accepted = {name}" + ("" if factor == 1 else f" (+ headers, ×{factor:.4g})")
        ax.plot([0, top], [0, top * factor], linestyle=styles[i % len(styles)], color="grey", label=label, zorder=2.5)


#: what a closed workload's columns show, for the axis labels
CLOSED_COLUMNS = {
    "completion_cycles": "completion (cycles)",
    "latency_mean": "mean operation latency (cycles)",
}
#: how an incomplete point (``saturated``) shows in each panel: without a completion time, or hollow
CLOSED_NOTES = {"completion_cycles": "(incomplete: no point)", "latency_mean": "(hollow: incomplete)"}


def plot_completion(frame: pd.DataFrame, varied: Sequence[str], path: str | os.PathLike[str]) -> None:
    """A closed workload's sweep: ``completion_cycles`` and ``latency_mean`` (where the table has them)
    against the first numeric varied key (:func:`x_key`), one line per combination of the other varied
    keys; incomplete points (``saturated``: the operations did not finish within ``run.drain_max_cycles``)
    are drawn hollow."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key = x_key(frame, varied)
    groups = [k for k in varied if k != key and k in frame.columns]
    columns = [c for c in CLOSED_COLUMNS if c in frame.columns and frame[c].notna().any()] or ["completion_cycles"]
    numeric = _numeric(frame[key])
    data = frame.sort_values(key, kind="stable") if numeric else frame.assign(**{key: frame[key].map(str)})
    programs = ", ".join(dict.fromkeys(map(str, frame["workload.program"])))
    short = key.split(".", 1)[-1]

    fig, axes = plt.subplots(1, len(columns), figsize=(5.5 * len(columns), 4.5), layout="constrained", squeeze=False)
    try:
        for values, part in _parts(data, groups):
            label = _label(groups, values) if groups else None
            incomplete = part["saturated"].astype(bool).to_numpy() if "saturated" in part else None
            for ax, column in zip(axes[0], columns, strict=True):
                x = part[key].astype(float) if numeric else part[key]
                y = part[column].astype(float)
                (line,) = ax.plot(x, y, marker="o", linestyle="-" if numeric else "none", label=label)
                if incomplete is not None:
                    _hollow(ax, x, y, incomplete, line.get_color())
        for ax, column in zip(axes[0], columns, strict=True):
            ax.set(xlabel=short, ylabel=CLOSED_COLUMNS[column], title=f"{column} vs {short} {CLOSED_NOTES[column]}")
            ax.grid(True, alpha=0.3)
            if groups:
                ax.legend(fontsize="small")
        fig.suptitle(f"closed workload ({programs}): no load axis", fontsize=9)
        fig.savefig(path, dpi=120)
    finally:
        plt.close(fig)


def model_plot(frame: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Study 004's model: latency (µs, log scale) against group size, one line per algorithm (and Mu-torus
    partition length) and message size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    try:
        sizes = sorted(frame["message_bytes"].unique())
        for (algorithm, r, size), part in frame.groupby(["algorithm", "r", "message_bytes"], dropna=False, sort=False):
            label = algorithm + (f" r={int(r)}" if r == r and r is not None else "") + (f", {size} B" if len(sizes) > 1 else "")
            part = part.sort_values("group")
            ax.plot(part["group"], part["latency_us"], marker="o", markersize=3, label=label)
        ax.set_yscale("log")
        ax.set_xlabel("multicast group size (nodes)")
        ax.set_ylabel("completion latency, model (µs)")
        k = int(frame["k"].iloc[0])
        ax.set_title(f"study 004 small-message model, {k}×{k} unidirectional torus", fontsize=9)
        ax.legend(fontsize=7)
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)
