"""``flitcast model --collective FILE``: the α-β-γ estimate of a collective scenario (docs/models/collectives.md,
"The estimate"), over the keys it varies, without simulating: printed, and written with --out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import typer

from flitcast.cli.app import console
from flitcast.cli.options import check_set_not_varied, load, parse_vary, sweep_table
from flitcast.errors import ConfigError, Shown

#: what --out receives, from either model (the torus model's and this one)
MODEL_FILES = ("model.csv", "model.png")

#: most estimates one command evaluates
MAX_ROWS = 10_000


def collective_model(path: str, vary: Sequence[str] | None, sets: Sequence[str] | None, out: str | None, force: bool) -> None:
    """Estimate the collective of the scenario file ``path`` at every point of ``vary`` (else its [sweep]
    table, else alone)."""
    import pandas as pd
    from rich.table import Table

    from flitcast.api import collective_estimate
    from flitcast.sweeps import grid

    base, table_of_file = load(path, sets)
    if vary:
        varied = parse_vary(vary)
        check_set_not_varied(sets, varied, "--vary")
    else:
        varied = sweep_table(table_of_file) if table_of_file else {}
    rows = math.prod(len(v) for v in varied.values())
    if rows > MAX_ROWS:
        raise ConfigError("--vary", Shown(f"{rows:,} rows"), f"at most {MAX_ROWS:,} rows in all")
    if out is not None:
        from flitcast.sweeps.outdir import check_out_dir

        check_out_dir(out, force, None, "--out", MODEL_FILES)
    records = []
    for point in grid(base, varied):
        estimate = collective_estimate(point)
        ranks = estimate["rank_cycles"]
        records.append(
            {
                **{key: point.value(key) for key in varied},
                "members": len(estimate["members"]),
                "estimate_cycles": estimate["completion_cycles"],
                "rank_mean_cycles": sum(ranks) / len(ranks),
            }
        )
    frame = pd.DataFrame.from_records(records)
    w = base.workload
    how = "" if "workload.scheme" in varied else f" by {w.scheme or 'its default algorithm'}"
    shown = Table(title=f"α-β-γ estimate of {path}: {w.operation}{how} (cycles)")
    for column in frame.columns:
        shown.add_column(column, justify="left" if column in varied else "right")
    for row in frame.itertuples(index=False):
        shown.add_row(*(f"{v:,.1f}" if isinstance(v, float) else str(v) for v in row))
    console().print(shown)
    if out is not None:
        from flitcast.plot import estimate_plot
        from flitcast.sweeps.outdir import write_all_or_nothing

        def write(staging: Path) -> None:
            frame.to_csv(staging / "model.csv", index=False)
            estimate_plot(frame, list(varied), staging / "model.png")

        write_all_or_nothing(out, write)
        typer.echo(f"wrote model.csv and model.png to {out}")
