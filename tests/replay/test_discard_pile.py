"""The discard pile after a discard the player did not hold (`turns.discard_from_hand`):
where the next draw from the pile takes a card they hold, that was their discard, and the
one error is one finding (docs/replay.md, Turns).

In each hand P2 draws 6H and discards 7D, which they do not hold (`discard.not_in_hand`);
P1 declares after P2's next turn and P2 shows the 13 cards they were dealt.
"""

from __future__ import annotations

import pytest

from audit.cards import format_codes, parse_code
from audit.replay.outcome import audit_hand
from audit.rules.ruleset import load_preset
from tests.replay.cases import DECLARE, P2, longer
from tests.replay.scenario import scenario

STANDARD = load_preset("standard-13")
STOCK = "2S 6H 7C JK"


def phantom_hand(middle: list[str]) -> list[str]:
    """P1 plays a turn, P2 draws 6H and discards 7D (seq 3), then ``middle`` (two rows,
    seq 4 and 5), P2 plays a turn from the stock, P1 declares (seq 9), P2 shows."""
    return [
        "P1 draw_stock 2S",
        "P1 discard 2S",
        "P2 draw_stock 6H",
        "P2 discard 7D",
        *middle,
        "P2 draw_stock 7C",
        "P2 discard 7C",
        "P1 draw_stock JK",
        DECLARE,
        f"P2 show: {P2}",
    ]


def audit(events: list[str], stock: str = STOCK) -> list[tuple[str, str | None, int | None]]:
    game, hand = scenario(**longer(stock=stock, events=events))
    return [(f.check, f.player_id, f.seq) for f in audit_hand(hand, game, STANDARD).findings]


@pytest.mark.parametrize("who", ["P1", "P9"])
def test_turns_discard_not_in_hand_then_taken_from_the_pile_is_one_finding(who: str) -> None:
    """`turns.discard_from_hand` (docs/replay.md: "one error is one finding"; a blind
    tester): P2's discard is recorded as 7D, which they do not hold, and the next draw from
    the pile takes 6H, which they do: 6H was their discard, the draw took the top of the
    pile, and P2's show of the cards they were dealt matches (it was one
    `draw.discard_mismatch` and one `declare.groups_mismatch` more). The draw may be an
    intruder's: P9's turn (one `turn.order`) stood for P1's, and the pile is the same."""
    events = phantom_hand([f"{who} draw_discard 6H", f"{who} discard 6H"])
    also = [("turn.order", "P9", 4)] if who == "P9" else []
    assert audit(events) == [("discard.not_in_hand", "P2", 3), *also]
    game, hand = scenario(**longer(stock=STOCK, events=events))
    replay = audit_hand(hand, game, STANDARD).replay
    assert format_codes(replay.pile) == "AC 2S 6H 7C"  # 7D never reached the pile
    assert replay.pile_from == [None, "P1", who, "P2"]
    if who == "P1":  # the fair-play facts: P1 took P2's discard, 6H
        assert replay.takes == [("P2", "P1", parse_code("6H"))]
        assert replay.offered == {("P1", "P2"): 2, ("P2", "P1"): 2}


@pytest.mark.parametrize(
    ("taken", "also"),
    [("7D", []), ("2S", [("draw.discard_mismatch", "P1", 4)])],
)
def test_turns_discard_not_in_hand_then_the_pile_draw_of_it_or_another_changes_nothing(
    taken: str, also: list[tuple[str, str, int]]
) -> None:
    """`turns.discard_from_hand`: where the next draw from the pile takes the card
    recorded (7D), or one P2 does not hold (2S, deeper in the pile:
    `draw.discard_mismatch`), the pile says nothing of which card P2 discarded: P2 still
    holds 6H until their show, which holds every card of theirs but 6H, says it was 6H
    (docs/replay.md, Turns): the show matches, no `declare.groups_mismatch` (it was one
    before a blind tester's declarations judged invalid for the card kept)."""
    events = phantom_hand([f"P1 draw_discard {taken}", f"P1 discard {taken}"])
    assert audit(events) == [("discard.not_in_hand", "P2", 3), *also]


def test_turns_discard_not_in_hand_covered_before_any_pile_draw_changes_nothing() -> None:
    """`turns.discard_from_hand`: no one draws from the pile before P1's discard covers
    7D, so the pile cannot say which card P2 discarded: P2 still holds 6H until their show
    of the cards they were dealt, without it, says it was 6H: one finding."""
    events = phantom_hand(["P1 draw_stock 4C", "P1 discard 4C"])
    assert audit(events, stock="2S 6H 4C 7C JK") == [("discard.not_in_hand", "P2", 3)]
