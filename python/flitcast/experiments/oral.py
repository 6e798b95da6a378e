"""Study 004 — Oral, George: multicast performance modelling and evaluation for high-speed unidirectional
torus networks. Figs 2–5 (simulated), 9–13 (the model beside the simulation) and 14 (projections).

System (docs/models/torus_multicast.md): a k-ary 2-D unidirectional torus (4×4 for the case study), one
host per node; a cycle is 6 ns and a flit 4 bytes, so a link carries 0.667 bytes/ns (the testbed's 5.3
Gb/s); links of 2 cycles (12 ns ≈ L_p = 14 ns), 10 cycles through a node (60 ns = L_f), 64-byte packets
(SCI's payload), wormhole routers with two dateline VCs of 256 flits (1 KB: a stream turning from x to y
stays L_s = 670 ns = 112 cycles longer in its input buffer, which must hold that much to keep the stream
at full rate). Host software per Fig. 8 and Table 1:
o(M) = 1994 + 3.15·(M − 128) ns for sender and receiver (extrapolated linearly to 2 B and 512 KB: the
study fits it on 128–512 B), t_process in µs (our reading of Table 1); a head turning from x to y waits
L_s = 670 ns more at that node (`switch.turn_cycles`).
One multicast from node 0 to the next G − 1 nodes of its dimension-ordered chain; Mu-torus r = 4.

Measures: completion latency (start to the last destination's reception, µs), the root's busy time
sending (the startup latency, Fig. 4, and the root's CPU load of Fig. 3: its own transmissions, the
reading §4.2 explains its curves by; "polls until the end" is the other, `CPU_READINGS`), a modelled
tree-creation time, link concentration and concurrency; the model of §5 (`flitcast.analytic`, h_i from
the study's Eqs 9–12 as we read them) beside the simulation.

Claims: one row per statement of the study, each a word of the vocabulary (``verdicts.py``) on the
quantity the sentence names, at the group and message sizes it names, on the figure's axis — the
study's own axis where its tick labels survive (Figs 2, 4(a), 5, 9–14: ``study_data/004.toml``), our
panel's otherwise (Fig. 3, whose unit, a percentage of the CPU, is not ours). Every experiment runs in
seconds, so quick mode is the full run and judges every claim as it does.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.claim import DATA, MODEL, Claim, Results
from flitcast.experiments.experiment import Experiment, Point, Reading, coincidence_labels, series_style
from flitcast.experiments.verdicts import (
    DEVIATES,
    HOLDS,
    NOT_JUDGED,
    Axis,
    Measured,
    Verdict,
    above,
    decreases,
    every,
    exact,
    higher,
    increases,
    linear,
    lower,
    lowest,
    much_lower,
    nearly_constant,
    negated,
    panel_axis,
    similar,
)
from flitcast.studies import value

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "004 Oral, George (multicast on unidirectional SCI tori: algorithms and latency model)"

ALGORITHMS = {"Sep Add": "separate", "U-torus": "u_torus", "S-torus": "s_torus", "Md-torus": "md_torus", "Mu-torus": "mu_torus"}
CYCLE_NS = 6
FLIT_BYTES = 4
PACKET_BYTES = 64
GROUPS = list(range(4, 17))
SMALL, LARGE = 2, 512 * 1024
SIZES = [SMALL, LARGE]
#: Mu-torus's partition length on the testbed (§4: "the partition length r of 4 is chosen")
R = 4
#: the largest of the "small group sizes" (§4.2: "for large messages and small group sizes. However, for group
#: sizes greater than 10, …"): the study's own boundary in its case study, read wherever it says small or large
#: groups of the 4×4 testbed
SMALL_GROUP_MAX = 10
#: "best for small messages and groups" (§4.1) and "for small messages or small group sizes" (§7), likewise for
#: large ones, read as the cases both name at once ("and", the default): read as either ("or"), §7 would name
#: separate addressing and Md-torus the best at once for small messages to large groups (docs/experiments.md,
#: study 004)
SUMMARIES = ("and", "or")
#: tree-creation cost per elementary step of a plan's construction (a compare, a division, a move), ns
STEP_NS = 50.0


def cycles(ns: float) -> int:
    return max(0, round(ns / CYCLE_NS))


def scenario(algorithm: str, k: int, group: int, message_bytes: int, r: int = R) -> Scenario:
    """One point: one multicast of ``message_bytes`` from node 0 to the next ``group`` − 1 nodes."""
    from flitcast.analytic import Parameters
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    p = Parameters()
    scheme = ALGORITHMS[algorithm]
    flits = -(-message_bytes // FLIT_BYTES)
    o = cycles(p.o(message_bytes) * 1000)
    return Scenario.model_validate(
        {
            "network": {"topology": "torus", "k": k, "n": 2, "unidirectional": True, "channel_latency_cycles": 2, "terminal_latency_cycles": 2},
            "switch": {"vcs": 2, "buffer_flits": 256, "router_delay_cycles": 10, "turn_cycles": cycles(p.L_s * 1000)},
            "workload": {
                "program": "torus_multicast",
                "group_size": group,
                "scheme": scheme,
                "message_flits": flits,
                "packet_flits": min(flits, PACKET_BYTES // FLIT_BYTES),
                **({"partition": r} if scheme == "mu_torus" else {}),
                "send_overhead_cycles": o,
                "receive_overhead_cycles": o,
                "process_cycles": cycles(p.process(scheme) * 1000),
            },
            "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 10**9, "watchdog_cycles": 10**8},
        }
    )


def _points(k: int, groups: list[int], sizes: list[int], rs: list[int] | None = None) -> list[Point]:
    points = []
    for algorithm in ALGORITHMS:
        for r in (rs or [R]) if algorithm == "Mu-torus" else [None]:
            label = f"Mu-torus (r={r})" if r and rs else algorithm
            for size in sizes:
                for g in groups:
                    points.append(
                        Point({"algorithm": label, "k": k, "group": g, "message_bytes": size}, scenario(algorithm, k, g, size, r or R))
                    )
    return points


def tree_creation_ns(algorithm: str, group: int, k: int, r: int = R) -> float:
    """A modelled tree-creation time (none for separate addressing): ranking the d − 1 destinations on the
    chain (d·⌈log₂ d⌉ steps) and the root's partitioning — U-torus its ⌈log₂ d⌉ halvings (the rest is done
    by the receivers), Md-torus one pass splitting the ranked list into ringlets (d), Mu-torus one pass per
    level of partitions (d·⌈log_r d⌉); S-torus only ranks. Each step costs ``STEP_NS``."""
    if algorithm == "separate":
        return 0.0
    d = group
    log2 = math.ceil(math.log2(d))
    steps = d * log2 + {"s_torus": 0, "u_torus": log2, "md_torus": d, "mu_torus": d * math.ceil(math.log(d, r) - 1e-9)}[algorithm]
    return steps * STEP_NS


def derive(results: pd.DataFrame) -> pd.DataFrame:
    """Times in µs, the root's CPU per multicast, the modelled tree creation, and the model of §5 beside each
    point."""
    from flitcast import analytic

    scheme = results["workload.scheme"]
    r = results["workload.partition"]
    model = [
        analytic.latency(s, int(k), int(g), int(m), r=int(rr))
        for s, k, g, m, rr in zip(scheme, results["k"], results["group"], results["message_bytes"], r, strict=True)
    ]
    creation = [tree_creation_ns(s, int(g), int(k), int(rr)) / 1000 for s, g, k, rr in zip(scheme, results["group"], results["k"], r, strict=True)]
    sending = results["root_busy_cycles"] * CYCLE_NS / 1000
    out = results.assign(
        completion_us=results["completion_cycles"] * CYCLE_NS / 1000,
        startup_us=sending,
        # (Fig. 3's load: the root's own transmissions, its CPU time per multicast — docs/models/torus_multicast.md)
        root_cpu_us=sending,
        tree_creation_us=creation,
        model_us=model,
    )
    return out.assign(model_error=(out["model_us"] - out["completion_us"]) / out["completion_us"])


# --- the figures' axes ----------------------------------------------------------------------------------------


def _study_axis(name: str, label: str, figure: str, log: bool = False, scale: float = 1.0, unit: str = "") -> Axis:
    """The axis of the study's figure whose tick labels survive (study_data/004.toml), in our units."""
    stated = value("004", name)
    low, high = stated.low_high
    ticks = f"{low:g}–{high:,g}{unit}"
    return Axis(label, low * scale, high * scale, log, source=f"the study's {figure} axis, ticks {ticks}")


FIG2 = {
    SMALL: _study_axis("axis_fig2a", "completion latency, 2 B (µs)", "Fig. 2(a)"),
    LARGE: _study_axis("axis_fig2b", "completion latency, 512 KB (µs)", "Fig. 2(b)"),
}
#: Fig. 4(a)'s unit is lost: its top tick, 140,000, read in ns (140 µs) — separate addressing's startup by the
#: study's own Eq. 6 at 2 B, (G − 1)·(o + t_process), is 129 µs at G = 16; in µs the curves would lie within
#: the axis's lowest 0.1%
FIG4A = _study_axis("axis_fig4a", "startup latency (µs)", "Fig. 4(a)", scale=1e-3, unit=" read in ns")
FIG5A = _study_axis("axis_fig5a", "link concentration", "Fig. 5(a)")
FIG5B = _study_axis("axis_fig5b", "link concurrency", "Fig. 5(b)")
FIG14 = {
    8: _study_axis("axis_fig14a", "model latency, 8×8 (µs)", "Fig. 14(a)", log=True),
    16: _study_axis("axis_fig14b", "model latency, 16×16 (µs)", "Fig. 14(b)", log=True),
}


# --- reading the results --------------------------------------------------------------------------------------


def _groups(r: Results, k: int = 4) -> list[int]:
    return sorted(int(g) for g in r.select(k=k)["group"].unique())


def _at(r: Results, column: str, kind: str, size: int, g: int, algorithms: Sequence[str] = tuple(ALGORITHMS)) -> dict[str, Measured]:
    """``column`` of each algorithm at one (message size, group size) of the 4×4 case study."""
    return {a: r.value(column, kind, algorithm=a, message_bytes=size, group=g, k=4) for a in algorithms}


def _curve(r: Results, column: str, kind: str, algorithm: str, size: int, groups: Sequence[int] | None = None) -> list[tuple[float, Measured]]:
    points = r.curve(column, kind, x="group", algorithm=algorithm, message_bytes=size, k=4)
    return [(g, m) for g, m in points if groups is None or g in groups]


def _size(size: int) -> str:
    return "2 B" if size == SMALL else f"{size // 1024} KB" if size >= 1024 else f"{size} B"


def _not_judged(ours: str, why: str) -> Verdict:
    return Verdict(NOT_JUDGED, None, None, ours, f"not judged: {why}")


