//! PyO3 glue: scenario JSON in, outcome JSON out (docs/core-interface.md). It only converts;
//! everything that simulates lives in flitcast-core. Simulations run with the GIL released, and a
//! panic inside the engine comes back as an `internal` error instead of crashing the interpreter.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use flitcast_core::stats::metrics::WALL_SECONDS;
use flitcast_core::{Error, Scenario};
use pyo3::prelude::*;
use serde_json::{json, Value};

fn error_json(e: &Error) -> Value {
    let mut v = json!({
        "kind": e.kind(), "message": e.to_string(),
        "key": null, "value": null, "allowed": null, "cycle": null, "blocked": null,
    });
    match e {
        Error::Config { key, value, allowed, .. } => {
            v["key"] = json!(key);
            v["value"] = json!(value);
            v["allowed"] = json!(allowed);
        }
        Error::Deadlock { cycle, blocked, .. } => {
            v["cycle"] = json!(cycle);
            v["blocked"] = json!(blocked.iter().map(|b| b.to_string()).collect::<Vec<_>>());
        }
        Error::Interrupted { cycle } => v["cycle"] = json!(cycle),
        _ => {}
    }
    v
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Runs one scenario to an outcome document; never panics.
fn outcome(scenario_json: &str, control: &flitcast_core::Control) -> String {
    guarded(|| Scenario::from_json(scenario_json).and_then(|s| flitcast_core::run_with(&s, control)))
}

/// A handle on running simulations: `interrupt()` stops every run it was passed to within a cycle;
/// `progress` is (cycle reached, cycle the measurement window ends) of the latest run using it.
#[pyclass(frozen, module = "flitcast._core")]
struct Control(Arc<flitcast_core::Control>);

#[pymethods]
impl Control {
    #[new]
    fn new() -> Self {
        Control(Arc::new(flitcast_core::Control::new()))
    }

    fn interrupt(&self) {
        self.0.interrupt();
    }

    #[getter]
    fn interrupted(&self) -> bool {
        self.0.interrupted()
    }

    #[getter]
    fn progress(&self) -> (u64, u64) {
        self.0.progress()
    }
}

fn control_of(control: Option<&Bound<'_, Control>>) -> Arc<flitcast_core::Control> {
    control.map_or_else(|| Arc::new(flitcast_core::Control::new()), |c| c.get().0.clone())
}

/// Calls `f` and turns its result, its error or its panic into an outcome document, with the wall
/// time it took (kept outside the result, which must be identical from run to run).
fn guarded<T: serde::Serialize>(f: impl FnOnce() -> Result<T, Error>) -> String {
    let start = std::time::Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    let mut doc = match result {
        Ok(Ok(r)) => json!({ "ok": r }),
        Ok(Err(e)) => json!({ "error": error_json(&e) }),
        Err(payload) => json!({ "error": error_json(&Error::Internal {
            message: format!("the engine panicked: {}", panic_message(payload))
        }) }),
    };
    doc[WALL_SECONDS.name] = json!(start.elapsed().as_secs_f64());
    doc.to_string()
}

/// The core crate version.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Simulates one scenario (JSON) and returns its outcome (JSON), with the GIL released.
#[pyfunction]
#[pyo3(signature = (scenario_json, control = None))]
fn run(py: Python<'_>, scenario_json: String, control: Option<&Bound<'_, Control>>) -> String {
    let control = control_of(control);
    py.detach(|| outcome(&scenario_json, &control))
}

/// Panics inside the same guard that wraps every simulation, so tests can check that a panic in
/// the engine reaches Python as an `internal` error and never crashes the interpreter.
#[pyfunction]
fn _panic_for_test(py: Python<'_>) -> String {
    py.detach(|| guarded::<()>(|| panic!("deliberate panic for the test suite")))
}

/// What a scenario needs in memory: `{"ok": {"bytes", "limit_bytes", "parts": [{"what", "bytes", "keys"}]}}`
/// or an error outcome.
#[pyfunction]
fn memory_estimate(scenario_json: &str) -> String {
    guarded(|| {
        let s = Scenario::from_json(scenario_json)?;
        let (estimate, limit) = flitcast_core::memory_estimate(&s)?;
        Ok(json!({ "bytes": estimate.bytes(), "limit_bytes": limit, "parts": estimate.parts }))
    })
}

/// The α-β-γ estimate of a scenario's collective without simulating it: `{"ok": {"members",
/// "rank_cycles", "completion_cycles"}}` or an error outcome (`collective/estimate.rs`).
#[pyfunction]
fn collective_estimate(scenario_json: &str) -> String {
    guarded(|| {
        let s = Scenario::from_json(scenario_json)?;
        let (members, estimate) = flitcast_core::collective_estimate(&s)?;
        Ok(json!({ "members": members, "rank_cycles": estimate.ranks, "completion_cycles": estimate.completion() }))
    })
}

/// A study-004 multicast plan on a unidirectional torus: `{"ok": {"nodes", "parent", "children", "step",
/// "relays", "hops"}}` or an error outcome (`multicast/torus.rs`).
#[pyfunction]
fn torus_multicast(request_json: &str) -> String {
    guarded(|| {
        let request: flitcast_core::multicast::torus::Request = serde_json::from_str(request_json)
            .map_err(|e| Error::config("model", "(json)", format!("a valid plan request ({e})")))?;
        flitcast_core::multicast::torus::describe(&request)
    })
}

/// The catalogue of every scenario key, rule and moved key, as JSON (`scenario::schema`).
#[pyfunction]
fn schema() -> String {
    serde_json::to_string(&flitcast_core::scenario::schema()).expect("the schema serialises")
}

/// Checks a scenario document (JSON): `{"ok": {"scenario", "minimal", "derived", "warnings"}}` with the
/// scenario resolved (every key), minimal (only what differs from the defaults), the values derived from
/// other keys and the warnings; or `{"problems": [...], "message"}`, every problem
/// as data and the message of the first (saying how many more).
#[pyfunction]
fn check(py: Python<'_>, scenario_json: String) -> String {
    py.detach(|| {
        let doc: Value = match serde_json::from_str(&scenario_json) {
            Ok(doc) => doc,
            Err(e) => {
                return guarded::<()>(|| Err(Error::config("scenario", "(json)", format!("a valid document ({e})"))))
            }
        };
        match catch_unwind(AssertUnwindSafe(|| flitcast_core::Scenario::check(&doc))) {
            Ok(Ok(c)) => json!({ "ok": {
                "scenario": c.scenario.to_json(false),
                "minimal": c.scenario.to_json(true),
                "derived": c.scenario.derived(),
                "warnings": c.warnings,
            }})
            .to_string(),
            Ok(Err(problems)) => {
                let message = Error::from_problems(problems.clone()).to_string();
                json!({ "problems": problems, "message": message }).to_string()
            }
            Err(payload) => json!({ "error": error_json(&Error::Internal {
                message: format!("the scenario check panicked: {}", panic_message(payload))
            }) })
            .to_string(),
        }
    })
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Control>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(memory_estimate, m)?)?;
    m.add_function(wrap_pyfunction!(torus_multicast, m)?)?;
    m.add_function(wrap_pyfunction!(collective_estimate, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    Ok(())
}
