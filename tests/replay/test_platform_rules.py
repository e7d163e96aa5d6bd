"""A night whose games name a platform's own ruleset, replayed with ``--rules DIR``
(audit/rules/registry.py): the same verdicts as under the preset it extends when the file
changes nothing the hands use, the quarantine without it, score findings when it changes
a scoring value the night uses, and the same bytes whatever ``--workers``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import audit.run
from audit.cli import app
from audit.run import replay_logs
from audit.sim import simulate

runner = CliRunner()
PLATFORM = "acme-13"
OUTPUTS = ("findings.parquet", "hands.parquet", "quarantine.parquet", "pile.parquet",
           "drops.parquet", "suspicions.parquet", "rng.parquet")  # fmt: skip

# tables.* are the night's table limits (checked against the standard-13 preset's, by
# table_limit_findings): no hand's replay reads them.
TABLES = """
[tables.app_max]
value = 4
text = "A player may play at most 4 tables at once from the app."
source = "acme terms of play, section 3"
"""
CAP_40 = """
[points.cap]
value = 40
text = "A losing hand is never charged more than 40 points."
source = "acme terms of play, section 5"
"""


def rules_dir(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True)
    head = f'id = "{PLATFORM}"\ntitle = "Acme 13"\nextends = "standard-13"\n'
    (folder / f"{PLATFORM}.toml").write_text(head + body, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def nights(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A small clean night of standard-13 games, and the same night with every game's
    ``games.ruleset`` rewritten to the platform's id."""
    root = tmp_path_factory.mktemp("platform")
    simulate(games=40, out=root / "night", seed=31, presets=("standard-13",), workers=1)
    shutil.copytree(root / "night", root / "acme")
    for path in sorted((root / "acme" / "games").rglob("*.parquet")):
        table = pq.read_table(path)
        index = table.schema.get_field_index("ruleset")
        field = table.schema.field(index)
        assert set(table.column(index).to_pylist()) == {"standard-13"}
        renamed = pa.array([PLATFORM] * table.num_rows, type=field.type)
        pq.write_table(table.set_column(index, field, renamed), path)
    return root / "night", root / "acme"


def rows(out: Path, name: str) -> list[dict]:  # type: ignore[type-arg]
    return pq.read_table(out / name).to_pylist()


def test_a_platform_file_that_changes_nothing_the_hands_use_verifies_them_as_before(
    nights: tuple[Path, Path], tmp_path: Path
) -> None:
    night, acme = nights
    rules = rules_dir(tmp_path / "rules", TABLES)
    before = replay_logs(logs=night, out=tmp_path / "before", workers=1, progress=False,
                         fairplay=False, rng=False)  # fmt: skip
    after = replay_logs(logs=acme, out=tmp_path / "after", workers=1, progress=False,
                        fairplay=False, rng=False, rules=rules)  # fmt: skip
    assert after.hands == before.hands
    assert after.hands["verified"] > 100
    assert after.exit_status == before.exit_status == 0
    hands = rows(tmp_path / "after", "hands.parquet")
    assert {h["ruleset"] for h in hands} == {PLATFORM}
    assert [{**h, "ruleset": None} for h in hands] == [
        {**h, "ruleset": None} for h in rows(tmp_path / "before", "hands.parquet")
    ]
    assert rows(tmp_path / "after", "findings.parquet") == rows(
        tmp_path / "before", "findings.parquet"
    )
    run = json.loads((tmp_path / "after" / "run.json").read_text(encoding="utf-8"))
    text = (rules / f"{PLATFORM}.toml").read_bytes()
    assert run["arguments"]["rules"] == str(rules)
    assert run["rulesets"] == [
        {"id": PLATFORM, "file": f"{PLATFORM}.toml",
         "sha256": hashlib.sha256(text).hexdigest(), "extends": "standard-13"}
    ]  # fmt: skip
    plain = json.loads((tmp_path / "before" / "run.json").read_text(encoding="utf-8"))
    assert plain["rulesets"] == []
    assert "rules" not in plain["arguments"]


def test_without_the_platform_file_its_games_are_quarantined_with_the_reason(
    nights: tuple[Path, Path], tmp_path: Path
) -> None:
    _, acme = nights
    summary = replay_logs(logs=acme, out=tmp_path / "out", workers=1, progress=False,
                          fairplay=False, rng=False)  # fmt: skip
    assert summary.hands["quarantined"] == sum(summary.hands.values()) > 100
    reasons = {h["reason"] for h in rows(tmp_path / "out", "hands.parquet")}
    assert reasons
    assert all(
        f"unknown ruleset '{PLATFORM}'" in r and r.endswith(
            "; a platform ruleset is loaded with --rules DIR")
        for r in reasons
    )  # fmt: skip


