"""Value cards counted from another card than the deal turned up: one finding for the hand,
not one for every amount (docs/rules-21-27.md, value cards; ``outcome.audit_hand``).

In 21- and 27-card points, the value cards are the cut card and its up and down jokers
(``points.value_cards``), and every player still in at the show is paid or pays by them.
A platform that counts them around another card (the cut card's neighbour, another suit)
moves every player's amount at once: a blind tester's such hand was five ``score.amount``
findings, each true and none saying why; one that settles them with a player who dropped
or declared wrongly, whom the rules leave out, moves them all too (four findings). Where a
hand's amounts disagree with the rules for two players or more, the caller settles the
value cards those ways (``settled_otherwise``); where exactly one of them gives every
recorded amount, and no one player's value cards alone give them as well (``by_one``),
its one finding (``settled_words``) stands for them, naming each amount it moved.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from decimal import Decimal
from itertools import combinations
from typing import NamedTuple

from audit.cards import CODE_TEXT, JOKER, RANK_OF, SUIT_OF
from audit.findings import Finding, finding_at
from audit.records import NO_CARD, Hand
from audit.replay.followed import settles_words
from audit.rules.counts import Value
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, cite

AMOUNTS = 2
"""The fewest ``score.amount`` findings a hand must have to be read so: one wrong amount
is that amount's own mistake."""


class Worth(NamedTuple):
    """One player's value cards counted as ``points`` where the rules count ``held``."""

    player: str
    points: int
    held: Value


class Settled(NamedTuple):
    """A way the platform may have settled the value cards: around ``jokers``' value cards
    (None: the hand's own), and with the players the rules leave out (``out``, who dropped
    or declared wrongly) among those who pay and are paid, or not; or, the others' as the
    rules count them, one player's worth other points (``worth``)."""

    jokers: Jokers | None
    out: tuple[str, ...]
    worth: Worth | None = None


def settled_otherwise(
    hand: Hand, findings: list[Finding], rules: Ruleset, out: tuple[str, ...],
    held: Mapping[str, Value], point_value: Decimal | None,
) -> Iterator[Settled]:
    """Where the hand has value cards and ``AMOUNTS`` or more amounts the rules disagree
    with (and nothing else is wrong with its money's ground: no verdict or points finding):
    the settlement with ``out``, the players the rules leave out of it, in, then with each
    smaller group of them (a platform that pays a dropper, after Adda52, but not one who
    declared wrongly: three findings for a blind tester, where all of them in was one);
    then around each card near the hand's cut card (``_near``) whose value cards are not the hand's
    own; then each player's value cards (``held``, the rules') worth other points
    (``_worths``)."""
    amounts = sum(1 for f in findings if f.check == "score.amount")
    if rules.value_cards is None or hand.wild == NO_CARD or amounts < AMOUNTS:
        return
    if any(f.check in ("declare.verdict", "score.outcome", "score.points") for f in findings):
        return
    for size in range(len(out), 0, -1):  # all of them first, then fewer (a blind tester's
        for some in combinations(out, size):  # platform paid the dropper, not the declarer)
            yield Settled(None, some)
    own = Jokers.for_wild_card(hand.wild, rules).kinds
    seen = {own}
    for code in range(len(CODE_TEXT)):  # the printed joker last
        if code == hand.wild or (own and not _near(own[0], code)):
            continue
        jokers = Jokers.for_wild_card(code, rules)
        if jokers.kinds and jokers.kinds not in seen:
            seen.add(jokers.kinds)
            yield Settled(jokers, ())
    if point_value:
        yield from _worths(hand, findings, held, point_value)


