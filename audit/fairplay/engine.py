"""What every detector shares: its SQL with bound parameters, the multiple-testing
correction, the evidence hands, and one way to turn a tested hypothesis into a Suspicion.

A detector file (``sql/<name>.sql``) opens with a comment stating its pattern and its null
model, then holds named statements (``-- name: pairs``, ``-- name: evidence`` ...).
``pairs`` (or ``accounts``) lists every hypothesis with the counts its test needs;
``evidence`` reads the hands behind the hypotheses registered as the table ``flagged``
(columns ``a``, ``b``).

A night's pairs run to tens of millions (a ten-million-hand night: 9.4M for feeding, 20M
for soft drops), so a pair detector never holds them in Python: DuckDB writes them to a
temporary table (spilled to disk beyond its memory limit), ``screened`` tests them a batch
at a time and keeps only the few that could be reported, and the correction is exact for
those few (``Hypotheses.family``).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray
from scipy import stats

from audit.fairplay.stats import Array, bh, testable
from audit.fairplay.suspicion import Suspicion
from audit.findings import Severity, Thresholds

_SECTION = re.compile(r"^-- name: (\w+)\s*$", re.MULTILINE)
_PARAM = re.compile(r"\$([a-z_]+)")
BATCH_ROWS = 262_144
"""Hypotheses are read from DuckDB and tested this many at a time (``screened``)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The detectors' parameters (docs/fairplay.md says why each default)."""

    thresholds: Thresholds = field(default_factory=Thresholds)
    min_effect: float = 1.5
    """A suspicion's effect (observed over expected) must be at least this."""
    feed_effect: float = 1.25
    """Feeding's effect floor, in place of ``min_effect``: B's baseline is already a high
    rate (about a third of the discards at 13 cards), so 1.5 times it asks a partner to take
    half of the feeder's discards; a blind tester's partner who took 390 of 857 (1.47
    times their baseline, q = 1.2e-06) was missed. Held to the honest nights first
    (docs/fairplay.md)."""
    hand_draws: int = 12
    """Feeding: the most draws one hand counts for, its takes in proportion; the draws of a
    hand are not independent trials (the same cards pass back and forth heads-up)."""
    pair_hands: int = 3
    """Feeding: a pair whose draws come from fewer hands is not tested (a screen on the
    amount of data, as Tarone's): one or two hands cannot tell a partner from a hand."""
    prior_weight: float | None = None
    """How many trials the night's rate is worth in a player's baseline (the Beta prior);
    ``None``: estimated from the night's spread of players' rates (``stats.prior_weight``)."""
    strong_quantile: float = 0.10
    """A dropped hand is strong at or before this quantile of the night's early drops of its
    hand size, ordered by what the rules would charge (``points``), then by ``deadwood``;
    never when charged the most of them (soft_drop.sql)."""
    early_turns: int = 2
    """A drop is early before the player completes this many turns."""
    win_prior: float = 5.0
    """Chip dumping: expected wins an average player's record is worth in a player's own,
    at least (``fit_win_prior``)."""
    fit_win_prior: bool = True
    """Chip dumping: the average player's record worth what the night's spread of
    strengths gives (empirical Bayes), ``win_prior`` at least; False: ``win_prior``."""
    fold_prior: float = 10.0
    """Chip dumping: hands of B's fold rate elsewhere that B's fold rate with A is shrunk
    toward (and of the night's that B's own is shrunk toward)."""
    min_hands: int = 10
    """Chip dumping: pairs that shared fewer hands of a flow format are not tested."""
    loss_record: int = 20
    """Chip dumping: the losses without B that make A's record long enough to weigh A's
    losses to B against (or as many as B won from A, if fewer); shorter, the record cannot
    tell a weak friend from a dumper, and a suspicion is ``minor`` at most."""
    flow_formats: tuple[str, ...] = ("points", "deals")
    """Formats where a loser's points go to the winner (money or chips)."""
    max_accounts: int = 50
    """An identifier shared by more accounts is a public network: not tested."""
    sigma: float = 0.25
    """The narrowest spread of a person's log decision times (log-seconds)."""
    window: float = 1.1
    """The bot statistic counts decisions within this factor of the median time."""
    min_decisions: int = 50
    """Accounts with fewer timed decisions are not tested for bots."""
    break_minutes: int = 10
    """A gap this long between two games is a break."""
    evidence: int = 5
    """Evidence hands kept per suspicion."""
    drop_formats: tuple[str, ...] = ()
    """``ruleset|format`` pairs whose rules allow drops (filled in by the run)."""
    unread: Mapping[str, str] = field(default_factory=dict)
    """Optional tables the detectors cannot read -> why, in a few words ("the log root has
    no sessions table"; filled in by the run): a detector resting on one is skipped, never
    reported as having tested nothing."""
    partial: Mapping[str, str] = field(default_factory=dict)
    """Optional tables some of whose files could not be read -> which ("sessions/b.parquet
    could not be read"; filled in by the run): a detector resting on one ran on the rest
    only, which it says (``Tested.partial``)."""

    @property
    def bot_p0(self) -> float:
        """The largest share of a person's decisions within ``window`` of their median."""
        return float(2.0 * stats.norm.cdf(math.log(self.window) / self.sigma) - 1.0)


