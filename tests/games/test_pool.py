"""Pool game checks (audit/games/pool.py) against the pool rules of 000_1729c72ad4c1f885.txt
(elimination, Re-Buy, Manual Split, Auto Split) as the standard-13 preset fixes them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from audit.findings import Finding
from audit.games.formats import out_of_format
from audit.games.pool import check_pool, judge_pool
from audit.games.split import split_shares
from audit.logs.reader import iter_units, open_log_root
from audit.records import NO_CARD, Game, GameEvent, Hand, LedgerRow, Result
from audit.replay.outcome import Expected
from audit.rules.ruleset import load_preset
from audit.sim import simulate
from audit.unit import game_checks

RULES = load_preset("standard-13")
FEE, RAKE = Decimal("100.00"), Decimal("10.00")

Ev = tuple[int, str | None, str, int | None, str | None]


def ev(after: int, player: str | None, action: str, score: int | None = None) -> Ev:
    kind = None
    if action in ("auto", "manual"):
        action, kind = "split", action
    return (after, player, action, score, kind)


def pool_game(
    points: Sequence[dict[str, int]],
    events: Iterable[Ev] = (),
    ledger: Iterable[tuple[str | None, str, str]] = (),
    *,
    fee: Decimal = FEE,
    rake: Decimal = RAKE,
    fmt: str = "pool_101",
    ended: bool = False,
) -> tuple[Game, list[Hand]]:
    """A pool game ``g1`` (101 unless ``fmt`` says): hand ``n`` is ``h{n}``, seated in the
    order of ``points[n-1]`` (turn order), with correct running scores (a rebuy resets the
    score). Still running unless ``ended``: most tests play a game's first hands, and a
    game that ended with several players in, neither won nor split, is a finding."""
    events = list(events)
    scores: dict[str, int] = {}
    hands = []
    for no, row in enumerate(points, 1):
        results = []
        for player, charged in row.items():
            scores[player] = scores.get(player, 0) + charged
            outcome = "won" if charged == 0 else "lost"
            results.append(Result(player, outcome, charged, scores[player], None))
        hands.append(
            Hand(f"h{no}", "g1", no, list(row), [], NO_CARD, NO_CARD, [], results)
        )  # fmt: skip
        for after, player, action, score, _ in events:
            if after == no and action == "rebuy" and player and score is not None:
                scores[player] = score
    game = Game(
        game_id="g1", table_id="t1", format=fmt, deals_count=None, cards_per_hand=13,
        ruleset="standard-13", decks=2, printed_jokers=2, max_players=6, chip_type="real",
        entry_fee=fee, point_value=None, rake_pct=rake, running=not ended,
        game_events=[GameEvent(a, n, p, act, s, k) for n, (a, p, act, s, k) in enumerate(events)],
        ledger=[LedgerRow(p, kind, Decimal(amount)) for p, kind, amount in ledger],
    )  # fmt: skip
    return game, hands


def keys(findings: list[Finding]) -> list[tuple[str, str, str | None, str | None]]:
    return [(f.check, f.game_id, f.hand_id, f.player_id) for f in findings]


def run(game: Game, hands: list[Hand]) -> list[Finding]:
    return check_pool(game, hands, RULES)


# ---------------------------------------------------------------- pool.score


def test_score_running_total_clean() -> None:
    """000_: the pool score is the running total of each round's points."""
    assert run(*pool_game([{"A": 0, "B": 20, "C": 40}, {"A": 30, "B": 0, "C": 25}])) == []


def test_elimination_score_running_score_is_the_rules_not_the_last_record() -> None:
    """000_1729c72ad4c1f885.txt (`pool_101.running_score`): the score is the running total
    of each round's points by the rules. A wrong score_after is one finding when the
    platform's later scores are right again: the next hand is not judged from the wrong
    record. It cites the running score's rule, not the 101 that eliminates."""
    game, hands = pool_game(
        [{"A": 0, "B": 20, "C": 40}, {"A": 30, "B": 0, "C": 25}, {"A": 10, "B": 0, "C": 10}]
    )
    hands[1].results[2] = hands[1].results[2]._replace(score_after=67)
    found = run(game, hands)
    assert keys(found) == [("pool.score", "g1", "h2", "C")]
    assert found[0].message == (
        "C's pool score after hand 2 is recorded as 67, but by the rules it is 40 + 25 = 65."
    )
    assert (found[0].expected, found[0].recorded) == ("65", "67")
    assert found[0].rule.startswith("pool_101.running_score: A player's pool score is the ")


def test_running_score_carried_forward_right_is_one_finding_where_it_went_wrong() -> None:
    """000_1729c72ad4c1f885.txt (`pool_101.running_score`): C's score after hand 2 is
    recorded 2 too high (67, 65 by the rules) and hand 3 counts on right from it (67 + 10 =
    77). That is one error, found once where it happened (docs/replay.md, "one error, one
    finding"): until 2026-12-05 each later hand that carried it forward was a pool.score of
    its own. Eliminations still use the rules' score (``Standing.scores``), and the standing
    says why the record is off with no finding on hand 3 (what the explain view shows)."""
    game, hands = pool_game(
        [{"A": 0, "B": 20, "C": 40}, {"A": 30, "B": 0, "C": 25}, {"A": 10, "B": 0, "C": 10}]
    )
    hands[1].results[2] = hands[1].results[2]._replace(score_after=67)
    hands[2].results[2] = hands[2].results[2]._replace(score_after=77)
    judged = judge_pool(game, hands, RULES)
    assert keys(list(judged.findings)) == [("pool.score", "g1", "h2", "C")]
    assert (judged.standings[3].scores["C"], dict(judged.standings[3].off)) == (
        75, {"C": "75 by the rules: the record carries forward its score after hand 2"})
    assert judged.standings[2].off == {}  # hand 2's own pool.score says it


def test_running_score_wrong_again_while_carried_is_its_own_finding() -> None:
    """000_1729c72ad4c1f885.txt (`pool_101.running_score`): the record carries C's wrong 67
    forward, then adds 3 more in hand 3 (80, where its own count is 67 + 10 = 77): a second
    error of the record's own bookkeeping, its own finding, saying both counts and where
    the score first went wrong."""
    game, hands = pool_game(
        [{"A": 0, "B": 20, "C": 40}, {"A": 30, "B": 0, "C": 25}, {"A": 10, "B": 0, "C": 10}]
    )
    hands[1].results[2] = hands[1].results[2]._replace(score_after=67)
    hands[2].results[2] = hands[2].results[2]._replace(score_after=80)
    found = run(game, hands)
    assert keys(found) == [("pool.score", "g1", "h2", "C"), ("pool.score", "g1", "h3", "C")]
    assert (found[1].expected, found[1].recorded) == ("75", "80")
    assert found[1].message == (
        "C's pool score after hand 3 is recorded as 80, but by the rules it is 65 + 10 = 75. "
        "Nor is it the record's own count, 67 + 10 = 77, which carries forward the wrong "
        "score recorded after hand 2 (67 recorded, 65 by the rules)."
    )
    assert found[1].rule.startswith("pool_101.running_score: ")


