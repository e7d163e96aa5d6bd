"""The simulated platform's nightly export: game records to Parquet, in the log contract.

Games are buffered and written in batches: each batch becomes one file per table under a
Hive partition of the day the game started (``events/date=2026-11-29/part-0-3.parquet``:
room 0's fourth batch), so a game's rows never span two files. Columns are built as Arrow
arrays from integer codes (cards become their contract strings through one `take` on a
53-entry dictionary), cast to the contract's exact schema (`audit.logs.contract`), and
written with fixed options, so the same records give the same bytes.

A night is written in one contract version (``version``): 2 when its presets include the
open-melds game (the `meld` column of events, the open-melds actions, format ``match``;
every file says ``rummy_audit.schema_version = "2"``), else 1, exactly as before version 2:
no `meld` column, and each column's meaning as version 1 worded it (``V1_MEANINGS``), so a
night of the declaration games is the same bytes whatever the contract's version.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]
import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

from audit.cards import CODE_TEXT
from audit.logs.contract import SCHEMA_VERSION_KEY, TABLES, load_contract
from audit.sim.anomalies import LABELS_SCHEMA, Label
from audit.sim.play import GameLog, HandLog
from audit.sim.players import Profile

GAMES_PER_FILE = 100
_CARDS = pa.array(CODE_TEXT, pa.string())
_MS = pa.timestamp("ms", tz="UTC")
_WRITE_OPTIONS: dict[str, Any] = {"compression": "zstd", "compression_level": 3}


class LogWriter:
    """Writes games to a log root, ``GAMES_PER_FILE`` games to a file of each table."""

    def __init__(self, root: Path, *, prefix: str = "", version: int = 1) -> None:
        self.root = root
        self.prefix = prefix
        self.buffer: list[GameLog] = []
        self.batch = 0
        self.version = version
        self.schemas = file_schemas(version)
        self.played: dict[str, int] = {}

    def add(self, game: GameLog) -> None:
        self.buffer.append(game)
        for player, *_ in game.sessions:
            self.played[player] = self.played.get(player, 0) + 1
        if len(self.buffer) >= GAMES_PER_FILE:
            self.flush()

    def flush(self) -> None:
        by_day: dict[str, list[GameLog]] = {}
        for game in self.buffer:
            by_day.setdefault(_day(game.started), []).append(game)
        for day, games in by_day.items():
            for name, columns in _tables(games, self.version).items():
                table = pa.Table.from_arrays(columns, schema=self.schemas[name])
                folder = self.root / name / f"date={day}"
                folder.mkdir(parents=True, exist_ok=True)
                pq.write_table(
                    table, folder / f"part-{self.prefix}{self.batch}.parquet", **_WRITE_OPTIONS
                )
        self.buffer.clear()
        self.batch += 1

    def games_of(self, player: str) -> int:
        """Games ``player`` sat in, of those written so far."""
        return self.played.get(player, 0)

    def close(self) -> None:
        """Write what is still buffered."""
        if self.buffer:
            self.flush()


PLAYERS_SCHEMA = pa.schema(
    [
        pa.field("player_id", pa.string(), nullable=False),
        pa.field("skill", pa.string(), nullable=False),
        pa.field("client", pa.string(), nullable=False),
        pa.field("bot", pa.bool_(), nullable=False),
    ]
)


def write_players(root: Path, players: Sequence[Profile]) -> None:
    """The simulated players behind the logs (``players.parquet``, ground truth the audit
    never reads): skill, usual client, bot or not."""
    rows = sorted(players, key=lambda p: p.player_id)
    table = pa.Table.from_pydict(
        {
            "player_id": [p.player_id for p in rows],
            "skill": [p.skill.value for p in rows],
            "client": [p.client for p in rows],
            "bot": [p.bot for p in rows],
        },
        schema=PLAYERS_SCHEMA,
    )
    pq.write_table(table, root / "players.parquet", **_WRITE_OPTIONS)


def write_labels(root: Path, labels: Sequence[Label], version: int = 1) -> None:
    """The planted anomalies, as ``labels.parquet`` (sorted, so the bytes are stable),
    marked with the night's contract version."""
    root.mkdir(parents=True, exist_ok=True)
    rows = sorted(labels, key=lambda r: (r.game_id or "", r.hand_id or "", r.kind, r.players))
    schema = LABELS_SCHEMA.with_metadata({SCHEMA_VERSION_KEY: str(version)})
    table = pa.Table.from_pylist([r._asdict() for r in rows], schema=schema)
    pq.write_table(table, root / "labels.parquet", **_WRITE_OPTIONS)


