"""A match (format `match`, 002_'s open-melds game, audit/games/match.py): running totals,
the end at the target, the lowest total wins. 002_be7776aa8b349efa.txt: "The match ends
when somebody reaches 250. A low score is a good score." and "The lowest total wins."."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from audit.findings import Finding
from audit.games.match import check_match
from audit.records import Game, GameEvent, GameUnit, Hand, Result
from audit.rules.ruleset import load_preset
from audit.unit import game_checks

RULES = load_preset("open-melds-13")


def game(*, winner: str | None = "B", running: bool = False) -> Game:
    events = [] if winner is None else [GameEvent(3, 1, winner, "game_won", None, None)]
    return Game(
        game_id="M1", table_id="T1", format="match", deals_count=None, cards_per_hand=13,
        ruleset="open-melds-13", decks=2, printed_jokers=2, max_players=6,
        chip_type="practice", entry_fee=None, point_value=None, rake_pct=Decimal("0.00"),
        running=running,
        game_events=events,
    )  # fmt: skip


def hand(no: int, won: str, points: dict[str, int], totals: dict[str, int | None]) -> Hand:
    """Hand ``no``: ``won`` goes out, the others lose ``points``; ``totals`` are the
    recorded ``score_after``."""
    players = sorted(totals)
    results = [
        Result(p, "won" if p == won else "lost", points.get(p, 0), totals[p], None) for p in players
    ]
    return Hand(f"M1-{no:02d}", "M1", no, players, [], 0, 0, [], results)


def match(**over: dict[str, int | None]) -> list[Hand]:
    """A reaches 250 after hand 3; B, with 120, has the lowest total and wins."""
    totals = [
        {"A": 80, "B": 0, "C": 60},
        {"A": 160, "B": 40, "C": 60},
        {"A": 250, "B": 120, "C": 140},
    ]
    for key, value in over.items():
        totals[int(key[1:]) - 1] = {**totals[int(key[1:]) - 1], **value}
    return [
        hand(1, "B", {"A": 80, "C": 60}, totals[0]),
        hand(2, "C", {"A": 80, "B": 40}, totals[1]),
        hand(3, "A", {"A": 90, "B": 80, "C": 80}, totals[2]),
    ]


def keys(findings: list[Finding]) -> list[tuple[str, str | None, str | None]]:
    return [(f.check, f.hand_id, f.player_id) for f in findings]


def test_the_match_ends_when_somebody_reaches_250_and_the_lowest_total_wins() -> None:
    """002_: "The match ends when somebody reaches 250." "The lowest total wins." The
    clean match: totals add up, A reaches 250 in hand 3, the last, and B (120) wins."""
    assert check_match(game(), match(), RULES) == []


def test_match_running_total_a_wrong_total_right_again_after_is_one_finding() -> None:
    """002_be7776aa8b349efa.txt (`match.running_total`: "everyone else is penalised for
    what they are still holding. The match ends when somebody reaches 250. A low score is a
    good score"): each hand's points add to the player's total (`results.score_after`),
    from 0. B's total after hand 2 is recorded as 45 for 40; after hand 3, 120, right again:
    one `match.total`. Judged from the last recorded total, the right 120 was flagged
    against 45 + 80 (a blind tester). It cites the running total, not the target."""
    found = check_match(game(), match(h2={"B": 45}), RULES)
    assert keys(found) == [("match.total", "M1-02", "B")]
    assert (found[0].expected, found[0].recorded) == ("40", "45")
    assert found[0].message == (
        "B's match total after hand 2 is recorded as 45, but by the rules it is 0 + 40 = 40."
    )
    assert found[0].rule.startswith("match.running_total: ")
    assert "everyone else is penalised for what they are still holding" in found[0].rule


def test_match_running_total_a_wrong_total_carried_forward_is_wrong_on_each_later_hand() -> None:
    """002_be7776aa8b349efa.txt (`match.running_total`): the platform counts on from its
    wrong 45, so B's 125 after hand 3 is wrong too (120 by the rules), and says where the
    wrong total started; the standing the match ends on is B's 120 (a blind tester: a
    carried total was flagged once, the wrong final standing never)."""
    hands = match(h2={"B": 45}, h3={"B": 125})
    found = check_match(game(), hands, RULES)
    assert keys(found) == [("match.total", "M1-02", "B"), ("match.total", "M1-03", "B")]
    assert (found[1].expected, found[1].recorded) == ("120", "125")
    assert found[1].message == (
        "B's match total after hand 3 is recorded as 125, but by the rules it is 40 + 80 = "
        "120. It carries forward the wrong total recorded after hand 2 (45 recorded, 40 by "
        "the rules)."
    )


def test_a_hand_without_a_players_results_row_does_not_blame_their_next_total() -> None:
    """002_be7776aa8b349efa.txt: "The match ends when somebody reaches 250": B's row is
    left out of hand 2 (the hand's own `score.outcome`, one finding); B's total after
    hand 3, 120, holds hand 2's 40 that no row records: taken as it stands, not a
    `match.total` against 0 + 80, and the check goes on from it (docs/replay.md)."""
    hands = match()
    hands[1].results = [r for r in hands[1].results if r.player != "B"]
    assert check_match(game(), hands, RULES) == []
    assert game_checks(game(), hands, RULES) == []
    hands = match()
    hands[0].results = [r for r in hands[0].results if r.player != "B"]
    hands[2] = hand(3, "A", {"A": 90, "B": 80, "C": 80}, {"A": 250, "B": 125, "C": 140})
    found = check_match(game(), hands, RULES)
    assert keys(found) == [("match.total", "M1-03", "B")]  # 40 + 80 after the unjudged 40
    assert (found[0].expected, found[0].recorded) == ("120", "125")


def test_no_hand_is_dealt_after_a_total_reaches_250() -> None:
    """002_: "The match ends when somebody reaches 250." A reaches 250 after hand 2; a
    third hand is `match.end`."""
    hands = match(h2={"A": 250})
    hands[1] = hand(2, "C", {"A": 170, "B": 40}, {"A": 250, "B": 40, "C": 60})
    hands[2] = hand(3, "B", {"A": 0, "C": 80}, {"A": 250, "B": 40, "C": 140})
    found = check_match(game(), hands, RULES)
    assert ("match.end", "M1-03", None) in keys(found)


def test_a_match_does_not_end_before_somebody_reaches_250() -> None:
    """002_: "The match ends when somebody reaches 250": a finished match whose highest
    total is 160 is `match.end`."""
    hands = match()[:2]
    found = check_match(game(), hands, RULES)
    assert keys(found)[0] == ("match.end", "M1-02", None)
    running = check_match(game(winner=None, running=True), hands, RULES)
    assert running == []  # a match still running is judged on its hands so far


def said(points: dict[str, int], won: str) -> dict[str, SimpleNamespace]:
    """What the rules give each player of a hand (``records.RulesPoints``)."""
    return {p: SimpleNamespace(outcome="won" if p == won else "lost", points=n, value=None)
            for p, n in points.items()}  # fmt: skip


def test_match_target_an_overcharge_that_ends_the_match_is_judged_by_the_rules_points() -> None:
    """002_be7776aa8b349efa.txt (`match.target`: "The match ends when somebody reaches
    250."): A is recorded as charged 90 in hand 3, so 250 recorded, where the rules charge
    80: by the rules A stands at 240 and nobody has reached 250, so the match should not
    have ended. The hand's `score.points` is its own; the match's end is the match's
    finding, naming the hand (a blind tester's loser charged 80 for 8 ended a match at 252
    that stood at 207: one `score.points` said nothing of the match)."""
    hands = match()
    hands[2] = hand(3, "C", {"A": 90, "B": 80}, {"A": 250, "B": 120, "C": 60})
    expected = {h.hand_id: said({r.player: r.points for r in h.results},
                                next(r.player for r in h.results if r.outcome == "won"))
                for h in hands[:2]}  # fmt: skip
    expected["M1-03"] = said({"A": 80, "B": 80, "C": 0}, "C")
    ended = game(winner="C")
    found = check_match(ended, hands, RULES, expected=expected)
    assert keys(found) == [("match.end", "M1-03", None)]
    assert found[0].message == (
        "Match M1 ended after hand 3 with the highest total at 240, below the 250 that ends "
        "a match by the rules' points; by the recorded points A has 250 (hand 3: 90 "
        "recorded, 80 by the rules)."
    )
    # Without the rules' points (no replay), the recorded points decide, as before.
    assert check_match(ended, hands, RULES) == []


def test_match_target_an_undercharge_that_plays_on_is_judged_by_the_rules_points() -> None:
    """002_be7776aa8b349efa.txt (`match.target`): A is recorded as charged 80 in hand 3
    (240) where the rules charge 90 (250): by the rules the match ended after hand 3, so
    hand 4 is `match.end`, saying the recorded points kept it going."""
    hands = match(h3={"A": 240})
    hands[2] = hand(3, "A", {"A": 80, "B": 80, "C": 80}, {"A": 240, "B": 120, "C": 140})
    hands.append(hand(4, "B", {"A": 5, "C": 5}, {"A": 245, "B": 120, "C": 145}))
    expected = {"M1-03": said({"A": 90, "B": 80, "C": 80}, "A")}
    found = check_match(game(), hands, RULES, expected=expected)
    assert keys(found)[0] == ("match.end", "M1-04", None)
    assert found[0].message == (
        "Hand 4 was dealt after the match had ended: a total reached 250 after hand 3 by "
        "the rules' points; by the recorded points A has 240 (hand 3: 80 recorded, 90 by "
        "the rules)."
    )


def test_the_lowest_total_wins() -> None:
    """002_: "The lowest total wins." A recorded as the winner with 250: `match.winner`;
    no winner recorded: the same; a tie for the lowest: either may be named."""
    (found,) = check_match(game(winner="A"), match(), RULES)
    assert keys([found]) == [("match.winner", "M1-03", "A")]
    assert found.expected == "B"
    assert found.rule.startswith("match.winner: ")
    assert keys(check_match(game(winner=None), match(), RULES)) == [("match.winner", "M1-03", "B")]
    tied = match()
    tied[2] = hand(3, "A", {"A": 90, "B": 80, "C": 60}, {"A": 250, "B": 120, "C": 120})
    assert check_match(game(winner="C"), tied, RULES) == []
    assert check_match(game(winner="B"), tied, RULES) == []


def test_match_winner_the_winners_game_won_row_written_twice_is_one_finding() -> None:
    """002_: "The lowest total wins." (`match.winner`: a finished match has one `game_won`
    event). B, with the lowest total, is named by two game_won rows (seq 1 and 2): the
    repeat is one finding, on its row, that B won (a blind tester: "should win it, but the
    record names X2, X2", said of the rightful winner)."""
    won = GameEvent(3, 1, "B", "game_won", None, None)
    twice = game()
    twice.game_events = [won, won._replace(seq=2)]
    (found,) = check_match(twice, match(), RULES)
    assert keys([found]) == [("match.winner", "M1-03", "B")]
    assert (found.seq, found.expected, found.recorded) == (2, "one game_won event",
                                                           "2 game_won events")  # fmt: skip
    assert found.message == (
        "B ended match M1 with the lowest total (120) and won it, but the record writes its "
        "game_won event for B 2 times (seq 1 and 2): a match is won once."
    )


def test_a_match_moves_no_money_so_no_money_check_fires() -> None:
    """A match has no point value, no entry fee and no ledger rows: the game checks (the
    one door, audit/unit.py) run the match checks and no ledger or points-money check."""
    found = game_checks(game(), match(), RULES)
    assert found == []
    unit = GameUnit("M1", game(winner="A"), match())
    assert [f.check for f in game_checks(unit.game, unit.hands, RULES)] == ["match.winner"]
    assert [f.check for f in game_checks(game(winner="A"), match(), RULES,
                                         game_events=False)] == []  # fmt: skip
