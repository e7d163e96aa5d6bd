"""The fair-play section of report.html: suspicions by strength with every account and their
evidence (each link to a game panel that is there), the detectors' table, a graph per ring,
and "not run" whenever the detectors did not run, never a clean bill."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote as url_quote
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from markupsafe import escape as markup

from audit.report.fairplay import EVIDENCE_SHOWN, TOP_SUSPICIONS, Detector
from audit.report.render import write_report
from audit.report.views import ReportView, build_view
from audit.run import replay_logs
from tests.explain.goldtest import compare
from tests.report.nights import (
    HOSTILE,
    HOSTILE_GAME,
    big_night,
    fair_night,
    pair_suspicions,
    suspicion,
    with_ring,
)
from tests.report.test_report import ACTUAL, GOLDEN, scrub


class Anchors(HTMLParser):
    """Every id on the page, and every link inside it (``#...``), unescaped and decoded."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value is not None:
                self.ids.append(value)
            if name == "href" and value is not None and value.startswith("#"):
                self.links.append(unquote(value[1:]))


def page(out: Path) -> str:
    return (out / "report.html").read_text(encoding="utf-8")


def section(html: str, start: str, end: str) -> str:
    """From ``start`` to the first ``end`` after it."""
    first = html.index(start)
    return html[first : html.index(end, first)]


def fair_section(html: str) -> str:
    return section(html, '<h2 id="fairplay">', '<h2 id="shuffle">')


def assert_every_link_has_a_target(html: str, view: ReportView) -> None:
    anchors = Anchors(html)
    assert len(anchors.ids) == len(set(anchors.ids)), "an id is used twice"
    assert set(anchors.links) <= set(anchors.ids)
    panels = {f"game-{g.game_id}" for g in view.games}
    for s in view.suspicions:
        for e in s.evidence:
            assert not e.game_id or f"game-{e.game_id}" in panels
        assert {f"game-{g}" for g in s.games} <= panels


def test_suspicions_are_listed_by_strength_with_every_account_and_the_evidence(
    ringed: Path,
) -> None:
    view = build_view(ringed)
    expected = with_ring(pair_suspicions())
    assert [s.suspicion_id for s in view.suspicions] == [s.suspicion_id for s in expected]
    assert [s.severity for s in view.suspicions] == [s.severity.value for s in expected]
    ring = next(s for s in view.suspicions if s.check == "fairplay.ring")
    assert ring.players == sorted(["R1", "R2", HOSTILE, "R4"])
    bot = next(s for s in view.suspicions if s.check == "fairplay.bot")
    assert (bot.p, bot.q, bot.effect) == ("< 1e-300", "< 1e-300", "rate ratio: 4.5")
    assert [e.hand_id for e in bot.evidence] == [f"G6-{k:02d}" for k in range(1, 6)]
    assert {e.game_id for e in bot.evidence} == {"G6"}
    assert bot.more_evidence == 7 - EVIDENCE_SHOWN
    chips = next(s for s in view.suspicions if s.check == "fairplay.chip_dumping")
    assert chips.money == "120.00 paid by the first to the second; 0.00 back"

    html = fair_section(page(ringed))
    rows = re.findall(r'<tr id="suspicion-\d+" data-check="([^"]+)"', html)
    assert rows == [s.check for s in expected]
    for s in expected:  # every account, and the message, in the order of strength
        start = html.index(f'data-check="{s.check}"')
        row = html[start : html.index("</tr>", start)]
        for player in s.players:
            assert f"<code>{escape(player)}</code>" in row
        assert f"innocent reading to rule out: {escape(s.benign)}" in row
        assert escape(s.message) in row
        for hand in s.evidence_hands[:EVIDENCE_SHOWN]:
            game = hand.rsplit("-", 1)[0]
            assert f'href="#game-{quote(game)}"><code>{escape(hand)}</code></a>' in row
    assert "money: 120.00 paid by the first to the second; 0.00 back" in html
    assert "+2 more" in html  # the bot's two hands beyond the five shown


def test_every_evidence_link_has_its_game_panel_listing_the_suspicions(ringed: Path) -> None:
    view = build_view(ringed)
    html = page(ringed)
    assert_every_link_has_a_target(html, view)
    games = {g.game_id: g for g in view.games}
    assert view.games[0].game_id == "G1"  # its rule finding
    # a suspicion's row is listed above the panel, not among the game's own findings
    assert [f.check for f in games["G1"].findings] == ["score.points"]
    # the worst games are those of rule findings: a suspicion's first evidence game is
    # not one with findings (b56: the tile counted every such game as a rule break)
    assert [g.game_id for g in view.games[: view.top_games]] == ["G1"]
    assert view.games_with_findings == 1
    raised = with_ring(pair_suspicions())
    assert {s.evidence_games[0] for s in raised} <= set(games)  # each still has its panel
    assert {r.check for r in games["G1"].suspicions} == {
        "fairplay.collusion", "fairplay.co_seating", "fairplay.ring",
    }  # fmt: skip
    g6 = games["G6"]
    assert [r.check for r in g6.suspicions] == ["fairplay.bot"]
    assert g6.suspicions[0].hands == [f"G6-{k:02d}" for k in range(1, 6)]
    g7 = games["G7"]  # evidence only: the shared device's finding is info
    assert [r.check for r in g7.suspicions] == ["fairplay.shared_device"]
    assert (g7.worst, g7.total, g7.findings) == ("none", 0, [])
    assert "G7</b> &middot; points" in html
    assert "evidence for 1 fair-play suspicion</summary>" in html


def test_a_ring_is_drawn_with_a_node_per_account_and_an_edge_per_suspicious_pair(
    ringed: Path,
) -> None:
    view = build_view(ringed)
    (graph,) = view.rings
    ring = next(s for s in view.suspicions if s.check == "fairplay.ring")
    assert (graph.anchor, graph.suspicion) == (ring.ring, ring.anchor)
    assert [n.name for n in graph.nodes] == ring.players
    assert [e.severity for e in graph.edges] == ["minor", "minor", "major"]  # strongest last
    assert sorted(e.title for e in graph.edges) == [
        f"{HOSTILE} and R2: fairplay.soft_drop (minor)",
        f"{HOSTILE} and R4: fairplay.chip_dumping (minor)",
        "R1 and R2: fairplay.co_seating, fairplay.collusion (major)",
    ]
    html = page(ringed)
    svg = section(html, f'<figure class="ring" id="{graph.anchor}">', "</figure>")
    assert svg.count('<circle class="node"') == 4
    assert svg.count('<line class="edge') == 3
    assert svg.count('<line class="edge sev-major"') == 1
    assert graph.links == 3
    assert "&middot;\n      3 suspicious pairs</figcaption>" in svg
    for player in ring.players:
        assert f"<title>{escape(player)}</title>" in svg
    assert f'href="#{graph.anchor}">graph</a>' in html


def test_a_rings_caption_counts_its_links_apart_from_pairs_only_seated_together(
    tmp_path: Path,
) -> None:
    """docs/fairplay.md, `fairplay.ring`: co-seating alone makes no link. The drawing shows
    every pair suspicion among the ring's accounts, so a pair only seated together too
    often is a line too; the caption said "4 suspicious pairs" beside a finding of 3 (a
    blind tester). It gives the links, and the other lines apart."""
    pairs = [*pair_suspicions(), suspicion("fairplay.co_seating", ("R1", "R4"), 0.005, ["G3-01"])]
    out = fair_night(tmp_path / "out", with_ring(pairs))
    write_report(out)
    (graph,) = build_view(out).rings
    assert (len(graph.edges), graph.links) == (4, 3)
    ring = next(s for s in build_view(out).suspicions if s.check == "fairplay.ring")
    assert "joined by 3 suspicious pairs" in ring.message
    svg = section(page(out), f'<figure class="ring" id="{graph.anchor}">', "</figure>")
    assert ("3 suspicious pairs, and 1 more line of pairs only seated together too "
            "often</figcaption>") in svg  # fmt: skip
    assert svg.count('<line class="edge') == 4


@pytest.mark.parametrize("accounts", [3, 7, 12, 20])
def test_a_ring_of_up_to_twenty_accounts_fits_its_picture(tmp_path: Path, accounts: int) -> None:
    names = [f"account-{i:02d}-with-a-long-name" for i in range(accounts)]
    pairs = [
        suspicion("fairplay.collusion", (a, b), 1e-7, [f"G{i}-01"])
        for i, (a, b) in enumerate(itertools.pairwise(names))
    ]
    out = fair_night(tmp_path / "out", with_ring(pairs))
    (graph,) = build_view(out).rings
    assert len(graph.nodes) == accounts
    assert len(graph.edges) == accounts - 1
    points = {(n.x, n.y) for n in graph.nodes}
    assert len(points) == accounts
    for n in graph.nodes:
        assert 0 < n.x < graph.width
        assert 0 < n.y < graph.height
        assert 12 < n.label_y < graph.height
        assert len(n.label) <= 18
        wide = 7 * len(n.label)  # 12 px text
        left = {"start": 0.0, "middle": wide / 2, "end": float(wide)}[n.anchor]
        assert n.label_x - left >= 0
        assert n.label_x - left + wide <= graph.width
    for side in ("start", "end"):
        heights = sorted(n.label_y for n in graph.nodes if n.anchor == side)
        assert all(b - a >= 12 for a, b in itertools.pairwise(heights))
    gaps = sorted(
        ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5
        for i, a in enumerate(graph.nodes)
        for b in graph.nodes[i + 1 :]
    )
    assert gaps[0] > 30  # neighbours stay apart
    assert build_view(out).rings == [graph]  # deterministic


def test_hostile_ids_are_escaped_in_the_fair_play_sections(ringed: Path) -> None:
    html = page(ringed)
    assert HOSTILE not in html
    assert HOSTILE_GAME not in html
    assert html.count("<script>") == 1  # the report's own
    fair = fair_section(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in fair
    assert 'href="#game-G9%22%3Ci%3E"><code>G9&#34;&lt;i&gt;-01</code></a>' in fair
    svg = section(html, '<figure class="ring"', "</figure>")
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;</text>" not in svg  # shortened to fit
    games = section(html, '<h2 id="games">', '<h2 id="fairplay">')
    assert 'id="game-G9&#34;&lt;i&gt;"' in games
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in games  # the suspicions it is evidence for


def test_a_run_that_found_nothing_says_what_each_detector_tested(night: Path) -> None:
    view = build_view(night)
    assert view.fairplay.ran
    assert view.suspicions_total == 0
    html = fair_section(page(night))
    words = " ".join(html.split())
    # four hands: only soft drops had enough to test, the rest too few to find anything
    assert ("No fair-play suspicion was raised by the 1 detector that had enough data to "
            "find something: it tested 14 hypotheses without finding one") in words  # fmt: skip
    assert "5 detectors tested too few to find anything (fairplay.co_seating 7 pairs," in words
    assert "the detectors ran and tested" not in words
    # its sessions files hold no row: shared devices were not looked at, as check.skipped says
    assert ("1 of the 8 detectors did not run (fairplay.shared_device: the log root&#39;s "
            "sessions files hold no row)") in words  # fmt: skip
    detectors = section(html, '<table id="detectors">', "</table>")
    assert detectors.count("<tr><td><code>fairplay.") == 8
    chart = next(c for c in view.charts if c.id == "chart-suspicions")
    assert chart.empty == (
        "No fair-play suspicion was raised by the 1 detector with enough data (14 hypotheses "
        "tested); too few to find anything: fairplay.co_seating, fairplay.collusion, "
        "fairplay.chip_dumping, fairplay.loss_dumping, fairplay.bot."
    )


def detectors_tested(out: Path, tested: dict[str, int]) -> Path:
    """``out`` (a ``fair_night``) with run.json saying each detector of ``tested`` tested
    that many pairs, loss dumping among them, and its report written again."""
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    listed = run["fairplay"]["detectors"]
    listed.append({"check": "fairplay.loss_dumping", "tested": 0, "suspicions": 0})
    for d in listed:
        d["tested"] = tested.get(d["check"], d["tested"])
        d["needs"] = "pair of players with 10 or more hands one of them won"
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    write_report(out)
    return out


def test_a_detector_that_tested_too_few_is_no_all_clear(tmp_path: Path) -> None:
    """A blind tester's honest 3,003-hand night read "No fair-play suspicion was raised: the
    detectors ran and tested 8,714 hypotheses" beside loss dumping's 1 pair tested: a
    detector that tested fewer than 10 had too little data to find anything, and neither
    its row nor the headline counts its silence as an all-clear."""
    tested = {"fairplay.loss_dumping": 1, "fairplay.ring": 0}
    out = detectors_tested(fair_night(tmp_path / "out", []), tested)
    view = build_view(out)
    assert [d.check for d in view.fairplay.few] == ["fairplay.loss_dumping"]
    html = fair_section(page(out))
    status = " ".join(section(html, 'id="fairplay-status"', "</p>").split())
    assert ("No fair-play suspicion was raised by the 6 detectors that had enough data to find "
            "something: they tested 615 hypotheses without finding one") in status  # fmt: skip
    assert ("fairplay.loss_dumping tested only 1 pair (a detector tests only the pairs or "
            "accounts with enough data for its test ever to report one, and fewer than 10 is "
            "too few to find anything): its silence says nothing of the rest of the night."
            ) in status  # fmt: skip
    assert "the detectors ran and tested" not in status
    detectors = section(html, '<table id="detectors">', "</table>")
    row = " ".join(detectors.split("<code>fairplay.loss_dumping</code>")[1].split("</tr>")[0]
                   .split())  # fmt: skip
    assert ("too few to find anything: it tests each pair of players with 10 or more hands one "
            "of them won, with enough data for its test ever to report one, and the night has "
            "only 1 pair") in row  # fmt: skip
    for d in view.fairplay.detectors:  # the others (100 to 106 tested) say nothing of it
        if d.check != "fairplay.loss_dumping":
            assert "too few" not in detectors.split(f"<code>{d.check}</code>")[1].split("</tr>")[0]
    chart = next(c for c in view.charts if c.id == "chart-suspicions")
    assert chart.empty == ("No fair-play suspicion was raised by the 6 detectors with enough "
                           "data (615 hypotheses tested); too few to find anything: "
                           "fairplay.loss_dumping.")  # fmt: skip


def test_a_detector_that_found_something_from_few_is_not_called_too_few() -> None:
    """A blind tester's planted dumper was found `major` by chip dumping from 6 pairs tested,
    and the page called that detector "too few to find anything ... its silence says
    nothing": it was not silent. Too few is said only of a detector that raised nothing."""
    needs = "pair of players with 10 or more hands one of them won"
    silent = Detector("fairplay.chip_dumping", 6, 0, needs)
    found = Detector("fairplay.chip_dumping", 6, 1, needs)
    assert silent.few
    assert silent.few_note.startswith("too few to find anything")
    assert not found.few
    assert found.few_note == ""


def test_detectors_that_all_had_enough_data_give_the_all_clear(tmp_path: Path) -> None:
    """At 10 hypotheses a detector has enough; shared devices and rings test every case
    the night holds, so few of them (or none) is never too little data."""
    tested = {"fairplay.loss_dumping": 10, "fairplay.shared_device": 2, "fairplay.ring": 0}
    out = detectors_tested(fair_night(tmp_path / "out", []), tested)
    assert build_view(out).fairplay.few == []
    status = " ".join(section(fair_section(page(out)), 'id="fairplay-status"', "</p>").split())
    assert status.endswith("No fair-play suspicion was raised: the detectors ran and tested "
                           "526 hypotheses without finding one that stands out after "
                           "correction for many tests.")  # fmt: skip
    assert "too few" not in fair_section(page(out))


def test_no_detector_with_enough_data_is_no_all_clear_at_all(tmp_path: Path) -> None:
    tested = {f"fairplay.{c}": 3 for c in ("co_seating", "collusion", "soft_drop",
                                           "chip_dumping", "bot", "loss_dumping")}  # fmt: skip
    tested |= {"fairplay.shared_device": 0, "fairplay.ring": 0}
    out = detectors_tested(fair_night(tmp_path / "out", []), tested)
    status = " ".join(section(fair_section(page(out)), 'id="fairplay-status"', "</p>").split())
    assert ("No fair-play suspicion was raised, but no detector had enough data to find "
            "anything: this report says nothing of collusion, chip dumping or bots on this "
            "night.") in status  # fmt: skip
    assert "6 detectors tested too few to find anything" in status
    assert "without finding one" not in status


def test_a_no_fairplay_run_says_not_run_and_never_none_found(unfair_night: Path) -> None:
    view = build_view(unfair_night)
    assert not view.fairplay.ran
    assert view.fairplay.why == "--no-fairplay"
    html = page(unfair_night)
    assert "Fair-play detectors: not run</b> (--no-fairplay)" in fair_section(html)
    assert "<code>rummy-audit fairplay logs --out out</code>" in fair_section(html)
    assert "No fair-play suspicion" not in html
    assert "none found" not in html.lower()
    chart = section(html, '<figure id="chart-suspicions">', "</figure>")
    assert "Fair-play detectors: not run (--no-fairplay)." in chart
    assert '<div class="tile" id="tile-fairplay"><b>not run</b>' in html
    assert 'href="suspicions.parquet"' not in html
    assert not (unfair_night / "suspicions.parquet").exists()


@pytest.mark.parametrize("status", ["absent", "not run"])
def test_a_folder_whose_run_json_does_not_say_they_ran_says_not_run(
    tmp_path: Path, status: str
) -> None:
    out = fair_night(tmp_path / "out", pair_suspicions(), status=status)  # type: ignore[arg-type]
    if status == "absent":  # an older run, which wrote a suspicions.parquet all the same
        fair_night(tmp_path / "stale", pair_suspicions())
        (tmp_path / "stale" / "suspicions.parquet").rename(out / "suspicions.parquet")
    write_report(out)
    html = page(out)
    view = build_view(out)
    assert not view.fairplay.ran
    assert view.suspicions == []
    assert view.rings == []
    assert "Fair-play detectors: not run</b>" in fair_section(html)
    assert "No fair-play suspicion" not in html
    # nor does the games heading speak of fair-play evidence (a blind tester)
    assert '<h2 id="games">Games with discrepancies</h2>' in html
    assert "evidence of fair-play" not in html
    if status == "absent":
        assert "run.json has no &#34;fairplay&#34; entry" in html


def test_the_shuffle_section_says_the_statistics_were_not_run(ringed: Path) -> None:
    """The hand-made folder's run.json has no ``commitments`` (as an older one): the page
    says it does not know which hands carried one, and never that they were checked."""
    html = section(page(ringed), '<h2 id="shuffle">', '<h2 id="quarantine">')
    words = " ".join(html.split())
    assert "Shuffle statistics: not run." in html
    assert ("This run.json does not say how many hands carried a provably-fair commitment "
            "(an older rummy-audit wrote it); <code>deck.commitment</code> (0 findings) "
            "checked those that did.") in words  # fmt: skip
    assert "commitments were checked" not in words
    assert "No shuffle statistics in this run" not in html


def test_a_real_night_with_planted_collusion(planted: Path) -> None:
    """The simulator's planted pairs and rings, replayed: the report lists what
    suspicions.parquet holds, in its order, and every link finds its panel."""
    view = build_view(planted)
    html = page(planted)
    table = pq.read_table(planted / "suspicions.parquet").to_pylist()
    assert table, "the planted anomalies raised nothing"
    assert [s.suspicion_id for s in view.suspicions] == [r["suspicion_id"] for r in table]
    assert view.suspicions_total == len(table)
    assert_every_link_has_a_target(html, view)
    listed = [s for s in view.suspicions if s.check == "fairplay.ring"]
    assert [g.players for g in view.rings] == [s.players for s in listed]
    for graph in view.rings:
        pairs = {
            tuple(sorted(r["players"])) for r in table
            if len(r["players"]) == 2 and set(r["players"]) <= set(graph.players)
        }  # fmt: skip
        assert len(graph.edges) == len(pairs) >= len(graph.players) - 1
    for s in view.suspicions:
        assert all(e.game_id for e in s.evidence)  # hands.parquet knows every hand


def test_a_million_findings_and_thousands_of_suspicions_keep_the_page_small(
    tmp_path: Path,
) -> None:
    out = big_night(tmp_path / "out", suspicions=5_000)
    write_report(out)
    html = page(out)
    view = build_view(out)
    assert view.suspicions_total == 5_000
    assert len(view.suspicions) == TOP_SUSPICIONS
    assert f"The {TOP_SUSPICIONS} strongest of 5000 suspicions are listed here" in html
    assert '<a href="suspicions.parquet">suspicions.parquet</a>' in html
    assert [s.rank for s in view.suspicions] == list(range(1, TOP_SUSPICIONS + 1))
    evidence = {e.game_id for s in view.suspicions for e in s.evidence}
    assert len(evidence) == TOP_SUSPICIONS * EVIDENCE_SHOWN
    assert evidence <= {g.game_id for g in view.games}
    assert len(view.games) <= view.top_games + len(evidence)
    assert_every_link_has_a_target(html, view)
    assert len(html.encode()) < 4_000_000


def escape(text: str) -> str:
    """As Jinja escapes text."""
    return str(markup(text))


def quote(text: str) -> str:
    """As Jinja's urlencode filter writes a link."""
    return url_quote(text, safe="/")


def test_the_fair_play_report_matches_its_golden_file(ringed: Path) -> None:
    compare(scrub(page(ringed)), "ringed-night.html", golden_dir=GOLDEN, actual_dir=ACTUAL)


def test_a_run_whose_suspicions_file_is_gone_says_so(tmp_path: Path) -> None:
    out = fair_night(tmp_path / "out", pair_suspicions())
    (out / "suspicions.parquet").unlink()
    write_report(out)
    words = " ".join(fair_section(page(out)).split())
    view = build_view(out)
    assert view.fairplay.missing
    assert view.suspicions == []
    assert "raised 6 suspicions, but suspicions.parquet is missing from this folder" in words
    assert "No fair-play suspicion" not in page(out)


def _with_own_devices(night: Path, tmp_path: Path) -> Path:
    """The small night replayed again with a sessions row for every seat, each player on a
    device and address of their own (the night's sessions files hold no row): its output."""
    logs = tmp_path / "logs"
    shutil.copytree(night.parent / "logs", logs)
    files = sorted((logs / "sessions").rglob("*.parquet"))
    schema = pq.read_schema(files[0])
    rows = []
    for hand in pq.read_table(logs / "hands").to_pylist():
        for seat in hand["seats"]:
            player = seat["player_id"]
            rows.append({"player_id": player, "game_id": hand["game_id"], "client": "app",
                         "ip": f"ip-{player}", "device_id": f"dev-{player}",
                         "joined_at": hand["started_at"], "left_at": hand["ended_at"]})
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), files[0])
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, rng=False)
    return out


