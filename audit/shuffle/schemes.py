"""What ``deck.commitment`` checked over a whole night, beside its hand-by-hand findings
(``commitment.py``): run.json's ``commitments`` (``commitment_counts``), the hands counted by
what was checked of each, and one note for each shuffle algorithm the hands name that the
audit does not replay (``scheme_findings``), whose shoes are held to the seed's hash alone.

A blind tester's night showed both were needed: a hand whose commitment is a digest of no
hash function the audit knows was counted as checked (by the seed's hash only, or replayed
in full) though its hash was not, and a misspelt algorithm ("HMAC-SHA256-Fisher-Yates")
let a rearranged shoe pass with no word that it was never replayed."""

from __future__ import annotations

from pathlib import Path

import duckdb

from audit import duck
from audit.findings import Finding, Severity, finding
from audit.logs.reader import LogRoot
from audit.shuffle.commitment import ALGORITHM, DIGEST_LENGTHS, SPACE

_TRIMMED = "trim(coalesce(struct_extract(shuffle, 'server_seed_hash'), ''), $space)"
"""SQL: a hands row's commitment as ``deck.commitment`` reads it (``SPACE`` trimmed from
either end)."""
_JUDGED = (
    f"(struct_extract(shuffle, 'server_seed') IS NOT NULL AND (NOT regexp_full_match("
    f"{_TRIMMED}, '[0-9a-fA-F]+') OR length({_TRIMMED}) IN {DIGEST_LENGTHS}))"
)
"""SQL: the revealed seed was judged against the commitment (``commitment._hash_finding``):
it hashes to it or not, or the commitment is empty or not hex (no commitment published);
not when it is a hex digest of a length of no hash function the audit knows (info)."""
RULE_SCHEME = (
    f"hands.shuffle: the audit replays the shoe of the {ALGORITHM} scheme only, another "
    "algorithm is held to the seed's hash (schemas/README.md, Provably-fair shuffles)"
)


def commitment_counts(log: LogRoot, out: Path) -> dict[str, dict[str, int]]:
    """run.json's ``commitments``: the hands the replay kept (not quarantined) whose hands
    row carries a provably-fair commitment (``hands.shuffle``, every field recorded: a null
    one makes the row invalid), by what ``deck.commitment`` checked of them: the seed's
    hash and the shoe its seeds shuffle to (``replayed``: the one algorithm it can replay),
    the hash alone (``hash_only``: another algorithm), the shoe alone (``shoe_only``: the
    algorithm it replays, a commitment of no hash function it knows) or neither
    (``unchecked``: another algorithm, and such a commitment); and the quarantined hands
    whose hands row carries one (``quarantined``: never replayed, so none of them is
    checked). Nothing when they cannot be counted (the report then says it does not
    know)."""
    kept = duck.file_literal(str(out / "hands.parquet"))
    hands = f"SELECT hand_id, status FROM read_parquet({kept})"
    sql = (
        f"SELECT coalesce(struct_extract(shuffle, 'algorithm') = $known, false), {_JUDGED},"
        f" count(*) FROM ({log.sql('hands')}) WHERE shuffle IS NOT NULL AND hand_id IN"
        f" (SELECT hand_id FROM ({hands}) WHERE status <> 'quarantined') GROUP BY ALL"
    )
    unchecked = (
        f"SELECT count(DISTINCT hand_id) FROM ({log.sql('hands')}) WHERE shuffle IS NOT NULL"
        f" AND hand_id IN (SELECT hand_id FROM ({hands}) WHERE status = 'quarantined')"
    )
    try:
        with duck.connect() as con:
            given = {"known": ALGORITHM, "space": SPACE}
            rows = {(a, b): n for a, b, n in con.execute(sql, given).fetchall()}
            found = con.execute(unchecked).fetchall()
    except duckdb.Error:
        return {}
    counts = {
        "replayed": int(rows.get((True, True), 0)),
        "hash_only": int(rows.get((False, True), 0)),
        "shoe_only": int(rows.get((True, False), 0)),
        "unchecked": int(rows.get((False, False), 0)),
    }
    quarantined = int(found[0][0]) if found else 0
    return {"commitments": {"hands": sum(counts.values()), **counts,
                            "quarantined": quarantined}}  # fmt: skip


def scheme_findings(log: LogRoot) -> list[Finding]:
    """One ``deck.commitment`` note (info) for each shuffle algorithm the night's hands
    name that the audit does not replay, saying how many hands name it and that their
    shoes were not checked against their seeds, and, where the name is the replayed one's
    but for case or the whitespace around it, or empty, so: such a name is never read as
    the replayed algorithm (a platform's scheme is its own), but a misspelling no longer
    holds a rigged shoe to the hash in silence (a blind tester). A night, not a hand: the
    hands of one scheme are one fact. A null algorithm is the hands row's own finding."""
    sql = (
        "SELECT struct_extract(shuffle, 'algorithm') AS name, count(DISTINCT hand_id)"
        f" FROM ({log.sql('hands')}) WHERE shuffle IS NOT NULL AND name IS NOT NULL"
        " AND name <> $known GROUP BY name ORDER BY name"
    )
    try:
        with duck.connect() as con:
            rows = con.execute(sql, {"known": ALGORITHM}).fetchall()
    except duckdb.Error:
        return []
    return [_scheme_finding(str(name), int(n)) for name, n in rows if n]


def _scheme_finding(name: str, n: int) -> Finding:
    """The note of the ``n`` hands whose shuffle names ``name`` (``scheme_findings``)."""
    bare = name.strip()
    if not bare:
        named = f"the blank shuffle algorithm {name!r}" if name else "an empty shuffle algorithm"
        like = ""
    else:
        named = f"the shuffle algorithm {name!r}"
        differs = (("case", bare != ALGORITHM), ("the whitespace around it", bare != name))
        ways = [way for way, differ in differs if differ]
        like = (
            f" (it differs from {ALGORITHM!r} only in {' and '.join(ways)})"
            if bare.lower() == ALGORITHM
            else ""
        )
    hands = f"{n} hand{'s' * (n != 1)} of the night name{'s' * (n == 1)}"
    their = "their shoes were" if n != 1 else "its shoe was"
    seeds = "their seeds" if n != 1 else "its seeds"
    return finding(
        "deck.commitment",
        game_id="",
        severity=Severity.INFO,
        expected=f"{ALGORITHM} (the algorithm the audit replays)",
        recorded=repr(name),
        message=f"{hands} {named}, which the audit does not replay{like}, so {their} not "
        f"checked against {seeds}.",
        rule=RULE_SCHEME,
    )
