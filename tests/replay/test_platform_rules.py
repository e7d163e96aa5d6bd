"""A night whose games name a platform's own ruleset, replayed with ``--rules DIR``
(audit/rules/registry.py): the same verdicts as under the preset it extends when the file
changes nothing the hands use, the quarantine without it, score findings when it changes
a scoring value the night uses, and the same bytes whatever ``--workers``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import audit.run
from audit.cli import app
from audit.findings import Finding
from audit.replay.outcome import audit_hand
from audit.rules.registry import load_folder
from audit.rules.ruleset import Ruleset, load_preset
from audit.run import replay_logs
from audit.sim import simulate
from tests.replay.cases import DECLARE, P1, P2, P3, base, longer
from tests.replay.scenario import scenario
from tests.rules.support import rule_table

runner = CliRunner()
STANDARD = load_preset("standard-13")
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
    # schemas/output.md: the hands of one game left out for that alone are one finding,
    # each still its own quarantine row (a blind tester: one identical finding per hand)
    hands = rows(tmp_path / "out", "hands.parquet")
    games = {h["game_id"] for h in hands}
    told = [f for f in rows(tmp_path / "out", "findings.parquet") if f["check"] == "input.hand"]
    assert sorted(f["game_id"] for f in told) == sorted(games)
    held = [q for q in rows(tmp_path / "out", "quarantine.parquet") if q["check"] == "input.hand"]
    assert len(held) == len(hands)
    for f in told:
        mine = sorted(h["hand_id"] for h in hands if h["game_id"] == f["game_id"])
        if len(mine) > 1:
            assert f["hand_id"] is None
            assert f["message"].startswith(f"The {len(mine)} hands {mine[0]}, ")
            assert f"cannot be replayed: game {f['game_id']}: unknown ruleset" in f["message"]


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


# ------------------------------------------------------------ the rule a finding cites
# One hand each under a platform's own ruleset file: a finding that turns on one of its
# values cites that rule, its text and its source (docs/rulesets.md: "A finding that rests
# on a rule cites it as `key: text (source)`"), not the preset's requirement or card values.

SOURCE = "acme terms of play, section 4"
WRAPS = f"""
[melds.run_wraps]
value = true
text = "A sequence may turn the corner: K A 2 is a sequence."
source = "{SOURCE}.1"
"""
JOKERS_RUN = f"""
[deal.shoes]
value = [{{ players = [2, 6], decks = 3, printed_jokers = 3 }}]
text = "Three decks, a printed joker each."
source = "{SOURCE}.0"

