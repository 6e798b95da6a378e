"""``flitcast model``: study 004's small-message multicast latency model, or with ``--collective FILE`` the
α-β-γ estimate of a collective scenario (``model_collective.py``), printed (and written with --out)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from flitcast.cli.app import app, console, guard
from flitcast.cli.model_collective import MODEL_FILES, collective_model
from flitcast.cli.options import SetOption, check_distinct, parse_list, parse_range
from flitcast.errors import ConfigError, Shown

#: most model rows one command evaluates
MAX_MODEL_ROWS = 100_000

#: flitcast.analytic's argument -> the option that gives it
OPTION_OF = {
    "k": "--k",
    "groups": "--group",
    "message_bytes": "--bytes",
    "algorithms": "--algorithm",
    "r": "--r",
    "h_i": "--h-i",
    "t_process_unit": "--t-process-unit",
}


def _int_list(raw: str, option: str) -> list[int]:
    """``A,B,C`` or ``START:STOP:STEP`` (stop included), integers, each once (a repeat is a repeated row)."""
    values = parse_range(raw, raw, option) if ":" in raw else parse_list(raw, option)
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ConfigError(option, raw, "integers: A,B,C or START:STOP:STEP")
    check_distinct(option, raw, values)
    return values


@app.command("model")
@guard
def model_command(
    ctx: typer.Context,
    k: Annotated[int, typer.Option("--k", help="Nodes per dimension of the k × k unidirectional torus.")] = 4,
    group: Annotated[str, typer.Option("--group", help="Group sizes G (root included): A,B,C or START:STOP:STEP.")] = "4:16:1",
    message_bytes: Annotated[str, typer.Option("--bytes", help="Message sizes in bytes: A,B,C or START:STOP:STEP.")] = "128",
    algorithm: Annotated[
        str, typer.Option("--algorithm", help="Comma-separated: separate, u_torus, s_torus, md_torus, mu_torus.")
    ] = "separate,u_torus,s_torus,md_torus,mu_torus",
    r: Annotated[str, typer.Option("--r", help="Mu-torus partition lengths: A,B,C.")] = "4",
    h_i: Annotated[
        str,
        typer.Option(
            "--h-i",
            help="Relays on the deepest path (Eq. 7's h_i): closed (the study's Eqs 9–12, as docs/models/torus_multicast.md reads them) or tree (the core's relay plans, the structure the simulator runs).",
        ),
    ] = "closed",
    t_process_unit: Annotated[
        str, typer.Option("--t-process-unit", help="Unit of Table 1's t_process: us (our reading) or ns.")
    ] = "us",
    out: Annotated[str | None, typer.Option("--out", help="Write model.csv and model.png into this directory.")] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Write into a non-empty --out directory: model.csv and model.png in it are replaced, other files "
            "are left as they are.",
        ),
    ] = False,
    collective: Annotated[
        str | None,
        typer.Option(
            "--collective",
            metavar="FILE",
            help="Instead: the α-β-γ estimate (cycles) of the collective scenario FILE (workload.program = "
            "'collective'), over its --vary keys (else its [sweep] table), without simulating "
            "(docs/models/collectives.md). The torus model's options do not apply.",
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option("--vary", metavar="KEY=A,B,C", help="With --collective: vary a key over a range or a list (repeatable)."),
    ] = None,
    set_: SetOption = None,
) -> None:
    """Evaluate study 004's small-message multicast latency model (µs) for any k, group size and message size,
    or with --collective the α-β-γ estimate of a collective."""
    from rich.table import Table

    from flitcast import analytic

    if collective is not None:
        for name, value in (("k", k), ("group", group), ("message_bytes", message_bytes), ("algorithm", algorithm),
                            ("r", r), ("h_i", h_i), ("t_process_unit", t_process_unit)):
            # (by name: typer may bring its own copy of click's ParameterSource)
            if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT":
                option = next(p.opts[0] for p in ctx.command.params if p.name == name)
                raise ConfigError(option, value, "left out with --collective (an option of the torus model)")
        collective_model(collective, vary, set_, out, force)
        return
    for option, given in (("--vary", vary), ("--set", set_)):
        if given:
            raise ConfigError(option, ",".join(given), "only with --collective FILE")

    algorithms = [a.strip() for a in algorithm.split(",") if a.strip()]
    if not algorithms:
        raise ConfigError("--algorithm", algorithm, "one or more of " + ", ".join(analytic.ALGORITHMS) + ", comma-separated")
    check_distinct("--algorithm", algorithm, algorithms)
    groups, sizes, lengths = _int_list(group, "--group"), _int_list(message_bytes, "--bytes"), _int_list(r, "--r")
    rows = len(groups) * len(sizes) * len(algorithms) * len(lengths)
    if rows > MAX_MODEL_ROWS:
        raise ConfigError(
            "--group × --bytes × --algorithm × --r", Shown(f"{rows:,} rows"), f"at most {MAX_MODEL_ROWS:,} rows in all"
        )
    if out is not None:
        from flitcast.sweeps.outdir import check_out_dir

        check_out_dir(out, force, None, "--out", MODEL_FILES)
    try:
        # (flitcast.analytic checks every argument, its ranges said once there; its errors are renamed to
        # the options they came from)
        params = analytic.Parameters(t_process_unit=t_process_unit)  # type: ignore[arg-type]
        frame = analytic.table(k, groups, sizes, algorithms, lengths, params, h_i)  # type: ignore[arg-type]
    except ConfigError as exc:
        renamed = OPTION_OF.get(exc.key.split("[")[0])
        if renamed is None:
            raise
        raise ConfigError(renamed, Shown(exc.value), exc.allowed) from None
    shown = Table(title=f"study 004 model, {k}×{k} unidirectional torus (µs; t_process in {t_process_unit})")
    for column in ("algorithm", "r", "G", "M (B)", "h_i", "Eq. 7/8", "deepest path"):
        shown.add_column(column, justify="left" if column == "algorithm" else "right")
    for row in frame.to_dict("records"):
        shown.add_row(
            row["algorithm"],
            "" if row["r"] is None or math.isnan(row["r"]) else f"{int(row['r'])}",
            f"{row['group']}",
            f"{row['message_bytes']}",
            f"{row['h_i']}",
            f"{row['latency_us']:,.1f}",
            f"{row['latency_deepest_path_us']:,.1f}",
        )
    console().print(shown)
    typer.echo(_readings_note(t_process_unit, h_i))
    if out is not None:
        from flitcast.plot import model_plot
        from flitcast.sweeps.outdir import write_all_or_nothing

        def write(staging: Path) -> None:
            frame.to_csv(staging / "model.csv", index=False)
            model_plot(frame, staging / "model.png")

        write_all_or_nothing(out, write)
        typer.echo(f"wrote model.csv and model.png to {out}")


def _readings_note(unit: str, h_i: str) -> str:
    """What the numbers above follow: the readings of study 004 a reader would not guess
    (docs/models/torus_multicast.md, "The analytic model")."""
    from flitcast import analytic

    table = ", ".join(f"{a} {t:g}" for a, t in analytic.T_PROCESS.items())
    relays = "the study's Eqs 9-12 as read there" if h_i == "closed" else "the plans the simulator runs"
    return "\n".join(
        [
            "Study 004's model as docs/models/torus_multicast.md reads it:",
            f"- Table 1's t_process ({table}):",
            f"  its unit lost in the source, read in {unit}. Each relay costs o + t_process + o,",
            "  so in µs an algorithm that relays is far slower than separate addressing.",
            f"- relays on the deepest path (h_i) by {relays}: Md-torus",
            "  relays nothing while the group fits the root's ringlet (G <= k + 1).",
            "--t-process-unit and --h-i give the other readings.",
        ]
    )
