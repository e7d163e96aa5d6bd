"""Points rummy: a hand whose amounts follow the points the record charged, where the
replay found those points wrong (``score.points``, ``drop.penalty``, or a ``score.outcome``
recording one kind of loss for another: ``charges_points``). The amounts are then
right for the points recorded, and wrong only because the points are: one fault, whose
finding is the points', with the money it moved in its words, not also a ``score.amount``
per player it reached (a blind tester: one mis-counted card was three major findings, the
loser's points and the loser's and the winner's amounts). Deals chips that follow the
recorded points are judged the same way (docs/replay.md, "Money").

Only where every amount the replay finds wrong is the one the recorded points settle (in
21 and 27 cards with the value cards as the rules settle them): an amount wrong in another
way keeps its own ``score.amount``. ``explain`` still shows each player's amount by
the rules (``compare_money``).

So too the winner's amount where it is what the losers' amounts as recorded pay, less the
rules' rake on them, and a loser's amount is wrong with the points right (``follows_losers``,
a paisa rounded the wrong way, a drop charged at another rate): the winner's amount is
right for what the losers paid, and wrong only because a loser's is, so it is said in that
loser's ``score.amount``, not as its own (a blind tester's "X1 won 1.26 from the losers",
where they had paid 1.24, beside the two losers' findings of that one rounding).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from audit.findings import Finding
from audit.money import points_settlement, rake
from audit.records import Game, Hand, and_words, dealt_in

POINTS_CHECKS = ("score.points", "drop.penalty")
"""The findings of a loser's points charged other than the rules."""
LOSSES = frozenset({"lost", "first_drop", "middle_drop", "invalid_declare"})
"""The outcomes of a player who did not win the hand."""
WINNER_FOLLOWS = "; the winner's amount follows the losers' amounts as recorded"
"""The words a loser's ``score.amount`` ends with where the winner's is folded into it
(``follows_losers``): ``explain`` still says the winner's amount by the rules."""


def charges_points(f: Finding) -> bool:
    """Whether ``f`` is a loser charged other points than the rules': a points finding
    (``POINTS_CHECKS``), or a ``score.outcome`` that records one kind of loss for another
    (a middle drop recorded as a hand lost at 80: schemas/money.md, "a wrong charge on a
    loser, judged like wrong points"; a blind tester's had its ``score.amount`` too)."""
    return f.check in POINTS_CHECKS or (
        f.check == "score.outcome" and f.expected in LOSSES and f.recorded in LOSSES
    )


def follows_points(
    hand: Hand, game: Game, findings: list[Finding], values: Mapping[str, int]
) -> list[Finding]:
    """``findings`` with the ``score.amount`` findings that follow the recorded points
    folded into the points finding they follow, and a winner's that follows the losers'
    amounts as recorded into the first loser's (``follows_losers``; see the module's
    docstring); ``values``: each player's net value-card points as the rules settle them
    (21 and 27 cards)."""
    return follows_losers(hand, game, _follows_charged(hand, game, findings, values), values)


def follows_losers(
    hand: Hand, game: Game, findings: list[Finding], values: Mapping[str, int]
) -> list[Finding]:
    """``findings`` with the one winner's ``score.amount`` folded into the first loser's
    where the winner's amount is what the losers' recorded amounts pay less the rules'
    rake on them (the module's docstring). Not where value cards are settled (``values``):
    their amounts are read together (``recut``)."""
    amounts = [f for f in findings if f.check == "score.amount"]
    rows = [r for r in dealt_in(hand) if r.player is not None]
    winners = [r for r in rows if r.outcome == "won"]
    if (values or len(winners) != 1 or hand.without_result()
            or len({r.player for r in rows}) != len(rows) or any(r.amount is None for r in rows)):
        return findings  # fmt: skip
    won = [f for f in amounts if f.player_id == winners[0].player]
    lost = [f for f in amounts if f.player_id != winners[0].player]
    paid = -sum((r.amount for r in rows if r.outcome != "won" and r.amount is not None),
                Decimal("0.00"))  # fmt: skip
    fee = rake(paid, game.rake_pct) if paid > 0 else Decimal("0.00")
    if len(won) != 1 or not lost or winners[0].amount != paid - fee:
        return findings
    words = (f"{lost[0].message.removesuffix('.')}{WINNER_FOLLOWS}, {paid} paid less the "
             f"{game.rake_pct}% rake of {fee}: {settles_words(won)}.")  # fmt: skip
    return [replace(f, message=words) if f is lost[0] else f for f in findings if f is not won[0]]


def _follows_charged(
    hand: Hand, game: Game, findings: list[Finding], values: Mapping[str, int]
) -> list[Finding]:
    """The ``score.amount`` findings that follow the recorded points folded into the
    points finding they follow (``follows_points``)."""
    amounts = [f for f in findings if f.check == "score.amount"]
    # a player's points finding is the one their money is said in, else their outcome's
    wrong = {f.player_id: f for f in findings if charges_points(f)}
    wrong |= {f.player_id: f for f in findings if f.check in POINTS_CHECKS}
    if not amounts or not wrong or game.point_value is None:
        return findings
    rows = [r for r in dealt_in(hand) if r.player is not None]
    winners = [r.player for r in rows if r.outcome == "won"]
    if (len(winners) > 1 or len({r.player for r in rows}) != len(rows)
            or any(r.points is None or r.amount is None for r in rows)):
        return findings  # not one settlement of the recorded points to compare with
    charged = {r.player: r.points for r in rows if r.outcome != "won" and r.points is not None}
    wrong = {p: f for p, f in wrong.items() if p in charged}  # a loser's points, not a winner's
    if not wrong:
        return findings
    settled, _ = points_settlement(charged, winners, game.point_value, game.rake_pct, values)
    if any(f.player_id is None or settled.get(f.player_id) != _amount(f.recorded)
           for f in amounts):  # fmt: skip
        return findings
    own = [f for f in amounts if f.player_id in wrong]
    others = [f for f in amounts if f.player_id not in wrong]
    if others and len(wrong) != 1:
        return findings  # a winner's amount several wrong points reached: left as it is
    out = []
    for f in findings:
        if f.check == "score.amount":
            continue
        if wrong.get(f.player_id) is f:
            moved = [a for a in own if a.player_id == f.player_id] + others
            if moved:
                f = replace(f, message=_with_money(f, charged[str(f.player_id)], moved))
        out.append(f)
    return out


def _amount(value: str | None) -> Decimal | None:
    """A finding's recorded amount as a decimal (None when it holds none)."""
    if value is None:
        return None
    try:
        return Decimal(value)
    except ArithmeticError:
        return None


def _with_money(points: Finding, charged: int, moved: list[Finding]) -> str:
    """The points finding's message with the money that followed the points charged:
    "...; the hand's money follows the 45 points charged: the record settles P2 at -45.00
    where the rules give -40.00 and P1 at 40.50 where they give 36.00."."""
    return (f"{points.message.removesuffix('.')}; the hand's money follows the {charged} "
            f"points charged: {settles_words(moved)}.")


def settles_words(moved: list[Finding]) -> str:
    """``the record settles P2 at -45.00 where the rules give -40.00 and P1 at 40.50 where
    they give 36.00``: the amounts of ``moved`` (``score.amount`` findings), each player
    named with their amount as recorded and by the rules."""
    parts = [f"{f.player_id} at {f.recorded} where {'the rules give' if i == 0 else 'they give'} "
             f"{f.expected}" for i, f in enumerate(moved)]  # fmt: skip
    return f"the record settles {and_words(parts)}"
