"""The lock of a directory's point store (``sweeps/store.py``): one process at a time uses it.

:func:`hold_store` takes an exclusive ``fcntl.flock`` on ``DIR/points.sqlite.lock`` for as long as a run
uses the directory (checking it, discarding and creating its store, recording points); another process
that finds it held is refused with :class:`flitcast.errors.StoreInUse`, naming the holder's pid, which the
holder writes into the file.
The kernel drops the lock when the holder's descriptor closes, however the process ends (kill -9
included; a child forked without exec while it held the lock shares it until that child ends too): a
lock file left behind locks nothing. Why this file and not another:

- not ``points.sqlite`` itself: SQLite takes its own (POSIX) locks on it, which an NFS client emulates
  ``flock`` with, so the two would collide; and ``--force`` deletes and recreates it, so a lock on it
  would be on the file being replaced;
- not the directory's descriptor (which would leave no file at all): an exclusive lock on NFS needs a
  descriptor open for writing, which a directory cannot have, and the store is meant to work there;
- the holder removes the file when it lets go (before closing it), so a directory at rest holds what it
  did before. A process that opened the file just before it was removed may then lock the removed file:
  it checks that the path still names the file it locked, and tries again if not.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from flitcast.errors import StoreInUse
from flitcast.sweeps.store import STORE_FILE

__all__ = ["LOCK_FILE", "check_store_free", "hold_store"]

#: the lock of a directory's store, there only while a run holds it (or after a kill -9, locking nothing)
LOCK_FILE = f"{STORE_FILE}.lock"


@dataclass
class _Held:
    fd: int
    thread: int  # the thread that took it: only that thread may take it again (a sweep inside a command's)
    depth: int


#: the store locks this process holds, by the lock file's (device, inode)
_HELD: dict[tuple[int, int], _Held] = {}
_GUARD = threading.Lock()

#: a file system without locks (NFS without its lock daemon): the run goes on unlocked, as before locks
_NO_LOCKS = (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS)


@contextmanager
def hold_store(directory: Path, option: str = "store") -> Iterator[None]:
    """Hold the lock of ``directory``'s store for the block (the directory must exist). Another process,
    or another thread of this one, that holds it is a :class:`StoreInUse` naming ``option``; the thread
    that holds it may take it again (a sweep inside a command that holds its directory). Released, and
    its file removed, when the outermost block ends; the kernel releases it if the process dies first."""
    key = _acquire(directory, option)
    try:
        yield
    finally:
        _release(directory, key)


def check_store_free(directory: Path, option: str = "store") -> None:
    """A :class:`StoreInUse` if another process (or another thread of this one) holds the lock of
    ``directory``'s store; creates nothing, and holds nothing after it returns."""
    try:
        fd = os.open(directory / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return  # no lock file: no run holds the store (one that starts now checks again under its lock)
    try:
        with _GUARD:
            held = _HELD.get(_identity(os.fstat(fd)))
            if held is not None:
                if held.thread != threading.get_ident():
                    raise StoreInUse(str(directory), option, os.getpid())
                return
        try:
            # shared: the probe needs no descriptor open for writing, and conflicts only with a holder
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreInUse(str(directory), option, _holder(fd)) from None
        except OSError as exc:
            if exc.errno not in _NO_LOCKS:
                raise
    finally:
        os.close(fd)


def _acquire(directory: Path, option: str) -> tuple[int, int]:
    path = directory / LOCK_FILE
    with _GUARD:
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                stat = os.fstat(fd)
                key = _identity(stat)
                held = _HELD.get(key)
                if held is not None:
                    if held.thread != threading.get_ident():
                        raise StoreInUse(str(directory), option, os.getpid())
                    held.depth += 1
                    return key
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise StoreInUse(str(directory), option, _holder(fd)) from None
                except OSError as exc:
                    if exc.errno not in _NO_LOCKS:
                        raise
                if not _names(path, stat):
                    continue  # locked a file its holder removed as it let go: lock the one there now
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                _HELD[key] = _Held(fd, threading.get_ident(), 1)
                fd = -1  # kept open: closing it would release the lock
                return key
            finally:
                if fd >= 0:
                    os.close(fd)


def _release(directory: Path, key: tuple[int, int]) -> None:
    with _GUARD:
        held = _HELD[key]
        held.depth -= 1
        if held.depth:
            return
        del _HELD[key]
        try:
            # removed while still locked: whoever opened it meanwhile finds it gone once it gets the lock
            if _names(directory / LOCK_FILE, os.fstat(held.fd)):
                os.unlink(directory / LOCK_FILE)
        except OSError:
            pass  # (the directory went away, say: nothing is left to lock)
        finally:
            os.close(held.fd)


def _identity(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_dev, stat.st_ino


def _names(path: Path, stat: os.stat_result) -> bool:
    """Whether ``path`` still names the file ``stat`` describes."""
    try:
        return _identity(os.stat(path)) == _identity(stat)
    except FileNotFoundError:
        return False


def _holder(fd: int) -> int | None:
    """The pid the holder of a lock file wrote into it (None if it has not yet, or it is not one)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None
