"""The ``flitcast`` command line: run, sweep, reproduce, list, bench.

Every command turns a :class:`flitcast.errors.FlitcastError`, and the command line's own usage errors
(an unknown option, a bad option value, a missing argument), into one ``error: ...`` line on stderr and
exit code 2; nothing is written when validation or simulation fails. Ctrl-C prints one line and exits
with code 130. A :class:`flitcast.errors.ConfigWarning` is one ``warning: ...`` line on stderr.

Only typer is imported up front: pydantic, rich, pandas and the core are imported by the commands that
use them, so ``flitcast --help`` starts quickly (tests/test_import_cost.py).

Exit codes: 0 success; 1 a sweep or reproduction ran but some points failed (their rows in results.csv
have an ``error``) or got no result; 2 bad input or a failed single run (one ``error: ...`` line on
stderr, nothing written); 130 interrupted (Ctrl-C; with ``--out`` the finished points are kept and the
same command resumes).
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import sys
import time
import tomllib
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer._click.exceptions import ClickException, NoArgsIsHelpError
from typer.core import TyperGroup

from flitcast.errors import ConfigError, ConfigWarning, FlitcastError, SweepIncomplete, SweepInterrupted, show_value

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario
    from flitcast.results import Result


class _OneLineErrors(TyperGroup):
    """The command group, with click's usage errors reported like every other flitcast error: one
    ``error: ...`` line and exit 2 instead of a usage box; config warnings as ``warning: ...`` lines."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            try:
                # not standalone: click raises its usage errors here instead of printing them itself
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            except NoArgsIsHelpError as exc:  # bare `flitcast`: the help text, as click shows it
                exc.show()
                code = exc.exit_code
            except ClickException as exc:
                typer.echo(f"error: {_usage_message(exc)}", err=True)
                code = exc.exit_code
            except typer.Abort:
                typer.echo("error: aborted", err=True)
                code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def _usage_message(exc: ClickException) -> str:
    message = " ".join(exc.format_message().split()).rstrip(".")  # one line, whatever click wrapped
    # typer checks option values with pydantic, whose error keeps the value click's message leaves out
    errors = getattr(exc.__cause__, "errors", None)
    if callable(errors) and ": " in message:
        problems = errors()
        if problems and "input" in problems[0]:
            head, _, tail = message.partition(": ")
            message = f"{head} ({show_value(problems[0]['input'])}): {tail}"
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


