"""The point store: every finished sweep point, kept in ``DIR/points.sqlite`` as soon as it finishes.

A sweep or reproduction with an output directory records each point's outcome here, so that running
the same command again after Ctrl-C, a crash or a lost worker runs only the points that are missing
(docs/sweeps.md, docs/results.md).

```
points(key TEXT PRIMARY KEY,      sha256 of the minimal scenario + the store format + the flitcast version
       status TEXT,               'ok' or 'failed' (a deterministic error of the core)
       outcome TEXT,              the core's outcome JSON, exactly as returned (result or error, wall_seconds)
       point_index INTEGER,       the point's position in the run that recorded it
       recorded_at TEXT)          UTC, ISO 8601
meta(name TEXT PRIMARY KEY, value TEXT)   run_id: hash of the run's ordered point keys; format: STORE_FORMAT
```

Journal: SQLite's default rollback journal with ``synchronous = FULL``. Each commit is durable once it
returns, so a crash or a kill loses at most the points not yet committed, never the file. WAL would only
help concurrent readers, and the store has one writer (the process driving the sweep) and no readers
while it runs; the rollback journal also leaves a single file at rest and works on network file systems,
where WAL's shared memory does not. Points finishing together are committed in one transaction.

One process at a time uses a directory's store: ``sweeps/store_lock.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flitcast.errors import CorruptStore

__all__ = ["STORE_FILE", "STORE_FORMAT", "PointStore", "point_key", "run_id"]

STORE_FILE = "points.sqlite"

#: the store's format: the key of a point hashes its minimal scenario (the keys that differ from their
#: defaults, as the core writes it), so a key added with a default that keeps the old behaviour keeps
#: every recorded point's key. 2: scenario keys per kind (flitcast 0.2); a store of another format is
#: refused, never mixed (its keys are of other scenarios).
STORE_FORMAT = "2"

#: keys that cannot change a point's result, left out of its key
# memory_limit_mb only decides whether a point may run; threads only how fast (results are the same)
NOT_IN_KEY = {("run", "memory_limit_mb"), ("run", "threads")}

SCHEMA = """
CREATE TABLE IF NOT EXISTS points (
    key TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    outcome TEXT NOT NULL,
    point_index INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
"""


def _version() -> str:
    # the core's version is the flitcast version (tests/test_api.py checks they are equal); asking the
    # core keeps the key right in a source tree where the package metadata is missing
    from flitcast import _core

    return str(_core.version())


def point_key(minimal: Mapping[str, Any]) -> str:
    """The store key of a point: sha256 of its minimal scenario (``Scenario.minimal()``: canonical JSON),
    the store's format and the flitcast version."""
    scenario = {}
    for name, table in minimal.items():
        kept = {k: v for k, v in table.items() if (name, k) not in NOT_IN_KEY}
        if kept:
            scenario[name] = kept
    canonical = json.dumps(scenario, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"flitcast {_version()} store {STORE_FORMAT}\n{canonical}".encode()).hexdigest()


def run_id(keys: Sequence[str]) -> str:
    """The identity of a run: sha256 of its ordered point keys."""
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()


class PointStore:
    """The store file of one output directory. Only the thread that opened it may use it."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def open(cls, directory: Path, run: str) -> PointStore:
        """Open (or create) ``directory/points.sqlite`` for the run ``run``; the directory must exist."""
        path = directory / STORE_FILE
        db = sqlite3.connect(path, isolation_level=None)  # explicit transactions below
        try:
            db.execute("PRAGMA synchronous = FULL")
            db.executescript(SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta (name, value) VALUES ('run_id', ?)", (run,))
            db.execute("INSERT OR IGNORE INTO meta (name, value) VALUES ('format', ?)", (STORE_FORMAT,))
        except BaseException as exc:
            db.close()
            if isinstance(exc, sqlite3.Error) and _corrupt(exc):
                raise CorruptStore(str(path), str(exc)) from None
            raise
        return cls(path, db)

    @staticmethod
    def meta_in(directory: Path) -> dict[str, str] | None:
        """The ``meta`` table of ``directory``'s store (``run_id``; ``format``, "1" for a store written
        before formats were recorded), or None if there is no store file. A store file that cannot be
        read as one (truncated, overwritten, not a regular file) is a :class:`CorruptStore`."""
        path = directory / STORE_FILE
        if not os.path.lexists(path):
            return None
        if not path.is_file():
            raise CorruptStore(str(path), "it is not a regular file")
        try:
            # read-write: a journal left by a crash is rolled back, as the next writer would
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
            try:
                meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
                db.execute("SELECT key, status, outcome, point_index, recorded_at FROM points LIMIT 1").fetchall()
            finally:
                db.close()
        except sqlite3.Error as exc:
            if _corrupt(exc):
                raise CorruptStore(str(path), str(exc)) from None
            raise
        if "run_id" not in meta:
            raise CorruptStore(str(path), "it records no run identity")
        return {"format": "1", **meta}

    @staticmethod
    def count_in(directory: Path) -> int | None:
        """Points recorded in ``directory``'s store; None if it has none that can be read."""
        path = directory / STORE_FILE
        if not path.is_file():
            return None
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
            try:
                return int(db.execute("SELECT count(*) FROM points").fetchone()[0])
            finally:
                db.close()
        except sqlite3.Error:
            return None

    @staticmethod
    def discard(directory: Path) -> None:
        """Delete ``directory``'s store (and a journal a crash may have left beside it)."""
        for name in (STORE_FILE, f"{STORE_FILE}-journal", f"{STORE_FILE}-wal", f"{STORE_FILE}-shm"):
            (directory / name).unlink(missing_ok=True)

    def outcomes(self, keys: Iterable[str]) -> dict[str, str]:
        """The recorded outcome JSON of each of ``keys`` that is in the store. A file that cannot be read,
        or a record of these keys that is not an outcome as recorded, is a :class:`CorruptStore`."""
        return _outcomes(self._db, self.path, keys)

    @staticmethod
    def outcomes_in(directory: Path, keys: Iterable[str]) -> dict[str, str]:
        """:meth:`outcomes` of ``directory``'s store, read without writing to it (another run's: a sweep
        that reuses its points); {} if it has no store."""
        path = directory / STORE_FILE
        if not path.is_file():
            return {}
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise CorruptStore(str(path), str(exc)) from None
        try:
            return _outcomes(db, path, keys)
        finally:
            db.close()

    def record(self, points: Iterable[tuple[str, int, bool, str]]) -> None:
        """Record finished points, ``(key, index, ok, outcome JSON)``, in one transaction; a key that is
        already recorded keeps its first record."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        rows = [(key, "ok" if ok else "failed", outcome, index, now) for key, index, ok, outcome in points]
        if not rows:
            return
        self._db.execute("BEGIN")
        try:
            self._db.executemany(
                "INSERT OR IGNORE INTO points (key, status, outcome, point_index, recorded_at) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def count(self) -> int:
        """Points recorded."""
        return int(self._db.execute("SELECT count(*) FROM points").fetchone()[0])

    def close(self) -> None:
        self._db.close()


def _outcomes(db: sqlite3.Connection, path: Path, keys: Iterable[str]) -> dict[str, str]:
    wanted = set(keys)
    try:
        rows = db.execute("SELECT key, status, outcome, point_index FROM points").fetchall()
    except sqlite3.Error as exc:
        if _corrupt(exc):
            raise CorruptStore(str(path), str(exc)) from None
        raise
    found = {}
    for key, status, outcome, index in rows:
        if key in wanted:
            if not _recorded_outcome(status, outcome):
                reason = f"the record of point {index} is not an outcome flitcast recorded"
                raise CorruptStore(str(path), reason)
            found[key] = outcome
    return found


def _corrupt(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error says the file is not a sound store (not, e.g., that it is locked)."""
    return not isinstance(exc, sqlite3.OperationalError) or "no such table" in str(exc)


def _recorded_outcome(status: Any, outcome: Any) -> bool:
    """Whether a row holds what :meth:`PointStore.record` writes: a core outcome, ``ok`` or ``error``,
    matching its status."""
    try:
        data = json.loads(outcome)
    except (TypeError, ValueError):
        return False
    if not isinstance(data, dict):
        return False
    if isinstance(data.get("ok"), dict):
        return bool(status == "ok")
    return isinstance(data.get("error"), dict) and status == "failed"
