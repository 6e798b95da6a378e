"""Study 001 — Casetti, Leonardi, Neri, Anglano: multicasting at the host interface level in wormhole
networks. Figs 3–11 (§5).

System (docs/models/host_multicast.md): an 8×8 bidirectional Manhattan Street Network (the 8-ary 2-cube),
one host per switch; links of 50 byte times (a cycle is a byte time, a flit a byte); host adapters next to
their switches (1-cycle host links: our reading); wormhole switching with 250-byte slack buffers under
stop/go; dimension-order routing with two dateline virtual channels. Host adapters with one transmitter
relay the group's worms under the ACK/NACK/READY protocol with K-deep reception FIFOs in two buffer
classes (K = 4; Fig. 5: K = 1); multiple unicasts need no protocol.

Workload (§5): one group — hosts 0, 1, 2, 3, 13, 15, 16, 17, 31 (multicast) or all 64 (broadcast) — whose
members originate Poisson multicasts, sizes truncated geometric with mean 100 bytes and maximum 1000; the
x-axis is the overall normalised multicast load, split evenly over the members. Background unicasts:
Poisson at 0.1 per host (6.4 in all), sizes truncated geometric with mean 400 and maximum 4000, or none.
Measures: normalised multicast throughput (``multicast_throughput``: payload bytes of the multicasts
completed per byte time, over the network) and message delay (``latency_multicast_mean``: from entering the
transmission queue to the last byte at the last member), in byte times, shown where the point is not
saturated.

The study states few numbers (0.2, K = 4 and 1, 6.4); its claims are orderings. Quick mode runs four loads
with a shorter window and judges no claim (peaks and low-load delays move by more than the claims'
margins), except for Figs 3 and 6, whose full runs take seconds: there quick mode is the full run.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "001 Casetti, Leonardi, Neri, Anglano (multicasting at the host interface of wormhole LANs)"

GROUPS = {"multicast": [0, 1, 2, 3, 13, 15, 16, 17, 31], "broadcast": list(range(64))}
#: label -> workload.scheme
SCHEMES = {
    "multiple unicasts": "separate",
    "linear ring-like": "ring",
    "linear bus-like": "bus",
    "tree wrap-around": "tree_wrap_around",
    "tree up/down": "tree_up_down",
}
RELAYED = [s for s in SCHEMES if s != "multiple unicasts"]
LINEAR = ["linear ring-like", "linear bus-like"]
TREES = ["tree wrap-around", "tree up/down"]
LOADS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0]
QUICK_LOADS = [0.05, 0.2, 0.5, 1.0]
RUN = {"warmup_cycles": 20_000, "measure_cycles": 400_000, "drain_max_cycles": 400_000}
QUICK_RUN = {"warmup_cycles": 10_000, "measure_cycles": 100_000, "drain_max_cycles": 100_000}


def scenario(group: str, scheme: str, load: float, unicast: bool, k: int, run: dict[str, int]) -> Scenario:
    """One point: the study's network, ``load`` = the overall normalised multicast load."""
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    members = GROUPS[group]
    return Scenario.model_validate(
        {
            "network": {"topology": "torus", "k": 8, "n": 2, "channel_latency_cycles": 50, "terminal_latency_cycles": 1},
            "switch": {"flow_control": "stop_go", "vcs": 2, "buffer_flits": 250},
            "workload": {
                "program": "host_adapter",
                "group": members,
                "scheme": SCHEMES[scheme],
                "load": load / len(members),
                "message_flits": 100,
                "message_flits_max": 1000,
                "packet_flits": 4000,
                **({"background_load": 0.1} if unicast else {}),
                **({"reception_worms": k} if SCHEMES[scheme] != "separate" else {}),
            },
            "run": {**run, "watchdog_cycles": 200_000, "saturation_stop": "off"},
        }
    )


def _points(group: str, cases: list[tuple[bool, int]], quick: bool) -> list[Point]:
    run = QUICK_RUN if quick else RUN
    return [
        Point({"group": group, "scheme": scheme, "unicast": unicast, "K": k, "load": load}, scenario(group, scheme, load, unicast, k, run))
        for unicast, k in cases
        for scheme in SCHEMES
        for load in (QUICK_LOADS if quick else LOADS)
    ]


# --- measures ------------------------------------------------------------------------------------------------


def _peaks(results: pd.DataFrame, unicast: bool, k: int = 4) -> pd.Series:
    sel = results[(results["unicast"] == unicast) & (results["K"] == k)]
    return sel.groupby("scheme")["multicast_throughput"].max()


