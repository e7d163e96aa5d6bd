"""The ring's finding names every account involved, in what the null model expects as
in what was seen (schemas/output.md, "Fair-play findings")."""

from __future__ import annotations

from dataclasses import replace

from audit.fairplay.rings import rings
from audit.fairplay.suspicion import Suspicion
from audit.findings import Severity, Thresholds


def _pair(check: str, a: str, b: str, q: float, tests: int = 40) -> Suspicion:
    return Suspicion(
        check=check, severity=Severity.MAJOR, players=(a, b), statistic="a test",
        expected=1.0, observed=9.0, effect=9.0, effect_name="rate ratio", p_value=q / 10,
        q_value=q, tests=tests, evidence_hands=(f"H-{a}-{b}",), evidence_games=(f"G-{a}-{b}",),
        benign="friends", message=f"{a} and {b}.", expected_text=f"{a} and {b}: 1",
        recorded_text=f"{a} and {b}: 9", pattern="a pattern",
    )  # fmt: skip


def test_the_ring_names_every_account_in_expected_and_recorded() -> None:
    pairs = [
        _pair("fairplay.collusion", "P0167", "P0168", 1e-6),
        _pair("fairplay.chip_dumping", "P0169", "P0168", 1e-5),
    ]
    (ring,) = rings(pairs, Thresholds())
    finding = ring.to_finding()
    assert ring.suspicion_id == "fairplay.ring:P0167>P0168>P0169"
    for account in ("P0167", "P0168", "P0169"):
        assert account in finding.expected
        assert account in finding.recorded
    assert finding.expected == "P0167, P0168, P0169: joined by no suspicious pair"
    assert finding.recorded.startswith("P0167, P0168, P0169: P0167-P0168 (collusion)")


def test_a_rings_tests_are_its_weakest_needed_links_correction() -> None:
    """schemas/output.md, `tests`: "hypotheses in that correction". A ring's q-value is the
    weakest link it needs (here both are), so its tests are that link's detector's (it gave
    its number of links, 2, beside run.json's one ring tested: a blind tester)."""
    pairs = [
        _pair("fairplay.collusion", "P1", "P2", 1e-6, tests=500),
        _pair("fairplay.chip_dumping", "P3", "P2", 1e-5, tests=12),
    ]
    (ring,) = rings(pairs, Thresholds())
    assert (ring.q_value, ring.tests) == (1e-5, 12)
    assert ring.observed == 2.0  # its links


def test_a_redundant_weak_link_does_not_make_the_ring_weaker() -> None:
    """docs/fairplay.md: a ring is as strong as the weakest link it needs to hold together.
    Two major feeding links already join all three accounts, so a weak chip-dumping link
    closing the triangle is supporting evidence, not the ring's strength (a blind tester's
    planted ring came out `info`, at the weak link's q, beside two rings with only their
    two feeding links that came out `major`)."""
    pairs = [
        _pair("fairplay.collusion", "P0271", "P0272", 2.8e-58, tests=900),
        _pair("fairplay.collusion", "P0272", "P0273", 2.2e-78, tests=900),
        _pair("fairplay.chip_dumping", "P0271", "P0273", 0.0093, tests=35),
    ]
    (ring,) = rings(pairs, Thresholds())
    (without,) = rings(pairs[:2], Thresholds())
    assert (ring.severity, ring.q_value, ring.tests) == (Severity.MAJOR, 2.8e-58, 900)
    assert ring.p_value == pairs[0].p_value  # p, q and tests all the needed link's
    assert (without.severity, without.q_value, without.tests) == (Severity.MAJOR, 2.8e-58, 900)
    assert ring.observed == 3.0  # every link is still listed, the weak one too
    assert "P0271-P0273 (chip_dumping)" in ring.message
    assert "H-P0271-P0273" in ring.evidence_hands
    assert ring.message.endswith(
        "(the weakest link needed to join them all, P0271-P0272, has q = 2.8e-58; "
        "P0271-P0273 is weaker but not needed to join them)."
    )


def test_a_ring_is_no_more_severe_than_its_needed_links_suspicion() -> None:
    """docs/fairplay.md, `fairplay.ring`: chip dumping holds a count of wins that no bigger
    losses bear out at `info`, whatever its q-value; a ring that needs that link is `info`
    too, where its q-value alone would make it `major`."""
    pairs = [
        _pair("fairplay.collusion", "P1", "P2", 1e-9),
        replace(_pair("fairplay.chip_dumping", "P3", "P2", 1e-7), severity=Severity.INFO),
    ]
    (ring,) = rings(pairs, Thresholds())
    assert (ring.severity, ring.q_value) == (Severity.INFO, 1e-7)
    (whole,) = rings([pairs[0], replace(pairs[1], severity=Severity.MAJOR)], Thresholds())
    assert whole.severity is Severity.MAJOR


def test_a_chain_whose_only_way_through_is_a_weak_link_stays_weak() -> None:
    """The weak link is needed when no stronger path joins its two sides: P4 hangs off the
    strong triangle by one weak link only, so the ring of four is that link's strength, and
    its tests that link's detector's."""
    pairs = [
        _pair("fairplay.collusion", "P1", "P2", 1e-40, tests=900),
        _pair("fairplay.collusion", "P2", "P3", 1e-30, tests=900),
        _pair("fairplay.soft_drop", "P1", "P3", 1e-20, tests=300),
        _pair("fairplay.chip_dumping", "P3", "P4", 0.005, tests=35),
    ]
    (ring,) = rings(pairs, Thresholds())
    assert (ring.severity, ring.q_value, ring.tests) == (Severity.INFO, 0.005, 35)
    assert ring.message.endswith(
        "(the weakest link needed to join them all, P3-P4, has q = 0.005)."
    )
