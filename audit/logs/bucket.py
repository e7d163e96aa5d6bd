"""One bucket of a staged log root, read back with polars into the records of
`audit.records`.

`Staged` is what the DuckDB staging of `audit.logs.reader` leaves: the rows of every table
written to Parquet under its folder, partitioned by bucket (all rows of a game in one), with
the row-level quarantine and the reasons it gives hands and games. `Bucket` reads the rows of
one bucket, runs the hand-level checks of `audit.logs.validate` set-wise, and builds the
records game by game, in batches of about `BATCH_EVENTS` events.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from audit.errors import one_line
from audit.findings import may_be_in
from audit.logs.clock import backwards
from audit.logs.validate import (
    SEATS_OK,
    event_stats,
    repeated_seq,
    result_stats,
    results_problem,
    seats_problem,
    seq_problem,
)
from audit.records import (
    NO_CARD,
    Event,
    Game,
    GameEvent,
    GameUnit,
    Hand,
    LedgerRow,
    QuarantineRow,
    Result,
    Shuffle,
    gc_paused,
    unnamed_row,
)

BATCH_EVENTS = 50_000
"""About how many events a yielded batch holds (a game is never split): it bounds the
Python objects alive at once, which weigh ~20 times their columnar form (100,000 before:
see ``audit.run.BUCKET_EVENTS`` for what halving both saved)."""
ROW_BITS = 40
"""`_k`, a row's place in the input, is `file index << 40 | row index`."""
_T = TypeVar("_T", bound=tuple[Any, ...])
_STAGED = ("games", "hands", "events", "results", "game_events", "ledger")
_LEDGER_ORDER = {kind: rank for rank, kind in enumerate(
    ("buy_in", "rebuy", "points_settlement", "split", "prize", "refund", "rake"))}  # fmt: skip
"""A game's ledger rows of one instant in the order money moves: in, between players, out,
then the platform's rake."""


