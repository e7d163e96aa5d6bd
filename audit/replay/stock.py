"""A stock drawn in another order than the shoe, or a reshuffle row, records it: the order
the draws took, and one finding for it (docs/replay.md, Turns).

The replay reads each stock draw against the top of the stock as recorded, and a draw of
another card is a ``draw.stock_mismatch`` whose next draw says what the platform did
(``hand.HandReplay.draw_stock``). Those readings explain one card out of place; two stock
cards swapped far apart are a finding at each and, where the shoe holds a copy of either,
the replay's stock out of step for every draw after (a blind tester: "not in the stock at
all" said of a card that was, ten findings in a hand); a reshuffle row whose group is
written back to front is a finding at every draw from it (twenty-one).

``restock`` gives the hand with each stock (the shoe's, then each reshuffle's) in the order
its draws took it, where every card drawn from it is in it; the caller
(``readings.otherwise``) keeps that replay where it leaves no card out of place and fewer
findings in all, and ``stocked_otherwise`` is then its one finding.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import NamedTuple

from audit.cards import CODE_TEXT
from audit.findings import Finding, finding_at
from audit.records import NO_CARD, Action, Event, Hand
from audit.replay.redeal import NAMED
from audit.rules.ruleset import Ruleset, cite


class Drawn(NamedTuple):
    """A stock draw that took another card than the record holds at its place."""

    card: int
    at: int
    """Where it was drawn from, as the draws go: a shoe position, or (``reshuffle``) a
    0-based place in the reshuffle's group."""
    there: int
    """The card the record holds at ``at``."""
    held: int
    """Where the record holds ``card`` (of its copies, the first not drawn before)."""
    reshuffle: int | None
    """The seq of the reshuffle row whose group the card was drawn from; ``None``: the
    shoe's stock."""


def restock(hand: Hand, k: int) -> tuple[Hand, list[Drawn]] | None:
    """The hand with each stock in the order its stock draws took it (the rest of it after,
    in the recorded order), and the draws that took another card than the record holds at
    their place; ``None`` where every stock is drawn in its order, or where a draw took a
    card its stock does not hold (not an order: the replay's own findings say what)."""
    start = len(hand.seats) * k + 2
    stocks: list[tuple[int | None, list[int], list[int]]] = [(None, hand.shoe[start:], [])]
    for e in hand.events:
        if e.action == Action.RESHUFFLE.value:
            stocks.append((e.seq, list(e.groups[0]) if e.groups else [], []))
        elif e.action == Action.DRAW_STOCK.value and e.card != NO_CARD:
            stocks[-1][2].append(e.card)
    shoe = hand.shoe
    groups: dict[int, list[int]] = {}  # a reshuffle's seq -> its group in the order drawn
    moved: list[Drawn] = []
    for reshuffle, stock, drawn in stocks:
        if Counter(drawn) - Counter(stock) or drawn == stock[: len(drawn)]:
            continue
        first = start if reshuffle is None else 0
        order, here = _as_drawn(stock, drawn, first, reshuffle)
        moved += here
        if reshuffle is None:
            shoe = [*hand.shoe[:start], *order]
        else:
            groups[reshuffle] = order
    if not moved:
        return None
    events = [_regroup(e, groups[e.seq]) if e.seq in groups else e for e in hand.events]
    return replace(hand, shoe=shoe, events=events), moved


def reopened(hand: Hand, findings: list[Finding], k: int, rules: Ruleset
             ) -> tuple[Hand, Finding] | None:  # fmt: skip
    """The hand with its open card and the stock's top card swapped, where the open card
    recorded is the stock's top (its ``deal.mismatch``) and the first stock draw takes the
    deal's open card: the platform turned up the card under the open card and left the
    open card on top of the stock. One finding, the mismatch's, that says so: the reverse
    of a draw from the pile of the deal's open card (``HandReplay._open_card``; until
    2026-12-06 the draw was a second finding, "from deeper in the stock", a blind
    tester)."""
    at = len(hand.seats) * k + 1  # the open card's place; the stock's top is next
    if len(hand.shoe) <= at + 1 or hand.open != hand.shoe[at + 1] or hand.open == hand.shoe[at]:
        return None
    dealt, other = CODE_TEXT[hand.shoe[at]], CODE_TEXT[hand.open]
    said = next((f for f in findings if f.check == "deal.mismatch"
                 and (f.expected, f.recorded) == (dealt, other)), None)  # fmt: skip
    drew = next((e for e in hand.events if e.action in _STOCK_OR_RESHUFFLE), None)
    if said is None or drew is None or drew.card != hand.shoe[at]:
        return None
    shoe = [*hand.shoe[:at], hand.open, hand.shoe[at], *hand.shoe[at + 2 :]]
    words = (f"The open card recorded is {other}, but the deal puts {dealt} face up to start "
             f"the discard pile, and the first stock draw took {dealt} ({drew.player} at seq "
             f"{drew.seq}): the platform turned up {other}, the stock's top card (shoe "
             f"position {at + 1}), and left {dealt} (position {at}) on top of the stock, the "
             "two swapped. The rest of the hand is checked so.")  # fmt: skip
    return replace(hand, shoe=shoe), finding_at(
        said, "deal.mismatch", expected=said.expected, recorded=said.recorded, message=words,
        rule=cite(rules, "deal.procedure"))  # fmt: skip


