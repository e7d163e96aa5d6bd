"""A hand played with dealt cards at other seats than its recorded shoe gives them
(docs/replay.md, "The deal"): one finding naming the cards, not a cascade that turns a
valid declaration invalid and the loser into the winner."""

from __future__ import annotations

from dataclasses import replace

from audit.cards import parse_code
from audit.replay.outcome import audit_hand
from audit.replay.redeal import Move, moved, redeal
from audit.rules.ruleset import load_preset
from tests.replay.cases import DECLARE, P1, P2, P3, SHOW, base, longer
from tests.replay.scenario import scenario

STANDARD = load_preset("standard-13")


def swapped(cards_1: str, cards_2: str, a: str, b: str) -> tuple[str, str]:
    """The two seats' cards with ``a`` (the first's) and ``b`` (the second's) traded."""
    return cards_1.replace(a, b), cards_2.replace(b, a)


def test_deal_procedure_two_dealt_cards_at_each_others_seats_are_one_finding() -> None:
    """`deal.procedure` (log-format.md: `shoe[i]` goes to `seats[i mod n]`): the shoe
    records KD at P2's seat and AS at P1's, but P1 declares with KD and P2 shows AS. Read
    from the shoe, both groups miss a card and the valid declaration would be judged
    invalid, P2 made the winner; dealt as played, the hand is right. One finding, at the
    first card out of place, naming both."""
    game, hand = scenario(**base())
    assert audit_hand(hand, game, STANDARD).findings == []
    p1, p2 = swapped(P1, P2, "KD", "AS")
    game, wrong = scenario(**base(seats={"P1": p1, "P2": p2}))
    audit = audit_hand(wrong, game, STANDARD)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [
        ("declare.groups_mismatch", "P1", 1)
    ]
    (f,) = audit.findings
    assert "KD (shoe position 1) was played by P1, not P2" in f.message
    assert "AS (shoe position 18) was played by P2, not P1" in f.message
    assert f.rule.startswith("deal.procedure")
    assert audit.replay.winner == "P1"


def test_deal_procedure_a_discard_of_a_card_dealt_to_another_seat_is_one_finding() -> None:
    """`deal.procedure`: P2 discards 3C, which the shoe deals to P1, and P1 declares with
    9C, which it deals to P2. One `discard.not_in_hand` at P2's discard that names both
    cards; the declaration stands and P2's show is scored as shown (76 points)."""
    events = [
        "P1 draw_stock 2S",
        "P1 discard 2S",
        "P2 draw_discard 2S",
        "P2 discard 3C",
        "P1 draw_stock JK",
        DECLARE,
        "P2 show: AS 2S 5D 7H 8H TC JC 2D 4D 6C 8C TD QC",
    ]
    results = {"P1": ("won", 0, "68.40"), "P2": ("lost", 76, "-76.00")}
    game, hand = scenario(**longer(events=events, results=results))
    assert audit_hand(hand, game, STANDARD).findings == []
    p1, p2 = swapped(P1, P2, "9C", "3C")
    game, wrong = scenario(**longer(seats={"P1": p1, "P2": p2}, events=events, results=results))
    findings = audit_hand(wrong, game, STANDARD).findings
    assert [(f.check, f.player_id, f.seq) for f in findings] == [
        ("discard.not_in_hand", "P2", 3)
    ]
    assert "3C (shoe position 12) was played by P2, not P1" in findings[0].message
    assert "9C (shoe position 3) was played by P1, not P2" in findings[0].message


def test_deal_procedure_redeal_trades_only_cards_the_record_shows_out_of_place() -> None:
    """The shoe reordered so the procedure deals as played: the two cards trade places,
    every other card stays where it was."""
    p1, p2 = swapped(P1, P2, "KD", "AS")
    _, wrong = scenario(**base(seats={"P1": p1, "P2": p2}))
    found = redeal(wrong, 13)
    assert found is not None
    kd, ace = parse_code("KD"), parse_code("AS")
    assert found.moves == [Move(kd, "P1", "P2", 1), Move(ace, "P2", "P1", 18)]
    assert found.unseen == 0
    pairs = enumerate(zip(wrong.shoe, found.hand.shoe, strict=True))
    changed = [i for i, (a, b) in pairs if a != b]
    assert changed == [1, 18]


