"""The package's requirements: compatible ranges in pyproject.toml, the exact development lock
(requirements-dev.txt) inside them, the tested lower bounds (requirements-floor.txt) equal to them, and the
wheel check's environments (.ci/wheel-neighbours/, pandas 2 and pandas 3) inside them but not at the lock's
versions; the wheel check's test of the wheel's platform tag (.ci/wheel_glibc.py)."""

from __future__ import annotations

import importlib.util
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
ENVIRONMENTS = sorted(str(path.relative_to(REPO)) for path in (REPO / ".ci" / "wheel-neighbours").glob("*.txt"))


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
    assert {"maturin", "ziglang", "pytest", "hypothesis", "packaging", "ruff", "mypy", "pandas-stubs"} <= set(LOCK)
    build_backend = Requirement(PYPROJECT["build-system"]["requires"][0])
    assert build_backend.name == "maturin" and build_backend.specifier.contains(LOCK["maturin"])


@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_the_wheel_checks_neighbours_are_in_range_at_other_versions_than_the_lock(environment: str) -> None:
    neighbours = _pins(environment)
    ranges = {canonicalize_name(r.name): r.specifier for r in REQUIREMENTS}
    ours = [name for name in neighbours if name in ranges]
    assert len(ours) >= 3 and len(ours) < len(neighbours), "some of flitcast's requirements and some other package"
    for name in ours:
        assert ranges[name].contains(neighbours[name]), f"{name}=={neighbours[name]} not in {ranges[name]}"
        assert neighbours[name] not in (LOCK[name], FLOOR[name]), f"{name}: the lock's or the floor's version"


def test_the_wheel_check_installs_beside_pandas_2_and_pandas_3() -> None:
    # users keep the pandas they have: the wheel goes in beside each major version the range allows
    majors = sorted(_pins(environment)["pandas"].major for environment in ENVIRONMENTS)
    assert majors == [2, 3], ENVIRONMENTS


def test_the_floor_is_pandas_2() -> None:
    # so that make test-floor runs the whole suite on pandas 2 (the lock has pandas 3)
    assert FLOOR["pandas"].major == 2 and LOCK["pandas"].major == 3


def _wheel_glibc():  # .ci/wheel_glibc.py, a script beside the wheel check rather than a module of the package
    spec = importlib.util.spec_from_file_location("wheel_glibc", REPO / ".ci" / "wheel_glibc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("platform", "problem"),
    [
        ("manylinux_2_28_x86_64", None),
        ("manylinux_2_17_x86_64.manylinux2014_x86_64", None),
        ("manylinux2010_x86_64", None),
        ("manylinux_2_34_x86_64", "manylinux_2_34_x86_64 asks for glibc 2.34, newer than 2.28"),
        ("manylinux_2_28_x86_64.manylinux_2_29_x86_64", "manylinux_2_29_x86_64 asks for glibc 2.29, newer than 2.28"),
        ("manylinux_3_0_x86_64", "manylinux_3_0_x86_64 asks for glibc 3.0, newer than 2.28"),
        ("linux_x86_64", "linux_x86_64 is not a manylinux tag"),
        ("musllinux_1_2_x86_64", "musllinux_1_2_x86_64 is not a manylinux tag"),
    ],
)
def test_the_wheel_check_reads_the_glibc_a_wheel_asks_for(platform: str, problem: str | None) -> None:
    assert _wheel_glibc().check(f"dist/flitcast-0.2.0-cp311-abi3-{platform}.whl", "2.28") == problem


def test_the_wheel_check_fails_on_a_wheel_for_a_newer_glibc(capsys: pytest.CaptureFixture[str]) -> None:
    assert _wheel_glibc().main(["flitcast-0.2.0-cp311-abi3-manylinux_2_34_x86_64.whl", "2.28"]) == 1
    assert "would not install where glibc is 2.28" in capsys.readouterr().err
    assert _wheel_glibc().main(["flitcast-0.2.0-cp311-abi3-manylinux_2_28_x86_64.whl", "2.28"]) == 0
