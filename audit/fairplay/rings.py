"""Rings: groups of three or more accounts joined by suspicious pairs.

Every pair suspected of something done at the table (shared identity, feeding, soft drop,
chip dumping) is an edge; a connected component of three or more accounts is a ring.
networkx finds the components. Co-seating alone makes no edge (friends who play together
are its benign reading, and accounts who play all night meet each other more than chance),
but a ring lists it where its pairs were also seated together too often. A ring is as strong
as the weakest link it needs to hold together: its q-value is the bottleneck of the strongest
spanning tree of its members (every edge is already significant on its own). A weak link
between accounts already joined by stronger ones is redundant, so it cannot make the ring
weaker than the links without it (a blind tester's ring of two major feeding links came out
`info` from a third, weak one); nor stronger than that link's suspicions are (one a
detector holds at `info` whatever its q-value holds the ring there); its evidence is the
best hands of all its edges.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from audit.fairplay.suspicion import Suspicion, p_is
from audit.findings import Thresholds

SEATING = "fairplay.co_seating"
# a ring's edge: its q-value (its strongest suspicion's), its pair, and all its suspicions
Link = tuple[float, str, str, list[Suspicion]]


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
        weakest, a_link, b_link, found_link = needed_link(edges)
        # its p, q and tests are that link's strongest suspicion's: the tests are the
        # correction the q-value comes from (it said the number of links, which run.json's
        # one ring tested contradicted)
        link = min((s for s in found_link if s.check != SEATING),
                   key=lambda s: (s.q_value, s.check))
        p, tests = link.p_value, link.tests
        spare = [f"{a}-{b}" for q, a, b, _ in edges if q > weakest]
        unneeded = (f"; {', '.join(spare)} {'is' if len(spare) == 1 else 'are'} weaker but "
                    "not needed to join them" if spare else "")
        severity = thresholds.severity(weakest)
        if severity is None:
            continue
        # and at most its needed link's: a suspicion its detector holds below what its
        # q-value gives (chip dumping's, by the loser's record) holds a ring there too
        most = max((s.severity for s in found_link if s.check != SEATING), key=lambda s: s.rank)
        severity = most if severity.rank > most.rank else severity
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
                        f"{len(edges)} suspicious pairs: {links} (the weakest link needed "
                        f"to join them all, {a_link}-{b_link}, has {p_is('q', weakest)}"
                        f"{unneeded}).",
                expected_text=f"{accounts}: joined by no suspicious pair",
                recorded_text=f"{accounts}: {links}",
                pattern="connected groups of three or more accounts joined by suspicious pairs",
            )
        )  # fmt: skip
    return out


def needed_link(edges: list[Link]) -> Link:
    """The weakest link a ring needs to hold together: Kruskal's strongest spanning tree of
    its members (edges as (q, lesser, greater, suspicions), sorted by q, ties by pair), and
    the edge that joins its last two parts. Every two members are joined by a path of links
    no weaker than it, and the two it joins by none stronger, so the ring is exactly this
    strong: a weak link beside strong ones that already join its accounts leaves it as
    strong as before, and a chain whose only way round is through a weak link stays weak.

    >>> needed_link([(1e-58, "A", "B", []), (1e-78, "B", "C", []), (0.0093, "A", "C", [])])[:3]
    (1e-58, 'A', 'B')
    >>> needed_link([(1e-58, "A", "B", []), (0.0093, "C", "D", []), (1e-78, "B", "C", [])])[:3]
    (0.0093, 'C', 'D')
    """
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    members = {m for _, a, b, _ in edges for m in (a, b)}
    parts = len(members)
    for edge in sorted(edges, key=lambda e: e[:3]):
        _, a, b, _ = edge
        ra, rb = root(a), root(b)
        if ra == rb:
            continue
        parent[ra] = rb
        parts -= 1
        if parts == 1:
            return edge
    raise ValueError("the edges do not join their accounts into one ring")
