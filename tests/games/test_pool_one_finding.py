"""Pool game checks (audit/games/pool.py) where one wrong game event or seat is one finding
(docs/replay.md: "each such row is one pool.elimination, and what follows from it is not
flagged again"), against 000_1729c72ad4c1f885.txt's pool rules as standard-13 fixes them.
Built with the helpers of tests/games/test_pool.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from audit.explain.standing import played_out
from audit.games.pool import judge_pool
from audit.replay.outcome import Expected
from audit.unit import game_checks
from tests.games.test_pool import RULES, ev, keys, pool_game, run

LEDGER = [("A", "buy_in", "-100.00"), ("B", "buy_in", "-100.00"),
          ("A", "prize", "180.00"), (None, "rake", "20.00")]  # fmt: skip
"""A and B at 100.00, 10% rake: A, the winner, is paid 180.00."""


def test_pool_winner_the_winners_game_won_row_written_twice_is_one_finding_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool): B is out at 101 and A, the last
    player left, wins. A's game_won row written twice (seq 1 and 2) is one finding on the
    repeat, and the ledger that paid A is right (a blind tester: "the game is recorded as
    won by B, B", said of the rightful winner)."""
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won"), ev(2, "A", "game_won")]
    game, hands = pool_game(points, events, LEDGER, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.winner", "g1", "h2", "A")]
    assert (found.seq, found.expected, found.recorded) == (2, "one game_won event",
                                                           "2 game_won events")  # fmt: skip
    assert found.message == (
        "A is the last player left in game g1 and won it, but the record writes its "
        "game_won event for A 2 times (seq 1 and 2): a game is won once."
    )
    assert judge_pool(game, hands, RULES).winner == "A"


# ---------------------------------------------------------------- pool.elimination


def test_pool_elimination_a_player_seated_again_without_a_rebuy_stays_out_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool; docs/replay.md: "each such row is one
    pool.elimination, and what follows from it is not flagged again"). B is out at 110
    after hand 2 and dealt into hand 3 with no rebuy: that seat is the one finding. B stays
    out by the rules, so after C is out in hand 3, A is the last player left and rightly
    won, paid the prize (a blind tester: "after hand 4 2 players were still in" besides)."""
    points = [{"A": 0, "B": 80, "C": 10}, {"A": 0, "B": 30, "C": 20}, {"A": 0, "B": 5, "C": 80}]
    events = [ev(2, "B", "eliminated", 110), ev(3, "C", "eliminated", 110), ev(3, "A", "game_won")]
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("A", "prize", "270.00"),
              (None, "rake", "30.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.elimination", "g1", "h3", "B")]
    assert found.message == "B was eliminated after hand 2 but is seated in hand 3 without a rebuy."
    judged = judge_pool(game, hands, RULES)
    assert (judged.winner, judged.standings[3].active) == ("A", ("A",))


def test_pool_winner_a_hand_dealt_after_the_game_was_won_is_one_finding_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool: the game ends when one player is
    left). A won after hand 2, when B was out at 101; a third hand dealt to A and B is the
    one finding, not also B "seated without a rebuy" and "2 players still in" after it (a
    blind tester's copy of the last hand after the game_won)."""
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}, {"A": 0, "B": 5}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won")]
    (found,) = run(*pool_game(points, events, ended=True))
    assert keys([found]) == [("pool.winner", "g1", "h3", None)]
    assert (found.expected, found.recorded) == ("no hand after hand 2", "hand 3")
    assert found.message == (
        "Hand 3 was dealt after game g1 was won (its game_won event after hand 2 names A); "
        "a won game ends."
    )


# ---------------------------------------------------------------- pool.split


def test_pool_split_an_offer_after_the_game_was_won_is_one_finding_000() -> None:
    """`pool_101.manual_split_min_score` (000_: a manual split among the players left, "only
    when the Total Score ... greater than or equal to 61"). A split offered by A after A
    won (B out at 101) is one finding, that one player was left: not also A's score below
    61 and the first drops of one player "0 apart" (a blind tester: three findings)."""
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won"), ev(2, "A", "split_offer")]
    (found,) = run(*pool_game(points, events, ended=True))
    assert keys([found]) == [("pool.split", "g1", "h2", "A")]
    assert found.seq == 2
    assert found.message == (
        "A split was offered after hand 2, but a manual split needs at least 2 players left, "
        "and only A was: the game was over."
    )


def test_pool_split_an_offer_against_two_criteria_is_one_finding_000() -> None:
    """`pool_101.manual_split_min_score`, `pool_101.split_drop_difference` (000_: every
    score 61 or more; first drops differing by ONE or TWO). At 50 and 55 (2 first drops
    each) the offer lacks both: one finding naming both, citing the first; so does a
    manual split made there, as the offer's finding is the split's."""
    need = ("every score at 61 or more (the lowest is 50) and first drops left differing by "
            "1 to 2 (they have 2/2: 0 apart)")
    events = [ev(1, "A", "split_offer"), ev(1, "B", "split_reject")]
    (found,) = run(*pool_game([{"A": 50, "B": 55}, {"A": 0, "B": 5}], events))
    assert keys([found]) == [("pool.split", "g1", "h1", "A")]
    assert found.message == f"A split was offered after hand 1, but a manual split needs {need}."
    assert found.rule.startswith("pool_101.manual_split_min_score")
    made = [ev(1, "A", "split_offer"), ev(1, "B", "split_accept"), ev(1, None, "manual")]
    (split,) = run(*pool_game([{"A": 50, "B": 55}], made))
    assert (split.seq, split.expected) == (2, f"no manual split: it needs {need}")


# ---------------------------------------------------------------- pool.rebuy


def test_pool_rebuy_of_a_player_still_in_is_one_finding_and_no_entry_000() -> None:
    """`pool_101.rebuy_below` (000_: "the player who has lost the game ... has an
    opportunity to Re-Buy") and schemas/money.md step 4. B, at 40 after hand 1 and still
    in, is recorded as rebuying: by the rules there is no rebuy, so its entry is counted
    nowhere, and the ledger that took none (3 buy-ins, 30.00 of rake, 270.00 to A) is
    right; the rebuy is the one finding (a blind tester: three critical ledger findings
    beside it). A ledger that sold it took 100.00 B did not owe: that row's one finding,
    which is all the ledger is out."""
    points = [{"A": 0, "B": 40, "C": 101}, {"A": 0, "B": 70}]
    events = [ev(1, "C", "eliminated", 101), ev(1, "B", "rebuy", 40),
              ev(2, "B", "eliminated", 110), ev(2, "A", "game_won")]  # fmt: skip
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("A", "prize", "270.00"),
              (None, "rake", "30.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.rebuy", "g1", "h1", "B")]
    assert found.message == "B is recorded as rebuying after hand 1 without being eliminated in it."
    assert judge_pool(game, hands, RULES).void_rebuys == {1}
    sold = pool_game(points, events, [*ledger, ("B", "rebuy", "-100.00")], ended=True)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in game_checks(*sold, RULES)] == [
        ("ledger.balance", "B", "0.00", "-100.00"), ("pool.rebuy", "B", "no rebuy", "rebuy"),
    ]


