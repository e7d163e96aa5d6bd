"""A simulated rummy platform that writes valid game logs: test data for the audit.

``simulate(games=..., out=..., seed=...)`` runs tables of 2-6 players through points,
pool 101, pool 201 and deals games under the shipped presets, and writes the night's log
root in the contract. The same arguments give the same bytes: every choice comes from one
seeded ``random.Random`` (each game from its own, seeded by the first), and every time
from a fixed epoch plus simulated think times.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from audit.errors import AuditError
from audit.rules.ruleset import FORMATS, Ruleset, load_preset
from audit.sim.games import JOIN_AHEAD_MS, play_game, stable_shoe
from audit.sim.play import GameLog, TableSpec
from audit.sim.players import Profile, new_player
from audit.sim.writer import Label, LogWriter

EPOCH = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
EPOCH_MS = int(EPOCH.timestamp() * 1000)
DEFAULT_FORMATS = FORMATS
DEFAULT_PRESETS = ("standard-13", "first-life-13")

FORMAT_WEIGHTS = {"points": 50, "pool_101": 15, "pool_201": 10, "deals": 25}
PRESET_WEIGHTS = (3, 1)  # the first preset named, then each of the others
TABLE_SIZES, TABLE_SIZE_WEIGHTS = (2, 4, 6), (2, 1, 7)
PLAYER_COUNT_WEIGHTS = {2: 2, 3: 2, 4: 3, 5: 3, 6: 3}
GAMES_PER_TABLE = 8
PLAYERS_PER_TABLE = 8  # the pool of players: enough to fill the tables, few enough to meet again
SEATING_LOOKS = 50
ENTRY_FEES = tuple(
    Decimal(f) for f in ("10.00", "25.00", "50.00", "75.00", "100.00", "150.00", "250.00", "500.00")
)
POINT_VALUES = tuple(
    Decimal(v)
    for v in (
        "0.0500",
        "0.0800",
        "0.1000",
        "0.1250",
        "0.2500",
        "0.3333",
        "0.5000",
        "1.0000",
        "2.0000",
        "5.0000",
    )
)
RAKE_PCTS = tuple(Decimal(r) for r in ("10.00", "11.25", "12.50", "13.75", "15.00"))
PRACTICE_SHARE = 0.15


@dataclass(frozen=True, slots=True)
class SimSummary:
    """What a run wrote; summaries add up, so ``sum(per_game, SimSummary())`` is the run's.

    >>> sum([SimSummary(1, 3, 120), SimSummary(1, 2, 75)], SimSummary())
    SimSummary(games=2, hands=5, events=195)
    """

    games: int = 0
    hands: int = 0
    events: int = 0

    def __add__(self, other: SimSummary) -> SimSummary:
        return SimSummary(
            self.games + other.games, self.hands + other.hands, self.events + other.events
        )

    @classmethod
    def of(cls, game: GameLog) -> SimSummary:
        return cls(1, len(game.hands), sum(len(hand.events) for hand in game.hands))


def simulate(
    *,
    games: int,
    out: Path,
    seed: int,
    formats: Sequence[str] = DEFAULT_FORMATS,
    presets: Sequence[str] = DEFAULT_PRESETS,
) -> SimSummary:
    """Play ``games`` games and write their logs under ``out`` (which must be empty).

    Tables are played side by side: the next game goes to the table that frees up
    first, with players who are not sitting at another table at that time.
    """
    _check(games, out, formats, presets)
    rng = random.Random(seed)
    rules = [load_preset(p) for p in presets]
    n_tables = max(len(formats) * len(rules), -(-games // GAMES_PER_TABLE))
    tables = [_new_table(rng, number, formats, rules) for number in range(n_tables)]
    players = [new_player(rng, n + 1) for n in range(PLAYERS_PER_TABLE * n_tables + 12)]
    busy_until = [0] * len(players)
    free_at = [(EPOCH_MS + rng.randrange(0, 2 * 3_600_000), t) for t in range(n_tables)]
    heapq.heapify(free_at)
    writer = LogWriter(out)
    summary = SimSummary()
    number = 0
    while number < games:
        start, t = heapq.heappop(free_at)
        seated = _seat_players(rng, tables[t], start, players, busy_until)
        if seated is None:  # too few players free: the table waits a minute
            heapq.heappush(free_at, (start + 60_000, t))
            continue
        number += 1
        game = play_game(
            game_id=f"G{number:06d}",
            table=tables[t],
            players=seated,
            start=start,
            rng=random.Random(rng.getrandbits(64)),
        )
        for player_id, *_, left_at in game.sessions:
            busy_until[int(player_id[1:]) - 1] = left_at + JOIN_AHEAD_MS
        writer.add(game)
        summary += SimSummary.of(game)
        heapq.heappush(free_at, (game.ended + rng.randrange(20_000, 180_000), t))
    labels: list[Label] = []  # planted anomalies go here (none yet)
    writer.close(labels)
    return summary


def _check(games: int, out: Path, formats: Sequence[str], presets: Sequence[str]) -> None:
    if games < 1:
        raise AuditError(f"games must be 1 or more, not {games}", slug="simulate")
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise AuditError(
            f"unknown game formats {unknown}; choose from {', '.join(FORMATS)}", slug="simulate"
        )
    if not presets:
        raise AuditError("name at least one rule preset to simulate", slug="simulate")
    if out.exists() and any(out.iterdir()):
        raise AuditError(f"{out} is not empty; simulate into a new folder", slug="simulate")


def _new_table(
    rng: random.Random, number: int, formats: Sequence[str], rules: Sequence[Ruleset]
) -> TableSpec:
    """Table ``T0001``...; the first tables take each format and preset in turn, so that
    a short run still has them all, the others are drawn by weight."""
    if number < len(formats) * len(rules):
        game_format, preset = formats[number % len(formats)], rules[number // len(formats)]
    else:
        game_format = rng.choices(formats, weights=[FORMAT_WEIGHTS[f] for f in formats])[0]
        weights = [PRESET_WEIGHTS[0]] + [PRESET_WEIGHTS[1]] * (len(rules) - 1)
        preset = rng.choices(rules, weights=weights)[0]
    sizes = [s for s in TABLE_SIZES if preset.min_players <= s <= preset.max_players]
    size_weights = [w for s, w in zip(TABLE_SIZES, TABLE_SIZE_WEIGHTS, strict=True) if s in sizes]
    max_players = rng.choices(sizes, weights=size_weights)[0]
    pool = game_format.startswith("pool")
    return TableSpec(
        table_id=f"T{number + 1:04d}",
        format=game_format,
        rules=preset,
        max_players=max_players,
        chip_type="practice" if rng.random() < PRACTICE_SHARE else "real",
        deals_count=rng.choice((2, 3)) if game_format == "deals" else None,
        entry_fee=rng.choice(ENTRY_FEES) if pool or game_format == "deals" else None,
        point_value=rng.choice(POINT_VALUES) if game_format == "points" else None,
        rake_pct=rng.choice(RAKE_PCTS),
    )


def _seat_players(
    rng: random.Random,
    table: TableSpec,
    start: int,
    players: list[Profile],
    busy_until: list[int],
) -> list[tuple[int, Profile]] | None:
    """Players free at ``start``, in seat order, or None when a few random looks find too
    few. Pool games that lose players on the way seat only as many as keep the preset's
    shoe (``stable_shoe``)."""
    counts = [
        n
        for n in range(table.rules.min_players, table.max_players + 1)
        if not table.format.startswith("pool") or stable_shoe(table.rules, n)
    ]
    count = rng.choices(counts, weights=[PLAYER_COUNT_WEIGHTS[n] for n in counts])[0]
    chosen: list[int] = []
    for _ in range(SEATING_LOOKS * count):
        pick = rng.randrange(len(players))
        if busy_until[pick] <= start and pick not in chosen:
            chosen.append(pick)
            if len(chosen) == count:
                break
    else:
        return None
    seats = sorted(rng.sample(range(1, table.max_players + 1), count))
    return [(seat, players[pick]) for seat, pick in zip(seats, chosen, strict=True)]
