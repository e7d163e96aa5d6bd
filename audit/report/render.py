"""Render the report from its view model with the Jinja templates of the top-level reports/."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from audit.output import write_text
from audit.report.views import build_view

TEMPLATES = Path(__file__).resolve().parents[2] / "reports"


def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


def write_report(out: Path) -> Path:
    """Write ``out/report.html`` from the outputs already in ``out``."""
    html = environment().get_template("report.html.j2").render(view=build_view(out))
    path = out / "report.html"
    write_text(path, html)
    return path