def test_running_score_from_a_hands_wrong_points_is_that_hands_finding_not_again() -> None:
    """`drops.pool_201` (000_: a first drop is 25 in 201 pool) and `pool_201.running_score`:
    B's first drop in hand 1 is recorded as 20 and the record counts on right from it, hand
    after hand. The drop is the hand's own finding (drop.penalty, from the replay); none of
    B's running scores is a pool.score, neither hand 1's nor the later ones that carry it
    (a blind tester: one wrong drop was five findings). A score that follows neither the
    rules' points nor the recorded ones is still a finding, naming both counts."""
    points = [{"A": 0, "B": 20, "C": 60}, {"A": 30, "B": 0, "C": 25}, {"A": 10, "B": 40, "C": 0}]
    game, hands = pool_game(points, fmt="pool_201")
    said = {"h1": {"B": Expected("first_drop", 25, "drops.pool_201", "dropped first")}}
    hands[0].results[1] = hands[0].results[1]._replace(outcome="first_drop")
    judged = judge_pool(game, hands, RULES, expected=said)
    assert judged.findings == ()
    assert [judged.standings[n].scores["B"] for n in (1, 2, 3)] == [25, 25, 65]
    assert judged.standings[1].off == {
        "B": "25 by the rules: the record counts 20 points for that hand, the rules 25"}
    assert judged.standings[3].off == {
        "B": "65 by the rules: the record carries forward its score after hand 1, where it "
             "counts 20 points for that hand, the rules 25"}  # fmt: skip
    hands[0].results[1] = hands[0].results[1]._replace(score_after=22)
    found = check_pool(game, hands, RULES, expected=said)
    assert keys(found) == [("pool.score", "g1", "h1", "B")]
    assert found[0].message == (
        "B's pool score after hand 1 is recorded as 22, but by the rules it is 0 + 25 = 25 "
        "(the rules charge 25 points for this hand, the record 20). Nor is it the record's "
        "own count, 0 + 20 = 20."
    )


def test_running_score_after_a_missing_results_row_is_taken_as_it_stands() -> None:
    """`pool_101.running_score`: B's results row of hand 2 is missing (the hand's own
    score.outcome). The rules still charge B that hand's points (25), and B's next score
    holds what no row records, so it is taken as it stands: no pool.score (a blind tester:
    "recorded as 75, but by the rules it is 20 + 30", and a false split finding after
    it)."""
    points = [{"A": 0, "B": 20, "C": 60}, {"A": 30, "B": 25, "C": 0}, {"A": 10, "B": 30, "C": 0}]
    game, hands = pool_game(points)
    hands[1].results[:] = [r for r in hands[1].results if r.player != "B"]
    said = {"h2": {"B": Expected("lost", 25, "points.card_points", "cards")}}
    judged = judge_pool(game, hands, RULES, expected=said)
    assert judged.findings == ()
    assert judged.standings[3].scores["B"] == 75


def test_elimination_score_uses_the_rules_points_of_each_hand() -> None:
    """000_1729c72ad4c1f885.txt (pool_101.elimination_score): the running score adds the
    rules' points of each hand (from the replay), not the recorded points; a player the
    rules put at 101 is eliminated even though the record says 96, and A, the last player
    left by the rules, rightly won. The record counted on right from hand 2's wrong points
    (36): that is the hand's own score.points, so its running score is no pool.score too
    (until 2026-12-05 it was, citing points.cap); the missing elimination, a consequence of its
    own (B plays on), is one finding that says where the score went wrong, and why."""
    game, hands = pool_game([{"A": 0, "B": 60}, {"A": 0, "B": 36}], [ev(2, "A", "game_won")],
                            ended=True)  # fmt: skip
    said = {"h2": {"B": _said(41)}}
    found = check_pool(game, hands, RULES, expected=said)
    assert keys(found) == [("pool.elimination", "g1", "h2", "B")]
    assert found[0].message == (
        "B reached 101 after hand 2, which eliminates at 101, but no elimination was "
        "recorded. The record rests on the wrong score recorded after hand 2 (96 recorded, "
        "101 by the rules: the record counts 36 points for that hand, the rules 41)."
    )


def test_running_score_names_each_hand_whose_own_wrong_points_the_record_counted_on() -> None:
    """`pool_101.running_score` (000_1729c72ad4c1f885.txt): B is charged 30 for 40 in hand 1
    and 40 for 50 in hand 2, each the hand's own finding, and the record counts on from both:
    110 by the rules after hand 3, 90 recorded. The missing elimination and the table name
    both hands (a blind tester: all of a 30-point gap was blamed on hand 1's 10), and a hand
    dealt after the rules ended the game keeps each "that hand" on the hand it follows."""
    game, hands = pool_game([{"A": 0, "B": 30}, {"A": 0, "B": 40}, {"A": 0, "B": 20},
                             {"A": 0, "B": 20}], [ev(4, "A", "game_won")], ended=True)  # fmt: skip
    judged = judge_pool(game, hands, RULES, expected={"h1": {"B": _said(40)},
                                                      "h2": {"B": _said(50)}})  # fmt: skip
    assert keys(list(judged.findings)) == [("pool.elimination", "g1", "h3", "B")]
    assert judged.findings[0].message == (
        "B reached 110 after hand 3, which eliminates at 101, but no elimination was "
        "recorded. The record rests on the wrong score recorded after hand 1 (30 recorded, "
        "40 by the rules: the record counts 30 points for that hand, the rules 40), and "
        "after hand 2 the record counts 40 points for that hand, the rules 50."
    )
    carried = ("the record carries forward its score after hand 1, where it counts 30 "
               "points for that hand, the rules 40, and after hand 2 counts 40 points for "
               "that hand, the rules 50")  # fmt: skip
    assert judged.standings[1].off == {
        "B": "40 by the rules: the record counts 30 points for that hand, the rules 40"}
    assert judged.standings[2].off == {"B": f"90 by the rules: {carried}"}
    assert judged.standings[3].off == {"B": f"110 by the rules: {carried}"}
    assert judged.standings[4].dealt_on["B"] == (
        f"by the rules B was out after hand 3 (110 by the rules: {carried}), so hand 4 is "
        "one B played while out"
    )


def test_elimination_score_right_while_a_hands_points_field_is_wrong_is_not_flagged() -> None:
    """000_ (pool_101.elimination_score): the platform counted B's 41 points (the rules')
    into the running score but wrote 36 in the hand's points field: that field is the
    hand's own score.points finding; the running score, 101, is right, and B is out."""
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won")]
    game, hands = pool_game([{"A": 0, "B": 60}, {"A": 0, "B": 36}], events, ended=True)
    hands[1].results[1] = hands[1].results[1]._replace(score_after=101)
    assert check_pool(game, hands, RULES, expected={"h2": {"B": _said(41)}}) == []


def test_drops_pool_101_a_first_drop_recorded_as_a_middle_drop_counts_20() -> None:
    """000_1729c72ad4c1f885.txt (`drops.pool_101`: "In 101 Pool, the score is 20 points"
    for a first drop): a first drop recorded as a middle drop (40) is a wrong penalty, not
    a wrong verdict, so the running score counts the rules' 20 (records.charged_points).
    B at 61 is at 81 by the rules, still in: the elimination at 101 is refused, and the
    win named after it is that finding's, not a second one (a blind tester: the game's
    checks followed the record's 40 and said nothing). The running score of 101 follows
    from the recorded 40, the hand's own drop.penalty: no pool.score (a blind tester: three
    findings, the pool.score repeating the drop's)."""
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won")]
    game, hands = pool_game([{"A": 0, "B": 61}, {"A": 0, "B": 40}], events, ended=True)
    hands[1].results[1] = hands[1].results[1]._replace(outcome="middle_drop")
    said = {"h2": {"B": Expected("first_drop", 20, "drops.pool_101", "dropped first")}}
    found = check_pool(game, hands, RULES, expected=said)
    assert keys(found) == [("pool.elimination", "g1", "h2", "B")]
    assert found[0].message.startswith(
        "B is recorded as eliminated after hand 2, but has 81 by the rules")
    # a loss the rules count (80, full count) where the record has a drop counts 80: B at
    # 141 is out either way, and the elimination's score follows the hand's own finding
    lost = {"h2": {"B": Expected("lost", 80, "points.cap", "the cards left unmatched")}}
    assert check_pool(game, hands, RULES, expected=lost) == []


