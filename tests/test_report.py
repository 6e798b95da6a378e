"""`flitcast reproduce --all` and its report: every selected experiment run into DIR/<id> (resumable), the
report's pages (index.html, summary.md) with every study section, figure, image and claim, and clean
failures for bad selections and directories."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from flitcast.cli import app, reproduce_all
from flitcast.experiments import EXPERIMENTS
from flitcast.report import COLOURS, STATUSES, differing_parameters
from flitcast.studies import STUDY_IDS, studies, study
from flitcast.sweeps.store import PointStore

runner = CliRunner()
#: the cheapest experiments (about a second each, quick = full): enough to exercise the whole command
CHEAP = ("oral-fig4", "oral-fig5", "oral-model")


def invoke(*args: Any):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """--all selects only the cheap experiments (of study 004)."""
    real = reproduce_all.selected
    monkeypatch.setattr(reproduce_all, "selected", lambda ids: [e for e in real(ids) if e.id in CHEAP])


def test_all_writes_a_report_of_every_selected_experiment_and_resumes(cheap: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "report"
    result = invoke("reproduce", "--all", "--study", "004", "--out", out)
    assert result.exit_code == 0, result.output
    # the terminal's table: key columns whole in 80 columns, nothing cut with "…"
    table = result.stdout.split("wrote ")[0]
    assert "…" not in table and "inconsistent" in table and max(map(len, table.splitlines())) <= 80, table
    page = (out / "index.html").read_text()
    summary = (out / "summary.md").read_text()
    assert 'id="study-004"' in page and "Oral" in page and study("004").title in summary
    for e in CHEAP:
        assert f'id="{e}"' in page and f"`{e}`" in summary
        claims = pd.read_csv(out / e / "claims.csv")
        assert len(claims)
        for claim in claims["claim"]:  # every claim is in both pages
            assert claim.replace("&", "&amp;") in page.replace("&#x27;", "'") or claim in page
            assert claim.replace("|", "\\|") in summary
    # every image the page shows exists beside it
    images = re.findall(r'<img src="([^"]+)"', page)
    assert images and all((out / src).is_file() for src in images)
    # the status colours and the front table's counts
    for status in STATUSES:
        assert COLOURS[status] in page
    # (the front table counts statements: a claim of the same name in several of the study's figures once)
    n = len({name for e in CHEAP for name in pd.read_csv(out / e / "claims.csv")["claim"]})
    assert f'<td class="n">{n}</td>' in page
    # a second run resumes from the stores: nothing is simulated again
    from flitcast import _core

    calls: list[str] = []
    real_run = _core.run
    monkeypatch.setattr(_core, "run", lambda *a, **k: calls.append("x") or real_run(*a, **k))
    again = invoke("reproduce", "--all", "--study", "004", "--out", out)
    assert again.exit_code == 0, again.output
    assert calls == [] and (out / "index.html").read_text().count("<h3") == page.count("<h3")
    # ... and the wall time shown is still the run's that simulated the points, not the re-reading's
    walls = [json.loads((out / e / "timing.json").read_text())["wall_seconds"] for e in CHEAP]
    assert all(w > 0 for w in walls)
    assert f'{sum(walls):,.0f}</td>' in (out / "index.html").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--all", "--study", "999"], "error: --study = '999' is not allowed; allowed: one of 000, 001, 002, 003, 004"),
        (["--all", "--study", "004", "--study", "004"], "error: --study = '004,004' is not allowed; allowed: each study once"),
        (["oral-fig4", "--all"], "error: ID = 'oral-fig4' is not allowed; allowed: no experiment id with --all"),
        (["--all", "--reading", "random-members"], "error: --reading = 'random-members' is not allowed; allowed: none with --all"),
        (["--all", "--all-loads"], "error: --all-loads = true is not allowed; allowed: off with --all"),
        (["--all"], "error: --out = '(none)' is not allowed; allowed: a directory for the report with --all"),
        ([], "error: ID = '(none)' is not allowed; allowed: an experiment id"),
        (["oral-fig4", "--study", "004"], "error: --study = '004' is not allowed; allowed: only with --all"),
    ],
)
def test_bad_selections_fail_cleanly(args: list[str], message: str, tmp_path: Path) -> None:
    out = tmp_path / "r"
    result = invoke("reproduce", *args, *(["--out", out] if "--all" in args and args != ["--all"] else []))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.strip().startswith(message), result.stderr
    assert not out.exists()


def test_a_directory_holding_other_files_is_refused_before_anything_runs(cheap: None, tmp_path: Path) -> None:
    out = tmp_path / "r"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result = invoke("reproduce", "--all", "--study", "004", "--out", out)
    assert result.exit_code == 2
    assert "it holds notes.txt" in result.stderr and "--force" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_every_experiment_belongs_to_a_source_with_its_data_file() -> None:
    from flitcast.studies import DATA, OWN_IDS, SOURCE_IDS

    assert set(studies()) == set(SOURCE_IDS) == {p.stem for p in DATA.glob("*.toml")}
    assert [i for i, s in studies().items() if s.ours] == list(OWN_IDS)
    assert not set(STUDY_IDS) & set(OWN_IDS)
    for e in EXPERIMENTS.values():
        s = study(e.study)
        assert s.citation and s.system and e.source == s.id
    assert {e.source for e in EXPERIMENTS.values()} == set(SOURCE_IDS)  # every source has an experiment
    for s in studies().values():
        for v in s.values.values():
            assert v.where, v.name
            if v.experiment:
                assert v.experiment in EXPERIMENTS, (s.id, v.name)


def test_our_experiments_follow_the_studies_under_their_own_heading(tmp_path: Path) -> None:
    from flitcast.report import ExperimentRun, write_report

    def run(experiment_id: str) -> ExperimentRun:
        claims = pd.DataFrame([{"claim": f"a claim of {experiment_id}", "study": "s", "ours": "o", "holds": True, "status": "holds", "margin": 0.1, "note": ""}])
        return ExperimentRun(EXPERIMENTS[experiment_id], experiment_id, claims, 1, 1.0, 1.0, (), {})

    write_report(tmp_path, [run("dragonfly-routing"), run("oral-fig4")], quick=False)  # (ours given first)
    page = (tmp_path / "index.html").read_text()
    summary = (tmp_path / "summary.md").read_text()
    kim = study("kim2008")
    assert page.index('id="study-004"') < page.index('id="study-kim2008"')
    assert f"Our experiment, after kim2008 Kim et al.: {kim.title}" in page and "Study 004: " in page
    assert "kim2008 Kim et al. (ours)</a>" in page and "| kim2008 Kim et al. (ours) |" in summary
    assert summary.index("## Study 004") < summary.index("## Our experiment, after kim2008")
    assert "An experiment of our own" in page and "Readings of kim2008 Kim et al." in page


def test_the_study_option_selects_our_experiments_by_their_sources_id() -> None:
    assert [e.id for e in reproduce_all.selected(["kim2008"])] == ["dragonfly-routing"]
    assert all(e.source == "004" for e in reproduce_all.selected(["004"]))


def test_differing_parameters_lists_the_keys_points_set_away_from_defaults() -> None:
    points = EXPERIMENTS["oral-fig4"].run_points(False)
    params = differing_parameters([p.scenario for p in points])
    assert params["network.topology"] == ["torus"]
    assert params["workload.group_size"] == list(range(4, 16))  # (16 is the default)
    assert "workload.load" not in params  # a default is not listed


def test_the_studys_numbers_are_drawn_on_their_panels() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import BAND_LABEL, STUDY_GID, draw_study_values, panel_values

    # Fig. 7(b)'s five stated peaks: a black line across each named bar, at the stated value
    fig, ax = plt.subplots()
    bars = ["O4", "LRU", "MRU", "RND", "RR", "LRUC", "LRUD"]
    ax.bar(bars, [0.5] * len(bars))
    assert draw_study_values(ax, "banikazemi-fig7", "fig7b", bars=bars) == 5
    lines = [line for line in ax.get_lines() if line.get_gid() == STUDY_GID]
    drawn = {bars[round(float(sum(line.get_xdata())) / 2)]: float(line.get_ydata()[0]) for line in lines}
    assert drawn == {v.series: v.number for v in panel_values("banikazemi-fig7", "fig7b")}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [BAND_LABEL]
    plt.close(fig)
    # a range is a band across the axes; a panel the study states nothing for gets nothing drawn
    fig, ax = plt.subplots()
    ax.set_ylim(0, 1)
    assert draw_study_values(ax, "sivaram-fig15", "fig15b") == 1
    (band,) = [p for p in ax.patches if p.get_gid() == STUDY_GID]
    assert band.get_y() == pytest.approx(0.9 - 0.02) and band.get_height() == pytest.approx(0.1 + 0.04)
    assert draw_study_values(ax, "sivaram-fig15", "fig15a") == 0
    plt.close(fig)


def test_every_stated_value_of_an_experiment_is_on_panels_its_experiment_draws_or_says_why_not(tmp_path: Path) -> None:
    # a value whose panel no plot writes would silently never be drawn: plot each such experiment (on the
    # plot tests' synthetic results) and find the panel's PNG; a value of an experiment on no panel says why
    import importlib.util

    spec = importlib.util.spec_from_file_location("plot_tests", Path(__file__).with_name("test_plot_saturation.py"))
    assert spec is not None and spec.loader is not None
    plot_tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot_tests)
    values = [v for s in studies().values() for v in s.values.values()]
    for v in values:
        if v.experiment:
            assert bool(v.panels) != bool(v.undrawn), f"{v.name}: a value of {v.experiment} names its panels or says why it has none"
        assert not (v.axis and not v.panels), f"{v.name}: the study's axis is said on a panel"
    on_panels = [v for v in values if v.panels]
    assert on_panels
    for experiment in sorted({v.experiment for v in on_panels}):
        out = tmp_path / experiment
        out.mkdir()
        results = plot_tests.synthetic(experiment)
        if experiment == "collectives":  # (the dragonfly's other routings: their panels too)
            assert {f"dragonfly {r}" for r in ("Valiant", "UGAL-L")} <= set(results["network"])
        EXPERIMENTS[experiment].plot(results, out)
        stems = sorted(p.stem for p in out.iterdir())
        for v in on_panels:
            if v.experiment == experiment:
                assert set(v.panels) <= set(stems), (v.name, v.panels, stems)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_during_all_keeps_the_finished_points_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "report"
    command = [sys.executable, "-m", "flitcast", "reproduce", "--all", "--study", "004", "--threads", "1", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    store = out / "oral-fig2" / "points.sqlite"
    deadline = time.monotonic() + 60
    while not (store.exists() and (PointStore.count_in(store.parent) or 0) > 0):  # some points are done
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and stderr.strip().startswith("interrupted: ") and "resume" in stderr
    assert not (out / "index.html").exists()
    kept = PointStore.count_in(store.parent) or 0
    assert 0 < kept < 130
    again = subprocess.run(command, check=False, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert again.returncode == 0, again.stderr
    assert (out / "index.html").is_file() and (out / "summary.md").is_file()
    assert len(pd.read_csv(out / "oral-fig2" / "results.csv")) == 130


def test_a_reason_two_claims_share_is_said_once_for_the_figure() -> None:
    from flitcast.report import shared_notes

    notes = [
        "not judged: its margin's interval [-0.01, +0.03] reaches both sides of 0; 1 KB messages: the study states none",
        "the brackets of the core's flag; 1 KB messages: the study states none",
        float("nan"),
        "its own reason",
    ]
    shared, rest = shared_notes(notes)
    assert shared == [([1, 2], "1 KB messages: the study states none")]
    assert rest == ["not judged: its margin's interval [-0.01, +0.03] reaches both sides of 0", "the brackets of the core's flag", "", "its own reason"]
    # a reason every claim gives is the figure's, and nothing is left of it on the rows
    every, left = shared_notes(["a; b", "b; a"])
    assert [reason for _, reason in every] == ["a", "b"] and left == ["", ""]
    # a reason with a separator inside brackets or quotes is one reason
    bracketed = "route tables (ours balanced; the reading d-mod-k's): the study states none"
    quoted = "§5: “slightly worse; but not much”"
    assert shared_notes([f"{bracketed}; x", f"y; {bracketed}; {quoted}", quoted]) == (
        [([1, 2], bracketed), ([2, 3], quoted)], ["x", "y", ""]
    )
    # a row's own verdict stays on the row, even where two read alike
    own = "not judged in quick mode: its margin's interval [-0.32, +0.68] reaches both sides of 0"
    assert shared_notes([own, own]) == ([], [own, own])


def test_ours_shows_the_margin_beside_the_value() -> None:
    from flitcast.report import margin_text

    assert margin_text(0.0412, 0.0101) == "margin +0.041 ± 0.01"
    assert margin_text(-0.25, 0.0) == "margin -0.25"
    assert margin_text(float("nan"), 0.1) == margin_text(None, None) == ""


def test_a_studys_statements_that_do_not_hold_are_grouped_by_why_each_once() -> None:
    from flitcast.experiments.claim import DATA, MODEL
    from flitcast.report import WHY_NOT, ExperimentRun, glance

    def run(experiment_id: str, rows: list[tuple[str, str, str, str]]) -> ExperimentRun:
        claims = pd.DataFrame(rows, columns=["claim", "status", "cause", "note"])
        return ExperimentRun(EXPERIMENTS[experiment_id], experiment_id, claims, 1, 1.0, 1.0, (), {})

    first = run("oral-fig4", [
        ("a", "holds", "", ""),
        ("b", "deviates", MODEL, "the text's buffer is not ours"),
        ("c", "deviates", "", "measured: the routers limit it"),
        ("d", "not judged", "", "not judged in quick mode: its margin ..."),
        ("e", "study inconsistent", "", "study inconsistent: x against y"),
    ])
    second = run("oral-fig5", [
        ("d", "deviates", DATA, "the study gives no size"),  # the same statement deviates in another figure
        ("f", "not judged", "", "not judged: 2 of 9 points failed (see the error column of results.csv)"),
        ("g", "not judged", "", "not judged: its margin's interval [-0.01, +0.03] reaches both sides of 0"),
    ])
    groups = {text: [(name, r.experiment.id) for name, r in claims] for text, claims in glance([first, second])}
    why = dict(WHY_NOT)
    assert groups == {
        why["inconsistent"]: [("e", "oral-fig4")],
        why[MODEL]: [("b", "oral-fig4")],
        why[DATA]: [("d", "oral-fig5")],
        why["measured"]: [("c", "oral-fig4")],
        why["failed"]: [("f", "oral-fig5")],
        why["close"]: [("g", "oral-fig5")],
    }
    assert list(groups) == [text for _, text in WHY_NOT if text in groups]  # in the report's order
    # an experiment of our own is judged against the paper it is after
    ours = run("dragonfly-routing", [("h", "deviates", "", "measured")])
    ((text, _),) = glance([ours])
    assert text == "Deviates although our model follows the paper's text: each note gives the measured cause."


def test_a_studys_line_at_a_glance_counts_its_statements_by_status() -> None:
    from flitcast.report import ExperimentRun, held_line

    claims = pd.DataFrame({"claim": ["a", "b", "c", "c"], "status": ["holds", "deviates", "not judged", "deviates"]})
    run = ExperimentRun(EXPERIMENTS["oral-fig4"], "oral-fig4", claims, 1, 1.0, 1.0, (), {})
    # (c, read in two figures, is one statement: it deviates in one)
    assert held_line([run]) == "Of its 3 statements, 1 holds, 2 deviate."