# ---------------------------------------------------------------- game events written again


def test_pool_elimination_an_eliminated_row_written_twice_is_one_finding_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool; log-format.md `game_events`). B is
    rightly out at 110 after hand 2, and the platform writes B's `eliminated` row twice
    (seq 0 and 1): one finding on the repeat, and B is out once (before, the second row
    silently replaced the first: no finding at all)."""
    points = [{"A": 0, "B": 80, "C": 40}, {"A": 0, "B": 30, "C": 40}, {"A": 0, "C": 20}]
    events = [ev(2, "B", "eliminated", 110), ev(2, "B", "eliminated", 110)]
    game, hands = pool_game(points, events)
    (found,) = [f for f in game_checks(game, hands, RULES) if f.check != "game.running"]
    assert keys([found]) == [("pool.elimination", "g1", "h2", "B")]
    assert (found.seq, found.expected, found.recorded) == (1, "one eliminated event",
                                                           "2 eliminated events")  # fmt: skip
    assert found.rule.startswith("pool_101.elimination_score")
    assert found.message == (
        "The record writes B's eliminated event after hand 2 2 times (seq 0 and 1), but a "
        "player is eliminated once after a hand."
    )
    assert judge_pool(game, hands, RULES).standings[2].active == ("A", "C")


def test_pool_rebuy_a_rebuy_row_written_twice_is_one_finding_and_one_entry_000() -> None:
    """`pool_101.rebuy_below` (000_'s worked example: C out at 110 re-buys at 1 + 57 = 58)
    and schemas/money.md step 4. C's `rebuy` row written twice (seq 1 and 2) is one
    finding on the repeat, and one rebuy: the ledger that sold C one rebuy and paid A a
    prize of five entries less the rake is right (before: no finding, two rebuys counted)."""
    points = [{"A": 35, "B": 22, "C": 110, "D": 57}, {"A": 0, "B": 90, "C": 50, "D": 50}]
    events = [ev(1, "C", "eliminated", 110), ev(1, "C", "rebuy", 58), ev(1, "C", "rebuy", 58),
              *(ev(2, p, "eliminated", s) for p, s in (("B", 112), ("C", 108), ("D", 107))),
              ev(2, "A", "game_won")]  # fmt: skip
    ledger = [*((p, "buy_in", "-100.00") for p in "ABCD"), ("C", "rebuy", "-100.00"),
              ("A", "prize", "450.00"), (None, "rake", "50.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.rebuy", "g1", "h1", "C")]
    assert (found.seq, found.expected, found.recorded) == (2, "one rebuy event",
                                                           "2 rebuy events")  # fmt: skip
    assert found.message == (
        "The record writes C's rebuy event after hand 1 2 times (seq 1 and 2), but a player "
        "rebuys once after a hand."
    )
    judged = judge_pool(game, hands, RULES)
    assert (judged.void_rebuys, judged.standings[1].rebuys) == ({2}, 1)


def test_pool_rebuy_two_rebuys_written_in_row_order_are_one_finding_000() -> None:
    """`pool_101.rebuy_below` (000_1729c72ad4c1f885.txt: the players re-buying "will Re-Buy
    as per their turn in the game with scores 58, 59, 60"; docs/replay.md: "1 +, 2 + ... in
    that hand's turn order"). C and D are out after hand 2 (turn order A, C, D, B), the
    highest score still in 55: C rebuys at 56 and D at 57. The platform numbered them in
    row order, D 56 and C 57, and played on from those scores to C's win. One ordering
    mistake, one finding naming both, on C, the first by turn order (blind tester b59: two
    findings, each telling the whole story)."""
    points = [{"A": 55, "C": 60, "D": 40, "B": 0}, {"A": 0, "C": 50, "D": 70, "B": 20},
              {"A": 40, "C": 0, "D": 30, "B": 35}, {"A": 80, "C": 25, "D": 40, "B": 0},
              {"C": 0, "B": 50}]  # fmt: skip
    events = [ev(2, "C", "eliminated", 110), ev(2, "D", "eliminated", 110),
              ev(2, "D", "rebuy", 56), ev(2, "C", "rebuy", 57),
              ev(4, "D", "eliminated", 126), ev(4, "A", "eliminated", 175),
              ev(5, "B", "eliminated", 105), ev(5, "C", "game_won")]  # fmt: skip
    ledger = [*((p, "buy_in", "-100.00") for p in "ACDB"), ("D", "rebuy", "-100.00"),
              ("C", "rebuy", "-100.00"), ("C", "prize", "540.00"), (None, "rake", "60.00")]
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.rebuy", "g1", "h2", "C")]
    assert (found.seq, found.expected, found.recorded) == (3, "C 56, D 57", "C 57, D 56")
    assert found.message == (
        "C and D rebought after hand 2, and the record gives them the new scores 56 and 57 in "
        "the wrong order: C at 57 and D at 56 (the highest score still in was 55 by the rules; "
        "rebuys after one hand count up in its turn order, which in hand 2 was A, C, D, B: C "
        "rebought first, at 56, then D at 57)."
    )
    assert judge_pool(game, hands, RULES).winner == "C"


# ---------------------------------------------------------------- an eliminated row misplaced

MISPLACED = [{"A": 0, "B": 80, "C": 40}, {"A": 0, "B": 30, "C": 40}, {"A": 0, "C": 20}]
"""B reaches 110 after hand 2 (out at 101) and sits out hand 3."""


def test_pool_elimination_a_row_written_after_the_next_hand_is_one_finding_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool; schemas/output.md: a pool finding's
    `hand_id` is the hand its row follows). B's `eliminated` row written after hand 3, a
    hand B did not play, instead of hand 2: one finding naming hand 2 (before: two, the
    row missing after hand 2 and a row after a hand not played). B is out after hand 2."""
    game, hands = pool_game(MISPLACED, [ev(3, "B", "eliminated", 110)])
    (found,) = [f for f in game_checks(game, hands, RULES) if f.check != "game.running"]
    assert keys([found]) == [("pool.elimination", "g1", "h3", "B")]
    assert (found.seq, found.expected, found.recorded) == (0, "after hand 2", "after hand 3")
    assert found.message == (
        "B reached 110 after hand 2, which eliminates at 101, but their elimination is "
        "recorded after hand 3, a hand they did not play: it belongs after hand 2."
    )
    assert judge_pool(game, hands, RULES).standings[2].active == ("A", "C")


def test_pool_elimination_a_row_written_after_the_hand_before_is_one_finding_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool). B's `eliminated` row written after
    hand 1 (B at 80, still in, and played hand 2) instead of hand 2, where B reached 110:
    one finding naming hand 2 (before: two, the row refused below 101 and the row missing
    after hand 2). B is in after hand 1 and out after hand 2."""
    game, hands = pool_game(MISPLACED, [ev(1, "B", "eliminated", 110)])
    (found,) = [f for f in game_checks(game, hands, RULES) if f.check != "game.running"]
    assert keys([found]) == [("pool.elimination", "g1", "h1", "B")]
    assert (found.seq, found.expected, found.recorded) == (0, "after hand 2", "after hand 1")
    assert found.message == (
        "B's elimination is recorded after hand 1, when they had 80 by the rules, below the "
        "101 that eliminates, but they played hand 2 and reached 110 after it: the row "
        "belongs after hand 2."
    )
    standings = judge_pool(game, hands, RULES).standings
    assert (standings[1].active, standings[2].active) == (("A", "B", "C"), ("A", "C"))


def test_pool_elimination_a_row_early_for_a_player_still_in_after_is_refused_000() -> None:
    """`pool_101.elimination_score`: a row after hand 1 for B, who is still below 101
    after hand 2, is no misplaced row but an elimination the rules refuse (the finding it
    always was)."""
    points = [{"A": 0, "B": 80, "C": 40}, {"A": 0, "B": 5, "C": 40}]
    found = run(*pool_game(points, [ev(1, "B", "eliminated", 80)]))
    assert [(f.hand_id, f.recorded) for f in found] == [("h1", "eliminated")]
    assert found[0].message.startswith(
        "B is recorded as eliminated after hand 1, but has 80 by the rules")


# ---------------------------------------------------------------- a player still in, not dealt in


def test_pool_rebuy_a_rebuyer_never_dealt_in_again_is_one_finding_000() -> None:
    """`pool_101.rebuy_below` (000_: a Re-Buy is "for the next round of the same game, on
    the same table"). C, out at 105 after hand 2, rebuys at 51 and is dealt into no hand
    after it: one `pool.rebuy` on hand 3, and the ledger that took C's rebuy and paid A the
    prize on four entries is judged as recorded, not again (a blind tester: no finding at
    all, the prize "agrees")."""
    points = [{"A": 0, "B": 20, "C": 80}, {"A": 0, "B": 30, "C": 25}, {"A": 0, "B": 60}]
    events = [ev(2, "C", "eliminated", 105), ev(2, "C", "rebuy", 51),
              ev(3, "B", "eliminated", 110), ev(3, "A", "game_won")]  # fmt: skip
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("C", "rebuy", "-100.00"),
              ("A", "prize", "360.00"), (None, "rake", "40.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.rebuy", "g1", "h3", "C")]
    assert found.message == (
        "C rebought after hand 2 (a new score of 51) but is not dealt into hand 3: a rebuy "
        "buys a seat in the next hand, and their entry was taken for none."
    )
    assert judge_pool(game, hands, RULES).winner == "A"


def _rebuy_row_only(score: int = 51, ledger_row: bool = True) -> tuple[Any, Any]:
    """C out at 105 after hand 2 rebuys at ``score`` (the rules' 51: 1 + B's 50), with the
    ledger's rebuy row (``ledger_row``) but no rebuy game_events row; B out at 110 after
    hand 3, C out after hand 4 (at 102 from 51), and A wins the prize of 4 entries (3
    without the row)."""
    points = [{"A": 0, "B": 20, "C": 80}, {"A": 0, "B": 30, "C": 25}, {"A": 0, "B": 60, "C": 10},
              {"A": 0, "C": 41}]  # fmt: skip
    events = [ev(2, "C", "eliminated", 105), ev(2, "C", "rebuy", score),
              ev(3, "B", "eliminated", 110), ev(4, "C", "eliminated", score + 51),
              ev(4, "A", "game_won")]  # fmt: skip
    entries = 4 if ledger_row else 3
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"),
              *([("C", "rebuy", "-100.00")] if ledger_row else []),
              ("A", "prize", f"{90 * entries}.00"), (None, "rake", f"{10 * entries}.00")]
    game, hands = pool_game(points, events, ledger, ended=True)
    return replace(game, game_events=[e for e in game.game_events if e.action != "rebuy"]), hands


def test_pool_elimination_a_rebuy_with_no_rebuy_row_is_one_finding_000() -> None:
    """`pool_101.elimination_score`, `pool_101.rebuy_below` (000_: the player who lost 'has
    an opportunity to Re-Buy', at 1 + the highest score still in). C, out at 105 after hand
    2, is dealt into hand 3 at 51 with the ledger's rebuy row of 100.00 but no rebuy event:
    the ledger and the scores say C rebought, so the missing row is the one finding; C is
    back in at 51 and the ledger, which took C's rebuy and paid A the prize of 4 entries, is
    right (a blind tester's F24: five findings, a pool.score that kept C out and three
    critical ledger.balance on a ledger that balanced to the paisa)."""
    game, hands = _rebuy_row_only()
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.elimination", "g1", "h3", "C")]
    assert found.message == (
        "C was eliminated after hand 2 and is seated in hand 3 with no rebuy event, but the "
        "ledger's rebuy row of 100.00 for C and C's score of 51 going into hand 3 say C "
        "rebought after hand 2: the rebuy's game_events row is missing."
    )
    assert (found.expected, found.recorded) == ("a rebuy event after hand 2", "no rebuy event")
    judged = judge_pool(game, hands, RULES)
    assert [(e.after_hand_no, e.player, e.action, e.score) for e in judged.unwritten] == [
        (2, "C", "rebuy", 51)]
    assert (judged.winner, judged.standings[2].rebuys, judged.standings[3].scores["C"]) == (
        "A", 1, 61)
    # a new score the record counts on from that is not the rules': said in the one finding
    (off,) = game_checks(*_rebuy_row_only(60), RULES)
    assert off.message.endswith(
        "say C rebought after hand 2 (by the rules the new score is 51, 1 + the highest score "
        "still in, 50): the rebuy's game_events row is missing.")
    # with no ledger rebuy row, C stays out: seated without a rebuy, the one finding (not
    # also C's score after hand 3, 61, "by the rules 105 + 10 = 115": C is out)
    (seated,) = run(*_rebuy_row_only(ledger_row=False))
    assert seated.message == (
        "C was eliminated after hand 2 but is seated in hand 3 without a rebuy.")


def test_pool_elimination_a_player_still_in_not_dealt_into_the_next_hand_is_one_finding_000(
) -> None:
    """`pool_101.elimination_score` (000_, 101 Pool: a player is out only at 101). C, at 30
    after hand 1, is not dealt into hand 2, with no elimination recorded: one finding, and
    C is out from then on, so A, the last player left after B's 110, rightly won (it passed
    in silence)."""
    points = [{"A": 0, "B": 20, "C": 30}, {"A": 0, "B": 90}]
    events = [ev(2, "B", "eliminated", 110), ev(2, "A", "game_won")]
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("A", "prize", "270.00"),
              (None, "rake", "30.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.elimination", "g1", "h2", "C")]
    assert found.message == (
        "C was still in after hand 1 with 30, below the 101 that eliminates, but is not "
        "dealt into hand 2: neither an elimination nor their leaving the game (a drop with "
        "reason left) is recorded."
    )
    assert judge_pool(game, hands, RULES).winner == "A"


def test_pool_elimination_a_player_written_out_below_the_threshold_is_one_finding_000() -> None:
    """`pool_101.elimination_score`: C, recorded as eliminated at 101 after hand 2 with 99
    by the rules, is not dealt into hand 3: the refused row is the one finding, not also C
    "not dealt into hand 3" (the demo night's planted pool score)."""
    points = [{"A": 0, "B": 20, "C": 30}, {"A": 0, "B": 30, "C": 69}, {"A": 0, "B": 60}]
    events = [ev(2, "C", "eliminated", 101), ev(3, "B", "eliminated", 110),
              ev(3, "A", "game_won")]  # fmt: skip
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("A", "prize", "270.00"),
              (None, "rake", "30.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert keys([found]) == [("pool.elimination", "g1", "h2", "C")]
    assert "below the 101 that eliminates" in found.message


def test_pool_elimination_a_row_written_after_a_hand_played_while_out_says_so_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool): B reaches 110 after hand 2, is dealt
    into hand 3 and only then written out. The finding says the elimination is recorded a
    hand late, after a hand B played while out, not that none was recorded (a blind
    tester: a support agent would tell the player they were never eliminated)."""
    points = [{"A": 0, "B": 80, "C": 10}, {"A": 0, "B": 30, "C": 20}, {"A": 20, "B": 0, "C": 0}]
    game, hands = pool_game(points, [ev(3, "B", "eliminated", 110)])
    found = [f for f in game_checks(game, hands, RULES) if f.check == "pool.elimination"]
    assert found[0].message == (
        "B reached 110 after hand 2, which eliminates at 101, but their elimination is "
        "recorded only after hand 3: they played 1 hand while out."
    )


def test_pool_elimination_a_row_written_two_hands_late_says_so_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool): B reaches 110 after hand 2 and plays
    hands 3 and 4 before the row that writes them out: recorded two hands late, not "no
    elimination was recorded" (a blind tester's row two hands late read so). The game
    view says hand 4 B played while out after hand 2, not 3."""
    points = [{"A": 0, "B": 80, "C": 10}, {"A": 0, "B": 30, "C": 20}, {"A": 20, "B": 0, "C": 0},
              {"A": 0, "B": 5, "C": 10}]  # fmt: skip
    game, hands = pool_game(points, [ev(4, "B", "eliminated", 115)])
    found = [f for f in game_checks(game, hands, RULES) if f.check == "pool.elimination"]
    assert found[0].message == (
        "B reached 110 after hand 2, which eliminates at 101, but their elimination is "
        "recorded only after hand 4: they played 2 hands while out."
    )
    judged = judge_pool(game, hands, RULES)
    assert played_out(judged, hands, hands[3]) == {"B": 2}


def test_game_events_action_a_pool_game_that_ended_with_no_row_is_one_finding_000() -> None:
    """log-format.md, game_events (eliminated, rebuy, split, game_won): a pool game that
    ended records its eliminations and how it ended there. One that ended with no row at
    all is one `game.unchecked`, major, and its scores, eliminations, rebuys, winner and
    the money resting on them are not judged as if no one had been out or rebought (a
    blind tester's such game: 22 findings, 8 critical ledger alarms about rebuys "not
    owed"). The ledger's own balance is still checked."""
    points = [{"A": 0, "B": 80, "C": 50}, {"A": 0, "B": 30, "C": 60}]
    events = [ev(2, "B", "eliminated", 110), ev(2, "C", "eliminated", 110),
              ev(2, "A", "game_won")]  # fmt: skip
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("A", "prize", "270.00"),
              (None, "rake", "30.00")]  # fmt: skip
    game, hands = pool_game(points, events, ledger, ended=True)
    assert game_checks(game, hands, RULES) == []
    game.game_events = []
    (found,) = game_checks(game, hands, RULES)
    assert (found.check, found.severity.value) == ("game.unchecked", "major")
    assert found.message == (
        "Game g1 ended, but game_events holds no row of it, though a pool game records its "
        "eliminations, rebuys and how it ended (game_won or split) there, so its running "
        "scores, eliminations, rebuys, splits and winner were not checked."
    )
    game.ledger[-1] = game.ledger[-1]._replace(amount=game.ledger[-1].amount + 1)
    assert [f.check for f in game_checks(game, hands, RULES)] == ["game.unchecked",
                                                                  "ledger.balance"]  # fmt: skip


def test_ledger_prize_a_prize_written_as_a_refund_is_one_finding_000() -> None:
    """log-format.md, ledger (`prize`, `refund`; schemas/money.md: the winner of a pool
    game is paid the prize, and a game played to its end pays no refund): A's prize of
    180.00 is written as a refund. One finding says the row's kind is wrong, not that A
    was never paid and a refund not owed was paid (a blind tester: two critical
    findings, the first telling the winner they were never paid)."""
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won")]
    ledger = [*LEDGER[:2], ("A", "refund", "180.00"), (None, "rake", "20.00")]
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert (found.check, found.player_id, found.expected, found.recorded) == (
        "ledger.balance", "A", "prize 180.00", "refund 180.00")
    assert found.message == (
        "The 180.00 paid to A as a refund is the prize they won (180.00): the ledger writes "
        "that row as a refund, not a prize."
    )
    game.ledger[2] = game.ledger[2]._replace(amount=game.ledger[2].amount - 1)
    assert len(game_checks(game, hands, RULES)) == 2  # a refund of another amount: both stand


def test_pool_split_a_share_paid_a_paisa_wrong_is_one_finding_000() -> None:
    """`pool_101.auto_split_above` (000_ worked example: 85 and 88, the prize of 180.00
    split equally, 90.00 each) and schemas/money.md step 2 (the balance's finding is left
    out when the other findings account for it): A's share paid 90.01 is its one
    `pool.split`, not also the game paying out 0.01 too much (a blind tester: two, where a
    points settlement row off by 0.01 is one)."""
    ledger = [("A", "buy_in", "-100.00"), ("B", "buy_in", "-100.00"), ("A", "split", "90.01"),
              ("B", "split", "90.00"), (None, "rake", "20.00")]  # fmt: skip
    game, hands = pool_game([{"A": 85, "B": 88}], [ev(1, None, "auto")], ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert (found.check, found.player_id, found.expected, found.recorded) == (
        "pool.split", "A", "90.00", "90.01")
    game.ledger[-1] = game.ledger[-1]._replace(amount=game.ledger[-1].amount + 1)
    assert sorted(f.check for f in game_checks(game, hands, RULES)) == [
        "ledger.balance", "ledger.balance", "pool.split"]


def test_pool_split_auto_split_due_not_made_is_found_once_000() -> None:
    """000_1729c72ad4c1f885.txt (`pool_101.auto_split_above`: "If the game progresses to a
    level that it meets with the conditions for Auto Split, Khelplayrummy.com will
    automatically execute the process of Auto Split"): after hand 1 A (85) and B (88) are
    both above 80, and the record plays on. The split not made is one fault: one
    `pool.split` on hand 1, saying how the game went on and ended, not one more on each
    later hand that still met the condition (a blind tester: one per hand)."""
    points = [{"A": 85, "B": 88}, {"A": 0, "B": 5}, {"A": 0, "B": 10}]
    # still running: one finding, on the first hand it was due after
    assert keys(run(*pool_game(points))) == [("pool.split", "g1", "h1", None)]
    # B out at 103 after hand 3, A named and paid the whole prize: the missed split is the
    # one pool finding (the money it left unpaid is the ledger's: the next test)
    events = [ev(3, "B", "eliminated", 103), ev(3, "A", "game_won")]
    game, hands = pool_game(points, events, LEDGER, ended=True)
    (found,) = run(game, hands)
    assert (found.check, found.hand_id, found.expected) == ("pool.split", "h1", "auto split")
    assert found.message == (
        "After hand 1 every player left (A, B) stood above 80 by the rules, so the prize "
        "should have been split automatically, but play went on to hand 2, and the record "
        "ends the game after hand 3, won by A, with no split."
    )
    assert judge_pool(game, hands, RULES).winner == "A"
    # still both above 80 when the record ends the game after hand 3 won by A: the game's
    # end is the same finding's (not a pool.winner for two players still in)
    game, hands = pool_game([*points[:2], {"A": 2, "B": 0}], [ev(3, "A", "game_won")], LEDGER,
                            ended=True)  # fmt: skip
    assert keys(run(game, hands)) == [("pool.split", "g1", "h1", None)]
    assert judge_pool(game, hands, RULES).winner is None
    # split only later: the same one finding says so, and the split is judged as recorded
    game, hands = pool_game(points[:2], [ev(2, None, "auto")], [
        ("A", "split", "90.00"), ("B", "split", "90.00"), (None, "rake", "20.00")])
    (found,) = run(game, hands)
    assert found.message.endswith(
        "but play went on to hand 2, and the game was split only after hand 2.")


SHARES = [("A", "buy_in", "-100.00"), ("B", "buy_in", "-100.00"),
          ("A", "split", "90.00"), ("B", "split", "90.00"), (None, "rake", "20.00")]  # fmt: skip
"""A and B at 100.00, 10% rake: the prize of 180.00 split automatically, 90.00 each."""


def test_pool_split_auto_split_due_not_made_owes_the_shares_not_the_prize_000() -> None:
    """000_1729c72ad4c1f885.txt (`pool_101.auto_split_above`: "The Prize amount or table
    amount is equally split among all active eligible players in Auto Split"): after hand 1
    A (85) and B (88) are both above 80, so the game ends there in equal shares of 90.00;
    the record plays on to hand 3, names A the winner and pays A the whole prize of 180.00.
    Beside the missed split's one pool.split, the money really went wrong: A was paid 90.00
    too much and B is owed 90.00, a ledger.balance each (a blind tester: the missed split
    was the only finding, B's share said nowhere). The same when the record ends the game
    at hand 1 itself, naming A the winner."""
    points = [{"A": 85, "B": 88}, {"A": 0, "B": 5}, {"A": 0, "B": 10}]
    played_on = pool_game(points, [ev(3, "B", "eliminated", 103), ev(3, "A", "game_won")],
                          LEDGER, ended=True)  # fmt: skip
    ended_there = pool_game(points[:1], [ev(1, "A", "game_won")], LEDGER, ended=True)
    lead = ("The prize should have been split automatically after hand 1, when every player "
            "left (A and B) stood above 80: 180.00 in 2 equal shares of 90.00. ")  # fmt: skip
    for game, hands in (played_on, ended_there):
        found = game_checks(game, hands, RULES)
        assert keys(found) == [("ledger.balance", "g1", None, "A"),
                               ("ledger.balance", "g1", None, "B"),
                               ("pool.split", "g1", "h1", None)]  # fmt: skip
        paid_a, owed_b = found[:2]
        assert (paid_a.expected, paid_a.recorded, owed_b.expected, owed_b.recorded) == (
            "90.00", "180.00", "90.00", "0.00")  # fmt: skip
        assert paid_a.message == lead + (
            "A's share is 90.00, but the ledger paid them 180.00 as a prize, 90.00 too much.")
        assert owed_b.message == lead + (
            "B is owed 90.00: their share is 90.00, and the ledger paid them nothing.")
        assert paid_a.rule.startswith("pool_101.auto_split_above: ")
        assert paid_a.severity.name.lower() == "critical"


def test_pool_split_auto_split_due_not_made_whose_shares_were_paid_is_one_finding_000() -> None:
    """000_ (`pool_101.auto_split_above`): the split due after hand 1 is not recorded (no
    split event; A is named the winner), but the ledger pays the rules' equal shares in
    split rows. The money is right: the missed split's pool.split is the one finding, not
    also a ledger.balance per split row "in a game that records no split" (a blind tester:
    two critical false alarms on an honest ledger, 45 games). A rebuy after hand 1, one the
    rules refuse (every player left stood above 80), is counted as recorded, as every
    rebuy of a player who was out is: its fee is in the prize the players left after hand 1
    share (4 entries: 360.00, 120.00 each), so the rows still balance."""
    points = [{"A": 85, "B": 88}, {"A": 0, "B": 5}, {"A": 0, "B": 10}]
    events = [ev(3, "B", "eliminated", 103), ev(3, "A", "game_won")]
    game, hands = pool_game(points, events, SHARES, ended=True)
    assert keys(game_checks(game, hands, RULES)) == [("pool.split", "g1", "h1", None)]
    three = [{"A": 85, "B": 88, "C": 90}, {"A": 0, "B": 5, "C": 20}, {"A": 0, "B": 0, "C": 50}]
    events = [ev(2, "C", "eliminated", 110), ev(2, "C", "rebuy", 40)]
    ledger = [(p, "buy_in", "-100.00") for p in "ABC"] + [("C", "rebuy", "-100.00")] + [
        (p, "split", "120.00") for p in "ABC"] + [(None, "rake", "40.00")]  # fmt: skip
    game, hands = pool_game(three, [*events, ev(3, "A", "game_won")], ledger, ended=True)
    assert keys(game_checks(game, hands, RULES)) == [("pool.split", "g1", "h1", None),
                                                     ("pool.rebuy", "g1", "h2", "C")]  # fmt: skip
    # the whole prize paid to the winner instead: each share is the ledger's finding
    paid = [row for row in ledger if row[1] != "split"] + [("A", "prize", "360.00")]
    game, hands = pool_game(three, [*events, ev(3, "A", "game_won")], paid, ended=True)
    found = [f for f in game_checks(game, hands, RULES) if f.check == "ledger.balance"]
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("A", "120.00", "360.00"), ("B", "120.00", "0.00"), ("C", "120.00", "0.00")]


def test_pool_split_auto_split_due_again_after_a_refused_rebuy_is_not_found_again_000() -> None:
    """000_ (`pool_101.auto_split_above`, `pool_101.rebuy_below`): the split was due after
    hand 1 (85, 88, 90) and not made; C, out at 110 after hand 2, rebuys at 40 though the
    highest score still in is 93 (a rebuy the rules refuse: its own finding), which brings
    the table out of the condition until hand 3 puts C at 90 again. The game should have
    ended after hand 1: meeting the condition again is the same split not made, not a
    second one (the money owed is hand 1's split)."""
    points = [{"A": 85, "B": 88, "C": 90}, {"A": 0, "B": 5, "C": 20}, {"A": 0, "B": 0, "C": 50}]
    events = [ev(2, "C", "eliminated", 110), ev(2, "C", "rebuy", 40)]
    found = run(*pool_game(points, events))
    assert keys(found) == [("pool.split", "g1", "h1", None), ("pool.rebuy", "g1", "h2", "C")]


def test_pool_elimination_a_refused_elimination_that_ended_the_game_says_the_prize_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool: a player is out at 101) and
    schemas/money.md step 4: B is recorded as eliminated at 50 after hand 1, which left A
    alone; the record names A the winner and the ledger pays A the prize of 180.00. By the
    rules B is still in and the game goes on, so the prize was paid to a player the rules
    do not yet make the winner. That is what the one wrong elimination did: its one finding
    says it (a blind tester found it said only in the explain view, "not compared"), not a
    second finding on the prize, the ledger being judged against the recorded winner."""
    events = [ev(1, "B", "eliminated", 50), ev(1, "A", "game_won")]
    game, hands = pool_game([{"A": 0, "B": 50}], events, LEDGER, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert (found.check, found.player_id, found.recorded) == ("pool.elimination", "B",
                                                              "eliminated")  # fmt: skip
    assert found.message == (
        "B is recorded as eliminated after hand 1, but has 50 by the rules, below the 101 "
        "that eliminates, and no drop with reason left records B leaving the game: B is "
        "still in. That elimination ended the game: A, the only player left, was named the "
        "winner and paid the prize of 180.00, while by the rules the game should have gone "
        "on (A and B were still in)."
    )
    assert judge_pool(game, hands, RULES).winner is None
    # two refused after the hand: each says so, naming the other; no ledger rows, no money
    three = [{"A": 0, "B": 50, "C": 60}]
    events = [ev(1, "B", "eliminated", 50), ev(1, "C", "eliminated", 60), ev(1, "A", "game_won")]
    found = game_checks(*pool_game(three, events, ended=True), RULES)
    assert [(f.check, f.player_id) for f in found] == [("pool.elimination", "B"),
                                                       ("pool.elimination", "C")]  # fmt: skip
    assert found[0].message.endswith(
        "B is still in. That elimination, with C's, ended the game: A, the only player left, "
        "was named the winner, while by the rules the game should have gone on (A, B and C "
        "were still in).")
    # a refused elimination in a game that goes on ended nothing: the words are not there
    assert "ended the game" not in run(*pool_game(
        [{"A": 0, "B": 50, "C": 60}, {"A": 0, "C": 10}], [ev(1, "B", "eliminated", 50)]))[0].message


def test_pool_elimination_a_refused_elimination_then_dealt_out_says_who_won_without_them_000(
) -> None:
    """`pool_101.elimination_score` (000_, 101 Pool: a player is out at 101): B is recorded
    as eliminated at 50 after hand 1 of 3 and never dealt again; A and C play hand 2, C is
    rightly out, and A is named the winner and paid 270.00. The one finding on B's row
    says what it did: the game went on without B and was won and paid while by the rules B
    was still in (before, it said only "B is still in")."""
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("A", "prize", "270.00"),
              (None, "rake", "30.00")]  # fmt: skip
    points = [{"A": 0, "B": 50, "C": 60}, {"A": 0, "C": 50}]
    events = [ev(1, "B", "eliminated", 50), ev(2, "C", "eliminated", 110),
              ev(2, "A", "game_won")]  # fmt: skip
    (found,) = game_checks(*pool_game(points, events, ledger, ended=True), RULES)
    assert (found.check, found.hand_id, found.player_id) == ("pool.elimination", "h1", "B")
    assert found.message.endswith(
        "B is still in. B was dealt into no later hand: the game went on without them and "
        "the record ends it after hand 2, A named the winner and paid the prize of 270.00, "
        "while by the rules B was still in it.")
    # dealt again, B's refused row ended nothing: the words are not there
    again = [{"A": 0, "B": 50, "C": 60}, {"A": 0, "B": 0, "C": 50}, {"A": 0, "B": 60}]
    events = [ev(1, "B", "eliminated", 50), ev(2, "C", "eliminated", 110),
              ev(3, "B", "eliminated", 110), ev(3, "A", "game_won")]  # fmt: skip
    messages = [f.message for f in game_checks(*pool_game(again, events, ended=True), RULES)]
    assert messages
    assert not any("dealt into no later hand" in m for m in messages)


def test_pool_elimination_a_player_kept_in_past_the_score_ends_the_game_there_000() -> None:
    """`pool_101.elimination_score` (000_, 101 Pool: a player whose score reaches 101 is out;
    the game ends when one player is left). B reaches 110 after hand 2 with no eliminated row;
    the record deals hand 3, puts A out at 101 and names B the winner. By the rules the game
    ended after hand 2, A the last player left: the missed elimination is the one finding
    of the pool's, its words saying A won and the record named B (a blind tester: one
    elimination missed was three findings, where one refused was one); hand 3 is not
    judged, and the ledger is judged against A (a blind tester: the prize paid to B was
    said to agree, the one paid to A called wrong, twice critical): A's prize paid to B is
    one finding on B, naming A, the money's own."""
    points = [{"A": 0, "B": 60}, {"A": 0, "B": 50}, {"A": 101, "B": 0}]
    events = [ev(3, "A", "eliminated", 101), ev(3, "B", "game_won")]
    to_b = [*LEDGER[:2], ("B", "prize", "180.00"), (None, "rake", "20.00")]
    game, hands = pool_game(points, events, to_b, ended=True)
    found = game_checks(game, hands, RULES)
    assert sorted((f.check, f.player_id) for f in found) == [
        ("ledger.balance", "B"), ("pool.elimination", "B"),
    ]  # fmt: skip
    (paid,) = [f for f in found if f.check == "ledger.balance"]
    assert (paid.expected, paid.recorded) == ("A", "B")
    (missed,) = [f for f in found if f.check == "pool.elimination"]
    assert missed.message.endswith(
        "but no elimination was recorded. That left A the last player in after hand 2: by "
        "the rules A won the game then, but the record dealt on to hand 3 and names B the "
        "winner."
    )
    assert judge_pool(game, hands, RULES).winner == "A"
    game, hands = pool_game(points, events, LEDGER, ended=True)  # the prize paid to A
    assert sorted(f.check for f in game_checks(game, hands, RULES)) == ["pool.elimination"]