[melds.jokers_only_group]
value = "run"
text = "Three or more jokers together count as an impure sequence."
source = "{SOURCE}.4"
"""
ACE_ONE = rule_table(
    "points.card_points",
    {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10},
    text="An ace counts 1 point.",
    source=f"{SOURCE}.5",
)
ACE_LOW_ONLY = f"""
[melds.ace_high]
value = false
text = "An ace may not end a sequence: Q K A is not a sequence."
source = "{SOURCE}.2"
"""
ENDS_HAND = """
[declaration.invalid_ends_hand]
value = true
text = "An invalid declaration ends the hand at once."
source = "acme tournament rules, section 2"
"""


def platform(tmp_path: Path, body: str) -> Ruleset:
    folder = rules_dir(tmp_path / "rules", body)
    return load_folder(folder).rulesets()[PLATFORM]


def audited(rules: Ruleset, **kw: Any) -> list[Finding]:
    game, hand = scenario(ruleset=PLATFORM, **kw)
    return audit_hand(hand, game, rules).findings


def refused(declare: str, stock: str, **kw: Any) -> dict[str, Any]:
    """P1 draws the joker and declares; the platform refuses it and P2, left alone, wins."""
    return base(stock=stock, events=[f"P1 draw_stock {stock.split()[0]}", declare],
                results={"P1": ("invalid_declare", 80, "-80.00"), "P2": ("won", 0, "72.00")},
                **kw)  # fmt: skip


def test_melds_run_wraps_a_valid_k_a_2_declaration_refused_cites_it(tmp_path: Path) -> None:
    """The platform's K A 2 (its source, section 4.1) refused, as the presets would: the
    ``declare.verdict`` cites melds.run_wraps and names it beside the group (it cited the
    requirement, declaration.min_runs, in the preset's words: a blind tester). A refused
    declaration no reading refuses still cites the requirement."""
    rules = platform(tmp_path, WRAPS)
    wrapped = "P1 declare QH: KH AH 2H / 5S 6S 7S / 9C 9D 9S / KD KC KS JK"
    seats = {"P1": "KH AH 2H 5S 6S 7S 9C 9D 9S KD KC KS QH", "P2": P2}
    found = audited(rules, **refused(wrapped, "JK 2S 6H 7D", seats=seats))
    verdict = next(f for f in found if f.check == "declare.verdict")
    assert verdict.rule.startswith("melds.run_wraps: A sequence may turn the corner")
    assert verdict.rule.endswith(f"({SOURCE}.1)")
    assert "KH AH 2H (pure sequence, melds.run_wraps)" in verdict.message
    plain = audited(rules, **refused(DECLARE, "JK 2S 6H 7D"))
    assert next(f for f in plain if f.check == "declare.verdict").rule.startswith(
        "declaration.min_runs: ")


def test_melds_jokers_only_group_a_valid_declaration_of_three_jokers_refused_cites_it(
    tmp_path: Path,
) -> None:
    """JK JK JK, a sequence by the platform's rule (section 4.4), refused as the presets'
    jokers put aside: the verdict cites melds.jokers_only_group (it cited min_runs)."""
    rules = platform(tmp_path, JOKERS_RUN)
    declare = "P1 declare QH: JK JK JK / 3D 4D 5D / 7C 7D 7H / 9S 9H 9D 9C"
    seats = {"P1": "JK JK 3D 4D 5D 7C 7D 7H 9S 9H 9D 9C QH", "P2": P2}
    found = audited(rules, decks=3, printed_jokers=3,
                    **refused(declare, "JK 2S 6H 7D", seats=seats))  # fmt: skip
    verdict = next(f for f in found if f.check == "declare.verdict")
    assert verdict.rule.startswith("melds.jokers_only_group: Three or more jokers")
    assert verdict.rule.endswith(f"({SOURCE}.4)")
    assert "JK JK JK (impure sequence, melds.jokers_only_group)" in verdict.message


# P2 shows a K-A-2 sequence beside a pure one after a turn of their own: 48 by the
# platform's rules (3D 5H 7D JD QH 4C 9C left), 80 by the presets' (no K-A-2: one
# sequence, so every card counts, capped).
WRAP_LOSER = "KC AC 2C 3S 4S 5S 3D 5H 7D JD QH 4C 9C"
WRAP_SHOW = "P2 show: KC AC 2C / 3S 4S 5S / 3D / 5H / 7D / JD / QH / 4C / 9C"


def test_melds_run_wraps_a_loser_charged_as_if_k_a_2_were_no_sequence_cites_it(
    tmp_path: Path,
) -> None:
    """The ``score.points`` of a loser charged 80 where the platform's K A 2 leaves 48
    cites melds.run_wraps and names the group (it cited points.card_points in the
    preset's words: a blind tester); charged 48, the hand is clean."""
    rules = platform(tmp_path, WRAPS)
    events = [*longer()["events"][:-1], WRAP_SHOW]
    seats = {"P1": P1, "P2": WRAP_LOSER}
    wrong = longer(seats=seats, events=events,
                   results={"P1": ("won", 0, "72.00"), "P2": ("lost", 80, "-80.00")})  # fmt: skip
    points = [f for f in audited(rules, **wrong) if f.check == "score.points"]
    assert [(f.player_id, f.expected, f.recorded) for f in points] == [("P2", "48", "80")]
    assert points[0].rule.startswith("melds.run_wraps: ")
    assert points[0].rule.endswith(f"({SOURCE}.1)")
    assert points[0].message.endswith(
        "; KC AC 2C is a pure sequence (melds.run_wraps), and the 80 charged is what the "
        "cards come to if it is not; the hand's money follows the 80 points charged: the "
        "record settles P2 at -80.00 where the rules give -48.00 and P1 at 72.00 where they "
        "give 43.20.")  # fmt: skip
    clean = longer(seats=seats, events=events,
                   results={"P1": ("won", 0, "43.20"), "P2": ("lost", 48, "-48.00")})  # fmt: skip
    assert audited(rules, **clean) == []


def test_melds_ace_high_a_loser_charged_as_if_q_k_a_were_a_sequence_cites_it(
    tmp_path: Path,
) -> None:
    """The other way round: the platform's rule (section 4.2) makes QC KC AC no sequence,
    so a loser whose record counts it as one is cited melds.ace_high."""
    rules = platform(tmp_path, ACE_LOW_ONLY)
    loser = "QC KC AC 3S 4S 5S 3D 5H 7D JD QH 4C 9C"
    show = "P2 show: QC KC AC / 3S 4S 5S / 3D / 5H / 7D / JD / QH / 4C / 9C"
    events = [*longer()["events"][:-1], show]
    wrong = longer(seats={"P1": P1, "P2": loser}, events=events,
                   results={"P1": ("won", 0, "43.20"), "P2": ("lost", 48, "-48.00")})  # fmt: skip
    points = [f for f in audited(rules, **wrong) if f.check == "score.points"]
    assert [(f.player_id, f.expected, f.recorded) for f in points] == [("P2", "80", "48")]
    assert points[0].rule.startswith("melds.ace_high: ")
    assert "QC KC AC is not a pure sequence (melds.ace_high)" in points[0].message


def test_points_card_points_an_ace_charged_10_where_it_counts_1_cites_it(
    tmp_path: Path,
) -> None:
    """The platform's ace counts 1 (section 4.5): P2, every card counting for want of a
    sequence, charged 77 with AS at 10 where the rules give 68. The difference is the
    card's value, so it cites points.card_points, not the unmet requirement (a blind
    tester), and names the card."""
    rules = platform(tmp_path, ACE_ONE)
    wrong = longer()  # P2's AS 3C 5D ... is charged 77 as standard-13 counts it
    points = [f for f in audited(rules, **wrong) if f.check == "score.points"]
    assert [(f.player_id, f.expected, f.recorded) for f in points] == [("P2", "68", "77")]
    assert points[0].rule.startswith("points.card_points: An ace counts 1 point.")
    assert points[0].message.endswith(
        "; AS counts 1 (points.card_points), where the 77 charged counts it 10; the hand's "
        "money follows the 77 points charged: the record settles P2 at -77.00 where the rules "
        "give -68.00 and P1 at 69.30 where they give 61.20.")
    clean = longer(results={"P1": ("won", 0, "61.20"), "P2": ("lost", 68, "-68.00")})
    assert audited(rules, **clean) == []


def test_declaration_invalid_ends_hand_a_turn_after_the_invalid_declaration_cites_it(
    tmp_path: Path,
) -> None:
    """The platform's invalid declaration ends the hand (its tournament rules, section 2):
    P2's turn after P1's invalid one is cited to that rule, and says so (it cited the
    turn order); under the preset play goes on and the turn is no finding."""
    invalid = "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS 7D"
    kw = base(seats={"P1": P1, "P2": P2, "P3": P3}, stock="7D 6H 2S",
              events=["P1 draw_stock 7D", invalid, "P2 draw_stock 6H", "P2 discard 6H"],
              results={"P1": ("invalid_declare", 80, "-80.00"), "P2": ("lost", 0, "0.00"),
                       "P3": ("lost", 0, "0.00")})  # fmt: skip
    turns = [f for f in audited(platform(tmp_path, ENDS_HAND), **kw) if f.check == "turn.order"]
    assert [(f.player_id, f.seq) for f in turns] == [("P2", 2)]
    assert turns[0].rule.startswith("declaration.invalid_ends_hand: ")
    assert turns[0].rule.endswith("(acme tournament rules, section 2)")
    assert turns[0].message == (
        "P2 took a turn after the hand had ended: P1's invalid declaration ended it "
        "(declaration.invalid_ends_hand).")  # fmt: skip
    game, hand = scenario(**kw)
    preset = audit_hand(hand, game, STANDARD).findings
    assert not [f for f in preset if f.check == "turn.order" and f.player_id == "P2"]
