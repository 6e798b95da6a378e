"""The house has no import circles: no Rust file of the crates and no module of the Python package depends,
through any chain, on itself (docs/architecture.md).

Read from the source text: a Rust file depends on another where it names it — a ``use``, an inline
``crate::``/``super::``/``self::`` path, or a child module a ``mod.rs`` names (``switch/mod.rs`` naming
``input_buffered::InputBuffered`` in its registry); ``pub use`` re-exports are followed to the file that
defines the name, so ``crate::Cycle`` depends on ``time.rs``, not ``lib.rs``. Test modules
(``#[cfg(test)]``) are left out. A Python module depends on every module it imports, anywhere in it (also
inside functions and ``if TYPE_CHECKING:``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import REPO

CRATES = REPO / "crates"
PACKAGE = REPO / "python" / "flitcast"


# --- Rust ------------------------------------------------------------------------------------------


def _rust_modules() -> dict[tuple[str, ...], Path]:
    """Module path (crate, a, b) -> file, for every crate."""
    out: dict[tuple[str, ...], Path] = {}
    for src in CRATES.glob("*/src"):
        crate = src.parent.name.replace("-", "_")
        for path in src.rglob("*.rs"):
            parts = list(path.relative_to(src).with_suffix("").parts)
            if parts[-1] in ("mod", "lib"):
                parts = parts[:-1]
            out[(crate, *parts)] = path
    return out


def _code(path: Path) -> str:
    """The file without comments, string literals and its test module."""
    text = path.read_text(encoding="utf-8")
    text = text.split("#[cfg(test)]")[0]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'r#*"(?:[^"\\]|\\.)*"#*|"(?:[^"\\]|\\.)*"', '""', text)
    return text


def _use_paths(code: str) -> list[tuple[str, bool]]:
    """Every path a file names: (path, is it a re-export), `use a::{b, c::d}` expanded."""
    paths: list[tuple[str, bool]] = []
    for m in re.finditer(r"(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", code):
        public, tree = bool(m.group(1)), re.sub(r"\s+", "", m.group(2))
        paths += [(p, public) for p in _expand(tree)]
    for m in re.finditer(r"(?<![\w$:])((?:crate|super|self)(?:::\w+)+)", code):
        paths.append((m.group(1), False))
    return paths


def _expand(tree: str) -> list[str]:
    """`a::{b,c::{d,e}}` -> [a::b, a::c::d, a::c::e]."""
    if "{" not in tree:
        return [tree.split(" as ")[0]]
    head, _, rest = tree.partition("{")
    body = rest[: rest.rfind("}")]
    items, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            items.append(body[start:i])
            start = i + 1
    items.append(body[start:])
    return [p for item in items if item for p in _expand(head + item)]


def _rust_graph() -> dict[Path, set[Path]]:
    modules = _rust_modules()
    crates = {m[0] for m in modules}
    by_file = {path: module for module, path in modules.items()}
    codes = {path: _code(path) for path in by_file}
    children = {path: set(re.findall(r"\bmod\s+(\w+)\s*;", codes[path])) for path in by_file}
    exports: dict[Path, dict[str, str]] = {}
    for path in by_file:
        exports[path] = {}
        for p, public in _use_paths(codes[path]):
            if public:
                exports[path][p.split("::")[-1]] = p

    def absolute(module: tuple[str, ...], path: str) -> tuple[str, ...]:
        parts = path.split("::")
        if parts[0] == "crate":
            return (module[0], *parts[1:])
        if parts[0] in crates:
            return tuple(parts)
        base = list(module)
        while parts and parts[0] in ("self", "super"):
            if parts.pop(0) == "super":
                base.pop()
        return (*base, *parts)

    def resolve(target: tuple[str, ...], seen: int = 0) -> Path | None:
        for n in range(len(target), 0, -1):
            if target[:n] in modules:
                file = modules[target[:n]]
                rest = target[n:]
                if rest and rest[0] in exports[file] and seen < 8:
                    again = resolve(absolute(target[:n], exports[file][rest[0]]), seen + 1)
                    return again or file
                return file
        return None

    graph: dict[Path, set[Path]] = {}
    for path, module in by_file.items():
        deps = set()
        for p, public in _use_paths(codes[path]):
            if public:
                continue
            target = resolve(absolute(module, p))
            if target is not None and target != path:
                deps.add(target)
        for child in children[path]:
            # a child module a parent names in code (a registry line: `child::Kind`)
            if re.search(rf"(?<![\w:]){child}::\w", codes[path]):
                deps.add(modules[(*module, child)])
        graph[path] = deps
    return graph


# --- Python ----------------------------------------------------------------------------------------


def _python_graph() -> dict[Path, set[Path]]:
    root = PACKAGE.parent
    files = {p for p in PACKAGE.rglob("*.py")}

    def file_of(name: str) -> Path | None:
        base = root / Path(*name.split("."))
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate in files:
                return candidate
        return None

    def extension(name: str) -> bool:
        return (root / Path(*name.split("."))).with_suffix(".pyi").exists()

    graph: dict[Path, set[Path]] = {}
    for path in files:
        package = ".".join(path.relative_to(root).with_suffix("").parts)
        if path.name == "__init__.py":
            package = package.rsplit(".", 1)[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + (path.name == "__init__.py")]
                    base = ".".join([*parent, *([base] if base else [])])
                # `from P import a, b`: the submodules a and b where they are modules, else P itself
                members = [f"{base}.{a.name}" for a in node.names]
                submodules = [m for m in members if file_of(m) is not None or extension(m)]
                modules = submodules or [base]
            else:
                continue
            for name in modules:
                target = file_of(name) if name.startswith("flitcast") else None
                if target is not None and target != path:
                    deps.add(target)
        graph[path] = deps
    return graph


# --- cycles ----------------------------------------------------------------------------------------


def _cycles(graph: dict[Path, set[Path]]) -> list[list[Path]]:
    """The strongly connected components with more than one file (Tarjan)."""
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    found: list[list[Path]] = []
    counter = 0

    def visit(v: Path) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("language", ["rust", "python"])
def test_no_import_circles(language: str) -> None:
    graph = _rust_graph() if language == "rust" else _python_graph()
    assert len(graph) > 20, "the source was found"
    circles = [sorted(str(p.relative_to(REPO)) for p in c) for c in _cycles(graph)]
    assert not circles, f"import circles: {circles}"


def _parts(graph: dict[Path, set[Path]]) -> dict[Path, set[Path]]:
    """The graph between the top-level parts of each crate: a folder under src/ (``switch/``) or a file
    there (``engine.rs``), each part what its files import from the other parts."""

    def part(path: Path) -> Path:
        src = next(p for p in path.parents if p.name == "src")
        return src / path.relative_to(src).parts[0]

    out: dict[Path, set[Path]] = {}
    for path, deps in graph.items():
        out.setdefault(part(path), set()).update(part(d) for d in deps if part(d) != part(path))
    return out


def test_no_arrow_runs_back_up_between_the_cores_parts() -> None:
    # no circle between folders either: each part stands on a floor above everything it uses (a
    # vocabulary two families share sits below both, as candidates.rs does for routing and selection)
    parts = _parts(_rust_graph())
    assert len(parts) > 20, "the parts were found"
    circles = [sorted(str(p.relative_to(REPO)) for p in c) for c in _cycles(parts)]
    assert not circles, f"parts of a crate that use each other: {circles}"


def test_the_reader_sees_a_circle() -> None:
    # the test above can fail: a circle made of two files naming each other is found
    a, b = Path("a"), Path("b")
    assert _cycles({a: {b}, b: {a}}) == [[b, a]] or _cycles({a: {b}, b: {a}}) == [[a, b]]
    assert _expand("a::{b,c::{d,e}}") == ["a::b", "a::c::d", "a::c::e"]
    # and two folders whose files use each other's, though no two files do
    src = Path("crates/c/src")
    files = {src / "a/x.rs": {src / "b/y.rs"}, src / "b/z.rs": {src / "a/w.rs"}, src / "a/w.rs": set(), src / "b/y.rs": set()}
    assert _cycles(_parts(files)) in ([[src / "a", src / "b"]], [[src / "b", src / "a"]])
