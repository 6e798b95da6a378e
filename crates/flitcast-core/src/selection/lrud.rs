//! LRUD (study 002 §4.3): in every chip one LRU list per *node switch* of the network (the chip a
//! destination is attached to), shared by all inputs; the list of the packet's destination switch is
//! used and updated, spreading traffic to one destination switch over all LCAs.

use super::order::Order;
use super::Request;

#[derive(Debug, Clone)]
pub struct Lrud {
    lists: Vec<Order>,
}

impl Lrud {
    pub fn new(radix: usize, switches: usize) -> Lrud {
        Lrud { lists: (0..switches.max(1)).map(|_| Order::new(radix)).collect() }
    }
    pub fn pick(&self, req: Request, granted: u64) -> u8 {
        self.lists[req.dst_switch as usize].least_recent(granted)
    }
    pub fn commit(&mut self, req: Request, port: u8) {
        self.lists[req.dst_switch as usize].touch(port);
    }
}
