"""Planted anomalies: what the simulated platform can be made to get wrong, or let happen,
and the ground truth it writes about each one (``LOGS/labels.parquet``).

Three families (and the open-melds game's own tampering, below):

- **record tampering and deck manipulation** (``TAMPERING``): the platform records
  something the rules do not give. Each is planted in one game at a time and must be
  found by the hand- or game-level check named in its ``check``: the replay's recall on
  these is 100 % (``tests/sim/test_anomalies.py``).
- **fair play** (``FAIR_PLAY``): colluding pairs and rings, shared accounts, bots and a
  biased shuffler break no rule of a single hand; the records are rule-perfect and only
  statistics over many hands show them. Their ``check`` names the fair-play code
  (``fairplay.*``, ``rng.*``) a detector should raise; the replay's rule checks raise
  nothing at minor or above for them. The accounts of a pair or ring (``GROUP_KINDS``)
  seek each other out, and collude in every game where they all sit (`audit.sim.simulate`).

The audit never reads ``labels.parquet``; the tests, the benchmarks and the demo do.

The open-melds game (``game.kind = "open-melds"``, format ``match``, docs/open-melds.md)
has tampering of its own (``OPEN_MELDS``): a lay-off on another player's meld, a third wild
card in a meld, a never-opened loser charged other than the flat charge. They are named by
``--anomalies`` (or ``all``, or ``open-melds``) and planted only in match games; they stay
out of ``TAMPERING`` and ``KINDS``, the kinds of the declaration games, so a night of those
plants and labels what it did before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

from audit.errors import AuditError
from audit.logs.contract import SCHEMA_VERSION, SCHEMA_VERSION_KEY
from audit.records import POOL_FORMATS


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of anomaly the simulator can plant."""

    name: str
    check: str
    """The check that should find it."""
    formats: tuple[str, ...]
    """Game formats it can be planted in."""
    what: str
    real_money: bool = False
    """Planted only at real-money tables."""
    fair_only: bool = False
    """Planted only at provably-fair tables (they record a shuffle commitment)."""
    accounts: int = 0
    """Planted as a group of accounts that collude when they all sit at one table: a pair
    (2) or a ring (3); 0 for a kind planted in a game, a table or one account."""


ALL_FORMATS = ("points", "pool_101", "pool_201", "deals")
"""The formats of the declaration games; the open-melds game plays ``match``."""
POOLS: tuple[str, ...] = tuple(f.value for f in POOL_FORMATS)
MATCH = ("match",)

TAMPERING: tuple[Kind, ...] = (
    Kind("loser_points", "score.points", ALL_FORMATS,
         "a loser is recorded more or fewer points than the best arrangement of their cards"),
    Kind("drop_penalty", "drop.penalty", ALL_FORMATS,
         "a dropped player is charged a penalty other than the rules'"),
    Kind("invalid_declaration", "declare.verdict", ALL_FORMATS,
         "a declaration the rules reject is recorded as a win"),
    Kind("pool_score", "pool.score", POOLS,
         "a running pool score is recorded higher than the points added up"),
    Kind("split_amount", "pool.split", POOLS,
         "a split pays one player some of another's share"),
    Kind("skimmed_payout", "ledger.balance", ALL_FORMATS,
         "a winner is paid less than the ledger owes them, the difference kept", True),
    Kind("stacked_shoe", "deck.composition", ALL_FORMATS,
         "one player is dealt extra printed jokers in place of two of their cards"),
    Kind("non_top_draw", "draw.stock_mismatch", ALL_FORMATS,
         "a stock draw hands a player a card from below the top of the stock"),
    Kind("rigged_shuffle", "deck.commitment", ALL_FORMATS,
         "at a provably-fair table, a joker is moved into one player's deal after the "
         "seeds were committed", fair_only=True),
)  # fmt: skip

FAIR_PLAY: tuple[Kind, ...] = (
    Kind("collusion_feeding", "fairplay.collusion", ALL_FORMATS,
         "a pair at one table: one throws the cards the other needs, who takes them",
         accounts=2),
    Kind("collusion_ring", "fairplay.ring", ALL_FORMATS,
         "three accounts in adjacent seats: the first feeds the second, the second the third",
         accounts=3),
    Kind("soft_drop", "fairplay.soft_drop", ("points", *POOLS),  # no drops in deals
         "a pair at one table: one drops a good hand at once while the partner plays",
         accounts=2),
    Kind("chip_dumping", "fairplay.chip_dumping", ("points",),
         "a pair at one table: one plays to lose, throwing the partner's cards, never dropping",
         True, accounts=2),
    Kind("multi_account", "fairplay.shared_device", ALL_FORMATS,
         "two accounts of one person (one device, one IP) at one table", accounts=2),
    Kind("bot", "fairplay.bot", ALL_FORMATS,
         "an account with machine-regular think times that plays game after game without a break"),
    Kind("biased_shuffle", "rng.position", ALL_FORMATS,
         "a table whose shuffler puts a printed joker on the first seat's first card too often"),
)  # fmt: skip

OPEN_MELDS: tuple[Kind, ...] = (
    Kind("foreign_lay_off", "meld.lay_off", MATCH,
         "a player lays off a card on another player's meld, where only one's own are allowed"),
    Kind("wild_limit", "meld.wild_limit", MATCH,
         "a meld on the table is given a third wild card, over the limit of two"),
    Kind("never_opened", "score.points", MATCH,
         "a loser who never laid a meld is charged other than the flat charge"),
)  # fmt: skip
"""Tampering of the open-melds game (``match`` games only)."""

