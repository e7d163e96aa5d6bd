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
where that seat never plays it, or from its place past the deal (the wild card's, the open
card's, the stock's), giving back a card the receiver was dealt and does not need.
The caller (``readings.otherwise``, for ``outcome.audit_hand``) replays the hand so dealt
and keeps that replay only where it leaves no card out of place and fewer findings in all:
the first finding of the first replay then stands alone, with words that name the cards
dealt otherwise.

A seat may also have been dealt a card of another's on top of its own, the other seat
dealt one fewer (``moved``: a blind tester's 14 cards and 12), which no trade explains
where the player plays every card it was dealt and the other seat shows its 12; that
reading stands even at as many findings as the record's (``readings.Reading.ties``). A
seat's card turned up as the wild card (or open card) in place of the one the seat then
played is the trade of that card with the wild card's place, said as the ``deal.mismatch``
it is (``turned_up``).

A hand whose seats are recorded in another order than the players took their turns
(``reseat``) is the same kind of fault one step earlier: the platform dealt and played in
its own seat order, and read in the recorded one every turn is out of turn and every card
at another seat (a blind tester's two seats swapped at 3-6 player tables: 2 to 58 findings
a hand). A wild card recorded otherwise than the deal turns up is one more
(``dealt_wild``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import islice, permutations
from typing import NamedTuple

from audit.cards import CODE_TEXT
from audit.findings import Finding, finding_at
from audit.records import DRAWS, NO_CARD, PLAYS, Action, Hand, and_words, ordinal
from audit.rules.ruleset import Ruleset, cite

CARD_CHECKS = frozenset({"discard.not_in_hand", "declare.groups_mismatch"})
"""The findings of a card a player played without holding it as the replay deals."""

_GROUPS = frozenset({Action.DECLARE.value, Action.SHOW.value})
_TURNS = frozenset({*DRAWS, Action.DROP.value})
"""The actions that open a turn: who took them first, in order, is the order of play."""
ORDERS = 6
"""Seat orders tried at most for the players who never took a turn (where they sat shows
only in their shown cards): every order of three of them."""


class Move(NamedTuple):
    """One dealt card the record shows at another seat than the shoe's."""

    card: int
    to: str
    """The seat that played it."""
    dealt_to: str
    """The seat the recorded shoe deals it to, or ``the wild card``, ``the open card``,
    ``the stock``."""
    at: int
    """Its position in the shoe."""


class Redeal(NamedTuple):
    hand: Hand
    """The hand with its shoe reordered so that the procedure deals as the record played."""
    moves: list[Move]
    """The cards played at another seat than the shoe's, in shoe order."""
    unseen: int
    """Cards given back in exchange that the record never shows played (where they went is
    the audit's choice, so the words do not name them)."""
    sizes: str = ""
    """A deal of other sizes than ``k`` (``moved``): ``14 cards to P1 and 12 to P2``."""


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
        if e.action in DRAWS and e.card != NO_CARD:
            held[e.card] += 1
            continue
        if e.action in PLAYS and e.card != NO_CARD:
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
    seen = _seen(hand, k)
    if seen is None:
        return None
    n, places, dealt, need = seen
    missing = {p: need[p] - dealt[p] for p in hand.seats}
    if not any(missing.values()):
        return None
    spare = {p: dealt[p] - need[p] for p in hand.seats}  # held now, never played
    shoe = list(hand.shoe)
    undealt = _undealt(hand, n * k)
    for p in hand.seats:
        for card in sorted(missing[p].elements()):
            q = next((q for q in hand.seats if q != p and spare[q][card]), None)
            if q is None:  # not another seat's: the wild card's, the open card's, the stock's
                at = next((i for i in range(n * k, len(shoe)) if shoe[i] == card), None)
                lay = undealt.get(at) if at is not None else None  # what the record says lay there
                back = _give_back(spare[p], Counter([] if lay is None else [lay]))
            else:
                at = next((i for i in places[q] if shoe[i] == card), None)
                back = _give_back(spare[p], missing[q])
            at_back = next((i for i in places[p] if shoe[i] == back), None)
            if at is None or back is None or at_back is None:
                return None
            shoe[at], shoe[at_back] = back, card
            spare[p][back] -= 1
            if q is None:
                continue
            spare[q][card] -= 1
            if missing[q][back]:
                missing[q][back] -= 1
            else:
                spare[q][back] += 1  # the seat did not need it: it may give it on
    moves, unseen = _moves(hand, shoe, n * k, need)
    return Redeal(replace(hand, shoe=shoe), moves, unseen)


def moved(hand: Hand, k: int) -> Redeal | None:
    """The hand dealt with each card a seat played and was not dealt given to it from the
    seat the shoe deals it to, where that seat never plays it, nothing given back: a
    platform that dealt one seat a card of another's (a blind tester's 14 cards to one
    player and 12 to the other), which no trade explains (the player declares all 14, the
    other shows 12). ``None`` where a card played lies at no other seat's place, or the
    seats keep ``k`` cards each (a trade: ``redeal``'s)."""
    seen = _seen(hand, k)
    if seen is None:
        return None
    _, places, dealt, need = seen
    spare = {p: dealt[p] - need[p] for p in hand.seats}
    size = dict.fromkeys(hand.seats, k)
    moves: list[Move] = []
    for p in hand.seats:
        for card in sorted((need[p] - dealt[p]).elements()):
            q = next((q for q in hand.seats if q != p and spare[q][card]), None)
            if q is None:
                return None
            taken = {m.at for m in moves}
            at = next(i for i in places[q] if hand.shoe[i] == card and i not in taken)
            spare[q][card] -= 1
            size[p], size[q] = size[p] + 1, size[q] - 1
            moves.append(Move(card, p, q, at))
    other = [(p, m) for p, m in size.items() if m != k]
    if not other:
        return None
    said = [f"{m} to {p}" for p, m in other]
    said[0] = f"{other[0][1]} card{'s' if other[0][1] != 1 else ''} to {other[0][0]}"
    moves.sort(key=lambda m: m.at)
    to = tuple((m.at, m.to) for m in moves)
    return Redeal(replace(hand, moved=to), moves, 0, and_words(said))


def _seen(
    hand: Hand, k: int
) -> tuple[int, dict[str, range], dict[str, Counter[int]], dict[str, Counter[int]]] | None:
    """The seats, each seat's places in the shoe by the deal procedure, the cards dealt
    there and the cards the seat's rows play (``needed``); ``None`` for fewer than two seats
    or a shoe too short to deal."""
    n = len(hand.seats)
    if n < 2 or len(hand.shoe) < n * k:
        return None
    places = {p: range(i, n * k, n) for i, p in enumerate(hand.seats)}
    dealt = {p: Counter(hand.shoe[i] for i in places[p]) for p in hand.seats}
    return n, places, dealt, needed(hand)


def _undealt(hand: Hand, dealt: int) -> dict[int, int]:
    """Past the dealt cards, the card the record says lay at a place of the shoe: the wild
    card and the open card recorded, and each card the stock draws took in turn (up to the
    first reshuffle: after it the stock is the pile's)."""
    out = {dealt: hand.wild, dealt + 1: hand.open}
    at = dealt + 2
    for e in hand.events:
        if e.action == Action.RESHUFFLE.value:
            break
        if e.action == Action.DRAW_STOCK.value and e.card is not None:
            out[at] = e.card
            at += 1
    return out


def _moves(
    hand: Hand, shoe: list[int], dealt: int, need: dict[str, Counter[int]]
) -> tuple[list[Move], int]:
    """The dealt cards at another place in ``shoe`` than in the hand's recorded shoe: those
    the record shows played by the seat it deals them to now (in shoe order), and how many
    it never shows."""
    n = len(hand.seats)
    played = {p: Counter(need[p]) for p in hand.seats}
    used: set[int] = set()
    moves: list[Move] = []
    unseen = 0
    for i in range(dealt):
        card = shoe[i]
        if card == hand.shoe[i]:
            continue
        to = hand.seats[i % n]
        at = next((j for j in range(len(shoe)) if j not in used
                   and hand.shoe[j] == card and shoe[j] != card), None)  # fmt: skip
        if at is None:
            continue
        used.add(at)
        if not played[to][card]:
            unseen += 1
            continue
        played[to][card] -= 1
        moves.append(Move(card, to, _place(hand, at, dealt), at))
    return sorted(moves, key=lambda m: m.at), unseen


def _place(hand: Hand, at: int, dealt: int) -> str:
    """Who or what the recorded shoe deals its card ``at`` to: a seat, or ``the wild
    card``, ``the open card``, ``the stock``."""
    if at < dealt:
        return hand.seats[at % len(hand.seats)]
    return {dealt: "the wild card", dealt + 1: "the open card"}.get(at, "the stock")


def _give_back(spare: Counter[int], wanted: Counter[int]) -> int | None:
    """The card a seat gives back for one it lacks, of those it was dealt and never plays
    (``spare``): one ``wanted`` where it goes (the other seat lacks it, or the record says
    it lay at that place past the deal: ``_undealt``); else the lowest (the replay of the
    hand so dealt then says whether that holds)."""
    for card in sorted(spare):
        if spare[card] and wanted[card]:
            return card
    return next((card for card in sorted(spare) if spare[card]), None)


def _move_words(m: Move) -> str:
    """``KD (shoe position 1) was played by P1, not P2``; a card the shoe deals to no
    seat (of its copies, the one taken is the audit's choice): ``P1 played QH, which the
    shoe deals to no player (it has one in the stock, at position 40)``."""
    card = CODE_TEXT[m.card]
    if not m.dealt_to.startswith("the "):
        return f"{card} (shoe position {m.at}) was played by {m.to}, not {m.dealt_to}"
    where = "in the stock" if m.dealt_to == "the stock" else f"as {m.dealt_to}"
    return (f"{m.to} played {card}, which the shoe deals to no player (it has one {where}, "
            f"at position {m.at})")  # fmt: skip


NAMED = 4
"""Cards a deal finding names one by one; past that it names the first and counts them (a
blind tester's seats recorded in the wrong order gave a sentence of 24 cards)."""


def dealt_otherwise(first: Finding, redealt: Redeal, rules: Ruleset) -> Finding:
    """The one finding of a hand dealt otherwise than its shoe: the first finding of a card
    out of place (its check, player and event), in words that name every card that traded
    seats, the rule the deal procedure."""
    said = [_move_words(m) for m in redealt.moves]
    moves = "; ".join(said)
    if len(said) > NAMED:
        moves = (f"{len(said)} cards were played at other seats than it deals them, among "
                 f"them {'; '.join(said[: NAMED - 1])}")  # fmt: skip
    back = redealt.unseen
    also = (
        f", and {back} card{'s' if back != 1 else ''} the record never shows played went "
        "the other way"
        if back
        else ""
    )
    if redealt.sizes:
        also += f" (the cards played read as a deal of {redealt.sizes})"
    return finding_at(
        first,
        first.check,
        expected="; ".join(f"{CODE_TEXT[m.card]} to {m.dealt_to}" for m in redealt.moves),
        recorded="; ".join(f"{CODE_TEXT[m.card]} to {m.to}" for m in redealt.moves),
        message=(
            "The players did not play the cards the recorded shoe deals them: "
            f"{moves}{also}. The rest of the hand is checked as dealt so."
        ),
        rule=cite(rules, "deal.procedure"),
    )


def turned_up(
    hand: Hand, redealt: Redeal, findings: list[Finding], k: int, rules: Ruleset
) -> Finding | None:
    """The one finding of a redeal that moves only the deal's wild card (or open card) to
    the seat that played it, giving back the one recorded in its place: the platform dealt
    that card and turned up one of the seat's instead, and the hands row recorded the card
    turned up (the replay's ``deal.mismatch``). It says both, with the deal's check and
    the mismatch's cards; ``None`` for any other redeal. Until 2026-12-06 the mismatch
    was left out and the one finding said only "which the shoe deals to no player (it has
    one as the wild card)" (a blind tester's wild card turned up one card early)."""
    if len(redealt.moves) != 1 or redealt.unseen or redealt.sizes:
        return None
    (m,) = redealt.moves
    name = {"the wild card": "wild card", "the open card": "open card"}.get(m.dealt_to)
    if name is None:
        return None
    shown = hand.wild if name == "wild card" else hand.open
    n = len(hand.seats)
    seat = hand.seats.index(m.to)  # its copy dealt last: the one turned up in its place
    src = max((i for i in range(seat, n * k, n) if hand.shoe[i] == shown), default=None)
    card, other = CODE_TEXT[m.card], CODE_TEXT[shown]
    said = next((f for f in findings if f.check == "deal.mismatch"
                 and (f.expected, f.recorded) == (card, other)), None)  # fmt: skip
    if src is None or said is None or redealt.hand.shoe[m.at] != shown:
        return None
    return finding_at(
        said,
        "deal.mismatch",
        expected=said.expected,
        recorded=said.recorded,
        message=(
            f"The {name} recorded is {other} (shoe position {src}, {m.to}'s "
            f"{ordinal(src // n + 1)} card by the deal), but the deal turns up {card} "
            f"(position {m.at}) as the {name}, which {m.to} played: the platform dealt "
            f"{card} to {m.to} and turned up {other} in its place. The rest of the hand is "
            "checked as dealt so."
        ),
        rule=cite(rules, "deal.procedure"),
    )


def dealt_wild(hand: Hand, findings: list[Finding], k: int) -> tuple[Hand, Finding] | None:
    """The hand with the wild card the deal turns up, where the hands row records another
    (its ``deal.mismatch``), and that finding in words that say the hand is checked with
    it. The replay plays on with the wild card recorded, the one the players were shown
    (docs/replay.md, "The deal"); a row written wrong after a hand played and judged with
    the deal's made every joker of the deal's rank a natural card and the other rank's
    jokers: a valid declaration judged invalid, the winner taken from the player who won,
    the losers' points counted again (a simulated night: 954 findings in 316 hands)."""
    at = len(hand.seats) * k
    if len(hand.shoe) <= at or hand.shoe[at] == hand.wild:
        return None
    said = next((f for f in findings if f.check == "deal.mismatch"
                 and f.recorded == CODE_TEXT[hand.wild]), None)  # fmt: skip
    if said is None:
        return None
    dealt = CODE_TEXT[hand.shoe[at]]
    words = (f"{said.message} The play and the platform's outcomes follow {dealt}: the "
             "hand is checked with it.")  # fmt: skip
    return replace(hand, wild=hand.shoe[at]), replace(said, message=words)


def reseat(hand: Hand) -> list[list[str]]:
    """The seat orders the record's turns give, where they are not the recorded one: the
    players in the order they first opened a turn (a player who left may go out of turn,
    so a drop on leaving says nothing), then those who never did, in each order up to
    ``ORDERS``."""
    played: list[str] = []
    for e in hand.events:
        if (e.action in _TURNS and e.player in hand.seats and e.player not in played
                and not (e.action == Action.DROP.value and e.reason == "left")):  # fmt: skip
            played.append(e.player)
    rest = [p for p in hand.seats if p not in played]
    orders = [played + list(o) for o in islice(permutations(rest), ORDERS)]
    return [o for o in orders if o != hand.seats]


def seated_otherwise(
    first: Finding, recorded: list[str], played: list[str], rules: Ruleset
) -> Finding:
    """The one finding of a hand played in another seat order than its recorded seats: the
    first turn out of order (its player and event), in words that give both orders."""
    order, seats = ", ".join(played), ", ".join(recorded)
    return finding_at(
        first,
        "turn.order",
        expected=order,
        recorded=seats,
        message=(
            f"The players were dealt and took their turns in the order {order}, not in the "
            f"seat order the hand records ({seats}). The rest of the hand is checked in the "
            "order played."
        ),
        rule=cite(rules, "turns.order"),
    )
