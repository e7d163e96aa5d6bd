"""run.json against the outputs beside it: its fields of the shape their readers need
(``check_run``), and its counts those of the files (``check_one_run``), so that a damaged
run.json or a folder holding two runs' outputs (a replay killed while it renamed them into
place) is one line, never a traceback or a report that contradicts itself."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from audit import duck
from audit.errors import AuditError, first_line
from audit.output import nightly_night

Shape = Any
"""What a value of run.json must be (``check_run``): a type, or a tuple of them (``None``
for null; a bool is not an ``int``); ``object`` for anything; ``[shape]`` for a list of
such items; ``{"key": shape, "key?": shape}`` for an object with those keys (``?``: it may
lack the key); ``{str: shape}`` for an object whose every value is such."""


def check_run(run: dict[str, Any], path: Path, shape: dict[str, Shape]) -> None:
    """An ``AuditError`` (one line, exit 2) naming run.json's first field, in the order of
    ``shape``, that is not of its ``shape``: a reader of it would fail on it with a
    traceback (``counts`` as a string), or show what it does not say."""
    problem = _unlike(run, shape, "")
    if problem is not None:
        raise AuditError(f"{path} is not a run.json of rummy-audit: {problem}", slug="out")


def _unlike(value: Any, shape: Shape, where: str) -> str | None:
    """Where and how ``value`` (at ``where``, ``""`` for the whole run.json) is not of
    ``shape``; None when it is.

    >>> _unlike({"counts": "garbage"}, {"counts": {"hands": {str: int}}}, "")
    'counts is a string, not an object'
    >>> _unlike({"counts": {"hands": {"verified": True}}}, {"counts": {"hands": {str: int}}}, "")
    'counts.hands.verified is a boolean, not an integer'
    >>> _unlike({"inputs": [{"rows": 1}]}, {"inputs": [{"table": str}]}, "")
    'inputs[0] has no table'
    """
    if shape is object:
        return None
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return f"{where} is {_json_kind(value)}, not an object"
        if list(shape) == [str]:
            items = [(str(key), shape[str], True) for key in value]
        else:
            items = [(key.removesuffix("?"), sub, not key.endswith("?"))
                     for key, sub in shape.items()]  # fmt: skip
        for key, sub, needed in items:
            if key not in value:
                if needed:
                    return f"{where or 'it'} has no {key}"
                continue
            problem = _unlike(value[key], sub, f"{where}.{key}" if where else key)
            if problem is not None:
                return problem
        return None
    if isinstance(shape, list):
        if not isinstance(value, list):
            return f"{where} is {_json_kind(value)}, not a list"
        for i, item in enumerate(value):
            problem = _unlike(item, shape[0], f"{where}[{i}]")
            if problem is not None:
                return problem
        return None
    kinds = shape if isinstance(shape, tuple) else (shape,)
    allowed = tuple(type(None) if kind is None else kind for kind in kinds)
    if isinstance(value, allowed) and (bool in allowed or not isinstance(value, bool)):
        return None
    wanted = " or ".join(_JSON_KINDS.get(kind, kind.__name__) for kind in allowed)
    return f"{where} is {_json_kind(value)}, not {wanted}"


_JSON_KINDS: dict[type, str] = {
    type(None): "null",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "an object",
}


def _json_kind(value: Any) -> str:
    """What ``value`` is, in JSON's words: ``a string``, ``an object``."""
    return next((name for kind, name in _JSON_KINDS.items() if isinstance(value, kind)),
                type(value).__name__)  # fmt: skip


COUNTS: dict[str, Shape] = {
    "hands": {str: int},
    "hands_total": int,
    "quarantine_rows": int,
    "lost_hands?": int,
    "findings": {str: int},
    "findings_by_severity": {str: int},
    "games?": {str: int},
}
"""run.json's ``counts``, as ``replay`` writes them (run.py, ``_conclude``): the hands by
status, the quarantine rows, the findings and the games (``count_games``), each of which
its output files hold (``games`` is absent from a run.json written before 2026-12-06)."""

GAME_COUNTS = ("total", "running", "unchecked")
"""run.json's ``counts.games``: the games the night's hands and game-level findings name,
those of them still running when the logs were cut (``game.running``: judged on their
hands so far), and those with a game-level check not run (``game.unchecked``)."""


