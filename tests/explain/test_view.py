"""The view model of an explained hand: the facts each renderer shows."""

from __future__ import annotations

import io

from rich.console import Console

from audit.cards import CODE_TEXT
from audit.explain import build_view, print_view, render_html, render_text
from audit.explain.cards import LOOSE, ONE_CARD
from audit.explain.points import points_view
from audit.explain.turns import turn_views
from audit.explain.view import HandView
from audit.records import GameUnit, Hand
from audit.replay.outcome import Expected
from audit.rules.melds import Jokers
from audit.rules.ruleset import load_preset
from audit.rules.scoring import score_arrangement
from audit.unit import audit_unit
from tests.explain.hands import DISPUTE, INVALID
from tests.explain.test_fairplay import flat
from tests.explain.test_html import QUOTES, hostile_hand
from tests.replay.cases import base, longer
from tests.replay.scenario import cards, parse_event, scenario
from tests.replay.test_value_cards import A as VALUE_A
from tests.replay.test_value_cards import B as VALUE_B
from tests.replay.test_value_cards import C as VALUE_C


def view_of(hand: dict[str, object]) -> HandView:
    game, played = scenario(**hand)  # type: ignore[arg-type]
    unit = audit_unit(GameUnit(game.game_id, game, [played]))
    return build_view(unit, played.hand_id, source="logs", version="VERSION")


def test_a_loser_is_charged_card_by_card_and_shown_the_best_arrangement() -> None:
    view = view_of(DISPUTE)
    p2 = view.players[1]
    assert (p2.outcome, p2.points, p2.recorded) == ("lost", "60", "lost, 65 points, amount -65.00")
    assert not p2.agrees
    assert p2.severity == "critical"
    assert p2.points_detail is not None
    assert [(line.card.code, line.points) for line in p2.points_detail.lines] == [
        ("7D", 7), ("7H", 7), ("8D", 8), ("9D", 9), ("AD", 10), ("KH", 10), ("9S", 9),
    ]  # fmt: skip
    assert p2.points_detail.steps == ("the cards left unmatched add up to 60", "charged 60 points")
    assert p2.best is not None
    # P2 showed their groups: the fewer points are what they could have shown, not a
    # refund (points.shown; a blind tester's agent read them as one)
    assert p2.best.summary == (
        "36 points, 24 fewer than charged, had they shown these groups (the rules charge the "
        "groups as shown)")
    assert [g.text for g in p2.best.melds] == ["2S 3S 4S", "7D 8D 9D", "TC JC QC"]
    assert [c.code for c in p2.best.unmatched] == ["9S", "7H", "KH", "AD"]


def test_a_hand_of_a_game_still_running_says_so_in_its_headline() -> None:
    """A support agent explaining a hand of a pool game the logs cut while it ran is told
    so, since the game's scores and prize are not settled yet (a blind support agent found
    nothing in the hand's words to say it); a finished game's hand says nothing of it."""
    assert view_of(INVALID).headline == (
        "Hand H1, hand 1 of game G1 (101 pool rummy, still running when the logs were cut, "
        "rules standard-13)"
    )
    assert "running" not in view_of({**INVALID, "running": False}).headline


def test_the_wild_card_marks_its_rank_as_jokers() -> None:
    view = view_of(DISPUTE)
    assert [(c.code, c.joker) for c in view.joker_cards] == [
        ("JK", "printed"), ("5S", "wild"), ("5H", "wild"), ("5D", "wild"), ("5C", "wild"),
    ]  # fmt: skip
    assert (view.wild.rank, view.wild.suit, view.wild.colour) == ("5", "♣", "black")
    assert view.verdict == "2 findings, worst critical"


def test_a_printed_joker_as_wild_card_makes_aces_jokers_and_an_invalid_declarer_is_told_why() -> (
    None
):
    view = view_of(INVALID)
    assert [c.code for c in view.joker_cards] == ["JK", "AS", "AH", "AD", "AC"]
    p1 = view.players[0]
    assert (p1.outcome, p1.points, p1.declaration) == ("invalid declaration", "80", "invalid")
    assert p1.declaration_reasons[0] == "9D 9C has 2 cards; a sequence or set needs at least 3"
    assert p1.best is not None
    assert p1.best.summary == (
        "no valid declaration was possible with these cards; the fewest points they could"
        " leave are 38 (not what is charged: an invalid declaration costs 80)"
    )
    assert view.players[2].groups_title == "held when they left"


def test_a_draw_and_the_discard_after_it_are_one_turn_and_anything_else_a_row() -> None:
    lines = [
        "P1 draw_stock 2S",
        "P1 discard 2S",
        "P2 discard 3C",
        "P2 draw_discard 2S auto timeout",
        "P1 discard 4D",
        "- reshuffle: 4C 5D",
    ]
    turns = turn_views(
        [parse_event(i, line) for i, line in enumerate(lines)], Jokers.of_rank(5), []
    )
    assert [(t.seqs, t.player) for t in turns] == [
        ("0-1", "P1"), ("2", "P2"), ("3", "P2"), ("4", "P1"), ("5", "server"),
    ]  # fmt: skip
    assert turns[3].note == ""
    assert turns[2].note == "by the server (timeout)"
    assert turns[4].note == "the discard pile was reshuffled into a new stock of 2 cards"


def test_a_hand_that_cannot_be_replayed_says_why_in_both_views() -> None:
    why = "hand H9 has no events"
    hand = Hand("H9", "G9", 1, [], [], -1, -1, [], [], quarantine=why)
    view = build_view(audit_unit(GameUnit("G9", None, [hand])), "H9", source="logs",
                      version="VERSION")  # fmt: skip
    sentence = f"This hand could not be replayed: {why}."  # the id keeps its case
    assert sentence in render_text(view)
    assert sentence in render_html(view)
    assert "Fair play was not looked up: no --out was given" in render_text(view)
    assert "Fair play was not looked up: no --out was given" in render_html(view)


