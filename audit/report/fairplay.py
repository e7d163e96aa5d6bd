"""The fair-play section of the report: suspicions by strength with their evidence hands,
what each detector tested, and a pair graph for each ring; from suspicions.parquet and the
``"fairplay"`` entry of run.json only. A run without that entry, or one that says the
detectors did not run, is reported as *not run*, never as a clean night."""

from __future__ import annotations

import math
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from audit.duck import file_literal
from audit.fairplay.rings import SEATING
from audit.fairplay.suspicion import p_text
from audit.output import nightly_night
from audit.records import and_words
from audit.report.base import SEVERITIES, Chart, chart, query, query_one

TOP_SUSPICIONS = 200
"""Suspicions listed, the strongest first; suspicions.parquet holds the rest."""


EVIDENCE_SHOWN = 5
"""Evidence hands (and games) shown per suspicion; each of their games gets a panel."""


RING_NODES = 60
"""The largest ring drawn as a graph (its accounts are all listed in any case)."""


SUSPICIONS = "suspicions.parquet"


FEW_TESTED = 10
"""A detector that tested fewer hypotheses than this had too little data to find anything:
each detector tests only the pairs (or accounts) with enough data for its test ever to
report one, and fewer than 10 is fewer pairs than one table of five deals together, or
accounts than two full tables seat, whatever the night's size (docs/fairplay.md, "Too
little data"). Its silence is never counted as an all-clear."""


EVERY_CASE = frozenset({"fairplay.shared_device", "fairplay.ring"})
"""Detectors that test every case the night holds, whatever its amount of data (every pair
of accounts that share a device or an address, every group the pair suspicions join): few
tested is few there are, not too little data."""


@dataclass(frozen=True)
class SuspicionRef:
    """A listed suspicion a game is evidence for, as its panel names it."""

    anchor: str
    """The id of the suspicion's row in the fair-play table."""
    check: str
    severity: str
    players: list[str]
    hands: list[str]
    """The game's hands among the suspicion's evidence shown."""


@dataclass(frozen=True)
class EvidenceHand:
    hand_id: str
    game_id: str
    """Its game, whose panel it links to; empty when the outputs do not say (no link)."""


@dataclass(frozen=True)
class SuspicionRow:
    """One row of suspicions.parquet, in words."""

    rank: int
    anchor: str
    suspicion_id: str
    check: str
    severity: str
    players: list[str]
    message: str
    effect: str
    """``rate ratio: 3.37``."""
    p: str
    q: str
    tests: int
    benign: str
    money: str
    evidence: list[EvidenceHand]
    more_evidence: int
    """Evidence hands in the file beyond those shown."""
    games: list[str]
    """Evidence games shown that none of the hands shown is in (each has a panel)."""
    ring: str
    """The anchor of the ring's graph, for a ring drawn as one; else empty."""


@dataclass(frozen=True)
class Detector:
    check: str
    tested: int
    suspicions: int
    needs: str = ""
    """What one of its hypotheses is ("pair of accounts dealt into one game"): said
    beside a detector that tested none; empty in an older run.json."""
    skipped: str = ""
    """Why it did not run ("the log root has no sessions table"): a detector whose table
    is missing is skipped, not run, and shows no count of hypotheses tested."""
    partial: str = ""
    """Why it ran on part of a table it rests on ("sessions/b.parquet could not be read"):
    its count is of what it read, and its silence no all-clear for the rest."""

    @property
    def few(self) -> bool:
        """It ran, but tested too few hypotheses to find anything (``FEW_TESTED``), and
        found nothing: one that raised a suspicion from few did find something, and "its
        silence says nothing" beside its suspicion misled (a blind tester's planted dumper,
        ``major``, under a chip-dumping detector "too few to find anything")."""
        return (not self.skipped and not self.partial and self.check not in EVERY_CASE
                and self.tested < FEW_TESTED and not self.suspicions)  # fmt: skip

    @property
    def few_note(self) -> str:
        """Said beside its count when it tested too few (``few``), else empty."""
        if not self.few:
            return ""
        each = f"each {self.needs}, " if self.needs else ""
        if not self.tested:
            return (f"nothing to test, too little data to find anything: it tests {each}with "
                    f"enough data for its test ever to report one, and the night has none")
        return (f"too few to find anything: it tests {each}with enough data for its test ever "
                f"to report one, and the night has only {self.unit}; its silence says "
                f"nothing of the rest")  # fmt: skip

    @property
    def unit(self) -> str:
        """What it tested, counted: "1 pair", "4 accounts", "none".

        >>> Detector("fairplay.loss_dumping", 1, 0, "pair of players with 10 or more").unit
        '1 pair'
        >>> Detector("fairplay.bot", 4, 0, "account with 50 or more timed decisions").unit
        '4 accounts'
        >>> Detector("fairplay.collusion", 3, 0).unit, Detector("fairplay.bot", 0, 0).unit
        ('3 hypotheses', 'none')
        """
        if not self.tested:
            return "none"
        word = self.needs.split(" ", 1)[0]
        if word not in ("pair", "account"):
            return f"{self.tested:,} hypothes{'is' if self.tested == 1 else 'es'}"
        return f"{self.tested:,} {word}{'' if self.tested == 1 else 's'}"


