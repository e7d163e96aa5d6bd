"""``rummy-audit rules check``: how the arguments make groups, and the hands it refuses in
one line (exit 2): more copies of a card than the preset's largest shoe holds (``deal.shoes``;
000_1729c72ad4c1f885.txt: two decks, one joker each), and an empty group."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from audit.cli import app

runner = CliRunner()


def check(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["rules", "check", *args])
    return result.exit_code, result.output


def groups_of(output: str) -> list[str]:
    """The cards of each ``group N:`` line, in order."""
    return re.findall(r"^group \d+: ([^:]+):", output, flags=re.MULTILINE)


def refused(args: list[str]) -> str:
    code, output = check(*args)
    assert code == 2, output
    assert output.count("\n") == 1, output
    assert output.startswith("rummy-audit: error: ")
    return output


# ------------------------------------------------------------ copies of a card


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["AH AH AH"], "3 AH"),
        (["AH", "AH", "/", "2H 3H AH"], "3 AH"),
        (["JK JK JK", "5C 6C 7C"], "3 JK"),
        (["AH AH AH 2S 2S 2S"], "3 AH, 3 2S"),
        (["--preset", "first-life-13", "KD KD KD KD"], "4 KD"),
        (["--preset", "first-life-13", "JK JK JK JK JK JK JK"], "7 JK"),
    ],
)
def test_more_copies_of_a_card_than_the_largest_shoe_holds_are_refused(
    args: list[str], words: str
) -> None:
    output = refused(args)
    assert f"the cards hold {words}, but the largest shoe" in output
    assert "(deal.shoes)" in output


def test_the_wild_card_turned_up_is_out_of_play() -> None:
    """log-format.md: the wild card is "turned face up, out of play", so one copy fewer can
    be held: 7H 7H 7H with 7H turned up in standard-21's 3 decks is no hand at all (a blind
    tester's `rules check` called it a tunnela); 7H 7H is judged."""
    output = refused(["--preset", "standard-21", "--wild", "7H", "7H 7H 7H"])
    assert "the cards hold 3 7H" in output
    assert "7H is the wild card turned up, out of play" in output
    assert check("--preset", "standard-21", "--wild", "7H", "7H 7H 2H")[0] == 0


def test_as_many_copies_as_the_largest_shoe_holds_are_judged() -> None:
    """standard-13 has one shoe of 2 decks and 2 jokers; first-life-13's largest has 3
    decks and 6 jokers (003_f375e2c560403297.txt), so 3 AH and 6 JK are possible there."""
    assert check("AH AH", "JK JK")[0] == 0
    assert check("--preset", "first-life-13", "AH AH AH", "JK JK JK JK JK JK")[0] == 0


# ------------------------------------------------------------ empty groups


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([""], "group 1 is empty (argument 1 is '', which holds no card)"),
        (["AH 2H 3H", " , "], "group 2 is empty (argument 2 is ' , ', which holds no card)"),
        (
            ["AH", "2H", "3H", "/", "/", "4C", "5C", "6C"],
            "group 2 is empty (nothing between the '/' of argument 4 and the '/' of argument 5)",
        ),
        (["/", "AH", "2H", "3H"], "group 1 is empty (nothing before the '/' of argument 1)"),
        (["AH 2H 3H", "/"], "group 2 is empty (nothing after the '/' of argument 2)"),
        (["AH 2H 3H", "/", "/", "4C 5C 6C"], "group 2 is empty (nothing between the '/'"),
    ],
)
def test_an_empty_group_is_refused(args: list[str], words: str) -> None:
    assert words in refused(args)


@pytest.mark.parametrize("wild", ["10H", "10h", "th", "TH"])
def test_wild_is_read_as_the_groups_are_10_for_the_ten(wild: str) -> None:
    """A person's cards: a group read ``10H`` as TH while ``--wild 10H`` was refused (a
    blind tester). Both read what people write (lowercase, ``10``); the ten of the logs
    stays ``T``."""
    result = runner.invoke(app, ["rules", "check", "--wild", wild, "TS JS QS"])
    assert result.exit_code == 0, result.output
    assert "every 10 (wild rank, from the wild card TH)" in result.output


def test_wild_takes_one_card() -> None:
    assert refused(["--wild", "TH JH", "TS JS QS"]) == (
        "rummy-audit: error: --wild takes one card, not 'TH JH'\n"
    )


# ------------------------------------------------------------ grouping


@pytest.mark.parametrize(
    ("args", "groups"),
    [
        # The mix the old rule merged into "AH 2H 3H 4C" / "5C 6C 7C".
        (["AH 2H 3H", "4C", "/", "5C", "6C", "7C"], ["AH 2H 3H", "4C", "5C 6C 7C"]),
        (["4C", "5C", "6C", "AH 2H 3H"], ["4C 5C 6C", "AH 2H 3H"]),
        (["AH 2H 3H", "4C", "5C", "6C", "9S,TS,JK"], ["AH 2H 3H", "4C 5C 6C", "9S TS JK"]),
        (["AH 2H 3H", "/", "4C", "5C", "6C"], ["AH 2H 3H", "4C 5C 6C"]),
        (["AH 2H 3H", "4C,", "5C", "6C"], ["AH 2H 3H", "4C", "5C 6C"]),
        (["AH2H3H", "4C", "5C", "6C"], ["AH 2H 3H", "4C 5C 6C"]),
        # Unchanged: a group per argument, single cards with '/' between groups, or one group.
        (["AH 2H 3H", "9S TS JK"], ["AH 2H 3H", "9S TS JK"]),
        (["AH", "2H", "3H", "/", "9S", "TS", "JK"], ["AH 2H 3H", "9S TS JK"]),
        (["AH", "2H", "3H"], ["AH 2H 3H"]),
    ],
)
def test_quoted_groups_stay_apart_from_the_single_cards_around_them(
    args: list[str], groups: list[str]
) -> None:
    code, output = check(*args)
    assert code == 0, output
    assert groups_of(output) == groups


def test_a_whole_hand_written_both_ways_is_judged_as_a_declaration() -> None:
    code, output = check(
        "--wild", "5C", "AH 2H 3H", "9S", "TS", "JK", "/", "4C 4D 4S", "KD", "QD", "JD", "TD"
    )
    assert code == 0, output
    assert groups_of(output) == ["AH 2H 3H", "9S TS JK", "4C 4D 4S", "KD QD JD TD"]
    assert "declaration: VALID" in output


# ------------------------------------------------------------ value cards


def test_points_value_cards_rules_check_says_what_the_hands_value_cards_are_worth() -> None:
    """`points.value_cards` (000_1729c72ad4c1f885.txt: 'Value Cards', a term of 21 Card
    rummy; the preset's table: a marriage of cut card, up and down joker 100, a loose value
    card 10): `rules check` under standard-21 names the value cards a hand holds and their
    points, so a support agent can settle a value-card question with it (b51)."""
    hand = ["6H 7H 8H", "2C 3C 4C", "5D 6D 7D", "9S 9C 9D", "JK 4H 5H", "KS KD KC", "QS QD 8H"]
    code, output = check("--preset", "standard-21", "--wild", "7H", *hand)
    assert code == 0, output
    line = next(x for x in output.splitlines() if x.startswith("value cards"))
    assert "7H 8H 6H: 1 marriage (100); value cards 8H (10): 110 points" in line
    # a 13-card preset has none, and no wild card names none
    assert "value cards" not in check("--wild", "7H", "6H 7H 8H")[1]
    assert "value cards" not in check("--preset", "standard-21", *hand)[1]
