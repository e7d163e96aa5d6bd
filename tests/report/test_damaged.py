"""`rummy-audit report` over an output folder it cannot report truly: a damaged
suspicions.parquet or rng.parquet, a run.json field of the wrong shape, the outputs of two
runs side by side. Each is one line on stderr and exit 2 (schemas/output.md), never a
traceback, nor a page that contradicts itself or calls a damaged section clean."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.output import write_findings, write_suspicions
from audit.report.render import write_report
from tests.logs.logbuilder import LogBuilder
from tests.report.nights import big_night, suspicion


@pytest.fixture(scope="module")
def both_ran(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder whose run.json says the detectors and the shuffle tests ran, with
    suspicions.parquet and rng.parquet, its report written."""
    out = big_night(tmp_path_factory.mktemp("both") / "out", findings=600, suspicions=5)
    write_report(out)
    return out


def refused(out: Path, *says: str) -> str:
    """The output of `rummy-audit report OUT`, asserted one line, exit 2, saying ``says``,
    and report.html left as it was."""
    before = (out / "report.html").read_bytes() if (out / "report.html").exists() else None
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.output.startswith("rummy-audit: error: "), result.output
    assert result.output.count("\n") == 1, result.output
    for words in says:
        assert words in result.output, result.output
    after = (out / "report.html").read_bytes() if (out / "report.html").exists() else None
    assert after == before
    return result.output


def copy(folder: Path, out: Path) -> Path:
    shutil.copytree(folder, out)
    return out


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # the footer gone: "No magic bytes found"


def drop_column(path: Path, column: str) -> None:
    table = pq.read_table(path)
    pq.write_table(table.drop_columns([column]), path)


@pytest.mark.parametrize(
    ("name", "damage", "says"),
    [
        ("rng.parquet", truncate, "rng.parquet cannot be read: "),
        ("suspicions.parquet", truncate, "suspicions.parquet cannot be read: "),
        (
            "rng.parquet",
            lambda path: drop_column(path, "verdict"),
            "rng.parquet is not a rng.parquet of rummy-audit: it has no verdict column",
        ),
        (
            "suspicions.parquet",
            lambda path: drop_column(path, "players"),
            "suspicions.parquet is not a suspicions.parquet of rummy-audit: it has no players "
            "column",
        ),
    ],
)
def test_a_damaged_suspicions_or_rng_file_is_one_line_and_exit_2(
    both_ran: Path, tmp_path: Path, name: str, damage: Any, says: str
) -> None:
    """They were a DuckDB traceback and exit 1 ("No magic bytes found at end of file",
    "Referenced column "verdict" not found"), as the core outputs were before."""
    out = copy(both_ran, tmp_path / "out")
    damage(out / name)
    refused(out, f"{out / name}", says)


GONE = object()


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"counts": "garbage"}, "counts is a string, not an object"),
        ({"counts.hands": ["verified"]}, "counts.hands is a list, not an object"),
        ({"counts.hands_total": "678"}, "counts.hands_total is a string, not an integer"),
        ({"counts.findings": GONE}, "counts has no findings"),
        ({"inputs": {"events": 1}}, "inputs is an object, not a list"),
        ({"arguments": "logs"}, "arguments is a string, not an object"),
        ({"timings_s": {"total": "slow"}}, "timings_s.total is a string, not an integer or a"),
        ({"exit_status": None}, "exit_status is null, not an integer"),
        ({"unreadable_files": [{"table": "hands"}]}, "unreadable_files[0] has no path"),
        ({"fairplay.detectors": {"check": "x"}}, "fairplay.detectors is an object, not a list"),
        ({"rng.groups": [{"key": "2/2/", "group": "g", "shoes": "many"}]},
         "rng.groups[0].shoes is a string, not an integer"),
        # were rendered: a string as "not run ... an older rummy-audit wrote this folder",
        # a count missing as 0 ("The shuffle tests ran over 0 shoes")
        ({"fairplay": "run"}, "fairplay is a string, not an object"),
        ({"rng": ["run"]}, "rng is a list, not an object"),
        ({"fairplay.status": GONE}, "fairplay has no status"),
        ({"fairplay.suspicions": GONE}, "fairplay has no suspicions"),
        ({"fairplay.detectors": GONE}, "fairplay has no detectors"),
        ({"rng": {"status": "run"}}, "rng has no shoes"),
        ({"rng.tests": GONE}, "rng has no tests"),
    ],
)  # fmt: skip
def test_a_run_json_field_of_the_wrong_shape_is_one_line_naming_it(
    both_ran: Path, tmp_path: Path, change: dict[str, Any], says: str
) -> None:
    """`counts` set to "garbage" was "TypeError: string indices must be integers" and
    exit 1. ``GONE`` removes the key."""
    out = copy(both_ran, tmp_path / "out")
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    for dotted, value in change.items():
        *parents, key = dotted.split(".")
        held = run
        for parent in parents:
            held = held[parent]
        if value is GONE:
            del held[key]
        else:
            held[key] = value
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    refused(out, f"{out / 'run.json'} is not a run.json of rummy-audit: {says}")