def _show_warning(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
    if issubclass(category, ConfigWarning):
        typer.echo(f"warning: {message}", err=True)
    else:
        _SHOW_WARNING(message, category, *args, **kwargs)


_SHOW_WARNING = warnings.showwarning

app = typer.Typer(
    name="flitcast",
    cls=_OneLineErrors,
    help="flitcast: flit-level interconnection network simulation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., Any])

#: largest number of points one `flitcast sweep` may expand to
MAX_SWEEP_POINTS = 100_000

#: exit codes (the module docstring and the README say what each means)
EXIT_POINTS_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

EXIT_CODES_HELP = (
    "Exit codes: 0 every point ran; 1 some points failed (their rows in results.csv have an error) or "
    "did not finish; 2 bad input, nothing simulated; 130 interrupted (Ctrl-C)."
)


def _kept(kept: int, total: int, store: str | None) -> str:
    if store is None:
        return f"nothing was kept ({kept} of {total} points had finished); use --out DIR to keep finished points"
    return f"{kept} of {total} points are kept in {store}; run the same command again to resume"


def _guard(command: F) -> F:
    """Report a FlitcastError as one line on stderr (never a traceback): exit code 2 for bad input, 1 for
    points that did not finish; Ctrl-C as one line with exit code 130."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except SweepInterrupted as exc:
            typer.echo(f"interrupted: {_kept(exc.kept, exc.total, exc.store)}", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except SweepIncomplete as exc:
            index, reason = exc.unfinished[0]
            more = f" and {len(exc.unfinished) - 1} more" if len(exc.unfinished) > 1 else ""
            typer.echo(
                f"error: {len(exc.unfinished)} of {exc.total} points did not finish (point {index}{more}: "
                f"{reason}); {_kept(exc.kept, exc.total, exc.store)}",
                err=True,
            )
            raise typer.Exit(EXIT_POINTS_FAILED) from None
        except FlitcastError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except KeyboardInterrupt as exc:  # flitcast.run says where it stopped: "interrupted at cycle N"
            typer.echo(str(exc) or "interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    return wrapper  # type: ignore[return-value]


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr)


# --- parsing --set and --vary ----------------------------------------------------------------------


def parse_value(raw: str, option: str = "--set") -> Any:
    """A command-line value as TOML (``0.3``, ``true``, ``"x"``, ``[1, 2]``); a bare word is a string."""
    try:
        document = _toml_value(raw, f"v = {raw}", option)
    except tomllib.TOMLDecodeError:
        return raw
    return document["v"] if list(document) == ["v"] else raw


def _toml_value(raw: str, document: str, option: str) -> dict[str, Any]:
    """``tomllib.loads(document)``, with a value nested too deeply for the parser as a ConfigError."""
    try:
        return tomllib.loads(document)
    except (RecursionError, MemoryError):
        raise ConfigError(option, raw, "a TOML value of modest size and nesting (e.g. [0, 5])") from None


def _split_assignment(text: str, option: str, example: str) -> tuple[str, str]:
    key, eq, raw = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise ConfigError(option, text, f"KEY=VALUE with a dotted key, e.g. {option} {example}")
    return key, raw.strip()


def parse_set(items: Sequence[str]) -> dict[str, Any]:
    """``["workload.load=0.3", ...]`` -> ``{"workload.load": 0.3}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, raw = _split_assignment(item, "--set", "workload.load=0.3")
        out[key] = parse_value(raw)
    return out


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def parse_range(text: str, raw: str) -> list[Any]:
    """``start:stop:step``, stop included (with a tolerance for float steps)."""
    allowed = "KEY=START:STOP:STEP with numbers (stop included), or KEY=A,B,C"
    parts = [parse_value(p.strip(), "--vary") for p in raw.split(":")]
    if len(parts) != 3 or not all(_is_number(p) for p in parts):
        raise ConfigError("--vary", text, allowed)
    start, stop, step = parts
    if step == 0 or (stop - start) * step < 0:
        raise ConfigError("--vary", text, "a STEP that is not 0 and goes from START towards STOP")
    count = math.floor((stop - start) / step + 1e-9) + 1
    if count > MAX_SWEEP_POINTS:
        raise ConfigError("--vary", text, f"a range of at most {MAX_SWEEP_POINTS} values")
    if all(isinstance(p, int) for p in parts):
        return [start + i * step for i in range(count)]
    return [round(start + i * step, 12) for i in range(count)]


def parse_list(raw: str) -> list[Any]:
    """``a,b,c`` with each item a TOML value (``0.1,0.2``, ``mesh,torus``, ``[0],[1, 2]``)."""
    try:
        document = _toml_value(raw, f"v = [{raw}]", "--vary")
        if list(document) == ["v"]:
            return list(document["v"])
    except tomllib.TOMLDecodeError:
        pass
    return [parse_value(item.strip(), "--vary") for item in raw.split(",")]


def parse_vary(items: Sequence[str]) -> dict[str, list[Any]]:
    """``["workload.load=0.1:0.5:0.1", "network.topology=mesh,torus"]`` -> {key: values}."""
    out: dict[str, list[Any]] = {}
    for item in items:
        key, raw = _split_assignment(item, "--vary", "workload.load=0.1:0.5:0.1")
        if key in out:
            raise ConfigError("--vary", item, f"each key varied once ({key} is varied twice)")
        values = parse_range(item, raw) if ":" in raw and "," not in raw else parse_list(raw)
        if not values:
            raise ConfigError("--vary", item, "at least one value")
        out[key] = values
    return out


def _sweep_table(table: dict[str, Any]) -> dict[str, list[Any]]:
    """Validate a scenario file's ``[sweep]`` table (written by a previous sweep)."""
    out: dict[str, list[Any]] = {}
    for key, values in table.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"sweep.{key}", values, "a non-empty list of values")
        out[key] = values
    return out


def _load(path: str, sets: Sequence[str] | None) -> tuple[Scenario, dict[str, Any] | None]:
    from flitcast.config import Scenario, read_scenario_file
    from flitcast.config.scenario import apply_overrides

    data, sweep_table = read_scenario_file(path)
    scenario = Scenario.model_validate(apply_overrides(data, parse_set(sets or [])))
    return scenario, sweep_table


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "-" if math.isnan(value) else str(value)
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    if value is None:
        return "-"
    return str(value)


# --- commands --------------------------------------------------------------------------------------

SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set", metavar="KEY=VALUE", help="Override a scenario key, e.g. --set workload.load=0.3 (repeatable)."
    ),
]
OutOption = Annotated[
    str | None,
    typer.Option("--out", metavar="DIR", help="Write results.csv, results.parquet and scenario.toml into DIR."),
]
ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Use DIR even if it is not empty or holds another run's store: its store (points.sqlite) is "
        "discarded and every point recomputed; other files in DIR are left as they are.",
    ),
]
ThreadsOption = Annotated[
    int, typer.Option("--threads", help="Simulation threads on this machine (0 = one per core, at most 8 per core).")
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Run the points on a Dask cluster: a scheduler address (tcp://HOST:8786), or local[:N] to start "
        "N single-threaded worker processes here (default: one per core), closed at the end.",
    ),
]


