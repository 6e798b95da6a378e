//! Reading one table of a scenario: which keys were taken, what was wrong with each, and which keys
//! are left over — a stray key is named with the kind that does take it, or where it moved.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{Map, Value as Json};

/// One thing wrong with a scenario, as data: the dotted key, the value as given, what is allowed, and
/// the message that says so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub key: String,
    pub value: String,
    pub allowed: String,
    pub reason: Option<String>,
    pub message: String,
}

impl Problem {
    pub fn new(key: &str, value: impl Into<String>, allowed: impl Into<String>, reason: Option<String>) -> Problem {
        let (key, value, allowed) = (show_key(key), value.into(), allowed.into());
        let reason_text = reason.as_ref().map_or(String::new(), |r| format!(" ({})", r.trim_end_matches('.')));
        let message = format!("{key} = {value} is not allowed{reason_text}; allowed: {allowed}");
        Problem { key, value, allowed, reason, message }
    }
}

/// A key as a message shows it: control characters escaped, so a message stays on one line.
fn show_key(key: &str) -> String {
    key.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

/// Every problem found, in the order found.
pub type Problems = Vec<Problem>;

/// A tagged family read in this table: its tag, the kind chosen, and each kind's keys.
#[derive(Debug, Clone)]
struct Chosen {
    tag: &'static str,
    kind: &'static str,
    kinds: Vec<(&'static str, Vec<&'static str>)>,
}

/// One table of a scenario being read.
pub struct Reader<'a> {
    table: &'a Map<String, Json>,
    section: &'static str,
    taken: BTreeSet<&'a str>,
    chosen: Vec<Chosen>,
    pub problems: Problems,
}

impl<'a> Reader<'a> {
    pub fn new(section: &'static str, table: &'a Map<String, Json>) -> Reader<'a> {
        Reader { table, section, taken: BTreeSet::new(), chosen: Vec::new(), problems: Vec::new() }
    }

    /// The dotted path of `key`.
    pub fn path(&self, key: &str) -> String {
        format!("{}.{key}", self.section)
    }

    /// The value of `key`, if given, now taken (a JSON null counts as not given).
    pub fn take(&mut self, key: &'static str) -> Option<&'a Json> {
        let (k, v) = self.table.get_key_value(key)?;
        self.taken.insert(k.as_str());
        (!v.is_null()).then_some(v)
    }

    /// Takes `keys` unread where given: the keys of a kind that could not be told (its tag's value is
    /// not allowed), which are then neither read nor reported as strays.
    pub fn pass_over(&mut self, keys: &[&'static str]) {
        for key in keys {
            if let Some((k, _)) = self.table.get_key_value(*key) {
                self.taken.insert(k.as_str());
            }
        }
    }

    /// Records that `key` = `value` is not allowed.
    pub fn problem(&mut self, key: &str, value: String, allowed: String) {
        let key = self.path(key);
        self.problems.push(Problem::new(&key, value, allowed, None));
    }

    /// Records the kind chosen for the tag `tag` among `kinds` (name, keys), so that a key of another
    /// kind can be named with the kind that takes it.
    pub fn chose(&mut self, tag: &'static str, kind: &'static str, kinds: Vec<(&'static str, Vec<&'static str>)>) {
        self.chosen.push(Chosen { tag, kind, kinds });
    }

    /// Ends the table: every key left is a problem, named with the kind that takes it, or where it
    /// moved (`moved(key)`), or as unknown among `known`.
    pub fn finish(mut self, known: &[&'static str], moved: impl Fn(&str) -> Option<String>) -> (Problems, Vec<String>) {
        let given: Vec<String> = self.taken.iter().map(|k| self.path(k)).collect();
        let left: Vec<(&String, &Json)> = self.table.iter().filter(|(k, _)| !self.taken.contains(k.as_str())).collect();
        for (key, value) in left {
            let path = self.path(key);
            let belongs = self.chosen.iter().rev().find_map(|c| {
                let owners: Vec<&str> =
                    c.kinds.iter().filter(|(_, keys)| keys.contains(&key.as_str())).map(|(name, _)| *name).collect();
                (!owners.is_empty() && !owners.contains(&c.kind)).then_some((c, owners))
            });
            let problem = if let Some((c, owners)) = belongs {
                let tag = self.path(c.tag);
                Problem::new(
                    &path,
                    show(value),
                    format!("the keys of {tag} = '{}' (see docs/config.md)", c.kind),
                    Some(format!("it belongs to {tag} = {}; this scenario's is '{}'", or_list(&owners), c.kind)),
                )
            } else if let Some(place) = moved(&path) {
                Problem::new(&path, show(value), place, Some("this key has moved".to_string()))
            } else {
                let names: Vec<String> = self.keys_here(known);
                Problem::new(
                    &path,
                    show(value),
                    format!("one of the keys {}", names.join(", ")),
                    Some("unknown key".to_string()),
                )
            };
            self.problems.push(problem);
        }
        (self.problems, given)
    }

    /// The keys this table may hold with the kinds chosen: `known` less those of kinds not chosen.
    fn keys_here(&self, known: &[&'static str]) -> Vec<String> {
        let foreign: BTreeSet<&str> = self
            .chosen
            .iter()
            .flat_map(|c| {
                let mine: BTreeSet<&str> =
                    c.kinds.iter().filter(|(n, _)| *n == c.kind).flat_map(|(_, k)| k.iter().copied()).collect();
                c.kinds
                    .iter()
                    .filter(|(n, _)| *n != c.kind)
                    .flat_map(|(_, k)| k.iter().copied())
                    .filter(move |k| !mine.contains(k))
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut names: Vec<String> = Vec::new();
        for k in known {
            if !foreign.contains(k) && !names.iter().any(|n| n == k) {
                names.push(k.to_string());
            }
        }
        names
    }
}

/// A value as an error message shows it: strings quoted, long values cut short.
pub fn show(v: &Json) -> String {
    let text = spelled(v);
    if text.chars().count() > 80 {
        format!("{}...", text.chars().take(77).collect::<String>())
    } else {
        text
    }
}

/// A value as the front spells it: strings quoted, lists `[1, 'a']`, tables `{'k': 1}`.
fn spelled(v: &Json) -> String {
    match v {
        Json::String(s) => format!("'{}'", s.escape_default()),
        Json::Bool(b) => b.to_string(),
        Json::Null => "(not set)".to_string(),
        Json::Number(n) => n.to_string(),
        Json::Array(items) => format!("[{}]", items.iter().map(spelled).collect::<Vec<_>>().join(", ")),
        Json::Object(t) => {
            let entries: Vec<String> =
                t.iter().map(|(k, v)| format!("'{}': {}", k.escape_default(), spelled(v))).collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
pub fn or_list(names: &[&str]) -> String {
    or_list_marked(names, ("'", "'"))
}

/// `names` as a list ending in "or", each between `open` and `close` (`a`, `b` or `c` in docs).
pub fn or_list_marked(names: &[&str], (open, close): (&str, &str)) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{open}{n}{close}")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}
