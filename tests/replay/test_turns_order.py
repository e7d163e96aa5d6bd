"""A turn by a player who may not play one (`turns.order`, docs/replay.md, Turns): one not
dealt in, one out of the hand, or anyone after the hand has ended. Each is one `turn.order`
a turn of theirs, and the replay follows the record, so no later draw is off by one."""

from __future__ import annotations

from audit.records import Game, Hand
from audit.replay.hand import HandReplay
from audit.replay.outcome import audit_hand
from audit.rules.ruleset import load_preset
from tests.replay.cases import DECLARE, P1, P2, P3, base, longer
from tests.replay.scenario import scenario

STANDARD = load_preset("standard-13")


def audit(game: Game, hand: Hand) -> list[tuple[str, str | None, int | None]]:
    return [(f.check, f.player_id, f.seq) for f in audit_hand(hand, game, STANDARD).findings]


def test_turns_order_a_turn_by_a_player_not_dealt_in_is_one_finding_not_a_cascade() -> None:
    """`turns.order` (docs/replay.md, Turns: "After any discrepancy the replay goes on with
    what the log recorded (the card drawn is the card recorded), so one error is one
    finding"): P1's first turn recorded as P9's, a player not dealt in, is one `turn.order`.
    The card P9 drew left the stock and the card P9 discarded is on the pile, and P9's turn
    was P1's, so P2 plays on in turn and P1's later draw of the next stock card is no
    finding (a blind tester: the stock kept the card, and every later draw was off by one,
    ten critical `draw.stock_mismatch` and three `turn.order`)."""
    kw = longer()
    kw["events"] = [e.replace("P1", "P9", 1) if i < 2 else e for i, e in enumerate(kw["events"])]
    game, hand = scenario(**kw)
    assert [e.player for e in hand.events[:3]] == ["P9", "P9", "P2"]
    assert audit(game, hand) == [("turn.order", "P9", 0)]
    # Read as written, P9's discard, offered to and taken by P2, is no fair-play fact: P9
    # was not dealt in.
    replay = HandReplay(hand, game, STANDARD).run()
    assert (replay.offered, replay.takes) == ({("P2", "P1"): 1}, [])
    # The one finding names whose turn it was: read as P1's, the whole hand is right, so
    # that reading stands, one finding as before (rows.strangers; a blind tester).
    (found,) = audit_hand(hand, game, STANDARD).findings
    assert (found.expected, found.recorded) == ("P1", "P9")
    assert found.message.startswith(
        "The rows at seq 0 and 1 name P9, who was not dealt in, but it was P1's turn: ")


def test_turns_order_a_turn_after_dropping_is_one_finding_and_its_card_leaves_the_stock() -> None:
    """`turns.order` (docs/replay.md, Turns: a player out of the hand who acts is followed
    as one not dealt in): P2, who dropped, draws 7D from the stock and discards it between
    P3's turn and P1's. That is one `turn.order`: 7D left the stock, so P1's draw of the
    next card, JK, is in turn and from the top (a blind tester: a `turn.order` for the
    draw and another for the discard, then a critical `draw.stock_mismatch` for every
    later stock draw, the stock still holding 7D)."""
    kw = base(
        seats={"P1": P1, "P2": P2, "P3": P3},
        stock="2S 6H 7D JK",
        events=[
            "P1 draw_stock 2S",
            "P1 discard 2S",
            "P2 drop",
            "P3 draw_stock 6H",
            "P3 discard 6H",
            "P2 draw_stock 7D",
            "P2 discard 7D",
            "P1 draw_stock JK",
            DECLARE,
            f"P3 show: {P3}",
        ],
        results={
            "P1": ("won", 0, "90.00"),
            "P2": ("first_drop", 20, "-20.00"),
            "P3": ("lost", 80, "-80.00"),
        },
    )
    game, hand = scenario(**kw)
    (found,) = audit_hand(hand, game, STANDARD).findings
    assert (found.check, found.player_id, found.seq) == ("turn.order", "P2", 5)
    assert found.message == "P2 acted after leaving the hand (dropped)."


