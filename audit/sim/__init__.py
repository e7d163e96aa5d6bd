"""A simulated rummy platform that writes valid game logs: test data for the audit.

``simulate(games=..., out=..., seed=...)`` runs tables of 2-6 players through points,
pool 101, pool 201 and deals games under the shipped presets (``DEFAULT_PRESETS``, or those
named in ``presets``: ``standard-10``, and ``standard-21`` and ``standard-27``, whose
tables play points games only, ``games.formats``; ``open-melds-13``, whose tables play
matches to 250, `audit.sim.openplay`), and writes the night's log root in the
contract (version 1; version 2 for a night whose presets include an open-melds game). The
same arguments give the same bytes: every choice comes from one seeded ``random.Random``
(each game from its own, seeded by the first), and every time from a fixed epoch plus
simulated think times.
"""

from __future__ import annotations

import gc
import heapq
import multiprocessing
import os
import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import NamedTuple

from audit.errors import AuditError
from audit.rules.ruleset import FORMATS, Ruleset, load_preset, preset_ids
from audit.sim.anomalies import EVERY_KIND, Label, Planner, fits, label, parse_kinds
from audit.sim.games import JOIN_AHEAD_MS, play_game, stable_shoe
from audit.sim.play import BOT_JITTER_MS, BOT_THINK_MS, Collusion, GameLog, TableSpec
from audit.sim.players import Profile, bot_player, new_player, second_account
from audit.sim.writer import LogWriter, write_labels, write_players

EPOCH = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
EPOCH_MS = int(EPOCH.timestamp() * 1000)
DEFAULT_PRESETS = ("standard-13", "first-life-13")

