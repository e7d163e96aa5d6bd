"""A pool split (000_'s Manual Split and Auto Split, as the preset's ``pool_101.*`` /
``pool_201.*`` rules fix them): what a manual split needs of the players left, who must
accept it, and what a split owes each player; and the ``pool.split`` findings of a split
recorded (``offer_findings``, ``manual_findings``, ``share_findings``; a whole share paid
under another player is one ``ledger.balance``, ``moved_share``), which the pool check
(audit/games/pool.py) raises through its ``add``.

Money, as read where 000_ allows two readings: prize pool = entry_fee x (players of hand 1
+ rebuys) less the rake, rake = round(pool x rake_pct / 100) half-up to the paisa. Auto
split: the prize in equal shares; manual split: each player's extra first drops (theirs -
the fewest) paid at the entry fee less its own rake, the rest in equal shares. Equal shares
are cut to the paisa and the paise left over go one each to the first players in seat
order. The records carry no seat numbers, so seat order is read as the turn order of hand 1
(the first hand's first player sits in the first seat), as the simulator writes it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from audit.findings import Severity
from audit.money import PAISA
from audit.money import rake as rake_of
from audit.records import Game, GameEvent, Hand, and_words
from audit.rules.ruleset import PoolRules

Add = Callable[..., None]
"""The pool check's ``add(check, key, message, **columns)``: a ``pool.split`` finding
citing the game format's ``key`` rule (``audit/games/pool.py``)."""

ACCEPT_RULE = (
    "pool.split: A manual split is made only when every player left accepts it; if "
    "one rejects it, the game goes on. The player who offers the split accepts it by "
    "offering, so their own split_accept row is not needed, though it may be written "
    "(000_1729c72ad4c1f885.txt: 'Manual Split will only execute if all players accept to "
    "have a Manual Split; even if one player rejects the Manual Split, the game will "
    "continue in its normal course')"
)
"""The rule a ``pool.split`` finding on who accepted a manual split cites: the presets
have no key for it (it is not a value to choose), so it is quoted here from 000_."""


NO_MANUAL = "no manual split: it needs "
"""How a ``pool.split`` finding on a split by agreement against its criteria begins its
``expected`` (``manual_findings``); explain reads the need after it."""


UNDER_ANOTHER = "the split row is under the wrong player."
"""How the one finding on a split share paid under another player ends (``moved_share``);
explain finds it by these words."""


def equal_shares(total: Decimal, n: int) -> list[Decimal]:
    """``total`` in ``n`` shares to the paisa, the leftover paise one each to the first.

    >>> equal_shares(Decimal("100.00"), 3)
    [Decimal('33.34'), Decimal('33.33'), Decimal('33.33')]
    """
    base, extra = divmod(int(total / PAISA), n)
    return [(base + (1 if i < extra else 0)) * PAISA for i in range(n)]


def equal_words(total: Decimal, n: int, spare_to: str = "") -> str:
    """``total`` in ``n`` equal shares as a support agent reads them out, the odd paise
    said: given to the first in seat order, or to ``spare_to`` where the record gave them
    to others (``spare_paise_elsewhere``).

    >>> equal_words(Decimal("90.00"), 2)
    '90.00 in 2 equal shares of 45.00'
    >>> equal_words(Decimal("100.00"), 3)
    '100.00 in 3 equal shares of 33.33, the first in seat order a paisa more'
    >>> equal_words(Decimal("100.00"), 3, "C")[35:]
    'C a paisa more (the rules do not say who gets the paise left over)'
    """
    shares = equal_shares(total, n)
    odd = sum(1 for s in shares if s != shares[-1])
    more = "" if not odd else (
        f", {spare_to} a paisa more{' each' * (odd > 1)} (the rules do not say who gets the"
        " paise left over)"
        if spare_to else f", the first {odd} in seat order a paisa more" if odd > 1
        else ", the first in seat order a paisa more")
    return f"{total} in {n} equal shares of {shares[-1]}{more}"


def split_shares(
    *,
    kind: str,
    scores: list[int],
    pool: PoolRules,
    entry_fee: Decimal,
    entries: int,
    rake_pct: Decimal,
) -> list[Decimal]:
    """What each player (``scores`` in seat order) is owed by an auto or manual split.

    >>> rules = PoolRules(elimination_score=101, exactly_eliminates=True,
    ...     rebuy_min_players=3, rebuy_counts="hand", rebuy_below=79, manual_split_min_score=61,
    ...     drop_base=100,
    ...     drop_step=20, split_drop_difference=(1, 2), auto_split_above=80)
    >>> split_shares(kind="auto", scores=[85, 88], pool=rules, entry_fee=Decimal("100.00"),
    ...     entries=2, rake_pct=Decimal("10.00"))
    [Decimal('90.00'), Decimal('90.00')]
    """
    pot = entry_fee * entries
    prize = pot - rake_of(pot, rake_pct)
    if kind != "manual":
        return equal_shares(prize, len(scores))
    drops = [pool.first_drops_left(s) for s in scores]
    per_drop = entry_fee - rake_of(entry_fee, rake_pct)
    extra = [(d - min(drops)) * per_drop for d in drops]
    rest = equal_shares(prize - sum(extra, Decimal(0)), len(scores))
    return [e + r for e, r in zip(extra, rest, strict=True)]


