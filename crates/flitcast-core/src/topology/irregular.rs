//! An irregular network read from a file: any connected graph of routers joined by bidirectional
//! links, with terminals attached where the file says (the networks of workstations up*/down* routing
//! was made for: Schroeder et al., "Autonet", IEEE JSAC 9(8), 1991, §3 and §6.6).
//!
//! The file (`network.file`; the Python front makes a path in a scenario file relative to that
//! file's folder, as it does for every key of unit "path") is the network's whole description; docs/models/irregular.md gives its format and a complete example. In short, one record
//! a line, fields separated by commas, `#` starting a comment:
//!
//! ```text
//! routers,COUNT,PORTS                                 first: COUNT routers of PORTS ports each
//! link,ROUTER,PORT,ROUTER,PORT[,LATENCY_CYCLES]       a bidirectional link (both channels)
//! terminal,TERMINAL,ROUTER,PORT                       terminal TERMINAL attached at ROUTER's PORT
//! ```
//!
//! Port numbering: as the file gives it; ports no record names are unused. Reading choices: links
//! are bidirectional, because up*/down* routing needs every link usable both ways (Autonet's links
//! are full duplex); a link's latency, where its line gives none, is `network.channel_latency_cycles`,
//! and the channels between a terminal and its router take `network.terminal_latency_cycles` as in
//! every other network. A self loop (a link from a router to itself) is refused: it joins no two
//! routers and up*/down* could give it no direction. Parallel links between two routers are allowed
//! (Autonet has them). Terminals are numbered 0, 1, … without gaps, so that traffic patterns read
//! them as in any other network. Every router must be connected to router 0; a router need not have
//! a terminal.
//!
//! Every check of the file lives here, in the core (not in the Python front that reads scenario
//! files): the scenario's rules (`scenario/rules.rs`) read the file through [`load`], so a bad file is
//! refused when the scenario is checked, with a message naming the file, the line and what is wrong.

use std::io::Read;

use super::graph::{Builder, Geometry, PortLink, Topology};
use crate::error::Error;
use crate::facts::Facts;
use crate::params::{params, show, Kind, Problem};

/// The largest network file read, as for scenario files: a wrong path (a log, an image) is not read
/// whole.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Most routers a file may declare (the up*/down* tables grow as routers × routers with terminals).
pub const MAX_ROUTERS: u32 = 4096;
/// Most ports a router may have (port sets are 64-bit masks).
pub const MAX_PORTS: u32 = 64;
/// A link's latency at most, as `network.channel_latency_cycles`.
pub const MAX_LATENCY: u32 = 1000;

params! {
    /// An irregular network read from a file.
    pub struct Params {
        /// The network file: its routers, links (with their latencies) and terminals, one record a
        /// line (docs/models/irregular.md). In a scenario file, a relative path is taken from the
        /// scenario file's folder; given any other way (`--set`, a Python dict), from the working
        /// directory.
        file: String = String::new(), unit("path");
    }
}

pub struct Irregular;

impl Kind for Irregular {
    const NAME: &'static str = "irregular";
    const DOC: &'static str =
        "any connected network of routers and terminals read from network.file; ports as the file \
                               gives them (docs/models/irregular.md)";
    type Params = Params;
}

impl Builder for Irregular {
    fn sized_by(_: &Params) -> &'static str {
        "network.file"
    }

    fn graph(p: &Params, latency: u32) -> Result<Topology, Error> {
        let net = load(&p.file).map_err(|e| Error::from_problems(vec![e.problem(&p.file)]))?;
        Ok(net.topology(&p.file, latency))
    }
    fn nodes(p: &Params) -> Option<u64> {
        load(&p.file).ok().map(|n| n.terminals.len() as u64)
    }
    fn radix(p: &Params) -> u32 {
        load(&p.file).map_or(0, |n| n.ports)
    }
    fn known_routers(p: &Params) -> Option<u32> {
        load(&p.file).ok().map(|n| n.routers)
    }
    fn longest_channel(p: &Params, latency: u32) -> (u32, Option<&'static str>) {
        let most = load(&p.file).ok().and_then(|n| n.links.iter().filter_map(|l| l.latency).max());
        match most {
            Some(most) if most > latency => (most, Some("network.file")),
            _ => (latency, None),
        }
    }
    fn needs(_: &Params) -> &'static str {
        "a file (`network.file`) that can be read and describes a connected network (docs/models/irregular.md)"
    }
    fn unfit(p: &Params, _: &Facts) -> Vec<Problem> {
        load(&p.file).err().map(|e| e.problem(&p.file)).into_iter().collect()
    }
}