def test_drops_pool_101_a_first_drop_recorded_as_lost_counts_20() -> None:
    """000_1729c72ad4c1f885.txt (`drops.pool_101`: a first drop is 20 points): a first drop
    recorded as a hand lost at 40 is a wrong charge on a loser, like a wrong kind of drop,
    so the running score counts the rules' 20 (records.charged_points). A blind tester: the
    record's 40 carried B to 101, the elimination stood and the game's view said the prize
    agreed, where by the rules B was at 81 and still in."""
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won")]
    game, hands = pool_game([{"A": 0, "B": 61}, {"A": 0, "B": 40}], events, ended=True)
    said = {"h2": {"B": Expected("first_drop", 20, "drops.pool_101", "dropped first")}}
    found = check_pool(game, hands, RULES, expected=said)
    assert keys(found) == [("pool.elimination", "g1", "h2", "B")]
    assert "has 81 by the rules, below the 101 that eliminates" in found[0].message
    # a winner the rules do not make (or a winner recorded as a loser) is the hand's verdict:
    # the running score keeps the record's points
    won = {"h2": {"B": Expected("won", 0, "points.winner", "declared")}}
    assert check_pool(game, hands, RULES, expected=won) == []


def test_declaration_invalid_penalty_of_a_declarer_recorded_as_winner_counts_in_the_pool() -> None:
    """001_42b102d6f12eaa06.txt ('Invalid declarations receive an 80-point penalty';
    `declaration.invalid_penalty`): at a table of three the platform accepts B's invalid
    declaration in hand 2 and records B the winner at 0. The rules do not decide the rest
    of that hand (play would have gone on), but B's 80 is theirs whoever wins it, so the
    running score counts it (records.verdict_points): B at 60 reaches 140 and is out, and
    the record, which deals B hand 3, is one pool.elimination (a blind tester: 34 pool
    prizes paid to such a declarer with only the hand's declare.verdict)."""
    game, hands = pool_game([{"A": 0, "B": 60, "C": 30}, {"A": 20, "B": 0, "C": 20},
                             {"A": 0, "B": 10, "C": 10}])  # fmt: skip
    said = {"h2": {"B": Expected("invalid_declare", 80, "declaration.invalid_penalty",
                                 "declared wrongly")}}  # fmt: skip
    found = check_pool(game, hands, RULES, expected=said)
    assert keys(found) == [("pool.elimination", "g1", "h2", "B")]
    assert found[0].message.startswith("B reached 140 after hand 2")


def _said(points: int) -> Expected:
    return Expected("lost", points, "points.cap", "the cards left unmatched")


# ---------------------------------------------------------------- pool.elimination

ELIM = [{"A": 0, "B": 80, "C": 40}, {"A": 0, "B": 30, "C": 40}, {"A": 0, "C": 20}]


def test_elimination_at_threshold_clean() -> None:
    """000_ (101 pool): B reaches 110 and is eliminated with that final score."""
    assert run(*pool_game(ELIM, [ev(2, "B", "eliminated", 110)])) == []


def test_elimination_missing() -> None:
    """000_: a player who reaches 101 must be eliminated."""
    found = run(*pool_game(ELIM))
    assert keys(found) == [("pool.elimination", "g1", "h2", "B")]


def test_elimination_below_threshold() -> None:
    """000_: a player below 101 must not be eliminated."""
    found = run(*pool_game(ELIM, [ev(2, "B", "eliminated", 110), ev(2, "C", "eliminated", 80)]))
    assert keys(found) == [("pool.elimination", "g1", "h2", "C")]


def test_elimination_words_follow_exactly_eliminates() -> None:
    """`pool_101.exactly_eliminates` (000_1729c72ad4c1f885.txt is silent on exactly 101;
    the preset's choice: "Set false where a player must pass 101 to be out"). Under a
    platform's "must pass 121", 121 is not out and 125 is: the words say that (they said
    121 was "below the 121 that eliminates" and that 125 "eliminates at 121": a blind
    tester); with `true` they stay "reaches"."""
    passing = replace(RULES, pools={k: replace(v, elimination_score=121, exactly_eliminates=False)
                                    for k, v in RULES.pools.items()})  # fmt: skip
    points = [{"A": 0, "B": 80, "C": 60}, {"A": 0, "B": 45, "C": 61}, {"A": 0, "C": 0}]
    game, hands = pool_game(points, [ev(2, "C", "eliminated", 121)])
    found = check_pool(game, hands, passing)
    assert [(f.player_id, f.message) for f in found if f.hand_id == "h2"] == [
        ("B", "B reached 125 after hand 2, above the 121 a player must pass to be out, but no "
              "elimination was recorded."),
        ("C", "C is recorded as eliminated after hand 2, but has 121 by the rules, not above "
              "the 121 a player must pass to be out: C is still in."),
    ]  # fmt: skip
    # and cite the rule that says so, not the preset's "reaches 101 is eliminated" (a blind
    # tester's house rules)
    assert {f.rule.split(":")[0] for f in found if f.hand_id == "h2"} == {
        "pool_101.exactly_eliminates"}
    found = run(*pool_game(ELIM, [ev(2, "B", "eliminated", 110), ev(2, "C", "eliminated", 80)]))
    assert found[0].rule.startswith("pool_101.elimination_score: ")
    assert found[0].message == (
        "C is recorded as eliminated after hand 2, but has 80 by the rules, below the 101 that "
        "eliminates: C is still in."
    )


def test_exactly_eliminates_a_score_of_exactly_101_cites_the_presets_choice() -> None:
    """`pool_101.exactly_eliminates` ("A score of exactly 101 eliminates", source "seeds
    silent": 000_1729c72ad4c1f885.txt's "101 Pool" never says 101 itself is out). B at
    exactly 101 with no eliminated row, or with the row written a hand late, is out by
    that rule, the preset's choice, and its finding cites it; until 2026-12-06 it cited
    only `pool_101.elimination_score` (000_'s "101 Pool": a blind tester). At 110 it
    still cites `elimination_score`."""
    exact = [{"A": 0, "B": 80, "C": 40}, {"A": 0, "B": 21, "C": 40}, {"A": 0, "C": 20}]
    for events in ([], [ev(3, "B", "eliminated", 101)]):
        (found,) = run(*pool_game(exact, events))
        assert (found.check, found.player_id) == ("pool.elimination", "B")
        assert found.message.startswith("B reached 101 after hand 2, which eliminates at 101")
        assert found.rule == (
            "pool_101.exactly_eliminates: A score of exactly 101 eliminates. (seeds silent)"
        )
    (found,) = run(*pool_game(ELIM))
    assert found.rule.startswith("pool_101.elimination_score: ")


