"""The flitcast command line: outputs, option parsing, and clean failures (exit 2, one line, no files)."""

from __future__ import annotations

import math
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from flitcast.cli import app
from flitcast.cli.options import parse_list, parse_range, parse_set, parse_value, parse_vary
from flitcast.errors import ConfigError

runner = CliRunner()


def invoke(*args: Any):
    return runner.invoke(app, [str(a) for a in args])


def assert_clean_failure(result, out: Path | None = None) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    if out is not None:
        assert not out.exists()
        assert not [p for p in out.parent.iterdir() if ".tmp-" in p.name]
    return lines[0]


# --- value parsing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "value"),
    [("0.3", 0.3), ("7", 7), ("true", True), ("torus", "torus"), ('"torus"', "torus"), ("[1, 2]", [1, 2]),
     ("vct", "vct"), ("1e-2", 0.01), ("inf", math.inf), ("", ""), ("a b", "a b"), ("1\nx = 2", "1\nx = 2")],
)
def test_parse_value(raw: str, value: Any) -> None:
    parsed = parse_value(raw)
    assert parsed == value and type(parsed) is type(value)
    assert math.isnan(parse_value("nan"))  # TOML's nan; rejected later by validation, with the key


def test_parse_set() -> None:
    assert parse_set(["workload.load=0.3", "network.topology=torus", "switch.flow_control=vct", "run.seed=7"]) == {
        "workload.load": 0.3, "network.topology": "torus", "switch.flow_control": "vct", "run.seed": 7,
    }
    with pytest.raises(ConfigError) as info:
        parse_set(["workload.load"])
    assert info.value.key == "--set" and "KEY=VALUE" in info.value.allowed


