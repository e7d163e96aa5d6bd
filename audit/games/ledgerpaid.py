"""A points game's ledger that paid what its hands' results record (``ledger._points``):
where the rules settle otherwise, the difference is the hands' own findings', and the money
that followed them is one ``ledger.balance`` on the game (schemas/money.md, step 3). So too
a ledger with no rows for one hand (``unpaid_hand``): one fault, one finding on the game."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Protocol

from audit.findings import finding
from audit.games.prize import ZERO, Row
from audit.records import Hand, and_words


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


class Owed(Protocol):
    """What the rules settle (``ledger.PointsOwed``): each player's amount, and the rake."""

    @property
    def won(self) -> Mapping[str, Decimal]: ...
    @property
    def rake(self) -> Decimal: ...


def unpaid_hand(
    game_id: str,
    hands: list[Hand],
    owed: tuple[Owed, str],
    settled: Mapping[str, Decimal],
    rake: Decimal,
    each: Callable[[Hand], Owed],
    rule: str,
) -> Row | None:
    """The one ``ledger.balance`` of a points game whose ledger has no rows for one hand:
    each player's ``points_settlement`` rows and the ``rake`` rows are what the rules settle
    over the game (``owed``, with ``PointsOwed.caveat``) less what they settle in that one
    hand (``each``), two of those sums or more off (one row missing is that player's own
    finding). The ledger names no hand (log-format.md, ledger), so the hand is the one whose
    settlement is all the ledger is short, only where exactly one hand is. A blind tester's
    hand with all seven rows missing was seven critical findings, one per player and the
    rake, none saying a hand was unpaid. None otherwise.

    >>> from types import SimpleNamespace as Ns
    >>> from audit.games.ledger import BALANCE_RULE
    >>> one = Hand("H1", "G1", 1, ["A", "B"], [], 0, 0, [], [])
    >>> two = Hand("H2", "G1", 2, ["A", "B"], [], 0, 0, [], [])
    >>> each = {"H1": Ns(won={"A": Decimal("9.00"), "B": Decimal("-10.00")}, rake=Decimal("1.00")),
    ...         "H2": Ns(won={"A": Decimal("-4.00"), "B": Decimal("3.60")}, rake=Decimal("0.40"))}
    >>> game = Ns(won={"A": Decimal("5.00"), "B": Decimal("-6.40")}, rake=Decimal("1.40"))
    >>> found, moved = unpaid_hand("G1", [one, two], (game, ""), {"A": Decimal("9.00"),
    ...     "B": Decimal("-10.00")}, Decimal("1.00"), lambda h: each[h.hand_id], BALANCE_RULE)
    >>> print(found.message)  # doctest: +NORMALIZE_WHITESPACE
    The ledger of game G1 has no rows for hand H2, which the rules settle with A at -4.00 and
    B at 3.60, and a rake of 0.40: the ledger paid the game's other hands as the rules settle
    them, and none of that one.
    >>> found.expected, found.recorded, moved
    ('H2: A -4.00, B 3.60, rake 0.40', 'H2: no rows', Decimal('0.00'))
    """
    game, caveat = owed
    players = set(game.won) | set(settled)
    if sum(game.won.get(p, ZERO) != settled.get(p, ZERO) for p in players) + (
            rake != game.rake) < 2:  # fmt: skip
        return None
    unpaid = []
    for hand in hands:
        its = each(hand)
        if rake == game.rake - its.rake and any(its.won.values()) and all(
                settled.get(p, ZERO) == game.won.get(p, ZERO) - its.won.get(p, ZERO)
                for p in players | set(its.won)):  # fmt: skip
            unpaid.append((hand.hand_id, its))
    if len(unpaid) != 1:
        return None
    hand_id, its = unpaid[0]
    amounts = sorted(its.won.items())
    words = and_words([f"{p} at {a}" for p, a in amounts])
    found = finding(
        "ledger.balance",
        game_id=game_id,
        expected=f"{hand_id}: {', '.join(f'{p} {a}' for p, a in amounts)}, rake {its.rake}",
        recorded=f"{hand_id}: no rows",
        message=f"The ledger of game {game_id} has no rows for hand {hand_id}, which the rules "
        f"settle with {words}, and a rake of {its.rake}: the ledger paid the game's other "
        f"hands as the rules settle them, and none of that one{caveat}.",
        rule=rule,
    )
    moved = sum((settled.get(p, ZERO) - game.won.get(p, ZERO) for p in players), ZERO)
    return found, moved + rake - game.rake


def missing_rows(
    player: str,
    hands: list[Hand],
    rows: list[Decimal],
    settle: Callable[[Hand], Mapping[str, Decimal]],
) -> str:
    """The hands of a points game that no settlement row of ``player``'s pays, in words,
    where each of their ``rows`` is one hand's amount by the rules (``settle``) and one
    hand or more has none: a blind tester's missing row was said as two sums ("U037's hands
    settle -156.00 with them, but the ledger settled -100.00"), the hand nowhere. Empty
    where the rows are not one a hand (a game's rows added up, a row of no hand's amount)
    or a missing amount is two hands' (either may be the one).

    >>> hands = [Hand(f"H{n}", "G", n, ["A", "B"], [], 0, 0, [], []) for n in (1, 2)]
    >>> owed = {"H1": {"A": Decimal("-1.00")}, "H2": {"A": Decimal("-0.56")}}
    >>> missing_rows("A", hands, [Decimal("-1.00")], lambda hand: owed[hand.hand_id])
    " No settlement row of A's is hand 2's -0.56."
    >>> missing_rows("A", hands, [Decimal("-1.56")], lambda hand: owed[hand.hand_id])
    ''
    """
    amounts = [(hand, settle(hand).get(player, ZERO)) for hand in hands if player in hand.seats]
    left = Counter(rows)
    missing = []
    for hand, amount in amounts:
        if amount == ZERO:
            continue
        if left[amount] > 0:
            left[amount] -= 1
        else:
            missing.append((hand, amount))
    if +left or not missing or any(
            sum(1 for _, a in amounts if a == amount) > 1 for _, amount in missing):
        return ""
    named = and_words([f"hand {hand.hand_no}'s {amount}" for hand, amount in missing])
    return f" No settlement row of {player}'s is {named}."

