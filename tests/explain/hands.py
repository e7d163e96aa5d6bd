"""The hands the explain tests read, written with the scenario DSL (tests/replay/scenario.py).

``DISPUTE``: points rummy, three players. P2 drew from deep in the stock (critical), P3
dropped after drawing, P1 declared validly, and P2 showed their cards without putting
7D 8D 9D together: the rules charge 60 points, the best they could have had is 36, and
the platform charged 65 (two findings). ``INVALID``: the first hand of a 101 pool game
still running, with a printed joker as the wild card (aces are jokers): P1 declared
invalidly, P3 left, P2 won the hand; the record agrees (a pool game that ended after it
with three players in and no winner is a ``pool.winner`` finding).
"""

from __future__ import annotations

from typing import Any

DISPUTE: dict[str, Any] = {
    "seats": {
        "P1": "AH 2H 3H 4H 6S 7S 8S 9D 9C KD KC KS QH",
        "P2": "2S 3S 4S TC JC QC 7D 7H 8D 9D AS AD KH",
        "P3": "3D 4D 6D 9H TH JK 2C 3C 6H JS QD 8C 4C",
    },
    "wild": "5C",
    "open": "8H",
    "stock": "9S 6C 5D 2D TS",
    "events": [
        "P1 draw_stock 9S",
        "P1 discard 9S",
        "P2 draw_discard 9S",
        "P2 discard AS",
        "P3 draw_stock 6C",
        "P3 discard 2C",
        "P1 draw_stock 5D",
        "P1 discard QH",
        "P2 draw_stock TS",
        "P2 discard TS",
        "P3 drop",
        "P1 draw_stock 2D",
        "P1 declare 2D: AH 2H 3H 4H / 6S 7S 8S / 9D 9C 5D / KD KC KS",
        "P2 show: 2S 3S 4S / TC JC QC / 7D 7H / 8D 9D / AD KH 9S",
    ],
    "results": {
        "P1": ("won", 0, "90.00"),
        "P2": ("lost", 65, "-65.00"),
        "P3": ("middle_drop", 40, "-40.00"),
    },
}

INVALID: dict[str, Any] = {
    "seats": {
        "P1": "2H 3H 4H 6S 7S 8S 9D 9C KD KC QS QH 5C",
        "P2": "2S 3S 4S TC JC QC 7D 7H 8D 9D 3D 5D KH",
        "P3": "4D 6D 9H TH JK 2C 3C 6H JS QD 8C 4C TD",
    },
    "wild": "JK",
    "open": "8H",
    "stock": "AS 6C 9S",
    "events": [
        "P1 draw_stock AS",
        "P1 declare 5C: 2H 3H 4H AS / 6S 7S 8S / 9D 9C / KD KC QS QH",
        "P2 draw_stock 6C",
        "P2 discard 6C",
        "P3 drop auto left",
    ],
    "results": {
        "P1": ("invalid_declare", 80, None),
        "P2": ("won", 0, None),
        "P3": ("first_drop", 20, None),
    },
    "game_format": "pool_101",
    "score_after": {"P1": 80, "P2": 0, "P3": 20},
    "running": True,
}