def test_game_unchecked_a_pool_games_rows_in_part_and_a_game_events_file_unread_000() -> None:
    """`tables.files` (schemas/README.md: "What rests on a quarantined row is not judged
    without it"): a pool game holds some of its game_events rows and a game_events file
    could not be read. What its rows do not add up to (C's elimination after hand 2 not
    here, so C "not dealt into" hand 3 and A's prize "not owed") is one `game.unchecked`
    naming the file and what does not add up, not pool and critical ledger findings
    (a blind tester: half of a pool game's rows in a truncated file were 3 critical ledger
    alarms and 5 pool findings). A game whose rows add up is judged as before."""
    ledger = [*LEDGER[:2], ("C", "buy_in", "-100.00"), ("A", "prize", "270.00"),
              (None, "rake", "30.00")]  # fmt: skip
    points = [{"A": 0, "B": 20, "C": 30}, {"A": 0, "B": 30, "C": 80}, {"A": 0, "B": 60}]
    events = [ev(3, "B", "eliminated", 110), ev(3, "A", "game_won")]  # C's row unread
    damaged = {"game_events": ["game_events/late.parquet"]}
    game, hands = pool_game(points, events, ledger, ended=True)
    assert {f.check for f in game_checks(game, hands, RULES)} >= {"pool.elimination"}
    (found,) = game_checks(game, hands, RULES, damaged=damaged)
    assert (found.check, found.severity.value, found.hand_id) == ("game.unchecked", "info", None)
    assert found.message.startswith(
        "Game g1's game_events rows do not add up, and game_events/late.parquet could not be "
        "read and may hold the rest of them, so its running scores, eliminations, rebuys, "
        "splits and winner were not checked; what does not add up: ")
    # all its rows here, the game adds up: judged, no note
    whole = [ev(2, "C", "eliminated", 110), *events]
    assert game_checks(*pool_game(points, whole, ledger, ended=True), RULES,
                       damaged=damaged) == []  # fmt: skip