def no_suspicions(out: Path) -> None:
    """suspicions.parquet of another run that raised none."""
    write_suspicions(out / "suspicions.parquet", [])


def other_detectors(out: Path) -> None:
    """suspicions.parquet of another run: as many suspicions, of another detector."""
    rows = pq.read_table(out / "suspicions.parquet")
    bots = pa.array(["fairplay.bot"] * rows.num_rows, pa.string())
    pq.write_table(rows.set_column(rows.schema.get_field_index("check"), "check", bots),
                   out / "suspicions.parquet")  # fmt: skip


def fair_shuffle(out: Path) -> None:
    """rng.parquet of another run: the same tests, none of them failed."""
    rows = pq.read_table(out / "rng.parquet")
    pq.write_table(rows.filter(pc.equal(rows.column("verdict"), "fair")), out / "rng.parquet")


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (no_suspicions, "suspicions in all: run.json counts 5, suspicions.parquet holds 0"),
        (other_detectors,
         "fairplay.collusion suspicions: run.json counts 5, suspicions.parquet holds 0"),
        (fair_shuffle, "biased shuffle tests: run.json counts "),
    ],
)  # fmt: skip
def test_a_suspicions_or_rng_file_of_another_run_is_refused(
    both_ran: Path, tmp_path: Path, damage: Any, says: str
) -> None:
    """schemas/output.md: outputs that are not those of one run are refused. Another run's
    suspicions.parquet or rng.parquet beside run.json was a clean section (the stat box
    "0 fair-play suspicions" where run.json and findings.parquet count 10: a blind tester);
    its rows are now counted against run.json's ``fairplay`` and ``rng``."""
    out = copy(both_ran, tmp_path / "out")
    damage(out)
    refused(out, f"{out} holds outputs of more than one run (", says)


