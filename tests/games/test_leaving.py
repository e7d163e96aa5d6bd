"""A player who leaves a pool or deals game for good (audit/games/leaving.py; docs/replay.md,
"Pool games at game level" and "Money"; schemas/README.md, "Choices where the contract is
silent"). The contract records leaving the table by a ``drop`` with reason ``left`` and has
no game event for quitting a game; the seeds (000_1729c72ad4c1f885.txt) are silent on
leaving a pool or deals game. The audit reads a ``left`` drop in a hand, the player dealt
into no later hand, as their leaving the game after it: a forfeit, with no finding. A blind
tester writing an honest platform's logs could log no such player without a ``major``
finding; the games here are the shapes of that tester's repro (LV0 to LV4)."""

from __future__ import annotations

import doctest
from decimal import Decimal

from audit.games import leaving, poolwords
from audit.games.deals import check_deals, deals_winner, judge_deals
from audit.games.pool import judge_pool
from audit.records import NO_CARD, Event, GameEvent, Hand, LedgerRow
from audit.unit import game_checks
from tests.games.test_deals import deal
from tests.games.test_deals import game as deals_game
from tests.games.test_pool import RULES, ev, keys, pool_game, run

ENTRIES = [("A", "buy_in", "-100.00"), ("B", "buy_in", "-100.00"), ("C", "buy_in", "-100.00")]
"""Three players at 100.00, 10% rake: a prize of 270.00, 30.00 of rake."""


def left(hand: Hand, *players: str) -> Hand:
    """``hand`` with a ``drop`` row, reason ``left`` (``auto`` true), for each of
    ``players``: the server taking them out as they leave the table."""
    for player in players:
        hand.events.append(Event(len(hand.events) + 1, player, "drop", NO_CARD, None, True,
                                 "left"))  # fmt: skip
    return hand


def test_doctests_of_the_leaving_and_pool_words_modules() -> None:
    for module in (leaving, poolwords):
        assert doctest.testmod(module).failed == 0


# ---------------------------------------------------------------- pool


def test_pool_a_player_who_left_and_is_dealt_in_no_more_is_out_without_a_finding() -> None:
    """docs/replay.md (a player who leaves the game; the seeds are silent): C leaves in hand
    2 (a drop with reason left) and is dealt into no later hand. C is out after hand 2 at 40,
    below 101, with no finding and no ``eliminated`` row needed; A and B play on."""
    points = [{"A": 0, "B": 20, "C": 20}, {"A": 20, "B": 0, "C": 20}, {"A": 0, "B": 30}]
    game, hands = pool_game(points)
    left(hands[1], "C")
    judged = judge_pool(game, hands, RULES)
    assert judged.findings == ()
    assert [judged.standings[n].active for n in (1, 2, 3)] == [
        ("A", "B", "C"), ("A", "B"), ("A", "B")]


def test_pool_the_last_player_left_after_two_leave_mid_hand_wins_and_is_paid_lv3() -> None:
    """The blind tester's LV3: B and C both leave in hand 2 (drops with reason left, auto);
    A, the only one left, is recorded as winning and paid the prize. Until 2026-12-06 a
    major ``pool.winner`` ("after hand 2 3 players were still in"); now clean, and A is the
    winner the ledger's prize is judged against."""
    points = [{"A": 20, "B": 20, "C": 0}, {"B": 20, "C": 20, "A": 0}]
    ledger = [*ENTRIES, ("A", "prize", "270.00"), (None, "rake", "30.00")]
    game, hands = pool_game(points, [ev(2, "A", "game_won")], ledger, ended=True)
    left(hands[1], "C", "B")
    assert game_checks(game, hands, RULES) == []
    assert judge_pool(game, hands, RULES).winner == "A"