@dataclass
class Staged:
    """A log root staged under `folder` (one Parquet folder per staged table, partitioned
    by bucket), with what the staging found: the row-level quarantine and its reasons."""

    folder: Path
    files: list[str]
    """Relative paths by global file index (`_k >> 40`)."""
    schemas: dict[str, pl.Schema]
    quarantine: list[QuarantineRow]
    hand_reasons: dict[str, str]
    """The first bad hands, events or results row of a hand, as its quarantine reason."""
    game_reasons: dict[str, str]
    """Why a game's games row cannot be used."""
    damaged: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Table -> its files that could not be read: named in the reasons they explain."""
    orphans: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    """Hands that events or results name and hands does not hold: hand id -> (the game the
    sessions place it in, or None; why it cannot be replayed)."""
    refused: dict[str, dict[str, str]] = field(default_factory=dict)
    """Hand -> table (events, results) -> why: the hand has rows in a refused file of that
    table whose ``hand_id`` column still reads (``quarantine.refused_hands``)."""
    refused_in: dict[str, set[str]] = field(default_factory=dict)
    """Hand -> the refused files of ``refused`` that hold its rows."""
    handless: dict[str, list[str]] = field(default_factory=dict)
    """Table (events, results) -> its refused files whose ``hand_id`` column cannot be read
    either (not Parquet, empty, truncated): their hands are found by what they lack
    (``lacking``)."""
    unread: frozenset[str] = frozenset()
    """The files of ``damaged`` refused tonight (``LogRoot.unread``: not an earlier nightly
    night's), whose ``input.file`` findings say what they took out
    (``QuarantineRow.refused``)."""
    nameless: dict[str | None, str] = field(default_factory=dict)
    """Player (None: the row names none) -> the first results row that names them but no
    hand (its ``hand_id`` null), as "results row R of F": a hand lacking that player's
    results row may be the one it belongs to, so it is quarantined, not judged
    (``Bucket._hand_problems``)."""
    unnamed: dict[str | None, str] = field(default_factory=dict)
    """Player (None: the row names none) -> the first events row that names them but no
    hand (its ``hand_id`` null), as "events row R of F": a hand whose replay may rest on it
    is not judged (``audit.replay.unread``)."""
    gameless: list[str] = field(default_factory=list)
    """The hands rows whose ``game_id`` is null, as "hands row R of F" (their ``input.row``
    says each): a hand a game lacks may be one of them (``Game.gameless``)."""
    partitions: int = 1
    """Folders per staged table: bucket b's rows are in folder ``part=b % partitions``,
    with their ``bucket`` column (rows of no bucket, -1, in ``part=-1``)."""

    def orphans_refused(self) -> tuple[str, ...]:
        """The hands files refused tonight that may hold the row of every hand that events
        or results name and hands does not hold (``QuarantineRow.refused``): all of the
        night's refused hands files, when each was refused tonight; none otherwise (then
        each such hand is its own ``input.hand``: a blind tester's one corrupt hands file
        was 77 of them)."""
        lost = self.damaged.get("hands", ())
        return tuple(lost) if lost and all(f in self.unread for f in lost) else ()

    def lacking(self, table: str) -> tuple[str, ...]:
        """The files of ``table`` (events, results) refused tonight whose hands are found by
        what they lack (``handless``): a hand lacking rows of ``table`` may have had them
        there, and their ``input.file`` findings say so (``QuarantineRow.refused``); none
        when one was refused on an earlier nightly night (each such hand is then its own
        ``input.hand``). Nothing tells such a hand from one that lacks its rows for another
        reason the same night (any split into files reads the same): both are counted
        with the file, each keeping its reason in quarantine.parquet (a blind tester: one
        truncated events file was 111 ``input.hand`` and 87 ``game.unchecked``)."""
        files = self.handless.get(table, ())
        return tuple(files) if files and all(f in self.unread for f in files) else ()

    def where(self, key: int) -> tuple[str, int]:
        return self.files[key >> ROW_BITS], key & ((1 << ROW_BITS) - 1)

    def paths(self, table: str, bucket: int | None = None) -> list[Path]:
        """The table's staged files: every one, or those holding ``bucket``'s rows; bucket
        -1, the rows of no bucket, is for events and results exactly the rows whose hand the
        hand map does not hold (``_h`` NULL)."""
        part = "*" if bucket is None else f"part={bucket % self.partitions if bucket >= 0 else -1}"
        return sorted((self.folder / table).glob(f"{part}/*.parquet"))


# ---------------------------------------------------------------- one bucket, in polars


_EVENT_COLUMNS = ("seq", "player_id", "action", "card", "groups", "auto", "reason", "meld")
_RESULT_COLUMNS = ("player_id", "outcome", "points", "score_after", "amount")
_GAME_COLUMNS = (
    "game_id", "table_id", "format", "deals_count", "cards_per_hand", "ruleset", "decks",
    "printed_jokers", "max_players", "chip_type", "entry_fee", "point_value", "rake_pct",
    "running",
)  # fmt: skip


class _HandRow(NamedTuple):
    """A hand's first hands row with what polars found about its rows."""

    h: int
    hand_id: str
    game: str
    hand_no: int | None
    seats: list[str] | None
    shoe: list[int] | None
    wild_card: int | None
    open_card: int | None
    shuffle: dict[str, Any] | None
    ok: bool
    copies: int
    n_events: int
    n_good_events: int
    seq_ok: bool | None
    n_results: int
    n_good_results: int
    results_unique: bool | None
    seats_ok: bool | None