def test_a_detector_that_tested_nothing_says_what_it_needed(night: Path, tmp_path: Path) -> None:
    """A detector with nothing to test (shared devices, where no device or address is
    shared) says what one of its hypotheses is beside its 0 in the report's detector table
    (it showed 0 tested, 0 found and no reason: a blind tester), from run.json's `needs`.
    (A sessions table holding no row is no table to test: skipped, below.)"""
    night = _with_own_devices(night, tmp_path)
    run = json.loads((night / "run.json").read_text(encoding="utf-8"))
    shared = next(d for d in run["fairplay"]["detectors"]
                  if d["check"] == "fairplay.shared_device")  # fmt: skip
    assert (shared["status"], shared["tested"]) == ("run", 0)
    assert shared["needs"] == "device_id or ip that 2 to 50 accounts share in the sessions"
    detectors = section(fair_section(page(night)), '<table id="detectors">', "</table>")
    row = detectors.split("<code>fairplay.shared_device</code>")[1].split("</tr>")[0]
    assert "nothing to test: it tests each device_id or ip that 2 to 50 accounts share" in row
    tested = [d for d in run["fairplay"]["detectors"] if d["tested"]]
    assert tested  # the others tested something, and say nothing of it
    for d in tested:
        other = detectors.split(f"<code>{d['check']}</code>")[1].split("</tr>")[0]
        assert "nothing to test" not in other


