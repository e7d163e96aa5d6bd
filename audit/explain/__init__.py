"""One hand or one game explained for support staff, with the rule behind every point.

A support agent settling a player's score dispute reads, for one hand: the table and its
money terms, when it was dealt, the seats and the cards dealt to each, the wild card and
the jokers it makes, every turn, each player's final groups with each group's verdict, the
points card by card with the rule text, the best score the cards could have had, every
finding on the hand, and, given a nightly run's output folder, the fair-play suspicions
the hand is evidence for. ``load_view`` builds that once as a ``HandView``.

For a game dispute (a prize, a rebuy, a split, a ledger that does not balance) the agent
reads, for one game: its facts, every hand's status and recorded results, the running pool
scores or deals chips with the eliminations, rebuys and splits between hands, every ledger
row with what the rules give and why, and every game-level finding. ``load_game_view``
builds that as a ``GameView``. ``print_view``/``print_game`` show them in a terminal (plain
text in a pipe), ``write_html``/``write_game_html`` as standalone pages.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from audit import __version__
from audit.explain.fairplay import lookup, lookup_game
from audit.explain.find import (
    find_game,
    find_hand,
    game_facts,
    hand_clock,
    hand_record,
    resolve,
)
from audit.explain.game import GameView, build_game_view
from audit.explain.html import render_game_html, render_html, write_game_html, write_html
from audit.explain.terminal import print_game, print_view, render_game_text, render_text
from audit.explain.view import HandView, build_view
from audit.rules.registry import load_rules, using

__all__ = [
    "GameView",
    "HandView",
    "build_game_view",
    "build_view",
    "explain_game",
    "explain_hand",
    "find_game",
    "find_hand",
    "load_game_view",
    "load_view",
    "lookup",
    "lookup_game",
    "print_game",
    "print_view",
    "render_game_html",
    "render_game_text",
    "render_html",
    "render_text",
    "resolve",
    "write_game_html",
    "write_html",
]


def load_view(
    logs: Path, hand_id: str, out: Path | None = None, *, rules: Path | None = None
) -> HandView:
    """Find ``hand_id`` in the log root ``logs``, replay it and put it into words; with
    ``out``, a nightly run's output folder, look up the fair-play suspicions it is
    evidence for; with ``rules``, under the platform's rulesets as the nightly run."""
    with using(load_rules(rules)):
        unit = find_hand(logs, hand_id)
        dealt = next((item.hand.seats for item in unit.hands if item.hand.hand_id == hand_id), ())
        fairplay = lookup(out, hand_id, logs, dealt)
        view = build_view(
            unit, hand_id, source=str(logs), version=__version__, clock=hand_clock(logs, hand_id)
        )
        if view.unreplayable:
            view = replace(view, record=hand_record(logs, hand_id))
    return replace(view, fairplay=fairplay)


def load_game_view(
    logs: Path, game_id: str, out: Path | None = None, *, rules: Path | None = None
) -> GameView:
    """Find game ``game_id`` in the log root ``logs``, audit it as the nightly run does and
    put it into words; with ``out``, look up the fair-play suspicions it is evidence for;
    with ``rules``, under the platform's rulesets as the nightly run."""
    with using(load_rules(rules)):
        unit = find_game(logs, game_id)
        dealt = sorted({player for item in unit.hands for player in item.hand.seats})
        fairplay = lookup_game(out, game_id, logs, dealt)
        facts = game_facts(logs, game_id, [item.hand.hand_id for item in unit.hands])
        view = build_game_view(
            unit,
            source=str(logs),
            version=__version__,
            clock=facts.clock,
            hand_clocks=facts.hands,
            missing=facts.missing,
            damaged=facts.damaged,
        )
    return replace(view, fairplay=fairplay)


def explain_hand(
    logs: Path, hand_id: str, out: Path | None = None, *, rules: Path | None = None
) -> str:
    """The plain-text explanation of ``hand_id``; an ``AuditError`` when there is none."""
    return render_text(load_view(logs, hand_id, out, rules=rules))


def explain_game(
    logs: Path, game_id: str, out: Path | None = None, *, rules: Path | None = None
) -> str:
    """The plain-text explanation of game ``game_id``; an ``AuditError`` when there is none."""
    return render_game_text(load_game_view(logs, game_id, out, rules=rules))
