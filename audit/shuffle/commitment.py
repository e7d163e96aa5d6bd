"""Provably-fair shuffles: does the revealed seed hash to the commitment, and does it
reproduce the recorded shoe?

A hand's ``shuffle`` (log-format.md, hands) carries the platform's commitment. Two checks,
both ``deck.commitment``:

- **The hash.** ``server_seed_hash`` must be the hex digest of ``server_seed`` (its UTF-8
  bytes). The contract names no hash function, so the digest's length picks the standard
  functions it may be (``_HASHES``: 64 hex digits SHA-256, SHA3-256 or BLAKE2s ...), and
  the seed must hash to it under one of them. An empty commitment, or one that is not hex,
  is a broken commitment (critical); a hex digest of another length cannot be checked and
  says so (info), never passing in silence. Either case, and ``SPACE`` around it trimmed.
- **The shoe.** For the one scheme this audit can replay, ``algorithm =
  "hmac-sha256-fisher-yates"`` (schemas/README.md, "Provably-fair shuffles"): the ruleset's
  shoe in canonical order (AS 2S ... KS AH ... KC, each card once per deck in a row, then
  the printed jokers), shuffled by Fisher-Yates from the last place down, place ``i``
  swapped with ``j``, uniform in ``0..i``: ``j`` is the first 4-byte big-endian word of
  the byte stream ``HMAC-SHA256(server_seed, f"{client_seed}:{nonce}:{block}")``, blocks
  0, 1, 2 ... of 32 bytes each, that is below ``2**32 - 2**32 % (i + 1)``, modulo
  ``i + 1``. The result, index 0 dealt first, must be the recorded shoe. Another algorithm
  is not reproduced (the hash is still checked), and the night says so once for each such
  name (``audit.shuffle.schemes``).
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from audit.cards import CODE_TEXT, canonical_shoe, difference_words, format_codes
from audit.findings import Finding, Severity, finding
from audit.records import Game, Hand, Shuffle, and_words, ordinal

ALGORITHM = "hmac-sha256-fisher-yates"
_HASHES: Final[dict[int, tuple[Callable[[bytes], Any], ...]]] = {
    32: (hashlib.md5,),
    40: (hashlib.sha1,),
    56: (hashlib.sha224, hashlib.sha3_224),
    64: (hashlib.sha256, hashlib.sha3_256, hashlib.blake2s),
    96: (hashlib.sha384, hashlib.sha3_384),
    128: (hashlib.sha512, hashlib.sha3_512, hashlib.blake2b),
}
"""The standard hash functions a hex digest of each length may be, the usual first: a
commitment holds when the seed hashes to it under any of them."""
DIGEST_LENGTHS: Final = tuple(_HASHES)
"""The lengths of hex digest a commitment is checked at (run.json's count of them:
``audit.shuffle.schemes``)."""
_HEX: Final = frozenset("0123456789abcdef")
SPACE: Final = " \t\n\r\f\v"
"""The whitespace trimmed around a commitment before it is read (schemas/README.md): a
stray line break is no missing commitment. ASCII only, so that run.json's count of the
hashes checked (``audit.shuffle.schemes``, in SQL) trims the same."""
RULE_HASH = (
    "hands.shuffle: the revealed server_seed hashes to the server_seed_hash committed "
    "before the hand (log-format.md, hands.shuffle)"
)
RULE_SHOE = (
    f"hands.shuffle: the {ALGORITHM} shuffle of server_seed, client_seed and nonce "
    "gives the recorded shoe (log-format.md, hands.shuffle; schemas/README.md)"
)


_BLOCK: Final = struct.Struct(">8I")
"""A block of the scheme's stream: one HMAC-SHA256 digest read as eight big-endian
32-bit words."""


def _keyed(key: bytes) -> tuple[Any, Any]:
    """HMAC-SHA256's inner and outer hashes, each already fed its padded block of ``key``
    (RFC 2104): ``HMAC(key, m)`` is the digest of (a copy of) ``outer`` fed the digest of
    (a copy of) ``inner`` fed ``m``."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    return inner, outer


def reproduce(shuffle: Shuffle, decks: int, printed_jokers: int) -> list[int]:
    """The shoe the scheme gives for these seeds (index 0 dealt first)."""
    return shuffled(shuffle, canonical_shoe(decks, printed_jokers))