def test_a_platform_file_that_lowers_the_cap_gives_score_findings(
    nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """points.cap lowered to 40: every loser the platform charged more than 40 points
    (under standard-13's cap of 80) is a score finding citing the platform's rule."""
    _, acme = nights
    rules = rules_dir(tmp_path / "rules", CAP_40)
    summary = replay_logs(logs=acme, out=tmp_path / "out", workers=1, progress=False,
                          fairplay=False, rng=False, rules=rules)  # fmt: skip
    assert summary.exit_status == 1
    assert summary.hands["discrepancy"] > 0
    scores = [f for f in rows(tmp_path / "out", "findings.parquet")
              if f["check"] == "score.points"]  # fmt: skip
    assert scores
    assert any("acme terms of play, section 5" in f["rule"] for f in scores)
    assert all(f["expected"] is not None and int(f["expected"]) <= 40 for f in scores
               if f["rule"].startswith("points.cap"))  # fmt: skip


def test_the_same_bytes_with_one_worker_or_two(
    nights: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the CLI, with buckets small enough that two workers share the night (the
    spawned workers build the rulesets from the staging value, not from DIR)."""
    _, acme = nights
    rules = rules_dir(tmp_path / "rules", CAP_40)
    monkeypatch.setattr(audit.run, "bucket_rows", lambda events, workers: 2_000)
    digests = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        result = runner.invoke(app, ["replay", str(acme), "--out", str(out), "--workers",
                                     workers, "--rules", str(rules), "--no-progress"])  # fmt: skip
        assert result.exit_code == 1, result.output
        digests.append([hashlib.sha256((out / n).read_bytes()).hexdigest() for n in OUTPUTS])
        run = json.loads((out / "run.json").read_text(encoding="utf-8"))
        assert [r["id"] for r in run["rulesets"]] == [PLATFORM]
    assert digests[0] == digests[1]


def test_explain_and_nightly_judge_a_hand_as_the_replay(
    nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """``explain --rules`` replays the hand under the platform's ruleset, as the night
    did; ``nightly --rules`` passes the folder to its replay and records it."""
    from audit.explain import explain_hand
    from audit.nightly.night import nightly_logs

    _, acme = nights
    rules = rules_dir(tmp_path / "rules", TABLES)
    hand = rows(acme, "hands")[0]["hand_id"]
    assert f"rules {PLATFORM})" in explain_hand(acme, hand, rules=rules)
    # The panel wraps its text inside a box: read it without the borders.
    words = " ".join(explain_hand(acme, hand).replace("\u2502", " ").split())
    assert "a platform ruleset is loaded with --rules DIR" in words
    result = runner.invoke(app, ["explain", hand, str(acme), "--rules", str(rules)])
    assert result.exit_code == 0, result.output
    assert "Acme 13" in result.output

    summary = nightly_logs(logs=acme, state=tmp_path / "state", workers=1, progress=False,
                           fairplay=False, rng=False, rules=rules)  # fmt: skip
    assert summary.exit_status == 0
    assert summary.hands["quarantined"] == 0
    assert summary.folder is not None
    run = json.loads((summary.folder / "run.json").read_text(encoding="utf-8"))
    assert run["arguments"]["command"] == "nightly"
    assert [r["id"] for r in run["rulesets"]] == [PLATFORM]


def test_the_shuffle_tests_and_the_detectors_see_the_platform_games(
    nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """The shuffle tests group shoes by their ruleset's jokers and the drop detectors
    need each ruleset's drop formats: a platform ruleset answers both as a preset does,
    so the night's shoes are tested as those of the same night under the preset; and
    `fairplay` / `rng` run alone refuse other platform rulesets than the replay's."""
    night, acme = nights
    rules = rules_dir(tmp_path / "rules", TABLES)
    replay_logs(logs=night, out=tmp_path / "before", workers=1, progress=False)
    replay_logs(logs=acme, out=tmp_path / "after", workers=1, progress=False, rules=rules)
    before = json.loads((tmp_path / "before" / "run.json").read_text())["rng"]
    after = json.loads((tmp_path / "after" / "run.json").read_text())["rng"]
    assert before == after
    assert rows(tmp_path / "after", "rng.parquet") == rows(tmp_path / "before", "rng.parquet")
    alone = runner.invoke(app, ["rng", str(acme), "--out", str(tmp_path / "after")])
    assert alone.exit_code == 2
    assert "other platform rulesets" in alone.output
    same = ["--out", str(tmp_path / "after"), "--rules", str(rules)]
    assert runner.invoke(app, ["rng", str(acme), *same]).exit_code in (0, 1)
    assert runner.invoke(app, ["fairplay", str(acme), *same]).exit_code in (0, 1)


def test_the_report_names_the_platform_rulesets_the_run_used(
    nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """A compliance reader sees which files judged the night: id, file, digest, parent."""
    night, acme = nights
    rules = rules_dir(tmp_path / "rules", TABLES)
    replay_logs(logs=acme, out=tmp_path / "acme", workers=1, progress=False, fairplay=False,
                rng=False, rules=rules)  # fmt: skip
    page = (tmp_path / "acme" / "report.html").read_text(encoding="utf-8")
    sha = hashlib.sha256((rules / f"{PLATFORM}.toml").read_bytes()).hexdigest()[:12]
    assert f"<code>{PLATFORM}</code> ({PLATFORM}.toml, sha256 {sha}, extends standard-13)" in page
    replay_logs(logs=night, out=tmp_path / "plain", workers=1, progress=False, fairplay=False,
                rng=False)  # fmt: skip
    assert "platform rulesets" not in (tmp_path / "plain" / "report.html").read_text()
