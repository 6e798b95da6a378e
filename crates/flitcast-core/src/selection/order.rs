//! A recency order of output ports, least recently used first: the list the LRU, MRU, LRUC and
//! LRUD functions keep (study 002 §4.3; §5.3 counts its n(n+1)/2 latches in hardware).

/// Output ports from least to most recently used. Initially in port order.
#[derive(Debug, Clone)]
pub struct Order {
    ports: Vec<u8>,
}

impl Order {
    pub fn new(radix: usize) -> Order {
        Order { ports: (0..radix as u8).collect() }
    }

    /// The least recently used port among `granted` (a port mask).
    #[inline]
    pub fn least_recent(&self, granted: u64) -> u8 {
        *self.ports.iter().find(|&&p| granted & (1 << p) != 0).expect("a granted port is in the list")
    }

    /// The most recently used port among `granted`.
    #[inline]
    pub fn most_recent(&self, granted: u64) -> u8 {
        *self.ports.iter().rev().find(|&&p| granted & (1 << p) != 0).expect("a granted port is in the list")
    }

    /// `port` was just used: it becomes the most recent.
    #[inline]
    pub fn touch(&mut self, port: u8) {
        if let Some(i) = self.ports.iter().position(|&p| p == port) {
            self.ports[i..].rotate_left(1);
        }
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.ports
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touch_moves_to_the_back() {
        let mut o = Order::new(4);
        o.touch(1);
        assert_eq!(o.as_slice(), &[0, 2, 3, 1]);
        assert_eq!(o.least_recent(0b1010), 3);
        assert_eq!(o.most_recent(0b1010), 1);
    }
}