def shuffled(shuffle: Shuffle, shoe: list[int]) -> list[int]:
    """``shoe`` (in canonical order) shuffled in place by the scheme (the module's
    docstring), and returned."""
    # HMAC by its definition (RFC 2104), the key's two padded blocks hashed once per hand:
    # a block then costs two copies, two updates and two digests of C hash objects, with
    # no call into ``hmac``'s Python methods (a third of the check's time went there).
    inner, outer = _keyed((shuffle.server_seed or "").encode())
    prefix = f"{shuffle.client_seed}:{shuffle.nonce}:"
    words: tuple[int, ...] = ()
    at, block = 8, 0
    for i in range(len(shoe) - 1, 0, -1):
        span = i + 1
        limit = 4294967296 - 4294967296 % span
        while True:
            if at == 8:
                mac = inner.copy()
                mac.update(f"{prefix}{block}".encode())
                tag = outer.copy()
                tag.update(mac.digest())
                words = _BLOCK.unpack(tag.digest())
                block += 1
                at = 0
            word = words[at]
            at += 1
            if word < limit:
                break
        j = word % span
        shoe[i], shoe[j] = shoe[j], shoe[i]
    return shoe


def commitment_findings(
    hand: Hand, game: Game, shoe: tuple[int, int] | None = None
) -> list[Finding]:
    """``deck.commitment`` findings of one hand (none without a shuffle commitment). The
    seeds shuffle ``shoe`` (decks, printed jokers), the ruleset's for the hand's table
    (schemas/README.md: "Start from the ruleset's shoe"); without one, the games row's. A
    games row that differs from the ruleset is the replay's own ``deck.composition``; seeds
    that shuffle the games row's shoe to the one dealt are then no commitment finding."""
    shuffle = hand.shuffle
    if shuffle is None:
        return []
    out = []
    # A game recording no shoe (0 decks, fewer than 0 jokers) has its own finding from the
    # replay (``deal.shoes``): there is no shoe to shuffle the seeds over.
    decks, jokers = shoe if shoe is not None else (game.decks, game.printed_jokers)
    playable = decks >= 1 and jokers >= 0
    seeded = shuffle.algorithm == ALGORITHM and None not in (shuffle.server_seed, shuffle.nonce)
    if shuffle.server_seed is not None:
        broken = _hash_finding(
            hand, shuffle.server_seed, shuffle.server_seed_hash or "", seeded and playable
        )
        if broken is not None:
            out.append(broken)
    if seeded and playable:
        wanted = reproduce(shuffle, decks, jokers)
        recorded = (game.decks, game.printed_jokers)
        if (
            wanted != hand.shoe
            and recorded != (decks, jokers)
            and recorded[0] >= 1
            and recorded[1] >= 0
            and reproduce(shuffle, *recorded) == hand.shoe
        ):
            # The seeds shuffle the games row's shoe to the one dealt: the shuffle is
            # what was committed, and the shoe's wrong size is the replay's own
            # deck.composition finding (one fault, one finding).
            return out
        if wanted != hand.shoe:
            words, player = _moved_words(wanted, hand.shoe, hand.seats, game.cards_per_hand)
            first = next(
                (i for i, (a, b) in enumerate(zip(wanted, hand.shoe, strict=False)) if a != b),
                min(len(wanted), len(hand.shoe)),
            )
            out.append(
                finding(
                    "deck.commitment",
                    game_id=hand.game_id,
                    hand_id=hand.hand_id,
                    player_id=player,
                    expected=format_codes(wanted[first : first + 5]),
                    recorded=format_codes(hand.shoe[first : first + 5]),
                    message=f"The seeds of hand {hand.hand_id} shuffle to another shoe than "
                    f"the one recorded{words}.",
                    rule=RULE_SHOE,
                )
            )
    return out


FEW: Final = 6
"""Up to this many shoe positions differing, the finding names each; past it, how many and
the first ``NAMED``."""
NAMED: Final = 3


