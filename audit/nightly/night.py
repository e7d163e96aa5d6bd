"""One nightly run with memory: audit only what is new, carry the games still running,
append to the history, commit the night in one atomic step (docs/nightly.md).

``nightly_logs(logs=..., state=...)`` is what ``rummy-audit nightly`` calls. Everything is
built under ``DIR/work/``: the files taken tonight, tonight's log root (the rows of every
game that is not running, with the rows carried from the last night), the replay's outputs
(``replay_logs``, unchanged), the night's history and report, and the next night's carried
rows. The night's folder is then renamed to ``DIR/nights/NNNN`` and ``state.json``
replaced: that replace is the commit. A run killed before it leaves nothing the next run
keeps; a run killed after it leaves only the history database behind, which the next run
brings up to date first, and the night unsaid (``work/committed``), which the next run with
nothing new says, with its exit status. A history database open in another process is left
behind for the next run, not taken for damage (``finish``).
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from audit import duck
from audit.errors import AuditError
from audit.findings import Severity
from audit.logs.reader import EarlierRefused
from audit.nightly.carry import LOGS, RUNNING, Split, Unread, read_running, split_night
from audit.nightly.history import (
    SCHEMAS,
    NightFacts,
    held_by,
    history_file,
    merge,
    read_history_table,
    recorded_night,
    sync_database,
    tonight,
    write_history,
)
from audit.nightly.inputs import (
    Intake,
    ListedFile,
    SeenFile,
    TakenFile,
    check_log_root,
    copy_file,
    read_listed,
    read_seen,
    take,
    write_listed,
    write_seen,
)
from audit.nightly.reaudit import reaudit_rows, renumber
from audit.nightly.seats import SEATS, keep_seats, tonight_seats
from audit.nightly.state import (
    CARRY,
    HISTORY_DB,
    State,
    StateDamaged,
    checkpoint,
    damaged,
    in_state,
    night_name,
    open_state,
    reading,
    sync_folder,
)
from audit.output import NIGHTLY, read_run, write_json
from audit.report.render import write_report
from audit.rules.registry import load_rules
from audit.run import fairplay_words, replay_logs, shuffle_words

SEEN = "seen.parquet"
LISTED = "listed.parquet"
REBUILD = (
    f"move {HISTORY_DB} out of the state folder and run again: it is rebuilt from the last "
    "night's history/ and carry/seen.parquet"
)
"""What a user can do about a history database that cannot be read or brought up."""


@dataclass(frozen=True)
class NightSummary:
    """What a nightly run did: a new night, or nothing new since the last one."""

    night: int
    """The night audited; when nothing was new, the last night committed (0: none)."""
    audited: bool
    folder: Path | None
    """The night's outputs (``DIR/nights/NNNN``)."""
    taken: int = 0
    rewritten: int = 0
    reaudited: int = 0
    """The games of earlier nights audited again, because a file of theirs was rewritten
    or rows of theirs came again in tonight's new files (``late``): their findings are
    raised again (docs/nightly.md), which the line says."""
    late: int = 0
    """Of ``reaudited``, the games no rewritten file names: rows of theirs came again in
    tonight's new files (sent again, or late)."""
    seen_before: int = 0
    duplicates: int = 0
    carried_in: int = 0
    ended: int = 0
    running: int = 0
    held: int = 0
    """Games carried in whose games row tonight is in a file the replay refuses: carried
    on, not ended."""
    unread_games: tuple[str, ...] = ()
    """Tonight's refused games files whose game ids cannot be read (``Split``)."""
    hands: Counter[str] = field(default_factory=Counter)
    findings: int = 0
    worst: str | None = None
    suspicions: int = 0
    shuffle_failed: int = 0
    """The ``rng.*`` findings; ``shuffle_weak`` of them at ``info``."""
    shuffle_weak: int = 0
    fairplay: bool = True
    """The fair-play detectors ran."""
    rng: bool = True
    """The shuffle tests ran."""
    shuffle_tests: int | None = None
    """Shuffle tests with enough shoes to run (0: none could; None: not counted)."""
    shuffle_too_few: int = 0
    """Shuffle tests that had too few shoes to run."""
    fairplay_skipped: tuple[str, ...] = ()
    """The fair-play detectors that did not run though the others did."""
    exit_status: int = 0
    opening: str = ""
    """The replay's files that could not be read and hands lost, as its line opens with
    them (``RunSummary.opening``)."""
    rules_changed: tuple[str, ...] = ()
    """The platform rulesets (``--rules``) whose text differs from the last night's
    (``_rules_changed``)."""
    skipped: tuple[str, ...] = ()
    """When nothing was new: the writer's own files found that no night listed yet."""
    unfinished: str = ""
    """When the last night's run was stopped after its commit, before it could say it
    (``State.unsaid``): that night's findings and worst severity."""
    unfinished_status: int = 0
    """That night's exit status (its ``history/nights.parquet`` row): this run exits with
    it, or with tonight's when a night was audited and its status is higher, so a scheduler
    retrying the killed job sees the night's."""
    database: str = ""
    """What became of ``history.duckdb`` when it was not simply brought up (``finish``):
    rebuilt, brought up from behind, or left behind because another process has it open."""

    def line(self) -> str:
        """The one line the command prints."""
        files = (
            f"{self.taken} new file{'s' * (self.taken != 1)}"
            + (f" ({self.rewritten} rewritten{self._again(self.reaudited - self.late)})"
               if self.rewritten else "")
            + f", {self.seen_before} seen on earlier nights"
            + (f", {self.duplicates} same as another" if self.duplicates else "")
            + self._late()
        )
        if not self.audited:
            last = f"night {self.night}" if self.night else "the first night"
            own = ""
            if self.skipped:
                n = len(self.skipped)
                own = (f", {n} writer's own file{'s' * (n != 1)} not read"
                       f" ({', '.join(self.skipped[:3])}{' and more' * (n > 3)})")  # fmt: skip
            done = ""
            if self.unfinished:  # a blind tester's retried job exited 0 on a critical night
                done = (f"; {last} was committed by a run that stopped before it could say "
                        f"so: {self.unfinished}, exit status {self.unfinished_status}")  # fmt: skip
            return (
                f"Nothing new since {last}: {files}{own}; {self.running} game"
                f"{'s' * (self.running != 1)} still running; nothing committed{done}"
                + self._database()
            )
        hands = self.hands
        changed = ""
        if self.rules_changed:
            changed = (f"platform rules changed since the last night "
                       f"({', '.join(self.rules_changed)}); games carried in are judged "
                       "whole under tonight's; ")  # fmt: skip
        return (
            f"Night {self.night}: {self.opening}{changed}{files}; {self.carried_in} running game"
            f"{'s' * (self.carried_in != 1)} carried in ({self.ended} ended tonight"
            + self._held()
            + "), "
            f"{self.running} carried to the next night; {sum(hands.values())} hands: "
            f"{hands.get('verified', 0)} verified, {hands.get('discrepancy', 0)} with "
            f"discrepancies, {hands.get('quarantined', 0)} quarantined; {self.findings} "
            f"finding{'s' * (self.findings != 1)}" + (f", worst {self.worst}" if self.worst else "")
            + "; fair play "
            + fairplay_words(self.fairplay, self.suspicions, self.fairplay_skipped)
            + "; shuffle "
            + shuffle_words(self.rng, self.shuffle_tests, self.shuffle_failed, self.shuffle_weak,
                            self.shuffle_too_few)
            + f"; outputs in {self.folder}"
            + self._database()
            + self._unsaid()
        )

    def _unsaid(self) -> str:
        """The night before this one, when its run committed it and stopped before it
        could say it: a retry that found new files says both nights (a blind tester's
        retry with new files said only the new night, and exited 0 after a critical one)."""
        if not self.unfinished:
            return ""
        return (f"; night {self.night - 1} was committed by a run that stopped before it "
                f"could say so: {self.unfinished}, exit status {self.unfinished_status}")

    def _database(self) -> str:
        """The words about ``history.duckdb``, when it was not simply brought up."""
        return f"; {self.database}" if self.database else ""

    @staticmethod
    def _again(n: int) -> str:
        """``: 999 games of earlier nights audited again, their findings with them``: a
        blind tester's night read as a new critical night where only a rewritten file's
        games, audited again, repeated an earlier night's findings."""
        if not n:
            return ""
        return (f": {n} game{'s' * (n != 1)} of earlier nights audited again, "
                f"{'their' if n != 1 else 'its'} findings with them")  # fmt: skip

    def _late(self) -> str:
        """The games of earlier nights audited again for rows of theirs in tonight's new
        files (until 2026-12-06 the line said none: a blind tester's night whose one new
        file re-sent a results row of a game judged two nights before raised that game's
        finding again, said nowhere but nightly.json; and counted them under a rewritten
        file when the night held one)."""
        if not self.late:
            return ""
        n, theirs = self.late, "their" if self.late != 1 else "its"
        return (f", {n} game{'s' * (n != 1)} of earlier nights audited again for {theirs} "
                f"rows in the new files (sent again or late), {theirs} findings with them")

    def _held(self) -> str:
        """Why games carried in were carried on, when a refused file holds their end."""
        if self.held:
            return (f", {self.held} carried on: {'their' if self.held > 1 else 'its'} games "
                    "row tonight is in a file that could not be read")  # fmt: skip
        if self.unread_games and self.carried_in > self.ended:
            files, still = ", ".join(self.unread_games), self.carried_in - self.ended
            return f"; {files} could not be read and may hold the end of the {still} carried on"
        return ""