def _day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()


V1_MEANINGS: dict[tuple[str, str], str] = {
    ("games", "format"): "The game format.",
    ("events", "card"): "The card drawn, discarded or placed on the finish slot, a card code: "
    "2 characters, rank then suit, or `JK`; null on `drop`, `show` and `reshuffle`.",
    ("events", "groups"): "An arrangement of cards into groups, each card a card code: 2 "
    "characters, rank then suit, or `JK`: the declarer's other k cards on `declare`, all k "
    "cards on `show`, the new stock as one group on `reshuffle`; null otherwise.",
}
"""The column meanings version 2 reworded, as version 1 files carry them (field metadata):
a night written in version 1 keeps its bytes."""


def file_schemas(version: int) -> dict[str, pa.Schema]:
    """The Arrow schema of each table's files in contract ``version`` (1 or 2): version 2 is
    the contract's; version 1 leaves out the columns version 2 added (``optional``) and
    words each meaning as version 1 did."""
    contract = load_contract()
    out = {}
    for name in TABLES:
        schema = contract[name].arrow_schema
        if version < 2:
            fields = [
                field.with_metadata(
                    {"meaning": V1_MEANINGS.get((name, column.name), column.meaning)}
                )
                for field, column in zip(schema, contract[name].columns, strict=True)
                if not column.optional
            ]
            schema = pa.schema(fields)
        out[name] = schema.with_metadata({SCHEMA_VERSION_KEY: str(version)})
    return out


def _tables(games: list[GameLog], version: int) -> dict[str, list[pa.Array]]:
    return {
        "games": _games(games),
        "hands": _hands(games),
        "events": _events(games, version),
        "results": _results(games),
        "game_events": _game_events(games),
        "ledger": _ledger(games),
        "sessions": _sessions(games),
    }


def _cards(codes: Sequence[int | None]) -> pa.Array:
    return pc.take(_CARDS, pa.array(codes, pa.int8()))


def _card_lists(lists: Sequence[Sequence[int]]) -> pa.Array:
    lengths = [len(cards) for cards in lists]
    offsets = pa.array([0, *_running(lengths)], pa.int32())
    return pa.ListArray.from_arrays(offsets, _cards([c for cards in lists for c in cards]))


def _card_groups(rows: Sequence[list[list[int]] | None]) -> pa.Array:
    """``list<list<string>>`` from nested lists of codes (None for a null row)."""
    nested = pa.array(rows, pa.list_(pa.list_(pa.int8())))
    inner = nested.values
    strings = pc.take(_CARDS, inner.values)
    inner = pa.ListArray.from_arrays(inner.offsets, strings)
    return pa.ListArray.from_arrays(nested.offsets, inner, mask=nested.is_null())


def _running(lengths: Sequence[int]) -> list[int]:
    out, total = [], 0
    for length in lengths:
        total += length
        out.append(total)
    return out


def _ms(values: Sequence[int]) -> pa.Array:
    return pa.array(values, pa.int64()).cast(_MS)


def _games(games: list[GameLog]) -> list[pa.Array]:
    tables = [g.table for g in games]
    return [
        pa.array([g.game_id for g in games], pa.string()),
        pa.array([t.table_id for t in tables], pa.string()),
        pa.array([t.format for t in tables], pa.string()),
        pa.array([t.deals_count for t in tables], pa.int8()),
        pa.array([t.rules.cards_per_hand for t in tables], pa.int8()),
        pa.array([t.rules.id for t in tables], pa.string()),
        pa.array([g.decks for g in games], pa.int8()),
        pa.array([g.printed_jokers for g in games], pa.int8()),
        pa.array([t.max_players for t in tables], pa.int8()),
        pa.array([t.chip_type for t in tables], pa.string()),
        pa.array([t.entry_fee for t in tables], pa.decimal128(18, 2)),
        pa.array([t.point_value for t in tables], pa.decimal128(18, 4)),
        pa.array([t.rake_pct for t in tables], pa.decimal128(5, 2)),
        _ms([g.started for g in games]),
        _ms([g.ended for g in games]),
    ]


