"""Every reproduction experiment runs end to end in quick mode and writes its contract: results.csv,
one PNG per panel, claims.csv with claim/study/ours/holds/status/margin/note, where a quick run leaves
``holds`` empty for the claims its resolution cannot decide. (These runs shorten the quick windows
further to keep the suite fast: they check the contract, not the verdicts; docs/experiments.md compares
quick verdicts with the full runs', and tests/test_quick_verdicts.py checks study 002's quick rule.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from flitcast.cli import app
from flitcast.experiments import (
    EXPERIMENTS,
    banikazemi,
    casetti,
    collectives,
    oral,
    peak_throughput,
    run_experiment,
    sivaram,
    zhou,
)
from flitcast.experiments.experiment import claims_summary, coincidence_labels, series_style

#: panels each experiment must draw
PANELS = {
    "banikazemi-fig5": ["fig5.png"],
    "banikazemi-fig6": ["fig6a.png", "fig6b.png"],
    "banikazemi-fig7": ["fig7a.png", "fig7b.png"],
    "banikazemi-fig8": ["fig8a.png", "fig8b.png"],
    "banikazemi-fig9": ["fig9a.png", "fig9b.png"],
    "banikazemi-grid": ["grid_peak_throughput.png"],
    "sivaram-fig14": ["fig14a.png", "fig14b.png", "fig14c.png"],
    "sivaram-fig15": ["fig15a.png", "fig15b.png"],
    "sivaram-fig16": ["fig16.png"],
    "sivaram-fig17": ["fig17a.png", "fig17b.png"],
    "sivaram-fig18": ["fig18.png"],
    "sivaram-fig19": ["fig19a.png", "fig19b.png"],
    **{f"casetti-fig{f}": [f"fig{f}.png"] for f in range(3, 12)},
    **{f"oral-fig{f}": [f"fig{f}a.png", f"fig{f}b.png"] for f in range(2, 6)},
    "oral-model": [f"fig{f}.png" for f in range(9, 14)],
    "oral-fig14": ["fig14a_model.png", "fig14a_simulated.png", "fig14b_model.png", "fig14b_simulated.png"],
    **{
        f"zhou-{name}": [f"fig{first + i}{panel}.png" for i in range(6) for panel in "ab"]
        for name, first in (("one-source", 10), ("multi-source", 16), ("all-source", 22))
    },
    "dragonfly-routing": ["uniform_72.png", "worst_case_72.png"],  # (quick: the 72-node network only)
    "collectives": [collectives.panel_name(op, net) for op in collectives.ALGORITHMS for net in collectives.NETWORKS],
}


def test_every_experiment_has_its_panels_listed() -> None:
    assert set(PANELS) == set(EXPERIMENTS)


#: windows of the smoke runs below, at loads 0.6, 0.8 and 1.0 (the real quick windows are in
#: banikazemi.QUICK_RUNS, GRID_QUICK_RUN and FULL_RUN, at every load)
SMOKE_RUN = {"warmup_cycles": 3_000, "measure_cycles": 15_000, "drain_max_cycles": 5_000}


@pytest.mark.parametrize("experiment_id", sorted(EXPERIMENTS))
def test_quick_reproduction_writes_the_contract(experiment_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in banikazemi.QUICK_RUNS:
        monkeypatch.setitem(banikazemi.QUICK_RUNS, key, SMOKE_RUN)
    monkeypatch.setattr(banikazemi, "QUICK_LOADS", [0.6, 0.8, 1.0])
    monkeypatch.setattr(banikazemi, "FULL_RUN", SMOKE_RUN)  # the 16-node figures' quick mode is the full run
    monkeypatch.setattr(banikazemi, "FULL_LOADS", [0.6, 0.8, 1.0])
    monkeypatch.setattr(banikazemi, "GRID_QUICK_RUN", SMOKE_RUN)
    monkeypatch.setattr(sivaram, "QUICK_RUN", SMOKE_RUN)
    monkeypatch.setattr(sivaram, "LOADS", [0.2, 0.6, 1.0])
    monkeypatch.setattr(zhou, "QUICK_SIZES", [32])
    monkeypatch.setattr(zhou, "SIZES", [32, 2048])  # (the one-source quick run is its full run)
    monkeypatch.setattr(collectives, "QUICK_SIZES", [8])  # (the fat tree's points take seconds each)
    monkeypatch.setattr(casetti, "QUICK_LOADS", [0.05, 0.5])
    monkeypatch.setattr(casetti, "LOADS", [0.02, 0.05, 0.5, 1.0])
    monkeypatch.setattr(casetti, "RUN", {"warmup_cycles": 2_000, "measure_cycles": 20_000, "drain_max_cycles": 20_000})
    monkeypatch.setattr(oral, "GROUPS", [4, 8, 9, 10, 12, 14, 16])
    monkeypatch.setitem(oral.PROJECTIONS, 16, [4, 60, 256])
    monkeypatch.setattr(casetti, "QUICK_RUN", {"warmup_cycles": 2_000, "measure_cycles": 20_000, "drain_max_cycles": 20_000})
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["reproduce", experiment_id, "--quick", "--out", str(out), "--threads", "2"])
    assert result.exit_code == 0, result.output
    assert re.search(r"claims? holds?|no claim judged", result.output)
    names = {p.name for p in out.iterdir()}
    assert {"results.csv", "claims.csv", *PANELS[experiment_id]} <= names
    claims = pd.read_csv(out / "claims.csv")
    assert list(claims.columns) == ["claim", "study", "ours", "holds", "status", "cause", "margin", "resolution", "rule", "note"]
    assert len(claims) >= 2
    # the closing line words the table as it is (an unjudged claim is not a failed one)
    assert claims_summary(claims) in " ".join(result.output.split())
    judged = claims["holds"].notna()
    assert claims.loc[judged, "holds"].isin([True, False]).all()
    if EXPERIMENTS[experiment_id].quick_runs_full:  # quick is the full run: every claim judged, as in full mode
        # (but those no run can judge, which say why)
        assert (judged | claims["note"].fillna("").str.startswith("not judged:")).all()
    else:
        assert claims.loc[~judged, "note"].str.startswith("not judged in quick mode").all()
        # a judged claim's margin is wider than the resolution, and its sign is the verdict
        assert (claims.loc[judged, "margin"].abs() > 0).all()
        assert ((claims.loc[judged, "margin"] > 0) == claims.loc[judged, "holds"].astype(bool)).all()
    results = pd.read_csv(out / "results.csv")
    experiment = EXPERIMENTS[experiment_id]
    points = experiment.run_points(True)
    if experiment.curve:  # peak figures run only the loads their peaks need: every curve at its top load
        curves = {tuple(p.labels[k] for k in experiment.curve) for p in points}
        walked = results["workload.load"].isin({p.scenario.workload.load for p in points})
        assert len(curves) <= walked.sum() <= len(points)  # the refinement adds loads between these (peak_loads.py)
        assert len(results.groupby(list(experiment.curve))) == len(curves)
    else:
        assert len(results) == len(points)
    if experiment_id.startswith("zhou"):  # study 003: closed batches on InfiniBand switches
        assert (results["switch.model"] == "infiniband").all() and (results["workload.program"] == "batch").all()
        assert (results["workload.source_share"] > 0).all()
        assert (results["completion_ns"] == results["latency_max"] * 32).all()  # 8-byte flits at 4 ns a byte
        return
    if experiment_id.startswith("oral"):  # study 004: one multicast on a unidirectional torus
        assert results["network.unidirectional"].all() and (results["workload.program"] == "torus_multicast").all()
        assert (results["workload.group_size"] == results["group"]).all()
        assert (results["completion_us"] == results["completion_cycles"] * oral.CYCLE_NS / 1000).all()
        assert results["model_us"].notna().all()
        return
    if experiment_id == "collectives":  # ours: one collective over 1,024 members at cycle 0
        assert (results["workload.program"] == "collective").all() and (results["workload.group_size"] == 1024).all()
        # to the last digits: pandas 2's read_csv may read a float a unit in the last place off (pandas 3 reads
        # them exactly)
        ratio = results["completion_cycles"] / results["estimate_cycles"]
        pd.testing.assert_series_equal(results["contention"], ratio, check_names=False, check_exact=False, rtol=1e-15)
        return
    if experiment_id.startswith("casetti"):  # study 001: host adapters on the 8×8 torus, one fixed group
        assert (results["network.topology"] == "torus").all() and (results["switch.flow_control"] == "stop_go").all()
        assert (results["workload.program"] == "host_adapter").all()
        assert (results["workload.scheme"] == results["scheme"].map(casetti.SCHEMES)).all()
        return
    if experiment_id == "dragonfly-routing":  # ours: open loop on input-buffered routers, one VC per hop class
        assert (results["network.topology"] == "dragonfly").all() and (results["switch.model"] == "input_buffered").all()
        assert (results["switch.vcs"] == results["routing"].map({"minimal": 2, "valiant": 3, "ugal_l": 3, "ugal_g": 3})).all()
        assert (results["routing.algorithm"] == results["routing"]).all()
        return
    assert {"variant", "message_bytes", "accepted_load", "latency_mean", "switch.model"} <= set(results.columns)
    if experiment_id.startswith("banikazemi"):
        assert (results["switch.model"] == "central_buffer").all() and (results["workload.program"] == "open_loop").all()
    else:  # study 000: central buffers (CB) and input FIFOs (IB)
        models = {"CB": "central_buffer", "IB": "input_fifo"}
        assert (results["switch.model"] == results["variant"].str[-2:].map(models)).all()
        programs = {"HW": "hardware_multicast", "SW": "software_multicast", "UC": "hardware_multicast"}
        assert (results["workload.program"] == results["variant"].str[:2].map(programs)).all()
        # unicasts alone (UC, §7.8 and Fig. 18's reference) are the one-destination case
        assert ((results["variant"].str[:2] == "UC") == (results["workload.destinations"] == 1)).all()


def test_list_shows_every_experiment() -> None:
    result = CliRunner().invoke(app, ["list", "experiments"])
    assert result.exit_code == 0
    for experiment_id in EXPERIMENTS:
        assert experiment_id in result.output


def test_unknown_experiment_is_a_clean_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["reproduce", "banikazemi-fig99", "--quick", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "banikazemi-fig5" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x").exists()


def test_peak_throughput_is_the_highest_accepted_load_per_group() -> None:
    frame = pd.DataFrame(
        {"variant": ["A", "A", "A", "B", "B"], "accepted_load": [0.3, 0.62, 0.6, 0.5, 0.49]}
    )
    assert peak_throughput(frame, ["variant"]).to_dict() == {"A": 0.62, "B": 0.5}


def _claims(*holds: bool | None) -> pd.DataFrame:
    return pd.DataFrame({"claim": [f"c{i}" for i in range(len(holds))], "holds": pd.Series(holds, dtype=object)})


def test_claims_summary_never_counts_an_unjudged_claim_as_failed() -> None:
    # a quick run that judges nothing has not failed its claims: "0 of 2 claims hold" read as if it had
    assert claims_summary(_claims(None, None)) == "no claim judged (2 claims; each claim's note says why)"
    assert claims_summary(_claims(True, None, None)) == "1 of 1 judged claim holds; 2 not judged (each claim's note says why)"
    assert claims_summary(_claims(True, False, None)) == "1 of 2 judged claims hold; 1 not judged (each claim's note says why)"
    assert claims_summary(_claims(True, True, False)) == "2 of 3 claims hold"
    # as read back from claims.csv: holds is True, False or empty
    assert claims_summary(pd.DataFrame({"holds": [float("nan"), float("nan")]})).startswith("no claim judged")
    assert claims_summary(pd.DataFrame({"holds": [True, False]})) == "1 of 2 claims hold"


def test_a_claim_the_study_contradicts_is_study_inconsistent_not_a_deviation() -> None:
    from flitcast.experiments.claim import Claim
    from flitcast.experiments.experiment import CLAIM_COLUMNS, _row
    from flitcast.experiments.verdicts import DEVIATES, HOLDS, NOT_JUDGED, Verdict

    cited = ("§6: 'U-torus flat at 2 B'", "Table 1: t_process makes every relay add 629 µs")

    def claim(name: str, status: str, note: str = "", inconsistent: tuple[str, str] | tuple[()] = ()) -> Claim:
        return Claim(name, "§6", "words", Verdict(status, None, None, "", ""), note, inconsistent)

    rows = [
        _row(claim("a", HOLDS)),
        _row(claim("b", DEVIATES)),
        _row(claim("c", DEVIATES, "its note", cited)),
        _row(claim("d", HOLDS, inconsistent=cited)),  # holds anyway: no need to cite the study
        _row(claim("e", NOT_JUDGED)),
    ]
    table = pd.DataFrame(rows, columns=CLAIM_COLUMNS)
    assert list(table["status"]) == ["holds", "deviates", "study inconsistent", "holds", "not judged"]
    assert table["note"][2] == f"study inconsistent: {cited[0]} against {cited[1]}; its note" and table["note"][3] == ""
    assert claims_summary(table) == "2 of 4 judged claims hold, 1 study inconsistent; 1 not judged (each claim's note says why)"


def test_series_styles_differ_and_coinciding_series_say_so() -> None:
    styles = [series_style(i) for i in range(7)]
    assert len({(s["marker"], str(s["linestyle"])) for s in styles}) == 7
    x = [4, 5, 6]
    curves = {
        "Sep Add": pd.Series([1.0, 1.0, 1.0], index=x),
        "U-torus": pd.Series([2.0, 2.0, 3.0], index=x),
        "S-torus": pd.Series([1.0, 1.0, 1.0], index=x),
        "Md-torus": pd.Series([1.0, 2.0, 2.0], index=x),
        "Mu-torus": pd.Series([1.0, 1.0, 2.0], index=x),  # equal at one size only: not a coincidence
    }
    assert coincidence_labels(curves) == {
        "Sep Add": "Sep Add",
        "U-torus": "U-torus",
        "S-torus": "S-torus (coincides with Sep Add)",
        "Md-torus": "Md-torus",
        "Mu-torus": "Mu-torus",
    }


def test_oral_fig5_keeps_overlapping_series_visible(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Fig. 5b: separate addressing and S-torus both keep one message in transit at every group size, and
    # Md- and Mu-torus mostly agree; every series has its own marker and line style, and the legend says
    # which one lies on another
    import matplotlib.figure

    figures: dict[str, Any] = {}

    def save(figure: Any, path: Any, *args: Any, **kwargs: Any) -> None:
        figures[Path(path).name] = figure
        Path(path).write_bytes(b"")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", save)
    run_experiment(EXPERIMENTS["oral-fig5"], quick=True, out=tmp_path / "out", threads=2)
    (ax,) = figures["fig5b.png"].axes
    lines = ax.get_lines()
    assert len({(line.get_marker(), str(line.get_linestyle())) for line in lines}) == len(lines) == 5
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert "S-torus (coincides with Sep Add)" in labels