def _delays(results: pd.DataFrame, unicast: bool) -> pd.DataFrame:
    """Delay by (load, scheme), unsaturated points only (NaN elsewhere)."""
    sel = results[(results["unicast"] == unicast) & (results["K"] == 4)]
    sel = sel.assign(delay=sel["latency_multicast_mean"].where(~sel["saturated"].astype(bool)))
    return sel.pivot_table(index="load", columns="scheme", values="delay", dropna=False)


def _near(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * max(a, b)


def _fmt(series: pd.Series, digits: int = 3) -> str:
    return ", ".join(f"{name} {value:.{digits}f}" for name, value in series.items())


# --- claims ---------------------------------------------------------------------------------------------------


def _throughput_claims(results: pd.DataFrame, unicast: bool, broadcast: bool, k: int = 4) -> list[Claim]:
    peaks = _peaks(results, unicast, k)
    best = peaks.idxmax()
    claims = [
        Claim(
            "multiple unicasts attain the highest throughput",
            "multiple unicast copies at the originator attain a higher throughput" if not broadcast else "sending multiple unicast messages to every node … performs better",
            f"peaks: {_fmt(peaks)}",
            best == "multiple unicasts",
            "peak normalised multicast throughput over the loads run",
        )
    ]
    if broadcast and not unicast:
        linear = peaks[LINEAR].max()
        claims.append(
            Claim(
                "without unicast traffic, linear paths perform like multiple unicasts",
                "the linear path approaches provide performance similar to the multicopies strategy",
                f"best linear {linear:.3f}, multiple unicasts {peaks['multiple unicasts']:.3f}",
                _near(linear, peaks["multiple unicasts"], 0.2),
                "holds within 20%",
            )
        )
    if broadcast:
        claims.append(
            Claim(
                "rooted trees fall well short of linear paths in broadcast",
                "the gap between [linear paths and rooted trees] is even wider than in the multicast case",
                f"best tree {peaks[TREES].max():.3f}, worst linear {peaks[LINEAR].min():.3f}",
                bool(peaks[TREES].max() < 0.8 * peaks[LINEAR].min()),
                "holds if every tree peaks below 80% of every linear path (the multicast-case gap is in fig3/fig4)",
            )
        )
    claims.append(
        Claim(
            "no significant difference between ring-like and bus-like paths",
            "No significant differences between the bus-like and the ring-like versions were observed",
            f"peaks {peaks['linear ring-like']:.3f} / {peaks['linear bus-like']:.3f}",
            _near(peaks["linear ring-like"], peaks["linear bus-like"], 0.2),
            "holds within 20% of peak throughput",
        )
    )
    claims.append(
        Claim(
            "no significant difference between up/down and wrap-around trees",
            "No significant differences between the up/down and the wrap-around versions were seen",
            f"peaks {peaks['tree up/down']:.3f} / {peaks['tree wrap-around']:.3f}",
            _near(peaks["tree up/down"], peaks["tree wrap-around"], 0.2),
            "holds within 20% of peak throughput",
        )
    )
    return claims


def _wrap_around_peaks_then_falls(results: pd.DataFrame) -> Claim:
    sel = results[(~results["unicast"]) & (results["K"] == 4) & (results["scheme"] == "tree wrap-around")].sort_values("load")
    curve = sel.set_index("load")["multicast_throughput"]
    top, last = curve.max(), curve.iloc[-1]
    return Claim(
        "the wrap-around tree's throughput reaches a maximum, then decreases",
        "the throughput curve for the tree/wrap-around strategy reaches a maximum and then decreases for increasing offered load",
        f"maximum {top:.3f} at load {curve.idxmax()}, {last:.3f} at load {curve.index[-1]}",
        bool(curve.idxmax() < curve.index[-1] and last < 0.95 * top),
        "holds if the highest load is at least 5% below the maximum",
    )


def _unicast_sensitivity(results: pd.DataFrame) -> list[Claim]:
    alone, mixed = _peaks(results, False), _peaks(results, True)
    ratio = mixed / alone
    claims = [
        Claim(
            "multiple unicasts are hardly sensitive to unicast traffic",
            "hardly sensitive to unicast traffic",
            f"peak with / without unicasts: {ratio['multiple unicasts']:.2f}",
            bool(ratio["multiple unicasts"] >= 0.8),
            "holds if unicasts cost at most 20% of the peak",
        ),
        Claim(
            "unicast traffic significantly reduces linear paths' and trees' throughput",
            "their throughput is significantly reduced by the presence of unicast traffic",
            f"peak with / without unicasts: {_fmt(ratio[RELAYED])}",
            bool((ratio[RELAYED] < 0.8).all()),
            "holds if each loses more than 20% of its peak",
        ),
    ]
    relayed = results[results["unicast"] & (results["K"] == 4) & results["scheme"].isin(RELAYED)]
    lossy = relayed[relayed["worms_refused"] > 0]
    onset = lossy["multicast_throughput"].min() if len(lossy) else float("nan")
    claims.append(
        Claim(
            "losses appear above a normalised multicast throughput of about 0.2",
            "Losses are experienced for normalized multicast throughputs above 0.2",
            f"lowest throughput of a point with refused worms: {onset:.3f}" if len(lossy) else "no worm refused at any point",
            bool(len(lossy) and 0.1 <= onset <= 0.3),
            "losses = worms refused (NACKed) by host adapters; holds if the first appear between 0.1 and 0.3",
        )
    )
    return claims


def _k_claims(results: pd.DataFrame) -> list[Claim]:
    k4, k1 = _peaks(results, True, 4), _peaks(results, True, 1)
    ratio = k4[RELAYED] / k1[RELAYED]
    return [
        Claim(
            "a reception FIFO of K = 4 worms greatly improves on K = 1",
            "The capability of forming a FIFO reception queue … greatly improves performance",
            f"peak K = 4 / K = 1: {_fmt(ratio)}",
            bool((ratio >= 1.1).all()),
            "holds if every relayed scheme gains at least 10% of peak throughput",
        )
    ]


def _delay_claims(results: pd.DataFrame, unicast: bool, broadcast: bool) -> list[Claim]:
    d = _delays(results, unicast)
    low = d.index.min()
    at = d.loc[low]
    claims = []
    if broadcast:
        reach = d.apply(lambda column: column.last_valid_index())
        claims.append(
            Claim(
                "trees lower the delay only at light loads: they saturate before linear paths",
                "it becomes true only for large multicast groups and at light loads. The cost is a reduction in the "
                "maximum achievable network throughput",
                "highest unsaturated load: " + ", ".join(f"{s} {x}" for s, x in reach.items()),
                bool(reach[TREES].max() < reach[LINEAR].min()),
                "holds if both trees saturate at a lower offered load than both linear paths",
            )
        )
    else:
        common = d[[*LINEAR, "multiple unicasts"]].dropna()
        high = common.index.max()
        ratio = {x: common.loc[x, LINEAR].min() / common.loc[x, "multiple unicasts"] for x in (low, high)}
        claims.append(
            Claim(
                "the linear paths' low-load edge fades as load grows",
                "The linear path offers lower latency at very light loads …, while at heavier loads it degrades to "
                "store-and-forward routing",
                f"best linear / multiple unicasts: {ratio[low]:.2f} at load {low}, {ratio[high]:.2f} at load {high} "
                "(the highest load where all three are unsaturated)",
                bool(ratio[high] > ratio[low]),
                "holds if the ratio rises from the lowest load to the highest common unsaturated one",
            )
        )
    if not broadcast and not unicast:
        linear = at[LINEAR].max()
        claims.append(
            Claim(
                "linear paths have lower delay than multiple unicasts at low load",
                "routings on linear paths have some edge over multiple unicast at low loads and in absence of unicast traffic",
                f"at load {low}: {_fmt(at, 0)}",
                bool(linear < at["multiple unicasts"]),
                "both linear paths below multiple unicasts at the lowest load",
            )
        )
        claims.append(
            Claim(
                "trees only marginally better than linear paths, and only at low load",
                "The 'optimal' tree routings show in this case marginal delay advantages with respect to linear paths only at low loads",
                f"at load {low}: best tree {at[TREES].min():.0f}, best linear {at[LINEAR].min():.0f}",
                bool(at[TREES].min() < at[LINEAR].min()),
                "holds if a tree is fastest at the lowest load (the size of the advantage is not judged)",
            )
        )
    if broadcast:
        claims.append(
            Claim(
                "rooted trees reduce broadcast delay at low load",
                "at low loads the two rooted tree strategies exhibit the expected reduction in message delays",
                f"at load {low}: {_fmt(at, 0)}",
                bool(at[TREES].max() < min(at[LINEAR].min(), at["multiple unicasts"])),
                "both trees below every other scheme at the lowest load",
            )
        )
    if unicast and not broadcast:
        grow = (d.max() / at).dropna()
        claims.append(
            Claim(
                "linear paths and trees are the most sensitive to load",
                "These results underline the utmost sensitivity of these routings to network traffic load",
                "largest unsaturated delay / lowest-load delay: " + ", ".join(f"{s} {g:.1f}" for s, g in grow.items()),
                bool(grow[RELAYED].min() > grow["multiple unicasts"]) if "multiple unicasts" in grow else False,
                "holds if every relayed scheme's delay grows more than multiple unicasts' over the unsaturated loads",
            )
        )
    return claims


# --- plots ----------------------------------------------------------------------------------------------------


def _plot(figure: int, group: str, unicast: bool, k: int, measure: str) -> Any:
    def plot(results: pd.DataFrame, out: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        sel = results[(results["unicast"] == unicast) & (results["K"] == k)]
        fig, ax = plt.subplots(figsize=(6, 4.2))
        for scheme in SCHEMES:
            curve = sel[sel["scheme"] == scheme].sort_values("load")
            if measure == "throughput":
                ax.plot(curve["load"], curve["multicast_throughput"], marker="o", markersize=3, label=scheme)
            else:
                ok = curve[~curve["saturated"].astype(bool)]
                ax.plot(ok["load"], ok["latency_multicast_mean"], marker="o", markersize=3, label=scheme)
        ax.set_xlabel(f"normalised {group} offered load")
        if measure == "throughput":
            ax.set_ylabel(f"normalised {group} throughput")
        else:
            ax.set_ylabel("message delay (byte times)")
            ax.set_yscale("log")
        traffic = "with unicast" if unicast else "without unicast"
        ax.set_title(f"Fig. {figure}: {group} {measure}, {traffic}" + (f", K = {k}" if k != 4 else ""), fontsize=9)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(out / f"fig{figure}.png", dpi=110)
        plt.close(fig)

    return plot


QUICK_NOTE = "loads 0.05, 0.2, 0.5 and 1.0, 100k-byte-time windows; judges no claim (peaks and low-load delays move by more than the claims' margins)"


#: figures whose full run takes seconds (multicast without unicast traffic): quick mode is the full run
FAST = (3, 6)
FAST_NOTE = "the full run (about 10 s): judges every claim as the full run does"


def _experiment(figure: int, title: str, group: str, unicast: bool, k: int, measure: str, cases: list[tuple[bool, int]], claims: Any) -> Experiment:
    fast = figure in FAST
    return Experiment(
        id=f"casetti-fig{figure}",
        study=STUDY,
        figure=f"Fig. {figure}",
        title=title,
        points=lambda quick: _points(group, cases, quick),
        claims=claims,
        plot=_plot(figure, group, unicast, k, measure),
        quick_note=FAST_NOTE if fast else QUICK_NOTE,
        quick_runs_full=fast,
    )


ALONE, MIXED, MIXED_K1 = (False, 4), (True, 4), (True, 1)

EXPERIMENTS = [
    _experiment(3, "multicast throughput without unicast traffic", "multicast", False, 4, "throughput", [ALONE],
                lambda r: [*_throughput_claims(r, False, False), _wrap_around_peaks_then_falls(r)]),
    _experiment(4, "multicast throughput with unicast traffic (and without, to compare)", "multicast", True, 4, "throughput", [ALONE, MIXED],
                lambda r: [*_throughput_claims(r, True, False), *_unicast_sensitivity(r)]),
    _experiment(5, "multicast throughput with unicast traffic, K = 1 (and K = 4, to compare)", "multicast", True, 1, "throughput", [MIXED, MIXED_K1],
                lambda r: [*_k_claims(r), *_throughput_claims(r, True, False, k=1)]),
    _experiment(6, "multicast delay without unicast traffic", "multicast", False, 4, "delay", [ALONE],
                lambda r: _delay_claims(r, False, False)),
    _experiment(7, "multicast delay with unicast traffic", "multicast", True, 4, "delay", [MIXED],
                lambda r: _delay_claims(r, True, False)),
    _experiment(8, "broadcast throughput without unicast traffic", "broadcast", False, 4, "throughput", [ALONE],
                lambda r: _throughput_claims(r, False, True)),
    _experiment(9, "broadcast throughput with unicast traffic", "broadcast", True, 4, "throughput", [MIXED],
                lambda r: _throughput_claims(r, True, True)),
    _experiment(10, "broadcast delay without unicast traffic", "broadcast", False, 4, "delay", [ALONE],
                lambda r: _delay_claims(r, False, True)),
    _experiment(11, "broadcast delay with unicast traffic", "broadcast", True, 4, "delay", [MIXED],
                lambda r: _delay_claims(r, True, True)),
]
