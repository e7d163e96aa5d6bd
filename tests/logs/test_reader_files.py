"""Finding a table's files: every ``.parquet`` file under its folder, at any depth, through
symbolic links to folders too; and what cannot be read there (a link to nothing, a folder
or a file the audit may not read) refused like a damaged file, with an ``input.file`` row
saying why (schemas/README.md, "How the audit treats a file and its rows": "nothing is
skipped silently"), the rest of the night read around it."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from audit.errors import LogFormatError
from audit.logs.reader import open_log_root
from audit.run import replay_logs
from tests.logs.logbuilder import PARTITION
from tests.logs.test_reader_damage import full_log, hands_of, quarantined, read_all, split_by_game

EVERY = {f"g{g}-h{h}" for g in range(3) for h in range(2)}


def link_partition(root: Path, table: str, elsewhere: Path) -> str:
    """Move game g2's rows of `table` into `elsewhere` (a folder outside the log root) and
    link it into the table's folder as the partition ``date=2026-11-30``; the file's name
    as the log root shows it."""
    bad = root / table / PARTITION / "b.parquet"
    elsewhere.mkdir()
    shutil.move(bad, elsewhere / "b.parquet")
    (root / table / "date=2026-11-30").symlink_to(elsewhere, target_is_directory=True)
    return f"{table}/date=2026-11-30/b.parquet"


@pytest.mark.parametrize("table", ["game_events", "events", "hands"])
def test_a_partition_folder_that_is_a_symbolic_link_is_read_like_any_other(
    tmp_path: Path, table: str
) -> None:
    """schemas/README.md, Layout: a table is every Parquet file under its folder, at any
    depth. A partition folder linked in is such a folder: its files are inputs (before, it
    was read as empty, and the games whose rows it held were judged without them)."""
    root, _ = split_by_game(full_log(tmp_path / "logs"), table)
    name = link_partition(root, table, tmp_path / "elsewhere")
    log = open_log_root(root)
    assert name in [f.path for f in log.files[table]]
    assert log.bad_files == []
    units, quarantine, lost = read_all(root, tmp_path / "work")
    assert (set(hands_of(units)), quarantined(units), quarantine, lost) == (EVERY, {}, [], set())


def test_a_link_back_to_a_folder_it_is_inside_is_not_followed_again(tmp_path: Path) -> None:
    """A cycle of links (a partition linking to its table's folder, or to the log root)
    ends: every file is read once, where it is."""
    root = full_log(tmp_path / "logs").write()
    (root / "events" / PARTITION / "again").symlink_to(root / "events", target_is_directory=True)
    (root / "events" / "root").symlink_to(root, target_is_directory=True)
    log = open_log_root(root)
    assert [f.path for f in log.files["events"]] == [f"events/{PARTITION}/part-0.parquet"]
    assert log.bad_files == []


def test_a_symbolic_link_to_nothing_is_refused_and_its_hands_accounted_for(
    tmp_path: Path,
) -> None:
    """A ``.parquet`` link whose target is gone is refused like a truncated file: an
    ``input.file`` row naming it and why, and the hands whose rows it may hold are
    quarantined with it as the likely cause (before, it was skipped silently)."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    bad.unlink()
    bad.symlink_to(tmp_path / "gone.parquet")
    (root / "events" / "notes.txt").symlink_to(tmp_path / "gone.txt")  # not table data
    name = f"events/{PARTITION}/b.parquet"
    log = open_log_root(root)
    assert [(q.table, q.file, q.check, q.reason) for q in log.bad_files] == [
        ("events", name, "input.file", f"{name} is a symbolic link to nothing")
    ]
    assert log.damaged == {"events": (name,)}
    units, _, _ = read_all(root, tmp_path / "work")
    assert set(quarantined(units)) == {"g2-h0", "g2-h1"}
    assert all(name in why for why in quarantined(units).values())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_called_parquet_is_refused_and_the_night_goes_on(tmp_path: Path) -> None:
    """A pipe named ``*.parquet`` in a table's folder is not a regular file: refused with
    a reason, never opened (opening a pipe waits for a writer: a blind tester's run hung
    for ever), the rest of the night read."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    pipe = bad.with_name("pipe.parquet")
    os.mkfifo(pipe)
    name = f"events/{PARTITION}/pipe.parquet"
    log = open_log_root(root)
    assert [(q.file, q.reason) for q in log.bad_files] == [(name, f"{name} is not a regular file")]
    units, _, _ = read_all(root, tmp_path / "work")  # returns: nothing waits on the pipe
    assert set(hands_of(units)) == EVERY


def test_a_file_name_that_is_not_utf8_is_refused_and_named_with_its_bytes_escaped(
    tmp_path: Path,
) -> None:
    """A name of Latin-1 bytes (``caf\\xe9.parquet``) cannot be written in the outputs,
    which are UTF-8: the run ended in a traceback with no output (a blind tester). Such a
    file is refused, named with its bytes escaped, its hands quarantined; a writer's own
    file so named is listed as skipped; the run writes every output."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    latin = os.fsdecode(b"caf\xe9.parquet")
    shutil.move(bad, bad.with_name(latin))
    (bad.parent / os.fsdecode(b".tmp-\xe9.parquet")).write_bytes(b"")  # a writer's own
    name = f"events/{PARTITION}/caf\\xe9.parquet"
    log = open_log_root(root)
    assert [(q.file, q.reason) for q in log.bad_files] == [
        (name, f"{name} has a name that is not UTF-8 text (shown with its bytes escaped), so "
               "it was not read; rename it")
    ]  # fmt: skip
    assert log.skipped == [("events", f"events/{PARTITION}/.tmp-\\xe9.parquet")]
    summary = replay_logs(logs=root, out=tmp_path / "out", workers=1, progress=False)
    assert summary.unreadable == (name,)
    assert (tmp_path / "out" / "report.html").is_file()
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["counts"]["hands"]["quarantined"] == 2  # g2's two hands, their events unread


def test_a_file_where_a_tables_folder_goes_is_refused_not_taken_for_no_table(
    tmp_path: Path,
) -> None:
    """A plain file named ``sessions`` at the root read as "no sessions table", named
    nowhere (a blind tester): it is refused with why, and a required table's stops the run
    saying so."""
    root = full_log(tmp_path / "logs").write()
    shutil.rmtree(root / "sessions")
    (root / "sessions").write_text("not a folder")
    log = open_log_root(root)
    assert [(q.table, q.file, q.reason) for q in log.bad_files] == [
        ("sessions", "sessions", "sessions is a file, not a folder: a table is a folder of "
         "sessions Parquet files, so it was not read")
    ]  # fmt: skip
    shutil.rmtree(root / "games")
    (root / "games").write_text("not a folder")
    with pytest.raises(LogFormatError, match="games is a file, not a folder"):
        open_log_root(root)


def test_a_symbolic_link_to_a_file_is_read(tmp_path: Path) -> None:
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    shutil.move(bad, tmp_path / "b.parquet")
    bad.symlink_to(tmp_path / "b.parquet")
    units, quarantine, _ = read_all(root, tmp_path / "work")
    assert (set(hands_of(units)), quarantine) == (EVERY, [])


# ---------------------------------------------------------------- permissions

as_root = pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0,
    reason="run as root, every file and folder can be read: no permission is ever denied",
)