def _note(verdict: Verdict, rule: str, cause: str = "") -> str:
    """A claim's note: the rule in words, then — where it does not hold — the measured cause; an unjudged
    claim's note says so first."""
    if verdict.status == NOT_JUDGED:
        return f"not judged: {verdict.rule.split('not judged: ', 1)[-1]}; {rule}" if "not judged: " in verdict.rule else f"not judged: {rule}"
    return rule + (f"; {cause}" if cause and verdict.status == DEVIATES else "")


def _unless_any_deviates(rest: Sequence[Verdict], places: tuple[str, str]) -> tuple[str, str] | tuple[()]:
    """``places`` (the study's contradiction) when none of ``rest`` — the checks the contradiction does not
    cover — deviates: a deviation is then all in the cases where the study's own text says what we measured."""
    return () if any(v.status == DEVIATES for v in rest) else places


#: one comparison of a "best" or "worst" claim: (case, group size, the other algorithm, its verdict)
Check = tuple[str, int, str, Verdict]


def against_others(subject: str, cases: Sequence[tuple[str, int, dict[str, Measured], Axis]], word: str) -> list[Check]:
    """``subject`` against each other algorithm of each case (label, G, values, axis): `higher` for the
    highest ("worst" latency), `lower` for the lowest ("best") — the vocabulary's `highest` and `lowest`
    check by check, so that a claim can say which comparisons failed."""
    compare = higher if word == "highest" else lower
    return [
        (label, g, other, compare(row[subject], row[other], axis, f"{label}, G = {g}: {subject} {row[subject]} against {other} {row[other]}"))
        for label, g, row, axis in cases
        for other in row
        if other != subject
    ]


def _groups_text(groups: Sequence[int]) -> str:
    """4, 5, 6, 9 → "4–6, 9"."""
    runs: list[list[int]] = []
    for g in sorted(groups):
        if runs and g == runs[-1][-1] + 1:
            runs[-1].append(g)
        else:
            runs.append([g])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def misses(checks: Sequence[Check], word: str) -> str:
    """``ours`` of a best/worst claim: where the subject is not the ``word`` (highest, lowest), and against whom."""
    failed: dict[tuple[str, str], list[int]] = {}
    for label, g, other, verdict in checks:
        if verdict.status == DEVIATES:
            failed.setdefault((label, other), []).append(g)
    if not failed:
        return f"the {word} at every group size"
    against: dict[tuple[str, str], list[str]] = {}
    for (label, other), gs in failed.items():
        against.setdefault((label, _groups_text(gs)), []).append(other)
    return f"not visibly the {word}: " + "; ".join(f"{label + ' ' if label else ''}G = {gs} ({', '.join(others)})" for (label, gs), others in against.items())


def _us(x: float, sign: str = "") -> str:
    """A number as the notes show it: three digits below 100, whole units above (``sign``: "+" to show it)."""
    return f"{x:{sign}.3g}" if abs(x) < 100 else f"{x:{sign},.0f}"


def alike(a: str, b: str, rows: dict[int, dict[str, Measured]], axis: Axis, label: str = "", unit: str = " µs") -> tuple[Verdict, str]:
    """``a`` and ``b`` `similar` at every group size of ``rows`` (G → values), and ``ours``: where not, b − a."""
    checks = {g: similar(row[a], row[b], axis, f"{label}G = {g}: {a} {row[a]}, {b} {row[b]}") for g, row in rows.items()}
    apart = {g: rows[g][b].value - rows[g][a].value for g, v in checks.items() if v.status == DEVIATES}
    low, high = (min(apart.values()), max(apart.values())) if apart else (0.0, 0.0)
    shown = f"{label}{b} − {a} {_us(low, '+')}{'' if low == high else ' … ' + _us(high, '+')}{unit} at G = {_groups_text(list(apart))}" if apart else f"{label}within the visible resolution"
    return every(list(checks.values()), shown, f"{label}{a} and {b} within the visible resolution at every group size"), shown


def steps(curve: Sequence[tuple[float, Measured]], risers: Sequence[float], axis: Axis, ours: str = "") -> Verdict:
    """A step-like rise ("step-like increase at …", "steps with every …"; the vocabulary has no word for it,
    so it is built from two): at each riser the curve is higher than at the point before it by the visible
    resolution (`higher`), and between risers it is nearly constant (`nearly_constant`). A riser at or before
    the first point cannot be seen and is not read."""
    points = sorted(curve, key=lambda p: p[0])
    xs = [x for x, _ in points]
    inside = [x for x in risers if xs[0] < x <= xs[-1]]
    bounds = [xs[0], *inside, math.inf]
    parts = []
    for low, high in itertools.pairwise(bounds):
        tread = [(x, m) for x, m in points if low <= x < high]
        if len(tread) >= 2:
            parts.append(nearly_constant(tread, axis, f"flat from G = {tread[0][0]:g} to {tread[-1][0]:g}"))
    for x in inside:
        before = max((p for p in points if p[0] < x), key=lambda p: p[0])
        at = min((p for p in points if p[0] >= x), key=lambda p: p[0])
        parts.append(higher(at[1], before[1], axis, f"rise from G = {before[0]:g} to {at[0]:g}: {before[1]} → {at[1]}"))
    shown = ours or " → ".join(f"{m} (G = {x:g})" for x, m in points if x == xs[0] or x in inside)
    return every(parts, shown, f"step-like: rising at {', '.join(f'{x:g}' for x in inside)} and flat between")


# --- Fig. 2: completion latency (§4.1, and §7 where it repeats §4.1) ------------------------------------------------

S_WORST_CONTRADICTED = (
    "§4.1: “S-torus has the worst performance for both small and large messages”",
    ("§5.4–§5.5 with Table 1: Eq. 11 (U-torus, ⌈log₂ G⌉ levels of 629 + 2·o µs) lies above Eq. 12 (S-torus, "
    "G − 2 relays of 265 + 2·o) at G = 4 … 11 (1,268 against 540 µs at G = 4, 2 B); and S-torus “can be modeled "
    "identically to the single partition case of the Mu-torus algorithm” (§5.5): at G ≤ r = 4 the two are one "
    "chain, 2 × (265 − 201) = 128 µs apart, under Fig. 2(b)'s visible 1,400 µs"),
)
U_FLAT_CONTRADICTED = (
    "§4.1: “U-torus has nearly flat latency for small messages”",
    ("§5.4: Eq. 11 with Table 1, “accurate with an average error of -2%” (Fig. 12, whose axis reaches 3,500 µs at "
    "128 B): ⌈log₂ G⌉ levels of L_i = 629 + 2·o µs, from 1,268 µs at G = 4 to 2,532 µs at G = 16 (2 B), a rise of "
    "about 40 times Fig. 2(a)'s visible 32 µs on an axis that stops at 1,600"),
)


def _study_model(algorithm: str, g: int, size: int) -> float:
    """The study's own model of the 4×4 case study (Eqs 7–12, Table 1): what its text says a curve is."""
    from flitcast import analytic

    return analytic.latency(ALGORITHMS[algorithm], 4, g, size)


def _summary_cases(summary: str, small: int, large: int, groups: Sequence[int]) -> tuple[list[tuple[int, list[int]]], list[tuple[int, list[int]]], str, str]:
    """The (message size, group sizes) a summary sentence names for small and for large, under its reading
    (``SUMMARIES``), and the words for them."""
    small_groups = [g for g in groups if g <= SMALL_GROUP_MAX]
    large_groups = [g for g in groups if g > SMALL_GROUP_MAX]
    if summary == "and":
        return [(small, small_groups)], [(large, large_groups)], "2 B with G ≤ 10", "512 KB with G > 10"
    return [(small, list(groups)), (large, small_groups)], [(large, list(groups)), (small, large_groups)], "2 B, and 512 KB with G ≤ 10", "512 KB, and 2 B with G > 10"


MD_BEST_CONTRADICTED = (
    "§4.1: “for large messages and groups Md-torus performs better compared to other algorithms”",
    ("§4.1: “The Md-torus and Mu-torus algorithms exhibit similar levels of performance for both small and large messages. "
    "The difference between these two becomes more distinctive at certain data points, such as 10 and 14 nodes” "
    "(similar: within Fig. 2(b)'s visible 1,400 µs, so not visibly better)"),
)


