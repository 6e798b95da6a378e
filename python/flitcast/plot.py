"""Plots of sweep tables (matplotlib is imported only when a plot is drawn, with the Agg backend)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["model_plot", "plot_latency_vs_load"]

LOAD_KEY = "workload.load"


def _label(keys: Sequence[str], values: Sequence[Any]) -> str:
    return ", ".join(f"{k.split('.', 1)[-1]}={v}" for k, v in zip(keys, values, strict=True))


def plot_latency_vs_load(frame: pd.DataFrame, varied: Sequence[str], path: str | os.PathLike[str]) -> None:
    """Latency (mean ± 95% CI) and accepted load against offered load, one line per combination of the
    other varied keys; saturated points are drawn hollow."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = [k for k in varied if k != LOAD_KEY and k in frame.columns]
    data = frame.sort_values("offered_load", kind="stable")
    if groups:
        # list-valued parameters are not hashable; group on their text
        keyed = data.assign(**{f"__{k}": data[k].map(repr) for k in groups})
        parts = [
            (tuple(g[k].iloc[0] for k in groups), g) for _, g in keyed.groupby([f"__{k}" for k in groups], sort=False)
        ]
    else:
        parts = [((), data)]

    fig, (ax_lat, ax_acc) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
    try:
        for values, part in parts:
            label = _label(groups, values) if groups else None
            x = part["offered_load"].astype(float)
            y = part["latency_mean"].astype(float)
            err = part["latency_ci95"].astype(float).fillna(0.0)
            saturated = part["saturated"].astype(bool).to_numpy()
            line = ax_lat.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
            color = line[0].get_color()
            ax_lat.scatter(
                x[saturated], y[saturated], s=60, facecolors="white", edgecolors=color, zorder=3, linewidths=1.5
            )
            ax_acc.plot(x, part["accepted_load"].astype(float), marker="o", color=color, label=label)
            ax_acc.scatter(
                x[saturated],
                part["accepted_load"].astype(float)[saturated],
                s=60,
                facecolors="white",
                edgecolors=color,
                zorder=3,
                linewidths=1.5,
            )
        latencies = data["latency_mean"].astype(float)
        latencies = latencies[latencies > 0]
        if len(latencies) and latencies.max() > 20 * latencies.min():
            ax_lat.set_yscale("log")  # past saturation latency explodes; keep the knee readable
        top = float(data["offered_load"].max()) if len(data) else 1.0
        ax_acc.plot([0, top], [0, top], linestyle=":", color="grey", label="accepted = offered")
        ax_lat.set(
            xlabel="offered load (flits/node/cycle)",
            ylabel="message latency (cycles)",
            title="Latency vs offered load (hollow: saturated)",
        )
        ax_acc.set(
            xlabel="offered load (flits/node/cycle)",
            ylabel="accepted load (flits/node/cycle)",
            title="Accepted vs offered load",
        )
        for ax in (ax_lat, ax_acc):
            ax.grid(True, alpha=0.3)
            if groups:
                ax.legend(fontsize="small")
        ax_acc.legend(fontsize="small")
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