def test_fairplay_and_rng_refuse_the_other_passs_file_of_another_run(
    night: Path, tmp_path: Path
) -> None:
    """`rng` leaves suspicions.parquet as it is and writes the report over it: another
    run's is refused before anything is rewritten. `fairplay` rewrites that file, so it
    runs over it and the outputs are one run's again."""
    out = copy(night, tmp_path / "out")
    logs = str(night.parent / "logs")
    write_suspicions(out / "suspicions.parquet", [
        suspicion("fairplay.bot", ("P1",), 1e-6, ["G1-01"])
    ])  # fmt: skip
    findings = (out / "findings.parquet").read_bytes()
    result = CliRunner().invoke(app, ["rng", logs, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "suspicions in all: run.json counts 0, suspicions.parquet holds 1" in result.output
    assert (out / "findings.parquet").read_bytes() == findings
    result = CliRunner().invoke(app, ["fairplay", logs, "--out", str(out)])
    assert result.exit_code in (0, 1), result.output
    assert CliRunner().invoke(app, ["report", str(out)]).exit_code == 0


def quarantined_night(root: Path) -> Path:
    """A replay of one hand without results (quarantined) under ``root``: its output folder."""
    logs = LogBuilder(root / "logs").game("g1").quick_hand("h1")
    logs.rows["results"].clear()
    out = root / "out"
    result = CliRunner().invoke(app, ["replay", str(logs.write()), "--out", str(out),
                                      "--no-progress"])  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    return out


def test_the_outputs_of_two_runs_are_refused(night: Path, tmp_path: Path) -> None:
    """A replay killed while it renamed its outputs into place: hands.parquet and
    quarantine.parquet of the new run beside findings.parquet and run.json of the old. The
    page said "the 1 quarantined hands ..." at the top and "Nothing was quarantined" at the
    bottom, exit 0. So do `fairplay` and `rng`, before they rewrite anything."""
    other = quarantined_night(tmp_path / "other")
    out = copy(night, tmp_path / "out")
    for name in ("hands.parquet", "quarantine.parquet"):
        shutil.copyfile(other / name, out / name)
    said = refused(out, f"{out} holds outputs of more than one run (",
                   "hands in all: run.json counts 4, hands.parquet holds 1); run "
                   "`rummy-audit replay logs --out ")  # fmt: skip
    assert said.rstrip().endswith(" again")
    findings = (out / "findings.parquet").read_bytes()
    for command in ("fairplay", "rng"):
        result = CliRunner().invoke(app, [command, str(night.parent / "logs"), "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert "holds outputs of more than one run" in result.output
        assert (out / "findings.parquet").read_bytes() == findings


def test_no_findings_beside_a_run_json_counting_them_is_refused(
    night: Path, tmp_path: Path
) -> None:
    """A 0-row findings.parquet beside a run.json counting findings rendered "0 findings
    · worst: critical"."""
    out = copy(night, tmp_path / "out")
    write_findings(out / "findings.parquet", [])
    refused(out, "findings in all: run.json counts ", "findings.parquet holds 0")


def test_a_count_of_games_the_files_do_not_hold_is_refused(night: Path, tmp_path: Path) -> None:
    """run.json's ``counts.games`` is checked against hands.parquet and findings.parquet
    as its other counts are: a run.json counting no running game beside a night whose
    findings hold one is not one run's."""
    out = copy(night, tmp_path / "out")
    run = json.loads((out / "run.json").read_text())
    run["counts"]["games"]["running"] = 0
    (out / "run.json").write_text(json.dumps(run))
    refused(out, "games (running): run.json counts 0, findings.parquet holds 1")


def test_quarantine_rows_another_run_wrote_are_refused(night: Path, tmp_path: Path) -> None:
    """Only quarantine.parquet of another run (rows run.json does not count)."""
    other = quarantined_night(tmp_path / "other")
    out = copy(night, tmp_path / "out")
    shutil.copyfile(other / "quarantine.parquet", out / "quarantine.parquet")
    refused(out, "quarantine rows: run.json counts 0, quarantine.parquet holds 1")


def test_the_outputs_of_one_run_pass_after_fairplay_and_rng_rewrite_them(
    night: Path, tmp_path: Path
) -> None:
    """`fairplay` and `rng` rewrite findings.parquet and run.json over the replay: their
    counts still agree, and the report renders."""
    out = copy(night, tmp_path / "out")
    logs = str(night.parent / "logs")
    for command in ("fairplay", "rng"):
        result = CliRunner().invoke(app, [command, logs, "--out", str(out)])
        assert result.exit_code in (0, 1), result.output
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output


def test_a_page_damaged_behind_an_intact_footer_is_one_line(
    both_ran: Path, tmp_path: Path
) -> None:
    """Bytes flipped inside rng.parquet's data, its footer whole: the footer checks pass,
    and reading the rows failed with DuckDB's traceback ("Parquet file is likely
    corrupted"). One line, exit 2, report.html untouched."""
    out = copy(both_ran, tmp_path / "out")
    path = out / "rng.parquet"
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8
    for i in range(4, len(data) - footer):
        data[i] ^= 0xFF  # every data byte: no page of it reads
    path.write_bytes(bytes(data))
    refused(out, "holds an output that cannot be read")
