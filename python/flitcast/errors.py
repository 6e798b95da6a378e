"""The flitcast error hierarchy.

Every failure a user can cause or meet is a :class:`FlitcastError`; the CLI turns one into a one-line
message and exit code 2 (1 for :class:`SweepIncomplete`, 130 for :class:`SweepInterrupted`), the Python
API lets it propagate. A sweep point that fails is not raised: it is a row with an ``error``.

```
FlitcastError
├── ConfigError            bad scenario: names the key path, the value and what is allowed
│   ├── RoutingError       the routing check failed at build time (e.g. cyclic channel dependencies)
│   ├── CorruptStore       an output directory's point store cannot be read (truncated, overwritten)
│   └── StoreInUse         an output directory's point store is held by another running sweep
├── SimulationError        the run itself went wrong
│   ├── DeadlockError      the watchdog fired: carries the cycle and the blocked channels/packets
│   ├── ConservationError  flits were created or lost
│   ├── Interrupted        the run was asked to stop (Ctrl-C) before it finished
│   │   └── SweepInterrupted   a sweep was: how many finished points are kept, and where
│   └── SweepIncomplete    some sweep points produced no outcome (e.g. a Dask task lost with its workers)
└── InternalError          a bug in the core (a Rust panic, or an outcome the front cannot read)

ConfigWarning (a UserWarning)  a setting that has no effect in its scenario; names key, value, allowed
```

The core reports errors as data (``{"kind", "message", "key", "value", "allowed", "cycle", "blocked"}``);
:func:`from_core` maps such a dict onto this hierarchy.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "ConfigError",
    "ConfigWarning",
    "ConservationError",
    "CorruptStore",
    "DeadlockError",
    "FlitcastError",
    "InternalError",
    "Interrupted",
    "RoutingError",
    "SimulationError",
    "StoreInUse",
    "SweepIncomplete",
    "SweepInterrupted",
    "from_core",
    "show_value",
]


class FlitcastError(Exception):
    """Base class of every error flitcast raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # subclasses take other constructor arguments; rebuild from state so errors survive pickling
        # (process pools and Dask send them between processes)
        return (_restore, (type(self), self.args, self.__dict__))

    def add_context(self, context: str) -> None:
        """Prefix the message with where the error happened (e.g. which sweep point)."""
        self.message = f"{context}: {self.message}"
        self.args = (self.message,)


class Shown(str):
    """A value already rendered as text (e.g. by the core): shown as is, not quoted again."""


def _restore(cls: type[FlitcastError], args: tuple[Any, ...], state: dict[str, Any]) -> FlitcastError:
    exc = cls.__new__(cls)
    Exception.__init__(exc, *args)
    exc.__dict__.update(state)
    return exc


