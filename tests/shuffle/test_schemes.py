"""What deck.commitment checked over a night (audit.shuffle.schemes): one note for each
shuffle algorithm the audit does not replay, and run.json's ``commitments`` counting the
hands by what was checked of each (schemas/README.md, "Provably-fair shuffles";
schemas/output.md, run.json). Through Parquet, end to end."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from audit.cards import CODE_TEXT
from audit.records import Shuffle
from audit.run import replay_logs
from audit.shuffle.commitment import ALGORITHM, reproduce
from tests.logs.logbuilder import LogBuilder


def commitment(
    seed: str, *, algorithm: str = ALGORITHM, digest: str | None = None
) -> dict[str, Any]:
    return {
        "algorithm": algorithm,
        "server_seed": seed,
        "server_seed_hash": digest or hashlib.sha256(seed.encode()).hexdigest(),
        "client_seed": "player-chosen",
        "nonce": 7,
    }


def rigged(shuffle: dict[str, Any]) -> list[str]:
    """The shoe the scheme gives for ``shuffle``'s seeds, a stock joker moved into the first
    player's deal: what deck.commitment finds under the scheme's own name."""
    shoe = [CODE_TEXT[c] for c in reproduce(Shuffle(**{**shuffle, "algorithm": ALGORITHM}), 2, 2)]
    at = next(i for i in range(28, len(shoe)) if shoe[i] == "JK")
    shoe[0], shoe[at] = shoe[at], shoe[0]
    return shoe


def night(
    tmp_path: Path, hands: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The findings and run.json of a night of one game of these hands (``shoe``,
    ``shuffle``)."""
    logs = LogBuilder(tmp_path / "logs").game("G1")
    for n, hand in enumerate(hands, 1):
        logs.quick_hand(f"H{n}", **hand)
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False)
    found = [f for f in pq.read_table(out / "findings.parquet").to_pylist()
             if f["check"] == "deck.commitment"]  # fmt: skip
    return found, json.loads((out / "run.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("name", "like"),
    [
        ("HMAC-SHA256-Fisher-Yates", f" (it differs from {ALGORITHM!r} only in case)"),
        (f"{ALGORITHM} ", f" (it differs from {ALGORITHM!r} only in the whitespace around it)"),
        (f"\t{ALGORITHM.upper()}",
         f" (it differs from {ALGORITHM!r} only in case and the whitespace around it)"),
        ("platform-x-v2", ""),
    ],
)  # fmt: skip
def test_deck_commitment_another_algorithm_is_said_once_a_night_never_replayed(
    tmp_path: Path, name: str, like: str
) -> None:
    """schemas/README.md, "Provably-fair shuffles": another algorithm is held to the hash
    only and never read as the scheme, even one differing from its name only in case or
    whitespace; but the night says so, once for the name (not a hand), with how many hands
    name it (a blind tester's misspelt name let a rigged shoe pass in silence)."""
    hands = [{"shoe": rigged(commitment(f"seed-{n}", algorithm=name)),
              "shuffle": commitment(f"seed-{n}", algorithm=name)} for n in (1, 2)]  # fmt: skip
    found, run = night(tmp_path, hands)
    (note,) = found  # no critical deck.commitment: the shoe is not replayed
    assert (note["severity"], note["game_id"], note["hand_id"]) == ("info", "", None)
    assert note["message"] == (
        f"2 hands of the night name the shuffle algorithm {name!r}, which the audit does not "
        f"replay{like}, so their shoes were not checked against their seeds."
    )
    assert note["recorded"] == repr(name)  # a tab shown, as repr shows it
    assert run["commitments"]["hash_only"] == 2


def test_deck_commitment_an_empty_algorithm_is_said_once_a_night(tmp_path: Path) -> None:
    """schemas/README.md, "Provably-fair shuffles": an empty name is another algorithm,
    said so; and one note for each name, in name order, however many hands."""
    hands = [
        {"shuffle": commitment("seed-1", algorithm="")},
        {"shuffle": commitment("seed-2", algorithm="platform-x-v2")},
        {"shuffle": commitment("seed-3", algorithm="platform-x-v2")},
        {"shuffle": commitment("seed-4", algorithm="platform-x-v2")},
    ]
    found, _ = night(tmp_path, hands)
    assert [f["message"] for f in found] == [
        "1 hand of the night names an empty shuffle algorithm, which the audit does not "
        "replay, so its shoe was not checked against its seeds.",
        "3 hands of the night name the shuffle algorithm 'platform-x-v2', which the audit "
        "does not replay, so their shoes were not checked against their seeds.",
    ]


def test_deck_commitment_the_scheme_itself_has_no_note(tmp_path: Path) -> None:
    shuffle = commitment("seed-1")
    shoe = [CODE_TEXT[c] for c in reproduce(Shuffle(**shuffle), 2, 2)]
    found, run = night(tmp_path, [{"shoe": shoe, "shuffle": shuffle}])
    assert found == []
    assert run["commitments"]["replayed"] == 1


def test_commitments_count_a_digest_of_no_known_hash_function_apart(tmp_path: Path) -> None:
    """schemas/output.md, run.json ``commitments``: a hand whose commitment is a hex digest
    of a length no hash function the audit knows gives (48, 50 hex digits) had its seed's
    hash not checked: under the scheme only its shoe was (``shoe_only``), under another
    algorithm nothing (``unchecked``); counted as replayed in full or by the seed's hash
    before (a blind tester). An empty commitment, critical, was judged, and whitespace
    around a digest is trimmed as deck.commitment trims it."""
    fair = commitment("seed-1")
    shoe = [CODE_TEXT[c] for c in reproduce(Shuffle(**fair), 2, 2)]
    padded = commitment("seed-5", algorithm="platform-x-v2")
    padded["server_seed_hash"] = f" {padded['server_seed_hash'].upper()}\n"
    hands = [
        {"shoe": shoe, "shuffle": fair},  # replayed
        {"shoe": shoe, "shuffle": {**fair, "server_seed_hash": "ab" * 24}},  # shoe only
        {"shuffle": commitment("seed-3", algorithm="platform-x-v2", digest="cd" * 25)},
        {"shuffle": commitment("seed-4", algorithm="platform-x-v2", digest=" \n")},  # judged
        {"shuffle": padded},  # hash only, trimmed
    ]
    found, run = night(tmp_path, hands)
    assert run["commitments"] == {"hands": 5, "replayed": 1, "hash_only": 2, "shoe_only": 1,
                                  "unchecked": 1, "quarantined": 0}  # fmt: skip
    by_hand = {f["hand_id"]: f["severity"] for f in found}
    assert by_hand == {"H2": "info", "H3": "info", "H4": "critical", None: "info"}
