"""The night's shoes as numbers: one array of card codes per shoe group.

A group is every shoe of one composition (decks and printed jokers) dealt by one shuffler
(the provably-fair algorithm its hands record, or none): the shoes one test pools. Only
hands the replay kept take part (``hands.parquet`` rows not quarantined), and only shoes
holding exactly their game's cards (a shoe that does not was already a ``deck.composition``
finding; counted here as left out, never tested).

Rows are in table order (table, then when the hand started, then hand id), so consecutive
rows of one table are consecutive shoes of it; ``by_time`` orders the group by when each
hand started, the order a platform's generator produced them in.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from audit import duck
from audit.cards import JOKER, N_CODES, RANK_OF, SUIT_OF
from audit.duck import file_literal
from audit.errors import RulesetError
from audit.logs.contract import load_contract
from audit.logs.reader import LogRoot
from audit.logs.validate import card_codes_sql
from audit.rules.melds import Jokers
from audit.rules.registry import lookup as ruleset_named
from audit.rules.ruleset import Ruleset

Codes = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

SUIT = np.array(SUIT_OF, dtype=np.int8)
"""0..3 (S H D C) per code; -1 for the printed joker."""
RANK = np.array(RANK_OF, dtype=np.int8)
"""1..13 per code; 0 for the printed joker."""
RED = SUIT == 1
RED |= SUIT == 2


NO_SEAT = -(1 << 15)
"""No player: the seat number past a hand's players. Outside int8, so every table seat
number the contract allows (``hands.seats[].seat``, int8: negative ones too) is a seat."""


@dataclass(frozen=True, eq=False)
class Group:
    """Every shoe of one composition and shuffler, in table order."""

    decks: int
    printed_jokers: int
    shuffler: str
    """The provably-fair algorithm the hands record; ``""`` when none is recorded."""
    codes: Codes
    """(shoes, cards): ``codes[i, p]`` is the code (audit.cards) dealt at position p."""
    hand_ids: pa.Array
    """The hands' ids (strings), one per shoe."""
    tables: Ints
    """A number per table (equal within a table, in table-id order)."""
    started: Ints
    """When each hand started (ms since the epoch)."""
    players: Ints
    """Players dealt in (n)."""
    cards: Ints
    """Cards dealt to each player (k)."""
    seats: Ints
    """(shoes, most players): the table seat of each player in turn order; ``NO_SEAT``
    beyond n."""
    jokers: Bools
    """(shoes, 53): the codes that are jokers in each hand (its wild rank and printed
    jokers), by the game's ruleset."""

    @property
    def length(self) -> int:
        return 52 * self.decks + self.printed_jokers

    @property
    def shoes(self) -> int:
        return int(self.codes.shape[0])

    @property
    def copies(self) -> Ints:
        """How many copies of each of the 53 codes the shoe holds."""
        m = np.full(N_CODES, self.decks, dtype=np.int64)
        m[JOKER] = self.printed_jokers
        return m

    @property
    def categories(self) -> Ints:
        """The codes the shoe holds (the printed joker only when it has one)."""
        return np.arange(N_CODES if self.printed_jokers else 52, dtype=np.int64)

    @property
    def label(self) -> str:
        jokers = f" + {self.printed_jokers} printed joker{'s' * (self.printed_jokers != 1)}"
        decks = f"{self.decks} deck{'s' * (self.decks != 1)}"
        shuffler = f", shuffle {self.shuffler}" if self.shuffler else ""
        return f"{self.length}-card shoes ({decks}{jokers if self.printed_jokers else ''})" + (
            shuffler
        )

    @property
    def key(self) -> str:
        """Stable: ``decks/jokers/shuffler``."""
        return f"{self.decks}/{self.printed_jokers}/{self.shuffler}"

    def dealt(self) -> Ints:
        """Cards dealt to players in each shoe (n * k)."""
        return self.players * self.cards

    def by_time(self) -> Ints:
        """Row order by when each hand started, then hand id."""
        by = pa.table({"started": self.started, "hand_id": self.hand_ids})
        order = pc.sort_indices(by, sort_keys=[("started", "ascending"), ("hand_id", "ascending")])
        return np.asarray(order.to_numpy(), dtype=np.int64)


