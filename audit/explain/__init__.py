"""One hand explained for support staff, turn by turn, with the rule behind every point.

A support agent settling a player's score dispute reads, for one hand: the seats, the wild
card and the jokers it makes, every turn, each player's final groups with each group's
verdict, the points card by card with the rule text, the best score the cards could have
had, every finding on the hand, and, given a nightly run's output folder, the fair-play
suspicions the hand is evidence for. ``load_view`` builds that once as a ``HandView``;
``print_view`` shows it in a terminal (plain text in a pipe) and ``write_html`` as a
standalone page.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from audit import __version__
from audit.explain.fairplay import lookup
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
    "lookup",
    "print_view",
    "render_html",
    "render_text",
    "write_html",
]


def load_view(logs: Path, hand_id: str, out: Path | None = None) -> HandView:
    """Find ``hand_id`` in the log root ``logs``, replay it and put it into words; with
    ``out``, a nightly run's output folder, look up the fair-play suspicions it is
    evidence for."""
    game, hand = find_hand(logs, hand_id)
    fairplay = lookup(out, hand_id, logs)
    view = build_view(game, hand, source=str(logs), version=__version__)
    return replace(view, fairplay=fairplay)


def explain_hand(logs: Path, hand_id: str, out: Path | None = None) -> str:
    """The plain-text explanation of ``hand_id``; an ``AuditError`` when there is none."""
    return render_text(load_view(logs, hand_id, out))