def test_a_terminal_gets_colour_and_still_no_markup_from_the_log() -> None:
    out = io.StringIO()
    view = view_of(hostile_hand())
    print_view(view, Console(file=out, force_terminal=True, color_system="truecolor", width=100))
    text = out.getvalue()
    assert "\x1b[" in text
    assert QUOTES in text


def test_a_hand_with_no_valid_arrangement_shows_its_jokers_as_left_over() -> None:
    """P1 holds no pure sequence, so every card counts: its joker (AS, aces being wild) is
    listed with the cards left over, not as a group of its own."""
    hand = {
        **INVALID,
        "seats": {**INVALID["seats"], "P1": "2H 5H 8H JS 3S 6S 9D QD 2C 5C KC TH 7D"},
        "events": [
            "P1 draw_stock AS",
            "P1 declare 7D: 2H 5H 8H / JS 3S 6S / 9D QD AS / 2C 5C KC TH",
            *INVALID["events"][2:],
        ],
    }
    p1 = view_of(hand).players[0]
    assert p1.best is not None
    assert p1.best.melds == ()
    assert sorted(c.code for c in p1.best.unmatched) == sorted(
        ["2H", "5H", "8H", "JS", "3S", "6S", "9D", "QD", "2C", "5C", "KC", "TH", "AS"]
    )


def test_a_wrong_amount_is_not_said_to_agree() -> None:
    """The outcome and the points agree, the money does not: `score.amount`, and the
    player's record differs (amount), in the view, the terminal and the page."""
    hand = base(results={"P1": ("won", 0, "36.00"), "P2": ("lost", 40, "-41.00")})
    view = view_of(hand)
    p1, p2 = view.players
    assert (p1.amount, p1.agrees) == ("36.00", True)
    assert (p2.outcome, p2.points, p2.amount) == ("lost", "40", "-40.00")
    assert p2.recorded == "lost, 40 points, amount -41.00"
    assert (p2.agrees, p2.differs, p2.comparison) == (False, ("amount",), "differs (amount)")
    assert [f.check for f in view.findings] == ["score.amount"]
    text = " ".join(render_text(view).replace("│", " ").split())
    assert "recorded lost, 40 points, amount -41.00: differs (amount)" in text
    section = next(s for s in render_html(view).split("<section")[1:] if "P2, 2nd to play" in s)
    assert "differs (amount)" in section
    assert "agrees" not in section


def test_each_player_is_shown_the_cards_dealt_and_the_hand_its_table() -> None:
    """The deal procedure: shoe[i] for i < n*k goes to seat i mod n."""
    view = view_of(DISPUTE)
    for player, seat in zip(view.players, DISPUTE["seats"].values(), strict=True):
        assert [c.code for c in player.dealt] == [CODE_TEXT[c] for c in sorted(cards(seat))]
    assert view.table is not None
    assert view.table.terms == "table T1, real money, 1.0000 a point, rake 10.00%"
    assert view.times == "not recorded"
    pool = view_of(INVALID)
    assert pool.table is not None
    assert pool.table.terms == "table T1, real money, entry fee 100.00, rake 10.00%"


WRONG_DROP = {
    **DISPUTE,
    "stock": "9S 6C 5D",
    "events": [
        "P1 draw_stock 9S",
        "P1 discard 9S",
        "P2 draw_stock 6C",
        "P2 discard 6C",
        "P3 draw_stock 5D",
        "P3 discard 2C",
        "P1 drop",
        "P2 drop",
    ],
    "results": {
        "P1": ("first_drop", 20, "-20.00"),
        "P2": ("middle_drop", 40, "-40.00"),
        "P3": ("won", 0, "54.00"),
    },
}
"""P1 drops at the start of their second turn (a middle drop, 40: 001_ 'Middle drop | 40
points') and is recorded as a first drop (20); the winner's 54.00 is what the recorded
outcomes pay (60 less the 10% rake), 72.00 what the rules' outcomes pay (80 less it)."""


def test_a_wrong_kind_of_drop_is_settled_at_the_rules_points_001() -> None:
    """`drops.points` (001_: 'Middle drop | 40 points'): a middle drop recorded as a first
    drop is a wrong penalty, like wrong points (records.charged_points): no one else's
    outcome rests on it, so the money is judged at the rules' 40 points (schemas/money.md):
    the amounts follow the 20 charged, which the drop's one finding says (docs/replay.md,
    "Money"), and each player is shown what the rules pay them (a blind tester: a pool
    player recorded as a middle drop was put out at 101 where the rules' first drop left
    them at 81, and no game check said so)."""
    view = view_of(WRONG_DROP)
    p1, p2, p3 = view.players
    assert [(f.check, f.player) for f in view.findings] == [("drop.penalty", "P1")]
    assert view.findings[0].message.endswith(
        "; the hand's money follows the 20 points charged: the record settles P1 at -20.00 "
        "where the rules give -40.00 and P3 at 54.00 where they give 72.00.")
    assert (p1.outcome, p1.points, p1.amount) == ("middle drop", "40", "-40.00")
    assert p1.why == "dropped after drawing a card in this hand (a middle drop)"
    assert p1.differs == ("outcome", "points", "amount")
    assert (p2.amount, p2.agrees) == ("-40.00", True)
    assert (p3.amount, p3.agrees, p3.differs) == ("72.00", False, ("amount",))
    assert p3.comparison == "differs (amount)"
    assert p3.rule is not None
    assert p3.rule.key == "turns.last_player"


