"""One clean and one broken hand for every hand-level check of the catalog.

Each case is (name, expected finding (check, hand, player, seq) or None, scenario kwargs).
``test_checks.py`` replays them in memory and end to end through Parquet logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from audit.records import LedgerRow

P1 = "2H 3H 4H 5S 6S 7S 9C 9D 9S KD KC KS QH"
P2 = "AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD QC"
DECLARE = "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS JK"
SHOW = "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD QC"
P3 = "AH 2C 3D 4C 5H 6D 7C 8D 9H TH JD QS KH"
# P2 had no turn when P1 declared: a first hand show, capped at 40 (000_).
WON = {"P1": ("won", 0, "36.00"), "P2": ("lost", 40, "-40.00")}


def won_ledger() -> list[LedgerRow]:
    """The ledger that settles ``WON``: P1's 36.00, P2's -40.00 and 4.00 of rake."""
    return [LedgerRow("P1", "points_settlement", Decimal("36.00")),
            LedgerRow("P2", "points_settlement", Decimal("-40.00")),
            LedgerRow(None, "rake", Decimal("4.00"))]  # fmt: skip


def base(**over: Any) -> dict[str, Any]:
    """The clean hand: P1 draws the joker and declares on the first turn; P2 shows."""
    kw: dict[str, Any] = {
        "seats": {"P1": P1, "P2": P2},
        "wild": "8S",
        "open": "AC",
        "stock": "JK 2S 6H 7D",
        "events": ["P1 draw_stock JK", DECLARE, SHOW],
        "results": dict(WON),
    }
    kw.update(over)
    return kw


def longer(**over: Any) -> dict[str, Any]:
    """A clean hand of a few turns: P1 discards, P2 plays a turn, then P1 declares."""
    kw = base(
        stock="2S JK 6H 7D",
        events=[
            "P1 draw_stock 2S",
            "P1 discard 2S",
            "P2 draw_discard 2S",
            "P2 discard 2S",
            "P1 draw_stock JK",
            DECLARE,
            "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD QC",
        ],
        # P2 has had a turn: no first-hand-show cap; every card counts (no sequence): 77.
        results={"P1": ("won", 0, "69.30"), "P2": ("lost", 77, "-77.00")},
    )
    kw.update(over)
    return kw


@dataclass(frozen=True)
class Case:
    name: str
    expect: tuple[str, str, str | None, int | None] | None
    kwargs: dict[str, Any] = field(default_factory=dict)


CASES: list[Case] = [
    Case("clean first-hand show", None, base()),
    Case("clean hand of several turns", None, longer()),
    Case("deck.composition", ("deck.composition", "H1", None, None), base(shoe_last="AS")),
    Case("deal.mismatch", ("deal.mismatch", "H1", None, None), base(recorded_wild="9S")),
    Case(
        "turn.order",
        ("turn.order", "H1", "P2", 0),
        longer(
            events=[
                "P2 draw_stock 2S",
                "P2 discard 2S",
                "P1 draw_stock JK",
                DECLARE,
                "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD QC",
            ]
        ),
    ),
    Case("draw.stock_mismatch", ("draw.stock_mismatch", "H1", "P1", 0), base(stock="2S JK 6H")),
    Case(
        "draw.discard_mismatch",
        ("draw.discard_mismatch", "H1", "P2", 2),
        longer(
            events=[
                "P1 draw_stock 2S",
                "P1 discard 2S",
                "P2 draw_discard AC",
                "P2 discard AC",
                "P1 draw_stock JK",
                DECLARE,
                "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD QC",
            ]
        ),
    ),
    Case(
        "draw.forbidden",
        ("draw.forbidden", "H1", "P2", 2),
        base(
            stock="JK 6H",
            events=[
                "P1 draw_stock JK",
                "P1 discard JK",
                "P2 draw_discard JK",
                "P2 discard QC",
                "P1 drop",
            ],
            results={"P1": ("middle_drop", 40, "-40.00"), "P2": ("won", 0, "36.00")},
        ),
    ),
    Case(
        "discard.not_in_hand",
        ("discard.not_in_hand", "H1", "P1", 1),
        base(
            stock="2S JK",
            events=["P1 draw_stock 2S", "P1 discard 2C", "P2 drop"],
            results={"P1": ("won", 0, "18.00"), "P2": ("first_drop", 20, "-20.00")},
        ),
    ),
    Case(
        "declare.groups_mismatch",
        ("declare.groups_mismatch", "H1", "P2", 2),
        base(
            events=["P1 draw_stock JK", DECLARE, "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD KH"]
        ),
    ),
    Case(
        "declare.verdict",
        ("declare.verdict", "H1", "P1", 1),
        # Three players: by the rules P2 and P3 play on after P1's invalid declaration
        # (past the end of the record), so the verdict is the one finding; with two, P2
        # would have won (turns.last_player) and their recorded loss be a finding too.
        base(
            seats={"P1": P1, "P2": P2, "P3": P3},
            stock="7D JK",
            events=[
                "P1 draw_stock 7D",
                "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS 7D",
                SHOW,
                f"P3 show: {P3}",
            ],
            results={
                "P1": ("won", 0, "72.00"),
                "P2": ("lost", 40, "-40.00"),
                "P3": ("lost", 40, "-40.00"),
            },
        ),
    ),
    Case(
        "score.points",
        ("score.points", "H1", "P2", None),
        base(results={"P1": ("won", 0, "36.00"), "P2": ("lost", 45, "-40.00")}),
    ),
    Case(
        "score.outcome",
        ("score.outcome", "H1", "P2", None),
        base(results={"P1": ("won", 0, "36.00"), "P2": ("middle_drop", 40, "-40.00")}),
    ),
    Case(
        "drop.penalty",
        ("drop.penalty", "H1", "P2", 2),
        base(
            events=["P1 draw_stock JK", "P1 discard JK", "P2 drop"],
            results={"P1": ("won", 0, "18.00"), "P2": ("first_drop", 40, "-20.00")},
        ),
    ),
    Case(
        "score.amount",
        ("score.amount", "H1", "P1", None),
        base(results={"P1": ("won", 0, "40.00"), "P2": ("lost", 40, "-40.00")}),
    ),
]