def fig2_claims(r: Results, summary: str = "and") -> list[Claim]:
    groups = _groups(r)

    @functools.cache  # (each point's values are read by several checks)
    def at(size: int, g: int) -> dict[str, Measured]:
        return _at(r, "completion_us", "completion", size, g)

    def curve(algorithm: str, size: int) -> list[tuple[float, Measured]]:
        return _curve(r, "completion_us", "completion", algorithm, size)

    def cases(sizes_groups: Sequence[tuple[int, Sequence[int]]]) -> list[tuple[str, int, dict[str, Measured], Axis]]:
        return [(_size(size), g, at(size, g), FIG2[size]) for size, gs in sizes_groups for g in gs]

    def ends(algorithm: str, size: int) -> str:
        c = curve(algorithm, size)
        return f"{c[0][1]} → {c[-1][1]} µs ({_size(size)})"

    def pairs(a: str, b: str, size: int, skip: Sequence[int] = ()) -> tuple[Verdict, str]:
        return alike(a, b, {g: at(size, g) for g in groups if g not in skip}, FIG2[size], f"{_size(size)}: ")

    # S-torus the worst: each (size, G, other) a check; those the study's own text contradicts apart
    s_checks = against_others("S-torus", cases([(SMALL, groups), (LARGE, groups)]), "highest")
    covered = [
        v
        for label, g, other, v in s_checks
        if (other == "Mu-torus" and g <= R)  # (§5.5: one Mu-torus partition is S-torus's chain)
        or (label == "2 B" and other == "U-torus" and higher(exact(_study_model("S-torus", g, SMALL)), exact(_study_model("U-torus", g, SMALL)), FIG2[SMALL]).status != HOLDS)
    ]
    rest = [v for *_, v in s_checks if not any(v is c for c in covered)]
    s_worst = every([v for *_, v in s_checks], misses(s_checks, "highest"), "S-torus the highest at every group size, 2 B and 512 KB")
    small_cases, large_cases, small_words, large_words = _summary_cases(summary, SMALL, LARGE, groups)
    # (§4.1's first sentence names every group size for small messages: the summary's small groups are among them)
    sep_checks = against_others("Sep Add", cases([(SMALL, groups), *[(s, gs) for s, gs in small_cases if s != SMALL]]), "lowest")
    sep_best = every([v for *_, v in sep_checks], misses(sep_checks, "lowest"), "separate addressing the lowest at every group size for 2 B" + ("" if summary == "and" else ", and at G ≤ 10 for 512 KB"))
    md_checks = against_others("Md-torus", cases(large_cases), "lowest")
    md_best = every([v for *_, v in md_checks], misses(md_checks, "lowest"), f"Md-torus the lowest for {large_words}")
    md_rest = [v for label, g, other, v in md_checks if not (label == _size(LARGE) and other == "Mu-torus" and g not in (10, 14))]
    (alike_small, apart_small), (alike_large, apart_large) = pairs("Md-torus", "Mu-torus", SMALL), pairs("Md-torus", "Mu-torus", LARGE, (10, 14))
    md_mu = every([alike_small, alike_large], f"{apart_small}; {apart_large}", "Md-torus and Mu-torus within the visible resolution, every group size, 2 B and 512 KB (but 10 and 14)")
    u_like_mu, _ = pairs("Mu-torus", "U-torus", LARGE)

    def gap(g: int) -> Measured:
        row = at(LARGE, g)
        return exact(row["Mu-torus"].value - row["Md-torus"].value, f"{row['Mu-torus'].value - row['Md-torus'].value:,.0f}")

    distinct, gaps = [], []
    for g in (10, 14):
        if g in groups:
            row = at(LARGE, g)
            distinct.append(higher(row["Mu-torus"], row["Md-torus"], FIG2[LARGE], f"G = {g}: Mu {row['Mu-torus']} against Md {row['Md-torus']}"))
            sides = [n for n in (max((h for h in groups if h < g), default=None), min((h for h in groups if h > g), default=None)) if n is not None]
            distinct += [higher(gap(g), gap(n), FIG2[LARGE], f"Mu − Md at G = {g}: {gap(g)} against {gap(n)} at G = {n}") for n in sides]
            gaps.append(", ".join(f"{n}: {gap(n)}" for n in sorted([g, *sides])))
    distinct_v = every(distinct, "Mu − Md (µs) at " + "; ".join(gaps), "512 KB: Mu-torus above Md-torus at G = 10 and 14, and the gap there wider than either side")
    u_flat = nearly_constant(curve("U-torus", SMALL), FIG2[SMALL], f"{min(m.value for _, m in curve('U-torus', SMALL)):,.0f}–{max(m.value for _, m in curve('U-torus', SMALL)):,.0f} µs")
    s_linear = every([linear(curve("S-torus", size), FIG2[size], ends("S-torus", size)) for size in SIZES], f"straight: {ends('S-torus', SMALL)}, {ends('S-torus', LARGE)}", "S-torus linear in G, 2 B and 512 KB")
    sep_linear = linear(curve("Sep Add", LARGE), FIG2[LARGE], f"straight: {ends('Sep Add', LARGE)}")
    return [
        Claim(
            "S-torus has the worst completion latency, small and large messages", "§4.1 (Fig. 2)",
            "S-torus has the worst performance for both small and large messages” — §7: “S-torus is always the worst performer from the perspective of completion latency",
            s_worst,
            _note(s_worst, "S-torus above every other algorithm by the visible resolution of Fig. 2's axes (32 µs, 1,400 µs) at every group size, 2 B and 512 KB",
                  "at 2 B U-torus's relay levels cost 629 µs of t_process (Table 1) + 2·o each against S-torus's 265 µs, so U-torus is above S-torus (or within 32 µs of it) until S-torus's chain has three relays for each of U-torus's levels; at 512 KB and G = 4 Mu-torus's one partition is S-torus's chain of two relays, 128 µs faster"),
            _unless_any_deviates(rest, S_WORST_CONTRADICTED),
        ),
        Claim(
            "S-torus's latency rises linearly with the group, small and large messages", "§4.1 (Fig. 2)",
            "S-torus shows a linear increase in multicast completion latency with respect to the increasing group size” — §7: “S-torus exhibits a nearly linear increase in completion latency … for large messages",
            s_linear, _note(s_linear, "every point within the visible resolution of Fig. 2's axes of a straight line in G, rising visibly, 2 B and 512 KB"),
        ),
        Claim(
            "separate addressing is the fastest for small messages", "§4.1 (Fig. 2)",
            "the separate addressing algorithm … performs best for small messages … Overall, separate addressing appears to be the best for small messages and groups” — §6: “separate addressing is the best choice for small-scale systems” — §7: “the separate addressing algorithm is the best choice for small messages or small group sizes from the perspective of multicast completion latency",
            sep_best,
            _note(sep_best, f"separate addressing below every other by the visible resolution at every group size for 2 B{'' if summary == 'and' else ', and for 512 KB with G ≤ 10'} (§4.1's first sentence names small messages; its summary and §7's, read as '{summary}', {small_words}, with §4.2's boundary between small and large groups)",
                  "Md-torus's root reaches a group of G ≤ k + 1 = 5 with no relay (its x-ringlet and the node below it: 3–4 sends of o = 1.6 µs at 2 B, against separate addressing's o + 7 µs per destination)"
                  + ("" if summary == "and" else "; at 512 KB each copy costs the root o = 1.65 ms, so separate addressing's G − 1 copies take longer than Md-torus's four sends and one relay from G = 6 on, and U-torus and Mu-torus come within the visible 1,400 µs of it, or below it, at G = 4 and 7–10")),
        ),
        Claim(
            "separate addressing's latency rises linearly for large messages", "§4.1 (Fig. 2(b))",
            "it also presents linearly increasing completion latencies for large messages with increasing group size",
            sep_linear, _note(sep_linear, "512 KB: every point within Fig. 2(b)'s visible 1,400 µs of a straight line in G, rising visibly"),
        ),
        Claim(
            "Md-torus and Mu-torus perform alike, small and large messages", "§4.1 (Fig. 2)",
            "The Md-torus and Mu-torus algorithms exhibit similar levels of performance for both small and large messages",
            md_mu,
            _note(md_mu, "within the visible resolution of each other at every group size, 2 B and 512 KB, but 10 and 14 at 512 KB, where the study's next sentence expects a difference",
                  "the two differ in relays, and a relay costs about 205 µs at 2 B (t_process 201–206 µs + 2·o) and 3.5 ms at 512 KB: Md-torus adds one per k destinations down a column (⌈(G − 1)/k⌉ − 1), a Mu-torus partition is a worm of up to r − 1 = 3 relays — at G = 4 Mu-torus's one partition is a chain of two relays (412 µs at 2 B) while Md-torus's root reaches its three ringlet neighbours directly (6.7 µs)"),
        ),
        Claim(
            "Mu-torus falls behind Md-torus at 10 and 14 nodes for large messages", "§4.1 (Fig. 2(b))",
            "The difference between these two becomes more distinctive at certain data points, such as 10 and 14 nodes for large messages. For group sizes of 10 and 14 the partition length for Mu-torus does not provide perfectly balanced partitions, resulting in higher multicast completion latencies",
            distinct_v,
            _note(distinct_v, "512 KB: Mu-torus above Md-torus by the visible resolution at G = 10 and 14, and Mu − Md there larger by the visible resolution than at the group sizes either side",
                  "Mu-torus's deepest path runs through a full partition of r = 4 whatever the last one's length, so its latency is the same from G = 8 to 11 and from 12 to 15; Md-torus's is the same at 9 and 10 and at 13 and 14 (a relay more every k destinations): Mu − Md at 10 is that at 9, at 14 that at 13 (under the visible 1,400 µs)"),
        ),
        Claim(
            "U-torus's latency is nearly flat for small messages", "§4.1 (Fig. 2(a))", "U-torus has nearly flat latency for small messages",
            u_flat,
            _note(u_flat, "2 B: max − min within Fig. 2(a)'s visible 32 µs",
                  "each of U-torus's relay levels (⌈log₂ G⌉ − 1 in our plan: the root's own sends are not relays) costs 629 µs of t_process (Table 1) + 2·o, so the latency steps up by 633 µs at G = 5 and 9"),
            U_FLAT_CONTRADICTED,
        ),
        Claim(
            "U-torus behaves like Mu-torus for large messages", "§4.1 (Fig. 2(b))", "For large messages, it exhibits similar behavior to Mu-torus",
            u_like_mu,
            _note(u_like_mu, "512 KB: U-torus within Fig. 2(b)'s visible 1,400 µs of Mu-torus at every group size",
                  "each relay costs 2·o(512 KB) + t_process = 3.5 ms: U-torus's levels (⌈log₂ G⌉ − 1 relays) and Mu-torus's partitions (a worm of up to 3 relays) differ by a relay at G = 4 (one against two) and G = 8 (two against three), and at G = 16 Mu-torus's last partition starts after three sends of the root (1.65 ms each)"),
        ),
        Claim(
            "Md-torus is the fastest for large messages and groups", "§4.1 (Fig. 2)",
            "for large messages and groups Md-torus performs better compared to other algorithms” — §7: “The Md-torus algorithm performs best from the perspective of completion latency for large messages or large group sizes",
            md_best,
            _note(md_best, f"Md-torus below every other by the visible resolution for {large_words} (§4.2's boundary between small and large groups; summary read as '{summary}')",
                  "from G = 13 U-torus's three levels and Mu-torus's partitions come within 1,400 µs of Md-torus's header and relays down a column, or below them (U-torus by 2.0 ms at G = 16)"
                  + ("" if summary == "and" else "; at 512 KB separate addressing's copies match Md-torus's at G = 4 and 5; at 2 B separate addressing's 8.6 µs per destination beats Md-torus's relays of 210 µs at every G > 10")),
            _unless_any_deviates(md_rest, MD_BEST_CONTRADICTED),
        ),
        *_conclusion_claims(),
    ]


def _conclusion_claims() -> list[Claim]:
    """§7 statements no figure of ours can decide."""
    return [
        Claim(
            "U-torus and Mu-torus do better when path depths are equal", "§7",
            "The U-torus and Mu-torus algorithms perform better when the individual multicast path depths are approximately equal",
            _not_judged("", "the study defines no measure of path-depth equality to vary"), "not judged: the study defines no measure of path-depth equality to vary",
        ),
        Claim(
            "Mu-torus is at its best at multiples of r", "§7", "the Mu-torus algorithm exhibits its best performance when group size is an exact multiple of the partition length",
            _not_judged("", "'best performance' names no measure (per destination? against Md-torus?)"), "not judged: 'best performance' names no measure (per destination? against Md-torus?)",
        ),
        Claim(
            "Md-torus dominates as dimensions grow; Mu- and U-torus for few dimensions and many nodes", "§7",
            "as the number of dimensions in the network increases, the Md-torus algorithm becomes dominant. By contrast, for networks with fewer dimensions supporting a large number of nodes, the Mu-torus and the U-torus algorithms are most effective",
            _not_judged("", "the study's experiments and ours are on 2-D tori only"), "not judged: the study's experiments and ours are on 2-D tori only",
        ),
    ]