def test_pool_a_player_who_left_is_paid_no_prize() -> None:
    """A player out by leaving forfeits the prize: with C gone in hand 2, A is the last
    player left and the rules' winner, so a game recorded as won by C, who left, and its
    prize paid to C are findings (the winner's and the ledger's: A's whole prize in a row
    under C is one finding on C naming A, schemas/money.md step 3)."""
    points = [{"A": 20, "B": 20, "C": 0}, {"B": 20, "C": 20, "A": 0}]
    ledger = [*ENTRIES, ("C", "prize", "270.00"), (None, "rake", "30.00")]
    game, hands = pool_game(points, [ev(2, "C", "game_won")], ledger, ended=True)
    left(hands[1], "C", "B")
    found = game_checks(game, hands, RULES)
    winner = [f for f in found if f.check == "pool.winner"]
    assert [f.message for f in winner] == [
        "A is the last player left in game g1, but the game is recorded as won by C."]
    assert [(f.player_id, f.expected, f.message) for f in found
            if f.check == "ledger.balance"] == [(
        "C", "A", "The prize of 270.00 is paid to C, but A is the rules' winner of game g1 "
        "and is paid nothing: the prize row is under the wrong player.")]  # fmt: skip
    assert judge_pool(game, hands, RULES).winner == "A"


def test_pool_an_eliminated_row_for_a_leaver_at_their_score_is_accepted() -> None:
    """schemas/README.md: the platform may also write an ``eliminated`` row for the player
    who left, at their score: C leaves in hand 1 at 20, below 101, and is written out
    after it at 20. No finding (until 2026-12-06: "C is still in")."""
    points = [{"A": 0, "B": 20, "C": 20}, {"A": 20, "B": 0}]
    game, hands = pool_game(points, [ev(1, "C", "eliminated", 20)])
    left(hands[0], "C")
    assert run(game, hands) == []


def test_pool_an_eliminated_row_for_a_leaver_at_another_score_is_one_finding() -> None:
    """`pool_101.elimination_score`: the leaver's ``eliminated`` row still carries their
    score: C left at 20 and is written out at 25, one finding on the score, as for any
    elimination row."""
    points = [{"A": 0, "B": 20, "C": 20}, {"A": 20, "B": 0}]
    game, hands = pool_game(points, [ev(1, "C", "eliminated", 25)])
    left(hands[0], "C")
    (found,) = run(game, hands)
    assert keys([found]) == [("pool.elimination", "g1", "h1", "C")]
    assert found.message == (
        "C's elimination after hand 1 is recorded with a score of 25, but by the rules "
        "their score was 20.")


def test_pool_a_leaver_dealt_in_again_is_still_in_lv0() -> None:
    """The blind tester's LV0 (the one logging that passed before): C leaves in hand 1 but
    is dealt into hand 2 again (the platform dropping them, reason left, each hand until
    their score puts them out): C is still in after hand 1, and no finding."""
    points = [{"A": 0, "B": 20, "C": 20}, {"A": 20, "B": 0, "C": 20}]
    game, hands = pool_game(points)
    left(hands[0], "C")
    left(hands[1], "C")
    judged = judge_pool(game, hands, RULES)
    assert judged.findings == ()
    assert judged.standings[1].active == ("A", "B", "C")
    assert judged.standings[2].active == ("A", "B")  # left in hand 2, the last one dealt


def test_pool_elimination_a_leaver_dealt_in_again_and_playing_is_one_finding_b105() -> None:
    """schemas/README.md ("A player who leaves"): the blind tester's F10. C leaves in hand 1,
    is dealt into hand 2 and charged 80 (not dropped with reason left), and B is out at
    160 after it: one ``pool.elimination`` at hand 2 (C kept in after leaving), and A is
    the last player in, so the recorded winner stands (until 2026-12-07 no finding on the
    leaver, and a ``pool.winner`` saying A and C were still in)."""
    points = [{"A": 0, "B": 80, "C": 20}, {"A": 0, "B": 80, "C": 80}]
    events = [ev(2, "B", "eliminated", 160), ev(2, "A", "game_won")]
    game, hands = pool_game(points, events, ended=True)
    left(hands[0], "C")
    judged = judge_pool(game, hands, RULES)
    assert [(f.check, f.hand_id, f.player_id, f.expected, f.recorded)
            for f in judged.findings] == [
        ("pool.elimination", "h2", "C", "out (left in hand 1)", "dealt in")]  # fmt: skip
    assert "a player who leaves a 101 pool game is dealt into no later hand of it" in (
        judged.findings[0].message)
    assert judged.standings[2].active == ("A",)


