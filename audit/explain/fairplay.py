"""The fair-play suspicions a hand or a game is evidence for, from a nightly run's output
folder.

``explain`` replays one hand or one game from the logs; whether it is evidence in a
fair-play suspicion is in the night's ``suspicions.parquet`` (one row per suspicion, its
``evidence_hands`` and ``evidence_games`` lists). Without that file nothing was looked up,
and the explanation says so and how to look, never that there is no suspicion.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from audit import duck
from audit.duck import file_literal
from audit.errors import AuditError
from audit.explain.view import NOT_LOOKED_UP, NOT_LOOKED_UP_GAME, FairPlayView, SuspicionView
from audit.logs.contract import TABLES
from audit.output import nightly_night

SUSPICIONS = "suspicions.parquet"


def not_looked_up(why: str, how: str) -> FairPlayView:
    """The view that says fair play was not looked up: why, and how to look.

    >>> not_looked_up("no --out was given", "give it").note
    'Fair play was not looked up: no --out was given; give it.'
    """
    return FairPlayView(looked_up=False, note=f"Fair play was not looked up: {why}; {how}.")


def lookup(
    out: Path | None, hand_id: str, logs: Path | None = None, dealt: Sequence[str] = ()
) -> FairPlayView:
    """The suspicions of ``out/suspicions.parquet`` that ``hand_id`` is evidence for, in
    the file's order (the strongest first): those that list it among their evidence
    hands, and those whose accounts were ``dealt`` into it (both of a pair, two of a ring,
    a bot's account), which the detector counted though a suspicion keeps only its few
    best hands. A not-looked-up view when ``out`` is ``None`` or holds no suspicions of a
    run of the detectors (its words name ``logs`` in the command to run). An
    ``AuditError`` when the file cannot be read."""
    return _lookup(out, "hand", hand_id, logs, dealt)


def lookup_game(
    out: Path | None, game_id: str, logs: Path | None = None, dealt: Sequence[str] = ()
) -> FairPlayView:
    """The suspicions of ``out/suspicions.parquet`` that game ``game_id`` is evidence for
    (one of its hands is, or their accounts were ``dealt`` into its hands), as ``lookup``
    does for a hand."""
    return _lookup(out, "game", game_id, logs, dealt)


_EVIDENCE = {"hand": "evidence_hands", "game": "evidence_games"}


def _lookup(
    out: Path | None, subject: str, ident: str, logs: Path | None, dealt: Sequence[str]
) -> FairPlayView:
    if out is None:
        return NOT_LOOKED_UP if subject == "hand" else NOT_LOOKED_UP_GAME
    if not out.is_dir():
        return not_looked_up(
            f"{out} is not a folder",
            "give the output folder of a nightly run (`rummy-audit replay LOGS --out OUT`) "
            "with --out",
        )
    root = _log_root(out, logs)
    if root:
        # Not a run's outputs: advising `fairplay LOGS --out` it would write the outputs
        # into the log root (a blind tester gave the log root as --out).
        return not_looked_up(
            f"{out} is a log root ({root}), not the output folder of a run",
            "give the output folder of the nightly run over it (`rummy-audit replay "
            f"{logs or 'LOGS'} --out OUT`, a folder of its own) with --out",
        )
    why = _not_run(out)
    if why and nightly_night(out):  # its work root is gone: nothing can run over it again
        return not_looked_up(why, "the detectors run on the nights after it, not on it again")
    if why:
        run = f"rummy-audit fairplay {logs or 'LOGS'} --out {out}"
        return not_looked_up(
            why, f"run the detectors with `{run}`, then explain the {subject} again with --out"
        )
    path = out / SUSPICIONS
    db = duck.connect()
    try:
        source = f"read_parquet({file_literal(str(path))}, file_row_number = true)"
        total = db.execute(f"SELECT count(*) FROM {source}").fetchone()
        rows = db.execute(
            f'SELECT "check", severity, players, message, listed FROM ('
            f'  SELECT *, list_contains({_EVIDENCE[subject]}, $id) AS listed,'
            "   len(list_intersect(players, $dealt)) >= least(len(players), 2) AS involved"
            f"  FROM {source}"
            ") WHERE listed OR involved ORDER BY file_row_number",
            {"id": ident, "dealt": list(dealt)},
        ).fetchall()
    except duckdb.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise AuditError(f"cannot read {path}: {first}", slug="suspicions") from None
    finally:
        db.close()
    found = tuple(
        SuspicionView(check, severity, tuple(players), message, bool(listed))
        for check, severity, players, message, listed in rows
    )
    n = int(total[0]) if total else 0
    return FairPlayView(looked_up=True, note=_note(subject, n, path, found), suspicions=found)


def _note(subject: str, n: int, path: Path, found: tuple[SuspicionView, ...]) -> str:
    """What was found in the file: the suspicions that list the hand (or game) among their
    evidence, and those that only involve its accounts. "None" is said only of both: a
    hand with a pair's two accounts counts for its suspicion, listed or not.

    >>> one = SuspicionView("fairplay.collusion", "minor", ("A", "B"), "...", listed=False)
    >>> _note("hand", 2, Path("out/suspicions.parquet"), (one,))  # doctest: +NORMALIZE_WHITESPACE
    'This hand is not among the listed evidence hands of any of the 2 fair-play suspicions
     in out/suspicions.parquet, but it involves the accounts of 1 of them (dealt in
     together):'
    """
    of = f"of the {n:,} fair-play suspicion{'s' if n != 1 else ''} in {path}"
    listed = sum(s.listed for s in found)
    involved = len(found) - listed
    strongest = ", the strongest first" if len(found) > 1 else ""
    if not found:
        return (
            f"None {of} lists this {subject} among its evidence or involves its accounts "
            f"(both of a pair, two of a ring, a bot's account dealt in)."
        )
    if not listed:
        return (
            f"This {subject} is not among the listed evidence {subject}s of any {of}, but "
            f"it involves the accounts of {involved} of them (dealt in together){strongest}:"
        )
    more = f", and involves the accounts of {involved} more" if involved else ""
    return f"This {subject} is evidence for {listed} {of}{more}{strongest}:"


def _log_root(out: Path, logs: Path | None) -> str:
    """Why the folder ``out`` is a log root, in words: the log tables it holds (a table
    is a folder of the log root; a run's outputs are files), or that it is the log root
    given; empty for a folder that is not one.

    >>> _log_root(Path("."), Path("."))
    'the log root given'
    """
    found = [t for t in TABLES if (out / t).is_dir()]
    if found:
        return f"it holds the {', '.join(found)} table{'s' if len(found) > 1 else ''}"
    try:
        same = logs is not None and out.resolve() == logs.resolve()
    except OSError:
        same = False
    return "the log root given" if same else ""


def _not_run(out: Path) -> str:
    """Why the folder ``out`` holds no suspicions to look in, or empty when it does."""
    run = _run_json(out / "run.json")
    if run is not None:
        fairplay = run.get("fairplay")
        if not isinstance(fairplay, dict):
            return f"the run in {out} was made by an older rummy-audit, without the detectors"
        if fairplay.get("status") != "run":
            why = fairplay.get("why") or "no reason given"
            return f"the detectors did not run in {out} ({why})"
    if not (out / SUSPICIONS).is_file():
        return f"{out} has no {SUSPICIONS}"
    return ""


def _run_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
