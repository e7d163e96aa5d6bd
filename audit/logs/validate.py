"""The log contract's checks and conversions beyond the schema, as columnar expressions.

- `row_checks(table)`: two DuckDB SQL expressions over one row of a table, whether the row
  keeps the contract and, for a bad row only, what it breaks, as a list of
  `{col, kind, value}` structs that `describe` turns into one plain line.
- `source_sql` and `staged_columns`: a table's rows read from its files, and cast to the
  contract's types with cards as integer codes (audit/cards.py), in SQL.
- `width_problems`: the one file-level check that needs values; a file may write an integer
  or a decimal column wider than the contract's, and a value that does not fit refuses it.
- `event_stats`, `result_stats` and the `*_problem` messages: the hand-level checks, as
  polars aggregates per hand; Python only words the few hands that fail them.

No row is walked in Python.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.cards import CODE_TEXT
from audit.duck import file_literal, literal, millis, quote
from audit.errors import one_line
from audit.logs.contract import Column, load_contract, type_name
from audit.records import MAX_SEATS

CARD_COLUMNS: dict[str, frozenset[str]] = {
    "hands": frozenset({"shoe", "wild_card", "open_card"}),
    "events": frozenset({"card", "groups"}),
}
"""The columns whose strings, or list items, must be card codes."""

_CARD_ENUM = "ENUM(" + ", ".join(f"'{text}'" for text in CODE_TEXT) + ")"
"""The card codes as a DuckDB ENUM, in code order: a card's code is its enum code, and a
string that is no card code casts to NULL. Twice as fast as looking the code up in a MAP
literal (staging a million hands: about 13 s of CPU less, most of it in the shoes)."""


def _code(expr: str) -> str:
    """SQL for the code of the card ``expr`` names (audit.cards), NULL when it is none."""
    return f"enum_code(TRY_CAST({expr} AS {_CARD_ENUM}))"


_DUCK_NAMES = {
    "string": "VARCHAR",
    "bool": "BOOLEAN",
    "int8": "TINYINT",
    "int16": "SMALLINT",
    "int32": "INTEGER",
    "int64": "BIGINT",
}






def duck_type(dtype: pa.DataType) -> str:
    """The DuckDB type of a contract Arrow type.

    >>> duck_type(load_contract()["hands"].column("seats").arrow_type)
    'STRUCT("seat" TINYINT, "player_id" VARCHAR)[]'
    """
    if pa.types.is_list(dtype):
        return f"{duck_type(dtype.value_type)}[]"
    if pa.types.is_struct(dtype):
        return "STRUCT(" + ", ".join(f"{quote(f.name)} {duck_type(f.type)}" for f in dtype) + ")"
    if pa.types.is_decimal(dtype):
        return f"DECIMAL({dtype.precision},{dtype.scale})"
    if pa.types.is_timestamp(dtype):
        return "TIMESTAMPTZ"
    return _DUCK_NAMES[str(dtype)]




def source_sql(
    table: str,
    paths: list[str],
    *,
    first_file: int,
    row_bits: int,
    absent: Collection[str] = (),
    uniform: bool = False,
) -> str:
    """SQL for the contract columns of every row of `paths`, with `_k`, the row's place in
    the input: `(first_file + file index) << row_bits | row index`. Timestamps are read as
    TIMESTAMPTZ (any unit), truncated to the millisecond (`duck.millis`); a partition
    folder never becomes a column. The optional columns no file has (`absent`) read as
    typed nulls; a file without an optional column that others have reads as null in it
    (`union_by_name`). With `uniform` (every file has
    the same schema, column for column) the files' columns are not matched by name: the
    same rows, without DuckDB holding every file's schema at once (about 100 MiB for
    15,000 files)."""
    columns = load_contract()[table].columns
    if not paths:
        nulls = ", ".join(
            f"CAST(NULL AS {duck_type(c.arrow_type)}) AS {quote(c.name)}" for c in columns
        )
        return f"SELECT {nulls}, CAST(NULL AS BIGINT) AS _k WHERE false"
    names = ", ".join(
        f"CAST(NULL AS {duck_type(c.arrow_type)}) AS {quote(c.name)}"
        if c.optional and c.name in absent
        else f"{millis(quote(c.name))} AS {quote(c.name)}"
        if pa.types.is_timestamp(c.arrow_type)
        else quote(c.name)
        for c in columns
    )
    listed = ", ".join(file_literal(path) for path in paths)
    return (
        f"SELECT {names}, (CAST(file_index AS BIGINT) + {first_file}) << {row_bits}"
        " | file_row_number AS _k"
        f" FROM read_parquet([{listed}], union_by_name={str(not uniform).lower()},"
        " hive_partitioning=false)"
    )


def staged_columns(table: str) -> str:
    """SQL for the columns of a table the replay needs, in the contract's types, cards as
    codes and seats as player ids, the shuffle commitment as it is; timestamps stay behind."""
    out = []
    for column in load_contract()[table].columns:
        name, dtype = quote(column.name), column.arrow_type
        if column.name in CARD_COLUMNS.get(table, ()):
            out.append(f"{card_codes_sql(column)} AS {name}")
        elif column.name == "seats":
            out.append(
                f"list_transform({name}, lambda s: struct_extract(s, 'player_id')) AS {name}"
            )
        elif pa.types.is_struct(dtype):
            out.append(name)
        elif not pa.types.is_timestamp(dtype):
            out.append(f"CAST({name} AS {duck_type(dtype)}) AS {name}")
    return ", ".join(out)


def card_codes_sql(column: Column) -> str:
    """SQL for a card column with each card replaced by its code (audit.cards), or NULL
    where a string is not a card code."""
    return _map_cards(quote(column.name), column.arrow_type, 1)


def _map_cards(expr: str, dtype: pa.DataType, level: int) -> str:
    if pa.types.is_list(dtype):
        inner = _map_cards(f"c{level}", dtype.value_type, level + 1)
        return f"list_transform({expr}, lambda c{level}: {inner})"
    return f"CAST({_code(expr)} AS TINYINT)"


def _null_inside(expr: str, dtype: pa.DataType, level: int) -> str | None:
    """SQL true when a list or struct value holds a null item or field; None for scalars."""
    if pa.types.is_list(dtype):
        item = f"x{level}"
        inner = _null_inside(item, dtype.value_type, level + 1)
        test = f"{item} IS NULL" + (f" OR {inner}" if inner else "")
        return f"len(list_filter({expr}, lambda {item}: {test})) > 0"
    if pa.types.is_struct(dtype):
        tests = " OR ".join(test for _, test in _field_nulls(expr, dtype, level))
        return f"({expr} IS NOT NULL AND ({tests}))"
    return None


def _field_nulls(expr: str, dtype: pa.StructType, level: int) -> list[tuple[str, str]]:
    """Each field of the struct ``expr`` and the SQL true when it is null or holds one."""
    out = []
    for field in dtype:
        value = f"struct_extract({expr}, {literal(field.name)})"
        inner = _null_inside(value, field.type, level)
        out.append((field.name, f"{value} IS NULL" + (f" OR {inner}" if inner else "")))
    return out


def _null_named(expr: str, dtype: pa.DataType) -> str:
    """SQL VARCHAR: what is null inside ``expr`` for the message: ``item``, or for a struct
    the fields, named (``field (server_seed, nonce)``: a blind tester read "shuffle holds a
    null field" and could not tell which)."""
    if not pa.types.is_struct(dtype):
        return literal(_what_is_inside(dtype))
    named = [f"CASE WHEN {test} THEN {literal(name)} END"
             for name, test in _field_nulls(expr, dtype, 1)]  # fmt: skip
    listed = f"array_to_string(list_filter([{', '.join(named)}], lambda n: n IS NOT NULL), ', ')"
    return f"'field (' || {listed} || ')'"


def _what_is_inside(dtype: pa.DataType) -> str:
    kinds = []
    while pa.types.is_list(dtype):
        kinds.append("item")
        dtype = dtype.value_type
    if pa.types.is_struct(dtype):
        kinds.append("field")
    return " or ".join(dict.fromkeys(kinds))


@dataclass(frozen=True)
class _Check:
    bad: str
    """SQL true when the row breaks the check (never NULL)."""
    column: str
    kind: str
    value: str
    """SQL VARCHAR: the offending value, for the message."""


def _column_checks(table: str, column: Column) -> list[_Check]:
    name, dtype = quote(column.name), column.arrow_type
    checks = []
    if not column.nullable:
        checks.append(_Check(f"{name} IS NULL", column.name, "null", "NULL"))
    inside = _null_inside(name, dtype, 1)
    if inside:
        checks.append(_Check(inside, column.name, "null_inside", _null_named(name, dtype)))
    if column.values:
        allowed = ", ".join(literal(value) for value in column.values)
        checks.append(_Check(f"{name} NOT IN ({allowed})", column.name, "values", name))
    if column.name in CARD_COLUMNS.get(table, ()):
        if pa.types.is_list(dtype):
            items = f"flatten({name})" if pa.types.is_list(dtype.value_type) else name
            bad = f"list_filter({items}, lambda c: c IS NOT NULL AND {_code('c')} IS NULL)"
            checks.append(_Check(f"len({bad}) > 0", column.name, "card_item", f"{bad}[1]"))
        else:
            bad = f"{name} IS NOT NULL AND {_code(name)} IS NULL"
            checks.append(_Check(bad, column.name, "card", name))
    return checks


OPEN_MELD_NEEDS: dict[str, tuple[str, ...]] = {
    "lay": ("groups",),
    "lay_off": ("card", "meld"),
    "swap_joker": ("card", "meld"),
    "take_cut": ("card",),
    "return_cut": ("card",),
}
"""The columns a row of each action of contract version 2 (open melds) must fill; `lay`
groups must hold at least one meld, and no empty one."""

_NEEDED = {
    "card": "a card",
    "meld": "a meld (the table meld it targets)",
    "groups": "groups (its new melds, none empty)",
}

CLAIM_NEEDS: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {
    "game_events": ("action", {
        # Not game_won: a split game may record one for no single player, and the winner
        # checks read a null one as "won by nobody".
        "player_id": ("eliminated", "rebuy", "split_offer", "split_accept", "split_reject"),
        "split_kind": ("split",),
    }),
    "ledger": ("kind", {
        "player_id": ("buy_in", "rebuy", "prize", "split", "points_settlement", "refund"),
    }),
}  # fmt: skip
"""Per claim table, its column naming what a row records and, per column, the rows that
must fill it (log-format.md: a player's action or money names the player; a split says
how it was agreed): a row without it is quarantined (``input.row``), and what rests on it
is not judged, rather than read with a guess (a rebuy of nobody, an auto split)."""

_REASONS = "player, timeout, disconnect or left"
_NEEDED_WORDS = {**_NEEDED, "player_id": "a player", "split_kind": "a split_kind (manual or auto)",
                 "reason": f"a reason ({_REASONS})"}  # fmt: skip


def _needs(column: str, actions: Sequence[str], by: str = "action") -> _Check:
    """The check that a row whose `by` is one of `actions` fills `column`; its value is
    `action:how` (how the column fails: null, empty, or holds an empty meld)."""
    listed = ", ".join(literal(action) for action in actions)
    missing, how = f"{quote(column)} IS NULL", "'null'"
    if column == "groups":
        missing += " OR len(groups) = 0 OR len(list_filter(groups, lambda g: len(g) = 0)) > 0"
        how = (
            "CASE WHEN groups IS NULL THEN 'null' WHEN len(groups) = 0 THEN 'empty'"
            " ELSE 'holds an empty meld' END"
        )
    bad = f"{quote(by)} IN ({listed}) AND ({missing})"
    return _Check(bad, column, "needs", f"{quote(by)} || ':' || {how}")


def _table_checks(table: str) -> list[_Check]:
    checks = [c for column in load_contract()[table].columns for c in _column_checks(table, column)]
    if table == "hands":  # log-format.md: the 1-based position of the hand in its game
        checks.append(_Check("hand_no < 1", "hand_no", "position", "CAST(hand_no AS VARCHAR)"))
    if table == "games":
        # Values no game can have, which every check of its money or deal would read as
        # given (a blind tester: a rake of -15 % gave "the prize of -17.50" and critical
        # ledger alarms against an honest ledger, the row itself never called bad).
        for column in ("entry_fee", "point_value", "printed_jokers"):
            checks.append(_Check(f"{column} < 0", column, "negative",
                                 f"CAST({column} AS VARCHAR)"))  # fmt: skip
        checks.append(_Check("rake_pct < 0 OR rake_pct > 100", "rake_pct", "percent",
                             "CAST(rake_pct AS VARCHAR)"))  # fmt: skip
        for column, least in (("decks", 1), ("max_players", 2)):
            checks.append(_Check(f"{column} < {least}", column, f"least:{least}",
                                 f"CAST({column} AS VARCHAR)"))  # fmt: skip
        # log-format.md: "2 = best of 2, 3 = best of 3". Until 2026-12-07 a 5 was judged
        # as a best of 5, its finding citing the rule "after the game's deals (2 or 3)".
        checks.append(_Check("deals_count NOT IN (2, 3)", "deals_count", "deals",
                             "CAST(deals_count AS VARCHAR)"))  # fmt: skip
    if table == "events":
        checks.append(_Check("seq < 0", "seq", "negative", "CAST(seq AS VARCHAR)"))
        checks.append(
            _Check("player_id IS NULL AND action <> 'reshuffle'", "player_id", "server", "NULL")
        )
        checks.append(_Check("meld < 0", "meld", "negative", "CAST(meld AS VARCHAR)"))
        for column in _NEEDED:
            actions = [a for a, needs in OPEN_MELD_NEEDS.items() if column in needs]
            checks.append(_needs(column, actions))
        # log-format.md: `reason` says why, for drop and auto actions; the replay charges
        # by it (a player who left, a disconnection), so a drop or auto row without one
        # would be charged by a guess.
        checks.append(_needs("reason", ["drop"]))
        checks.append(_Check("auto AND reason IS NULL AND action NOT IN ('drop', 'reshuffle')",
                             "reason", "auto_reason", "action"))  # fmt: skip
    if table == "sessions":
        # A connection that closes before it opens cannot be (schemas/sessions.json:
        # joined_at "When the connection opened", left_at "When the connection closed"):
        # one of its times is wrong, so the seats it gives the table limits are not known
        # (a blind tester's reversed row took a planted 4th table off a player's count, in
        # silence). Equal times are a connection of no length, not a contradiction.
        checks.append(_Check("left_at < joined_at", "left_at", "before",
                             f"{_utc('left_at')} || '|' || {_utc('joined_at')}"))  # fmt: skip
    if table in CLAIM_NEEDS:
        by, needs = CLAIM_NEEDS[table]
        checks += [_needs(column, actions, by) for column, actions in needs.items()]
    return checks


def _utc(column: str) -> str:
    """SQL VARCHAR: a TIMESTAMPTZ column as UTC time (its fraction of a second only when it
    has one), whatever the connection's time zone."""
    return f"CAST(timezone('UTC', {quote(column)}) AS VARCHAR) || ' UTC'"


@dataclass(frozen=True)
class RowChecks:
    ok: str
    """SQL true when the row keeps the contract."""
    problems: str
    """SQL list of {col, kind, value} structs, NULL when the row is good."""


def row_checks(table: str) -> RowChecks:
    """SQL over the columns of one row of `table`, as read from its files.

    >>> "NOT IN ('points', 'pool_101', 'pool_201', 'deals', 'match')" in row_checks("games").ok
    True
    """
    checks = _table_checks(table)
    ok = "NOT (" + " OR ".join(f"coalesce({c.bad}, false)" for c in checks) + ")"
    items = ", ".join(
        f"CASE WHEN coalesce({c.bad}, false) THEN {{'col': {literal(c.column)},"
        f" 'kind': {literal(c.kind)}, 'value': CAST({c.value} AS VARCHAR)}} END"
        for c in checks
    )
    problems = f"CASE WHEN NOT ({ok}) THEN list_filter([{items}], lambda p: p IS NOT NULL) END"
    return RowChecks(ok=ok, problems=problems)


def describe(table: str, problems: list[Mapping[str, Any]]) -> str:
    """The problems of one bad row, as `row_checks` lists them, in one plain line.

    >>> describe("events", [{"col": "card", "kind": "card", "value": "ZZ"}])
    "card 'ZZ' is not a card code"
    >>> describe("games", [{"col": "format", "kind": "values", "value": "poker"}])
    "format 'poker' is not one of points, pool_101, pool_201, deals, match"
    >>> describe("hands", [{"col": "hand_no", "kind": "position", "value": "0"}])
    'hand_no 0 is not a position: hands count from 1'
    >>> describe("games", [{"col": "rake_pct", "kind": "percent", "value": "-15.00"}])
    'rake_pct -15.00 is not a percentage from 0 to 100'
    >>> describe("games", [{"col": "decks", "kind": "least:1", "value": "0"}])
    'decks 0 is less than 1, which no game has'
    >>> describe("games", [{"col": "deals_count", "kind": "deals", "value": "5"}])
    'deals_count 5 is not 2 or 3 (best of 2 or best of 3), which every deals game is'
    >>> describe("sessions", [{"col": "left_at", "kind": "before",
    ...                        "value": "2026-11-29 19:10:00 UTC|2026-11-29 19:20:00 UTC"}])
    'left_at 2026-11-29 19:10:00 UTC is before joined_at 2026-11-29 19:20:00 UTC'
    >>> describe("events", [{"col": "meld", "kind": "needs", "value": "lay_off:null"}])
    'a lay_off row needs a meld (the table meld it targets); meld is null'
    """
    parts = []
    for problem in problems:
        column, value = problem["col"], problem["value"]
        match problem["kind"]:
            case "null":
                parts.append(f"{column} is null")
            case "null_inside":
                parts.append(f"{column} holds a null {value}")
            case "values":
                allowed = ", ".join(load_contract()[table].column(column).values)
                parts.append(f"{column} {value!r} is not one of {allowed}")
            case "card":
                parts.append(f"{column} {value!r} is not a card code")
            case "card_item":
                parts.append(f"{column} holds {value!r}, which is not a card code")
            case "negative":
                parts.append(f"{column} {value} is negative")
            case "position":
                parts.append(f"{column} {value} is not a position: hands count from 1")
            case "percent":
                parts.append(f"{column} {value} is not a percentage from 0 to 100")
            case "deals":
                parts.append(f"{column} {value} is not 2 or 3 (best of 2 or best of 3), "
                             "which every deals game is")  # fmt: skip
            case least if least.startswith("least:"):
                parts.append(f"{column} {value} is less than {least[6:]}, which no game has")
            case "before":  # sessions: left_at, then joined_at (``_table_checks``)
                left, joined = value.split("|", 1)
                parts.append(f"{column} {left} is before joined_at {joined}")
            case "server":
                parts.append(f"{column} is null, which only a reshuffle row may be")
            case "auto_reason":
                parts.append(f"an automatic {value} row needs a reason ({_REASONS}); "
                             "reason is null")  # fmt: skip
            case "needs":
                action, how = value.split(":", 1)
                verb = "" if how.startswith("holds") else "is "
                parts.append(f"a {action} row needs {_NEEDED_WORDS[column]}; {column} {verb}{how}")
            case kind:
                raise ValueError(f"unknown row problem kind {kind!r}")
    return "; ".join(parts)


def _narrower(want: pa.DataType, got: pa.DataType) -> bool:
    """Whether a file type `got`, accepted for `want`, may hold values `want` cannot."""
    if pa.types.is_null(got):  # every value null (contract.check_schema)
        return False
    if pa.types.is_list(want):
        return _narrower(want.value_type, got.value_type)
    if pa.types.is_struct(want):
        return any(_narrower(f.type, got.field(f.name).type) for f in want)
    if pa.types.is_integer(want):
        return bool(got.bit_width > want.bit_width)
    if pa.types.is_decimal(want):
        return bool(got.precision > want.precision)
    return False


def _leaves(array: Any, want: pa.DataType, path: str) -> list[tuple[str, Any, pa.DataType]]:
    """The integer and decimal leaves of a column, flattened, with their contract type."""
    if pa.types.is_list(want):
        return _leaves(pc.list_flatten(array), want.value_type, f"{path}[]")
    if pa.types.is_struct(want):
        return [
            leaf
            for f in want
            for leaf in _leaves(pc.struct_field(array, f.name), f.type, f"{path}.{f.name}")
        ]
    if pa.types.is_integer(want) or pa.types.is_decimal(want):
        return [(path, array, want)]
    return []


def wider_columns(table: str, schema: pa.Schema) -> list[Column]:
    """The contract's columns of `table` that the file writes in a wider type (whose
    values `width_problems` reads and range-checks)."""
    return [
        c
        for c in load_contract()[table].columns
        if c.name in schema.names and _narrower(c.arrow_type, schema.field(c.name).type)
    ]


def width_problems(table: str, path: Any, schema: pa.Schema, *, source: str) -> list[str]:
    """Why a file's wider integer or decimal columns hold values the contract's width
    cannot, one line each; reads only those columns, and only when the file has them.

    `schema` must already pass `check_schema`.
    """
    columns = wider_columns(table, schema)
    if not columns:
        return []
    data = pq.read_table(path, columns=[c.name for c in columns])
    problems = []
    for column in columns:
        for where, values, want in _leaves(
            data.column(column.name), column.arrow_type, column.name
        ):
            try:
                pc.cast(values, want)
            except pa.ArrowInvalid as error:
                reason = str(error).splitlines()[0]
                problems.append(
                    f"{source}: column `{where}` holds a value that does not fit"
                    f" {type_name(want)}: {reason}"
                )
    return problems


# ---------------------------------------------------------------- hand-level checks


def event_stats(events: pl.DataFrame) -> pl.DataFrame:
    """Per hand `_h` of events sorted by (hand, seq): how many rows, how many good, and
    whether their seqs run 0, 1, 2, ... (bad rows count: the check is about the log)."""
    return events.group_by("_h").agg(
        n_events=pl.len(),
        n_good_events=pl.col("_ok").sum(),
        seq_ok=(pl.col("seq") == pl.int_range(pl.len(), dtype=pl.Int32)).all(),
    )


def result_stats(results: pl.DataFrame) -> pl.DataFrame:
    """Per hand `_h`: how many results rows, how many good, and whether the good ones
    name each player once (the key is (hand_id, player_id))."""
    return results.group_by("_h").agg(
        n_results=pl.len(),
        n_good_results=pl.col("_ok").sum(),
        results_unique=~pl.col("player_id").filter(pl.col("_ok")).is_duplicated().any(),
    )


SEATS_OK = (pl.col("seats").list.len().is_between(1, MAX_SEATS)) & (
    pl.col("seats").list.n_unique() == pl.col("seats").list.len()
)
"""A hand's seats name at least one player and at most ``MAX_SEATS``, each once."""


def seats_problem(name: str, seats: list[str]) -> str:
    """Why a hand's seats fail ``SEATS_OK``, in one line (``one_line``: `name` and the
    player id as escaped as needed).

    >>> seats_problem("hand h1", ["p1", "p2", "p1"])
    'hand h1 seats player p1 2 times'
    >>> seats_problem("hand h1", [f"p{i}" for i in range(128)])
    'hand h1 seats 128 players, more than any table holds (a hand seats at most 127)'
    >>> print(seats_problem("hand h\\n1", ["p\\n1", "p\\n1"]))
    hand h\\n1 seats player p\\n1 2 times
    """
    if not seats:
        return f"{one_line(name)} has no seats"
    if len(seats) > MAX_SEATS:
        return (f"{one_line(name)} seats {len(seats)} players, more than any table holds "
                f"(a hand seats at most {MAX_SEATS})")  # fmt: skip
    player = next(p for p in seats if seats.count(p) > 1)
    return f"{one_line(name)} seats player {one_line(player)} {seats.count(player)} times"


def results_problem(name: str, players: list[str]) -> str:
    """Each player with more than one results row in the hand, named (a blind tester's
    hand sent twice named one of its four players).

    >>> results_problem("hand h1", ["p1", "p2", "p2"])
    'hand h1 has 2 results rows for player p2'
    >>> results_problem("hand h1", ["p1", "p1", "p2", "p2"])
    'hand h1 has 2 results rows for each of players p1, p2'
    >>> results_problem("hand h1", ["p1", "p1", "p2", "p2", "p2"])
    'hand h1 has more than one results row for players p1 (2), p2 (3)'
    """
    counts = {p: players.count(p) for p in dict.fromkeys(players) if players.count(p) > 1}
    who = [one_line(p) for p in counts]
    if len(counts) == 1:
        return f"{one_line(name)} has {counts[next(iter(counts))]} results rows for player {who[0]}"
    if len(set(counts.values())) == 1:
        n = next(iter(counts.values()))
        return f"{one_line(name)} has {n} results rows for each of players {', '.join(who)}"
    each = ", ".join(f"{w} ({n})" for w, n in zip(who, counts.values(), strict=True))
    return f"{one_line(name)} has more than one results row for players {each}"


def repeated_seq(seqs: list[int | None]) -> int | None:
    """The index in `seqs` (sorted) of the row that repeats a seq, when the first place
    they leave 0, 1, 2, ... is a repeat (``seq_problem``'s "repeat"); else None.

    >>> repeated_seq([0, 1, 1, 2]), repeated_seq([None, 0, 0]), repeated_seq([0, 2, 2])
    (2, 2, None)
    """
    expected = 0
    for index, seq in enumerate(seqs):
        if seq is None or seq < 0:
            continue
        if seq != expected:
            return index if seq < expected else None
        expected += 1
    return None


def seq_problem(name: str, seqs: list[int | None]) -> list[str]:
    """Where sorted seqs first leave 0, 1, 2, ...; nulls and negatives are row problems.

    >>> seq_problem("hand h1", [0, 1, 3])
    ['hand h1 events jump from seq 1 to 3']
    >>> seq_problem("hand h1", [None, -1, 0, 1])
    []
    """
    name = one_line(name)
    for expected, seq in enumerate(s for s in seqs if s is not None and s >= 0):
        if seq < expected:
            return [f"{name} events repeat seq {seq}"]
        if seq > expected:
            if expected == 0:
                return [f"{name} events start at seq {seq}, not 0"]
            return [f"{name} events jump from seq {expected - 1} to {seq}"]
    return []


def undecodable_at(con: duckdb.DuckDBPyConnection, source: str, path: str, table: str) -> str:
    """`` in column C`` (`` in column C, row R`` where a string value of row R is not UTF-8
    text; `` in columns C, D`` where more fail), the contract columns of `table` DuckDB
    cannot decode in the one file `source` reads (`path`), or empty when no column fails
    alone: the refusal names them (schemas/README.md; a blind tester's message quoted the
    bad value but not its column). Only a refused file is read again, a column at a time."""
    failed = []
    for column in load_contract()[table].columns:
        try:
            con.execute(f"SELECT max(hash({quote(column.name)})) FROM ({source}) t").fetchall()
        except duckdb.Error:
            failed.append(column)
    if len(failed) != 1:
        return f" in columns {', '.join(c.name for c in failed)}" if failed else ""
    (column,) = failed
    kind = column.arrow_type
    text = pa.types.is_string(kind) or pa.types.is_large_string(kind)
    row = _not_utf8(path, column.name) if text else None
    return f" in column {column.name}" + (f", row {row}" if row is not None else "")


def _not_utf8(path: str, column: str) -> int | None:
    """The 0-based row of the file at `path` whose `column` value is not UTF-8 text, or
    None (pyarrow reads a string column without checking its bytes; DuckDB does)."""
    try:
        values = pq.read_table(path, columns=[column]).column(0).cast(pa.large_binary())
    except (pa.ArrowException, OSError):  # the column is damaged otherwise: no row to name
        return None
    for row, value in enumerate(values.to_pylist()):
        try:
            if value is not None:
                value.decode("utf-8")
        except UnicodeDecodeError:
            return row
    return None