# --- Fig. 3: the root's CPU load (§4.2, and §7's statements on CPU) ----------------------------------------------

#: Fig. 3's root CPU load under each reading of what the root's processor does during a multicast (docs/models/
#: torus_multicast.md, "Root CPU load"): its own transmissions (the default: §4.2 explains Md-torus's nearly
#: constant load by "the number of message transmissions for the root node" and U-torus's steps by "the number
#: of communication steps"), or its sends and then polling until the multicast has ended (the completion).
#: Either is CPU time per multicast, read over sar's fixed sampling interval: the claims compare curves, so the
#: interval's length cancels.
CPU_READINGS = {"its own transmissions": "root_cpu_us", "polls until the end": "completion_us"}

U_STEPS_AGAINST_FLAT = (
    "§4.2: “U-torus exhibits a step-like increase due to the increase in the number of communication steps required to cover all destination nodes at certain group sizes, such as 4, 8, and 16”",
    "§7: “The U-torus and Mu-torus algorithms have nearly constant CPU utilizations for small and large messages alike”",
)


def fig3_claims(r: Results, cpu: str = "root_cpu_us", summary: str = "and") -> list[Claim]:
    reading = next(name for name, column in CPU_READINGS.items() if column == cpu)
    sends = cpu == "root_cpu_us"
    groups = _groups(r)
    small_groups = [g for g in groups if g <= SMALL_GROUP_MAX]
    # (Fig. 3's axes are a CPU utilisation in %, ours a CPU time per multicast: our panel's axis, 0 to its largest value)
    axis = {size: panel_axis(f"root CPU per multicast, {_size(size)} (µs; {reading})", r.select(message_bytes=size, k=4)[cpu]) for size in SIZES}

    @functools.cache  # (each point's values are read by several checks)
    def at(size: int, g: int) -> dict[str, Measured]:
        return _at(r, cpu, "root CPU", size, g)

    def curve(algorithm: str, size: int, within: Sequence[int] | None = None) -> list[tuple[float, Measured]]:
        return _curve(r, cpu, "root CPU", algorithm, size, within)

    def cases(sizes_groups: Sequence[tuple[int, Sequence[int]]]) -> list[tuple[str, int, dict[str, Measured], Axis]]:
        return [(_size(size), g, at(size, g), axis[size]) for size, gs in sizes_groups for g in gs]

    def span(algorithm: str, size: int, within: Sequence[int] | None = None) -> str:
        values = [m.value for _, m in curve(algorithm, size, within)]
        return f"{algorithm} {_us(min(values))}–{_us(max(values))} µs ({_size(size)})"

    def cause(own_sends: str, polling: str) -> str:
        return own_sends if sends else polling

    why = f"; the root's CPU per multicast read as {reading}, on our panel's axis (0 to its largest value: Fig. 3's unit, a percentage of the CPU, is lost)"
    root_sends = "the root's CPU per multicast is its own sends: o per message (1.6 µs at 2 B, 1.65 ms at 512 KB) and for separate addressing t_process + o per destination"
    polls = "the root polls until the last destination has received, so its CPU per multicast is the completion (Fig. 2's curves)"
    # (the study's root polls, §4: "the polling notification method is used … oftentimes it results in higher CPU loads";
    # the default's root CPU is its sends alone: where a statement's cause is the polling, that is a model departure)
    departs = "our root does not poll where the study's does (§4: 'the polling notification method is used … results in higher CPU loads'): the reading 'polls until the end' counts it"
    polling_departure = MODEL if sends else ""
    s_constant = nearly_constant(curve("S-torus", SMALL), axis[SMALL], span("S-torus", SMALL))
    s_linear = linear(curve("S-torus", LARGE), axis[LARGE], span("S-torus", LARGE))
    sep_linear = linear(curve("Sep Add", LARGE), axis[LARGE], span("Sep Add", LARGE))
    md_constant = every(
        [nearly_constant(curve("Md-torus", SMALL), axis[SMALL], span("Md-torus", SMALL)), nearly_constant(curve("Md-torus", LARGE, small_groups), axis[LARGE], span("Md-torus", LARGE, small_groups) + ", G ≤ 10")],
        f"{span('Md-torus', SMALL)}; {span('Md-torus', LARGE, small_groups)}, G ≤ 10",
        "Md-torus nearly constant at 2 B, and at 512 KB over the small groups",
    )
    late = [g for g in groups if g >= SMALL_GROUP_MAX]
    md_rises = increases(curve("Md-torus", LARGE, late), axis[LARGE], span("Md-torus", LARGE, late) + ", G ≥ 10")
    mu_as_md, _ = alike("Md-torus", "Mu-torus", {g: at(SMALL, g) for g in groups}, axis[SMALL], "2 B: ")
    above_md = [higher(at(LARGE, g)["Mu-torus"], at(LARGE, g)["Md-torus"], axis[LARGE], f"G = {g}") for g in groups]
    below = [g for g, v in zip(groups, above_md, strict=True) if v.status == DEVIATES]
    mu_higher_constant = every(
        [*above_md, nearly_constant(curve("Mu-torus", LARGE), axis[LARGE], span("Mu-torus", LARGE))],
        f"{span('Mu-torus', LARGE)}; not above Md-torus at G = {_groups_text(below)}" if below else span("Mu-torus", LARGE),
        "512 KB: Mu-torus above Md-torus at every group size, and nearly constant",
    )
    u_steps = {size: steps(curve("U-torus", size), [8, 16], axis[size], _size(size)) for size in SIZES}
    u_flat = {size: nearly_constant(curve("U-torus", size), axis[size], span("U-torus", size)) for size in SIZES}
    mu_flat = {size: nearly_constant(curve("Mu-torus", size), axis[size], span("Mu-torus", size)) for size in SIZES}
    steps_v = every(list(u_steps.values()), "; ".join(span("U-torus", size) for size in SIZES), "U-torus rises in steps at G = 8 and 16 (4 is the axis's first point) and is flat between, 2 B and 512 KB")
    flat_v = every([*u_flat.values(), *mu_flat.values()], "; ".join(span(a, size) for a in ("U-torus", "Mu-torus") for size in SIZES), "U-torus and Mu-torus nearly constant, 2 B and 512 KB")
    # (§4.2 and §7 contradict each other on U-torus: a deviation of one is the study's where the other holds)
    steps_excused = all(u_flat[s].status == HOLDS for s in SIZES if u_steps[s].status == DEVIATES)
    flat_excused = all(u_steps[s].status == HOLDS for s in SIZES if u_flat[s].status == DEVIATES) and not any(v.status == DEVIATES for v in mu_flat.values())
    s_checks = against_others("S-torus", cases([(SMALL, groups), (LARGE, groups)]), "highest")
    s_worst = every([v for *_, v in s_checks], misses(s_checks, "highest"), "S-torus the highest at every group size, 2 B and 512 KB")
    small_cases, _, small_words, _ = _summary_cases(summary, SMALL, LARGE, groups)
    sep_checks = against_others("Sep Add", cases(small_cases), "lowest")
    sep_best = every([v for *_, v in sep_checks], misses(sep_checks, "lowest"), f"separate addressing the lowest for {small_words}")
    return [
        Claim(
            "S-torus's root load is constant for small messages", "§4.2 (Fig. 3(a))", "S-torus exhibits constant CPU load for small messages independent of group size",
            s_constant, _note(s_constant, f"2 B: max − min within the visible resolution{why}", cause("", f"{polls}: S-torus's chain of G − 2 relays of 268 µs")),
        ),
        Claim(
            "S-torus's root load rises linearly for large messages", "§4.2 (Fig. 3(b))",
            "for large messages, as the group size increases the CPU load also linearly increases” — §7: “S-torus exhibits a nearly linear increase in … CPU utilization for large messages with increasing group size",
            s_linear, _note(s_linear, f"512 KB: every point within the visible resolution of a straight line in G, rising visibly{why}", cause(f"S-torus's root sends one worm whatever G: {root_sends}; {departs}, and under it the claim holds", "")),
            cause=polling_departure,
        ),
        Claim(
            "separate addressing's root load rises linearly for large messages", "§4.2 (Fig. 3(b))",
            "The separate addressing algorithm has a nearly linear increase in CPU load for large messages with increasing group size",
            sep_linear, _note(sep_linear, f"512 KB: every point within the visible resolution of a straight line in G, rising visibly{why}"),
        ),
        Claim(
            "Md-torus keeps the root's load nearly constant: small messages, and large messages with small groups", "§4.2 (Fig. 3)",
            "since the number of message transmissions for the root node stays constant, Md-torus provides a nearly constant CPU overhead for small messages for every group size, and for large messages and small group sizes",
            md_constant,
            _note(md_constant, f"nearly constant at 2 B over every group size, and at 512 KB over G ≤ 10 (the study's next sentence: 'greater than 10'){why}",
                  cause("the root sends to the G − 1 = 3 members of its x-ringlet at G = 4 and to k = 4 (its ringlet's three and the node below it) from G = 5 on: one send more, o = 1.65 ms at 512 KB, over three times the visible resolution of 0.5 ms (at 2 B, 1.6 µs, within it)",
                        f"{polls}: Md-torus adds a relay down its columns every k destinations")),
        ),
        Claim(
            "Md-torus's root load rises for groups above 10, large messages", "§4.2 (Fig. 3(b))",
            "However, for group sizes greater than 10, the CPU utilization tends to increase due to variations in the path lengths causing extended polling durations",
            md_rises,
            _note(md_rises, f"512 KB: rising from G = 10 to the largest group by more than the visible resolution, with no visible step back{why}",
                  cause(f"Md-torus's root sends to its k = 4 headers from G = 5 on whatever the group: the polling the study names as the cause is not in the root's own sends; {departs}, and under it the claim holds", "")),
            cause=polling_departure,
        ),
        Claim(
            "Mu-torus's root load is Md-torus's for small messages", "§4.2 (Fig. 3(a))", "Mu-torus exhibits an identical behavior to Md-torus for small messages",
            mu_as_md,
            _note(mu_as_md, f"2 B: within the visible resolution of Md-torus at every group size{why}",
                  cause("Mu-torus's root sends once per partition, ⌈G/r⌉ = 1 to 4 messages, Md-torus's to its k headers (3, then 4): two sends apart up to G = 8 (3.2 µs, above the visible 2.6 µs)",
                        f"{polls}: Mu-torus's partitions are worms of up to 3 relays of 205 µs, Md-torus's root reaches its ringlet directly at G ≤ 5")),
        ),
        Claim(
            "Mu-torus's root load is higher than Md-torus's but constant for large messages", "§4.2 (Fig. 3(b))", "For large messages, it also provides higher but constant CPU utilization",
            mu_higher_constant,
            _note(mu_higher_constant, f"512 KB: above Md-torus by the visible resolution at every group size, and nearly constant{why}",
                  cause("Mu-torus's root sends once per partition (⌈G/r⌉: 1 to 4 messages of 1.65 ms), Md-torus's to its k headers (3, then 4): Mu-torus's is lower below G = 13, equal from 13 on, and steps after each multiple of r",
                        f"{polls}: Mu-torus's latency steps with its partitions' relays (3.5 ms each), and from G = 13 on it is within the visible resolution of Md-torus's")),
        ),
        Claim(
            "U-torus's root load rises in steps at 4, 8 and 16", "§4.2 (Fig. 3)", U_STEPS_AGAINST_FLAT[0].split("“", 1)[1].rstrip("”"),
            steps_v,
            _note(steps_v, f"2 B and 512 KB: a visible rise at G = 8 and at 16 (4 is the axis's first point, where a step cannot be seen), nearly constant between{why}",
                  cause("the root's sends step at 8 and 16 (2, 3, 4 sends: one per binomial level it heads), but at 2 B each is o = 1.6 µs, under the panel's visible 2.6 µs (a fiftieth of separate addressing's 129 µs)",
                        f"{polls}: U-torus's relay levels step at G = 5 and 9 (⌈log₂ G⌉ − 1 relays)")),
            U_STEPS_AGAINST_FLAT if steps_excused else (),
        ),
        Claim(
            "U-torus and Mu-torus keep the root's load nearly constant, small and large messages", "§7 (Fig. 3)", U_STEPS_AGAINST_FLAT[1].split("“", 1)[1].rstrip("”"),
            flat_v,
            _note(flat_v, f"max − min within the visible resolution, U-torus and Mu-torus, 2 B and 512 KB{why}",
                  cause("the root's sends step: U-torus's with the binomial levels it heads (2, 3, 4 sends at G = 4, 8, 16), Mu-torus's once per partition (1 to 4): at 2 B three sends of 1.6 µs span more than the visible 2.6 µs, at 512 KB one send of 1.65 ms three times the visible 0.5 ms",
                        f"{polls}: both step with their relays")),
            (U_STEPS_AGAINST_FLAT[1], U_STEPS_AGAINST_FLAT[0]) if flat_excused else (),
        ),
        Claim(
            "S-torus has the highest root load", "§7 (Fig. 3)",
            "S-torus is always the worst performer from the perspective of … CPU utilization” — §7: “S-torus … a high degree of root-node CPU utilization",
            s_worst,
            _note(s_worst, f"S-torus above every other by the visible resolution at every group size, 2 B and 512 KB{why}",
                  cause(f"S-torus's root sends one worm, the fewest sends of all: {root_sends}; the study ties S-torus's root load to its long paths (§7), through the polling our root leaves out: {departs} (under it U-torus's relays still keep S-torus from the top at small groups)", f"{polls}: at 2 B U-torus's relays (633 µs) keep it above S-torus at small groups, at 512 KB and G = 4 Mu-torus's one partition is S-torus's chain")),
            cause=polling_departure,
        ),
        Claim(
            "separate addressing has the lowest root load for small messages and groups", "§7 (Fig. 3)",
            "the separate addressing algorithm is the best choice for small messages or small group sizes from the perspective of … CPU utilization",
            sep_best,
            _note(sep_best, f"separate addressing below every other by the visible resolution for {small_words} (§4.2's boundary between small and large groups; summary read as '{summary}'){why}",
                  cause(f"its root sends to every destination itself, G − 1 messages: {root_sends}", f"{polls}: Md-torus's root reaches G ≤ 5 with no relay, and at 512 KB Md-torus and U-torus end sooner")),
        ),
        Claim(
            "Md-torus has a very low CPU overhead", "§7 (Fig. 3)", "Md-torus incurs a very low CPU overhead … for all the message and group sizes considered",
            _not_judged("", "'very low' names no reference, and Fig. 3's values (a percentage of the CPU) are lost"),
            "not judged: 'very low' names no reference, and Fig. 3's values (a percentage of the CPU) are lost",
        ),
    ]