def test_ledger_prize_paid_to_another_player_is_one_finding_000() -> None:
    """schemas/money.md, step 3 (a row written under another player is one finding on the
    player it is under) and `ledger.prize` (the prize is paid to the winner): A, the last
    player left, won, and the ledger pays the whole prize of 180.00 to B. One critical
    finding on B names both, not "B did not win the game but the ledger paid them a
    prize" and "A ... should be paid the prize ... but the ledger paid 0.00" (a blind
    tester: two findings for one row). A prize paid in part to another player keeps a
    finding each."""
    points = [{"A": 0, "B": 80}, {"A": 0, "B": 21}]
    events = [ev(2, "B", "eliminated", 101), ev(2, "A", "game_won")]
    ledger = [*LEDGER[:2], ("B", "prize", "180.00"), (None, "rake", "20.00")]
    game, hands = pool_game(points, events, ledger, ended=True)
    (found,) = game_checks(game, hands, RULES)
    assert (found.check, found.severity.value, found.player_id, found.expected,
            found.recorded) == ("ledger.balance", "critical", "B", "A", "B")  # fmt: skip
    assert found.message == (
        "The prize of 180.00 is paid to B, but A won game g1 and is paid nothing: the prize "
        "row is under the wrong player."
    )
    assert found.rule.startswith("ledger.prize: ")
    part = [*LEDGER[:2], ("A", "prize", "80.00"), ("B", "prize", "100.00"),
            (None, "rake", "20.00")]  # fmt: skip
    game, hands = pool_game(points, events, part, ended=True)
    assert [(f.player_id, f.expected, f.recorded) for f in game_checks(game, hands, RULES)] == [
        ("A", "180.00", "80.00"), ("B", "0.00", "100.00")]  # fmt: skip


