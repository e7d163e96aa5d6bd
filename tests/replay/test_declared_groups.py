"""A declaration whose recorded groups are not the declarer's cards (rule
declaration.groups_exact, 000_1729c72ad4c1f885.txt: 'the player needs to validate all the
Sequences and Sets he has made from his 10/13/21/27 cards'; docs/replay.md, "Declaring"):
one ``declare.groups_mismatch``; where the platform accepted it, the verdict is the rules'
on the cards the declarer held (``audit.replay.declared.held_check``), not on the groups
recorded; where it rejected it, the groups recorded are the show it refused."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from audit.cli import app
from audit.records import GameUnit
from audit.replay.outcome import HandAudit, audit_hand
from audit.rules.ruleset import load_preset
from audit.unit import audit_unit
from tests.replay.cases import base, won_ledger
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario

STANDARD = load_preset("standard-13")
ALSO_FINISH = "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS JK QH"
"""P1's valid declaration (cases.DECLARE) whose groups also list QH, the finish card."""
SWAPPED = "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS QH"
"""The groups hold the finish card QH in place of JK, which P1 holds."""
SEVEN_LEFT = "P1 declare QH: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS 7D QH"
"""After drawing 7D P1's cards cannot be a declaration (7D fits no meld), and the groups
also list QH."""


def _audit(**kw: object) -> tuple[list[tuple[str, str | None, int | None]], HandAudit]:
    game, hand = scenario(**base(**kw))
    audit = audit_hand(hand, game, STANDARD)
    return [(f.check, f.player_id, f.seq) for f in audit.findings], audit


def test_declaration_groups_exact_accepted_groups_that_also_list_the_finish_card_are_one() -> None:
    """A blind tester's hand: the declarer's 13 cards make a valid declaration, the platform
    accepted it, and the groups list the finish card too (14 cards). One
    ``declare.groups_mismatch``, whose words name the card as the one put on the finish slot
    (not "which the player does not have", which they did); no ``declare.verdict`` judged
    on the broken group, and so no money moved to the other player in the ledger."""
    game, hand = scenario(**base(events=["P1 draw_stock JK", ALSO_FINISH, base()["events"][2]]))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [
        ("declare.groups_mismatch", "P1", 1)
    ]
    assert audit.findings[0].message == (
        "P1 declared groups that are not exactly their cards: the groups also list QH, the "
        "card P1 put on the finish slot."
    )
    assert (audit.expected["P1"].outcome, audit.expected["P2"].outcome) == ("won", "lost")
    assert audit.expected["P1"].why == (
        "made a valid declaration, judged on the cards they held: the groups declared are "
        "not those cards"
    )
    game.ledger = won_ledger()
    assert audit_unit(GameUnit(game.game_id, game, [hand])).findings == []


def test_declaration_groups_exact_the_finish_card_in_place_of_a_card_held_is_one() -> None:
    """The groups hold the finish card in place of one the declarer holds (a blind
    tester's F16): one ``declare.groups_mismatch`` saying both, the valid cards' win kept."""
    found, audit = _audit(events=["P1 draw_stock JK", SWAPPED, base()["events"][2]])
    assert found == [("declare.groups_mismatch", "P1", 1)]
    assert audit.findings[0].message == (
        "P1 declared groups that are not exactly their cards: the groups list QH, the card "
        "P1 put on the finish slot; the groups leave out JK from the player's cards."
    )


def test_declaration_groups_exact_accepted_cards_that_cannot_declare_keep_the_verdict() -> None:
    """The platform accepted groups that are not the declarer's cards, and the cards they
    held make no declaration in any arrangement: the ``declare.verdict`` stands, said of
    those cards (the fewest left out), not of the recorded groups' broken group."""
    found, audit = _audit(
        stock="7D 2S 6H", events=["P1 draw_stock 7D", SEVEN_LEFT, base()["events"][2]]
    )
    assert found == [("declare.groups_mismatch", "P1", 1), ("declare.verdict", "P1", 1)]
    verdict = audit.findings[1]
    assert verdict.message.startswith(
        "P1's declaration was accepted, but it is invalid: the groups declared are not the "
        "cards they held, and no arrangement of those cards lays every card in a sequence or "
        "set with the 2 sequences, one of them pure, that a declaration needs: at best 7D is "
        "left out; so P2 is recorded as lost"
    )
    assert "neither a sequence nor a set" not in verdict.message
    assert audit.expected["P1"].outcome == "invalid_declare"


def test_declaration_groups_exact_a_rejected_show_of_groups_not_held_stands_as_recorded() -> None:
    """docs/replay.md ("Declaring"): groups the declarer does not hold are a wrong show,
    and the platform that rejected it did right, whatever the cards held could have made:
    one ``declare.groups_mismatch``, the penalty the rules' (80), the other player the one
    left in, who wins."""
    rejected = {"P1": ("invalid_declare", 80, "-80.00"), "P2": ("won", 0, "72.00")}
    for drawn, declare in (("JK", ALSO_FINISH), ("7D", SEVEN_LEFT)):
        found, audit = _audit(
            stock=f"{drawn} 2S 6H", events=[f"P1 draw_stock {drawn}", declare], results=rejected
        )
        assert found == [("declare.groups_mismatch", "P1", 1)], drawn
        expected = audit.expected
        assert (expected["P1"].outcome, expected["P1"].points) == ("invalid_declare", 80)
        assert expected["P2"].outcome == "won"


def test_explain_a_declaration_judged_on_the_cards_held_says_so(tmp_path: Path) -> None:
    """``explain HAND`` agrees with the findings: the declarer's win, no "invalid" verdict,
    the groups shown as the cards held arranged at best, and the one finding."""
    logs = write_log(
        tmp_path / "logs",
        [scenario(**base(events=["P1 draw_stock JK", ALSO_FINISH, base()["events"][2]]))],
    )
    result = CliRunner().invoke(app, ["explain", "H1", str(logs)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "P1: won, 0 points" in text
    assert "P1's declaration is valid:" in text
    assert "invalid declaration" not in text
    assert "is invalid" not in text
    held = "arranged at best from the cards held (the groups declared are not those cards)"
    assert f"Groups, {held}:" in text
    assert "[major] declare.groups_mismatch: P1 declared groups" in text
    assert "declare.verdict" not in text


def test_declare_verdict_a_row_refusing_valid_cards_after_groups_not_held_says_so() -> None:
    """docs/replay.md ("Declaring"): the row says invalid_declare, but the others' shows end
    the hand, so the platform accepted it; the cards held make a valid declaration, though
    the groups recorded are not them. The row's one ``declare.verdict`` says the cards make
    the valid one, and shows them arranged so, beside the groups' own finding."""
    found, audit = _audit(
        events=["P1 draw_stock JK", ALSO_FINISH, base()["events"][2]],
        results={"P1": ("invalid_declare", 80, "36.00"), "P2": ("lost", 40, "-40.00")},
    )
    assert found == [("declare.groups_mismatch", "P1", 1), ("declare.verdict", "P1", 1)]
    assert audit.findings[1].message.startswith(
        "P1's declaration was judged invalid, but the cards P1 held make a valid one (the "
        "groups declared are not those cards): its groups are melds, "
    )
