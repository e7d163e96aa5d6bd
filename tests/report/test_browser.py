"""The report and the explain page in a real headless browser: Debian's chromium, driven by
playwright with its executable path given (never ``playwright install``, which downloads
browsers). The tests never install anything: ``python3 dev.py test`` installs chromium with
apt, as a printed step, when it is missing; without it these tests are skipped, saying so.
Screenshots are saved under tests/actual/screenshots/ as test artifacts.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from audit.cli import app
from tests.report.nights import HOSTILE

SHOTS = Path(__file__).parents[1] / "actual" / "screenshots"
CHROMIUM = shutil.which("chromium")  # Debian's, as dev.py looks for it
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip(
            "chromium is not installed (no chromium on PATH): python3 dev.py test installs it"
            " where apt-get runs as root; elsewhere, apt-get install chromium"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as play:
        chromium = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Page:
    """A page with every console error, page error and dialog it raised."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", self._dialog)
        self.page.goto(path.resolve().as_uri())

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / name
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def visible_rows(self) -> int:
        return int(self.page.locator("#findings-table tbody tr:visible").count())


def test_report_opens_without_errors_and_the_filter_narrows_the_table(
    browser: Any, night: Path
) -> None:
    page = Page(browser, night / "report.html")
    assert page.page.title() == "rummy-audit report"
    total = page.visible_rows()
    # G2 is one hand of a pool game still running (game.running, info); the night's ledger
    # and sessions files hold no row (two check.skipped, info); each DISPUTE hand's money
    # follows its wrong points, said in their one score.points (followed.follows_points)
    assert total == 9
    page.shot("report.png")
    page.page.fill("#filter", "G3-01")
    assert page.visible_rows() == 2
    assert page.page.text_content("#shown") == "2 of 9 rows"
    page.page.fill("#filter", "")
    page.page.select_option("#filter-check", "draw.stock_mismatch")
    assert page.visible_rows() == 3
    page.shot("report-filtered.png")
    page.page.select_option("#filter-check", "")
    page.page.click("#findings-table thead th:nth-child(3)")  # sort by game
    games = page.page.locator("#findings-table tbody tr td:nth-child(3)").all_text_contents()
    assert games == sorted(games)
    assert page.page.get_attribute("#findings-table thead th:nth-child(3)", "aria-sort") == (
        "ascending"
    )
    assert page.errors == []
    assert page.dialogs == []  # the hostile player id never ran
    assert HOSTILE in page.page.text_content("#findings-table")  # shown as text


def test_explain_page_opens_without_errors(browser: Any, night: Path) -> None:
    html = night.parent / "hand.html"
    result = CliRunner().invoke(
        app, ["explain", "G3-01", str(night.parent / "logs"), "--html", str(html)]
    )
    assert result.exit_code == 0, result.output
    page = Page(browser, html)
    assert "G3-01" in page.page.text_content("h1")
    assert HOSTILE in page.page.text_content("body")
    page.shot("explain.png")
    assert page.errors == []
    assert page.dialogs == []


def test_fair_play_evidence_links_open_their_game_panel(browser: Any, ringed: Path) -> None:
    page = Page(browser, ringed / "report.html")
    rows = page.page.locator("#suspicions tbody tr")
    assert rows.count() == 7
    link = page.page.locator("#suspicions tbody tr:first-child td.evidence a").first
    target = str(link.get_attribute("href"))
    assert target.startswith("#game-")
    assert not page.page.locator(f'[id="{target[1:]}"]').get_attribute("open")
    link.click()
    panel = page.page.locator(f'[id="{target[1:]}"][open]')
    panel.wait_for(state="attached", timeout=5_000)  # fails if the panel never opens
    assert panel.count() == 1
    for href in page.page.locator("#suspicions td.evidence a").evaluate_all(
        "links => links.map(a => decodeURIComponent(a.getAttribute('href').slice(1)))"
    ):
        assert page.page.evaluate("id => document.getElementById(id) !== null", href), href
    ring = page.page.locator("figure.ring svg")
    assert ring.locator("circle.node").count() == 4
    assert ring.locator("line.edge").count() == 3
    assert ring.is_visible()
    page.page.locator("#fairplay").scroll_into_view_if_needed()
    page.shot("report-fairplay.png")
    assert page.errors == []
    assert page.dialogs == []
    assert HOSTILE in page.page.text_content("#suspicions")  # shown as text, never run


def test_each_severity_label_sits_over_its_count(browser: Any, night: Path) -> None:
    """The strip of findings by severity: each label's text centred over its count's."""
    page = Page(browser, night / "report.html")
    boxes = page.page.evaluate(
        """() => [...document.querySelectorAll('#by-severity tr')].map(row =>
            [...row.cells].map(cell => {
                const range = document.createRange();
                range.selectNodeContents(cell);
                const box = range.getBoundingClientRect();
                return {text: cell.textContent.trim(), left: box.left, right: box.right,
                        top: box.top, bottom: box.bottom};
            }))"""
    )
    labels, counts = boxes
    assert [b["text"] for b in labels] == ["critical", "major", "minor", "info"]
    assert [b["text"] for b in counts] == ["3", "3", "0", "3"]
    for label, count in zip(labels, counts, strict=True):
        middle = (label["left"] + label["right"]) / 2
        assert abs(middle - (count["left"] + count["right"]) / 2) <= 2, (label, count)
        assert label["left"] <= count["left"]
        assert count["right"] <= label["right"]
        assert label["bottom"] <= count["top"]
    page.page.locator("#by-severity").scroll_into_view_if_needed()
    page.shot("report-severity.png")
    assert page.errors == []
