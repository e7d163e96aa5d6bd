"""Money: exact decimals, rounded half-up to the paisa (0.01), never floats."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

PAISA = Decimal("0.01")


def money(value: Decimal) -> Decimal:
    """``value`` rounded half-up to the paisa.

    >>> money(Decimal("3.825")), money(Decimal("-12.345"))
    (Decimal('3.83'), Decimal('-12.35'))
    """
    return value.quantize(PAISA, rounding=ROUND_HALF_UP)


def rake(amount: Decimal, pct: Decimal) -> Decimal:
    """The platform's fee of ``pct`` percent on ``amount``, to the paisa.

    >>> rake(Decimal("30.00"), Decimal("12.75"))
    Decimal('3.83')
    """
    return money(amount * pct / 100)
