"""What the replay knows that the fair-play detectors need, and the logs alone do not say.

Two small tables per replayed hand, written next to the findings (schemas/output.md):

- ``pile.parquet``: for each (giver, taker) pair of a hand, how many times the taker drew with
  the giver's discard on top of the pile, how many of those discards the taker took, and how
  many of the cards taken ended in a valid meld of the taker's final hand (declared, shown, or
  arranged at best by the rules);
- ``drops.parquet``: every drop, with how strong the hand held at that moment was, so a
  detector can tell a weak hand folded from a strong one given up: ``points``, what the
  rules would charge for it (requirement and cap included), and ``deadwood``, the points of
  the cards left out of melds in its best arrangement, requirement or not, uncapped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from audit.replay.hand import HandReplay
from audit.replay.outcome import Expected
from audit.replay.seats import Status
from audit.rules.declaration import GroupCheck
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset
from audit.rules.solver import best_points


class PileRow(NamedTuple):
    """One (giver, taker) pair of a hand: one row of pile.parquet."""

    game_id: str
    hand_id: str
    giver: str
    taker: str
    offered: int
    """Draws the taker made with the giver's discard on top of the pile."""
    taken: int
    """Of those, the draws that took it."""
    melded: int
    """Cards taken that ended in a valid meld of the taker's final hand."""


class DropRow(NamedTuple):
    """One drop: one row of drops.parquet."""

    game_id: str
    hand_id: str
    player_id: str
    seq: int
    first: bool
    """Before the player's first draw of the hand (a first drop)."""
    turns: int
    """Turns the player had completed before dropping."""
    reason: str | None
    """``player``, ``timeout``, ``disconnect`` or ``left`` (events.reason)."""
    points: int
    """The fewest points the hand held at the drop could be charged by the rules."""
    deadwood: int
    """The points of the cards left out of melds in the hand's best arrangement, whether or
    not it meets the declaration requirement, uncapped: lower is stronger."""


_RELAXED: dict[int, tuple[Ruleset, Ruleset]] = {}
_NO_CAP = 10_000


def deadwood(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> int:
    """The points of the cards no meld takes in the best arrangement of ``cards``, with no
    declaration requirement, no cap and no ready-hand charge (21 and 27 cards: a ready hand
    is 0 here, not 2): how far a hand is from complete.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rules = load_preset("standard-13")
    >>> hand = parse_codes("4C 4D 4S 9H 9S 9D KC KD KH 2S 7D 8C JC".split())
    >>> deadwood(hand, Jokers.of_rank(5), rules), best_points(hand, Jokers.of_rank(5), rules)
    (27, 80)
    """
    held = _RELAXED.get(id(rules))
    if held is None or held[0] is not rules:
        relaxed = replace(
            rules, min_runs=0, min_pure_runs=0, long_run_length=None, ready_hand=None
        )
        held = _RELAXED[id(rules)] = (rules, relaxed)
    return best_points(cards, jokers, held[1], cap=_NO_CAP)


def _melded_cards(groups: Iterable[GroupCheck]) -> dict[int, int]:
    """Card -> copies in the valid groups (a dict, not a ``Counter``: built once a taker
    a hand, where the ``Counter`` class cost more than the count)."""
    out: dict[int, int] = {}
    for group in groups:
        if group.verdict.is_valid:
            for card in group.cards:
                out[card] = out.get(card, 0) + 1
    return out


def final_melds(
    replay: HandReplay, expected: dict[str, Expected], players: Iterable[str] | None = None
) -> dict[str, dict[int, int]]:
    """Each player's cards in valid melds when the hand ended: the winner's declared groups,
    a loser's shown groups or best arrangement; nothing for a player who dropped or whose
    declaration was invalid. Only ``players`` (the seated ones in seat order when
    ``None``)."""
    out: dict[str, dict[int, int]] = {}
    accepted = {d.player: d for d in replay.declarations if d.accepted and d.check.valid}
    for player in replay.seats if players is None else players:
        want = expected.get(player)
        if player in accepted:
            out[player] = _melded_cards(accepted[player].check.groups)
        elif want is not None and want.score is not None:
            out[player] = _melded_cards(want.score.groups)
    return out


def hand_facts(
    replay: HandReplay, expected: dict[str, Expected]
) -> tuple[list[PileRow], list[DropRow]]:
    """The pile and drop facts of one replayed hand, in a stable order."""
    hand = replay.hand
    taken: dict[tuple[str, str], int] = {}
    melded: dict[tuple[str, str], int] = {}
    if replay.takes:  # only a taker's melds count
        left = final_melds(replay, expected, dict.fromkeys(t for _, t, _ in replay.takes))
        for giver, taker, card in replay.takes:
            taken[giver, taker] = taken.get((giver, taker), 0) + 1
            pool = left.get(taker)
            if pool is not None and pool.get(card, 0) > 0:
                pool[card] -= 1
                melded[giver, taker] = melded.get((giver, taker), 0) + 1
    pile = [
        PileRow(hand.game_id, hand.hand_id, giver, taker, n, taken.get((giver, taker), 0),
                melded.get((giver, taker), 0))
        for (giver, taker), n in sorted(replay.offered.items())
    ]  # fmt: skip
    drops = [
        DropRow(
            hand.game_id,
            hand.hand_id,
            seat.player,
            seat.drop_seq,
            seat.dropped_first,
            seat.turns,
            seat.drop_reason,
            best_points(seat.cards, replay.jokers, replay.rules),
            deadwood(seat.cards, replay.jokers, replay.rules),
        )
        for seat in replay.seats.values()
        if seat.status in (Status.DROPPED, Status.LEFT) and seat.drop_seq is not None
    ]
    return pile, drops