def test_elimination_wrong_final_score() -> None:
    """log-format.md: the eliminated row's score is the final score."""
    found = run(*pool_game(ELIM, [ev(2, "B", "eliminated", 100)]))
    assert keys(found) == [("pool.elimination", "g1", "h2", "B")]


def test_elimination_score_copied_from_a_wrong_running_score_is_that_score_finding_alone() -> None:
    """000_1729c72ad4c1f885.txt (pool_101.elimination_score): B is rightly out after hand 2
    (110 by the rules), but hand 2's score_after says 130 and the eliminated row copies it.
    That is the running score's one error: its pool.score, not a pool.elimination too (a
    blind tester's one wrong drop gave three findings); an eliminated row whose score is
    neither is still its own finding (``test_elimination_wrong_final_score``)."""
    game, hands = pool_game(ELIM, [ev(2, "B", "eliminated", 0)])
    right = hands[1].results[1].score_after
    assert right is not None
    hands[1].results[1] = hands[1].results[1]._replace(score_after=right + 20)
    game.game_events[0] = game.game_events[0]._replace(score=right + 20)
    assert keys(run(game, hands)) == [("pool.score", "g1", "h2", "B")]


def test_elimination_seated_again_without_rebuy() -> None:
    """000_: an eliminated player plays on only by a Re-Buy. The finding says what the
    rules and the record make of B (it had neither: blind tester b59)."""
    points = [*ELIM[:2], {"A": 0, "B": 0, "C": 20}]
    found = run(*pool_game(points, [ev(2, "B", "eliminated", 110)]))
    assert keys(found) == [("pool.elimination", "g1", "h3", "B")]
    assert (found[0].expected, found[0].recorded) == ("out after hand 2", "seated in hand 3")


def test_elimination_score_a_row_after_a_hand_not_played_says_both_000() -> None:
    """`pool_101.elimination_score` (000_1729c72ad4c1f885.txt, 101 Pool): D, who never
    played, is written out after hand 1; the finding says what the rules and the record
    make of it, not two nulls."""
    points = [{"A": 20, "B": 30, "C": 0}]
    (found,) = run(*pool_game(points, [ev(1, "D", "eliminated", 110)]))
    assert keys([found]) == [("pool.elimination", "g1", "h1", "D")]
    assert (found.expected, found.recorded) == ("a player of hand 1", "not dealt into hand 1")


# ---------------------------------------------------------------- pool.rebuy

SEED = [{"A": 35, "B": 22, "C": 110, "D": 57}, {"A": 0, "B": 20, "C": 20, "D": 2}]


def test_rebuy_seed_example_clean() -> None:
    """000_ worked example: scores 35, 22, 110, 57 in 101 pool: the player at 110
    re-buys at 1 + 57 = 58."""
    events = [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 58)]
    assert run(*pool_game(SEED, events)) == []


def test_rebuy_wrong_new_score() -> None:
    """000_: the new score is 1 + the highest score (58 here, not 60)."""
    found = run(*pool_game(SEED, [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 60)]))
    # The platform carried its wrong 60 into hand 2 (80 recorded, 78 by the rules): that
    # is the rebuy's one finding, not a pool.score on hand 2 too (one error, one finding).
    assert keys(found) == [("pool.rebuy", "g1", "h1", "C")]
    assert (found[0].expected, found[0].recorded) == ("58", "60")


def test_a_rebuy_without_its_eliminated_row_is_one_finding_000() -> None:
    """000_1729c72ad4c1f885.txt (pool_101.elimination_score, pool_101.rebuy_below): C at
    110 rebuys at 58 and the platform writes the rebuy but no `eliminated` row. That row
    is the one finding; the rebuy is judged as one (not "rebuying without being
    eliminated"), and the hand after is scored from 58, not from 110 (a blind tester: one
    missing row gave five findings, two of them scores the rebuy had reset)."""
    game, hands = pool_game(
        [*SEED, {"A": 0, "B": 20, "C": 10, "D": 30}],
        [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 58)],
    )
    game.game_events[:] = [e for e in game.game_events if e.action != "eliminated"]
    found = run(game, hands)
    assert keys(found) == [("pool.elimination", "g1", "h1", "C")]
    assert found[0].message.startswith("C reached 110 after hand 1, which eliminates at 101")


def test_rebuy_below_wrong_new_score_then_right_scores_is_one_finding() -> None:
    """000_1729c72ad4c1f885.txt (pool_101.rebuy_below): "the new score would be 1+Highest
    Score in that round". A rebuy recorded at a wrong new score whose later running scores
    follow the rules' new score is one finding: the later hands are right."""
    game, hands = pool_game(SEED, [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 58)])
    game.game_events[1] = game.game_events[1]._replace(score=60)
    found = run(game, hands)
    assert keys(found) == [("pool.rebuy", "g1", "h1", "C")]
    assert found[0].message == (
        "C rebought after hand 1 at 60, but the new score should be 58 (the highest score "
        "still in was 57 by the rules)."
    )


def test_rebuy_several_in_turn_order() -> None:
    """000_: several re-buyers take 58, 59, ... in their turn order; E out of turn is wrong."""
    points = [{"A": 35, "C": 110, "B": 22, "E": 105, "D": 57},
              {"A": 0, "C": 2, "B": 2, "E": 2, "D": 2}]  # fmt: skip
    out = [ev(1, "C", "eliminated", 110), ev(1, "E", "eliminated", 105)]
    assert run(*pool_game(points, [*out, ev(1, "C", "rebuy", 58), ev(1, "E", "rebuy", 59)])) == []
    found = run(*pool_game(points, [*out, ev(1, "C", "rebuy", 58), ev(1, "E", "rebuy", 60)]))
    # The platform then carried E's wrong new score into hand 2 (62, not 61): the rebuy's
    # one finding, not a pool.score too.
    assert keys(found) == [("pool.rebuy", "g1", "h1", "E")]


def test_rebuy_several_words_say_who_rebought_first_and_at_what() -> None:
    """`pool_101.rebuy_below`, 000_1729c72ad4c1f885.txt: "the players Re-Buyin will Re-Buy
    as per their turn in the game with scores 58, 59, 60": the turn order of the hand just
    played, whatever the rows' seq. E's rebuy is written first at 58 and C's at 59, but C
    comes before E in hand 1's turn order: the finding says so and what each gets (it
    said only "should be 59 (the highest score still in was 57 by the rules)": a blind
    tester). The two scores given in the wrong order are one finding, on C, the first by
    turn order, naming both (it was two, each telling the whole story: blind tester b59)."""
    points = [{"A": 35, "C": 110, "B": 22, "E": 105, "D": 57}]
    out = [ev(1, "C", "eliminated", 110), ev(1, "E", "eliminated", 105)]
    found = run(*pool_game(points, [*out, ev(1, "E", "rebuy", 58), ev(1, "C", "rebuy", 59)]))
    assert [(f.player_id, f.seq, f.expected, f.recorded, f.message) for f in found] == [(
        "C", 3, "C 58, E 59", "C 59, E 58",
        "C and E rebought after hand 1, and the record gives them the new scores 58 and 59 "
        "in the wrong order: C at 59 and E at 58 (the highest score still in was 57 by the "
        "rules; rebuys after one hand count up in its turn order, which in hand 1 was A, C, "
        "B, E, D: C rebought first, at 58, then E at 59).",
    )]  # fmt: skip


