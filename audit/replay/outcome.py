"""What each player's outcome and points should be, and how the recorded results compare.

``audit_hand(hand, game, rules)`` is the whole of one hand's audit: the replay, the rules'
outcomes, and the findings where ``results`` disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Final

from audit.findings import Finding, Severity, finding
from audit.logs.clock import clock_finding
from audit.money import money, points_settlement, rounded_otherwise
from audit.records import (
    FORMAT_NAMES,
    Game,
    Hand,
    Result,
    charged_outcome,
    charged_points,
    dealt_in,
    money_unsettled,
)
from audit.replay.charged import charged_words, said_of, verdict_words
from audit.replay.followed import follows_points
from audit.replay.hand import HandReplay
from audit.replay.readings import otherwise, renamed_result
from audit.replay.recut import Settled, Worth, by_one, settled_otherwise, settled_words
from audit.replay.seats import NO_DROP_WORDS, Declaration, Seat, Status, ended_on_invalid
from audit.rules.counts import ValueShare, value_of, value_settlement
from audit.rules.declaration import (
    cannot_meet,
    meld_rule_behind,
    unmet_charge,
)
from audit.rules.explain import best_arrangement_whole
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, cite
from audit.rules.scoring import Score, score_arrangement
from audit.rules.solver import best_arrangement
from audit.shuffle.commitment import commitment_findings

TableState = tuple[tuple[int, str, tuple[int, ...]], ...]
"""The melds on an open-melds table: (number, owner, cards) each, in the order laid."""

_DROP_WORDS = {
    "first_drop": "dropped before drawing a card (a first drop)",
    "middle_drop": "dropped after drawing a card in this hand (a middle drop)",
}
_OUT_OF_VALUES: Final = frozenset({*_DROP_WORDS, "invalid_declare"})
"""The outcomes of players who neither pay nor receive for value cards (points.value_cards)."""


@dataclass(slots=True, init=False)
class Expected:
    """The rules' outcome for one player, with the words and the rule behind it. Not
    changed once built (``dataclasses.replace`` makes another); its ``__init__`` is
    written out, so that it is compiled with the rest (``GroupCheck`` says why)."""

    outcome: str
    points: int | None
    """``None`` when the rules cannot say (the player's show does not match their cards,
    already a ``declare.groups_mismatch``): the recorded points are then taken as given."""
    rule_key: str
    why: str
    seq: int | None
    score: Score | None
    value: ValueShare | None
    """The player's value cards and their settlement (21 and 27 cards, points rummy, a
    player still in at a valid show); ``None`` where there is none."""

    def __init__(
        self,
        outcome: str,
        points: int | None,
        rule_key: str,
        why: str,
        seq: int | None = None,
        score: Score | None = None,
        value: ValueShare | None = None,
    ) -> None:
        self.outcome = outcome
        self.points = points
        self.rule_key = rule_key
        self.why = why
        self.seq = seq
        self.score = score
        self.value = value


@dataclass(frozen=True, slots=True)
class HandAudit:
    status: str
    findings: list[Finding]
    replay: HandReplay
    expected: dict[str, Expected]
    table: dict[int, TableState] = field(default_factory=dict)
    """Open melds: the melds on the table after each event that changed them, by seq."""


def audit_hand(
    hand: Hand, game: Game, rules: Ruleset, started_with: int | None = None
) -> HandAudit:
    """The hand replayed and its outcomes compared with the record; ``started_with``, the
    players of the game's first hand, chooses the shoe (``HandReplay``)."""
    replay = HandReplay(hand, game, rules, started_with).run()
    committed = commitment_findings(hand, game, shoe_of(replay))
    expected, findings = _judged(replay, game, committed)
    readings = otherwise(hand, replay.findings, game.cards_per_hand, rules)
    for other, said, leaves, ties in readings:
        again = HandReplay(other, game, rules, started_with).run()  # the fewest findings
        if not any(f.check.startswith(leaves) for f in again.findings):
            then, found = _judged(again, game, committed)
            tied = ties and replay.hand is hand and len(found) + 1 == len(findings)
            if len(found) + 1 < len(findings) or tied or _names_whose(said, found, findings):
                replay, expected, findings = again, then, [said, *found]
    renamed = renamed_result(replay.hand, findings, rules)  # a results row's name: judged
    if renamed is not None:
        again = HandReplay(renamed.hand, game, rules, started_with).run()
        then, found = _judged(again, game, committed)
        explained = not any(f.check.startswith(renamed.leaves) for f in found)
        if explained and len(found) + 1 < len(findings):
            replay, expected, findings = again, then, [renamed.said, *found]
    left = tuple(p for p, e in expected.items() if e.outcome in _OUT_OF_VALUES)
    held = {p: e.value.value for p, e in expected.items() if e.value is not None}
    candidates = settled_otherwise(replay.hand, findings, rules, left, held, game.point_value)
    ways = [way for way in candidates
            if _explains(replay, game, expected, _valued(replay, expected, way), way)]
    if len(ways) == 1:  # every amount off by the value cards settled another way
        said = settled_words(replay.hand, findings, ways[0], rules)
        findings = [said, *(f for f in findings if f.check != "score.amount")]
    if hand.clock is not None:  # the events' times, as the reader found them
        findings = [*findings, clock_finding(hand, hand.clock)]
    return HandAudit("discrepancy" if findings else "verified", findings, replay, expected)


