"""Write a log root from Python rows, in the contract's exact schemas, for tests.

>>> from pathlib import Path; import tempfile
>>> logs = LogBuilder(Path(tempfile.mkdtemp()))
>>> root = logs.game("g1").quick_hand("h1").quick_hand("h2").write()
>>> sorted(p.relative_to(root).as_posix() for p in root.rglob("*.parquet"))[:2]
['events/date=2026-11-29/part-0.parquet', 'game_events/date=2026-11-29/part-0.parquet']

Defaults make a valid points game: two players `p1` and `p2`, 13 cards each, a shuffled
106-card shoe dealt by the contract's procedure. `event` fills in what a platform would:
the next `seq`, the player whose turn it is, the card on top of the stock for
`draw_stock`, the card just drawn for `discard`. Any column can be given explicitly,
including a wrong value, to write a broken log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Self

import pyarrow as pa
import pyarrow.parquet as pq

from audit.cards import CODE_TEXT, JOKER_TEXT
from audit.logs.contract import TABLES, load_contract

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
PARTITION = "date=2026-11-29"

GAME_DEFAULTS: dict[str, Any] = {
    "table_id": "t-1",
    "format": "points",
    "deals_count": None,
    "cards_per_hand": 13,
    "ruleset": "standard-13",
    "decks": 2,
    "printed_jokers": 2,
    "max_players": 6,
    "chip_type": "real",
    "entry_fee": None,
    "point_value": Decimal("1.0000"),
    "rake_pct": Decimal("15.00"),
    "started_at": T0,
    "ended_at": T0 + timedelta(hours=1),
}

_TURN_ENDS = frozenset({"discard", "drop", "declare"})


def shoe(rng: random.Random, decks: int = 2, jokers: int = 2) -> list[str]:
    """A shuffled shoe of `decks` 52-card decks and `jokers` printed jokers."""
    cards = [*CODE_TEXT[:52] * decks, *[JOKER_TEXT] * jokers]
    rng.shuffle(cards)
    return cards


def write_table(root: Path, table: str, rows: pa.Table | list[dict[str, Any]], name: str) -> Path:
    """Write rows (in the contract's schema unless already a table) to `root/table/name`."""
    data = rows if isinstance(rows, pa.Table) else arrow_table(table, rows)
    path = root / table / name
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(data, path)
    return path


def hand_findings(out: Path) -> list[dict[str, Any]]:
    """``findings.parquet`` of the run in ``out`` but for the night's notes on the optional
    tables a builder writes with no row (``check.skipped``: its ledger and sessions hold
    none unless a test adds them), which are not what a hand's test is about."""
    rows = pq.read_table(out / "findings.parquet").to_pylist()
    return [f for f in rows if f["check"] != "check.skipped"]


def arrow_table(table: str, rows: list[dict[str, Any]]) -> pa.Table:
    """Rows in the contract schema of `table`, with its schema-version metadata; a column
    the contract marks non-nullable is marked nullable only if a row holds a null in it
    (to write a broken log, as writers that mark every column nullable do)."""
    schema = load_contract()[table].arrow_schema
    for index, field in enumerate(schema):
        if not field.nullable and any(row.get(field.name) is None for row in rows):
            schema = schema.set(index, field.with_nullable(True))
    return pa.Table.from_pylist(rows, schema=schema)


class LogBuilder:
    """Rows of every table, added game by game and hand by hand, then written."""

    def __init__(self, root: Path, *, seed: int = 0) -> None:
        self.root = root
        self.rows: dict[str, list[dict[str, Any]]] = {table: [] for table in TABLES}
        self.rng = random.Random(seed)
        self._game: dict[str, Any] | None = None
        self._hand: dict[str, Any] | None = None
        self._stock: list[str] = []
        self._drawn: str | None = None
        self._turn = 0
        self._counts: Counter[str] = Counter()

    # ---------------------------------------------------------------- rows

    def game(self, game_id: str = "g1", **columns: Any) -> Self:
        """A games row; the hands that follow belong to it."""
        self._game = {"game_id": game_id, **GAME_DEFAULTS, **columns}
        self.rows["games"].append(self._game)
        return self

    def hand(
        self, hand_id: str | None = None, *, players: Sequence[str] = ("p1", "p2"), **columns: Any
    ) -> Self:
        """A hands row of the current game, dealt by the contract's procedure from a
        shuffled shoe unless `shoe` is given (a shoe too short for the deal leaves the wild
        and open cards null unless given)."""
        game = self._game if self._game is not None else self.game()._game
        assert game is not None
        self._counts[f"game {game['game_id']}"] += 1
        number = self._counts[f"game {game['game_id']}"]
        cards = columns.pop("shoe", None) or shoe(self.rng, game["decks"], game["printed_jokers"])
        dealt = len(players) * game["cards_per_hand"]
        self._hand = {
            "hand_id": hand_id or f"{game['game_id']}-h{number}",
            "game_id": game["game_id"],
            "hand_no": number,
            "seats": [{"seat": i + 1, "player_id": p} for i, p in enumerate(players)],
            "shoe": cards,
            "wild_card": cards[dealt] if dealt < len(cards) else None,
            "open_card": cards[dealt + 1] if dealt + 1 < len(cards) else None,
            "shuffle": None,
            "started_at": T0,
            "ended_at": T0 + timedelta(minutes=5),
            **columns,
        }
        self.rows["hands"].append(self._hand)
        self._stock, self._drawn, self._turn = list(cards[dealt + 2 :]), None, 0
        return self

    def event(self, action: str, card: str | None = None, **columns: Any) -> Self:
        """An events row of the current hand; `seq`, `player_id` and the card of a stock
        draw or of a discard are filled in unless given."""
        hand = self._require_hand()
        seats = [seat["player_id"] for seat in hand["seats"]] or ["p1"]
        if card is None and action == "draw_stock" and self._stock:
            card = self._stock.pop(0)
        elif card is None and action == "discard":
            card = self._drawn
        self._drawn = card if action.startswith("draw") else self._drawn
        previous = self._counts[f"hand {hand['hand_id']}"]
        self._counts[f"hand {hand['hand_id']}"] += 1
        row = {
            "hand_id": hand["hand_id"],
            "seq": previous,
            "ts": T0 + timedelta(seconds=previous),
            "player_id": None if action == "reshuffle" else seats[self._turn % len(seats)],
            "action": action,
            "card": card,
            "groups": None,
            "auto": False,
            "reason": "player" if action == "drop" else None,
            **columns,
        }
        self.rows["events"].append(row)
        if action in _TURN_ENDS:
            self._turn += 1
        return self

    def turns(self, count: int) -> Self:
        """`count` turns of drawing from the stock and discarding the card drawn."""
        for _ in range(count):
            self.event("draw_stock").event("discard")
        return self

    def result(self, player: str, outcome: str = "lost", points: int = 0, **columns: Any) -> Self:
        """A results row of the current hand (amount: points x point value, signed)."""
        hand, game = self._require_hand(), self._game or GAME_DEFAULTS
        value = game["point_value"]
        amount = None if value is None else (-points * value).quantize(Decimal("0.01"))
        self.rows["results"].append(
            {
                "hand_id": hand["hand_id"],
                "player_id": player,
                "outcome": outcome,
                "points": points,
                "score_after": None,
                "amount": amount,
                **columns,
            }
        )
        return self

    def quick_hand(self, hand_id: str | None = None, **columns: Any) -> Self:
        """A complete, rule-valid two-player points hand: each player takes a turn, then
        `p1` drops (a middle drop, 40 points) and `p2` wins the 40 points less the rake."""
        self.hand(hand_id, **columns).turns(2).event("drop")
        self.result("p1", "middle_drop", 40)
        game, cent = self._game or GAME_DEFAULTS, Decimal("0.01")
        value, rake = game["point_value"], game["rake_pct"]
        won = None if value is None else (40 * value * (100 - rake) / 100).quantize(cent)
        return self.result("p2", "won", 0, amount=won)

    def row(self, table: str, **columns: Any) -> Self:
        """Any row, as given (game_events, ledger, sessions, or a hand-written row)."""
        self.rows[table].append(columns)
        return self

    def _require_hand(self) -> dict[str, Any]:
        if self._hand is None:
            self.hand()
        assert self._hand is not None
        return self._hand

    # ---------------------------------------------------------------- files

    def write(
        self,
        *,
        split_events_into: int = 1,
        split_hands_into: int = 1,
        shuffle_files: bool = False,
        skip: Iterable[str] = (),
    ) -> Path:
        """Write every table under `root/<table>/date=2026-11-29/`, and return the root.

        `split_events_into` cuts the events rows, in order, into that many files, each in
        its own Hive folder (`hour=00`, `hour=01` ...), and `split_hands_into` the hands
        and the results rows; `shuffle_files` names them so that path order is the
        reverse of row order, and shuffles the rows inside each file. Tables in `skip` are
        not written at all.
        """
        skipped = set(skip)
        split = {"events": split_events_into, "hands": split_hands_into,
                 "results": split_hands_into}  # fmt: skip
        for table in TABLES:
            if table in skipped:
                continue
            files = split.get(table, 1)
            if files == 1:
                write_table(self.root, table, self.rows[table], f"{PARTITION}/part-0.parquet")
                continue
            rows = self.rows[table]
            size = -(-len(rows) // files)
            chunks = [rows[i * size : (i + 1) * size] for i in range(files)]
            for index, chunk in enumerate(chunks):
                place = files - 1 - index if shuffle_files else index
                if shuffle_files:
                    chunk = self.rng.sample(chunk, len(chunk))
                name = f"{PARTITION}/hour={place:02d}/part-0.parquet"
                write_table(self.root, table, chunk, name)
        return self.root
