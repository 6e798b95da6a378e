"""Import cost: `import flitcast` and the command line load none of the heavy libraries (pandas,
matplotlib, pyarrow, dask); they are imported inside the functions that use them. Checked in a fresh
interpreter, since this test process has imported them all already."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pandas", "matplotlib", "pyarrow", "dask")


def _modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "code",
    [
        "import flitcast",
        "import flitcast.cli",
        "import flitcast.catalogue",
        "import flitcast.experiments",
        "import flitcast, flitcast.api, flitcast.sweeps, flitcast.sweeps.outdir, flitcast.sweeps.store, flitcast.results",
    ],
)
def test_import_pulls_in_no_heavy_library(code: str) -> None:
    loaded = _modules_after(code)
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert not heavy, f"{code!r} imports {heavy[:5]}"


def test_import_flitcast_defers_pydantic_and_the_core() -> None:
    # `flitcast --help` goes through flitcast/__init__.py: its public names are imported on first use
    loaded = _modules_after("import flitcast")
    assert "flitcast.config" not in loaded and "flitcast._core" not in loaded
    assert "pydantic" not in loaded


def test_lazy_names_resolve() -> None:
    loaded = _modules_after("import flitcast\nflitcast.Scenario, flitcast.run, flitcast.Result, flitcast.__version__")
    assert "flitcast.config" in loaded and not [m for m in loaded if m.split(".")[0] in HEAVY]


# a single `flitcast run` needs none of pandas, matplotlib or dask; without --out not pyarrow (nor numpy,
# which pyarrow imports) either. With --out, pyarrow writes results.parquet (sweeps/rows.py), through its
# JSON reader: pyarrow's own conversion of Python values would import pandas.
SINGLE_RUN_NEVER = ("pandas", "matplotlib", "dask")


@pytest.mark.parametrize(
    ("out", "never"),
    [(True, SINGLE_RUN_NEVER), (False, (*SINGLE_RUN_NEVER, "pyarrow", "numpy"))],
    ids=["with --out", "without --out"],
)
def test_single_run_imports_no_heavy_library(tmp_path, out: bool, never: tuple[str, ...]) -> None:
    # the run's background imports are waited for, so that one of them would be caught too
    args = ["run", str(tmp_path / "s.toml"), *(["--out", str(tmp_path / "one")] if out else [])]
    code = f"""
import threading
from flitcast.cli import main
try:
    main({args!r})
except SystemExit as exc:
    assert not exc.code, exc.code
for thread in threading.enumerate():
    if thread is not threading.main_thread():
        thread.join()
"""
    (tmp_path / "s.toml").write_text(
        '[network]\nk = 4\n[run]\nwarmup_cycles = 100\nmeasure_cycles = 500\n', encoding="utf-8"
    )
    loaded = _modules_after(code)
    assert (tmp_path / "one" / "results.parquet").exists() == out
    heavy = sorted(m for m in loaded if m.split(".")[0] in never)
    assert not heavy, f"flitcast {' '.join(args)} imports {heavy[:5]}"
    assert "flitcast._core" in loaded  # the run did simulate
    assert ("pyarrow.parquet" in loaded) == out  # with --out, what wrote results.parquet


@pytest.mark.parametrize(
    "args", [["--help"], ["list"], ["list", "parameters"], ["list", "topologies"], ["list", "programs"], ["list", "experiments"]]
)
def test_help_and_list_import_neither_pydantic_nor_heavy_libraries(args: list[str]) -> None:
    # start-up cost: `flitcast list` reads the core's key catalogue (flitcast.catalogue), not the config
    # models; the lazy imports of flitcast/__init__.py and flitcast/config/__init__.py keep those out
    code = f"from flitcast.cli import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass"
    loaded = _modules_after(code)
    unwanted = sorted(m for m in loaded if m.split(".")[0] in (*HEAVY, "pydantic"))
    assert not unwanted, f"flitcast {' '.join(args)} imports {unwanted[:5]}"
    assert not {"flitcast.config.scenario", "flitcast.config.sections", "flitcast.api"} & loaded
