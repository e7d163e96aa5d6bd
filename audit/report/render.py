"""Render the report from its view model with the Jinja templates of the top-level reports/.

The templates are package data, ``audit/templates`` (a link to the top-level reports/ in a
checkout; a wheel carries the files, see pyproject.toml), loaded with Jinja's PackageLoader.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from audit.consistency import COUNTS, Shape, check_one_run, check_run, check_sections
from audit.errors import AuditError, first_line
from audit.output import check_outputs, read_run, write_text
from audit.report.views import build_view


@cache
def environment() -> Environment:
    """The templates' one environment: Jinja compiles each template once per process and
    keeps it (compiling report.html.j2 took 0.3 s, a third of a small night's report)."""
    return Environment(
        loader=PackageLoader("audit", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


REPORT_NEEDS = ("run.json", "findings.parquet", "hands.parquet", "quarantine.parquet")
"""The outputs the report is built from: a missing one is an error, never an empty section
(a report without quarantine.parquet said nothing was quarantined)."""


REPORT_RUN: dict[str, Shape] = {
    "arguments": {str: object},
    "inputs": [{"table": str, "path": str, "rows": int, "size": int}],
    "counts": COUNTS,
    "timings_s": {str: (int, float)},
    "exit_status": int,
    "missing_optional_tables?": [str],
    "unreadable_files?": [{"table": str, "path": str, "reason": str}],
    "skipped_files?": [{"table": str, "path": str}],
    "ignored_columns?": [{"table": str, "column": str, "files": int}],
    "ignored_values?": [{"table": str, "column": str, "format": str, "rows": int}],
    "copied_files?": [{"table": str, "path": str, "same_as": str, "size": int, "sha256": str}],
    "rulesets?": [{"id": str, "file": (str, None), "sha256": str, "extends?": (str, None)}],
    "commitments?": {"hands": int, "replayed": int, "hash_only": int, "shoe_only?": int,
                     "unchecked?": int, "quarantined?": int},
    "fairplay?": {"status": str, "why?": (str, None)},
    "rng?": {"status": str, "why?": (str, None)},
}
"""What the report reads of run.json, of the shape it must be (``check_run``); the
``fairplay`` and ``rng`` entries are objects with a status (a run.json without them is an
older one's: the report says the pass did not run), and when they say they ran, also
``FAIRPLAY_RAN`` and ``RNG_RAN``: what replay writes, every count the report shows (one
missing was shown as 0). Other keys are read as text, or said nothing of when they are not of theirs
(``hands_span``, ``run_at``)."""

FAIRPLAY_RAN: dict[str, Shape] = {
    "detectors": [{"check": str, "status?": str, "tested?": int, "suspicions?": int,
                   "needs?": (str, None), "why?": (str, None)}],
    "suspicions": int,
}  # fmt: skip
RNG_RAN: dict[str, Shape] = {
    "shoes": int,
    "tests": int,
    "biased": int,
    "suspect": int,
    "too_few_shoes": int,
    "left_out": {str: int},
    "groups": [{"key": str, "group": str, "shoes": int}],
}
RAN_NEEDS = (("fairplay", FAIRPLAY_RAN, "suspicions.parquet"), ("rng", RNG_RAN, "rng.parquet"))
"""Each pass of a run the report has a section of: its run.json entry, the entry's shape
when it says the pass ran, and the output the section then reads (when it is there: a
section says when it is not)."""


def check_report(out: Path) -> dict[str, Any]:
    """run.json of ``out``, once the outputs the report reads are checked: an
    ``AuditError`` (one line, exit 2) when one is missing or damaged (``check_outputs``),
    run.json is not one of this tool's or not of the shape the report reads
    (``check_run``), or the outputs are not those of one run (``check_one_run``,
    ``check_sections``). A damaged suspicions.parquet or rng.parquet, or another run's, is
    refused like the others, never shown as a night with no suspicion, or a fair shuffle."""
    check_outputs(out, REPORT_NEEDS)
    run = read_run(out)
    path = out / "run.json"
    check_run(run, path, REPORT_RUN)
    optional = []
    for key, shape, name in RAN_NEEDS:
        entry = run.get(key)
        if isinstance(entry, dict) and entry.get("status") == "run":
            check_run(run, path, {key: shape})
            if (out / name).is_file():
                optional.append(name)
    check_outputs(out, optional)
    check_one_run(out, run)
    check_sections(out, run)
    return run


def write_report(out: Path, *, given: bool = False) -> Path:
    """Write ``out/report.html`` from the outputs already in ``out``; an ``AuditError``
    when they are not there or cannot be read (``check_outputs``). A folder ``given`` to
    ``rummy-audit report`` is checked whole first (``check_report``: run.json's shape and
    counts against the files); a run's own outputs, written from the rows it counted, are
    not read again for it."""
    if given:
        check_report(out)
    else:
        check_outputs(out, REPORT_NEEDS)
    try:
        view = build_view(out)
    except (duckdb.Error, pa.ArrowException, OSError) as error:
        # A page of an output damaged behind an intact footer (check_report reads the
        # footers): one line, not a traceback.
        raise AuditError(
            f"{out} holds an output that cannot be read: {first_line(error)}", slug="out"
        ) from None
    html = environment().get_template("report.html.j2").render(view=view)
    path = out / "report.html"
    write_text(path, html)
    return path
