"""The reproduction report: every experiment's claims, plots and set-up in one page (``index.html``, which
opens from disk with no network: its images sit beside it in each experiment's directory) and in Markdown
(``summary.md``). ``flitcast reproduce --all --out DIR`` writes both into DIR after running each
experiment into ``DIR/<experiment id>`` (docs/experiments.md, "The whole reproduction").
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.claim import DATA, MODEL
from flitcast.experiments.experiment import NOT_JUDGED_FAILED, NOT_JUDGED_QUICK
from flitcast.experiments.verdicts import DEVIATES, HOLDS, INCONSISTENT, NOT_JUDGED
from flitcast.results import empty
from flitcast.studies import SOURCE_IDS, StudyValue, study, values_of

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.experiments import Experiment

__all__ = ["REPORT_FILES", "ExperimentRun", "write_report"]

REPORT_FILES = ("index.html", "summary.md")
STATUSES = (HOLDS, DEVIATES, INCONSISTENT, NOT_JUDGED)
#: the colour of each status in the page (and its legend)
COLOURS = {HOLDS: "#d8f0d8", DEVIATES: "#f6d5d5", INCONSISTENT: "#f8e8c0", NOT_JUDGED: "#e6e6e6"}
#: a parameter with more values than this shows its range and count
MAX_SHOWN_VALUES = 8


@dataclass(frozen=True)
class ExperimentRun:
    """One experiment as the report shows it: its directory (``DIR/<id>``, relative to the report), the
    claims table, the number of points, the wall time of the runs that simulated them and the points' own
    simulation time."""

    experiment: Experiment
    directory: str
    claims: pd.DataFrame
    points: int
    wall_seconds: float
    point_seconds: float
    panels: tuple[str, ...]
    parameters: dict[str, list[Any]]


def counts(claims: pd.DataFrame) -> Counter[str]:
    """How many claims have each status."""
    return Counter(str(s) for s in claims["status"])


def differing_parameters(scenarios: Sequence[Any]) -> dict[str, list[Any]]:
    """Every scenario key some point sets away from its default, with the values the points give it."""
    values: dict[str, set[Any]] = {}
    for scenario in scenarios:
        for section, table in scenario.minimal().items():
            for key, value in table.items():
                values.setdefault(f"{section}.{key}", set()).add(_hashable(value))
    return {key: sorted(v, key=_sort_key) for key, v in sorted(values.items())}


def _hashable(value: Any) -> Any:
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


def _sort_key(value: Any) -> tuple[int, Any]:
    return (0, value) if isinstance(value, int | float) and not isinstance(value, bool) else (1, str(value))


def _shown_values(values: list[Any]) -> str:
    if len(values) <= MAX_SHOWN_VALUES:
        return ", ".join(str(v) for v in values)
    return f"{values[0]} … {values[-1]} ({len(values)} values)"


def _shown_number(v: StudyValue) -> str:
    def one(x: float | tuple[float, float] | None) -> str:
        if x is None:
            return ""
        return f"{x[0]:g} to {x[1]:g}" if isinstance(x, tuple) else f"{x:g}"

    parts = [p for p in (("x = " + one(v.x)) if v.x is not None else "", one(v.y)) if p]
    return "; ".join(parts) or "—"


def _by_study(runs: Sequence[ExperimentRun]) -> dict[str, list[ExperimentRun]]:
    """The runs by source: the studies first, then the papers behind our own experiments."""
    grouped: dict[str, list[ExperimentRun]] = {}
    for run in runs:
        grouped.setdefault(run.experiment.source, []).append(run)
    return {i: grouped[i] for i in SOURCE_IDS if i in grouped}


def _heading(study_id: str) -> str:
    """A source's section title: a study we reproduce, or the paper an experiment of our own is judged against."""
    s = study(study_id)
    return f"Our experiment, after {s.name}: {s.title}" if s.ours else f"Study {study_id}: {s.title}"


def _stater(e: Experiment) -> str:
    return "the paper" if study(e.study).ours else "the study"


def _front_name(study_id: str) -> str:
    s = study(study_id)
    return f"{s.name} (ours)" if s.ours else s.name


def statement_counts(claims: Sequence[pd.DataFrame]) -> Counter[str]:
    """How many statements of one study have each status: a claim read in several of its experiments (the
    same name in each table) is one statement, its statuses combined (claim.statement_status)."""
    from flitcast.experiments.claim import statement_status

    by_name: dict[str, list[str]] = {}
    for table in claims:
        for name, status in zip(table["claim"], table["status"], strict=True):
            by_name.setdefault(str(name), []).append(str(status))
    return Counter(statement_status(statuses) for statuses in by_name.values())


