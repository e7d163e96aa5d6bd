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

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from audit.cards import CODE_TEXT
from audit.findings import Finding, finding_at
from audit.records import DRAWS, NO_CARD, PLAYS, Action, Event, Hand
from audit.replay.deal import dealt_cards
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


def _first(hand: Hand, findings: list[Finding]) -> tuple[Finding, int] | None:
    """The first finding of a row (by seq) and the index of its row in ``hand.events``."""
    first = min((f for f in findings if f.seq is not None and f.check.startswith(ROWS)),
                key=lambda f: f.seq or 0, default=None)  # fmt: skip
    if first is None:
        return None
    at = next((i for i, e in enumerate(hand.events) if e.seq == first.seq), None)
    return None if at is None else (first, at)


def swapped(hand: Hand, findings: list[Finding]) -> Iterator[tuple[Hand, Finding]]:
    """The hand with the row of the first finding of an event and its next (then its
    previous) row exchanged, each keeping its place's ``seq``; with the one finding that
    says so: the first finding's check, player and event."""
    found = _first(hand, findings)
    if found is None:
        return
    first, at = found
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
    turn it was; with the one ``turn.order`` that says so. Where that row is a draw and the
    next row the same player's discard or declaration, also the hand with both renamed: a
    whole turn in another player's name (a blind tester: the second row read as an
    innocent next player's "acted out of turn")."""
    turn = next((f for f in findings if f.check == "turn.order" and f.seq is not None
                 and f.expected in hand.seats and f.recorded != f.expected), None)  # fmt: skip
    if turn is None or turn.expected is None:
        return
    at = _row_of(hand, turn, turn.recorded)
    if at is None:
        return
    e, player = hand.events[at], turn.expected

    def said(message: str) -> Finding:
        return finding_at(turn, "turn.order", expected=player, recorded=e.player,
                          message=message, rule=cite(rules, "turns.order"))  # fmt: skip

    if _whole_turn(hand, at):
        both, (drew, played) = _renamed(hand, at, player, 2)
        yield both, said(  # first: it wins a tie
            f"The rows at seq {drew.seq} and {played.seq} name {e.player}, but it was "
            f"{player}'s turn and the rows are {player}'s ({_row(drew)}, then {_row(played)})."
            f" The rest of the hand is checked with them as {player}'s."
        )
    one, (row,) = _renamed(hand, at, player, 1)
    yield one, said(
        f"The row at seq {e.seq} names {e.player}, but it was {player}'s turn and the row is "
        f"{player}'s ({_row(row)}). The rest of the hand is checked with it as {player}'s."
    )


def strangers(
    hand: Hand, findings: list[Finding], rules: Ruleset
) -> Iterator[tuple[Hand, Finding]]:
    """The hand with the row of the first ``turn.order`` of a player not dealt in given to
    each player dealt in (and, where it is a draw, the same player's next row with it, a
    whole turn): the caller keeps the one that leaves no finding of a row, so the player
    whose turn it was; with the one ``turn.order`` that says so (a blind tester: a stranger's
    draw was three findings, the stranger's, then the player's discard "without drawing"
    and their show of a card they never drew)."""
    seated = set(hand.seats)
    turn = next((f for f in findings if f.check == "turn.order" and f.seq is not None
                 and f.player_id is not None and f.player_id not in seated), None)  # fmt: skip
    if turn is None:
        return
    at = _row_of(hand, turn, turn.player_id)
    if at is None:
        return
    e, whole = hand.events[at], _whole_turn(hand, at)
    for player in hand.seats:
        other, rows = _renamed(hand, at, player, 2 if whole else 1)
        where = (f"The rows at seq {e.seq} and {rows[-1].seq} name" if whole
                 else f"The row at seq {e.seq} names")  # fmt: skip
        what = ("the rows are " if whole else "the row is ") + ", then ".join(map(_row, rows))
        yield other, finding_at(
            turn, "turn.order", expected=player, recorded=e.player,
            rule=cite(rules, "turns.order"),
            message=f"{where} {e.player}, who was not dealt in, but it was {player}'s turn: "
            f"{what}. The rest of the hand is checked with {'them' if whole else 'it'} as "
            f"{player}'s.",
        )  # fmt: skip


def _row_of(hand: Hand, turn: Finding, player: str | None) -> int | None:
    """The index in ``hand.events`` of the row ``turn`` is on, where ``player`` wrote it."""
    at = next((i for i, e in enumerate(hand.events) if e.seq == turn.seq), None)
    return at if at is not None and hand.events[at].player == player else None