def _worths(hand: Hand, findings: list[Finding], held: Mapping[str, Value],
            point_value: Decimal) -> Iterator[Settled]:  # fmt: skip
    """Each player's value cards worth other points, the others' as the rules count them (a
    blind tester's 27-card hand settled a player's one up joker, 10, as 30: three
    ``score.amount`` findings and none saying why). Their worth is read off another
    loser's amount: one more value point of that player's costs each other player in the
    settlement one point, so a loser's amount off by ``x`` makes it ``-x / point_value``
    more. Each reading is only a candidate; the caller keeps it where it gives every
    amount recorded, and where no other reading does too. Between two players only their
    difference is settled (one's worth more reads as well as the other's less): none."""
    if len(held) < 3:
        return
    losers = {row.player for row in hand.results if row.outcome == "lost"}
    off: dict[str, Decimal] = {}
    for f in findings:
        if f.check == "score.amount" and f.player_id in losers and f.player_id in held:
            try:
                off[f.player_id] = Decimal(f.recorded or "") - Decimal(f.expected or "")
            except ArithmeticError:
                continue
    seen: set[tuple[str, int]] = set()
    for player, value in sorted(held.items()):
        for other, x in sorted(off.items()):
            more = -x / point_value
            if other == player or more != more.to_integral_value() or not more:
                continue
            points = value.points + int(more)
            if points >= 0 and (player, points) not in seen:
                seen.add((player, points))
                yield Settled(None, (), Worth(player, points, value))


def _near(cut: int, code: int) -> bool:
    """Whether ``code`` is a card a platform may have taken for the cut card ``cut``: of
    its rank in another suit, its neighbour in its suit (the up or down joker), or a
    printed joker. Not every card: with few players, value cards counted wrong fit some
    far card by chance (a blind tester's phantom value card read "as if the cut card were
    8H"; around a far card, another card two ranks off gave a three-player hand's every
    amount)."""
    if code == JOKER:
        return True
    apart = abs(RANK_OF[code] - RANK_OF[cut]) % 13
    return RANK_OF[code] == RANK_OF[cut] or (
        SUIT_OF[code] == SUIT_OF[cut] and min(apart, 13 - apart) == 1)


def by_one(ours: dict[str, int], read: dict[str, int]) -> bool:
    """Whether the value cards settled another way (``read``: each player's value points
    so, against the rules' ``ours``) differ from the rules' for one player alone, among the
    same players: every amount is then as well that one player's value cards counted
    wrong, and the other cut card a coincidence (a blind tester's 21-card marriage left
    unpaid read "as if the cut card were 2S", whose one value card the other loser held,
    and named no one: two readings fit, so each amount keeps its own ``score.amount``)."""
    return ours.keys() == read.keys() and sum(ours[p] != read[p] for p in ours) == 1


def settled_words(hand: Hand, findings: list[Finding], settled: Settled, rules: Ruleset
                  ) -> Finding:  # fmt: skip
    """The one finding of a hand whose amounts all follow from the value cards settled as
    ``settled`` says, at the place of its first ``score.amount``."""
    first = next(f for f in findings if f.check == "score.amount")
    dealt = Jokers.for_wild_card(hand.wild, rules).kinds
    right = " ".join(CODE_TEXT[c] for c in dealt)
    moved = settles_words([f for f in findings if f.check == "score.amount"])
    place = replace(first, player_id=None, seq=None)
    if settled.worth is not None:
        player, points, value = settled.worth
        return finding_at(
            place, "score.amount", expected=f"{player}: {value.points}",
            recorded=f"{player}: {points}", rule=cite(rules, "points.value_cards"),
            message=f"Every amount of this hand settles {player}'s value cards as worth "
            f"{points} points, but by the rules they are worth {value.points} "
            f"({value.words or 'no value cards'}); by that alone {moved}.",
        )  # fmt: skip
    if settled.jokers is None:
        who = " and ".join(settled.out)
        return finding_at(
            place, "score.amount", expected="without " + who, recorded="with " + who,
            rule=cite(rules, "points.value_cards"),
            message=f"Every amount of this hand settles the value cards with {who} among the "
            "players who pay and are paid, but a player who drops or declares wrongly "
            f"neither pays nor receives for value cards; by that alone {moved}.",
        )  # fmt: skip
    said = " ".join(CODE_TEXT[c] for c in settled.jokers.kinds)
    cut = CODE_TEXT[settled.jokers.kinds[0]]
    turned = CODE_TEXT[hand.wild] + (f", which stands for {CODE_TEXT[dealt[0]]}"
                                     if hand.wild == JOKER and dealt else "")  # fmt: skip
    return finding_at(
        place, "score.amount", expected=right, recorded=said,
        rule=cite(rules, "points.value_cards"),
        message=f"Every amount of this hand settles the value cards as if the cut card were "
        f"{cut} (value cards {said}), but the deal turned up {turned} (value cards {right}); "
        f"by that alone {moved}.",
    )  # fmt: skip