def test_parse_range_includes_stop() -> None:
    loads = parse_range("x", "0.05:0.5:0.05")
    assert loads == [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
    assert parse_range("x", "2:8:2") == [2, 4, 6, 8] and all(isinstance(v, int) for v in parse_range("x", "2:8:2"))
    assert parse_range("x", "0.1:0.3:0.1") == [0.1, 0.2, 0.3]
    assert parse_range("x", "8:2:-3") == [8, 5, 2]
    assert parse_range("x", "1:1:1") == [1]


@pytest.mark.parametrize("raw", ["1:2", "1:2:0", "2:1:1", "a:b:c", "1:2:3:4", "true:2:1", "0:1e9:1e-3"])
def test_parse_range_rejects(raw: str) -> None:
    with pytest.raises(ConfigError):
        parse_range(f"k={raw}", raw)


def test_parse_list_and_vary() -> None:
    assert parse_list("0.1,0.2") == [0.1, 0.2]
    assert parse_list("mesh,torus") == ["mesh", "torus"]
    assert parse_list("[0],[1, 2]") == [[0], [1, 2]]
    assert parse_vary(["workload.load=0.1:0.2:0.1", "network.topology=mesh,torus", "run.seed=3"]) == {
        "workload.load": [0.1, 0.2], "network.topology": ["mesh", "torus"], "run.seed": [3],
    }
    with pytest.raises(ConfigError):
        parse_vary(["run.seed=1,2", "run.seed=3"])
    with pytest.raises(ConfigError):
        parse_vary(["=1,2"])


# --- run and sweep ----------------------------------------------------------------------------------


def test_run_prints_metrics_and_writes_files(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    out = tmp_path / "nested" / "one"
    result = invoke("run", write_toml(tiny), "--set", "workload.load=0.2", "--set", "run.seed=7", "--out", out)
    assert result.exit_code == 0, result.output
    assert "latency_mean" in result.stdout and "accepted_load" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == ["links.csv", "results.csv", "results.parquet", "scenario.toml"]
    frame = pd.read_csv(out / "results.csv")
    assert len(frame) == 1 and frame["workload.load"][0] == 0.2 and frame["seed"][0] == 7
    # every channel, named, with its class: the busiest is the one channel_util_max stands for
    links = pd.read_csv(out / "links.csv")
    assert list(links.columns) == ["channel", "class", "flits", "utilisation"]
    assert set(links["class"]) == {"router", "terminal"} and links["flits"].dtype == "int64"
    busiest = links.loc[links["utilisation"].idxmax()]
    assert busiest["utilisation"] == pytest.approx(frame["channel_util_max"][0])
    assert busiest["flits"] == pytest.approx(busiest["utilisation"] * frame["measured_cycles"][0])
    saved = tomllib.loads((out / "scenario.toml").read_text())
    assert saved["workload"]["load"] == 0.2 and saved["run"]["seed"] == 7 and "sweep" not in saved


def test_sweep_writes_table_plot_and_rerunnable_scenario(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    result = invoke(
        "sweep", write_toml(tiny), "--vary", "workload.load=0.1:0.3:0.1", "--vary", "network.topology=mesh,torus",
        "--set", "run.seed=3", "--threads", "2", "--out", out,
    )
    assert result.exit_code == 0, result.output
    assert "sweep of 6 points" in result.stdout and "saturated" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == [
        "latency_vs_load.png", "points.sqlite", "results.csv", "results.parquet", "scenario.toml",
    ]
    assert (out / "latency_vs_load.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    frame = pd.read_csv(out / "results.csv")
    assert list(frame["workload.load"]) == [0.1, 0.1, 0.2, 0.2, 0.3, 0.3]
    assert list(frame["network.topology"]) == ["mesh", "torus"] * 3
    assert set(frame["run.seed"]) == {3}
    saved = tomllib.loads((out / "scenario.toml").read_text())
    assert saved["sweep"] == {"workload.load": [0.1, 0.2, 0.3], "network.topology": ["mesh", "torus"]}
    # the run directory's scenario.toml re-runs the same sweep without --vary
    again = tmp_path / "again"
    assert invoke("sweep", out / "scenario.toml", "--out", again).exit_code == 0
    first, second = pd.read_parquet(out / "results.parquet"), pd.read_parquet(again / "results.parquet")
    pd.testing.assert_frame_equal(first.drop(columns="wall_seconds"), second.drop(columns="wall_seconds"))


def test_sweep_into_a_foreign_dir_needs_force_and_replaces_only_its_files(
    tiny: dict[str, Any], write_toml, tmp_path: Path
) -> None:
    out = tmp_path / "existing"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    (out / "results.csv").write_text("stale")
    args = ["sweep", write_toml(tiny), "--vary", "workload.load=0.1,0.2", "--out", out]
    line = assert_clean_failure(invoke(*args))
    assert "--force" in line and str(out) in line and "not empty" in line
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "results.csv"]  # nothing written
    assert invoke(*args, "--force").exit_code == 0
    assert (out / "notes.txt").read_text() == "keep me"
    assert len(pd.read_csv(out / "results.csv")) == 2
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


# --- failures: exit 2, one line on stderr, nothing written ---------------------------------------------


def _failures(tiny: dict[str, Any], write_toml, tmp_path: Path) -> list[tuple[list[Any], str]]:
    good = write_toml(tiny)
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[network\nk = 4\n")
    deadlock = write_toml(
        {
            "network": {"topology": "ring", "k": 8},
            "switch": {"vcs": 1, "buffer_flits": 2},
            "routing": {"check_deadlock_free": False},
            "workload": {"load": 0.9},
            "run": {"warmup_cycles": 0, "measure_cycles": 20000, "watchdog_cycles": 200},
        },
        "deadlock.toml",
    )
    return [
        (["run", tmp_path / "missing.toml"], "cannot read the scenario file"),
        (["run", bad_toml], "is not valid TOML"),
        (["run", good, "--set", "workload.load"], "--set"),
        (["run", good, "--set", "workload.load=2"], "workload.load = 2 is not allowed"),
        (["run", good, "--set", "workload.load=high"], "workload.load = 'high' is not allowed"),
        (["run", good, "--set", "workload.lod=0.2"], "workload.lod"),
        (["run", good, "--set", "traffic.load=0.2"], "one of the tables network, switch, routing, workload, run"),
        (["run", good, "--set", "network.topology=torus", "--set", "switch.vcs=1"], "switch.vcs = 1"),
        # a key of another kind names the kind it belongs to
        (["run", good, "--set", "workload.hotspot_fraction=0.3"], "it belongs to workload.pattern = 'hotspot'"),
        # a key that moved names its new place
        (["run", good, "--set", "workload.multicast_destinations=4"], "workload.destinations"),
        (["run", deadlock], "deadlock"),
        (["sweep", good], "--vary"),
        (["sweep", good, "--vary", "workload.load=0.1:0.5"], "START:STOP:STEP"),
        (["sweep", good, "--vary", "workload.load=0.1:0.5:0"], "STEP"),
        (["sweep", good, "--vary", "workload.load=0.1,2"], "sweep point 1 (workload.load=2)"),
        (["sweep", good, "--vary", "workload.load=0.1,0.2", "--set", "run.seed=-1"], "run.seed"),
        (["list", "gizmos"], "one of topologies"),
        # one setting given two ways is refused, not decided silently (issue 35 §3)
        (["run", good, "--threads", "2", "--set", "run.threads=1"], "--threads or --set run.threads, not both"),
    ]


def test_failures_exit_2_cleanly(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    for i, (args, fragment) in enumerate(_failures(tiny, write_toml, tmp_path)):
        out = tmp_path / f"out{i}"
        if args[0] in ("run", "sweep"):
            args = [*args, "--out", out]
        line = assert_clean_failure(invoke(*args), out)
        assert fragment in line, (args, line)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["run", "{good}", "--bogus"], "No such option: --bogus"),
        (["frobnicate"], "No such command 'frobnicate'"),
        (["run"], "Missing argument 'SCENARIO.toml'"),
        (["sweep", "{good}", "--threads", "abc"], "'--threads': 'abc' is not a valid int"),
        (["sweep", "{good}", "--threads", "-1"], "--threads = -1 is not allowed"),
        (["reproduce", "banikazemi-fig7", "--threads", "1.5"], "'--threads': '1.5' is not a valid int"),
        (["list", "patterns", "extra"], "unexpected extra argument"),
        (["run", "{good}", "--set"], "'--set' requires an argument"),
        (["bench", "--quick=yes"], "--quick"),
    ],
)
def test_usage_errors_are_one_line_exit_2(args: list[str], fragment: str, tiny: dict[str, Any], write_toml) -> None:
    good = str(write_toml(tiny))
    line = assert_clean_failure(invoke(*(a.format(good=good) for a in args)))
    assert fragment in line and "Usage:" not in line, line


def test_help_still_works() -> None:
    for args in (["--help"], ["run", "--help"], ["sweep", "--help"], ["list", "--help"]):
        result = invoke(*args)
        assert result.exit_code == 0 and "Usage:" in result.stdout and result.stderr == "", args
    bare = invoke()
    assert bare.exit_code == 2 and "Commands" in bare.output  # no command: the help text, as before


def test_ineffective_setting_is_one_warning_line(tiny: dict[str, Any], write_toml) -> None:
    # a key of the scenario's kinds that has no effect here (a tie rule on a mesh) warns; it does not fail
    result = invoke("run", write_toml(tiny), "--set", "routing.torus_ties=positive")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == (
        "warning: routing.torus_ties = 'positive' has no effect here; it matters only on a bidirectional torus "
        "or ring with k even (a distance of exactly k/2 is a tie)"
    )
    assert "latency_mean" in result.stdout


def test_ineffective_source_routing_key_on_a_mesh_is_an_error(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    out = tmp_path / "out"
    line = assert_clean_failure(invoke("run", write_toml(tiny), "--set", "routing.selection=lru", "--out", out), out)
    assert (
        "routing.selection = 'lru' is not allowed (it belongs to routing.algorithm = 'adaptive', 'up_down' or 'min_adaptive'; "
        "this scenario's "
        "is 'dor')" in line
    )


def test_deep_set_value_is_a_clean_failure(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    deep = "[" * 600 + "]" * 600
    out = tmp_path / "out"
    line = assert_clean_failure(invoke("run", write_toml(tiny), "--set", f"workload.hotspot_nodes={deep}", "--out", out), out)
    assert line.startswith("error: --set = ")
    line = assert_clean_failure(invoke("sweep", write_toml(tiny), "--vary", f"workload.hotspot_nodes={deep},[0]"))
    assert line.startswith("error: --vary = ")


def test_run_shows_no_progress_bar_off_a_terminal(tiny: dict[str, Any], write_toml) -> None:
    result = invoke("run", write_toml(tiny))
    assert result.exit_code == 0 and result.stderr == ""


def test_list() -> None:
    result = invoke("list", "patterns")
    assert result.exit_code == 0 and "bit_reversal" in result.stdout and "hotspot" in result.stdout
    result = invoke("list", "parameters")
    assert result.exit_code == 0 and "workload.load" in result.stdout
    result = invoke("list")
    assert result.exit_code == 0
    for word in ("torus", "input_buffered", "dor", "poisson", "vct", "network.k"):
        assert word in result.stdout
    # not a terminal: plain tab-separated lines under "# title", for grep and cut
    lines = invoke("list", "parameters").stdout.splitlines()
    assert lines[:2] == ["# parameters", "key\tkind\ttype\tdefault\tallowed\tdescription"]
    # a key of several kinds is listed once per kind, with the kind it belongs to
    assert any(line.startswith("workload.destinations\tprogram = software_multicast\t") for line in lines)
    assert any(line.startswith("workload.destinations\tprogram = hardware_multicast\t") for line in lines)
    assert any(line.startswith("switch.buffer_flits\tmodel = input_fifo\tint\t320\t") for line in lines)


def test_list_every_family() -> None:
    from flitcast.catalogue import families

    every = families()
    assert {"topologies", "switches", "routings", "selections", "programs", "patterns", "arrivals"} <= set(every)
    for family, rows in every.items():
        result = invoke("list", family)
        assert result.exit_code == 0, (family, result.output)
        lines = result.stdout.splitlines()
        assert lines[:2] == [f"# {family}", "name\tdescription"], family
        assert [line.split("\t")[0] for line in lines[2:]] == [name for name, _ in rows], family
    # a key several kinds declare with their own choices lists them all
    schemes = [line.split("\t")[0] for line in invoke("list", "schemes").stdout.splitlines()[2:]]
    for scheme in ("hardware", "separate", "ring", "bus", "tree_wrap_around", "tree_up_down", "u_torus", "mu_torus"):
        assert scheme in schemes


# --- no silent substitutions: a value that would be dropped or repeated is an error ------------------------


def test_set_and_vary_on_one_key_is_an_error(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    # the varied values would replace the set one: the --set was dropped without a word
    out = tmp_path / "out"
    args = ["sweep", write_toml(tiny), "--vary", "workload.load=0.1,0.2", "--set", "workload.load=0.3", "--out", out]
    line = assert_clean_failure(invoke(*args), out)
    assert line == (
        "error: --set = 'workload.load=0.3' is not allowed (workload.load is varied by --vary, whose values would "
        "replace this one); allowed: a key that --vary does not vary"
    )
    # the same for a key the file's [sweep] table varies
    swept = write_toml({**tiny, "sweep": {"run.seed": [1, 2]}}, "swept.toml")
    line = assert_clean_failure(invoke("sweep", swept, "--set", "run.seed=5", "--out", out), out)
    assert "run.seed is varied by the [sweep] table of" in line and "--set = 'run.seed=5'" in line


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["sweep", "{good}", "--vary", "workload.load=0.1,0.2,0.1"], "--vary = 'workload.load=0.1,0.2,0.1' is not allowed (0.1 is given twice)"),
        (["sweep", "{good}", "--vary", "network.topology=mesh,torus,mesh,mesh"], "('mesh' is given 3 times)"),
        (["sweep", "{good}", "--vary", "workload.hotspot_nodes=[0],[0]"], "([0] is given twice)"),
        (["model", "--group", "4,4,4"], "--group = '4,4,4' is not allowed (4 is given 3 times); allowed: each value once"),
        (["model", "--bytes", "128,64,128"], "--bytes = '128,64,128' is not allowed (128 is given twice)"),
        (["model", "--algorithm", "separate,u_torus,separate"], "--algorithm = 'separate,u_torus,separate' is not allowed"),
    ],
)
def test_a_repeated_value_is_an_error(args: list[str], fragment: str, tiny: dict[str, Any], write_toml) -> None:
    good = str(write_toml(tiny))
    line = assert_clean_failure(invoke(*(a.format(good=good) for a in args)))
    assert fragment in line, line


def test_a_repeated_value_in_a_sweep_table_is_an_error(tiny: dict[str, Any], write_toml) -> None:
    swept = write_toml({**tiny, "sweep": {"run.seed": [1, 2, 1]}}, "swept.toml")
    line = assert_clean_failure(invoke("sweep", swept))
    assert line == "error: sweep.run.seed = [1, 2, 1] is not allowed (1 is given twice); allowed: each value once"


def test_model_names_its_own_options() -> None:
    # parsed like --vary, but its errors name the option given
    line = assert_clean_failure(invoke("model", "--group", "4:2:1"))
    assert line.startswith("error: --group = '4:2:1' is not allowed") and "--vary" not in line and "KEY=" not in line
    line = assert_clean_failure(invoke("model", "--bytes", "1:100000000:1"))
    assert line == "error: --bytes = '1:100000000:1' is not allowed; allowed: a range of at most 100000 values"
    line = assert_clean_failure(invoke("model", "--r", "a:b:c"))
    assert line.startswith("error: --r = 'a:b:c' is not allowed; allowed: START:STOP:STEP with numbers")
    # the ranges are flitcast.analytic's, said once there, under the option's name and the value at fault
    line = assert_clean_failure(invoke("model", "--k", "4", "--group", "4,17"))
    assert line == "error: --group = 17 is not allowed; allowed: an integer from 2 to 16 (k², the nodes of the k × k torus)"
    line = assert_clean_failure(invoke("model", "--t-process-unit", "ms"))
    assert line == "error: --t-process-unit = 'ms' is not allowed; allowed: one of us, ns"
    # no algorithm is not all of them
    line = assert_clean_failure(invoke("model", "--algorithm", ""))
    assert line == (
        "error: --algorithm = '' is not allowed; allowed: one or more of separate, u_torus, s_torus, md_torus, "
        "mu_torus, comma-separated"
    )


def test_model_out_on_a_full_directory_says_what_force_does(tmp_path: Path) -> None:
    out = tmp_path / "full"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    line = assert_clean_failure(invoke("model", "--group", "4", "--out", out))
    # model keeps no store: nothing of resuming it
    assert "store" not in line and "resume" not in line
    assert line == (
        f"error: --out = '{out}' is not allowed (it is not empty); allowed: a new or empty directory, or any "
        "directory with --force (model.csv and model.png in it are replaced; other files are left as they are)"
    )
    result = invoke("model", "--group", "4", "--out", out, "--force")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["model.csv", "model.png", "notes.txt"]


# --- as a real process ---------------------------------------------------------------------------------


def _flitcast(*args: Any, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flitcast", *map(str, args)], check=False, capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_module_entry_point_help_and_version() -> None:
    assert _flitcast("--help").returncode == 0
    from flitcast import __version__

    version = _flitcast("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"flitcast {__version__}"


def test_process_failure_is_one_line_exit_2(tmp_path: Path) -> None:
    proc = _flitcast("run", tmp_path / "nope.toml", "--out", tmp_path / "out")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: cannot read the scenario file") and proc.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_process_run_and_usage_error(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    proc = _flitcast("run", write_toml(tiny), "--set", "run.seed=5")
    assert proc.returncode == 0 and "latency_mean" in proc.stdout
    proc = _flitcast("run")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_process_end_freezes_the_garbage_collector_only_as_the_process_entry() -> None:
    # main() run as the process (no argv: the flitcast script, python -m flitcast) spares the interpreter's
    # teardown its collections (gc.freeze); called with argv, as from Python, it leaves the collector alone
    import gc

    from flitcast.cli import main

    frozen = gc.get_freeze_count()
    with pytest.raises(SystemExit):
        main(["--version"])
    assert gc.get_freeze_count() == frozen
    probe = (
        "import gc, sys\nfrom flitcast.cli import main\nsys.argv = ['flitcast', '--version']\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    print(exc.code, gc.get_freeze_count() > 0)"
    )
    proc = subprocess.run([sys.executable, "-c", probe], check=False, capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines()[-1] == "0 True", proc.stderr


def test_bench_quick() -> None:
    proc = _flitcast("bench", "--quick")
    assert proc.returncode == 0, proc.stderr
    assert "cycles/s" in proc.stdout and "flit-hops/s" in proc.stdout and "heavy/light" in proc.stdout
    # the saturated points per SP switch model, and the cost of their flit-hops against load 0.3
    assert "sp128 CB uniform 128B" in proc.stdout and "sp128 IF bit-rev 4KB" in proc.stdout
    assert "yes" in proc.stdout and "saturated / at load 0.3: sp128 CB uniform 128B" in proc.stdout
    # long worms on the mesh (64- and 512-flit packets), their saturated flit-hop against load 0.3's
    assert "mesh8 512-flit" in proc.stdout and "mesh8 64-flit (0.6)" in proc.stdout
    # study 003's batch, with and without the InfiniBand switch's output buffers
    assert "IB mesh16 mcast 1KB" in proc.stdout and "batch" in proc.stdout
    assert "output buffers / input buffers only:" in proc.stdout


def test_the_process_ends_only_after_its_background_imports() -> None:
    # a daemon thread still importing while the interpreter tears down can crash it (seen as a segmentation
    # fault after a config error that ended `flitcast run` at once): the end of the process waits for it
    import importlib
    import threading
    import time

    cli_app = importlib.import_module("flitcast.cli.app")  # (the module: flitcast.cli.app is also the Typer app)
    importer = threading.Thread(target=time.sleep, args=(0.2,), name=cli_app.IMPORTER, daemon=True)
    importer.start()
    cli_app._end_of_process()
    assert not importer.is_alive()


def test_the_command_line_names_its_files_and_imports_no_private_module() -> None:
    # the application's docstring is the map of the command line: every file it names is there, and no
    # module of it imports a private module of another package (typer's bundled click, say)
    from importlib import import_module

    package = Path(import_module("flitcast.cli").__file__).parent
    doc = import_module("flitcast.cli.app").__doc__
    named = re.findall(r"``(\w+\.py)``", doc)
    assert len(named) >= 7 and all((package / name).is_file() for name in named), named
    for path in package.glob("*.py"):
        imports = re.findall(r"^\s*(?:from|import)\s+([\w.]+)", path.read_text(encoding="utf-8"), re.M)
        private = [m for m in imports if m.split(".")[0] not in ("flitcast", "__future__") and "._" in f".{m}"]
        assert not private, f"{path.name} imports {private}"


def test_a_sweep_judges_its_points_not_its_base(write_toml, tmp_path: Path) -> None:
    # a closed collective's file (no warm-up) swept over workload.load with a warm-up: every point is an
    # open workload, which may have one; the base alone is not, and is not refused for it (issue 35 §3)
    closed = write_toml(
        {
            "network": {"topology": "mesh", "k": 4, "n": 2},
            "workload": {"program": "collective", "operation": "allreduce", "message_flits": 16},
            "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
        }
    )
    sets = ["--set", "run.warmup_cycles=500", "--set", "run.measure_cycles=3000", "--set", "run.batches=10"]
    out = tmp_path / "out"
    result = invoke("sweep", closed, "--vary", "workload.load=0.02,0.1", *sets, "--out", out)
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out / "results.csv")
    assert list(frame["workload.load"]) == [0.02, 0.1] and list(frame["run.warmup_cycles"]) == [500, 500]
    assert tomllib.loads((out / "scenario.toml").read_text())["run"]["warmup_cycles"] == 500
    # a point the varied keys do not make valid is refused as that point
    line = assert_clean_failure(invoke("sweep", closed, "--vary", "workload.load=0,0.1", *sets))
    assert "sweep point 0 (workload.load=0)" in line and "run.warmup_cycles = 500" in line, line


def test_run_prints_the_metrics_its_scenario_reached_and_counts_the_rest(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    # a unicast open-loop run: no multicast, no closed-workload completion, no collective estimate
    result = invoke("run", write_toml(tiny), "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    shown = {line.split("│")[1].strip() for line in result.stdout.splitlines() if line.startswith("│")}
    assert {"accepted_load", "latency_mean", "channel_util_max_router", "flit_hops"} <= shown
    assert not shown & {"multicast_throughput", "latency_multicast_mean", "completion_cycles", "estimate_cycles", "saturation_reason"}
    frame = pd.read_csv(tmp_path / "out" / "results.csv")
    metrics = [c for c in frame.columns if "." not in c and c != "error"]
    assert f"{len(metrics) - len(shown)} more metrics empty for this scenario" in result.stdout
    assert f"every one in {tmp_path / 'out'}/results.csv" in " ".join(result.stdout.split())
    assert frame["multicast_throughput"].isna().all()  # (every one is in the table, empty)
    assert re.search(r"│ flit_hops\s+│\s+\d{1,3}(,\d{3})+ │", result.stdout)  # one number format


def test_model_says_under_its_table_which_readings_its_numbers_follow() -> None:
    result = invoke("model", "--k", "8")
    assert result.exit_code == 0, result.output
    note = result.stdout.split("└", 1)[1]
    assert "docs/models/torus_multicast.md" in note and "read in us" in note and "u_torus 629" in note
    assert "--t-process-unit and --h-i give the other readings" in note
    assert "read in ns" in invoke("model", "--k", "8", "--t-process-unit", "ns").stdout
