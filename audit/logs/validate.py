"""Row checks of the log contract, as DuckDB SQL over whole tables, and a file's width check.

`row_checks(table)` gives two SQL expressions over one row of a table: whether the row keeps
the contract, and, for a bad row only, what it breaks, as a list of `{col, kind, value}`
structs that `describe` turns into one plain line. Nothing here walks rows in Python.

`width_problems` is the one file-level check that needs values: a file may write an integer
or decimal column wider than the contract's, and a value that does not fit refuses the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.cards import CODE_TEXT
from audit.logs.contract import Column, load_contract, type_name

CARD_COLUMNS: dict[str, frozenset[str]] = {
    "hands": frozenset({"shoe", "wild_card", "open_card"}),
    "events": frozenset({"card", "groups"}),
}
"""The columns whose strings (or list items) must be card codes, per table."""

_CODES = "MAP {" + ", ".join(f"'{text}': {code}" for code, text in enumerate(CODE_TEXT)) + "}"


def quote(name: str) -> str:
    """A SQL identifier for a contract name."""
    return '"' + name.replace('"', '""') + '"'


def literal(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def duck_type(dtype: pa.DataType) -> str:
    """The DuckDB type of a contract Arrow type."""
    if pa.types.is_list(dtype):
        return f"{duck_type(dtype.value_type)}[]"
    if pa.types.is_struct(dtype):
        return "STRUCT(" + ", ".join(f"{quote(f.name)} {duck_type(f.type)}" for f in dtype) + ")"
    if pa.types.is_decimal(dtype):
        return f"DECIMAL({dtype.precision},{dtype.scale})"
    if pa.types.is_timestamp(dtype):
        return "TIMESTAMPTZ"
    names = {"string": "VARCHAR", "bool": "BOOLEAN", "int8": "TINYINT", "int16": "SMALLINT"}
    return names.get(str(dtype), {"int32": "INTEGER", "int64": "BIGINT"}.get(str(dtype), "?"))


def card_codes_sql(column: Column) -> str:
    """SQL for a card column with every card replaced by its integer code (NULL if none)."""
    depth, dtype = 0, column.arrow_type
    while pa.types.is_list(dtype):
        depth, dtype = depth + 1, dtype.value_type
    expr = f"{_CODES}[c{depth}]"
    for level in range(depth, 0, -1):
        expr = f"list_transform(c{level}, lambda c{level - 1}: {expr})"
    return expr.replace(f"c{depth}]" if depth == 0 else "c0)", "")[:0] or _codes_of(column, depth)


def _codes_of(column: Column, depth: int) -> str:
    expr = f"{_CODES}[c{depth}]"
    for level in range(depth, 0, -1):
        expr = f"list_transform(c{level - 1}, lambda c{level}: {expr})"
    return expr.replace("c0", quote(column.name)) if depth else f"{_CODES}[{quote(column.name)}]"