_STOCK_OR_RESHUFFLE = frozenset({Action.DRAW_STOCK.value, Action.RESHUFFLE.value})
"""The first of these says what the platform left on top of the stock (a reshuffle first:
nothing the deal left)."""


def _regroup(e: Event, group: list[int]) -> Event:
    return e._replace(groups=[group, *(e.groups or [])[1:]])


def _as_drawn(
    stock: list[int], drawn: list[int], first: int, reshuffle: int | None
) -> tuple[list[int], list[Drawn]]:
    """``stock`` in the order ``drawn`` took it, and the draws of another card than it holds
    at their place (``first``: where its first card is numbered)."""
    left = Counter(drawn)
    rest = []
    for card in stock:
        if left[card]:
            left[card] -= 1
        else:
            rest.append(card)
    at: dict[int, list[int]] = {}
    for i, card in enumerate(stock):
        at.setdefault(card, []).append(first + i)
    held = [at[card].pop(0) for card in drawn]  # the copy nearest the top, of those left
    moved = [Drawn(card, first + j, stock[j], held[j], reshuffle)
             for j, card in enumerate(drawn) if card != stock[j]]  # fmt: skip
    return [*drawn, *rest], moved


def _words(d: Drawn) -> str:
    """``6H was drawn as shoe position 28, which holds 5C (the shoe has 6H at 31)``; from a
    reshuffle's group: ``KH was drawn as card 1 of the stock the reshuffle at seq 67 made,
    which holds TH (the row has KH as card 26)``."""
    card, there = CODE_TEXT[d.card], CODE_TEXT[d.there]
    if d.reshuffle is None:
        return (f"{card} was drawn as shoe position {d.at}, which holds {there} (the shoe "
                f"has {card} at {d.held})")  # fmt: skip
    return (f"{card} was drawn as card {d.at + 1} of the stock the reshuffle at seq "
            f"{d.reshuffle} made, which holds {there} (the row has {card} as card "
            f"{d.held + 1})")  # fmt: skip


def _place(d: Drawn) -> str:
    """``at 28`` (a shoe position), ``card 1 of the reshuffle at seq 67``."""
    if d.reshuffle is None:
        return f"at {d.at}"
    return f"card {d.at + 1} of the reshuffle at seq {d.reshuffle}"


def stocked_otherwise(first: Finding, moved: list[Drawn], rules: Ruleset) -> Finding:
    """The one finding of a hand whose stock was drawn in another order than recorded: the
    first stock draw not of the top (its player and event), in words that name each draw
    of another card than the record holds at its place, and where the record has the
    card."""
    said = [_words(d) for d in moved]
    cards = "; ".join(said)
    if len(said) > NAMED:
        cards = (f"{len(said)} draws took other cards than the record holds at their "
                 f"place, among them {'; '.join(said[: NAMED - 1])}")  # fmt: skip
    kinds = {d.reshuffle is None for d in moved}
    than = {frozenset({True}): "the shoe records", frozenset({False}): "the reshuffle row "
            "records"}.get(frozenset(kinds), "recorded")  # fmt: skip
    return finding_at(
        first,
        "draw.stock_mismatch",
        expected="; ".join(f"{CODE_TEXT[d.there]} {_place(d)}" for d in moved),
        recorded="; ".join(f"{CODE_TEXT[d.card]} {_place(d)}" for d in moved),
        message=(
            f"The stock was drawn in another order than {than}: {cards}. The rest of the "
            "hand is checked with the stock in the order drawn."
        ),
        rule=cite(rules, "turns.draw_top_card"),
    )