/// A link as its line gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub a: (u32, u8),
    pub b: (u32, u8),
    /// None: `network.channel_latency_cycles`.
    pub latency: Option<u32>,
}

/// A network file, read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Net {
    pub routers: u32,
    pub ports: u32,
    pub links: Vec<Link>,
    /// Where terminal t is attached: (router, port).
    pub terminals: Vec<(u32, u8)>,
}

/// What is wrong with a network file, and the line where it is (None: the file as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub line: Option<usize>,
    pub what: String,
}

impl FileError {
    fn at(line: usize, what: impl Into<String>) -> FileError {
        FileError { line: Some(line), what: what.into() }
    }

    /// The problem of `network.file = path`: the file, the line and what is wrong.
    pub fn problem(&self, path: &str) -> Problem {
        let reason = match self.line {
            Some(line) => format!("{path}, line {line}: {}", self.what),
            None => format!("{path}: {}", self.what),
        };
        Problem::new(
            "network.file",
            show(&serde_json::Value::from(path)),
            "the path of a network file (routers, links and terminals, one a line: docs/models/irregular.md)",
            Some(reason),
        )
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// Reads and checks the network file at `path`.
pub fn load(path: &str) -> Result<Net, FileError> {
    let whole = |what: String| FileError { line: None, what };
    if path.is_empty() {
        return Err(whole("no file named (set network.file)".into()));
    }
    // (looked at before it is opened: opening a FIFO would wait for a writer, and a device such as
    // /dev/zero never ends)
    let meta = std::fs::metadata(path).map_err(|e| whole(format!("cannot be read: {e}")))?;
    if meta.is_dir() {
        return Err(whole("is a directory".into()));
    }
    if !meta.is_file() {
        return Err(whole("is not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(whole(format!("has {} bytes, more than {MAX_FILE_BYTES}", meta.len())));
    }
    let file = std::fs::File::open(path).map_err(|e| whole(format!("cannot be read: {e}")))?;
    let mut raw = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut raw).map_err(|e| whole(format!("cannot be read: {e}")))?;
    if raw.len() as u64 > MAX_FILE_BYTES {
        return Err(whole(format!("has more than {MAX_FILE_BYTES} bytes")));
    }
    let text = String::from_utf8(raw)
        .map_err(|e| whole(format!("is not UTF-8 text (byte {})", e.utf8_error().valid_up_to())))?;
    parse(&text)
}

/// Reads and checks a network file's text.
pub fn parse(text: &str) -> Result<Net, FileError> {
    // (routers, ports, the line that declared them)
    let mut declared: Option<(u32, u32, usize)> = None;
    let mut links = Vec::new();
    let mut link_lines = Vec::new();
    // The line that used each (router, port), and each terminal's line and place.
    let mut used: Vec<usize> = Vec::new();
    let mut terminals: Vec<Option<(u32, u8, usize)>> = Vec::new();
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last = line;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split(',').map(str::trim).collect();
        let (record, args) = (fields[0], &fields[1..]);
        let count = |allowed: &[usize], spelled: &str| {
            if allowed.contains(&args.len()) {
                Ok(())
            } else {
                Err(FileError::at(
                    line,
                    format!("'{record}' takes {spelled}; this line has {} field(s) after it", args.len()),
                ))
            }
        };
        let int = |index: usize, what: &str| -> Result<u32, FileError> {
            args[index].parse::<u32>().map_err(|_| {
                FileError::at(line, format!("{what} '{}' is not a whole number", args[index].escape_default()))
            })
        };
        if record == "routers" {
            count(&[2], "2 fields (COUNT, PORTS)")?;
            if let Some((_, _, first)) = declared {
                return Err(FileError::at(line, format!("a second 'routers' line (the first is line {first})")));
            }
            let (routers, ports) = (int(0, "the router count")?, int(1, "the port count")?);
            if !(1..=MAX_ROUTERS).contains(&routers) {
                return Err(FileError::at(line, format!("{routers} routers; allowed: 1 to {MAX_ROUTERS}")));
            }
            if !(1..=MAX_PORTS).contains(&ports) {
                return Err(FileError::at(line, format!("{ports} ports a router; allowed: 1 to {MAX_PORTS}")));
            }
            declared = Some((routers, ports, line));
            used = vec![0; (routers * ports) as usize];
            continue;
        }
        if !["link", "terminal"].contains(&record) {
            return Err(FileError::at(
                line,
                format!("unknown record '{}'; allowed: 'routers', 'link', 'terminal'", record.escape_default()),
            ));
        }
        let Some((routers, ports, _)) = declared else {
            return Err(FileError::at(
                line,
                format!("'{record}' before the 'routers COUNT,PORTS' line, which comes first"),
            ));
        };
        // A (router, port) of this line, checked and marked used.
        let mut place = |router: u32, port: u32| -> Result<(u32, u8), FileError> {
            if router >= routers {
                return Err(FileError::at(line, format!("unknown router {router} (routers are 0 to {})", routers - 1)));
            }
            if port >= ports {
                return Err(FileError::at(
                    line,
                    format!(
                        "port {port} of router {router} is out of range (routers have {ports} ports, 0 to {})",
                        ports - 1
                    ),
                ));
            }
            let slot = &mut used[(router * ports + port) as usize];
            if *slot != 0 {
                return Err(FileError::at(line, format!("router {router} port {port} is already used (line {slot})")));
            }
            *slot = line;
            Ok((router, port as u8))
        };
        if record == "link" {
            count(&[4, 5], "4 or 5 fields (ROUTER, PORT, ROUTER, PORT[, LATENCY_CYCLES])")?;
            let (ra, pa, rb, pb) = (int(0, "router")?, int(1, "port")?, int(2, "router")?, int(3, "port")?);
            let latency = match args.get(4) {
                None => None,
                Some(_) => {
                    let bad = || {
                        FileError::at(
                            line,
                            format!(
                                "latency '{}' is not allowed; allowed: an integer from 1 to {MAX_LATENCY} cycles",
                                args[4].escape_default()
                            ),
                        )
                    };
                    let l = args[4].parse::<u32>().map_err(|_| bad())?;
                    if !(1..=MAX_LATENCY).contains(&l) {
                        return Err(bad());
                    }
                    Some(l)
                }
            };
            if ra == rb && ra < routers {
                return Err(FileError::at(line, format!("a self loop: router {ra} linked to itself")));
            }
            let (a, b) = (place(ra, pa)?, place(rb, pb)?);
            links.push(Link { a, b, latency });
            link_lines.push(line);
        } else {
            count(&[3], "3 fields (TERMINAL, ROUTER, PORT)")?;
            let t = int(0, "terminal")?;
            if t >= MAX_ROUTERS * MAX_PORTS {
                return Err(FileError::at(
                    line,
                    format!("terminal {t}; allowed: 0 to {}", MAX_ROUTERS * MAX_PORTS - 1),
                ));
            }
            if let Some(Some((_, _, first))) = terminals.get(t as usize) {
                return Err(FileError::at(line, format!("terminal {t} is attached twice (first at line {first})")));
            }
            let (r, p) = place(int(1, "router")?, int(2, "port")?)?;
            if terminals.len() <= t as usize {
                terminals.resize(t as usize + 1, None);
            }
            terminals[t as usize] = Some((r, p, line));
        }
    }
    let Some((routers, ports, routers_line)) = declared else {
        return Err(FileError::at(last.max(1), "no 'routers COUNT,PORTS' line"));
    };
    if let Some(missing) = terminals.iter().position(Option::is_none) {
        let (highest, (_, _, line)) =
            (terminals.len() - 1, terminals.last().copied().flatten().expect("the last is set"));
        return Err(FileError::at(
            line,
            format!("terminal {highest} leaves a gap: terminal {missing} is not attached (terminals are numbered 0, 1, 2, … without gaps)"),
        ));
    }
    if terminals.len() < 2 {
        // (traffic goes from one terminal to another)
        return Err(FileError::at(
            routers_line,
            format!("the network has {} terminal(s), fewer than 2 (add 'terminal' lines)", terminals.len()),
        ));
    }
    // Every router reached from router 0.
    let mut adjacent = vec![Vec::new(); routers as usize];
    for l in &links {
        adjacent[l.a.0 as usize].push(l.b.0);
        adjacent[l.b.0 as usize].push(l.a.0);
    }
    let mut reached = vec![false; routers as usize];
    reached[0] = true;
    let mut queue = vec![0u32];
    while let Some(r) = queue.pop() {
        for &n in &adjacent[r as usize] {
            if !reached[n as usize] {
                reached[n as usize] = true;
                queue.push(n);
            }
        }
    }
    if let Some(lost) = reached.iter().position(|&r| !r) {
        // (the first line that names it; the routers line declared it)
        let named = used[lost * ports as usize..][..ports as usize].iter().copied().filter(|&l| l != 0).min();
        let (line, where_) = match named {
            Some(l) => (l, "named here"),
            None => (routers_line, "declared here, and on no other line"),
        };
        return Err(FileError::at(
            line,
            format!("router {lost} ({where_}) is not connected to router 0: no chain of links joins them"),
        ));
    }
    let terminals = terminals.into_iter().map(|t| t.map(|(r, p, _)| (r, p)).expect("no gaps")).collect();
    Ok(Net { routers, ports, links, terminals })
}

impl Net {
    /// The network's graph: links without a latency of their own take `latency`, as do the terminals'
    /// channels.
    pub fn topology(&self, file: &str, latency: u32) -> Topology {
        let ports = self.ports as usize;
        let mut links = vec![PortLink::Unused; self.routers as usize * ports];
        let mut latencies = vec![latency; links.len()];
        for l in &self.links {
            let (ia, ib) = (l.a.0 as usize * ports + l.a.1 as usize, l.b.0 as usize * ports + l.b.1 as usize);
            links[ia] = PortLink::Router { router: l.b.0, port: l.b.1 };
            links[ib] = PortLink::Router { router: l.a.0, port: l.a.1 };
            latencies[ia] = l.latency.unwrap_or(latency);
            latencies[ib] = l.latency.unwrap_or(latency);
        }
        for (t, &(r, p)) in self.terminals.iter().enumerate() {
            links[r as usize * ports + p as usize] = PortLink::Terminal { terminal: t as u32 };
        }
        let name = format!("irregular network of {} routers, {} nodes ({file})", self.routers, self.terminals.len());
        Topology::new(
            name,
            Geometry::Graph,
            (0..=self.routers).map(|r| r * self.ports).collect(),
            links,
            latencies,
            vec![latency; self.terminals.len()],
        )
        .expect("a checked file attaches every port and terminal once")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &str = "# a square of four routers, a terminal on each\n\
                          routers,4,3\n\
                          link,0,0,1,0\n\
                          link,1,1,2,0, 2   # two cycles\n\
                          link,2,1,3,0\n\
                          link,3,1,0,1\n\
                          terminal,0,0,2\n\
                          terminal,1,1,2\n\
                          terminal,2,2,2\n\
                          terminal,3,3,2\n";

    #[test]
    fn a_square_reads_back_as_its_graph() {
        let net = parse(SQUARE).unwrap();
        assert_eq!((net.routers, net.ports, net.links.len(), net.terminals.len()), (4, 3, 4, 4));
        let t = net.topology("square", 1);
        assert_eq!(t.link(1, 1), PortLink::Router { router: 2, port: 0 });
        assert_eq!(t.link(2, 0), PortLink::Router { router: 1, port: 1 });
        assert_eq!(t.input(2, 0), PortLink::Router { router: 1, port: 1 });
        assert_eq!(t.latency[t.port_index(1, 1)], 2);
        assert_eq!(t.latency[t.port_index(2, 0)], 2);
        assert_eq!(t.latency[t.port_index(0, 0)], 1);
        assert_eq!(t.terminal_at, vec![(0, 2), (1, 2), (2, 2), (3, 2)]);
    }

    /// Each kind of bad file, the line it names and a piece of what it says.
    #[test]
    fn a_bad_file_names_the_line_and_what_is_wrong() {
        let cases: &[(&str, Option<usize>, &str)] = &[
            (
                "routers,2,2\nlink,0,0,1,0\nlink,0,0,1,1\nterminal,0,0,1\n",
                Some(3),
                "router 0 port 0 is already used (line 2)",
            ),
            ("routers,2,2\nlink,0,0,1,0\nterminal,0,1,0\n", Some(3), "router 1 port 0 is already used (line 2)"),
            (
                "routers,2,2\nlink,0,0,1,2\nterminal,0,0,1\n",
                Some(2),
                "port 2 of router 1 is out of range (routers have 2 ports, 0 to 1)",
            ),
            ("routers,2,2\nlink,0,0,0,1\n", Some(2), "a self loop: router 0 linked to itself"),
            (
                "routers,3,2\nlink,0,0,1,0\nterminal,0,0,1\nterminal,1,2,0\n",
                Some(4),
                "router 2 (named here) is not connected to router 0",
            ),
            (
                "routers,3,2\nlink,0,0,1,0\nterminal,0,0,1\nterminal,1,1,1\n",
                Some(1),
                "router 2 (declared here, and on no other line) is not connected",
            ),
            (
                "routers,2,2\nlink,0,0,1,0\nterminal,0,0,1\nterminal,0,1,1\n",
                Some(4),
                "terminal 0 is attached twice (first at line 3)",
            ),
            ("routers,2,2\nlink,0,0,5,0\n", Some(2), "unknown router 5 (routers are 0 to 1)"),
            (
                "routers,2,2\nlink,0,0,1,0,0\n",
                Some(2),
                "latency '0' is not allowed; allowed: an integer from 1 to 1000 cycles",
            ),
            ("routers,2,2\nlink,0,0,1,0,1.5\n", Some(2), "latency '1.5' is not allowed"),
            ("routers,2,2\nlink,0,0,1,0,1001\n", Some(2), "latency '1001' is not allowed"),
            ("routers,2,2\nlink,0,0,1\n", Some(2), "'link' takes 4 or 5 fields"),
            ("routers,2,2\nlink,0,x,1,0\n", Some(2), "port 'x' is not a whole number"),
            ("routers,2,2\nlink,0,-1,1,0\n", Some(2), "port '-1' is not a whole number"),
            ("routers,2,2\nswitch,0\n", Some(2), "unknown record 'switch'"),
            ("link,0,0,1,0\n", Some(1), "'link' before the 'routers COUNT,PORTS' line"),
            ("routers,2,2\nrouters,3,2\n", Some(2), "a second 'routers' line (the first is line 1)"),
            ("routers,0,2\n", Some(1), "0 routers; allowed: 1 to 4096"),
            ("routers,2,65\n", Some(1), "65 ports a router; allowed: 1 to 64"),
            ("# nothing\n", Some(1), "no 'routers COUNT,PORTS' line"),
            ("", Some(1), "no 'routers COUNT,PORTS' line"),
            ("routers,2,2\nlink,0,0,1,0\n", Some(1), "the network has 0 terminal(s), fewer than 2"),
            ("routers,2,2\nlink,0,0,1,0\nterminal,0,1,1\n", Some(1), "the network has 1 terminal(s), fewer than 2"),
            (
                "routers,2,2\nlink,0,0,1,0\nterminal,0,0,1\nterminal,2,1,1\n",
                Some(4),
                "terminal 2 leaves a gap: terminal 1 is not attached",
            ),
        ];
        for &(text, line, what) in cases {
            let e = parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.what.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_problem_names_the_file_and_the_line() {
        let p = parse("routers,2,2\nlink,0,0,0,1\n").unwrap_err().problem("nets/a.csv");
        assert_eq!(p.key, "network.file");
        assert_eq!(p.value, "'nets/a.csv'");
        assert!(p.message.contains("nets/a.csv, line 2: a self loop"), "{}", p.message);
        let missing = load("no/such/file.csv").unwrap_err();
        assert_eq!(missing.line, None);
        assert!(missing.what.starts_with("cannot be read"), "{missing}");
        assert!(load("").unwrap_err().what.contains("set network.file"));
        assert_eq!(load(".").unwrap_err().what, "is a directory");
    }
}
