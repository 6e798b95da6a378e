"""``flitcast list``: the kinds and choices a scenario can name, every parameter, the experiments (from the
core's key catalogue: no pydantic is imported)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from flitcast.cli.app import app, console, guard
from flitcast.errors import ConfigError


@app.command("list")
@guard
def list_command(
    what: Annotated[
        str | None,
        typer.Argument(
            metavar="[WHAT]",
            help="topologies, switches, routings, programs, patterns, selections, arrivals, … (every key that names "
            "a kind or a choice), parameters or experiments (default: all).",
        ),
    ] = None,
) -> None:
    """List the components a scenario can name, or every scenario parameter."""
    from flitcast import catalogue

    families = catalogue.families()
    choices = [*families, "parameters", "experiments"]
    if what is not None and what not in choices:
        raise ConfigError("WHAT", what, "one of " + ", ".join(choices))
    tables: list[tuple[str, tuple[str, ...], Sequence[tuple[str, ...]]]] = []
    for name, kinds in families.items():
        if what in (None, name):
            tables.append((name, ("name", "description"), kinds))
    if what in (None, "parameters"):
        keys = ("key", "kind", "type", "default", "allowed", "description")
        tables.append(("parameters", keys, [tuple(row[c] for c in keys) for row in catalogue.parameters()]))
    if what in (None, "experiments"):
        from flitcast.experiments import EXPERIMENTS

        experiments = [
            (e.id, e.source, e.figure, e.title, ", ".join(r.name for r in e.readings))
            for e in EXPERIMENTS.values()
        ]
        columns = ("id", "study", "figure", "what", "other readings")
        tables.append(("experiments (flitcast reproduce ID [--quick] [--reading NAME])", columns, experiments))
    _print_tables(tables)


def _print_tables(tables: list[tuple[str, tuple[str, ...], Sequence[tuple[str, ...]]]]) -> None:
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

    out = console()
    for title, columns, rows in tables:
        table = Table(title=title)
        for i, column in enumerate(columns):
            table.add_column(column, style="bold" if i == 0 else None, no_wrap=i == 0)
        for row in rows:
            table.add_row(*row)
        out.print(table)