def test_deal_procedure_a_redeal_that_explains_no_more_is_not_taken() -> None:
    """A finish card from the stock (7D) where the groups hold every other card: the
    finish-slot resync already makes it one finding, so dealing 7D to P1 from the stock
    would explain no more: the replay's own `discard.not_in_hand` stands, in its words."""
    kw = base(events=["P1 draw_stock JK", "P1 declare 7D: 2H 3H 4H / 5S 6S 7S / 9C 9D 9S / "
                      "KD KC KS JK", SHOW])  # fmt: skip
    game, hand = scenario(**kw)
    (f,) = audit_hand(hand, game, STANDARD).findings
    assert (f.check, f.player_id, f.seq) == ("discard.not_in_hand", "P1", 1)
    assert f.message.startswith("P1 put on the finish slot 7D, a card they did not hold")
    _, clean = scenario(**base())
    assert redeal(replace(clean), 13) is None


def test_deal_procedure_a_dealt_card_swapped_into_the_stock_is_one_finding() -> None:
    """`deal.procedure`: the shoe records KD, which P1 declares with and never drew, deep
    in the stock, and at its place at P1's seat 7D, which P1 never plays. Read from the
    shoe, P1's valid declaration would be judged invalid and P2 made the winner; dealt
    as played (7D put back in the stock), the hand is right: one finding."""
    p1 = P1.replace("KD", "7D")
    game, wrong = scenario(**base(seats={"P1": p1, "P2": P2}, stock="JK 2S 6H KD"))
    audit = audit_hand(wrong, game, STANDARD)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [
        ("declare.groups_mismatch", "P1", 1)
    ]
    assert "P1 played KD, which the shoe deals to no player (it has one in the stock, at " \
        "position 31)" in audit.findings[0].message
    assert audit.replay.winner == "P1"


THREE = {"P1": P1, "P2": P2, "P3": P3}
THREE_EVENTS = [
    "P1 draw_stock 2S",
    "P1 discard 2S",
    "P2 draw_discard 2S",
    "P2 discard 2S",
    "P3 drop",
    "P1 draw_stock JK",
    DECLARE,
    SHOW,
]
# P2 had a turn: 77 points; P3's first drop 20; P1 is paid both less the 10 % rake.
THREE_RESULTS = {
    "P1": ("won", 0, "87.30"),
    "P2": ("lost", 77, "-77.00"),
    "P3": ("first_drop", 20, "-20.00"),
}


def test_turns_order_seats_recorded_in_another_order_than_played_are_one_finding() -> None:
    """`turns.order` (000_1729c72ad4c1f885.txt: players take turns in seat order) and
    `deal.procedure` (log-format.md: `seats[0]` acts first, `shoe[i]` goes to
    `seats[i mod n]`): a hand dealt and played in the order P1, P2, P3 whose seats are
    recorded as P2, P1, P3 (or rotated to P2, P3, P1). Read in the recorded order every
    turn is out of turn and every card at another seat; played in the order of the turns,
    the hand is right. One finding, at the first turn, giving both orders; the declaration
    stands and the explain's seats are the order played."""
    game, hand = scenario(**base(seats=THREE, stock="2S JK 6H 7D", events=THREE_EVENTS,
                                 results=THREE_RESULTS))  # fmt: skip
    assert audit_hand(hand, game, STANDARD).findings == []
    for recorded in (["P2", "P1", "P3"], ["P2", "P3", "P1"]):
        audit = audit_hand(replace(hand, seats=recorded), game, STANDARD)
        assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [
            ("turn.order", "P1", 0)
        ]
        (f,) = audit.findings
        assert (f.expected, f.recorded) == ("P1, P2, P3", ", ".join(recorded))
        assert "dealt and took their turns in the order P1, P2, P3" in f.message
        assert f.rule.startswith("turns.order")
        assert audit.replay.winner == "P1"
        assert audit.replay.hand.seats == ["P1", "P2", "P3"]


def test_turns_order_a_turn_out_of_order_the_cards_do_not_explain_is_not_reseated() -> None:
    """`turns.order`: P2 takes the first turn of a hand dealt in the recorded order P1, P2,
    P3. Seated P2, P1, P3 the deal would give P2 P1's cards, and P2's and P1's plays would
    not be theirs: the record is read as recorded, P2's turn out of turn."""
    events = ["P2 draw_stock 2S", "P2 discard 2S", *THREE_EVENTS[4:]]
    game, hand = scenario(**base(seats=THREE, stock="2S JK 6H 7D", events=events,
                                 results=THREE_RESULTS))  # fmt: skip
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq, f.message) for f in audit.findings] == [
        ("turn.order", "P2", 0, "P2 acted out of turn: it was P1's turn.")
    ]
    assert audit.replay.hand.seats == ["P1", "P2", "P3"]