def test_a_winner_whose_amount_follows_the_losers_recorded_amounts_is_shown_to_differ() -> None:
    """schemas/money.md, "Points rummy": P2's 77 points at 0.0050 a point, 0.385, recorded
    as -0.38 (half-up gives -0.39), and P1's 0.34 what that 0.38 pays less the 10% rake:
    one score.amount, P2's, says both (followed.follows_losers), and P1 is still shown the
    rules' 0.35 beside the recorded 0.34, not "agrees"."""
    view = view_of(longer(point_value="0.0050", results={
        "P1": ("won", 0, "0.34"), "P2": ("lost", 77, "-0.38")}))  # fmt: skip
    assert [(f.check, f.player) for f in view.findings] == [("score.amount", "P2")]
    p1, p2 = view.players
    assert (p1.amount, p1.agrees, p1.differs) == ("0.35", False, ("amount",))
    assert (p2.amount, p2.agrees, p2.differs) == ("-0.39", False, ("amount",))
    # the part of a paisa rounded is said (a blind tester read -0.13 as 5 x 0.0250)
    assert p2.money == "77 points at 0.0050 a point, 0.385 rounded half-up to the paisa"


def test_a_middle_drop_recorded_as_lost_is_settled_at_the_rules_points_001() -> None:
    """`drops.points` (001_: 'Middle drop | 40 points'): a middle drop recorded as a hand
    lost at the full 80 is a wrong charge on a loser, not a wrong verdict (the winner is
    the same): the money is judged at the rules' 40 (records.charged_points). A blind
    tester: the game's money called the recorded 80 "by the rules", hiding the overcharge
    where the ledger followed the record and blaming the ledger where it paid the 40."""
    hand = {**WRONG_DROP, "results": {**WRONG_DROP["results"], "P1": ("lost", 80, "-80.00"),
                                      "P3": ("won", 0, "108.00")}}  # fmt: skip
    view = view_of(hand)
    p1 = view.players[0]
    # The money followed the 80 charged: said in the outcome's finding, one finding, not
    # also a score.amount (schemas/money.md; followed.charges_points; a blind tester's had
    # both until 2026-12-07), and P3 is still shown the rules' 72.00
    assert [(f.check, f.player) for f in view.findings] == [("score.outcome", "P1")]
    assert (p1.outcome, p1.points, p1.amount) == ("middle drop", "40", "-40.00")
    assert view.findings[0].message.endswith(
        "; the hand's money follows the 80 points charged: the record settles P1 at -80.00 "
        "where the rules give -40.00 and P3 at 108.00 where they give 72.00.")
    p3 = view.players[2]
    assert (p3.amount, p3.agrees, p3.differs) == ("72.00", False, ("amount",))


def test_a_show_of_other_cards_is_not_compared_not_said_to_agree() -> None:
    """`declaration.groups_exact`: a loser who shows cards they do not hold is given no
    points by the rules; their points are taken as recorded (docs/replay.md) and said so,
    not as "?"; the record is 'not compared', never 'agrees', and no amount of the rules is
    shown beside it."""
    shown = "P2 show: 2S 3S 4S / TC JC QC / 7D 7H / 8D 9D / AD KH 9H"  # 9H for 9S
    hand = {**DISPUTE, "events": [*DISPUTE["events"][:-1], shown]}
    view = view_of(hand)
    p2 = view.players[1]
    assert (p2.points, p2.points_recorded) == ("65", True)
    assert p2.score == "lost, 65 points, taken as recorded"
    assert (p2.agrees, p2.differs, p2.amount) == (False, (), "")
    assert p2.comparison == (
        "not compared: the cards shown are not the cards held, so the rules cannot count them"
    )
    text = " ".join(render_text(view).replace("│", " ").split())
    assert "?" not in text
    assert "P2, 2nd to play: lost, 65 points, taken as recorded" in text
    assert (
        "P2: lost, 65 points, taken as recorded (showed other cards than held); recorded lost, "
        "65 points, amount -65.00: not compared: the cards shown are not the cards held"
    ) in text


def test_a_ten_card_wrong_show_is_shown_a_declaration_in_the_sizes_allowed_000() -> None:
    """`declaration.groupings` (000_: 'For 10 Cards -(5+5 or 4+3+3)'): P1 lays 2H-7H and
    TC-KC as 6+4, an invalid declaration (80 points) of cards that cost 0 as a loser. The
    best arrangement shown is a valid declaration, cut 3+3+4, not the 6+4 just refused."""
    view = view_of(
        {
            "seats": {
                "P1": "2H 3H 4H 5H 6H 7H TC JC QC 9S",
                "P2": "2S 4S 6S 9D JD KS 3C 5C 7D QH",
            },
            "wild": "8D",
            "open": "AS",
            "stock": "KC",
            "events": ["P1 draw_stock KC", "P1 declare 9S: 2H 3H 4H 5H 6H 7H / TC JC QC KC"],
            "results": {"P1": ("invalid_declare", 80, "-80.00"), "P2": ("won", 0, "72.00")},
            "ruleset": "standard-10",
        }
    )
    p1 = view.players[0]
    assert (p1.outcome, p1.points, p1.declaration) == ("invalid declaration", "80", "invalid")
    assert "declaration.groupings" in p1.declaration_reasons[0]
    assert p1.best is not None
    assert p1.best.summary == "0 points: these cards could have made a valid declaration"
    assert sorted(len(g.cards) for g in p1.best.melds) == [3, 3, 4]
    assert [g.text for g in p1.best.melds] == ["2H 3H 4H", "5H 6H 7H", "TC JC QC KC"]


