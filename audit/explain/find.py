"""Find one hand's game, or one game, in a log root: only that game is staged.

``resolve`` decides whether an id names a hand or a game (a hand first); ``find_hand`` and
``find_game`` audit the one game through ``audit.unit.audit_unit``, as the nightly run
does; ``hand_clock`` and ``game_facts`` read what the replay's records leave out (the
times, which optional tables the log root lacks) with DuckDB, bound parameters only.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import duckdb

from audit import duck
from audit.duck import file_literal, millis
from audit.errors import AuditError, LogFormatError, one_line
from audit.explain.clock import UNKNOWN, Clock
from audit.logs.reader import (
    MEMORY_LIMIT,
    LogRoot,
    game_of_hand,
    open_log_root,
    orphans,
    read_bucket,
    refuse_undecodable,
    staging,
)
from audit.nightwide import hand_times, table_limits
from audit.records import NO_CARD, GameUnit, Hand, QuarantineRow
from audit.skipped import skipped_words
from audit.unit import UnitAudit, audit_unit

Kind = Literal["hand", "game"]


def find_hand(logs: Path, hand_id: str) -> UnitAudit:
    """The audit of the game that holds ``hand_id``, through the same door as the nightly
    run (``audit.unit.audit_unit``): a hand the night quarantines is quarantined here too.

    Raises ``AuditError`` when the log root cannot be read or holds no such hand. Only
    the hand's game is staged (all of the log when the hand names no game).
    """
    log = open_log_root(logs, hash_files=False)
    found, game = game_of_hand(log, hand_id)
    if not found:
        return _lost_hand(logs, log, hand_id)
    for unit in _units(logs, game):
        if any(hand.hand_id == hand_id for hand in unit.hands):
            audited = audit_unit(unit, missing=frozenset(log.missing_optional),
                                 damaged=log.damaged, ledger_rows=log.ledger_rows)  # fmt: skip
            # The night's hand.time on this hand, listed with it (the night's names no hand).
            audited.findings += [replace(time.finding, hand_id=hand_id)
                                 for time in hand_times(log)
                                 if time.hand_id == hand_id]  # fmt: skip
            return audited
    raise AuditError(f"the log root has no hand {hand_id!r}", slug="no-hand")


def find_game(logs: Path, game_id: str) -> UnitAudit:
    """The audit of game ``game_id`` and all its hands, through the same door as the
    nightly run (``audit.unit.audit_unit``, with the log root's missing optional tables
    and damaged files), so its findings are the night's.

    Raises ``AuditError`` when the log root cannot be read or neither its games nor its
    hands table names the game. Only that game is staged, unless a hands file could not be
    read: the hands other tables name that the sessions place in the game are then its, as
    the night counts them, and only the whole log places them (until 2026-12-06 such a game
    had "0 hands" here, 3 quarantined in hands.parquet: a blind tester).
    """
    log = open_log_root(logs, hash_files=False)
    if not _game_rows(log, game_id):
        raise AuditError(f"the log root has no game {game_id!r}", slug="no-game")
    for unit in _units(logs, None if log.damaged.get("hands") else game_id):
        if unit.game_id == game_id:
            audited = audit_unit(unit, missing=frozenset(log.missing_optional),
                                 damaged=log.damaged, ledger_rows=log.ledger_rows)  # fmt: skip
            # The night's hand.time on a hand its row files here or that was read in here,
            # and its table.limit on this game; without the sessions, that it was not run
            # (a blind tester: a game with a table.limit finding "agrees with the rules").
            audited.findings += [time.finding for time in hand_times(log)
                                 if time.concerns(game_id)]  # fmt: skip
            audited.findings += [f for f in table_limits(log) if f.game_id == game_id]
            if "sessions" in log.missing_optional:
                audited.skipped["sessions"] = skipped_words(
                    "sessions", log.unread.get("sessions", ())) or ""  # fmt: skip
            return audited
    raise AuditError(f"the log root has no game {game_id!r}", slug="no-game")


def _lost_hand(logs: Path, log: LogRoot, hand_id: str) -> UnitAudit:
    """The audit of a hand that events or results name but whose hands row was not read
    (its file could not be, or it was never written): quarantined, as the nightly run
    keeps it (schemas/README.md), in the game its players' sessions place it in, else on
    its own. The whole log is staged (the hand names no game); ``AuditError`` when no
    table names the hand."""
    if not _named_elsewhere(log, hand_id):
        raise AuditError(f"the log root has no hand {hand_id!r}", slug="no-hand")
    units, lost = _staged(logs, None)
    missing = frozenset(log.missing_optional)
    for unit in units:
        if any(hand.hand_id == hand_id for hand in unit.hands):
            return audit_unit(unit, missing=missing, damaged=log.damaged,
                              ledger_rows=log.ledger_rows)  # fmt: skip
    game, why = lost.get(hand_id, (None, "events or results name it, but hands does not hold it"))
    hand = Hand(hand_id, game or "", 0, [], [], NO_CARD, NO_CARD, [], [], quarantine=why)
    return audit_unit(GameUnit(game or "", None, [hand]), missing=missing, damaged=log.damaged)


def _named_elsewhere(log: LogRoot, hand_id: str) -> bool:
    """Whether an events or results row names ``hand_id``."""
    sql = "SELECT count(*) FROM {source} WHERE hand_id = $hand"
    return any(
        int(rows[0][0]) if rows else 0
        for rows in (_query(log, table, sql, {"hand": hand_id}) for table in ("events", "results"))
    )


def hand_record(logs: Path, hand_id: str) -> tuple[str, ...]:
    """What the tables record of a hand that could not be replayed, in words: its hands
    rows when there are several (each file and row, 0-based as quarantine.parquet's, and
    whether they differ), how many events rows name it, and its results rows."""
    log = open_log_root(logs, hash_files=False)
    lines = []
    hands = _query(
        log,
        "hands",
        "SELECT file_index, file_row_number, * FROM {source} WHERE hand_id = $hand"
        " ORDER BY file_index, file_row_number",
        {"hand": hand_id},
    )
    if len(hands) > 1:
        files = log.files["hands"]
        where = [f"{files[row[0]].path} row {row[1]}" for row in hands]
        columns = _columns(log, "hands")
        differ = [name for i, name in enumerate(columns)
                  if len({repr(row[2 + i]) for row in hands}) > 1]  # fmt: skip
        same = (f"they differ in {', '.join(differ)}" if differ
                else "they are the same in every column")  # fmt: skip
        lines.append(f"Its {len(hands)} hands rows: {', '.join(where)}; {same}.")
    events = _query(log, "events", "SELECT count(*) FROM {source} WHERE hand_id = $hand",
                    {"hand": hand_id})  # fmt: skip
    count = int(events[0][0]) if events else 0
    lines.append(f"Events recorded: {count} row{'' if count == 1 else 's'}.")
    results = _query(
        log,
        "results",
        "SELECT player_id, outcome, points, amount FROM {source} WHERE hand_id = $hand"
        " ORDER BY file_index, file_row_number",
        {"hand": hand_id},
    )
    said = [
        f"{player} {str(outcome).replace('_', ' ')}, {points} points"
        + ("" if amount is None else f", amount {amount}")
        for player, outcome, points, amount in results
    ]
    lines.append(f"Results recorded: {'; '.join(said) if said else 'none'}.")
    return tuple(lines)


def _columns(log: LogRoot, table: str) -> list[str]:
    """The columns ``SELECT *`` gives over the readable files of ``table``."""
    rows = _query(log, table, "DESCRIBE SELECT * FROM {source}", {})
    return [str(row[0]) for row in rows]


def resolve(logs: Path, ident: str) -> tuple[Kind, str]:
    """Whether ``ident`` names a hand or a game of the log root (a hand first), with a
    note when it names both (which was taken, and that the other was not); an
    ``AuditError`` when it names neither. A hand whose hands row was not read but that
    events or results name is a hand (``find_hand`` quarantines it, as the night does)."""
    log = open_log_root(logs, hash_files=False)
    hand, _ = game_of_hand(log, ident)
    game = _game_rows(log, ident) > 0
    if not hand and not game:
        hand = _named_elsewhere(log, ident)
    if hand and game:
        return "hand", (
            f"{ident!r} is both a hand id and a game id in this log root: the hand is "
            "explained (a hand id is looked up first)"
        )
    if hand:
        return "hand", ""
    if game:
        return "game", ""
    raise AuditError(f"the log root has no hand or game {ident!r}", slug="no-id")


@dataclass(frozen=True)
class GameFacts:
    """What the view of a game needs beyond its audit: when the game and each of its
    hands ran, which optional tables the log root lacks and which files it could not
    read (why money was not checked)."""

    clock: Clock = UNKNOWN
    hands: dict[str, Clock] = field(default_factory=dict)
    missing: frozenset[str] = frozenset()
    damaged: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Table -> its files that could not be read (``LogRoot.damaged``)."""


