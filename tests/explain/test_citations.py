"""The rule behind each verdict explain gives: a declaration's broken or met requirement, a
joker left over, a set holding a suit twice, a wild-rank card standing for itself, a pool
score of exactly 101."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from audit.explain import render_game_html, render_game_text, render_html, render_text
from audit.records import GameEvent
from tests.explain.test_view import view_of
from tests.explain.test_winner import game_view, hands, pool_hands, won_by
from tests.replay.cases import DECLARE, P1, base, longer

NO_PURE = "7S QS 7H QH 5D 7D 9D TD 6C 7C 8C QC JK"
P2_PLAIN = "2S 3S 4S AH 8H 9H TH AD 3D KD KD 2C 3C"


def _declares(seats: dict[str, str], stock: str, declare: str, wild: str = "5S") -> dict[str, Any]:
    """P1 draws the stock's first card and declares invalidly; P2, the last one in, wins."""
    return base(
        seats=seats,
        wild=wild,
        stock=stock,
        events=[f"P1 draw_stock {stock.split()[0]}", declare],
        results={"P1": ("invalid_declare", 80, "-80.00"), "P2": ("won", 0, "72.00")},
    )


def test_an_invalid_declaration_cites_the_rule_it_breaks() -> None:
    """A declaration without a pure sequence cited only declaration.invalid_penalty (the 80
    points), never the rule that makes it invalid (001_: 'Every valid declaration must
    have at least one pure sequence')."""
    hand = _declares({"P1": NO_PURE, "P2": P2_PLAIN}, "9C 2D 6H",
                     "P1 declare 9C: 6C JK 8C / 9D TD 5D / QS QH QC / 7S 7H 7D 7C")  # fmt: skip
    view = view_of(hand)
    p1 = view.players[0]
    assert p1.declaration_reasons == ("it has no pure sequence (a sequence without a joker)",)
    assert p1.rule is not None
    assert p1.rule.key == "declaration.invalid_penalty"
    assert [r.key for r in p1.declaration_rules] == ["declaration.min_pure_runs"]
    assert "001_42b102d6f12eaa06.txt: 'at least 1 pure sequence'" in p1.declaration_rules[0].source
    assert "rule: declaration.min_pure_runs: At least one of the sequences must be pure" in (
        " ".join(render_text(view, width=200).split())
    )
    assert "Rule declaration.min_pure_runs: At least one" in render_html(view)


def test_a_valid_declaration_cites_the_pure_sequence_it_needed_too() -> None:
    """A valid declaration's block cited only declaration.min_runs, not the pure sequence
    it needed as well (001_: 'minimum 2 sequences, with at least 1 pure sequence')."""
    p1 = view_of(base()).players[0]
    assert p1.rule is not None
    assert p1.rule.key == "declaration.min_runs"
    assert [r.key for r in p1.declaration_rules] == ["declaration.min_pure_runs"]


def test_declaration_min_runs_an_accepted_valid_declaration_says_why_it_is_valid() -> None:
    """`declaration.min_runs` and `declaration.min_pure_runs` (000_1729c72ad4c1f885.txt:
    'It is mandatory to form two groups which are sequences'): a valid declaration the
    platform accepted lists its melds and the sequences they hold, as one it rejected
    does; until 2026-12-06 the panel printed "P1's declaration is valid:" and nothing
    after it (a blind tester)."""
    view = view_of(base())
    p1 = view.players[0]
    why = ("its groups are melds, 2H 3H 4H (pure sequence), 5S 6S 7S (pure sequence), "
           "9C 9D 9S (set), KD KC KS JK (set), and hold the 2 sequences, one of them pure, "
           "that a declaration needs")  # fmt: skip
    assert p1.declaration_reasons == (why,)
    lines = [line.strip("│ ") for line in render_text(view, width=300).splitlines()]
    said = lines.index("P1's declaration is valid:")
    assert lines[said + 1] == f"- {why}"
    assert f"<li>{why}</li>" in render_html(view)


