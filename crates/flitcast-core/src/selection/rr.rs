//! RR (study 002 §4.3): each input port has a register RRID holding the most recently used output;
//! granted outputs are considered "in round robin fashion starting with the last output port number
//! + 1 (mod 8)" and RRID takes the winner. No other history (log2 n latches in hardware).

use super::Request;

#[derive(Debug, Clone)]
pub struct Rr {
    radix: u8,
    rrid: Vec<u8>,
}

impl Rr {
    pub fn new(radix: usize) -> Rr {
        // RRID starts at the last port, so the first search begins at port 0.
        Rr { radix: radix as u8, rrid: vec![radix as u8 - 1; radix] }
    }
    pub fn pick(&self, req: Request, granted: u64) -> u8 {
        let last = self.rrid[req.in_port as usize];
        (1..=self.radix).map(|i| (last + i) % self.radix).find(|&p| granted & (1 << p) != 0).expect("a port is granted")
    }
    pub fn commit(&mut self, req: Request, port: u8) {
        self.rrid[req.in_port as usize] = port;
    }
}
