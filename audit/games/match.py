"""Game-level checks of a match (format ``match``, 002_'s open-melds game): running totals,
the end at the target, the lowest total winning.

002_be7776aa8b349efa.txt: "The match ends when somebody reaches 250. ... The lowest total
wins." The preset's ``match.target`` is the total, ``match.winner`` the lowest-wins rule,
``match.running_total`` the running total (each hand's points added on).

- ``results.score_after`` is each player's running total (``match.running_total``: "the
  running total of the points they are charged in each hand, from 0 at the start"),
  checked as the sum of their recorded points (a wrong ``points`` is the hand's own
  finding, not a cascade here). Every recorded total is compared with it, never
  with the last recorded total plus the hand's points, as the pool scores are
  (``audit.games.pool``): a platform that recorded one wrong total and then carried it
  forward is wrong on each later hand (``match.total``, each saying where the wrong total
  started: the last one is the standing the match ends on); one whose later totals are
  right again is flagged once (a blind tester: judged from the last recorded total, a
  one-off error flagged the next, right, total too, and a carried one only once). A hand
  without a player's results row (its own ``score.outcome``) leaves their total unknown:
  their next recorded total is taken as it stands, not judged, since it holds the points
  of the hand no row records, and the total goes on from it.
- The match's end and its winner rest on the totals by the rules: each hand's points as
  the rules charge them (``expected``, from the hands' replay; the recorded points where
  it is not given or the rules cannot say: ``records.verdict_points``, as a pool's running
  score). The match ends after the hand in which some such total reaches the target: a
  hand dealt after it is ``match.end`` (once); a finished game (``ended_at`` set) where no
  total reached the target is ``match.end`` too, naming the hands whose recorded points
  the rules do not give where they make the difference (a blind tester's loser charged 80
  for 8 ended a match at 252 that by the rules stood at 207: one ``score.points`` said
  nothing of the match).
- A finished match has one ``game_won`` game event naming a player with the lowest total
  by the rules (a tie: any of the lowest), else ``match.winner`` (the right winner's row
  written again: one ``match.winner`` on the repeat). A running match is
  judged on its hands so far: its winner waits for the batch where it ends.

No money moves in a match (no ``point_value``, no entry fee, practice chips): the points
money is checked only in points rummy and the ledger only where it has rows.
"""

from __future__ import annotations

from typing import Any

from audit.findings import Finding, finding
from audit.records import Game, Hand, RulesSay, named_winners, verdict_points, won_again
from audit.rules.ruleset import Ruleset