def show_value(value: Any) -> str:
    """Render a user-supplied value for an error message (``repr``, but TOML spelling for booleans).

    Long, huge, deeply nested or self-containing values are abbreviated (``reprlib``), never expanded.
    """
    if isinstance(value, Shown):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "(not set)"
    text = _SHORT.repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def show_key(key: str) -> str:
    """A user-supplied key for an error message: control characters escaped, so it stays on one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(key))


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 4
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 80
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 16


class ConfigError(FlitcastError):
    """A scenario value is not allowed.

    ``key`` is the dotted path (``"workload.load"``), ``value`` the offending input as text and
    ``allowed`` what would have been accepted; ``reason`` optionally says what went wrong. ``message``
    replaces the generated message where another wording reads better (it must still name all three).
    """

    #: every problem the core found, as data ({key, value, allowed, reason, message}), when it checked a
    #: scenario; the error's own key, value and message are the first's
    problems: list[dict[str, Any]]

    def __init__(
        self, key: str, value: Any, allowed: str, reason: str | None = None, message: str | None = None
    ) -> None:
        self.key = key
        self.value = show_value(value)
        self.allowed = allowed
        self.reason = reason
        self.problems = []
        if message is None:
            message = f"{show_key(key)} = {self.value} is not allowed"
            if reason:
                message += f" ({reason.rstrip('.')})"
            message += f"; allowed: {allowed}"
        super().__init__(message)


class ConfigWarning(UserWarning):
    """A setting that has no effect in its scenario, e.g. ``routing.torus_ties`` on a mesh (docs/config.md
    lists when each such key takes effect). It is a warning, not an error, where a sweep over another key
    legitimately carries the setting into points that ignore it.

    ``key``, ``value`` and ``allowed`` (when the key takes effect) as in :class:`ConfigError`; ``message``
    is the core's.
    """

    def __init__(self, key: str, value: Any, allowed: str, message: str | None = None) -> None:
        self.key = key
        self.value = show_value(value)
        self.allowed = allowed
        self.message = message or f"{show_key(key)} = {self.value} has no effect here; it matters {allowed}"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class RoutingError(ConfigError):
    """The routing check failed while building the network (e.g. cyclic channel dependencies)."""


class CorruptStore(ConfigError):
    """An output directory's point store (``points.sqlite``) cannot be read as one: truncated, overwritten,
    or a record changed by hand. ``path`` is the store file; ``option`` names the directory's setting
    (``--out`` on the command line, ``store`` in Python), whose force option would discard the store."""

    def __init__(self, path: str, reason: str, option: str = "store") -> None:
        discard = "--force" if option.startswith("--") else "force=True"
        directory = str(Path(path).parent)
        super().__init__(
            option,
            directory,
            f"a readable store, or {discard} to discard it",
            reason=reason,
            message=f"{show_key(option)} = {show_value(directory)} holds a corrupt store: {path} cannot be read "
            f"({reason.rstrip('.')}); {discard} discards it and recomputes every point",
        )
        self.path = path

    def named(self, option: str) -> CorruptStore:
        """The same error, for the setting ``option`` (e.g. ``--out`` where the CLI gave the directory)."""
        return CorruptStore(self.path, self.reason or "", option)


class StoreInUse(ConfigError):
    """An output directory's point store is held by another running sweep or reproduction (its lock,
    ``points.sqlite.lock``: sweeps/store.py), so this one may neither resume it nor, with force, discard
    it. ``directory`` is the directory, ``option`` its setting (``--out`` on the command line, ``store``
    or ``out`` in Python), ``pid`` the holder's process id (None where it is not known)."""

    def __init__(self, directory: str, option: str = "store", pid: int | None = None) -> None:
        force = "--force" if option.startswith("--") else "force=True"
        holder = f" (pid {pid})" if pid is not None else ""
        super().__init__(
            option,
            directory,
            "a directory no other running sweep uses",
            reason=f"it is in use by another running sweep{holder}",
            message=f"{show_key(option)} = {show_value(directory)} is in use by another running sweep{holder}; "
            f"wait for it to end or choose another directory ({force} does not discard a store in use)",
        )
        self.pid = pid


class SimulationError(FlitcastError):
    """The simulation started but could not finish correctly."""


class DeadlockError(SimulationError):
    """The deadlock watchdog fired: flits in the network and none moved for ``run.watchdog_cycles``."""

    def __init__(self, message: str, cycle: int | None, blocked: list[str]) -> None:
        super().__init__(message)
        self.cycle = cycle
        self.blocked = blocked


class ConservationError(SimulationError):
    """Flits injected != flits delivered + flits in flight: the engine lost or created traffic."""


class Interrupted(SimulationError):
    """The run was asked to stop (Ctrl-C, or a sweep being cancelled) before it finished; ``cycle`` is
    the simulated cycle it had reached."""

    def __init__(self, message: str, cycle: int | None = None) -> None:
        super().__init__(message)
        self.cycle = cycle


def _kept(kept: int, total: int, store: str | None) -> str:
    if store is None:
        return f"{kept} of {total} points had finished; nothing was kept (give the sweep an output directory)"
    return f"{kept} of {total} points are kept in {store}; run the same sweep again to resume"