def nightly_logs(
    *,
    logs: Path,
    state: Path,
    workers: int | None = None,
    fail_on: Severity = Severity.MAJOR,
    progress: bool | None = None,
    fairplay: bool = True,
    rng: bool = True,
    rules: Path | None = None,
    say: Callable[[NightSummary], None] | None = None,
) -> NightSummary:
    """Audit what is new in ``logs`` since the last night committed in ``state``; with
    ``rules``, under the platform's rulesets of that folder as ``replay_logs`` does.

    ``say`` says the night's line; it is called before ``work/`` (and ``work/committed``
    with it) is removed, so that a run killed in between leaves the night unsaid for the
    retry to say (a blind tester: killed after ``work/`` went and before the line reached
    the scheduler's pipe, the night's findings and status were never said)."""
    check_log_root(logs)
    load_rules(rules)  # a broken --rules folder is refused on a night with nothing new too
    where, root = state.resolve(), logs.resolve()
    if where == root or root in where.parents or where in root.parents:
        raise AuditError(
            f"--state {state} and the log root {logs} overlap; keep the state outside the "
            "log root",
            slug="state",
        )
    with open_state(state) as st:
        committed = load_committed(st)
        database, held = finish(st)
        try:
            summary = _night(st, committed, logs, workers, fail_on, progress, fairplay, rng,
                             rules)  # fmt: skip
        except BaseException:
            shutil.rmtree(st.work, ignore_errors=True)
            raise
        if not summary.database and not (summary.audited and held):  # else the end's words
            summary = replace(summary, database=database)
        if st.unsaid:
            status, words = _unsaid(committed, st.night)
            summary = replace(summary, unfinished=words, unfinished_status=status,
                              exit_status=max(status, summary.exit_status))  # fmt: skip
        if say is not None:
            say(summary)
        shutil.rmtree(st.work, ignore_errors=True)  # work/committed with it: said
    return summary


