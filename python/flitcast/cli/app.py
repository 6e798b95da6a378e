"""The ``flitcast`` command line's application: the command group, how errors and warnings are reported,
and the exit codes. One module per command registers itself on :data:`app` (``run.py``, ``sweep.py``,
``reproduce.py``, ``readings.py``, ``listing.py``, ``bench.py``, ``model.py``); the commands share
``options.py`` and ``feedback.py``.

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

import functools
import math
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup

from flitcast.errors import ConfigWarning, FlitcastError, SweepIncomplete, SweepInterrupted, show_value


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
                if not (sys.argv[1:] if args is None else args):  # bare `flitcast`: the help, as a usage error
                    typer.echo(self.get_help(typer.Context(self, info_name=prog_name or self.name)), err=True)
                    code = EXIT_BAD_INPUT
                else:
                    # not standalone: click raises its usage errors here instead of printing them itself
                    code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            except typer.TyperException as exc:  # (click's usage errors, as typer bundles click)
                typer.echo(f"error: {_usage_message(exc)}", err=True)
                code = exc.exit_code
            except typer.Abort:
                typer.echo("error: aborted", err=True)
                code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def _usage_message(exc: typer.TyperException) -> str:
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
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


F = TypeVar("F", bound=Callable[..., Any])


#: exit codes (the module docstring and the README say what each means)
EXIT_POINTS_FAILED = 1


EXIT_BAD_INPUT = 2


EXIT_INTERRUPTED = 130


EXIT_CODES_HELP = (
    "Exit codes: 0 every point ran; 1 some points failed (their rows in results.csv have an error) or "
    "did not finish; 2 bad input, nothing simulated; 130 interrupted (Ctrl-C)."
)


def kept_text(kept: int, total: int, store: str | None) -> str:
    if store is None:
        return f"nothing was kept ({kept} of {total} points had finished); use --out DIR to keep finished points"
    return f"{kept} of {total} points are kept in {store}; run the same command again to resume"


def guard(command: F) -> F:
    """Report a FlitcastError as one line on stderr (never a traceback): exit code 2 for bad input, 1 for
    points that did not finish; Ctrl-C as one line with exit code 130."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except SweepInterrupted as exc:
            typer.echo(f"interrupted: {kept_text(exc.kept, exc.total, exc.store)}", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except SweepIncomplete as exc:
            index, reason = exc.unfinished[0]
            more = f" and {len(exc.unfinished) - 1} more" if len(exc.unfinished) > 1 else ""
            typer.echo(
                f"error: {len(exc.unfinished)} of {exc.total} points did not finish (point {index}{more}: "
                f"{reason}); {kept_text(exc.kept, exc.total, exc.store)}",
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


def console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr)


def fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "-" if math.isnan(value) else str(value)
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    if value is None:
        return "-"
    if isinstance(value, int):  # one number format: thousands separated, as the floats
        return f"{value:,}"
    return str(value)


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


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``flitcast`` script and ``python -m flitcast``."""
    try:
        app(args=list(argv) if argv is not None else None, prog_name="flitcast")
    except KeyboardInterrupt:  # before a command started (commands report it themselves)
        typer.echo("interrupted", err=True)
        sys.exit(130)
    finally:
        if argv is None:  # the process ends now (a caller passing argv may go on)
            _end_of_process()


#: the name of the thread that imports what a command needs later while the core simulates (feedback.py)
IMPORTER = "flitcast-imports"


def _end_of_process() -> None:
    """Let background imports finish — a daemon thread still importing while the interpreter tears down can
    crash it (a segmentation fault after a config error that ends the command at once, about 1 run in 30)
    — and spare the teardown its garbage collections over every object the imports made (pydantic's
    schemas, typer, rich): a third of a second's run spent 25-40 ms there. Frozen objects are still
    released as the modules are cleared; only reference cycles among them are left to the end of the
    process, and the commands close their files and clusters themselves (docs/engine.md, "A single run,
    end to end")."""
    import gc
    import threading

    for thread in threading.enumerate():
        if thread.name == IMPORTER:
            thread.join()
    gc.freeze()