def count_games(hands: Path, findings: Path) -> dict[str, int]:
    """run.json's ``counts.games`` (``GAME_COUNTS``) of the outputs ``hands`` and
    ``findings``: a game is counted once whatever its hands and findings (a games row with
    no hand has its ``game.unchecked`` or ``game.running``, so it is counted too). A game
    with a quarantined hand that is not running is unchecked, with or without its own
    ``game.unchecked``: a refused file's ``input.file`` finding says so of the games it
    took hands of (``audit.logs.quarantine.took_words``)."""
    sql = f"""
        WITH f AS (SELECT "check", game_id FROM {read_parquet(findings)}
                   WHERE "check" IN ('game.running', 'game.unchecked') AND game_id <> ''),
        h AS (SELECT game_id, status FROM {read_parquet(hands)} WHERE game_id <> ''),
        named AS (SELECT game_id FROM h UNION SELECT game_id FROM f),
        unchecked AS (SELECT game_id FROM f WHERE "check" = 'game.unchecked'
                      UNION SELECT game_id FROM h WHERE status = 'quarantined' AND game_id
                      NOT IN (SELECT game_id FROM f WHERE "check" = 'game.running'))
        SELECT (SELECT count(*) FROM named),
               (SELECT count(DISTINCT game_id) FROM f WHERE "check" = 'game.running'),
               (SELECT count(*) FROM unchecked)
    """
    try:
        with duck.connect() as db:
            row = db.execute(sql).fetchone()
    except duckdb.Error as exc:
        raise AuditError(f"{hands.parent} cannot be read: {first_line(exc)}",
                         slug="out") from None  # fmt: skip
    assert row is not None
    return {name: int(n) for name, n in zip(GAME_COUNTS, row, strict=True)}


def check_one_run(out: Path, run: dict[str, Any]) -> None:
    """An ``AuditError`` (one line, exit 2) unless the outputs in ``out`` are those of the
    run its run.json (``run``) counts: the hands by status of hands.parquet, the rows of
    quarantine.parquet (when it is there), the findings by check and by severity of
    findings.parquet, as ``_conclude`` (run.py) counted them from the same rows. A replay
    killed while it renamed its outputs into place leaves some of the new run and some of
    the old; a report of them contradicted itself (the quarantined hands of one run over
    the quarantine rows of the other). Aggregates only: a million findings take a moment."""
    check_run(run, out / "run.json", {"counts": COUNTS})
    counts = run["counts"]
    hands, findings = out / "hands.parquet", out / "findings.parquet"
    try:
        with duck.connect() as db:
            statuses = _counted_by(db, f"SELECT status, count(*) FROM {read_parquet(hands)}"
                                   " GROUP BY 1")  # fmt: skip
            rows = db.execute(
                f'SELECT "check", severity, count(*) FROM {read_parquet(findings)} GROUP BY 1, 2'
            ).fetchall()
    except duckdb.Error as exc:
        raise AuditError(f"{out} cannot be read: {first_line(exc)}", slug="out") from None
    by_check: dict[str, int] = {}
    by_severity: dict[str, int] = {}
    for check, severity, n in rows:
        by_check[_key(check)] = by_check.get(_key(check), 0) + n
        by_severity[_key(severity)] = by_severity.get(_key(severity), 0) + n
    quarantine = out / "quarantine.parquet"
    quarantined: dict[str, int] = {}
    if quarantine.is_file():
        try:
            quarantined[""] = pq.read_metadata(quarantine).num_rows
        except (OSError, pa.ArrowException) as exc:
            raise AuditError(f"{quarantine} cannot be read: {first_line(exc)}",
                             slug="out") from None  # fmt: skip
    total = {"": sum(statuses.values())}
    differ = [
        *_differ({"": counts["hands_total"]}, total, "hands in all", hands),
        *_differ(counts["hands"], statuses, "{} hands", hands),
        *_differ({"": counts["quarantine_rows"]} if quarantined else {}, quarantined,
                 "quarantine rows", quarantine),
        *_differ({"": sum(counts["findings"].values())}, {"": sum(by_check.values())},
                 "findings in all", findings),
        *_differ(counts["findings"], by_check, "findings of {}", findings),
        *_differ(counts["findings_by_severity"], by_severity, "{} findings", findings),
    ]  # fmt: skip
    if not differ and "games" in counts:
        differ = _differ(counts["games"], count_games(hands, findings), "games ({})", findings)
    _one_run(out, run, differ)


SECTIONS = {"fairplay": "suspicions.parquet", "rng": "rng.parquet"}
"""run.json's entry of each pass the report has a section of, and the output it wrote."""


def check_sections(out: Path, run: dict[str, Any], *, but: str = "") -> None:
    """An ``AuditError`` (one line, exit 2) unless suspicions.parquet and rng.parquet, where
    run.json says their pass ran and the file is there, hold what its ``fairplay`` and
    ``rng`` entries count: the suspicions in all and by detector, the shuffle tests run,
    biased, suspect and with too few shoes. Another run's file was shown as a clean section
    (0 suspicions beside a run.json counting 10). ``but``: the pass about to be run again,
    whose file is not checked (it is rewritten). A count run.json does not hold as an
    integer is not compared (the report refuses it first: ``check_run``)."""
    differ: list[str] = []
    try:
        with duck.connect() as db:
            for key, name in SECTIONS.items():
                entry, path = run.get(key), out / name
                if key == but or not isinstance(entry, dict) or entry.get("status") != "run":
                    continue
                if path.is_file():
                    differ += (_suspicions if key == "fairplay" else _shuffle)(db, entry, path)
    except duckdb.Error as exc:  # a page damaged behind an intact footer: as the report says
        raise AuditError(f"{out} holds an output that cannot be read: {first_line(exc)}",
                         slug="out") from None  # fmt: skip
    _one_run(out, run, differ)