def test_pool_elimination_a_player_not_dealt_in_again_with_no_leaving_says_what_records_it_lv1(
) -> None:
    """`pool_101.elimination_score`, the blind tester's LV1: C, still in at 0 after hand 1,
    is simply not dealt into hand 2, with neither a drop with reason left nor an
    elimination: still one major finding (a player wrongly removed would otherwise pass),
    whose words now say what would have recorded C's leaving."""
    points = [{"A": 20, "B": 20, "C": 0}, {"A": 0, "B": 20}]
    game, hands = pool_game(points)
    (found,) = run(game, hands)
    assert keys([found]) == [("pool.elimination", "g1", "h2", "C")]
    assert found.severity == "major"
    assert found.message == (
        "C was still in after hand 1 with 0, below the 101 that eliminates, but is not "
        "dealt into hand 2: neither an elimination nor their leaving the game (a drop with "
        "reason left) is recorded.")


def test_pool_elimination_a_player_written_out_below_101_with_no_leaving_is_one_finding_lv2(
) -> None:
    """`pool_101.elimination_score`, the blind tester's LV2: C is written out at 0 after
    hand 1 and dealt in no more, but no drop with reason left records C leaving: still one
    major finding, whose words say what was missing."""
    points = [{"A": 20, "B": 20, "C": 0}, {"A": 0, "B": 20}]
    game, hands = pool_game(points, [ev(1, "C", "eliminated", 0)])
    (found,) = run(game, hands)
    assert keys([found]) == [("pool.elimination", "g1", "h1", "C")]
    assert found.severity == "major"
    assert found.message == (
        "C is recorded as eliminated after hand 1, but has 0 by the rules, below the 101 "
        "that eliminates, and no drop with reason left records C leaving the game: C is "
        "still in.")


def test_pool_auto_split_counts_no_player_who_left() -> None:
    """000_ (Auto Split: every player left above 80): C leaves in hand 2 at 40; A and B,
    at 85 and 88, are every player left, so the automatic split is theirs, the whole prize
    (three entries, 270.00) in equal shares and none to C."""
    points = [{"A": 40, "B": 40, "C": 20}, {"A": 45, "B": 48, "C": 20}]
    ledger = [*ENTRIES, ("A", "split", "135.00"), ("B", "split", "135.00"),
              (None, "rake", "30.00")]  # fmt: skip
    game, hands = pool_game(points, [ev(2, None, "auto")], ledger, ended=True)
    left(hands[1], "C")
    assert game_checks(game, hands, RULES) == []
    assert judge_pool(game, hands, RULES).split_kind == "auto"


def test_pool_split_a_leavers_share_says_they_were_no_longer_in_the_game_b105() -> None:
    """000_ (Auto Split: every player left above 80) and schemas/README.md (a leaver has no
    split share): the split above, with 90.00 of it paid to C, who left in hand 2. C's
    ``pool.split`` says why C's share is nothing (a blind tester's said only "their share
    is 0.00")."""
    points = [{"A": 40, "B": 40, "C": 20}, {"A": 45, "B": 48, "C": 20}]
    ledger = [*ENTRIES, ("A", "split", "90.00"), ("B", "split", "90.00"),
              ("C", "split", "90.00"), (None, "rake", "30.00")]  # fmt: skip
    game, hands = pool_game(points, [ev(2, None, "auto")], ledger, ended=True)
    left(hands[1], "C")
    found = [f for f in game_checks(game, hands, RULES) if f.player_id == "C"]
    assert [(f.check, f.expected, f.recorded, f.message) for f in found] == [(
        "pool.split", "0.00", "90.00", "C was paid 90.00 in the automatic split after hand 2, "
        "but their share is 0.00, as they were no longer in the game.")]  # fmt: skip