def test_a_21_card_wrong_show_of_a_ready_hand_could_have_been_a_valid_declaration() -> None:
    """`points.ready_hand` (standard-21, seeds silent; Classic Rummy): a 21-card loser whose
    cards are every one in melds meeting the requirement is charged 2, not 0. An invalid
    declarer holding such cards could have won: A lays the worked example's 21 cards as
    two groups of 11 and 10 (120 points). They were told "no valid declaration was
    possible ...; the fewest points they could leave are 2" above the valid declaration
    itself (a blind tester)."""
    view = view_of(
        {
            "seats": {"A": VALUE_A, "B": VALUE_B},
            "wild": "7H",
            "open": "QS",
            "stock": "3H 4C 8H",
            "events": ["A draw_stock 3H", "A discard 3H", "B draw_stock 4C", "B discard 4C",
                       "A draw_stock 8H",
                       "A declare 8H: 2S 3S 4S 5S 9D TD JD QD AC 2C 3C / "
                       "4D 5D 8H KC KD KS KH 9C 9H JK"],
            "results": {"A": ("invalid_declare", 120, "-120.00"), "B": ("won", 0, "108.00")},
            "ruleset": "standard-21",
            "decks": 3,
            "printed_jokers": 3,
        }
    )  # fmt: skip
    a = view.players[0]
    assert (a.outcome, a.points, a.declaration) == ("invalid declaration", "120", "invalid")
    assert a.best is not None
    assert a.best.summary == "0 points: these cards could have made a valid declaration"
    assert "pure sequence" in [g.kind for g in a.best.melds]


ACCEPTED_INVALID: dict[str, object] = {
    "seats": {
        "P1": "2S 9S KS 2H 9H KH 2D 4D 5D KD 2C 7C 8C",
        "P2": "3S 6H 7H 8H 3D 6D 7D 4C 5C TC JC QC JK",
        "P3": "4S 7S JS AH 5H 8H QH 4H TD QD 3C 6C KC",
    },
    "wild": "9C",
    "open": "AS",
    "stock": "QS",
    "events": [
        "P1 draw_stock QS",
        "P1 declare QS: 4D 5D 9S / 7C 8C 9H / KS KH KD / 2S 2H 2C 2D",
        "P2 show: TC JC QC / 6H 7H JK / 3S 3D 4C 5C 7D 8H 6D",
        "P3 show: AH 5H 8H QH 4H TD QD 3C 6C KC 4S 7S JS",
    ],
    "results": {
        "P1": ("won", 0, "27.00"),
        "P2": ("lost", 36, "-10.00"),
        "P3": ("lost", 40, "-20.00"),
    },
    "point_value": "0.5000",
}
"""Points rummy: P1's declaration has no pure sequence, but the platform accepted it."""


def test_amounts_of_a_verdict_the_rules_refuse_are_said_taken_as_recorded() -> None:
    """schemas/money.md: a hand whose recorded winner the rules refuse has its money taken
    as recorded (no score.amount). Under `declaration.invalid_ends_hand` = false, P2 and P3
    play on after P1's invalid declaration by the rules, past the end of the record: the
    rules give them no points, so P2's 36 points and -10.00 are not shown as the rules'
    (a blind tester read "lost, 36 points, amount -10.00" as the rules' amount), nor said
    to agree, and the words say why."""
    view = view_of(ACCEPTED_INVALID)
    assert [f.check for f in view.findings] == ["declare.verdict"]
    p2 = view.players[1]
    assert (p2.score, p2.amount, p2.groups_title) == (
        "lost, 36 points, taken as recorded", "", "as shown"
    )
    assert p2.comparison == (
        "not compared: the record ends the hand where the rules play on; the recorded amount "
        "-10.00 follows the recorded outcome of P1 (the finding on P1), which the rules "
        "refuse, and is taken as recorded (by the rules no one has won the hand where the "
        "record ends it)"
    )
    text = " ".join(render_text(view).replace("│", " ").split())
    assert (
        "P2: lost, 36 points, taken as recorded (was still in the hand when P1's invalid "
        "declaration was accepted; by the rules P1 is out and the others play on"
    ) in text
    assert "amount -10.00 (" not in text
    assert "agrees" not in text
    # P1 is out with 80 points whoever wins later: that much the rules do settle, 80 x
    # 0.5000 (a blind tester: the declarer was shown no amount of the rules' beside a
    # recorded win of 27.00).
    p1 = view.players[0]
    assert (p1.score, p1.amount) == ("invalid declaration, 80 points", "-40.00")
    assert p1.comparison == "differs (outcome, points, amount)"


TWO_TURNS = [
    "A draw_stock JH", "A discard JH", "B draw_stock AS", "B discard AS", "A draw_stock TD",
]  # fmt: skip
"""A's and B's turns before A declares, in the two-player hands below."""
ACCEPTED_INVALID_TWO: dict[str, object] = {
    "seats": {
        "A": "AH 2H 3H 4S 5S 6S 7D 8D 9D KC KD QS 2C",
        "B": "2D 4D 6D 8C TC QH KH 3S 7S 9S JC 9H 2S",
    },
    "wild": "5C",
    "open": "QS",
    "stock": "JH AS TD",
    "events": [*TWO_TURNS, "A declare 2C: AH 2H 3H / 4S 5S 6S / 7D 8D 9D TD / KC KD QS"],
    "results": {"A": ("won", 0, "34.00"), "B": ("lost", 80, "-40.00")},
    "point_value": "0.5000",
    "rake_pct": "15.00",
}
"""Points rummy, two players: A's KC KD QS is no meld, but the platform accepted the
declaration and charged B the full count (a blind tester's hand R1-01)."""


