//! MRU (study 002 §4.3): the LRU lists of each input port, but the most recently used granted port
//! wins — to test whether concentrating a multi-packet message on one output helps (it does not).

use super::order::Order;
use super::Request;

#[derive(Debug, Clone)]
pub struct Mru {
    lists: Vec<Order>,
}

impl Mru {
    pub fn new(radix: usize) -> Mru {
        Mru { lists: (0..radix).map(|_| Order::new(radix)).collect() }
    }
    pub fn pick(&self, req: Request, granted: u64) -> u8 {
        self.lists[req.in_port as usize].most_recent(granted)
    }
    pub fn commit(&mut self, req: Request, port: u8) {
        self.lists[req.in_port as usize].touch(port);
    }
}