@dataclass(frozen=True)
class Night:
    groups: list[Group]
    """Sorted by decks, printed jokers, shuffler."""
    left_out: dict[str, int] = field(default_factory=dict)
    """Shoes not tested, by why."""

    @property
    def shoes(self) -> int:
        return sum(g.shoes for g in self.groups)


def _joker_table(rules: Ruleset) -> Bools:
    """(53, 53): row w holds the codes that are jokers when the wild card is w."""
    table = np.zeros((N_CODES, N_CODES), dtype=np.bool_)
    for wild in range(N_CODES):
        for code in Jokers.for_wild_card(wild, rules).codes:
            table[wild, code] = True
        table[wild, JOKER] = True
    return table


def group_of(
    codes: Codes,
    *,
    decks: int,
    printed_jokers: int,
    players: Ints,
    cards: int | Ints,
    rules: Ruleset,
    tables: Ints | None = None,
    started: Ints | None = None,
    seats: Ints | None = None,
    shuffler: str = "",
) -> Group:
    """A group built from arrays (the simulator's shuffles, benchmarks, tests): one table
    dealing the shoes in row order unless ``tables`` says otherwise, every hand one
    minute after the last, seats numbered 1..n in deal order."""
    n = codes.shape[0]
    players = np.asarray(players, dtype=np.int64)
    per_hand = np.broadcast_to(np.asarray(cards, dtype=np.int64), (n,)).copy()
    wild = codes[np.arange(n), players * per_hand].astype(np.int64)
    if seats is None:
        width = int(players.max())
        seats = np.where(
            np.arange(width)[None, :] < players[:, None], np.arange(1, width + 1)[None, :],
            NO_SEAT,
        )
    return Group(
        decks=decks,
        printed_jokers=printed_jokers,
        shuffler=shuffler,
        codes=np.ascontiguousarray(codes, dtype=np.uint8),
        hand_ids=pa.array([f"H{i:08d}" for i in range(n)], pa.string()),
        tables=np.zeros(n, dtype=np.int64) if tables is None else np.asarray(tables),
        started=np.arange(n, dtype=np.int64) * 60_000 if started is None else started,
        players=players,
        cards=per_hand,
        seats=np.asarray(seats, dtype=np.int64),
        jokers=_joker_table(rules)[wild],
    )


def _shoes(con: duckdb.DuckDBPyConnection, log: LogRoot, out: Path, folder: Path) -> str:
    """Write the shoes of the replayed hands of ``log`` with their games' columns to Parquet
    under ``folder``, in passes over the games (``duck.in_passes``: the joins of ten million
    hands in one pass ran out of memory); the SQL that reads them back."""
    shoe = next(c for c in load_contract()["hands"].columns if c.name == "shoe")
    kept = (f"SELECT hand_id, game_id FROM read_parquet({file_literal(str(out / 'hands.parquet'))})"
            " WHERE status <> 'quarantined'")  # fmt: skip

    def shoes(hands: str) -> str:
        return (
            "SELECT h.hand_id, g.table_id, g.decks, g.printed_jokers, g.cards_per_hand,"
            " g.ruleset, epoch_ms(h.started_at) AS started,"
            " coalesce(struct_extract(h.shuffle, 'algorithm'), '') AS shuffler,"
            " list_transform(h.seats, lambda s: struct_extract(s, 'seat')) AS seat_no,"
            f" {card_codes_sql(shoe)} AS codes, h._k"
            f" FROM ({log.sql('hands')}) h SEMI JOIN {hands} USING (hand_id)"
            " JOIN (SELECT game_id, table_id, decks, printed_jokers, cards_per_hand, ruleset"
            f"  FROM ({log.sql('games')}) WHERE game_id IN (SELECT game_id FROM {hands})"
            "  QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY _k) = 1) g"
            " USING (game_id)"
        )

    return duck.in_passes(con, kept, folder, shoes)


def load_night(log: LogRoot, out: Path, con: duckdb.DuckDBPyConnection) -> Night:
    """Every shoe of the replayed hands of ``log``, grouped (``out`` holds the replay).

    The shoes are written to Parquet in passes (``_shoes``); DuckDB sorts them by group,
    then in table order, and hands them over ``CHUNK`` rows at a time; each group's arrays
    are built from its chunks, so the night is never held as Arrow rows (a million shoes
    held whole, then sorted, took 2.5 GiB)."""
    with tempfile.TemporaryDirectory(prefix="rummy-audit-", dir=duck.spill_folder(con)) as work:
        return _load(con, _shoes(con, log, out, Path(work) / "shoes"))


