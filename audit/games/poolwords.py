"""The words of the pool check's findings (audit/games/pool.py) that follow the pool
rules: why a score is out or still in, and who rebought first after one hand."""

from __future__ import annotations

from audit.records import Hand
from audit.rules.ruleset import PoolRules


def in_turn(hand: Hand, rebuyers: list[str], highest: int) -> str:
    """Several rebuys after one hand: who came first and what each gets (000_: "the players
    Re-Buyin will Re-Buy as per their turn in the game with scores 58, 59, 60"), read as
    the turn order of the hand just played (a blind tester was told r2 should have 72 and
    not that r3, before r2 in that order, had 71); empty for one rebuy.

    >>> hand = Hand("h3", "g1", 3, ["r3", "r4", "r1", "r2"], [], 0, 0, [], [])
    >>> in_turn(hand, ["r3", "r2"], 70).endswith("hand 3 was r3, r4, r1, r2: r3 rebought "
    ...     "first, at 71, then r2 at 72")
    True
    """
    if len(rebuyers) < 2:
        return ""
    first, *rest = rebuyers
    return (
        f"; rebuys after one hand count up in its turn order, which in hand {hand.hand_no} "
        f"was {', '.join(hand.seats)}: {first} rebought first, at {highest + 1}, "
        + ", ".join(f"then {p} at {highest + 2 + i}" for i, p in enumerate(rest))
    )


def over(pool: PoolRules) -> str:
    """Why a score is out, in the words of ``exactly_eliminates``: a score that reaches
    the elimination score, or one that passes it (121 does not pass 121: "which eliminates
    at 121" said it did, a blind tester).

    >>> rules = PoolRules(elimination_score=121, exactly_eliminates=False,
    ...     rebuy_min_players=3, rebuy_counts="hand", rebuy_below=79, manual_split_min_score=61,
    ...     drop_base=100, drop_step=20, split_drop_difference=(1, 2), auto_split_above=80)
    >>> over(rules), under(rules)
    ('above the 121 a player must pass to be out', 'not above the 121 a player must pass to be out')
    """
    at = pool.elimination_score
    return f"which eliminates at {at}" if pool.exactly_eliminates else (
        f"above the {at} a player must pass to be out")


def under(pool: PoolRules) -> str:
    """Why a score is still in (``over``'s words)."""
    at = pool.elimination_score
    return f"below the {at} that eliminates" if pool.exactly_eliminates else (
        f"not above the {at} a player must pass to be out")