def test_a_wild_rank_card_standing_for_itself_cites_its_rule_and_is_no_joker_there() -> None:
    """2H 3H 4H with threes wild is pure by melds.wild_natural_keeps_pure, which was not
    cited (its choice: 000_ reads the other way), and the page drew 3H as a joker
    (title "3H: a joker (wild rank)") beside "3H stands for itself"."""
    view = view_of(base(wild="3C"))
    p1 = view.players[0]
    assert [r.key for r in p1.declaration_rules] == [
        "declaration.min_pure_runs", "melds.wild_natural_keeps_pure",
    ]  # fmt: skip
    keeps = p1.declaration_rules[1]
    assert keeps.choice.startswith("Majority online practice")
    assert "Choice: " in keeps.cite
    run = next(g for g in p1.groups if g.text == "2H 3H 4H")
    assert "3H stands for itself" in run.reason
    assert [c.joker for c in run.cards] == ["", "", ""]
    page = render_html(view)
    assert "Choice: Majority online practice" in page
    assert 'title="3H"' in page


def test_a_loser_with_a_joker_left_over_is_not_told_every_card_is_in_a_meld() -> None:
    """5H alone with fives wild was "every card is in a valid sequence or set: 0 points",
    which is false: it is in no group, and counts 0 as a joker (points.joker_points,
    004_: 'Jokers: 0 points'), which was not cited."""
    p2_cards = "7S 8S 9S JC QC KC 2D 3D 4D 8H 8D 8C 5H"
    show = "P2 show: 7S 8S 9S / JC QC KC / 2D 3D 4D / 8H 8D 8C / 5H"
    view = view_of(base(seats={"P1": P1, "P2": p2_cards}, wild="5C",
                        events=["P1 draw_stock JK", DECLARE, show]))  # fmt: skip
    p2 = view.players[1]
    said = "every card is in a valid sequence or set but for the joker 5H, which counts 0"
    assert p2.why.startswith(said)
    assert p2.points_detail is not None
    assert p2.points_detail.steps[0] == f"{said}: 0 points"
    assert [r.key for r in p2.points_detail.rules] == ["points.joker_points"]


def test_points_joker_points_a_joker_set_aside_alone_is_cited_beside_cards_counted() -> None:
    """A loser who showed 8C alone with eights wild and counts other cards: "The rules
    behind these points" listed only points.card_points, though 8C counted 0 as a joker
    (points.joker_points, 004_4c9baa4cf67655ae.txt: 'Jokers: 0 points'; a blind tester's
    9H and JK shown as groups of one card)."""
    show = "P2 show: TC JC QC / 2D 4D 8H / AS 3C 5D 7H 6C TD / 8C"
    kwargs = longer()
    kwargs["events"] = [*kwargs["events"][:-1], show]
    kwargs["results"] = {"P1": ("won", 0, "36.90"), "P2": ("lost", 41, "-41.00")}
    p2 = view_of(kwargs).players[1]
    assert (p2.outcome, p2.points, p2.agrees) == ("lost", "41", True)
    assert p2.points_detail is not None
    assert p2.rule is not None
    assert p2.rule.key == "points.card_points"
    assert [r.key for r in p2.points_detail.rules] == ["points.joker_points"]


def test_a_set_holding_a_suit_twice_cites_the_rule_about_suits() -> None:
    """7H 7H 7D "is not a set: ... hearts appears twice" cited only points.card_points for
    a loser, and for a declarer melds.max_set_size with a source about size alone; 001_:
    'Two cards from the same suit in a set make it invalid'."""
    suits = "Two cards from the same suit in a set make it invalid"
    p2_cards = "9S TS JS 2H 3H 4H 7H 7H 7D 6C 7C 8C KC"
    show = "P2 show: 2H 3H 4H / 6C 7C 8C / 7H 7H 7D / 9S TS JS / KC"
    loser = view_of(base(seats={"P1": P1, "P2": p2_cards},
                         events=["P1 draw_stock JK", DECLARE, show]))  # fmt: skip
    detail = loser.players[1].points_detail
    assert detail is not None
    rules = {r.key: r for r in detail.rules}
    assert suits in rules["melds.max_set_size"].source
    declarer = view_of(_declares(
        {"P1": "AS 7S JS QS KS 7H 7H 9D TD JD 2C 3C 4C", "P2": P2_PLAIN}, "KD 2D 6H",
        "P1 declare KD: 7H 7H 7S / 2C 3C 4C / 9D TD JD / JS QS KS AS",
    ))  # fmt: skip
    cited = {r.key: r for r in declarer.players[0].declaration_rules}
    assert suits in cited["melds.max_set_size"].source


