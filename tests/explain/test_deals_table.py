"""`rummy-audit explain GAME_ID` of a deals game: the table "Chips, deal by deal".
schemas/money.md (Deals rummy): "the game's winner is judged on the rules' chips, never on
points the replay found wrong". Where a deal's recorded chips follow its wrong points (the
hand's own finding, no chip one), the table shows the rules' chips beside the record's and
the running totals by the rules (a blind tester's agent read +5 chips for a player the
rules tie at 0, and would have told them they won)."""

from __future__ import annotations

from dataclasses import replace

from audit.explain import render_game_html, render_game_text
from audit.explain.game import GameView
from audit.explain.tables import ScoreTable
from tests.explain.test_game import flat
from tests.explain.test_winner import (
    P1_WINS,
    SWAPPED,
    deals_game,
    fees_and_prize,
    game_view,
    hands,
    invalid_accepted_at_three,
    won_by,
)
from tests.replay.cases import base

P2_WINS = {**SWAPPED, "results": {"P2": ("won", 0, "40.00"), "P1": ("lost", 40, "-40.00")}}
"""A deal P2 wins: P1 is charged 40 and gives up 40 chips."""


def best_of_two(first: dict[str, object], second: dict[str, object], winner: str) -> GameView:
    """A best of 2 of the deals ``first`` and ``second``, its game_won row naming
    ``winner``, to whom the ledger pays the prize."""
    game, played = hands([first, second], game_format="deals")
    return game_view(replace(game, game_events=[won_by(winner)],
                             ledger=fees_and_prize(winner, "180.00", "20.00")), played)  # fmt: skip


def grid(table: ScoreTable) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Each row of deal cells and of totals: its label and each player's (text, note)."""
    out = []
    for row in table.rows:
        out.append((row.label, tuple((c.text, c.note) for c in row.cells)))
        out.append(("total", tuple((c.text, c.note) for c in row.totals)))
    return out


def test_deals_chips_table_shows_the_rules_chips_where_a_deals_points_are_wrong() -> None:
    """`deals.chips`, `deals.tie`: deal 1 records P2 losing 35 points (the rules charge 40:
    the hand's score.points) and the chips follow them, -35 and +35; P2 wins deal 2 by 40.
    The record's totals put P2 5 chips ahead, the rules' tie them at 0, as the game's
    finding says: each deal 1 cell shows the rules' chips beside the record's, the totals
    are the rules' with the recorded ones beside them, and the deal says why once."""
    wrong = {"P1": ("won", 0, "35.00"), "P2": ("lost", 35, "-35.00")}
    view = best_of_two(base(results=wrong), P2_WINS, "P2")
    assert [(f.check, f.expected) for f in view.findings] == [("deals.chips", "one more deal")]
    assert view.hands[0].checks == ("score.points",)
    assert view.scores is not None
    assert grid(view.scores) == [
        ("deal 1", (("+35", "+40 by the rules"), ("-35", "-40 by the rules"))),
        ("total", (("+40", "+35 recorded"), ("-40", "-35 recorded"))),
        ("deal 2", (("-40", ""), ("+40", ""))),
        ("total", (("0", "-5 recorded"), ("0", "+5 recorded"))),
    ]
    assert view.scores.rows[0].events[0].text == (
        "the recorded chips follow the recorded points of P2, which the rules do not give "
        "(see the deal's findings)"
    )
    assert view.scores.how == (
        "the chips each deal moved, as recorded, with the rules' chips beside any that "
        "differ; then each player's running total by the rules' chips, with the recorded "
        "total beside it where that differs (the winner of a deal takes what the losers "
        "lose); the most chips by the rules wins"
    )
    text = flat(render_game_text(view, width=200))
    assert "(+40 by the rules)" in text
    assert "(-5 recorded)" in text
    page = render_game_html(view)
    assert "<small>(+40 by the rules)</small>" in page
    assert "<small>(-5 recorded)</small>" in page


def test_deals_chips_table_of_an_honest_game_is_the_record_with_no_notes() -> None:
    """`deals.chips`: P1 wins both deals, 40 chips each, as the rules give: every cell and
    total is the record's with nothing beside it, and no deal has a word of its own."""
    view = deals_game(base(results=P1_WINS), "P1")
    assert view.findings == ()
    assert view.scores is not None
    assert grid(view.scores) == [
        ("deal 1", (("+40", ""), ("-40", ""))),
        ("total", (("+40", ""), ("-40", ""))),
        ("deal 2", (("+40", ""), ("-40", ""))),
        ("total", (("+80", ""), ("-80", ""))),
    ]
    assert [e.text for row in view.scores.rows for e in row.events] == ["P1 wins the game"]