def test_deal_procedure_a_wild_card_recorded_otherwise_than_played_is_one_finding() -> None:
    """`deal.procedure` (log-format.md: `shoe[n*k]` is the wild card): the deal turns up
    8S and the hand was played and scored with it (P2's 8H and 8C jokers, 77 points), but
    the hands row records 5C. Judged by 5C, P2's count would be 88 and the money wrong
    with it; the hand is checked with the deal's wild card: one `deal.mismatch`, whose
    words say so."""
    game, hand = scenario(**longer(recorded_wild="5C"))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.expected, f.recorded) for f in audit.findings] == [
        ("deal.mismatch", "8S", "5C")
    ]
    assert audit.findings[0].message.endswith(
        "The play and the platform's outcomes follow 8S: the hand is checked with it."
    )
    assert audit.expected["P2"].points == 77


def test_deal_procedure_a_hand_scored_with_the_wild_card_recorded_is_judged_by_it() -> None:
    """`deal.procedure`: the same hand scored with the wild card recorded, 5C, the one the
    players were shown (P2's 5D a joker, 8H and 8C counted: 88 points, capped at 80). The
    replay plays on with the recorded wild card (docs/replay.md, "The deal"): one
    `deal.mismatch`, in its own words, and P2's 80 points agree."""
    results = {"P1": ("won", 0, "72.00"), "P2": ("lost", 80, "-80.00")}
    game, hand = scenario(**longer(recorded_wild="5C", results=results))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.message) for f in audit.findings] == [
        ("deal.mismatch", "The wild card recorded is 5C, but the deal turns up 8S after "
         "dealing 13 cards to each of 2 players.")
    ]  # fmt: skip
    assert audit.expected["P2"].points == 80


def test_turns_draw_top_card_two_stock_cards_drawn_in_each_others_places_are_one_finding(
) -> None:
    """`turns.draw_top_card` (001_42b102d6f12eaa06.txt: pick the top card of the stock):
    the shoe records 5C on top of the stock and 6H three cards under it, and the draws take
    6H first and 5C at 6H's place. Each draw, read as recorded, is not the top: one finding
    at the first, naming both draws, the card the shoe holds there and where it has the
    card drawn; the
    hand is checked with the stock in the order drawn (the declaration stands)."""
    events = ["P1 draw_stock 6H", "P1 discard 6H", "P2 draw_stock 2S", "P2 discard 2S",
              "P1 draw_stock 7D", "P1 discard 7D", "P2 draw_stock 5C", "P2 discard 5C",
              "P1 draw_stock JK", DECLARE, SHOW]  # fmt: skip
    results = {"P1": ("won", 0, "69.30"), "P2": ("lost", 77, "-77.00")}
    game, hand = scenario(**base(stock="6H 2S 7D 5C JK", events=events, results=results))
    assert audit_hand(hand, game, STANDARD).findings == []
    game, hand = scenario(**base(stock="5C 2S 7D 6H JK", events=events, results=results))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq, f.expected, f.recorded) for f in audit.findings] == [
        ("draw.stock_mismatch", "P1", 0, "5C at 28; 6H at 31", "6H at 28; 5C at 31")
    ]
    assert audit.findings[0].message == (
        "The stock was drawn in another order than the shoe records: 6H was drawn as shoe "
        "position 28, which holds 5C (the shoe has 6H at 31); 5C was drawn as shoe position "
        "31, which holds 6H (the shoe has 5C at 28). The rest of the hand is checked with "
        "the stock in the order drawn."
    )
    assert audit.replay.winner == "P1"


P2_5H = P2.replace("QC", "5H")
"""P2's cards with 5H its 13th, shoe position 25 (a card P1's hearts run takes)."""


def test_deal_procedure_a_card_dealt_to_another_seat_alone_is_one_finding() -> None:
    """`deal.procedure` (log-format.md: `shoe[i]` goes to `seats[i mod n]`): the platform
    dealt P2's 13th card, 5H, to P1 (14 cards to P1, 12 to P2; a blind tester's
    f09e_declare_14_show_12). P1 declares all 14, P2 shows its 12. Read from the shoe both
    groups are off (two `declare.groups_mismatch`), and no trade of two cards explains it:
    one finding, at P1's declaration, naming the card and the deal it reads as."""
    events = ["P1 draw_stock JK", "P1 declare QH: 2H 3H 4H 5H / 5S 6S 7S / 9C 9D 9S / "
              "KD KC KS JK", "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD"]  # fmt: skip
    game, hand = scenario(**base(seats={"P1": P1, "P2": P2_5H}, events=events))
    found = moved(hand, 13)
    assert found is not None
    assert found.moves == [Move(parse_code("5H"), "P1", "P2", 25)]
    assert found.hand.moved == ((25, "P1"),)
    assert redeal(hand, 13) is None  # P1 plays every card it was dealt: none to give back
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq, f.expected, f.recorded) for f in audit.findings] == [
        ("declare.groups_mismatch", "P1", 1, "5H to P2", "5H to P1")
    ]
    (f,) = audit.findings
    assert f.message == (
        "The players did not play the cards the recorded shoe deals them: 5H (shoe position "
        "25) was played by P1, not P2 (the cards played read as a deal of 14 cards to P1 and "
        "12 to P2). The rest of the hand is checked as dealt so."
    )
    assert f.rule.startswith("deal.procedure")
    assert audit.replay.winner == "P1"


