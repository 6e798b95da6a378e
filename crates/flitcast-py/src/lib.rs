//! PyO3 glue: scenario JSON in, outcome JSON out (docs/core-interface.md). It only converts;
//! everything that simulates lives in flitcast-core. Simulations run with the GIL released, and a
//! panic inside the engine comes back as an `internal` error instead of crashing the interpreter.

use std::panic::{catch_unwind, AssertUnwindSafe};

use flitcast_core::{Error, Scenario};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use serde_json::{json, Value};

fn error_json(e: &Error) -> Value {
    let mut v = json!({
        "kind": e.kind(), "message": e.to_string(),
        "key": null, "value": null, "allowed": null, "cycle": null, "blocked": null,
    });
    match e {
        Error::Config { key, value, allowed } => {
            v["key"] = json!(key);
            v["value"] = json!(value);
            v["allowed"] = json!(allowed);
        }
        Error::Deadlock { cycle, blocked, .. } => {
            v["cycle"] = json!(cycle);
            v["blocked"] = json!(blocked.iter().map(|b| b.to_string()).collect::<Vec<_>>());
        }
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
fn outcome(scenario_json: &str) -> String {
    let result = catch_unwind(AssertUnwindSafe(|| Scenario::from_json(scenario_json).and_then(|s| flitcast_core::run(&s))));
    let doc = match result {
        Ok(Ok(r)) => json!({ "ok": r }),
        Ok(Err(e)) => json!({ "error": error_json(&e) }),
        Err(payload) => json!({ "error": error_json(&Error::Internal {
            message: format!("the engine panicked: {}", panic_message(payload))
        }) }),
    };
    doc.to_string()
}

/// The core crate version.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Simulates one scenario (JSON) and returns its outcome (JSON), with the GIL released.
#[pyfunction]
fn run(py: Python<'_>, scenario_json: String) -> String {
    py.detach(|| outcome(&scenario_json))
}

/// Simulates many scenarios on `threads` threads (0 = all cores); outcomes in input order.
#[pyfunction]
#[pyo3(signature = (scenario_jsons, threads = 0))]
fn run_many(py: Python<'_>, scenario_jsons: Vec<String>, threads: usize) -> PyResult<Vec<String>> {
    py.detach(|| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
        Ok(pool.install(|| scenario_jsons.par_iter().map(|s| outcome(s)).collect()))
    })
}

/// The component registry as JSON.
#[pyfunction]
fn catalogue() -> String {
    serde_json::to_string(&flitcast_core::catalogue::catalogue()).expect("catalogue serialises")
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_many, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue, m)?)?;
    Ok(())
}