def _names_whose(said: Finding, found: list[Finding], findings: list[Finding]) -> bool:
    """Whether a reading as few findings as the record's says whose row it was where the
    record's finding of that row names no one: a whole turn of a player not dealt in is
    one ``turn.order`` either way, and the reading's names the player whose turn it was
    (a blind tester: "Z9 acted in this hand but was not dealt in", where the docs say it
    is read as the seated player's turn, ``rows.strangers``)."""
    return len(found) + 1 == len(findings) and said.expected is not None and any(
        f.check == said.check and f.seq == said.seq and f.player_id == said.player_id
        and f.expected is None for f in findings)  # fmt: skip


def _explains(replay: HandReplay, game: Game, expected: dict[str, Expected],
              valued: dict[str, Expected], way: Settled) -> bool:  # fmt: skip
    """Whether every amount recorded is what ``valued`` settles, a value card held: none held
    is value cards not counted, which many cards give (``recut``), not one card for another;
    nor, around other cards, one player's value cards alone off from ``expected``'s
    (``recut.by_one``), which is the reading of that player's worth (``Settled.worth``)."""
    ours, held = ({p: e.value.value.points for p, e in out.items() if e.value is not None}
                  for out in (expected, valued))  # fmt: skip
    alone = way.worth is None and by_one(ours, held)
    return any(held.values()) and not alone and not compare_money(replay, game, valued)


def _valued(replay: HandReplay, expected: dict[str, Expected], way: Settled
            ) -> dict[str, Expected]:  # fmt: skip
    """``expected`` with the value cards settled ``way`` (``recut``)."""
    out = dict(expected)
    _settle_values(replay, out, way.jokers, way.out, way.worth)
    return out


def _judged(
    replay: HandReplay, game: Game, committed: list[Finding]
) -> tuple[dict[str, Expected], list[Finding]]:
    """The rules' outcomes of a replayed hand and its findings: the replay's, the shuffle
    commitment's (``committed``, of the shoe recorded), the results' and the money's. A
    hand its shoe could not deal (its ``deck.composition``) has no money compared: its
    amounts rest on cards no one was dealt (a 21 or 27-card hand's value cards), and the
    shoe is the one fault (a blind tester: an empty shoe was also two ``score.amount``)."""
    expected = expected_outcomes(replay)
    findings = one_drop_finding(replay.findings + committed, compare_results(replay, expected))
    if game.format == "points" and replay.dealt:
        findings += compare_money(replay, game, expected)
        values = {p: e.value.net for p, e in expected.items() if e.value is not None}
        findings = follows_points(replay.hand, game, findings, values)
    return expected, findings


def shoe_of(replay: HandReplay) -> tuple[int, int] | None:
    """The ruleset's shoe of the hand's table, (decks, printed jokers): what its seeds
    shuffle (``commitment_findings``)."""
    spec = replay.shoe_spec
    return None if spec is None else (spec.decks, spec.printed_jokers)


def one_drop_finding(findings: list[Finding], compared: list[Finding]) -> list[Finding]:
    """The replay's ``findings`` and then ``compared``, the results' (``compare_results``):
    a drop where the format has none (deals, a match) that is also charged other than the
    rules is one ``drop.penalty``, the charge's, whose words say both, not also its
    ``drop.forbidden`` (docs/replay.md)."""
    charged = {(f.player_id, f.seq) for f in compared if f.check == "drop.penalty"}
    if charged:
        findings = [f for f in findings
                    if f.check != "drop.forbidden" or (f.player_id, f.seq) not in charged]
    return findings + compared