def _version(value: bool) -> None:
    if value:
        from flitcast import __version__

        typer.echo(f"flitcast {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """flitcast: flit-level interconnection network simulation."""


@app.command("run")
@_guard
def run_command(
    scenario: Annotated[str, typer.Argument(metavar="SCENARIO.toml", help="Scenario file.")],
    set_: SetOption = None,
    out: OutOption = None,
    force: ForceOption = False,
) -> None:
    """Simulate one scenario and print its metrics. --out DIR must be new or empty, unless --force. Ctrl-C
    stops it (exit code 130, nothing written)."""
    from flitcast.api import run

    point, _ = _load(scenario, set_)
    if out is not None:
        from flitcast.output import prepare_out_dir

        prepare_out_dir(out, force, run_id=None)
    _import_in_background("rich.table", *(("pyarrow.json", "pyarrow.parquet") if out is not None else ()))
    window_end = point.run.warmup_cycles + point.run.measure_cycles
    result = _with_cycle_progress(window_end, lambda progress: run(point, progress=progress))
    _print_metrics(point, result)
    if out is not None:
        from flitcast.output import write_result_dir

        written = write_result_dir(out, result)
        typer.echo(f"wrote {', '.join(p.name for p in written)} to {out}")


def _import_in_background(*modules: str) -> None:
    """Import what the command needs after the simulation on another thread while the core simulates:
    the core releases the GIL, so on a second CPU the imports (pyarrow alone takes about 0.2 s) are done
    by the time the results are written instead of adding to the run."""
    import importlib
    import threading

    def load() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001, S112 - the import where the module is used reports it
                continue

    threading.Thread(target=load, name="flitcast-imports", daemon=True).start()


def _print_metrics(point: Scenario, result: Result) -> None:
    from rich.table import Table

    table = Table(
        title=f"{point.network.topology} k={point.network.k} n={point.network.n}, "
        f"{point.workload.pattern} load {point.workload.load}"
    )
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in result.metrics.items():
        table.add_row(name, _fmt(value))
    _console().print(table)


def _with_cycle_progress(window_end: int, work: Callable[[Callable[[int, int], None] | None], Any]) -> Any:
    """Run ``work(progress)`` under a progress bar of simulated cycles on stderr, with the time left;
    only on a terminal (elsewhere rich is not even imported), and gone when done."""
    if not sys.stderr.isatty():
        return work(None)
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        TextColumn("cycle {task.completed:,.0f} of {task.total:,.0f}"),
        TimeRemainingColumn(),
        console=_console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("cycles", total=max(window_end, 1))

        def progress(cycle: int, window_end: int) -> None:
            # the drain after the window may run past its end: hold the bar full there
            bar.update(task, completed=min(cycle, window_end), total=max(window_end, 1))

        return work(progress)


@app.command("sweep", epilog=EXIT_CODES_HELP)
@_guard
def sweep_command(
    scenario: Annotated[str, typer.Argument(metavar="SCENARIO.toml", help="Base scenario file.")],
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            metavar="KEY=START:STOP:STEP|KEY=A,B,C",
            help="Vary a key over a range (stop included) or a list; several --vary form a cartesian product. "
            "Without --vary, the file's sweep table is used.",
        ),
    ] = None,
    set_: SetOption = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Record every point in DIR/points.sqlite as it finishes (the same command resumes), then write "
            "results.csv/.parquet, scenario.toml and latency_vs_load.png into DIR.",
        ),
    ] = None,
    threads: ThreadsOption = 0,
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
) -> None:
    """Simulate a grid of scenarios and print offered/accepted load and latency."""
    from rich.table import Table

    from flitcast.api import grid, sweep
    from flitcast.output import write_run_dir

    _check_where(threads, scheduler)
    base, sweep_table = _load(scenario, set_)
    if vary:
        varied = parse_vary(vary)
    elif sweep_table:
        varied = _sweep_table(sweep_table)
    else:
        raise ConfigError("--vary", "(none)", "at least one --vary KEY=START:STOP:STEP or KEY=A,B,C")
    total = math.prod(len(v) for v in varied.values())
    if total > MAX_SWEEP_POINTS:
        raise ConfigError("--vary", f"{total} points", f"at most {MAX_SWEEP_POINTS} points in one sweep")
    points = grid(base, varied)
    _prepare_out(out, force, points)

    with _dask_client(scheduler) as client:
        frame = _with_progress(
            len(points),
            lambda progress: sweep(points, threads=threads, progress=progress, client=client, store=out),
        )

    table = Table(title=f"sweep of {len(points)} points (loads in flits/node/cycle, latencies in cycles)")
    for key in varied:
        table.add_column(key.split(".", 1)[-1])
    for name in ("offered", "accepted", "latency", "ci95", "p99", "saturated"):
        table.add_column(name, justify="right")
    for _, row in frame.iterrows():
        table.add_row(
            *(_fmt(row[k]) for k in varied),
            _fmt(row["offered_load"]),
            _fmt(row["accepted_load"]),
            _fmt(row["latency_mean"]),
            _fmt(row["latency_ci95"]),
            _fmt(row["latency_p99"]),
            "failed" if row["error"] else _fmt(bool(row["saturated"])),
        )
    _console().print(table)
    if out is not None:
        written = write_run_dir(out, frame, base, varied)
        typer.echo(f"wrote {', '.join(p.name for p in written)} to {out}")
    _report_failures(frame, list(varied), out)


def _check_where(threads: Any, scheduler: str | None) -> None:
    """Validate --threads and --scheduler together, before anything else."""
    from flitcast.api import check_threads

    check_threads(threads, "--threads")
    if scheduler is not None and threads:
        raise ConfigError("--threads", threads, "0 with --scheduler (choose the worker count with --scheduler local:N)")


def _prepare_out(out: str | None, force: bool, points: Sequence[Scenario]) -> None:
    """Check --out before anything is simulated (flitcast.output.prepare_out_dir)."""
    if out is None:
        return
    from flitcast.api import run_identity
    from flitcast.output import prepare_out_dir

    prepare_out_dir(out, force, run_identity(points))


@contextlib.contextmanager
def _dask_client(scheduler: str | None) -> Iterator[Any]:
    """The Dask client of --scheduler, or None to run on local threads."""
    if scheduler is None:
        yield None
        return
    from flitcast.dask_runner import dask_client

    with dask_client(scheduler) as client:
        yield client


#: failed points listed on stderr (the rest are counted)
FAILURES_SHOWN = 10


def _report_failures(frame: pd.DataFrame, columns: list[str], out: str | None) -> None:
    """List the points that failed, and why, on stderr; exit 1 if there are any."""
    failed = frame[frame["error"] != ""]
    if failed.empty:
        return
    where = f"their rows in {Path(out) / 'results.csv'} have the error" if out is not None else "listed below"
    lines = [f"failed: {len(failed)} of {len(frame)} points ({where}):"]
    for index, row in failed.head(FAILURES_SHOWN).iterrows():
        described = ", ".join(f"{c}={row[c]}" for c in columns)
        lines.append(f"  point {index} ({described}): {row['error']}")
    if len(failed) > FAILURES_SHOWN:
        lines.append(f"  ... and {len(failed) - FAILURES_SHOWN} more")
    typer.echo("\n".join(lines), err=True)
    raise typer.Exit(EXIT_POINTS_FAILED)


def _with_progress(total: int, work: Callable[[Callable[[int, int], None]], Any]) -> Any:
    """Run ``work(progress)`` under a progress bar on stderr (shown only on a terminal, gone when done)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = _console(stderr=True)
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,  # stderr keeps only what matters (an error line, if any)
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("points", total=total)
        return work(lambda done, _total: bar.update(task, completed=done))


@app.command("reproduce", epilog=EXIT_CODES_HELP)
@_guard
def reproduce_command(
    experiment: Annotated[str, typer.Argument(metavar="ID", help="Experiment id (`flitcast list experiments`).")],
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="Shorter measured windows; judges only the claims its measured resolution can decide (the "
            "others: holds empty, 'not judged in quick mode').",
        ),
    ] = False,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Record every point in DIR/points.sqlite as it finishes (the same command resumes), then write "
            "results.csv, one PNG per panel and claims.csv into DIR.",
        ),
    ] = None,
    threads: ThreadsOption = 0,
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    all_loads: Annotated[
        bool,
        typer.Option(
            "--all-loads",
            help="Run every load of a peak-throughput figure; by default only the loads its peaks need are "
            "run, walking each curve down from the highest load (the peaks are the same).",
        ),
    ] = False,
) -> None:
    """Reproduce a figure of a study and print the study's claims beside ours."""
    import pandas as pd
    from rich.table import Table

    from flitcast.experiments import get, run_experiment
    from flitcast.experiments.experiment import CLAIM_COLUMNS

    _check_where(threads, scheduler)
    exp = get(experiment)
    points = exp.run_points(quick)
    _prepare_out(out, force, [p.scenario for p in points])
    with _dask_client(scheduler) as client:
        results, claims, wall = _with_progress(
            len(points),
            lambda progress: run_experiment(
                exp, quick=quick, out=out, threads=threads, progress=progress, client=client, all_loads=all_loads
            ),
        )
    table = Table(title=f"{exp.id}: {exp.figure} of study {exp.study}" + (" (quick)" if quick else ""))
    for column in CLAIM_COLUMNS:
        table.add_column(column)
    for _, row in claims.iterrows():
        holds = "-" if pd.isna(row["holds"]) else "yes" if row["holds"] else "NO"
        margin = "" if pd.isna(row["margin"]) else f"{row['margin']:+.3f}"
        table.add_row(row["claim"], row["study"], row["ours"], holds, margin, row["note"])
    _console().print(table)
    held = int(claims["holds"].eq(True).sum())
    unjudged = int(claims["holds"].isna().sum())
    typer.echo(f"{len(results)} points in {wall:.1f} s; {held} of {len(claims)} claims hold" + (f", {unjudged} not judged" if unjudged else ""))
    if out is not None:
        typer.echo(f"wrote results.csv, claims.csv and the figure panels to {out}")
    _report_failures(results, [*(points[0].labels if points else []), "workload.load"], out)