def finish(st: State, after_commit: bool = False) -> tuple[str, bool]:
    """What follows the commit of the last night, done again at every start (a run may
    have been killed after its commit): the history database brought to it, the carried
    rows of older nights removed. The words for the line about the database ("" when it
    was up to date): rebuilt when it was missing, brought up when it was behind (its run
    stopped first, or found it open), not brought up when another process has it open;
    and whether another process has it open.

    ``history.duckdb`` is a copy of the committed night's ``history/`` and
    ``carry/seen.parquet``, which nothing of a night reads: one open in another process
    (an analyst's query holds DuckDB's lock on it) is no damage, so the night goes on, and
    the first run that finds it closed brings it up, keyed by the night, every file once
    (a blind tester's run called the state damaged and exited 2 for a reader's lock, the
    night committed)."""
    last = st.last
    path = st.folder / HISTORY_DB
    missing = not path.exists()
    held = None
    with reading(st.folder, path, REBUILD):
        try:
            behind = sync_database(path, last, st.night,
                                   last / CARRY / SEEN if last is not None else None)  # fmt: skip
        except duckdb.Error as error:
            held = held_by(error)
            if held is None:
                raise  # damaged: cannot be read
            behind = False
    if st.nights.is_dir():
        for folder in sorted(st.nights.iterdir()):
            if folder.name.isdigit() and int(folder.name) < st.night:
                shutil.rmtree(folder / CARRY, ignore_errors=True)
    if held is not None:
        if not after_commit and recorded_night(path) == st.night:
            return "", True  # up to date already: the reader's lock is no matter
        return (f"{HISTORY_DB} is open in another process ({held + '; ' if held else ''}a "
                f"query?), so it was not brought up to night {st.night}: the next run brings "
                "it up to date once it is closed"), True  # fmt: skip
    if not behind or last is None or after_commit:
        return "", False
    if missing:
        return (f"{HISTORY_DB} was missing: rebuilt from night {st.night}'s history/ and "
                "carry/seen.parquet"), False  # fmt: skip
    return f"{HISTORY_DB} was behind: brought up to night {st.night}", False