# ------------------------------------------------------------ the rules' outcomes


def expected_outcomes(replay: HandReplay) -> dict[str, Expected]:
    """The outcome and points the rules give each seated player (none while unfinished)."""
    rules, game = replay.rules, replay.game
    out: dict[str, Expected] = {}
    ending = next((d for d in replay.declarations if d.accepted), None)
    declared = {d.player: d for d in replay.declarations}
    # A valid declaration the platform rejected ends the hand by the rules: its declarer
    # won, the others still in lost with the cards they held then, whatever came after.
    rejected = rejected_valid(replay)
    held = rejected.held if rejected is not None and rejected.held is not None else {}
    # A declaration the platform accepted and the rules refuse: by the rules its declarer
    # is out with the penalty and the hand goes on as after any invalid declaration.
    refused = ending if ending is not None and not ending.check.valid else None
    if rejected is not None:
        ending, refused = rejected, None
    still_in = [p for p, s in replay.seats.items() if s.status is Status.IN and p not in declared]
    for player, seat in replay.seats.items():
        declaration = declared.get(player)
        if rejected is not None and player in held:
            out[player] = after_rejected(rejected, player, replay)
        elif seat.status in (Status.DROPPED, Status.LEFT):
            out[player] = _drop(seat, game, rules)
        elif declaration is not None and not declaration.check.valid:
            out[player] = Expected(
                "invalid_declare",
                rules.invalid_penalty,
                "declaration.invalid_penalty",
                "the declaration was invalid: " + "; ".join(declaration.check.reasons),
                seq=declaration.seq,
            )
        elif declaration is not None:
            rule = declaration.check.broken_rule()
            out[player] = Expected("won", 0, rule, declaration.won_why, seq=declaration.seq)
        elif player == replay.winner:
            out[player] = Expected(
                "won", 0, "turns.last_player", "was the last player left in the hand"
            )
        elif refused is not None:
            out[player] = after_refused(refused.player, still_in, rules)
        elif ending is not None:
            out[player] = _loser(seat, ending.turns_of_others.get(player, 1), replay)
        elif replay.ended and replay.winner is None:  # an invalid declaration ended the hand
            out[player] = Expected(
                "lost",
                0,
                "declaration.invalid_ends_hand",
                "was still in the hand when an invalid declaration ended it",
            )
    if ending is not None and ending.check.valid and rules.value_cards is not None:
        _settle_values(replay, out)
    return out


def after_refused(declarer: str, still_in: Sequence[str], rules: Ruleset) -> Expected:
    """The rules' outcome of a player still in the hand when the platform accepted
    ``declarer``'s declaration, which the rules refuse (``declare.verdict``). By the rules
    the declarer is out with the penalty and the hand goes on as after any invalid
    declaration (standard-13's ``turns.last_player`` and ``declaration.invalid_ends_hand``,
    the seeds silent): one player left wins it; where an invalid declaration ends the hand,
    the players still in are charged nothing; else they play on past the end of the record,
    so the rules cannot say what the hand cost them (their points are taken as recorded)."""
    if len(still_in) == 1:
        return Expected(
            "won",
            0,
            "turns.last_player",
            f"was the last player left in the hand once {declarer}'s invalid declaration put "
            f"{declarer} out",
        )
    if rules.invalid_ends_hand:
        return Expected(
            "lost",
            0,
            "declaration.invalid_ends_hand",
            f"was still in the hand when {declarer}'s invalid declaration ended it",
        )
    return Expected(
        "lost",
        None,
        "declaration.invalid_ends_hand",
        f"was still in the hand when {declarer}'s invalid declaration was accepted; by the "
        f"rules {declarer} is out and the others play on, past the end of the record, so the "
        "rules cannot say what the hand cost them",
    )


def rejected_valid(replay: HandReplay) -> Declaration | None:
    """The valid declaration the platform rejected, if any: by the rules it ended the hand
    (the first valid declaration does), whatever the record did after it."""
    return next((d for d in replay.declarations if d.check.valid and not d.accepted), None)


def seat_by_rules(replay: HandReplay, player: str) -> Seat:
    """``player``'s seat where the rules end the hand: after a valid declaration the
    platform rejected, a player still in then holds the cards they held then
    (``Declaration.held``: the record may play on, they never showed); else as replayed."""
    rejected = rejected_valid(replay)
    if rejected is None or rejected.held is None or player not in rejected.held:
        return replay.seats[player]
    return Seat(player, list(rejected.held[player]))