class SweepInterrupted(Interrupted):
    """A sweep was interrupted (Ctrl-C) and cleaned up: running points stopped, pending ones cancelled.
    ``kept`` of ``total`` points are recorded in the store file ``store`` (None: the sweep had no store,
    ``kept`` then counts the points that had finished)."""

    def __init__(self, kept: int, total: int, store: str | None) -> None:
        super().__init__(f"interrupted: {_kept(kept, total, store)}")
        self.kept = kept
        self.total = total
        self.store = store


class SweepIncomplete(SimulationError):
    """Some sweep points produced no outcome at all (not a failure of the point: e.g. its Dask task was
    lost with the workers that ran it). ``unfinished`` lists ``(point index, reason)``; the others are
    counted and stored as in :class:`SweepInterrupted`."""

    def __init__(self, unfinished: list[tuple[int, str]], kept: int, total: int, store: str | None) -> None:
        index, reason = unfinished[0]
        more = f" (and {len(unfinished) - 1} more)" if len(unfinished) > 1 else ""
        super().__init__(
            f"{len(unfinished)} of {total} points did not finish: point {index}{more}: {reason}; "
            + _kept(kept, total, store)
        )
        self.unfinished = unfinished
        self.kept = kept
        self.total = total
        self.store = store


class InternalError(FlitcastError):
    """A bug in flitcast itself (a Rust panic, or a core answer the Python side cannot read)."""


#: blocked virtual channels named in a deadlock message
DEADLOCK_SHOWN = 3


def _text(value: Any, fallback: str) -> Shown:
    return Shown(fallback if value is None else value)


def from_core(error: Any, scenario: Mapping[str, Any] | None = None) -> FlitcastError:
    """Convert the core's error dict into the matching exception (not raised, returned).

    ``scenario`` is the core scenario dict the error came from; it fills in the value of a routing
    error when the core leaves it out.
    """
    if not isinstance(error, Mapping):
        return InternalError(f"the core returned an unreadable error: {error!r}")
    kind = error.get("kind")
    message: str = str(_text(error.get("message"), f"{kind} error"))
    if kind == "config":
        key = _text(error.get("key"), "scenario")
        value = _text(error.get("value"), "?")
        allowed = _text(error.get("allowed"), "see docs/config.md")
        # the core's message already reads "KEY = VALUE is not allowed: expected ALLOWED"
        if not all(part in message for part in (key, value, allowed)):
            message = f"{key} = {value} is not allowed ({message}); allowed: {allowed}"
        return ConfigError(key, value, allowed, message=message)
    if kind == "routing":
        algorithm = None
        if scenario is not None:
            algorithm = scenario.get("routing", {}).get("algorithm")
        return RoutingError(
            _text(error.get("key"), "routing.algorithm"),
            _text(error.get("value"), show_value(algorithm)),
            # (the check fails for several reasons — a destination unreachable, a path that loops, a
            # cycle of channel dependencies, a network the routing cannot level: the reason says which)
            _text(error.get("allowed"), "a routing the route check accepts on this network (see the reason)"),
            reason=message,
        )
    if kind == "deadlock":
        cycle = error.get("cycle")
        blocked = [str(b) for b in error.get("blocked") or []]
        # the core lists every blocked VC; keep the message to a few (all of them are in .blocked)
        head, sep, _ = message.partition("; blocked: ")
        if sep and len(blocked) > DEADLOCK_SHOWN:
            shown = "; ".join(blocked[:DEADLOCK_SHOWN])
            message = f"{head}; {len(blocked)} blocked virtual channels, e.g. {shown}; ..."
        return DeadlockError(message, cycle if isinstance(cycle, int) else None, blocked)
    if kind == "conservation":
        return ConservationError(message)
    if kind == "interrupted":
        cycle = error.get("cycle")
        return Interrupted(message, cycle if isinstance(cycle, int) else None)
    if kind == "internal":
        return InternalError(f"internal error in the flitcast core (please report): {message}")
    return InternalError(f"the core returned an error of unknown kind {kind!r}: {message}")
