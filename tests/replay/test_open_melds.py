"""The open-melds game of 002_ (002_be7776aa8b349efa.txt, preset open-melds-13) replayed
hand by hand (audit/replay/openmelds.py): each test is named after the rule of 002_ it
checks and quotes it. docs/replay.md ("Open melds") states the rules.

The hands are two players, 8S turned up as the cut card (every 8 is wild), AC the open
card. In the clean hand (``CLEAN``) P1 lays two pure runs and a set, P2 picks P1's discard
(their first pick, kept), lays a run and a set, picks again and lays that card off on
their run; P1 lays off two hearts and goes out by discarding KD.
"""

from __future__ import annotations

from dataclasses import replace

from audit.cards import parse_code, parse_codes
from audit.records import Game, GameUnit, Hand, Result
from audit.replay.openmelds import OpenHandReplay, audit_open_hand
from audit.rules.ruleset import load_preset
from audit.unit import audit_unit
from tests.replay.scenario import scenario

RULES = load_preset("open-melds-13")
P1 = "2H 3H 4H 5H 9C TC JC 4S 4D 4C KD KS 6H"
P2 = "AS 2S 3S 6C 6D 6S 9D TD QH QS 5C 2C 4H"
STOCK = "QC 4S 7H 5D 9H"
OPENING = [
    "P1 draw_stock QC",
    "P1 lay: 2H 3H 4H 5H / 9C TC JC QC / 4S 4D 4C",  # melds 0, 1, 2
    "P1 discard KS",
    "P2 draw_discard KS",  # P2's first pick from the pile: free to keep
    "P2 lay: AS 2S 3S / 6C 6D 6S",  # melds 3, 4
    "P2 discard 2C",
]
CLEAN = [
    *OPENING,
    "P1 draw_stock 4S",
    "P1 discard 4S",
    "P2 draw_discard 4S",  # a second pick: laid the same turn
    "P2 lay_off 4S @3",
    "P2 discard 5C",
    "P1 draw_stock 7H",
    "P1 lay_off 6H @0",
    "P1 lay_off 7H @0",
    "P1 discard KD",  # out: runs 2H-7H and 9C-QC, both pure
]
# P2 is left with 9D TD QH QS KS 4H: 9 + 10 + 10 + 10 + 10 + 4.
CLEAN_RESULTS = {"P1": ("won", 0), "P2": ("lost", 53)}

Findings = list[tuple[str, str | None, int | None]]


def om_hand(
    events: list[str],
    results: dict[str, tuple[str, int]] | None = None,
    *,
    seats: dict[str, str] | None = None,
    stock: str = STOCK,
    hand_id: str = "H1",
) -> tuple[Game, Hand]:
    """An open-melds hand: ``"P2 lay_off 4S @3"`` lays off onto table meld 3. Without
    ``results`` each player's result is what the rules give (for the tests of a rule that
    is not about points)."""
    lines, melds = [], {}
    for seq, line in enumerate(events):
        head, _, meld = line.partition(" @")
        lines.append(head)
        if meld:
            melds[seq] = int(meld)
    game, hand = scenario(
        seats=seats or {"P1": P1, "P2": P2},
        wild="8S",
        open="AC",
        stock=stock,
        events=lines,
        results={p: (o, n, None) for p, (o, n) in (results or {}).items()},
        game_format="match",
        ruleset="open-melds-13",
        point_value=None,
        rake_pct="0.00",
        hand_id=hand_id,
    )
    game = replace(game, entry_fee=None, chip_type="practice")
    hand.events = [e._replace(meld=melds.get(e.seq)) for e in hand.events]
    if results is None:
        expected = OpenHandReplay(hand, game, RULES).run().expected()
        hand.results = [Result(p, want.outcome, want.points or 0, None, None)
                        for p, want in expected.items()]  # fmt: skip
    return game, hand


def findings(game: Game, hand: Hand) -> Findings:
    audit, _ = audit_open_hand(hand, game, RULES)
    return [(f.check, f.player_id, f.seq) for f in audit.findings]


def replayed(events: list[str], **kw: object) -> OpenHandReplay:
    game, hand = om_hand(events, **kw)  # type: ignore[arg-type]
    return OpenHandReplay(hand, game, RULES).run()


# ---------------------------------------------------------------- a clean hand


