"""The money a pool or deals game owes by the rules, before any ledger row is read: its
entries (the players seated and the rebuys that count), the rake and the prize
(``prize_pool``), and, where the rules owed an automatic split the record did not make
(``SplitOwed``), each player's equal share of that prize judged against what the ledger paid
them (``owed_shares``). The ledger check (audit/games/ledger.py), the pool check's words
and the explain view take their sums from here, so each is made once."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal

from audit.findings import Finding, finding
from audit.games.split import equal_words
from audit.games.split import owed as split_owed
from audit.money import rake as rake_of
from audit.records import POOL_FORMATS, Game, GameEvent, Hand, and_words, named_winners
from audit.rules.ruleset import Ruleset, cite

ZERO = Decimal("0.00")
Row = tuple[Finding, Decimal]
"""A finding about some of a game's ledger rows, with the money it accounts for: what those
rows moved less what the rules say they should (signed as the ledger is). When a game's row
findings account for all that its ledger is out of balance, the balance's finding would say
the same difference a second time (one settlement row off by 0.01 was two critical
findings: a blind tester), so it is left out; when they do not, it stays."""


@dataclass(frozen=True)
class SplitOwed:
    """The automatic split the rules owed a pool game that records none: after hand
    ``after`` every player left (``players``, 2 or more) stood above ``auto_split_above``
    by the rules (``PoolJudgement.due_after`` and its standing), so the game ended there and
    the prize is theirs in equal shares (000_: "The Prize amount or table amount is equally
    split among all active eligible players in Auto Split"),
    whatever the record played on to and whoever it named the winner."""

    after: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class PrizePool:
    """The money of a pool or deals game by the rules: ``players`` (everyone seated in
    any of its hands) and ``rebuys`` entries (``counted_rebuys``: none in deals) at ``fee``
    make ``gross``; the ``rake`` is ``rake_pct`` of it, rounded half-up to the paisa; the
    ``prize`` is the rest; ``winner`` is the one player the game events name as
    ``game_won`` (``None`` unless exactly one: a row written again for the same player is
    the winner check's one finding, ``records.won_again``, and names no second winner)."""

    players: int
    rebuys: int
    fee: Decimal
    gross: Decimal
    rake: Decimal
    prize: Decimal
    winner: str | None


def prize_pool(
    game: Game, hands: list[Hand], fee: Decimal, void: Collection[int] = ()
) -> PrizePool:
    """What the entries, the rake and the prize of a pool or deals game should be (the
    arithmetic of the ``ledger.balance`` check of pool and deals, ``POOL_RULE``); ``void``:
    the seqs of rebuy events the pool check finds no rebuy (``counted_rebuys``).

    >>> from audit.records import GameEvent
    >>> game = Game("G1", "T1", "pool_101", None, 13, "standard-13", 2, 2, 6, "real",
    ...     Decimal("100.00"), None, Decimal("12.75"), False,
    ...     game_events=[GameEvent(2, 1, "P3", "rebuy", 40, None),
    ...                  GameEvent(5, 2, "P1", "game_won", None, None)])
    >>> hand = Hand("H1", "G1", 1, ["P1", "P2", "P3"], [], 0, 0, [], [])
    >>> pool = prize_pool(game, [hand], Decimal("100.00"))
    >>> pool.gross, pool.rake, pool.prize, pool.winner
    (Decimal('400.00'), Decimal('51.00'), Decimal('349.00'), 'P1')
    """
    players = len({player for hand in hands for player in hand.seats})
    rebuys = len(counted_rebuys(game, void))
    gross = fee * (players + rebuys)
    rake = rake_of(gross, game.rake_pct)
    named = named_winners(game)  # the right winner's row written twice is the winner's
    winner = named[0] if len(named) == 1 else None
    return PrizePool(players, rebuys, fee, gross, rake, gross - rake, winner)


def counted_rebuys(game: Game, void: Collection[int] = ()) -> list[GameEvent]:
    """The rebuy game events a game's entries count (money.md: a ``rebuy`` row of
    ``-entry_fee`` per rebuy in pool; in deals, none). A deals game has no rebuys (000_:
    "not available for Best of 2/3 Deal games"; a ruleset cannot give it any,
    ``audit.rules.contradictions``): a rebuy event recorded in one is its ``pool.rebuy``
    finding and moves no money, so a ledger that took none is right (one error, one
    finding: a blind tester had three critical ``ledger.balance`` beside it). So is, in a
    pool game, the rebuy of a player still in (``void``, the seqs of
    ``PoolJudgement.void_rebuys``): never out, they had nothing to buy back (a blind
    tester: three critical findings again). Every other rebuy event of a pool game counts,
    one the rules do not allow included (too few players, too high a score): the player
    was out, bought back in and played on, and its own ``pool.rebuy`` finding says what
    was wrong with it.

    >>> from dataclasses import replace
    >>> game = Game("G1", "T1", "deals", 2, 13, "standard-13", 2, 2, 6, "real",
    ...     Decimal("10.00"), None, Decimal("10.00"), False,
    ...     game_events=[GameEvent(1, 1, "P3", "rebuy", 40, None)])
    >>> pool = replace(game, format="pool_101")
    >>> counted_rebuys(game), len(counted_rebuys(pool)), counted_rebuys(pool, {1})
    ([], 1, [])
    """
    if game.format not in POOL_FORMATS:
        return []
    return [e for e in game.game_events if e.action == "rebuy" and e.seq not in void]


def paid_out(game: Game) -> tuple[dict[str, Decimal], dict[str, set[str]]]:
    """What the ledger paid each player in ``prize`` and ``split`` rows together, and in
    which of the two kinds: a split the rules owed is judged against both (``owed_shares``,
    and the explain view's shares)."""
    paid: dict[str, Decimal] = defaultdict(lambda: ZERO)
    kinds: dict[str, set[str]] = defaultdict(set)
    for row in game.ledger:
        if row.kind in ("prize", "split") and row.player is not None:
            paid[row.player] += row.amount
            kinds[row.player].add(row.kind)
    return paid, kinds


_AS = {"prize": "a prize", "split": "split shares"}


def owed_shares(
    game: Game, hands: list[Hand], rules: Ruleset, owed: SplitOwed, void: Collection[int]
) -> list[Row]:
    """``ledger.balance`` for each player paid other than their share of the automatic
    split the rules owed (``owed``), in ``prize`` and ``split`` rows together: the game
    ended after hand ``owed.after`` with no winner, so nobody is owed a prize, and each
    player left then is owed an equal share (``split.owed``, seat order as a recorded
    split's). A blind tester: a ledger that paid the whole prize to the winner the record
    played on to had no money finding, the others' shares owed said nowhere; one that paid
    the equal shares had two critical findings for split rows in a game with no split.

    The shares are of the prize of every entry the game counts (``prize_pool``): a rebuy
    after hand ``owed.after`` is one the rules refuse (every player left stood above
    ``auto_split_above``, at or above ``rebuy_below``), its ``pool.rebuy`` finding, and is
    counted as recorded, as every rebuy of a player who was out is (``counted_rebuys``), so
    its entry fee is in the prize the players left share and the ledger still balances."""
    fee = game.entry_fee
    pool = rules.pools.get(game.format)
    if fee is None or pool is None or not owed.players:
        return []
    money = prize_pool(game, hands, fee, void)
    entries = money.players + money.rebuys
    shares = split_owed(kind="auto", active=list(owed.players), scores=[0] * len(owed.players),
                        seat_order=list(hands[0].seats), pool=pool, entry_fee=fee,
                        entries=entries, rake_pct=game.rake_pct)  # fmt: skip
    paid, kinds = paid_out(game)
    lead = (f"The prize should have been split automatically after hand {owed.after}, when "
            f"every player left ({and_words(list(shares))}) stood above "
            f"{pool.auto_split_above}: {equal_words(money.prize, len(shares))}")  # fmt: skip
    rule = cite(rules, f"{game.format}.auto_split_above")
    out: list[Row] = []
    for player in [*shares, *sorted(p for p in paid if p not in shares)]:
        want, got = shares.get(player, ZERO), paid[player]
        if got == want:
            continue
        rows = " and ".join(_AS[kind] for kind in sorted(kinds[player]))
        took = "nothing" if not got else f"{got} as {rows}"
        if player not in shares:
            said = f"{player} was not among them, but the ledger paid them {took}."
        elif got < want:
            said = (f"{player} is owed {want - got}: their share is {want}, and the ledger "
                    f"paid them {took}.")  # fmt: skip
        else:
            said = (f"{player}'s share is {want}, but the ledger paid them {took}, "
                    f"{got - want} too much.")  # fmt: skip
        found = finding(
            "ledger.balance", game_id=game.game_id, player_id=player, expected=want,
            recorded=got, message=f"{lead}. {said}", rule=rule,
        )  # fmt: skip
        out.append((found, got - want))
    return out
