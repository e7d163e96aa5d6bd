"""One hand explained for support staff, turn by turn, with the rule behind every point.

A support agent settling a player's score dispute reads, for one hand: the seats, the wild
card and the jokers it makes, every turn, each player's final groups with each group's
verdict, the points card by card with the rule text, the best score the cards could have
had, and every finding on the hand. ``load_view`` builds that once as a ``HandView``;
``print_view`` shows it in a terminal (plain text in a pipe) and ``write_html`` as a
standalone page.
"""

from __future__ import annotations

from pathlib import Path

from audit import __version__
from audit.explain.find import find_hand
from audit.explain.html import render_html, write_html
from audit.explain.terminal import print_view, render_text
from audit.explain.view import HandView, build_view

__all__ = [
    "HandView",
    "build_view",
    "explain_hand",
    "find_hand",
    "load_view",
    "print_view",
    "render_html",
    "render_text",
    "write_html",
]


def load_view(logs: Path, hand_id: str) -> HandView:
    """Find ``hand_id`` in the log root ``logs``, replay it and put it into words."""
    game, hand = find_hand(logs, hand_id)
    return build_view(game, hand, source=str(logs), version=__version__)


def explain_hand(logs: Path, hand_id: str) -> str:
    """The plain-text explanation of ``hand_id``; an ``AuditError`` when there is none."""
    return render_text(load_view(logs, hand_id))