def test_a_clean_hand_of_laying_off_and_going_out_has_no_finding() -> None:
    """002_: "Get rid of every card in your hand by laying down melds. The first player out
    ends the hand and everyone else is penalised for what they are still holding." Every
    meld on the table is numbered in the order laid, with its owner."""
    game, hand = om_hand(CLEAN, CLEAN_RESULTS)
    audit, replay = audit_open_hand(hand, game, RULES)
    assert audit.findings == []
    assert audit.status == "verified"
    assert [(m.number, m.owner, len(m.cards)) for m in replay.melds] == [
        (0, "P1", 6), (1, "P1", 4), (2, "P1", 3), (3, "P2", 4), (4, "P2", 3),
    ]  # fmt: skip
    assert replay.winner == "P1"
    assert replay.seats["P1"].cards == []


def test_the_shared_checks_apply_a_stock_draw_is_the_top_of_the_stock() -> None:
    """002_: "Draw one card — from the face-down stock": the checks every game shares
    (the top of the stock, the turn order, a card played is held) are HandReplay's."""
    events = ["P1 draw_stock 4S", *CLEAN[1:]]  # the top of the stock was QC
    game, hand = om_hand(events)
    assert findings(game, hand)[:2] == [
        ("draw.stock_mismatch", "P1", 0),
        ("discard.not_in_hand", "P1", 1),  # P1 lays QC, which they never drew
    ]


# ---------------------------------------------------------------- melds


def test_you_may_only_add_to_your_own_melds() -> None:
    """002_: "You may only add to your own melds." P2 adds their 4H to P1's set of fours
    (meld 2): `meld.lay_off`, though the set stays valid."""
    events = [*CLEAN[:10], "P2 lay_off 4H @2", *CLEAN[10:]]
    game, hand = om_hand(events)
    assert findings(game, hand) == [("meld.lay_off", "P2", 10)]
    audit, _ = audit_open_hand(hand, game, RULES)
    (only,) = audit.findings
    assert only.rule.startswith("open.lay_off: ")
    assert "which P1 laid" in only.message


def test_a_joker_on_the_table_stays_there() -> None:
    """002_: "A joker on the table stays there." (its turn section's "a swap for a joker"
    is the other reading, `open.joker_swap = true`). P1 lays 9C TC JC with the joker and
    later swaps QC in for it: `meld.joker_swap`, and only that; where the ruleset allows
    the swap the same hand is clean and the joker goes to P1's hand."""
    events = [
        "P1 draw_stock JK",
        "P1 lay: 2H 3H 4H 5H / 9C TC JC JK / 4S 4D 4C",
        *OPENING[2:],
        "P1 draw_stock QC",
        "P1 swap_joker QC @1",
        "P1 discard KD",
        "P2 draw_stock 5D",
        "P2 discard 5D",
        "P1 draw_stock 7H",
        "P1 lay_off 6H @0",
        "P1 lay_off 7H @0",
        "P1 discard JK",
    ]
    game, hand = om_hand(events, stock="JK QC 5D 7H")
    assert findings(game, hand) == [("meld.joker_swap", "P1", 7)]
    audit, _ = audit_open_hand(hand, game, RULES)
    assert audit.findings[0].rule.startswith("open.joker_swap: ")
    swapping = replace(RULES, joker_swap=True)
    replay = OpenHandReplay(hand, game, swapping).run()
    assert replay.findings == []
    assert replay.melds[1].cards == parse_codes(["9C", "TC", "JC", "QC"])
    assert replay.winner == "P1"


def test_a_joker_on_the_table_stays_there_a_swap_onto_a_meld_without_one_is_one_finding() -> None:
    """002_: "A joker on the table stays there" (`open.joker_swap = false`). P2 swaps 4H
    into P1's set 4S 4D 4C, which holds no joker: one `meld.joker_swap` that says so
    (before: a `meld.invalid` "holds no joker" beside it); so is a swap onto a meld the
    table does not hold. Where swaps are allowed the same swap is its one `meld.invalid`."""
    events = [*CLEAN[:9], "P2 swap_joker 4H @2", *CLEAN[9:]]
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 49)})
    assert findings(game, hand) == [("meld.joker_swap", "P2", 9)]
    audit, _ = audit_open_hand(hand, game, RULES)
    assert audit.findings[0].message == (
        "P2 swapped 4H for a joker in meld 2 on the table (4S 4D 4C, a meld with no joker); "
        "a joker laid on the table stays there."
    )
    events[9] = "P2 swap_joker 4H @7"
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 49)})
    audit, _ = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.seq, f.message) for f in audit.findings] == [(
        "meld.joker_swap", 9, "P2 swapped 4H for a joker on the table (meld 7, which the table "
        "does not hold); a joker laid on the table stays there.",
    )]  # fmt: skip
    events[9] = "P2 swap_joker 4H @2"
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 49)})
    replay = OpenHandReplay(hand, game, replace(RULES, joker_swap=True)).run()
    assert [(f.check, f.seq) for f in replay.findings] == [("meld.invalid", 9)]

