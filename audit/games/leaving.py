"""Players who leave a pool or deals game for good: the audit's reading of the contract's
``left`` drop reason at game level (docs/replay.md, "Pool games at game level" and
"Money"; schemas/README.md says how a platform logs it).

The contract records a player leaving the table by a ``drop`` row with ``reason = left``
(``auto`` true or false), and has no game event for a player quitting a game; the seeds
say nothing of a player leaving a pool or deals game. So a player who left in a hand
(``drop``, reason ``left``) and is dealt into no later hand of the game is out of it
after that hand: a forfeit, with no further part in it, no prize and no split share. A
player who left and is dealt in again later is simply still in (a platform may keep
dealing a leaver in and drop them each hand until their score puts them out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from audit.records import Hand

Leaving = Mapping[int, frozenset[str]]
"""hand_no -> the players who left the game in that hand (``gone_for_good``)."""


def left_in(hand: Hand) -> list[str]:
    """The players with a ``drop`` row of reason ``left`` in ``hand``, in ``seq`` order.

    >>> from audit.records import NO_CARD, Event
    >>> hand = Hand("h1", "g1", 1, ["A", "B", "C"], [], NO_CARD, NO_CARD,
    ...     [Event(3, "C", "drop", NO_CARD, None, True, "left"),
    ...      Event(4, "B", "drop", NO_CARD, None, False, "player")], [])
    >>> left_in(hand)
    ['C']
    """
    out: list[str] = []
    for event in hand.events:
        left = event.action == "drop" and event.reason == "left"
        if left and event.player is not None and event.player not in out:
            out.append(event.player)
    return out


def gone_for_good(hands: Iterable[Hand]) -> Leaving:
    """For each hand (by ``hand_no``; ``hands`` in hand_no order), the players who left in
    it and are dealt into no later hand of the game: out by leaving after it."""
    ordered = list(hands)
    later: set[str] = set()  # the players seated in a hand after the one looked at
    gone: dict[int, frozenset[str]] = {}
    for hand in reversed(ordered):
        quit_ = frozenset(p for p in left_in(hand) if p in hand.seats and p not in later)
        if quit_:
            gone[hand.hand_no] = quit_
        later.update(hand.seats)
    return gone


def last_seated(hands: Iterable[Hand]) -> Mapping[str, int]:
    """The last hand (``hand_no``) each player of ``hands`` is dealt into."""
    return {player: hand.hand_no for hand in hands for player in hand.seats}
