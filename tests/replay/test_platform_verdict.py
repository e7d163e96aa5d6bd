"""What the platform did with a declaration, where the declarer's result row and the events
after it disagree (docs/replay.md, "Declaring"; ``audit.replay.seats.platform_accepted``):
a hand that ends on the others' shows was ended on an accepted declaration, whatever the
row says, so a wrong row is one ``declare.verdict``, not a cascade."""

from __future__ import annotations

from typing import Any

from audit.replay.outcome import audit_hand
from audit.replay.seats import platform_accepted
from audit.rules.ruleset import load_preset
from tests.replay.cases import DECLARE, P1, P2, P3, SHOW, base
from tests.replay.scenario import scenario

STANDARD = load_preset("standard-13")
INVALID = "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS 7D"
"""P1's declaration after drawing 7D: KD KC KS 7D is no meld, so it is invalid."""


def _three(declare: str, drawn: str, p1: tuple[str, int, str]) -> dict[str, Any]:
    """Three players: P1 draws ``drawn`` and declares; P2 and P3 show; the hand ends."""
    return base(
        seats={"P1": P1, "P2": P2, "P3": P3},
        stock=f"{drawn} 6H 2S",
        events=[f"P1 draw_stock {drawn}", declare, SHOW, f"P3 show: {P3}"],
        results={"P1": p1, "P2": ("lost", 40, "-40.00"), "P3": ("lost", 40, "-40.00")},
    )


def _found(kw: dict[str, Any]) -> list[tuple[str, str | None, int | None]]:
    game, hand = scenario(**kw)
    result = audit_hand(hand, game, STANDARD)
    return [(f.check, f.player_id, f.seq) for f in result.findings]


def test_declare_verdict_a_valid_declaration_recorded_invalid_and_ended_on_shows_is_one() -> None:
    """docs/replay.md ("Declaring": "the replay follows what the platform did ... so a wrong
    verdict is one finding, not a cascade"): P1's valid declaration recorded invalid_declare
    80 while P2 and P3 show and the hand ends gave 7 findings (each show "before any valid
    declaration", the hand "ends with players still in", the shown losers charged as
    unshown: a blind tester); the shows say the platform accepted it: one verdict."""
    clean = _three(DECLARE, "JK", ("won", 0, "72.00"))
    assert _found(clean) == []
    wrong = _three(DECLARE, "JK", ("invalid_declare", 80, "72.00"))
    game, hand = scenario(**wrong)
    result = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq) for f in result.findings] == [
        ("declare.verdict", "P1", 1)
    ]
    assert result.findings[0].message.endswith(
        "; the record writes P1 as an invalid declaration with 80 points, though the "
        "others' shows after it end the hand as on a valid one."
    )
    assert [(result.expected[p].outcome, result.expected[p].points) for p in ("P2", "P3")] == [
        ("lost", 40), ("lost", 40)
    ]  # fmt: skip


def test_declare_verdict_an_invalid_declaration_recorded_invalid_but_ended_on_shows_is_one() -> (
    None
):
    """The same rule the other way (docs/replay.md, "Declaring"): P1's invalid declaration is
    charged its penalty, but the others' shows end the hand on it, as only an accepted one
    does: one ``declare.verdict`` (followed by the row alone, each show was a turn.order)."""
    kw = _three(INVALID, "7D", ("invalid_declare", 80, "-80.00"))
    found = _found(kw)
    assert found == [("declare.verdict", "P1", 1)]
    game, hand = scenario(**kw)
    (verdict,) = audit_hand(hand, game, STANDARD).findings
    assert verdict.message.startswith("P1's declaration was accepted, but it is invalid: ")
    assert verdict.message.endswith(
        "; the record charges P1 the penalty (80 points), but the others' shows after it end "
        "the hand there, where play goes on."
    )


def test_platform_accepted_follows_the_row_unless_the_hand_ends_on_shows() -> None:
    """The rule itself (docs/replay.md, "Declaring"): the declarer's row, except a rejection
    the others' shows contradict; without a row, the next action; with none, the rules."""
    show, play = ["show", "show"], ["draw_stock", "discard", "show"]
    assert platform_accepted(False, "won", play)  # a turn after it: one turn.order
    assert platform_accepted(True, "invalid_declare", show)
    assert not platform_accepted(True, "invalid_declare", play)
    assert not platform_accepted(True, "invalid_declare", [])
    assert platform_accepted(False, None, show)
    assert not platform_accepted(True, None, play)
    assert platform_accepted(True, None, [])
    assert not platform_accepted(False, None, [])


def _two(p2: tuple[str, int, str], events: list[str] | None = None) -> dict[str, Any]:
    """Two players: P1 draws 7D and declares invalidly (``INVALID``); P2 shows."""
    return base(
        stock="7D 6H 2S",
        events=events or ["P1 draw_stock 7D", INVALID, SHOW],
        results={"P1": ("invalid_declare", 80, "-80.00"), "P2": p2},
    )


