"""The report says what deck.commitment checked: how many hands the replay kept carried a
provably-fair commitment (``hands.shuffle``), and of them how many were replayed in full
and how many checked by their seed's hash only (run.json's ``commitments``); on a night
where none carried one, that none was checked (it said "Provably-fair commitments are
checked hand by hand" on every night, a blind tester)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from audit.cards import CODE_TEXT
from audit.cli import app
from audit.records import Shuffle
from audit.shuffle.commitment import ALGORITHM, reproduce
from tests.logs.logbuilder import LogBuilder


def commitment(seed: str, *, algorithm: str = ALGORITHM) -> dict[str, Any]:
    return {
        "algorithm": algorithm,
        "server_seed": seed,
        "server_seed_hash": hashlib.sha256(seed.encode()).hexdigest(),
        "client_seed": "player-chosen",
        "nonce": 7,
    }


def shuffle_words(out: Path) -> str:
    html = (out / "report.html").read_text(encoding="utf-8")
    return " ".join(html.split('id="shuffle-status"')[1].split("</p>")[0].split())


def replay(root: Path, out: Path, *more: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress",
                                      *more])  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    run: dict[str, Any] = json.loads((out / "run.json").read_text(encoding="utf-8"))
    return run


def test_a_night_whose_hands_carry_no_commitment_says_none_was_checked(tmp_path: Path) -> None:
    """The shuffle tests ran; no hand records a commitment: the page says none was checked,
    and `rummy-audit rng` over the replay keeps the replay's count."""
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").quick_hand("h2")
    root, out = logs.write(), tmp_path / "out"
    run = replay(root, out)
    assert run["rng"]["status"] == "run"
    assert run["commitments"] == {"hands": 0, "replayed": 0, "hash_only": 0, "shoe_only": 0,
                                  "unchecked": 0, "quarantined": 0}  # fmt: skip
    words = shuffle_words(out)
    assert ("No hand carried a provably-fair commitment (<code>hands.shuffle</code>), so "
            "<code>deck.commitment</code> checked none.") in words  # fmt: skip
    assert "checked hand by hand" not in words
    again = CliRunner().invoke(app, ["rng", str(root), "--out", str(out)])
    assert again.exit_code in (0, 1), again.output
    assert json.loads((out / "run.json").read_text())["commitments"] == run["commitments"]
    assert "checked none." in shuffle_words(out)


def test_the_hands_with_a_commitment_are_counted_by_what_was_checked(tmp_path: Path) -> None:
    """One hand of the known algorithm (replayed in full), two of another (the seed's hash
    only), one without a commitment; a hand of a game whose ruleset is unknown is
    quarantined and not counted, though it carries one, nor is a row whose commitment
    lacks its nonce (the contract's fields are all required: an invalid row): they are
    counted apart, as quarantined hands whose commitment went unchecked."""
    fair = commitment("seed-one")
    shoe = [CODE_TEXT[c] for c in reproduce(Shuffle(**fair), 2, 2)]
    logs = (
        LogBuilder(tmp_path / "logs")
        .game("g1")
        .quick_hand("h1", shoe=shoe, shuffle=fair)
        .quick_hand("h2", shuffle=commitment("seed-two", algorithm="platform-x-v2"))
        .quick_hand("h3", shuffle=commitment("seed-three", algorithm="platform-x-v2"))
        .quick_hand("h4")
        .quick_hand("h5", shuffle={**commitment("seed-five"), "nonce": None})
        .game("g2", ruleset="no-such-ruleset")
        .quick_hand("h6", shuffle=commitment("seed-six"))
    )
    root, out = logs.write(), tmp_path / "out"
    run = replay(root, out, "--no-rng")
    assert run["counts"]["hands"]["quarantined"] == 2
    assert run["commitments"] == {"hands": 3, "replayed": 1, "hash_only": 2, "shoe_only": 0,
                                  "unchecked": 0, "quarantined": 2}  # fmt: skip
    words = shuffle_words(out)
    found = run["counts"]["findings"].get("deck.commitment", 0)
    assert (f"3 of the 4 hands replayed carried a provably-fair commitment, checked hand by hand "
            f"by <code>deck.commitment</code> ({found} finding{'s' * (found != 1)}): 1 replayed in "
            f"full (the seed's hash, and the shoe its seeds shuffle to by <code>{ALGORITHM}"
            "</code>), 2 by the seed's hash only (another algorithm, which the audit cannot "
            "replay). 2 of the 2 quarantined hands carried one too and went unchecked: a "
            "quarantined hand is not replayed.") in words  # fmt: skip


