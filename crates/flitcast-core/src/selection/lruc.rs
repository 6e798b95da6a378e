//! LRUC (study 002 §4.3): one LRU list per switch chip, shared and updated by every input port — a
//! chip-wide balance that the study finds, counter-intuitively, worse than per-input LRU.

use super::order::Order;

#[derive(Debug, Clone)]
pub struct Lruc {
    list: Order,
}

impl Lruc {
    pub fn new(radix: usize) -> Lruc {
        Lruc { list: Order::new(radix) }
    }
    pub fn pick(&self, granted: u64) -> u8 {
        self.list.least_recent(granted)
    }
    pub fn commit(&mut self, port: u8) {
        self.list.touch(port);
    }
}
