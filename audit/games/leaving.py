"""Players who leave a pool or deals game for good: the audit's reading of the contract's
``left`` drop reason at game level (docs/replay.md, "Pool games at game level" and
"Money"; schemas/README.md says how a platform logs it).

The contract records a player leaving the table by a ``drop`` row with ``reason = left``
(``auto`` true or false), and has no game event for a player quitting a game; the seeds
say nothing of a player leaving a pool or deals game. So a player who left in a hand
(``drop``, reason ``left``) and is dealt into no later hand of the game is out of it
after that hand: a forfeit, with no further part in it, no prize and no split share. A
platform may instead keep dealing a leaver in and drop them (reason ``left``) each hand
until their score puts them out: they are still in until then. A leaver dealt into a
later hand and not dropped with reason left in it plays a hand after leaving: one finding
(``came_back``), and they are out after the last hand they are dealt into (a blind
tester's deals leaver, dealt into deal 2 and charged 73 chips, was found only at deal 3,
"not dealt in, though still in the game", and a pool leaver's was read as a wrong winner).
A deals player missing from a later deal with no leaving recorded is ``not_dealt_in``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from audit.findings import Finding, finding
from audit.records import Game, Hand
from audit.rules.ruleset import Ruleset, cite

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
    """For each hand (by ``hand_no``; ``hands`` in hand_no order), the players out by
    leaving after it: those who left in it or in an earlier hand they were dealt into, and
    are dealt into no later hand of the game."""
    ordered = list(hands)
    last = last_seated(ordered)
    gone: dict[int, set[str]] = {}
    for player in left_at(ordered):
        gone.setdefault(last[player], set()).add(player)
    return {no: frozenset(players) for no, players in sorted(gone.items())}


def left_at(hands: Iterable[Hand]) -> dict[str, int]:
    """Each player who left the game (``left_in``, in a hand they were dealt into): the
    first hand (``hand_no``) they left in."""
    out: dict[str, int] = {}
    for hand in hands:
        for player in left_in(hand):
            if player in hand.seats:
                out.setdefault(player, hand.hand_no)
    return out


def came_back(game: Game, hands: Sequence[Hand], rules: Ruleset) -> list[Finding]:
    """A pool or deals game's players dealt into a hand after the one they left in, and not
    dropped there with reason left: one finding each, at the first such hand, a
    ``pool.elimination`` (kept in) or a ``deals.chips`` (dealt in). A quarantined hand's
    seats are not judged."""
    deals = game.format == "deals"
    check = "deals.chips" if deals else "pool.elimination"
    word = "deal" if deals else "hand"
    since = left_at(hands)
    told: set[str] = set()  # one finding a player: the record's fault from there on
    out: list[Finding] = []
    for hand in hands:
        if hand.quarantine is not None:
            continue
        leaving = left_in(hand)
        for player in hand.seats:
            first = since.get(player, hand.hand_no)
            if first >= hand.hand_no or player in leaving or player in told:
                continue
            told.add(player)
            out.append(finding(
                check, game_id=game.game_id, hand_id=hand.hand_id, player_id=player,
                expected=f"out (left in {word} {first})", recorded="dealt in",
                message=f"{player} left the game in {word} {first} (a drop with reason "
                f"left), but is dealt into {word} {hand.hand_no} and not dropped there with "
                f"reason left: a player who leaves a {_kind(game)} game is dealt into no "
                "later hand of it, or dropped at once with reason left in each; by the "
                f"rules {player} is out of the game.",
                rule=cite(rules, "events.left"),
            ))  # fmt: skip
    return out


def still_in(hands: Sequence[Hand], leaving: Leaving) -> list[tuple[str, ...]]:
    """After each deal, the players of the game still in it: all those dealt into any deal
    (in the order first dealt in) but those who left in it or before (``leaving``, the
    module doc)."""
    players = list(dict.fromkeys(p for hand in hands for p in hand.seats))
    gone: set[str] = set()
    still = []
    for hand in hands:
        gone.update(leaving.get(hand.hand_no, ()))
        still.append(tuple(p for p in players if p not in gone))
    return still


def not_dealt_in(
    game: Game, hands: Sequence[Hand], rules: Ruleset, leaving: Leaving
) -> list[Finding]:
    """A player of the game not dealt into a later deal, though no drop with reason left
    records their leaving it: one ``deals.chips`` each, at the first deal they miss. A
    deals game deals every player every deal (000_: no drops, no eliminations), so the
    record does not show why they were left out (a blind tester: a player pushed out of a
    best of 3 after deal 1, their chips never won back, gave no finding). A quarantined
    deal's seats are not judged."""
    seen: list[str] = []
    gone: set[str] = set()
    out: list[Finding] = []
    for number, hand in enumerate(hands, start=1):
        if hand.quarantine is None:
            for player in seen:
                if player in gone or player in hand.seats:
                    continue
                gone.add(player)  # one finding: the player is out of the record from here
                out.append(finding(
                    "deals.chips", game_id=game.game_id, hand_id=hand.hand_id,
                    player_id=player, expected="dealt in", recorded="not dealt in",
                    message=f"{player} is not dealt into deal {number}, though still in the "
                    "game: a deals game deals every player every deal, and no drop with "
                    f"reason left records {player} leaving it.",
                    rule=cite(rules, "deals.chips"),
                ))  # fmt: skip
            seen += [p for p in hand.seats if p not in seen]
        gone |= leaving.get(hand.hand_no, frozenset())
    return out


def _kind(game: Game) -> str:
    return {"pool_101": "101 pool", "pool_201": "201 pool"}.get(game.format, game.format)


def last_seated(hands: Iterable[Hand]) -> Mapping[str, int]:
    """The last hand (``hand_no``) each player of ``hands`` is dealt into."""
    return {player: hand.hand_no for hand in hands for player in hand.seats}