def test_turns_last_player_an_invalid_declaration_ended_on_the_one_left_s_show_is_one() -> None:
    """docs/replay.md ("Declaring"): at a two-player table P1's invalid declaration leaves
    P2 alone, who wins with 0 points (`turns.last_player`); P2's show after it says the
    platform accepted it, and a loss recorded for P2 is the same mistake, said in P1's one
    `declare.verdict`. It was that verdict, saying "where play goes on" (nobody plays on
    here), and a `score.outcome` on P2 beside it (a blind tester). Recorded as won, P2's
    show changes nothing: the rules end the hand there too, and no finding follows."""
    game, hand = scenario(**_two(("lost", 40, "-40.00")))
    result = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq, f.expected, f.recorded) for f in result.findings] == [
        ("declare.verdict", "P1", 1, "P2 won", "P2 lost")
    ]
    assert result.findings[0].message == (
        "P1's declaration was accepted, but it is invalid: KD KC KS 7D is neither a sequence "
        "nor a set: its cards mix suits and ranks; the record charges P1 the penalty (80 "
        "points), then scores P2's show as if the declaration were valid; so P2 is recorded "
        "as lost (40 points), but the hand gives won (0 points): P2 was the last player left "
        "in the hand once P1's invalid declaration put P1 out."
    )
    assert (result.expected["P2"].outcome, result.expected["P2"].points) == ("won", 0)
    assert _found(_two(("won", 0, "72.00"))) == []


def test_declaration_judged_as_shown_says_when_the_cards_laid_otherwise_are_valid() -> None:
    """docs/replay.md ("Declaring"): a declaration is judged on the groups shown. P1 draws
    4S and shows KD KC KS 4S, no meld, where 4S 5S 6S 7S and KD KC KS make a valid
    declaration of the same cards, and the record has P1 win: the verdict stands, and its
    words say the cards could have declared, as explain does (a blind tester: a support
    agent reading the finding alone would tell the player their cards could not declare).
    P1's 7D, which no meld takes, is not said so."""
    shown = "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS 4S"
    game, hand = scenario(**base(
        stock="4S 6H 2S", events=["P1 draw_stock 4S", shown, SHOW],
        results={"P1": ("won", 0, "36.00"), "P2": ("lost", 40, "-40.00")}))
    verdict = next(f for f in audit_hand(hand, game, STANDARD).findings
                   if f.check == "declare.verdict")
    assert verdict.check == "declare.verdict"
    assert "; the same cards laid otherwise make a valid declaration, but a declaration is " \
        "judged on the groups shown" in verdict.message
    game, hand = scenario(**_two(("lost", 40, "-40.00")))
    (verdict,) = audit_hand(hand, game, STANDARD).findings
    assert verdict.check == "declare.verdict"
    assert "laid otherwise" not in verdict.message


def test_turns_last_player_one_left_after_a_drop_is_the_verdict_s_too_three_players() -> None:
    """The same rule with three seats (docs/replay.md, "Declaring"): P3 dropped, so P1's
    invalid declaration leaves P2 alone; P2's show recorded as a loss is P1's one
    `declare.verdict`, beside P3's drop, which is right."""
    turns = ["P1 draw_stock 2S", "P1 discard 2S", "P2 draw_stock 6H", "P2 discard 6H"]
    results = {"P1": ("invalid_declare", 80, "-80.00"), "P2": ("lost", 77, "-77.00"),
               "P3": ("first_drop", 20, "-20.00")}  # fmt: skip
    kw = base(
        seats={"P1": P1, "P2": P2, "P3": P3},
        stock="2S 6H 7D",
        events=[*turns, "P3 drop", "P1 draw_stock 7D", INVALID, SHOW],
        results=results,
    )
    game, hand = scenario(**kw)
    result = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in result.findings] == [
        ("declare.verdict", "P1", "P2 won", "P2 lost")
    ]
    assert result.findings[0].message.endswith(
        "; so P2 is recorded as lost (77 points), but the hand gives won (0 points): P2 was "
        "the last player left in the hand once P1's invalid declaration put P1 out."
    )


def test_turns_order_a_declarer_who_leaves_at_once_is_no_verdict_and_no_swapped_rows() -> None:
    """docs/replay.md ("Declaring", and a player who leaves while the shows are made is no
    turn): P1 declares validly, leaves at once (``drop``, reason left), and P2 and P3 show;
    the results call P1 a middle drop and P2 the winner. The leaving says nothing of the
    verdict: the shows after it say accepted, so the two wrong results rows are the two
    findings. A blind tester (b106) had a third, "the rows at seq 2 and 3 are in each
    other's places", where nothing was out of order: the drop had been read as the play
    that follows a rejected declaration."""
    kw = _three(DECLARE, "JK", ("middle_drop", 40, "-40.00"))
    kw["events"] = ["P1 draw_stock JK", DECLARE, "P1 drop auto left", SHOW, f"P3 show: {P3}"]
    kw["results"]["P2"] = ("won", 0, "72.00")
    found = sorted(_found(kw), key=str)
    assert found == [("score.outcome", "P1", 1), ("score.outcome", "P2", None)]
    kw["results"]["P1"], kw["results"]["P2"] = ("won", 0, "72.00"), ("lost", 40, "-40.00")
    assert _found(kw) == []