@pytest.fixture
def forbidden() -> Iterator[list[Path]]:
    """Paths whose permissions a test takes away, given back after it (so that pytest can
    remove them)."""
    paths: list[Path] = []
    yield paths
    for path in paths:
        path.chmod(0o755)


@as_root
def test_a_sub_folder_that_cannot_be_listed_is_refused_and_the_rest_read(
    tmp_path: Path, forbidden: list[Path]
) -> None:
    """A sub-folder the audit may not list is refused like a damaged file: one
    ``input.file`` row naming it, with the reason on one line, and the hands it may hold
    quarantined (before, it was skipped silently)."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    folder = root / "events" / "date=2026-11-30"
    folder.mkdir()
    shutil.move(bad, folder / "b.parquet")
    folder.chmod(0)
    forbidden.append(folder)
    log = open_log_root(root)
    assert [(q.table, q.file, q.check, q.reason) for q in log.bad_files] == [
        ("events", "events/date=2026-11-30", "input.file",
         "events/date=2026-11-30 is a folder that could not be listed: Permission denied"),
    ]  # fmt: skip
    units, _, _ = read_all(root, tmp_path / "work")
    assert set(quarantined(units)) == {"g2-h0", "g2-h1"}


@as_root
def test_a_file_that_cannot_be_read_is_refused_and_the_rest_read(
    tmp_path: Path, forbidden: list[Path]
) -> None:
    """A file the audit may not read is refused like a damaged file (before, the run
    stopped on it: "Permission denied")."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    bad.chmod(0)
    forbidden.append(bad)
    name = f"events/{PARTITION}/b.parquet"
    log = open_log_root(root)
    assert [(q.file, q.check, q.reason) for q in log.bad_files] == [
        (name, "input.file", f"{name} could not be read: Permission denied")
    ]
    units, _, _ = read_all(root, tmp_path / "work")
    assert set(quarantined(units)) == {"g2-h0", "g2-h1"}


