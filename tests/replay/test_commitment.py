"""deck.commitment: a provably-fair hand's revealed seed must hash to its commitment and,
for the hmac-sha256-fisher-yates scheme, shuffle to the shoe dealt (log-format.md,
hands.shuffle; the scheme in schemas/README.md). Through Parquet, end to end."""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from audit.cards import CODE_TEXT, canonical_shoe, shoe_composition
from audit.records import Shuffle
from audit.run import replay_logs
from audit.shuffle.commitment import ALGORITHM, reproduce
from tests.logs.logbuilder import LogBuilder, hand_findings

SEED = "d5f1c0a9e3b2-server"


def commitment(seed: str = SEED, *, algorithm: str = ALGORITHM, nonce: int = 7) -> dict[str, Any]:
    return {
        "algorithm": algorithm,
        "server_seed": seed,
        "server_seed_hash": hashlib.sha256(seed.encode()).hexdigest(),
        "client_seed": "player-chosen",
        "nonce": nonce,
    }


def fair_shoe(shuffle: dict[str, Any]) -> list[str]:
    return [CODE_TEXT[c] for c in reproduce(Shuffle(**shuffle), 2, 2)]


def audit(tmp_path: Path, **hand: Any) -> list[dict[str, Any]]:
    logs = LogBuilder(tmp_path / "logs").game("G1").quick_hand("H1", **hand).write()
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False)
    return hand_findings(tmp_path / "out")


def test_deck_commitment_a_fair_shuffle_is_verified(tmp_path: Path) -> None:
    shuffle = commitment()
    assert audit(tmp_path, shoe=fair_shoe(shuffle), shuffle=shuffle) == []


def test_deck_commitment_a_seed_that_does_not_hash_to_the_commitment(tmp_path: Path) -> None:
    shuffle = commitment()
    shoe = fair_shoe(shuffle)
    shuffle["server_seed_hash"] = hashlib.sha256(b"another seed").hexdigest()
    (found,) = audit(tmp_path, shoe=shoe, shuffle=shuffle)
    assert (found["check"], found["severity"], found["hand_id"]) == (
        "deck.commitment",
        "critical",
        "H1",
    )
    assert "does not hash" in found["message"]


def test_deck_commitment_a_shoe_rearranged_after_the_commitment(tmp_path: Path) -> None:
    shuffle = commitment()
    shoe = fair_shoe(shuffle)
    fair = list(shoe)
    shoe[3], shoe[40] = shoe[40], shoe[3]  # same cards, another deal
    assert shoe[3] != shoe[40]
    (found,) = audit(tmp_path, shoe=shoe, shuffle=shuffle)
    assert found["check"] == "deck.commitment"
    assert found["message"] == (
        "The seeds of hand H1 shuffle to another shoe than the one recorded, at 2 of its 106 "
        f"positions (the same cards in another order): position 3, p2's 2nd card, holds "
        f"{shoe[3]} where the committed shuffle gives {fair[3]}; position 40, the stock's "
        f"13th card, holds {shoe[40]} where it gives {fair[40]}; so p2 was dealt {shoe[3]} "
        f"in place of {fair[3]}."
    )
    assert found["recorded"].split()[0] == shoe[3]


def test_deck_commitment_a_stock_joker_dealt_to_one_player_names_them(tmp_path: Path) -> None:
    """A blind tester's agent read "they differ from shoe position 1 on" as the whole shoe
    reordered, where a printed joker had been moved from the stock into one player's deal:
    the finding names both places and the player dealt the joker, whose finding it is."""
    shuffle = commitment()
    shoe = fair_shoe(shuffle)
    fair = list(shoe)
    at = next(i for i in range(28, len(shoe)) if shoe[i] == "JK")  # the stock's first joker
    shoe[0], shoe[at] = shoe[at], shoe[0]
    (found,) = audit(tmp_path, shoe=shoe, shuffle=shuffle)
    assert found["player_id"] == "p1"
    assert (
        f"position 0, p1's 1st card, holds JK where the committed shuffle gives {fair[0]}; "
        f"position {at}, the stock's {at - 27}"
    ) in found["message"]
    assert found["message"].endswith(f"; so p1 was dealt JK in place of {fair[0]}.")