def after_rejected(declaration: Declaration, player: str, replay: HandReplay) -> Expected:
    """The rules' outcome of ``player``, still in the hand when the platform rejected
    ``declaration``, which the rules find valid: it ended the hand (docs/replay.md), so they
    lost, charged as any loser without a show for the cards they held then (``_loser``:
    the first hand show cap if they had not yet had a turn)."""
    turns = declaration.turns_of_others.get(player, 1)
    want = _loser(seat_by_rules(replay, player), turns, replay)
    why = f"was still in the hand when {declaration.player}'s {REJECTED_ENDED}{want.why}"
    return replace(want, why=why)


REJECTED_ENDED: Final = "valid declaration, which the platform rejected, ended it; "
"""How ``after_rejected``'s words lead into a loser's own (``explain.points.exact_loser``
puts the full search's words after them)."""


def plays_on(want: Expected) -> bool:
    """Whether ``want`` is that of a player the rules have play on past the end of the
    record (``after_refused``): no points of the rules', no outcome they decide."""
    return want.points is None and want.rule_key == "declaration.invalid_ends_hand"


def _settle_values(replay: HandReplay, out: dict[str, Expected], jokers: Jokers | None = None,
                   also: tuple[str, ...] = (), worth: Worth | None = None) -> None:  # fmt: skip
    """Points rummy with value cards (``points.value_cards``): the players still in at the
    show (the rules' outcome ``won`` or ``lost``; who dropped, left or declared invalidly
    is out) settle the value of their cards. A loser's cards are those held at the end (or
    when a valid declaration the platform rejected ended the hand: ``seat_by_rules``); the
    declarer's, those declared (the finish card is off the hand: ``HandReplay.declare``).
    ``jokers``, ``also`` and ``worth`` settle them another way (``recut``): around other
    value cards, with those players in too, or one player's cards worth other points."""
    if replay.game.format != "points":
        return
    counted = jokers or replay.jokers
    held = {
        player: value_of(seat_by_rules(replay, player).cards, counted, replay.rules)
        for player, want in out.items()
        if want.outcome in ("won", "lost") or player in also
    }
    if len(held) < 2:
        return
    if worth is not None and worth.player in held:
        held[worth.player] = replace(held[worth.player], points=worth.points)
    nets = value_settlement({player: v.points for player, v in held.items()})
    total = sum(v.points for v in held.values())
    for player, v in held.items():
        share = ValueShare(v, nets[player], len(held) - 1, total - v.points)
        out[player] = replace(out[player], value=share)


def _drop(seat: Seat, game: Game, rules: Ruleset) -> Expected:
    outcome = "first_drop" if seat.dropped_first else "middle_drop"
    penalty = rules.drop_penalty(game.format)
    key = f"drops.{game.format}"
    if penalty is None:
        return Expected(
            outcome,
            rules.cap,
            key,  # drops.deals: 'No Drop is allowed in Best of 2 and Best of 3' (000_)
            f"{NO_DROP_WORDS.get(seat.drop_reason or '', 'dropped out of')} a "
            f"{FORMAT_NAMES.get(game.format, game.format)} game, where no drop is allowed:"
            f" the full count, {rules.cap}",
            seq=seat.drop_seq,
        )
    points = penalty.first if seat.dropped_first else penalty.middle
    return Expected(outcome, points, key, _DROP_WORDS[outcome], seq=seat.drop_seq)


UNHELD = (
    "discarded a card they did not hold and showed no cards, so which cards they held at "
    "the end is not known"
)
"""Why a loser's points are taken as recorded after a discard not held (``_loser``)."""
SERVER_ARRANGED = "arranged at best by the rules (no show recorded)"
"""How a loser without a show is charged: the best arrangement of their cards."""
_FIRST_HAND = " (first hand show: they had not yet had a turn)"


def _loser(seat: Seat, turns_before: int, replay: HandReplay) -> Expected:
    rules = replay.rules
    cap = rules.cap
    key = "points.cap"
    if turns_before == 0 and rules.first_hand_show_cap < cap:
        cap, key = rules.first_hand_show_cap, "points.first_hand_show_cap"
    if seat.shown is not None and not seat.show_matches:
        return Expected("lost", None, "declaration.groups_exact", "showed other cards than held")
    if seat.shown is None and seat.unheld:
        # discarded a card not held and never showed which they really let go: they hold
        # more cards than a hand, and which is not known (a blind tester: a loser charged
        # for 14 cards), so the recorded points are taken, as for a show not matching
        return Expected("lost", None, "turns.discard_from_hand", UNHELD)
    if seat.shown is not None:
        score = score_arrangement(seat.shown, replay.jokers, rules, cap=cap)
        return _charged(score, key, score.summary(), "as shown")
    return server_loser(seat.cards, replay.jokers, rules, cap, key)