def test_at_most_2_wild_cards_in_one_meld() -> None:
    """002_: "At most 2 wild cards in one meld." P1 lays 4S with two eights (wild) and
    the joker: three wild cards (read as a run 4S-7S, the reading with the fewest),
    `meld.wild_limit`; 4S with two eights is no meld finding."""
    seats = {"P1": "2H 3H 4H 5H 9C TC JC 4S 7H 8D 8C KS 6H", "P2": P2}
    events = [
        "P1 draw_stock JK",
        "P1 lay: 2H 3H 4H 5H / 9C TC JC / 4S 8D 8C JK",
        "P1 discard KS",
        *OPENING[3:],
        "P1 draw_stock QC",
        "P1 lay_off QC @1",
        "P1 lay_off 6H @0",
        "P1 discard 7H",  # out: two pure runs
    ]
    game, hand = om_hand(events, seats=seats, stock="JK QC")
    assert findings(game, hand) == [("meld.wild_limit", "P1", 1)]
    audit, _ = audit_open_hand(hand, game, RULES)
    assert audit.findings[0].rule.startswith("melds.max_jokers_per_run: ")
    assert "at most 2" in audit.findings[0].message
    events[1] = "P1 lay: 2H 3H 4H 5H / 9C TC JC / 4S 8D 8C"
    game, hand = om_hand(events[:3], {"P1": ("lost", 0), "P2": ("lost", 0)}, seats=seats,
                         stock="JK QC")  # fmt: skip
    assert findings(game, hand) == [("hand.going_out", None, None)]  # nobody out yet


def test_sets_and_runs_k_a_2_is_not_a_run() -> None:
    """002_: "Sets and runs, 3 cards at least" and "K-A-2 is not a run": a meld laid on
    the table that is no sequence or set is `meld.invalid`, citing the rule that breaks."""
    seats = {"P1": "KH AH 2H 5H 9C TC JC 4S 4D 4C KD KS 6H", "P2": P2}
    events = ["P1 draw_stock QC", "P1 lay: KH AH 2H / 9C TC JC QC / 4S 4D 4C", "P1 discard KS"]
    game, hand = om_hand(events, seats=seats)
    audit, _ = audit_open_hand(hand, game, RULES)
    invalid = [f for f in audit.findings if f.check == "meld.invalid"]
    assert [(f.player_id, f.seq) for f in invalid] == [("P1", 1)]
    assert invalid[0].rule.startswith("melds.run_wraps: ")



def test_there_are_only_two_kinds_of_meld_a_set_and_a_run_002() -> None:
    """002_be7776aa8b349efa.txt: "There are only two kinds, and both need at least three
    cards. Set — the same rank in different suits ... Run — a sequence in one suit". A
    laid 4S 4D KD, and the set 4S 4D 4C with KD laid off onto it, mix ranks: `meld.invalid`
    citing what a meld on the table is (`open.melds`), not `melds.min_size` (they have 3
    and 4 cards)."""
    laid = ["P1 draw_stock QC", "P1 lay: 2H 3H 4H 5H / 9C TC JC QC / 4S 4D KD", "P1 discard KS"]
    added = ["P1 draw_stock QC", "P1 lay: 2H 3H 4H 5H / 9C TC JC QC / 4S 4D 4C",
             "P1 lay_off KD @2", "P1 discard KS"]  # fmt: skip
    for events, seq in ((laid, 1), (added, 2)):
        game, hand = om_hand(events, {"P1": ("lost", 0), "P2": ("lost", 0)})
        audit, _ = audit_open_hand(hand, game, RULES)
        invalid = [f for f in audit.findings if f.check == "meld.invalid"]
        assert [(f.player_id, f.seq) for f in invalid] == [("P1", seq)]
        assert invalid[0].rule.startswith("open.melds: ")
        assert "mix suits and ranks" in invalid[0].message


