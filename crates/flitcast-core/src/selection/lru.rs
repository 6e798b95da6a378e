//! LRU (study 002 §4.3): "every input port keeps an ordered list of all the output ports … ordered
//! based on the last time an output port is used by a message entering from this input port";
//! among the granted ports the least recently used wins. Ports that were busy keep ageing, so they
//! win as soon as they are granted again. Switch2 implements this function.

use super::order::Order;
use super::Request;

#[derive(Debug, Clone)]
pub struct Lru {
    lists: Vec<Order>,
}

impl Lru {
    pub fn new(radix: usize) -> Lru {
        Lru { lists: (0..radix).map(|_| Order::new(radix)).collect() }
    }
    pub fn pick(&self, req: Request, granted: u64) -> u8 {
        self.lists[req.in_port as usize].least_recent(granted)
    }
    pub fn commit(&mut self, req: Request, port: u8) {
        self.lists[req.in_port as usize].touch(port);
    }
}