def test_a_night_with_every_hand_quarantined_counts_their_unchecked_commitments(
    tmp_path: Path,
) -> None:
    """schemas/output.md (report.html): the shuffle section says how many of the quarantined
    hands carried a commitment, unchecked, on a night where no hand was replayed too (it
    said only that no commitment was checked, the count in run.json nowhere: a blind
    tester's night of 190 hands, every results file emptied)."""
    logs = (
        LogBuilder(tmp_path / "logs")
        .game("g1")
        .quick_hand("h1", shuffle=commitment("seed-one"))
        .quick_hand("h2", shuffle=commitment("seed-two", algorithm="platform-x-v2"))
        .quick_hand("h3")
    )
    logs.rows["results"].clear()
    root, out = logs.write(), tmp_path / "out"
    run = replay(root, out)
    assert run["counts"]["hands"] == {"verified": 0, "discrepancy": 0, "quarantined": 3}
    assert run["commitments"] == {"hands": 0, "replayed": 0, "hash_only": 0, "shoe_only": 0,
                                  "unchecked": 0, "quarantined": 2}  # fmt: skip
    assert ("no hand was replayed, so no provably-fair commitment was checked either. 2 of the "
            "3 quarantined hands carried one and went unchecked: a quarantined hand is not "
            "replayed.") in shuffle_words(out)  # fmt: skip
    # and where none of them carried one, it says so
    run["commitments"]["quarantined"] = 0
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert ("no provably-fair commitment was checked either. None of the 3 quarantined hands "
            "carried one.") in shuffle_words(out)  # fmt: skip


def test_an_older_run_json_without_the_count_says_it_does_not_know(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    root, out = logs.write(), tmp_path / "out"
    run = replay(root, out, "--no-rng")
    del run["commitments"]
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    words = shuffle_words(out)
    assert ("This run.json does not say how many hands carried a provably-fair commitment "
            "(an older rummy-audit wrote it)") in words  # fmt: skip
    assert "checked none" not in words


def test_a_count_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    root, out = logs.write(), tmp_path / "out"
    run = replay(root, out, "--no-rng")
    run["commitments"]["hands"] = "four"
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 2, result.output
    assert "commitments.hands is a string, not an integer" in result.output


def test_the_hands_whose_commitment_is_of_no_known_hash_are_not_called_checked(
    tmp_path: Path,
) -> None:
    """schemas/output.md (run.json ``commitments``, report.html): a commitment of 48 hex
    digits, of no hash function the audit knows, under the scheme (its shoe alone checked)
    and under another algorithm (nothing checked): the report counted them "replayed in
    full (the seed's hash, and the shoe ...)" and "by the seed's hash only" (a blind
    tester); it says what of them was checked. An older run.json without the two counts
    still reads."""
    fair = commitment("seed-one")
    shoe = [CODE_TEXT[c] for c in reproduce(Shuffle(**fair), 2, 2)]
    other = {**commitment("seed-two", algorithm="platform-x-v2"), "server_seed_hash": "cd" * 25}
    logs = (
        LogBuilder(tmp_path / "logs")
        .game("g1")
        .quick_hand("h1", shoe=shoe, shuffle={**fair, "server_seed_hash": "ab" * 24})
        .quick_hand("h2", shuffle=other)
    )
    root, out = logs.write(), tmp_path / "out"
    run = replay(root, out, "--no-rng")
    assert run["commitments"] == {"hands": 2, "replayed": 0, "hash_only": 0, "shoe_only": 1,
                                  "unchecked": 1, "quarantined": 0}  # fmt: skip
    found = run["counts"]["findings"]["deck.commitment"]
    assert (f"2 hands carried a provably-fair commitment, checked hand by hand by <code>"
            f"deck.commitment</code> ({found} findings): 0 replayed in full (the seed's hash, "
            f"and the shoe its seeds shuffle to by <code>{ALGORITHM}</code>), 0 by the seed's "
            f"hash only (another algorithm, which the audit cannot replay), 1 by the shoe only "
            f"(<code>{ALGORITHM}</code>, but the commitment is a digest of no hash function the "
            "audit knows, so the seed's hash was not checked), 1 not checked at all (another "
            "algorithm, and a commitment that is a digest of no hash function the audit "
            "knows).") in shuffle_words(out)  # fmt: skip
    for key in ("shoe_only", "unchecked"):
        del run["commitments"][key]
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert "by the shoe only" not in shuffle_words(out)
    run["commitments"]["unchecked"] = "one"
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 2, result.output
    assert "commitments.unchecked is a string, not an integer" in result.output
