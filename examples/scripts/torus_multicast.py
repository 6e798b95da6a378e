"""Study 004 from Python: one software multicast on a 4x4 unidirectional torus, simulated with host
overheads, beside the small-message latency model (docs/models/torus_multicast.md).

```
 Scenario (program torus_multicast, host overheads) ──flitcast.run──► completion, concurrency, ...
 flitcast.analytic.latency(algorithm, k, G, M) ─────────────────────► the model of §5 (µs)
```
"""

import flitcast
from flitcast import analytic

CYCLE_NS = 6  # a cycle is 6 ns and a flit 4 bytes: 0.667 bytes/ns
params = analytic.Parameters()
o = round(params.o(128) * 1000 / CYCLE_NS)  # 128-byte messages: o = 1994 ns

print(f"{'algorithm':10} {'G':>3} {'simulated µs':>13} {'model µs':>9} {'concurrency':>12}")
for algorithm in analytic.ALGORITHMS:
    for group in (8, 16):
        scenario = flitcast.Scenario(
            network={"topology": "torus", "k": 4, "n": 2, "unidirectional": True, "channel_latency_cycles": 2},
            switch={"router_delay_cycles": 10, "buffer_flits": 256, "turn_cycles": round(params.L_s * 1000 / CYCLE_NS)},
            workload={
                "program": "torus_multicast",
                "group_size": group,
                "scheme": algorithm,
                "message_flits": 32,
                "packet_flits": 16,
                "send_overhead_cycles": o,
                "receive_overhead_cycles": o,
                "process_cycles": round(params.process(algorithm) * 1000 / CYCLE_NS),
            },
            run={"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 10**9},
        )
        m = flitcast.run(scenario).metrics
        simulated = m["completion_cycles"] * CYCLE_NS / 1000
        model = analytic.latency(algorithm, 4, group, 128)
        print(f"{algorithm:10} {group:3} {simulated:13.1f} {model:9.1f} {m['link_concurrency']:12.0f}")