def _load(con: duckdb.DuckDBPyConnection, shoes: str) -> Night:
    order = "decks, printed_jokers, shuffler, table_id, started, hand_id, _k"
    query = f"SELECT * EXCLUDE (_k) FROM {shoes} ORDER BY {order}"
    left_out: Counter[str] = Counter()
    groups: list[Group] = []
    presets: dict[str, Bools | None] = {}
    building: _Building | None = None
    for batch in con.sql(query).to_arrow_reader(CHUNK):
        columns = (batch.column(c).to_pylist() for c in ("decks", "printed_jokers", "shuffler"))
        kinds = list(zip(*columns, strict=True))
        start = 0
        for end in range(1, len(kinds) + 1):
            if end < len(kinds) and kinds[end] == kinds[start]:
                continue
            if building is None or building.kind != kinds[start]:
                if building is not None:
                    groups += building.done(left_out)
                decks, jokers, shuffler = kinds[start]
                building = _Building(decks, jokers, shuffler, presets)
            building.add(batch.slice(start, end - start))
            start = end
    if building is not None:
        groups += building.done(left_out)
    return Night(groups, dict(sorted(left_out.items())))


_WRONG = "a shoe of the wrong length, or a game the rules cannot seat"
_NOT_ITS_CARDS = ("not exactly its game's cards (deck.composition, or a shoe for fewer players "
                  "than its game began with: replay.deal.shoe_spec), or no rules for its game")