class _MatchCheck:
    def __init__(
        self, game: Game, hands: list[Hand], rules: Ruleset, expected: RulesSay | None
    ) -> None:
        self.game, self.hands, self.rules = game, hands, rules
        self.expected = expected or {}
        self.target = rules.match_target
        self.totals: dict[str, int] = {}
        """Each player's running total by the rules' points (the end and the winner)."""
        self.tallies: dict[str, int] = {}
        """Each player's recorded points added up (what a recorded total is checked by)."""
        self.differs: dict[str, list[str]] = {}
        """Per player, the hands whose recorded points the rules do not give ("hand 6: 80
        recorded, 8 by the rules")."""
        self.kept: dict[str, int] = {}
        """Each player's running total as recorded."""
        self.wrong_since: dict[str, str] = {}
        """Where a player's recorded total left the rules', while it has not come back."""
        self.unknown: set[str] = set()
        """Players whose last hand has no results row: their total now is not known."""
        self.out: list[Finding] = []

    def add(self, check: str, key: str, message: str, **kw: Any) -> None:
        rule = self.rules.cite(key)
        self.out.append(finding(check, game_id=self.game.game_id, message=message, rule=rule, **kw))

    def run(self, *, winner: bool) -> list[Finding]:
        ended_after: Hand | None = None
        reported, why = False, ""
        for hand in self.hands:
            if ended_after is not None and not reported:
                reported = True
                self.add(
                    "match.end", "match.target",
                    f"Hand {hand.hand_no} was dealt after the match had ended: a total reached "
                    f"{self.target} after hand {ended_after.hand_no}{why}.",
                    hand_id=hand.hand_id, expected=f"no hand after hand {ended_after.hand_no}",
                    recorded=f"hand {hand.hand_no}",
                )  # fmt: skip
            self.score(hand)
            if (
                ended_after is None
                and self.target is not None
                and any(self.totals.get(p, 0) >= self.target for p in hand.seats)
            ):
                ended_after, why = hand, self._by_rules(self.target, reached=True)
        if self.hands and not self.game.running:
            self.end(winner=winner)
        return self.out

    def score(self, hand: Hand) -> None:
        results = {r.player: r for r in hand.results}
        for player in hand.seats:
            result = results.get(player)
            if result is None:  # the hand's own finding (score.outcome)
                self.unknown.add(player)
                continue
            before, kept = self.tallies.get(player, 0), self.kept.get(player, 0)
            expected = before + result.points
            recorded = result.score_after
            points = verdict_points(hand, result, self.expected.get(hand.hand_id, {}))
            # After a hand without the player's row their total goes on from this recorded
            # one, unjudged: it holds that hand's points, which no row says.
            if player in self.unknown and recorded is not None:
                self.unknown.discard(player)
                self.totals[player] = recorded
                self.keep(player, recorded, recorded, hand.hand_no)
                continue
            self.totals[player] = self.totals.get(player, 0) + points
            if points != result.points:
                self.differs.setdefault(player, []).append(
                    f"hand {hand.hand_no}: {result.points} recorded, {points} by the rules")
            self.unknown.discard(player)
            if hand.quarantine is None and recorded != expected:
                shown = "missing" if recorded is None else f"recorded as {recorded}"
                carried = ""
                since = self.wrong_since.get(player)
                if since and recorded == kept + result.points:
                    carried = f" It carries forward the wrong total recorded {since}."
                self.add(
                    "match.total", "match.running_total",
                    f"{player}'s match total after hand {hand.hand_no} is {shown}, but by the "
                    f"rules it is {before} + {result.points} = {expected}.{carried}",
                    hand_id=hand.hand_id, player_id=player, expected=expected, recorded=recorded,
                )  # fmt: skip
            self.keep(player, expected, kept + result.points if recorded is None else recorded,
                      hand.hand_no)  # fmt: skip

    def keep(self, player: str, rules_total: int, recorded: int, hand_no: int) -> None:
        """Note both running totals of ``player``, and where the record left the rules'."""
        self.tallies[player], self.kept[player] = rules_total, recorded
        if recorded == rules_total:
            self.wrong_since.pop(player, None)
        elif player not in self.wrong_since:
            self.wrong_since[player] = (
                f"after hand {hand_no} ({recorded} recorded, {rules_total} by the rules)"
            )

    def end(self, *, winner: bool) -> None:
        """A finished match: some total at the target, and the lowest total named winner."""
        last = self.hands[-1]
        highest = max(self.totals.values(), default=0)
        if self.target is not None and highest < self.target:
            self.add(
                "match.end", "match.target",
                f"Match {self.game.game_id} ended after hand {last.hand_no} with the highest "
                f"total at {highest}, below the {self.target} that ends a match"
                f"{self._by_rules(self.target, reached=False)}.",
                hand_id=last.hand_id, expected=f"a total of {self.target}",
                recorded=f"highest total {highest}",
            )  # fmt: skip
        if not self.totals or not winner:
            return
        lowest = min(self.totals.values())
        leaders = sorted(p for p, total in self.totals.items() if total == lowest)
        named = named_winners(self.game)  # a row written again names no second winner
        if len(named) == 1 and named[0] in leaders:
            again = won_again(self.game)
            if again is not None:
                self.add(
                    "match.winner", "match.winner",
                    f"{named[0]} ended match {self.game.game_id} with the lowest total "
                    f"({lowest}) and won it, but {again.words}: a match is won once.",
                    hand_id=last.hand_id, player_id=named[0], seq=again.seq,
                    expected="one game_won event", recorded=f"{again.rows} game_won events",
                )  # fmt: skip
            return
        shown = ", ".join(p or "?" for p in named) or "nobody"
        standings = ", ".join(f"{p} {t}" for p, t in sorted(self.totals.items(), key=_order))
        self.add(
            "match.winner", "match.winner",
            f"{' or '.join(leaders)} ended match {self.game.game_id} with the lowest total "
            f"({lowest}) and should win it, but the record names {shown} (totals: "
            f"{standings}).",
            hand_id=last.hand_id, player_id=named[0] if len(named) == 1 else leaders[0],
            expected=" or ".join(leaders), recorded=shown if named else None,
        )  # fmt: skip

    def _by_rules(self, target: int, *, reached: bool) -> str:
        """Words for the totals that reach ``target`` by the rules' points and not by the
        recorded ones (``reached``), or the other way round: whose, and the hands that make
        the difference."""
        over = [p for p in sorted(self.differs)
                if (self.totals.get(p, 0) >= target) == reached
                and (self.tallies.get(p, 0) >= target) != reached]  # fmt: skip
        if not over:
            return ""
        return " by the rules' points; by the recorded points " + "; ".join(
            f"{p} has {self.tallies[p]} ({', '.join(self.differs[p])})" for p in over
        )


def _order(item: tuple[str, int]) -> tuple[int, str]:
    return item[1], item[0]


def check_match(
    game: Game,
    hands: list[Hand],
    rules: Ruleset,
    *,
    winner: bool = True,
    expected: RulesSay | None = None,
) -> list[Finding]:
    """The match findings of one ``match`` game: ``hands`` in hand_no order; the winner is
    checked only when ``winner`` (the game_events table, where it is named, exists);
    ``expected`` the rules' points of each hand from its replay (without it, the recorded
    points; see the module doc)."""
    if game.format != "match":
        return []
    return _MatchCheck(game, hands, rules, expected).run(winner=winner)