def test_the_last_player_left_after_an_accepted_invalid_declaration_is_told_they_won_001() -> (
    None
):
    """`turns.last_player` and `declaration.invalid_penalty` (001_42b102d6f12eaa06.txt:
    'Invalid declarations receive an 80-point penalty'): by the rules A is out with 80 and
    B, the one player left, wins the hand and is paid what A's 80 points pay less the rake.
    Explain told B "lost, 80 points ... agrees ... by the rules no one won the hand" (a
    blind tester): B is told they won, what the rules' outcomes pay, and that the record
    differs; A's declare.verdict, the one finding of the one mistake, says so too."""
    view = view_of(ACCEPTED_INVALID_TWO)
    assert [(f.check, f.player) for f in view.findings] == [("declare.verdict", "A")]
    assert "; so B is recorded as lost (80 points), but the hand gives won" in (
        view.findings[0].message)
    a, b = view.players
    assert (a.outcome, a.points, a.amount) == ("invalid declaration", "80", "-40.00")
    assert (b.outcome, b.points, b.amount) == ("won", "0", "34.00")
    assert b.why == "was the last player left in the hand once A's invalid declaration put A out"
    assert b.rule is not None
    assert b.rule.key == "turns.last_player"
    assert (b.agrees, b.differs) == (False, ("outcome", "points", "amount"))
    assert b.comparison == "differs (outcome, points, amount)"
    text = " ".join(render_text(view).replace("│", " ").split())
    assert "B: won, 0 points, amount 34.00 (was the last player left in the hand" in text
    assert "no one won" not in text


def test_a_player_without_a_results_row_is_said_so_in_a_sentence() -> None:
    """No results row for P3: "nothing is recorded for P3", not "recorded nothing recorded"
    (a blind tester)."""
    results = {p: row for p, row in DISPUTE["results"].items() if p != "P3"}
    view = view_of({**DISPUTE, "results": results})
    p3 = view.players[2]
    assert (p3.recorded, p3.record) == ("", "nothing is recorded for P3")
    assert p3.comparison == "differs (outcome)"
    text = " ".join(render_text(view).replace("│", " ").split())
    assert "; nothing is recorded for P3: differs (outcome)" in text
    assert "recorded nothing" not in text
    assert "<p>Nothing is recorded for P3:" in render_html(view)


def test_a_lone_joker_is_a_joker_of_0_points_in_both_arrangements_not_a_group() -> None:
    """`points.joker_points`: the server's arrangement of P2 (every card counts) set the
    joker AH aside as "AH group of jokers: AH are jokers put aside together" while the
    best arrangement left it "not in any group" (a blind tester). One joker alone is no
    group: both list it among the cards left over and say what it is worth."""
    view = view_of(
        {
            "seats": {
                "P1": "AS 6S 6H QH KH 6D 7D 8D 9D 2C 3C 4C 5C",
                "P2": "9S TS QS KS AH 8H TH JH JD KD 7C 9C QC",
            },
            "wild": "JK",
            "open": "3S",
            "stock": "TC",
            "events": [
                "P1 draw_stock TC",
                "P1 declare TC: 2C 3C 4C 5C / 7D 8D 9D / QH KH AS / 6S 6H 6D",
            ],
            "results": {"P1": ("won", 0, "72.00"), "P2": ("lost", 80, "-80.00")},
        }
    )
    p2 = view.players[1]
    assert p2.groups == ()
    assert "AH" in [c.code for c in p2.loose]
    assert p2.best is not None
    assert "AH" in [c.code for c in p2.best.unmatched]
    assert p2.loose_note == p2.best.note == "AH is a joker, 0 points"
    text = render_text(view)
    assert "group of jokers" not in text
    assert "are jokers put aside together" not in text
    assert text.count("(AH is a joker, 0 points)") == 2


def test_each_pure_sequence_a_21_card_loser_keeps_is_named_on_its_own() -> None:
    """standard-21 `points.unmet_requirement` (pure_runs_exempt; Adda52: "If 3 sequences are
    not made then the entire hand is counted as points, with the exception of the pure
    sequences and jokers"): a loser with two pure sequences, 2D 3D 4D and TH JH QH, is told
    card by card that every card but those two counts, as the summary says; it said "but
    the pure sequence 2D 3D 4D TH JH QH", two sequences as one (a blind tester)."""
    rules = load_preset("standard-21")
    jokers = Jokers.for_wild_card("5C", rules)
    groups = [cards("2D 3D 4D"), cards("TH JH QH"), cards("9S KC 8H")]
    score = score_arrangement(groups, jokers, rules, cap=rules.cap)
    assert score.exempt_groups == (tuple(cards("2D 3D 4D")), tuple(cards("TH JH QH")))
    want = Expected("lost", score.points, "points.unmet_requirement", score.summary(),
                    score=score)  # fmt: skip
    detail = points_view(want, jokers, rules)
    assert detail is not None
    assert detail.steps[0].startswith(
        "every card but the pure sequences 2D 3D 4D and TH JH QH counts, because "
    )
    assert "the pure sequences 2D 3D 4D and TH JH QH" in score.summary()


B_DEALT = "2D 3D 4D 6C 7C 8C QH QS 3S 7S 9S 9H 2S"
TWO = {"A": "AH 2H 3H 4S 5S 6S 7D 8D 9D KC KD KH 2C", "B": B_DEALT}
REJECTED_VALID: dict[str, object] = {
    **ACCEPTED_INVALID_TWO,
    "seats": TWO,
    "events": [*TWO_TURNS, "A declare 2C: AH 2H 3H / 4S 5S 6S / 7D 8D 9D TD / KC KD KH"],
    "results": {"A": ("invalid_declare", 80, "-40.00"), "B": ("won", 0, "34.00")},
}
"""Points rummy, two players: A's declaration is valid (three pure sequences and a set),
but the platform rejected it, charged A the invalid declaration's 80 and paid B as the
winner: the reverse of ``ACCEPTED_INVALID_TWO``."""


