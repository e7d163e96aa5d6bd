"""The values a log holds in a column its game's format gives no meaning to: run.json's
``ignored_values``. log-format.md gives some columns to some formats only (``amount`` is
points rummy's money and deals' chips; ``score_after`` is pool's); a value written
elsewhere is read by no check, and a platform engineer who wrote ``amount`` on pool rows
expecting it checked would otherwise never know (a blind tester): the money of pool is
the ledger's, and checked there."""

from __future__ import annotations

import duckdb

from audit import duck
from audit.logs.reader import LogRoot

POOLS = ("pool_101", "pool_201")
UNUSED: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("games", "deals_count", ("points", *POOLS)),
    ("games", "entry_fee", ("points",)),
    ("games", "point_value", (*POOLS, "deals")),
    ("results", "amount", POOLS),
    ("results", "score_after", ("points", "deals")),
)
"""(table, column, the formats it has no meaning in): log-format.md's "for deals", "pool
and deals buy-in", "points rummy: money per point", "points rummy ...; deals ...",
"pool: running game score"."""


def ignored_values(log: LogRoot) -> list[dict[str, object]]:
    """Each (table, column, format) of ``UNUSED`` with a value in a game of that format, in
    ``UNUSED``'s order: how many rows (a games row once per game, however many nights
    wrote it). Nothing when they cannot be counted (a table missing or unreadable). One
    pass over the results, joined to the games: about 2 s over a million-hand night."""
    if not all(log.files.get(t) for t in ("games", "hands", "results")):
        return []
    counted = {table: [c for t, c, _ in UNUSED if t == table] for table in ("games", "results")}
    games = ("SELECT game_id, any_value(format) AS format, "
             + ", ".join(f"bool_or({c} IS NOT NULL) AS {c}" for c in counted["games"])
             + f" FROM ({log.sql('games')}) GROUP BY game_id")  # fmt: skip
    sql = {
        "games": "SELECT format, " + ", ".join(f"count(*) FILTER ({c})" for c in counted["games"])
        + f" FROM ({games}) GROUP BY format",
        "results": "SELECT g.format, " + ", ".join(f"count(r.{c})" for c in counted["results"])
        + f" FROM (SELECT hand_id, {', '.join(counted['results'])} FROM ({log.sql('results')})) r"
        f" JOIN (SELECT hand_id, game_id FROM ({log.sql('hands')})) h USING (hand_id)"
        f" JOIN (SELECT game_id, format FROM ({games})) g USING (game_id) GROUP BY g.format",
    }
    found: dict[tuple[str, str, str], int] = {}
    try:
        with duck.connect() as con:
            for table, query in sql.items():
                for game_format, *counts in con.execute(query).fetchall():
                    for column, n in zip(counted[table], counts, strict=True):
                        found[table, column, str(game_format)] = int(n)
    except duckdb.Error:
        return []
    return [{"table": t, "column": c, "format": f, "rows": found[t, c, f]}
            for t, c, formats in UNUSED for f in formats
            if found.get((t, c, f))]  # fmt: skip
