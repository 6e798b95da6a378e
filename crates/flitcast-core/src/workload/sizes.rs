//! Message sizes: fixed, or truncated geometric (study 001 §5: "truncated geometric distribution, with
//! average 100 bytes and maximum 1000 bytes"; docs/models/host_multicast.md, "Workload").
//!
//! The truncated geometric takes values 1 ..= max with P(x) ∝ q^(x−1). The study gives the average of
//! the sizes drawn, so q is chosen for the *truncated* distribution's mean to be the stated one (the
//! untruncated geometric of that mean, cut at max, would fall a little short of it). Sizes are drawn
//! by inverting the distribution function: one uniform draw each.

use rand::Rng;

use crate::rng::Stream;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sizes {
    Fixed(u32),
    /// Truncated geometric: ratio q, maximum, and q^max (kept for the inversion).
    Geometric {
        q: f64,
        max: u32,
        q_max: f64,
    },
}

impl Sizes {
    /// Sizes of `mean` flits: fixed with `max` None, otherwise truncated geometric on 1 ..= max with
    /// that mean (`mean` < `max`; a mean at or above (max + 1) / 2 is uniform or heavier at the top,
    /// which no geometric gives: the ratio is then 1, the uniform distribution).
    pub fn new(mean: u32, max: Option<u32>) -> Sizes {
        let Some(max) = max else { return Sizes::Fixed(mean) };
        if max <= 1 || mean <= 1 {
            return Sizes::Fixed(mean.min(max.max(1)));
        }
        let target = mean as f64;
        // The truncated mean rises with q from 1 (q → 0) to (max + 1) / 2 (q = 1): bisect.
        let (mut lo, mut hi) = (0.0f64, 1.0 - 1e-12);
        for _ in 0..200 {
            let q = 0.5 * (lo + hi);
            if truncated_mean(q, max) < target {
                lo = q;
            } else {
                hi = q;
            }
        }
        let q = 0.5 * (lo + hi);
        Sizes::Geometric { q, max, q_max: q.powi(max as i32) }
    }

    pub fn draw(&self, rng: &mut Stream) -> u32 {
        match *self {
            Sizes::Fixed(n) => n,
            Sizes::Geometric { q, max, q_max } => {
                // P(X ≤ x) = (1 − q^x) / (1 − q^max): x = ⌈ln(1 − u(1 − q^max)) / ln q⌉
                let u: f64 = rng.random::<f64>();
                let x = ((1.0 - u * (1.0 - q_max)).ln() / q.ln()).ceil();
                (x as u32).clamp(1, max)
            }
        }
    }

    /// The distribution's mean.
    pub fn mean(&self) -> f64 {
        match *self {
            Sizes::Fixed(n) => n as f64,
            Sizes::Geometric { q, max, .. } => truncated_mean(q, max),
        }
    }

    /// The largest size drawn.
    pub fn max(&self) -> u32 {
        match *self {
            Sizes::Fixed(n) => n,
            Sizes::Geometric { max, .. } => max,
        }
    }
}

/// Mean of the geometric on 1 ..= max with ratio q.
fn truncated_mean(q: f64, max: u32) -> f64 {
    let (mut weight, mut sum, mut p) = (0.0, 0.0, 1.0);
    for x in 1..=max {
        weight += p;
        sum += p * x as f64;
        p *= q;
    }
    sum / weight
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    #[test]
    fn truncated_geometric_has_the_stated_mean_and_maximum() {
        for (mean, max) in [(100, 1000), (400, 4000), (3, 10)] {
            let sizes = Sizes::new(mean, Some(max));
            assert!((sizes.mean() - mean as f64).abs() < 1e-6, "{mean}/{max}: {}", sizes.mean());
            let mut rng = stream(1, StreamKind::Sizes, 0);
            let n = 200_000;
            let draws: Vec<u32> = (0..n).map(|_| sizes.draw(&mut rng)).collect();
            let m = draws.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
            assert!((m - mean as f64).abs() / (mean as f64) < 0.01, "{mean}/{max}: drawn mean {m}");
            assert!(draws.iter().all(|&x| (1..=max).contains(&x)));
            assert!(draws.contains(&1), "the smallest size occurs");
        }
        assert_eq!(Sizes::new(8, None), Sizes::Fixed(8));
    }
}