def test_rebuy_below_scores_given_round_three_rebuyers_are_one_finding_000() -> None:
    """`pool_101.rebuy_below`, 000_1729c72ad4c1f885.txt: "as per their turn in the game with
    scores 58, 59, 60". C, E and D rebuy after hand 1 (turn order A, C, B, E, D; A's 57
    the highest still in), owed 58,
    59 and 60; the record gives C 59, E 60 and D 58: the rules' scores, handed round in
    another order, one finding naming all three."""
    points = [{"A": 57, "C": 110, "B": 22, "E": 105, "D": 120}]
    out = [ev(1, p, "eliminated", s) for p, s in (("C", 110), ("E", 105), ("D", 120))]
    rebuys = [ev(1, "C", "rebuy", 59), ev(1, "E", "rebuy", 60), ev(1, "D", "rebuy", 58)]
    found = run(*pool_game(points, [*out, *rebuys]))
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("C", "C 58, E 59, D 60", "C 59, E 60, D 58")]


def test_rebuy_below_a_score_simply_wrong_beside_a_swap_stays_its_own_finding_000() -> None:
    """`pool_101.rebuy_below`, 000_1729c72ad4c1f885.txt: "as per their turn in the game with
    scores 58, 59, 60". C and E have each other's new scores (59 and 58), D has 62, no
    rebuyer's score by the rules: the swap is one finding, D's wrong score its own."""
    points = [{"A": 57, "C": 110, "B": 22, "E": 105, "D": 120}]
    out = [ev(1, p, "eliminated", s) for p, s in (("C", 110), ("E", 105), ("D", 120))]
    rebuys = [ev(1, "C", "rebuy", 59), ev(1, "E", "rebuy", 58), ev(1, "D", "rebuy", 62)]
    found = run(*pool_game(points, [*out, *rebuys]))
    assert sorted((f.player_id, f.expected, f.recorded) for f in found) == [
        ("C", "C 58, E 59", "C 59, E 58"), ("D", "60", "62")]


def test_rebuy_counts_the_player_who_lost() -> None:
    """`pool_101.rebuy_counts` (and `pool_201.rebuy_counts`) = "hand", 000_: 'When more than
    two players are playing at a
    table, the player who has lost the game (in Pool Rummy, 101 and 201) has an opportunity
    to Re-Buy': at a 3-player table the player who busts counts among the three."""
    points = [{"A": 35, "B": 22, "C": 110}, {"A": 0, "B": 20, "C": 20}]
    assert run(*pool_game(points, [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 36)])) == []


def test_rebuy_needs_more_than_two_players() -> None:
    """`pool_101.rebuy_min_players`, 000_: 'Re-join is only possible when more than 2 players
    are playing': heads up, the one who busts cannot re-buy."""
    points = [{"A": 35, "C": 110}, {"A": 0, "C": 20}]
    found = run(*pool_game(points, [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 36)]))
    assert keys(found) == [("pool.rebuy", "g1", "h1", "C")]
    assert (found[0].expected, found[0].recorded) == ("at least 3 players", "2 players")


def test_rebuy_counting_only_the_players_still_in_is_an_option() -> None:
    """`pool_101.rebuy_counts` = "still_in": the other reading, where the player who busts
    does not count, refuses the rebuy at a 3-player table."""
    rules = replace(RULES, pools={k: replace(v, rebuy_counts="still_in")
                                  for k, v in RULES.pools.items()})  # fmt: skip
    points = [{"A": 35, "B": 22, "C": 110}, {"A": 0, "B": 20, "C": 20}]
    game, hands = pool_game(points, [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 36)])
    assert keys(check_pool(game, hands, rules)) == [("pool.rebuy", "g1", "h1", "C")]


def test_rebuy_with_one_player_still_in_says_one_player() -> None:
    """`pool_101.rebuy_min_players` with `rebuy_counts = "still_in"` (000_1729c72ad4c1f885.txt:
    'Re-join is only possible when more than 2 players are playing'; a platform's 2): heads
    up, the one who busts leaves 1 player, and the words count them as one ("only 1
    players were still in": a blind tester)."""
    rules = replace(RULES, pools={k: replace(v, rebuy_counts="still_in", rebuy_min_players=2)
                                  for k, v in RULES.pools.items()})  # fmt: skip
    game, hands = pool_game([{"A": 35, "C": 110}], [ev(1, "C", "eliminated", 110),
                                                     ev(1, "C", "rebuy", 36)])  # fmt: skip
    assert [f.message for f in check_pool(game, hands, rules)] == [
        "C rebought after hand 1 when only 1 player was still in; a rebuy needs at least 2."
    ]


def test_rebuy_only_below_79() -> None:
    """000_: a Re-Buy only while the highest score is below 79 (101 pool)."""
    points = [{"A": 80, "B": 22, "C": 110, "D": 57}, {"A": 0, "B": 20, "C": 0, "D": 2}]
    found = run(*pool_game(points, [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 81)]))
    assert keys(found) == [("pool.rebuy", "g1", "h1", "C")]
    # the columns a platform's query reads say it too (a blind tester found them empty)
    assert (found[0].expected, found[0].recorded) == (
        "highest score still in below 79", "highest score still in 80"
    )


def test_rebuy_201_pool_below_174() -> None:
    """000_: in 201 pool a Re-Buy needs the highest score below 174: 173 allows one at 174,
    174 does not."""
    events = [ev(1, "C", "eliminated", 210), ev(1, "C", "rebuy", 174)]
    points = [{"A": 173, "B": 22, "C": 210, "D": 57}]
    assert run(*pool_game(points, events, fmt="pool_201")) == []
    points = [{"A": 174, "B": 22, "C": 210, "D": 57}]
    events = [ev(1, "C", "eliminated", 210), ev(1, "C", "rebuy", 175)]
    found = run(*pool_game(points, events, fmt="pool_201"))
    assert keys(found) == [("pool.rebuy", "g1", "h1", "C")]
    assert found[0].rule.startswith("pool_201.rebuy_below")


# ---------------------------------------------------------------- pool.split, auto


def test_auto_split_seed_example_clean() -> None:
    """000_ worked example: scores 85 and 88 in 101 pool: the prize is split equally
    (2 x 100 less 10 % rake = 180, 90 each)."""
    ledger = [("A", "split", "90.00"), ("B", "split", "90.00"), (None, "rake", "20.00")]
    assert run(*pool_game([{"A": 85, "B": 88}], [ev(1, None, "auto")], ledger)) == []


def test_auto_split_leftover_paise_may_go_to_any_player() -> None:
    """000_: equal shares. The seeds are silent on leftover paise (schemas/money.md): the
    audit's reading gives them one each from the first seat (hand 1's first player), but a
    platform that gives them to others, every share the equal part or a paisa more and
    the shares adding up to the prize, keeps to the rules (a blind tester: two major
    findings on an honest split). A share a paisa under the equal part is still a finding."""
    points = [{"A": 40, "B": 40, "C": 40}, {"B": 45, "C": 45, "A": 45}]
    shares = [("A", "split", "8.63"), ("B", "split", "8.62"), ("C", "split", "8.62")]
    game, hands = pool_game(points, [ev(2, None, "auto")], shares, fee=Decimal("10.00"),
                            rake=Decimal("13.75"))  # fmt: skip
    assert run(game, hands) == []
    rest = game.ledger[3:]
    game.ledger = [LedgerRow("A", "split", Decimal("8.62")), LedgerRow("B", "split",
                   Decimal("8.62")), LedgerRow("C", "split", Decimal("8.63")), *rest]  # fmt: skip
    assert run(game, hands) == []  # C had the spare paisa
    game.ledger = [LedgerRow("A", "split", Decimal("8.63")), LedgerRow("B", "split",
                   Decimal("8.61")), LedgerRow("C", "split", Decimal("8.63")), *rest]  # fmt: skip
    found = run(game, hands)  # B a paisa under the equal part of 8.62
    assert sorted(keys(found)) == [("pool.split", "g1", "h2", "B"), ("pool.split", "g1", "h2", "C")]