def server_loser(
    cards: Sequence[int], jokers: Jokers, rules: Ruleset, cap: int, key: str, *, whole: bool = False
) -> Expected:
    """The rules' outcome of a loser without a show, charged ``cap`` at most under the
    rule ``key`` (``points.cap`` or ``points.first_hand_show_cap``): the server's best
    arrangement of their cards (``arranged_by_server``; ``whole`` for ``explain``). One
    charged the cap is told so, not what an arbitrary arrangement leaves."""
    points, score = arranged_by_server(cards, jokers, rules, cap, whole=whole)
    if points >= cap and not score.ready and not whole:
        why = f"{_no_fewer(rules, cap)}, so they are charged the cap of {cap}"
        return _charged(score, key, why, SERVER_ARRANGED, capped=True)
    return _charged(score, key, score.summary(), SERVER_ARRANGED)


def _no_fewer(rules: Ruleset, cap: int) -> str:
    """Why a loser is charged the cap: no arrangement of their cards is charged less, and
    what one without the declaration's sequences is charged (``unmet_charge``)."""
    unmet = unmet_charge(rules)
    return (f"no arrangement of their cards comes to fewer than {cap} points"
            + (f" {unmet}" if unmet else ""))  # fmt: skip


def _charged(score: Score, key: str, why: str, how: str, *, capped: bool = False) -> Expected:
    """A loser's outcome: ``key`` becomes the rule that decided the points (the cap,
    the ready hand, the cards or the unmet requirement), the words say how."""
    if key == "points.first_hand_show_cap" and (capped or score.raw > score.points):
        why += _FIRST_HAND
    elif score.ready:
        key = "points.ready_hand"
    elif not capped and score.raw <= score.points:
        key = "points.unmet_requirement" if not score.requirement_met else "points.card_points"
    return Expected("lost", score.points, key, f"{why}, {how}", score=score)


def arranged_by_server(
    cards: Sequence[int], jokers: Jokers, rules: Ruleset, cap: int, *, whole: bool = False
) -> tuple[int, Score]:
    """The fewest points a loser's cards can be charged before the cap, and how the
    server's best arrangement of them is charged. The search stops at ``cap`` (every
    arrangement past it is charged the cap), so the groups of a hand charged the cap are
    any, and the points ``cap``; ``whole`` searches on for the best groups and their points
    (a dispute, ``explain``: slower, most of all for 21 and 27 cards), past the
    ruleset's cap too (``best_arrangement_whole``: at it, the groups would be every card
    alone, a pure sequence the cards hold among them)."""
    if whole:
        points, groups = best_arrangement_whole(cards, jokers, rules)
    else:
        points, groups = best_arrangement(cards, jokers, rules, cap=cap)
    score = score_arrangement(groups, jokers, rules, cap=cap)
    if score.unmet and not score.exempt_groups and not score.exempt:
        # What the best arrangement lacks is said of the cards, not of its groups
        # (it leaves a sequence the cards hold ungrouped when that saves nothing).
        if points >= cap and not whole:
            score.unmet = (_no_fewer(rules, cap),)
        elif rules.unmet_requirement == "all_cards":  # meeting it would count fewer
            score.unmet = (cannot_meet(rules),)
    return points, score


# ------------------------------------------------------------ comparing with results