def _suspicions(db: duckdb.DuckDBPyConnection, entry: dict[str, Any], path: Path) -> list[str]:
    """suspicions.parquet's rows, in all and by check, against run.json's ``fairplay``."""
    held = _counted_by(db, f'SELECT "check", count(*) FROM {read_parquet(path)} GROUP BY 1')
    detectors = entry.get("detectors")
    by_detector = {str(d.get("check")): d["suspicions"]
                   for d in (detectors if isinstance(detectors, list) else [])
                   if isinstance(d, dict) and _count(d.get("suspicions"))}  # fmt: skip
    total = {"": entry["suspicions"]} if _count(entry.get("suspicions")) else {}
    return [
        *_differ(total, {"": sum(held.values())} if total else {}, "suspicions in all", path),
        *_differ(by_detector, {c: held.get(c, 0) for c in by_detector}, "{} suspicions", path),
    ]


def _shuffle(db: duckdb.DuckDBPyConnection, entry: dict[str, Any], path: Path) -> list[str]:
    """rng.parquet's tests run and verdicts against run.json's ``rng``."""
    row = db.execute(
        "SELECT count(p_value), count(*) FILTER (verdict = 'biased'), "
        "count(*) FILTER (verdict = 'suspect'), count(*) FILTER (verdict = 'too few shoes') "
        f"FROM {read_parquet(path)}"
    ).fetchone()
    words = ("shuffle tests run", "biased shuffle tests", "suspect shuffle tests",
             "shuffle tests with too few shoes")  # fmt: skip
    keys = ("tests", "biased", "suspect", "too_few_shoes")
    counted = {w: entry[k] for w, k in zip(words, keys, strict=True) if _count(entry.get(k))}
    held = {w: n for w, n in zip(words, row or (0, 0, 0, 0), strict=True) if w in counted}
    return _differ(counted, held, "{}", path)


def _count(value: Any) -> bool:
    """A count of run.json: an integer, not a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)


def _one_run(out: Path, run: dict[str, Any], differ: list[str]) -> None:
    """The ``AuditError`` of outputs that are not those of one run, naming the first count
    that differs (``_differ``), unless none does."""
    if differ:
        raise AuditError(f"{out} holds outputs of more than one run ({differ[0]}); "
                         f"{_write_again(out, run)}", slug="out")  # fmt: skip


def _counted_by(db: duckdb.DuckDBPyConnection, sql: str) -> dict[str, int]:
    """``sql``'s (key, count) rows as a dict, each key as ``_key`` writes it."""
    return {_key(key): int(n) for key, n in db.execute(sql).fetchall()}


def _key(value: Any) -> str:
    """A value an output counts by (a status, a check, a severity) as run.json's key."""
    return "null" if value is None else str(value)


def _differ(
    counted: dict[str, int], held: dict[str, int], what: str, path: Path
) -> list[str]:
    """Where run.json's ``counted`` and the file's ``held`` differ, in words (``what``, the
    key put in at ``{}``: ``quarantined hands: run.json counts 360, hands.parquet holds
    0``). A key one of them lacks counts 0."""
    return [
        f"{what.format(key)}: run.json counts {counted.get(key, 0)}, {path.name} holds "
        f"{held.get(key, 0)}"
        for key in sorted(set(counted) | set(held))
        if counted.get(key, 0) != held.get(key, 0)
    ]


def _write_again(out: Path, run: dict[str, Any]) -> str:
    """What makes the outputs in ``out`` whole again: the replay, run again (a nightly
    night's cannot be: its log root, the night's work root, is gone)."""
    if nightly_night(out):
        return ("it is a night of rummy-audit nightly, whose replay cannot be run again "
                "(its work root is gone)")  # fmt: skip
    arguments = run.get("arguments")
    logs = arguments.get("logs") if isinstance(arguments, dict) else None
    logs_out = (shlex.quote(str(path)) for path in (logs or "LOGS", out))
    return "run `rummy-audit replay {} --out {}` again".format(*logs_out)


def read_parquet(path: Path) -> str:
    """The SQL that reads the one Parquet file ``path``."""
    return f"read_parquet({duck.file_literal(str(path))})"
