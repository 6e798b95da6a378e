//! Message latencies in memory that does not grow with the run (docs/results.md, "Exact and estimated
//! columns"): the count, the sum (so the mean), and the maximum are kept exactly; percentiles come from
//! an HdrHistogram with 3 significant digits — exact below 2048 cycles, within 0.1% above — sized once
//! for latencies up to 2^36 cycles (about 220 kB), so a run of 10^9 cycles needs the same bytes as one of
//! 10^4. HdrHistogram is the structure latency tools such as wrk2 use for the same reason.

use hdrhistogram::Histogram;

/// Largest latency the histogram tells apart (more than any run's length); larger ones count as it.
const MAX_TRACKED: u64 = 1 << 36;
const SIGNIFICANT_DIGITS: u8 = 3;

#[derive(Debug, Clone)]
pub struct Latencies {
    histogram: Histogram<u64>,
    count: u64,
    sum: u128,
    max: u64,
}

impl Default for Latencies {
    fn default() -> Self {
        Latencies {
            histogram: Histogram::new_with_max(MAX_TRACKED, SIGNIFICANT_DIGITS).expect("valid histogram bounds"),
            count: 0,
            sum: 0,
            max: 0,
        }
    }
}

impl Latencies {
    #[inline]
    pub fn record(&mut self, latency: u64) {
        self.histogram.saturating_record(latency);
        self.count += 1;
        self.sum += latency as u128;
        self.max = self.max.max(latency);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Exact mean (NaN when empty).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// Exact maximum (NaN when empty).
    pub fn max(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.max as f64
        }
    }

    /// Nearest-rank percentile `q` in (0, 1]: exact below 2048 cycles, within 0.1% above, and never
    /// above the exact maximum (a bucket's top can be) (NaN when empty).
    pub fn percentile(&self, q: f64) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.histogram.value_at_quantile(q).min(self.max) as f64
        }
    }

    /// Heap bytes held (fixed at creation).
    pub fn heap_bytes(&self) -> usize {
        self.histogram.distinct_values() * std::mem::size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_latencies_are_exact_and_large_ones_within_a_thousandth() {
        let mut l = Latencies::default();
        for x in 1..=100u64 {
            l.record(x);
        }
        assert_eq!((l.percentile(0.5), l.percentile(0.99), l.max(), l.mean()), (50.0, 99.0, 100.0, 50.5));
        let mut big = Latencies::default();
        for x in [123_456_789u64, 987_654_321, 5_000_000] {
            big.record(x);
        }
        assert_eq!(big.max(), 987_654_321.0, "the maximum is exact");
        let p = big.percentile(0.5);
        assert!((p - 123_456_789.0).abs() / 123_456_789.0 < 1e-3, "{p}");
        assert_eq!(big.percentile(1.0), big.max(), "a bucket's top above the maximum is not reported");
    }

    #[test]
    fn memory_does_not_grow_with_the_count() {
        let mut l = Latencies::default();
        let before = l.heap_bytes();
        for x in 0..1_000_000u64 {
            l.record(x % 50_000 + 1);
        }
        assert_eq!(l.heap_bytes(), before);
        assert!(before < 300_000, "{before} bytes");
    }
}
