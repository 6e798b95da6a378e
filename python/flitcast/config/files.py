"""Reading a scenario file: a regular UTF-8 TOML file of bounded size, every failure a ConfigError
naming the file (docs/config.md)."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from flitcast.errors import ConfigError

#: largest scenario file read: a scenario is a few hundred bytes; the limit keeps a wrong path (a log,
#: an image) from being read whole
MAX_SCENARIO_BYTES = 1 << 20


def read_scenario_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Parse a scenario TOML file into (scenario table, ``[sweep]`` table or None). Does not validate, but
    makes a relative path in a key of unit ``path`` (``network.file``) relative to the file's folder.

    Only a regular file of at most :data:`MAX_SCENARIO_BYTES` bytes is read (not a directory, a device
    such as ``/dev/zero``, or a FIFO); every failure is a :class:`ConfigError` naming the file.
    """
    path = Path(path)
    text = _read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _file_error(path, "a valid TOML file", f"is not valid TOML: {exc}") from None
    except RecursionError:
        raise _file_error(path, "a valid TOML file", "nests arrays or tables too deeply") from None
    except MemoryError:
        raise _file_error(path, "a valid TOML file", "is too large to parse") from None
    sweep = data.pop("sweep", None)
    if sweep is not None and not isinstance(sweep, dict):
        raise ConfigError("sweep", sweep, "a table of dotted keys and the lists of values they take")
    return _paths_from(path, data), sweep


def _paths_from(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with every relative path a key of unit ``path`` holds (``network.file``) made absolute from
    the folder of the scenario file `path`, so that the scenario reads the same from any working
    directory and from the run directory a sweep writes it into. Which keys hold paths is the core's to
    say (its catalogue); what the path must name, too."""
    from flitcast import catalogue

    keys = {(section, key["key"]) for section, _, keys in catalogue.sections() for key in keys if key["unit"] == "path"}
    folder = Path(os.path.abspath(path)).parent
    for section, table in data.items():
        if not isinstance(table, dict):
            continue
        for name, value in table.items():
            if (section, name) in keys and isinstance(value, str) and value and not os.path.isabs(value):
                table[name] = os.path.normpath(folder / value)
    return data


def _file_error(path: Path, allowed: str, problem: str) -> ConfigError:
    return ConfigError(
        "scenario file", str(path), allowed, message=f"the scenario file {str(path)!r} {problem}; allowed: {allowed}"
    )


def _file_problem(info: os.stat_result) -> str | None:
    """Why a file with this ``fstat`` must not be read, or None."""
    if stat.S_ISDIR(info.st_mode):
        return "is a directory"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"  # a device (/dev/zero never ends), a FIFO, a socket
    if info.st_size > MAX_SCENARIO_BYTES:
        return f"has {info.st_size} bytes, more than {MAX_SCENARIO_BYTES}"
    return None


def _read_text(path: Path) -> str:
    allowed = f"a readable TOML file of at most {MAX_SCENARIO_BYTES} bytes"

    def unreadable(exc: OSError) -> ConfigError:
        return ConfigError(
            "scenario file", str(path), allowed,
            message=f"cannot read the scenario file {str(path)!r}: {exc.strerror or exc}; allowed: {allowed}",
        )

    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before we can see that it is one
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise unreadable(exc) from None
    except ValueError:  # a NUL character in the path
        raise _file_error(path, allowed, "is not a valid path") from None
    try:
        problem = _file_problem(os.fstat(fd))
    except OSError as exc:
        os.close(fd)
        raise unreadable(exc) from None
    if problem is not None:
        os.close(fd)
        raise _file_error(path, allowed, problem)
    try:
        with open(fd, "rb") as fh:
            raw = fh.read(MAX_SCENARIO_BYTES + 1)  # the file may have grown since fstat
    except OSError as exc:
        raise unreadable(exc) from None
    if len(raw) > MAX_SCENARIO_BYTES:
        raise _file_error(path, allowed, f"has more than {MAX_SCENARIO_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _file_error(path, "a valid TOML file (UTF-8 text)", f"is not UTF-8 text (byte {exc.start})") from None