def test_deck_commitment_a_reordered_stock_deals_every_player_the_committed_cards(
    tmp_path: Path,
) -> None:
    """Positions outside the hands (the wild card, the open card, the stock) or two of one
    player's own cards swapped: the finding is no player's, and says every hand dealt is
    the committed one."""
    shuffle = commitment()
    shoe = fair_shoe(shuffle)
    fair = list(shoe)
    shoe[26], shoe[50] = shoe[50], shoe[26]  # the wild card and the stock's 23rd card
    shoe[0], shoe[2] = shoe[2], shoe[0]  # p1's 1st and 2nd cards
    assert fair[26] != fair[50]
    assert fair[0] != fair[2]
    found = [f for f in audit(tmp_path, shoe=shoe, shuffle=shuffle)
             if f["check"] == "deck.commitment"]  # fmt: skip
    (commit,) = found
    assert commit["player_id"] is None
    assert "at 4 of its 106 positions" in commit["message"]
    assert f"position 26, the wild card, holds {shoe[26]} where it gives {fair[26]}" in (
        commit["message"]
    )
    assert commit["message"].endswith(
        "; every player was dealt the cards the committed shuffle deals them."
    )


def test_deck_commitment_many_positions_differing_are_counted_and_the_first_named(
    tmp_path: Path,
) -> None:
    shuffle = commitment()
    fair = fair_shoe(shuffle)
    shoe = fair[1:8] + fair[:1] + fair[8:]  # the first 8 cards dealt, rotated by one
    moved = sum(a != b for a, b in zip(fair, shoe, strict=True))
    assert moved > 6
    found = [f for f in audit(tmp_path, shoe=shoe, shuffle=shuffle)
             if f["check"] == "deck.commitment"]  # fmt: skip
    (commit,) = found
    assert commit["player_id"] is None  # two players' hands differ
    assert (
        f"at {moved} of its 106 positions (the same cards in another order), the first 3: "
        "position 0, p1's 1st card, holds"
    ) in commit["message"]
    assert commit["message"].count("position ") == 3
    assert commit["message"].endswith(
        "; so p1 and p2 were dealt other cards than the committed shuffle deals them."
    )


def test_deck_commitment_unknown_schemes_are_held_to_the_hash_only(tmp_path: Path) -> None:
    shuffle = commitment(algorithm="platform-x-v2")
    seed = "platform-x seed"
    shuffle["server_seed"] = seed
    shuffle["server_seed_hash"] = hashlib.sha512(seed.encode()).hexdigest().upper()
    # a random shoe: not reproduced, hash right; the night's one note that it was not
    # replayed (schemas/README.md, "Provably-fair shuffles"), no finding of the hand
    (note,) = audit(tmp_path, shuffle=shuffle)
    assert (note["check"], note["severity"], note["hand_id"]) == ("deck.commitment", "info", None)


def test_deck_commitment_a_mismatch_records_the_commitment_as_the_log_writes_it(
    tmp_path: Path,
) -> None:
    """docs/contract/audit-output.md: ``recorded`` is "what the log says". A commitment in
    capitals with a trailing line break is compared trimmed and lower-cased, but recorded as
    written (it showed the trimmed, lower-cased text, a blind tester); ``expected`` is the
    revealed seed's hash."""
    shuffle = commitment()
    shoe = fair_shoe(shuffle)
    published = hashlib.sha256(b"another seed").hexdigest().upper() + "\n"
    (found,) = audit(tmp_path, shoe=shoe, shuffle={**shuffle, "server_seed_hash": published})
    assert (found["check"], found["severity"]) == ("deck.commitment", "critical")
    assert found["recorded"] == published.replace("\n", "\\n")  # one line, as written
    assert found["expected"] == hashlib.sha256(SEED.encode()).hexdigest()


