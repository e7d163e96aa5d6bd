"""A hand's money as the hand view says it (``audit/explain/view.py``): the amounts the
rules' outcomes settle where a recorded outcome is wrong (``settled_by_rules``), the money
findings of a player (``money_findings``), a deals hand's chips by the rules where the
record's follow its wrong points (``deal_chips``), and amounts in words. A game's ledger
against the rules is ``audit/explain/payouts.py``'s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from audit.findings import Finding
from audit.games.deals import check_deals, chips, moved_chips, recorded_chips
from audit.money import money
from audit.records import (
    Game,
    Hand,
    Result,
    RulesPoints,
    RulesSay,
    and_words,
    charged_points,
    money_unsettled,
)
from audit.replay.outcome import HandAudit, money_by_rules, plays_on
from audit.rules.ruleset import Ruleset

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Settled:
    """Points rummy where a recorded outcome differs from the rules': each player's amount
    as the rules' outcomes settle the hand (``money_by_rules``), and the players whose
    recorded outcome is wrong. ``amounts`` is empty otherwise, or where the rules do not
    settle every player (points not given, not one winner: ``why``); where the rules play
    on past the record, it holds only what the players already out owe. ``refused``: the
    recorded verdict is one the rules refuse (``records.money_unsettled``), so the hand's
    money is not judged and its recorded amounts are taken as they are."""

    amounts: Mapping[str, Decimal]
    wrong: tuple[str, ...]
    refused: bool = False
    why: str = ""

    @property
    def whose(self) -> str:
        """``P1 (the finding on P1)``: the players whose recorded outcome is wrong."""
        them = "them" if len(self.wrong) > 1 else self.wrong[0]
        return f"{', '.join(self.wrong)} (the finding on {them})"


def settled_by_rules(audit: HandAudit, game: Game, rules: Ruleset) -> Settled:
    expected = audit.expected
    rows = {r.player: r for r in audit.replay.hand.results}
    wrong = tuple(p for p, e in expected.items() if p in rows and rows[p].outcome != e.outcome)
    if not wrong:
        return Settled({}, ())
    refused = (
        game.format == "points"
        and game.point_value is not None
        and money_unsettled(audit.replay.hand.results, expected, rules.value_cards is not None)
    )
    winners = sum(1 for e in expected.values() if e.outcome == "won")
    unpointed = [p for p, e in expected.items() if e.outcome != "won" and e.points is None]
    if any(plays_on(e) for e in expected.values()):
        # Who is out with their points (an accepted invalid declarer) owes them whoever wins
        # later: that much the rules settle (a blind tester: the declarer was told no
        # amount of the rules' beside a recorded win).
        why = "by the rules no one has won the hand where the record ends it"
        out = {p: e for p, e in expected.items() if not plays_on(e) and e.outcome != "won"}
        owed = all(e.points is not None for e in out.values())
        amounts = money_by_rules(game, out)[0] if owed else {}
        return Settled(amounts, wrong, refused, why)
    if winners != 1:
        many = "no one" if not winners else f"{winners} players"
        why = f"by the rules {many} won the hand: their outcomes settle no amount"
        return Settled({}, wrong, refused, why)
    if unpointed:
        why = f"the rules give {', '.join(unpointed)} no points: they settle no amount"
        return Settled({}, wrong, refused, why)
    amounts, _ = money_by_rules(game, expected)
    return Settled(amounts, wrong, refused)


MONEY_CHECKS = ("score.amount", "deals.chips")
"""The checks of a hand's money: points rummy's amounts, deals rummy's chips."""


def money_findings(
    hand: Hand, game: Game, rules: Ruleset, findings: Sequence[Finding], said: RulesSay
) -> dict[str, Finding]:
    """Each player's finding on the hand's money: the hand's ``score.amount``, the game's
    ``deals.chips`` naming the hand; for a deals game whose game-level checks did not
    reach this hand's chips, the deals check run on this hand alone (the same rule)."""
    money = [f for f in findings if f.check in MONEY_CHECKS]
    if game.format == "deals" and not money:
        money = [
            f
            for f in check_deals(game, [hand], rules, winner=False, expected=said)
            if f.hand_id == hand.hand_id
        ]
    out: dict[str, Finding] = {}
    for f in money:
        if f.player_id is not None:
            out.setdefault(f.player_id, f)
    return out


def hand_amount(hand: Hand, game: Game, row: Result | None, found: Finding | None) -> str:
    """The amount the rules give: the money finding's, else the recorded one where the
    money was checked and agrees; empty where the rules give none to compare."""
    deals = game.format == "deals"
    if found is not None:
        amount = amount_of(found.expected)  # a deals.chips "dealt in" is no amount
        if deals and amount is not None:
            return amount_words(amount, deals=True)
        return decimal_words(found.expected)
    if row is None or row.amount is None:
        return ""
    winners = sum(1 for r in hand.results if r.outcome == "won")
    if game.format == "points" and game.point_value is not None:
        checked = row.outcome != "won" or winners == 1
    else:
        checked = game.format == "deals" and winners == 1
    return amount_words(row.amount, deals=deals) if checked else ""


