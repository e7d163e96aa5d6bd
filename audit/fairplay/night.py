"""All the fair-play detectors over one night: what ``replay`` runs after the replay, and
what ``rummy-audit fairplay`` runs alone over a replay's outputs."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import duckdb

from audit import duck
from audit.errors import AuditError, RulesetError
from audit.fairplay.detectors import PAIR_DETECTORS, bots
from audit.fairplay.engine import Settings, Tested
from audit.fairplay.rings import rings
from audit.fairplay.source import open_night
from audit.fairplay.suspicion import Suspicion
from audit.findings import table_lacking
from audit.logs.reader import LogRoot
from audit.records import and_more
from audit.rules.registry import lookup
from audit.rules.ruleset import FORMATS

MEMORY_LIMIT = "512MB"


@dataclass(frozen=True)
class FairPlay:
    suspicions: list[Suspicion]
    """Sorted: most severe first, then by q-value, then by id."""
    tested: list[Tested]

    def summary(self) -> list[dict[str, object]]:
        """Per detector: hypotheses tested and suspicions raised (run.json)."""
        return [
            {"check": t.check, "status": "skipped", "why": t.skipped, "suspicions": 0,
             "needs": t.needs} if t.skipped else
            {"check": t.check, "status": "run", "tested": t.tests,
             "suspicions": len(t.suspicions), "needs": t.needs,
             **({"partial": t.partial} if t.partial else {})}
            for t in self.tested
        ]  # fmt: skip


def _drop_formats(con: duckdb.DuckDBPyConnection) -> tuple[str, ...]:
    """``ruleset|format`` for every ruleset of the night whose rules allow drops there."""
    out = []
    for (preset,) in con.sql("SELECT DISTINCT ruleset FROM g ORDER BY 1").fetchall():
        try:
            rules = lookup(preset)
        except RulesetError:
            continue  # its games were quarantined; none of its hands is in the night
        out += [f"{preset}|{f}" for f in FORMATS if rules.drop_penalty(f) is not None]
    return tuple(out)


def _unread(log: LogRoot) -> dict[str, str]:
    """The optional tables the log root lacks, or none of whose files could be read, with
    why in a few words (``Settings.unread``).

    >>> from pathlib import Path
    >>> _unread(LogRoot(Path("logs"), {}, missing_optional=["sessions"]))
    {'sessions': 'the log root has no sessions table'}

    Read but holding no row, as a nightly night with no sessions delivered has (its empty
    file): skipped as for a table none of whose files could be read, not "nothing to test".

    >>> from audit.logs.footer import InputFile
    >>> empty = InputFile("sessions", "sessions/n.parquet", 100, "0" * 64, 0)
    >>> _unread(LogRoot(Path("logs"), {"sessions": [empty]}))
    {'sessions': "the log root's sessions files hold no row"}
    >>> _unread(LogRoot(Path("logs"), {"sessions": [replace(empty, rows=3)]}))
    {}
    """
    out = {table: _lower(table_lacking(table, log.unread.get(table, ())))
           for table in sorted(log.missing_optional)}  # fmt: skip
    # Read, but holding no row: the night's check.skipped says shared devices were not
    # checked, and the detector table said "run, nothing to test" beside it (a blind tester)
    for table in ("sessions",):
        files = log.files.get(table)
        if table not in out and files and not any(f.rows for f in files):
            refused = log.unread.get(table, ())
            out[table] = _lower(table_lacking(table, refused, empty=not refused))
    return out


def _partial(log: LogRoot, unread: Mapping[str, str]) -> dict[str, str]:
    """The optional tables read in part (some of their files could not be, the others
    were), with which files could not (``Settings.partial``): the shared-device detector
    ran on the rest, and its row said "nothing to test ... the night has none" of a night
    half of whose sessions it never read (a blind tester).

    >>> from pathlib import Path
    >>> from audit.logs.footer import InputFile
    >>> from audit.records import QuarantineRow
    >>> read = InputFile("sessions", "sessions/a.parquet", 100, "0" * 64, 3)
    >>> bad = QuarantineRow("sessions", "sessions/b.parquet", None, None, None, "input.file", "")
    >>> _partial(LogRoot(Path("logs"), {"sessions": [read]}, [bad]), {})
    {'sessions': 'sessions/b.parquet could not be read'}
    """
    out = {}
    for table in ("sessions",):
        refused = log.unread.get(table, ())
        if refused and table not in unread and table not in log.missing_optional:
            out[table] = f"{and_more(refused)} could not be read"
    return out


def _lower(words: str) -> str:
    """A sentence's start (``findings.table_lacking``) to put after a colon or a bracket."""
    return words[:1].lower() + words[1:]


def run_detectors(log: LogRoot, out: Path, settings: Settings | None = None) -> FairPlay:
    """Every detector over the log root and the replay's outputs in ``out``. DuckDB spills
    beyond ``MEMORY_LIMIT`` into a folder under ``out``, removed at the end; a query that
    fails is one ``AuditError``, never a traceback."""
    settings = settings or Settings()
    with tempfile.TemporaryDirectory(prefix=f".rummy-audit-{os.getpid()}-", dir=out) as spill:
        config: duck.Config = {
            "memory_limit": MEMORY_LIMIT, "threads": 2, "temp_directory": spill,
            "preserve_insertion_order": False,  # every result the tests read is ordered
        }  # fmt: skip
        con = duck.connect(config=config)
        step = "reading the night"  # named in the error: which step to look at
        try:
            open_night(con, log, out, Path(spill))
            unread = _unread(log)
            settings = replace(settings, drop_formats=_drop_formats(con), unread=unread,
                               partial=_partial(log, unread))
            tested = []
            for detector in (*PAIR_DETECTORS, bots):
                step = detector.__name__
                tested.append(detector(con, settings))
        except duckdb.Error as error:
            first = (str(error).splitlines() or [type(error).__name__])[0]
            raise AuditError(f"the fair-play detectors could not run ({step}): {first}",
                             slug="fairplay") from None  # fmt: skip
        finally:
            con.close()
    pairs = [s for t in tested for s in t.suspicions]
    ring = rings(pairs, settings.thresholds, settings.evidence)
    tested.append(Tested("fairplay.ring", len(ring), ring, "group of three or more accounts "
                         "that pair suspicions (co-seating aside) join"))  # fmt: skip
    suspicions = sorted((s for t in tested for s in t.suspicions), key=Suspicion.sort_key)
    return FairPlay(suspicions, tested)