def test_cards_are_added_to_melds_already_on_the_table_002() -> None:
    """002_be7776aa8b349efa.txt: "Lay down what you can — new melds, cards added to melds
    already on the table". A lay-off onto meld 9 when the table holds melds 0 to 4 is
    `meld.invalid` citing `open.melds` (a card goes onto a meld the table holds), not
    `open.lay_off` (whose melds may be added to)."""
    events = [*CLEAN[:6], "P1 draw_stock 4S", "P1 lay_off 6H @9", *CLEAN[7:]]
    game, hand = om_hand(events)
    audit, _ = audit_open_hand(hand, game, RULES)
    invalid = [f for f in audit.findings if f.check == "meld.invalid"]
    assert [(f.player_id, f.seq, f.expected, f.recorded) for f in invalid] == [
        ("P1", 7, "melds 0 to 4", "meld 9")
    ]
    assert invalid[0].rule.startswith("open.melds: ")

# ---------------------------------------------------------------- the cut card


def test_the_cut_card_is_yours_only_if_you_go_out_that_turn() -> None:
    """002_: "You may take it instead of your normal draw, but it is only yours if you go
    out that same turn." P1 takes the cut card 8S (wild) and goes out with it laid off as
    the 7H: clean. Taking it and discarding without going out: `draw.cut_card`."""
    out = [*CLEAN[:11], "P1 take_cut 8S", "P1 lay_off 6H @0", "P1 lay_off 8S @0", "P1 discard KD"]
    game, hand = om_hand(out)
    assert findings(game, hand) == []
    kept = [*CLEAN[:11], "P1 take_cut 8S", "P1 lay_off 6H @0", "P1 discard KD",
            "P2 draw_stock 7H", "P2 discard 7H"]  # fmt: skip
    game, hand = om_hand(kept)
    got = findings(game, hand)
    assert ("draw.cut_card", "P1", 13) in got


def test_if_you_cannot_go_out_put_the_cut_card_back_and_draw_as_usual() -> None:
    """002_: "If you cannot, put it back — your turn is not over, and you draw as usual."
    take_cut, return_cut, then a stock draw: clean, and the cut card is on show again."""
    events = [*CLEAN[:6], "P1 take_cut 8S", "P1 return_cut 8S", *CLEAN[6:]]
    replay = replayed(events)
    assert replay.findings == []
    assert replay.cut == parse_code("8S")


def test_one_try_per_turn_at_the_cut_card() -> None:
    """002_: "One try per turn." Taking the cut card a second time in the same turn is
    `draw.cut_card`."""
    events = [*CLEAN[:6], "P1 take_cut 8S", "P1 return_cut 8S", "P1 take_cut 8S",
              "P1 return_cut 8S", *CLEAN[6:]]  # fmt: skip
    game, hand = om_hand(events)
    assert findings(game, hand) == [("draw.cut_card", "P1", 8)]



def test_the_cut_card_taken_after_the_draw_and_put_back_is_one_finding_002() -> None:
    """002_be7776aa8b349efa.txt: "You may take it instead of your normal draw". P1 draws
    4S from the stock, then takes the cut card too: that take draws twice, one
    `turn.order`. Put back, it leaves the stock draw standing, so the discard that follows
    is not also "a discard without drawing" (a blind tester)."""
    events = [*CLEAN[:7], "P1 take_cut 8S", "P1 return_cut 8S", *CLEAN[7:]]
    game, hand = om_hand(events)
    assert findings(game, hand) == [("turn.order", "P1", 7)]
    replay = OpenHandReplay(hand, game, RULES).run()
    assert replay.cut == parse_code("8S")
    assert replay.winner == "P1"


def test_put_the_cut_card_back_only_after_taking_it_002() -> None:
    """002_be7776aa8b349efa.txt: "You may take it instead of your normal draw ... If you
    cannot, put it back". A `return_cut` with no `take_cut` before it is one
    `draw.cut_card`: not also a `turn.order` for the draw it comes before, nor a card put
    back that was not held (nothing was taken: the hand and the card on show stay)."""
    events = [*CLEAN[:6], "P1 return_cut 8S", *CLEAN[6:]]
    game, hand = om_hand(events)
    assert findings(game, hand) == [("draw.cut_card", "P1", 6)]
    replay = OpenHandReplay(hand, game, RULES).run()
    assert replay.cut == parse_code("8S")
    assert replay.winner == "P1"

# ---------------------------------------------------------------- the discard pile


