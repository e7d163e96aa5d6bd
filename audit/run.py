"""One nightly run: read the log root, replay every hand, check every game, write the outputs.

``replay_logs(...)`` is what ``rummy-audit replay`` calls. Games are audited in worker
processes (spawn) in batches of complete games; results do not depend on how many workers
ran them, because every output is sorted by stable keys before it is written.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb

from audit import __version__, duck
from audit.consistency import check_one_run, check_sections, count_games
from audit.errors import AuditError, one_line
from audit.findings import Finding, Severity
from audit.logs.footer import ignored_columns
from audit.logs.quarantine import input_findings, took, took_words
from audit.logs.reader import (
    EarlierRefused,
    LogRoot,
    Staging,
    bucket_count,
    open_log_root,
    orphans,
    read_bucket,
    staging,
)
from audit.logs.unused import ignored_values
from audit.nightwide import night_checks, scan
from audit.output import (
    OUTPUT_VERSION,
    Parts,
    check_outputs,
    nightly_night,
    read_findings,
    read_run,
    write_findings,
    write_json,
    write_rng,
    write_suspicions,
)
from audit.progress import progress_bar
from audit.records import HandRow, QuarantineRow
from audit.report.render import write_report
from audit.rules import memo
from audit.rules.registry import PlatformRules, load_rules, using
from audit.shuffle.schemes import commitment_counts
from audit.unit import audit_games

if TYPE_CHECKING:
    from audit.fairplay.night import FairPlay
    from audit.shuffle.night import ShuffleAudit

# ------------------------------------------------------------ execution

T = TypeVar("T")


def audit_bucket(parts: Path, stage: Staging, bucket: int) -> int:
    """Read one bucket of complete games, audit it under the platform's rulesets the
    staging carries (built once per process) and write its results into the ``Parts``
    folder ``parts``, batch by batch: one worker's unit of work. Only the number of hands
    goes back, so a worker holds one batch's results at a time whatever the size of its
    bucket, and the parts are written by the workers side by side. The parts are named by
    bucket and batch: a task run again (a lost Dask worker) writes the same parts again."""
    quarantine: list[QuarantineRow] = []
    out = Parts(parts)
    hands = 0
    memo.bound()  # a long-lived worker's caches stay the size of a short night's
    with using(stage.rulesets):
        for index, batch in enumerate(read_bucket(stage, bucket, quarantine)):
            result = audit_games(batch, missing=frozenset(stage.missing), damaged=stage.damaged,
                                 ledger_rows=stage.ledger_rows)  # fmt: skip
            name = f"b{bucket:06d}-{index:05d}"
            out.add("hands", result.hands, name)
            out.add("findings", result.findings + input_findings(result.quarantine), name)
            out.add("quarantine", result.quarantine, name)
            out.add("took", took(result.quarantine), name)
            out.add("pile", result.pile, name)
            out.add("drops", result.drops, name)
            hands += len(result.hands)
    out.add("quarantine", quarantine, f"b{bucket:06d}")
    out.add("findings", input_findings(quarantine), f"b{bucket:06d}")
    out.add("took", took(quarantine), f"b{bucket:06d}")
    return hands


def warm() -> None:
    """Nothing: a pool's process that runs it imports this module first, and with it all
    that a worker runs, while the staging runs."""


@contextmanager
def _pool(workers: int) -> Iterator[ProcessPoolExecutor | None]:
    """A spawn pool of ``workers`` processes, already importing what they run (so they
    start while the staging runs), or None for none (``workers`` 0). One worker is a
    process too: the audit's caches then never sit beside the staging and the sorted
    outputs of the main process, and the peak of each is its own."""
    if workers <= 0:
        yield None
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_die_with, initargs=(os.getpid(),)
    ) as pool:
        for _ in range(workers):
            pool.submit(warm)
        yield pool


def _die_with(parent: int) -> None:
    """A worker's first act: on Linux, ask to be killed when the process that started it
    dies (``PR_SET_PDEATHSIG``), so a run killed with kill -9 leaves no worker behind
    (the pool's own shutdown needs the parent alive); and go at once if it is gone."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(signal.SIGKILL))  # PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the request was made
        os._exit(1)


def run_buckets(
    stage: Staging,
    workers: int,
    on_done: Callable[[T], None],
    work: Callable[[Staging, int], T],
    *,
    scheduler: str | None = None,
    pool: ProcessPoolExecutor | None = None,
) -> None:
    """Run ``work`` (``audit_bucket``, or what-if's) on every bucket: in-process (a single
    bucket, or one worker and no ``pool``), in a spawn process pool, or on the Dask
    cluster whose scheduler is at ``scheduler``; ``on_done`` gets what ``work`` returns
    for each bucket as it finishes (the replay's workers write their results to disk
    themselves and return a count of hands). ``pool``, a pool already started
    (``_pool``), is used instead of a new one.
    ``work`` must pickle: a module-level function, or a ``functools.partial`` of one.

    Workers read their bucket themselves, so only what ``work`` returns crosses between
    processes (or the network); each holds one bucket at a time.
    """
    if scheduler is not None:
        from audit.cluster import run_on_cluster  # distributed: an optional extra

        run_on_cluster(scheduler, work, stage, on_done)
        return
    if stage.buckets == 1 or (pool is None and workers <= 1):
        for bucket in range(stage.buckets):
            on_done(work(stage, bucket))
        return
    if pool is None:
        with _pool(workers) as own:
            run_buckets(stage, workers, on_done, work, pool=own)
        return
    running = {pool.submit(work, stage, b) for b in range(stage.buckets)}
    for future in as_completed(running):
        running.discard(future)  # a done future holds its result: let it go once used
        on_done(future.result())


def _all_reached(parts: Parts, audited: int, out: Path, scheduler: str | None) -> None:
    """Stop when the workers audited more hands than their results on disk hold: a Dask
    worker that does not see ``--out`` where this process does writes its results where
    nobody reads them, and the night would read as one of fewer hands (a blind tester's
    cluster gave "0 hands", exit 0)."""
    rows = parts.query("hands", "SELECT count(*) FROM parts")
    reached = rows[0][0] if rows else 0
    if reached < audited:
        where = (
            f"every worker of the cluster at {scheduler} must see --out {out} at the same path"
            if scheduler is not None
            else f"the workers could not write them under --out {out}"
        )
        raise AuditError(
            f"the workers audited {audited} hand{'s' * (audited != 1)} but the results of "
            f"only {reached} reached this process: {where}; nothing was written",
            slug="scheduler" if scheduler is not None else "workers",
        )


def unplaced(lost: dict[str, tuple[str | None, str]], seen: set[str]) -> list[HandRow]:
    """A quarantined row of hands.parquet for every hand that events or results name but
    no game yielded (its hands row is lost and its game unknown; ``seen`` holds the lost
    hands some game did yield): every hand any readable table names is accounted for."""
    return [
        HandRow(hand_id, game, None, None, None, None, "quarantined", 0, None, why)
        for hand_id, (game, why) in sorted(lost.items())
        if hand_id not in seen
    ]


BUCKET_EVENTS = 125_000
"""At most this many events per bucket, whatever the size of the night: reading a bucket
is what a worker's memory grows with (a bucket of a million events took it to about 530
MiB, 700 with its results held until the bucket ended). 125,000 rather than 250,000: with
batches of 50,000 events (``audit.logs.bucket.BATCH_EVENTS``) a worker's peak on the
million-hand night went from about 418 to 341 MiB, and the whole run's on 2 workers from
1,036 to 880 MiB (benchmarks/README.md, "Scale"). A bucket's folder holds every 32nd
bucket (``audit.logs.reader.PARTITIONS``), whose row groups a worker skips
(``audit.logs.reader._hand_map``), so more buckets cost little more to read."""


def bucket_rows(event_rows: int, workers: int) -> int:
    """Events per bucket: at most ``BUCKET_EVENTS``, and fewer when that gives every worker
    about six buckets to even out the load (with two, one worker sat idle for a fifth of
    the run), down to 50,000."""
    return max(50_000, min(BUCKET_EVENTS, event_rows // (6 * max(1, workers))))


@dataclass(frozen=True)
class RunSummary:
    hands: Counter[str]
    findings: Counter[str]
    worst: Severity | None
    exit_status: int
    out: Path
    fairplay: bool = True
    """The fair-play detectors ran."""
    rng: bool = True
    """The shuffle tests ran."""
    unreadable: tuple[str, ...] = ()
    """The input files that could not be read (paths relative to the log root)."""
    lost_hands: int = 0
    """Hands that other tables name but whose hands row could not be read or is missing."""
    rng_tests: int = 0
    """Shuffle tests that had enough shoes to run (0: the tests ran, but none could)."""
    rng_weak: int = 0
    """The shuffle checks (``rng.*`` findings) at ``info``: weak evidence, not failed."""
    rng_too_few: int = 0
    """Shuffle tests that could not run for too few shoes (run.json's ``too_few_shoes``)."""
    fairplay_skipped: tuple[str, ...] = ()
    """The fair-play detectors that did not run though the others did (run.json's
    ``skipped``: a table missing, a clock that does not time decisions)."""

    @property
    def cause(self) -> str:
        """What to look at first, when input could not be read: ``""`` otherwise.

        >>> print(RunSummary(Counter(), Counter(), None, 0, Path("out"),
        ...            unreadable=("hands/a.parquet",), lost_hands=12).cause)
        ... # doctest: +NORMALIZE_WHITESPACE
        1 input file could not be read (hands/a.parquet), and 12 hands named in other tables
        are quarantined for want of their hands row
        >>> print(RunSummary(Counter(), Counter(), None, 0, Path("out"), lost_hands=1).cause)
        1 hand named in other tables is quarantined for want of its hands row
        """
        if not self.unreadable and not self.lost_hands:
            return ""
        files = len(self.unreadable)
        parts = []
        if files:
            shown = ", ".join(self.unreadable[:3]) + (f" and {files - 3} more" * (files > 3))
            plural = "s" if files > 1 else ""
            parts.append(f"{files} input file{plural} could not be read ({shown})")
        if self.lost_hands:
            one = self.lost_hands == 1
            parts.append(
                f"{self.lost_hands} hand{'' if one else 's'} named in other tables "
                f"{'is' if one else 'are'} quarantined for want of {'its' if one else 'their'} "
                "hands row"
            )
        return ", and ".join(parts)

    @property
    def opening(self) -> str:
        """The cause as the first sentence of a summary line (``replay``'s, ``nightly``'s);
        ``""`` when there is none.

        >>> RunSummary(Counter(), Counter(), None, 0, Path("out"), lost_hands=1).opening
        '1 hand named in other tables is quarantined for want of its hands row. '
        """
        cause = self.cause
        return f"{cause[0].upper()}{cause[1:]}. " if cause else ""


def clear_stale_staging(out: Path) -> list[Path]:
    """Remove the staging folders a killed run left in ``out`` and return them.

    A run stages under ``OUT/.rummy-audit-<pid>-<random>``, ``<pid>`` its process's; a
    folder whose process is gone (``os.kill(pid, 0)`` finds none) was left by a run that
    could not clean up (kill -9). A live run's folder, an unreadable pid and any other
    name are left alone.
    """
    removed = []
    for path in sorted(out.glob(".rummy-audit-*")):
        match = re.fullmatch(r"\.rummy-audit-([1-9]\d{0,9})-\w+", path.name)
        if match is None or path.is_symlink() or not path.is_dir():
            continue
        try:
            os.kill(int(match.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        except (PermissionError, OverflowError):
            pass  # another user's live process, or no pid at all: never guess
    return removed


def replay_logs(
    *,
    logs: Path,
    out: Path,
    workers: int | None = None,
    fail_on: Severity = Severity.MAJOR,
    progress: bool | None = None,
    fairplay: bool = True,
    rng: bool = True,
    scheduler: str | None = None,
    rules: Path | None = None,
    earlier: Sequence[EarlierRefused] = (),
    seats: Path | None = None,
    one_copy: bool = True,
) -> RunSummary:
    """Replay a log root into ``out``, then (unless ``fairplay`` or ``rng`` is false) run
    the fair-play detectors and the shuffle tests over it; raises ``AuditError`` when the
    run cannot be done. With ``scheduler`` (a Dask scheduler's address), the buckets are
    audited on that cluster instead of ``workers`` local processes: the same bytes. With
    ``rules``, a folder of platform ruleset files (``audit.rules.registry``), a game naming
    one of their ids is replayed under it (the presets answer every other id).
    ``earlier``: the files an earlier nightly night refused that may hold rows of these
    games, named where rows are missing as if they were among the log root's refused;
    ``seats``: the seats earlier nightly nights judged, for ``table.limit``
    (``table_limit_findings``' ``earlier``); ``one_copy``: a file with the same rows as
    another is read once (``reader.open_log_root``)."""
    started = time.perf_counter()
    platform = load_rules(rules)
    given, workers = workers, workers or os.cpu_count() or 1
    if out.exists() and not out.is_dir():
        raise AuditError(f"--out {out} exists and is not a folder", slug="out")
    where, root = out.resolve(), logs.resolve()
    if where == root or root in where.parents:
        raise AuditError(
            f"--out {out} is {'the log root' if where == root else 'inside the log root'} "
            f"{logs}; write the outputs outside it",
            slug="out",
        )
    log = open_log_root(logs, one_copy=one_copy)
    log.earlier = list(earlier)
    out.mkdir(parents=True, exist_ok=True)
    clear_stale_staging(out)
    opened = time.perf_counter()
    quarantine: list[QuarantineRow] = list(log.bad_files)
    show = sys.stderr.isatty() if progress is None else progress
    expected_hands = sum(f.rows for f in log.files.get("hands", []))
    event_rows = sum(f.rows for f in log.files.get("events", []))
    target = bucket_rows(event_rows, workers)
    # The local pool starts while DuckDB stages; one bucket runs in this process.
    local = workers if scheduler is None and bucket_count(event_rows, target) > 1 else 0
    # Absolute: a Dask worker reads the staged buckets with its own working directory.
    scratch = tempfile.TemporaryDirectory(prefix=f".rummy-audit-{os.getpid()}-", dir=where)
    with scratch as workdir:
        parts = Parts(Path(workdir) / "parts")
        with (
            _pool(local) as pool,
            staging(log, quarantine=quarantine, target_rows=target, workdir=Path(workdir),
                    rulesets=platform) as stage,
            progress_bar(show, expected_hands) as tick,
        ):  # fmt: skip
            work = partial(audit_bucket, parts.folder)
            audited: list[int] = []

            def done(hands: int) -> None:
                audited.append(hands)
                tick(hands)

            run_buckets(stage, workers, done, work, scheduler=scheduler, pool=pool)
            lost = orphans(stage)
        _all_reached(parts, sum(audited), out, scheduler)
        seen = parts.query("hands", "SELECT hand_id FROM parts WHERE list_contains($ids, hand_id)",
                           {"ids": sorted(lost)})  # fmt: skip
        parts.add("hands", unplaced(lost, {hand for (hand,) in seen}))
        parts.add("quarantine", quarantine)
        parts.add("took", took(quarantine))
        # Each refused file's one finding says what it took out alone (blind testers: a
        # refused results file was 300 findings, one per hand and one per game).
        taken = took_words(parts.query("took", "SELECT DISTINCT * FROM parts"))
        parts.add("findings", input_findings(quarantine, taken) + night_checks(log, seats))
        replayed = time.perf_counter()

        quarantined = parts.write("quarantine", out / "quarantine.parquet")
        parts.write("hands", out / "hands.parquet")
        parts.write("pile", out / "pile.parquet")
        parts.write("drops", out / "drops.parquet")
        hands = Counter(dict(parts.query("hands", "SELECT status, count(*) FROM parts GROUP BY 1")))
        written = time.perf_counter()
        idle = _idle(hands)
        with using(platform):
            fair = _fairplay(log, out) if fairplay and not idle else None
        if fair is not None:
            parts.add("findings", [s.to_finding() for s in fair.suspicions])
        else:
            (out / SUSPICIONS).unlink(missing_ok=True)  # a stale night's would mislead
        detected = time.perf_counter()
        with using(platform):
            shuffles = _shuffles(log, out) if rng and not idle else None
        if shuffles is not None:
            parts.add("findings", shuffles.findings())
        else:
            (out / RNG).unlink(missing_ok=True)
        checked = time.perf_counter()
        parts.write("findings", out / "findings.parquet")
        tally = parts.query("findings", _TALLY)
    games = count_games(out / "hands.parquet", out / "findings.parquet")
    run: dict[str, Any] = {
        "tool": "rummy-audit",
        "version": __version__,
        "output_version": OUTPUT_VERSION,
        "arguments": {
            "logs": str(logs),
            "out": str(out),
            "workers": given,  # as given: null for one per core (no machine's count)
            "fail_on": fail_on.value,
            "fairplay": fairplay,
            "rng": rng,
            **({"scheduler": scheduler} if scheduler else {}),
            **({"rules": str(rules)} if rules is not None else {}),
        },
        "rulesets": _rulesets_json(platform),
        "inputs": _inputs(log),
        "missing_optional_tables": sorted(log.missing_optional),
        "run_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "hands_span": _hands_span(log),
        **commitment_counts(log, out),
        "counts": {
            "hands": {s: hands.get(s, 0) for s in ("verified", "discrepancy", "quarantined")},
            "hands_total": sum(hands.values()),
            "quarantine_rows": quarantined,
            "lost_hands": len(lost),
            "games": games,
        },
        "unreadable_files": _unreadable(log),
        "skipped_files": [{"table": table, "path": path} for table, path in log.skipped],
        "ignored_columns": ignored_columns(log.files),
        "ignored_values": ignored_values(log),
        "copied_files": [{"table": f.table, "path": f.path, "same_as": same, "size": f.size,
                          "sha256": f.sha256} for f, same in log.copies],
        "fairplay": _fairplay_json(fair, "--no-fairplay" if not fairplay else _IDLE),
        "rng": _rng_json(shuffles, "--no-rng" if not rng else _IDLE),
        "timings_s": {
            "open": round(opened - started, 3),
            "replay": round(replayed - opened, 3),
            **({"fairplay": round(detected - written, 3)} if fair is not None else {}),
            **({"rng": round(checked - detected, 3)} if shuffles is not None else {}),
        },
    }
    summary = _conclude(run, _Tally.of_rows(tally), fail_on, out)
    run["timings_s"]["write"] = round(time.perf_counter() - checked + written - replayed, 3)
    run["timings_s"]["total"] = round(time.perf_counter() - started, 3)
    write_json(out / "run.json", run)
    write_report(out)
    return summary


_TALLY = 'SELECT "check", severity, count(*) FROM parts GROUP BY 1, 2'
SUSPICIONS = "suspicions.parquet"
RNG = "rng.parquet"
REPLAY_NEEDS = ("run.json", "findings.parquet", "hands.parquet")
FAIRPLAY_NEEDS = (*REPLAY_NEEDS, "pile.parquet", "drops.parquet")
FAIR = "fairplay."
SHUFFLE = "rng."


def _replayed(
    logs: Path, out: Path, needs: tuple[str, ...], what: str, slug: str, rules: Path | None
) -> tuple[dict[str, Any], LogRoot, PlatformRules | None]:
    """run.json of the replay of ``logs`` in ``out``, the log root and the platform's
    rulesets in ``rules``; refuses an output folder with no replay, a replay of other
    logs, or one run with other platform rulesets (the games' rules must be the same)."""
    missing = [name for name in needs if not (out / name).is_file()]
    if missing:
        raise AuditError(
            f"{out} holds no replay to run {what} over ({', '.join(missing)} missing); "
            f"run `rummy-audit replay {logs} --out {out}` first",
            slug=slug,
        )
    if nightly_night(out):  # never suggest a replay over a committed night
        raise AuditError(
            f"{out} is a night of rummy-audit nightly: its replay was of that night's work "
            f"root, gone since, so {what} cannot run over it again; they run on the nights "
            "to come (rummy-audit nightly without --no-fairplay / --no-rng)",
            slug=slug,
        )
    check_outputs(out, needs)  # there, but each readable: a damaged one is one line
    run = read_run(out)
    check_one_run(out, run)  # never rewrite a folder of two runs' outputs as one run's
    check_sections(out, run, but=slug)  # the other pass's file: the report reads it
    log = open_log_root(logs)
    refused = run.get("unreadable_files", [])
    hashed = any("sha256" in f for f in refused)  # an older run.json has no bytes of them
    if run.get("inputs") != _inputs(log) or (hashed and refused != _unreadable(log)):
        raise AuditError(
            f"{out} holds a replay of other logs than {logs} (their files, sizes or hashes "
            f"differ); run `rummy-audit replay {logs} --out {out}` again",
            slug=slug,
        )
    platform = load_rules(rules)
    if run.get("rulesets", []) != _rulesets_json(platform):
        used = ", ".join(r["file"] or "" for r in run.get("rulesets", [])) or "none"
        raise AuditError(
            f"the replay in {out} was run with other platform rulesets than --rules "
            f"{rules or '(none)'} gives (it used: {used}); pass the same --rules",
            slug=slug,
        )
    return run, log, platform


def _rewrite(
    run: dict[str, Any], out: Path, prefix: str, new: list[Finding], fail_on: Severity
) -> RunSummary:
    """Replace the findings under ``prefix`` (never add them twice); write run.json and
    the report again."""
    kept = [f for f in read_findings(out / "findings.parquet") if not f.check.startswith(prefix)]
    findings = kept + new
    write_findings(out / "findings.parquet", findings)
    summary = _conclude(run, _Tally.of(findings), fail_on, out)
    write_json(out / "run.json", run)
    write_report(out)
    return summary


def _passed(run: dict[str, Any], command: str, fail_on: Severity) -> None:
    """run.json's ``passes``: each later ``fairplay`` or ``rng`` run over the replay; the
    ``arguments`` stay the replay's (a blind tester read ``"fairplay": true`` there)."""
    run.setdefault("passes", []).append({"command": command, "fail_on": fail_on.value})


def fairplay_logs(
    *, logs: Path, out: Path, fail_on: Severity = Severity.MAJOR, rules: Path | None = None
) -> RunSummary:
    """Run only the fair-play detectors, over a replay of the same logs already in ``out``
    (and the same platform rulesets, ``rules``): its ``fairplay.*`` findings are replaced
    (never added twice), ``suspicions.parquet``, ``run.json`` and ``report.html`` written
    again."""
    run, log, platform = _replayed(logs, out, FAIRPLAY_NEEDS, "the detectors", "fairplay", rules)
    opened = time.perf_counter()
    _passed(run, "fairplay", fail_on)
    if _idle(run["counts"]["hands"]):
        (out / SUSPICIONS).unlink(missing_ok=True)
        run["fairplay"] = _fairplay_json(None, _IDLE)
        return _rewrite(run, out, FAIR, [], fail_on)
    with using(platform):
        fair = _fairplay(log, out)
    _retimed(run, "fairplay", time.perf_counter() - opened)
    run["fairplay"] = _fairplay_json(fair)
    return _rewrite(run, out, FAIR, [s.to_finding() for s in fair.suspicions], fail_on)


def rng_logs(
    *, logs: Path, out: Path, fail_on: Severity = Severity.MAJOR, rules: Path | None = None
) -> RunSummary:
    """Run only the shuffle tests, over a replay of the same logs already in ``out`` (and
    the same platform rulesets, ``rules``): its ``rng.*`` findings are replaced,
    ``rng.parquet``, ``run.json`` and ``report.html`` written again."""
    run, log, platform = _replayed(logs, out, REPLAY_NEEDS, "the shuffle tests", "rng", rules)
    opened = time.perf_counter()
    _passed(run, "rng", fail_on)
    if _idle(run["counts"]["hands"]):
        (out / RNG).unlink(missing_ok=True)
        run["rng"] = _rng_json(None, _IDLE)
        return _rewrite(run, out, SHUFFLE, [], fail_on)
    with using(platform):
        shuffles = _shuffles(log, out)
    _retimed(run, "rng", time.perf_counter() - opened)
    run["rng"] = _rng_json(shuffles)
    return _rewrite(run, out, SHUFFLE, shuffles.findings(), fail_on)


def _retimed(run: dict[str, Any], step: str, seconds: float) -> None:
    """run.json's time of ``step`` (``fairplay``, ``rng``) run again on its own, and its
    ``total`` the time of the work that made the outputs now there: the step's earlier
    time out, this one in (``total`` stayed the first run's).

    >>> run = {"timings_s": {"replay": 2.0, "total": 3.0}}
    >>> _retimed(run, "fairplay", 1.5); run["timings_s"]
    {'replay': 2.0, 'total': 4.5, 'fairplay': 1.5}
    """
    timings = run["timings_s"]
    before = timings.get(step, 0.0)
    timings[step] = round(seconds, 3)
    timings["total"] = round(timings.get("total", 0.0) - before + timings[step], 3)


def _idle(hands: Mapping[str, int]) -> bool:
    """Whether a replay's hands by status hold none replayed (``_IDLE``): over no replayed
    hand the night-wide passes test nothing, so they do not run."""
    return int(hands.get("verified", 0)) + int(hands.get("discrepancy", 0)) == 0


def fairplay_words(ran: bool, suspicions: int, skipped: tuple[str, ...] = ()) -> str:
    """What the one-line summaries (replay, fairplay, nightly) say of the fair-play
    detectors: not run, or the suspicions, and the detectors that did not run though the
    others did: "0 suspicions" alone read as an all-clear of a night whose bot test had
    not run (its event times timed no decision).

    >>> fairplay_words(True, 3)
    '3 suspicions'
    >>> fairplay_words(True, 1, ("fairplay.bot",))
    '1 suspicion (fairplay.bot not run)'
    >>> fairplay_words(False, 0)
    'not run'
    """
    if not ran:
        return "not run"
    gone = f" ({', '.join(skipped)} not run)" if skipped else ""
    return f"{suspicions} suspicion{'s' * (suspicions != 1)}{gone}"


def shuffle_words(
    ran: bool, tests: int | None, checks: int, weak: int = 0, too_few: int = 0
) -> str:
    """What the one-line summaries (replay, fairplay, rng, nightly) say of the shuffle
    tests: not run, no test with enough shoes (``tests`` 0; None: not counted), or the
    failed checks: of the ``checks`` (``rng.*`` findings), those above ``info``, and the
    ``weak`` ones at ``info`` apart, as the report says them (a blind tester read "1
    failed checks" beside the report's "No test failed. 1 shows weak evidence"); and the
    tests ``too_few`` shoes left untested, which are not called fair (a blind tester's
    biased shuffler in groups of 126-237 shoes: "0 failed checks", 811 tests not run).

    >>> shuffle_words(True, 40, 3, 1)
    '2 failed checks, 1 with weak evidence (info)'
    >>> shuffle_words(True, 40, 0)
    '0 failed checks'
    >>> shuffle_words(True, 40, 0, too_few=811)
    '0 failed checks; 811 tests had too few shoes to run'
    """
    if not ran:
        return "not run"
    if tests == 0:
        return "no test had enough shoes to run"
    untested = (f"; {too_few:,} test{'s' * (too_few != 1)} had too few shoes to run" if too_few
                else "")  # fmt: skip
    return f"{checks - weak} failed checks" + (f", {weak} with weak evidence (info)" if weak
                                               else "") + untested  # fmt: skip


def _fairplay(log: LogRoot, out: Path) -> FairPlay:
    from audit.fairplay.night import run_detectors  # scipy: not in every worker's imports

    fair = run_detectors(log, out)
    write_suspicions(out / SUSPICIONS, fair.suspicions)
    return fair


_IDLE = "no hand was replayed"
"""Why the fair-play detectors and the shuffle tests did not run over a night of no
replayed hand (every hand quarantined, or none in the logs)."""


def _fairplay_json(fair: FairPlay | None, why: str = "--no-fairplay") -> dict[str, Any]:
    if fair is None:
        return {"status": "not run", "why": why}
    return {"status": "run", "detectors": fair.summary(), "suspicions": len(fair.suspicions)}


def _shuffles(log: LogRoot, out: Path) -> ShuffleAudit:
    from audit.shuffle.night import audit_shuffles  # scipy: not in every worker's imports

    shuffles = audit_shuffles(log, out)
    write_rng(out / RNG, shuffles.results)
    return shuffles


def _rng_json(shuffles: ShuffleAudit | None, why: str = "--no-rng") -> dict[str, Any]:
    if shuffles is None:
        return {"status": "not run", "why": why}
    return shuffles.summary()


def _hands_span(log: LogRoot) -> dict[str, str | None]:
    """When the night's hands started and ended, from the hands files' timestamps (the
    report's header; a file that cannot be read here was already quarantined)."""
    first = last = None
    try:
        with duck.connect() as con:
            rows = con.sql(
                "SELECT min(CAST(started_at AS TIMESTAMPTZ)), max(CAST(ended_at AS TIMESTAMPTZ))"
                f" FROM {scan(log, 'hands')}"
            ).fetchall()
        first, last = rows[0] if rows else (None, None)
    except duckdb.Error:
        pass
    def iso(value: Any) -> str | None:
        """ISO 8601 in UTC; an instant Python's datetime cannot hold (before year 1, after
        9999: DuckDB gives its own text) as DuckDB writes it, never a traceback."""
        if isinstance(value, datetime):
            return value.astimezone(UTC).isoformat(timespec="seconds")
        return None if value is None else one_line(str(value))

    return {"first_started_at": iso(first), "last_ended_at": iso(last)}


def _rulesets_json(platform: PlatformRules | None) -> list[dict[str, str | None]]:
    """run.json's ``rulesets``: each platform ruleset the run loaded (``--rules``)."""
    return platform.summary() if platform is not None else []


def _unreadable(log: LogRoot) -> list[dict[str, Any]]:
    """The refused files, each with its size and SHA-256 where its bytes could be read
    (null where not: a folder, a file that cannot be opened), so that a refused file
    replaced by another is other logs too (``_replayed``; a blind tester)."""
    out = []
    for row in log.bad_files:
        size, sha = log.refused_bytes.get(row.file or "", (None, None))
        out.append({"table": row.table, "path": row.file, "reason": row.reason, "size": size,
                    "sha256": sha})  # fmt: skip
    return out


def _inputs(log: LogRoot) -> list[dict[str, Any]]:
    return [
        {"table": f.table, "path": f.path, "size": f.size, "sha256": f.sha256, "rows": f.rows}
        for table in sorted(log.files)
        for f in log.files[table]
    ]


@dataclass(frozen=True)
class _Tally:
    """The night's findings counted by check and by severity."""

    by_check: Counter[str]
    by_severity: Counter[Severity]
    rng_weak: int = 0
    """``rng.*`` findings at ``info`` (``RunSummary.rng_weak``)."""

    @classmethod
    def of(cls, findings: Iterable[Finding]) -> _Tally:
        return cls.of_rows((f.check, f.severity, 1) for f in findings)

    @classmethod
    def of_rows(cls, rows: Iterable[tuple[str, str, int]]) -> _Tally:
        """From (check, severity, count) rows."""
        by_check: Counter[str] = Counter()
        by_severity: Counter[Severity] = Counter()
        weak = 0
        for check, severity, n in rows:
            by_check[check] += n
            by_severity[Severity(severity)] += n
            weak += n if check.startswith("rng.") and severity == Severity.INFO else 0
        return cls(by_check, by_severity, weak)

    @property
    def worst(self) -> Severity | None:
        found = [s for s, n in self.by_severity.items() if n]
        return max(found, key=lambda s: s.rank) if found else None


def _conclude(run: dict[str, Any], tally: _Tally, fail_on: Severity, out: Path) -> RunSummary:
    """Fill in run.json's finding counts, worst severity and exit status, and the
    ``--fail-on`` that decided it (a ``fairplay`` or ``rng`` run over a replay records its
    own, not the replay's)."""
    severity = tally.worst
    status = 1 if severity is not None and severity.rank >= fail_on.rank else 0
    run["arguments"]["fail_on"] = fail_on.value
    run["counts"]["findings"] = dict(sorted(tally.by_check.items()))
    run["counts"]["findings_by_severity"] = {s.value: tally.by_severity[s] for s in Severity}
    run["worst_severity"] = severity.value if severity else None
    run["exit_status"] = status
    hands = Counter({k: int(v) for k, v in run["counts"]["hands"].items()})
    ran = run["fairplay"]["status"] == "run"
    tested = run.get("rng", {}).get("status") == "run"
    unreadable = tuple(one_line(f["path"]) for f in run.get("unreadable_files", []))
    lost = int(run["counts"].get("lost_hands", 0))
    tests = int(run.get("rng", {}).get("tests", 0)) if tested else 0
    too_few = int(run.get("rng", {}).get("too_few_shoes", 0)) if tested else 0
    skipped = tuple(d["check"] for d in run["fairplay"].get("detectors", [])
                    if d.get("status") == "skipped")  # fmt: skip
    return RunSummary(hands, tally.by_check, severity, status, out, ran, tested, unreadable, lost,
                      tests, tally.rng_weak, too_few, skipped)  # fmt: skip
