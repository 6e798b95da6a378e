"""Documentation is generated or executed: config.md up to date, README snippets run, results.md complete."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import flitcast
from flitcast import docgen
from flitcast.cli import app

REPO = Path(__file__).resolve().parent.parent


def test_config_reference_is_up_to_date() -> None:
    current = (REPO / "docs" / "config.md").read_text(encoding="utf-8")
    assert current == docgen.render(), "docs/config.md is stale: run `make docs`"


def test_config_models_are_up_to_date() -> None:
    # the typed models of the scenario's tables are generated from the core's key catalogue too
    assert docgen.MODELS_PATH.read_text(encoding="utf-8") == docgen.render_models(), (
        "python/flitcast/config/sections.py is stale: run `make docs`"
    )


def test_docgen_check_passes_and_catches_a_stale_file(tmp_path: Path) -> None:
    check = [sys.executable, "-m", "flitcast.docgen", "--check"]
    proc = subprocess.run(check, cwd=REPO, check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    stale = tmp_path / "config.md"
    stale.write_text(docgen.render().replace("## Rules across keys", "## Rules"), encoding="utf-8")
    proc = subprocess.run([*check, str(stale)], cwd=REPO, check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and f"{stale} is out of date" in proc.stderr
    assert "sections.py" not in proc.stderr  # the models are current: only the stale file is named


def test_readme_python_snippets_run(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    snippets = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert snippets
    for snippet in snippets:
        exec(compile(snippet, "README.md", "exec"), {"__name__": "__readme__"})


def test_readme_quick_start_is_make_demo_then_make_test() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("##", 1)[0]
    assert re.findall(r"```sh\n(.*?)```", quick, re.S) == ["make demo\nmake test\n"]


def test_results_doc_covers_every_column(tiny: dict[str, Any]) -> None:
    # the metric columns are documented in results.md; the scenario columns (dotted keys, Scenario.flat())
    # are the keys config.md documents, which results.md refers to
    doc = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z_0-9.]+)`", doc))
    from flitcast import catalogue
    from flitcast.results import is_class_column

    moved = {old for old, _ in catalogue.schema()["moved"]}  # (config.md names them only where they went)
    keys = set(re.findall(r"`([a-z_0-9]+\.[a-z_0-9]+)`", (REPO / "docs" / "config.md").read_text(encoding="utf-8"))) - moved
    assert "Scenario.flat()" in doc and "config.md" in doc
    short = {"run.warmup_cycles": 0, "run.measure_cycles": 300, "run.drain_max_cycles": 300}
    scenarios = [flitcast.Scenario(**tiny)]  # and one of every program the examples show
    scenarios += [flitcast.load_scenario(p).with_overrides(short) for p in sorted((REPO / "examples" / "scenarios").glob("*.toml"))]
    assert len({s.workload.program for s in scenarios}) >= 3
    for scenario in scenarios:
        columns = list(flitcast.run(scenario).to_frame().columns)
        # each channel class's columns are documented by their pattern
        classes = "`channel_util_mean_<class>` and `channel_util_max_<class>`" in doc
        missing = [c for c in columns if c not in (keys if "." in c else documented) and not (classes and is_class_column(c))]
        assert not missing, f"columns missing from docs/results.md (metrics) or docs/config.md (keys): {missing}"
    # no key that moved is documented as a column
    assert not sorted(moved & documented), f"keys that moved still in docs/results.md: {sorted(moved & documented)}"


def test_readme_and_config_name_every_table() -> None:
    # the tables of the core's catalogue, and the [sweep] table a file may add: named, not counted
    from flitcast.config.scenario import TABLES

    for path in ("README.md", "docs/config.md"):
        text = (REPO / path).read_text(encoding="utf-8")
        intro = text[text.index("A scenario is a TOML file") :][:500]
        for table in (*TABLES, "sweep"):
            assert f"`[{table}]`" in intro, f"{path} does not name the table [{table}] where it introduces them"
        assert not re.search(r"\bfive (optional )?tables\b", text), f"{path} counts the tables wrong"


def _readme_section(title: str) -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return readme.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _multicast_commands() -> list[list[str]]:
    """The flitcast commands of the README's Multicast section, continuation lines joined."""
    block = "".join(re.findall(r"```sh\n(.*?)```", _readme_section("Multicast"), re.S)).replace("\\\n", " ")
    return [shlex.split(line)[1:] for line in block.splitlines() if line.startswith("flitcast ")]


def test_readme_multicast_section_names_every_study_and_example() -> None:
    section = _readme_section("Multicast")
    programs = ("software_multicast", "hardware_multicast", "batch", "host_adapter", "torus_multicast")
    for path in sorted((REPO / "examples" / "scenarios").glob("*.toml")):
        if flitcast.load_scenario(path).workload.program in programs:
            assert f"examples/scenarios/{path.name}" in section, f"the README's Multicast section omits {path.name}"
    for study in ("000", "001", "002", "003", "004"):
        assert f"tudy {study}" in section, f"the README's Multicast section does not say what study {study} is"
    assert len(_multicast_commands()) >= 4


@pytest.mark.parametrize("command", _multicast_commands(), ids=lambda c: Path(c[1]).stem)
def test_readme_multicast_command_runs(command: list[str], monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(REPO)  # the commands name the examples relative to the repository
    assert command[0] == "sweep" and "--out" in command
    closed = flitcast.load_scenario(command[1]).workload.program in ("batch", "torus_multicast")
    short = [] if closed else ["--set", "run.warmup_cycles=300", "--set", "run.measure_cycles=1500"]
    arguments = [*command[: command.index("--out")], *short, "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.output
    plot = "completion_vs_" if closed else "latency_vs_load.png"
    assert any(p.name.startswith(plot) for p in (tmp_path / "out").iterdir())


def test_the_readme_names_each_study_and_the_score_docs_experiments_gives() -> None:
    from flitcast.studies import study

    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    for sid in ("000", "001", "002", "003", "004"):
        s = study(sid)
        surnames = ", ".join(name.split()[-1] for name in s.authors.split(", "))
        assert f"{sid} — {surnames}: *{s.title}*" in readme, sid
    experiments = " ".join((REPO / "docs" / "experiments.md").read_text(encoding="utf-8").split())
    score = re.search(r"(\d+) of the (\d+) statements \(\d+%\) hold or are study inconsistent", experiments)
    assert score, "docs/experiments.md states the score"
    assert f"{score[1]} of their {score[2]} statements hold" in readme
