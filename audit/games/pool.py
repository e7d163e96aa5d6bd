"""Game-level checks of a pool game (101 or 201): running scores, eliminations, rebuys
and splits, as 000_ describes them and the preset's ``pool_101.*`` / ``pool_201.*``
rules fix them.

The running score checked is the rules' running score: the sum of the rules' points of each
hand (``expected``, from the hands' replay; where it is not given, the rules cannot say, or
the rules or the record make the player the winner, the recorded ``points``, unless the
rules decide the whole hand their own way: ``records.verdict_points``), restarted at a
rebuy at the rules' new score (1 + the highest score still in). A ``pool.score`` (citing
``<format>.running_score``) is a ``score_after`` that is neither that nor the record's own
count (``_PoolCheck.score``): one error, one finding (docs/replay.md), so a score that
follows from a hand's wrong points is that hand's finding, one counted on from a rebuy's
wrong new score is the rebuy's, and a wrong score carried forward right is found once,
where it was recorded, not on each later hand (a blind tester: one wrong drop was five
findings). A running score that is right while a hand's ``points`` field is not is the
hand's ``score.points`` alone. Eliminations, the rebuy threshold and new scores, the split
criteria and the split shares all use the same rules' running score, and the players still
in by the rules: a player recorded as eliminated below the threshold is still in, one the
rules put out with no ``eliminated`` row is out (and the last player left is the winner the
ledger's prize is judged against), each difference being its one finding (an elimination
refused after the last hand that left one player, named the winner and paid, says so:
``ended_early``; the prize is not a second finding). A rebuy brings a player back; a rebuy
the rules do not allow is one finding, and the player's score goes on from the recorded new
score. A rebuy of a player still in is no rebuy at all: its one finding, and its entry is
counted nowhere (``PoolJudgement.void_rebuys``).

Readings chosen where 000_ allows two:

- "When more than two players are playing at a table, the player who has lost the game
  ... has an opportunity to Re-Buy": the players counted toward ``rebuy_min_players`` are
  everyone who played the hand, the player who lost it included (``rebuy_counts = "hand"``;
  ``"still_in"`` counts only the players left after its eliminations), and "the highest
  score of the round" is the highest score among the players still in.
- Several rebuyers take 1 + highest, 2 + highest, ... in the turn order of the hand just
  played; those scores recorded in another order are one finding naming every player.
- Auto split: every player left (2 or more, after rebuys) above ``auto_split_above``; a
  game that qualified must split, so one that went on is one finding, on the first hand
  it was due after (not again on the hands played on), and a split then
  recorded as manual was an automatic split (one finding on its kind; it owes the equal
  shares). A manual split against its criteria is one finding on the split, naming who
  offered it; an offer is judged on its own only when no manual split follows it.
- Money: the prize pool and a split's shares, as audit/games/split.py reads them.
- A player still in by the rules after a hand who is not dealt into the next one, with no
  elimination recorded, is one finding (``pool.rebuy`` when they had just rebought: their
  entry was taken for a seat not given), and out from then on.
- A player who leaves the game (audit/games/leaving.py, the audit's reading) is out after
  that hand at any score, with no finding; an ``eliminated`` row for them after it records
  it at any score, its score checked as any such row's.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from audit.findings import Finding, finding
from audit.games import rebuyrow
from audit.games.leaving import came_back, gone_for_good, last_seated, left_at
from audit.games.poolstate import Gaps, PoolJudgement, Standing, dealt_on
from audit.games.poolverdict import Told, fold, folded, refused_declarer, told_words
from audit.games.poolwords import dealt_out, ended_early, instead, score_words, swapped_rebuys
from audit.games.poolwords import in_turn as _in_turn
from audit.games.poolwords import kept_in as _kept_in
from audit.games.poolwords import leaver_rebuy as _leaver_rebuy
from audit.games.poolwords import out_rule as _out_rule
from audit.games.poolwords import over as _over
from audit.games.poolwords import rebuy_not_out as _rebuy_not_out
from audit.games.poolwords import under as _under
from audit.games.split import (
    ACCEPT_RULE,
    manual_findings,
    offer_findings,
    share_findings,
    split_paid,
)
from audit.records import (
    Game,
    GameEvent,
    Hand,
    Result,
    RulesSay,
    called_off,
    named_winners,
    verdict_points,
    won_again,
)
from audit.rules.ruleset import Ruleset, cite


class _PoolCheck:
    def __init__(
        self, game: Game, hands: list[Hand], rules: Ruleset, expected: RulesSay | None = None
    ) -> None:
        self.game, self.hands, self.rules = game, hands, rules
        self.expected: RulesSay = expected or {}
        self.fmt = game.format
        self.pool = rules.pools[game.format]
        self.out: list[Finding] = []
        self.scores: dict[str, int] = {}  # the rules' running score
        self.kept: dict[str, int] = {}  # the platform's, as recorded
        self.tally: dict[str, int] = {}  # the recorded points added up (from a rebuy's score)
        self.unrecorded: set[str] = set()  # a hand of theirs has no results row: next is as is
        self.gaps = Gaps()  # where (and why) the recorded score left the rules'
        self.standings: dict[int, Standing] = {}
        self.gone: dict[str, int] = {}  # eliminated (not rebought) -> after which hand
        self.ghosts: set[str] = set()  # eliminated players seated again (reported once)
        self.missed: set[str] = set()  # out by the rules with no eliminated row (reported)
        self.winner_left: str | None = None  # the one player left by the rules at the end
        self.dealt_after_won = False  # a hand dealt after the game_won event (reported)
        self.seat_order: list[str] = list(hands[0].seats) if hands else []
        self.rebuys = 0
        self.void: set[int] = set()  # seqs of rebuys of players still in: no rebuy at all
        self.bought: dict[str, int] = {}  # player -> the hand after which they last rebought
        self.written_out: set[str] = set()  # eliminated by a row the rules refused
        self.told: Told | None = None  # the last hand's refused verdict (poolverdict)
        self.split_after: int | None = None
        self.was_split = False
        self.split_kind: str | None = None  # the split's kind by the rules
        self.due_after: int | None = None  # the first hand an auto split not made was due after
        self.over: int | None = None  # the hand after which the rules ended it, dealt on
        self.events: dict[int, list[GameEvent]] = defaultdict(list)
        for event in game.game_events:
            self.events[event.after_hand_no].append(event)
        self.by_no = {hand.hand_no: hand for hand in hands}
        self.placed: dict[str, int] = {}  # out after that hand by an eliminated row misplaced
        self.moved: set[int] = set()  # seqs of eliminated rows written a hand late (reported)
        self.leaving = gone_for_good(hands)  # hand_no -> who is out by leaving after it
        self.since = left_at(hands)  # player -> the hand they left the game in
        self.last_hand = last_seated(hands)  # player -> the last hand they are dealt into

    def add(self, check: str, key: str, message: str, at: int | None = None, **kw: Any) -> None:
        """A finding citing the preset's ``<format>.<key>`` rule, a whole rule key when
        ``key`` holds a dot (``drops.pool_101``: a hand's points), or ``ACCEPT_RULE``. An
        elimination's is ``poolwords.out_rule``'s, ``at`` the score it turns on (exactly 101)."""
        key = _out_rule(self.pool, at) if key == "elimination_score" else key
        if key == "split_accept":
            rule = ACCEPT_RULE
        else:
            rule = cite(self.rules, key if "." in key else f"{self.fmt}.{key}")
        self.out.append(finding(check, game_id=self.game.game_id, message=message, rule=rule, **kw))

    def run(self) -> list[Finding]:
        active: list[str] = []
        for index, hand in enumerate(self.hands):
            last = index == len(self.hands) - 1
            if self.over is not None:  # dealt after the rules' end: seated once, not judged
                if self.hands[index - 1].hand_no == self.over:
                    self.seated(hand)  # a won game, or an eliminated player, dealt in again
                self.standings[hand.hand_no] = dealt_on(self.standings[self.over], self.over,
                                                        hand)  # fmt: skip
                continue
            self.seated(hand)
            self.absent(hand, active)
            self.score(hand)
            flagged = {f.player_id for f in self.out
                       if f.check == "pool.score" and f.hand_id == hand.hand_id}  # fmt: skip
            off = self.gaps.off(hand, self.scores, flagged)
            active = self.after(hand, last)
            self.splits(hand, active, last)
            self.standings[hand.hand_no] = Standing(tuple(active), dict(self.scores), self.rebuys,
                                                    off)  # fmt: skip
            if not last and self.ends_here(hand, active):
                self.over = hand.hand_no
        if self.hands and not self.game.running and not self.was_split:
            self.winner(active)  # after the rules' end of the game (``over``): as it stood then
        return self.out

    def ends_here(self, hand: Hand, active: list[str]) -> bool:
        """Whether the game ended by the rules after ``hand`` though the record deals on:
        one player left, not by a rebuy the rules refuse (a reading of ours the platform may
        not share: the hands after it stay judged). The hands after it are not judged (they
        were not to be played: what they held rests on the fault that kept the game going,
        that fault's one finding), and the last player left wins (a blind tester: a player
        the record kept in at 220 was named the winner a hand later, the ledger that paid
        them said to agree and the one that paid the rightful winner called wrong)."""
        if len(active) != 1 or self.was_split or self.due_after is not None:
            return False
        return not any(e.action == "rebuy" for e in self.events.get(hand.hand_no, []))

    def winner(self, active: list[str]) -> None:
        """A pool game that was not split ends when one player is left by the rules: the
        winner (``winner_left``, what the ledger's prize is judged against)."""
        named = named_winners(self.game)  # a row written again names no second winner
        last = self.hands[-1]
        if len(active) == 1:
            self.winner_left = active[0]
            if self.over is None and named == active:  # won with a refused elimination's
                self.out = dealt_out(self.out, self.game, self.hands, self.void, active[0])
            on = "" if self.over is None else (
                f" (after hand {self.over}; the record dealt on to hand {last.hand_no})")
            told = self.told  # the last hand's refused verdict, if any
            if named != active and told is not None and folded(told, named, active[0]):
                # that verdict alone: its words say it (poolverdict)
                self.out = fold(self.out, told, last.hand_id, active[0])
            elif named != active and (k := _kept_in(self.out, named, active[0], self.over, last)):
                self.out = k  # their missed elimination's words say it (poolwords)
            elif named != active:
                self.add(
                    "pool.winner", "elimination_score",
                    f"{active[0]} is the last player left in game {self.game.game_id}{on}, "
                    "but the game is recorded as won by "
                    f"{', '.join(p or '?' for p in named) or 'nobody'}.",
                    hand_id=last.hand_id, player_id=active[0],
                    expected=active[0], recorded=", ".join(p or "?" for p in named) or None,
                )  # fmt: skip
            else:
                self.repeated_win(f"{active[0]} is the last player left in game "
                                  f"{self.game.game_id} and won it")  # fmt: skip
            return
        if self.due_after is not None:  # a split owed: its one finding says how the game ended
            if named:
                self.repeated_win(f"Game {self.game.game_id} is recorded as won by {named[0]}")
            return
        # Still in only because their elimination after the last hand was refused: that
        # elimination's finding says it (one error, one finding).
        refused = {e.player for e in self.events.get(last.hand_no, [])
                   if e.action == "eliminated"}  # fmt: skip
        others = [p for p in active if p not in named]
        if len(named) == 1 and len(others) == len(active) - 1 and set(others) <= refused:
            if named[0] is not None:  # its findings say the game ended early, and the prize
                self.out = ended_early(self.out, self.game, self.hands, self.void, last,
                                       named[0], others, active)  # fmt: skip
            self.repeated_win(f"Game {self.game.game_id} is recorded as won by {named[0]}")
            return
        if named:  # several players still in, yet a winner is recorded
            self.add(
                "pool.winner", "elimination_score",
                f"Game {self.game.game_id} is recorded as won by "
                f"{', '.join(p or '?' for p in named)}, but after hand {last.hand_no} "
                f"{len(active)} players were still in ({', '.join(active)}).",
                hand_id=last.hand_id, expected="one player left", recorded=len(active),
            )  # fmt: skip
        elif len(set(active) - refused) > 1 and not called_off(self.game, self.hands):
            # ended with several still in, neither won nor split (a blind tester: with the
            # split event missing, the game's only findings were its ledger's split rows)
            self.add(
                "pool.winner", "elimination_score",
                f"Game {self.game.game_id} ended after hand {last.hand_no} with "
                f"{len(active)} players still in ({', '.join(active)}), but records neither "
                "a winner (no game_won event) nor a split: a pool game ends when one player "
                "is left, or by a split." + (
                    "" if self.game.ledger else " (A game called off has refund rows in the "
                    "ledger; the log has no ledger rows for this one.)"),
                hand_id=last.hand_id, expected="one player left or a split",
                recorded=len(active),
            )  # fmt: skip

    def repeated_win(self, lead: str) -> None:
        """The winner's ``game_won`` row written again (``records.won_again``): one finding
        on the repeat; the winner and the prize stay theirs."""
        again = won_again(self.game)
        if again is not None:
            self.add(
                "pool.winner", "elimination_score",
                f"{lead}, but {again.words}: a game is won once.",
                hand_id=self.hands[-1].hand_id, player_id=named_winners(self.game)[0],
                seq=again.seq, expected="one game_won event",
                recorded=f"{again.rows} game_won events",
            )  # fmt: skip

    # ---------------------------------------------------------------- per hand

    def seated(self, hand: Hand) -> None:
        if self.split_after is not None:
            self.add(
                "pool.split", "auto_split_above",
                f"Hand {hand.hand_no} was dealt after the game was split after hand "
                f"{self.split_after}; a split ends the game.",
                hand_id=hand.hand_id, expected=f"no hand after hand {self.split_after}",
                recorded=f"hand {hand.hand_no}",
            )  # fmt: skip
            self.split_after = None
        won = next((e for e in self.game.game_events if e.action == "game_won"), None)
        if won is not None and won.after_hand_no < hand.hand_no and not self.dealt_after_won:
            # As after a split: the one finding, not also an eliminated player seated in it.
            self.dealt_after_won = True
            self.add(
                "pool.winner", "elimination_score",
                f"Hand {hand.hand_no} was dealt after game {self.game.game_id} was won (its "
                f"game_won event after hand {won.after_hand_no} names "
                f"{won.player or 'nobody'}); a won game ends.",
                hand_id=hand.hand_id, expected=f"no hand after hand {won.after_hand_no}",
                recorded=f"hand {hand.hand_no}",
            )  # fmt: skip
        for player in hand.seats:
            if player in self.gone and player not in self.ghosts:
                self.ghosts.add(player)
                if player in self.missed or self.dealt_after_won:
                    continue  # the missing eliminated row was the finding: one error, one
                self.add(
                    "pool.elimination", "elimination_score",
                    f"{player} was eliminated after hand {self.gone[player]} but is seated "
                    f"in hand {hand.hand_no} without a rebuy.",
                    hand_id=hand.hand_id, player_id=player,
                    expected=f"out after hand {self.gone[player]}",
                    recorded=f"seated in hand {hand.hand_no}",
                )  # fmt: skip

    def absent(self, hand: Hand, before: list[str]) -> None:
        """The players still in by the rules after the hand before ``hand`` who are not
        dealt into it, with no elimination recorded: one finding each, and out from then on
        (a blind tester: a rebuy charged to a player never seated again passed in silence,
        the prize paid on it). Not after a split or a win, which end the game, nor for a
        player the record eliminated below the threshold (that row's one finding)."""
        if self.was_split or self.dealt_after_won:
            return
        for player in (p for p in before if p not in hand.seats and p not in self.written_out):
            no, score = hand.hand_no - 1, self.scores.get(player, 0)
            if self.bought.get(player) == no:
                check, key = "pool.rebuy", "rebuy_below"
                what = f"rebought after hand {no} (a new score of {score}) but is"
                why = "a rebuy buys a seat in the next hand, and their entry was taken for none"
            else:
                check, key = "pool.elimination", "elimination_score"
                what = f"was still in after hand {no} with {score}, {_under(self.pool)}, but is"
                why = ("neither an elimination nor their leaving the game (a drop with reason "
                       "left) is recorded")
            self.add(check, key, f"{player} {what} not dealt into hand {hand.hand_no}: {why}.",
                     hand_id=hand.hand_id, player_id=player, expected="dealt in",
                     recorded="not dealt in")  # fmt: skip

    def points(self, hand: Hand, result: Result) -> int:
        """The rules' points of ``result``'s player in ``hand``: the recorded points where
        the replay's are not given, the rules cannot say, or the rules or the record make
        the player the winner (a wrong verdict is the hand's finding:
        the replay follows what the platform did, so its points for the rest of that hand
        are the record's)."""
        return verdict_points(hand, result, self.expected.get(hand.hand_id, {}))

    def keep(
        self, player: str, rules_score: int, recorded: int, where: str, why: str = "", no: int = 0
    ) -> None:
        """Note both running scores of ``player``, and where (after hand ``no``; 0: at a
        rebuy) and ``why`` (a hand's wrong points) the record left the rules' (``Gaps``)."""
        self.scores[player], self.kept[player] = rules_score, recorded
        self.gaps.note(player, rules_score, recorded, where, why, no)

    def score(self, hand: Hand) -> None:
        """Each ``score_after`` of ``hand``: a ``pool.score`` where it is neither the rules'
        running score nor the record's own count: its score before the hand plus the hand's
        recorded points, or the recorded points added up (from 0, or a rebuy's recorded new
        score: the record back on its own count after one wrong score). A score that follows
        from the hand's wrong points is that hand's finding (``score.points``,
        ``drop.penalty``), one carried forward right from a wrong score before it is the
        finding where that score went wrong, and one from a rebuy's wrong new score is that
        rebuy's: one error, one finding (a blind tester: one drop charged 20 for 25 was five
        findings, the hand's and a ``pool.score`` on it and on each hand after)."""
        results = {r.player: r for r in hand.results}
        for player in hand.seats:
            result = results.get(player)
            if result is None:
                # The row is missing (the hand's score.outcome): the rules still charge the
                # player that hand's points, and the record's next score holds what no row
                # records, so it is taken as it stands (a blind tester: a wrong pool.score
                # and pool.split followed one missing row)
                said = self.expected.get(hand.hand_id, {}).get(player)
                if said is not None and said.points is not None:
                    self.scores[player] = self.scores.get(player, 0) + said.points
                self.unrecorded.add(player)
                continue
            before, kept = self.scores.get(player, 0), self.kept.get(player, 0)
            points = self.points(hand, result)
            expected, counted = before + points, kept + result.points
            tallied = self.tally.get(player, 0) + result.points
            recorded = result.score_after
            if player in self.unrecorded and recorded is not None:
                self.unrecorded.discard(player)
                counted = tallied = recorded
            self.tally[player] = tallied
            where = f"after hand {hand.hand_no}"
            if hand.quarantine is not None:  # nothing here can be judged: follow the record
                self.tally[player] = recorded if recorded is not None else tallied
                self.keep(player, recorded if recorded is not None else expected,
                          recorded if recorded is not None else counted, where)  # fmt: skip
                continue
            why = ""
            # The hand's own wrong points, counted on by the record: where its score left the
            # rules' (it was right before), or a gap the hand adds to one carried (Gaps)
            carried = self.gaps.is_off(player)
            if points != result.points and recorded == counted and (kept != before) == carried:
                why = f"the record counts {result.points} points for that hand, the rules {points}"
            # one seated while out has their seat's one finding: no score by the rules
            if recorded not in (expected, counted, tallied) and player not in self.ghosts:
                self.add(
                    "pool.score", "running_score",
                    score_words(hand, player, result, before, points, kept,
                                self.gaps.since(player)),
                    hand_id=hand.hand_id, player_id=player, expected=expected, recorded=recorded,
                )  # fmt: skip
            self.keep(player, expected, counted if recorded is None else recorded, where, why,
                      hand.hand_no)  # fmt: skip

    def after(self, hand: Hand, last: bool) -> list[str]:
        """Check the eliminations and rebuys after ``hand``; the players still in after it."""
        events = self.events.get(hand.hand_no, [])
        no = hand.hand_no
        eliminated = self.once(hand, events, "eliminated")
        unrecorded: list[str] = []  # out by the rules, no row says they were out
        refused: set[str] = set()  # recorded as out, in by the rules
        leaving = self.leaving.get(no, frozenset())  # out by leaving (module doc)
        for player in hand.seats:
            score = self.scores.get(player, 0)
            event = eliminated.get(player)
            if event is None:
                if self.placed.get(player) == no or (
                    self.pool.is_eliminated(score) and self.late(hand, player, score)
                ):
                    continue  # out by a row written a hand early or late: its one finding
                if player in leaving:
                    continue  # their drop with reason left records it
                if (
                    self.pool.is_eliminated(score)
                    and player not in self.ghosts
                    and not (last and self.game.running)
                ):
                    self.by_verdict(hand, player, last)
                    later = self.recorded_after(player, no)  # a row a hand late (a tester)
                    self.add(
                        "pool.elimination", "elimination_score",
                        f"{player} reached {score} after hand {no}, {_over(self.pool)}, but "
                        + (f"their elimination is recorded only after hand {later}: they played "
                           f"{later - no} hand{'s' * (later > no + 1)} while out." if later
                           else "no elimination was recorded.")
                        + self.gaps.carried(player, "The record rests on"),
                        hand_id=hand.hand_id, player_id=player, expected="eliminated", at=score,
                    )  # fmt: skip
                    unrecorded.append(player)
            elif not self.pool.is_eliminated(score) and player not in leaving:
                refused.add(player)
                self.written_out.add(player)
                self.by_verdict(hand, player, last)
                if self.early(hand, player, event, score):
                    continue
                # Dealt in no more: a drop with reason left would have made the row right.
                quit_ = "" if self.last_hand.get(player, 0) > no else (
                    f", and no drop with reason left records {player} leaving the game")
                self.add(
                    "pool.elimination", "elimination_score",
                    f"{player} is recorded as eliminated after hand {no}, but has {score} "
                    f"by the rules, {_under(self.pool)}{quit_}: {player} is still in."
                    + self.gaps.carried(player, "The record rests on"),
                    hand_id=hand.hand_id, player_id=player, seq=event.seq,
                    expected="still in", recorded="eliminated",
                )  # fmt: skip
            elif event.score != score and not (
                self.gaps.is_off(player) and event.score == self.kept.get(player)
            ):  # a row that copies the record's wrong running score is its pool.score alone
                self.add(
                    "pool.elimination", "elimination_score",
                    f"{player}'s elimination after hand {no} is recorded with a score of "
                    f"{event.score}, but by the rules their score was {score}."
                    + self.gaps.carried(player, "The record rests on"),
                    hand_id=hand.hand_id, player_id=player, seq=event.seq,
                    expected=score, recorded=event.score,
                )  # fmt: skip
        for who, event in eliminated.items():
            if who not in hand.seats and event.seq not in self.moved:
                self.add(
                    "pool.elimination", "elimination_score",
                    f"{who} is recorded as eliminated after hand {no}, a hand they did "
                    "not play.",
                    hand_id=hand.hand_id, player_id=who, seq=event.seq,
                    expected=f"a player of hand {no}", recorded=f"not dealt into hand {no}",
                )  # fmt: skip
        # Who is out follows the rules, each difference being its one finding. A player the
        # rules put out with no row saying so is out: a rebuy of theirs is judged as one,
        # not refused, and the hands after go on from its score (a blind tester: one missing
        # eliminated row gave five findings, two of them scores by "the rules" the rebuy had
        # reset); with no rebuy the game goes on without them (a winner named after it is
        # right; if they play on, that is not said again). A player recorded as out below
        # the threshold is still in: the highest score still in, the split and the winner
        # count them (a blind tester: D recorded as out at 65 was left out of C's rebuy,
        # which then looked wrong at 66, and C's later scores with it). One out with no
        # rebuy stays out, though seated again (``seated``'s one finding: a blind tester had
        # them "still in" beside the winner too). One who left the game in the hand and is
        # dealt into no later one is out by leaving (the module doc), with no finding.
        out = [p for p in hand.seats if (p in eliminated and p not in refused)
               or p in unrecorded or p in self.gone or self.placed.get(p) == no
               or p in leaving]
        still_in = [p for p in hand.seats if p not in out]
        back = self.rebuy(hand, events, out, still_in)
        back += self.unwritten(hand, [p for p in out if p in eliminated and p not in back
                                      and p not in self.gone], still_in, len(back))  # fmt: skip
        for player in out:
            if player in back:
                self.gone.pop(player, None)
            elif player not in self.gone:
                self.gone[player] = no
                if player in unrecorded:
                    self.missed.add(player)
        return [p for p in hand.seats if p in still_in or p in back]

    def by_verdict(self, hand: Hand, player: str, last: bool) -> None:
        """Note ``player``, whose elimination after ``hand``, the game's last, is wrong by
        the rules (missing, or refused) only because the record followed the hand's refused
        verdict: the record's score right before it, off after it by that hand's points
        alone, and their elimination as that recorded score makes it. Its finding stands
        unless the game's winner follows from the verdict too (``poolverdict.fold``)."""
        declarer = refused_declarer(hand, self.expected.get(hand.hand_id, {}))
        no, _, why = self.gaps.at.get(player, (0, "", ""))
        score, kept = self.scores.get(player, 0), self.kept.get(player, 0)
        if (not last or self.game.running or declarer is None or no != hand.hand_no or not why
                or self.pool.is_eliminated(kept) == self.pool.is_eliminated(score)):  # fmt: skip
            return
        self.told = self.told or Told(declarer)
        self.told.moved[player] = (score, kept)

    def once(self, hand: Hand, events: list[GameEvent], action: str) -> dict[str, GameEvent]:
        """The first ``action`` row (``eliminated``, ``rebuy``) of each player after
        ``hand``. A player's row written again (another seq; one seq twice is a duplicated
        key, ``game.unchecked``) is one finding on the repeat, and no second elimination or
        rebuy: its entry is counted nowhere (a blind tester: an ``eliminated`` row written
        twice gave no finding at all)."""
        rows: dict[str, list[GameEvent]] = defaultdict(list)
        for event in events:
            if event.action == action and event.player is not None:
                rows[event.player].append(event)
        check, what = ("pool.rebuy", "rebuys") if action == "rebuy" else (
            "pool.elimination", "is eliminated")
        for player, written in rows.items():
            if len(written) < 2:
                continue
            self.void.update(e.seq for e in written[1:] if action == "rebuy")
            seqs = [str(e.seq) for e in written]
            self.add(
                check, "rebuy_below" if action == "rebuy" else "elimination_score",
                f"The record writes {player}'s {action} event after hand {hand.hand_no} "
                f"{len(written)} times (seq {', '.join(seqs[:-1])} and {seqs[-1]}), but a "
                f"player {what} once after a hand.",
                hand_id=hand.hand_id, player_id=player, seq=written[1].seq,
                expected=f"one {action} event", recorded=f"{len(written)} {action} events",
            )  # fmt: skip
        return {player: written[0] for player, written in rows.items()}

    def recorded_after(self, who: str, no: int) -> int | None:
        """The hand after ``no`` with ``who``'s ``eliminated`` row after it, all played by
        them: the row written late (two hands late read "no elimination was recorded")."""
        while (after := self.by_no.get(no + 1)) is not None and who in after.seats:
            no += 1
            if any(e.action == "eliminated" and e.player == who for e in self.events.get(no, [])):
                return no
        return None

    def late(self, hand: Hand, player: str, score: int) -> bool:
        """``player``, out by the rules after ``hand`` with no row saying so, has their
        ``eliminated`` row after the next hand, which they did not play: the row was written
        a hand late, its one finding (a blind tester: two, the missing row and a row after
        a hand not played)."""
        after = self.by_no.get(hand.hand_no + 1)
        if after is None or player in after.seats:
            return False
        row = next((e for e in self.events.get(after.hand_no, [])
                    if e.action == "eliminated" and e.player == player), None)  # fmt: skip
        if row is None:
            return False
        self.moved.add(row.seq)
        self.placed[player] = hand.hand_no
        also = "" if row.score == score else (
            f" (and with a score of {row.score}, where by the rules it was {score})")
        self.add(
            "pool.elimination", "elimination_score",
            f"{player} reached {score} after hand {hand.hand_no}, {_over(self.pool)}, but "
            f"their elimination is recorded after hand {after.hand_no}, a hand they did not "
            f"play{also}: it belongs after hand {hand.hand_no}.",
            hand_id=after.hand_id, player_id=player, seq=row.seq,
            expected=f"after hand {hand.hand_no}", recorded=f"after hand {after.hand_no}",
            at=score,
        )  # fmt: skip
        return True

    def early(self, hand: Hand, player: str, row: GameEvent, score: int) -> bool:
        """``player``'s ``eliminated`` row after ``hand``, below the threshold by the rules,
        was written a hand early: they played the next hand, reached the threshold in it and
        have no row after it. One finding naming that hand (a blind tester: two, the row
        refused and the elimination missing); they are out after it."""
        after = self.by_no.get(hand.hand_no + 1)
        result = next((r for r in after.results if r.player == player), None) if after else None
        if after is None or result is None or after.quarantine is not None or any(
            e.action == "eliminated" and e.player == player
            for e in self.events.get(after.hand_no, [])
        ):
            return False
        reached = score + self.points(after, result)
        if not self.pool.is_eliminated(reached):
            return False
        self.placed[player] = after.hand_no
        self.add(
            "pool.elimination", "elimination_score",
            f"{player}'s elimination is recorded after hand {hand.hand_no}, when they had "
            f"{score} by the rules, {_under(self.pool)}, but they played hand "
            f"{after.hand_no} and reached {reached} after it: the row belongs after hand "
            f"{after.hand_no}.",
            hand_id=hand.hand_id, player_id=player, seq=row.seq,
            expected=f"after hand {after.hand_no}", recorded=f"after hand {hand.hand_no}",
            at=reached,
        )  # fmt: skip
        return True

    def rebuy(
        self, hand: Hand, events: list[GameEvent], out: list[str], still_in: list[str]
    ) -> list[str]:
        rebuys = list(self.once(hand, events, "rebuy").values())
        if not rebuys:
            return []
        no, pool = hand.hand_no, self.pool
        highest = max((self.scores.get(p, 0) for p in still_in), default=0)
        kept_highest = max((self.kept.get(p, 0) for p in still_in), default=0)
        led = max(still_in, key=lambda p: self.kept.get(p, 0), default=None)
        valid = [e.player for e in rebuys if e.player in out]
        in_turn = [p for p in hand.seats if p in valid]
        back: list[str] = []
        for event in rebuys:
            player = event.player
            assert player is not None
            kw: dict[str, Any] = {"hand_id": hand.hand_id, "player_id": player, "seq": event.seq}
            if player not in out:
                self.void.add(event.seq)
                self.add(
                    "pool.rebuy", "rebuy_below",
                    _rebuy_not_out(player, no, self.leaving),
                    expected="no rebuy", recorded="rebuy", **kw,
                )  # fmt: skip
                continue
            if player in self.leaving.get(no, frozenset()):
                self.void.add(event.seq)  # a leaver buys nothing: its entry counts nowhere
                words = _leaver_rebuy(player, self.since, no)
                self.add("pool.rebuy", "rebuy_below", words,
                         expected="no rebuy", recorded="rebuy", **kw)  # fmt: skip
                continue
            back.append(player)
            self.bought[player] = no
            self.rebuys += 1
            # A player who left the game in the hand is at the table no more
            quit_ = self.leaving.get(no, frozenset())
            playing = len(still_in) if pool.rebuy_counts != "hand" else len(
                [p for p in hand.seats if p not in quit_])
            if playing < pool.rebuy_min_players:
                one = playing == 1
                who = "played the hand" if pool.rebuy_counts == "hand" else (
                    "was still in" if one else "were still in")
                if quit_ and pool.rebuy_counts == "hand":
                    who += f" and stayed in the game ({', '.join(sorted(quit_))} left it)"
                self.add(
                    "pool.rebuy", "rebuy_min_players",
                    f"{player} rebought after hand {no} when only {playing} "
                    f"player{'' if one else 's'} {who}; "
                    f"a rebuy needs at least {pool.rebuy_min_players}.",
                    expected=f"at least {pool.rebuy_min_players} players",
                    recorded=f"{playing} player{'' if one else 's'}", **kw,
                )  # fmt: skip
            elif highest >= pool.rebuy_below:
                self.add(
                    "pool.rebuy", "rebuy_below",
                    f"{player} rebought after hand {no} while the highest score still in "
                    f"was {highest} by the rules; a rebuy is allowed only below "
                    f"{pool.rebuy_below}.",
                    expected=f"highest score still in below {pool.rebuy_below}",
                    recorded=f"highest score still in {highest}", **kw,
                )  # fmt: skip
            expected = highest + 1 + in_turn.index(player)
            allowed = playing >= pool.rebuy_min_players and highest < pool.rebuy_below
            if allowed and event.score != expected:
                why = ""
                if kept_highest != highest and event.score == kept_highest + 1 + in_turn.index(
                    player
                ):
                    lead = f"It counts from {kept_highest}, the highest score still in as recorded,"
                    why = self.gaps.carried(led, lead + " which rests on") if led else ""
                self.add(
                    "pool.rebuy", "rebuy_below",
                    f"{player} rebought after hand {no} at {event.score}, but the new score "
                    f"should be {expected} (the highest score still in was {highest} by the "
                    f"rules{_in_turn(hand, in_turn, highest)}).{why}",
                    expected=expected, recorded=event.score, **kw,
                )  # fmt: skip
            recorded = expected if event.score is None else event.score
            # A rebuy the rules do not allow has no score by the rules: its recorded new
            # score is followed (the rebuy itself is the finding).
            self.keep(player, expected if allowed else recorded, recorded,
                      f"when {player} rebought after hand {no}")  # fmt: skip
            self.tally[player] = recorded
        self.out = swapped_rebuys(self.out, hand, in_turn, highest)  # one order, one finding
        return back

    def unwritten(self, hand: Hand, out: list[str], still_in: list[str], taken: int) -> list[str]:
        """``out``'s rebuys after ``hand`` with no ``rebuy`` row (audit/games/rebuyrow.py,
        which says how they are read), after the ``taken`` rebuys recorded."""
        no, after = hand.hand_no, self.by_no.get(hand.hand_no + 1)
        highest = max((self.scores.get(p, 0) for p in still_in), default=0)
        if after is None or not rebuyrow.allowed(self.pool, hand, still_in, self.leaving, highest):
            return []
        back = rebuyrow.seated_again(self.game, after, out)
        for index, player in enumerate(back):
            new, going = highest + 1 + taken + index, rebuyrow.going_in(after, player)
            recorded = new if going is None else going
            self.bought[player], self.rebuys = no, self.rebuys + 1
            self.keep(player, new, recorded, f"when {player} rebought after hand {no}")
            self.tally[player] = recorded
            self.game = rebuyrow.read_in(self.game, no, player, recorded)  # its row lacking
            self.add(
                "pool.elimination", "elimination_score",
                rebuyrow.words(self.game, player, no, after.hand_no, going, new, highest),
                hand_id=after.hand_id, player_id=player,
                expected=f"a rebuy event after hand {no}", recorded="no rebuy event",
            )  # fmt: skip
        return back

    # ---------------------------------------------------------------- splits

    def splits(self, hand: Hand, active: list[str], last: bool) -> None:
        events = self.events.get(hand.hand_no, [])
        no, pool = hand.hand_no, self.pool
        scores = [self.scores.get(p, 0) for p in active]
        auto_due = len(active) >= 2 and all(s > pool.auto_split_above for s in scores)
        split = next((e for e in events if e.action == "split"), None)
        if split is None or split.split_kind != "manual":
            # a manual split's own finding says it
            offer_findings(self.add, pool, hand, events, active, scores)
        if split is None:
            # One split not made, one finding, on the first hand it was due after: the
            # hands played on are not that split missed again (a blind tester: one finding
            # per later hand), nor is the condition met again after a rebuy the rules
            # refuse brought a score down (the game should have ended at the first).
            due = auto_due and not self.was_split and not (last and self.game.running)
            if due and self.due_after is None:
                self.due_after = no  # its words say how the game went on and ended
                self.add(
                    "pool.split", "auto_split_above",
                    f"After hand {no} every player left ({', '.join(active)}) stood above "
                    f"{pool.auto_split_above} by the rules, so the prize should have been split "
                    f"automatically, but {instead(self.game, hand, self.hands[-1])}.",
                    hand_id=hand.hand_id, expected="auto split",
                )  # fmt: skip
            return
        self.split_after, self.was_split = no, True
        kw: dict[str, Any] = {"hand_id": hand.hand_id, "seq": split.seq}
        kind = split.split_kind or "auto"
        made = True  # by the rules: a split they do not make owes no shares (split.py)
        paid = split_paid(self.game)
        if kind == "manual" and auto_due:
            # 000_: once every player left is above it, the system splits automatically;
            # a split then recorded as manual is one wrong kind, not a manual split that
            # broke each of its criteria (a blind tester: four findings), and it owes the
            # auto split's equal shares.
            self.add(
                "pool.split", "auto_split_above",
                f"The game was split after hand {no} and recorded as a split by agreement, "
                f"but every player left stood above {pool.auto_split_above}, so it was an "
                "automatic split.",
                expected="auto", recorded="manual", **kw,
            )  # fmt: skip
            kind = "auto"
        elif kind == "manual":
            made = manual_findings(self.add, pool, hand, events, active, scores, kw, paid)
        elif not auto_due:
            # Offered (and accepted) first: a split by agreement recorded as automatic is one
            # wrong kind, and owes the agreed shares (a blind tester's correct manual shares
            # were two more findings, judged as equal ones).
            agreed = any(e.action == "split_offer" for e in events)
            self.add(
                "pool.split", "auto_split_above",
                f"The game was split automatically after hand {no}, but an auto split needs "
                f"2 or more players left, all above {pool.auto_split_above}"
                + ("; it was offered, a split by agreement." if agreed else "."),
                expected=f"2 or more players left, all above {pool.auto_split_above}",
                recorded="auto split", **kw,
            )  # fmt: skip
            if agreed:
                kind = "manual"
                made = manual_findings(self.add, pool, hand, events, active, scores, kw, paid)
        self.split_kind = kind
        if made:
            share_findings(self.add, self.game, pool, hand, active, scores, kind, split.seq,
                           self.seat_order, self.rebuys)  # fmt: skip


def judge_pool(
    game: Game, hands: list[Hand], rules: Ruleset, *, expected: RulesSay | None = None
) -> PoolJudgement:
    """The pool check of one ``pool_101`` / ``pool_201`` game: ``hands`` in hand_no
    order, ``game.game_events`` in seq order, ``expected`` the rules' points of each hand
    from its replay (without it, the recorded points; see the module doc)."""
    if game.format not in rules.pools:
        return PoolJudgement((), {}, None, None)
    check = _PoolCheck(game, hands, rules, expected)
    found = [*check.run(), *came_back(game, hands, rules)]
    told = check.told if check.told is not None and check.told.winner is not None else None
    return PoolJudgement(tuple(found), check.standings, check.winner_left, check.split_kind,
                         frozenset(check.void), check.due_after,
                         {hands[-1].hand_id: told_words(game.game_id, told)} if told else {},
                         tuple(check.game.game_events[len(game.game_events):]))


def check_pool(
    game: Game, hands: list[Hand], rules: Ruleset, *, expected: RulesSay | None = None
) -> list[Finding]:
    """The pool findings of one game (``judge_pool``)."""
    return list(judge_pool(game, hands, rules, expected=expected).findings)