def _front_rows(runs: Sequence[ExperimentRun]) -> list[tuple[str, int, int, Counter[str], float, float]]:
    rows = []
    for study_id, group in _by_study(runs).items():
        total = statement_counts([run.claims for run in group])
        rows.append((study_id, len(group), sum(total.values()), total, sum(r.wall_seconds for r in group), sum(r.point_seconds for r in group)))
    return rows


def margin_text(margin: Any, resolution: Any) -> str:
    """A claim's margin as the ours column shows it under the value: "margin +0.041 ± 0.010" (how far
    beyond the claim's threshold, in its units, ± the half-width of what it tested); empty where none was
    computed."""
    if empty(margin):
        return ""
    shown = f"margin {float(margin):+.2g}"
    return shown + (f" ± {float(resolution):.2g}" if not empty(resolution) and float(resolution) > 0 else "")


#: how the notes of one claim join their reasons (the study modules write them so)
NOTE_SEPARATOR = "; "
#: how a note begins that explains the row's own verdict (experiment._row): never a figure's shared reason
OWN_VERDICT = ("not judged", "study inconsistent:")


def shared_notes(notes: Sequence[Any]) -> tuple[list[tuple[list[int], str]], list[str]]:
    """The reasons two or more of a figure's claims share, each once with the claims it belongs to
    (numbered from 1, in table order), and each claim's note without them: a shared reason is said once
    per figure."""
    parts = [[] if empty(n) else reasons_of(str(n)) for n in notes]
    where: dict[str, list[int]] = {}
    for i, reasons in enumerate(parts, 1):
        for reason in dict.fromkeys(reasons):
            if not reason.startswith(OWN_VERDICT):  # (a row's own verdict, whatever another's reads)
                where.setdefault(reason, []).append(i)
    shared = {reason: rows for reason, rows in where.items() if len(rows) > 1}
    rest = [NOTE_SEPARATOR.join(r for r in reasons if r not in shared) for reasons in parts]
    return [(rows, reason) for reason, rows in shared.items()], rest


def reasons_of(note: str) -> list[str]:
    """A note's reasons: its parts between separators outside brackets and quotes (a reason may hold
    "(ours balanced; the reading …)" or a quoted "…; …")."""
    reasons, depth, start = [], 0, 0
    for i, c in enumerate(note):
        depth += (c in "(“[") - (c in ")”]")
        if depth == 0 and note.startswith(NOTE_SEPARATOR, i):
            reasons.append(note[start:i])
            start = i + len(NOTE_SEPARATOR)
    reasons.append(note[start:])
    return [r for r in reasons if r.strip()]


def _claim_numbers(rows: list[int], total: int) -> str:
    return "every claim below" if len(rows) == total else "claims " + ", ".join(str(r) for r in rows)


#: the groups of a study's statements that do not hold, in the order the report shows them, each with
#: the one sentence that says why (docs/experiments.md, "Why a claim does not hold")
WHY_NOT = (
    ("inconsistent", "Study inconsistent: the study's own text says the opposite elsewhere; each claim's note quotes both places."),
    (MODEL, "Deviates where our model departs from the study's text: each note names the departure and the reading that follows the text."),
    (DATA, "Deviates where the study does not give what the claim needs: each note names what we chose in its place."),
    ("measured", "Deviates although our model follows the study's text: each note gives the measured cause."),
    ("quick", "Not judged in quick mode: the quick run's values, widened by its measured resolution, cannot decide them (docs/experiments.md, Quick mode); the full run judges them."),
    ("failed", "Not judged: points of the figure failed (their error is in results.csv)."),
    ("close", "Not judged: the margin lies within the measurement's uncertainty (or a quantity it reads was not reached)."),
)


def why_not(claim: pd.Series) -> str:
    """Which group of :data:`WHY_NOT` a claim row belongs to; empty for a claim that holds."""
    status, note = str(claim["status"]), "" if empty(claim.get("note")) else str(claim["note"])
    cause = "" if empty(claim.get("cause")) else str(claim["cause"])
    if status == HOLDS:
        return ""
    if status == INCONSISTENT:
        return "inconsistent"
    if status == DEVIATES:
        return cause or "measured"
    if note.startswith(NOT_JUDGED_QUICK):
        return "quick"
    return "failed" if NOT_JUDGED_FAILED in note.split(NOTE_SEPARATOR, 1)[0] else "close"