def _unsaid(committed: Committed, night: int) -> tuple[int, str]:
    """The exit status of ``night`` and the words for it, from its history row: its run
    committed it and stopped before it could say it, so the run that finds nothing new
    says it and exits with its status (a blind tester's retried job exited 0 on a night
    with critical findings)."""
    row = next((r for r in committed.history.get("nights", []) if r["night"] == night), {})
    n, worst = int(row.get("findings") or 0), row.get("worst_severity")
    words = f"{n} finding{'s' * (n != 1)}" + (f", worst {worst}" if worst else "")
    return int(row.get("exit_status") or 0), words


@dataclass(frozen=True)
class Committed:
    """What the last committed night left the next one, read whole before a night runs
    (``load_committed``)."""

    seen: list[SeenFile]
    """Every file taken so far (its ``carry/seen.parquet``)."""
    running: dict[str, int]
    """The games it carried, and since which night (its ``carry/running.parquet``)."""
    carried: Path | None
    """Their rows (its ``carry/logs/``); None before the first night."""
    history: dict[str, list[dict[str, Any]]]
    """The history as of that night (its ``history/``)."""
    unread: list[Unread] = field(default_factory=list)
    """The refused files that may hold rows of the games it carried (its ``nightly.json``'s
    ``carry.unread_files``)."""
    seats: Path | None = None
    """The seats it kept for ``table.limit`` (its ``carry/seats.parquet``); None when its
    ``nightly.json`` counts none (a night of an older rummy-audit kept none)."""
    listed: list[ListedFile] = field(default_factory=list)
    """Every file listed so far without being read (its ``carry/listed.parquet``; none
    when a night of an older rummy-audit kept none)."""