# --- Fig. 4: startup and tree-creation latency (§4.3) -------------------------------------------------------------


def fig4_claims(r: Results) -> list[Claim]:
    groups = _groups(r)

    def curve(algorithm: str, size: int = SMALL) -> list[tuple[float, Measured]]:
        return _curve(r, "startup_us", "startup", algorithm, size)

    @functools.cache  # (each point's values are read by several checks)
    def at(size: int, g: int) -> dict[str, Measured]:
        return _at(r, "startup_us", "startup", size, g)

    def span(algorithm: str, size: int = SMALL) -> str:
        values = [m.value for _, m in curve(algorithm, size)]
        return f"{algorithm} {_us(min(values))}–{_us(max(values))} µs"

    sizes = sorted(int(s) for s in r.select(k=4)["message_bytes"].unique())
    by_size = [
        (size, a, alike("small", "large", {g: {"small": at(SMALL, g)[a], "large": at(size, g)[a]} for g in groups}, FIG4A, f"{a}: "))
        for size in sizes
        if size != SMALL
        for a in ALGORITHMS
    ]
    startup_ratio = [at(size, g)[a].value / at(SMALL, g)[a].value for size, a, _ in by_size for g in groups]
    independent = every(
        [v for *_, (v, _) in by_size]
        + [_not_judged("tree creation", f"our tree-creation time is a model with no message size in it ({STEP_NS:.0f} ns per step of building the plan), so it is independent of the size by construction")],
        f"startup at 512 KB ×{min(startup_ratio):,.0f}–{max(startup_ratio):,.0f} that at 2 B" if startup_ratio else "",
        "the startup the same at 512 KB as at 2 B, every algorithm and group size (Fig. 4(a)'s axis); tree creation not judged",
    )
    same, _same_shown = alike("Sep Add", "U-torus", {g: at(SMALL, g) for g in groups}, FIG4A)
    identical = every(
        [same, linear(curve("U-torus"), FIG4A, "U-torus linear"), linear(curve("Sep Add"), FIG4A, "separate addressing linear")],
        f"{span('Sep Add')}, {span('U-torus')}",
        "2 B: U-torus within the visible resolution of separate addressing at every group size, both linear and rising",
    )
    constant = every([nearly_constant(curve("S-torus"), FIG4A, span("S-torus")), nearly_constant(curve("Md-torus"), FIG4A, span("Md-torus"))], f"{span('S-torus')}, {span('Md-torus')}", "S-torus and Md-torus nearly constant")
    risers = [m * R + 1 for m in range(1, groups[-1] // R + 1)]
    mu_steps = steps(curve("Mu-torus"), risers, FIG4A)
    return [
        Claim(
            "the startup and the tree creation are independent of the message size", "§4.3 (Fig. 4)",
            "Both the startup and the tree creation latencies are independent of the message size",
            independent,
            _note(
                independent,
                "the startup within Fig. 4(a)'s visible resolution (2.8 µs) at 512 KB and at 2 B, every algorithm and group size; tree creation not judged: "
                f"ours is a model with no message size in it ({STEP_NS:.0f} ns per step of building the plan), independent of it by construction",
                "the startup is the root's busy time issuing its messages, o(M) each (Fig. 8's o grows 3.15 ns per byte: 1.6 µs at 2 B, 1.65 ms at 512 KB), so it scales with the message",
            ),
        ),
        Claim(
            "separate addressing's and U-torus's startups are identical and rise linearly", "§4.3 (Fig. 4(a))",
            "The U-torus and separate addressing algorithms have unbounded fan-out numbers and, as clearly illustrated in Figure 4(a), the startup latencies for these two algorithms are identical and linearly increasing with group size",
            identical,
            _note(identical, "2 B: U-torus within Fig. 4(a)'s visible 2.8 µs of separate addressing at every group size, and each a straight line to within it, rising visibly",
                  "U-torus's root sends ⌊log₂ G⌋ messages of o = 1.6 µs (2 at G = 4, 4 at 16), separate addressing's G − 1 messages of o + t_process = 8.6 µs (25.8 → 129 µs)"),
        ),
        Claim(
            "S-torus's and Md-torus's startups are constant", "§4.3 (Fig. 4(a))",
            "the S-torus and Md-torus algorithms have constant startup latencies because of their fixed fan-out numbers",
            constant, _note(constant, "2 B: max − min within Fig. 4(a)'s visible 2.8 µs, S-torus and Md-torus"),
        ),
        Claim(
            "Mu-torus's startup steps up after each multiple of r", "§4.3 (Fig. 4(a))", "it can be seen that Mu-torus has a step-like increasing latency after each multiple of r, the partition length",
            mu_steps,
            _note(mu_steps, f"2 B, r = {R}: a visible rise at G = {', '.join(str(x) for x in risers if groups[0] < x <= groups[-1])} (one past each multiple of r), nearly constant between",
                  "each step is one more send of the root (one per partition), o = 1.6 µs at 2 B, under Fig. 4(a)'s visible 2.8 µs"),
        ),
        Claim(
            "tree creation: Mu- and Md-torus highest, U-torus lower, S-torus lowest", "§4.3 (Fig. 4(b))",
            "The Mu-torus and Md-torus algorithms … resulting in the highest multicast tree-creation latencies … U-torus … has lower tree-creation latency. S-torus … resulting in the lowest latency",
            _not_judged("", "the study gives no cost of tree creation"),
            f"not judged: the study gives no cost of tree creation; ours is a model of {STEP_NS:.0f} ns per step of building the plan (docs/models/torus_multicast.md), so its ordering follows from how much each algorithm computes, by construction",
            cause=DATA,
        ),
    ]


# --- Fig. 5: link concentration and concurrency (§4.4, and §7 where it repeats §4.4) -------------------------------


def fig5_claims(r: Results) -> list[Claim]:
    groups = _groups(r)
    k = 4

    @functools.cache  # (each point's values are read by several checks)
    def at(column: str, g: int, algorithms: Sequence[str] = tuple(ALGORITHMS)) -> dict[str, Measured]:
        return _at(r, column, column.removeprefix("link_"), SMALL, g, algorithms)

    def curve(column: str, algorithm: str) -> list[tuple[float, Measured]]:
        return _curve(r, column, column.removeprefix("link_"), algorithm, SMALL)

    s_checks = against_others("S-torus", [(c.removeprefix("link_"), g, at(c, g), axis) for c, axis in (("link_concentration", FIG5A), ("link_concurrency", FIG5B)) for g in groups], "lowest")
    s_lowest = every(
        [v for *_, v in s_checks]
        + [nearly_constant(curve("link_concentration", "S-torus"), FIG5A, "S-torus's concentration"), nearly_constant(curve("link_concurrency", "S-torus"), FIG5B, "S-torus's concurrency")],
        misses(s_checks, "lowest"),
        "S-torus below every other by the visible resolution, concentration and concurrency, at every group size, and both nearly constant",
    )
    u_checks = against_others("U-torus", [("", g, at("link_concurrency", g, ("U-torus", "S-torus", "Md-torus", "Mu-torus")), FIG5B) for g in groups], "highest")
    u_top = every([v for *_, v in u_checks], misses(u_checks, "highest"), "U-torus above S-, Md- and Mu-torus by the visible resolution at every group size")
    sep_as_u, _ = alike("U-torus", "Sep Add", {g: at("link_concurrency", g) for g in groups}, FIG5B, unit="")
    md_falls = decreases(curve("link_concentration", "Md-torus"), FIG5A, " → ".join(f"{m.value:.2f}" for _, m in curve("link_concentration", "Md-torus")[:: max(1, len(groups) // 4)]))
    md_bounded = every(
        [negated(above(m, k, FIG5B, f"G = {g:g}: {m}"), f"at most k = {k}") for g, m in curve("link_concurrency", "Md-torus")],
        f"at most {max(m.value for _, m in curve('link_concurrency', 'Md-torus')):g}, k = {k}",
        f"Md-torus's concurrency at most k = {k} (not above it by the visible resolution) at every group size",
    )
    mu_grows = increases(curve("link_concurrency", "Mu-torus"), FIG5B, ", ".join(f"{g:g}: {m}" for g, m in curve("link_concurrency", "Mu-torus")))
    return [
        Claim(
            "S-torus has the lowest and a constant link concentration and concurrency", "§4.4 (Fig. 5)",
            "S-torus has the lowest and a constant link concentration and concurrency compared to other algorithms",
            s_lowest,
            _note(s_lowest, "below every other algorithm by the visible resolution of Fig. 5's axes (0.07 and 0.14) at every group size, concentration and concurrency, and both nearly constant (2 B)",
                  "Mu-torus's concentration is 1.00 too up to G = 8 (its partitions' worms and the root's sends use each link once), and separate addressing keeps one message in transit at 2 B as S-torus does"),
        ),
        Claim(
            "U-torus has the highest concurrency", "§4.4 (Fig. 5(b))",
            "due to the high parallelism provided by the recursive doubling approach, the U-torus algorithm has the highest concurrency” — §7: “the U-torus algorithm has the highest concurrency among all algorithms evaluated",
            u_top,
            _note(u_top, "2 B: U-torus above S-, Md- and Mu-torus by Fig. 5(b)'s visible 0.14 at every group size (separate addressing left out: §4.4 makes it U-torus's equal)",
                  "Md-torus keeps three messages in transit from G = 4 on (its root's sends to the headers overlap the headers' relays down their columns) while U-torus keeps two or three below G = 12, and Mu-torus as many as U-torus at G = 5, 6 and 9–11"),
        ),
        Claim(
            "separate addressing's concurrency is U-torus's", "§4.4 (Fig. 5(b))",
            "Separate addressing exhibits an identical degree of concurrency to the U-torus, because of the multiple message transfers overlapping at the same time due to the network pipelining",
            sep_as_u,
            _note(sep_as_u, "2 B: within Fig. 5(b)'s visible 0.14 of U-torus at every group size",
                  "at 2 B separate addressing's root spends o + t_process = 8.6 µs per destination (t_process 7 µs, Table 1), longer than a message is in transit (o + network + o, about 3.3 µs), so its messages never overlap: 1 at every group size (at 512 KB, measured at G = 4, 8 and 16, its copies overlap: 3 in transit, U-torus 2, 4 and 7)"),
        ),
        Claim(
            "Md-torus's link concentration falls with the group, towards 1", "§4.4 (Fig. 5(a))",
            "Md-torus has inversely proportional link concentration versus increasing group size … This trend asymptotically limits the decreasing link concentration to 1",
            md_falls, _note(md_falls, "2 B: falling from the first group size to the last by more than Fig. 5(a)'s visible 0.07, with no visible step back (a concentration is never below 1)"),
        ),
        Claim(
            "Md-torus's concurrency is bounded by k", "§4.4 (Fig. 5(b))", "The concurrency of Md-torus is upper bounded by k as each dimensional header relays the message over separate ringlets with k nodes in each",
            md_bounded, _note(md_bounded, f"2 B: at most k = {k} at every group size, to Fig. 5(b)'s visible 0.14"),
        ),
        Claim(
            "Mu-torus has a low link concentration", "§4.4 (Fig. 5(a))", "The Mu-torus algorithm has low link concentration for all group sizes",
            _not_judged("", "'low' names no reference (no algorithm or value to be low against) and the vocabulary has no word for it"),
            "not judged: 'low' names no reference (no algorithm or value to be low against) and the vocabulary has no word for it",
        ),
        Claim(
            "Mu-torus's concurrency grows with the group", "§4.4 (Fig. 5(b))",
            "an increase in the group size results in an increase in the number of partitions as well as an increase in the number of individual paths. This trait results in more messages being transferred concurrently at any given time",
            mu_grows, _note(mu_grows, "2 B: rising from the first group size to the last by more than Fig. 5(b)'s visible 0.14, with no visible step back"),
        ),
        Claim(
            "Md-torus achieves high concurrency", "§7 (Fig. 5(b))", "Md-torus … achieves high concurrency for all the message and group sizes considered",
            _not_judged("", "'high' names no reference (§4.4 bounds it by k and gives U-torus the highest)"),
            "not judged: 'high' names no reference (§4.4 bounds it by k and gives U-torus the highest)",
        ),
    ]


# --- Figs 9–13: the model against the testbed (§5) -----------------------------------------------------------------


#: Figs 9–13: what survives of the testbed's measurements — the stated average errors and the left axes'
#: highest ticks (µs); the curves themselves are lost
def _model_figure(name: str) -> tuple[str, str, int, str]:
    stated = value("004", f"model_error_{ALGORITHMS[name]}")
    return stated.extra["figure"], stated.extra["stated"], int(stated.extra["axis_top_us"]), stated.where.split(",")[0]


MODEL_FIGURES = {name: _model_figure(name) for name in ("Sep Add", "Md-torus", "Mu-torus", "U-torus", "S-torus")}


def model_claims(r: Results) -> list[Claim]:
    """§5's accuracy statements compare the model with the testbed, whose values are lost: not judged.
    (The model against our own simulation of the same plans is a validation test, not a claim.)"""
    claims = []
    for algorithm, (figure, stated, top, section) in MODEL_FIGURES.items():
        model = [m.value for _, m in _curve(r, "model_us", "model", algorithm, 128)]
        ours = f"our model {min(model):,.0f}–{max(model):,.0f} µs ({figure}'s axis reaches {top:,})"
        why = f"the text gives no testbed value for {figure} (its curves are lost; only the axis ticks survive), so the model cannot be compared with the testbed"
        claims.append(
            Claim(
                f"{algorithm}: the simplified model is accurate" if algorithm != "S-torus" else "the model fits S-torus worst",
                f"{section} ({figure})",
                f"{stated}” — §7: “The models are accurate for all evaluated algorithms except the S-torus algorithm" if algorithm == "S-torus" else f"the model is accurate with an {stated}",
                _not_judged(ours, why), f"not judged: {why}",
            )
        )
    return claims


# --- Fig. 14: the model's projections to 8×8 and 16×16 (§6, and §7 where it repeats §6) ------------------------------

SEP_LOSES_CONTRADICTED = (
    "§6: “Although separate addressing is the best choice for small-scale systems, it loses its advantage with increasing group sizes for short messages”",
    ("§5 and Table 1: t_process “is observed to be the dominant component of L_i for short message sizes” and L_p, L_f, L_s (14–670 ns) are "
    "“drastically smaller” — Table 1 in µs — so Eq. 8 charges separate addressing o + 7 µs per destination against relays of 205–633 µs "
    "each (Eqs 7, 9–12): still the fastest at G = k² (569 µs at 64 on 8×8, 2,295 µs at 256 on 16×16, against Md-torus's 1,474 and 3,154)"),
)
S_WORST_BEYOND_8_CONTRADICTED = (
    "§6: “S-torus … is simply the worst performing algorithm for group sizes greater than 8”",
    ("§5 and Table 1 (in µs, as above) with Eqs 11 and 12: U-torus's ⌈log₂ G⌉ levels of 629 + 2·o µs reach 2,536 µs at G = 9 … 16, "
    "above S-torus's G − 2 relays of 265 + 2·o at G = 9 … 11 and within ×1.06 of it at 12, inside Fig. 14(a)'s visible ×1.15"),
)


def _projection(k: int, groups: Sequence[int], h_i: str = "closed") -> dict[str, dict[int, float]]:
    """The model (128 B) at ``groups`` of the k × k torus, per curve of Fig. 14 (Mu-torus with r = 8, 16, 32)."""
    from flitcast import analytic

    curves: dict[str, dict[int, float]] = {}
    for label, scheme in ALGORITHMS.items():
        for r in (8, 16, 32) if scheme == "mu_torus" else [R]:
            name = f"Mu-torus (r={r})" if scheme == "mu_torus" else label
            curves[name] = {g: analytic.latency(scheme, k, g, 128, r=min(r, k * k), h_i=h_i) for g in groups}  # type: ignore[arg-type]
    return curves


def _exact(values: dict[int, float]) -> list[tuple[float, Measured]]:
    return [(g, exact(v, f"{v:,.0f}")) for g, v in sorted(values.items())]


def fig14_claims(r: Results, h_i: str = "closed") -> list[Claim]:
    """Fig. 14's statements on the model (the figure is the model's projection, §6); the model is read at the
    figure's group sizes, and at every group size where the statement names steps of single nodes."""
    tori = sorted(int(k) for k in r.table["k"].unique() if int(k) in FIG14)
    grid = {k: sorted(int(g) for g in r.select(k=k)["group"].unique()) for k in tori}
    on_grid = {k: _projection(k, grid[k], h_i) for k in tori}
    dense = {k: _projection(k, range(grid[k][0], k * k + 1), h_i) for k in tori}
    study_eqs = {k: _projection(k, grid[k]) for k in tori}  # (the study's own equations, whatever h_i is read)

    def ends(k: int, name: str) -> tuple[Measured, Measured]:
        curve = on_grid[k][name]
        return exact(curve[grid[k][0]]), exact(curve[grid[k][-1]])

    def at_top(k: int, names: Sequence[str] | None = None) -> dict[str, Measured]:
        top = grid[k][-1]
        return {n: exact(c[top], f"{c[top]:,.0f}") for n, c in on_grid[k].items() if names is None or n in names}

    def simulated(k: int, names: Sequence[str]) -> str:
        top = grid[k][-1]
        return ", ".join(f"{n} {r.value('completion_us', 'completion', algorithm=n, k=k, group=top, message_bytes=128).value:,.0f}" for n in names)

    def unseen_steps(k: int) -> str:
        """The Md-torus steps a reader cannot see (a rise under the visible ratio), as ``ours`` shows them."""
        md, ratio = dense[k]["Md-torus"], math.exp(FIG14[k].visible)
        hidden = [g for g in range(k + 2, k * k + 1, k) if g in md and md[g] / md[g - 1] <= ratio]
        return f"{k}×{k}: " + (f"steps under ×{ratio:.2f} from G = {hidden[0]} ({_us(md[hidden[-1] - 1])} → {_us(md[hidden[-1]])} µs at {hidden[-1]})" if hidden else "every step visible")

    md_steps = every(
        [steps(_exact(dense[k]["Md-torus"]), [n * k + 2 for n in range(1, k)], FIG14[k], f"{k}×{k}") for k in tori],
        "; ".join(unseen_steps(k) for k in tori),
        "Md-torus rises visibly at G = k + 2, 2k + 2, … (the first destination of each new ringlet of k) and is flat between, every group size, both tori",
    )
    mus = {k: [f"Mu-torus (r={rr})" for rr in (8, 16, 32)] for k in tori}
    best_r = every(
        [lowest(f"Mu-torus (r={k})", at_top(k, mus[k]), FIG14[k], f"{k}×{k}") for k in tori],
        "r = 8, 16, 32 at G = k²: " + "; ".join(f"{', '.join(str(m) for m in at_top(k, mus[k]).values())} µs ({k}×{k})" for k in tori),
        "Mu-torus with r = k the lowest of r = 8, 16, 32 at G = k², both tori",
    )

    def growth(k: int) -> float:
        first, last = ends(k, "U-torus")
        return last.value / first.value

    u_slow = every(
        [
            part
            for k in tori
            for part in (
                increases(_exact(on_grid[k]["U-torus"]), FIG14[k], f"{k}×{k}: U-torus rises"),
                much_lower(exact(growth(k)), exact(grid[k][-1] / grid[k][0]), ours=f"{k}×{k}: ×{growth(k):.1f} against the group's ×{grid[k][-1] / grid[k][0]:g}"),
            )
        ],
        "; ".join(f"×{growth(k):.1f} from G = {grid[k][0]} to {grid[k][-1]} (the group ×{grid[k][-1] / grid[k][0]:g})" for k in tori),
        "U-torus rising over the figure's group sizes, by a factor much lower (×1.2) than the group's own",
    )
    asymptote = {k: ["U-torus", f"Mu-torus (r={k})", "Md-torus"] for k in tori}
    similar_v = every(
        [
            similar(top[a], top[b], FIG14[k], f"{k}×{k}, G = {grid[k][-1]}: {a} {top[a]}, {b} {top[b]}")
            for k in tori
            for top in [at_top(k, asymptote[k])]
            for a, b in (("U-torus", f"Mu-torus (r={k})"), ("U-torus", "Md-torus"), (f"Mu-torus (r={k})", "Md-torus"))
        ],
        "U-, Mu- (r = k), Md-torus at G = k²: " + "; ".join(f"{', '.join(str(at_top(k, asymptote[k])[n]) for n in asymptote[k])} µs ({k}×{k})" for k in tori),
        "U-torus, Mu-torus (r = k, the study's optimum) and Md-torus within the visible resolution of each other at G = k², both tori",
    )
    s_sep_linear = every(
        [linear(_exact(on_grid[k][a]), FIG14[k], f"{k}×{k}: {a}") for k in tori for a in ("S-torus", "Sep Add")],
        "straight: " + "; ".join(f"S-torus {ends(k, 'S-torus')[0]} → {ends(k, 'S-torus')[1]}, separate addressing {ends(k, 'Sep Add')[0]} → {ends(k, 'Sep Add')[1]} µs ({k}×{k})" for k in tori),
        "S-torus and separate addressing linear in G over the figure's group sizes, both tori",
    )

    def runner_up(k: int) -> str:
        top = at_top(k)
        name = min((n for n in top if n != "Sep Add"), key=lambda n: top[n].value)
        return f"{k}×{k}: separate addressing {top['Sep Add']}, the next {name} {top[name]} µs"

    sep_loses = every(
        [negated(lowest("Sep Add", at_top(k), FIG14[k], f"{k}×{k}, G = {grid[k][-1]}"), "not the lowest at G = k²") for k in tori],
        "; ".join(runner_up(k) for k in tori),
        "separate addressing not below every other curve by the visible resolution at the largest group, G = k², both tori",
    )
    s_checks = against_others("S-torus", [(f"{k}×{k}", g, {n: exact(c[g], f"{c[g]:,.0f}") for n, c in on_grid[k].items()}, FIG14[k]) for k in tori for g in grid[k] if g > 8], "highest")
    # (the checks against U-torus where the study's own Eqs 11 and 12 do not put S-torus visibly above it)
    covered = [
        v
        for label, g, other, v in s_checks
        if other == "U-torus" and higher(exact(study_eqs[int(label.split("×")[0])]["S-torus"][g]), exact(study_eqs[int(label.split("×")[0])]["U-torus"][g]), FIG14[int(label.split("×")[0])]).status != HOLDS
    ]
    rest = [v for *_, v in s_checks if not any(v is c for c in covered)]
    s_worst = every([v for *_, v in s_checks], misses(s_checks, "highest"), "S-torus above every other curve by the visible resolution at each of the figure's group sizes above 8, both tori")
    reading = "" if h_i == "closed" else f" (h_i: {h_i})"
    return [
        Claim(
            "Md-torus's latency steps up with every k destinations (model)", "§6 (Fig. 14)",
            "The Md-torus algorithm has step-like completion latency due to the fact that, with every new k destination nodes added to the group, a new ringlet is introduced to the multicast communication which increases the completion latency",
            md_steps,
            _note(md_steps, f"the model at every group size from 4 to k² (the sentence names steps of single destinations): a rise by the visible resolution of Fig. 14's log axes at G = k + 2, 2k + 2, … and nearly constant between, 8×8 and 16×16{reading}",
                  "each step is one more relay, about 210 µs (Eq. 9 as we read it, ⌈(G − 1)/k⌉ − 1 relays): on 16×16 from the sixth step on (G = 98, five relays to six) it adds under ×1.20, the visible step of the 4-decade axis, so the curve rises there without visible steps"),
        ),
        Claim(
            "the best Mu-torus partition length is k (model)", "§6 (Fig. 14)",
            "The optimal performance for the 8x8 torus network is obtained when the Mu-torus has a partition length of 8 and for the 16x16 torus network when the partition length is 16. Therefore, it is surmised that the optimal partition length for Mu-torus is equal to k",
            best_r,
            _note(best_r, f"the model at G = k², where all three partition lengths cut the group into several partitions: r = k below r = 8, 16, 32's others by the visible resolution, both tori{reading}; our simulation of the plans at G = k²: {'; '.join(f'{k}×{k} ' + simulated(k, mus[k]) + ' µs' for k in tori)}",
                  "with Eq. 10 as we read it (⌈(G − r)/k⌉ + r − 1 relays: the root's sends to the other partitions and a partition's chain) the chain of r − 1 relays dominates, so r = 8 is the best on 16×16 too; read without k (⌈G/r⌉ + r − 2) it picks k on both tori, but that drops the k the printed equation keeps (docs/models/torus_multicast.md)"),
        ),
        Claim(
            "U-torus's latency rises slowly (model)", "§6 (Fig. 14)", "U-torus, on average, has slowly increasing completion latency with increasing group sizes",
            u_slow, _note(u_slow, f"over the figure's group sizes: rising by the visible resolution from the first to the last with no visible step back, by a factor much lower (×1.2, the vocabulary's 'much') than the group's, the linear growth §6 contrasts it with{reading}"),
        ),
        Claim(
            "U-, Mu- and Md-torus tend to similar latencies at large groups (model)", "§6 (Fig. 14)",
            "U-torus, Mu-torus, and Md-torus all tend to have similar asymptotic latencies” — §7: “with increasing group size the U-torus, Mu-torus, and Md-torus algorithms tend to have asymptotically bounded similar latencies",
            similar_v,
            _note(similar_v, f"at the largest group, G = k²: each pair within the visible resolution of Fig. 14's log axes (×1.15 on 8×8, ×1.20 on 16×16), Mu-torus with r = k{reading}",
                  "the three pay different relay counts at G = k²: U-torus ⌈log₂ G⌉ levels of 633 µs (6 and 8), Md-torus a column's relays (7 and 15 of 210 µs), Mu-torus its partitions' chains and the root's sends (14 and 30 of 205 µs)"),
        ),
        Claim(
            "S-torus's and separate addressing's latencies rise linearly (model)", "§6 (Fig. 14)",
            "S-torus and separate addressing, as expected, have linearly increasing latencies with increasing group sizes” — §7: “S-torus and separate addressing have unbounded and linearly increasing completion latencies with increasing group sizes",
            s_sep_linear, _note(s_sep_linear, f"over the figure's group sizes: within the visible resolution of a straight line in G (read as ratios on Fig. 14's log axes), rising visibly, both tori{reading}"),
        ),
        Claim(
            "separate addressing loses its advantage as the group grows (model)", "§6 (Fig. 14)",
            "Although separate addressing is the best choice for small-scale systems, it loses its advantage with increasing group sizes for short messages",
            sep_loses,
            _note(sep_loses, f"at the largest group, G = k², separate addressing not the lowest curve by the visible resolution, both tori ('small-scale systems' is the case study's 4×4: §6 projects to 'larger systems'; its advantage there is §4.1's claim){reading}",
                  "with Table 1 in µs it pays o + 7 µs per destination against relays of 205–633 µs: the fastest curve at G = k²; with Table 1 in ns it loses it (U-torus 32 and Md-torus 33 µs against 128 µs at G = 64 on 8×8; 41 and 67 against 512 µs at 256 on 16×16)"),
            SEP_LOSES_CONTRADICTED,
        ),
        Claim(
            "S-torus is the worst beyond 8 nodes (model)", "§6 (Fig. 14)", "S-torus, by contrast, again proves to be a poor choice, as it is simply the worst performing algorithm for group sizes greater than 8",
            s_worst,
            _note(s_worst, f"above every other curve by the visible resolution at each of the figure's group sizes above 8 (12 … 64 on 8×8, 32 … 256 on 16×16; between them the model is not drawn){reading}",
                  "U-torus's fourth binomial level (2,536 µs, ⌈log₂ G⌉ = 4 relays of 633 µs) is within ×1.06 of S-torus's 2,694 µs at G = 12, under the visible ×1.15 of Fig. 14(a)'s axis (and above it at G = 9 … 11, which the figure does not draw)"),
            _unless_any_deviates(rest, S_WORST_BEYOND_8_CONTRADICTED),
        ),
    ]


# --- plots ----------------------------------------------------------------------------------------------------


#: the simulated values an incomplete point (``saturated``: the multicast did not complete) does not have:
#: its plots mark it with a ▲ instead (flitcast.plot.draw_latency). The root's CPU load is among them: sar
#: reads it over repetitions of a multicast that ends, which an incomplete one does not. The startup (the
#: root's sending, done) and the modelled values (tree creation, the model) are drawn for it as for any point
INCOMPLETE_HIDES = ("completion_us", "root_cpu_us", "link_concentration", "link_concurrency")


def _incomplete(part: pd.DataFrame) -> pd.Series:
    return part["saturated"].fillna(False).astype(bool) if "saturated" in part else part["group"] != part["group"]


def _plot(experiment: str, panels: list[tuple[str, str, str, dict[str, int], str, bool]]) -> Any:
    """Panels of ``experiment``: (file stem, title, value column, rows to keep {column: value}, y label, log scale)."""

    def plot(results: pd.DataFrame, out: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from flitcast.experiments.study_marks import finish_panel
        from flitcast.plot import INCOMPLETE_NOTE, draw_latency, latency_legend

        for stem, title, column_shown, keep, label, log in panels:
            sel = results
            for column, wanted in keep.items():
                sel = sel[sel[column] == wanted]
            fig, ax = plt.subplots(figsize=(6, 4.2))
            hides = column_shown in INCOMPLETE_HIDES
            parts = {str(algorithm): part.sort_values("group") for algorithm, part in sel.groupby("algorithm", sort=False)}
            incomplete = {a: _incomplete(part).to_numpy() & hides for a, part in parts.items()}
            # (what is drawn: an incomplete point's value is not, so it cannot make two series coincide)
            curves = {a: part[column_shown].where(~incomplete[a]).set_axis(part["group"]) for a, part in parts.items()}
            labels = coincidence_labels(curves)  # (fig5b: S-torus lies on Sep Add at every group size)
            for i, (algorithm, part) in enumerate(parts.items()):
                draw_latency(ax, part["group"], part[column_shown], incomplete[algorithm], note=INCOMPLETE_NOTE, label=labels[algorithm], **series_style(i))
            if log:
                ax.set_yscale("log")
            ax.set_xlabel("multicast group size (nodes)")
            ax.set_ylabel(label)
            ax.set_title(title, fontsize=9)
            latency_legend(ax, fontsize=7)
            finish_panel(ax, experiment, stem, grid=True)
            fig.tight_layout()
            fig.savefig(out / f"{stem}.png", dpi=110)
            plt.close(fig)

    return plot


def _model_plot(results: pd.DataFrame, out: Path) -> None:
    """Figs 9–13: per algorithm, model and simulation against group size, and the error."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    from flitcast.experiments.study_marks import finish_panel
    from flitcast.plot import INCOMPLETE_NOTE, draw_latency, latency_legend

    for figure, algorithm in zip(range(9, 14), ("Sep Add", "Md-torus", "Mu-torus", "U-torus", "S-torus"), strict=True):
        part = results[results["algorithm"] == algorithm].sort_values("group")
        incomplete = _incomplete(part)
        fig, ax = plt.subplots(figsize=(6.5, 5))
        ax.plot(part["group"], part["model_us"], marker="s", markersize=3, label="model")
        draw_latency(ax, part["group"], part["completion_us"], incomplete, note=INCOMPLETE_NOTE, marker="o", markersize=3, label="simulated")
        ax.set_xlabel("multicast group size (nodes)")
        ax.set_ylabel("completion latency (µs), 128 B")
        twin = ax.twinx()
        # (no error where there is no simulated completion to compare with)
        twin.bar(part["group"], part["model_error"].where(~incomplete), alpha=0.25, color="grey")
        twin.yaxis.set_major_formatter(PercentFormatter(1.0))
        twin.set_ylabel("model error (grey bars): (model − simulated) / simulated")
        ax.set_zorder(twin.get_zorder() + 1)  # the curves, their ▲ and the legend over the error bars
        ax.patch.set_visible(False)
        ax.set_title(f"Fig. {figure}: {algorithm}, model vs simulation, 128 B", fontsize=9)
        ax.fill_between([], [], alpha=0.25, color="grey", linewidth=0, label="model error (right axis)")  # (its legend entry)
        # (below the axes: the error bars hang from the top, the curves rise across, the study's error lies low)
        latency_legend(ax, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
        # (the study's average error, model vs its testbed, on the error axis: the axis reaches it)
        stated = value("004", f"model_error_{ALGORITHMS[algorithm]}").y
        if isinstance(stated, float):
            bottom, top = twin.get_ylim()
            margin = 0.1 * (top - bottom)
            twin.set_ylim(min(bottom, stated - margin), max(top, stated + margin))
        finish_panel(twin, "oral-model", f"fig{figure}", legend_ax=ax)
        fig.tight_layout()
        fig.savefig(out / f"fig{figure}.png", dpi=110)
        plt.close(fig)


QUICK_NOTE = "the full run (seconds): judges every claim as the full run does"


#: what the study leaves open and may change a verdict, read otherwise (docs/models/torus_multicast.md,
#: "Which nodes are the group"; docs/experiments.md, "Readings")
READINGS = (
    Reading(
        "random-members",
        "§4 does not say which nodes form a group of G, and Fig. 1 shows idle nodes between members: the G − 1 "
        "destinations drawn at random from the other nodes (run.seed; a larger group keeps a smaller one's members), "
        "instead of the default next G − 1 nodes of the root's dimension-ordered chain",
        {"workload.members": "random"},
    ),
    Reading(
        "mu-equal-partitions",
        "§3's 'uniform partitioning mechanism to equalize the partition lengths' read as near-equal partitions of at "
        "most r nodes (workload.partition_lengths = equal; G = 10, r = 4: 4, 3, 3), instead of the default r nodes each "
        "but the last (4, 4, 2: §4's 'partition length r', chosen 'for a fair comparison' with Md-torus's 4-node rings); "
        "only Mu-torus's points change",
        lambda point: {"workload.partition_lengths": "equal"} if point.scenario.workload.scheme == "mu_torus" else {},
    ),
)


def _experiment(fid: str, figure: str, title: str, points: Any, claims: Any, plot: Any) -> Experiment:
    return Experiment(
        id=fid, study=STUDY, figure=figure, title=title, points=points, claims=claims, plot=plot, quick_note=QUICK_NOTE,
        derive=derive, quick_runs_full=True, readings=READINGS,
    )


#: Fig. 14's group sizes (its x-axis tick labels: 4, 8, … 64 on 8×8; 4, 32, … 256 on 16×16)
PROJECTIONS = {8: list(range(4, 65, 4)), 16: [4, 32, 60, 88, 116, 144, 172, 200, 228, 256]}

EXPERIMENTS = [
    _experiment("oral-fig2", "Fig. 2", "completion latency vs group size, 2 B and 512 KB, 4×4", lambda q: _points(4, GROUPS, SIZES), fig2_claims,
                _plot("oral-fig2", [("fig2a", "Fig. 2(a): completion latency, 2-byte messages", "completion_us", {"message_bytes": SMALL}, "completion latency (µs), 2 B", False),
                                    ("fig2b", "Fig. 2(b): completion latency, 512 KB messages", "completion_us", {"message_bytes": LARGE}, "completion latency (µs), 512 KB", False)])),
    _experiment("oral-fig3", "Fig. 3", "root CPU load vs group size, 2 B and 512 KB, 4×4", lambda q: _points(4, GROUPS, SIZES), fig3_claims,
                _plot("oral-fig3", [("fig3a", "Fig. 3(a): root CPU utilisation, 2-byte messages", "root_cpu_us", {"message_bytes": SMALL}, "root CPU per multicast: its sends (µs), 2 B", False),
                                    ("fig3b", "Fig. 3(b): root CPU utilisation, 512 KB messages", "root_cpu_us", {"message_bytes": LARGE}, "root CPU per multicast: its sends (µs), 512 KB", False)])),
    # (both message sizes: §4.3's startup "independent of the message size" is read on them)
    _experiment("oral-fig4", "Fig. 4", "startup and tree-creation latency vs group size, 2 B and 512 KB, 4×4", lambda q: _points(4, GROUPS, SIZES), fig4_claims,
                _plot("oral-fig4", [("fig4a", "Fig. 4(a): startup latency, 2-byte messages", "startup_us", {"message_bytes": SMALL}, "startup latency (µs), 2 B", False),
                                    ("fig4a_512KB", "Fig. 4(a) at 512 KB (ours: §4.3 compares the sizes)", "startup_us", {"message_bytes": LARGE}, "startup latency (µs), 512 KB", False),
                                    ("fig4b", "Fig. 4(b): tree-creation latency (modelled), 2-byte messages", "tree_creation_us", {"message_bytes": SMALL}, "tree creation (µs, modelled)", False)])),
    _experiment("oral-fig5", "Fig. 5", "link concentration and concurrency vs group size, 4×4", lambda q: _points(4, GROUPS, [SMALL]), fig5_claims,
                _plot("oral-fig5", [("fig5a", "Fig. 5(a): link concentration, 2-byte messages", "link_concentration", {}, "link concentration", False),
                                    ("fig5b", "Fig. 5(b): link concurrency, 2-byte messages", "link_concurrency", {}, "link concurrency", False)])),
    _experiment("oral-model", "Figs 9–13", "the small-message model beside the simulation, 128 B, 4×4", lambda q: _points(4, GROUPS, [128]), model_claims, _model_plot),
    _experiment("oral-fig14", "Fig. 14", "projections for 8×8 and 16×16 tori, model and simulation, 128 B, Mu-torus r = 8, 16, 32",
                lambda q: [p for k, groups in PROJECTIONS.items() for p in _points(k, groups, [128], [8, 16, 32])], fig14_claims,
                _plot("oral-fig14", [("fig14a_model", "Fig. 14(a): model projection, 8×8 torus, 128 B", "model_us", {"k": 8}, "model latency (µs), 8×8", True),
                                     ("fig14a_simulated", "Fig. 14(a) simulated (ours): 8×8 torus, 128 B", "completion_us", {"k": 8}, "simulated latency (µs), 8×8", True),
                                     ("fig14b_model", "Fig. 14(b): model projection, 16×16 torus, 128 B", "model_us", {"k": 16}, "model latency (µs), 16×16", True),
                                     ("fig14b_simulated", "Fig. 14(b) simulated (ours): 16×16 torus, 128 B", "completion_us", {"k": 16}, "simulated latency (µs), 16×16", True)])),
]
