//! Reading a scenario: every table by its declarations (`params::Reader`), then the rules across keys
//! (`rules.rs`) and the keys that have no effect here (`conditional.rs`); and the catalogue of it all
//! (`schema`).

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{json, Map, Value as Json};

use super::sections::{Network, Routing, Run, Switch, Workload};
use super::{conditional, moved, rules, Scenario, SECTIONS};
use crate::error::Error;
use crate::params::{show, KeyDecl, Problem, Problems, Reader, Section};
use crate::stats::metrics::{Metric, WALL_SECONDS};
use crate::stats::RunResult;

/// A scenario as read, with what its reader learnt: the keys it gave, and those of them that have no
/// effect here.
#[derive(Debug, Clone)]
pub struct Checked {
    pub scenario: Scenario,
    pub given: BTreeSet<String>,
    pub warnings: Problems,
}

impl Scenario {
    /// Reads a scenario document (a JSON object of tables): every problem found, or the scenario.
    pub fn check(doc: &Json) -> Result<Checked, Problems> {
        let Some(doc) = doc.as_object() else {
            return Err(vec![Problem::new(
                "scenario",
                show(doc),
                format!("a table of the tables {}", SECTIONS.join(", ")),
                None,
            )]);
        };
        let mut problems = Vec::new();
        let mut given = BTreeSet::new();
        for name in doc.keys().filter(|k| !SECTIONS.contains(&k.as_str())) {
            let value = show(&doc[name]);
            problems.push(match moved::section(name) {
                Some(place) => Problem::new(name, value, place, Some("this table has moved".to_string())),
                None => Problem::new(
                    name,
                    value,
                    format!("one of the tables {}", SECTIONS.join(", ")),
                    Some("unknown table".to_string()),
                ),
            });
        }
        for name in SECTIONS {
            if let Some(other) = doc.get(name).filter(|t| !t.is_object() && !t.is_null()) {
                problems.push(Problem::new(name, show(other), "a table of settings", None));
            }
        }
        let empty = Map::new();
        let mut read = ReadTables { doc, empty: &empty, problems: &mut problems, given: &mut given };
        let s = Scenario {
            network: read.table("network"),
            switch: read.table("switch"),
            routing: read.table("routing"),
            workload: read.table("workload"),
            run: read.table("run"),
        };
        if problems.is_empty() {
            problems = rules::check(&s);
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let warnings = conditional::check(&s, &given);
        Ok(Checked { scenario: s, given, warnings })
    }

    /// A scenario from its JSON text, or the first problem (and how many more) as a config error.
    pub fn from_json(text: &str) -> Result<Scenario, Error> {
        let doc: Json = serde_json::from_str(text)
            .map_err(|e| Error::config("scenario", "(json)", format!("a valid scenario document ({e})")))?;
        Scenario::check(&doc).map(|c| c.scenario).map_err(Error::from_problems)
    }

    /// The scenario a JSON document describes (tests, benches, examples); panics naming its problems.
    pub fn of(doc: Json) -> Scenario {
        match Scenario::check(&doc) {
            Ok(c) => c.scenario,
            Err(problems) => {
                let messages: Vec<String> = problems.into_iter().map(|p| p.message).collect();
                panic!("not a valid scenario: {}", messages.join("; "))
            }
        }
    }

    /// This scenario with the dotted keys of `sets` set (`("switch.model", json!("central_buffer"))`);
    /// a kind named anew takes its defaults, keys of the old kind that it does not take are problems.
    pub fn with(&self, sets: &[(&str, Json)]) -> Result<Scenario, Error> {
        let mut doc = self.to_json(true);
        for (key, value) in sets {
            let (section, name) = key.split_once('.').ok_or_else(|| Error::config(key, "", "a dotted key"))?;
            let table = doc.as_object_mut().expect("a document").entry(section).or_insert_with(|| json!({}));
            table
                .as_object_mut()
                .ok_or_else(|| Error::config(section, "", "a table"))?
                .insert(name.into(), value.clone());
        }
        Scenario::check(&doc).map(|c| c.scenario).map_err(Error::from_problems)
    }

    /// [`with`](Self::with), panicking on a problem (tests, benches).
    pub fn set(&self, sets: &[(&str, Json)]) -> Scenario {
        self.with(sets).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Checks the scenario's rules (a scenario built in Rust rather than read).
    pub fn validate(&self) -> Result<(), Error> {
        let problems = rules::check(self);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Error::from_problems(problems))
        }
    }
}

/// Reading the tables of one document, collecting every problem and every key given.
struct ReadTables<'d, 'p> {
    doc: &'d Map<String, Json>,
    empty: &'d Map<String, Json>,
    problems: &'p mut Problems,
    given: &'p mut BTreeSet<String>,
}

impl ReadTables<'_, '_> {
    /// The table `name` read as `T` (its defaults where it is left out; where it is not a table, too:
    /// that problem is already recorded).
    fn table<T: Section>(&mut self, name: &'static str) -> T {
        let t = match self.doc.get(name) {
            None | Some(Json::Null) => self.empty,
            Some(Json::Object(t)) => t,
            Some(_) => return T::default(),
        };
        let mut r = Reader::new(name, t);
        let read = T::read(&mut r);
        let mut known = Vec::new();
        T::keys(&mut known);
        let (found, keys) = r.finish(&known, moved::key);
        self.problems.extend(found);
        self.given.extend(keys);
        read
    }
}

/// The catalogue of every key, rule and moved key, and of the result's columns (`_core.schema()`;
/// docs/config.md, docs/results.md's table of columns and the Python table's column order are generated
/// from it).
#[derive(Debug, Clone, Serialize)]
pub struct Schema {
    /// Per table: its doc and its keys (a tag's kinds' keys after it).
    pub sections: Vec<(&'static str, &'static str, Vec<KeyDecl>)>,
    /// The rules relating keys, as docs/config.md states them.
    pub rules: Vec<String>,
    /// Keys that matter only in some scenarios: (key, where it matters).
    pub conditional: Vec<(&'static str, &'static str)>,
    /// Keys of earlier versions and where they went.
    pub moved: Vec<(&'static str, &'static str)>,
    /// The columns of a result, in table order: the run's metrics, then its wall time.
    pub metrics: Vec<Metric>,
}

pub fn schema() -> Schema {
    let table =
        |name: &'static str, doc: &'static str, declare: fn(&[(&'static str, &'static str)], &mut Vec<KeyDecl>)| {
            let mut keys = Vec::new();
            declare(&[], &mut keys);
            (name, doc, keys)
        };
    Schema {
        sections: vec![
            table("network", Network::doc(), Network::declare),
            table("switch", Switch::doc(), Switch::declare),
            table("routing", Routing::doc(), Routing::declare),
            table("workload", Workload::doc(), Workload::declare),
            table("run", Run::doc(), Run::declare),
        ],
        rules: rules::texts(),
        conditional: conditional::texts(),
        moved: moved::all(),
        metrics: [RunResult::METRICS, &[WALL_SECONDS]].concat(),
    }
}