def test_called_off_pool_game_with_every_entry_refunded_has_no_game_events_finding_000() -> None:
    """schemas/money.md, "Called off": a game called off ends with no winner, and only its
    balance and refunds are checked. The contract has no game event for a game called off,
    so a pool game called off after one hand, every entry refunded, has no game_events row
    to write: no `game.unchecked` says "game_events holds no row of it" (a blind tester's
    honest game had it at major, beside explain's "The game was called off"). Refunds to
    only some players, or a prize beside the refunds, do not call it off: the finding
    stands."""
    points = [{"A": 0, "B": 30, "C": 50}]
    stakes = [(p, "buy_in", "-100.00") for p in "ABC"]
    game, hands = pool_game(points, (), [*stakes, *((p, "refund", "100.00") for p in "ABC")],
                            ended=True)  # fmt: skip
    assert game_checks(game, hands, RULES) == []
    some = [*stakes, *((p, "refund", "100.00") for p in "AB"), (None, "rake", "100.00")]
    prized = [*stakes, *((p, "refund", "90.00") for p in "ABC"), ("A", "prize", "30.00")]
    for ledger in (some, prized):
        game, hands = pool_game(points, (), ledger, ended=True)
        assert [f.check for f in game_checks(game, hands, RULES)] == ["game.unchecked"]