# ---------------------------------------------------------------- SQL


@cache
def statements(name: str) -> dict[str, str]:
    """The named statements of ``sql/<name>.sql``."""
    text = resources.files("audit.fairplay").joinpath("sql", f"{name}.sql").read_text("utf-8")
    parts = _SECTION.split(text)
    return {parts[i]: parts[i + 1].strip() for i in range(1, len(parts), 2)}


def _bind(
    query: str, settings: Settings, extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The parameters a statement names, from ``extra`` or else ``settings`` (never
    formatted into SQL)."""
    values: dict[str, Any] = {}
    for name in sorted(set(_PARAM.findall(query))):
        value = extra[name] if extra and name in extra else getattr(settings, name)
        values[name] = list(value) if isinstance(value, tuple) else value
    return values


def run_sql(
    con: duckdb.DuckDBPyConnection,
    detector: str,
    section: str,
    settings: Settings,
    flagged: Sequence[tuple[str, str]] | None = None,
) -> pa.Table:
    """Run one statement (with ``flagged`` registered, when given); its rows, if any."""
    query = statements(detector)[section]
    if flagged is not None:
        con.register("flagged", pa.table({"a": [a for a, _ in flagged],
                                          "b": [b for _, b in flagged]}))  # fmt: skip
    try:
        result = con.sql(query, params=_bind(query, settings))
        return pa.table({}) if result is None else result.to_arrow_table()
    finally:
        if flagged is not None:
            con.unregister("flagged")


def create_table(
    con: duckdb.DuckDBPyConnection,
    detector: str,
    section: str,
    settings: Settings,
    name: str,
    extra: Mapping[str, Any] | None = None,
    *,
    append: bool = False,
) -> None:
    """Write one statement's rows into DuckDB's temporary table ``name`` (made afresh, or
    added to when ``append``), where they stay out of Python's memory."""
    query = statements(detector)[section]
    head = f"INSERT INTO {name} " if append else f"CREATE OR REPLACE TEMP TABLE {name} AS "
    con.execute(head + query, _bind(query, settings, extra))


def column(table: pa.Table, name: str) -> Array:
    return np.asarray(table.column(name).to_numpy(zero_copy_only=False), dtype=np.float64)


def ids(table: pa.Table, name: str) -> list[str]:
    return [str(v) for v in table.column(name).to_pylist()]


# ---------------------------------------------------------------- testing


@dataclass(frozen=True)
class Tested:
    """One detector's outcome: how many hypotheses it tested and what it reports."""

    check: str
    tests: int
    suspicions: list[Suspicion]
    needs: str = ""
    """What one hypothesis is (``Words.needs``): said when none was tested."""
    skipped: str = ""
    """Why the detector did not run (a table it rests on is missing); empty when it ran."""
    partial: str = ""
    """Why it ran on part of a table it rests on (files of it that could not be read);
    empty when it read the whole: its silence says nothing of what it did not read."""


@dataclass
class Hypotheses:
    """A detector's hypotheses, one per row of its statement, and their tests."""

    table: pa.Table
    p: Array
    expected: Array
    observed: Array
    effect: Array
    min_p: Array | None = None
    """The smallest p-value each could give (discrete tests), for ``stats.testable``."""
    weights: Array | None = None
    """Weighted Benjamini-Hochberg weights, when some hypotheses need more evidence."""
    family: int | None = None
    """When set, the rows held are only those of a larger family that could be reported
    (``screened``): every one testable, with a p-value at most the report threshold, and
    ``family`` hypotheses were testable in all. Their q-values are then the family's
    wherever they reach the report threshold."""
    alike: dict[int, list[str]] = field(default_factory=dict)
    """Row -> the other players whose hands with the row's A are exactly the row's, so that
    the data cannot tell which of them A did it for (``pairs._not_explained``)."""
    q: Array = field(init=False)
    report: NDArray[np.bool_] = field(init=False)
    tests: int = field(init=False)

    def correct(self, settings: Settings) -> Hypotheses:
        """q-values over the testable hypotheses (1 for the others) and what is reported: q
        at most the report threshold and the effect at least the floor."""
        family = self.testable(settings)
        self.q = np.ones(self.p.size)
        weights = None if self.weights is None else self.weights[family]
        self.q[family] = bh(self.p[family], weights, m=self.family)
        self.report = (
            family & (self.q <= settings.thresholds.report) & (self.effect >= settings.min_effect)
        )
        self.tests = int(family.sum()) if self.family is None else self.family
        return self

    def testable(self, settings: Settings) -> NDArray[np.bool_]:
        if self.min_p is None:
            return np.ones(self.p.size, dtype=np.bool_)
        return testable(self.min_p, settings.thresholds.report)

    def row(self, i: int) -> dict[str, Any]:
        return {name: self.table.column(name)[i].as_py() for name in self.table.column_names}


def screened(
    con: duckdb.DuckDBPyConnection,
    name: str,
    settings: Settings,
    test: Callable[[pa.Table], Hypotheses],
    key: tuple[str, ...] = ("a", "b"),
) -> Hypotheses:
    """The hypotheses in DuckDB's table ``name``, tested by ``test`` a batch of rows at a
    time, of which only those that could be reported are kept, sorted by ``key``: testable,
    and with a p-value at most the report threshold. Benjamini-Hochberg over them, with the
    count of all the testable ones, gives every q-value at or under the threshold exactly as
    over the whole family: a hypothesis left out has a larger p-value than any kept, so it
    neither moves a kept one's rank nor brings its q-value (at least its own p-value) under
    the threshold. ``test`` works row by row (numpy's element-wise functions), so a p-value
    is the same bits in whatever batch its row comes."""
    kept: list[Hypotheses] = []
    family = 0
    for batch in con.sql(f"SELECT * FROM {name}").to_arrow_reader(BATCH_ROWS):
        h = test(pa.Table.from_batches([batch]))
        testable = h.testable(settings)
        family += int(testable.sum())
        rows = np.flatnonzero(testable & (h.p <= settings.thresholds.report))
        if rows.size:
            kept.append(Hypotheses(
                h.table.take(rows), h.p[rows], h.expected[rows], h.observed[rows],
                h.effect[rows], None if h.min_p is None else h.min_p[rows],
            ))  # fmt: skip
    if not kept:  # the table's columns, and those ``test`` adds
        kept.append(test(con.sql(f"SELECT * FROM {name} LIMIT 0").to_arrow_table()))
    table = pa.concat_tables([k.table for k in kept])
    order = pc.sort_indices(table, sort_keys=[(c, "ascending") for c in key]).to_numpy()

    def joined(arrays: list[Array]) -> Array:
        return np.asarray(np.concatenate(arrays)[order], dtype=np.float64)

    floors = [k.min_p for k in kept if k.min_p is not None]
    min_p = joined(floors) if floors else None
    return Hypotheses(
        table.take(order), joined([k.p for k in kept]), joined([k.expected for k in kept]),
        joined([k.observed for k in kept]), joined([k.effect for k in kept]),
        min_p=min_p, family=family,
    )  # fmt: skip


def evidence(
    con: duckdb.DuckDBPyConnection,
    detector: str,
    pairs: Sequence[tuple[str, str]],
    settings: Settings,
) -> dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """The best evidence hands (and their games) of each flagged pair, most telling first:
    by the statement's ``weight``, then by game and hand id."""
    if not pairs:
        return {}
    table = run_sql(con, detector, "evidence", settings, flagged=pairs)
    rows: dict[tuple[str, str], list[tuple[float, str, str]]] = defaultdict(list)
    names = ("a", "b", "game_id", "hand_id", "weight")
    for a, b, game, hand, weight in zip(*(table.column(c).to_pylist() for c in names),
                                        strict=True):  # fmt: skip
        rows[a, b].append((-float(weight or 0), str(game), str(hand)))
    out = {}
    for pair in pairs:
        best = sorted(rows.get(pair, []))[: settings.evidence]
        out[pair] = (
            tuple(hand for _, _, hand in best),
            tuple(dict.fromkeys(game for _, game, _ in best)),
        )
    return out


@dataclass(frozen=True)
class Words:
    """What a detector says of each suspicion, besides its numbers."""

    check: str
    statistic: str
    pattern: str
    benign: str
    effect_name: str = "rate ratio"
    needs: str = ""
    """What one hypothesis is, as "each ...": a night with none tested none (run.json,
    the report's detector table)."""
    most: Severity = Severity.MAJOR
    """The most its suspicions are, however small their q-value: a pattern whose benign
    reading is as common as the fault (co-seating: friends) is a lead to look at, never
    evidence to act on at once (docs/fairplay.md, "Default thresholds")."""


Text = Callable[[Mapping[str, Any], int], tuple[str, str, str]]
"""(row, index) -> (message, expected text, recorded text)."""


def suspicions(
    con: duckdb.DuckDBPyConnection,
    detector: str,
    found: Hypotheses,
    settings: Settings,
    words: Words,
    *,
    players: Callable[[Mapping[str, Any]], tuple[str, ...]],
    text: Text,
    money: Callable[[Mapping[str, Any]], str | None] = lambda row: None,
    most: Callable[[Mapping[str, Any]], Severity] | None = None,
) -> Tested:
    """The reported hypotheses as suspicions, with their evidence hands; each at most
    ``words.most`` and, where given, ``most`` of its row (what the detector's other
    evidence allows: chip dumping's count of wins, by the loser's record of losses)."""
    picked = [int(i) for i in np.flatnonzero(found.report)]
    rows = [found.row(i) for i in picked]
    accounts = [players(row) for row in rows]
    pairs = [(who[0], who[-1]) for who in accounts]
    hands = evidence(con, detector, pairs, settings)
    out = []
    for i, row, who, pair in zip(picked, rows, accounts, pairs, strict=True):
        severity = settings.thresholds.severity(float(found.q[i]))
        assert severity is not None  # reported means q <= the report threshold
        caps = (words.most, most(row)) if most else (words.most,)
        severity = min((severity, *caps), key=lambda s: s.rank)
        message, want, seen = text(row, i)
        out.append(
            Suspicion(
                check=words.check, severity=severity, players=who, statistic=words.statistic,
                expected=float(found.expected[i]), observed=float(found.observed[i]),
                effect=float(found.effect[i]), effect_name=words.effect_name,
                p_value=float(found.p[i]), q_value=float(found.q[i]), tests=found.tests,
                evidence_hands=hands[pair][0], evidence_games=hands[pair][1],
                benign=words.benign, message=message, expected_text=want, recorded_text=seen,
                pattern=words.pattern, money=money(row),
            )
        )  # fmt: skip
    return Tested(words.check, found.tests, out, words.needs)
