"""One mistake in a log's rows is one finding, not a cascade that judges an innocent player
(docs/replay.md, Turns; audit/replay/readings.py): rows in each other's places, a row in
another player's name, a reshuffle row's stock written in another order than drawn."""

from __future__ import annotations

from decimal import Decimal

from audit.cards import CODE_TEXT
from audit.findings import Finding
from audit.records import Event, GameUnit, LedgerRow
from audit.replay.outcome import audit_hand
from audit.rules.ruleset import load_preset
from audit.unit import audit_unit
from tests.replay.cases import DECLARE, P1, P2, P3, SHOW, base, longer, won_ledger
from tests.replay.scenario import scenario
from tests.replay.test_hand_flow import exhaust_stock, p2_drops_and_p1_wins, reshuffled_then_drawn

STANDARD = load_preset("standard-13")


def test_turns_order_a_draw_written_after_the_declaration_it_fed_is_one_finding() -> None:
    """`turns.order` (001_42b102d6f12eaa06.txt: on each turn a player must pick one card,
    then discard one): P1's draw of JK and the declaration it fed are written in each
    other's places. Read as written, P1 declares without drawing with a card not held,
    the valid declaration is judged invalid and the win moved; read in each other's
    places, one finding, and P1 wins."""
    game, hand = scenario(**base())
    assert audit_hand(hand, game, STANDARD).findings == []
    game, hand = scenario(**base(events=[DECLARE, "P1 draw_stock JK", SHOW]))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [("turn.order", "P1", 0)]
    assert audit.findings[0].message == (
        "The rows at seq 0 and 1 are in each other's places: P1's draw_stock of JK came "
        "before P1's declare of QH. The rest of the hand is checked in that order."
    )
    assert audit.replay.winner == "P1"


def test_turns_order_a_row_in_another_players_name_is_one_finding() -> None:
    """`turns.order` (000_1729c72ad4c1f885.txt: players play in turn): P2's draw of 2S
    from the pile is written in P1's name. Read as written, P1 draws twice and P2
    discards without drawing (and the cards follow the wrong player); read as P2's, whose
    turn it was, one finding that names both players, and the hand is right."""
    events = longer()["events"]
    game, hand = scenario(**longer(events=[*events[:2], "P1 draw_discard 2S", *events[3:]]))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq, f.expected) for f in audit.findings] == [
        ("turn.order", "P1", 2, "P2")
    ]
    assert audit.findings[0].message == (
        "The row at seq 2 names P1, but it was P2's turn and the row is P2's (P2's "
        "draw_discard of 2S). The rest of the hand is checked with it as P2's."
    )
    assert audit.replay.winner == "P1"


def test_turns_order_a_row_in_the_name_of_a_player_not_dealt_in_is_one_finding() -> None:
    """`turns.order` (000_1729c72ad4c1f885.txt: players play in turn): P2's draw of 2S from
    the pile is written in the name of P9, who was not dealt in. Read as written, P9 acted
    in the hand, then P2 discarded without drawing and P2's show holds a card they never
    drew (three findings: a blind tester); read as P2's, whose turn it was, one finding
    that names both, and the hand is right. A whole turn of P9's is read so too
    (tests/replay/test_turns_order.py)."""
    events = longer()["events"]
    game, hand = scenario(**longer(events=[*events[:2], "P9 draw_discard 2S", *events[3:]]))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq, f.expected, f.recorded) for f in audit.findings] == [
        ("turn.order", "P9", 2, "P2", "P9")
    ]
    assert audit.findings[0].message == (
        "The row at seq 2 names P9, who was not dealt in, but it was P2's turn: the row is "
        "P2's draw_discard of 2S. The rest of the hand is checked with it as P2's."
    )
    assert audit.replay.winner == "P1"


