"""A hand played with cards the recorded shoe deals to other seats: the deal that explains
the record, and one finding for it (docs/replay.md, "The deal").

The deal procedure gives ``shoe[i]`` to ``seats[i mod n]``. A platform that dealt otherwise
than its shoe records (two dealt cards trading seats: a shoe written after the deal, or a
deal changed under a committed shoe) shows it only in the play: a player discards, declares
or shows a card the shoe deals to another seat, and that seat never plays it. Replayed from
the shoe as recorded, every step that touches such a card is a finding: the discard not
held, groups that are not the cards held, then a valid declaration judged invalid for them
and the winner taken from the player who won (a blind tester's swap of two dealt cards had
six findings, two of them wrong about the outcome).

``redeal`` finds, from the record alone, the cards each seat must have been dealt (what it
played, less what it drew) and moves each one it lacks from the seat the shoe deals it to,
where that seat never plays it, giving back a card the receiver was dealt and does not need.
The caller (``outcome.audit_hand``) replays the hand so dealt and keeps that replay only where
it leaves no card out of place and fewer findings in all: the first finding of the first
replay then stands alone, with words that name the cards dealt otherwise.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import NamedTuple

from audit.cards import CODE_TEXT
from audit.findings import Finding, finding
from audit.records import Action, Hand
from audit.rules.ruleset import Ruleset, cite

CARD_CHECKS = frozenset({"discard.not_in_hand", "declare.groups_mismatch"})
"""The findings of a card a player played without holding it as the replay deals."""

_DRAWS = frozenset({Action.DRAW_STOCK.value, Action.DRAW_DISCARD.value})
_PLAYS = frozenset({Action.DISCARD.value, Action.DECLARE.value})
_GROUPS = frozenset({Action.DECLARE.value, Action.SHOW.value})


class Move(NamedTuple):
    """One dealt card the record shows at another seat than the shoe's."""

    card: int
    to: str
    """The seat that played it."""
    dealt_to: str
    """The seat the recorded shoe deals it to."""
    at: int
    """Its position in the shoe."""


class Redeal(NamedTuple):
    hand: Hand
    """The hand with its shoe reordered so that the procedure deals as the record played."""
    moves: list[Move]
    """The cards played at another seat than the shoe's, in seat order."""
    unseen: int
    """Cards given back in exchange that the record never shows played (where they went is
    the audit's choice, so the words do not name them)."""


def needed(hand: Hand) -> dict[str, Counter[int]]:
    """Each seat's cards that it played (discarded, put on the finish slot, declared or
    shown) before it drew them: what it must have been dealt."""
    out: dict[str, Counter[int]] = {p: Counter() for p in hand.seats}
    have: dict[str, Counter[int]] = {p: Counter() for p in hand.seats}
    for e in hand.events:
        if e.player not in out:
            continue
        held, need = have[e.player], out[e.player]
        played: list[int] = []
        if e.action in _DRAWS and e.card is not None:
            held[e.card] += 1
            continue
        if e.action in _PLAYS and e.card is not None:
            played.append(e.card)
        if e.action in _GROUPS:
            played.extend(c for g in e.groups or [] for c in g)
        for card in played:
            if held[card]:
                held[card] -= 1
            else:
                need[card] += 1
    return out


def redeal(hand: Hand, k: int) -> Redeal | None:
    """The hand dealt as its record plays it, or ``None`` where no trade of dealt cards
    between seats explains what the seats played (or none is needed)."""
    n = len(hand.seats)
    if n < 2 or len(hand.shoe) < n * k:
        return None
    seat_at = {p: i for i, p in enumerate(hand.seats)}
    dealt = {p: Counter(hand.shoe[i : n * k : n]) for i, p in enumerate(hand.seats)}
    need = needed(hand)
    missing = {p: need[p] - dealt[p] for p in hand.seats}
    if not any(missing.values()):
        return None
    spare = {p: dealt[p] - need[p] for p in hand.seats}
    given: dict[str, list[int]] = {p: [] for p in hand.seats}  # cards leaving a seat
    taken: dict[str, list[int]] = {p: [] for p in hand.seats}  # cards coming to it
    moves: list[Move] = []
    unseen = 0
    for p in hand.seats:
        for card in sorted(missing[p].elements()):
            q = next((q for q in hand.seats if q != p and spare[q][card]), None)
            back = _give_back(spare[p], missing[q]) if q is not None else None
            if q is None or back is None:
                return None
            spare[q][card] -= 1
            spare[p][back] -= 1
            given[q].append(card)
            taken[p].append(card)
            given[p].append(back)
            taken[q].append(back)
            if missing[q][back]:
                missing[q][back] -= 1
                moves.append(Move(back, q, p, _position(hand.shoe, seat_at[p], n, k, back)))
            else:
                spare[q][back] += 1  # the seat did not need it: it may give it on
                unseen += 1
            moves.append(Move(card, p, q, _position(hand.shoe, seat_at[q], n, k, card)))
    shoe = list(hand.shoe)
    for p, i in seat_at.items():
        places = list(range(i, n * k, n))
        out = Counter(given[p])
        freed = []
        for at in places:
            if out[shoe[at]]:
                out[shoe[at]] -= 1
                freed.append(at)
        for at, card in zip(freed, taken[p], strict=True):
            shoe[at] = card
    return Redeal(replace(hand, shoe=shoe), sorted(moves, key=lambda m: m.at), unseen)


def _give_back(spare: Counter[int], wanted: Counter[int]) -> int | None:
    """The card a seat gives back for one it lacks: one the other seat lacks, where it was
    dealt one; else the lowest it was dealt and does not need."""
    for card in sorted(spare):
        if spare[card] and wanted[card]:
            return card
    return next((card for card in sorted(spare) if spare[card]), None)


def _position(shoe: list[int], seat: int, n: int, k: int, card: int) -> int:
    return next(at for at in range(seat, n * k, n) if shoe[at] == card)


def dealt_otherwise(first: Finding, redealt: Redeal, rules: Ruleset) -> Finding:
    """The one finding of a hand dealt otherwise than its shoe: the first finding of a card
    out of place (its check, player and event), in words that name every card that traded
    seats, the rule the deal procedure."""
    moves = "; ".join(
        f"{CODE_TEXT[m.card]} (shoe position {m.at}) was played by {m.to}, not {m.dealt_to}"
        for m in redealt.moves
    )
    back = redealt.unseen
    also = (
        f", and {back} card{'s' if back != 1 else ''} the record never shows played went "
        "the other way"
        if back
        else ""
    )
    return finding(
        first.check,
        game_id=first.game_id,
        hand_id=first.hand_id,
        player_id=first.player_id,
        seq=first.seq,
        expected="; ".join(f"{CODE_TEXT[m.card]} to {m.dealt_to}" for m in redealt.moves),
        recorded="; ".join(f"{CODE_TEXT[m.card]} to {m.to}" for m in redealt.moves),
        message=(
            "The players did not play the cards the recorded shoe deals them: "
            f"{moves}{also}. The rest of the hand is checked as dealt so."
        ),
        rule=cite(rules, "deal.procedure"),
    )