def test_deal_procedure_a_discard_of_a_card_dealt_to_another_seat_that_drops_is_the_deal(
) -> None:
    """`deal.procedure`: the same deal (14 cards to P1, 12 to P2), P1 discards 5H and
    later drops (a blind tester's f09_dealt_14_12). Read from the shoe it is one
    `discard.not_in_hand` too, but the deal says where the card came from: at as few
    findings, the deal's reading stands."""
    events = ["P1 draw_stock JK", "P1 discard 5H", "P2 draw_stock 2S", "P2 discard 2S",
              "P1 drop"]  # fmt: skip
    results = {"P1": ("middle_drop", 40, "-40.00"), "P2": ("won", 0, "36.00")}
    game, hand = scenario(**base(seats={"P1": P1, "P2": P2_5H}, events=events,
                                 results=results))  # fmt: skip
    (f,) = audit_hand(hand, game, STANDARD).findings
    assert (f.check, f.player_id, f.seq) == ("discard.not_in_hand", "P1", 1)
    assert "5H (shoe position 25) was played by P1, not P2 (the cards played read as a deal " \
        "of 14 cards to P1 and 12 to P2)" in f.message
    assert f.rule.startswith("deal.procedure")


def test_deal_procedure_a_seats_card_turned_up_as_the_wild_card_is_one_deal_mismatch() -> None:
    """`deal.procedure` (log-format.md: `shoe[n*k]` is the wild card): the platform turned
    up P2's 13th card, QC (position 25), as the wild card, dealt P2 the deal's wild card
    8S (position 26) in its place, and recorded QC (a blind tester's f03b_wild_shifted).
    One `deal.mismatch` that names both cards and where they lie, not a card "the shoe
    deals to no player"; P2's show of 8S is theirs."""
    events = ["P1 draw_stock JK", DECLARE, "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD 8S"]
    game, hand = scenario(**base(events=events, recorded_wild="QC"))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.player_id, f.seq, f.expected, f.recorded) for f in audit.findings] == [
        ("deal.mismatch", None, None, "8S", "QC")
    ]
    assert audit.findings[0].message == (
        "The wild card recorded is QC (shoe position 25, P2's 13th card by the deal), but the "
        "deal turns up 8S (position 26) as the wild card, which P2 played: the platform dealt "
        "8S to P2 and turned up QC in its place. The rest of the hand is checked as dealt so."
    )
    assert audit.findings[0].rule.startswith("deal.procedure")
    assert audit.replay.winner == "P1"


def test_deal_procedure_an_open_card_left_on_top_of_the_stock_is_one_deal_mismatch() -> None:
    """`deal.procedure` (log-format.md: `shoe[n*k+1]` is the open card, the stock the
    rest): the platform turned up the stock's top card, 2S (position 28), as the open card
    and left the deal's open card AC (position 27) on top of the stock, which the first
    stock draw takes (a blind tester's f07b_open_skipped). One `deal.mismatch` that says
    the two were swapped, not a second finding for the draw "from deeper in the stock"."""
    events = ["P1 draw_stock AC", "P1 discard AC", "P2 draw_discard AC", "P2 discard AC",
              "P1 draw_stock JK", DECLARE, SHOW]  # fmt: skip
    game, hand = scenario(**longer(events=events, stock="2S JK 6H 7D"))
    hand = replace(hand, open=parse_code("2S"))
    audit = audit_hand(hand, game, STANDARD)
    assert [(f.check, f.expected, f.recorded) for f in audit.findings] == [
        ("deal.mismatch", "AC", "2S")
    ]
    assert audit.findings[0].message == (
        "The open card recorded is 2S, but the deal puts AC face up to start the discard "
        "pile, and the first stock draw took AC (P1 at seq 0): the platform turned up 2S, the "
        "stock's top card (shoe position 28), and left AC (position 27) on top of the stock, "
        "the two swapped. The rest of the hand is checked so."
    )
    assert audit.replay.winner == "P1"
