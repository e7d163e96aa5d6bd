"""Games the explain tests read: whole games written with the scenario DSL, their game
events and their ledger, as Parquet log roots.

``pool_game``: 101 pool, three players. P1 declares every hand. After hand 1 (P1 0, P2 77,
P3 33) P2 and P3 show on the first turn of hands 2 and 3 (40 points each, the first hand
show cap): P2 reaches 117 after hand 2, is eliminated and buys back in at 74 (1 + the
highest score still in, P3's 73); after hand 3 both reach 101 and P1 wins. Entries: 3
players and 1 rebuy at 100.00; rake 10% of 400.00 = 40.00; prize 360.00 (``prize`` records
another). ``points_game``: two hands of points rummy; ``settled`` changes P1's points
settlement in the ledger.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from audit.records import Game, Hand
from tests.logs.logbuilder import T0
from tests.replay.cases import DECLARE, P1, P2, base
from tests.replay.parquet import builder_for
from tests.replay.scenario import scenario

P3_LOW = "AD 2D 3D 6H 7H 8H TS JS QS 4C 9H TH KH"
P3_HIGH = "4C 6D 9H TH 2C 3D 6H JS QD 8D 5C 7C KH"


def _pool_hand(no: int, scores: dict[str, int]) -> dict[str, Any]:
    """Hand ``no`` of the pool game; ``scores`` are the running scores after it."""
    if no == 1:
        events = [
            "P1 draw_stock 2S", "P1 discard 2S", "P2 draw_discard 2S", "P2 discard 2S",
            "P3 draw_discard 2S", "P3 discard 2S", "P1 draw_stock JK", DECLARE,
            f"P2 show: {P2}", "P3 show: AD 2D 3D / 6H 7H 8H / TS JS QS / 4C 9H TH KH",
        ]  # fmt: skip
        points = {"P2": 77, "P3": 33}
    else:
        events = ["P1 draw_stock JK", DECLARE, f"P2 show: {P2}", f"P3 show: {P3_HIGH}"]
        points = {"P2": 40, "P3": 40}
    return {
        "seats": {"P1": P1, "P2": P2, "P3": P3_LOW if no == 1 else P3_HIGH},
        "wild": "8S",
        "open": "AC",
        "stock": "2S JK 6H 7D" if no == 1 else "JK 2S 6H 7D",
        "events": events,
        "results": {"P1": ("won", 0, None), **{p: ("lost", n, None) for p, n in points.items()}},
        "game_format": "pool_101",
        "score_after": scores,
    }


POOL_SCORES = [
    {"P1": 0, "P2": 77, "P3": 33},
    {"P1": 0, "P2": 117, "P3": 73},
    {"P1": 0, "P2": 114, "P3": 113},
]


def _renamed(kw: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The scenario ``kw`` with its players renamed (``names``: old -> new)."""

    def name(p: str) -> str:
        return names.get(p, p)

    out = dict(kw)
    out["seats"] = {name(p): cards for p, cards in kw["seats"].items()}
    out["events"] = [name(line[:2]) + line[2:] for line in kw["events"]]
    out["results"] = {name(p): row for p, row in kw["results"].items()}
    if kw.get("score_after"):
        out["score_after"] = {name(p): s for p, s in kw["score_after"].items()}
    return out


def _hands(game_id: str, kws: list[dict[str, Any]]) -> list[tuple[Game, Hand]]:
    pairs = []
    for no, kw in enumerate(kws, start=1):
        game, hand = scenario(**kw, game_id=game_id, hand_id=f"{game_id}-{no:02d}")
        pairs.append((game, replace(hand, hand_no=no)))
    return pairs


def pool_game(
    root: Path,
    *,
    game_id: str = "GP",
    prize: str = "360.00",
    names: dict[str, str] | None = None,
    rebuy_score: int = 74,
    won_by: str = "P1",
    rebuy_twice: bool = False,
    paid_to: str = "P1",
) -> Path:
    """Write the pool game (see the module doc) as the log root ``root``; its game_won row
    names ``won_by``; ``rebuy_twice`` writes P2's rebuy event and ledger row again; the
    prize row is under ``paid_to``."""
    names = names or {}

    def name(p: str) -> str:
        return names.get(p, p)

    kws = [_renamed(_pool_hand(no, s), names) for no, s in enumerate(POOL_SCORES, start=1)]
    logs = builder_for(root, _hands(game_id, kws))
    at = T0 + timedelta(hours=1)
    events = [
        (2, name("P2"), "eliminated", 117),
        (2, name("P2"), "rebuy", rebuy_score),
        *([(2, name("P2"), "rebuy", rebuy_score)] if rebuy_twice else []),
        (3, name("P2"), "eliminated", 114),
        (3, name("P3"), "eliminated", 113),
        (3, name(won_by), "game_won", None),
    ]
    for seq, (after, player, action, score) in enumerate(events):
        logs.row("game_events", game_id=game_id, after_hand_no=after, seq=seq, ts=at,
                 player_id=player, action=action, score=score, split_kind=None)  # fmt: skip
    ledger = [
        *((name(p), "buy_in", "-100.00") for p in ("P1", "P2", "P3")),
        *[(name("P2"), "rebuy", "-100.00")] * (2 if rebuy_twice else 1),
        (name(paid_to), "prize", prize),
        (None, "rake", "40.00"),
    ]
    for player, kind, amount in ledger:
        logs.row("ledger", game_id=game_id, player_id=player, kind=kind,
                 amount=Decimal(amount), ts=at)  # fmt: skip
    return logs.write()


def points_game(root: Path, *, game_id: str = "GT", settled: str = "36.00") -> Path:
    """Two hands of points rummy (tests/replay/cases.py ``base``, twice) and their ledger:
    each hand P1 wins 36.00 (40 points less 10% rake) and P2 pays 40.00; ``settled`` is
    the ledger's settlement with P1 over both hands (72.00 is right)."""
    logs = builder_for(root, _hands(game_id, [base(), base()]))
    at = T0 + timedelta(hours=1)
    for player, kind, amount in (
        ("P1", "points_settlement", settled),
        ("P2", "points_settlement", "-80.00"),
        (None, "rake", "8.00"),
    ):
        logs.row("ledger", game_id=game_id, player_id=player, kind=kind,
                 amount=Decimal(amount), ts=at)  # fmt: skip
    return logs.write()