def test_a_201_pool_first_drop_cites_the_presets_choice_where_the_seeds_differ_000() -> None:
    """`drops.pool_201` (000_: 'In 201 Pool, the score is 25'; 004_ gives 20 for every
    format): the 25 points were cited without the preset's choice between the two seeds,
    so a support agent had no answer for a player quoting 004_'s 20 (a blind tester). The
    rule that charges a player now carries its choice, on the terminal and the page."""
    hand = base(events=["P1 drop"], game_format="pool_201", point_value=None,
                score_after={"P1": 25, "P2": 0},
                results={"P1": ("first_drop", 25, None), "P2": ("won", 0, None)})  # fmt: skip
    view = view_of(hand)
    p1 = view.players[0]
    assert p1.rule is not None
    assert p1.rule.key == "drops.pool_201"
    assert "004_4c9baa4cf67655ae.txt gives one table for every format" in p1.rule.choice
    assert "Choice: 004_4c9baa4cf67655ae.txt gives one table" in (
        " ".join(render_text(view, width=200).split())
    )
    assert "Choice: 004_4c9baa4cf67655ae.txt gives one table" in render_html(view)


P2_24 = "AS 2S 3S 4D 5D 6D 5C 6C 7C KH KD 2C 2H"
"""P2's cards for a hand charged 24: three pure sequences, KH KD 2C 2H left unmatched."""


def test_exactly_eliminates_an_elimination_at_exactly_101_cites_the_presets_choice() -> None:
    """`pool_101.exactly_eliminates` ("A score of exactly 101 eliminates", "seeds silent";
    000_1729c72ad4c1f885.txt's "101 Pool" never says 101 itself is out): P2 reaches 101
    (77, then 24). The running pool scores cite that rule with the preset's choice, as a
    201-pool drop does, whether the elimination is recorded or missing (then its finding
    cites it too); until 2026-12-06 "P2 is eliminated with a score of 101 (101 or more is
    out)" cited only `pool_101.elimination_score` (a blind tester)."""
    second = base(
        seats={"P1": P1, "P2": P2_24},
        events=["P1 draw_stock JK", DECLARE, "P2 show: AS 2S 3S / 4D 5D 6D / 5C 6C 7C / KH KD "
                "2C 2H"],
        results={"P1": ("won", 0, None), "P2": ("lost", 24, None)},
        score_after={"P1": 0, "P2": 101},
    )  # fmt: skip
    first = longer(results={"P1": ("won", 0, None), "P2": ("lost", 77, None)},
                   score_after={"P1": 0, "P2": 77})  # fmt: skip
    game, played = hands([first, second], game_format="pool_101", point_value=None)
    out = GameEvent(2, 1, "P2", "eliminated", 101, None)
    for events, findings in (([out, won_by("P1", 2)], []), ([won_by("P1", 2)], ["P2"])):
        view = game_view(replace(game, game_events=events), played)
        assert [f.player for f in view.findings if f.check == "pool.elimination"] == findings
        assert all(f.rule.startswith("pool_101.exactly_eliminates: ") for f in view.findings
                   if f.check == "pool.elimination")  # fmt: skip
        assert view.scores is not None
        cited = {r.key: r for r in view.scores.rules}
        assert cited["pool_101.exactly_eliminates"].choice.startswith("Majority practice")
        text = " ".join(render_game_text(view, width=200).split())
        assert ("pool_101.exactly_eliminates: A score of exactly 101 eliminates. (seeds "
                "silent) Choice: Majority practice ('reaches 101')") in text  # fmt: skip
        assert "Choice: Majority practice" in render_game_html(view)


def test_a_pool_score_short_of_101_cites_no_exactly_eliminates() -> None:
    """`pool_101.exactly_eliminates` is cited only where a score is exactly 101: P2 at 80
    (40 and 40, 000_1729c72ad4c1f885.txt) is below it and the table cites
    `pool_101.elimination_score` alone."""
    game, played = pool_hands(2)
    view = game_view(game, played)
    assert view.scores is not None
    assert "pool_101.exactly_eliminates" not in {r.key for r in view.scores.rules}