def test_a_detector_whose_table_is_missing_is_skipped_not_tested_zero(
    night: Path, tmp_path: Path
) -> None:
    """Without a sessions table the shared-device detector cannot run: run.json and the
    report's detector table say it was skipped and why, never that it tested 0 and found
    nothing to test (a blind tester's night said "nothing to test ... the night has none",
    tested 0, while its check.skipped finding said the table was missing)."""
    logs = tmp_path / "logs"
    shutil.copytree(night.parent / "logs", logs)
    shutil.rmtree(logs / "sessions")
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, rng=False)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    shared = next(d for d in run["fairplay"]["detectors"]
                  if d["check"] == "fairplay.shared_device")  # fmt: skip
    assert shared["status"] == "skipped"
    assert shared["why"] == "the log root has no sessions table"
    assert "tested" not in shared
    detectors = section(fair_section(page(out)), '<table id="detectors">', "</table>")
    row = detectors.split("<code>fairplay.shared_device</code>")[1].split("</tr>")[0]
    assert "skipped (not run: the log root has no sessions table)" in row
    assert "nothing to test" not in row
    assert ">0<" not in row
    others = [d for d in run["fairplay"]["detectors"] if d["check"] != "fairplay.shared_device"]
    assert {d["status"] for d in others} == {"run"}
    # the headline says so too, not only the table (it said the detectors ran: a blind tester)
    status = " ".join(section(fair_section(page(out)), 'id="fairplay-status"', "</p>").split())
    total = len(run["fairplay"]["detectors"])
    assert (f"1 of the {total} detectors did not run (fairplay.shared_device: the log root has "
            f"no sessions table), so the night was looked at by the other {total - 1} only."
            ) in status  # fmt: skip