class Bucket:
    """The games of one bucket, read with polars, with the hand-level checks done set-wise."""

    def __init__(self, staged: Staged, bucket: int, quarantine: list[QuarantineRow]) -> None:
        self.staged, self.quarantine = staged, quarantine
        self.gameless = tuple(staged.gameless)  # one tuple shared by every game (Game.gameless)
        self.folded: set[str] = set()  # hands put aside by refused files alone
        frame = {table: self._read(table, bucket) for table in _STAGED}
        events = _in_seq_order(frame["events"])
        results = frame["results"].sort("_h", "player_id", "_k")
        self.events = (
            events.filter(pl.col("_ok"))
            .select(pl.col(_EVENT_COLUMNS).exclude("card"), pl.col("card").fill_null(NO_CARD))
            .select(_EVENT_COLUMNS)
        )
        self.results = results.filter(pl.col("_ok")).select(_RESULT_COLUMNS)
        per_hand = event_stats(events)
        # Hands whose events' times go backwards by seq (``audit.logs.clock``): a few
        # vector operations over the bucket's events, before their times are dropped.
        self.clocks = backwards(events)
        broken = per_hand.filter(~pl.col("seq_ok"))["_h"]
        self.broken_seqs: dict[int, tuple[list[int | None], list[int]]] = {
            h: (seqs, keys)
            for h, seqs, keys in events.filter(pl.col("_h").is_in(broken.implode()))
            .group_by("_h")
            .agg("seq", "_k")
            .iter_rows()
        }
        per_hand_results = result_stats(results)
        repeated = per_hand_results.filter(~pl.col("results_unique"))["_h"]
        # A player's second good results row in such a hand (by player, then place in the
        # input): the row its quarantine names.
        self.repeated_results: dict[int, int] = dict(
            results.filter(pl.col("_ok") & pl.col("_h").is_in(repeated.implode()))
            .filter(pl.int_range(pl.len()).over("_h", "player_id") == 1)
            .group_by("_h", maintain_order=True)
            .agg(pl.col("_k").first())
            .iter_rows()
        )
        self.hands = (
            frame["hands"]
            .filter(pl.col("_first"))
            .sort("_h")
            .join(per_hand, on="_h", how="left")
            .join(per_hand_results, on="_h", how="left")
            .with_columns(
                pl.col("n_events", "n_good_events", "n_results", "n_good_results").fill_null(0),
                seats_ok=SEATS_OK,
            )
            .rename({"_h": "h", "_game": "game", "_ok": "ok", "_copies": "copies"})
            .select(_HandRow._fields)
        )
        games = frame["games"].filter(pl.col("_first"))
        usable = pl.col("_ok") & (pl.col("_copies") == 1)
        self.known_games = set(games["game_id"])
        self.game_rows = {
            row["game_id"]: row
            for row in games.filter(usable).select(_GAME_COLUMNS).iter_rows(named=True)
        }
        single = pl.col("_ok") & (pl.col("_copies") == 1)  # a duplicated key is quarantined
        self.game_events = _by_game(
            frame["game_events"].filter(single).sort("game_id", "seq", "_k"),
            GameEvent,
            ("after_hand_no", "seq", "player_id", "action", "score", "split_kind"),
        )
        # Rows of one instant by what they hold, not where the file put them, so that the
        # same rows in any files give the same bytes (a blind tester: explain's ledger came
        # out in another order when the rows were written in other chunks).
        kind = pl.col("kind").replace_strict(_LEDGER_ORDER, default=len(_LEDGER_ORDER),
                                             return_dtype=pl.Int8)  # fmt: skip
        self.ledger = _by_game(
            frame["ledger"].filter(pl.col("_ok"))
            .sort(["game_id", "_t", kind, "player_id", "amount", "_k"], nulls_last=True),
            LedgerRow,
            ("player_id", "kind", "amount"),
        )
        # Games with a game_events or ledger row quarantined (input.row): their checks on
        # that table would rest on rows that could not be read (``Game.lost_rows``).
        self.lost_rows: dict[str, tuple[str, ...]] = {}
        for table, kept in (("game_events", single), ("ledger", pl.col("_ok"))):
            for game in frame[table].filter(~kept)["game_id"].drop_nulls().to_list():
                if table not in self.lost_rows.get(game, ()):
                    self.lost_rows[game] = (*self.lost_rows.get(game, ()), table)
        self.orphans: dict[str, list[tuple[str, str]]] = {}
        for hand_id, (game, why) in sorted(staged.orphans.items()):
            if game is not None:
                self.orphans.setdefault(game, []).append((hand_id, why))

    def _read(self, table: str, bucket: int) -> pl.DataFrame:
        schema = self.staged.schemas[table]
        paths = self.staged.paths(table, bucket)
        if not paths:
            return pl.DataFrame(schema=schema)
        scan = pl.scan_parquet(paths, hive_partitioning=False, glob=False)
        return scan.filter(pl.col("bucket") == bucket).select(schema.names()).collect()

    def batches(self) -> Iterator[list[GameUnit]]:
        """Units of whole games, in batches of about BATCH_EVENTS events."""
        per_game = self.hands.group_by("game", maintain_order=True).agg(
            pl.len(), pl.col("n_good_events").sum(), pl.col("n_good_results").sum()
        )
        counts = {game: (h, e, r) for game, h, e, r in per_game.iter_rows()}
        # Python's string order is DuckDB's (binary), so hands stay in `_h` order.
        games = sorted(set(counts) | self.known_games)
        start: tuple[int, ...] = (0, 0, 0)
        size: tuple[int, ...] = (0, 0, 0)
        batch: list[str] = []
        for index, game in enumerate(games):
            batch.append(game)
            size = tuple(a + b for a, b in zip(size, counts.get(game, (0, 0, 0)), strict=True))
            if size[1] >= BATCH_EVENTS or index == len(games) - 1:
                with gc_paused(freeze=True):
                    units = self._units(batch, start, size)
                yield units
                start = tuple(a + b for a, b in zip(start, size, strict=True))
                size, batch = (0, 0, 0), []

    def _units(
        self, games: list[str], start: tuple[int, ...], size: tuple[int, ...]
    ) -> list[GameUnit]:
        events = _records(self.events.slice(start[1], size[1]), Event)
        results = _records(self.results.slice(start[2], size[2]), Result)
        lacking = self.staged.lacking("events")  # a hand's events may stop where it was
        units = {game: GameUnit(game, self._game(game), [], self._game_lost(game),
                                lacking=lacking, unnamed=self.staged.unnamed)
                 for game in games}  # fmt: skip
        e = r = 0
        for row in map(_HandRow._make, self.hands.slice(start[0], size[0]).iter_rows()):
            # A bad hands row keeps only its ids: its other values may be nulls or bad codes.
            hand = Hand(
                hand_id=row.hand_id,
                game_id=row.game,
                hand_no=row.hand_no or 0,
                seats=(row.ok and row.seats) or [],
                shoe=(row.ok and row.shoe) or [],
                wild=row.wild_card if row.ok and row.wild_card is not None else NO_CARD,
                open=row.open_card if row.ok and row.open_card is not None else NO_CARD,
                events=events[e : e + row.n_good_events],
                results=results[r : r + row.n_good_results],
                shuffle=_shuffle(row.shuffle) if row.ok else None,
            )
            e, r = e + row.n_good_events, r + row.n_good_results
            hand.quarantine = self._quarantine(row, hand, units[row.game].game is not None)
            if row.h in self.clocks and hand.quarantine is None:  # a quarantined hand: no more
                hand.clock = self.clocks[row.h]
            units[row.game].hands.append(hand)
        for unit in units.values():
            unit.refused = frozenset(h.hand_id for h in unit.hands if h.hand_id in self.folded)
            if unit.hands and len(unit.refused) == len(unit.hands):
                # A game without its games row, every hand of it put aside by a refused
                # file alone: its input.file finding says its checks were not run
                unit.lost = None
        held_in = self.staged.orphans_refused()  # their input.file says them (quarantine.py)
        for game, unit in units.items():  # hands whose own row is lost, placed by sessions
            for hand_id, why in self.orphans.get(game, ()):
                unit.hands.append(
                    Hand(hand_id, game, 0, [], [], NO_CARD, NO_CARD, [], [], quarantine=why)
                )
                if held_in:
                    unit.refused |= {hand_id}
        return list(units.values())

    def _game_lost(self, game_id: str) -> str | None:
        """Why the game has no games row to be judged by (``GameUnit.lost``), or None: it
        has one. Until 2026-12-06 its hands were quarantined and nothing said its
        game-level checks were not run (a blind tester: with every games row lost, run.json
        counted no game unchecked and the report said so)."""
        if game_id in self.game_rows or not game_id:
            # Not the hands whose row names no game (``Staged.gameless``): each row's
            # input.row says it, and a game named "" is no game (until 2026-12-06 they were
            # a game.unchecked of "game " beside it: a blind tester).
            return None
        if game_id in self.known_games:
            why = self.staged.game_reasons.get(game_id)
            return "its games row is quarantined" + (f" ({why})" if why else "")
        return "the games table holds no row of it" + self._lost("games")

    def _game(self, game_id: str) -> Game | None:
        row = self.game_rows.get(game_id)
        if row is None:
            return None
        return Game(
            **row,
            game_events=self.game_events.get(game_id, []),
            ledger=self.ledger.get(game_id, []),
            lost_rows=self.lost_rows.get(game_id, ()),
            gameless=self.gameless,
        )

    def _quarantine(self, row: _HandRow, hand: Hand, has_game: bool) -> str | None:
        """Why the hand cannot be replayed, or None; its own problems go to quarantine."""
        reasons = []
        if row.hand_id in self.staged.hand_reasons:
            reasons.append(self.staged.hand_reasons[row.hand_id])
        if row.copies > 1:
            reasons.append(f"hand {one_line(row.hand_id)} appears {row.copies} times in hands")
        found, blamed, together, lacks = self._hand_problems(row, hand, has_game)
        if found:
            problem = "; ".join(found)
            game = row.game or None
            table, file, index = "hands", None, None
            if blamed is not None:  # a repeated row: named where it is in the input
                table, (file, index) = blamed[0], self.staged.where(blamed[1])
            refused = () if reasons else self._refused_only(row, has_game, len(found), lacks)
            self.quarantine.append(
                QuarantineRow(table, file, index, row.hand_id, game, "input.hand", problem,
                              together=together if len(found) == 1 else None, refused=refused)
            )
            if refused:
                self.folded.add(row.hand_id)
        return "; ".join(reasons + found) or None

    def _refused_only(
        self, row: _HandRow, has_game: bool, problems: int, lacks: list[str]
    ) -> tuple[str, ...]:
        """The files refused tonight that explain each of the hand's ``problems`` (its rows
        in them, ``Staged.refused``; its game's games row may be in one; rows it lacks of a
        table in ``lacks``, whose refused files' hands are found so, ``Staged.lacking``), or
        none: a problem of its own is said in its own finding (``QuarantineRow.refused``)."""
        staged, files = self.staged, set[str]()
        explained = 0
        for table in lacks:
            files.update(lacked := staged.lacking(table))
            explained += bool(lacked)
        if row.game and not has_game and row.game not in self.known_games:
            files.update(staged.damaged.get("games", ()))
            explained += bool(staged.damaged.get("games"))
        for table in staged.refused.get(row.hand_id, {}):
            files.update(f for f in staged.refused_in.get(row.hand_id, ())
                         if f in staged.damaged.get(table, ()))  # fmt: skip
            explained += 1
        if explained < problems or not files or not files <= staged.unread:
            return ()
        return tuple(sorted(files))

    def _nameless(self, player: str) -> str | None:
        """The results row naming ``player`` (or no player) but no hand, as "results row R
        of F" (``Staged.nameless``), or None."""
        nameless = self.staged.nameless
        return nameless.get(player) or nameless.get(None)

    def _unnamed(self, seats: list[str]) -> str:
        """`` (events row R of F has a null hand_id: it may be one of them)`` when such a
        row may be one the hand lacks (``Staged.unnamed``)."""
        row = unnamed_row(self.staged.unnamed, seats)
        return f" ({row} has a null hand_id: it may be one of them)" if row else ""

    def _lost(self, table: str) -> str:
        """`` (its rows may be in F, which could not be read)`` when files of ``table``
        could not be read: the likely cause, named."""
        return may_be_in(self.staged.damaged.get(table, ()))

    def _hand_problems(
        self, row: _HandRow, hand: Hand, has_game: bool
    ) -> tuple[list[str], tuple[str, int] | None, str | None, list[str]]:
        """The hand's own problems; the table and ``_k`` of the input row they blame when
        that is one row repeated (a seq, a player's results row), else None; when its game
        has no games row to be read in, that problem said of all the game's hands
        (``QuarantineRow.together``: a blind tester's game without its games row was one
        finding for each of its hands); and the table of each problem that is rows it lacks
        (no events, a gap in seq, no results row), which a refused file may have held."""
        name, found, lacks = f"hand {one_line(row.hand_id)}", [], []
        blamed: tuple[str, int] | None = None
        together = None
        if row.game and not has_game:
            game = one_line(row.game)
            if row.game in self.known_games:
                why = self.staged.game_reasons[row.game]
                found.append(f"{name} is in game {game}, whose games row is quarantined: {why}")
                together = f"are in game {game}, whose games row is quarantined: {why}"
            else:
                lost = self._lost("games")
                found.append(f"{name} names game {game}, which games does not hold{lost}")
                together = f"name game {game}, which games does not hold{lost}"
        if row.ok and not row.seats_ok:
            found.append(seats_problem(name, hand.seats))
        refused = self.staged.refused.get(row.hand_id, {})
        if "events" in refused:  # it says more than what the rows left lack
            found.append(refused["events"])
        elif row.n_events == 0:
            found.append(f"{name} has no events" + self._lost("events"))
            lacks.append("events")
        elif not row.seq_ok:
            seqs, keys = self.broken_seqs[row.h]
            repeat = repeated_seq(seqs)
            if repeat is not None:
                found += seq_problem(name, seqs)
                blamed = ("events", keys[repeat])
            else:  # seqs missing at its start or between two: the rows not read may hold them
                gaps = seq_problem(name, seqs)
                found += [problem + (self._lost("events") or self._unnamed(hand.seats))
                          for problem in gaps]  # fmt: skip
                lacks += ["events"] * len(gaps)
        if "results" in refused:
            found.append(refused["results"])
        elif row.n_results == 0:
            found.append(f"{name} has no results" + self._lost("results"))
            lacks.append("results")
        elif self.staged.damaged.get("results") and row.ok and row.seats_ok:
            absent = hand.without_result()
            if absent:  # not a score.outcome alarm: the rows may be in the file not read
                found.append(f"{name} has no results row for {', '.join(absent)}"
                             + self._lost("results"))  # fmt: skip
                lacks.append("results")
        elif self.staged.nameless and row.ok and row.seats_ok and (
            lacking := [(p, where) for p in hand.without_result()
                        if (where := self._nameless(p)) is not None]
        ):  # fmt: skip
            # A results row that names no hand may be this hand's missing one: the hand is
            # not judged without it (a blind tester: its hand_id nulled, the hand's player
            # was a score.outcome alarm "no result recorded", the row in quarantine too).
            some = "one of the missing rows" if len(lacking) > 1 else "the missing row"
            found.append(f"{name} has no results row for {', '.join(p for p, _ in lacking)}, "
                         f"and {lacking[0][1]} has a null hand_id: it may be {some}")  # fmt: skip
        elif not row.results_unique:
            found.append(results_problem(name, [result.player for result in hand.results]))
            blamed = blamed or ("results", self.repeated_results[row.h])
        return found, (blamed if len(found) == 1 else None), together, lacks