class _Building:
    """One group's arrays, added to a chunk of rows at a time (rows in table order)."""

    def __init__(self, decks: int, jokers: int, shuffler: str,
                 presets: dict[str, Bools | None]) -> None:  # fmt: skip
        self.kind = (decks, jokers, shuffler)
        self.length = 52 * decks + jokers
        self.seatable = decks >= 1 and jokers >= 0
        self.presets = presets
        self.rows = self.kept = self.invalid = 0
        self.last_table: object = None
        self.table_no = 0
        self.parts: dict[str, list[npt.NDArray[Any]]] = {
            k: [] for k in ("codes", "players", "cards", "jokers", "seats", "tables", "started")
        }
        self.hand_ids: list[pa.Array] = []

    def _rules(self, names: list[Any]) -> Bools:
        """Per row: whether its game's ruleset is known (its joker table kept)."""
        for name in set(names) - self.presets.keys():
            try:
                self.presets[name] = _joker_table(ruleset_named(str(name)))
            except RulesetError:
                self.presets[name] = None  # its games were quarantined: none of its hands is here
        return np.array([self.presets[n] is not None for n in names], dtype=np.bool_)

    def add(self, table: pa.RecordBatch) -> None:
        self.rows += table.num_rows
        if not self.seatable:  # the game records no shoe (the replay's deal.shoes finding)
            return
        length = self.length
        ids = table.column("table_id").to_numpy(zero_copy_only=False)
        changed = np.empty(ids.size, dtype=np.bool_)
        changed[0] = self.rows > table.num_rows and ids[0] != self.last_table
        changed[1:] = ids[1:] != ids[:-1]
        tables = self.table_no + np.cumsum(changed, dtype=np.int64)
        self.last_table, self.table_no = ids[-1], int(tables[-1])
        codes_col = table.column("codes")
        lengths = pc.list_value_length(codes_col).to_numpy(zero_copy_only=False)
        rulesets = table.column("ruleset").to_pylist()
        seat_no = table.column("seat_no")
        players = pc.list_value_length(seat_no).to_numpy(zero_copy_only=False).astype(np.int64)
        cards = table.column("cards_per_hand").to_numpy(zero_copy_only=False).astype(np.int64)
        keep = (lengths == length) & self._rules(rulesets)
        keep &= (players >= 1) & (cards >= 1) & (players * cards + 2 <= length)
        self.kept += int(keep.sum())
        flat = pc.fill_null(pc.list_flatten(codes_col.filter(pa.array(keep))), -1)
        codes = flat.to_numpy(zero_copy_only=False).reshape(-1, length)
        valid = (codes >= 0).all(axis=1)
        counts = _code_counts(np.where(codes >= 0, codes, 0).astype(np.uint8))
        m = np.full(N_CODES, self.kind[0], dtype=np.int64)
        m[JOKER] = self.kind[1]
        valid &= (counts == m).all(axis=1)
        self.invalid += int((~valid).sum())
        rows = np.flatnonzero(keep)[valid]
        if rows.size == 0:
            return
        codes = codes[valid].astype(np.uint8)
        players, cards = players[rows], cards[rows]
        wild = codes[np.arange(codes.shape[0]), players * cards]
        preset_rows = np.array([rulesets[r] for r in rows], dtype=object)
        joker_sets = np.zeros((rows.size, N_CODES), dtype=np.bool_)
        for name, lookup in self.presets.items():
            if lookup is not None:
                mine = preset_rows == name
                joker_sets[mine] = lookup[wild[mine]]
        started = table.column("started").to_numpy(zero_copy_only=False).astype(np.int64)
        for key, value in (("codes", codes), ("players", players), ("cards", cards),
                           ("jokers", joker_sets), ("seats", _padded(seat_no, rows, players)),
                           ("tables", tables[rows]), ("started", started[rows])):  # fmt: skip
            self.parts[key].append(value)
        self.hand_ids.append(table.column("hand_id").take(pa.array(rows)))

    def done(self, left_out: Counter[str]) -> list[Group]:
        """The group (none when no shoe of it can be tested); its left-out rows counted."""
        if not self.seatable or self.kept == 0:
            left_out[_WRONG] += self.rows
            return []
        wrong = self.rows - self.kept + self.invalid
        if wrong:
            left_out[_NOT_ITS_CARDS] += wrong
        if not self.parts["codes"]:
            return []
        width = max(part.shape[1] for part in self.parts["seats"])
        seats = [np.pad(s, ((0, 0), (0, width - s.shape[1])), constant_values=NO_SEAT)
                 for s in self.parts["seats"]]  # fmt: skip
        joined = {key: np.concatenate(parts) for key, parts in self.parts.items() if key != "seats"}
        self.parts.clear()
        decks, jokers, shuffler = self.kind
        return [
            Group(
                decks=decks,
                printed_jokers=jokers,
                shuffler=shuffler,
                codes=np.ascontiguousarray(joined["codes"]),
                hand_ids=pa.concat_arrays(self.hand_ids),
                tables=joined["tables"],
                started=joined["started"],
                players=joined["players"],
                cards=joined["cards"],
                seats=np.concatenate(seats),
                jokers=joined["jokers"],
            )
        ]


def _padded(lists: pa.ListArray, rows: Ints, lengths: Ints) -> Ints:
    """(rows, longest): the items of each listed row, ``NO_SEAT`` past its end or where
    null."""
    flat = lists.flatten().cast(pa.int64())
    values = pc.fill_null(flat, NO_SEAT).to_numpy(zero_copy_only=False)
    offsets = lists.offsets.to_numpy().astype(np.int64)
    starts = (offsets[:-1] - offsets[0])[rows]
    width = int(lengths.max())
    at = starts[:, None] + np.arange(width, dtype=np.int64)
    inside = np.arange(width)[None, :] < lengths[:, None]
    return np.where(inside, values[np.minimum(at, max(len(values) - 1, 0))], NO_SEAT)


CHUNK = 16_384
"""Shoes per chunk: of the sorted rows DuckDB hands over (``load_night``) and of the array
passes (keeps temporaries to a few tens of megabytes, whatever the night; with 65,536 a
million-hand night's tests peaked 100-300 MiB higher)."""


def _code_counts(codes: Codes) -> Ints:
    """(shoes, 53): how many copies of each code each shoe holds."""
    out = np.empty((codes.shape[0], N_CODES), dtype=np.int64)
    for start in range(0, codes.shape[0], CHUNK):
        part = codes[start : start + CHUNK].astype(np.int64)
        rows = np.arange(part.shape[0], dtype=np.int64)[:, None] * N_CODES
        out[start : start + CHUNK] = np.bincount(
            (rows + part).ravel(), minlength=part.shape[0] * N_CODES
        ).reshape(-1, N_CODES)
    return out
