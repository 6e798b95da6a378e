//! flitcast-core: a flit-level, cycle-exact simulator of interconnection networks.
//!
//! Pure Rust, no Python dependency. A [`Scenario`] (read from JSON by the key declarations of its
//! components, docs/config.md; docs/architecture.md) is built into a [`Simulation`] that owns its topology, routers, terminals, random streams and statistics,
//! and runs it to a [`RunResult`]. The architecture is described in docs/engine.md;
//! each model file names the study section it implements.

pub mod arbiter;
pub mod bitset;
pub mod candidates;
pub mod check;
pub mod collective;
pub mod control;
pub mod credits;
pub mod dest_set;
pub mod engine;
pub mod error;
pub mod facts;
mod family;
pub mod host;
pub mod memory;
pub mod multicast;
pub mod packet;
pub mod params;
pub mod probe;
pub mod queue_view;
pub mod regions;
pub mod rng;
pub mod routing;
pub mod scenario;
pub mod selection;
pub mod sizing;
pub mod stats;
pub mod stop_go;
pub mod switch;
pub mod time;
pub mod topology;
pub mod wheel;
pub mod workload;
#[cfg(feature = "worm_counts")]
pub mod worm_counts;

pub use control::Control;
pub use engine::Simulation;
pub use error::{BlockedChannel, Error};
pub use scenario::Scenario;
pub use stats::RunResult;
pub use time::Cycle;

/// Builds and runs one scenario.
pub fn run(scenario: &Scenario) -> Result<RunResult, Error> {
    Simulation::build(scenario)?.run()
}

/// The memory `scenario` needs (builds only its topology) and the budget it must fit.
pub fn memory_estimate(scenario: &Scenario) -> Result<(memory::Estimate, u64), Error> {
    scenario.validate()?;
    let topo = scenario.topology()?;
    Ok((memory::estimate(scenario, &topo), memory::limit_bytes(scenario.run.memory_limit_mb)))
}

/// The α-β-γ estimate of `scenario`'s collective without simulating it (docs/models/collectives.md, "The
/// estimate"): the group's members in rank order, and one collective's completion per member.
pub fn collective_estimate(scenario: &Scenario) -> Result<(Vec<u32>, collective::estimate::Estimate), Error> {
    use host::program::Program;
    scenario.validate()?;
    let host::programs::ProgramKind::Collective(p) = &scenario.workload.program else {
        return Err(Error::config(
            "workload.program",
            format!("'{}'", scenario.workload.program.name()),
            "'collective' (the estimate is of a collective operation)",
        ));
    };
    let topo = scenario.topology()?;
    // (it simulates nothing: only what it builds counts against run.memory_limit_mb)
    memory::check_program(scenario, &topo)?;
    let c = host::programs::collective::Collective::new(p, &scenario.program_site(&topo));
    Ok((c.members().to_vec(), c.estimate().clone()))
}

/// Builds and runs one scenario under `control` (stop on request, progress reported).
pub fn run_with(scenario: &Scenario, control: &Control) -> Result<RunResult, Error> {
    control.building(|| Simulation::build(scenario))?.run_with(control)
}