def test_pool_rebuy_below_a_leavers_rebuy_later_says_they_left_b105() -> None:
    """`pool_101.rebuy_below` and schemas/README.md (a leaver has no rebuy): C leaves in
    hand 1 and is dealt in no more; a rebuy recorded for C after hand 2 says that C is out
    by leaving (a blind tester's said only "without being eliminated in it")."""
    points = [{"A": 0, "B": 20, "C": 20}, {"A": 20, "B": 0}]
    game, hands = pool_game(points, [ev(2, "C", "rebuy", 1)])
    left(hands[0], "C")
    (found,) = run(game, hands)
    assert keys([found]) == [("pool.rebuy", "g1", "h2", "C")]
    assert found.message == (
        "C is recorded as rebuying after hand 2 without being eliminated in it: C is out of "
        "the game by leaving after hand 1 (a drop with reason left), and takes no further "
        "part in it.")


def test_pool_rebuy_min_players_counts_no_player_who_left_the_hand() -> None:
    """`pool_101.rebuy_min_players` (000_: a Re-Buy "when more than two players are
    playing at a table"): C leaves in hand 1 and B is out at 105; only A and B stayed at
    the table, so B's rebuy is one finding."""
    points = [{"A": 0, "B": 105, "C": 20}, {"A": 0, "B": 20}]
    game, hands = pool_game(points, [ev(1, "B", "eliminated", 105), ev(1, "B", "rebuy", 1)])
    left(hands[0], "C")
    (found,) = run(game, hands)
    assert keys([found]) == [("pool.rebuy", "g1", "h1", "B")]
    assert found.message == (
        "B rebought after hand 1 when only 2 players played the hand and stayed in the game "
        "(C left it); a rebuy needs at least 3.")


def test_pool_rebuy_counts_says_a_player_who_left_the_hand_is_not_counted_000() -> None:
    """`pool_101.rebuy_counts` and `pool_201.rebuy_counts` (000_1729c72ad4c1f885.txt: "When
    more than two players are playing at a table, the player who has lost the game ... has
    an opportunity to Re-Buy"): the rule's words say what the check above does, a player
    who left the game in the hand not counted (they said "count everyone who played the
    hand": blind tester b59), and still cite the seed."""
    for fmt in ("pool_101", "pool_201"):
        rule = RULES.rule(f"{fmt}.rebuy_counts")
        assert "the player who lost it and was eliminated included" in rule.text
        assert "but not a player who left the game in it" in rule.text
        assert rule.source.startswith("000_1729c72ad4c1f885.txt: 'When more than two players")


def test_pool_rebuy_a_player_who_left_has_no_rebuy_and_buys_nothing() -> None:
    """`pool_101.rebuy_below` (schemas/README.md: a player who leaves a pool game has "no
    rebuy"): C leaves in hand 1 at 20 and is dealt into no later hand, and a rebuy is
    recorded for C. A blind tester had two findings for it and a prize demanded with C's
    entry in it; now it is one ``pool.rebuy``, and its entry is counted nowhere (as a
    rebuy of a player still in: schemas/money.md step 4)."""
    points = [{"A": 0, "B": 40, "C": 20}, {"A": 20, "B": 0}]
    game, hands = pool_game(points, [ev(1, "C", "rebuy", 41)])
    left(hands[0], "C")
    (found,) = run(game, hands)
    assert (found.check, found.player_id, found.expected) == ("pool.rebuy", "C", "no rebuy")
    assert found.message.startswith("C left the game in hand 1 (a drop with reason left)")
    judged = judge_pool(game, hands, RULES)
    assert judged.void_rebuys == frozenset(e.seq for e in game.game_events)