def test_a_detector_that_read_part_of_its_table_says_so_never_an_all_clear(
    night: Path, tmp_path: Path
) -> None:
    """schemas/output.md, run.json `fairplay`: a detector that ran on part of a table it
    rests on (a sessions file that could not be read beside others that could) says so in
    run.json (`partial`) and in the report's headline and detector table; its silence is no
    all-clear. Until 2026-12-06 its row said "nothing to test ... the night has none" of a
    night half of whose sessions it never read (a blind tester)."""
    logs = tmp_path / "logs"
    shutil.copytree(_with_own_devices(night, tmp_path / "own").parent / "logs", logs)
    bad = logs / "sessions" / "bad.parquet"
    bad.write_bytes(b"PAR1 not parquet")
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, rng=False)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    shared = next(d for d in run["fairplay"]["detectors"]
                  if d["check"] == "fairplay.shared_device")  # fmt: skip
    assert shared["status"] == "run"
    assert shared["partial"] == "sessions/bad.parquet could not be read"
    assert all("partial" not in d for d in run["fairplay"]["detectors"] if d is not shared)
    detectors = section(fair_section(page(out)), '<table id="detectors">', "</table>")
    row = detectors.split("<code>fairplay.shared_device</code>")[1].split("</tr>")[0]
    assert "ran on part of the data: sessions/bad.parquet could not be read" in row
    assert "nothing to test" not in row
    status = " ".join(section(fair_section(page(out)), 'id="fairplay-status"', "</p>").split())
    assert ("fairplay.shared_device ran on part of the night&#39;s data only "
            "(fairplay.shared_device: sessions/bad.parquet could not be read)") in status
    assert "the detectors ran and tested" not in status