def unmet_needs(pool: PoolRules, active: list[str], scores: list[int]) -> tuple[str, str] | None:
    """What a manual split needs that the players left do not have: the first unmet
    need's rule key and all of them, joined (one finding: a blind tester had one a need);
    with fewer than 2 players left only that (their drops apart make no sense)."""
    if len(active) < 2:
        was = f"only {active[0]} was" if active else "none was"
        need = f"at least 2 players left, and {was}: the game was over"
        return "manual_split_min_score", need
    drops = [pool.first_drops_left(s) for s in scores]
    low, high = pool.split_drop_difference
    problems = []
    if any(s < pool.manual_split_min_score for s in scores):
        problems.append(
            ("manual_split_min_score", f"every score at {pool.manual_split_min_score} or "
             f"more (the lowest is {min(scores)})")
        )  # fmt: skip
    if not low <= max(drops) - min(drops) <= high:
        left = "/".join(map(str, drops))
        problems.append(
            ("split_drop_difference", f"first drops left differing by {low} to {high} "
             f"(they have {left}: {max(drops) - min(drops)} apart)")
        )  # fmt: skip
    if not problems:
        return None
    return problems[0][0], " and ".join(need for _, need in problems)


def owed(
    *,
    kind: str,
    active: list[str],
    scores: list[int],
    seat_order: list[str],
    pool: PoolRules,
    entry_fee: Decimal,
    entries: int,
    rake_pct: Decimal,
) -> dict[str, Decimal]:
    """Each player left's share (``split_shares``), the players taken in seat order
    (``seat_order``, hand 1's turn order; one not in it after the others)."""
    order = {p: i for i, p in enumerate(seat_order)}
    seated = sorted(range(len(active)), key=lambda i: order.get(active[i], len(order)))
    shares = split_shares(kind=kind, scores=[scores[i] for i in seated], pool=pool,
                          entry_fee=entry_fee, entries=entries, rake_pct=rake_pct)  # fmt: skip
    return {active[i]: share for i, share in zip(seated, shares, strict=True)}


def spare_paise_elsewhere(
    expected: dict[str, Decimal],
    paid: dict[str, Decimal],
    seat_order: list[str],
    owed_in: Callable[[list[str]], dict[str, Decimal]],
) -> bool:
    """Whether ``paid`` is the split's shares with the leftover paise of its equal part
    given to other players than the first in seat order (``expected``, the audit's
    reading): the seeds are silent on leftover paise, so a platform that gives them to
    others, each share still the equal part cut to the paisa or a paisa more and the
    shares adding up to the prize, keeps to the rules (a blind tester: two major findings
    on an honest split of 87.25 in four). ``owed_in`` gives the shares for a seat order;
    the order tried puts the players paid a paisa more first and those paid a paisa less
    last, so the shares it gives are ``paid`` only if such a reading exists.

    >>> def shares(order):
    ...     return dict(zip(order, [Decimal("33.34"), Decimal("33.33"), Decimal("33.33")]))
    >>> owed_b = {"A": Decimal("33.33"), "B": Decimal("33.34"), "C": Decimal("33.33")}
    >>> spare_paise_elsewhere(shares(["A", "B", "C"]), owed_b, ["A", "B", "C"], shares)
    True
    >>> b_less = {"A": Decimal("33.34"), "B": Decimal("33.32"), "C": Decimal("33.34")}
    >>> spare_paise_elsewhere(shares(["A", "B", "C"]), b_less, ["A", "B", "C"], shares)
    False
    """
    if set(paid) != set(expected) or paid == expected:
        return False
    if any(abs(paid[player] - want) > PAISA for player, want in expected.items()):
        return False
    return owed_in(_record_order(expected, paid, seat_order)) == paid


def _record_order(
    expected: dict[str, Decimal], paid: dict[str, Decimal], seat_order: list[str]
) -> list[str]:
    """The seat order ``spare_paise_elsewhere`` reads the record by: the players paid a
    paisa more than ``expected`` first, those paid a paisa less last."""
    moved = {player: paid[player] - want for player, want in expected.items()}
    more = [p for p, amount in moved.items() if amount > 0]
    less = [p for p, amount in moved.items() if amount < 0]
    return [*more, *(p for p in dict.fromkeys(seat_order) if p not in moved or not moved[p]),
            *less]  # fmt: skip


