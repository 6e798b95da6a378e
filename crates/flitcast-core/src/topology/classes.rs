//! Channel classes with a latency each (`Topology::with_classes`): a fat tree's levels and a HyperX's
//! dimensions take a list key, one latency per class, checked here once for both.

use super::irregular::MAX_LATENCY;
use crate::params::Problem;

/// The latency of each of `classes` channel classes, from the list `key` = `given` (None: every class
/// `latency`, `network.channel_latency_cycles`).
pub fn latencies(given: &Option<Vec<u32>>, classes: usize, latency: u32) -> Vec<u32> {
    given.clone().unwrap_or_else(|| vec![latency; classes])
}

/// What is wrong with the list `key` = `given` for `classes` classes named `per` ("level", "dimension").
pub fn problem(key: &'static str, given: &Option<Vec<u32>>, classes: usize, per: &str) -> Option<Problem> {
    let list = given.as_ref()?;
    let fits = list.len() == classes && list.iter().all(|l| (1..=MAX_LATENCY).contains(l));
    let allowed =
        format!("{classes} latencies (one per {per}), each an integer from 1 to {MAX_LATENCY} cycles, or left out");
    (!fits).then(|| Problem::new(key, format!("{list:?}"), allowed, None))
}

/// The longest of the list's latencies where it is longer than `latency`, with its key.
pub fn longest(key: &'static str, given: &Option<Vec<u32>>, latency: u32) -> (u32, Option<&'static str>) {
    match given.as_ref().and_then(|l| l.iter().copied().max()) {
        Some(most) if most > latency => (most, Some(key)),
        _ => (latency, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_has_one_latency_per_class_in_range() {
        let key = "network.level_latency_cycles";
        assert!(problem(key, &None, 2, "level").is_none());
        assert!(problem(key, &Some(vec![1, 5]), 2, "level").is_none());
        for bad in [vec![1], vec![1, 2, 3], vec![0, 2], vec![1, 1001]] {
            let p = problem(key, &Some(bad.clone()), 2, "level").expect("refused");
            assert_eq!((p.key.as_str(), p.value), (key, format!("{bad:?}")));
            assert!(p.allowed.starts_with("2 latencies (one per level)"), "{}", p.allowed);
        }
        assert_eq!(latencies(&None, 3, 4), [4, 4, 4]);
        assert_eq!(longest(key, &Some(vec![3, 9]), 4), (9, Some(key)));
        assert_eq!(longest(key, &Some(vec![3, 2]), 4), (4, None));
    }
}