def test_auto_split_wrong_amounts() -> None:
    """000_: the auto split shares the prize equally, whatever the scores."""
    ledger = [("A", "split", "100.00"), ("B", "split", "80.00")]
    game, hands = pool_game([{"A": 85, "B": 88}], [ev(1, None, "auto")], ledger)
    found = run(game, hands)
    assert keys(found) == [("pool.split", "g1", "h1", "A"), ("pool.split", "g1", "h1", "B")]
    assert found[0].message == (
        "A was paid 100.00 in the automatic split after hand 1, but their share is 90.00."
    )
    # schemas/output.md: a pool.split finding names its game_events row (a blind tester's
    # share findings had none)
    (split,) = [e.seq for e in game.game_events if e.action == "split"]
    assert [f.seq for f in found] == [split, split]


def test_auto_split_missed() -> None:
    """000_: every player above 80 after a round: the auto split must execute."""
    found = run(*pool_game([{"A": 85, "B": 88}, {"A": 0, "B": 5}]))
    assert ("pool.split", "g1", "h1", None) in keys(found)
    assert found[0].message == (
        "After hand 1 every player left (A, B) stood above 80 by the rules, so the prize "
        "should have been split automatically, but play went on to hand 2."
    )


def test_auto_split_above_missed_words_say_how_the_record_ended_the_game() -> None:
    """000_ (`pool_101.auto_split_above`): the auto split was due after the last hand, and
    the record ended the game there naming a winner, or with neither winner nor split. The
    words say what the record did (a blind tester read "play went on" of a game that ended
    after that hand, its whole prize paid to one player), and the missing split is the one
    finding: not also a pool.winner for the game that ended with two players in."""
    won = run(*pool_game([{"A": 85, "B": 88}], [ev(1, "A", "game_won")], ended=True))
    assert keys(won) == [("pool.split", "g1", "h1", None)]
    assert won[0].message.endswith(
        "should have been split automatically, but the record ends the game there, won by "
        "A, with no split.")
    ended = run(*pool_game([{"A": 85, "B": 88}], ended=True))
    assert keys(ended) == [("pool.split", "g1", "h1", None)]
    assert ended[0].message.endswith(
        "should have been split automatically, but the record ends the game there with no "
        "split.")


def test_split_ends_the_game() -> None:
    """000_: a split shares the table amount: no hand is dealt after it."""
    found = run(*pool_game([{"A": 85, "B": 88}, {"A": 0, "B": 5}], [ev(1, None, "auto")]))
    assert keys(found) == [("pool.split", "g1", "h2", None)]


def test_auto_split_not_allowed() -> None:
    """000_: a single player at 80 or less and auto split does not execute."""
    found = run(*pool_game([{"A": 85, "B": 70}], [ev(1, None, "auto")]))
    assert keys(found) == [("pool.split", "g1", "h1", None)]


# ---------------------------------------------------------------- pool.split, manual

MANUAL = [{"A": 65, "B": 70, "C": 85}]
AGREED = [ev(1, "A", "split_offer"), *(ev(1, p, "split_accept") for p in "ABC")]


def test_manual_split_clean() -> None:
    """000_: scores 65, 70, 85 (all >= 61), first drops 1, 1, 0 (difference 1), all accept:
    A and B are paid one extra drop at 100 less 10 % = 90 each, the rest of the 270 prize
    (90) shared: 120, 120, 30."""
    ledger = [("A", "split", "120.00"), ("B", "split", "120.00"), ("C", "split", "30.00")]
    assert run(*pool_game(MANUAL, [*AGREED, ev(1, None, "manual")], ledger)) == []


def test_auto_split_above_a_split_by_agreement_recorded_as_auto_owes_the_agreed_shares() -> None:
    """`pool_101.auto_split_above` (000_: the system splits automatically once every player
    left is above 80): a split offered and accepted at 65, 70, 85, recorded as automatic,
    is one wrong kind; its shares are the agreed ones, 120, 120, 30, paid right, not
    judged as equal shares (a blind tester had two more findings, one a player)."""
    ledger = [("A", "split", "120.00"), ("B", "split", "120.00"), ("C", "split", "30.00")]
    found = run(*pool_game(MANUAL, [*AGREED, ev(1, None, "auto")], ledger))
    assert keys(found) == [("pool.split", "g1", "h1", None)]
    assert found[0].message.endswith("all above 80; it was offered, a split by agreement.")
    # with no offer, an automatic split not due is still judged at the equal shares it paid
    plain = run(*pool_game(MANUAL, [ev(1, None, "auto")], ledger))
    assert ("pool.split", "g1", "h1", "A") in keys(plain)


def test_manual_split_reject_continues_clean() -> None:
    """000_: one player rejects and the game continues in its normal course."""
    events = [ev(1, "A", "split_offer"), ev(1, "C", "split_reject")]
    assert run(*pool_game([*MANUAL, {"A": 0, "B": 5, "C": 5}], events)) == []


def test_manual_split_needs_every_accept() -> None:
    """000_: 'Manual Split will only execute if all players accept'."""
    events = [ev(1, "A", "split_offer"), ev(1, "A", "split_accept"), ev(1, "B", "split_accept"),
              ev(1, "C", "split_reject"), ev(1, None, "manual")]  # fmt: skip
    found = run(*pool_game(MANUAL, events))
    # One error, one finding: C's reject, not also "C never accepted".
    assert keys(found) == [("pool.split", "g1", "h1", "C")]
    assert found[0].message.endswith("but C rejected the split.")


def test_split_accept_cites_000_all_players_accept() -> None:
    """000_1729c72ad4c1f885.txt: 'Manual Split will only execute if all players accept'. A
    player who neither offered nor accepted the split is a finding citing that rule, not
    the 61-point threshold of pool_101.manual_split_min_score."""
    events = [ev(1, "A", "split_offer"), ev(1, "B", "split_accept"), ev(1, None, "manual")]
    ledger = [("A", "split", "120.00"), ("B", "split", "120.00"), ("C", "split", "30.00")]
    found = run(*pool_game(MANUAL, events, ledger))
    assert keys(found) == [("pool.split", "g1", "h1", "C")]
    assert found[0].message == (
        "The game was split by agreement after hand 1, but C never accepted the split."
    )
    assert found[0].rule.startswith("pool.split: A manual split is made only when every player")
    assert "000_1729c72ad4c1f885.txt: 'Manual Split will only execute if all players accept" in (
        found[0].rule
    )