def spare_paise_to(
    expected: dict[str, Decimal],
    paid: dict[str, Decimal],
    seat_order: list[str],
    owed_in: Callable[[list[str]], dict[str, Decimal]],
) -> list[str]:
    """The players a record that ``spare_paise_elsewhere`` gave the leftover paise of the
    equal part, in seat order: each one whose share falls by a paisa when they are put
    last. Not only those paid more than ``expected``: one who would have had a paisa first
    in seat order and had it still is among them (a blind tester's 24.50 in three, paid
    8.17, 8.16 and 8.17, was said "in 3 equal shares of 8.16, C a paisa more": 24.49).

    >>> def shares(order):
    ...     return dict(zip(order, [Decimal("8.17"), Decimal("8.17"), Decimal("8.16")]))
    >>> paid = {"A": Decimal("8.17"), "B": Decimal("8.16"), "C": Decimal("8.17")}
    >>> spare_paise_to(shares(["A", "B", "C"]), paid, ["A", "B", "C"], shares)
    ['A', 'C']
    """
    order = _record_order(expected, paid, seat_order)
    shares = owed_in(order)
    return [p for p in dict.fromkeys(seat_order)
            if shares[p] > owed_in([q for q in order if q != p] + [p])[p]]  # fmt: skip


def split_paid(game: Game) -> dict[str, Decimal]:
    """What the ledger's ``split`` rows pay each player."""
    paid: dict[str, Decimal] = defaultdict(Decimal)
    for row in game.ledger:
        if row.kind == "split" and row.player is not None:
            paid[row.player] += row.amount
    return paid


def moved_share(
    game: Game, expected: dict[str, Decimal], paid: dict[str, Decimal]
) -> tuple[str, str] | None:
    """The one player (``under``) paid another player's (``whose``) whole share in one
    ``split`` row, ``whose`` paid none of it, as ``(under, whose)``: ``under`` is paid just
    that row more than their own share (nothing, for a player with none), and no other pair
    of players is so; ``None`` otherwise. A part of a share paid to another, or a player
    paid some of theirs, is a finding each (schemas/money.md, step 3, as a prize row).

    >>> from audit.records import LedgerRow
    >>> game = Game("G1", "T1", "pool_101", None, 13, "standard-13", 2, 2, 6, "real",
    ...     Decimal("10.00"), None, Decimal("10.00"), False,
    ...     ledger=[LedgerRow("A", "split", Decimal("9.00")),
    ...             LedgerRow("X", "split", Decimal("9.00"))])
    >>> owed_ab = {"A": Decimal("9.00"), "B": Decimal("9.00")}
    >>> moved_share(game, owed_ab, split_paid(game))
    ('X', 'B')
    """
    pairs = [
        (under, whose)
        for whose, share in expected.items() if share > 0 and not paid.get(whose)
        for under, got in paid.items()
        if under != whose and got - expected.get(under, Decimal("0.00")) == share and any(
            row.kind == "split" and row.player == under and row.amount == share
            for row in game.ledger)
    ]  # fmt: skip
    return pairs[0] if len(pairs) == 1 else None


# ---------------------------------------------------------------- the checks


def offer_findings(
    add: Add,
    pool: PoolRules,
    hand: Hand,
    events: list[GameEvent],
    active: list[str],
    scores: list[int],
) -> None:
    """000_: a manual split is offered only when its criteria are met."""
    unmet = unmet_needs(pool, active, scores)
    if unmet is None:
        return
    key, need = unmet
    for offer in (e for e in events if e.action == "split_offer"):
        add(
            "pool.split", key,
            f"A split was offered after hand {hand.hand_no}, but a manual split needs "
            f"{need}.",
            hand_id=hand.hand_id, player_id=offer.player, seq=offer.seq,
            expected=f"no offer: a manual split needs {need}", recorded="split_offer",
        )  # fmt: skip