def load_committed(st: State) -> Committed:
    """The last committed night's carry and history. A state folder without one of them,
    with one that cannot be read, or whose carried rows are not those its ``nightly.json``
    counts is refused on one line (``damaged``), before anything is taken: a night run
    over it would take every file as new, or judge a running game without its earlier
    rows, and commit that for good. Nothing is mended here."""
    last = st.last
    if last is None:
        return Committed([], {}, None, {name: [] for name in SCHEMAS})
    carry = last / CARRY
    if not carry.is_dir():
        raise damaged(
            st.folder, f"{in_state(st.folder, carry)}/, what the night left the next, is missing"
        )
    tables = {name: history_file(last, name) for name in SCHEMAS}
    for path in (last / NIGHTLY, carry / SEEN, carry / RUNNING, *tables.values()):
        if not path.is_file():
            raise damaged(st.folder, f"{in_state(st.folder, path)} is missing")
    with reading(st.folder, last / NIGHTLY):
        data = json.loads((last / NIGHTLY).read_text(encoding="utf-8"))
    carry_data = data.get("carry") if isinstance(data, dict) else None
    counted = carry_data.get("carried_rows") if isinstance(carry_data, dict) else None
    if not isinstance(counted, dict):
        raise damaged(
            st.folder, f"{in_state(st.folder, last / NIGHTLY)} does not count its carried rows"
        )
    with reading(st.folder, carry / SEEN):
        seen = read_seen(carry / SEEN)
    with reading(st.folder, carry / RUNNING):
        running = read_running(carry / RUNNING)
    history = {}
    for name, path in tables.items():
        with reading(st.folder, path):
            history[name] = read_history_table(last, name)
    logs = carry / LOGS
    if counted and not logs.is_dir():
        raise damaged(
            st.folder, f"{in_state(st.folder, logs)}/, the rows of the games it carried, is missing"
        )
    found: Counter[str] = Counter()
    for path in sorted(logs.rglob("*.parquet")) if logs.is_dir() else []:
        with reading(st.folder, path):
            found[path.relative_to(logs).parts[0]] += pq.ParquetFile(path).metadata.num_rows
    for table in sorted(set(found) | set(counted)):
        if found[table] != counted.get(table, 0):
            raise damaged(
                st.folder,
                f"{in_state(st.folder, logs)}/ holds {found[table]} carried {table} rows, not the "
                f"{counted.get(table, 0)} night {st.night} carried",
            )
    listed = carry_data.get("unread_files", []) if isinstance(carry_data, dict) else []
    unread = [Unread(str(u["table"]), str(u["path"]), str(u["sha256"]), int(u["night"]))
              for u in listed]  # fmt: skip
    seats = _kept_seats(st, carry_data.get("seats") if isinstance(carry_data, dict) else None)
    with reading(st.folder, carry / LISTED):
        listed = read_listed(carry / LISTED)
    return Committed(seen, running, logs, history, unread, seats, listed)


def _kept_seats(st: State, counted: object) -> Path | None:
    """The last night's ``carry/seats.parquet``, checked against the count its
    ``nightly.json`` gives (``carry.seats``); None when it gives none."""
    if counted is None:
        return None
    path = st.night_folder(st.night) / CARRY / SEATS
    if not path.is_file():
        raise damaged(st.folder, f"{in_state(st.folder, path)} is missing")
    with reading(st.folder, path):
        found = pq.ParquetFile(path).metadata.num_rows
    if found != counted:
        raise damaged(st.folder, f"{in_state(st.folder, path)} holds {found} seats, not the "
                      f"{counted} night {st.night} kept")  # fmt: skip
    return path


