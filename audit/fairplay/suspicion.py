"""A suspicion: the evidence a fair-play detector found against one or more accounts.

Evidence, not an alarm: every suspicion names all the accounts involved, the statistic
and its null model, what the null model expected and what was seen, an effect size, the
p-value and its Benjamini-Hochberg q-value over every hypothesis the detector tested, the
hands that show it best, and the benign reading an investigator must rule out. One row of
suspicions.parquet each, and one ``fairplay.*`` finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from audit.findings import Finding, Severity, finding

RULE_SOURCE = "docs/fairplay.md; 004_: \"All games are monitored using automated systems\""


@dataclass(frozen=True, slots=True)
class Suspicion:
    check: str
    severity: Severity
    players: tuple[str, ...]
    """Every account involved; for a pair, the one who acts first (the feeder, the one who
    drops or dumps) and then the one who gains."""
    statistic: str
    """The test, in words."""
    expected: float
    """What the null model expects of the count the test is on."""
    observed: float
    effect: float
    """The effect size: observed over expected rate, unless ``effect_name`` says otherwise."""
    effect_name: str
    p_value: float
    q_value: float
    tests: int
    """Hypotheses in the detector's correction (those that could be reported at all)."""
    evidence_hands: tuple[str, ...]
    evidence_games: tuple[str, ...]
    benign: str
    """The innocent reading to rule out."""
    message: str
    """One plain sentence: who, what was seen against what was expected, and how sure."""
    expected_text: str
    recorded_text: str
    pattern: str
    """The pattern the detector looks for (the rule column of the finding)."""
    money: str | None = None
    """Money that moved between the accounts, when the detector measures it (exact text)."""

    @property
    def suspicion_id(self) -> str:
        """Stable: the check and the accounts, e.g. ``fairplay.collusion:P1>P2``."""
        return f"{self.check}:{'>'.join(self.players)}"

    def sort_key(self) -> tuple[int, float, str]:
        return (-self.severity.rank, self.q_value, self.suspicion_id)

    def to_finding(self) -> Finding:
        return finding(
            self.check,
            severity=self.severity,
            game_id=self.evidence_games[0] if self.evidence_games else "",
            hand_id=self.evidence_hands[0] if self.evidence_hands else None,
            player_id=self.players[0],
            expected=self.expected_text,
            recorded=self.recorded_text,
            message=self.message,
            rule=f"{self.check}: {self.pattern} ({RULE_SOURCE})",
        )


def p_text(p: float) -> str:
    """A probability for people: two significant figures, scientific when small.

    >>> p_text(0.0123), p_text(3.2e-9), p_text(0.0), p_text(1.0)
    ('0.012', '3.2e-09', '< 1e-300', '1')
    """
    if p <= 0.0:
        return "< 1e-300"
    if p >= 0.001:
        return f"{p:.2g}"
    return f"{p:.1e}"


def p_is(name: str, p: float) -> str:
    """A probability in a sentence: ``p = 0.012``, or ``p < 1e-300`` (not ``p = < 1e-300``).

    >>> p_is("p", 0.0123), p_is("q", 0.0)
    ('p = 0.012', 'q < 1e-300')
    """
    text = p_text(p)
    return f"{name} {text}" if text.startswith("<") else f"{name} = {text}"


def how_sure(p: float, q: float, tests: int) -> str:
    """The clause every message ends with: the p-value and the corrected q-value."""
    hypotheses = "hypothesis" if tests == 1 else "hypotheses"
    return (
        f"{p_is('p', p)}, {p_is('q', q)} after Benjamini-Hochberg over {tests:,} "
        f"{hypotheses} tested"
    )