@dataclass(frozen=True)
class FairPlayRun:
    """What run.json says of the fair-play detectors."""

    ran: bool
    why: str
    """Why they did not run (empty when they ran)."""
    detectors: list[Detector]
    tested: int
    """Hypotheses tested, over all the detectors."""
    suspicions: int
    """Rows of suspicions.parquet (run.json's count when the file is missing)."""
    missing: bool
    """They ran, but suspicions.parquet is not in the output folder."""
    command: str
    """The command that runs them over this replay."""

    @property
    def skipped(self) -> list[Detector]:
        """The detectors that did not run (their table missing), though the others did."""
        return [d for d in self.detectors if d.skipped]

    def skipped_words(self) -> str:
        """The headline's sentence on them (empty when every detector ran): "no suspicion"
        is not an all-clear for what a skipped one tests (a blind tester: the headline said
        the detectors ran while shared_device had not)."""
        gone = self.skipped
        if not gone:
            return ""
        named = "; ".join(f"{d.check}: {d.skipped}" for d in gone)
        ran = len(self.detectors) - len(gone)
        return (f"{len(gone)} of the {len(self.detectors)} detectors did not run ({named}), "
                f"so the night was looked at by the other {ran} only.")  # fmt: skip

    @property
    def few(self) -> list[Detector]:
        """The detectors that ran but tested too few hypotheses to find anything."""
        return [d for d in self.detectors if d.few]

    @property
    def enough(self) -> list[Detector]:
        """The detectors that ran and tested enough to find something (not one of
        ``EVERY_CASE`` that had nothing to test)."""
        return [d for d in self.detectors
                if not d.skipped and not d.partial and not d.few and d.tested]  # fmt: skip

    @property
    def partial(self) -> list[Detector]:
        """The detectors that ran on part of a table they rest on (``Detector.partial``)."""
        return [d for d in self.detectors if d.partial]

    def partial_words(self) -> str:
        """The headline's sentence on them (empty when none): a blind tester's night with
        four of five sessions files unreadable lost a major shared-device suspicion, and
        the report said nothing of it but a check.skipped among the findings."""
        part = self.partial
        if not part:
            return ""
        named = "; ".join(f"{d.check}: {d.partial}" for d in part)
        return (f"{and_words([d.check for d in part])} ran on part of the night's data only "
                f"({named}): {'its' if len(part) == 1 else 'their'} silence says nothing of "
                "what could not be read.")  # fmt: skip

    def few_words(self) -> str:
        """The headline's sentence on the detectors that tested too few hypotheses to find
        anything (empty when none did): a blind tester's honest night read "No fair-play
        suspicion was raised: the detectors ran and tested 8,714 hypotheses" beside a loss
        dumping detector that had tested 1 pair."""
        few = self.few
        if not few:
            return ""
        why = (f"a detector tests only the pairs or accounts with enough data for its test "
               f"ever to report one, and fewer than {FEW_TESTED} is too few to find anything")
        if len(few) == 1:
            d = few[0]
            return (f"{d.check} tested {'only ' if d.tested else ''}{d.unit} ({why}): its "
                    f"silence says nothing of the rest of the night.")  # fmt: skip
        named = ", ".join(f"{d.check} {d.unit}" for d in few)
        return (f"{len(few)} detectors tested too few to find anything ({named}; {why}): "
                f"their silence says nothing of the rest of the night.")  # fmt: skip

    def tile_words(self) -> str:
        """The headline tile's qualification (empty when every detector looked at the whole
        night): "4 of 8 detectors could not judge the whole night (4 too few to test)", so
        the tile alone is no all-clear (it read "0 fair-play suspicions" while 4 of 8 had
        too little data: a blind tester).

        >>> FairPlayRun(True, "", [Detector("fairplay.bot", 0, 0, "account with"),
        ...     Detector("fairplay.shared_device", 0, 0, "", "no sessions table"),
        ...     Detector("fairplay.ring", 0, 0)], 0, 0, False, "").tile_words()
        '2 of 3 detectors could not judge the whole night (1 too few to test, 1 not run)'
        """
        kinds = ((len(self.few), "too few to test"), (len(self.partial), "part of the data"),
                 (len(self.skipped), "not run"))  # fmt: skip
        short = sum(n for n, _ in kinds)
        if not short:
            return ""
        why = ", ".join(f"{n} {words}" for n, words in kinds if n)
        return (f"{short} of {len(self.detectors)} detectors could not judge the whole night "
                f"({why})")

    def quiet_words(self) -> str:
        """The headline of a run that raised no suspicion: an all-clear only from the
        detectors that had enough data to find something."""
        correction = "without finding one that stands out after correction for many tests."
        if not self.few and not self.partial:
            return (f"No fair-play suspicion was raised: the detectors ran and tested "
                    f"{self.tested:,} hypotheses {correction}")  # fmt: skip
        enough = self.enough
        if not enough:
            return ("No fair-play suspicion was raised, but no detector had enough data to "
                    "find anything: this report says nothing of collusion, chip dumping or "
                    "bots on this night.")  # fmt: skip
        tested = sum(d.tested for d in enough)
        return (f"No fair-play suspicion was raised by the {len(enough)} detector"
                f"{'s' if len(enough) != 1 else ''} that had enough data to find something: "
                f"{'they' if len(enough) != 1 else 'it'} tested {tested:,} hypotheses "
                f"{correction}")  # fmt: skip


