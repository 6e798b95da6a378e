"""The package's requirements: compatible ranges in pyproject.toml, the exact development lock
(requirements-dev.txt) inside them, the tested lower bounds (requirements-floor.txt) equal to them, and the
wheel check's other packages (.ci/wheel-neighbours.txt) inside them but not at the lock's versions."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _requirements() -> list[Requirement]:
    """pyproject.toml's runtime requirements and those of every extra."""
    project = PYPROJECT["project"]
    lines = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        lines += extra
    return [Requirement(line) for line in lines]


def _pins(name: str) -> dict[str, Version]:
    """The `name==version` lines of a requirements file, by canonical name (each name once)."""
    pins: dict[str, Version] = {}
    for line in (REPO / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        (spec,) = requirement.specifier  # one `==` each, nothing else
        assert spec.operator == "==", f"{name}: {line!r} is not an exact pin"
        key = canonicalize_name(requirement.name)
        assert key not in pins, f"{name}: {requirement.name} twice"
        pins[key] = Version(spec.version)
    return pins


REQUIREMENTS = _requirements()
LOCK = _pins("requirements-dev.txt")
FLOOR = _pins("requirements-floor.txt")
NEIGHBOURS = _pins(".ci/wheel-neighbours.txt")


def test_pyproject_declares_ranges_never_exact_versions() -> None:
    build = [Requirement(line) for line in PYPROJECT["build-system"]["requires"]]
    for requirement in [*REQUIREMENTS, *build]:
        operators = {spec.operator for spec in requirement.specifier}
        assert ">=" in operators, f"{requirement}: no lower bound"
        assert not operators & {"==", "==="}, f"{requirement}: an exact version (the lock has those)"


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_the_lock_pins_every_requirement_inside_its_range(requirement: Requirement) -> None:
    version = LOCK.get(canonicalize_name(requirement.name))
    assert version is not None, f"requirements-dev.txt does not pin {requirement.name}"
    assert requirement.specifier.contains(version, prereleases=True), f"{requirement.name}=={version} not in {requirement}"


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_the_floor_is_each_lower_bound(requirement: Requirement) -> None:
    (lower,) = [Version(spec.version) for spec in requirement.specifier if spec.operator == ">="]
    assert FLOOR.get(canonicalize_name(requirement.name)) == lower, (
        f"requirements-floor.txt must pin {requirement.name} at its lower bound {lower}"
    )


def test_the_floor_pins_nothing_else() -> None:
    assert set(FLOOR) == {canonicalize_name(r.name) for r in REQUIREMENTS}


def test_the_lock_has_the_tools_make_uses() -> None:
    assert {"maturin", "pytest", "hypothesis", "packaging", "ruff", "mypy", "pandas-stubs"} <= set(LOCK)
    build_backend = Requirement(PYPROJECT["build-system"]["requires"][0])
    assert build_backend.name == "maturin" and build_backend.specifier.contains(LOCK["maturin"])


def test_the_wheel_checks_neighbours_are_in_range_at_other_versions_than_the_lock() -> None:
    ranges = {canonicalize_name(r.name): r.specifier for r in REQUIREMENTS}
    ours = [name for name in NEIGHBOURS if name in ranges]
    assert len(ours) >= 3 and len(ours) < len(NEIGHBOURS), "some of flitcast's requirements and some other package"
    for name in ours:
        assert ranges[name].contains(NEIGHBOURS[name]), f"{name}=={NEIGHBOURS[name]} not in {ranges[name]}"
        assert NEIGHBOURS[name] not in (LOCK[name], FLOOR[name]), f"{name}: the lock's or the floor's version"


def test_the_floor_is_pandas_2() -> None:
    # so that make test-floor runs the whole suite on pandas 2 (the lock has pandas 3)
    assert FLOOR["pandas"].major == 2 and LOCK["pandas"].major == 3