def test_deck_commitment_whitespace_around_the_commitment_is_trimmed(tmp_path: Path) -> None:
    """schemas/README.md, "Provably-fair shuffles": spaces, tabs and line breaks around
    ``server_seed_hash`` are trimmed (a stray line break is no missing commitment), as the
    contract now says; whitespace inside it is not hex."""
    readme = (Path(__file__).parents[2] / "schemas" / "README.md").read_text()
    assert "spaces, tabs and line breaks around it are trimmed" in " ".join(readme.split())
    shuffle = commitment()
    shoe = fair_shoe(shuffle)
    padded = f" \t{shuffle['server_seed_hash'].upper()}\r\n"
    assert audit(tmp_path, shoe=shoe, shuffle={**shuffle, "server_seed_hash": padded}) == []
    split = shuffle["server_seed_hash"][:32] + " " + shuffle["server_seed_hash"][32:]
    (found,) = audit(tmp_path / "split", shoe=shoe,
                     shuffle={**shuffle, "server_seed_hash": split})  # fmt: skip
    assert (found["severity"], "not a hex digest" in found["message"]) == ("critical", True)


@pytest.mark.parametrize("name", ["md5", "sha1", "sha3_224", "sha3_256", "blake2s", "blake2b"])
def test_deck_commitment_the_digest_may_be_any_standard_hash_of_its_length(
    tmp_path: Path, name: str
) -> None:
    # schemas/README.md, "Provably-fair shuffles": the contract names no hash function, so
    # a commitment by SHA3-256 (64 hex digits, as SHA-256) is no broken commitment.
    shuffle = commitment()
    shoe = fair_shoe(shuffle)
    shuffle["server_seed_hash"] = hashlib.new(name, SEED.encode()).hexdigest()
    assert audit(tmp_path, shoe=shoe, shuffle=shuffle) == []
    wrong = hashlib.new(name, b"another seed").hexdigest()
    (found,) = audit(tmp_path / "wrong", shoe=shoe, shuffle={**shuffle, "server_seed_hash": wrong})
    assert (found["check"], found["severity"]) == ("deck.commitment", "critical")
    assert "does not hash" in found["message"]


@pytest.mark.parametrize(
    ("published", "words"),
    [("", "is empty"), ("   ", "is empty"), ("z" * 64, "not a hex digest"),
     ("0x" + "ab" * 31, "not a hex digest")],
)  # fmt: skip
def test_deck_commitment_a_commitment_never_published_is_broken(
    tmp_path: Path, published: str, words: str
) -> None:
    # An empty commitment passed in silence before (a blind tester's night): the players
    # were shown nothing the revealed seed could be held to.
    shuffle = {**commitment(), "server_seed_hash": published}
    (found,) = audit(tmp_path, shoe=fair_shoe(commitment()), shuffle=shuffle)
    assert (found["check"], found["severity"], found["hand_id"]) == (
        "deck.commitment",
        "critical",
        "H1",
    )
    assert words in found["message"]
    assert "cannot be shown to be fair" in found["message"]


def test_deck_commitment_a_digest_of_an_unknown_length_is_said_not_checked(
    tmp_path: Path,
) -> None:
    shuffle = {**commitment(), "server_seed_hash": "ab" * 10}  # 20 hex digits: no hash
    (found,) = audit(tmp_path, shoe=fair_shoe(commitment()), shuffle=shuffle)
    assert (found["check"], found["severity"], found["recorded"]) == (
        "deck.commitment",
        "info",
        "20 hex digits",
    )
    assert found["message"] == (
        "The commitment of hand H1 is a digest of 20 hex digits, of no hash function the "
        "audit knows, so its revealed seed was not checked against it (its shoe was still "
        "replayed from its seeds)."
    )


