"""Deals rummy chips and winner (000_1729c72ad4c1f885.txt: "Best of 2 / Best of 3", chips
"deducted and credited ... with respect to the player's wins and losses")."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from audit.findings import Finding
from audit.games.deals import check_deals, judge_deals
from audit.logs.reader import iter_units, open_log_root
from audit.records import Game, GameEvent, Hand, LedgerRow, Result
from audit.rules.ruleset import load_preset
from audit.sim import simulate
from audit.unit import game_checks

RULES = load_preset("standard-13")


def game(*, deals: int = 2, winner: str | None = "A", running: bool = False) -> Game:
    events = [] if winner is None else [GameEvent(deals, 1, winner, "game_won", None, None)]
    return Game(
        game_id="G1", table_id="T1", format="deals", deals_count=deals, cards_per_hand=13,
        ruleset="standard-13", decks=2, printed_jokers=2, max_players=6, chip_type="real",
        entry_fee=Decimal("50.00"), point_value=None, rake_pct=Decimal("10.00"),
        running=running, game_events=events,
    )  # fmt: skip


def deal(no: int, won: str, points: dict[str, int], amounts: dict[str, str] | None = None) -> Hand:
    """Deal ``no``: ``won`` wins, the others lose ``points``; amounts as the rules say
    unless given."""
    total = sum(points.values())
    chips = {p: -n for p, n in points.items()} | {won: total}
    results = [
        Result(
            p, "won" if p == won else "lost", points.get(p, 0), None,
            Decimal(amounts[p]) if amounts and p in amounts else Decimal(chips[p]),
        )
        for p in sorted(chips)
    ]  # fmt: skip
    return Hand(f"G1-{no:02d}", "G1", no, sorted(chips), [], 0, 0, [], results)


def keys(findings: list[Finding]) -> list[tuple[str, str, str | None, str | None]]:
    return [(f.check, f.game_id, f.hand_id, f.player_id) for f in findings]


def two_deals() -> list[Hand]:
    """A wins deal 1 (+50), B wins deal 2 (+30): A leads 50 - 30 + ... = A on 20."""
    return [deal(1, "A", {"B": 30, "C": 20}), deal(2, "B", {"A": 30, "C": 10})]


def test_deal_chips_losers_pay_points_winner_takes_sum() -> None:
    """`deals.chips`. 000_: chips follow wins and losses; each loser -points, the winner
    +sum."""
    assert check_deals(game(), two_deals(), RULES) == []


def test_deal_chips_wrong_loser_amount() -> None:
    hands = two_deals()
    hands[1] = deal(2, "B", {"A": 30, "C": 10}, {"C": "-12"})
    found = check_deals(game(), hands, RULES)
    assert keys(found) == [("deals.chips", "G1", "G1-02", "C")]
    assert found[0].expected == "-10"
    assert found[0].recorded == "-12"


def test_deal_chips_wrong_winner_amount() -> None:
    hands = [deal(1, "A", {"B": 30, "C": 20}, {"A": "45"}), two_deals()[1]]
    assert keys(check_deals(game(), hands, RULES)) == [("deals.chips", "G1", "G1-01", "A")]


def test_deal_chips_not_judged_for_a_deal_missing_a_players_results_row() -> None:
    """`deals.chips` (000_: chips follow the wins and losses): a deal that records no
    result for C, dealt in, settles what is not known; the winner's correct 50 was told
    it should be 30, the sum of the rows left (a blind tester). The missing row is the
    hand's score.outcome alone, and the chip totals are not judged (no game_won finding
    against the winner they would give)."""
    first = deal(1, "A", {"B": 30, "C": 20})
    first = replace(first, results=[r for r in first.results if r.player != "C"])
    assert first.without_result() == ["C"]
    assert check_deals(game(winner="B"), [first, two_deals()[1]], RULES) == []


def test_deal_chips_shown_as_whole_chips() -> None:
    """`deals.chips` (000_1729c72ad4c1f885.txt: chips "deducted and credited ... with
    respect to the player's wins and losses"): results.amount is a money column, so 100
    chips arrive as 100.00; the finding shows both sides alike, as whole chips."""
    hands = [deal(1, "A", {"B": 30, "C": 20}, {"A": "45.00"}), two_deals()[1]]
    found = check_deals(game(), hands, RULES)
    assert (found[0].expected, found[0].recorded) == ("50", "45")
    assert found[0].message == (
        "A won the deal, so should take 50 chips (the sum the others lost), but the record "
        "shows a gain of 45 chips."
    )


def test_deal_chips_missing_amount() -> None:
    hand = deal(1, "A", {"B": 30, "C": 20})
    hand.results[1] = hand.results[1]._replace(amount=None)
    found = check_deals(game(), [hand, two_deals()[1]], RULES)
    assert keys(found) == [("deals.chips", "G1", "G1-01", "B")]


def test_deal_chips_a_winner_who_took_what_a_wrong_loser_gave_is_that_losers_finding_000() -> (
    None
):
    """`deals.chips` (000_1729c72ad4c1f885.txt: chips "deducted and credited ... with
    respect to the player's wins and losses"): C loses 10 points but is recorded losing 8,
    and B, who won, took the 38 the others are recorded as losing. One fault, one finding:
    C's, which says what B took (a blind tester had B's "should take 40" beside it). A
    winner whose chips are not what the others gave keeps a finding of their own."""
    hands = two_deals()
    hands[1] = deal(2, "B", {"A": 30, "C": 10}, {"C": "-8", "B": "38"})
    found = check_deals(game(), hands, RULES)
    assert keys(found) == [("deals.chips", "G1", "G1-02", "C")]
    assert found[0].message == (
        "C lost the deal with 10 points, so should lose 10 chips, but the record shows a "
        "loss of 8 chips; "
        "B, who won the deal, took the 38 chips the others are recorded as losing (40 by "
        "the rules)."
    )
    hands[1] = deal(2, "B", {"A": 30, "C": 10}, {"C": "-8", "B": "39"})
    assert keys(check_deals(game(), hands, RULES)) == [
        ("deals.chips", "G1", "G1-02", "B"), ("deals.chips", "G1", "G1-02", "C")]


def test_game_goes_to_most_chips() -> None:
    """A has 50 - 30 = 20, B 30 - 30 = 0, C -30: A wins; naming B is a finding on B, citing
    deals.chips (the most chips wins), not deals.tie: nobody tied (a blind tester)."""
    found = check_deals(game(winner="B"), two_deals(), RULES)
    assert keys(found) == [("deals.chips", "G1", None, "B")]
    assert [f.rule.split(":")[0] for f in found] == ["deals.chips"]


def test_game_won_missing() -> None:
    assert keys(check_deals(game(winner=None), two_deals(), RULES)) == [
        ("deals.chips", "G1", None, "A")
    ]


def test_deals_chips_the_winners_game_won_row_written_twice_is_one_finding() -> None:
    """`deals.chips` (000_: after the deals the most chips wins; a finished game has one
    `game_won` event naming that player). A, with the most chips (50 - 30 = 20), is named
    by two game_won rows (seq 1 and 2): the repeat is one finding, on its row, and A is
    still the winner (a blind tester: "should win the game, but the record names B4, B4",
    said of the rightful winner)."""
    won = GameEvent(2, 1, "A", "game_won", None, None)
    found = check_deals(replace(game(), game_events=[won, won._replace(seq=2)]), two_deals(),
                        RULES)  # fmt: skip
    assert keys(found) == [("deals.chips", "G1", None, "A")]
    assert (found[0].seq, found[0].expected, found[0].recorded) == (
        2, "one game_won event", "2 game_won events")  # fmt: skip
    assert found[0].message == (
        "A ended with the most chips (20) and won the game, but the record writes its "
        "game_won event for A 2 times (seq 1 and 2): a game is won once."
    )


def tied() -> list[Hand]:
    """A +30 then -30, B -30 then +30: A and B tie on 0 after two deals."""
    return [deal(1, "A", {"B": 30}), deal(2, "B", {"A": 30})]


def test_tie_is_played_off_with_one_more_deal() -> None:
    """`deals.tie` = extra_deal: a tie for the lead after the last deal means one more deal
    (000_ says 'Best of 2 / Best of 3' and is silent on ties)."""
    hands = [*tied(), deal(3, "B", {"A": 5})]
    assert check_deals(game(winner="B"), hands, RULES) == []


def test_tie_ended_without_another_deal() -> None:
    found = check_deals(game(winner="A"), tied(), RULES)
    assert keys(found) == [("deals.chips", "G1", None, "A")]
    assert [f.rule.split(":")[0] for f in found] == ["deals.tie"]


def test_no_deal_after_the_game_is_decided() -> None:
    hands = [*two_deals(), deal(3, "A", {"B": 5, "C": 5})]
    assert keys(check_deals(game(), hands, RULES)) == [("deals.chips", "G1", "G1-03", None)]


def test_no_fewer_deals_than_the_game_has() -> None:
    hands = [deal(1, "A", {"B": 30, "C": 20})]
    found = check_deals(game(), hands, RULES)
    assert keys(found) == [("deals.chips", "G1", None, None)]
    assert [f.rule.split(":")[0] for f in found] == ["deals.chips"]


def test_running_game_is_not_judged_on_its_winner() -> None:
    hands = [deal(1, "A", {"B": 30, "C": 20})]
    assert check_deals(game(winner=None, running=True), hands, RULES) == []


def test_other_formats_and_quarantined_deals_are_skipped() -> None:
    points = replace(game(), format="points")
    assert check_deals(points, two_deals(), RULES) == []
    bad = deal(1, "A", {"B": 30, "C": 20}, {"A": "1"})
    bad.quarantine = "a gap in seq"
    assert check_deals(game(winner="Z"), [bad, two_deals()[1]], RULES) == []


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sim") / "root"
    simulate(games=200, out=root, seed=20261132)
    return root


def test_simulated_deals_games_pass(simulated: Path, tmp_path: Path) -> None:
    """The simulator follows 000_'s deals rules, so its deals games raise nothing."""
    found: list[Finding] = []
    deals_games = 0
    for batch in iter_units(open_log_root(simulated), quarantine=[], workdir=tmp_path):
        for unit in batch:
            assert unit.game is not None
            deals_games += unit.game.format == "deals"
            found += check_deals(unit.game, unit.hands, load_preset(unit.game.ruleset))
    assert deals_games > 10
    assert found == []


class Said:
    """What the rules give a player (``records.RulesPoints``)."""

    def __init__(self, outcome: str, points: int | None) -> None:
        self.outcome, self.points = outcome, points


def test_deals_chips_that_follow_a_deals_wrong_points_are_its_points_finding_alone() -> None:
    """`deals.chips` (docs/replay.md, "one error is one finding"; "Money", deals): deal 2's
    losers were recorded at 2 points each where the rules charge A 60 and C 40 (the hand's
    own `score.points`), and the chips followed those points: they are not flagged again
    (they were 3 findings more). But the game's winner is the rules': by the rules' chips B
    leads with 70, so the record's winner A is one finding, saying which deal's points it
    rests on (schemas/money.md: the winner is judged on the rules' chips; a blind tester's
    prizes moved by wrong points went unflagged)."""
    hands = [deal(1, "A", {"B": 30, "C": 20}), deal(2, "B", {"A": 2, "C": 2})]
    said = {"G1-02": {"A": Said("lost", 60), "C": Said("lost", 40)}}
    (won,) = check_deals(game(winner="A"), hands, RULES, expected=said)
    assert (won.check, won.hand_id, won.player_id, won.expected) == ("deals.chips", None, "A", "B")
    assert won.message == (
        "B ended with the most chips (70) and should win the game, but the record names A. "
        "The record's chips follow deal 2's recorded results, which the rules do not give "
        "(see that deal's findings)."
    )
    assert check_deals(game(winner="B"), hands, RULES, expected=said) == []
    # Chips that follow neither the rules' points nor the recorded ones are their own.
    hands[1] = deal(2, "B", {"A": 2, "C": 2}, {"A": "-5"})
    found = check_deals(game(winner="B"), hands, RULES, expected=said)
    assert keys(found) == [("deals.chips", "G1", "G1-02", "A")]
    assert found[0].message == (
        "A lost the deal with 60 points by the rules (2 recorded), so should lose 60 chips, "
        "but the record shows a loss of 5 chips."
    )
    # Where the rules agree with the record, nothing is said.
    agreed = {"G1-02": {"A": Said("lost", 2), "C": Said("lost", 2)}}
    hands[1] = deal(2, "B", {"A": 2, "C": 2})
    assert check_deals(game(winner="A"), hands, RULES, expected=agreed) == []


def test_deals_chips_of_a_drop_charged_a_drop_penalty_are_the_drop_penalty_alone_000() -> None:
    """`drops.deals` = "none" (000_: "No Drop is allowed"; docs/replay.md, "Drops"): A's
    first drop in deal 1 charged 20, not the full count 80, is the hand's one
    `drop.penalty`; the chips that followed the 20 are not flagged again (they were two
    `deals.chips` more: a blind tester, four findings for one). The game's winner is the
    rules': by the rules' chips C wins, so A's win is one finding."""
    first = deal(1, "C", {"A": 20, "B": 30})
    first = replace(first, results=[
        r._replace(outcome="first_drop") if r.player == "A" else r for r in first.results
    ])  # fmt: skip
    hands = [first, deal(2, "A", {"B": 40, "C": 30})]
    said = {"G1-01": {"A": Said("first_drop", 80), "B": Said("lost", 30)}}
    # by the record A ends on -20 + 70 = 50, B on -70, C on 50 - 30 = 20: A wins; by the
    # rules A on -80 + 70 = -10, B on -70, C on 110 - 30 = 80: C wins
    found = check_deals(game(winner="A"), hands, RULES, expected=said)
    assert [(f.check, f.hand_id, f.expected, f.recorded) for f in found] == [
        ("deals.chips", None, "C", "A")
    ]
    assert check_deals(game(winner="C"), hands, RULES, expected=said) == []


def test_deals_chips_of_a_deal_whose_winner_and_loser_are_written_swapped_are_the_rules() -> None:
    """`deals.chips` (000_: chips follow the wins and losses): deal 2 is B's by the rules
    (A lost 30, C 10), but the record writes A as its winner and B as a loser with 0
    points, while its chips are the rules' (B +40). The outcome rows are the replay's
    `score.outcome` findings; the chips, which follow the rules' outcomes, are right, and
    the game's totals and winner are the rules' (a blind tester: the right chips were
    flagged and the game's win moved to another player)."""
    from types import SimpleNamespace as Said

    hands = two_deals()
    second = hands[1]
    swapped = [r._replace(outcome="lost", points=0) if r.player == "B" else
               r._replace(outcome="won", points=0) if r.player == "A" else r
               for r in second.results]  # fmt: skip
    hands[1] = replace(second, results=swapped)
    said = {"G1-02": {"A": Said(outcome="lost", points=30), "B": Said(outcome="won", points=0),
                      "C": Said(outcome="lost", points=10)}}  # fmt: skip
    assert check_deals(game(), hands, RULES, expected=said) == []  # type: ignore[arg-type]
    assert keys(check_deals(game(winner="B"), hands, RULES, expected=said)) == [  # type: ignore[arg-type]
        ("deals.chips", "G1", None, "B")
    ]


# An invalid declaration accepted as a win at a table of three (000_: chips follow the wins
# and losses; 001_ and 004_: an invalid declaration costs 80; docs/replay.md, "Declaring":
# by the rules the declarer is out with the 80 and the others play on past the record).
OPEN_SECOND = {"G1-02": {"D": Said("invalid_declare", 80), "B": Said("lost", None),
                         "C": Said("lost", None)}}  # fmt: skip
"""Deal 2 as the rules see it: D's declaration is invalid, B and C play on."""


def test_an_invalid_declaration_accepted_at_a_table_of_three_costs_the_declarer_80_000() -> None:
    """`deals.chips` (000_: chips follow the wins and losses; the penalty for an invalid
    declaration, 80): D wins deal 1 (+50) and declares invalidly in deal 2, which the
    platform accepted as a win of 60 chips. By the rules D has 50 - 80 = -30 whatever B and
    C do after it, and B and C, who share what the deal moves (the 80 with it), have -50 +
    80 = 30 between them, so one of them has more: the game is not D's. One finding, on
    the game, naming the deal (a blind tester: the record's winner kept the game and its
    prize); the deal's own chips are its declare.verdict alone."""
    hands = [deal(1, "D", {"B": 30, "C": 20}), deal(2, "D", {"B": 40, "C": 20})]
    assert check_deals(game(winner="D"), hands, RULES) == []  # the record alone: D leads
    judged = judge_deals(game(winner="D"), hands, RULES, expected=OPEN_SECOND)
    (won,) = judged.findings
    assert (won.check, won.hand_id, won.player_id, won.expected, won.recorded) == (
        "deals.chips", None, "D", "B or C", "D")  # fmt: skip
    assert won.message == (
        "D's invalid declaration in deal 2 was accepted as a win of 60 chips, but by the rules "
        "it costs D 80 chips (the penalty for an invalid declaration) and B and C play on "
        "past the end of the record, so their chips in that deal are not known. By the rules "
        "D ends with -30 chips, and B and C with 30 between them, so one of them has more: "
        "the game is not D's, but the record names D."
    )
    assert judged.winner is None  # B or C: the prize is judged against the record's winner
    # Naming B, who may have won the rest of deal 2, is no finding.
    assert check_deals(game(winner="B"), hands, RULES, expected=OPEN_SECOND) == []


def test_the_game_is_not_the_declarers_when_another_player_certainly_has_more_chips() -> None:
    """`deals.chips` (000_; 80 for an invalid declaration): B wins deals 1 and 2 of a best
    of 3 (+160 each), and D's invalid declaration in deal 3 is accepted as a win. Whatever
    the rest of deal 3 does, B loses at most 80 (the full count), so ends on at least 240;
    C wins at most D's 80 and B's 80, so ends on at most 0; D ends on -240. B is the
    rules' winner: the game's finding names B, and the prize is judged against B (the
    ledger.balance the game_won that moved it gives, as for a swapped winner)."""
    hands = [deal(1, "B", {"D": 80, "C": 80}), deal(2, "B", {"D": 80, "C": 80}),
             deal(3, "D", {"B": 40, "C": 20})]  # fmt: skip
    said = {"G1-03": OPEN_SECOND["G1-02"]}
    judged = judge_deals(game(deals=3, winner="D"), hands, RULES, expected=said)
    assert [(f.check, f.player_id, f.expected) for f in judged.findings] == [
        ("deals.chips", "D", "B")]  # fmt: skip
    assert judged.findings[0].message.endswith(
        "By the rules D ends with -240 chips, and B with at least 240, which is more: the "
        "game is not D's, but the record names D."
    )
    assert judged.winner == "B"
    assert judge_deals(game(deals=3, winner="B"), hands, RULES, expected=said) == ([], "B")


def test_an_invalid_declaration_accepted_at_a_table_of_three_says_nothing_where_undecided() -> (
    None
):
    """`deals.chips`: D wins deal 1 by 150 and declares invalidly in deal 2. By the rules D
    ends on 150 - 80 = 70; C, on -70, may win the rest of deal 2 with B losing 80 (C on 90:
    C wins) or with B losing nothing (C on 10: D wins). The rules do not know the winner,
    so the record's D is no finding (no false alarm), nor is its prize."""
    hands = [deal(1, "D", {"B": 80, "C": 70}), deal(2, "D", {"B": 40, "C": 20})]
    assert judge_deals(game(winner="D"), hands, RULES, expected=OPEN_SECOND) == ([], None)
    # A game_won missing is a finding as in any game.
    (missing,) = check_deals(game(winner=None), hands, RULES, expected=OPEN_SECOND)
    assert (missing.player_id, missing.expected, missing.recorded) == (None, "B or C or D", None)


def test_an_honest_three_player_deals_game_is_unchanged_by_the_open_deal_reading() -> None:
    """`deals.chips`: a table of three whose deals the rules decide whole (valid
    declarations, their losers' points the rules'): the chips and the winner are judged as
    before, one finding for a wrong game_won and none for the right one."""
    hands = two_deals()
    said = {"G1-01": {"A": Said("won", 0), "B": Said("lost", 30), "C": Said("lost", 20)},
            "G1-02": {"B": Said("won", 0), "A": Said("lost", 30), "C": Said("lost", 10)}}
    assert judge_deals(game(), hands, RULES, expected=said) == ([], "A")
    found = check_deals(game(winner="B"), hands, RULES, expected=said)
    assert [(f.player_id, f.expected) for f in found] == [("B", "A")]


# A deal's winner and a loser swapped in results, the chips following the swap (000_: chips
# follow the wins and losses): by the rules W won deal 1 (L lost 15, O 42: W +57), but the
# record has L winning 57 and W losing W's 15 chips. The outcomes are the hand's two
# score.outcome findings; chips that follow them are not a second finding (one fault, one
# finding), unless they move the game's win.
SWAPPED_FIRST = {"G1-01": {"W": Said("won", 0), "L": Said("lost", 15), "O": Said("lost", 42)}}


def swapped_first(amounts: dict[str, str] | None = None) -> Hand:
    """Deal 1 as recorded: L won (+57), W lost 15, O lost 42."""
    return deal(1, "L", {"W": 15, "O": 42}, amounts)


def test_deals_chips_of_a_swapped_deal_that_does_not_decide_the_game_are_its_outcome_000() -> (
    None
):
    """`deals.chips` (000_: chips follow the wins and losses; one fault, one finding): O
    wins deal 2 by 90, so O wins the game by the rules' chips (W 47, O 48, L -95) and by
    the recorded ones (O 48, L -23, W -25) alike. The chips of deal 1 follow its swapped
    outcomes: no deals.chips at all (a blind tester had a third finding on L, "won the
    deal, so should take -15 chips")."""
    hands = [swapped_first(), deal(2, "O", {"W": 10, "L": 80})]
    found = judge_deals(game(winner="O"), hands, RULES, expected=SWAPPED_FIRST)
    assert (found.findings, found.winner) == ([], "O")
    # The same where the swap leaves the rules' lead tied after the last deal, so the rules
    # play deal 3, though the recorded chips show one leader: the extra deal follows the
    # rules (W 37, O 37), and is not "played although the game was already decided".
    hands = [swapped_first(), deal(2, "O", {"W": 20, "L": 59}), deal(3, "O", {"W": 10, "L": 10})]
    assert check_deals(game(winner="O"), hands, RULES, expected=SWAPPED_FIRST) == []


def test_deals_chips_of_a_swapped_deal_that_decides_the_game_is_the_games_winner_000() -> None:
    """`deals.chips` (000_: the most chips wins; docs/replay.md, "Money"): O wins deal 2 by
    10, so the rules' chips make W the winner (52), the recorded ones L (52). A game_won
    naming L is the game's one deals.chips, expecting W, and the prize is judged against W;
    deal 1's chips are still not flagged on their own."""
    hands = [swapped_first(), deal(2, "O", {"W": 5, "L": 5})]
    judged = judge_deals(game(winner="L"), hands, RULES, expected=SWAPPED_FIRST)
    assert keys(judged.findings) == [("deals.chips", "G1", None, "L")]
    assert (judged.findings[0].expected, judged.winner) == ("W", "W")
    assert judged.findings[0].message == (
        "W ended with the most chips (52) and should win the game, but the record names L. "
        "The record's chips follow deal 1's recorded results, which the rules do not give "
        "(see that deal's findings)."
    )
    assert check_deals(game(winner="W"), hands, RULES, expected=SWAPPED_FIRST) == []


def test_deals_chips_a_swapped_deals_chips_that_follow_neither_are_found_in_the_rules_words() -> (
    None
):
    """`deals.chips` (000_: each loser gives up their points, the winner takes the sum): in
    the swapped deal 1, L's 60 is neither the rules' -15 nor the 57 the others are
    recorded as losing, and W's -20 neither the rules' 57 nor W's recorded -15: each is a
    finding, whose words say the rules' outcome (L lost, W won) and never tell L, who lost
    by the rules, that they "won the deal" or should "take" negative chips."""
    hands = [swapped_first({"L": "60", "W": "-20"}), deal(2, "O", {"W": 10, "L": 80})]
    found = check_deals(game(winner="O"), hands, RULES, expected=SWAPPED_FIRST)
    assert [(f.hand_id, f.player_id, f.expected, f.recorded) for f in found] == [
        ("G1-01", "L", "-15", "60"), ("G1-01", "W", "57", "-20")
    ]  # fmt: skip
    assert found[0].message == (
        "L lost the deal with 15 points by the rules, so should lose 15 chips, but the record "
        "shows a gain of 60 chips (nor is it the 57 chips the others are recorded as losing, "
        "which the "
        "record, naming L the deal's winner, would give: see the hand's findings)."
    )
    assert found[1].message == (
        "W won the deal by the rules, so should take 57 chips (the sum the others lost), but "
        "the record shows a loss of 20 chips (nor is it a loss of 15 chips, the 15 points "
        "the record has W "
        "losing: see the hand's findings)."
    )
    # The recorded winner's chips not the sum the others lost, though theirs follow the
    # record, are one finding on the winner alone.
    hands[0] = swapped_first({"L": "60"})
    found = check_deals(game(winner="O"), hands, RULES, expected=SWAPPED_FIRST)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [("L", "-15", "60")]


def called_off(game: Game, paid: str = "ABC", refunded: str = "ABC", prize: bool = False) -> Game:
    """``game`` called off: each player of ``paid`` paid the 50.00 entry, and those in
    ``refunded`` got it back in a refund row (``prize``: and B was paid a prize besides)."""
    ledger = [LedgerRow(p, "buy_in", Decimal("-50.00")) for p in paid]
    ledger += [LedgerRow(p, "refund", Decimal("50.00")) for p in refunded]
    if prize:
        ledger.append(LedgerRow("B", "prize", Decimal("10.00")))
    return replace(game, game_events=[], ledger=ledger)


def test_deals_chips_a_game_called_off_with_every_entry_refunded_plays_no_more_deals() -> None:
    """schemas/money.md, "Called off": a game called off ends with no winner and only its
    money's balance and refunds are checked; the contract has no game event for it. A best
    of 2 called off after deal 1, every entry refunded and no game_won, is no game that
    "ended after 1 deals, but a best of 2 plays 2", nor one whose leader "should win the
    game, but the record names no winner" (a blind tester's honest game had both, at
    major). Its deal is still judged as a deal."""
    off = called_off(game(winner=None))
    hands = [deal(1, "A", {"B": 30, "C": 20})]
    assert check_deals(off, hands, RULES) == []
    assert judge_deals(off, hands, RULES).winner is None
    wrong = [deal(1, "A", {"B": 30, "C": 20}, {"C": "-25"})]
    assert keys(check_deals(off, wrong, RULES)) == [("deals.chips", "G1", "G1-01", "C")]
    # a tied lead, called off before the deal that settles it: no tie finding either
    assert check_deals(called_off(game(winner=None), "AB", "AB"), tied(), RULES) == []


def test_deals_chips_a_game_not_called_off_for_every_player_keeps_its_end_findings() -> None:
    """schemas/money.md, "Called off": refunds to only some players, or refunds beside a
    prize, do not say the game was called off; the game that played too few deals and
    names no winner keeps those findings. Nor does a game called off after its last deal
    lose its winner: the rules had decided it (as a pool game's last player left)."""
    hands = [deal(1, "A", {"B": 30, "C": 20})]
    for off in (called_off(game(winner=None), refunded="AB"),
                called_off(game(winner=None), prize=True)):  # fmt: skip
        found = check_deals(off, hands, RULES)
        assert [f.message for f in found] == [
            "The game ended after 1 deals, but a best of 2 plays 2.",
            "A ended with the most chips (50) and should win the game, but the record names "
            "no winner.",
        ]
    decided = called_off(game(winner=None))
    assert keys(check_deals(decided, two_deals(), RULES)) == [("deals.chips", "G1", None, "A")]
    assert judge_deals(decided, two_deals(), RULES).winner == "A"


def test_deals_chips_a_deals_chips_recorded_the_wrong_way_round_say_which_way_they_went() -> None:
    """`deals.chips` (000_: each loser gives up chips equal to their points, the winner of
    the deal takes the sum). A blind tester's (b109) deal 2: A won and B lost 20, but the
    record moved A -20 and B +20. The finding said "should lose 20 chips, but the record
    shows 20" and "A, who won the deal, took the -20 chips the others are recorded as
    losing": read aloud, an agreement and nonsense. It now says which way the chips went."""
    hands = [deal(1, "A", {"B": 30}), deal(2, "A", {"B": 20}, {"A": "-20.00", "B": "20.00"})]
    (found,) = [f for f in check_deals(game(), hands, RULES) if f.hand_id == hands[1].hand_id]
    assert (found.player_id, found.expected, found.recorded) == ("B", "-20", "20")
    assert found.message == (
        "B lost the deal with 20 points, so should lose 20 chips, but the record shows a gain "
        "of 20 chips; A, who won the deal, is recorded as losing the 20 chips the others are "
        "recorded as gaining (taking 20 by the rules).")


def test_game_events_action_a_deals_game_that_ended_with_no_row_is_one_game_unchecked() -> None:
    """log-format.md, game_events (`game_won`): a deals game that ended records its winner
    there. One that ended with no row at all (its rows late, to come on a later night) is
    one `game.unchecked`, major, its winner not judged, as for a pool game; a blind tester
    (b110) had "deals.chips: the record names no winner", a rule broken, where the same
    pool game had this. The deals themselves are still judged."""
    hands = two_deals()
    assert game_checks(game(), hands, RULES) == []
    (found,) = game_checks(game(winner=None), hands, RULES)
    assert (found.check, found.severity.value) == ("game.unchecked", "major")
    assert found.message == (
        "Game G1 ended, but game_events holds no row of it, though a deals game records its "
        "winner (game_won) there, so its winner was not checked.")
    hands[1] = deal(2, "B", {"A": 30, "C": 10}, {"C": "-12.00"})
    assert [f.check for f in game_checks(game(winner=None), hands, RULES)] == [
        "game.unchecked", "deals.chips"]