def test_turns_order_a_whole_turn_in_another_players_name_is_one_finding() -> None:
    """`turns.order` (000_1729c72ad4c1f885.txt: players play in turn): P2's whole turn (a
    draw, then a discard) is written in P1's name, or in P3's. Read as written, the
    second finding fell on P3, who played in turn ("P3 acted out of turn: it was P2's
    turn", a blind tester); read as P2's, one finding naming both rows, and the hand is
    right."""
    three = {"P1": P1, "P2": P2, "P3": P3}
    tail = ["P3 draw_stock 6H", "P3 discard 6H", "P1 draw_stock JK", DECLARE, SHOW,
            "P3 show: AH 2C 3D 4C 5H 6D 7C 8D 9H TH JD QS KH"]  # fmt: skip
    results = {"P1": ("won", 0, "141.30"), "P2": ("lost", 77, "-77.00"),
               "P3": ("lost", 80, "-80.00")}  # fmt: skip

    def audit(turn: str) -> list[Finding]:
        events = ["P1 draw_stock 2S", "P1 discard 2S", f"{turn} draw_discard 2S",
                  f"{turn} discard 2S", *tail]  # fmt: skip
        game, hand = scenario(**base(seats=three, stock="2S 6H JK 7D", events=events,
                                     results=results))  # fmt: skip
        return audit_hand(hand, game, STANDARD).findings

    assert audit("P2") == []
    for name in ("P1", "P3"):
        (found,) = audit(name)
        assert (found.check, found.player_id, found.seq, found.expected) == (
            "turn.order", name, 2, "P2")
        assert found.message == (
            f"The rows at seq 2 and 3 name {name}, but it was P2's turn and the rows are P2's "
            "(P2's draw_discard of 2S, then P2's discard of 2S). The rest of the hand is "
            "checked with them as P2's."
        )


def test_turns_order_a_player_who_drew_twice_is_not_read_as_rows_out_of_place() -> None:
    """`turns.order`: P1 draws JK, then AC from the pile, then declares: two draws in one
    turn. Read with the second draw after the declaration, P1 would still take a turn
    after the hand ended: not a reading that explains the rows, so the record stands."""
    game, hand = scenario(**base(events=["P1 draw_stock JK", "P1 draw_discard AC", DECLARE,
                                         SHOW]))  # fmt: skip
    messages = [f.message for f in audit_hand(hand, game, STANDARD).findings]
    assert messages[0] == (
        "P1 drew JK from the stock, then AC from the discard pile: two draws in one turn."
    )
    assert not any("each other's places" in m for m in messages)


def test_turns_reshuffle_a_draw_written_before_the_reshuffle_that_fed_it_is_one_finding(
) -> None:
    """`turns.reshuffle` (003_f375e2c560403297.txt: when the stock runs out, the discard
    pile is shuffled to make a new stock): the first draw from the new stock is written
    before the reshuffle row. Read as written, a draw from an empty stock with no
    reshuffle, then a reshuffle with cards in the stock that "adds" every card; read in
    each other's places, one finding."""
    game, hand = scenario(**base(events=[], results={}))
    played, pile = exhaust_stock(game, hand)
    new_stock = list(reversed(pile[:-1]))
    events = reshuffled_then_drawn(hand, played, new_stock, new_stock[:1])
    at = len(played)
    draw = events[at + 1]
    events[at : at + 2] = [draw._replace(seq=at), Event(at + 1, None, "reshuffle", -1,
                                                        [new_stock], False, None)]  # fmt: skip
    p2_drops_and_p1_wins(hand, events)
    (f,) = audit_hand(hand, game, STANDARD).findings
    assert (f.check, f.seq) == ("draw.stock_mismatch", at)
    assert f.message.startswith(f"The rows at seq {at} and {at + 1} are in each other's "
                                f"places: the reshuffle came before P1's draw_stock of "
                                f"{CODE_TEXT[new_stock[0]]}.")  # fmt: skip