def test_split_accept_offering_is_accepting() -> None:
    """000_1729c72ad4c1f885.txt ('all players accept'): the player who offers the split
    accepts it by offering, with or without a split_accept row of their own."""
    ledger = [("A", "split", "120.00"), ("B", "split", "120.00"), ("C", "split", "30.00")]
    without = [ev(1, "A", "split_offer"), *(ev(1, p, "split_accept") for p in "BC")]
    assert run(*pool_game(MANUAL, [*without, ev(1, None, "manual")], ledger)) == []
    assert run(*pool_game(MANUAL, [*AGREED, ev(1, None, "manual")], ledger)) == []


def test_manual_split_min_score() -> None:
    """000_: manual split only when every score is >= 61 (101 pool): offered and made at
    50, 70, 85, the offer and the split it led to are one error, one finding on the split
    that names who offered it (a blind tester: the same need said on each)."""
    found = run(*pool_game([{"A": 50, "B": 70, "C": 85}], [*AGREED, ev(1, None, "manual")]))
    assert keys(found) == [("pool.split", "g1", "h1", None)]
    assert found[0].seq == 4
    assert found[0].message == (
        "A offered a split after hand 1 and the game was split by agreement, but a manual "
        "split needs every score at 61 or more (the lowest is 50)."
    )
    assert found[0].rule.startswith("pool_101.manual_split_min_score")


def test_a_split_offered_against_its_criteria() -> None:
    """`pool_101.manual_split_min_score`, 000_: 'Manual Split will be enabled in 101 pool
    game, only when the Total Score ... greater than or equal to 61': offering it at 50 is a
    finding even when a player rejects it and play goes on."""
    events = [ev(1, "A", "split_offer"), ev(1, "C", "split_reject")]
    found = run(*pool_game([{"A": 50, "B": 70, "C": 85}, {"A": 0, "B": 5, "C": 5}], events))
    assert keys(found) == [("pool.split", "g1", "h1", "A")]
    assert "offered" in found[0].message


def test_rebuys_and_splits_belong_to_pool_games_only() -> None:
    """`games.rebuy_formats`, `games.split_formats`, 000_: 'This Re-Buyin criterion is not
    available for Best of 2/3 Deal games and Point Rummy Games'; Manual Split is offered
    'for types, 101 Rummy and 201 Rummy games'."""
    points, _ = pool_game([{"A": 20, "B": 0}], [ev(1, "A", "rebuy", 21)], fmt="points")
    deals, _ = pool_game([{"A": 20, "B": 0}], [ev(1, "A", "split_offer")], fmt="deals")
    pool, _ = pool_game(SEED, [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 58)])
    assert [(f.check, f.recorded) for f in out_of_format(points, RULES)] == [
        ("pool.rebuy", "rebuy")
    ]
    assert [(f.check, f.recorded) for f in out_of_format(deals, RULES)] == [
        ("pool.split", "split_offer")
    ]
    assert out_of_format(pool, RULES) == []


def test_manual_split_a_score_above_drop_base_has_no_first_drop_left() -> None:
    """`pool_101.manual_split_shares`, 000_1729c72ad4c1f885.txt: 'INTEGER((100-CurrentTotal
    Score)/20)' first drops, and 'Amount equal to the wagering after deducting the rake
    amount is given for each extra drop'. Under a platform's `drop_base` 120 (step 15, out
    past 150), A at 100 has 1 first drop left and B at 136 none (not -1 by truncation, nor
    -2 by a spreadsheet's INT): A is paid 1 extra drop (9.00), then 18.00 in equal shares."""
    pools = {k: replace(v, elimination_score=150, drop_base=120, drop_step=15)
             for k, v in RULES.pools.items()}  # fmt: skip
    shares = split_shares(kind="manual", scores=[100, 136], pool=pools["pool_101"],
                          entry_fee=Decimal("10.00"), entries=3, rake_pct=Decimal("10.00"))
    assert shares == [Decimal("18.00"), Decimal("9.00")]


def test_manual_split_drop_difference() -> None:
    """000_: the first drops must differ by one or two (61 and 65: both 1 drop left)."""
    events = [ev(1, "A", "split_offer"), ev(1, "A", "split_accept"), ev(1, "B", "split_accept"),
              ev(1, None, "manual")]  # fmt: skip
    found = run(*pool_game([{"A": 61, "B": 65}], events))
    assert keys(found) == [("pool.split", "g1", "h1", None)]
    assert found[0].rule.startswith("pool_101.split_drop_difference")
    # the message says what the players left have (a blind tester: it said only the need)
    assert found[0].message == (
        "A offered a split after hand 1 and the game was split by agreement, but a manual "
        "split needs first drops left differing by 1 to 2 (they have 1/1: 0 apart)."
    )


def test_manual_split_min_score_a_split_against_its_criteria_owes_no_share_000() -> None:
    """`pool_101.manual_split_min_score` (000_1729c72ad4c1f885.txt: 'Manual Split will be
    enabled in 101 pool game, only when the Total Score ... greater than or equal to 61'):
    made at 50, 70, 85, the split is one finding, saying what the ledger paid (90.00 each);
    its shares are not judged as the agreed split would pay them (180.00, 90.00, 0.00), a
    split the rules do not make owing none (docs/replay.md; a blind tester's F20: four
    findings, three of them shares of 88.00, 0.00 and 0.00)."""
    ledger = [("A", "split", "90.00"), ("B", "split", "90.00"), ("C", "split", "90.00")]
    found = run(*pool_game([{"A": 50, "B": 70, "C": 85}], [*AGREED, ev(1, None, "manual")],
                           ledger))  # fmt: skip
    assert keys(found) == [("pool.split", "g1", "h1", None)]
    assert found[0].message == (
        "A offered a split after hand 1 and the game was split by agreement, but a manual "
        "split needs every score at 61 or more (the lowest is 50), so by the rules the game "
        "goes on with no share owed (the ledger paid A 90.00, B 90.00 and C 90.00 in split "
        "shares)."
    )
    assert (found[0].expected, found[0].recorded) == (
        "no manual split: it needs every score at 61 or more (the lowest is 50)", "manual split")


def test_split_accept_a_split_not_accepted_owes_no_share_000() -> None:
    """000_1729c72ad4c1f885.txt: 'Manual Split will only execute if all players accept'. C
    rejects a split the record makes anyway, paid in equal shares: C's reject is the one
    finding, the shares not judged as the agreed ones (120.00, 120.00, 30.00) of a split the
    rules do not make (docs/replay.md)."""
    events = [ev(1, "A", "split_offer"), ev(1, "B", "split_accept"), ev(1, "C", "split_reject"),
              ev(1, None, "manual")]  # fmt: skip
    ledger = [("A", "split", "90.00"), ("B", "split", "90.00"), ("C", "split", "90.00")]
    found = run(*pool_game(MANUAL, events, ledger))
    assert keys(found) == [("pool.split", "g1", "h1", "C")]
    assert found[0].message.endswith("but C rejected the split.")


# ---------------------------------------------------------------- the simulator


def test_simulated_pool_games_pass(tmp_path: Path) -> None:
    """The seeded simulator follows 000_: its pool games raise no pool finding."""
    simulate(games=200, out=tmp_path / "logs", seed=20261132)
    pools, found, actions = 0, [], set()
    for batch in iter_units(open_log_root(tmp_path / "logs"), quarantine=[], workdir=tmp_path):
        for unit in batch:
            if unit.game is None or not unit.game.format.startswith("pool"):
                continue
            pools += 1
            actions |= {(e.action, e.split_kind) for e in unit.game.game_events}
            found += check_pool(unit.game, unit.hands, load_preset(unit.game.ruleset))
    assert pools > 20
    assert {("rebuy", None), ("split", "auto"), ("split", "manual")} <= actions
    assert found == []