def test_deck_commitment_a_digest_of_an_unknown_length_of_another_algorithm_checks_nothing(
    tmp_path: Path,
) -> None:
    """A blind tester's 50-digit digest under another algorithm was said "not checked
    against it (the shoe still was)", where another algorithm's shoe is never replayed
    (schemas/README.md, "Provably-fair shuffles"): the hand's finding says nothing of its
    shuffle was checked; the night's note says the algorithm's shoes were not replayed."""
    shuffle = {**commitment(algorithm="platform-x-v2"), "server_seed_hash": "ab" * 25}
    found = audit(tmp_path, shuffle=shuffle)
    (hand,) = [f for f in found if f["hand_id"] == "H1"]
    assert (hand["check"], hand["severity"], hand["recorded"]) == (
        "deck.commitment",
        "info",
        "50 hex digits",
    )
    assert hand["message"] == (
        "The commitment of hand H1 is a digest of 50 hex digits, of no hash function the "
        "audit knows, so its revealed seed was not checked against it, and its shoe was not "
        f"replayed either (its algorithm is not {ALGORITHM}), so nothing of its shuffle was "
        "checked."
    )
    assert "still" not in hand["message"]


def test_deck_commitment_the_canonical_shoe_is_code_order_deck_by_deck() -> None:
    assert [CODE_TEXT[c] for c in canonical_shoe(2, 2)[:4]] == ["AS", "AS", "2S", "2S"]
    assert [CODE_TEXT[c] for c in canonical_shoe(2, 2)[-3:]] == ["KC", "JK", "JK"]


@given(st.text(min_size=1, max_size=20), st.integers(0, 2**40), st.sampled_from([(1, 1), (2, 2)]))
def test_deck_commitment_the_scheme_is_a_permutation_of_the_shoe(
    seed: str, nonce: int, shoe: tuple[int, int]
) -> None:
    decks, jokers = shoe
    shuffle = Shuffle(ALGORITHM, seed, None, "c", nonce)
    dealt = reproduce(shuffle, decks, jokers)
    assert Counter(dealt) == shoe_composition(decks, jokers)
    assert dealt == reproduce(shuffle, decks, jokers)  # a pure function of the seeds