def test_a_valid_declaration_the_platform_rejected_is_won_by_its_declarer_004() -> None:
    """`declaration.min_runs` and `declaration.min_pure_runs` (004_4c9baa4cf67655ae.txt: 'A
    player wins the game by making a valid declaration first. If the declaration is
    correct, they win with 0 points, and all other players' points are calculated based on
    their unmatched cards'; 001_42b102d6f12eaa06.txt: 'A valid declaration requires minimum
    2 sequences, with at least 1 pure sequence'): by the rules A won and B lost the 50
    points of their unmatched cards. Explain told B "won, 0 points ... agrees" (both
    players won by the rules: a blind tester); it tells A why the declaration is valid,
    B what they lost, and the findings say the same."""
    view = view_of(REJECTED_VALID)
    assert [(f.check, f.player) for f in view.findings] == [("declare.verdict", "A")]
    melds = (
        "its groups are melds, AH 2H 3H (pure sequence), 4S 5S 6S (pure sequence), 7D 8D 9D "
        "TD (pure sequence), KC KD KH (set), and hold the 2 sequences, one of them pure, that "
        "a declaration needs"
    )
    assert view.findings[0].message.startswith(
        f"A's declaration was judged invalid, but it is valid: {melds}; so B is recorded as "
    )  # B's recorded win is the verdict's (outcome._left_in_wins), said in its words
    a, b = view.players
    assert (a.outcome, a.points, a.amount) == ("won", "0", "21.25")
    assert a.why == "made a valid declaration, which the platform rejected"
    assert (a.declaration, a.declaration_reasons) == ("valid", (melds,))
    assert a.differs == ("outcome", "points", "amount")
    lost = (
        "was still in the hand when A's valid declaration, which the platform rejected, "
        "ended it; the cards left unmatched, QS QH 9S 9H 7S 3S 2S, are worth 50, arranged at "
        "best by the rules (no show recorded)"
    )
    assert (b.outcome, b.points, b.amount, b.why) == ("lost", "50", "-25.00", lost)
    assert (b.agrees, b.differs) == (False, ("outcome", "points", "amount"))
    assert view.findings[0].message.endswith(
        f"; so B is recorded as won (0 points), but the hand gives lost (50 points): B {lost}."
    )
    text = flat(render_text(view))
    assert f"B: lost, 50 points, amount -25.00 ({lost}); recorded won, 0 points" in text
    assert f"A's declaration is valid: - {melds}" in text
    assert "agrees" not in text


def test_after_a_rejected_valid_declaration_the_others_lose_what_they_held_then_004() -> None:
    """004_4c9baa4cf67655ae.txt: 'If the declaration is correct, they win with 0 points,
    and all other players' points are calculated based on their unmatched cards': with
    three players the record plays on after the platform rejected A's valid declaration
    (B draws JH and discards 2S, C drops, B is paid as the winner). By the rules the hand
    ended at A's declaration: B and C lost with the cards they held then, B capped at 40
    (`points.first_hand_show_cap`: no turn yet), C charged 23, not the drop recorded."""
    hand = {
        **REJECTED_VALID,
        "seats": {**TWO, "C": "AS 3C 5D 7H 8H TC JC 6D 4C 6H 8S TS QC"},
        "open": "QD",
        "stock": "TD JH",
        "events": [
            "A draw_stock TD",
            "A declare 2C: AH 2H 3H / 4S 5S 6S / 7D 8D 9D TD / KC KD KH",
            "B draw_stock JH",
            "B discard 2S",
            "C drop",
        ],
        "results": {
            "A": ("invalid_declare", 80, "-40.00"),
            "B": ("won", 0, "25.50"),
            "C": ("first_drop", 20, "-10.00"),
        },
    }
    view = view_of(hand)
    assert [(f.check, f.player) for f in view.findings] == [
        ("declare.verdict", "A"), ("score.outcome", "C"),
    ]  # fmt: skip
    a, b, c = view.players
    assert (a.outcome, b.outcome, b.points, c.outcome, c.points) == (
        "won", "lost", "40", "lost", "23",
    )  # fmt: skip
    assert b.rule is not None
    assert b.rule.key == "points.first_hand_show_cap"
    # B's cards as dealt, when the hand ended by the rules: not JH for 2S, as the record
    charged = [card.code for g in b.groups for card in g.cards] + [x.code for x in b.loose]
    assert sorted(charged) == sorted(CODE_TEXT[c] for c in cards(B_DEALT))
    assert c.why.endswith("the cards left unmatched, AS 6D 4C 3C, are worth 23, arranged at "
                          "best by the rules (no show recorded)")  # fmt: skip
    assert (c.groups_title, c.held) == ("arranged at best by the rules (no show recorded)", ())


def test_a_winner_charged_points_is_named_in_the_finding_001() -> None:
    """001_42b102d6f12eaa06.txt: 'The first player to arrange all 13 cards and declare
    wins with 0 points' (`declaration.min_runs`): P1, who declared validly, was charged 5.
    The finding said "P1 was charged 5 points; made a valid declaration." with no one
    making it (a blind tester); it says who."""
    view = view_of(base(results={"P1": ("won", 5, "36.00"), "P2": ("lost", 40, "-40.00")}))
    assert [(f.check, f.player, f.message) for f in view.findings] == [
        ("score.points", "P1", "P1 was charged 5 points; P1 made a valid declaration."),
    ]
    assert "score.points: P1 was charged 5 points; P1 made a valid declaration." in flat(
        render_text(view)
    )


def test_jokers_printed_joker_wild_rank_explain_tells_the_loser_why_an_ace_is_a_joker() -> None:
    """`jokers.printed_joker_wild_rank` (log-format.md: 'If the wild card is a printed
    joker, the ruleset says which rank is wild (usually aces)'): with JK turned up, P2's AS
    stands for 3D in 2D AS 4D; the record charged 80, the aces counted as plain cards.
    Explain's words for P2 say so and cite that rule, as the finding does (they said only
    "are worth 47", under `points.card_points`: a blind tester); the card points are still
    cited under the points card by card."""
    show = "P2 show: TC JC QC / 2D AS 4D / 3C 5D 7H 8H 6C 8C TD"
    hand = longer(wild="JK", results={"P1": ("won", 0, "69.30"), "P2": ("lost", 80, "-80.00")})
    hand["events"] = [*hand["events"][:-1], show]
    view = view_of(hand)
    p2 = view.players[1]
    assert p2.why == (
        "the cards left unmatched, 3C 5D 7H 8H 6C 8C TD, are worth 47, as shown: the wild card "
        "is a printed joker, so aces are jokers (jokers.printed_joker_wild_rank): AS makes 2D "
        "AS 4D an impure sequence; the 80 charged counts aces as plain cards"
    )
    assert p2.rule is not None
    assert p2.rule.key == "jokers.printed_joker_wild_rank"
    assert p2.points_detail is not None
    assert [r.key for r in p2.points_detail.rules] == ["points.card_points"]
    (found,) = [f for f in view.findings if f.check == "score.points"]
    assert found.message == f"P2 was charged 80 points; {p2.why}."