def _night(
    st: State,
    committed: Committed,
    logs: Path,
    workers: int | None,
    fail_on: Severity,
    progress: bool | None,
    fairplay: bool,
    rng: bool,
    rules: Path | None = None,
) -> NightSummary:
    last = st.last
    seen = committed.seen
    night = st.night + 1
    st.work.mkdir()
    if st.unsaid:  # still not said if this run stops too
        st.mark(st.night)
    intake = take(logs, seen, st.work / "incoming", committed.listed, night)
    checkpoint("taken")
    if not intake.taken and not intake.refused_listed:
        # A writer's own file alone makes no night (a job still writing): the line names
        # it, and the next night audited lists it.
        return NightSummary(st.night, False, last, seen_before=len(intake.seen_before),
                            duplicates=len(intake.duplicates), running=len(committed.running),
                            skipped=tuple(f.path for f in intake.skipped_listed))  # fmt: skip
    folder = st.work / night_name(night)
    night_root = st.work / "logs"
    # A rewritten file's games are audited again whole: their rows in earlier files too.
    again = reaudit_rows(logs, intake, seen, set(committed.running), st.work / "reaudit",
                         partial(_games_of_night, st), partial(_judged_before, st))  # fmt: skip
    # The files no table reads go to the replay as they are, which refuses them (or, a
    # writer's own, an empty file of its name: the replay reads only the name and lists it).
    refused_listed = [TakenFile(f.table, f.path, f.sha256, f.size, "listed", f.copy)
                      for f in intake.refused_listed if f.copy is not None]  # fmt: skip
    split = split_night(
        taken=[*intake.taken, *again.files, *refused_listed],
        carried=committed.carried,
        since=committed.running,
        rewritten=set(intake.rewritten),
        tables=intake.tables,
        night=night,
        audit_root=night_root,
        carry_root=folder / CARRY,
        refused={**intake.refused, **{f.path: "no table reads it" for f in refused_listed}},
        unread=committed.unread,
    )
    for item in intake.skipped_listed:
        (night_root / item.path).parent.mkdir(parents=True, exist_ok=True)
        (night_root / item.path).touch()
    checkpoint("split")
    earlier = _earlier(logs, intake, [*committed.unread, *again.refused], st.work / "earlier")
    seats = tonight_seats(committed.seats, again.games, st.work / SEATS)
    # The intake took each file once (``inputs.take``); the root's copies of rows are
    # rows sent twice (an earlier night's beside tonight's), not one file twice.
    replay = replay_logs(logs=night_root, out=folder, workers=workers, fail_on=fail_on,
                         progress=progress, fairplay=fairplay, rng=rng, rules=rules,
                         earlier=earlier, seats=seats, one_copy=False)  # fmt: skip
    checkpoint("replayed")
    kept = keep_seats(earlier=seats, sessions=_inputs(folder, night_root, "sessions"),
                      games=_inputs(folder, night_root, "games"),
                      carried=sorted((folder / CARRY / LOGS / "sessions").rglob("*.parquet")),
                      root=night_root, into=folder / CARRY / SEATS)  # fmt: skip
    _rewrite_arguments(folder, logs, night)
    changed = _rules_changed(last, folder)
    split_paths = {path for path, _, _ in split.split_files}
    renumber(folder / "quarantine.parquet",
             {p: rows for p, rows in again.rows.items() if p not in split_paths})  # fmt: skip
    write_json(folder / NIGHTLY, {**_nightly_json(night, logs, intake, split, again.games, kept),
                                  "rules_changed": list(changed)})  # fmt: skip
    write_seen(folder / CARRY / SEEN, [*seen, *intake.seen_files(night)])
    write_listed(folder / CARRY / LISTED, [*committed.listed, *intake.listed])
    facts = NightFacts(
        night=night,
        files_new=sum(1 for f in intake.taken if f.status == "new"),
        files_rewritten=len(intake.rewritten),
        files_seen_before=len(intake.seen_before),
        files_duplicate=len(intake.duplicates),
        games_carried_in=len(split.carried_in),
        games_ended=len(split.ended),
        games_running=len(split.running),
        unread=tuple((item.table, item.path) for item in earlier),
    )
    past = committed.history
    rows = tonight(facts, folder, night_root, past)
    write_history(folder, merge(past, rows, night))
    write_report(folder)
    checkpoint("reported")
    st.nights.mkdir(exist_ok=True)
    target = st.night_folder(night)
    os.replace(folder, target)
    sync_folder(st.nights)
    checkpoint("renamed")
    done = st.commit(night)
    checkpoint("committed")
    try:
        database, _ = finish(done, after_commit=True)
    except AuditError as error:  # a copy of what is committed: the night is still said
        why = error.why if isinstance(error, StateDamaged) else str(error)
        database = f"{HISTORY_DB} was not brought up to night {night}: {why}"
    checkpoint("finished")
    suspicions = sum(n for check, n in replay.findings.items() if check.startswith("fairplay."))
    return NightSummary(
        night=night,
        audited=True,
        folder=target,
        taken=len(intake.taken),
        rewritten=len(intake.rewritten),
        reaudited=len(again.games),
        late=len(again.late),
        seen_before=len(intake.seen_before),
        duplicates=len(intake.duplicates),
        carried_in=len(split.carried_in),
        ended=len(split.ended),
        running=len(split.running),
        held=len(split.held),
        unread_games=tuple(split.unread_games),
        hands=replay.hands,
        findings=sum(replay.findings.values()),
        worst=replay.worst.value if replay.worst else None,
        suspicions=suspicions,
        shuffle_failed=sum(n for c, n in replay.findings.items() if c.startswith("rng.")),
        shuffle_weak=replay.rng_weak,
        fairplay=replay.fairplay,
        rng=replay.rng,
        shuffle_tests=replay.rng_tests,
        shuffle_too_few=replay.rng_too_few,
        fairplay_skipped=replay.fairplay_skipped,
        exit_status=replay.exit_status,
        opening=replay.opening,
        rules_changed=changed,
        database=database,
    )