def manual_findings(
    add: Add,
    pool: PoolRules,
    hand: Hand,
    events: list[GameEvent],
    active: list[str],
    scores: list[int],
    kw: dict[str, Any],
    paid: dict[str, Decimal] | None = None,
) -> bool:
    """000_: a split by agreement needs its criteria met and every player left to accept
    it (the one who offered it accepted by offering); ``kw`` names the split's event.
    Whether the rules make the split: one they do not make owes no shares, so its shares
    are not judged as a second finding (``share_findings`` is not run on it), and the
    finding on its criteria says what the ledger paid (``paid``, the split rows; until
    2026-12-06 each share was judged as the rules' manual split would pay it, 88.00, 0.00
    and 0.00 where that split is not allowed: a blind tester's four findings for one)."""
    no = hand.hand_no
    # The offer and the split it led to are one error when the criteria are unmet: the
    # split's finding names who offered it (a blind tester: the same need said twice).
    offered = list(dict.fromkeys(e.player or "?" for e in events if e.action == "split_offer"))
    lead = f"The game was split by agreement after hand {no}"
    if offered:
        lead = f"{' and '.join(offered)} offered a split after hand {no} and the game was "
        lead += "split by agreement"
    unmet = unmet_needs(pool, active, scores)
    if unmet is not None:
        key, need = unmet
        shares = and_words([f"{p} {paid[p]}" for p in paid]) if paid else ""
        money = (f", so by the rules the game goes on with no share owed (the ledger paid "
                 f"{shares} in split shares)" if shares else "")  # fmt: skip
        add(
            "pool.split", key,
            f"{lead}, but a manual split needs {need}{money}.",
            expected=f"{NO_MANUAL}{need}", recorded="manual split", **kw,
        )  # fmt: skip
    # 000_: every player accepts; the one who offered the split accepted it by offering.
    accepted = {e.player for e in events if e.action in ("split_accept", "split_offer")}
    rejected = set()
    for event in events:
        if event.action == "split_reject":
            rejected.add(event.player)
            add(
                "pool.split", "split_accept",
                f"The game was split by agreement after hand {no}, but {event.player} "
                "rejected the split.",
                hand_id=hand.hand_id, player_id=event.player, seq=event.seq,
                expected="split_accept", recorded="split_reject",
            )  # fmt: skip
    for player in active:
        if player not in accepted and player not in rejected:  # a reject said it once
            add(
                "pool.split", "split_accept",
                f"The game was split by agreement after hand {no}, but {player} never "
                "accepted the split.",
                hand_id=hand.hand_id, player_id=player, seq=kw["seq"],
                expected="split_accept", recorded=None,
            )  # fmt: skip
    return unmet is None and accepted >= set(active) and not rejected


def share_findings(
    add: Add,
    game: Game,
    pool: PoolRules,
    hand: Hand,
    active: list[str],
    scores: list[int],
    kind: str,
    seq: int,
    seat_order: list[str],
    rebuys: int,
) -> None:
    """Each split row of the ledger against what the split owes (see the module doc); a
    share's finding names the split's game event (``seq``), as schemas/output.md says. A
    whole share in one row under another player (``moved_share``) is one ``ledger.balance``
    on that player, naming both, on the game as every ``ledger.balance`` (no hand, no
    ``seq``; ``info`` for practice chips, as the ledger check's)."""
    if not game.ledger or game.entry_fee is None or not active:
        return  # no ledger table: the amounts are not checked here
    fee, entries = game.entry_fee, len(seat_order) + rebuys

    def owed_in(order: list[str]) -> dict[str, Decimal]:
        return owed(kind=kind, active=active, scores=scores, seat_order=order, pool=pool,
                    entry_fee=fee, entries=entries, rake_pct=game.rake_pct)  # fmt: skip

    expected = owed_in(seat_order)
    paid = split_paid(game)
    if spare_paise_elsewhere(expected, paid, [*seat_order, *active], owed_in):
        return
    what = "automatic" if kind != "manual" else "agreed"
    key = "auto_split_above" if kind != "manual" else "manual_split_shares"
    moved = moved_share(game, expected, paid)
    if moved is not None:
        # One share's row under another player: one finding on the player it is under,
        # ledger.balance as a prize row's, the game's and no hand's (schemas/money.md, step
        # 3; schemas/output.md; a blind tester: two major findings, neither naming the
        # other player).
        under, whose = moved
        to = (f"{under}, who never sat at the table" if under not in seat_order
              else f"{under}, whose own share is {expected[under]}" if under in expected
              else f"{under}, who was not in the game at the split")  # fmt: skip
        add(
            "ledger.balance", key,
            f"{whose}'s share of {expected[whose]} in the {what} split after hand "
            f"{hand.hand_no} is paid to {to}, and {whose} is paid nothing: {UNDER_ANOTHER}",
            player_id=under, expected=whose, recorded=under,
            severity=Severity.INFO if game.chip_type == "practice" else None,
        )  # fmt: skip
    for player in [*active, *sorted(set(paid) - set(active))]:
        want, got = expected.get(player, Decimal("0.00")), paid.get(player)
        if moved is not None and player in moved:
            continue
        if got != want:
            shown = "nothing" if got is None else f"{got}"
            add(
                "pool.split", key,
                f"{player} was paid {shown} in the {what} split after hand "
                f"{hand.hand_no}, but their share is {want}"
                + (", as they were no longer in the game." if player not in active else "."),
                hand_id=hand.hand_id, player_id=player, seq=seq, expected=want,
                recorded=got,
            )  # fmt: skip