def test_a_file_that_cannot_be_opened_is_refused_whoever_runs_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same as the test above, with the refusal made by the file system stand-in, so
    that it runs as root too."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    opened = Path.open

    def deny(path: Path, *args: object, **kwargs: object) -> object:
        if path == bad:
            raise PermissionError(13, "Permission denied", str(path))
        return opened(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", deny)
    log = open_log_root(root)
    name = f"events/{PARTITION}/b.parquet"
    assert [(q.file, q.reason) for q in log.bad_files] == [
        (name, f"{name} could not be read: Permission denied")
    ]
    assert [f.path for f in log.files["events"]] == [f"events/{PARTITION}/a.parquet"]


def test_a_folder_that_cannot_be_listed_is_refused_whoever_runs_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    folder = root / "events" / "date=2026-11-30"
    folder.mkdir()
    shutil.move(bad, folder / "b.parquet")
    listing = os.scandir

    def deny(path: object) -> object:
        if Path(str(path)) == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return listing(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", deny)
    log = open_log_root(root)
    assert [(q.file, q.reason) for q in log.bad_files] == [
        ("events/date=2026-11-30",
         "events/date=2026-11-30 is a folder that could not be listed: Permission denied"),
    ]  # fmt: skip


def test_a_writers_own_parquet_files_are_not_read_and_are_listed(tmp_path: Path) -> None:
    """schemas/README.md: a name starting with ``.`` or ``_`` under a table's folder is a
    writer's own (Spark's ``_temporary/`` attempt holding a whole copy of the night's file,
    a file still being written, ``.part-1.parquet``): not read, but listed. Read, the copy
    quarantined every hand as a duplicate and the half-written file refused its table's
    files (a blind tester); now the night reads as without them, and run.json and the
    report name the files."""
    root = full_log(tmp_path / "logs").write()
    for table in ("games", "hands", "events", "results", "ledger"):
        (source,) = (root / table).rglob("*.parquet")
        attempt = root / table / "_temporary" / "0" / "_temporary" / "attempt_1"
        attempt.mkdir(parents=True)
        shutil.copy(source, attempt / "part-0.parquet")
        (root / table / ".part-1.parquet").write_bytes(b"PAR1 half written")
    log = open_log_root(root)
    assert log.bad_files == []
    assert len(log.skipped) == 10
    assert ("events", "events/.part-1.parquet") in log.skipped
    assert ("hands", "hands/_temporary/0/_temporary/attempt_1/part-0.parquet") in log.skipped
    units, quarantine, lost = read_all(root, tmp_path / "work")
    assert (set(hands_of(units)), quarantined(units), quarantine, lost) == (EVERY, {}, [], set())

    out = tmp_path / "out"
    assert replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert {"table": "events", "path": "events/.part-1.parquet"} in run["skipped_files"]
    assert run["unreadable_files"] == []
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "10 files not read as a writer's own (a name starting with . or _)" in html


def test_a_file_delivered_twice_is_read_once_and_listed(tmp_path: Path) -> None:
    """schemas/README.md, "How the audit treats a file": two files of one table with the
    same bytes (under the same contract columns of their partition folders:
    ``footer.content_key``) are one file delivered twice, read once (the first path) and
    the other listed in run.json's ``copied_files`` and the report. A blind tester's copied
    events file had every hand in it quarantined by ``replay`` (its rows repeated), where
    ``nightly`` takes such a copy once and verified them all. A lookup that hashes no file
    (``explain``) finds the same copy."""
    root = full_log(tmp_path / "logs").write()
    (source,) = (root / "events").rglob("*.parquet")
    shutil.copy(source, source.parent / "part-0-again.parquet")  # read first: "-" < "."
    first = source.parent.relative_to(root).as_posix() + "/part-0-again.parquet"
    copy = source.relative_to(root).as_posix()
    for hashed in (True, False):
        log = open_log_root(root, hash_files=hashed)
        assert [(f.path, same) for f, same in log.copies] == [(copy, first)]
        assert [f.path for f in log.files["events"]] == [first]
    out = tmp_path / "out"
    replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    units, quarantine, lost = read_all(root, tmp_path / "work")
    assert (set(hands_of(units)), quarantined(units), quarantine, lost) == (EVERY, {}, [], set())
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert [(f["path"], f["same_as"]) for f in run["copied_files"]] == [(copy, first)]
    assert run["counts"]["hands"]["quarantined"] == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "1 file not read as a copy of another file of the same table" in html


# ---------------------------------------------------------------- partition keys


def _partitioned(logs: Path, by: dict[str, str], target: Path) -> None:
    """Copy the log root ``logs`` to ``target`` with each table of ``by`` rewritten by
    pyarrow's Hive-partitioned writer by that column, which leaves the column out of the
    files and writes it into the folders' names (``hands/game_id=G1/part-0.parquet``)."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    shutil.copytree(logs, target)
    for table, column in by.items():
        rows = pq.read_table(sorted((logs / table).rglob("*.parquet")), partitioning=None)
        assert column in rows.column_names
        shutil.rmtree(target / table)
        ds.write_dataset(rows, target / table, format="parquet", partitioning=[column],
                         partitioning_flavor="hive")  # fmt: skip
        assert column not in pq.read_schema(next((target / table).rglob("*.parquet"))).names


def test_a_column_a_file_leaves_out_is_read_from_its_partition_folder(tmp_path: Path) -> None:
    """A contract column a file leaves out is read from the partition folder that names it
    (schemas/README.md, "Choices where the contract is silent"); the night's findings and
    hands are the same bytes as the unpartitioned night's."""
    from audit.sim import simulate

    simulate(games=40, out=tmp_path / "logs", seed=5, anomalies="tampering", workers=1)
    by = {"games": "format", "hands": "game_id", "ledger": "kind", "sessions": "game_id",
          "results": "player_id", "game_events": "action"}  # fmt: skip
    _partitioned(tmp_path / "logs", by, tmp_path / "keyed")
    runs = {}
    for name in ("logs", "keyed"):
        runs[name] = replay_logs(logs=tmp_path / name, out=tmp_path / f"out-{name}", workers=1,
                                 progress=False, fairplay=False, rng=False)  # fmt: skip
    assert runs["keyed"].hands == runs["logs"].hands
    assert runs["keyed"].hands["verified"] > 0
    assert runs["keyed"].findings
    assert runs["keyed"].unreadable == runs["logs"].unreadable == ()
    for output in ("findings.parquet", "hands.parquet"):
        made = (tmp_path / "out-keyed" / output).read_bytes()
        assert made == (tmp_path / "out-logs" / output).read_bytes(), output


def test_a_partition_folder_whose_value_is_not_of_the_columns_type_refuses_its_file(
    tmp_path: Path,
) -> None:
    import pyarrow.parquet as pq

    root = full_log(tmp_path / "logs").write()
    (good,) = sorted((root / "hands").rglob("*.parquet"))
    rows = pq.read_table(good, partitioning=None)
    good.unlink()
    for i, hand_no in enumerate(("1", "one")):
        folder = root / "hands" / f"hand_no={hand_no}"
        folder.mkdir()
        pq.write_table(rows.filter([j % 2 == i for j in range(rows.num_rows)])
                       .drop_columns(["hand_no"]), folder / "part-0.parquet")  # fmt: skip
    log = open_log_root(root)
    assert [f.path for f in log.files["hands"]] == ["hands/hand_no=1/part-0.parquet"]
    (row,) = [b for b in log.bad_files if b.table == "hands"]
    assert row.reason == ("hands/hand_no=one/part-0.parquet: its folder hand_no=one gives "
                          "column `hand_no` a value not of its type, int16")  # fmt: skip


def test_a_file_of_another_table_in_a_tables_folder_is_refused_saying_whose_it_looks_like(
    tmp_path: Path,
) -> None:
    """log-format.md: each table is a folder of its own files. Game g2's results file put in
    events/ is refused for the columns an events file needs, and the refusal says it holds
    every column of the results table, so the platform moves it rather than adding columns
    to it (a blind tester read "add `seq`, `action` ..." of a results file); g2's hands are
    quarantined for the events and results they lack, naming it."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "results")
    moved = root / "events" / PARTITION / "results-b.parquet"
    shutil.move(bad, moved)
    name = f"events/{PARTITION}/results-b.parquet"
    log = open_log_root(root)
    ((table, file, reason),) = [(q.table, q.file, q.reason) for q in log.bad_files]
    assert (table, file) == ("events", name)
    assert reason.endswith(
        f"{name}: it holds every column of the results table: it may be a results file in "
        "the events/ folder"
    )
    units, _, _ = read_all(root, tmp_path / "work")
    assert set(quarantined(units)) == {"g2-h0", "g2-h1"}


def test_columns_the_contract_does_not_name_are_read_by_no_check_and_listed(
    tmp_path: Path,
) -> None:
    """schemas/README.md: extra columns are allowed and ignored (platforms add their own),
    and run.json's ``ignored_columns`` and the report list each one with how many files
    hold it. A blind tester's ``platform_extra`` on every table left no trace anywhere, so
    a misspelt column would go unseen."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    root = full_log(tmp_path / "logs").write()
    plain = tmp_path / "plain"
    assert replay_logs(logs=root, out=plain, workers=1, progress=False, fairplay=False)
    for table in ("hands", "events"):
        for path in (root / table).rglob("*.parquet"):
            data = pq.read_table(path)
            extra = data.append_column("platform_region", pa.array(["in"] * data.num_rows))
            pq.write_table(extra.replace_schema_metadata(data.schema.metadata), path)
    out = tmp_path / "out"
    assert replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    files = {t: len(list((root / t).rglob("*.parquet"))) for t in ("hands", "events")}
    assert run["ignored_columns"] == [
        {"table": "events", "column": "platform_region", "files": files["events"]},
        {"table": "hands", "column": "platform_region", "files": files["hands"]},
    ]
    for name in ("hands.parquet", "findings.parquet"):  # read by no check
        assert (out / name).read_bytes() == (plain / name).read_bytes()
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "2 columns the contract does not name, read by no check" in html
    assert "<code>events.platform_region</code>" in html
    plain_run = json.loads((plain / "run.json").read_text(encoding="utf-8"))
    assert plain_run["ignored_columns"] == []


def test_values_in_columns_their_games_format_gives_no_meaning_are_listed(
    tmp_path: Path,
) -> None:
    """log-format.md gives `entry_fee` to "pool and deals", `score_after` to "pool" and
    `amount` to points and deals. A value written in another format's game is read by no
    check (a blind tester's `amount` on pool rows, `score_after` on points rows, `entry_fee`
    on points games left no trace), so run.json's ``ignored_values`` and the report list
    each (table, column, format) with its rows; the outputs are as without them."""
    logs = full_log(tmp_path / "logs")
    plain_root = logs.write()
    plain = tmp_path / "plain"
    assert replay_logs(logs=plain_root, out=plain, workers=1, progress=False, fairplay=False)
    for game in logs.rows["games"]:
        game["entry_fee"] = Decimal("10.00")
    for row in logs.rows["results"]:
        row["score_after"] = 40
    root = logs.write()  # the same files, written again
    out = tmp_path / "out"
    assert replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["ignored_values"] == [
        {"table": "games", "column": "entry_fee", "format": "points", "rows": 3},
        {"table": "results", "column": "score_after", "format": "points",
         "rows": len(logs.rows["results"])},
    ]  # fmt: skip
    for name in ("hands.parquet", "findings.parquet"):  # read by no check
        assert (out / name).read_bytes() == (plain / name).read_bytes()
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<code>games.entry_fee</code> in points games (3 rows)" in html
    assert json.loads((plain / "run.json").read_text(encoding="utf-8"))["ignored_values"] == []
