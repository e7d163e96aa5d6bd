"""The hands of an explained game whose recorded outcomes the rules refuse: a declaration
accepted that the rules reject, a winner swapped (``records.money_unsettled``).

The game's checks count such a hand as recorded (docs/replay.md: a wrong verdict is the
hand's own finding, so the pool scores, the eliminations and the money after it are judged
from the record's outcomes). The game view must not then call what follows "the rules'":
it says which hands are counted as recorded and what the rules say of them, and, in a pool
game, where the rules' own outcomes leave the game (``pool_by_rules``), each player having
been told their hand's outcome and money by ``explain HAND_ID``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from audit.games.pool import judge_pool
from audit.records import POOL_FORMATS, Game, Hand, Result, money_unsettled
from audit.replay.outcome import Expected, plays_on
from audit.unit import UnitAudit


@dataclass(frozen=True)
class Refused:
    """A hand whose recorded outcomes the rules refuse, and what the rules say of it."""

    hand_no: int
    words: str
    """``by the rules P2 won it``."""


def refused_hands(unit: UnitAudit) -> tuple[Refused, ...]:
    """The game's replayed hands whose recorded winner is not the rules' (or, with value
    cards, whose players in at the show are not), in hand order."""
    rules = unit.rules
    if rules is None:
        return ()
    valued = rules.value_cards is not None
    return tuple(
        Refused(item.hand.hand_no, _rules_words(item.audit.expected))
        for item in unit.hands
        if item.audit is not None
        and money_unsettled(item.hand.results, item.audit.expected, valued)
    )


def _rules_words(said: Mapping[str, Expected]) -> str:
    """What the rules make of the hand: who won it, or that it goes on past the record."""
    if any(plays_on(e) for e in said.values()):
        return "by the rules it goes on past the end of the record"
    winners = [p for p, e in said.items() if e.outcome == "won"]
    if not winners:
        return "by the rules no one won it"
    return f"by the rules {and_words(winners)} won it"


def and_words(items: Sequence[str]) -> str:
    """``P1``, ``P1 and P2``, ``P1, P2 and P3``.

    >>> and_words(["1"]), and_words(["1", "3"]), and_words(["1", "3", "4"])
    ('1', '1 and 3', '1, 3 and 4')
    """
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def hands_words(refused: Sequence[Refused]) -> str:
    """``hand 1``, ``hands 1 and 3``."""
    numbers = and_words([str(r.hand_no) for r in refused])
    return f"hand{'s' if len(refused) > 1 else ''} {numbers}"


def refused_words(refused: Sequence[Refused]) -> str:
    """``Hand 1's recorded outcomes are not the rules' (by the rules P2 won it: see that
    hand's findings)``; empty when there is no such hand."""
    if not refused:
        return ""
    if len(refused) == 1:
        (one,) = refused
        return (
            f"Hand {one.hand_no}'s recorded outcomes are not the rules' ({one.words}: see "
            "that hand's findings)"
        )
    said = "; ".join(f"hand {r.hand_no}: {r.words}" for r in refused)
    return (
        f"The recorded outcomes of {hands_words(refused)} are not the rules' ({said}: see "
        "those hands' findings)"
    )


@dataclass(frozen=True)
class PoolByRules:
    """Where the rules' own outcomes of the refused hands leave a pool game after its last
    hand: the scores of the players still in by the rules, and its winner, if one is left."""

    after: int
    scores: str
    """``P1 80 and P2 80``."""
    still_in: int
    winner: str

    @property
    def words(self) -> str:
        lead = f"by the rules' own outcomes, after hand {self.after}"
        if self.winner:
            return f"{lead} {self.winner} ({self.scores}) is the last player left and wins the game"
        still = "both" if self.still_in == 2 else "all"
        return f"{lead} the scores are {self.scores}, {still} still in: the game is not over"

    @property
    def prize(self) -> str:
        """What the rules' own outcomes make of the prize."""
        if self.winner:
            return f"by the rules' own outcomes {self.winner} wins the game and its prize"
        return (
            f"by the rules' own outcomes the game is not over after hand {self.after}, so no "
            "prize is due yet"
        )

    @property
    def result(self) -> str:
        """``by the rules' own outcomes the game is not over``, for the game's result."""
        if self.winner:
            return f"by the rules' own outcomes {self.winner} wins the game"
        return "by the rules' own outcomes the game is not over"


def scores_note(refused: Sequence[Refused], standing: PoolByRules | None) -> str:
    """The note under a pool or deals game's table: the hands counted as recorded, and in
    a pool game where the rules' own outcomes leave it."""
    them = "it" if len(refused) == 1 else "them"
    note = (
        f"{refused_words(refused)}. These scores, and the game's checks, count {them} as "
        "recorded"
    )
    return f"{note}; {standing.words}." if standing else f"{note}."


def money_note(refused: Sequence[Refused], standing: PoolByRules | None) -> str:
    """The note above a game's sums: they count the refused hands as recorded."""
    note = (
        f"{refused_words(refused)}. The sums below count "
        f"{'it' if len(refused) == 1 else 'them'} as recorded, as the game's checks do: they "
        "are what the recorded outcomes give"
    )
    if standing is None:
        return f"{note}, not what the rules' own outcomes give."
    return f"{note}; {standing.prize}."


def pool_by_rules(unit: UnitAudit, game: Game, refused: Sequence[Refused]) -> PoolByRules | None:
    """Where the rules' own outcomes of the ``refused`` hands leave a pool game after its
    last hand (``games.pool.judge_pool`` on the hands with those outcomes); ``None`` for
    another format, a game with a split, or a refused hand the rules give no points."""
    rules = unit.rules
    if rules is None or not refused or game.format not in POOL_FORMATS or not unit.hands:
        return None
    if any(e.action in ("split", "split_offer") for e in game.game_events):
        return None  # the shares hang on every offer and answer: not played out here
    numbers = {r.hand_no for r in refused}
    hands: list[Hand] = []
    for item in unit.hands:
        hand = item.hand
        if hand.hand_no in numbers and item.audit is not None:
            said = item.audit.expected
            if any(e.points is None for e in said.values()):
                return None
            hand = replace(hand, results=[_as_rules_say(r, said.get(r.player))
                                          for r in hand.results])  # fmt: skip
        hands.append(hand)
    judged = judge_pool(game, hands, rules, expected=unit.rules_say())
    last = hands[-1].hand_no
    standing = judged.standings.get(last)
    if standing is None or not standing.active:
        return None
    scores = and_words([f"{p} {standing.scores.get(p, 0)}" for p in standing.active])
    alone = standing.active[0] if len(standing.active) == 1 else ""
    return PoolByRules(last, scores, len(standing.active), alone)


def _as_rules_say(row: Result, said: Expected | None) -> Result:
    """The results row with the rules' outcome and points in place of the recorded ones."""
    if said is None or said.points is None:
        return row
    return row._replace(outcome=said.outcome, points=said.points)
