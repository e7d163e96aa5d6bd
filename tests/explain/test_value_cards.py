"""Explain shows a 21-card points hand's value cards: each player's, their worth, the net
received or paid with the rule (points.value_cards), and the amount split into card points
and value points (docs/rules-21-27.md, section 4.4; the hand of
tests/replay/test_value_cards.py)."""

from __future__ import annotations

from audit.explain import build_view, render_html, render_text
from audit.explain.view import HandView
from audit.records import GameUnit
from audit.replay.recut import Settled
from audit.unit import audit_unit
from tests.replay.test_value_cards import EVENTS, NO_VALUE, R21, RIGHT, _recorded_as, hand_21


def view_21(results: dict[str, tuple[str, int, str | None]]) -> HandView:
    game, hand = hand_21(results)
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    return build_view(unit, hand.hand_id, source="logs", version="VERSION")


def test_each_player_is_shown_their_value_cards_and_net() -> None:
    view = view_21(RIGHT)
    assert view.verdict == "the record agrees with the rules: no findings"
    shown = {
        p.player: ([c.code for c in p.value.cards], p.value.words, p.value.points, p.value.net)
        for p in view.players
        if p.value is not None
    }
    assert shown == {
        "A": (["8H"], "value cards 8H (10)", 10, -110),
        "B": (["6H", "7H", "8H"], "7H 8H 6H: 1 marriage (100)", 100, 160),
        "C": (["6H", "6H"], "value cards 6H 6H (30)", 30, -50),
    }  # fmt: skip
    a, b, c = view.players
    assert b.value is not None
    assert b.value.settlement == (
        "receives 100 from each of the 2 others still in at the show and pays them 40 for "
        "theirs: net +160"
    )
    assert b.value.rule is not None
    assert b.value.rule.key == "points.value_cards"
    assert b.amount == "151.00"
    assert b.value.money == "card points -9, value cards +160: +151 points at 1.0000 a point"
    assert a.value is not None
    assert a.value.money == (
        "card points +129, value cards -110: +19 points at 1.0000 a point, less the 10.00% "
        "rake of 1.90"
    )
    assert c.amount == "-170.00"


def test_the_renderers_say_it() -> None:
    view = view_21(NO_VALUE)
    text = " ".join(render_text(view, width=200).split())
    assert "Value: 7H 8H 6H: 1 marriage (100), worth 100" in text
    assert "amount 151.00 (card points -9, value cards +160: +151 points at 1.0000 a point)" in text
    assert "rule: points.value_cards:" in text
    assert "differs (amount)" in text
    html = render_html(view)
    assert "<h4>Value cards</h4>" in html
    assert "receives 100 from each of the 2 others still in at the show" in html
    assert "Rule points.value_cards:" in html


def test_a_winner_who_pays_on_value_cards_is_told_no_rake_is_taken() -> None:
    """points.value_cards and money.points_settlement: C drops, so A wins 9 + 30 card points
    and pays B 90 on value cards, -51 in all; the rake is taken on what a winner takes, so
    there is none, and A is told that, not "less the 10.00% rake of 0.00" (a blind
    tester)."""
    from audit.explain.points import value_view
    from audit.replay.outcome import audit_hand

    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C drop"]
    results = {
        "A": ("won", 0, "-51.00"), "B": ("lost", 9, "81.00"), "C": ("first_drop", 30, "-30.00"),
    }  # fmt: skip
    game, hand = hand_21(results, events=events, stock="3H 4C 8H")
    audit = audit_hand(hand, game, R21)
    assert audit.findings == []
    view = value_view("A", audit, game, R21)
    assert view is not None
    assert view.money == (
        "card points +39, value cards -90: -51 points at 1.0000 a point, no rake (it is taken "
        "on what the winner takes)"
    )


def test_points_value_cards_a_hand_not_ended_by_a_valid_declaration_settles_none() -> None:
    """schemas/money.md: "A hand not ended by a valid declaration (the last player left in
    after the others dropped ...) has no value settlement". The player holding a marriage
    is told so on their panel ("where is my 100?" had no answer: a blind tester)."""
    events = ["A drop", "B draw_stock 3H", "B discard 3H", "C drop"]
    results = {"A": ("first_drop", 30, "-30.00"), "B": ("won", 0, "54.00"),
               "C": ("first_drop", 30, "-30.00")}  # fmt: skip
    game, hand = hand_21(results, events=events)
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    view = build_view(unit, hand.hand_id, source="logs", version="VERSION")
    assert view.verdict == "the record agrees with the rules: no findings"
    b = next(p for p in view.players if p.player == "B")
    assert b.value is not None
    assert (b.value.words, b.value.points, b.value.net) == ("7H 8H 6H: 1 marriage (100)", 100, 0)
    assert b.value.settlement == (
        "the hand did not end on a valid declaration, so no value cards are settled in it: "
        "net 0"
    )
    text = " ".join(render_text(view, width=200).split())
    assert "no value cards are settled in it" in text


def test_points_value_cards_settled_with_a_dropper_each_amount_is_said_to_differ() -> None:
    """points.value_cards ("a player who dropped or declared wrongly neither pays nor
    receives"): C drops and the platform settles the value cards with C in, one finding of
    the hand (audit/replay/recut.py). Each player's amount by the rules is still shown, and
    the record's said to differ where it does (a blind tester read "agrees" beside every
    wrong amount, the recorded one shown as the rules')."""
    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C drop"]
    results = {"A": ("won", 0, "0.00"), "B": ("lost", 9, "0.00"), "C": ("first_drop", 30, "0")}
    game, hand = hand_21(results, events=events, stock="3H 4C 8H")
    _recorded_as(game, hand, Settled(None, ("C",)))
    recorded = {r.player: r.amount for r in hand.results}
    _recorded_as(game, hand, Settled(None, ()))
    rules = {r.player: r.amount for r in hand.results}
    hand.results = [r._replace(amount=recorded[r.player]) for r in hand.results]
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    (found,) = unit.hands[0].audit.findings
    assert (found.check, found.player_id) == ("score.amount", None)
    view = build_view(unit, hand.hand_id, source="logs", version="VERSION")
    for player in view.players:
        off = recorded[player.player] != rules[player.player]
        assert ("amount" in player.differs) == off, player.player
        assert player.amount == str(rules[player.player]), player.player
