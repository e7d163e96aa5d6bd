"""The hands of an explained game whose recorded outcomes the rules refuse: a declaration
accepted that the rules reject, a winner swapped (``records.money_unsettled``).

Where the rules decide such a hand whole (``records.rules_verdict``: one winner, every
other player's points known), the game's checks follow the rules' own verdict (the pool
scores, ``records.verdict_points``; a deal's chips; a points hand's money) and it is not
listed here. Otherwise the game's checks count it as recorded (docs/replay.md: a wrong
verdict is the hand's own finding, so the pool scores, the eliminations and the money
after it are judged from the record's outcomes). The game view must not then call what
follows "the rules'": it says which hands are counted as recorded and what the rules say
of them, and, in a pool game, where the rules' own outcomes leave the game
(``pool_by_rules``), each player having been told their hand's outcome and money by
``explain HAND_ID``. (A blind tester: a points game's sums said "count it as recorded"
above lines settled as the rules decide it.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from audit.findings import Finding
from audit.games.pool import judge_pool
from audit.games.poolstate import PoolJudgement
from audit.records import (
    POOL_FORMATS,
    Game,
    Hand,
    Result,
    and_words,
    money_unsettled,
    rules_verdict,
)
from audit.replay.outcome import Expected, plays_on
from audit.unit import UnitAudit


@dataclass(frozen=True)
class Refused:
    """A hand whose recorded outcomes (or, in a match, points) the rules refuse, and what
    the rules say of it."""

    hand_no: int
    words: str
    """``by the rules P2 won it``."""
    what: str = "outcomes"
    """What of the record the rules refuse: ``outcomes`` or ``points``."""


def refused_hands(unit: UnitAudit) -> tuple[Refused, ...]:
    """The game's replayed hands whose recorded winner is not the rules' (or, with value
    cards, whose players in at the show are not), in hand order; in a match also those
    whose recorded points are not the rules', which its totals add up as recorded
    (``audit.games.match``: a blind tester read "the game's record agrees with the rules"
    of totals holding points the rules refuse)."""
    rules, game = unit.rules, unit.game
    if rules is None:
        return ()
    valued = rules.value_cards is not None
    out = []
    for item in unit.hands:
        said = item.audit.expected if item.audit is not None else None
        if said is None:
            continue
        if money_unsettled(item.hand.results, said, valued):
            if game is not None and game.format != "match" and rules_verdict(item.hand, said):
                continue  # the game's checks follow the rules' own verdict (module doc)
            words = _rules_words(said)
            if game is not None and game.format in POOL_FORMATS:
                words += _penalty_words(item.hand.results, said)
            out.append(Refused(item.hand.hand_no, words))
        elif game is not None and game.format == "match":
            points = _points_words(item.hand.results, said)
            if points:
                out.append(Refused(item.hand.hand_no, points, "points"))
    return tuple(out)


def _penalty_words(results: Sequence[Result], said: Mapping[str, Expected]) -> str:
    """``; P1's 80 for the invalid declaration counts in the scores, as the rules fix it``
    for a declarer recorded as the winner (``records.verdict_points``); empty otherwise."""
    fixed = [f"{r.player}'s {said[r.player].points}" for r in results
             if r.outcome == "won" and r.player in said
             and said[r.player].outcome == "invalid_declare"]  # fmt: skip
    if not fixed:
        return ""
    return (f"; {and_words(fixed)} for the invalid declaration count"
            f"{'s' if len(fixed) == 1 else ''} in the scores, as the rules fix it")


def _points_words(results: Sequence[Result], said: Mapping[str, Expected]) -> str:
    """``by the rules P2 is charged 78 points, not the 80 recorded``; empty when the rules
    charge every player of the recorded outcome the recorded points."""
    wrong = []
    for row in results:
        rules = said.get(row.player)
        if rules is None or rules.points is None or rules.outcome != row.outcome:
            continue
        if rules.points != row.points:
            wrong.append(f"{row.player} is charged {rules.points} points, not the "
                         f"{row.points} recorded")  # fmt: skip
    return f"by the rules {and_words(wrong)}" if wrong else ""


def refused_what(refused: Sequence[Refused]) -> str:
    """``outcomes``, ``points``, or ``results`` for both."""
    kinds = {r.what for r in refused}
    return kinds.pop() if len(kinds) == 1 else "results"


def _rules_words(said: Mapping[str, Expected]) -> str:
    """What the rules make of the hand: who won it, or that it goes on past the record."""
    if any(plays_on(e) for e in said.values()):
        return "by the rules it goes on past the end of the record"
    winners = [p for p, e in said.items() if e.outcome == "won"]
    if not winners:
        return "by the rules no one won it"
    return f"by the rules {and_words(winners)} won it"


def hands_words(refused: Sequence[Refused]) -> str:
    """``hand 1``, ``hands 1 and 3``."""
    numbers = and_words([str(r.hand_no) for r in refused])
    return f"hand{'s' if len(refused) > 1 else ''} {numbers}"


def refused_words(refused: Sequence[Refused]) -> str:
    """``Hand 1's recorded outcomes are not the rules' (by the rules P2 won it: see that
    hand's findings)``; empty when there is no such hand."""
    if not refused:
        return ""
    what = refused_what(refused)
    if len(refused) == 1:
        (one,) = refused
        return (
            f"Hand {one.hand_no}'s recorded {what} are not the rules' ({one.words}: see "
            "that hand's findings)"
        )
    said = "; ".join(f"hand {r.hand_no}: {r.words}" for r in refused)
    return (
        f"The recorded {what} of {hands_words(refused)} are not the rules' ({said}: see "
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


def scores_note(
    refused: Sequence[Refused], standing: PoolByRules | None, noun: str = "scores"
) -> str:
    """The note under a game's table (its ``noun``: a match's are ``totals``; a deals
    game's ``chips``): the hands counted as recorded, and in a pool game where the rules'
    own outcomes leave it. A deals game's table counts the rules' chips of such a deal where
    the rules know them (a declarer's penalty, as the game's checks count it:
    ``games.deals.DealByRules``) and says the record's where they do not."""
    them = "it" if len(refused) == 1 else "them"
    if noun == "chips":
        return (f"{refused_words(refused)}. The chips above count the rules' chips of {them} "
                "where the rules know them, and the record's, said so, where they do "
                "not.")  # fmt: skip
    if noun == "totals":  # the end and the winner are the rules' (``games.match``)
        return (f"{refused_words(refused)}. These totals count {them} as recorded, as the "
                "check of each recorded total does; the match's end and its winner are "
                "judged by the points the rules charge, where they know them.")  # fmt: skip
    note = (
        f"{refused_words(refused)}. These {noun}, and the game's checks, count {them} as "
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


@dataclass(frozen=True)
class RulesWinner:
    """Where the rules leave a finished game whose recorded winner a game-level finding
    refuses: ``winner`` by the rules (a match's tie: ``P1 or P2``), or none yet (empty,
    ``why`` saying why not), and the findings that say so (``check`` the first's)."""

    winner: str
    why: str
    findings: tuple[Finding, ...]

    @property
    def check(self) -> str:
        return self.findings[0].check if self.findings else ""

    def see(self, where: str = "the findings") -> str:
        """``deals.chips, see the findings``: where the reader finds why."""
        return f"{self.check}, see {where}" if self.check else f"see {where}"

    @property
    def words(self) -> str:
        """``by the rules B wins``; ``by the rules the lead is tied ..., so the game has no
        winner yet``."""
        return f"by the rules {self.winner} wins" if self.winner else f"by the rules {self.why}"


_WINNER_CHECKS = ("match.winner", "pool.winner", "deals.chips")
"""The checks whose finding may name the rules' winner of a game (its ``expected``)."""


def rules_winner(
    game: Game, findings: Sequence[Finding], players: Sequence[str], left: Sequence[str] = ()
) -> RulesWinner | None:
    """What the rules make of the winner of a finished game where a game-level finding
    refuses the recorded one; ``left``: the players still in by the rules after a pool
    game's last hand that the record ends (``standing.still_in``). A blind tester read "won
    by A" over a deals.chips finding that B has the most chips, and "won by P1" over a
    match.end finding that no total had reached 250; pool and match already said so."""
    if game.running:
        return None
    if left:
        said = tuple(f for f in findings if f.check in ("pool.winner", "pool.elimination"))
        return RulesWinner("", f"{and_words(left)} are still in after the last hand, so the "
                           "game has no winner yet", said)  # fmt: skip
    for f in findings:
        if f.check == "deals.chips" and not f.hand_id and f.expected == "one more deal":
            return RulesWinner("", "the lead on chips is tied after the last deal, so one more "
                               "deal is played: the game has no winner yet", (f,))  # fmt: skip
        if f.check == "match.end" and (f.expected or "").startswith("a total of "):
            target = (f.expected or "").removeprefix("a total of ")
            highest = (f.recorded or "").removeprefix("highest total ")
            return RulesWinner("", f"no total has reached {target} (the highest is {highest}), "
                               "so the match has no winner yet", (f,))  # fmt: skip
    for f in findings:
        named = (f.expected or "").split(" or ")
        if f.check not in _WINNER_CHECKS or (f.check == "deals.chips" and f.hand_id):
            continue
        if named[0] and all(p in players for p in named):
            return RulesWinner(f.expected or "", "", (f,))
    return None


def told_winner(unit: UnitAudit, judged: PoolJudgement) -> RulesWinner | None:
    """The rules' winner of a pool game whose last hand's refused verdict alone gives the
    recorded winner, said in that hand's ``declare.verdict`` (``PoolJudgement.told``: no
    ``pool.winner`` of its own); ``None`` for any other game. Without it the header read
    "won by A" of a prize its ledger.balance said was B's (a blind tester)."""
    for item in unit.hands:
        if item.hand.hand_id in judged.told and item.audit is not None and judged.winner:
            said = tuple(f for f in item.audit.findings if f.check == "declare.verdict")
            return RulesWinner(judged.winner, "", said)
    return None


def _as_rules_say(row: Result, said: Expected | None) -> Result:
    """The results row with the rules' outcome and points in place of the recorded ones."""
    if said is None or said.points is None:
        return row
    return row._replace(outcome=said.outcome, points=said.points)
