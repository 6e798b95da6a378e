"""Running sweep points on a Dask distributed cluster (``--scheduler``, ``sweep(client=...)``).

Dask is imported only here, inside the functions, so ``import flitcast`` never loads it.

Batching rule (docs/sweeps.md): a Dask task costs a few milliseconds of scheduling, so points are sent in
tasks of several consecutive points. A point's cost is estimated as
``nodes x (warmup_cycles + measure_cycles)`` node-cycles at :data:`NODE_CYCLES_PER_SECOND`; a task takes
points until its estimate reaches :data:`TASK_SECONDS`, but never more than
``points / (TASKS_PER_WORKER x worker threads)``, so that every worker gets several tasks and the last
ones do not leave the others idle.

Each task runs its points one after the other in the core (GIL released) and returns their outcome JSON;
a point's deterministic failure is part of its outcome, so it never fails the task. On Ctrl-C the sweep
sets a Dask Event that every running task watches; the task then interrupts its points through a
``_core.Control`` within a cycle, so workers are free (and a local cluster closes) at once. A worker that dies
mid-task loses only that task's results, and the scheduler runs the task again elsewhere (Dask's
``distributed.scheduler.allowed-failures``); a task that fails for good (``KilledWorker``) leaves its
points unfinished and unrecorded, to be run again by a re-run.
"""

from __future__ import annotations

import logging
import math
import os
import signal
import threading
import time
import uuid
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import ExitStack, contextmanager
from typing import Any
from urllib.parse import urlsplit

from flitcast.errors import ConfigError, Shown, show_value
from flitcast.sweeps.threads import Finished, Job, max_threads

__all__ = ["batches", "check_scheduler", "dask_client", "is_client", "on_dask", "run_batch"]

#: a rough speed of the core, in node-cycles per second: measured from about 3e6 (an 8x8 mesh near
#: saturation) to 7e7 (light load, with idle skipping); the middle keeps tasks between ~0.2 s and ~10 s
NODE_CYCLES_PER_SECOND = 1e7
#: estimated seconds of simulation a task should hold, to amortise Dask's per-task overhead
TASK_SECONDS = 2.0
#: at least this many tasks per worker thread, when there are enough points
TASKS_PER_WORKER = 4
#: seconds a running task waits for the stop event before checking whether it has finished
STOP_POLL_SECONDS = 0.5
#: how often the sweep looks for finished tasks, and for a Ctrl-C that Python swallowed (below)
DONE_POLL_SECONDS = 0.05
#: transports --scheduler connects over (tls needs Dask's TLS settings)
SCHEMES = ("tcp", "tls")
#: seconds to wait for a scheduler to answer (Dask's own default is 30 s)
CONNECT_SECONDS = 5.0


def batches(jobs: Sequence[Job], node_cycles: Sequence[float], workers: int) -> list[list[Job]]:
    """Consecutive jobs grouped into tasks by the batching rule; ``node_cycles[i]`` is job i's cost estimate."""
    most = max(1, math.ceil(len(jobs) / (TASKS_PER_WORKER * max(workers, 1))))
    tasks: list[list[Job]] = []
    task: list[Job] = []
    seconds = 0.0
    for job, cost in zip(jobs, node_cycles, strict=True):
        task.append(job)
        seconds += cost / NODE_CYCLES_PER_SECOND
        if seconds >= TASK_SECONDS or len(task) >= most:
            tasks.append(task)
            task, seconds = [], 0.0
    if task:
        tasks.append(task)
    return tasks


def run_batch(payloads: list[str], stop: str) -> tuple[str, list[str]]:
    """The task a worker runs: its flitcast version and each point's outcome JSON, in order. Once the Dask
    Event named ``stop`` is set (the sweep was interrupted), the points stop at their next cycle."""
    from distributed import Event, get_client

    from flitcast import _core

    control = _core.Control()
    event = Event(stop, client=get_client())  # made here: a task thread knows its worker's client
    finished = threading.Event()

    def watch() -> None:
        try:
            while not finished.is_set():
                if event.wait(timeout=STOP_POLL_SECONDS):
                    control.interrupt()
                    return
        except Exception:
            return

    threading.Thread(target=watch, name="flitcast-stop", daemon=True).start()
    try:
        return str(_core.version()), [str(_core.run(payload, control)) for payload in payloads]
    finally:
        finished.set()


