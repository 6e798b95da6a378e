"""The report opens in a real browser: headless Chromium (Debian's package; `make browser` installs it,
and .ci/run does) loads index.html from disk with no console errors and no broken image, shows every
study section and figure, and leaves a screenshot of its first screen in runs/test-artefacts/."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from flitcast.cli import app, reproduce_all
from flitcast.experiments import EXPERIMENTS

ARTEFACTS = Path(__file__).resolve().parents[1] / "runs" / "test-artefacts"
#: one cheap experiment per study (seconds each in quick mode), so that every study's section is drawn, and
#: one of our own experiments, whose section is drawn after the studies'
ONE_PER_STUDY = ("sivaram-fig18", "casetti-fig7", "banikazemi-fig7", "zhou-one-source", "oral-fig4", "dragonfly-routing")


def browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium here: `make browser` installs Debian's chromium (as root), then this test runs")


def chromium(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    base = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000"]
    return subprocess.run([*base, *args], capture_output=True, text=True, timeout=timeout, check=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "r"
    real = reproduce_all.selected
    with pytest.MonkeyPatch.context() as m:
        m.setattr(reproduce_all, "selected", lambda ids: [e for e in real(ids) if e.id in ONE_PER_STUDY])
        result = CliRunner().invoke(app, ["reproduce", "--all", "--quick", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_report_opens_in_chromium_without_errors_and_shows_everything(report: Path) -> None:
    url = (report / "index.html").as_uri()
    loaded = chromium("--dump-dom", url)
    console = [line for line in loaded.stderr.splitlines() if "CONSOLE" in line]
    assert not console, console  # no console message at all: no error, no broken image
    dom = loaded.stdout
    assert 'data-broken-images="0"' in dom, "the page's image check did not run or found a broken image"
    for study_id in {EXPERIMENTS[e].source for e in ONE_PER_STUDY}:
        assert f'id="study-{study_id}"' in dom
    for experiment in ONE_PER_STUDY:
        assert f'id="{experiment}"' in dom
        n = len(pd.read_csv(report / experiment / "claims.csv"))
        section = dom.split(f'id="{experiment}"', 1)[1].split("<h3", 1)[0]
        assert section.count('class="status"') == n
        assert len(re.findall(r"<img ", section)) == len(list((report / experiment).glob("*.png"))) > 0
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTEFACTS / "report-first-screen.png"
    chromium("--window-size=1280,900", f"--screenshot={shot}", url)
    assert shot.stat().st_size > 10_000  # a rendered page, not an empty canvas


def test_a_missing_image_is_caught(report: Path, tmp_path: Path) -> None:
    # the check can fail: the same page with one image gone reports it in the console and on <body>
    broken = tmp_path / "r"
    shutil.copytree(report, broken)
    victim = next(broken.glob("*/*.png"))
    victim.unlink()
    loaded = chromium("--dump-dom", (broken / "index.html").as_uri())
    assert 'data-broken-images="1"' in loaded.stdout
    assert any("broken image" in line and victim.name in line for line in loaded.stderr.splitlines())