def _plural(family: str) -> str:
    if family.endswith("y") and family[-2:-1] not in ("a", "e", "i", "o", "u"):
        return family[:-1] + "ies"
    if family.endswith(("ch", "sh", "s", "x")):
        return family + "es"
    return family + "s"


def _families(catalogue: dict[str, Any]) -> dict[str, str]:
    """Command-line name (plural) -> catalogue family, for every family the core registers."""
    return {_plural(family): family for family in catalogue}


@app.command("list")
@_guard
def list_command(
    what: Annotated[
        str | None,
        typer.Argument(
            metavar="[WHAT]",
            help="topologies, switches, routings, patterns, arrivals, flow_controls, selections, parameters or "
            "experiments (default: all).",
        ),
    ] = None,
) -> None:
    """List the components a scenario can name, or every scenario parameter."""
    from flitcast import _core

    catalogue = json.loads(_core.catalogue())
    families = _families(catalogue)
    choices = [*families, "parameters", "experiments"]
    if what is not None and what not in choices:
        raise ConfigError("WHAT", what, "one of " + ", ".join(choices))
    tables: list[tuple[str, tuple[str, ...], list[tuple[str, ...]]]] = []
    for name, family in families.items():
        if what in (None, name):
            tables.append((name, ("name", "description"), [(e["name"], e["doc"]) for e in catalogue[family]]))
    if what in (None, "parameters"):
        # generated from the pydantic declarations by `make docs` (flitcast/docgen.py), so that listing
        # them does not import pydantic; tests/test_docs.py keeps it current
        rows = json.loads((Path(__file__).parent / "config" / "parameters.json").read_text(encoding="utf-8"))
        columns = ("key", "type", "default", "bounds", "description")
        tables.append(("parameters", columns, [tuple(row[c] for c in columns) for row in rows]))
    if what in (None, "experiments"):
        from flitcast.experiments import EXPERIMENTS

        rows = [(e.id, e.study.split()[0], e.figure, e.title) for e in EXPERIMENTS.values()]
        tables.append(("experiments (flitcast reproduce ID [--quick])", ("id", "study", "figure", "what"), rows))
    _print_tables(tables)