def test_turns_order_a_turn_after_the_hand_ended_is_one_finding() -> None:
    """`turns.order` (docs/replay.md, Turns: one `turn.order` for each turn of a player who
    acts when they may not): P2 draws 2S and discards it after P1's declaration and P2's
    show ended the hand. That turn is one finding (before: two, the draw and the discard);
    a second turn after it, P1's, is its own."""
    show = "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD QC"
    ended = ["P1 draw_stock JK", DECLARE, show]
    game, hand = scenario(**base(events=[*ended, "P2 draw_stock 2S", "P2 discard 2S"]))
    (found,) = audit_hand(hand, game, STANDARD).findings
    assert (found.check, found.player_id, found.seq) == ("turn.order", "P2", 3)
    assert found.message == "P2 took a turn after the hand had ended."
    twice = [*ended, "P2 draw_stock 2S", "P2 discard 2S", "P1 draw_stock 6H", "P1 discard 6H"]
    game, hand = scenario(**base(events=twice))
    assert audit(game, hand) == [("turn.order", "P2", 3), ("turn.order", "P1", 5)]

def test_turns_order_a_turn_by_a_player_not_dealt_in_leaves_the_turn_where_it_was() -> None:
    """`turns.order` (docs/replay.md, Turns): P9, not dealt in, plays a whole turn between
    P3's and P1's (or in the middle of P1's): one `turn.order`, and the turn is still P1's,
    who plays on with no finding (a blind tester: P9's turn used up P1's, and P1's own
    draw was a second `turn.order`, "P1 acted out of turn: it was P2's turn"). Where the
    record goes on with P2 instead, P9 played P1's turn: still one finding
    (`test_turns_order_a_turn_by_a_player_not_dealt_in_is_one_finding_not_a_cascade`)."""
    first = ["P1 draw_stock 2S", "P1 discard 2S", "P2 draw_stock 6H", "P2 discard 6H",
             "P3 draw_stock 7D", "P3 discard 7D"]  # fmt: skip
    last = [DECLARE, f"P2 show: {P2}", f"P3 show: {P3}"]
    results = {"P1": ("won", 0, "141.30"), "P2": ("lost", 77, "-77.00"),
               "P3": ("lost", 80, "-80.00")}  # fmt: skip
    between = [*first, "P9 draw_stock 8D", "P9 discard 8D", "P1 draw_stock JK", *last]
    within = [*first, "P1 draw_stock JK", "P9 draw_stock 8D", "P9 discard 8D", *last]
    for events, stock in ((between, "2S 6H 7D 8D JK"), (within, "2S 6H 7D JK 8D")):
        kw = base(seats={"P1": P1, "P2": P2, "P3": P3}, stock=stock, events=events,
                  results=results)  # fmt: skip
        assert audit(*scenario(**kw)) == [("turn.order", "P9", events.index("P9 draw_stock 8D"))]


def test_turns_order_a_second_draw_in_one_turn_names_both_draws() -> None:
    """`turns.order` (standard-13: a turn is one draw, then a discard or a declaration): P1
    draws JK from the stock, then AC from the discard pile. The finding said only "P1 drew
    twice in one turn.", so the first card was named nowhere (a blind tester)."""
    kw = base(events=["P1 draw_stock JK", "P1 draw_discard AC", DECLARE, "P2 show: " + P2])
    game, hand = scenario(**kw)
    (twice,) = [f for f in audit_hand(hand, game, STANDARD).findings if f.seq == 1]
    assert (twice.check, twice.player_id) == ("turn.order", "P1")
    assert twice.message == (
        "P1 drew JK from the stock, then AC from the discard pile: two draws in one turn."
    )


def test_turns_order_a_drop_out_of_turn_names_the_reason_a_leaver_would_give() -> None:
    """`turns.order` (schemas/README.md, drop: a player who leaves "may go at any time, in
    turn or not"): P2 drops while it is P1's turn. With the reason `player`, it is one
    `turn.order` whose words say that a leaver's drop would be in order, and what reason
    the row gives, so that an investigator can tell a leaver written as a player's own
    drop (a blind tester: 22 such leavers accused of acting out of turn); with the reason
    `left`, no finding."""
    results = {"P1": ("won", 0, "18.00"), "P2": ("first_drop", 20, "-20.00")}
    game, hand = scenario(**base(events=["P2 drop"], results=results))
    (found,) = audit_hand(hand, game, STANDARD).findings
    assert found.message == (
        "P2 acted out of turn: it was P1's turn (a player who leaves may drop at any time, "
        "but this drop's reason is 'player')."
    )
    game, hand = scenario(**base(events=["P2 drop auto left"], results=results))
    assert audit_hand(hand, game, STANDARD).findings == []
