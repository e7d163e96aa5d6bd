"""Event rows written in each other's places, or in another player's name: the record read
as the platform must have played it, and one finding for the row (docs/replay.md, Turns).

An events row is one fact, but the replay reads every later row through it: a draw written
after the declaration it fed makes the declaration one without a draw and its groups hold a
card the player did not have, so a valid declaration is judged invalid and the win moved
(a blind tester: 59 of 60 such swaps); a reshuffle written after the draw it fed is a draw
from an empty stock, then a reshuffle with cards still in the stock, then one that "adds"
every card of the pile; a row in another player's name hands that player the cards and
the turn of the one whose it was (28 of 60 hands with a wrong verdict on an innocent
player).

``swapped`` offers the hand with two neighbouring rows exchanged at the first finding of
an event, ``reassigned`` with the row of the first turn out of turn given to the player
whose turn it was. The caller (``outcome.audit_hand``) replays each and keeps the one
that leaves no finding of a row (``ROWS``) and the fewest findings in all, fewer than the
record as it reads; the reading's one finding then stands for the row (a player who drew
twice in a turn, read as a draw after the declaration, would still have a turn after the
hand ended: not a reading that explains the rows).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from audit.cards import CODE_TEXT
from audit.findings import Finding, finding_at
from audit.records import NO_CARD, Action, Event, Hand
from audit.rules.ruleset import Ruleset, cite

ROWS = ("turn.", "draw.", "discard.", "declare.groups")
"""The checks of a row read out of its place: the turns, the draws and the cards played
(not the outcomes and points, which every reading of the rows is judged by): a reading
of the rows must leave none of them."""


def _row(e: Event) -> str:
    """``P1's draw_stock of KH``, ``the reshuffle``: a row in words."""
    if e.action == Action.RESHUFFLE.value:
        return "the reshuffle"
    card = f" of {CODE_TEXT[e.card]}" if e.card != NO_CARD else ""
    return f"{e.player}'s {e.action}{card}"


def swapped(hand: Hand, findings: list[Finding]) -> Iterator[tuple[Hand, Finding]]:
    """The hand with the row of the first finding of an event and its next (then its
    previous) row exchanged, each keeping its place's ``seq``; with the one finding that
    says so: the first finding's check, player and event."""
    first = min((f for f in findings if f.seq is not None and f.check.startswith(ROWS)),
                key=lambda f: f.seq or 0, default=None)  # fmt: skip
    if first is None:
        return
    at = next((i for i, e in enumerate(hand.events) if e.seq == first.seq), None)
    if at is None:
        return
    for i in (at, at - 1):
        if i < 0 or i + 1 >= len(hand.events):
            continue
        a, b = hand.events[i], hand.events[i + 1]
        events = list(hand.events)
        events[i], events[i + 1] = b._replace(seq=a.seq), a._replace(seq=b.seq)
        said = finding_at(
            first,
            first.check,
            expected=f"seq {a.seq}: {b.action}; seq {b.seq}: {a.action}",
            recorded=f"seq {a.seq}: {a.action}; seq {b.seq}: {b.action}",
            message=(
                f"The rows at seq {a.seq} and {b.seq} are in each other's places: {_row(b)} "
                f"came before {_row(a)}. The rest of the hand is checked in that order."
            ),
            rule=first.rule,
        )
        yield replace(hand, events=events), said


def reassigned(
    hand: Hand, findings: list[Finding], rules: Ruleset
) -> Iterator[tuple[Hand, Finding]]:
    """The hand with the row of its first turn out of turn in the name of the player whose
    turn it was; with the one ``turn.order`` that says so."""
    turn = next((f for f in findings if f.check == "turn.order" and f.seq is not None
                 and f.expected in hand.seats and f.recorded != f.expected), None)  # fmt: skip
    if turn is None or turn.expected is None:
        return
    at = next((i for i, e in enumerate(hand.events) if e.seq == turn.seq), None)
    if at is None or hand.events[at].player != turn.recorded:
        return
    e, player = hand.events[at], turn.expected
    events = list(hand.events)
    events[at] = e._replace(player=player)
    said = finding_at(
        turn,
        "turn.order",
        expected=player,
        recorded=e.player,
        message=(
            f"The row at seq {e.seq} names {e.player}, but it was {player}'s turn and the row "
            f"is {player}'s ({_row(e._replace(player=player))}). The rest of the hand is "
            f"checked with it as {player}'s."
        ),
        rule=cite(rules, "turns.order"),
    )
    yield replace(hand, events=events), said
