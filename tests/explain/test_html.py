"""The HTML page and the terminal text show what the log holds as text, never as code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from audit.cli import app
from tests.replay.cases import base
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario

SCRIPT = "<script>alert(1)</script>"
QUOTES = '"O\'Hara"&[red]x[/red]'
"""Quotes and an ampersand for HTML, rich markup for the terminal."""


def hostile_hand() -> dict[str, Any]:
    """The clean first-hand show of tests/replay/cases.py, played by P1=SCRIPT, P2=QUOTES."""
    names = {"P1": SCRIPT, "P2": QUOTES}
    kw = base()
    kw["seats"] = {names[p]: cards for p, cards in kw["seats"].items()}
    kw["events"] = [names[line[:2]] + line[2:] for line in kw["events"]]
    kw["results"] = {names[p]: row for p, row in kw["results"].items()}
    return kw


def test_hostile_player_ids_are_escaped_in_the_page_and_literal_in_the_text(
    tmp_path: Path,
) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**hostile_hand())])
    page_path = tmp_path / "hand.html"
    result = CliRunner().invoke(app, ["explain", "H1", str(logs), "--html", str(page_path)])
    assert result.exit_code == 0, result.output
    page = page_path.read_text(encoding="utf-8")
    assert SCRIPT not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert QUOTES not in page
    assert "&#34;O&#39;Hara&#34;&amp;[red]x[/red]" in page
    assert "<script" not in page
    assert f"Seats in turn order: {SCRIPT}, {QUOTES}" in result.stdout
    assert f"{SCRIPT}'s declaration is valid:" in result.stdout


def test_the_page_stands_alone(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**base())])
    page_path = tmp_path / "out" / "hand.html"
    result = CliRunner().invoke(app, ["explain", "H1", str(logs), "--html", str(page_path)])
    assert result.exit_code == 0, result.output
    page = page_path.read_text(encoding="utf-8")
    assert "<style>" in page
    for reference in ("<script", "<link", "src=", "http://", "https://", "url("):
        assert reference not in page
    assert [p.name for p in page_path.parent.iterdir()] == ["hand.html"]
    assert result.stdout.endswith(f"HTML page written to {page_path}\n")


def test_an_html_file_that_cannot_be_written_is_one_line_and_exit_2(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**base())])
    (tmp_path / "file").write_text("not a folder")
    target = tmp_path / "file" / "hand.html"
    result = CliRunner().invoke(app, ["explain", "H1", str(logs), "--html", str(target)])
    assert result.exit_code == 2
    assert result.output.startswith(f"rummy-audit: error: cannot write the page to {target}: ")
    assert result.output.count("\n") == 1


def test_an_html_path_that_is_a_folder_is_one_line_naming_it(tmp_path: Path) -> None:
    """``--html html`` with ``html`` a folder said "cannot write html: Is a directory",
    which does not read as naming the path given (README, "explain")."""
    logs = write_log(tmp_path / "logs", [scenario(**base())])
    (tmp_path / "html").mkdir()
    target = tmp_path / "html"
    result = CliRunner().invoke(app, ["explain", "H1", str(logs), "--html", str(target)])
    assert result.exit_code == 2
    assert result.output == (
        f"rummy-audit: error: cannot write the page to {target}: it is a folder\n"
    )


def test_an_unreadable_log_root_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["explain", "H1", str(tmp_path / "missing")])
    assert result.exit_code == 2
    assert (
        result.output
        == f"rummy-audit: error: the log root {tmp_path / 'missing'} is not a folder\n"
    )
