"""The ring's finding names every account involved, in what the null model expects as
in what was seen (schemas/output.md, "Fair-play findings")."""

from __future__ import annotations

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
    assert finding.expected == "P0167, P0168, P0169: 0 suspicious pairs among them, so no ring"
    assert finding.recorded.startswith("P0167, P0168, P0169: P0167-P0168 (collusion)")


def test_a_rings_tests_are_its_weakest_links_correction() -> None:
    """schemas/output.md, `tests`: "hypotheses in that correction". A ring's q-value is its
    weakest link's, so its tests are that link's detector's (it gave its number of links,
    2, beside run.json's one ring tested: a blind tester)."""
    pairs = [
        _pair("fairplay.collusion", "P1", "P2", 1e-6, tests=500),
        _pair("fairplay.chip_dumping", "P3", "P2", 1e-5, tests=12),
    ]
    (ring,) = rings(pairs, Thresholds())
    assert (ring.q_value, ring.tests) == (1e-5, 12)
    assert ring.observed == 2.0  # its links