def _whole_turn(hand: Hand, at: int) -> bool:
    """Whether the row at ``at`` is a draw and the next row its player's discard or
    declaration: a whole turn, read in another name as one."""
    e = hand.events[at]
    after = hand.events[at + 1] if at + 1 < len(hand.events) else None
    return e.action in DRAWS and after is not None and after.player == e.player and (
        after.action in PLAYS)  # fmt: skip


def _renamed(hand: Hand, at: int, player: str, n: int) -> tuple[Hand, tuple[Event, ...]]:
    """The hand with its ``n`` rows from ``at`` in ``player``'s name, and those rows."""
    events = list(hand.events)
    events[at : at + n] = [e._replace(player=player) for e in events[at : at + n]]
    return replace(hand, events=events), tuple(events[at : at + n])


def inserted(hand: Hand, findings: list[Finding], k: int) -> Iterator[tuple[Hand, Finding]]:
    """The hand with a row put back before the row of its first finding of a row, where
    the record reads as if one were missing there (its later rows renumbered, so no gap in
    ``seq`` shows it; a blind tester: a wrong verdict in 14 of 60 such hands): the discard
    of a player who drew and whose turn the next player took (of the card that player
    took from the pile, of the card drawn, or of a card held then that the player's later
    rows never play nor show: ``_let_go``), or the draw of a player who discards or
    declares without one (from the pile, or the stock's next card up to a reshuffle). The
    row takes the ``seq`` of the row it goes before; with the one finding that says so."""
    found = _first(hand, findings)
    if found is None:
        return
    first, at = found
    e = hand.events[at]
    before = [x for x in hand.events[:at] if x.player is not None
              and x.action != Action.SHOW.value]  # fmt: skip
    last = before[-1] if before else None
    rows: list[Event] = []
    if last is not None and last.action in DRAWS and last.player != e.player:
        took = [e.card] if e.action == Action.DRAW_DISCARD.value else []
        for card in dict.fromkeys([*took, last.card, *_let_go(hand, at, last.player, k)]):
            if card != NO_CARD:
                rows.append(Event(e.seq, last.player, Action.DISCARD.value, card, None,
                                  False, None))  # fmt: skip
    if e.action in PLAYS and (last is None or last.player != e.player
                               or last.action not in DRAWS):  # fmt: skip
        pile, stock = _before(hand, at, k)
        for action, top in ((Action.DRAW_DISCARD.value, pile), (Action.DRAW_STOCK.value, stock)):
            if top is not None:
                rows.append(Event(e.seq, e.player, action, top, None, False, None))
    for row in rows:
        said = finding_at(
            first,
            first.check,
            expected=_row(row),
            recorded="no row",
            message=(
                f"A row seems to be missing before seq {e.seq}: {_row(row)}; the record goes "
                "on as if it had been made. The rest of the hand is checked with it."
            ),
            rule=first.rule,
        )
        yield replace(hand, events=[*hand.events[:at], row, *hand.events[at:]]), said


def _before(hand: Hand, at: int, k: int) -> tuple[int | None, int | None]:
    """The top of the discard pile and of the stock before ``hand.events[at]``, as the rows
    before it leave them (the stock's only up to a reshuffle, whose order is its row's)."""
    pile, drawn, shuffled = [hand.open], 0, False
    for x in hand.events[:at]:
        if x.action == Action.DISCARD.value or x.action == Action.DECLARE.value:
            pile.append(x.card)
        elif x.action == Action.DRAW_DISCARD.value and pile:
            pile.pop()
        elif x.action == Action.DRAW_STOCK.value:
            drawn += 1
        elif x.action == Action.RESHUFFLE.value:
            pile, shuffled = pile[-1:], True
    start = len(hand.seats) * k + 2 + drawn
    stock = None if shuffled or start >= len(hand.shoe) else hand.shoe[start]
    return (pile[-1] if pile else None), stock


LET_GO = 3
"""Cards held and never played after that a missing discard is tried with, at most: more
is a player who never shows their cards again, where the record cannot say which."""


def _let_go(hand: Hand, at: int, player: str | None, k: int) -> list[int]:
    """The cards ``player`` holds before ``hand.events[at]`` (dealt, drawn, less played) that
    their later rows neither discard nor declare nor show, up to ``LET_GO`` of them (none
    where there are more)."""
    held = Counter(dealt_cards(hand.shoe, hand.seats, k).get(player or "", []))
    for x in hand.events[:at]:
        if x.player != player or x.card == NO_CARD:
            continue
        if x.action in DRAWS:
            held[x.card] += 1
        elif x.action in PLAYS:
            held[x.card] -= 1
    later = Counter(c for x in hand.events[at:] if x.player == player
                    for c in [x.card, *(c for g in x.groups or [] for c in g)]
                    if c != NO_CARD)  # fmt: skip
    free = sorted((held - later).elements())
    return free if len(free) <= LET_GO else []