def held_line(group: Sequence[ExperimentRun]) -> str:
    """How many of a study's statements have each status: "Of its 37 statements, 12 hold, 9 deviate,
    16 not judged." """
    total = statement_counts([run.claims for run in group])
    verbs = {HOLDS: ("holds", "hold"), DEVIATES: ("deviates", "deviate"), INCONSISTENT: ("study inconsistent",) * 2, NOT_JUDGED: ("not judged",) * 2}
    return f"Of its {sum(total.values())} statements, " + ", ".join(f"{total[s]} {verbs[s][total[s] != 1]}" for s in STATUSES if total.get(s)) + "."


def glance(group: Sequence[ExperimentRun]) -> list[tuple[str, list[tuple[str, ExperimentRun]]]]:
    """A study's statements that do not hold, grouped as :data:`WHY_NOT`: each statement once, by its
    status over the study (``statement_status``, as the front table counts it), in the group of the first
    figure that gives it that status, the figure beside it."""
    from flitcast.experiments.claim import statement_status

    rows: dict[str, list[tuple[pd.Series, ExperimentRun]]] = {}
    for run in group:
        for _, row in run.claims.iterrows():
            rows.setdefault(str(row["claim"]), []).append((row, run))
    groups: dict[str, list[tuple[str, ExperimentRun]]] = {key: [] for key, _ in WHY_NOT}
    for name, readings in rows.items():
        status = statement_status([str(row["status"]) for row, _ in readings])
        row, run = next((row, run) for row, run in readings if str(row["status"]) == status)
        key = why_not(row)
        if key:
            groups[key].append((name, run))
    # (an experiment of our own is judged against a paper, not a study)
    ours = bool(group) and study(group[0].experiment.study).ours
    said = {key: text.replace("the study's", "the paper's").replace("the study", "the paper") if ours else text for key, text in WHY_NOT}
    return [(said[key], groups[key]) for key, _ in WHY_NOT if groups[key]]


