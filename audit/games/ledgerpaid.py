"""A points game's ledger that paid what its hands' results record (``ledger._points``):
where the rules settle otherwise, the difference is the hands' own findings', and the money
that followed them is one ``ledger.balance`` on the game (schemas/money.md, step 3)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal

from audit.findings import finding
from audit.games.prize import ZERO, Row
from audit.records import Hand


def recorded(hands: list[Hand]) -> dict[str, Decimal]:
    """Each player's recorded ``results.amount`` added up over the hands (a missing amount
    adds nothing)."""
    out: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for hand in hands:
        for row in hand.results:
            if row.player is not None and row.amount is not None:
                out[row.player] += row.amount
    return out


def paid_as_recorded(
    game_id: str,
    hands: list[Hand],
    owed: tuple[Mapping[str, Decimal], Decimal, str],
    settled: Mapping[str, Decimal],
    rake: Decimal,
    rule: str,
) -> Row | None:
    """The one ``ledger.balance`` of a points game whose ledger paid exactly what its hands'
    results record (each player's ``points_settlement`` rows their amounts added up, the
    ``rake`` rows what those leave: each hand minus the sum of its amounts; every amount
    there, each of a player dealt in), where that is not what the rules settle (``owed``:
    each player's sum by the rules, the rake, and ``PointsOwed.caveat``). The difference is
    then the hands' findings' (``score.points``, ``score.amount``, ``declare.verdict``),
    and the money that followed them moved once: one finding on the game, not one per
    player and the rake (a blind tester: three critical copies of each wrong one-hand
    game, ranked above the hand's own finding). None otherwise: a ledger off the results
    in any other way (a skimmed payout) keeps a finding per player. ``expected`` and
    ``recorded`` are the rules' sums and the ledger's: ``P1 36.00, P2 -40.00, rake 4.00``.

    >>> from audit.games.ledger import BALANCE_RULE
    >>> from audit.records import Result
    >>> hand = Hand("H1", "G1", 1, ["P1", "P2"], [], 0, 0, [], [
    ...     Result("P1", "won", 0, None, Decimal("40.50")),
    ...     Result("P2", "lost", 45, None, Decimal("-45.00"))])
    >>> by_rules = ({"P1": Decimal("36.00"), "P2": Decimal("-40.00")}, Decimal("4.00"), "")
    >>> found, moved = paid_as_recorded("G1", [hand], by_rules, recorded([hand]),
    ...                                 Decimal("4.50"), BALANCE_RULE)
    >>> print(found.message)  # doctest: +NORMALIZE_WHITESPACE
    The ledger of game G1 paid what its hands' results record, which the rules do not give
    (see the hands' findings): by the rules P1's hands settle 36.00 with them (40.50 paid),
    P2's -40.00 (-45.00 paid), and the rake is 4.00 (4.50 taken).
    >>> found.expected, found.recorded, moved
    ('P1 36.00, P2 -40.00, rake 4.00', 'P1 40.50, P2 -45.00, rake 4.50', Decimal('0.00'))
    """
    won, owed_rake, caveat = owed
    if any(r.amount is None or r.player not in h.seats for h in hands for r in h.results):
        return None
    paid = recorded(hands)
    players = sorted(set(won) | set(settled) | set(paid))
    if rake != -sum(paid.values(), ZERO) or any(
        settled.get(p, ZERO) != paid.get(p, ZERO) for p in players
    ):
        return None
    off = [settled.get(p, ZERO) - won.get(p, ZERO) for p in players]
    if rake == owed_rake and not any(off):
        return None
    sums = [f"{p}'s {'hands settle ' * (not i)}{won.get(p, ZERO)}{' with them' * (not i)} "
            f"({settled.get(p, ZERO)} paid)" for i, p in enumerate(players)]
    found = finding(
        "ledger.balance",
        game_id=game_id,
        expected=", ".join([f"{p} {won.get(p, ZERO)}" for p in players] + [f"rake {owed_rake}"]),
        recorded=", ".join([f"{p} {settled.get(p, ZERO)}" for p in players] + [f"rake {rake}"]),
        message=f"The ledger of game {game_id} paid what its hands' results record, which the "
        f"rules do not give (see the hands' findings): by the rules {', '.join(sums)}, and "
        f"the rake is {owed_rake} ({rake} taken){caveat}.",
        rule=rule,
    )
    return found, rake - owed_rake + sum(off, ZERO)