@dataclass(frozen=True)
class Node:
    name: str
    label: str
    """The name, shortened to fit."""
    x: float
    y: float
    label_x: float
    label_y: float
    anchor: str
    """text-anchor of the label: start, middle or end."""


@dataclass(frozen=True)
class Edge:
    x1: float
    y1: float
    x2: float
    y2: float
    severity: str
    """Of the pair's strongest suspicion."""
    width: float
    title: str
    """The pair and its checks."""
    link: bool = True
    """The pair is suspected of something done at the table, a link of the ring; False for
    a pair only seated together too often (co-seating makes no link: audit/fairplay/rings.py)."""


@dataclass(frozen=True)
class RingGraph:
    anchor: str
    suspicion: str
    """The anchor of the ring's row in the fair-play table."""
    severity: str
    players: list[str]
    width: int
    height: int
    nodes: list[Node]
    edges: list[Edge]

    @property
    def links(self) -> int:
        """The ring's links (its finding's count), not the lines of co-seating alone."""
        return sum(e.link for e in self.edges)


def evidence_refs(suspicions: Iterable[SuspicionRow]) -> dict[str, list[SuspicionRef]]:
    """Every game a listed suspicion links to, with the suspicions it is evidence for."""
    refs: dict[str, list[SuspicionRef]] = {}
    for s in suspicions:
        for game in dict.fromkeys([e.game_id for e in s.evidence if e.game_id] + s.games):
            hands = [e.hand_id for e in s.evidence if e.game_id == game]
            refs.setdefault(game, []).append(
                SuspicionRef(s.anchor, s.check, s.severity, s.players, hands)
            )
    return refs


def fairplay_run(db: duckdb.DuckDBPyConnection, run: dict[str, Any], out: Path) -> FairPlayRun:
    """What run.json says of the detectors; when they ran, ``suspicions.parquet`` becomes
    the view ``s`` (with ``file_row_number``, its strength order)."""
    arguments = run.get("arguments", {})
    command = "rummy-audit fairplay {} --out {}".format(
        *(shlex.quote(str(arguments.get(key) or key.upper())) for key in ("logs", "out"))
    )
    if nightly_night(out):  # its log root, the night's work root, is gone
        command = ""
    entry = run.get("fairplay")
    if not isinstance(entry, dict):
        why = 'run.json has no "fairplay" entry: an older rummy-audit wrote this folder'
        return FairPlayRun(False, why, [], 0, 0, False, command)
    if entry.get("status") != "run":
        why = str(entry.get("why") or "run.json gives no reason")
        return FairPlayRun(False, why, [], 0, 0, False, command)
    detectors = [
        Detector(str(d["check"]), int(d.get("tested", 0)), int(d.get("suspicions", 0)),
                 str(d.get("needs") or ""),
                 str(d.get("why") or "no reason given") if d.get("status") == "skipped"
                 else "", str(d.get("partial") or ""))
        for d in entry.get("detectors", [])
    ]
    tested = sum(d.tested for d in detectors)
    path = out / SUSPICIONS
    if not path.is_file():
        total = int(entry.get("suspicions", 0))
        return FairPlayRun(True, "", detectors, tested, total, True, command)
    db.execute(
        "CREATE VIEW s AS SELECT * FROM "
        f"read_parquet({file_literal(str(path))}, file_row_number = true)"
    )
    total = query_one(db, "SELECT count(*) FROM s")
    return FairPlayRun(True, "", detectors, tested, total, False, command)