def test_your_first_pick_from_the_pile_is_free_to_keep() -> None:
    """002_: "Your first pick from the pile each hand is free to keep." P2's first pick
    (KS) stays in hand: clean (``CLEAN``). Their second (4S) kept in hand instead of laid
    off: `draw.pile_kept` at that turn's discard."""
    events = [*CLEAN[:9], *CLEAN[10:]]  # no lay-off of the 4S
    game, hand = om_hand(events)
    assert findings(game, hand) == [("draw.pile_kept", "P2", 9)]
    audit, _ = audit_open_hand(hand, game, RULES)
    assert audit.findings[0].rule.startswith("open.pile_pick: ")


def test_a_discard_not_held_then_picked_from_the_pile_is_one_finding() -> None:
    """The checks every game shares (docs/replay.md, Turns): P1's discard is recorded as
    7D, which they do not hold (`discard.not_in_hand`); P2's pick from the pile takes KS,
    which P1 holds: KS was P1's discard, P2 took the top of the pile, and P1 goes out as
    in the clean hand, with no second finding."""
    events = list(CLEAN)
    events[2] = "P1 discard 7D"
    game, hand = om_hand(events, CLEAN_RESULTS)
    assert findings(game, hand) == [("discard.not_in_hand", "P1", 2)]
    assert replayed(events).base.takes[0] == ("P1", "P2", parse_code("KS"))


# ---------------------------------------------------------------- going out


def test_you_go_out_by_discarding_your_last_card() -> None:
    """002_: "You go out by getting rid of everything, finishing with a discard." P1 lays
    off their last card and has nothing to discard: `hand.going_out`."""
    events = [*CLEAN[:11], "P1 draw_stock 7H", "P1 lay_off 6H @0", "P1 lay_off 7H @0",
              "P1 lay_off KD @1"]  # fmt: skip
    game, hand = om_hand(events)
    got = findings(game, hand)
    assert ("hand.going_out", "P1", 14) in got


def test_going_out_needs_2_runs_on_the_table_1_of_them_joker_free() -> None:
    """002_: "Going out needs 2 runs on the table, 1 of them joker-free." P1 goes out with
    one run and two sets: `hand.going_out` (`declaration.min_runs`); with two runs, each
    with a wild eight: `hand.going_out` (`declaration.min_pure_runs`)."""
    sets = {"P1": "2H 3H 4H 5H 9C 9D 9S 4S 4D 4C KD KS 6H", "P2": P2}
    events = list(CLEAN)
    events[0] = "P1 draw_stock 9H"
    events[1] = "P1 lay: 2H 3H 4H 5H / 9C 9D 9S 9H / 4S 4D 4C"
    game, hand = om_hand(events, seats=sets, stock="9H 4S 7H")
    assert findings(game, hand) == [("hand.going_out", "P1", 14)]
    audit, _ = audit_open_hand(hand, game, RULES)
    assert audit.findings[0].rule.startswith("declaration.min_runs: ")
    impure = {"P1": "2H 3H 8H 5H 9C TC 8C 4S 4D 4C KD KS 6H", "P2": P2}
    events = list(CLEAN)
    events[1] = "P1 lay: 2H 3H 8H 5H / 9C TC 8C QC / 4S 4D 4C"
    game, hand = om_hand(events, seats=impure)
    assert findings(game, hand) == [("hand.going_out", "P1", 14)]
    audit, _ = audit_open_hand(hand, game, RULES)
    assert audit.findings[0].rule.startswith("declaration.min_pure_runs: ")


def test_a_hand_that_ends_with_nobody_out_is_a_finding() -> None:
    """002_: "The first player out ends the hand": events that stop with every player
    holding cards are `hand.going_out`."""
    game, hand = om_hand(CLEAN[:6], {"P1": ("lost", 0), "P2": ("lost", 0)})
    assert findings(game, hand) == [("hand.going_out", None, None)]



def test_your_turn_is_a_draw_then_lay_down_then_a_discard_002() -> None:
    """002_be7776aa8b349efa.txt, "Your turn": "1. Draw one card ... 2. Lay down what you
    can ... 3. Discard one card to end your turn." P1 lays off 6H before drawing:
    `turn.order`, citing that turn (`open.turn`), not the declaration games' turn of a draw
    and a discard or a declaration (`turns.order`)."""
    events = [*CLEAN[:11], "P1 lay_off 6H @0", "P1 draw_stock 7H", *CLEAN[13:]]
    game, hand = om_hand(events)
    audit, _ = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [("turn.order", "P1", 11)]
    (only,) = audit.findings
    assert only.rule.startswith("open.turn: ")
    assert "then one discard" in only.rule

