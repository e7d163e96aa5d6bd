"""The explanation of a hand as a standalone HTML page (reports/explain.html.j2, loaded from
the package by ``audit.report.render.environment``)."""

from __future__ import annotations

from pathlib import Path

from audit.errors import AuditError, one_line
from audit.explain.game import GameView
from audit.explain.view import HandView
from audit.output import write_text
from audit.report.render import environment


def render_html(view: HandView) -> str:
    """The page: inline CSS, no script, no network; every value from the log escaped."""
    return environment().get_template("explain.html.j2").render(view=view)


def write_html(view: HandView, path: Path) -> None:
    """Write the page to ``path`` atomically; an ``AuditError`` when it cannot be written."""
    _write(render_html(view), path)


def render_game_html(view: GameView) -> str:
    """The page of a game (reports/explain-game.html.j2), loaded as the hand's page is:
    inline CSS, no script, no network; every value from the log escaped."""
    return environment().get_template("explain-game.html.j2").render(view=view)


def write_game_html(view: GameView, path: Path) -> None:
    """Write the page of a game to ``path`` atomically; an ``AuditError`` when it cannot be
    written."""
    _write(render_game_html(view), path)


def _write(html: str, path: Path) -> None:
    """Write ``html`` to ``path``; an ``AuditError`` of one line naming the path when it
    cannot be (``cannot write html: Is a directory`` did not say ``html`` was the path
    given: a blind tester)."""
    if path.is_dir():
        raise AuditError(f"cannot write the page to {path}: it is a folder", slug="write")
    try:
        write_text(path, html)
    except OSError as exc:
        why = one_line(str(exc.strerror or exc))
        raise AuditError(f"cannot write the page to {path}: {why}", slug="write") from None
