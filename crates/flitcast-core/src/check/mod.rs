//! Build-time checks of a network and its routing (DESIGN §4).

pub mod routes;
