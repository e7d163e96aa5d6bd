"""How the fair-play suspicions of a run compare with what the simulator planted: each
detector's precision and recall for its kinds, and the accounts suspected on a night
where nothing was planted. The tests and the benchmarks read it; the audit never does.

A planted group is the accounts of one planted kind in ``labels.parquet`` (a pair, a ring
of three, or a bot). What counts as finding it, per detector:

- ``fairplay.co_seating``: any two accounts of one planted group (every group seeks its
  partners out, and two bots both keen to play sit together too);
- ``fairplay.shared_device``: a ``multi_account`` pair;
- ``fairplay.collusion``: a feeder and the account it feeds, in that order: a
  ``collusion_feeding`` or ``chip_dumping`` pair (the dumper throws the partner's cards),
  or two consecutive members of a ``collusion_ring``;
- ``fairplay.soft_drop``: a ``soft_drop`` pair, the one who drops first;
- ``fairplay.chip_dumping``: a ``chip_dumping`` pair, the dumper first; or another
  planted group whose behaviour passes points one way, which is what the detector claims:
  a feeder and the account it feeds (feeding makes the fed account win), an earlier and a
  later member of a ``collusion_ring`` (the last one fed wins), a ``soft_drop`` pair (the
  drop penalties of the strong hands given up go to the partner: strong hands dropped are a
  form of dumping);
- ``fairplay.loss_dumping``: as ``fairplay.chip_dumping`` (the planted dumper never drops
  or declares, so it loses big; a fed partner's feeder, too, plays on a weakened hand);
- ``fairplay.bot``: a ``bot``;
- ``fairplay.ring``: every account of a ``collusion_ring`` and no account outside planted
  groups.

A detector's recall is over the groups of its ``RECALL_KINDS`` (the kind it is for);
its precision over all its suspicions, each true when it matches a group as above. Loss
dumping has no recall here: the simulator's dumper loses often (``chip_dumping``), and the
dumper it is for, who loses big but no more often than chance, is planted on synthetic
nights (tests/fairplay/test_detectors.py, docs/fairplay.md).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

RECALL_KINDS: dict[str, tuple[str, ...]] = {
    "fairplay.co_seating": ("collusion_feeding", "soft_drop", "chip_dumping", "multi_account",
                            "collusion_ring"),
    "fairplay.shared_device": ("multi_account",),
    "fairplay.collusion": ("collusion_feeding",),
    "fairplay.soft_drop": ("soft_drop",),
    "fairplay.chip_dumping": ("chip_dumping",),
    "fairplay.loss_dumping": (),  # no planted kind is a dumper who loses big, not often
    "fairplay.bot": ("bot",),
    "fairplay.ring": ("collusion_ring",),
}  # fmt: skip
PAIR_KINDS = ("collusion_feeding", "soft_drop", "chip_dumping", "multi_account")
Group = tuple[str, tuple[str, ...]]
"""A planted group: its kind and its accounts (as labelled)."""


@dataclass(frozen=True)
class Score:
    check: str
    suspicions: int
    true: int
    groups: int
    found: int

    @property
    def precision(self) -> float:
        return self.true / self.suspicions if self.suspicions else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.groups if self.groups else 1.0


def planted_groups(labels: Path) -> dict[str, set[tuple[str, ...]]]:
    """Kind -> the planted groups of accounts (ordered as labelled)."""
    out: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for row in pq.read_table(labels, columns=["kind", "players"]).to_pylist():
        if row["players"] and (row["kind"] in PAIR_KINDS or row["kind"]
                               in ("collusion_ring", "bot")):  # fmt: skip
            out[row["kind"]].add(tuple(row["players"]))
    return out


def _matches(check: str, players: Sequence[str], groups: Mapping[str, set[tuple[str, ...]]],
             planted: set[str]) -> list[tuple[str, tuple[str, ...]]]:  # fmt: skip
    """The planted (kind, group) a suspicion finds."""
    found: list[tuple[str, tuple[str, ...]]] = []
    if check == "fairplay.bot":
        found += [("bot", g) for g in groups.get("bot", ()) if tuple(players) == g]
    elif check == "fairplay.co_seating":
        pair = set(players)
        for kind in (*PAIR_KINDS, "collusion_ring"):
            found += [(kind, g) for g in groups.get(kind, ()) if pair <= set(g)]
        bots = {g[0] for g in groups.get("bot", ())}
        if pair <= bots:
            found.append(("bot", tuple(sorted(pair))))
    elif check == "fairplay.shared_device":
        found += [("multi_account", g) for g in groups.get("multi_account", ())
                  if set(players) == set(g)]  # fmt: skip
    elif check == "fairplay.collusion":
        found += _feeds(tuple(players), groups)
        found += [("chip_dumping", g) for g in groups.get("chip_dumping", ())
                  if tuple(players) == g]  # fmt: skip
    elif check in ("fairplay.soft_drop", "fairplay.chip_dumping", "fairplay.loss_dumping"):
        kind = check.removeprefix("fairplay.").replace("loss_", "chip_")
        found += [(kind, g) for g in groups.get(kind, ()) if tuple(players) == g]
        if check != "fairplay.soft_drop":
            found += _feeds(tuple(players), groups)
            found += [("soft_drop", g) for g in groups.get("soft_drop", ())
                      if tuple(players) == g]  # fmt: skip
            found += [("collusion_ring", g) for g in groups.get("collusion_ring", ())
                      if players[0] in g and players[1] in g[g.index(players[0]) + 1 :]]
            found = list(dict.fromkeys(found))
    elif check == "fairplay.ring" and set(players) <= planted:
        found += [("collusion_ring", g) for g in groups.get("collusion_ring", ())
                  if set(g) <= set(players)]  # fmt: skip
    return found


def _feeds(
    link: tuple[str, ...], groups: Mapping[str, set[tuple[str, ...]]]
) -> list[tuple[str, tuple[str, ...]]]:
    """The planted groups in which the first account feeds the second."""
    found = [("collusion_feeding", g) for g in groups.get("collusion_feeding", ()) if link == g]
    for g in groups.get("collusion_ring", ()):
        if link in set(itertools.pairwise(g)):
            found.append(("collusion_ring", g))
    return found


def found_groups(suspicions: Path, labels: Path) -> dict[str, tuple[int, int, set[Group]]]:
    """Per detector: its suspicions, how many are true, and the planted groups of its kind
    it found."""
    groups = planted_groups(labels)
    planted = {p for gs in groups.values() for g in gs for p in g}
    rows = pq.read_table(suspicions, columns=["check", "players"]).to_pylist()
    out = {}
    for check, kinds in RECALL_KINDS.items():
        mine = [r["players"] for r in rows if r["check"] == check]
        true = 0
        found: set[Group] = set()
        for players in mine:
            hits = _matches(check, players, groups, planted)
            true += bool(hits)
            found.update(hit for hit in hits if hit[0] in kinds)
        out[check] = (len(mine), true, found)
    return out


def score(suspicions: Path, labels: Path) -> list[Score]:
    """Per detector: suspicions, how many are true, planted groups of its kind, found."""
    groups = planted_groups(labels)
    return [
        Score(check, n, true, sum(len(groups.get(k, ())) for k in RECALL_KINDS[check]),
              len(found))
        for check, (n, true, found) in found_groups(suspicions, labels).items()
    ]  # fmt: skip


def suspected_accounts(suspicions: Path) -> set[str]:
    """Every account named by a suspicion."""
    rows = pq.read_table(suspicions, columns=["players"]).to_pylist()
    return {p for r in rows for p in r["players"]}


def table(scores: Iterable[Score]) -> str:
    """A Markdown table of scores."""
    lines = ["| detector | suspicions | true | precision | planted | found | recall |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for s in scores:
        lines.append(
            f"| `{s.check}` | {s.suspicions} | {s.true} | {s.precision:.2f} | {s.groups} | "
            f"{s.found} | {s.recall:.2f} |"
        )
    return "\n".join(lines)