_SPAN = f"epoch_ms({millis('started_at')}), epoch_ms({millis('ended_at')})"
"""When a row ran, in milliseconds: a timestamp of any unit, truncated to the millisecond
(``duck.millis``: DuckDB's ``epoch_ms`` has no nanosecond form, a blind tester's ns log
root was refused, and it rounds)."""


def hand_clock(logs: Path, hand_id: str) -> Clock:
    """When hand ``hand_id`` was dealt and ended, from its first hands row."""
    log = open_log_root(logs, hash_files=False)
    rows = _query(
        log,
        "hands",
        f"SELECT {_SPAN} FROM {{source}} WHERE hand_id = $hand"
        " ORDER BY file_index, file_row_number LIMIT 1",
        {"hand": hand_id},
    )
    return Clock.from_ms(*rows[0]) if rows else UNKNOWN


def game_facts(logs: Path, game_id: str, hand_ids: Sequence[str] = ()) -> GameFacts:
    """When game ``game_id`` started and ended (its ended games row, else its first) and
    when each of ``hand_ids`` was dealt and ended (each one's first hands row)."""
    log = open_log_root(logs, hash_files=False)
    game = _query(
        log,
        "games",
        f"SELECT {_SPAN} FROM {{source}} WHERE game_id = $game"
        " ORDER BY ended_at IS NULL, file_index, file_row_number LIMIT 1",  # the ended row
        {"game": game_id},
    )
    hands = _query(
        log,
        "hands",
        f"SELECT hand_id, {_SPAN} FROM {{source}}"
        " WHERE list_contains($hands, hand_id)"
        " QUALIFY row_number() OVER (PARTITION BY hand_id ORDER BY file_index,"
        " file_row_number) = 1",
        {"hands": list(hand_ids)},
    ) if hand_ids else []  # fmt: skip
    return GameFacts(
        clock=Clock.from_ms(*game[0]) if game else UNKNOWN,
        hands={hand: Clock.from_ms(start, end) for hand, start, end in hands},
        missing=frozenset(log.missing_optional),
        damaged=log.damaged,
    )


