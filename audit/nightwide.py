"""The checks over a whole night's files, beside the units' (``run.replay_logs`` adds their
findings): the table limits over every sessions file, the hands played outside their game's
time (``hand_time_findings``), and one ``check.skipped`` note for
each optional table the night lacks, could not read, or whose files hold no row, naming
the checks that could not run (skipped, never passed); and one ``deck.commitment`` note for
each shuffle algorithm the hands name whose shoes the audit does not replay
(``audit.shuffle.schemes``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa

from audit import duck
from audit.duck import file_literal, millis, quote
from audit.findings import Finding, Severity, contract, finding
from audit.games.tables import table_limit_findings
from audit.logs.contract import load_contract
from audit.logs.reader import LogRoot
from audit.logs.refile import REFILED
from audit.logs.validate import row_checks
from audit.shuffle.schemes import scheme_findings
from audit.skipped import skipped_words

EMPTY_IS_SILENT = ("ledger", "sessions")
"""Optional tables whose files, read and holding no row at all, would flag nothing: a game
with no ledger row is flagged only when the ledger holds rows (schemas/money.md), and no
session is no table limit. Such a night gets the ``check.skipped`` of a missing table,
worded so (a blind tester: an empty ledger file passed every money check in silence; an
empty game_events table is judged, each game's missing winner its own finding)."""


def table_limits(log: LogRoot, seats: Path | None = None) -> list[Finding]:
    """The night's ``table.limit`` findings over the log root's sessions and games files
    (``table_limit_findings``; ``seats``: those earlier nightly nights judged)."""
    return table_limit_findings(
        [Path(log.where(f)) for f in log.files.get("sessions", [])],
        [Path(log.where(f)) for f in log.files.get("games", [])],
        log.root,
        by_name=not (log.uniform("sessions") and log.uniform("games")),
        earlier=seats,
    )


def night_checks(log: LogRoot, seats: Path | None = None) -> list[Finding]:
    """Checks over the whole night's files: table limits (with the ``seats`` earlier
    nightly nights judged); and one note per optional table that is missing (or, of
    ``EMPTY_IS_SILENT``, holds no row: when its other files could not be read, it says
    so as for a table none of whose files could be read), naming the checks that could not
    run (skipped, never passed), and for an unreadable sessions file beside sessions rows
    (the games it touched cannot be known); one per shuffle algorithm whose shoes are not
    replayed (``scheme_findings``). The night's formats are read once, and only when a note
    may need them."""
    found = table_limits(log, seats)
    found += hand_time_findings(log)
    found += scheme_findings(log)
    empty = [table for table in EMPTY_IS_SILENT
             if log.files.get(table) and not any(f.rows for f in log.files[table])]  # fmt: skip
    night = night_formats(log) if log.missing_optional or empty else None
    said: set[str] = set()  # the tables named as none of whose files could be read
    for table in sorted(log.missing_optional):
        words = skipped_words(table, log.unread.get(table, ()), night=night)
        if words is None:
            continue  # no game of the night rests on it (a night of matches, no ledger)
        found.append(
            finding("check.skipped", game_id="", message=words, rule=contract("tables.optional"))
        )
    for table in empty if night != set() else ():  # a night of no game rests on no table
        # Its files that read hold no row, and the others could not be read: none of its
        # rows could, as a log root whose only files of it could not be read says (a
        # nightly night's are those and the empty file it adds: docs/nightly.md).
        refused = log.unread.get(table, ())
        words = skipped_words(table, refused, night=night, empty=not refused)
        if words is not None:
            found.append(finding("check.skipped", game_id="", message=words,
                                 rule=contract("tables.optional")))  # fmt: skip
            said.update([table] if refused else [])
    found += session_gaps(log)
    damaged = log.unread.get("sessions", ())
    if damaged and "sessions" not in log.missing_optional and "sessions" not in said:
        found.append(
            finding(
                "check.skipped",
                game_id="",
                message=f"{', '.join(damaged)} could not be read, so table.limit and the "
                "fair-play detectors saw only the other sessions files.",
                rule=contract("tables.files"),
            )
        )
    return found


_OUTSIDE = """
WITH refiled AS ({refiled}),
g AS (SELECT DISTINCT game_id, table_id, started_at, ended_at FROM {games}
           WHERE game_id IS NOT NULL AND started_at IS NOT NULL),
h AS (SELECT hand_id, game_id, hand_no, started_at FROM {hands}
      WHERE hand_id IS NOT NULL AND started_at IS NOT NULL
      QUALIFY count(*) OVER (PARTITION BY hand_id) = 1)
SELECT h.hand_id, h.game_id, h.hand_no, strftime(CAST(h.started_at AS TIMESTAMP), '{at}'),
       strftime(CAST(g.started_at AS TIMESTAMP), '{at}'),
       strftime(CAST(g.ended_at AS TIMESTAMP), '{at}'), g.ended_at < g.started_at,
       (SELECT string_agg(o.game_id, ', ' ORDER BY o.game_id) FROM g o
        WHERE o.table_id = g.table_id AND o.game_id <> g.game_id
          AND o.started_at <= h.started_at AND (o.ended_at IS NULL OR h.started_at <= o.ended_at)),
       r.played
FROM h JOIN g USING (game_id) LEFT JOIN refiled r ON r.hand_id = h.hand_id
WHERE h.started_at < g.started_at OR (h.started_at > g.ended_at AND g.ended_at >= g.started_at)
ORDER BY h.game_id, h.hand_no, h.hand_id
"""
"""Hands that started outside their game's time (``hand_times``): before its start, or after
its end when that end is not before its start (``_GAME_BACKWARDS``: then the start alone)."""


_BACKWARDS = """
SELECT hand_id, game_id, hand_no, strftime(CAST(started_at AS TIMESTAMP), '{at}'),
       strftime(CAST(ended_at AS TIMESTAMP), '{at}')
FROM {hands} WHERE hand_id IS NOT NULL AND ended_at < started_at
QUALIFY count(*) OVER (PARTITION BY hand_id) = 1
ORDER BY game_id, hand_no, hand_id
"""
"""Hands that ended before they started (``hand_times``): one of the two times is wrong."""

_GAME_BACKWARDS = """
SELECT game_id, strftime(CAST(started_at AS TIMESTAMP), '{at}'),
       strftime(CAST(ended_at AS TIMESTAMP), '{at}')
FROM (SELECT DISTINCT game_id, started_at, ended_at FROM {games} WHERE game_id IS NOT NULL)
QUALIFY count(ended_at) OVER (PARTITION BY game_id) = 1 AND ended_at < started_at
ORDER BY game_id
"""
"""Games rows that ended before they started (``hand_times``): one of the two times is wrong
(a game written again while it runs is one game, its one ended row the one read)."""

_NONE_REFILED = "SELECT NULL::VARCHAR AS hand_id, NULL::VARCHAR AS played WHERE false"
"""No hand read into another game: ``hand_times``' first, cheaper query."""


class HandTime(NamedTuple):
    """A ``hand.time`` finding with the hand it is about (its ``hand_id`` is null: the
    hand's own verdict is its replay's), the game its row names, and the game it was read
    into, if any (``audit.logs.refile``)."""

    hand_id: str
    game_id: str
    played: str | None
    finding: Finding

    def concerns(self, game_id: str) -> bool:
        """Whether explaining game ``game_id`` should show it: the game the row names or
        the one it was read into."""
        return game_id in (self.game_id, self.played)


def hand_time_findings(log: LogRoot) -> list[Finding]:
    """``hand_times``' findings."""
    return [time.finding for time in hand_times(log)]


def hand_times(log: LogRoot) -> list[HandTime]:
    """``hand.time``: a hand that started before its game started or after it ended (its
    ``started_at`` against the games row's), naming the games of the same table that ran
    then. A hands row filed under another game of its table plays through the replay
    (its deal and turns stand alone) and shows only in the money of both games (a blind
    tester: 55 of 60 such hands verified, the ledger of both games blamed, critical, and
    no finding naming the hand). Where the hand's time and number show the game it was
    played in, the staging reads it there (``audit.logs.refile``) and this finding is the
    one the mistake gives, saying so. Only the start is compared: a platform may end a
    game at the declaration and its hand at the last show. A games row that ended before it
    started is its own minor ``hand.time``, and its hands are compared with its start alone
    (``_OUTSIDE``). One finding a hand (its game's
    rows repeated are the reader's to refuse). A hand id held by two hands rows (equal ones
    too) is quarantined with both (schemas/README.md), so neither row's time is judged: a
    blind tester's hand written again under another game got a ``hand.time`` from the
    quarantined copy."""
    if not log.files.get("games") or not log.files.get("hands"):
        return []
    try:
        with duck.connect() as con:
            con.execute("SET TimeZone = 'UTC'")  # the times in words, as the contract's
            games, hands = scan(log, "games"), scan(log, "hands")
            rows: list[tuple[Any, ...]] = []
            # A night with no hand outside its game's time pays no second query.
            for refiled in (_NONE_REFILED, REFILED.format(games=games, hands=hands)):
                rows = con.sql(_OUTSIDE.format(games=games, hands=hands, refiled=refiled,
                                               at="%Y-%m-%d %H:%M:%S")).fetchall()
                if not rows:
                    break
            backwards = con.sql(_BACKWARDS.format(hands=hands, at="%Y-%m-%d %H:%M:%S")).fetchall()
            reversed_games = con.sql(_GAME_BACKWARDS.format(games=games,
                                                            at="%Y-%m-%d %H:%M:%S")).fetchall()
    except duckdb.Error as error:
        skipped = finding("check.skipped", game_id="", rule=contract("hands.game_id"),
                          message="hand.time (hands played outside their game's time) could"
                          f" not run: {str(error).splitlines()[0]}")  # fmt: skip
        return [HandTime("", "", None, skipped)]
    found: list[HandTime] = []
    seen: set[str] = set()
    for hand_id, game_id, hand_no, began, start, end, reversed_game, fits, played in rows:
        if hand_id in seen:
            continue
        seen.add(hand_id)
        span = f"{start} to {end} UTC" if end is not None else f"from {start} UTC, still running"
        if reversed_game:  # its games row's own finding says the end is wrong or the start
            span = f"from {start} UTC"
        then = (f"; game {fits} of the same table was running then" if fits and ", " not in fits
                else f"; games {fits} of the same table were running then" if fits else "")
        # No game of its table running then: "it may be another game's" named none (a
        # blind tester).
        why = (f": it may be another game's{then}" if fits
               else ": no game of its table was running then, so its time or its game's is wrong")
        if played is not None:  # read into the game it was played in (audit.logs.refile)
            why = (f": game {played} of the same table was running then and holds no hand"
                   f" no. {hand_no} of its own, so the hand was played in it and is audited"
                   f" as game {played}'s, with that game's checks and money")  # fmt: skip
        said = finding(
            "hand.time",
            game_id=game_id,
            message=f"Hand {hand_id} (hand no. {hand_no} of game {game_id}) started at "
            f"{began} UTC, outside its game's time ({span}){why}.",
            expected=span,
            recorded=f"{began} UTC",
            rule=contract("hands.game_id"),
        )
        found.append(HandTime(hand_id, game_id, played, said))
    for hand_id, game_id, hand_no, began, ended in backwards:
        # A row that cannot be as written, which nothing else reads (the replay does not use
        # the times): minor, but said (a blind tester's hand ended an hour before it began,
        # verified and silent). A start outside its game's time is the one finding of a
        # start moved past the hand's end.
        if hand_id in seen:
            continue
        said = finding(
            "hand.time",
            game_id=game_id,
            message=f"Hand {hand_id} (hand no. {hand_no} of game {game_id}) ended at {ended} "
            f"UTC, before it started at {began} UTC: one of its two times is wrong.",
            expected=f"at or after {began} UTC",
            recorded=f"{ended} UTC",
            rule=contract("hands.ended_at"),
            severity=Severity.MINOR,
        )
        found.append(HandTime(hand_id, game_id, None, said))
    for game_id, start, end in reversed_games:
        # The games row's, not its hands': until 2026-12-06 a game that ended before it
        # started was a major hand.time on its first hand, "outside its game's time (18:12:20
        # to 17:12:20 UTC)" (a blind tester). Its hands are judged against its start only.
        said = finding(
            "hand.time",
            game_id=game_id,
            message=f"Game {game_id} ended at {end} UTC, before it started at {start} UTC: one "
            "of its two times is wrong, so its hands were checked against its start only.",
            expected=f"at or after {start} UTC",
            recorded=f"{end} UTC",
            rule=contract("games.started_at"),
            severity=Severity.MINOR,
        )
        found.append(HandTime("", game_id, None, said))
    return found


def night_formats(log: LogRoot) -> set[str] | None:
    """The formats of the night's games (from the games files), None when they cannot be
    read here (then every check a missing table holds is said skipped)."""
    try:
        with duck.connect() as con:
            rows = con.sql(f"SELECT DISTINCT CAST(format AS VARCHAR) FROM {scan(log, 'games')}")
            return {value for (value,) in rows.fetchall() if value is not None}
    except duckdb.Error:
        return None


_GAPS = """
WITH ended AS (SELECT game_id FROM {games} WHERE ended_at IS NOT NULL),
g AS (SELECT DISTINCT game_id FROM {hands} WHERE game_id IN (SELECT game_id FROM ended)),
s AS (SELECT DISTINCT game_id FROM {sessions} WHERE game_id IS NOT NULL AND {usable}),
missing AS (SELECT game_id FROM g ANTI JOIN s USING (game_id))
SELECT (SELECT count(*) FROM g), (SELECT count(*) FROM missing),
       (SELECT list(game_id ORDER BY game_id)[1:3] FROM missing)
"""


def session_gaps(log: LogRoot) -> list[Finding]:
    """One ``check.skipped`` when sessions rows are there but some of the night's games
    (those with hands) have none: every seated player connects to their game (log-format.md:
    "one row per player connection to a game"), so table.limit and the shared-device
    detector did not see those games (a blind tester's night held sessions for 5 of its
    947 games, and read as clean). Only games that ended: a connection is written when it
    ends (its ``left_at``), so a game still running may have none yet. Not when the table
    is missing, holds no row, or has a file that could not be read: ``night_checks`` says
    those. A game whose only sessions rows are quarantined has none here: table.limit and
    the detectors do not count a quarantined row (``tables.sessions_view``)."""
    files = log.files.get("sessions", [])
    if not files or not any(f.rows for f in files) or log.unread.get("sessions"):
        return []
    if not log.files.get("hands") or not log.files.get("games"):
        return []
    try:
        with duck.connect() as con:
            query = _GAPS.format(hands=scan(log, "hands"), games=scan(log, "games"),
                                 sessions=scan(log, "sessions"), usable=row_checks("sessions").ok)
            row = con.execute(query).fetchone()
    except duckdb.Error:
        return []  # a damaged file is the staging's to refuse; table.limit says its own
    assert row is not None
    total, missing, first = int(row[0]), int(row[1]), list(row[2] or [])
    if not missing:
        return []
    named = ", ".join(first) + (" and more" if missing > len(first) else "")
    return [finding(
        "check.skipped", game_id="", rule=contract("sessions.game_id"),
        message=f"{missing:,} of the night's {total:,} ended games have no sessions row "
        f"that is not quarantined ({named}): "
        "table.limit and fairplay.shared_device could not see who played in them or from "
        f"where, and judged the other {total - missing:,} only.",
    )]  # fmt: skip


def scan(log: LogRoot, table: str) -> str:
    """DuckDB's read of every good file of ``table``, for a small query of the night's
    own (the staging reads the tables for the audit), its timestamps truncated to the
    millisecond as the staging's are (``duck.millis``)."""
    paths = ", ".join(file_literal(log.where(f)) for f in log.files.get(table, []))
    read = (f"read_parquet([{paths}], union_by_name={str(not log.uniform(table)).lower()},"
            " hive_partitioning=false)")  # fmt: skip
    times = [c.name for c in load_contract()[table].columns if pa.types.is_timestamp(c.arrow_type)]
    if not times:
        return read
    replace = ", ".join(f"{millis(quote(name))} AS {quote(name)}" for name in times)
    return f"(SELECT * REPLACE ({replace}) FROM {read})"