def _records(frame: pl.DataFrame, kind: type[_T]) -> list[_T]:
    """One `kind` per row, built column by column: the one step that walks every row. A
    column of nulls only (``events.meld`` outside open-melds games) is not converted."""
    columns = (
        repeat(None, len(series))
        if series.null_count() == len(series)
        else _sparse(series)
        if isinstance(series.dtype, pl.List)
        else _shared(series)
        if series.dtype == pl.String or isinstance(series.dtype, pl.Decimal)
        else series.to_list()
        for series in frame.iter_columns()
    )
    return list(map(tuple.__new__, repeat(kind), zip(*columns, strict=True)))


def _shared(series: pl.Series) -> list[Any]:
    """A string or decimal column as a list holding one object per distinct value (a player
    id, an action, an amount): each value is converted once, not once a row, and the
    replay's lookups and comparisons of a string find its hash already computed (1 % fewer
    instructions for a worker, callgrind; the same values)."""
    values = series.to_arrow()
    if series.dtype == pl.String:
        values = values.cast(pa.large_string())  # polars hands over string views
    encoded = pc.dictionary_encode(values)
    distinct = np.array([*encoded.dictionary.to_pylist(), None], dtype=object)
    out: list[Any] = distinct[pc.fill_null(encoded.indices, len(distinct) - 1).to_numpy()].tolist()
    return out


