//! The routings this process has verified (`routes::verify`). A sweep runs many points on one network and
//! routing, and the check — seconds on a 1,024-node fat tree, more than the run itself for a small
//! collective — depends on nothing else, so it runs once per process for each. Only a routing that passed
//! is remembered: one that failed is checked, and fails, again.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::{LazyLock, Mutex};

use crate::error::Error;

/// At most this many are remembered (a process that checks ever new networks forgets them and starts again).
const MOST: usize = 1024;

static PASSED: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(Mutex::default);

/// What the check reads, as a key: the network as built (its Debug form, hashed: a network read from a file
/// is the file's content, not its name), and everything else the routing is built from, spelled out.
pub fn key(topology: &impl std::fmt::Debug, routing: &impl std::fmt::Debug) -> String {
    let mut hasher = DefaultHasher::new();
    format!("{topology:?}").hash(&mut hasher);
    format!("{:016x} {routing:?}", hasher.finish())
}

/// Runs `check` unless a check of `key` passed before in this process.
pub fn once(key: String, check: impl FnOnce() -> Result<(), Error>) -> Result<(), Error> {
    let passed = || PASSED.lock().unwrap_or_else(|e| e.into_inner());
    if passed().contains(&key) {
        return Ok(());
    }
    check()?;
    let mut remembered = passed();
    if remembered.len() >= MOST {
        remembered.clear();
    }
    remembered.insert(key);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_check_runs_once_a_failed_one_every_time() {
        let (mut runs, key) = (0, format!("{:?}", std::time::Instant::now()));
        for _ in 0..3 {
            once(key.clone(), || {
                runs += 1;
                Ok(())
            })
            .unwrap();
        }
        assert_eq!(runs, 1);
        let failing = format!("{key} failing");
        for _ in 0..2 {
            let err = once(failing.clone(), || Err(Error::Routing { message: "loops".into() }));
            assert!(err.is_err());
        }
        let mut again = 0;
        once(failing, || {
            again += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(again, 1, "a failed check is not remembered");
    }

    #[test]
    fn the_key_tells_networks_and_routings_apart() {
        assert_ne!(key(&[1, 2], &"dor"), key(&[1, 3], &"dor"));
        assert_ne!(key(&[1, 2], &"dor"), key(&[1, 2], &"adaptive"));
        assert_eq!(key(&[1, 2], &"dor"), key(&[1, 2], &"dor"));
    }
}
