//! One integration-test binary; files are named by the behaviour they check.

mod central_buffer;
mod closed_workloads;
mod common;
mod conservation;
mod deadlock;
mod determinism;
mod early_stop;
mod fan_out;
mod flat_memory;
mod golden;
mod hardware_multicast;
mod host_adapter;
mod hyperx;
mod infiniband;
mod prop_bmin;
mod prop_metrics;
mod prop_routing;
mod regions;
mod scenario;
mod selection;
mod software_multicast;
mod software_torus;
mod stop_go;
mod throughput;
mod torus_ties;
mod zero_load;
