"""Rings: groups of three or more accounts joined by suspicious pairs.

Every pair suspected of something done at the table (shared identity, feeding, soft drop,
chip dumping) is an edge; a connected component of three or more accounts is a ring.
networkx finds the components. Co-seating alone makes no edge (friends who play together
are its benign reading, and accounts who play all night meet each other more than chance),
but a ring lists it where its pairs were also seated together too often. A ring is as strong
as its weakest link: its q-value is the largest of its edges' (every edge is already
significant on its own), and its evidence the best hands of its edges.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from audit.fairplay.suspicion import Suspicion, p_is
from audit.findings import Thresholds

SEATING = "fairplay.co_seating"


def pair_graph(suspicions: Iterable[Suspicion]) -> nx.Graph:
    """Accounts as nodes, pairs suspected of something done at the table as edges; each
    edge keeps all its pair's suspicions, co-seating included."""
    pairs: dict[tuple[str, str], list[Suspicion]] = {}
    for s in suspicions:
        if len(s.players) == 2 and s.players[0] != s.players[1]:
            pairs.setdefault((min(s.players), max(s.players)), []).append(s)
    graph = nx.Graph()
    for (a, b), found in sorted(pairs.items()):
        if any(s.check != SEATING for s in found):
            graph.add_edge(a, b, suspicions=found)
    return graph


def rings(
    suspicions: Iterable[Suspicion], thresholds: Thresholds, evidence: int = 5
) -> list[Suspicion]:
    """One suspicion per connected group of three or more accounts."""
    graph = pair_graph(suspicions)
    out = []
    for component in nx.connected_components(graph):
        if len(component) < 3:
            continue
        members = tuple(sorted(component))
        sub = graph.subgraph(members)
        edges = sorted(  # each pair as (lesser, greater): a subgraph's own order is a set's
            (min(s.q_value for s in data["suspicions"] if s.check != SEATING), min(a, b),
             max(a, b), data["suspicions"])
            for a, b, data in sub.edges(data=True)
        )  # fmt: skip
        weakest = max(q for q, *_ in edges)
        # the correction its q-value comes from: the weakest link's own detector's (it
        # said the number of links, which run.json's one ring tested contradicted)
        tests = max((s for *_, found in edges for s in found if s.check != SEATING),
                    key=lambda s: (s.q_value, s.check)).tests
        p = max(min(s.p_value for s in found if s.check != SEATING) for *_, found in edges)
        severity = thresholds.severity(weakest)
        if severity is None:
            continue
        hands: list[str] = []
        games: list[str] = []
        for *_, found in edges:
            best = min(found, key=Suspicion.sort_key)
            hands += best.evidence_hands[:2]
            games += best.evidence_games[:2]
        links = "; ".join(
            f"{a}-{b} ({', '.join(sorted({s.check.removeprefix('fairplay.') for s in found}))})"
            for _, a, b, found in edges
        )
        accounts = ", ".join(members)
        out.append(
            Suspicion(
                check="fairplay.ring", severity=severity, players=members,
                statistic="connected component of suspicious pairs (networkx)",
                expected=0.0, observed=float(len(edges)), effect=float(len(members)),
                effect_name="accounts", p_value=p, q_value=weakest, tests=tests,
                evidence_hands=tuple(dict.fromkeys(hands))[:evidence],
                evidence_games=tuple(dict.fromkeys(games))[:evidence],
                benign="a group of friends who play together; each link has its own reading",
                message=f"{accounts} form a ring of {len(members)} accounts joined by "
                        f"{len(edges)} suspicious pairs: {links} (its weakest link has "
                        f"{p_is('q', weakest)}).",
                expected_text=f"{accounts}: 0 suspicious pairs among them, so no ring",
                recorded_text=f"{accounts}: {links}",
                pattern="connected groups of three or more accounts joined by suspicious pairs",
            )
        )  # fmt: skip
    return out