def compare_results(replay: HandReplay, expected: dict[str, Expected]) -> list[Finding]:
    hand, rules = replay.hand, replay.rules
    recorded: dict[str, Result] = {}
    out: list[Finding] = []

    def add(
        check: str,
        key: str,
        message: str,
        *,
        player_id: str,
        seq: int | None = None,
        expected: object = None,
        recorded: object = None,
    ) -> None:
        out.append(
            finding(
                check,
                game_id=hand.game_id,
                hand_id=hand.hand_id,
                player_id=player_id,
                seq=seq,
                expected=expected,
                recorded=recorded,
                message=message,
                rule=cite(rules, key),
            )
        )

    for row in hand.results:
        if row.player not in replay.seats:
            add(
                "score.outcome",
                "results.player_id",
                f"{row.player} has a result ({row.outcome}, {row.points} points) in a hand they "
                "were not dealt in.",
                player_id=row.player,
                recorded=row.outcome,
            )
        elif row.player in recorded:
            add(
                "score.outcome",
                "results.player_id",
                f"{row.player} has more than one result for this hand.",
                player_id=row.player,
                recorded=row.outcome,
            )
        else:
            recorded[row.player] = row
    declarers = {d.player: d for d in replay.declarations}
    for player in replay.seats:
        found = recorded.get(player)
        want = expected.get(player)
        if found is None:
            add(
                "score.outcome",
                "results.player_id",
                f"No result is recorded for {player}, who was dealt in.",
                player_id=player,
                expected=want.outcome if want else None,
            )
            continue
        row = found
        if want is None:
            continue
        declaration = declarers.get(player)
        # the declarer's verdict: the record ended the hand on an invalid declaration, or
        # turned a valid one round (or an invalid one)
        ended = declaration is not None and ended_on_invalid(declaration, row.outcome)
        # ended with one player left in, who wins (``turns.last_player``): the rules end the
        # hand there too, so the fault is only that player's loss, if recorded (a blind
        # tester's 2-player hand: "where play goes on" is false there)
        left = _left_in(expected, player) if ended else None
        left_row = recorded.get(left) if left is not None else None
        left = left if left_row is not None else None
        if left_row is not None and left_row.outcome == "won":
            ended = False  # the record is the rules': the penalty, and the one left won
        turned = row.outcome != want.outcome and {row.outcome, want.outcome} <= {
            "won", "invalid_declare"}  # fmt: skip
        if declaration is not None and (ended or turned):
            # a valid declaration refused: the meld rule the platform read as the presets do,
            # where one refuses it too, else the requirement it meets (``broken_rule``)
            behind = meld_rule_behind(declaration.check, replay.jokers, rules)
            said: tuple[str, str] = (want.outcome, row.outcome)
            if ended:
                said = ("play goes on", "the hand ended on the others' shows")
                if left_row is not None:  # said of the one left, whose loss is the fault
                    said = (f"{left} won", f"{left} {left_row.outcome}")
            add(
                "declare.verdict",
                behind[0] if behind is not None else declaration.check.broken_rule(),
                verdict_words(player, declaration, row, rules, behind, left=left,
                              jokers=replay.jokers),
                player_id=player,
                seq=declaration.seq,
                expected=said[0],
                recorded=said[1],
            )
            if not ended:
                continue
            # ended: the penalty recorded is the rules', its points are checked below
        elif row.outcome != want.outcome:
            # the points of each, where they differ: the outcome sets them (a middle
            # drop recorded as a first drop is 20 points short: a blind tester)
            both = want.points is not None and row.points != want.points
            # a drop charged as the other kind of drop is a drop charged the wrong
            # penalty (audit-output.md's drop.penalty; a blind tester filtered on it)
            drops = both and row.outcome in _DROP_WORDS and want.outcome in _DROP_WORDS
            key, why = want.rule_key, said_of(player, want.why)
            if row.outcome == "won" and want.outcome == "lost":
                # a loser recorded as a winner: another's win makes them a loser (game.kind),
                # not what their cards are worth, which it cited
                key = "game.kind"
                winners = [p for p, e in expected.items() if e.outcome == "won"]
                if winners and not want.why.startswith("was still in"):  # after_rejected's
                    why = f"{' and '.join(winners)} won the hand, and {why}"
            add(
                "drop.penalty" if drops else "score.outcome",
                key,
                f"{player} is recorded as {row.outcome.replace('_', ' ')}"
                + (f" ({row.points} points)" if both else "")
                + f", but the hand gives {want.outcome.replace('_', ' ')}"
                + (f" ({want.points} points)" if both else "")
                + f": {why}.",
                player_id=player,
                seq=want.seq,
                expected=want.outcome,
                recorded=row.outcome,
            )
            continue
        if want.points is not None and row.points != want.points:
            key = want.rule_key
            if want.outcome in _DROP_WORDS:
                fmt = FORMAT_NAMES.get(replay.game.format, replay.game.format)
                message = (
                    f"{player} {want.why}, so should be charged {want.points} points in {fmt}, "
                    f"but was charged {row.points}."
                )
                check = "drop.penalty"
            elif want.outcome == "invalid_declare":
                # the penalty said, as a drop's message says its charge (a blind tester)
                message = (
                    f"{player} was charged {row.points} points, but should be charged "
                    f"{want.points}, as {want.why}."
                )
                check = "score.points"
            elif key == "declaration.invalid_ends_hand":
                message = (
                    f"{player} was charged {row.points} points, but should be charged "
                    f"{want.points}: {said_of(player, want.why)}."
                )
                check = "score.points"
            else:
                # the jokers counted, why a card is one, and the rule that decided it
                words, key = charged_words(want, row, seat_by_rules(replay, player), replay)
                message = (f"{player} was charged {row.points} points; "
                           f"{said_of(player, want.why)}{words}.")  # fmt: skip
                check = "score.points"
            add(
                check,
                key,
                message,
                player_id=player,
                seq=want.seq,
                expected=want.points,
                recorded=row.points,
            )
    return _left_in_wins(out)