def top_suspicions(db: duckdb.DuckDBPyConnection) -> list[SuspicionRow]:
    """The ``TOP_SUSPICIONS`` strongest suspicions, as suspicions.parquet orders them, each
    evidence hand with its game (from hands.parquet)."""
    rows = query(
        db,
        f"""
        SELECT suspicion_id, "check", severity, players, effect, effect_name, p_value,
               q_value, tests, evidence_hands[1:{EVIDENCE_SHOWN}], len(evidence_hands),
               evidence_games[1:{EVIDENCE_SHOWN}], evidence_games, money, benign, message
        FROM s ORDER BY file_row_number LIMIT {TOP_SUSPICIONS}
        """,
    )
    hands = sorted({hand for row in rows for hand in row[9]})
    game_of = dict(
        query(
            db,
            "SELECT hand_id, any_value(game_id) FROM h "
            "WHERE hand_id IN (SELECT unnest($ids)) AND game_id IS NOT NULL GROUP BY hand_id",
            {"ids": hands},
        )
        if hands
        else []
    )
    out = []
    for rank, row in enumerate(rows, 1):
        (sid, check, severity, players, effect, effect_name, p, q, tests, shown, n_hands,
         games, all_games, money, benign, message) = row  # fmt: skip
        only = all_games[0] if len(all_games) == 1 else ""
        evidence = [EvidenceHand(hand, game_of.get(hand, only)) for hand in shown]
        linked = {e.game_id for e in evidence}
        drawn = check == "fairplay.ring" and 3 <= len(players) <= RING_NODES
        out.append(
            SuspicionRow(
                rank=rank,
                anchor=f"suspicion-{rank}",
                suspicion_id=sid,
                check=check,
                severity=severity,
                players=list(players),
                message=message,
                effect=effect_text(effect, effect_name),
                p=p_text(p),
                q=p_text(q),
                tests=int(tests),
                benign=benign,
                money=money or "",
                evidence=evidence,
                more_evidence=int(n_hands) - len(shown),
                games=[g for g in games if g not in linked],
                ring=f"ring-{rank}" if drawn else "",
            )
        )
    return out


def effect_text(effect: float, name: str) -> str:
    """The effect size in a few digits, with its name.

    >>> effect_text(3.3672826923402797, "rate ratio"), effect_text(4.0, "accounts")
    ('rate ratio: 3.37', 'accounts: 4')
    >>> effect_text(151.46, ""), effect_text(float("inf"), "rate ratio")
    ('151', 'rate ratio: inf')
    """
    value = f"{effect:.3g}" if math.isfinite(effect) else str(effect)
    return f"{name}: {value}" if name else value


def rings(db: duckdb.DuckDBPyConnection, suspicions: Sequence[SuspicionRow]) -> list[RingGraph]:
    """A graph for each listed ring: its accounts, and the pair suspicions among them
    (anywhere in suspicions.parquet, listed or not) as edges."""
    drawn = [s for s in suspicions if s.ring]
    if not drawn:
        return []
    members = sorted({p for s in drawn for p in s.players})
    pairs: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for players, check, severity in query(
        db,
        'SELECT players, "check", severity FROM s WHERE len(players) = 2 '
        "AND players[1] <> players[2] AND list_has_all($members, players) "
        "ORDER BY file_row_number",
        {"members": members},
    ):
        a, b = sorted(players)
        pairs.setdefault((a, b), []).append((check, severity))
    return [ring_graph(s.ring, s.anchor, s.severity, s.players, pairs) for s in drawn]


_EDGE_WIDTH = {"critical": 4.0, "major": 3.0, "minor": 2.0, "info": 1.5}


