"""`rummy-audit explain` on a 21-card and a 27-card hand (`standard-21`, `standard-27`)
against golden files.

The hands are ones the simulator plays (points games on three decks with three printed
jokers, up and down jokers, value cards settled between the players still in at the
show), so the golden files also hold the simulator's 21- and 27-card play to its bytes.
Regenerate with ``UPDATE_GOLDEN=1`` (tests/explain/goldtest.py) and read the diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import audit.explain
from audit.cli import app
from audit.explain import build_view, render_html, render_text
from audit.explain.view import HandView
from audit.records import GameUnit
from audit.sim import simulate
from audit.unit import audit_unit
from tests.explain.goldtest import PLAIN, compare, scrub
from tests.replay.scenario import scenario

HANDS = {"standard-21": "G000002-01", "standard-27": "G000001-02"}
"""A 3-player 21-card hand and a 2-player 27-card hand, each of a 4-game night of seed 2."""


@pytest.mark.parametrize("preset", sorted(HANDS))
def test_explain_a_21_and_a_27_card_hand_matches_the_golden_files(
    preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand view of a 21- or 27-card hand names the up and down jokers, shows each
    player's value cards and their settlement (`points.value_cards`), the money split into
    card points and value, and agrees with the record."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(audit.explain, "__version__", "VERSION")
    simulate(games=4, out=Path("logs"), seed=2, presets=(preset,), workers=1)
    hand = HANDS[preset]
    result = CliRunner().invoke(app, ["explain", hand, "logs", "--html", "hand.html"], env=PLAIN)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.replace("\u2502", " ").split())
    assert f"rules {preset}" in text
    assert "up and" in text
    assert "Value:" in text
    assert "the record agrees with the rules: no findings" in text
    page = (tmp_path / "hand.html").read_text(encoding="utf-8")
    volatile = {str(tmp_path): "TMP"}
    compare(scrub(result.stdout, volatile=volatile), f"{preset}.txt")
    compare(scrub(page, volatile=volatile), f"{preset}.html")


# ------------------------------------------------------------ a hand's own words


def hand_view(players: dict[str, str], events: list[str], results: dict[str, Any],
              **kw: Any) -> HandView:  # fmt: skip
    """One points hand of ``players`` (in turn order) on three decks and three printed
    jokers, explained."""
    game, hand = scenario(seats=players, events=events, results=results, decks=3,
                          printed_jokers=3, **kw)  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    return build_view(unit, hand.hand_id, source="logs", version="VERSION")


DUBLEES = "2S 2S / 4D 4D / 6C 6C / 9H 9H / TS TS / JD JD / QC QC / KH KH / QS 3C 5D AH JK"


def test_a_declaration_valid_as_eight_dublees_labels_its_pairs_dublees_not_invalid() -> None:
    """`declaration.alternatives` ("eight dublees ...; the other cards then need no
    arrangement"): A declares eight pairs and five odd cards. Each pair is shown as a
    dublee counted for the declaration, and the odd cards as needing no arrangement; none
    as an "invalid group ... needs at least 3", in red (a blind tester)."""
    view = hand_view(
        {"B": "AS 3S 3S 6S 9S JS JS TH TH 2D 3D 5D 5D 8D QD QD 4C 8C 8C TC KC",
         "A": "2S 2S 4S TS TS QS AH 9H 9H KH KH 4D 4D 5D JD JD 3C 6C 6C QC QC"},
        ["B draw_stock 2H", "B discard 2H", "A draw_stock JK", f"A declare 4S: {DUBLEES}"],
        {"B": ("lost", 2, "-2.00"), "A": ("won", 0, "1.80")},
        wild="7H", open="5S", stock="2H JK", ruleset="standard-21",
    )  # fmt: skip
    assert view.findings == ()
    a = view.players[1]
    assert a.declaration.startswith("valid, as 8 dublees")
    assert [(g.text, g.kind, g.valid) for g in a.groups] == [
        *((f"{c} {c}", "dublee", True) for c in ("2S", "4D", "6C", "9H", "TS", "JD", "QC", "KH")),
        ("QS 3C 5D AH JK", "other cards", True),
    ]
    assert a.groups[0].reason == (
        "counted among the 8 dublees that make the declaration valid (declaration.alternatives)"
    )
    assert a.groups[-1].reason == (
        "need no arrangement in a declaration by 8 dublees (declaration.alternatives)"
    )
    text = " ".join(render_text(view, width=200).replace("\u2502", " ").split())
    assert "invalid group" not in text
    assert "a sequence or set needs at least 3" not in text
    page = render_html(view)
    assert page.count('<span class="verdict ok">dublee</span>') == 8
    assert '<span class="verdict bad">invalid' not in page


def test_a_printed_joker_turned_up_cites_the_card_that_stands_as_the_cut_card() -> None:
    """`jokers.printed_joker_cut_card` ("When a printed joker is turned up ... the ace of
    spades stands as the cut card"): the wild card is JK and B's value cards are AS, 2S and
    KS. Their section says AS stands as the cut card and cites that rule, where it cited
    only "The value cards are the cut card itself" under a header naming JK (a blind
    tester)."""
    declared = ("9H TH JH QH KH / 2D 3D 4D / 8C 9C TC JC / 5D 6D 7D / 6H 7H 8H / KC KD KH / "
                "2C 3C 4C / 8C 8D 3S")  # fmt: skip
    a_cards = declared.replace("/", " ").split()
    a_cards.remove("KH")  # drawn, as the finish card 9S was dealt
    a_cards.append("9S")
    view = hand_view(
        {"B": "AS 2S KS 4S 6S 8S TS JS 2H 4H 6H 8H TH QH 2D 3D 5D 7D 9D JD KD 3C 5C 7C 9C JC KC",
         "A": " ".join(a_cards)},
        ["B draw_stock 9S", "B discard 9S", "A draw_stock KH", f"A declare 9S: {declared}"],
        {"B": ("lost", 120, "-100.00"), "A": ("won", 0, "90.00")},
        wild="JK", open="4H", stock="9S KH", ruleset="standard-27",
    )  # fmt: skip
    assert view.findings == ()
    b = view.players[0].value
    assert b is not None
    assert b.words == "value cards AS (10), 2S (10), KS (10)"
    assert b.cut == "the wild card turned up is a printed joker, so AS stands as the cut card"
    assert b.cut_rule is not None
    assert b.cut_rule.key == "jokers.printed_joker_cut_card"
    text = " ".join(render_text(view, width=200).replace("\u2502", " ").split())
    assert "so AS stands as the cut card rule: jokers.printed_joker_cut_card: When a " in text
    assert "Rule jokers.printed_joker_cut_card: When a printed joker" in render_html(view)


def test_points_unmet_requirement_a_loser_shown_ungrouped_is_told_the_pure_sequence_held() -> None:
    """`points.unmet_requirement` ("pure_runs_exempt": seeds silent on 21 cards; Adda52:
    "with the exception of the pure sequences"; 003_f375e2c560403297.txt: "else all the 13
    cards are treated as unmatched") and `points.cap` (000_1729c72ad4c1f885.txt: "A maximum
    Full count is 80 points"; 120 for 21 cards). B shows 21 cards ungrouped that hold
    QC KC AC. They were told "every card counts because it has no pure sequence", and the
    best possible arrangement was every card ungrouped, "the same as charged" (a blind
    tester: 80 of 120 such shows in a night held a pure sequence). B is told what their
    cards hold against the 3 pure sequences a declaration needs, that the groups shown did
    not lay it, so it is not spared, and the best arrangement with QC KC AC grouped, equal
    to the charge only by the cap."""
    shown = "AS JS 5C 3C QH QC 4S 7H 8C TH JK QC 8S KC TH 7D AH 6S QS AC 8D"
    declared = "2S 3S 4S 5S / 9D TD JD QD / AC 2C 3C / 4D 5D 8H / KC KD KS KH / 9C 9H JK"
    a = " ".join(declared.replace("/", " ").split()).replace("JK", "2D")
    view = hand_view(
        {"B": shown, "A": a},
        ["B draw_stock 2H", "B discard 2H", "A draw_stock JK", f"A declare 2D: {declared}",
         f"B show: {shown}"],
        {"B": ("lost", 120, "-120.00"), "A": ("won", 0, "108.00")},
        wild="7H", open="5S", stock="2H JK", ruleset="standard-21",
    )  # fmt: skip
    assert view.findings == ()
    b = view.players[0]
    words = (
        "every card counts because no arrangement of their cards makes the 3 pure sequences "
        "that a declaration needs, though they hold the pure sequence QC KC AC, and the "
        "groups they showed do not lay it as a sequence, so it is not spared; the cards"
    )
    assert words in b.why
    assert "it has no pure sequence" not in b.why
    assert b.points_detail is not None
    assert b.points_detail.steps[0].startswith(
        "every card counts, because no arrangement of their cards makes the 3 pure sequences "
        "that a declaration needs, though they hold the pure sequence QC KC AC"
    )
    assert b.best is not None
    assert b.best.points == 120
    assert b.best.summary == (
        "120 points, the same as charged: at best their cards are worth 122, capped at 120"
    )
    assert b.best.melds[0].text == "QC KC AC"


def test_points_cap_a_loser_arranged_by_the_server_is_shown_the_pure_sequence_laid() -> None:
    """`points.unmet_requirement` and `points.cap` (000_1729c72ad4c1f885.txt: "A maximum
    Full count is 80 points"; 120 for 21 cards): without a show, B is arranged at best by
    the rules. The search stops at the cap, where its groups were every card alone (a
    21-card loser holding QC KC AC was told "it has no pure sequence"); explained, B's
    cards are arranged past the cap, QC KC AC laid and spared, 122 capped at 120."""
    cards = "AS JS 5C 3C QH QC 4S 7H 8C TH JK QC 8S KC TH 7D AH 6S QS AC 8D"
    declared = "2S 3S 4S 5S / 9D TD JD QD / AC 2C 3C / 4D 5D 8H / KC KD KS KH / 9C 9H JK"
    a = " ".join(declared.replace("/", " ").split()).replace("JK", "2D")
    view = hand_view(
        {"B": cards, "A": a},
        ["B draw_stock 2H", "B discard 2H", "A draw_stock JK", f"A declare 2D: {declared}"],
        {"B": ("lost", 120, "-120.00"), "A": ("won", 0, "108.00")},
        wild="7H", open="5S", stock="2H JK", ruleset="standard-21",
    )  # fmt: skip
    assert view.findings == ()
    b = view.players[0]
    assert b.why.startswith("every card but the pure sequence QC KC AC counts "
                            "(points.unmet_requirement) because it has 1 pure sequence; it "
                            "needs 3; the cards"), b.why  # fmt: skip
    assert "are worth 122, capped at 120" in b.why
    assert b.best is not None
    assert b.best.melds[0].text == "QC KC AC"