FORMAT_WEIGHTS = {"points": 50, "pool_101": 15, "pool_201": 10, "deals": 25}
DEFAULT_FORMATS = tuple(f for f in FORMATS if f in FORMAT_WEIGHTS)
"""The formats a table is drawn for: all but ``match`` (contract version 2), which is the
format of the open-melds presets' tables whatever the formats named (docs/open-melds.md)."""
PRESET_WEIGHTS = (3, 1)  # the first preset named, then each of the others
TABLE_SIZES, TABLE_SIZE_WEIGHTS = (2, 4, 6), (2, 1, 7)
PLAYER_COUNT_WEIGHTS = {2: 2, 3: 2, 4: 3, 5: 3, 6: 3}
GAMES_PER_TABLE = 16
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
PAIRS_PER_KIND = 1
"""Groups planted per pair or ring kind in a room: colluding pairs, shared accounts, rings."""
PAIR_KEEN = 0.5
"""Chance that a free planted pair or ring takes a table going that can carry its kind:
colluders seek each other out (and collude whenever they meet)."""
BOTS = 2
BOT_KEEN = 0.9  # chance a free bot takes the next seat going: it plays without breaks
SHARD_GAMES = 500
"""Games in a room (shard) of the night: rooms are played in parallel."""
PLAYER_BLOCK = 100_000
"""Room ``k``'s player ids start at ``P{k * PLAYER_BLOCK + 1}``."""
FAIR_EVERY = 4
"""Every 4th table of a room (T0004, T0008, ...) shuffles provably fairly and records each
hand's commitment (`audit.shuffle.commitment`); never a biased one."""
BIASED_EVERY = 8  # with biased_shuffle planted, every 8th table (T0002, T0010, ...) has it


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
    anomalies: str | Sequence[str] = (),
    workers: int | None = None,
    room: int = SHARD_GAMES,
) -> SimSummary:
    """Play ``games`` games and write their logs under ``out`` (which must be empty).

    The night is cut into rooms (shards) of ``room`` games, each with its own
    tables, players and random stream, played side by side in ``workers`` processes; the
    bytes written do not depend on ``workers``. Within a room, tables are played side by
    side: the next game goes to the table that frees up first, with players who are not
    sitting at another table at that time. ``anomalies`` names the kinds to plant
    (`audit.sim.anomalies`); what was planted is written to ``labels.parquet``. Without
    anomalies no random draw is spent on them, so a clean run's bytes do not depend on
    the planting code.
    """
    _check(games, out, formats, presets)
    kinds = parse_kinds(anomalies)
    shards = [
        _Shard(k, room, min(room, games - k * room), seed, tuple(formats), tuple(presets),
               kinds, out)
        for k in range(-(-games // room))
    ]  # fmt: skip
    workers = min(len(shards), workers or os.cpu_count() or 1)
    if workers == 1:
        done = [_play_shard(shard) for shard in shards]
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            done = list(pool.map(_play_shard, shards))
    write_labels(out, [row for room in done for row in room.labels], _version(presets))
    write_players(out, [player for room in done for player in room.players])
    return sum((room.summary for room in done), SimSummary())


@dataclass(frozen=True, slots=True)
class _Shard:
    """One room of the night: games ``G{first+1}``..., tables ``T{first_table+1}``...,
    players ``P{first_player+1}``..."""

    index: int
    room: int
    """Games in a full room: room ``k`` plays games ``k * room + 1``..."""
    games: int
    seed: int
    formats: tuple[str, ...]
    presets: tuple[str, ...]
    kinds: tuple[str, ...]
    out: Path

    @property
    def rng(self) -> random.Random:
        return random.Random(self.seed if self.index == 0 else f"{self.seed}/room {self.index}")


class _Room(NamedTuple):
    """What a room wrote: its summary, its planted anomalies and its players."""

    summary: SimSummary
    labels: list[Label]
    players: list[Profile]


def _play_shard(shard: _Shard) -> _Room:
    with _collector_paused():
        return _play_room(shard)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector. A room makes millions of small objects
    and no reference cycles (`tests/sim/test_declaration.py`), so reference counting frees
    everything and the collector's passes only cost time (about a tenth of it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _play_room(shard: _Shard) -> _Room:
    games, kinds, formats = shard.games, shard.kinds, shard.formats
    rng = shard.rng
    rules = [load_preset(p) for p in shard.presets]
    n_tables = max(len(formats) * len(rules), -(-games // GAMES_PER_TABLE))
    first_game = shard.index * shard.room
    first_table = shard.index * max(len(formats) * len(rules), -(-shard.room // GAMES_PER_TABLE))
    tables = [_new_table(rng, number, formats, rules, first_table) for number in range(n_tables)]
    tables = [replace(t, fair=n % FAIR_EVERY == FAIR_EVERY - 1) for n, t in enumerate(tables)]
    if "biased_shuffle" in kinds:
        tables = [replace(t, biased=n % BIASED_EVERY == 1) for n, t in enumerate(tables)]
    first_player = shard.index * PLAYER_BLOCK
    players = [
        new_player(rng, first_player + n + 1) for n in range(PLAYERS_PER_TABLE * n_tables + 12)
    ]
    groups = _planted_groups(rng, kinds, players, first_player)
    group_of = {member: group for group in groups for member in group.members}
    carried = [{g.kind for g in groups if _carries(table, g.kind)} for table in tables]
    bots = list(range(len(players) - BOTS, len(players))) if "bot" in kinds else []
    seat_of = {profile.player_id: i for i, profile in enumerate(players)}
    busy_until = [0] * len(players)
    planner = Planner(kinds)
    labels: list[Label] = []
    free_at = [(EPOCH_MS + rng.randrange(0, 2 * 3_600_000), t) for t in range(n_tables)]
    heapq.heapify(free_at)
    writer = LogWriter(shard.out, prefix=f"{shard.index}-", version=_version(shard.presets))
    summary = SimSummary()
    number = 0
    while number < games:
        start, t = heapq.heappop(free_at)
        table = tables[t]
        keen = _keen_group(rng, groups, carried[t], start, busy_until, planner)
        going = [b for b in bots if busy_until[b] <= start and rng.random() < BOT_KEEN]
        seating = _seat_players(
            rng, table, start, players, busy_until,
            keen=keen, must=going, group_of=group_of, carried=carried[t],
        )  # fmt: skip
        if seating is None:  # too few players free: the table waits a minute
            heapq.heappush(free_at, (start + 60_000, t))
            continue
        seated, group = seating
        number += 1
        collusion, kind = None, None
        if group is not None:
            kind = group.kind
            collusion = Collusion(kind, tuple(players[m].player_id for m in group.members))
        elif planner.kinds:
            real = table.chip_type == "real"
            kind = planner.pick(rng.random(), table.format, real=real, fair=table.fair)
        game = play_game(
            game_id=f"G{first_game + number:06d}",
            table=table,
            players=seated,
            start=start,
            rng=random.Random(rng.getrandbits(64)),
            plant=kind if group is None else None,
            collusion=collusion,
        )
        if table.biased:
            game.labels.append(
                label(
                    "biased_shuffle",
                    game_id=game.game_id,
                    details=f"table {table.table_id}'s shuffler puts a printed joker on the "
                    "first seat's first card too often",
                )
            )
        if kind is not None and any(planted.kind == kind for planted in game.labels):
            planner.planted(kind)
        labels.extend(game.labels)
        for player_id, *_, left_at in game.sessions:
            busy_until[seat_of[player_id]] = left_at + JOIN_AHEAD_MS
        writer.add(game)
        summary += SimSummary.of(game)
        heapq.heappush(free_at, (game.ended + rng.randrange(20_000, 180_000), t))
    labels.extend(_bot_labels(players, bots, writer))
    writer.close()
    return _Room(summary, labels, [p for p in players if writer.games_of(p.player_id)])


class _Group(NamedTuple):
    """Planted accounts who collude whenever they all sit at one table: a pair or a ring,
    by index into the room's players, in the order they help each other."""

    kind: str
    members: tuple[int, ...]


def _planted_groups(
    rng: random.Random, kinds: Sequence[str], players: list[Profile], first: int
) -> list[_Group]:
    """Add the accounts the planted kinds need to ``players``: for each pair or ring kind,
    ``PAIRS_PER_KIND`` groups (a pair: the colluder or first account, then the partner or
    second account; a ring: its three accounts in turn order), then the bots. Returns the
    groups."""
    groups = []
    for kind in kinds:
        size = EVERY_KIND[kind].accounts
        for _ in range(PAIRS_PER_KIND if size else 0):
            one = new_player(rng, first + len(players) + 1)
            players.append(one)
            for _ in range(size - 1):
                number = first + len(players) + 1
                if kind == "multi_account":
                    players.append(second_account(rng, number, one))
                else:
                    players.append(new_player(rng, number))
            groups.append(_Group(kind, tuple(range(len(players) - size, len(players)))))
    if "bot" in kinds:
        players.extend(bot_player(rng, first + len(players) + 1) for _ in range(BOTS))
    return groups


def _carries(table: TableSpec, kind: str) -> bool:
    """Can a game at ``table`` carry group kind ``kind`` (its format, money, seats)?"""
    real = table.chip_type == "real"
    return fits(kind, table.format, real=real, fair=table.fair, seats=_player_counts(table)[-1])


def _keen_group(
    rng: random.Random,
    groups: Sequence[_Group],
    carried: Collection[str],
    start: int,
    busy_until: list[int],
    planner: Planner,
) -> _Group | None:
    """The planted group that takes the table freeing up at ``start``, if any. Each group
    whose accounts are all free and whose kind the table can carry wants it with
    ``PAIR_KEEN`` (for sure while its kind has not been planted yet); one of those that
    want it, drawn at random, takes it."""
    keen = [
        group
        for group in groups
        if group.kind in carried
        and all(busy_until[m] <= start for m in group.members)
        and (planner.waiting(group.kind) or rng.random() < PAIR_KEEN)
    ]
    return rng.choice(keen) if keen else None


def _bot_labels(players: list[Profile], bots: list[int], writer: LogWriter) -> list[Label]:
    out = []
    for b in bots:
        player = players[b].player_id
        games = writer.games_of(player)
        if games:
            out.append(
                label(
                    "bot",
                    players=(player,),
                    details=f"{player} is a bot: {games} games, every decision in "
                    f"{BOT_THINK_MS} ms ± {BOT_JITTER_MS} ms, no breaks",
                )
            )
    return out


MATCH_ONLY = ("match",)
"""The formats of an open-melds preset (``games.formats``): its tables play matches."""


def _version(presets: Sequence[str]) -> int:
    """The log contract version a night is written in: 2 (events.meld, the open-melds
    actions, format ``match``) when its presets include an open-melds game, else 1, so a
    night without one is the same bytes as before version 2."""
    return 2 if any(load_preset(p).kind == "open-melds" for p in presets) else 1


def _check(games: int, out: Path, formats: Sequence[str], presets: Sequence[str]) -> None:
    if games < 1:
        raise AuditError(f"games must be 1 or more, not {games}", slug="simulate")
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise AuditError(
            f"unknown game formats {unknown}; choose from {', '.join(DEFAULT_FORMATS)}",
            slug="simulate",
        )
    unplayed = [f for f in formats if f not in DEFAULT_FORMATS]
    if unplayed:
        raise AuditError(
            f"no table is drawn for {', '.join(unplayed)} games (the open-melds presets'"
            f" tables play matches: --presets open-melds-13); choose from"
            f" {', '.join(DEFAULT_FORMATS)}",
            slug="simulate",
        )
    if not presets:
        raise AuditError("name at least one rule preset to simulate", slug="simulate")
    unknown = [p for p in presets if p not in preset_ids()]
    if unknown:
        raise AuditError(
            f"unknown rule presets {unknown}; choose from {', '.join(preset_ids())}",
            slug="simulate",
        )
    for preset in presets:
        allowed = load_preset(preset).formats
        if allowed != MATCH_ONLY and not any(f in allowed for f in formats):
            raise AuditError(
                f"rule preset {preset} is for {', '.join(allowed)} games only "
                "(games.formats), and none of them is simulated",
                slug="simulate",
            )
    if out.exists() and any(out.iterdir()):
        raise AuditError(f"{out} is not empty; simulate into a new folder", slug="simulate")


def _new_table(
    rng: random.Random,
    number: int,
    formats: Sequence[str],
    rules: Sequence[Ruleset],
    first_id: int = 0,
) -> TableSpec:
    """Table ``T0001``...; the first tables take each format and preset in turn, so that
    a short run still has them all, the others are drawn by weight."""
    if number < len(formats) * len(rules):
        game_format, preset = formats[number % len(formats)], rules[number // len(formats)]
    else:
        game_format = rng.choices(formats, weights=[FORMAT_WEIGHTS[f] for f in formats])[0]
        weights = [PRESET_WEIGHTS[0]] + [PRESET_WEIGHTS[1]] * (len(rules) - 1)
        preset = rng.choices(rules, weights=weights)[0]
    if game_format not in preset.formats:  # 21 and 27 cards: points only; open melds: match
        allowed = [f for f in formats if f in preset.formats] or list(preset.formats)
        game_format = allowed[number % len(allowed)]
    sizes = [s for s in TABLE_SIZES if preset.min_players <= s <= preset.max_players]
    size_weights = [w for s, w in zip(TABLE_SIZES, TABLE_SIZE_WEIGHTS, strict=True) if s in sizes]
    max_players = rng.choices(sizes, weights=size_weights)[0]
    if game_format == "match":  # a match of hands to a total, for no money (002_)
        return TableSpec(
            table_id=f"T{first_id + number + 1:04d}",
            format=game_format,
            rules=preset,
            max_players=max_players,
            chip_type="practice",
            deals_count=None,
            entry_fee=None,
            point_value=None,
            rake_pct=Decimal("0.00"),
        )
    pool = game_format.startswith("pool")
    return TableSpec(
        table_id=f"T{first_id + number + 1:04d}",
        format=game_format,
        rules=preset,
        max_players=max_players,
        chip_type="practice" if rng.random() < PRACTICE_SHARE else "real",
        deals_count=rng.choice((2, 3)) if game_format == "deals" else None,
        entry_fee=rng.choice(ENTRY_FEES) if pool or game_format == "deals" else None,
        point_value=rng.choice(POINT_VALUES) if game_format == "points" else None,
        rake_pct=rng.choice(RAKE_PCTS),
    )


def _player_counts(table: TableSpec) -> list[int]:
    """How many players a game at ``table`` may seat: pool games that lose players on the
    way seat only as many as keep the preset's shoe (``stable_shoe``)."""
    return [
        n
        for n in range(table.rules.min_players, table.max_players + 1)
        if not table.format.startswith("pool") or stable_shoe(table.rules, n)
    ]


def _seat_players(
    rng: random.Random,
    table: TableSpec,
    start: int,
    players: list[Profile],
    busy_until: list[int],
    *,
    keen: _Group | None = None,
    must: Sequence[int] = (),
    group_of: Mapping[int, _Group] | None = None,
    carried: Collection[str] = (),
) -> tuple[list[tuple[int, Profile]], _Group | None] | None:
    """Players free at ``start``, in seat order, and the planted group among them, or None
    when a few random looks find too few. The ``keen`` group's accounts and then the
    players in ``must`` (free ones) sit first, as far as the table has room (`_carries`
    makes sure the group fits); then players picked at random. A group whose accounts all
    end up at the table sits in adjacent seats in its order (from a random seat on), and
    at most one does: a pick that would complete a second group, or one the table cannot
    carry (``carried``: the kinds it can), is passed over. ``group_of`` maps each planted
    account to its group."""
    counts = _player_counts(table)
    count = rng.choices(counts, weights=[PLAYER_COUNT_WEIGHTS[n] for n in counts])[0]
    chosen = [*(keen.members if keen else ()), *must][: counts[-1]]
    count = max(count, len(chosen))
    group = keen
    if len(chosen) < count:
        for _ in range(SEATING_LOOKS * count):
            pick = rng.randrange(len(players))
            if busy_until[pick] > start or pick in chosen:
                continue
            mates = group_of.get(pick) if group_of else None
            if mates is not None and all(m in chosen for m in mates.members if m != pick):
                if group is not None or mates.kind not in carried:
                    continue
                group = mates
            chosen.append(pick)
            if len(chosen) == count:
                break
        else:
            return None
    seats = sorted(rng.sample(range(1, table.max_players + 1), count))
    if group is not None:
        chosen = [*group.members, *(pick for pick in chosen if pick not in group.members)]
        first = rng.randrange(count)
        chosen = chosen[first:] + chosen[:first]
    return [(seat, players[pick]) for seat, pick in zip(seats, chosen, strict=True)], group