def _print_tables(tables: list[tuple[str, tuple[str, ...], list[tuple[str, ...]]]]) -> None:
    """Rich tables on a terminal; elsewhere (a pipe, a file) plain tab-separated lines under a "# title"
    line, which are quicker to print and to grep."""
    if not sys.stdout.isatty():
        for title, columns, rows in tables:
            print(f"# {title}")
            print("\t".join(columns))
            for row in rows:
                print("\t".join(row))
        return
    from rich.table import Table

    console = _console()
    for title, columns, rows in tables:
        table = Table(title=title)
        for i, column in enumerate(columns):
            table.add_column(column, style="bold" if i == 0 else None, no_wrap=i == 0)
        for row in rows:
            table.add_row(*row)
        console.print(table)


def bench_scenarios(quick: bool) -> list[tuple[str, Scenario]]:
    """The fixed benchmark points: the 8x8 mesh (DOR, uniform, 8-flit packets, 2 VCs x 8 flits) at loads
    0.1 and 0.3, the 128-node SP network (central-buffer switches, adaptive LRU routing,
    bit-reversal, 1 KB messages) at load 0.5, and 6-way hardware multicasts of 128-byte messages on the
    16-node tree of central-buffer switches at effective load 0.5 (study 000)."""
    from flitcast.config import Scenario

    measure = 10_000 if quick else 100_000
    run = {"warmup_cycles": measure // 10, "measure_cycles": measure, "seed": 1}
    mesh = [
        (
            "mesh8 uniform",
            Scenario.model_validate(
                {
                    "network": {"topology": "mesh", "k": 8, "n": 2},
                    "switch": {"vcs": 2, "buffer_flits": 8},
                    "workload": {"pattern": "uniform", "packet_flits": 8, "load": load},
                    "run": run,
                }
            ),
        )
        for load in (0.1, 0.3)
    ]
    sp = Scenario.model_validate(
        {
            "network": {"topology": "sp128"},
            "switch": {"model": "central_buffer"},
            "routing": {"algorithm": "adaptive", "selection": "lru"},
            "workload": {
                "pattern": "bit_reversal",
                "load": 0.5,
                "message_bytes": 1024,
                "flit_bytes": 2,
                "max_packet_bytes": 1024,
            },
            "run": run,
        }
    )
    multicast = Scenario.model_validate(
        {
            "network": {"topology": "fat_tree", "k": 4, "n": 2},
            "switch": {"model": "central_buffer"},
            "routing": {"algorithm": "adaptive", "selection": "lru"},
            "workload": {"load": 0.5, "packet_flits": 64, "multicast_destinations": 6, "multicast_scheme": "hardware"},
            "run": run,
        }
    )
    return [*mesh, ("sp128 bit-rev 1KB", sp), ("tree16 6-way hw multicast", multicast)]


@app.command("bench")
@_guard
def bench_command(
    quick: Annotated[bool, typer.Option("--quick", help="10k measured cycles instead of 100k.")] = False,
) -> None:
    """Measure simulator speed: simulated cycles/s and flit-hops/s on fixed scenarios (one thread)."""
    from rich.table import Table

    from flitcast import _core
    from flitcast.api import _payload, _result

    table = Table(title="flitcast bench" + (" --quick" if quick else "") + ": one thread per scenario")
    table.add_column("scenario", no_wrap=True)
    table.add_column("load", no_wrap=True)
    for column in ("cycles", "wall s", "cycles/s", "flit-hops", "flit-hops/s"):
        table.add_column(column, justify="right", no_wrap=True)
    costs = []
    for name, point in bench_scenarios(quick):
        payload = _payload(point)
        began = time.perf_counter()
        outcome = _core.run(payload)
        wall = time.perf_counter() - began
        metrics = _result(point, outcome, wall).metrics
        cycles, hops = metrics["cycles"], metrics["flit_hops"]
        costs.append(wall / cycles)
        table.add_row(
            name,
            f"{point.workload.load}",
            f"{cycles:,}",
            f"{wall:.3f}",
            f"{cycles / wall:,.0f}",
            f"{hops:,}",
            f"{hops / wall:,.0f}",
        )
    console = _console()
    console.width = max(console.width, 110)  # the table is wider than a default 80-column pipe
    console.print(table)
    console.print(f"mesh per-cycle cost heavy/light (load 0.3 / load 0.1): {costs[1] / costs[0]:.2f}")


def _int_list(raw: str, option: str) -> list[int]:
    """``A,B,C`` or ``START:STOP:STEP`` (stop included), integers."""
    values = parse_range(raw, raw) if ":" in raw else parse_list(raw)
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ConfigError(option, raw, "integers: A,B,C or START:STOP:STEP")
    return values


@app.command("model")
@_guard
def model_command(
    k: Annotated[int, typer.Option("--k", help="Nodes per dimension of the k × k unidirectional torus.")] = 4,
    group: Annotated[str, typer.Option("--group", help="Group sizes G (root included): A,B,C or START:STOP:STEP.")] = "4:16:1",
    message_bytes: Annotated[str, typer.Option("--bytes", help="Message sizes in bytes: A,B,C or START:STOP:STEP.")] = "128",
    algorithm: Annotated[
        str, typer.Option("--algorithm", help="Comma-separated: separate, u_torus, s_torus, md_torus, mu_torus.")
    ] = "separate,u_torus,s_torus,md_torus,mu_torus",
    r: Annotated[str, typer.Option("--r", help="Mu-torus partition lengths: A,B,C.")] = "4",
    h_i: Annotated[
        str, typer.Option("--h-i", help="Relays on the deepest path: tree (the core's plans) or closed (the study's closed forms).")
    ] = "tree",
    t_process_unit: Annotated[
        str, typer.Option("--t-process-unit", help="Unit of Table 1's t_process: us (our reading) or ns.")
    ] = "us",
    out: Annotated[str | None, typer.Option("--out", help="Write model.csv and model.png into this directory.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into a non-empty --out directory.")] = False,
) -> None:
    """Evaluate study 004's small-message multicast latency model (µs) for any k, group size and message size."""
    from rich.table import Table

    from flitcast import analytic

    if not 2 <= k <= 64:
        raise ConfigError("--k", k, "an integer from 2 to 64")
    algorithms = [a.strip() for a in algorithm.split(",") if a.strip()]
    for a in algorithms:
        if a not in analytic.ALGORITHMS:
            raise ConfigError("--algorithm", a, "comma-separated: " + ", ".join(analytic.ALGORITHMS))
    groups, sizes, lengths = _int_list(group, "--group"), _int_list(message_bytes, "--bytes"), _int_list(r, "--r")
    if any(not 2 <= g <= k * k for g in groups):
        raise ConfigError("--group", group, f"group sizes from 2 to k² = {k * k}")
    if any(m < 1 for m in sizes):
        raise ConfigError("--bytes", message_bytes, "sizes of at least 1 byte")
    if any(not 2 <= x <= k * k for x in lengths):
        raise ConfigError("--r", r, f"partition lengths from 2 to k² = {k * k}")
    if h_i not in ("tree", "closed"):
        raise ConfigError("--h-i", h_i, "tree or closed")
    if t_process_unit not in ("us", "ns"):
        raise ConfigError("--t-process-unit", t_process_unit, "us or ns")
    if len(groups) * len(sizes) * len(algorithms) * len(lengths) > 100_000:
        raise ConfigError("--group", group, "at most 100,000 model points in all")
    if out is not None:
        from flitcast.output import prepare_out_dir

        prepare_out_dir(out, force, None, option="out")
    params = analytic.Parameters(t_process_unit=t_process_unit)  # type: ignore[arg-type]
    frame = analytic.table(k, groups, sizes, algorithms, lengths, params, h_i)  # type: ignore[arg-type]
    shown = Table(title=f"study 004 model, {k}×{k} unidirectional torus (µs; t_process in {t_process_unit})")
    for column in ("algorithm", "r", "G", "M (B)", "h_i", "Eq. 7/8", "deepest path"):
        shown.add_column(column, justify="left" if column == "algorithm" else "right")
    for row in frame.itertuples():
        shown.add_row(
            row.algorithm,
            "" if row.r is None or row.r != row.r else f"{int(row.r)}",
            f"{row.group}",
            f"{row.message_bytes}",
            f"{row.h_i}",
            f"{row.latency_us:,.1f}",
            f"{row.latency_deepest_path_us:,.1f}",
        )
    _console().print(shown)
    if out is not None:
        from flitcast.output import write_all_or_nothing
        from flitcast.plot import model_plot

        def write(staging: Path) -> None:
            frame.to_csv(staging / "model.csv", index=False)
            model_plot(frame, staging / "model.png")

        write_all_or_nothing(out, write)
        typer.echo(f"wrote model.csv and model.png to {out}")


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``flitcast`` script and ``python -m flitcast``."""
    try:
        app(args=list(argv) if argv is not None else None, prog_name="flitcast")
    except KeyboardInterrupt:  # before a command started (commands report it themselves)
        typer.echo("interrupted", err=True)
        sys.exit(130)