def test_a_meld_laid_in_anothers_turn_is_one_finding_and_the_turn_stays_theirs_002() -> None:
    """002_, "Your turn": a player lays down in their own turn. P1 lays off 6H while P2,
    whose turn it is, has drawn: one `turn.order`, P1's. P2's own lay-off and discard after
    it are theirs to make (before, the turn moved to P1 and P2's lay-off was called out of
    turn: a blind tester)."""
    events = [*CLEAN[:9], "P1 lay_off 6H @0", *CLEAN[9:12], *CLEAN[13:]]
    game, hand = om_hand(events)
    assert findings(game, hand) == [("turn.order", "P1", 9)]
    replay = OpenHandReplay(hand, game, RULES).run()
    assert replay.winner == "P1"
    assert replay.seats["P1"].cards == []


def test_a_meld_laid_between_turns_is_one_finding_and_the_next_turn_stays_theirs_002() -> None:
    """002_be7776aa8b349efa.txt, "Your turn": "1. Draw one card ... 2. Lay down what you
    can ... 3. Discard one card to end your turn." P1 lays off 6H right after their own
    discard, before P2, whose turn it is, has drawn: one `turn.order`, P1's (`open.turn`).
    P2's draw after it is in turn (before, the turn moved to P1 and P2's draw was a second
    `turn.order`, "P2 acted out of turn: it was P1's turn": a blind tester)."""
    events = [*CLEAN[:8], "P1 lay_off 6H @0", *CLEAN[8:12], *CLEAN[13:]]
    game, hand = om_hand(events)
    audit, replay = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [("turn.order", "P1", 8)]
    assert audit.findings[0].message == "P1 acted out of turn: it was P2's turn."
    assert audit.findings[0].rule.startswith("open.turn: ")
    assert replay.winner == "P1"


def test_a_player_who_lays_out_of_turn_and_plays_on_is_one_finding_002() -> None:
    """002_, "Your turn": P1 lays off 6H before P2, whose turn it is, has drawn, and goes on
    to discard KD, their last card: one `turn.order`, at the lay-off. The record gives P1
    the turn their moves took (`open.turn`), so their discard is not a second one, and P1
    is out (two pure runs on the table)."""
    events = [*CLEAN[:8], "P1 lay_off 6H @0", "P1 discard KD"]
    game, hand = om_hand(events)
    audit, replay = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.player_id, f.seq) for f in audit.findings] == [("turn.order", "P1", 8)]
    assert replay.winner == "P1"
    assert replay.seats["P1"].cards == []


# ---------------------------------------------------------------- scoring


def test_never_opening_costs_a_flat_80() -> None:
    """002_: "Never opening costs a flat 80." P1 goes out on their first turn; P2 never
    laid a meld and pays 80, not the 75 their cards count."""
    seats = {
        "P1": "2H 3H 4H 5H 9C TC JC 4S 4D 4C KD KS KC",
        "P2": "2C 3C 5D 6D 7C 9D 2S 3S 5S 6S 7S TD JD",
    }
    events = ["P1 draw_stock KH", "P1 lay: 2H 3H 4H 5H / 9C TC JC / 4S 4D 4C / KD KS KH",
              "P1 discard KC"]  # fmt: skip
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 80)}, seats=seats,
                         stock="KH")  # fmt: skip
    assert findings(game, hand) == []
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 75)}, seats=seats,
                         stock="KH")  # fmt: skip
    audit, _ = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in audit.findings] == [
        ("score.points", "P2", "80", "75")
    ]
    assert audit.findings[0].rule.startswith("open.never_opened: ")
    assert "never laid a meld" in audit.findings[0].message


def test_a_hand_never_costs_more_than_80() -> None:
    """002_: "A hand never costs more than 80." P2 lays one run and is left with nine
    picture cards and tens and a nine: 99 points, charged 80."""
    seats = {"P1": P1, "P2": "AS 2S 3S KC KH QD QC JD JH TD TH 9D 2C"}
    events = [*OPENING[:4], "P2 lay: AS 2S 3S", "P2 discard 2C", *CLEAN[6:8],
              "P2 draw_stock 5D", "P2 discard 5D", *CLEAN[11:]]  # fmt: skip
    stock = "QC 4S 5D 7H"
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 80)}, seats=seats,
                         stock=stock)  # fmt: skip
    assert findings(game, hand) == []
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 99)}, seats=seats,
                         stock=stock)  # fmt: skip
    audit, _ = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in audit.findings] == [
        ("score.points", "P2", "80", "99")
    ]
    assert audit.findings[0].rule.startswith("points.cap: ")