def test_pool_split_a_share_paid_to_another_player_is_one_finding_000() -> None:
    """`pool_101.auto_split_above` (000_: "The Prize amount or table amount is equally
    split among all active eligible players in Auto Split") and schemas/money.md, step 3
    (a row written under another player is one finding on the player it is under, as a
    prize row): A and B are split 90.00 each, and B's share is paid to X, who never sat at
    the table. One critical finding on X names both, not "X was paid 90.00 ... their
    share is 0.00" and "B was paid nothing" (a blind tester: two major findings for one
    row, where the same fault on a prize row is one critical). Like the prize's, it is the
    game's finding, naming no hand (schemas/output.md). B's share in a second row
    under A is one finding on A; a part of B's share paid to X keeps a finding each."""
    split = [*LEDGER[:2], ("A", "split", "90.00"), (None, "rake", "20.00")]
    game, hands = pool_game([{"A": 85, "B": 88}], [ev(1, None, "auto")],
                            [*split, ("X", "split", "90.00")], ended=True)  # fmt: skip
    (found,) = game_checks(game, hands, RULES)
    assert (found.check, found.severity.value, found.hand_id, found.player_id, found.expected,
            found.recorded) == ("ledger.balance", "critical", None, "X", "B", "X")  # fmt: skip
    assert found.message == (
        "B's share of 90.00 in the automatic split after hand 1 is paid to X, who never sat "
        "at the table, and B is paid nothing: the split row is under the wrong player."
    )
    assert found.rule.startswith("pool_101.auto_split_above: ")
    # practice chips: no real money moved, info as every ledger.balance of such a game
    practice = game_checks(replace(game, chip_type="practice"), hands, RULES)
    assert [(f.check, f.severity.value) for f in practice] == [("ledger.balance", "info")]
    game, hands = pool_game([{"A": 85, "B": 88}], [ev(1, None, "auto")],
                            [*split, ("A", "split", "90.00")], ended=True)  # fmt: skip
    assert [(f.check, f.player_id, f.message) for f in game_checks(game, hands, RULES)] == [(
        "ledger.balance", "A", "B's share of 90.00 in the automatic split after hand 1 is paid "
        "to A, whose own share is 90.00, and B is paid nothing: the split row is under the "
        "wrong player.")]  # fmt: skip
    game, hands = pool_game([{"A": 85, "B": 88}], [ev(1, None, "auto")],
                            [*split, ("X", "split", "45.00"), ("B", "split", "45.00")],
                            ended=True)  # fmt: skip
    assert [(f.check, f.player_id) for f in game_checks(game, hands, RULES)] == [
        ("pool.split", "B"), ("pool.split", "X")]  # fmt: skip


