"""Feeding counts hands as well as draws: the draws of one hand are not independent trials.
Heads-up, the same cards pass back and forth, and a taker can take the other player's
discard dozens of times in one long hand (a blind tester's honest night: 41 of 45 in one
hand, suspected at `minor` with 43 of 48 over the pair's two hands)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from audit.fairplay.detectors import feeding
from audit.fairplay.engine import Settings
from tests.fairplay.night import T0, Night

SETTINGS = Settings()
GIVER, TAKER = "P0100", "P0101"


def heads_up(night: Night, hands: list[tuple[int, int]], rate: float = 0.2) -> Night:
    """One heads-up game per hand in ``hands``: ``TAKER`` drew with ``GIVER``'s discard on
    top that many times and took that many (none melded: the cards went back and forth);
    ``GIVER`` took ``TAKER``'s discards at ``rate``."""
    for number, (offered, taken) in enumerate(hands):
        game, hand = f"GH{number:03d}", f"GH{number:03d}-01"
        night.g.append(
            {"game_id": game, "table_id": "TH", "format": "points", "chip_type": "real",
             "entry_fee": None, "point_value": Decimal("1.0000"), "cards_per_hand": 13,
             "ruleset": "standard-13", "started_at": T0}
        )  # fmt: skip
        for pos, player in enumerate((GIVER, TAKER)):
            night.seat.append(
                {"hand_id": hand, "game_id": game, "player_id": player, "pos": pos,
                 "started_at": T0, "format": "points", "chip_type": "real",
                 "cards_per_hand": 13, "ruleset": "standard-13",
                 "point_value": Decimal("1.0000"), "outcome": "won" if pos else "lost",
                 "points": 0 if pos else 40, "amount": Decimal(0 if pos else -40)}
            )  # fmt: skip
        back = round(offered * rate)
        for giver, taker, n, k in ((GIVER, TAKER, offered, taken), (TAKER, GIVER, offered, back)):
            night.pile.append(
                {"game_id": game, "hand_id": hand, "giver": giver, "taker": taker,
                 "offered": n, "taken": k, "melded": 0}
            )  # fmt: skip
    return night


def suspected(night: Night, settings: Settings = SETTINGS) -> bool:
    tested = feeding(night.load(), settings)
    return any(s.players == (GIVER, TAKER) for s in tested.suspicions)


def test_feeding_does_not_report_a_pair_whose_takes_come_from_two_hands() -> None:
    """43 of 48 taken, 41 of them in one long hand: one or two hands cannot tell a partner
    from a hand (the pair is not tested: a screen on the hands, never on the takes)."""
    night = heads_up(Night(seed=3).build(), [(45, 41), (3, 2)])
    assert not suspected(night)
    # told to test pairs of one hand, the old count of every draw reports it
    assert suspected(night, replace(SETTINGS, pair_hands=1, hand_draws=1000))


def test_feeding_counts_one_long_hand_for_at_most_a_hands_worth_of_draws() -> None:
    """A taker who takes nearly half of what anyone leaves (the tester's honest bots), with
    one long hand of back and forth (41 of 45) among three: the long hand counts for 12
    draws, 11 taken, and the pair is not suspected; every draw counted, it was."""
    night = Night(seed=3)
    night.rate[TAKER] = 0.45
    night = heads_up(night.build(), [(45, 41), (7, 3), (7, 3)])
    assert not suspected(night)
    assert suspected(night, replace(SETTINGS, hand_draws=1000))


def test_feeding_still_finds_the_same_rate_over_many_hands() -> None:
    """The rate of the long hand (0.9) over twelve hands of ordinary length is a partner."""
    night = Night(seed=3)
    night.rate[TAKER] = 0.55
    night = heads_up(night.build(), [(7, 6)] * 6 + [(6, 6)] * 6)
    tested = feeding(night.load(), SETTINGS)
    (s,) = [s for s in tested.suspicions if s.players == (GIVER, TAKER)]
    assert "in 12 hands together" in s.message
    assert "counted as" not in s.message  # no hand is longer than 12 draws


def test_feeding_message_says_how_a_long_hand_was_counted() -> None:
    """Takes over many hands, one of them long: the message gives the draws as taken, the
    hands, and the counts the test used."""
    night = Night(seed=3)
    night = heads_up(night.build(), [(30, 27)] + [(7, 6)] * 8)
    tested = feeding(night.load(), SETTINGS)
    (s,) = [s for s in tested.suspicions if s.players == (GIVER, TAKER)]
    assert f"{TAKER} took 75 of the 86 discards {GIVER} left on the pile in 9 hands" in s.message
    assert "counted as 59 of 68, no hand for more than 12 draws" in s.message
    assert s.observed == 59