def test_pool_rebuy_below_a_leaver_who_came_back_is_told_the_hand_they_left_in() -> None:
    """`pool_101.rebuy_below` and schemas/README.md ("A player who leaves": no rebuy): C
    leaves in hand 1, is dealt into hand 2 all the same (one ``pool.elimination``, the
    record's fault), and a rebuy is recorded for C after hand 2, the last hand C is dealt
    into. The rebuy's words name hand 1, where C left, and hand 2, after which C is out
    (they said C "left the game in hand 2")."""
    points = [{"A": 0, "B": 20, "C": 20}, {"A": 0, "B": 20, "C": 80}, {"A": 20, "B": 0}]
    game, hands = pool_game(points, [ev(2, "C", "rebuy", 100)])
    left(hands[0], "C")
    found = {f.check: f for f in run(game, hands)}
    assert sorted(keys(list(found.values()))) == [("pool.elimination", "g1", "h2", "C"),
                                                  ("pool.rebuy", "g1", "h2", "C")]  # fmt: skip
    assert found["pool.rebuy"].message.startswith(
        "C left the game in hand 1 (a drop with reason left) and is dealt into no hand "
        "after hand 2, but is recorded as rebuying after hand 2:")


# ---------------------------------------------------------------- deals


def test_deals_the_last_player_left_wins_before_the_deals_are_played_lv4() -> None:
    """docs/replay.md ("Money", a player who leaves a deals game), the blind tester's LV4:
    in a best of 2, B leaves in deal 1 (a drop with reason left, charged the full 80) and
    the game ends there, won by A. Until 2026-12-06 a major ``deals.chips`` ("a best of 2
    plays 2"); now clean, and A is the rules' winner the prize is judged against."""
    hands = [left(deal(1, "A", {"B": 80}), "B")]
    assert check_deals(deals_game(deals=2), hands, RULES) == []
    assert deals_winner(deals_game(deals=2), hands, RULES) == "A"


def test_deals_chips_a_game_ended_early_with_two_players_left_is_still_short() -> None:
    """`deals.chips` (a best of N plays N): C leaves in deal 1, but A and B are still in,
    so the game goes on among them; ended after 1 deal it is still one finding."""
    hands = [left(deal(1, "A", {"B": 30, "C": 80}), "C")]
    assert [f.message for f in check_deals(deals_game(deals=2), hands, RULES)] == [
        "The game ended after 1 deals, but a best of 2 plays 2."]


def test_deals_chips_a_player_who_left_cannot_win_with_the_most_chips() -> None:
    """A player out by leaving forfeits the game: C wins deal 1 (+160) and leaves in deal 2
    (-80); A and B play on to deal 3. C has the most chips (80), but the winner is A (30),
    the most of the players still in, and a game recorded as won by C is one
    ``deals.chips``."""
    hands = [deal(1, "C", {"A": 80, "B": 80}), left(deal(2, "A", {"B": 10, "C": 80}), "C"),
             deal(3, "A", {"B": 20})]  # fmt: skip
    judged = judge_deals(deals_game(deals=3, winner="A"), hands, RULES)
    assert (judged.findings, judged.winner) == ([], "A")
    (found,) = check_deals(deals_game(deals=3, winner="C"), hands, RULES)
    assert (found.check, found.expected, found.recorded) == ("deals.chips", "A", "C")
    assert found.message == (
        "A ended with the most chips of the players still in (30) and should win the game, "
        "but the record names C.")


def test_deals_chips_the_last_player_left_is_the_winner_whatever_the_chips() -> None:
    """C wins deal 1 (+160) and leaves in deal 2, as B does: A, the one player left, wins
    the best of 3 after 2 deals though C has more chips (80 to A's 10); recorded as won by
    C, that is one ``deals.chips`` saying A is the last player left."""
    hands = [deal(1, "C", {"A": 80, "B": 80}), left(deal(2, "A", {"B": 10, "C": 80}), "C", "B")]
    assert judge_deals(deals_game(deals=3, winner="A"), hands, RULES) == ([], "A")
    (found,) = check_deals(deals_game(deals=3, winner="C"), hands, RULES)
    assert found.message == (
        "A is the last player left in the game (B and C left it) and should win the game, "
        "but the record names C.")


