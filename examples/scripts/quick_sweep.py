"""A tour of the Python API: build a scenario, sweep it over load, print the table.

```
 Scenario (4x4 mesh) ──with_overrides(load)──► [points] ──flitcast.sweep──► DataFrame ──► print
```
"""

import flitcast

base = flitcast.Scenario(
    network={"topology": "mesh", "k": 4, "n": 2},
    workload={"pattern": "uniform", "packet_flits": 4},
    run={"warmup_cycles": 500, "measure_cycles": 3000, "seed": 3},
)
points = [base.with_overrides({"workload.load": load}) for load in (0.05, 0.15, 0.25, 0.35)]

table = flitcast.sweep(points)
print(table[["workload.load", "accepted_load", "latency_mean", "latency_ci95", "saturated"]].to_string(index=False))

# One point on its own, with per-channel utilisation:
result = flitcast.run(points[1])
print(f"\nbusiest channel: {result.channels.sort_values('utilisation').iloc[-1].to_dict()}")