def is_client(client: Any) -> bool:
    """Whether ``client`` is a ``distributed.Client`` (False if Dask is not installed)."""
    try:
        from distributed import Client
    except ImportError:
        return False
    return isinstance(client, Client)


def on_dask(jobs: Sequence[Job], node_cycles: Sequence[float], client: Any) -> Generator[Finished]:
    """Run the jobs on the cluster behind ``client``, yielding each task's points as the task finishes.
    When the consumer stops early (Ctrl-C), running tasks are told to stop (their points return
    ``interrupted`` and are not recorded) and the others are cancelled."""
    from distributed import Event, as_completed

    from flitcast import _core

    version = str(_core.version())
    workers = sum(client.nthreads().values())
    stop = Event(f"flitcast-stop-{uuid.uuid4().hex}", client=client)
    tasks = {}
    for task in batches(jobs, node_cycles, workers):
        future = client.submit(run_batch, [payload for _, payload in task], stop.name, pure=False)
        tasks[future] = [index for index, _ in task]
    pressed: list[int] = []
    batches_done = _batches_done(as_completed(list(tasks), loop=client.loop), pressed)
    try:
        for done in batches_done:
            finished: Finished = []
            for future in done:
                indexes = tasks.pop(future)
                outcome = _task_outcome(future, version)
                if isinstance(outcome, BaseException):
                    finished.extend((index, outcome) for index in indexes)
                else:
                    finished.extend(zip(indexes, outcome, strict=True))
            yield finished
    except BaseException:
        stop.set()  # running tasks interrupt their points at the next cycle
        client.cancel(list(tasks))
        raise
    finally:
        batches_done.close()  # (gives Ctrl-C back to the handler it had)


def _batches_done(completed: Any, pressed: list[int]) -> Generator[list[Any]]:
    """The futures of ``completed`` (a ``distributed.as_completed``) in batches as they finish, looked for
    every :data:`DONE_POLL_SECONDS`. A Ctrl-C raises KeyboardInterrupt here as usual, and is also noted
    in ``pressed``: one that lands while Dask releases a future (in its ``__del__``) is swallowed by Python
    ("Exception ignored in"), and the note raises it again at the next look."""
    with _ctrl_c_noted(pressed):
        while not completed.is_empty():
            if pressed:
                raise KeyboardInterrupt
            done = completed.next_batch(block=False)
            if done:
                yield done
            else:
                time.sleep(DONE_POLL_SECONDS)


@contextmanager
def _ctrl_c_noted(pressed: list[int]) -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt and is noted in ``pressed`` (in the main thread; elsewhere, and
    when Python does not handle SIGINT, nothing changes)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) in (
        None,
        signal.SIG_IGN,
    ):
        yield
        return

    def note(signum: int, frame: Any) -> None:
        pressed.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _task_outcome(future: Any, version: str) -> list[str] | BaseException:
    if future.status == "finished":
        worker_version, outcomes = future.result()
        if worker_version != version:
            return ConfigError(
                "--scheduler",
                Shown(f"a worker running flitcast {worker_version}"),
                f"workers running flitcast {version}, like this process",
            )
        return list(outcomes)
    if future.status == "error":
        exception = future.exception()
        return exception if exception is not None else RuntimeError("the task failed")
    return CancelledError(f"the task was {future.status}")


def check_scheduler(address: str) -> int | None:
    """Check ``--scheduler ADDRESS`` before anything starts (Dask is not imported): the worker count of
    ``local`` / ``local:N``, or None for the address of a running scheduler (``tcp://HOST:PORT``,
    ``tls://HOST:PORT``, or ``HOST:PORT`` for tcp)."""
    limit = max_threads()
    allowed = _allowed()
    name, colon, count = address.partition(":")
    if name == "local":
        if not colon:
            return os.cpu_count() or 1
        if not count.isdigit() or not 1 <= int(count) <= limit:
            raise ConfigError("--scheduler", address, allowed)
        return int(count)
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address  # Dask's default transport
    if scheme not in SCHEMES:
        raise ConfigError("--scheduler", address, allowed, reason=f"flitcast connects over {' or '.join(SCHEMES)} only")
    parts = urlsplit(f"//{rest}")
    try:
        port = parts.port
    except ValueError:  # not a number, or out of range
        port = 0
    if not parts.hostname:
        reason = "it names no HOST"
    elif parts.path or parts.query or parts.fragment:
        reason = "nothing may follow HOST:PORT"
    elif port is None:
        reason = "it names no :PORT"
    elif not 1 <= port:
        reason = "the PORT must be a number from 1 to 65535"
    else:
        return None
    raise ConfigError("--scheduler", address, allowed, reason=reason)


@contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A ``distributed.Client`` for ``--scheduler ADDRESS`` (:func:`check_scheduler`): ``local[:N]`` starts
    a LocalCluster here with N single-threaded worker processes (default: one per core) and closes it at
    the end; anything else is the address of a running scheduler, which must answer within
    :data:`CONNECT_SECONDS`."""
    workers = check_scheduler(address)
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError(
            "--scheduler", address, "a flitcast installed with Dask (pip install 'flitcast[dask]')"
        ) from None
    if workers is not None:
        with _local_cluster(workers) as client:
            yield client
        return
    _check_tls(address)
    timeout = _connect_seconds()
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        detail = " ".join(str(exc).split())  # one line, whatever Dask wrapped
        raise ConfigError(
            "--scheduler",
            address,
            _allowed(),
            message=f"--scheduler = {show_value(address)}: cannot connect to a Dask scheduler there ({detail}); "
            f"allowed: {_allowed()}",
        ) from None
    with client:
        yield client


def _allowed() -> str:
    return (
        f"local, local:N with N from 1 to {max_threads()}, or the address of a running Dask scheduler, "
        "tcp://HOST:PORT or tls://HOST:PORT"
    )


@contextmanager
def _local_cluster(workers: int) -> Iterator[Any]:
    """A client of a LocalCluster of ``workers`` single-threaded worker processes, closed at the end."""
    from distributed import Client, LocalCluster

    pressed: list[int] = []
    try:
        with ExitStack() as opened:
            with _ctrl_c_held(pressed):
                try:
                    # processes, one thread each: the core releases the GIL, but a process per worker keeps
                    # a crash local
                    cluster = opened.enter_context(
                        LocalCluster(
                            n_workers=workers,
                            threads_per_worker=1,
                            processes=True,
                            dashboard_address=":0",  # any free port: the default may belong to another cluster
                            silence_logs=logging.ERROR,
                            preload=[__name__],  # dask_setup: the workers leave Ctrl-C to this process
                        )
                    )
                    client = opened.enter_context(Client(cluster))
                except Exception:
                    if not pressed:
                        raise
                    # a terminal's Ctrl-C reached the workers too, which failed to start
                    raise KeyboardInterrupt from None
            if pressed:
                raise KeyboardInterrupt  # now that the cluster has started, it closes cleanly
            yield client
    finally:
        if pressed:
            logging.disable(logging.NOTSET)


def _connect_seconds() -> float:
    """How long to wait for a scheduler: :data:`CONNECT_SECONDS`, or Dask's own connect timeout if shorter."""
    import dask
    from dask.utils import parse_timedelta

    configured = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s")
    return float(min(CONNECT_SECONDS, configured or CONNECT_SECONDS))


def _check_tls(address: str) -> None:
    """A tls:// address needs Dask's TLS settings (certificates), which flitcast does not make up."""
    if not address.startswith("tls://"):
        return
    from distributed.security import Security

    if Security().get_connection_args("client").get("ssl_context") is None:
        raise ConfigError(
            "--scheduler",
            address,
            "tcp://HOST:PORT, or tls://HOST:PORT with Dask's TLS settings made (distributed.comm.tls: ca-file, "
            "client cert and key)",
            reason="Dask has no TLS settings for a client",
        )


@contextmanager
def _ctrl_c_held(pressed: list[int]) -> Iterator[None]:
    """Hold a Ctrl-C pressed in the block until the block ends, recording it in ``pressed``. Dask
    interrupted half way through starting a local cluster prints the tracebacks of the workers that
    failed to start, and leaves the cluster to be closed as the process exits, with more; held, the
    interrupt is raised once the cluster has started, and the cluster closes cleanly. From the press on,
    logging is off (what Dask reports of a start cut short is noise); the caller turns it on again once
    the cluster is closed. Only the main thread handles signals: in another one nothing is held."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is None:
        yield
        return

    def hold(signum: int, frame: Any) -> None:
        pressed.append(signum)
        logging.disable(logging.CRITICAL)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def dask_setup(worker: Any) -> None:
    """Run by each worker process of a ``--scheduler local`` cluster as it starts (a Dask preload): Ctrl-C
    is for the process that started the cluster, which stops the points and closes the cluster. A
    terminal sends it to its whole process group, and a worker that took it too would die printing
    tracebacks."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
