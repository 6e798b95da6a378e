"""Progress for output that is not a terminal (nohup, a batch job, CI): a plain line on stderr at a
steady interval — done of total, elapsed, the time left, what is running — where a terminal shows a bar."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

#: seconds between two lines
EVERY_SECONDS = 30.0
#: counts reported less than this apart at the start are one burst (a resumed run's stored points, one by
#: one): the time left is read from the pace after it (within the first BURST_WINDOW seconds)
BURST_SECONDS, BURST_WINDOW = 0.5, 5.0


def clock(seconds: float) -> str:
    """``h:mm:ss``."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class PlainProgress:
    """Prints ``progress: 12 of 336 points (4%), 0:04:10 elapsed, about 1:50:00 left, <what>`` every
    ``every`` seconds from a thread of its own (a point may take longer than the interval), and a last line
    when work that printed any ends (work shorter than the interval prints nothing). ``update`` may be
    called from any thread."""

    def __init__(self, total: int, unit: str, what: str, every: float | None = None, stream: TextIO | None = None) -> None:
        self.total, self.unit, self.what = total, unit, what
        self.every = EVERY_SECONDS if every is None else every
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        #: the count at the end of the first burst of reports, and when: the time left is read from the pace
        #: since (a resumed run reports its stored points at once, which took no time now)
        self.base: tuple[int, float] | None = None
        self.printed = 0
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="flitcast-progress", daemon=True)

    def __enter__(self) -> PlainProgress:
        self._thread.start()
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        if kind is None and self.printed:
            self._print("done:")

    def update(self, done: int, total: int | None = None, what: str | None = None) -> None:
        """``done`` of ``total`` (which may grow) are done; ``what`` runs now."""
        now = time.monotonic()
        with self._lock:
            burst = self.base is not None and now - self.base[1] < BURST_SECONDS and now - self.start < BURST_WINDOW
            if done > 0 and (self.base is None or burst):
                self.base = (done, now)
            self.done = done
            self.total = max(self.total, total or 0)
            self.what = what or self.what

    def line(self, head: str = "progress:") -> str:
        """The line as it stands."""
        with self._lock:
            done, total, what, base = self.done, self.total, self.what, self.base
        now = time.monotonic()
        elapsed = now - self.start
        share = f" ({100 * done / total:.0f}%)" if total else ""
        if base is not None and base[0] < done < total:
            left = f"about {clock((now - base[1]) / (done - base[0]) * (total - done))} left"
        elif done < total:
            left = "time left not known yet"
        else:
            left = "nothing left"
        return f"{head} {done:,} of {total:,} {self.unit}{share}, {clock(elapsed)} elapsed, {left}, {what}"

    def _print(self, head: str) -> None:
        print(self.line(head), file=self.stream, flush=True)
        self.printed += 1

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            self._print("progress:")