def _hands(games: list[GameLog]) -> list[pa.Array]:
    hands = [(g, h) for g in games for h in g.hands]
    seats = [seat for _, h in hands for seat in h.seats]
    seat_struct = pa.StructArray.from_arrays(
        [pa.array([s for s, _ in seats], pa.int8()), pa.array([p for _, p in seats], pa.string())],
        names=["seat", "player_id"],
    )
    seat_offsets = pa.array([0, *_running([len(h.seats) for _, h in hands])], pa.int32())
    shuffles = pa.array(
        [None if h.shuffle is None else h.shuffle._asdict() for _, h in hands],
        load_contract()["hands"].column("shuffle").arrow_type,
    )
    return [
        pa.array([h.hand_id for _, h in hands], pa.string()),
        pa.array([g.game_id for g, _ in hands], pa.string()),
        pa.array([h.hand_no for _, h in hands], pa.int16()),
        pa.ListArray.from_arrays(seat_offsets, seat_struct),
        _card_lists([h.shoe for _, h in hands]),
        _cards([h.wild for _, h in hands]),
        _cards([h.open for _, h in hands]),
        shuffles,
        _ms([h.started for _, h in hands]),
        _ms([h.ended for _, h in hands]),
    ]


def _events(games: list[GameLog], version: int) -> list[pa.Array]:
    """The events' columns; from version 2 on, `meld` too (the table meld each open-melds
    action targets, null on the other rows)."""
    hands = [h for g in games for h in g.hands]
    rows = [row for h in hands for row in h.events]
    ts, players, actions, cards, groups, auto, reasons = (
        zip(*rows, strict=True) if rows else [()] * 7
    )
    return [
        pa.array([h.hand_id for h in hands for _ in h.events], pa.string()),
        pa.array([seq for h in hands for seq in range(len(h.events))], pa.int32()),
        _ms(ts),
        pa.array(players, pa.string()),
        pa.array(actions, pa.string()),
        _cards(cards),
        _card_groups(groups),
        pa.array(auto, pa.bool_()),
        pa.array(reasons, pa.string()),
        *([_melds(hands)] if version >= 2 else []),
    ]


def _melds(hands: list[HandLog]) -> pa.Array:
    """``events.meld``: the table meld of each open-melds action that targets one."""
    return pa.array([h.melds.get(seq) for h in hands for seq in range(len(h.events))], pa.int16())


def _results(games: list[GameLog]) -> list[pa.Array]:
    hands = [h for g in games for h in g.hands]
    return [
        pa.array([h.hand_id for h in hands for _ in h.seats], pa.string()),
        pa.array([p for h in hands for _, p in h.seats], pa.string()),
        pa.array([o for h in hands for o in h.outcomes], pa.string()),
        pa.array([p for h in hands for p in h.points], pa.int16()),
        pa.array([s for h in hands for s in h.score_after], pa.int16()),
        pa.array([a for h in hands for a in h.amounts], pa.decimal128(18, 2)),
    ]


def _game_events(games: list[GameLog]) -> list[pa.Array]:
    rows = [(g.game_id, seq, *row) for g in games for seq, row in enumerate(g.game_events)]
    game_ids, seqs, after, ts, players, actions, scores, kinds = (
        zip(*rows, strict=True) if rows else [()] * 8
    )
    return [
        pa.array(game_ids, pa.string()),
        pa.array(after, pa.int16()),
        pa.array(seqs, pa.int32()),
        _ms(ts),
        pa.array(players, pa.string()),
        pa.array(actions, pa.string()),
        pa.array(scores, pa.int16()),
        pa.array(kinds, pa.string()),
    ]


def _ledger(games: list[GameLog]) -> list[pa.Array]:
    rows = [(g.game_id, *row) for g in games for row in g.ledger]
    game_ids, players, kinds, amounts, ts = zip(*rows, strict=True) if rows else [()] * 5
    return [
        pa.array(game_ids, pa.string()),
        pa.array(players, pa.string()),
        pa.array(kinds, pa.string()),
        pa.array(amounts, pa.decimal128(18, 2)),
        _ms(ts),
    ]


def _sessions(games: list[GameLog]) -> list[pa.Array]:
    rows = [(g.game_id, *row) for g in games for row in g.sessions]
    game_ids, players, clients, ips, devices, joined, left = (
        zip(*rows, strict=True) if rows else [()] * 7
    )
    return [
        pa.array(players, pa.string()),
        pa.array(game_ids, pa.string()),
        pa.array(clients, pa.string()),
        pa.array(ips, pa.string()),
        pa.array(devices, pa.string()),
        _ms(joined),
        _ms(left),
    ]