def _rules_changed(last: Path | None, folder: Path) -> tuple[str, ...]:
    """The platform rulesets whose text tonight (run.json's ``rulesets``, by id and the
    SHA-256 of the file) is not the last committed night's: ``acme-13 (its text)``, ``acme-
    vip (new)``, ``acme-pool (not given)``. A game carried across the change is judged
    whole under tonight's text, so its earlier hands too (a blind tester's carried game
    had five findings from a cap changed between the nights, and the night said nothing
    of it); nothing on the first night."""
    if last is None:
        return ()
    try:
        before, now = (
            {str(r["id"]): str(r["sha256"]) for r in read_run(f).get("rulesets", [])}
            for f in (last, folder)
        )
    except (AuditError, KeyError, TypeError):
        return ()  # an older night's run.json, without rulesets: nothing to compare
    return tuple(
        f"{rid} ({'new' if rid not in before else 'not given' if rid not in now else 'its text'})"
        for rid in sorted(before.keys() | now.keys())
        if before.get(rid) != now.get(rid)
    )


def _earlier(logs: Path, intake: Intake, unread: list[Unread], into: Path) -> list[EarlierRefused]:
    """The files earlier nights refused that may hold rows of the games judged tonight
    (the last night's list for the games carried in, and those of the games audited again;
    a file rewritten tonight left out: it is audited again as it is now), for the replay
    to name where their rows are missing, as one replay of every night's files names them.
    Each is copied from wherever its content is tonight, for the hand ids it still holds
    (none when it is gone or changes while read)."""
    where = {row.sha256: path for path, row in sorted(intake.known.items(), reverse=True)}
    out = []
    for item in unread:
        if item.path in intake.rewritten:
            continue
        source: Path | None = None
        if item.sha256 in where:
            source = into / where[item.sha256]
            source.parent.mkdir(parents=True, exist_ok=True)
            try:
                copied = copy_file(logs / where[item.sha256], source)
            except OSError:
                copied = ""
            source = source if copied == item.sha256 else None
        out.append(EarlierRefused(item.table, item.path, source))
    return out


