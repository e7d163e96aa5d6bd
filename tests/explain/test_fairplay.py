"""`explain --out`: the fair-play suspicions a hand is evidence for, from a nightly run's
suspicions.parquet; and, without one, that fair play was not looked up (never "none")."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.explain import lookup
from audit.explain.view import NOT_LOOKED_UP
from tests.explain.fairplay import EVIDENCE, night
from tests.explain.hands import DISPUTE
from tests.explain.test_golden import PLAIN
from tests.explain.test_html import QUOTES, SCRIPT
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario
from tests.report.nights import small_night, suspicion


def explain(tmp_path: Path, *more: str) -> tuple[str, str]:
    """``explain H1 logs --html hand.html MORE`` in ``tmp_path``: (stdout, page)."""
    args = ["explain", "H1", "logs", "--html", "hand.html", *more]
    result = CliRunner().invoke(app, args, env=PLAIN)
    assert result.exit_code == 0, result.output
    return result.stdout, (tmp_path / "hand.html").read_text(encoding="utf-8")


@pytest.fixture
def logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return write_log(tmp_path / "logs", [scenario(**DISPUTE)])


def flat(text: str) -> str:
    """The terminal's words without its panel borders and line breaks."""
    return " ".join(text.replace("│", " ").split())


def test_the_suspicions_the_hand_is_evidence_for_are_listed_strongest_first(
    tmp_path: Path, logs: Path
) -> None:
    night(tmp_path / "out", EVIDENCE)
    view = lookup(tmp_path / "out", "H1", dealt=("P1", "P2"))
    assert view.looked_up
    assert [(s.check, s.severity, s.players) for s in view.suspicions] == [
        ("fairplay.collusion", "major", ("P1", "P2")),
        ("fairplay.soft_drop", "minor", ("P3", "P1")),
    ]
    text, page = explain(tmp_path, "--out", "out")
    words = flat(text)
    assert "This hand is evidence for 2 of the 4 fair-play suspicions in" in words
    assert "[major] fairplay.collusion: P1, P2 P1 and P2 did it 9 times" in words
    assert "fairplay.bot" not in text
    assert "<b>fairplay.soft_drop</b> &middot; P3, P1" in page
    assert "not looked up" not in text + page


def test_none_is_said_only_when_the_file_was_looked_in(tmp_path: Path, logs: Path) -> None:
    elsewhere = suspicion("fairplay.collusion", ("P1", "P8"), 1e-8, ["G7-01"], games=["G7"])
    night(tmp_path / "out", [EVIDENCE[2], elsewhere])
    text, page = explain(tmp_path, "--out", "out")
    none = ("None of the 2 fair-play suspicions in out/suspicions.parquet lists this hand "
            "among its evidence or involves its accounts")  # fmt: skip
    assert none in flat(text)
    assert none in page


def test_a_hand_that_involves_a_pairs_accounts_is_not_evidence_for_none(
    tmp_path: Path, logs: Path
) -> None:
    """A suspicion lists only its few strongest hands, but its detector counted every hand
    with both accounts of the pair: H1 deals P2 and P3 in, so it counts for their chip
    dumping though not listed (a blind tester's feeder and partner, both at the table, read
    "evidence for none of the 2 fair-play suspicions")."""
    night(tmp_path / "out", EVIDENCE[2:])
    text, page = explain(tmp_path, "--out", "out")
    note = ("This hand is not among the listed evidence hands of any of the 2 fair-play "
            "suspicions in out/suspicions.parquet, but it involves the accounts of 1 of them "
            "(dealt in together):")  # fmt: skip
    involves = "Involves the accounts of this suspicion; not among its listed evidence"
    for words in (flat(text), page):
        assert note in words
        assert involves in words
        assert "evidence for none" not in words
    assert "fairplay.chip_dumping: P2, P3" in flat(text)
    assert "fairplay.bot" not in text
    (involved,) = lookup(tmp_path / "out", "H1", dealt=("P1", "P2", "P3")).suspicions
    assert (involved.players, involved.listed) == (("P2", "P3"), False)
    night(tmp_path / "out", EVIDENCE)
    words = flat(explain(tmp_path, "--out", "out")[0])
    assert ("This hand is evidence for 2 of the 4 fair-play suspicions in out/suspicions.parquet"
            ", and involves the accounts of 1 more, the strongest first:") in words  # fmt: skip


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        (None, "no --out was given; to list the fair-play suspicions this hand is evidence "
               "for, give the nightly run's output folder with --out OUT."),
        ({"status": "not run", "why": "--no-fairplay"},
         "the detectors did not run in out (--no-fairplay); run the detectors with "
         "`rummy-audit fairplay logs --out out`, then explain the hand again with --out."),
        ({"older": True}, "the run in out was made by an older rummy-audit, without the "
                          "detectors; run the detectors with"),
        ({"no file": True}, "out has no suspicions.parquet; run the detectors with"),
        ({"not a folder": True}, "out is not a folder; give the output folder of a nightly "
                                 "run (`rummy-audit replay LOGS --out OUT`) with --out."),
    ],
)  # fmt: skip
def test_without_suspicions_to_look_in_it_says_fair_play_was_not_looked_up(
    tmp_path: Path, logs: Path, entry: dict[str, object] | None, why: str
) -> None:
    more: list[str] = []
    if entry is not None:
        more = ["--out", "out"]
        if "not a folder" in entry:
            (tmp_path / "out").write_text("a file")
        elif "older" in entry:
            (tmp_path / "out").mkdir()
            (tmp_path / "out" / "run.json").write_text('{"version": "0.0.9"}')
        elif "no file" in entry:
            (tmp_path / "out").mkdir()
        else:
            night(tmp_path / "out", EVIDENCE, fairplay=entry)
    text, page = explain(tmp_path, *more)
    assert f"Fair play was not looked up: {why}" in flat(text)
    assert f"Fair play was not looked up: {why}" in unescape(page)
    for words in ("evidence for none", "no fair-play", "No fair-play"):
        assert words not in text + page