# --- HTML ------------------------------------------------------------------------------------------------

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2.2em; border-bottom: 1px solid #ccc; } h3 { margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } td.n { text-align: right; }
.status { white-space: nowrap; font-weight: 600; }
.panels img { max-width: 49%; border: 1px solid #ddd; margin: 0.3em 0.3em 0.3em 0; vertical-align: top; }
.note { color: #555; font-size: 0.9em; }
.legend span { padding: 0.1em 0.5em; margin-right: 0.5em; }
.margin { color: #555; font-size: 0.85em; white-space: nowrap; }
p.glance, details.glance { margin: 0.4em 0 0.1em; } ul.glance { margin: 0 0 0.6em; }
"""


#: once the page has loaded, an image that did not load is named in the console and counted on <body>
#: (data-broken-images), and flagged where it should be — the page's only script, inline
CHECK_IMAGES = (
    "window.addEventListener('load', function () {"
    " var broken = Array.prototype.filter.call(document.images, function (i) { return !i.complete || i.naturalWidth === 0; });"
    " document.body.setAttribute('data-broken-images', String(broken.length));"
    " broken.forEach(function (i) { console.error('broken image: ' + i.getAttribute('src'));"
    " i.insertAdjacentHTML('afterend', '<b>missing: ' + i.getAttribute('src') + '</b>'); });"
    " });"
)


def _esc(text: Any) -> str:
    return html.escape("" if empty(text) else str(text))


def _status_cell(status: str) -> str:
    return f'<td class="status" style="background:{COLOURS.get(status, "#fff")}">{_esc(status)}</td>'


#: what the ours column shows, said once at the top of the page
OURS_EXPLAINED = (
    "<b>ours</b> is what we measured, with the claim's <b>margin</b>: how far it lies beyond the claim's threshold, in the claim's units "
    "(on a log axis, about the relative difference), ± the half-width of what it tested; a margin within that half-width is not judged. "
    "The raw values are in each figure's claims.csv and results.csv."
)


def _html(runs: Sequence[ExperimentRun], quick: bool) -> str:
    mode = "quick" if quick else "full"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>flitcast: reproduction of the studies ({mode} runs)</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>flitcast: does it reproduce the studies? ({mode} runs)</h1>",
        '<p class="legend">' + "".join(f'<span style="background:{COLOURS[s]}">{_esc(s)}</span>' for s in STATUSES) + "</p>",
        "<p>Each claim is one statement a study makes, judged against our runs by one word of a single vocabulary of "
        "verdicts (docs/experiments.md, Verdicts); a statement read in several figures is counted once. <b>study "
        "inconsistent</b>: the study's own text says the opposite elsewhere (the note quotes both places). <b>not "
        "judged</b>: the runs cannot decide it (the note says why). An experiment marked <b>ours</b> is one of our own, judged against "
        "the statements of the paper it is after" + ("; a quick run judges only what the full run would judge the same way: its values are widened by "
        "the resolution measured for quick runs (docs/experiments.md, Quick mode), and what they cannot decide is not judged." if quick else ".") + "</p>",
        f"<p>{OURS_EXPLAINED}</p>",
        "<table><tr><th>study</th><th>figures</th><th>statements</th>" + "".join(f"<th>{_esc(s)}</th>" for s in STATUSES) + "<th>wall time (s)</th><th>simulated, summed over points (s)</th><th>runs</th></tr>",
    ]
    for study_id, figures, total, by, wall, simulated in _front_rows(runs):
        cells = "".join(f'<td class="n">{by.get(status, 0)}</td>' for status in STATUSES)
        out.append(f'<tr><td><a href="#study-{study_id}">{_esc(_front_name(study_id))}</a></td><td class="n">{figures}</td><td class="n">{total}</td>{cells}<td class="n">{wall:,.0f}</td><td class="n">{simulated:,.0f}</td><td>{mode}</td></tr>')
    out.append("</table>")
    for study_id, group in _by_study(runs).items():
        out.extend(_html_study(study_id, group))
    out.append(f"<script>{CHECK_IMAGES}</script>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _html_study(study_id: str, group: Sequence[ExperimentRun]) -> list[str]:
    s = study(study_id)
    out = [f'<h2 id="study-{study_id}">{_esc(_heading(study_id))}</h2>', f"<p>{_esc(s.citation)}</p>", f"<p>{_esc(s.system)}</p>"]
    readings = {r.name: r.text for run in group for r in run.experiment.readings}
    if s.ours:
        out.append(f'<p>An experiment of our own: its networks and set-up are ours, the statements it judges are this paper\'s (or the classic results the field states). Other readings (<a href="#readings-{study_id}">below</a>) are options, each argued in {_esc(s.experiments)}.</p>')
    else:
        out.append(f'<p>Each experiment runs the reading of what the study leaves open that its text supports best; the other readings (<a href="#readings-{study_id}">below</a>) are options, each argued in {_esc(s.experiments)}.</p>')
    out.extend(_html_glance(group))
    for run in group:
        out.extend(_html_figure(run))
    out.append(f'<h3 id="readings-{study_id}">Readings of {_esc(s.name)}</h3>')
    if readings:
        out.append("<table><tr><th>reading</th><th>what it changes (and our default)</th></tr>")
        out.extend(f"<tr><td><code>{_esc(name)}</code></td><td>{_esc(text)}</td></tr>" for name, text in readings.items())
        out.append("</table>")
    else:
        out.append("<p>None declared: the experiments leave nothing open that changes a verdict.</p>")
    return out


def _html_glance(group: Sequence[ExperimentRun]) -> list[str]:
    """At a glance: how many statements hold, and why the others do not, each reason once."""
    out = [f'<p class="glance"><b>{_esc(held_line(group))}</b></p>']
    for text, claims in glance(group):
        items = "".join(f'<li>{_esc(name)} (<a href="#{_esc(run.experiment.id)}">{_esc(run.experiment.figure)}</a>)</li>' for name, run in claims)
        if text.startswith("Not judged"):  # (what a run could not decide is listed on request)
            out.append(f'<details class="glance"><summary>{_esc(text)} <b>{len(claims)}</b></summary><ul class="glance">{items}</ul></details>')
        else:
            out.append(f'<p class="glance">{_esc(text)} <b>{len(claims)}</b></p><ul class="glance">{items}</ul>')
    return out


def _html_figure(run: ExperimentRun) -> list[str]:
    e = run.experiment
    by = counts(run.claims)
    summary = ", ".join(f"{by[s]} {s}" for s in STATUSES if by.get(s))
    out = [
        f'<h3 id="{_esc(e.id)}">{_esc(e.figure)}: {_esc(e.title)} <code>{_esc(e.id)}</code></h3>',
        f'<p class="note">{run.points} points, {run.wall_seconds:,.1f} s of wall time (the runs that simulated them); claims: {_esc(summary) or "none"}.</p>',
        '<div class="panels">' + "".join(f'<img src="{_esc(run.directory)}/{_esc(p)}" alt="{_esc(e.figure)}, panel {_esc(p)}">' for p in run.panels) + "</div>",
    ]
    stated = values_of(e.id)
    if stated:
        out.append(f"<p>Numbers {_stater(e)} states for this figure:</p><table><tr><th>quantity</th><th>series</th><th>study</th><th>where</th></tr>")
        out.extend(f"<tr><td>{_esc(v.quantity)}</td><td>{_esc(v.series)}</td><td>{_esc(_shown_number(v))}</td><td>{_esc(v.where)}</td></tr>" for v in stated)
        out.append("</table>")
    shared, notes = shared_notes(list(run.claims["note"]))
    out.extend(f'<p class="note">For {_claim_numbers(rows, len(notes))}: {_esc(reason)}</p>' for rows, reason in shared)
    out.append("<table><tr><th>#</th><th>claim</th><th>study</th><th>ours</th><th>status</th><th>note</th></tr>")
    for i, (row, note) in enumerate(zip(run.claims.to_dict("records"), notes, strict=True), 1):
        margin = margin_text(row.get("margin"), row.get("resolution"))
        ours = _esc(row["ours"]) + (f'<br><span class="margin">{_esc(margin)}</span>' if margin else "")
        out.append(f'<tr><td class="n">{i}</td><td>{_esc(row["claim"])}</td><td>{_esc(row["study"])}</td><td>{ours}</td>{_status_cell(str(row["status"]))}<td class="note">{_esc(note)}</td></tr>')
    out.append("</table>")
    if run.parameters:
        out.append('<details><summary>Scenario parameters that differ from the defaults</summary><table><tr><th>key</th><th>values</th></tr>')
        out.extend(f"<tr><td><code>{_esc(k)}</code></td><td>{_esc(_shown_values(v))}</td></tr>" for k, v in run.parameters.items())
        out.append("</table></details>")
    return out


# --- Markdown --------------------------------------------------------------------------------------------


def _md_cell(text: Any) -> str:
    text = "" if empty(text) else str(text)
    return " ".join(text.split()).replace("|", "\\|")


def _markdown(runs: Sequence[ExperimentRun], quick: bool) -> str:
    mode = "quick" if quick else "full"
    out = [f"# flitcast: reproduction of the studies ({mode} runs)", "", "| study | figures | statements | " + " | ".join(STATUSES) + " | wall time (s) | simulated (s) |", "|---|---|---|" + "---|" * len(STATUSES) + "---|---|"]
    for study_id, figures, total, by, wall, simulated in _front_rows(runs):
        out.append(f"| {_front_name(study_id)} | {figures} | {total} | " + " | ".join(str(by.get(s, 0)) for s in STATUSES) + f" | {wall:,.0f} | {simulated:,.0f} |")
    for study_id, group in _by_study(runs).items():
        s = study(study_id)
        out += ["", f"## {_heading(study_id)}", "", s.citation, "", s.system]
        out += ["", f"**{held_line(group)}**"]
        for text, claims in glance(group):
            out += ["", f"{text} ({len(claims)})", ""] + [f"- {_md_cell(name)} ({run.experiment.figure}, `{run.experiment.id}`)" for name, run in claims]
        for run in group:
            e = run.experiment
            out += ["", f"### {e.figure}: {e.title} (`{e.id}`)", ""]
            out += [f"![{e.figure}, {p}]({run.directory}/{p})" for p in run.panels]
            stated = values_of(e.id)
            if stated:
                out += ["", f"Numbers {_stater(e)} states for this figure:", "", "| quantity | series | study | where |", "|---|---|---|---|"]
                out += [f"| {_md_cell(v.quantity)} | {_md_cell(v.series)} | {_md_cell(_shown_number(v))} | {_md_cell(v.where)} |" for v in stated]
            shared, notes = shared_notes(list(run.claims["note"]))
            for rows, reason in shared:
                out += ["", f"For {_claim_numbers(rows, len(notes))}: {_md_cell(reason)}"]
            out += ["", "| # | claim | study | ours | status | note |", "|---|---|---|---|---|---|"]
            for i, (r, note) in enumerate(zip(run.claims.to_dict("records"), notes, strict=True), 1):
                ours = " ".join(p for p in (_md_cell(r["ours"]), _md_cell(margin_text(r.get("margin"), r.get("resolution")))) if p)
                out.append(f"| {i} | {_md_cell(r['claim'])} | {_md_cell(r['study'])} | {ours} | {_md_cell(r['status'])} | {_md_cell(note)} |")
    return "\n".join(out) + "\n"


def write_report(directory: Path, runs: Sequence[ExperimentRun], quick: bool) -> None:
    """Write index.html and summary.md into ``directory`` (a staging directory: the caller renames)."""
    (directory / "index.html").write_text(_html(runs, quick), encoding="utf-8")
    (directory / "summary.md").write_text(_markdown(runs, quick), encoding="utf-8")
