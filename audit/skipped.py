"""The checks an optional table holds (``game_events``, ``ledger``, ``sessions``:
log-format.md, "a check that needs a missing one is skipped, never passed"), and the one
sentence that says which could not run without it, for the night's ``check.skipped``
finding and for ``explain`` alike (``skipped_words``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final

from audit.findings import table_lacking
from audit.records import POOL_FORMATS, Format

_EVERY: Final = frozenset(Format)
_POOLS: Final = frozenset(POOL_FORMATS)
NEEDED_BY: Final = {
    "sessions": (
        ("table.limit and fairplay.shared_device (accounts at one table through one device "
         "or address)", frozenset[Format]()),
    ),
    "ledger": (("ledger.balance", _EVERY - {Format.MATCH}),  # a match has no money
               ("the split amounts of pool.split", _POOLS)),
    "game_events": (
        ("the pool checks (scores, eliminations, rebuys, splits, the winner)", _POOLS),
        ("the winner of a deals game or a match", frozenset({Format.DEALS, Format.MATCH})),
        ("the entries and prize of a pool or deals game", _POOLS | {Format.DEALS}),
    ),
}  # fmt: skip
"""What cannot be checked without each optional table, and the formats of the games whose
checks it is (the sessions table's are the night's, no one game's)."""


def skipped_words(
    table: str,
    refused: Sequence[str] = (),
    game_format: str | None = None,
    night: Collection[str] | None = None,
    empty: bool = False,
) -> str | None:
    """The ``check.skipped`` sentence for an optional table the log root lacks (``refused``:
    its files, none of which could be read): what the night could not check (of the games
    of the formats ``night`` holds, when known), or (with ``game_format``) what it could
    not check of a game of that format; ``None`` when nothing of such a game rests on the
    table (a night of matches has no money to check). One sentence for the night's
    finding and for ``explain``, so that both say the same. ``empty``: the table's files
    were read and hold no row (``nightwide.EMPTY_IS_SILENT``).

    >>> print(skipped_words("ledger"))  # doctest: +NORMALIZE_WHITESPACE
    The log root has no ledger table, so ledger.balance and the split amounts of pool.split
    could not be checked.
    >>> print(skipped_words("game_events", game_format="deals"))  # doctest: +NORMALIZE_WHITESPACE
    The log root has no game_events table, so the winner of a deals game or a match and the
    entries and prize of a pool or deals game could not be checked.
    >>> skipped_words("game_events", game_format="points") is None
    True
    >>> skipped_words("ledger", night={"match"}) is None
    True
    """
    if game_format is not None:
        parts = [words for words, formats in NEEDED_BY[table] if game_format in formats]
    else:  # the night's: its own checks (no formats), and those of the games it holds
        parts = [words for words, formats in NEEDED_BY[table]
                 if night is None or not formats or formats & set(night)]  # fmt: skip
    if not parts:
        return None
    what = table_lacking(table, refused, empty=empty)
    *others, last = parts
    needed = f"{', '.join(others)}{',' * (len(others) > 1)} and {last}" if others else last
    return f"{what}, so {needed} could not be checked."


def skipped_checks(
    game_format: str, missing: frozenset[str], damaged: Mapping[str, Sequence[str]]
) -> dict[str, str]:
    """``skipped_words`` for each optional table the log root lacks (``missing``) that a
    check of a game of ``game_format`` rests on, by table; ``damaged`` names the files of
    each that could not be read."""
    return {
        table: words
        for table in sorted(missing)
        if table in NEEDED_BY and table != "sessions"
        for words in [skipped_words(table, damaged.get(table, ()), game_format)]
        if words is not None
    }