def _moved_words(
    wanted: list[int], shoe: list[int], seats: list[str], k: int
) -> tuple[str, str | None]:
    """Where the recorded ``shoe`` differs from the committed one (``wanted``), in words to
    follow "another shoe than the one recorded", and the one player whose dealt cards
    differ (None when no player's do, or several's). Each position is placed in the deal
    (log-format.md, "Deal procedure": ``seats``, ``k`` cards each): a blind tester read
    "they differ from shoe position 1 on" as the whole shoe reordered, where two cards
    were swapped and one player was dealt a printed joker from the stock, the fact a
    player's complaint turns on. Built only when the finding is raised."""
    n = len(seats)
    common = min(len(wanted), len(shoe))
    at = [i for i in range(common) if wanted[i] != shoe[i]]
    count = len(at) + max(len(wanted), len(shoe)) - common
    named = at if count <= FEW else at[:NAMED]
    places = [
        f"position {i}{_place(i, seats, k)} holds {CODE_TEXT[shoe[i]]} where "
        + ("the committed shuffle gives" if j == 0 else "it gives")
        + f" {CODE_TEXT[wanted[i]]}"
        for j, i in enumerate(named)
    ]
    moved = "; ".join(difference_words(wanted, shoe))
    if len(wanted) != len(shoe):
        moved = f"{len(shoe)} cards where the committed shoe holds {len(wanted)}: {moved}"
    size = max(len(wanted), len(shoe))
    head = f", at {count} of its {size} positions ({moved or 'the same cards in another order'})"
    if count > FEW and places:
        head += f", the first {len(places)}"
    if places:
        head += ": " + "; ".join(places)
    # A player's dealt cards differ by what the swaps net out to: two of one player's own
    # cards swapped deal them the same hand.
    given: dict[str, Counter[int]] = {}
    taken: dict[str, Counter[int]] = {}
    for i in at:
        if n and i < n * k:
            seat = seats[i % n]
            given.setdefault(seat, Counter())[shoe[i]] += 1
            taken.setdefault(seat, Counter())[wanted[i]] += 1
    players = [p for p in seats if p in given and given[p] != taken[p]]
    if count <= FEW and players:
        head += "; so " + and_words([
            f"{p} was dealt {format_codes(sorted((given[p] - taken[p]).elements()))} in "
            f"place of {format_codes(sorted((taken[p] - given[p]).elements()))}"
            for p in players
        ])
    elif players:
        were = "was" if len(players) == 1 else "were"
        head += (
            f"; so {and_words(players)} {were} dealt other cards than the committed shuffle "
            "deals them"
        )
    elif n and count <= FEW:
        head += "; every player was dealt the cards the committed shuffle deals them"
    return head, players[0] if len(players) == 1 else None


def _place(i: int, seats: list[str], k: int) -> str:
    """Where shoe position ``i`` lies in the deal (log-format.md, "Deal procedure"), set
    off by commas: ``, P0182's 1st card,``, ``, the wild card,``, ``, the open card,``,
    ``, the stock's 3rd card,`` (counting from its top); nothing with no one seated."""
    n = len(seats)
    dealt = n * k
    if not n:
        return ""
    if i < dealt:
        return f", {seats[i % n]}'s {ordinal(i // n + 1)} card,"
    if i == dealt:
        return ", the wild card,"
    if i == dealt + 1:
        return ", the open card,"
    return f", the stock's {ordinal(i - dealt - 1)} card,"


def _hash_finding(hand: Hand, seed: str, commitment: str, replayed: bool) -> Finding | None:
    """The ``deck.commitment`` finding of a revealed ``seed`` against the ``commitment``
    published before the hand, or None when it hashes to it (``replayed``: the hand's
    shoe is replayed from its seeds, which a commitment that cannot be checked says)."""
    committed = commitment.strip(SPACE).lower()
    hashes = _HASHES.get(len(committed), ())
    if hashes:  # the usual function first: a hand's one hash on the common path
        data = seed.encode()
        usual = hashes[0](data).hexdigest()
        if usual == committed or any(h(data).hexdigest() == committed for h in hashes[1:]):
            return None
    hexed = bool(committed) and _HEX.issuperset(committed)
    if hexed and hashes:
        return finding(
            "deck.commitment",
            game_id=hand.game_id,
            hand_id=hand.hand_id,
            # The commitment as the log writes it (audit-output.md: recorded is "what the
            # log says"), not as it was compared, lower-cased and trimmed (a blind tester).
            expected=usual,
            recorded=commitment,
            message=f"The server seed revealed for hand {hand.hand_id} does not hash to the "
            "commitment published before the hand, so the shuffle cannot be shown to be fair.",
            rule=RULE_HASH,
        )
    if hexed:
        return finding(
            "deck.commitment",
            game_id=hand.game_id,
            hand_id=hand.hand_id,
            severity=Severity.INFO,
            recorded=f"{len(committed)} hex digits",
            # "(the shoe still was)" was said of every hand, where a hand of another
            # algorithm has no shoe replayed either: nothing of it was checked (a blind
            # tester).
            message=f"The commitment of hand {hand.hand_id} is a digest of {len(committed)} "
            "hex digits, of no hash function the audit knows, so its revealed seed was not "
            "checked against it"
            + (
                " (its shoe was still replayed from its seeds)."
                if replayed
                else f", and its shoe was not replayed either (its algorithm is not {ALGORITHM}"
                "), so nothing of its shuffle was checked."
            ),
            rule=RULE_HASH,
        )
    return finding(
        "deck.commitment",
        game_id=hand.game_id,
        hand_id=hand.hand_id,
        expected="a hex digest of the server seed",
        recorded=repr(commitment) if len(commitment) <= 40 else f"{commitment[:37]!r}...",
        message=f"Hand {hand.hand_id} records a provably-fair shuffle whose commitment is "
        + ("empty" if not committed else "not a hex digest")
        + ", so no commitment was published that the revealed seed could be checked "
        "against, and the shuffle cannot be shown to be fair.",
        rule=RULE_HASH,
    )
