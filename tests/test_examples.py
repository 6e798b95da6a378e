"""Every file in examples/ runs (scenario files with short run lengths), and every example scenario says
what it demonstrates: the sweep command in its opening comment runs and writes the plot it should."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import flitcast
from flitcast.cli import app

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
SHORT = ["--set", "run.warmup_cycles=300", "--set", "run.measure_cycles=1500", "--set", "run.drain_max_cycles=5000"]
#: programs that run a fixed set of operations to completion (the examples' collective is one at cycle 0)
CLOSED = ("batch", "torus_multicast", "collective")
#: programs of the multicast studies, whose examples name the study section they follow
MULTICAST = ("software_multicast", "hardware_multicast", "batch", "host_adapter", "torus_multicast")
SCENARIOS = sorted(EXAMPLES.glob("scenarios/*.toml"))


def _comment(path: Path) -> str:
    """The opening comment of a scenario file, without its # marks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join(line.lstrip("#").strip() for line in lines[: next(i for i, x in enumerate(lines) if not x.startswith("#"))])


def _commented_sweep(path: Path) -> list[str] | None:
    """The `flitcast sweep` command of the opening comment (continuation lines joined), its arguments."""
    text = _comment(path).replace("\\\n", " ")
    match = re.search(r"^flitcast sweep (.*)$", text, re.M)
    return shlex.split(match.group(1)) if match else None


def _program(path: Path) -> str:
    return flitcast.load_scenario(path).workload.program


def test_every_example_is_covered() -> None:
    files = sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*") if p.is_file())
    assert files == sorted(
        [f"scenarios/{p.name}" for p in EXAMPLES.glob("scenarios/*.toml")]
        + [f"scripts/{p.name}" for p in EXAMPLES.glob("scripts/*.py")]
        + [f"networks/{p.name}" for p in EXAMPLES.glob("networks/*.csv")]
    )


def test_every_network_file_is_used_by_an_example() -> None:
    # (an irregular network's file is read by the scenario that names it, and runs with it)
    named = {flitcast.load_scenario(p).value("network.file") for p in SCENARIOS}
    for net in EXAMPLES.glob("networks/*.csv"):
        assert str(net) in named, f"no example scenario reads {net.name}"


def test_every_study_has_an_example() -> None:
    # one example scenario per multicast study's system (study 002 is unicast routing: the README says so)
    comments = " ".join(_comment(p) for p in SCENARIOS)
    for study in ("000", "001", "003", "004"):
        assert f"study {study} §" in comments, f"no example scenario names a section of study {study}"


@pytest.mark.parametrize("path", [p for p in SCENARIOS if _program(p) in MULTICAST], ids=lambda p: p.name)
def test_multicast_example_names_its_section_and_columns(path: Path) -> None:
    comment = _comment(path)
    assert re.search(r"study 00\d §\d", comment), f"{path.name}: which study section does it implement?"
    assert "Columns to read:" in comment
    assert _commented_sweep(path) is not None, f"{path.name}: its opening comment shows no flitcast sweep"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_runs_and_sweeps(path: Path, tmp_path: Path) -> None:
    closed = _program(path) in CLOSED
    short = [] if closed else SHORT  # a closed workload runs to completion from cycle 0
    result = CliRunner().invoke(app, ["run", str(path), *short])
    assert result.exit_code == 0, result.output
    if closed:  # no load: sweep what its comment sweeps, plotted against that key
        arguments = _commented_sweep(path)
        assert arguments is not None and arguments[0] == path.relative_to(REPO).as_posix()
        vary = arguments[arguments.index("--vary") + 1].split("=")[0]
        arguments = [str(path), *arguments[1 : arguments.index("--out")]]
        plot = f"completion_vs_{vary.split('.', 1)[-1]}.png"
    else:
        arguments = [str(path), "--vary", "workload.load=0.1,0.2", *short]
        plot = "latency_vs_load.png"
    result = CliRunner().invoke(app, ["sweep", *arguments, "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert plot in result.output  # the files written, as the CLI lists them
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        [plot, "points.sqlite", "results.csv", "results.parquet", "scenario.toml"]
    )


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("scripts/*.py")), ids=lambda p: p.name)
def test_script_runs(path: Path, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(path)], check=False, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


def _readme_commands() -> list[list[str]]:
    """Every `flitcast ...` command of the README's shell blocks (continuation lines joined, comments cut)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["flitcast"]:
                commands.append(words[1:])
    return commands


def test_the_readmes_single_runs_give_results_not_saturated_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a newcomer's first result is a result: each `flitcast run` of the README, as written, ends unsaturated
    monkeypatch.chdir(REPO)
    runs = [c for c in _readme_commands() if c[0] == "run"]
    assert runs, "the README shows no flitcast run"
    for i, command in enumerate(runs):
        if "--out" in command:  # (written here, not into the repository)
            command[command.index("--out") + 1] = str(tmp_path / f"out{i}")
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 0, (command, result.output)
        assert re.search(r"│ saturated\s+│\s+no │", result.stdout), (command, result.stdout)


def test_the_readmes_sweeps_and_models_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the README's sweeps and models as written, an open workload's runs shortened (their own scenarios'
    # full runs are the examples' tests above); bench and reproduce have tests of their own
    monkeypatch.chdir(REPO)  # (the README's paths are the repository's)
    commands = [c for c in _readme_commands() if c[0] in ("sweep", "model", "list")]
    assert {c[0] for c in commands} == {"sweep", "model", "list"}
    for i, command in enumerate(commands):
        if "--scheduler" in command:  # (a cluster the README's reader has, not this test)
            continue
        if "--out" in command:
            command[command.index("--out") + 1] = str(tmp_path / f"out{i}")
        if command[0] == "sweep":
            command += [*([] if _program(REPO / command[1]) in CLOSED else SHORT), "--threads", "2"]
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 0, (command, result.output)