def _games_of_night(st: State, night: int) -> set[str]:
    """The games committed night ``night`` audited (its hands) or carried (running)."""
    folder = st.night_folder(night)
    games: set[str] = set()
    hands = folder / "hands.parquet"
    if hands.is_file():
        with reading(st.folder, hands):
            column = pq.read_table(hands, columns=["game_id"]).column("game_id")
        games.update(g for g in column.unique().to_pylist() if g is not None)
    if (folder / NIGHTLY).is_file():
        with reading(st.folder, folder / NIGHTLY):
            data = json.loads((folder / NIGHTLY).read_text(encoding="utf-8"))
        games.update(data.get("carry", {}).get("running", {}))
    return games


def _judged_before(st: State, games: set[str], hands: set[str]) -> set[str]:
    """Of ``games`` and the games of ``hands``, those a committed night judged (its
    ``hands.parquet``): one DuckDB scan of the nights' hands, their ids only."""
    files = sorted(str(p) for p in st.nights.glob("*/hands.parquet")) if st.nights.is_dir() else []
    if not files or not (games or hands):
        return set()
    with reading(st.folder, st.nights), duck.connect() as db:
        db.register("tonight_games", pa.table({"id": pa.array(sorted(games), pa.string())}))
        db.register("tonight_hands", pa.table({"id": pa.array(sorted(hands), pa.string())}))
        rows = db.execute(
            "SELECT DISTINCT game_id FROM read_parquet($files)"
            " WHERE game_id IN (SELECT id FROM tonight_games)"
            " OR hand_id IN (SELECT id FROM tonight_hands)",
            {"files": files},
        ).fetchall()
    return {game for (game,) in rows if game is not None}


def _inputs(folder: Path, root: Path, table: str) -> list[Path]:
    """The files of ``table`` the replay in ``folder`` read (its run.json's inputs: the
    refused ones are not among them), under the log root ``root``."""
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    return [root / i["path"] for i in run["inputs"] if i["table"] == table]


def _rewrite_arguments(folder: Path, logs: Path, night: int) -> None:
    """run.json names the log root as given and the night's folder relative to the state
    folder, not the run's work folder (which is gone once the night is committed)."""
    path = folder / "run.json"
    run = json.loads(path.read_text(encoding="utf-8"))
    run["arguments"] = {
        **run["arguments"],
        "command": "nightly",
        "logs": str(logs),
        "out": f"nights/{night_name(night)}",
        "night": night,
    }
    write_json(path, run)


def _nightly_json(
    night: int, logs: Path, intake: Intake, split: Split, reaudited: list[str], seats: int
) -> dict[str, Any]:
    return {
        "night": night,
        "logs": str(logs),
        "files": {
            "taken": [
                {"table": f.table, "path": f.path, "sha256": f.sha256, "size": f.size,
                 "status": f.status}
                for f in intake.taken
            ],
            "seen_before": len(intake.seen_before),
            "duplicates": [{"path": p, "same_as": q} for p, q in intake.duplicates],
            "listed": [
                {"table": f.table, "path": f.path, "sha256": f.sha256, "size": f.size,
                 "kind": f.kind}
                for f in intake.listed
            ],
            "listed_before": intake.listed_before,
        },
        "reaudited_games": reaudited,
        "carry": {
            "carried_in": split.carried_in,
            "ended": split.ended,
            "running": split.running,
            "replaced_games_rows": split.replaced_games_rows,
            "dropped_rewritten": split.dropped,
            "split_files": [
                {"path": p, "audited_rows": a, "carried_rows": c} for p, a, c in split.split_files
            ],
            "carried_rows": dict(sorted(split.carried_rows.items())),
            "placeholders": split.placeholders,
            "held": split.held,
            "unread_files": [u.to_json() for u in split.unread],
            "seats": seats,
        },
    }