def _sparse(series: pl.Series) -> list[Any]:
    """A mostly-null column as a list: only its values are converted one by one."""
    out: list[Any] = [None] * len(series)
    where = series.is_not_null().arg_true()
    for index, value in zip(where.to_list(), series.gather(where).to_list(), strict=True):
        out[index] = value
    return out


def _shuffle(value: dict[str, Any] | None) -> Shuffle | None:
    """The commitment struct as a ``Shuffle`` (None when the hand has none)."""
    if value is None:
        return None
    return Shuffle(
        algorithm=value.get("algorithm"),
        server_seed=value.get("server_seed"),
        server_seed_hash=value.get("server_seed_hash"),
        client_seed=value.get("client_seed"),
        nonce=value.get("nonce"),
    )


def _in_seq_order(events: pl.DataFrame) -> pl.DataFrame:
    """Events by (hand, seq, place in the input). One int64 key (hand, seq) does it unless
    a hand repeats a seq, four times faster than sorting on three columns."""
    seq = pl.col("seq").cast(pl.Int64).fill_null(-(1 << 31)) + (1 << 31)
    events = events.with_columns(_e=pl.col("_h") * (1 << 32) + seq).sort("_e")
    if (events["_e"].diff() == 0).any():
        events = events.sort("_e", "_k")
    return events


def _by_game(frame: pl.DataFrame, kind: type[_T], columns: tuple[str, ...]) -> dict[str, list[_T]]:
    """Each game's rows as `kind` records (``_records``: column by column, not row by row),
    in the frame's order."""
    out: dict[str, list[_T]] = {}
    records = _records(frame.select(columns), kind)
    for game, record in zip(frame["game_id"].to_list(), records, strict=True):
        out.setdefault(game, []).append(record)
    return out