def test_turns_draw_top_card_a_reshuffle_row_written_back_to_front_is_one_finding() -> None:
    """`turns.draw_top_card` (001_42b102d6f12eaa06.txt: pick the top card): the draws after
    a reshuffle take its stock from the last card of the row's group to the first. Read
    as written, every draw is from deeper in the stock, a finding each; read in the order
    drawn, one finding that names the draws and the reshuffle."""
    game, hand = scenario(**base(events=[], results={}))
    played, pile = exhaust_stock(game, hand)
    new_stock = pile[:-1]
    drawn = list(reversed(new_stock))[:5]
    hand.events = reshuffled_then_drawn(hand, played, new_stock, drawn)
    p2_drops_and_p1_wins(hand, hand.events)
    (f,) = audit_hand(hand, game, STANDARD).findings
    assert (f.check, f.seq) == ("draw.stock_mismatch", len(played) + 1)
    assert f.message.startswith(
        "The stock was drawn in another order than the reshuffle row records: 5 draws took "
        f"other cards than the record holds at their place, among them {CODE_TEXT[drawn[0]]} "
        f"was drawn as card 1 of the stock the reshuffle at seq {len(played)} made, which "
        f"holds {CODE_TEXT[new_stock[0]]} (the row has {CODE_TEXT[drawn[0]]} as card "
        f"{len(new_stock)})"
    )


def test_turns_order_a_discard_missing_from_renumbered_rows_is_one_finding() -> None:
    """`turns.order` (001_42b102d6f12eaa06.txt: on each turn a player must pick one card,
    then discard one): P1's discard of 2S is missing and the later rows renumbered, so no
    gap in seq shows it. Read as written, P2 takes a turn that is P1's and P1 holds a card
    too many at the declaration; read with the discard put back, one finding, and the
    hand is right."""
    events = longer()["events"]
    game, hand = scenario(**longer(events=[events[0], *events[2:]]))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [("turn.order", "P2", 1)]
    assert audit.findings[0].message == (
        "A row seems to be missing before seq 1: P1's discard of 2S; the record goes on as "
        "if it had been made. The rest of the hand is checked with it."
    )
    assert audit.replay.winner == "P1"


def test_turns_order_a_draw_missing_from_renumbered_rows_is_one_finding() -> None:
    """`turns.order`: P2's draw of 2S from the pile is missing, the later rows renumbered:
    P2 discards without drawing. Read with the draw of the pile's top put back, one
    finding, and the hand is right."""
    events = longer()["events"]
    game, hand = scenario(**longer(events=[*events[:2], *events[3:]]))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [("turn.order", "P2", 2)]
    assert audit.findings[0].message.startswith(
        "A row seems to be missing before seq 2: P2's draw_discard of 2S;"
    )
    assert audit.replay.winner == "P1"


def test_results_player_id_a_row_in_the_name_of_a_player_not_dealt_in_is_one_finding() -> None:
    """`results.player_id` (log-format.md: one row per seated player): P2's result is
    written in the name of P9, who was not dealt in. Read as written, P9 has a result in a
    hand they were not in and P2 has none, and the game's money cannot be checked (what P2
    settles is not known); read as P2's, one finding that names both, and the ledger is
    checked through it: it balances for P1, P2 and the rake."""
    game, hand = scenario(**base())
    hand.results = [r._replace(player="P9") if r.player == "P2" else r for r in hand.results]
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in audit.findings] == [
        ("score.outcome", "P2", "P2", "P9")
    ]
    assert audit.findings[0].message == (
        "P2's result (lost, 40 points) is recorded in the name of P9, who was not dealt in; "
        "P2 has no result row of their own."
    )
    game.ledger = won_ledger()
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert unit.findings == []
    game.ledger[1] = LedgerRow("P2", "points_settlement", Decimal("-41.00"))
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert [f.check for f in unit.findings] == ["ledger.balance"]


def test_results_player_id_a_stranger_and_a_missing_row_that_do_not_match_stay_two() -> None:
    """A row in a stranger's name that is not what the rules give the player without one
    (P2 lost 40 points; the row says won): not that player's row written in another name,
    so both findings stand."""
    game, hand = scenario(**base())
    hand.results = [r._replace(player="P9", outcome="won", points=0) if r.player == "P2"
                    else r for r in hand.results]  # fmt: skip
    checks = [(f.check, f.player_id) for f in audit_hand(hand, game, STANDARD).findings]
    assert ("score.outcome", "P9") in checks
    assert ("score.outcome", "P2") in checks