def _game_rows(log: LogRoot, game_id: str) -> int:
    """How many games and hands rows name ``game_id``."""
    count = 0
    for table in ("games", "hands"):
        rows = _query(
            log, table, "SELECT count(*) FROM {source} WHERE game_id = $game", {"game": game_id}
        )
        count += int(rows[0][0]) if rows else 0
    return count


def _query(log: LogRoot, table: str, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` over the readable files of ``table`` (``{source}`` in ``sql``), with
    the values bound as parameters. A file whose data cannot be decoded is refused
    (``refuse_undecodable``) and the others read; a ``LogFormatError`` when the files
    cannot be read otherwise."""
    while True:
        files = log.files.get(table, [])
        if not files:
            return []
        paths = ", ".join(file_literal(log.where(f)) for f in files)
        source = f"read_parquet([{paths}], union_by_name=true, hive_partitioning=false)"
        try:
            with duck.connect(config={"memory_limit": MEMORY_LIMIT}) as con:
                return con.execute(sql.format(source=source), params).fetchall()
        except duckdb.Error as error:
            if refuse_undecodable(log, (table,)):
                continue
            text = str(error).strip()
            first = one_line(text.splitlines()[0] if text else type(error).__name__)
            raise LogFormatError(f"the {table} table could not be read: {first}") from error


def _units(logs: Path, game: str | None) -> list[GameUnit]:
    """The units of complete games staged from ``logs`` (only ``game``'s when given)."""
    return _staged(logs, game)[0]


def _staged(
    logs: Path, game: str | None
) -> tuple[list[GameUnit], dict[str, tuple[str | None, str]]]:
    """``_units``, and the hands other tables name whose hands row was not read, each
    with the game its sessions place it in (or None) and why (``reader.orphans``)."""
    log = open_log_root(logs, hash_files=False)
    quarantine: list[QuarantineRow] = []
    units: list[GameUnit] = []
    with (
        tempfile.TemporaryDirectory(prefix="rummy-audit-explain-") as work,
        staging(log, quarantine=quarantine, workdir=Path(work), game=game) as stage,
    ):
        for bucket in range(stage.buckets):
            for batch in read_bucket(stage, bucket, quarantine):
                units += batch
        lost = orphans(stage)
    return units, lost
