"""The turns table of an explained hand: a draw and the discard or declaration after it by
the same player make one row; every other event is a row of its own (``turn_views``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from audit.cards import count_words, format_codes
from audit.explain.cards import CardView, card_view
from audit.findings import Finding, worst_name
from audit.records import Event
from audit.replay.outcome import TableState
from audit.rules.melds import Jokers


@dataclass(frozen=True)
class TurnView:
    """One row of the turns table: a draw and the discard that closes it, or one other event.

    ``severity`` is the worst finding raised on these events, or empty.
    """

    seqs: str
    player: str
    drew: CardView | None
    source: str
    discarded: CardView | None
    finish: CardView | None
    note: str
    severity: str
    table: tuple[str, ...] = ()
    """Open melds: the melds on the table after this row, when it changed them."""


def turn_views(
    events: Sequence[Event],
    jokers: Jokers,
    findings: Sequence[Finding],
    table: Mapping[int, TableState] | None = None,
    kept: Mapping[int, tuple[int, bool]] | None = None,
    gone: Mapping[int, tuple[int, ...]] | None = None,
) -> tuple[TurnView, ...]:
    """The turns table: a draw and the discard or declaration after it by the same player
    make one row (in the open-melds game, with the melds laid, the lay-offs and the cut
    card's try between them, and the table's melds after the row when it changed them:
    ``table``, by seq); every other event is a row of its own. ``kept``: the replay's
    reshuffles made while cards were still in the stock (``HandReplay.kept``); ``gone``: the
    cards a stock draw from deeper in the stock passed over, by the seq of the next stock
    draw, which showed that they left the stock (``HandReplay.gone``)."""
    rows: list[list[Event]] = []
    in_turn = False
    for e in events:
        closes = e.action in ("discard", "declare")
        if (closes or e.action in _TURN_MOVES) and in_turn and rows[-1][0].player == e.player:
            rows[-1].append(e)
        else:
            rows.append([e])
        in_turn = not closes and (in_turn or e.action in _TURN_STARTS)
    melds = table or {}
    return tuple(_turn(row, jokers, findings, melds, kept or {}, gone or {}) for row in rows)


_TURN_STARTS = frozenset({"draw_stock", "draw_discard", "take_cut"})
_TURN_MOVES = frozenset(
    {"draw_stock", "draw_discard", "take_cut", "return_cut", "lay", "lay_off", "swap_joker"}
)


def _turn(
    row: list[Event],
    jokers: Jokers,
    findings: Sequence[Finding],
    table: Mapping[int, TableState],
    kept: Mapping[int, tuple[int, bool]],
    gone: Mapping[int, tuple[int, ...]],
) -> TurnView:
    seqs = {e.seq for e in row}
    first, last = row[0], row[-1]
    drew = source = discarded = finish = None
    drawn = False  # a draw_stock or draw_discard in the row: a second one is a note
    notes: list[str] = []
    after: TableState | None = None
    for e in row:
        card = card_view(e.card, jokers)
        match e.action:
            case "draw_stock" | "draw_discard":
                where = "stock" if e.action == "draw_stock" else "discard pile"
                if drawn:  # a second draw: both cards shown (a blind tester saw only one)
                    notes.append(f"then drew {format_codes([e.card])} from the {where} too: "
                                 "two draws in one turn")  # fmt: skip
                else:
                    drew, source, drawn = card, where, True
                if e.seq in gone:  # docs/replay.md, Turns: the platform's stock went on
                    passed = format_codes(gone[e.seq])
                    notes.append(
                        f"took the card under the last stock draw's: {passed}, which that "
                        "draw passed over, left the stock"
                    )
            case "take_cut":
                if not drawn:  # else the note names it, the draw before it stays shown
                    drew, source = card, "cut card"
                notes.append(f"took the cut card {format_codes([e.card])}")
            case "return_cut":
                notes.append("put the cut card back")
            case "lay":
                laid = "; ".join(format_codes(g) for g in e.groups or ())
                notes.append(f"laid {laid}")
            case "lay_off":
                notes.append(f"added {format_codes([e.card])} to meld {e.meld}")
            case "swap_joker":
                notes.append(f"put {format_codes([e.card])} in a joker's place in meld {e.meld}")
            case "discard":
                discarded = card
            case "declare":
                finish = card
                notes.append("declared")
            case "show":
                notes.append("showed their cards")
            case "drop":
                notes.append(_DROP_WORDS.get(e.reason or "player", f"dropped ({e.reason})"))
            case "reshuffle":
                size = len(e.groups[0]) if e.groups else 0
                left, on_top = kept.get(e.seq, (0, False))  # the stock then: docs/replay.md
                notes.append(
                    f"{count_words(size)} of the discard pile reshuffled "
                    f"{'on top of' if on_top else 'under'} the {left} still in the stock"
                    if left
                    else f"the discard pile was reshuffled into a new stock of {size} cards"
                )
            case _:
                notes.append(f"recorded {e.action!r}")
        server = f"by the server ({e.reason or 'no reason given'})"
        if e.auto and e.action != "drop" and server not in notes:  # once for a turn's rows
            notes.append(server)
        after = table.get(e.seq, after)
    return TurnView(
        seqs=str(first.seq) if first is last else f"{first.seq}-{last.seq}",
        player=first.player or "server",
        drew=drew,
        source=source or "",
        discarded=discarded,
        finish=finish,
        note="; ".join(notes),
        severity=worst_name(f for f in findings if f.seq in seqs),
        table=tuple(
            f"meld {number} ({owner}): {format_codes(cards)}" for number, owner, cards in after
        )
        if after is not None
        else (),
    )


_DROP_WORDS = {
    "player": "dropped",
    "left": "left the table (a drop)",
    "timeout": "dropped by the server (time-out)",
    "disconnect": "dropped by the server (disconnected)",
}