# ---------------------------------------------------------------- a refused verdict


def _refused_last_hand(b_charged: int) -> tuple[list[dict[str, int]], dict[str, Any]]:
    """A and B in 101 pool: A at 80, B at 30 after hand 2; in hand 3 the platform accepts
    A's invalid declaration as a win (A charged 0) and charges B ``b_charged``. By the
    rules A is charged the 80 (`declaration.invalid_penalty`) and B, the last player left
    in the hand, wins it at 0 (`turns.last_player`)."""
    points = [{"A": 80, "B": 0}, {"A": 0, "B": 30}, {"A": 0, "B": b_charged}]
    said = {"h3": {"A": Expected("invalid_declare", 80, "declaration.invalid_penalty",
                                 "the declaration was invalid"),
                   "B": Expected("won", 0, "turns.last_player",
                                 "was the last player left in the hand")}}  # fmt: skip
    return points, said


def test_declaration_invalid_penalty_eliminations_and_winner_that_follow_it_are_one_finding() -> (
    None
):
    """docs/replay.md ("each such row is one pool.elimination, and what follows from it is
    not flagged again") and 001_42b102d6f12eaa06.txt ('Invalid declarations receive an
    80-point penalty'): the only fault is hand 3's invalid declaration recorded as A's win
    (the hand's declare.verdict). The record then eliminates B at 110, and names A the
    winner and pays A the prize; by the rules A is out at 160 and B, still in at 30, wins.
    Those eliminations and the winner follow from the verdict alone: no pool finding, said
    in the verdict's words (``PoolJudgement.told``); the prize paid to A is money that
    moved, its own ledger.balance (schemas/money.md). A blind tester: five findings."""
    points, said = _refused_last_hand(80)
    events = [ev(3, "B", "eliminated", 110), ev(3, "A", "game_won")]
    game, hands = pool_game(points, events, LEDGER, ended=True)
    judged = judge_pool(game, hands, RULES, expected=said)
    assert (judged.findings, judged.winner) == ((), "B")
    assert judged.told == {"h3": (
        "; in game g1, by the rules, A's penalty puts A out at 160 (80 recorded) and B stays "
        "in at 30 (110 recorded, eliminated), so B, the last player left, wins the game, "
        "recorded as won by A")}  # fmt: skip
    (paid,) = game_checks(game, hands, RULES, expected=said)
    assert (paid.check, paid.player_id, paid.expected, paid.recorded) == (
        "ledger.balance", "A", "B", "A")  # fmt: skip


def test_pool_elimination_wrong_by_the_records_own_score_beside_a_refused_verdict_stands() -> (
    None
):
    """docs/replay.md (one error, one finding): as above, but B is charged 60 in hand 3,
    reaching 90 by the record's own count, and is recorded as eliminated all the same. That
    row is wrong for a reason of its own (the record's score does not eliminate B), so it
    stays a pool.elimination, and the game's winner, resting on it too, stays a pool.winner
    beside A's missing elimination: the game's story is not the verdict's alone, so nothing
    is said in the verdict's words."""
    points, said = _refused_last_hand(60)
    events = [ev(3, "B", "eliminated", 90), ev(3, "A", "game_won")]
    game, hands = pool_game(points, events, LEDGER, ended=True)
    judged = judge_pool(game, hands, RULES, expected=said)
    assert keys(list(judged.findings)) == [("pool.elimination", "g1", "h3", "A"),
                                           ("pool.elimination", "g1", "h3", "B"),
                                           ("pool.winner", "g1", "h3", "B")]  # fmt: skip
    assert judged.told == {}
