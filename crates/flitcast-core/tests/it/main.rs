//! One integration-test binary; files are named by the behaviour they check.

mod common;
mod zero_load;
