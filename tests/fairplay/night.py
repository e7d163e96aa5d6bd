"""Synthetic nights for the detectors' tests: the views the detectors read (``g``, ``seat``,
``pile``, ``drops``, ``sess``, ``ev``) written straight into DuckDB from a seeded random
night, with one behaviour planted at a time. Unlike the simulator's, these nights do not
play cards: each test states exactly the pattern and the honest background it is judged
against, with other seat counts, volumes and think times than the simulator's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
CAP = 80
"""What the rules charge a 13-card hand in full (standard-13's points.cap)."""
MET = 0.08
"""The share of honest folds whose hand met the declaration requirement, so the rules charge
its deadwood, below the cap (about the simulator's honest nights'); the others are charged
the cap."""


@dataclass
class Night:
    """An honest night of points games; plant behaviours, then ``load`` it into DuckDB."""

    seed: int = 1
    players: int = 300
    games: int = 900
    meld_rate: tuple[float, float] = (8.0, 32.0)
    """Beta(a, b) of each player's rate of melding a discard offered (mean 0.2)."""
    rng: np.random.Generator = field(init=False)
    charges: np.random.Generator = field(init=False)
    """Whether an honest fold met the requirement: a stream of its own, so that the night's
    other draws do not depend on it."""
    seat: list[dict[str, Any]] = field(default_factory=list)
    pile: list[dict[str, Any]] = field(default_factory=list)
    drops: list[dict[str, Any]] = field(default_factory=list)
    sess: list[dict[str, Any]] = field(default_factory=list)
    ev: list[dict[str, Any]] = field(default_factory=list)
    g: list[dict[str, Any]] = field(default_factory=list)
    device: dict[str, str] = field(default_factory=dict)
    ip: dict[str, str] = field(default_factory=dict)
    feeds: dict[tuple[str, str], float] = field(default_factory=dict)
    """(giver, taker) -> the taker's meld rate with the giver's discards."""
    soft: dict[tuple[str, str], float] = field(default_factory=dict)
    """(dropper, partner) -> chance of dropping a strong hand at once with the partner in:
    requirement met, deadwood 15-34, charged that."""
    charged: dict[tuple[str, str], float] = field(default_factory=dict)
    """(dropper, partner) -> chance of dropping at once, with the partner in, a hand whose
    melds leave little out (deadwood 15-34) but that misses the declaration requirement
    (jokers in sets, no pure sequence), so the rules charge it in full: an ordinary fold."""
    dumps: set[tuple[str, str]] = field(default_factory=set)
    """(dumper, partner): the partner wins and the dumper concedes the full count."""
    think: dict[str, tuple[float, float]] = field(default_factory=dict)
    """player -> (median seconds, log-sd) of decision times; people by default."""
    uniform_think: dict[str, tuple[float, float]] = field(default_factory=dict)
    """player -> (low, high): a bot drawing each time uniformly in [low, high] seconds."""
    slower_plays: dict[str, float] = field(default_factory=dict)
    """player -> how many times longer their discards take than their draws (a person's
    ``think`` or a bot's ``uniform_think`` is their draws'): 1 by default."""
    together: list[tuple[tuple[str, ...], int]] = field(default_factory=list)
    """Groups seated together (in adjacent turn order) in this many extra games."""
    practice: list[tuple[tuple[str, str], int]] = field(default_factory=list)
    """Pairs playing heads-up at practice tables (chip_type 'practice') in this many extra
    games; every other game is played for real money."""
    caution: dict[str, float] = field(default_factory=dict)
    """player -> their chance of folding at once at a real-money table (0.12 by default,
    everyone's at practice tables): an honest style, not a planted behaviour."""
    plays_on: set[tuple[str, str]] = field(default_factory=set)
    """(player, friend): the player never folds with the friend at the table, however
    cautious elsewhere (honest: they like the game with a friend)."""
    wide_games: int = 0
    """Random games at 27 cards a hand, beside the 13-card ones."""
    wide_together: list[tuple[tuple[str, ...], int]] = field(default_factory=list)
    """Groups seated together in this many extra 27-card games."""
    wide_lift: float = 2.75
    """At 27 cards nearly every discard connects: each taker's own rate is this many times
    their 13-card one (at most 0.95; a blind tester's honest nights: 0.55 against 0.2)."""
    wide_skill: dict[str, float] = field(default_factory=dict)
    """player -> their strength at 27 cards, where it is not their 13-card ``skill`` (an
    honest player strong at one hand size only)."""
    refuses: set[tuple[str, str]] = field(default_factory=set)
    """(dumper, partner): the dumper takes no discard from the pile in a hand the partner is
    dealt into (busy losing to them), and takes at their own rate elsewhere."""

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.charges = np.random.default_rng([self.seed, 1])
        self.ids = [f"P{i:04d}" for i in range(self.players)]
        self.skill = dict(zip(self.ids, self.rng.lognormal(0, 0.3, self.players), strict=True))
        a, b = self.meld_rate
        self.rate = dict(zip(self.ids, self.rng.beta(a, b, self.players), strict=True))
        for i, p in enumerate(self.ids):
            self.device[p] = f"dev-{i}"
            home = i // 2 if i < 40 else i  # the first forty players live two to a home
            self.ip[p] = f"10.0.{home // 250}.{home % 250}"

    # ------------------------------------------------------------ building

    def build(self) -> Night:
        """Play the night: random games, then the planted groups' games."""
        number = 0
        for _ in range(self.games):
            size = int(self.rng.choice([2, 3, 4, 5, 6], p=[0.3, 0.2, 0.2, 0.15, 0.15]))
            seated = [str(p) for p in self.rng.choice(self.ids, size, replace=False)]
            number = self._game(number, seated)
        for group, extra in self.together:
            for _ in range(extra):
                size = int(self.rng.integers(len(group), 7))
                others = [p for p in self.ids if p not in group]
                fill = [str(p) for p in self.rng.choice(others, size - len(group), replace=False)]
                start = int(self.rng.integers(0, size - len(group) + 1))
                number = self._game(number, fill[:start] + list(group) + fill[start:])
        for pair, extra in self.practice:
            for _ in range(extra):
                number = self._game(number, list(pair), chip="practice")
        for _ in range(self.wide_games):
            size = int(self.rng.choice([2, 3, 4, 5, 6]))
            seated = [str(p) for p in self.rng.choice(self.ids, size, replace=False)]
            number = self._game(number, seated, cards=27)
        for group, extra in self.wide_together:
            for _ in range(extra):
                number = self._game(number, list(group), cards=27)
        return self

    def _game(
        self, number: int, seated: list[str], chip: str = "real", cards: int = 13, seats: int = 6,
        table: str = "", start: datetime | None = None, hands: int = 0,
    ) -> int:
        """Game ``number`` of ``seated``, at ``table`` from ``start`` where given (else at
        one of fifty tables, from a random minute of three hours), of ``hands`` hands of
        eight minutes (else one to three)."""
        game = f"G{number:05d}"
        minute = int(self.rng.integers(0, 180))
        start = start or T0 + timedelta(minutes=minute)
        self.g.append(
            {"game_id": game, "table_id": table or f"T{number % 50:03d}", "format": "points",
             "chip_type": chip, "entry_fee": None, "point_value": Decimal("1.0000"),
             "cards_per_hand": cards, "max_players": seats, "ruleset": f"standard-{cards}",
             "started_at": start}
        )  # fmt: skip
        for player in seated:
            self.sess.append(
                {"player_id": player, "game_id": game, "client": "app", "ip": self.ip[player],
                 "device_id": self.device[player], "joined_at": start,
                 "left_at": start + timedelta(minutes=30)}
            )  # fmt: skip
        hands = hands or int(self.rng.integers(1, 4))
        for h in range(hands):
            self._hand(game, f"{game}-{h + 1:02d}", seated, start + timedelta(minutes=8 * h),
                       chip, cards)  # fmt: skip
        self.g[-1]["ended_at"] = start + timedelta(minutes=8 * hands)
        return number + 1

    def _hand(
        self, game: str, hand: str, seated: list[str], start: datetime, chip: str, cards: int
    ) -> None:
        rng, n = self.rng, len(seated)
        dropped: dict[str, tuple[int, int]] = {}  # player -> (points, deadwood)
        for p in seated:
            partner_in = [b for (a, b) in self.soft if a == p and b in seated]
            charged_in = [b for (a, b) in self.charged if a == p and b in seated]
            if partner_in and rng.random() < self.soft[p, partner_in[0]]:
                deadwood = int(rng.integers(15, 35))  # a strong hand given up
                dropped[p] = (deadwood, deadwood)
            elif charged_in and rng.random() < self.charged[p, charged_in[0]]:
                dropped[p] = (CAP, int(rng.integers(15, 35)))
            elif rng.random() < self._folds(p, seated, chip):
                deadwood = int(np.clip(rng.normal(72, 14), 30, 120))  # a poor hand folded
                met = self.charges.random() < MET
                dropped[p] = (min(deadwood, CAP) if met else CAP, deadwood)
        playing = [p for p in seated if p not in dropped] or seated[:1]
        dumpers = {a: b for a, b in self.dumps if a in seated and b in playing}
        skill = self.wide_skill if cards == 27 else {}
        weights = np.array([skill.get(p, self.skill[p]) for p in playing])
        winner = str(rng.choice(playing, p=weights / weights.sum()))
        if dumpers and rng.random() < 0.8:
            winner = next(iter(dumpers.values()))
        for i, p in enumerate(seated):
            if p == winner:
                outcome, points = "won", 0
            elif p in dropped:
                outcome, points = "first_drop", 20
            elif dumpers.get(p) == winner:
                outcome, points = "lost", 80
            else:
                outcome = "lost"
                points = 80 if rng.random() < 0.25 else int(rng.integers(2, 80))
            self.seat.append(
                {"hand_id": hand, "game_id": game, "player_id": p, "pos": i,
                 "started_at": start, "format": "points", "chip_type": chip,
                 "cards_per_hand": cards, "ruleset": f"standard-{cards}",
                 "point_value": Decimal("1.0000"), "outcome": outcome, "points": points,
                 "amount": Decimal(-points) if outcome != "won" else Decimal(0)}
            )  # fmt: skip
        for p, (charge, deadwood) in dropped.items():
            self.drops.append(
                {"game_id": game, "hand_id": hand, "player_id": p, "seq": 0, "first": True,
                 "turns": 0, "reason": "player", "points": charge, "deadwood": deadwood}
            )  # fmt: skip
        for i, giver in enumerate(seated):
            taker = seated[(i + 1) % n]
            if n < 2 or giver in dropped or taker in dropped:
                continue
            offered = int(rng.poisson(6)) + 1
            own = self.rate[taker] if cards == 13 else min(0.95, self.rate[taker] * self.wide_lift)
            rate = self.feeds.get((giver, taker), own)
            if any(p == taker and partner in seated for p, partner in self.refuses):
                rate = 0.0
            melded = int(rng.binomial(offered, rate))
            self.pile.append(
                {"game_id": game, "hand_id": hand, "giver": giver, "taker": taker,
                 "offered": offered, "taken": melded, "melded": melded}
            )  # fmt: skip
        self._events(hand, seated, start)

    def _folds(self, player: str, seated: list[str], chip: str) -> float:
        if any(p == player and friend in seated for p, friend in self.plays_on):
            return 0.0
        return self.caution.get(player, 0.12) if chip == "real" else 0.12

    def _events(self, hand: str, seated: list[str], start: datetime) -> None:
        t = start
        seq = 0
        for _ in range(4):
            for p in seated:
                for action in ("draw_stock", "discard"):
                    slower = self.slower_plays.get(p, 1.0) if action == "discard" else 1.0
                    t += timedelta(seconds=slower * self._seconds(p))
                    self.ev.append(
                        {"hand_id": hand, "seq": seq, "ts": t, "player_id": p,
                         "action": action, "auto": False}
                    )  # fmt: skip
                    seq += 1

    def _seconds(self, player: str) -> float:
        if player in self.uniform_think:
            low, high = self.uniform_think[player]
            return float(self.rng.uniform(low, high))
        median, sd = self.think.get(player, (4.0, 0.7))
        return float(math.exp(self.rng.normal(math.log(median), sd)))

    # ------------------------------------------------------------ into DuckDB

    def load(self) -> duckdb.DuckDBPyConnection:
        """A connection holding the night as the tables the detectors read."""
        con = duckdb.connect()
        for name in ("g", "seat", "pile", "drops", "sess", "ev"):
            rows = getattr(self, name)
            con.register(f"_{name}", pa.Table.from_pylist(rows) if rows else _empty(name))
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM _{name}")
            con.unregister(f"_{name}")
        return con


def _empty(name: str) -> pa.Table:
    columns = {"drops": ["game_id", "hand_id", "player_id", "seq", "first", "turns", "reason",
                         "points", "deadwood"]}  # fmt: skip
    return pa.table({c: pa.array([], pa.string()) for c in columns.get(name, ["x"])})
