"""Documentation is generated or executed: config.md up to date, README snippets run, results.md complete."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import flitcast
from flitcast import docgen

REPO = Path(__file__).resolve().parent.parent


def test_config_reference_is_up_to_date() -> None:
    current = (REPO / "docs" / "config.md").read_text(encoding="utf-8")
    assert current == docgen.render(), "docs/config.md is stale: run `make docs`"


def test_parameter_table_is_up_to_date() -> None:
    # `flitcast list parameters` prints this file instead of importing pydantic
    assert docgen.TABLE_PATH.read_text(encoding="utf-8") == docgen.render_table(), "parameters.json is stale: run `make docs`"


def test_readme_python_snippets_run(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    snippets = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert snippets
    for snippet in snippets:
        exec(compile(snippet, "README.md", "exec"), {"__name__": "__readme__"})


def test_readme_quick_start_is_make_demo_then_make_test() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("##", 1)[0]
    assert re.findall(r"```sh\n(.*?)```", quick, re.S) == ["make demo\nmake test\n"]


def test_results_doc_covers_every_column(tiny: dict[str, Any]) -> None:
    doc = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z_0-9.]+)`", doc))
    columns = list(flitcast.run(tiny).to_frame().columns)
    missing = [c for c in columns if c not in documented]
    assert not missing, f"columns missing from docs/results.md: {missing}"
