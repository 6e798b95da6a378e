//! Multicast plans: who relays a multicast to whom, computed before anything is sent — the rooted trees
//! of study 001's host adapters (`rooted_tree.rs`) and the relay plans of study 004's algorithms on
//! unidirectional tori (`torus.rs`). The programs that carry them out are in `host/programs/`.

pub mod rooted_tree;
pub mod torus;