KINDS: dict[str, Kind] = {kind.name: kind for kind in (*TAMPERING, *FAIR_PLAY)}
"""The kinds of the declaration games (``--anomalies all`` plants each in a night of them)."""
EVERY_KIND: dict[str, Kind] = {**KINDS, **{kind.name: kind for kind in OPEN_MELDS}}
"""Every kind ``--anomalies`` names: ``KINDS`` and the open-melds game's."""
GROUP_KINDS = frozenset(kind.name for kind in FAIR_PLAY if kind.accounts)
"""Kinds planted as a group of accounts (a pair or a ring) that collude at one table."""
PAIR_KINDS = frozenset(kind.name for kind in FAIR_PLAY if kind.accounts == 2)
"""Kinds planted as a pair of accounts."""

PLANT_RATE = 0.012
"""The chance that a game carries a given requested tampering kind, once every requested
kind has been planted at least once (the first games that can carry a kind always do)."""


def fits(name: str, game_format: str, *, real: bool, fair: bool = False, seats: int = 6) -> bool:
    """Can a game of ``game_format`` carry kind ``name``: at a real-money table or not, a
    provably-fair one or not, seating at most ``seats`` players?

    >>> fits("chip_dumping", "points", real=True), fits("chip_dumping", "deals", real=True)
    (True, False)
    >>> fits("collusion_ring", "points", real=False, seats=3)
    True
    >>> fits("collusion_ring", "points", real=False, seats=2)
    False
    """
    kind = EVERY_KIND[name]
    return (
        game_format in kind.formats
        and (real or not kind.real_money)
        and (fair or not kind.fair_only)
        and seats >= kind.accounts
    )


def parse_kinds(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """Kind names from ``--anomalies`` (``all``, ``tampering``, ``fairplay``,
    ``open-melds`` or names).

    >>> parse_kinds("loser_points,bot")
    ('loser_points', 'bot')
    >>> len(parse_kinds("all")) == len(EVERY_KIND)
    True
    >>> parse_kinds("open-melds")
    ('foreign_lay_off', 'wild_limit', 'never_opened')
    >>> parse_kinds("skimmed")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.AuditError: unknown anomaly kind 'skimmed'; choose from all, tampering, ...
    """
    if text is None:
        return ()
    names = text.split(",") if isinstance(text, str) else list(text)
    out: list[str] = []
    for name in (n.strip() for n in names):
        if not name:
            continue
        if name == "all":
            out.extend(EVERY_KIND)
        elif name == "tampering":
            out.extend(kind.name for kind in TAMPERING)
        elif name == "fairplay":
            out.extend(kind.name for kind in FAIR_PLAY)
        elif name == "open-melds":
            out.extend(kind.name for kind in OPEN_MELDS)
        elif name in EVERY_KIND:
            out.append(name)
        else:
            choices = ", ".join(["all", "tampering", "fairplay", "open-melds", *EVERY_KIND])
            raise AuditError(
                f"unknown anomaly kind {name!r}; choose from {choices}", slug="simulate"
            )
    return tuple(dict.fromkeys(out))


class Label(NamedTuple):
    """A planted anomaly: the ground truth of one row of ``labels.parquet``."""

    kind: str
    check: str
    game_id: str | None
    hand_id: str | None
    seq: int | None
    players: tuple[str, ...]
    details: str


def label(
    kind: str,
    *,
    game_id: str | None = None,
    hand_id: str | None = None,
    seq: int | None = None,
    players: Iterable[str] = (),
    details: str,
) -> Label:
    return Label(kind, EVERY_KIND[kind].check, game_id, hand_id, seq, tuple(players), details)


LABELS_SCHEMA = pa.schema(
    [
        pa.field("kind", pa.string(), nullable=False),
        pa.field("check", pa.string(), nullable=False),
        pa.field("game_id", pa.string()),
        pa.field("hand_id", pa.string()),
        pa.field("seq", pa.int32()),
        pa.field("players", pa.list_(pa.string()), nullable=False),
        pa.field("details", pa.string(), nullable=False),
    ],
    metadata={SCHEMA_VERSION_KEY: str(SCHEMA_VERSION)},
)


class Planner:
    """Which kind each game carries: at most one per game, so one game's findings belong
    to one anomaly.

    A game where all the accounts of a planted pair or ring sit carries their kind (they
    collude whenever they meet, `audit.sim.simulate`); until a kind of ``GROUP_KINDS`` has
    been planted, its groups take every table they can (``waiting``). Any other game may
    carry a tampering kind (``pick``): a requested kind waits for the first game that can
    carry it (and that succeeds in planting it); after that each game carries each kind
    with ``PLANT_RATE``. Fair-play kinds of players and tables (bots, a biased shuffler)
    are not planned here."""

    def __init__(self, kinds: Sequence[str]) -> None:
        tampering = {kind.name for kind in (*TAMPERING, *OPEN_MELDS)}
        self.kinds = [k for k in kinds if k in tampering]
        """The tampering kinds, which ``pick`` plans game by game."""
        self.pending = [k for k in kinds if k in tampering or k in GROUP_KINDS]
        """Kinds not planted yet."""

    def pick(self, draw: float, game_format: str, *, real: bool, fair: bool = False) -> str | None:
        """The tampering kind the next game carries, if any (for a game without a pair or
        ring); ``draw`` is a uniform draw in [0, 1), ``fair`` the table records shuffle
        commitments."""

        def fitting(name: str) -> bool:
            return fits(name, game_format, real=real, fair=fair)

        for name in self.pending:
            if name in self.kinds and fitting(name):
                return name
        eligible = [name for name in self.kinds if fitting(name)]
        index = int(draw / PLANT_RATE)
        return eligible[index] if index < len(eligible) else None

    def waiting(self, name: str) -> bool:
        """Has kind ``name`` not been planted yet?"""
        return name in self.pending

    def planted(self, name: str) -> None:
        if name in self.pending:
            self.pending.remove(name)