def test_a_log_root_given_as_out_is_said_to_be_one_not_a_runs_outputs(
    tmp_path: Path, logs: Path
) -> None:
    """`explain H1 logs --out logs`: the folder given as --out is the log root (it holds
    the log tables), not a run's outputs; the explanation says so and asks for the output
    folder of a run, and never advises `rummy-audit fairplay logs --out logs`, which would
    write the outputs into the logs (a blind tester)."""
    text, page = explain(tmp_path, "--out", "logs")
    why = (
        "Fair play was not looked up: logs is a log root (it holds the games, hands, events, "
        "results, game_events, ledger, sessions tables), not the output folder of a run; "
        "give the output folder of the "
        "nightly run over it (`rummy-audit replay logs --out OUT`, a folder of its own) with "
        "--out."
    )
    assert why in flat(text)
    assert why in unescape(page)
    assert "--out logs`" not in text + unescape(page)


def test_hostile_ids_in_a_suspicion_are_text(tmp_path: Path, logs: Path) -> None:
    hostile = suspicion("fairplay.collusion", (SCRIPT, QUOTES), 1e-8, ["H1"], games=["G1"])
    night(tmp_path / "out", [hostile])
    text, page = explain(tmp_path, "--out", "out")
    assert f"fairplay.collusion: {SCRIPT}, {QUOTES}" in flat(text)
    assert SCRIPT not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;, &#34;O&#39;Hara&#34;&amp;[red]x[/red]" in page
    assert "<script" not in page


def test_a_real_night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay with the detectors (they find nothing in four games: looked up, none) and
    one without (not looked up)."""
    for folder, fairplay in (("on", True), ("off", False)):
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        small_night(tmp_path / folder, fairplay=fairplay)
    monkeypatch.chdir(tmp_path)
    for folder, words in (
        ("on", "None of the 0 fair-play suspicions in on/out/suspicions.parquet lists this "
               "hand"),
        ("off", "Fair play was not looked up: the detectors did not run in off/out "
                "(--no-fairplay)"),
    ):  # fmt: skip
        args = ["explain", "G1-01", f"{folder}/logs", "--out", f"{folder}/out"]
        result = CliRunner().invoke(app, args, env=PLAIN)
        assert result.exit_code == 0, result.output
        assert words in flat(result.stdout)


def test_an_unreadable_suspicions_file_is_one_line_and_exit_2(tmp_path: Path, logs: Path) -> None:
    night(tmp_path / "out", EVIDENCE)
    (tmp_path / "out" / "suspicions.parquet").write_text("not parquet")
    result = CliRunner().invoke(app, ["explain", "H1", "logs", "--out", "out"], env=PLAIN)
    assert result.exit_code == 2
    assert result.output.startswith("rummy-audit: error: cannot read out/suspicions.parquet: ")
    assert result.output.count("\n") == 1


def test_the_default_says_not_looked_up() -> None:
    assert not NOT_LOOKED_UP.looked_up
    assert lookup(None, "H1") is NOT_LOOKED_UP
