"""Money: exact decimals, rounded half-up to the paisa (0.01), never floats."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import (
    ROUND_CEILING,
    ROUND_FLOOR,
    ROUND_HALF_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Decimal,
)

PAISA = Decimal("0.01")


def money(value: Decimal) -> Decimal:
    """``value`` rounded half-up to the paisa.

    >>> money(Decimal("3.825")), money(Decimal("-12.345"))
    (Decimal('3.83'), Decimal('-12.35'))
    """
    return value.quantize(PAISA, rounding=ROUND_HALF_UP)


OTHER_ROUNDINGS = ((ROUND_FLOOR, "down"), (ROUND_HALF_EVEN, "half to even"),
                   (ROUND_HALF_DOWN, "half down"), (ROUND_CEILING, "up"))  # fmt: skip
"""The ways to the paisa other than money.md's half up that a platform's code may take,
each with its words: what a record's amounts and rakes are read against (``rounded_otherwise``,
``games.gamerow``)."""


def rounded_otherwise(exact: Decimal, recorded: Decimal | None) -> str:
    """Words for an amount ``recorded`` that is ``exact`` (unrounded) rounded to the paisa
    another way than half up; empty where it is not (a blind tester's 51 points at 0.1250,
    6.375, paid 6.37: the finding gave the two amounts alone).

    >>> words = rounded_otherwise(Decimal("-6.375"), Decimal("-6.37"))
    >>> print(words)  # doctest: +NORMALIZE_WHITESPACE
    ; 6.375 rounds half up to 6.38 (money.md: the audit's reading, the seeds giving no
    rounding), and the record rounds it down
    >>> rounded_otherwise(Decimal("-6.375"), Decimal("-6.36"))
    ''
    """
    if recorded is None or money(exact) == recorded:
        return ""
    size = abs(exact)
    for way, words in OTHER_ROUNDINGS:
        if size.quantize(PAISA, rounding=way) == abs(recorded) and (recorded < 0) == (exact < 0):
            return (f"; {size.normalize():f} rounds half up to {money(size)} (money.md: the "
                    "audit's reading, the seeds giving no rounding), and the record rounds it "
                    f"{words}")  # fmt: skip
    return ""


def rake(amount: Decimal, pct: Decimal, rounding: str = ROUND_HALF_UP) -> Decimal:
    """The platform's fee of ``pct`` percent on ``amount``, to the paisa; half up, as
    money.md says, unless ``rounding`` names another way (the readings of a record).

    >>> rake(Decimal("30.00"), Decimal("12.75"))
    Decimal('3.83')
    >>> pot, pct = Decimal("1.93"), Decimal("12.50")
    >>> rake(pot, pct), rake(pot, pct, "ROUND_CEILING")
    (Decimal('0.24'), Decimal('0.25'))
    """
    return (amount * pct / 100).quantize(PAISA, rounding=rounding)


def points_settlement(
    points: Mapping[str, int],
    winners: Sequence[str],
    point_value: Decimal,
    rake_pct: Decimal,
    values: Mapping[str, int] | None = None,
) -> tuple[dict[str, Decimal], Decimal]:
    """Points rummy's money for one hand (``money.points_settlement``): each player's
    amount, and the rake.

    ``points`` holds what each player but the winner is charged; ``values`` each player's
    net value-card points (21 and 27 cards: ``audit.rules.counts.value_settlement``, only
    for the players still in at the show). A player's amount is (their net value points
    less the points charged) x the point value, to the paisa; a sole winner takes what the
    others pay net (the points they are charged, plus the winner's own net value), less the
    rake on it when it is positive. With no winner, what the others pay is the rake.

    >>> amounts, fee = points_settlement({"B": 9, "C": 120}, ["A"], Decimal("0.50"),
    ...                                  Decimal("10"), {"A": -110, "B": 160, "C": -50})
    >>> amounts, fee
    ({'B': Decimal('75.50'), 'C': Decimal('-85.00'), 'A': Decimal('8.55')}, Decimal('0.95'))
    >>> points_settlement({"B": 30}, ["A"], Decimal("1"), Decimal("10"))
    ({'B': Decimal('-30.00'), 'A': Decimal('27.00')}, Decimal('3.00'))
    >>> points_settlement({"A": 80, "B": 0, "C": 0}, [], Decimal("0.50"), Decimal("10"))
    ({'A': Decimal('-40.00'), 'B': Decimal('0.00'), 'C': Decimal('0.00')}, Decimal('40.00'))
    """
    net = values or {}
    amounts: dict[str, Decimal] = {}
    for player, charged in points.items():
        amounts[player] = money((net.get(player, 0) - charged) * point_value)
    fee = Decimal("0.00")
    total = -sum(amounts.values(), Decimal("0.00"))
    if len(winners) == 1:
        # What the others pay, net: the hand's money then adds up to the rake exactly,
        # whatever the rounding of each amount (with 13 cards, what the losers pay).
        fee = rake(total, rake_pct) if total > 0 else fee
        amounts[winners[0]] = total - fee
    elif not winners and total > 0:
        # No winner (an invalid declaration that ends the hand with others still in,
        # ``declaration.invalid_ends_hand``): what the losers pay is owed to no player,
        # so the platform holds it, counted as the hand's rake (schemas/money.md), as the
        # ledger check counts a hand settled as recorded.
        fee = total
    return amounts, fee


def roundest(guess: Decimal, tick: Decimal, gives: Callable[[Decimal], bool]) -> Decimal | None:
    """Of the values within five ``tick`` of ``guess`` that give the record (``gives``), the
    roundest (a whole number of ticks divisible by 100, then 50, 25, 10, 5), then the
    nearest: where the record's amounts cannot tell two values apart (a rake of 11.25% and
    11.26% take the same paise of a small game's pots), the one a platform sets.

    >>> roundest(Decimal("11.26"), Decimal("0.01"), lambda v: Decimal("11.23") <= v)
    Decimal('11.25')
    >>> roundest(Decimal("0.3333"), Decimal("0.0001"), lambda v: v == Decimal("0.3334"))
    Decimal('0.3334')
    """
    values = [guess + step * tick for step in range(-5, 6)]
    given = [value for value in values if gives(value)]
    if not given:
        return None

    def key(value: Decimal) -> tuple[int, Decimal]:
        ticks = int(value / tick)
        return (next((-d for d in (100, 50, 25, 10, 5) if ticks % d == 0), 0),
                abs(value - guess))  # fmt: skip

    return min(given, key=key)