# ---------------------------------------------------------------- pool.winner


def test_pool_winner_is_the_last_player_left_000() -> None:
    """`pool_101.elimination_score`: B reaches 101 and is out; A, the last player left,
    wins the game (000_, 101 Pool)."""
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won")]
    assert run(*pool_game(points, events, ended=True)) == []


def test_pool_winner_recorded_wrong() -> None:
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "B", "game_won")]
    assert keys(run(*pool_game(points, events, ended=True))) == [("pool.winner", "g1", "h2", "A")]


def test_pool_winner_the_ledger_pays_the_last_player_left_000() -> None:
    """schemas/money.md step 4, `pool_101.elimination_score`: B is out at 101 and A, the
    last player left, is paid the prize, while the game_won row names B. That row is the
    one finding (pool.winner); the ledger paid the rules' winner and is right (a blind
    tester: two critical ledger findings besides, A "did not win" and B "should be
    paid")."""
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "B", "game_won")]
    ledger = [("A", "buy_in", "-100.00"), ("B", "buy_in", "-100.00"),
              ("A", "prize", "180.00"), (None, "rake", "20.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    found = game_checks(game, hands, RULES)
    assert keys(found) == [("pool.winner", "g1", "h2", "A")]
    assert judge_pool(game, hands, RULES).winner == "A"


# ---------------------------------------------------------------- the rules' running state


def test_rebuy_below_counts_a_player_whose_elimination_the_rules_refuse() -> None:
    """000_1729c72ad4c1f885.txt (pool_101.rebuy_below): the new score is "1+Highest Score
    in that round", the highest of the players still in by the rules. D, recorded as
    eliminated at 57 (below 101), is still in: C's rebuy at 1 + 57 = 58 is right, and D's
    elimination is the one finding (a blind tester: D was left out of the highest score,
    and C's right rebuy and C's later scores were findings besides)."""
    events = [ev(1, "C", "eliminated", 110), ev(1, "D", "eliminated", 57), ev(1, "C", "rebuy", 58)]
    found = run(*pool_game(SEED, events))
    assert keys(found) == [("pool.elimination", "g1", "h1", "D")]
    assert found[0].message == (
        "D is recorded as eliminated after hand 1, but has 57 by the rules, below the 101 that "
        "eliminates: D is still in."
    )


def test_a_refused_elimination_after_the_last_hand_is_one_finding() -> None:
    """`pool_101.elimination_score`: B recorded as out at 50 is still in by the rules, so
    two players were in when A was recorded as the winner; that is what B's elimination
    finding says, not a second finding on the winner."""
    found = run(*pool_game([{"A": 0, "B": 50}], [ev(1, "B", "eliminated", 50),
                                                 ev(1, "A", "game_won")], ended=True))  # fmt: skip
    assert keys(found) == [("pool.elimination", "g1", "h1", "B")]


def test_elimination_missing_the_last_player_left_rightly_won() -> None:
    """000_ (pool_101.elimination_score): B reaches 101 and no eliminated row says so. By
    the rules B is out and A, the last player left, rightly won: the missing row is the one
    finding (a blind tester: "2 players were still in (A, B)" besides)."""
    found = run(*pool_game([{"A": 0, "B": 80}, {"A": 0, "B": 21}], [ev(2, "A", "game_won")],
                           ended=True))  # fmt: skip
    assert keys(found) == [("pool.elimination", "g1", "h2", "B")]
    assert found[0].message == (
        "B reached 101 after hand 2, which eliminates at 101, but no elimination was recorded."
    )


def test_elimination_missing_and_played_on_is_one_finding() -> None:
    """000_ (pool_101.elimination_score): B reaches 101 after hand 2, is not eliminated and
    plays hand 3: one missing elimination, said once (not again after hand 3, nor as an
    eliminated player seated without a rebuy)."""
    points = [{"A": 0, "B": 80, "C": 10}, {"A": 0, "B": 21, "C": 10}, {"A": 0, "B": 5, "C": 10}]
    assert keys(run(*pool_game(points))) == [("pool.elimination", "g1", "h2", "B")]


def test_manual_split_shares_cite_the_rule_for_the_shares() -> None:
    """000_1729c72ad4c1f885.txt (`pool_101.manual_split_shares`): "Amount equal to the
    wagering after deducting the rake amount is given for each extra drop. The balance
    table amount is then distributed equally". Equal shares, where A and B have an extra
    drop each, are wrong, and the findings cite that rule, not the drop difference that
    allows a split."""
    ledger = [("A", "split", "90.00"), ("B", "split", "90.00"), ("C", "split", "90.00")]
    found = run(*pool_game(MANUAL, [*AGREED, ev(1, None, "manual")], ledger))
    assert keys(found) == [("pool.split", "g1", "h1", p) for p in "ABC"]
    assert found[0].message == (
        "A was paid 90.00 in the agreed split after hand 1, but their share is 120.00."
    )
    assert all(f.rule == RULES.cite("pool_101.manual_split_shares") for f in found)


def test_an_auto_split_recorded_as_manual_is_one_finding() -> None:
    """000_1729c72ad4c1f885.txt (pool_101.auto_split_above): "If the game progresses to a
    level that it meets with the conditions for Auto Split, Khelplayrummy.com will
    automatically execute the process of Auto Split". At 85 and 88 the split is automatic:
    recorded as manual, with no offer, it is one wrong kind, not a manual split failing its
    drops and every acceptance (a blind tester: four findings); its equal shares are right."""
    ledger = [("A", "split", "90.00"), ("B", "split", "90.00"), (None, "rake", "20.00")]
    found = run(*pool_game([{"A": 85, "B": 88}], [ev(1, None, "manual")], ledger))
    assert keys(found) == [("pool.split", "g1", "h1", None)]
    assert (found[0].expected, found[0].recorded) == ("auto", "manual")
    assert found[0].message == (
        "The game was split after hand 1 and recorded as a split by agreement, but every "
        "player left stood above 80, so it was an automatic split."
    )
    assert judge_pool(*pool_game([{"A": 85, "B": 88}], [ev(1, None, "manual")]),
                      RULES).split_kind == "auto"  # fmt: skip


def test_pool_winner_a_game_ended_with_several_in_neither_won_nor_split_000() -> None:
    """000_ (101 Pool): the game goes on until one player is left, or the players split the
    prize. A game that ended with three players still in, no game_won and no split event is
    a pool.winner finding (a blind tester: its split event missing, the only findings were
    the ledger's split rows). A game called off (refund rows, schemas/money.md) ends with no
    winner and is not one; nor is a game still running."""
    points = [{"A": 0, "B": 30, "C": 40}, {"A": 20, "B": 0, "C": 10}]
    game, hands = pool_game(points, ended=True)
    (found,) = run(game, hands)
    assert keys([found]) == [("pool.winner", "g1", "h2", None)]
    assert "3 players still in (A, B, C)" in found.message
    assert "neither a winner (no game_won event) nor a split" in found.message
    assert "no ledger rows" in found.message
    refunds = [(p, "buy_in", "-100.00") for p in "ABC"] + [(p, "refund", "100.00") for p in "ABC"]
    assert run(*pool_game(points, ledger=refunds, ended=True)) == []
    assert run(*pool_game(points)) == []