def test_a_held_ace_counts_10() -> None:
    """002_: "10 for an ace" (scoring); "An ace sits at either end of a run: 10 points high,
    1 low" is read as an ace's place in a run, never counted (the preset's choice on
    `points.card_points`). P2 holds AH at the end: 10, not 1."""
    seats = {"P1": P1, "P2": P2.replace("4H", "AH")}
    game, hand = om_hand(CLEAN, {"P1": ("won", 0), "P2": ("lost", 59)}, seats=seats)
    assert findings(game, hand) == []
    game, hand = om_hand(CLEAN, {"P1": ("won", 0), "P2": ("lost", 50)}, seats=seats)
    audit, _ = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.expected, f.recorded) for f in audit.findings] == [
        ("score.points", "59", "50")
    ]
    assert audit.findings[0].rule.startswith("points.card_points: ")
    # the 50 is the hand with the ace at 1 (002_'s "1 low"), and the words say so: a
    # blind tester's support agent could not tell the player where the number came from
    assert audit.findings[0].message.endswith(
        "; AH counts 10 (points.card_points), where the 50 charged counts it 1."
    )


def test_the_first_player_out_wins_the_hand() -> None:
    """002_: "The first player out ends the hand": a winner recorded as lost is
    `score.outcome`."""
    game, hand = om_hand(CLEAN, {"P1": ("lost", 0), "P2": ("lost", 53)})
    assert findings(game, hand) == [("score.outcome", "P1", 14)]



def test_what_you_are_caught_holding_counts_a_match_has_no_drops_002() -> None:
    """002_be7776aa8b349efa.txt: "What you are caught holding counts against you." and
    "Never opening costs a flat 80" (`drops.match`): P2 drops (reason player) before
    opening and is recorded a first drop of 75, not 80. One `drop.penalty` for the one
    drop, whose words say what happened (P2 dropped, which a match does not allow) and not
    that P2 left; a score.outcome says the same of a drop recorded as lost."""
    events = [*OPENING[:3], "P2 drop"]
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("first_drop", 75)})
    audit, _ = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.player_id, f.seq, f.expected, f.recorded) for f in audit.findings] == [
        ("drop.penalty", "P2", 3, "80", "75")
    ]
    message = audit.findings[0].message
    assert message.startswith("P2 dropped, which a match does not allow, and never laid a meld")
    assert "left" not in message
    assert audit.expected["P2"].why.startswith("dropped, which a match does not allow")
    game, hand = om_hand(events, {"P1": ("won", 0), "P2": ("lost", 80)})
    audit, _ = audit_open_hand(hand, game, RULES)
    outcome = [f for f in audit.findings if f.check == "score.outcome"]
    assert "but the hand gives first drop: P2 dropped, which a match" in outcome[0].message
    left = [*OPENING[:3], "P2 drop left"]
    game, hand = om_hand(left, {"P1": ("won", 0), "P2": ("first_drop", 80)})
    audit, _ = audit_open_hand(hand, game, RULES)
    assert audit.findings == []
    assert audit.expected["P2"].why.startswith("left a match")


def test_one_results_row_per_seated_player_002() -> None:
    """The log contract (log-format.md, results: "one row per seated player"): P2's row
    left out of a hand of the match is one `score.outcome`, citing that rule
    (`results.player_id`), not the turn's."""
    game, hand = om_hand(CLEAN, {"P1": ("won", 0)})
    audit, _ = audit_open_hand(hand, game, RULES)
    assert [(f.check, f.player_id) for f in audit.findings] == [("score.outcome", "P2")]
    assert audit.findings[0].rule.startswith("results.player_id: ")

# ---------------------------------------------------------------- through the unit


def test_the_unit_replays_an_open_melds_game_with_its_own_state_machine() -> None:
    """A game whose ruleset's `game.kind` is `open-melds` comes through the one door
    (audit/unit.py): replayed by OpenHandReplay, its pile facts written, no drop facts,
    and the match checks run instead of any money check."""
    game, hand = om_hand(CLEAN, CLEAN_RESULTS)
    hand.results = [r._replace(score_after=r.points) for r in hand.results]
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert [h.audit.status for h in unit.hands if h.audit] == ["verified"]
    assert unit.drops == []
    assert [(p.giver, p.taker, p.offered, p.taken, p.melded) for p in unit.pile] == [
        ("P1", "P2", 2, 2, 1), ("P2", "P1", 2, 0, 0),
    ]  # fmt: skip
    # The match ended (game.running false) with nobody at 250, and no winner recorded.
    assert sorted(f.check for f in unit.findings) == ["match.end", "match.winner"]