@dataclass(frozen=True)
class DealChips:
    """A deal's chips by the rules (``chips``: each loser ``-points`` of the points they are
    charged, ``records.charged_points``, the winner the sum, as ``audit.games.deals``
    counts them), where they differ from the record's only because the record's chips
    follow its own points, which the replay found wrong (``wrong``: those players): no
    ``deals.chips`` finding stands on them (one fault, one finding: deals.py's
    ``deals.recorded_chips``), the points' finding does. Empty ``chips`` otherwise."""

    chips: Mapping[str, Decimal]
    wrong: tuple[str, ...] = ()

    def note(self, player: str, recorded: Decimal, checks: Sequence[str]) -> str:
        """``the recorded 87 chips follow the recorded points of J: the difference is the
        drop.penalty finding's (on J), not a second fault``."""
        found = f"{and_words(list(checks))} finding's" if checks else "finding's"
        whose = "their own recorded points" if self.wrong == (player,) else (
            f"the recorded points of {and_words(list(self.wrong))}")  # fmt: skip
        return (f"the recorded {chips(recorded)} chips follow {whose}: the difference is the "
                f"{found} (on {and_words(list(self.wrong))}), not a second fault")  # fmt: skip


def deal_chips(hand: Hand, game: Game, expected: Mapping[str, RulesPoints]) -> DealChips:
    """A deals hand's chips by the rules where the record's follow its wrong points
    (``DealChips``); empty for another format, a deal without one recorded winner, or a
    player dealt in with no results row (as ``audit.games.deals`` reads them)."""
    moved = moved_chips(hand, {hand.hand_id: expected}) if game.format == "deals" else None
    if moved is None:
        return DealChips({})
    wrong = tuple(r.player for r in hand.results if r.outcome != "won"
                  and charged_points(r, expected.get(r.player)) != r.points)  # fmt: skip
    if not wrong:
        return DealChips({})
    recorded = recorded_chips(hand)
    # A player whose recorded chips do not follow the recorded points either has their
    # own deals.chips finding (``money_findings``): their chips are said as it says.
    return DealChips({p: Decimal(c) for p, c in moved.items() if c != recorded[p]
                      and any(r.player == p and r.amount == recorded[p] for r in hand.results)},
                     wrong)  # fmt: skip


def amount_words(amount: Decimal | None, *, deals: bool = False) -> str:
    """A results amount as the views show it: money to the paisa; in deals rummy, chips,
    whole (``audit.games.deals.chips``: the deals.chips findings count them so); empty for
    none.

    >>> amount_words(Decimal("97.00")), amount_words(Decimal("97.00"), deals=True)
    ('97.00', '97')
    """
    if amount is None:
        return ""
    return (chips(amount) or "") if deals else str(amount)


def decimal_words(value: str | None) -> str:
    """An amount as the results table writes it, to the paisa (``-78`` chips: ``-78.00``).

    >>> decimal_words("-78"), decimal_words(None), decimal_words("n/a")
    ('-78.00', '', 'n/a')
    """
    if value is None:
        return ""
    amount = amount_of(value)
    return value if amount is None else str(money(amount))


def amount_of(value: str | None) -> Decimal | None:
    """A finding's ``expected`` or ``recorded`` as an amount; ``None`` where it is none: a
    ``pool.split`` finding's ``split_accept`` names a row, not a share (a blind tester's
    game view stopped on it with a traceback).

    >>> amount_of("-78"), amount_of("split_accept"), amount_of(None)
    (Decimal('-78'), None, None)
    """
    try:
        return Decimal(value) if value is not None else None
    except ArithmeticError:
        return None


def money_words(player: str, audit: HandAudit, game: Game) -> str:
    """How the rules' amount of a points hand is made, said beside it (a blind tester:
    "my money is wrong" had no sum to read out but in a finding): ``40 points at 0.2500 a
    point`` (``5 points at 0.0250 a point, 0.125 rounded half-up to the paisa`` where a
    part of a paisa is rounded); the winner's, ``the others pay 11.25: B 40 and C 5 points
    at 0.2500 a point, less the 10.00% rake of 1.13``. Empty for another format, a hand with
    value cards (``points.ValueView.money`` says those), or where a player's points are not
    the rules'.
    """
    want = audit.expected.get(player)
    if (game.format != "points" or game.point_value is None or want is None
            or want.points is None or audit.replay.rules.value_cards is not None):  # fmt: skip
        return ""
    value = game.point_value
    if want.outcome != "won":
        exact = want.points * value
        # a part of a paisa: the rounding said (a blind tester read -0.13 as 5 x 0.0250)
        cut = "" if exact == money(exact) else f", {exact.normalize()} rounded half-up to the paisa"
        return f"{want.points} points at {value} a point{cut}"
    losers = [(p, e.points) for p, e in audit.expected.items() if e.outcome != "won"]
    if any(points is None for _, points in losers):
        return ""
    amounts, fee = money_by_rules(game, audit.expected)
    paid = -sum((a for p, a in amounts.items() if p != player), ZERO)
    them = and_words([f"{p} {points}" for p, points in losers])
    return (f"the others pay {paid}: {them} points at {value} a point, less the "
            f"{game.rake_pct}% rake of {fee}")  # fmt: skip
