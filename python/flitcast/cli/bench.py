"""``flitcast bench``: simulated cycles/s and flit-hops/s on fixed scenarios, one thread each."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from flitcast.cli.app import app, console, guard

if TYPE_CHECKING:
    from flitcast.config import Scenario

def bench_scenarios(quick: bool) -> list[tuple[str, Scenario]]:
    """The fixed benchmark points: the 8x8 mesh (DOR, uniform, 8-flit packets, 2 VCs x 8 flits) at loads
    0.1 and 0.3 and saturated (0.6), and the same with long worms (64- and 512-flit packets), the 128-node SP network (central-buffer switches, adaptive LRU
    routing, bit-reversal, 1 KB messages) at load 0.5, 6-way hardware multicasts of 128-byte messages on
    the 16-node tree of central-buffer switches at effective load 0.5 (study 000), and, per SP switch
    model (central buffer, input FIFO), the 128-node SP network at load 0.3 and saturated (1.0) with
    128-byte and 4 KB messages, uniform and bit-reversal, and study 003's 16x16 mesh of InfiniBand switches
    (a closed batch: every node multicasts 1 KB to 40% of the nodes on 4 shared lanes) with and without
    output buffers: where the studies spend their time. The batch runs to its end in both modes."""
    from flitcast.config import Scenario
    from flitcast.experiments import zhou

    measure = 10_000 if quick else 100_000
    run = {"warmup_cycles": measure // 10, "measure_cycles": measure, "seed": 1}
    mesh = [
        (
            "mesh8 uniform",
            Scenario.model_validate(
                {
                    "network": {"topology": "mesh", "k": 8, "n": 2},
                    "switch": {"model": "input_buffered", "vcs": 2, "buffer_flits": 8},
                    "workload": {"program": "open_loop", "pattern": "uniform", "packet_flits": 8, "load": load},
                    "run": run,
                }
            ),
        )
        for load in (0.1, 0.3, 0.6)
    ]
    # long worms (the studies' 64- to 512-flit packets) on the same mesh: where a worm's body dominates
    long_worms = [
        (
            f"mesh8 {flits}-flit",
            Scenario.model_validate(
                {
                    "network": {"topology": "mesh", "k": 8, "n": 2},
                    "switch": {"model": "input_buffered", "vcs": 2, "buffer_flits": 8},
                    "workload": {"program": "open_loop", "pattern": "uniform", "packet_flits": flits, "load": load},
                    "run": run,
                }
            ),
        )
        for flits in (64, 512)
        for load in (0.1, 0.3, 0.6)
    ]
    sp = Scenario.model_validate(
        {
            "network": {"topology": "sp128"},
            "switch": {"model": "central_buffer"},
            "routing": {"algorithm": "adaptive", "selection": "lru"},
            "workload": {
                "pattern": "bit_reversal",
                "load": 0.5,
                "message_bytes": 1024,
                "flit_bytes": 2,
                "max_packet_bytes": 1024,
            },
            "run": run,
        }
    )
    multicast = Scenario.model_validate(
        {
            "network": {"topology": "fat_tree", "k": 4, "n": 2},
            "switch": {"model": "central_buffer"},
            "routing": {"algorithm": "adaptive", "selection": "lru"},
            "workload": {"program": "hardware_multicast", "load": 0.5, "packet_flits": 64, "destinations": 6},
            "run": run,
        }
    )
    switches = [
        (
            f"sp128 {short} {pattern_short} {size // 1024}KB" if size >= 1024 else f"sp128 {short} {pattern_short} {size}B",
            Scenario.model_validate(
                {
                    "network": {"topology": "sp128"},
                    "switch": {"model": model},
                    "routing": {"algorithm": "adaptive", "selection": "lru"},
                    "workload": {"pattern": pattern, "load": load, "message_bytes": size, "flit_bytes": 2, "max_packet_bytes": 1024},
                    "run": run,
                }
            ),
        )
        for model, short in (("central_buffer", "CB"), ("input_fifo", "IF"))
        for pattern, pattern_short in (("uniform", "uniform"), ("bit_reversal", "bit-rev"))
        for size in (128, 4096)
        for load in (0.3, 1.0)
    ]
    infiniband = zhou.scenario(sources=1.0, group=0.4, lanes="4 VL shared", scheme="multicast", message_bytes=1024)
    batches = [
        ("IB mesh16 mcast 1KB", infiniband),
        ("IB mesh16 mcast 1KB in-only", infiniband.with_overrides({"switch.output_buffers": False})),
    ]
    return [*mesh, *long_worms, ("sp128 bit-rev 1KB", sp), ("tree16 6-way hw multicast", multicast), *switches, *batches]


def big_scenarios() -> list[tuple[str, Scenario]]:
    """The big networks one run is split across threads for (run.threads, docs/engine.md "Regions"): a
    64x64 mesh (uniform, load 0.3: past saturation, no drain), a 4,096-node 8-ary 4-tree (adaptive
    routing, load 0.3) and a 1,056-node dragonfly (p = h = 4, a = 8, UGAL-L, 3 VCs, load 0.3),
    input-buffered routers, 300 + 1,000 cycles (as cargo bench's big_on_threads)."""
    from flitcast.config import Scenario

    run = {"warmup_cycles": 300, "measure_cycles": 1_000, "drain_max_cycles": 0, "saturation_stop": "off", "seed": 1}
    workload = {"program": "open_loop", "pattern": "uniform", "packet_flits": 8, "load": 0.3}
    return [
        ("mesh 64x64", Scenario.model_validate({"network": {"topology": "mesh", "k": 64, "n": 2}, "workload": workload, "run": run})),
        (
            "fat tree 4096",
            Scenario.model_validate(
                {
                    "network": {"topology": "fat_tree", "k": 8, "n": 4},
                    "routing": {"algorithm": "adaptive"},
                    "workload": workload,
                    "run": run,
                }
            ),
        ),
        (
            "dragonfly 1056",
            Scenario.model_validate(
                {
                    "network": {"topology": "dragonfly", "p": 4, "a": 8, "h": 4},
                    "switch": {"vcs": 3},
                    "routing": {"algorithm": "ugal_l"},
                    "workload": workload,
                    "run": run,
                }
            ),
        ),
    ]


def _bench_big(repeat: int) -> None:
    """Each big network on 1 and 2 threads, interleaved, ``repeat`` times: the run's wall time less its
    build (a two-cycle run of the same scenario: the route checks of 4,096 nodes take seconds)."""
    import statistics

    from rich.table import Table

    from flitcast import _core
    from flitcast.api import payload

    def wall(point: Scenario) -> tuple[float, dict]:
        began = time.perf_counter()
        outcome = json.loads(_core.run(payload(point)))
        return time.perf_counter() - began, outcome["ok"]

    table = Table(title=f"flitcast bench --big: one run on 1 and 2 threads (run.threads), {repeat} runs each")
    for column in ("scenario", "threads", "cycles", "median s", "min s", "cycles/s", "flit-hops/s", "speed-up"):
        table.add_column(column, justify="left" if column == "scenario" else "right", no_wrap=True)
    for name, point in big_scenarios():
        build, _ = wall(point.with_overrides({"run.warmup_cycles": 0, "run.measure_cycles": 2, "run.batches": 2}))
        times: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(repeat):
            for threads in times:
                seconds, result = wall(point.with_overrides({"run.threads": threads}))
                times[threads].append(max(seconds - build, 1e-9))
        cycles, hops = result["cycles"], result["flit_hops"]
        one = statistics.median(times[1])
        for threads, runs in times.items():
            median = statistics.median(runs)
            table.add_row(
                name,
                str(threads),
                f"{cycles:,}",
                f"{median:.2f}",
                f"{min(runs):.2f}",
                f"{cycles / median:,.0f}",
                f"{hops / median:,.0f}",
                f"{one / median:.2f}",
            )
    out = _wide_console()
    out.print(table)


def _wide_console() -> Any:
    """The console, at least as wide as the bench's tables (wider than a default 80-column pipe)."""
    out = console()
    out.width = max(out.width, 110)
    return out


@app.command("bench")
@guard
def bench_command(
    quick: Annotated[bool, typer.Option("--quick", help="10k measured cycles instead of 100k.")] = False,
    big: Annotated[
        bool,
        typer.Option(
            "--big",
            help="Instead: a 64x64 mesh and a 4,096-node fat tree at load 0.3, one run split on 1 and 2 threads "
            "(run.threads).",
        ),
    ] = False,
    repeat: Annotated[int, typer.Option("--repeat", min=1, max=100, help="With --big: runs per thread count.")] = 3,
) -> None:
    """Measure simulator speed: simulated cycles/s and flit-hops/s on fixed scenarios (one thread)."""
    if big:
        _bench_big(repeat)
        return
    from rich.table import Table

    from flitcast import _core
    from flitcast.api import payload, result_of

    table = Table(title="flitcast bench" + (" --quick" if quick else "") + ": one thread per scenario")
    table.add_column("scenario", no_wrap=True)
    table.add_column("load", no_wrap=True)
    table.add_column("saturated", no_wrap=True)
    for column in ("cycles", "wall s", "cycles/s", "flit-hops", "flit-hops/s"):
        table.add_column(column, justify="right", no_wrap=True)
    # (wall seconds per simulated cycle and per flit-hop, by (scenario, load); a batch's load is None)
    per_cycle: dict[tuple[str, float | None], float] = {}
    per_hop: dict[tuple[str, float | None], float] = {}
    for name, point in bench_scenarios(quick):
        text = payload(point)
        began = time.perf_counter()
        outcome = _core.run(text)
        wall = time.perf_counter() - began
        metrics = result_of(point, outcome, wall).metrics
        cycles, hops = metrics["cycles"], metrics["flit_hops"]
        load = point.workload.load
        per_cycle[(name, load)] = wall / cycles
        per_hop[(name, load)] = wall / hops if hops else float("nan")
        table.add_row(
            name,
            "batch" if load is None else f"{load}",
            "yes" if metrics["saturated"] else "no",
            f"{cycles:,}",
            f"{wall:.3f}",
            f"{cycles / wall:,.0f}",
            f"{hops:,}",
            f"{hops / wall:,.0f}",
        )
    out = _wide_console()
    out.print(table)
    heavy_light = per_cycle[("mesh8 uniform", 0.3)] / per_cycle[("mesh8 uniform", 0.1)]
    out.print(f"mesh per-cycle cost heavy/light (load 0.3 / load 0.1): {heavy_light:.2f}")
    # (what a flit-hop costs past saturation against at load 0.3, per scenario: the engine's aim is 1)
    dearer = {name: per_hop[(name, 1.0)] / per_hop[(name, 0.3)] for name, load in per_hop if load == 1.0 and (name, 0.3) in per_hop}
    dearer.update({f"{name} (0.6)": per_hop[(name, 0.6)] / per_hop[(name, 0.3)] for name, load in per_hop if load == 0.6 and (name, 0.3) in per_hop})
    with_output = per_cycle[("IB mesh16 mcast 1KB", None)] / per_cycle[("IB mesh16 mcast 1KB in-only", None)]
    out.print(f"InfiniBand per-cycle cost with output buffers / input buffers only: {with_output:.2f}")
    out.print("cost of a flit-hop saturated / at load 0.3: " + ", ".join(f"{name} {r:.2f}" for name, r in dearer.items()))