def test_deals_chips_table_totals_follow_the_rules_where_the_last_deals_points_are_wrong() -> (
    None
):
    """`deals.chips` (schemas/money.md: the winner is judged on the rules' chips): P1
    wins deal 1 by 40 and P2 wins deal 2, recorded as P1 losing 45 points (the rules
    charge 40), the chips following them: the record's totals put P2 5 ahead, the rules'
    tie them at 0, so deal 2's cells and the totals after it show the rules' beside the
    record's, and deal 1's are the record's alone."""
    wrong = {"P2": ("won", 0, "45.00"), "P1": ("lost", 45, "-45.00")}
    view = deals_game({**SWAPPED, "results": wrong}, "P2")
    assert view.scores is not None
    assert grid(view.scores) == [
        ("deal 1", (("+40", ""), ("-40", ""))),
        ("total", (("+40", ""), ("-40", ""))),
        ("deal 2", (("-45", "-40 by the rules"), ("+45", "+40 by the rules"))),
        ("total", (("0", "-5 recorded"), ("0", "+5 recorded"))),
    ]
    assert view.result.startswith("recorded as won by P2; by the rules the lead on chips is tied")


def test_deals_chips_table_of_a_deal_the_rules_leave_open_says_what_they_do_not_know() -> None:
    """`deals.chips` (001_ and 004_: an invalid declaration costs 80; docs/replay.md,
    "Declaring"): P1's invalid declaration in deal 2 of three players is accepted as a win
    of 80 chips. By the rules it costs P1 80, and P2 and P3 play on past the end of the
    record: P1's cell and total are the rules' beside the record's, and P2's and P3's are
    the record's, said to be not known by the rules, as the note under the table says."""
    first, second = invalid_accepted_at_three()
    view = best_of_two(first, second, "P1")
    assert view.scores is not None
    unknown = "as recorded: not known by the rules from deal 2"
    assert grid(view.scores)[2:] == [
        ("deal 2", (("-40", "not known by the rules"), ("+80", "-80 by the rules"),
                    ("-40", "not known by the rules"))),
        ("total", (("+40", unknown), ("-120", "+40 recorded"), ("-80", unknown))),
    ]  # fmt: skip
    assert view.scores.rows[1].events[0].text == (
        "P1's invalid declaration was accepted as a win: by the rules it costs P1 80 chips, "
        "and the others play on past the end of the record, so their chips in this deal are "
        "not known (see the deal's findings)"
    )
    assert view.scores.how.endswith(
        "; where the rules do not know a player's chips in a deal, that player's totals from "
        "it are the record's, and say so"
    )
    assert view.scores.notes[-1].text.endswith(
        "The chips above count the rules' chips of it where the rules know them, and the "
        "record's, said so, where they do not."
    )


def test_deals_chips_table_says_a_chip_finding_in_its_cell_and_no_why_of_the_deal() -> None:
    """`deals.chips`: P2's chips in deal 2 are recorded as -41 where the points (40, right)
    give -40, a finding of their own: the cell says what they should be, the totals are
    the rules', and the deal says nothing of following wrong points (there are none)."""
    view = deals_game(base(results={"P1": ("won", 0, "40.00"), "P2": ("lost", 40, "-41.00")}),
                      "P1")  # fmt: skip
    assert view.scores is not None
    assert grid(view.scores)[2:] == [
        ("deal 2", (("+40", ""), ("-41", "should be -40"))),
        ("total", (("+80", ""), ("-80", "-81 recorded"))),
    ]
    assert [e.text for e in view.scores.rows[1].events] == ["P1 wins the game"]


def test_deals_chips_table_a_winner_who_took_what_a_wrong_loser_gave_is_that_losers_cell() -> (
    None
):
    """`deals.chips`: P2's chips in deal 2 are recorded as -41 where the points (40, right)
    give -40, and P1, who won, took the 41: one finding, P2's (``games.deals``). The winner's
    cell shows the rules' chips beside the record's, and the deal does not say its chips
    follow wrong results (a blind tester's deal read "the recorded chips follow the deal's
    recorded results, which the rules do not give", its points all right)."""
    view = deals_game(base(results={"P1": ("won", 0, "41.00"), "P2": ("lost", 40, "-41.00")}),
                      "P1")  # fmt: skip
    assert view.scores is not None
    assert grid(view.scores)[2:] == [
        ("deal 2", (("+41", "+40 by the rules"), ("-41", "should be -40"))),
        ("total", (("+80", "+81 recorded"), ("-80", "-81 recorded"))),
    ]
    assert [e.text for e in view.scores.rows[1].events] == ["P1 wins the game"]
    assert [(f.check, f.player) for f in view.findings] == [("deals.chips", "P2")]


def test_deals_tie_a_lead_tied_after_the_last_deal_says_one_more_deal_is_played() -> None:
    """`deals.tie` (seeds silent; the preset: "When the lead is tied after the last deal,
    one more deal is played"): a best of 2 whose deals P1 and P2 win by 40 each stands at
    0 to 0, so a third deal is played, which P1 wins. The table says so after deal 2, where
    the third deal comes from (a blind tester saw 0 to 0, a deal 3, and no word of the
    tie), and nowhere else."""
    game, played = hands([base(results=P1_WINS), P2_WINS, base(results=P1_WINS)],
                         game_format="deals")  # fmt: skip
    view = game_view(replace(game, game_events=[won_by("P1", 3)],
                             ledger=fees_and_prize("P1", "180.00", "20.00")), played)  # fmt: skip
    assert view.scores is not None
    lines = [[e.text for e in row.events] for row in view.scores.rows]
    assert lines[1] == [
        "P1 and P2 tied at the lead after deal 2 of the game's 2: one more deal (deals.tie)"
    ]
    assert not any("tied" in text for text in lines[0] + lines[2])
