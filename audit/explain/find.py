"""Find one hand, with its game, in a log root."""

from __future__ import annotations

import tempfile
from pathlib import Path

from audit.errors import AuditError
from audit.logs.reader import game_of_hand, open_log_root, read_bucket, staging
from audit.replay.records import Game, Hand, QuarantineRow


def find_hand(logs: Path, hand_id: str) -> tuple[Game | None, Hand]:
    """The hand ``hand_id`` and its game (``None`` when the games table lacks it).

    Raises ``AuditError`` when the log root cannot be read or holds no such hand. Only
    the hand's game is staged (all of the log when the hand names no game).
    """
    log = open_log_root(logs, hash_files=False)
    found, game = game_of_hand(log, hand_id)
    if not found:
        raise AuditError(f"the log root has no hand {hand_id!r}", slug="no-hand")
    quarantine: list[QuarantineRow] = []
    with (
        tempfile.TemporaryDirectory(prefix="rummy-audit-explain-") as work,
        staging(log, quarantine=quarantine, workdir=Path(work), game=game) as stage,
    ):
        for bucket in range(stage.buckets):
            for batch in read_bucket(stage, bucket, quarantine):
                for unit in batch:
                    for hand in unit.hands:
                        if hand.hand_id == hand_id:
                            return unit.game, hand
    raise AuditError(f"the log root has no hand {hand_id!r}", slug="no-hand")