def test_an_open_melds_move_in_a_declaration_game_is_quarantined() -> None:
    """A `lay` in a standard-13 game is no move of that game: the hand is quarantined with
    the reason, not replayed."""
    game, hand = scenario(
        seats={"P1": P1, "P2": P2}, wild="8S", open="AC", stock=STOCK,
        events=["P1 draw_stock QC", "P1 lay: 2H 3H 4H 5H"], results={},
    )  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert unit.hands[0].reason == (
        "hand H1 event 1 (lay) is a move of the open-melds game, but its ruleset is a declare game"
    )


def test_a_swap_from_a_meld_of_two_jokers_gives_back_either_of_them() -> None:
    """002_'s swap (`open.joker_swap = true`): 4C taken into the set 4S 4D 8D JK (eights
    wild) could free either joker, and the log does not say which (schemas/README.md: "the
    joker goes to the hand"). The replay first hands back the printed joker; when P1 then
    discards 8D, that was the one: no finding, and the meld keeps JK."""
    seats = {"P1": "2H 3H 4H 5H 9C TC JC 4S 4D 8D KD KS 6H", "P2": P2}
    events = [
        "P1 draw_stock JK",
        "P1 lay: 2H 3H 4H 5H / 9C TC JC / 4S 4D 8D JK",  # melds 0, 1, 2
        "P1 discard KS",
        *OPENING[3:],
        "P1 draw_stock 4C",
        "P1 swap_joker 4C @2",
        "P1 discard 8D",  # the wild eight came back, not the joker
        "P2 draw_stock 5D",
        "P2 discard 5D",
        "P1 draw_stock 7H",
        "P1 lay_off 6H @0",
        "P1 lay_off 7H @0",
        "P1 discard KD",
    ]
    game, hand = om_hand(events, seats=seats, stock="JK 4C 5D 7H")
    replay = OpenHandReplay(hand, game, replace(RULES, joker_swap=True)).run()
    assert replay.findings == []
    assert sorted(replay.melds[2].cards) == sorted(parse_codes(["4S", "4D", "4C", "JK"]))
    assert replay.winner == "P1"


def test_a_set_holds_four_cards_at_most_002() -> None:
    """002_: "Set — the same rank in different suits ... Four at most, since there are only
    four suits" (`melds.max_set_size` 4 in open-melds-13; standard-13 allows a fifth with
    a joker, after 000_): KC KD KH KS JK laid is `meld.invalid`, citing that rule."""
    seats = {"P1": "2H 3H 4H 5H 9C TC JC KC KD KH KS 4S 6H", "P2": P2}
    events = ["P1 draw_stock JK", "P1 lay: 2H 3H 4H 5H / 9C TC JC / KC KD KH KS JK"]
    game, hand = om_hand(events, {"P1": ("lost", 0), "P2": ("lost", 0)}, seats=seats,
                         stock="JK QC")  # fmt: skip
    audit, _ = audit_open_hand(hand, game, RULES)
    invalid = [f for f in audit.findings if f.check == "meld.invalid"]
    assert [(f.player_id, f.seq) for f in invalid] == [("P1", 1)]
    assert invalid[0].rule.startswith("melds.max_set_size: ")


def test_what_a_loser_holds_is_charged_card_by_card_002() -> None:
    """002_: "pip value for the numbers, 10 for a picture card, 10 for an ace, 0 for a
    joker": the loser's charge is said card by card, a joker's 0 named as one."""
    seats = {"P1": P1, "P2": "AS 2S 3S 6C 6D 6S 9D TD QH QS 5C 2C 8H"}  # 8H: wild
    game, hand = om_hand(CLEAN, seats=seats)
    replay = OpenHandReplay(hand, game, RULES).run()
    points, key, why = replay.charge("P2")
    assert (points, key) == (49, "points.card_points")
    assert why == (
        "held QS KS 8H QH 9D TD: QS 10 + KS 10 + 8H 0 (joker) + QH 10 + 9D 9 + TD 10 = 49 points"
    )