def test_a_game_event_finding_on_a_hand_is_placed_at_its_game_event_not_a_seq() -> None:
    """schemas/output.md: pool.elimination, pool.rebuy and pool.split give the
    game_events.seq; the hand view said "seq 3" of a hand whose events run 0-2 (a blind
    tester looked for it in the turn table)."""
    from audit.explain.view import FindingView

    def at(check: str) -> str:
        return FindingView("major", check, "C5", "3", "m", "r", "", "", "G1-05").at

    assert at("pool.elimination") == at("pool.split") == "game event 3"
    assert at("draw.stock_mismatch") == "seq 3"


DEEPER_DRAW: dict[str, object] = {
    **ACCEPTED_INVALID_TWO,
    "seats": TWO,
    "stock": "JH AS TD QD",
    "events": [
        "A draw_stock AS", "A discard AS", "B draw_stock TD", "B discard TD",
        "A draw_stock QD", "A discard QD", "B drop",
    ],
    "results": {"A": ("won", 0, "17.00"), "B": ("middle_drop", 40, "-20.00")},
}
"""A draws AS from under the stock's top card JH; B's next stock draw takes TD, the card
under AS: the platform's stock went on from there, and JH left it."""


def test_the_cards_a_draw_from_deeper_in_the_stock_passed_over_are_said_to_leave_it() -> None:
    """`turns.draw_top_card` (000_1729c72ad4c1f885.txt: 'pick the top most card from the
    face down deck'): one `draw.stock_mismatch`, at A's draw; the turn of the next stock
    draw says that the card passed over left the stock (docs/replay.md, Turns), which the
    finding alone never said (a blind tester)."""
    view = view_of(DEEPER_DRAW)
    assert [(f.check, f.seq) for f in view.findings] == [("draw.stock_mismatch", "0")]
    assert view.turns[1].note == (
        "took the card under the last stock draw's: JH, which that draw passed over, left "
        "the stock"
    )
    assert [t.note for t in view.turns if "passed over" in t.note] == [view.turns[1].note]


DUBLEES = "5C 5C 3D 3D 8C 8C 4S 4S QD QD 2H 2H JH JH 5H 5H KC 9S AC TD 6D"
REJECTED_DUBLEES: dict[str, object] = {
    "seats": {"A": DUBLEES, "B": VALUE_B, "C": VALUE_C},
    "wild": "7H",
    "open": "QS",
    "stock": "3H 4C",
    "events": [
        "A draw_stock 3H",
        "A declare 3H: 5C 5C / 3D 3D / 8C 8C / 4S 4S / QD QD / 2H 2H / JH JH / 5H 5H / KC 9S AC"
        " TD 6D",
    ],
    "results": {
        "A": ("invalid_declare", 120, "-120.00"),
        "B": ("lost", 9, "-9.00"),
        "C": ("lost", 120, "-120.00"),
    },
    "ruleset": "standard-21",
    "decks": 3,
    "printed_jokers": 3,
}
"""21 cards: A declares eight dublees, which the platform rejected."""


def test_a_declaration_valid_as_eight_dublees_cites_declaration_alternatives_in_both() -> None:
    """`declaration.alternatives` (docs/rules-21-27.md 4.3: eight dublees are a
    declaration): the replay's `declare.verdict` and explain's box for A cite the rule
    that makes the declaration valid, and the same one (a blind tester found the finding
    citing `declaration.min_pure_runs` and explain `declaration.min_runs`), and name the
    dublees."""
    view = view_of(REJECTED_DUBLEES)
    (verdict,) = [f for f in view.findings if f.check == "declare.verdict"]
    assert verdict.rule.startswith("declaration.alternatives: ")
    assert "it is 8 dublees, 4S 4S, 2H 2H, 5H 5H, JH JH, 3D 3D, QD QD, 5C 5C, 8C 8C" in (
        verdict.message
    )
    a = view.players[0]
    assert a.score == "won, 0 points"
    assert a.rule is not None
    assert a.rule.cite.startswith("declaration.alternatives: ")


def test_turns_table_a_second_draw_in_one_turn_shows_both_cards() -> None:
    """docs/replay.md, Turns (one draw a turn): P1 draws 2S, then 5D, from the stock and
    discards 6H. The row showed "5D stock 6H", so 2S was nowhere in the table (a blind
    tester): it shows the first draw, and the second in its note."""
    lines = ["P1 draw_stock 2S", "P1 draw_stock 5D", "P1 discard 6H"]
    (turn,) = turn_views(
        [parse_event(i, line) for i, line in enumerate(lines)], Jokers.of_rank(5), []
    )
    assert (turn.seqs, turn.drew and turn.drew.code, turn.source) == ("0-2", "2S", "stock")
    assert turn.note == "then drew 5D from the stock too: two draws in one turn"


