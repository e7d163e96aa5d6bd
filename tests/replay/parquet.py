"""Write scenario hands (scenario.py) as a log root of Parquet files, for end-to-end tests."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from audit.cards import CODE_TEXT
from audit.records import NO_CARD, Game, Hand
from tests.logs.logbuilder import T0, LogBuilder


def _text(code: int) -> str | None:
    return None if code == NO_CARD else CODE_TEXT[code]


def builder_for(root: Path, pairs: list[tuple[Game, Hand]]) -> LogBuilder:
    """A log builder holding the games and hands given (each game written once)."""
    logs = LogBuilder(root)
    written: set[str] = set()
    for game, hand in pairs:
        if game.game_id not in written:
            written.add(game.game_id)
            logs.row(
                "games",
                game_id=game.game_id,
                table_id=game.table_id,
                format=game.format,
                deals_count=game.deals_count,
                cards_per_hand=game.cards_per_hand,
                ruleset=game.ruleset,
                decks=game.decks,
                printed_jokers=game.printed_jokers,
                max_players=game.max_players,
                chip_type=game.chip_type,
                entry_fee=game.entry_fee,
                point_value=game.point_value,
                rake_pct=game.rake_pct,
                started_at=T0,
                ended_at=None if game.running else T0 + timedelta(hours=1),
            )
        logs.row(
            "hands",
            hand_id=hand.hand_id,
            game_id=hand.game_id,
            hand_no=hand.hand_no,
            seats=[{"seat": i + 1, "player_id": p} for i, p in enumerate(hand.seats)],
            shoe=[CODE_TEXT[c] for c in hand.shoe],
            wild_card=CODE_TEXT[hand.wild],
            open_card=CODE_TEXT[hand.open],
            shuffle=None,
            started_at=T0,
            ended_at=T0 + timedelta(minutes=5),
        )
        for e in hand.events:
            logs.row(
                "events",
                hand_id=hand.hand_id,
                seq=e.seq,
                ts=T0 + timedelta(seconds=e.seq),
                player_id=e.player,
                action=e.action,
                card=_text(e.card),
                groups=[[CODE_TEXT[c] for c in g] for g in e.groups] if e.groups else None,
                auto=e.auto,
                reason=e.reason,
            )
        for r in hand.results:
            logs.row(
                "results",
                hand_id=hand.hand_id,
                player_id=r.player,
                outcome=r.outcome,
                points=r.points,
                score_after=r.score_after,
                amount=r.amount,
            )
    return logs


def write_log(root: Path, pairs: list[tuple[Game, Hand]], **write: int | bool) -> Path:
    return builder_for(root, pairs).write(**write)  # type: ignore[arg-type]