def test_deals_chips_a_player_left_out_of_a_deal_without_leaving_is_one_finding() -> None:
    """`deals.chips` (000_: a deals game has no drops and no eliminations, so every player
    is dealt every deal): C, still in, is not dealt into deals 2 and 3 with no drop with
    reason left. A blind tester pushed a player out of a best of 3 after deal 1 this way
    and the audit said nothing; now it is one finding, at the first deal C misses."""
    hands = [deal(1, "A", {"B": 20, "C": 30}), deal(2, "A", {"B": 10}), deal(3, "B", {"A": 5})]
    found = [f for f in check_deals(deals_game(deals=3), hands, RULES) if f.player_id == "C"]
    assert [(f.check, f.hand_id, f.expected, f.recorded) for f in found] == [
        ("deals.chips", hands[1].hand_id, "dealt in", "not dealt in")]
    assert found[0].message == (
        "C is not dealt into deal 2, though still in the game: a deals game deals every "
        "player every deal, and no drop with reason left records C leaving it.")


def test_deals_chips_a_leaver_dealt_in_again_and_playing_is_one_finding_b105() -> None:
    """schemas/README.md ("A player who leaves"): a leaver is dealt into no later hand, or
    dropped at once with reason left in each. B leaves in deal 1 and plays deal 2: one
    ``deals.chips`` at deal 2 (a blind tester's, until 2026-12-07 no finding there and a
    false "not dealt in, though still in" at deal 3), B out after it, A the winner."""
    hands = [left(deal(1, "A", {"B": 80}), "B"), deal(2, "B", {"A": 10})]
    judged = judge_deals(deals_game(deals=2), hands, RULES)
    assert [(f.check, f.hand_id, f.player_id, f.expected, f.recorded)
            for f in judged.findings] == [
        ("deals.chips", "G1-02", "B", "out (left in deal 1)", "dealt in")]  # fmt: skip
    assert judged.findings[0].message.startswith(
        "B left the game in deal 1 (a drop with reason left), but is dealt into deal 2 and "
        "not dropped there with reason left")
    assert judged.findings[0].rule.startswith("events.left: ")
    assert judged.winner == "A"


def test_deals_chips_a_leaver_who_played_on_is_not_missed_in_the_next_deal_b105() -> None:
    """The blind tester's F8: B leaves in deal 1, plays deal 2, and is not dealt into deal
    3 of a best of 3: the one finding is deal 2's; deal 3 leaving B out is right."""
    hands = [left(deal(1, "A", {"B": 80, "C": 10}), "B"), deal(2, "A", {"B": 73, "C": 5}),
             deal(3, "C", {"A": 20})]  # fmt: skip
    judged = judge_deals(deals_game(deals=3), hands, RULES)
    assert [(f.check, f.hand_id, f.player_id) for f in judged.findings] == [
        ("deals.chips", "G1-02", "B")]


def test_ledger_prize_goes_to_the_last_deals_player_left_lv4() -> None:
    """schemas/money.md step 4: a deals game's prize goes to the rules' winner, here A, the
    one player left after B left in deal 1 of a best of 2 (the blind tester's LV4, its
    ledger included): the game and its money are clean."""
    game = deals_game(deals=2, winner=None)
    game.game_events.append(GameEvent(1, 1, "A", "game_won", None, None))
    game.ledger = [LedgerRow("A", "buy_in", Decimal("-50.00")),
                   LedgerRow("B", "buy_in", Decimal("-50.00")),
                   LedgerRow("A", "prize", Decimal("90.00")),
                   LedgerRow(None, "rake", Decimal("10.00"))]  # fmt: skip
    assert game_checks(game, [left(deal(1, "A", {"B": 80}), "B")], RULES) == []
