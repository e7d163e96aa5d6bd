"""Render the report from its view model with the Jinja templates of the top-level reports/.

The templates are package data, ``audit/templates`` (a link to the top-level reports/ in a
checkout; a wheel carries the files, see pyproject.toml), loaded with Jinja's PackageLoader.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from audit.output import check_outputs, write_text
from audit.report.views import build_view


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("audit", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


REPORT_NEEDS = ("run.json", "findings.parquet", "hands.parquet", "quarantine.parquet")
"""The outputs the report is built from: a missing one is an error, never an empty section
(a report without quarantine.parquet said nothing was quarantined)."""


def write_report(out: Path) -> Path:
    """Write ``out/report.html`` from the outputs already in ``out``; an ``AuditError``
    when they are not there or cannot be read (``check_outputs``)."""
    check_outputs(out, REPORT_NEEDS)
    html = environment().get_template("report.html.j2").render(view=build_view(out))
    path = out / "report.html"
    write_text(path, html)
    return path
