"""What several commands share: reading --set and --vary, loading the scenario file, the common options,
and where points run (--threads, --scheduler) and are kept (--out)."""

from __future__ import annotations

import contextlib
import math
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from flitcast.errors import ConfigError, CorruptStore, show_value

if TYPE_CHECKING:
    from flitcast.config import Scenario

#: largest number of points one `flitcast sweep` may expand to
MAX_SWEEP_POINTS = 100_000


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


def parse_range(text: str, raw: str, option: str = "--vary") -> list[Any]:
    """``start:stop:step``, stop included (with a tolerance for float steps); ``option`` names the option
    whose value ``text`` is in error messages."""
    key = "KEY=" if option == "--vary" else ""
    allowed = f"{key}START:STOP:STEP with numbers (stop included), or {key}A,B,C"
    parts = [parse_value(p.strip(), option) for p in raw.split(":")]
    if len(parts) != 3 or not all(_is_number(p) for p in parts):
        raise ConfigError(option, text, allowed)
    start, stop, step = parts
    if step == 0 or (stop - start) * step < 0:
        raise ConfigError(option, text, "a STEP that is not 0 and goes from START towards STOP")
    count = math.floor((stop - start) / step + 1e-9) + 1
    if count > MAX_SWEEP_POINTS:
        raise ConfigError(option, text, f"a range of at most {MAX_SWEEP_POINTS} values")
    if all(isinstance(p, int) for p in parts):
        return [start + i * step for i in range(count)]
    return [round(start + i * step, 12) for i in range(count)]


def parse_list(raw: str, option: str = "--vary") -> list[Any]:
    """``a,b,c`` with each item a TOML value (``0.1,0.2``, ``mesh,torus``, ``[0],[1, 2]``)."""
    try:
        document = _toml_value(raw, f"v = [{raw}]", option)
        if list(document) == ["v"]:
            return list(document["v"])
    except tomllib.TOMLDecodeError:
        pass
    return [parse_value(item.strip(), option) for item in raw.split(",")]


def check_distinct(option: str, text: Any, values: Sequence[Any]) -> None:
    """Refuse a value given twice in a list to vary over: it would be the same point (or row) twice."""
    seen: set[Any] = set()
    for value in values:
        marker = _comparable(value)
        if marker in seen:
            times = sum(1 for v in values if _comparable(v) == marker)
            twice = "twice" if times == 2 else f"{times} times"
            raise ConfigError(option, text, "each value once", reason=f"{show_value(value)} is given {twice}")
        seen.add(marker)


def _comparable(value: Any) -> Any:
    """A hashable stand-in for a TOML value: equal for equal values (1 and 1.0 alike), a boolean apart
    from the numbers 0 and 1."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, list):
        return ("list", tuple(_comparable(v) for v in value))
    if isinstance(value, dict):
        return ("table", tuple(sorted(((k, _comparable(v)) for k, v in value.items()), key=lambda kv: kv[0])))
    return value


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
        check_distinct("--vary", item, values)
        out[key] = values
    return out


def sweep_table(table: dict[str, Any]) -> dict[str, list[Any]]:
    """Validate a scenario file's ``[sweep]`` table (written by a previous sweep)."""
    out: dict[str, list[Any]] = {}
    for key, values in table.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"sweep.{key}", values, "a non-empty list of values")
        check_distinct(f"sweep.{key}", values, values)
        out[key] = values
    return out


def check_set_not_varied(sets: Sequence[str] | None, varied: Mapping[str, Any], varied_by: str) -> None:
    """Refuse --set on a key the sweep varies: the varied values would replace it without a word."""
    for item in sets or []:
        key, _ = _split_assignment(item, "--set", "workload.load=0.3")
        if key in varied:
            raise ConfigError(
                "--set",
                item,
                f"a key that {varied_by} does not vary",
                reason=f"{key} is varied by {varied_by}, whose values would replace this one",
            )


def load(path: str, sets: Sequence[str] | None) -> tuple[Scenario, dict[str, Any] | None]:
    from flitcast.config import Scenario

    data, sweep_table = load_tables(path, sets)
    return Scenario.model_validate(data), sweep_table


def load_tables(path: str, sets: Sequence[str] | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The scenario file's tables with ``--set`` applied, not checked (a sweep checks its points), and its
    ``[sweep]`` table."""
    from flitcast.config import read_scenario_file
    from flitcast.config.scenario import apply_overrides

    data, sweep_table = read_scenario_file(path)
    return apply_overrides(data, parse_set(sets or [])), sweep_table


ExperimentArgument = Annotated[str, typer.Argument(metavar="ID", help="Experiment id (`flitcast list experiments`).")]


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


def check_where(threads: Any, scheduler: str | None) -> None:
    """Validate --threads and --scheduler together, before anything else (Dask is neither imported nor
    contacted here)."""
    from flitcast.sweeps.run import check_threads

    check_threads(threads, "--threads")
    if scheduler is None:
        return
    from flitcast.sweeps.on_dask import check_scheduler

    check_scheduler(scheduler)
    if threads:
        raise ConfigError("--threads", threads, "0 with --scheduler (choose the worker count with --scheduler local:N)")


def check_out(out: str | None, force: bool, points: Sequence[Scenario], files: Sequence[str]) -> str | None:
    """Check --out before anything starts (a Dask cluster, a simulation), creating nothing; return the run
    identity its store records (None without --out). ``files`` are the names the command will write."""
    if out is None:
        return None
    from flitcast.sweeps.outdir import check_out_dir
    from flitcast.sweeps.run import run_identity

    run = run_identity(points)
    check_out_dir(out, force, run, "--out", files)
    return run


@contextlib.contextmanager
def out_dir(out: str | None, force: bool, run: str | None, files: Sequence[str]) -> Iterator[None]:
    """--out prepared for the block that runs the points: its store created, and removed again if the
    block fails before recording a point (flitcast.sweeps.outdir.out_dir_of_run). A corrupt store found
    while the block reads it is reported with the command line's options."""
    if out is None:
        yield
        return
    from flitcast.sweeps.outdir import out_dir_of_run

    try:
        with out_dir_of_run(out, force, run, "--out", files):
            yield
    except CorruptStore as exc:
        raise exc.named("--out") from None


@contextlib.contextmanager
def dask_client(scheduler: str | None) -> Iterator[Any]:
    """The Dask client of --scheduler, or None to run on local threads."""
    if scheduler is None:
        yield None
        return
    from flitcast.sweeps.on_dask import dask_client as client_of

    with client_of(scheduler) as client:
        yield client