def scheme_by_the_book(seed: str, client: str, nonce: int, shoe: list[int]) -> list[int]:
    """The scheme as schemas/README.md words it, with the standard library's HMAC: the
    reference the fast implementation (the padded key hashed once a hand) must match."""
    stream: list[int] = []
    block = 0
    for i in range(len(shoe) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        while True:
            if not stream:
                message = f"{client}:{nonce}:{block}".encode()
                digest = hmac.new(seed.encode(), message, hashlib.sha256).digest()
                stream = list(struct.unpack(">8I", digest))
                block += 1
            word = stream.pop(0)
            if word < limit:
                break
        j = word % (i + 1)
        shoe[i], shoe[j] = shoe[j], shoe[i]
    return shoe


@given(st.text(max_size=150), st.text(max_size=12), st.integers(0, 2**40))
@example("s" * 64, "c", 1).via("a seed of exactly one block")
@example("é" * 40, "c", 2).via("a seed of 80 bytes: hashed first")
def test_deck_commitment_the_scheme_is_hmac_sha256_whatever_the_seed_length(
    seed: str, client: str, nonce: int
) -> None:
    """Seeds longer than SHA-256's 64-byte block are hashed first (RFC 2104)."""
    dealt = reproduce(Shuffle(ALGORITHM, seed, None, client, nonce), 2, 2)
    assert dealt == scheme_by_the_book(seed, client, nonce, canonical_shoe(2, 2))


def test_deck_commitment_the_documented_test_vector_holds() -> None:
    """The vector in schemas/README.md, for platform engineers writing the scheme."""
    readme = (Path(__file__).parents[2] / "schemas" / "README.md").read_text()
    seed = "example-server-seed"
    digest = hashlib.sha256(seed.encode()).hexdigest()
    dealt = reproduce(Shuffle(ALGORITHM, seed, digest, "example-client", 1), 2, 2)
    first = " ".join(CODE_TEXT[c] for c in dealt[:12])
    assert f"`{first}`" in readme
    assert digest in readme


def test_deck_commitment_a_game_recording_no_shoe_is_reported_and_the_night_goes_on(
    tmp_path: Path,
) -> None:
    """0 decks, or fewer than 0 printed jokers, describe no shoe to shuffle the seeds over:
    the games row is quarantined with its reason (schemas/README.md: a games value no game
    can have), its hand with it, and neither the commitment nor the shuffle tests stop the
    run (they stopped it, or raised, before)."""
    for decks, jokers in ((0, 2), (-2, 2), (2, -1)):
        shuffle = commitment()
        logs = (
            LogBuilder(tmp_path / f"logs{decks}{jokers}")
            .game("G1", decks=decks, printed_jokers=jokers, shoe=fair_shoe(shuffle))
            .quick_hand("H1", shoe=fair_shoe(shuffle), shuffle=shuffle)
            .game("G2")
            .quick_hand("H2")
            .write()
        )
        out = tmp_path / f"out{decks}{jokers}"
        summary = replay_logs(logs=logs, out=out, workers=1, progress=False)
        found = pq.read_table(out / "findings.parquet").to_pylist()
        row = next(f for f in found if f["check"] == "input.row")
        column, value = ("decks", decks) if decks < 1 else ("printed_jokers", jokers)
        assert (row["game_id"], f"{column} {value}" in row["message"]) == ("G1", True)
        assert summary.hands == {"verified": 1, "discrepancy": 0, "quarantined": 1}


def test_deck_commitment_the_shuffle_starts_from_the_rulesets_shoe_not_the_games_row(
    tmp_path: Path,
) -> None:
    """schemas/README.md, "Provably-fair shuffles": "Start from the ruleset's shoe in
    canonical order". A games row recording 1 deck and no joker where standard-13 deals two
    players 2 decks and 2 jokers is its own deck.composition finding; the seeds, which
    shuffle the ruleset's shoe to the one dealt, are no deck.commitment finding (a blind
    tester's fair shoes were called unfair: the shuffle started from the games row)."""
    shuffle = commitment()
    logs = (
        LogBuilder(tmp_path / "logs")
        .game("G1", decks=1, printed_jokers=0)
        .quick_hand("H1", shoe=fair_shoe(shuffle), shuffle=shuffle)
        .write()
    )
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False)
    found = hand_findings(tmp_path / "out")
    assert [(f["check"], f["hand_id"]) for f in found] == [("deck.composition", "H1")]
    assert "records 1 deck" in found[0]["message"]


def test_deck_commitment_seeds_that_shuffle_the_games_rows_shoe_are_no_second_finding(
    tmp_path: Path,
) -> None:
    """A platform dealing standard-13's two players from 3 decks, its games row saying so,
    its seeds shuffling those 3 decks to the shoe dealt: one fault, the shoe's size
    (deck.composition), not also a critical deck.commitment saying the seeds "shuffle to
    another shoe" (a blind tester's night), which an investigator reads as a rigged
    shuffle."""
    shuffle = commitment()
    shoe = [CODE_TEXT[c] for c in reproduce(Shuffle(**shuffle), 3, 3)]

    def checks(night: str, seeds: dict[str, Any]) -> set[str]:
        logs = (
            LogBuilder(tmp_path / night)
            .game("G1", decks=3, printed_jokers=3)
            .quick_hand("H1", shoe=shoe, shuffle=seeds)
            .write()
        )
        replay_logs(logs=logs, out=tmp_path / f"{night}-out", workers=1, progress=False)
        return {f["check"] for f in pq.read_table(tmp_path / f"{night}-out" / "findings.parquet")
                .to_pylist()}  # fmt: skip

    found = checks("fair", shuffle)
    assert "deck.composition" in found
    assert "deck.commitment" not in found
    # and seeds that shuffle neither shoe to the one dealt are still found
    found = checks("other", {**shuffle, "nonce": 8})
    assert "deck.commitment" in found