def _left_in(expected: Mapping[str, Expected], declarer: str) -> str | None:
    """The one player the rules leave in, and so the winner, after ``declarer``'s invalid
    declaration (``after_refused``), if one is."""
    left = [p for p, e in expected.items() if p != declarer and e.outcome == "won"]
    return left[0] if len(left) == 1 else None


def _left_in_wins(out: list[Finding]) -> list[Finding]:
    """A declaration the platform accepted that the rules refuse, one player left in
    (``turns.last_player``): that player's win is the declarer's mistake, said in its
    ``declare.verdict``, not a finding on the player who did nothing (a blind tester's
    2-player hands: the opponent's ``score.outcome`` beside every such verdict). So too the
    mirror: a valid show refused, the one player recorded as winning in the declarer's
    place (a blind tester: the refusal's ``declare.verdict`` and a ``score.outcome``)."""
    # recorded won, or (ended on the others' shows) said of the one left: "P2 won"
    verdicts = [f for f in out if f.check == "declare.verdict"
                and (f.recorded == "won" or str(f.expected).endswith(" won"))]  # fmt: skip
    left = [f for f in out if f.check == "score.outcome" and f.expected == "won"
            and f.recorded == "lost"]  # fmt: skip
    if not verdicts:  # the mirror: a valid show refused, the one recorded as winning instead
        verdicts = [f for f in out if f.check == "declare.verdict" and f.expected == "won"]
        left = [f for f in out if f.check == "score.outcome" and f.expected == "lost"
                and f.recorded == "won"]  # fmt: skip
    if len(verdicts) != 1 or len(left) != 1:
        return out
    (verdict,), (winner,) = verdicts, left
    words = f"{verdict.message.removesuffix('.')}; so {winner.message}"
    return [replace(f, message=words) if f is verdict else f for f in out if f is not winner]


def money_by_rules(
    game: Game, expected: Mapping[str, Expected]
) -> tuple[dict[str, Decimal], Decimal]:
    """Points rummy: each player's amount and the rake as the rules' own outcomes give
    them (``money.points_settlement``: losers pay points x point value; a sole winner takes
    the sum less the rake; with value cards, each player still in at the show also
    receives or pays their net value points). ``compare_money`` settles the recorded
    outcomes instead; this is what the hand pays where every outcome is the rules' (the
    what-if; explain, where a recorded outcome is wrong). A player whose points the rules
    do not give is left out; nothing for other formats or without a point value."""
    if game.format != "points" or game.point_value is None:
        return {}, Decimal("0.00")
    points = {
        p: e.points for p, e in expected.items() if e.outcome != "won" and e.points is not None
    }
    winners = [p for p, e in expected.items() if e.outcome == "won"]
    values = {p: e.value.net for p, e in expected.items() if e.value is not None}
    return points_settlement(points, winners, game.point_value, game.rake_pct, values)