def test_a_loser_shown_ungrouped_is_told_what_their_cards_hold_not_it_has_no_sequence() -> None:
    """`points.unmet_requirement` ("a loser without the two sequences (one pure) a
    declaration needs counts every card"): why every card counts is said true of the
    player's cards, not of the groups shown. P2 shows all 13 cards as one group; their
    cards hold 2S 3S 4S and TC JC QC, so the show, not the cards, lacks the sequences (it
    read "it has no sequences ... and it has no pure sequence" of a player holding 2S 3S 4S:
    a blind tester). Shown so with cards that hold one pure sequence and no second, P2 is
    told so, and the best arrangement shows the sequence grouped."""
    shown = {**DISPUTE, "events": [*DISPUTE["events"][:-1],
                                   "P2 show: 2S 3S 4S TC JC QC 7D 7H 8D 9D AD KH 9S"]}  # fmt: skip
    p2 = view_of(shown).players[1]
    words = ("the groups they showed make no sequence, not the 2 sequences, one of them pure, "
             "that a declaration needs, though their cards could (see the best possible "
             "arrangement)")  # fmt: skip
    assert p2.why.startswith(f"every card counts because {words}; the cards")
    assert p2.points_detail is not None
    assert f"every card counts, because {words}: " in p2.points_detail.steps[0]
    one = {**shown, "seats": {**DISPUTE["seats"],
                              "P2": "2S 3S 4S TC 6C QC 7D 7H 8C 9D AS AD KH"},
           "events": [*DISPUTE["events"][:-1],
                      "P2 show: 2S 3S 4S TC 6C QC 7D 7H 8C 9D AD KH 9S"]}  # fmt: skip
    p2 = view_of(one).players[1]
    assert p2.points_detail is not None
    assert p2.points_detail.steps[0].startswith(
        "every card counts, because no arrangement of their cards makes the 2 sequences, one "
        "of them pure, that a declaration needs, though they hold the pure sequence 2S 3S 4S"
    ), p2.points_detail.steps
    assert p2.best is not None
    assert [g.text for g in p2.best.melds] == ["2S 3S 4S"]


JOKER_PAIR: dict[str, object] = {
    "seats": {
        "P1": "2C 3C 4C 5C 6D 7D 8D 9D JH QH KH AS AH",
        "P2": "9S TS QS KS 8H TH JD KD 7C 9C QC 2S 3S",
    },
    "wild": "JK",  # aces are jokers
    "open": "3D",
    "stock": "TC",
    "events": [
        "P1 draw_stock TC",
        "P1 declare TC: 2C 3C 4C 5C / 6D 7D 8D 9D / JH QH KH / AS AH",
    ],
    "results": {"P1": ("won", 0, "80.00"), "P2": ("lost", 80, "-80.00")},
}
"""P1 declares validly with a group of two jokers; P2, the loser, shows nothing."""


def test_declared_groups_are_shown_as_declared_a_pair_of_jokers_included() -> None:
    """A blind tester's winner declared the group 3S 3C (two jokers) and the panel listed
    "not in any group: 3S 3C": a group the player declared is shown as a group, with its
    verdict; the server's arrangement of a loser still leaves cards outside every group."""
    view = view_of(JOKER_PAIR)
    p1, p2 = view.players
    assert p1.groups_title == "as declared"
    assert [(g.text, g.kind) for g in p1.groups] == [
        ("2C 3C 4C 5C", "pure sequence"), ("6D 7D 8D 9D", "pure sequence"),
        ("JH QH KH", "pure sequence"), ("AS AH", "group of jokers"),
    ]  # fmt: skip
    assert p1.loose == ()
    assert (p2.declaration, p2.loose_label) == ("", LOOSE)  # the server's arrangement
    text = " ".join(render_text(view).replace("│", " ").split())
    assert "AS AH group of jokers AS AH are jokers put aside together" in text
    assert "not in any group: AS AH" not in text


def test_one_card_groups_declared_are_groups_of_one_card_as_the_reason_counts_them() -> None:
    """The reason said "5 groups have fewer than 3 cards: JD 3H, 7H, 7D, 2S, 2D" while the
    panel said "not in any group: 7H 7D 2S 2D" (a blind tester): groups and not groups of
    the same cards. The one-card groups a player declared are said to be groups."""
    declare = "P1 declare TC: 2C 3C 4C 5C / 6D 7D 8D 9D / JH QH / KH / AS / AH"
    view = view_of({**JOKER_PAIR, "events": ["P1 draw_stock TC", declare],
                    "results": {"P1": ("invalid_declare", 80, "-80.00"),
                                "P2": ("won", 0, "80.00")}})  # fmt: skip
    p1 = view.players[0]
    assert p1.declaration == "invalid"
    assert p1.declaration_reasons == (
        "2 groups have fewer than 3 cards, the fewest a sequence or set may have: JH QH, KH",
    )
    assert [g.text for g in p1.groups] == ["2C 3C 4C 5C", "6D 7D 8D 9D", "JH QH"]
    assert ([c.code for c in p1.loose], p1.loose_label) == (["KH", "AS", "AH"], ONE_CARD)
    text = " ".join(render_text(view).replace("│", " ").split())
    assert "groups of one card: KH AS AH (AS AH are jokers, 0 points each)" in text
    assert "not in any group: KH" not in text  # the best arrangement may leave cards out
    html = render_html(view)
    assert "each of these cards is a group by itself, not a sequence or set" in html


def test_a_shown_group_of_one_card_is_no_card_outside_every_group() -> None:
    """A loser's show of cards one by one: each is a group they showed, of one card."""
    shown = {**DISPUTE, "events": [*DISPUTE["events"][:-1],
                                   "P2 show: 2S 3S 4S / TC JC QC / 7D 7H / 8D 9D / AD / KH / 9S"]}
    p2 = view_of(shown).players[1]
    assert p2.groups_title == "as shown"
    assert [g.text for g in p2.groups] == ["2S 3S 4S", "TC JC QC", "7D 7H", "8D 9D"]
    assert ([c.code for c in p2.loose], p2.loose_label) == (["AD", "KH", "9S"], ONE_CARD)