def ring_graph(
    anchor: str,
    suspicion: str,
    severity: str,
    players: Sequence[str],
    pairs: dict[tuple[str, str], list[tuple[str, str]]],
) -> RingGraph:
    """The ring's accounts on a circle, in the order given, the first at the top and the
    rest clockwise; an edge for each pair of them in ``pairs`` (sorted pair: its checks
    and severities), coloured by its strongest suspicion and drawn over the weaker ones.
    No randomness: the same ring is drawn the same way every time.

    >>> pairs = {("A", "B"): [("fairplay.collusion", "major")],
    ...          ("B", "C"): [("fairplay.soft_drop", "minor"), ("fairplay.co_seating", "info")],
    ...          ("A", "X"): [("fairplay.collusion", "critical")]}
    >>> g = ring_graph("ring-1", "suspicion-1", "minor", ["A", "B", "C"], pairs)
    >>> g.anchor, g.width, g.height
    ('ring-1', 440, 180)
    >>> [(n.name, n.x, n.y, n.anchor) for n in g.nodes]
    [('A', 220.0, 30.0, 'middle'), ('B', 289.3, 150.0, 'start'), ('C', 150.7, 150.0, 'end')]
    >>> [(e.severity, e.title) for e in g.edges]
    [('minor', 'B and C: fairplay.co_seating, fairplay.soft_drop (minor)'), ('major', 'A and B: fairplay.collusion (major)')]
    """  # noqa: E501
    n = len(players)
    radius = max(80.0, min(240.0, 12.0 * n))
    margin_x, margin_y = 140.0, 30.0
    turns = [-math.pi / 2 + 2 * math.pi * i / n for i in range(n)]
    top = min(math.sin(t) for t in turns)
    bottom = max(math.sin(t) for t in turns)
    cx, cy = margin_x + radius, margin_y - radius * top
    nodes: list[Node] = []
    at: dict[str, tuple[float, float]] = {}
    for name, turn in zip(players, turns, strict=True):
        cos, sin = math.cos(turn), math.sin(turn)
        x, y = round(cx + radius * cos, 1), round(cy + radius * sin, 1)
        side = "start" if cos > 0.2 else "end" if cos < -0.2 else "middle"
        label_y = y + (18.0 if sin > 0.2 else -10.0 if sin < -0.2 else 4.0)
        label = name if len(name) <= 18 else name[:17] + "…"
        nodes.append(Node(name, label, x, y, round(x + 10 * cos, 1), round(label_y, 1), side))
        at[name] = (x, y)
    ranks = {s: i for i, s in enumerate(SEVERITIES)}
    edges = []
    for (a, b), found in sorted(pairs.items()):
        if a not in at or b not in at:
            continue
        strongest = min((s for _, s in found), key=lambda s: ranks.get(s, len(ranks)))
        checks = ", ".join(sorted({c for c, _ in found}))
        edges.append(
            Edge(
                *at[a],
                *at[b],
                severity=strongest,
                width=_EDGE_WIDTH.get(strongest, 1.5),
                title=f"{a} and {b}: {checks} ({strongest})",
                link=any(c != SEATING for c, _ in found),
            )
        )
    edges.sort(key=lambda e: -ranks.get(e.severity, len(ranks)))  # the strongest drawn last
    return RingGraph(
        anchor=anchor,
        suspicion=suspicion,
        severity=severity,
        players=list(players),
        width=int(2 * (radius + margin_x)),
        height=round(radius * (bottom - top) + 2 * margin_y),
        nodes=nodes,
        edges=edges,
    )


def suspicion_chart(db: duckdb.DuckDBPyConnection, fairplay: FairPlayRun) -> Chart:
    title = "Fair-play suspicions by strength"
    if not fairplay.ran:
        return chart(
            "chart-suspicions", title, [], f"Fair-play detectors: not run ({fairplay.why})."
        )
    if fairplay.missing:
        return chart("chart-suspicions", title, [], f"{SUSPICIONS} is missing from this folder.")
    rows = dict(query(db, "SELECT severity, count(*) FROM s GROUP BY severity"))
    bars = [(s, int(rows[s]), f"sev-{s}") for s in SEVERITIES if rows.get(s)]
    ran = len(fairplay.detectors) - len(fairplay.skipped)
    empty = (
        f"No fair-play suspicion was raised ({fairplay.tested:,} hypotheses tested by "
        f"{ran} detectors{'' if ran == len(fairplay.detectors) else ', the others not run'})."
    )
    if fairplay.few:
        enough = fairplay.enough
        few = f"too few to find anything: {', '.join(d.check for d in fairplay.few)}"
        empty = (
            f"No fair-play suspicion was raised by the {len(enough)} detector"
            f"{'s' if len(enough) != 1 else ''} with enough data "
            f"({sum(d.tested for d in enough):,} hypotheses tested); {few}."
            if enough
            else f"No fair-play suspicion was raised, but no detector had enough data ({few})."
        )
    if fairplay.partial:
        part = ", ".join(d.check for d in fairplay.partial)
        empty = f"{empty.removesuffix('.')}; on part of the night's data only: {part}."
    return chart("chart-suspicions", title, bars, empty)