def compare_money(replay: HandReplay, game: Game, expected: dict[str, Expected]) -> list[Finding]:
    """Points rummy (``money.points_settlement``): each loser pays points x point value; the
    winner gets the sum less rake. With value cards (21 and 27 cards), each player still in
    at the show also receives or pays their net value points x point value
    (``points.value_cards``), and the winner's rake is on their total when it is positive.

    A loser's points are the rules' points when the rules agree with the recorded outcome,
    else the recorded points: a wrong verdict is then one finding (declare.verdict or
    score.outcome), not also a money finding; wrong points charged as money are two, folded
    into the points' one where the amounts follow them (``followed.follows_points``). A hand
    whose recorded winner is not the rules' (or, with value cards, who is in at the show) is
    not settled at all (``records.money_unsettled``): no world pays what the rules' points
    under the recorded winner would. A loser with no results row (its own
    ``score.outcome``) pays the winner the rules' points.
    """
    hand, rules = replay.hand, replay.rules
    point_value = game.point_value
    valued = rules.value_cards is not None
    if point_value is None or money_unsettled(hand.results, expected, valued):
        return []  # a verdict the rules refuse: its own finding (money_unsettled)
    # Keyed by the row's place, not the player: a player recorded twice (a score.outcome
    # finding already) has each row checked, and both rows pay into the winner's sum.
    points, values = dict[str, int](), dict[str, int]()
    winners: list[str] = []
    # A row of a player not dealt in is its own score.outcome and settles no money
    # (records.dealt_in): its loss is no one's to win (a blind tester: the winner's right
    # amount was called short by what the intruder's row lost).
    kept = dealt_in(hand)
    rows = [(i, row) for i, row in enumerate(hand.results) if row in kept]
    for i, row in rows:
        rules_say = expected.get(row.player)
        if rules_say is not None and rules_say.value is not None:
            values[str(i)] = rules_say.value.net
        if row.outcome == "won":
            winners.append(str(i))
            continue
        points[str(i)] = charged_points(row, rules_say)
    named = {row.player for row in hand.results}
    judged = len(winners) == 1  # the winner's amount: what every loser paid is known
    for player, rules_say in expected.items():
        # A loser without a results row (its own score.outcome) still paid the winner: the
        # rules' points, so the winner's amount is not blamed for the row that is missing.
        if player in named or rules_say.outcome == "won":
            continue
        if rules_say.points is None:
            judged = False
            continue
        points[f"-{player}"] = rules_say.points  # never a row's place ("0", "1", ...)
        if rules_say.value is not None:
            values[f"-{player}"] = rules_say.value.net
    amounts, fee = points_settlement(points, winners, point_value, game.rake_pct, values)
    out: list[Finding] = []
    losers = [i for i, row in rows if row.outcome != "won"]
    for i in losers + ([int(winners[0])] if judged else []):
        row = hand.results[i]
        want = amounts[str(i)]
        if row.amount == want:
            continue
        share = expected[row.player].value if row.player in expected else None
        value = f" and {share.net_words} ({share.words})" if share is not None else ""
        lost = charged_outcome(row, expected.get(row.player))  # the loss its points are
        if row.outcome == "won" and share is not None:  # in points: cards and values
            cards = sum(points.values())
            total = cards + share.net
            rake = (f", less the {game.rake_pct}% rake of {fee}" if fee
                    else ", and no rake, since the total is not positive (points.value_cards)"
                    if total <= 0 and game.rake_pct else "")  # fmt: skip
            why = (
                f"won {cards} card points from the losers{value}: {total:+d} points at "
                f"{point_value} a point{rake}"
            )
        elif row.outcome == "won":
            paid = sum((money(c * point_value) for c in points.values()), Decimal(0))
            why = f"won {paid} from the losers, less the {game.rake_pct}% rake of {fee}"
        elif lost in _DROP_WORDS:
            kind, n = lost.replace("_", " "), points[str(i)]
            why = f"dropped (a {kind}) for {n} points at {point_value} a point"
            if valued:  # why their value cards earned nothing (a blind tester asked)
                why += ", and a player who drops neither pays nor receives for value cards"
        elif lost == "invalid_declare" and share is None:
            why = f"declared wrongly for {points[str(i)]} points at {point_value} a point"
            if valued:  # as a dropper: out of the value cards' settlement (a blind tester)
                why += (", and a player who declares wrongly neither pays nor receives for"
                        " value cards")
        else:  # a loss: an amount rounded other than half up says so below (money.md)
            why = f"lost {points[str(i)]} points{value} at {point_value} a point"
        out.append(
            finding(
                "score.amount",
                game_id=hand.game_id,
                hand_id=hand.hand_id,
                player_id=row.player,
                expected=want,
                recorded=row.amount,
                message=f"{row.player} {why}, so the amount should be {want}, but the "
                f"record shows {row.amount}" + ("" if share or lost != "lost" else
                                                rounded_otherwise(-points[str(i)] * point_value,
                                                                  row.amount)) + ".",
                # practice chips: no real money moved, as the ledger's (schemas/money.md)
                severity=Severity.INFO if game.chip_type == "practice" else None,
                # With value cards the amount is points.value_cards' settlement (its text
                # gives the money), not the plain points settlement's.
                rule=rules.cite(
                    "points.value_cards"
                    if share or (valued and row.outcome in _OUT_OF_VALUES)
                    else "money.points_settlement"
                ),
            )
        )
    return out
