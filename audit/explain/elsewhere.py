"""What the view of one pool hand says that rests on the game's findings elsewhere, not
on the hand's own: a score after it off the rules' by an error found before it
(``Standing.off``), a hand dealt after the rules ended the game (``Standing.dealt_on``),
a player who played it while out by the rules (``standing.played_out``), and the hand's
verdict, which does not call the record right where its players' boxes say otherwise.
Until 2026-12-06 a hand with no findings of its own said "the record agrees with the
rules: no findings" above a score that "differs" by a rebuy's wrong new score, and above a
player who played it while out (a blind tester)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from audit.explain.standing import played_out
from audit.findings import Finding, worst_name
from audit.games.pool import judge_pool
from audit.records import Format, Hand, and_words
from audit.unit import UnitAudit

_MOVING = ("pool.", "score.", "drop.", "declare.")
"""The checks whose findings move or end a player's running score: the pool check's
rebuys, scores and eliminations, a hand's points, drops and verdict."""


@dataclass(frozen=True)
class Elsewhere:
    """Of one hand, by player: ``off``, the rules' score after it and why, where the
    record's is off it with no finding here (``Standing.off``); ``dealt_on``, why their
    score after it is not judged (``Standing.dealt_on``); ``out``, that they played it while
    out by the rules, in a game going on by them; and ``but``, what the hand's verdict says
    of those beside its own findings (empty: nothing)."""

    off: Mapping[str, str] = field(default_factory=dict)
    dealt_on: Mapping[str, str] = field(default_factory=dict)
    out: Mapping[str, str] = field(default_factory=dict)
    but: str = ""


def elsewhere(unit: UnitAudit, hand: Hand) -> Elsewhere:
    """What the view of ``hand`` says that rests on the game's findings elsewhere; nothing
    for a hand of another format, or one the pool check has no table after."""
    game, rules = unit.game, unit.rules
    if game is None or rules is None or not Format(game.format).is_pool:
        return Elsewhere()
    hands = [item.hand for item in unit.hands]
    judged = judge_pool(game, hands, rules, expected=unit.rules_say())
    standing = judged.standings.get(hand.hand_no)
    if standing is None:
        return Elsewhere()
    found = [*unit.findings, *(f for item in unit.hands if item.audit for f in item.audit.findings)]
    number = {h.hand_id: h.hand_no for h in hands}
    out, buts = {}, []
    for player, since in played_out(judged, hands, hand).items():
        named = _named(found, number, {player}, since, game.game_id)
        if not standing.dealt_on:  # a hand dealt on says it already (``Standing.dealt_on``)
            out[player] = (f"by the rules {player} was out after hand {since}"
                           + (f" ({named})" if named else "") + f", so hand "
                           f"{hand.hand_no} is one {player} played while out")  # fmt: skip
        buts.append(f"{player} played it while out by the rules, out after hand {since}"
                    + (f" ({named})" if named else ""))  # fmt: skip
    scored = {r.player for r in hand.results if r.score_after is not None}
    off = [p for p in hand.seats if p in standing.off and p in scored and p not in out]
    if off:
        named = _named(found, number, set(off), hand.hand_no - 1, game.game_id) or (
            "an error before it (see the game's findings)")
        whose = f"{off[0]}'s score after it differs" if len(off) == 1 else (
            f"the scores after it of {and_words(off)} differ")  # fmt: skip
        buts.insert(0, f"{whose} from the rules', carried forward from {named}")
    return Elsewhere(standing.off, standing.dealt_on, out, "; ".join(buts))


def _named(
    found: Sequence[Finding], number: Mapping[str, int], players: set[str], latest: int,
    game: str,
) -> str:
    """The findings that moved or ended the running score of ``players`` at the latest
    hand up to hand ``latest`` (``_MOVING``), said with where they are: ``the pool.rebuy
    finding of game G1, on hand G1-H3``; empty where there is none."""
    on = [(number[f.hand_id], f) for f in found if f.player_id in players and f.hand_id
          and f.hand_id in number and number[f.hand_id] <= latest
          and f.check.startswith(_MOVING)]  # fmt: skip
    if not on:
        return ""
    at = max(no for no, _ in on)
    these = [f for no, f in on if no == at]
    checks = list(dict.fromkeys(f.check for f in these))
    many = "s" if len(checks) > 1 else ""
    return f"the {and_words(checks)} finding{many} of game {game}, on hand {these[0].hand_id}"


def hand_verdict(findings: Sequence[Finding], skipped: Sequence[str] = (), but: str = "") -> str:
    """The hand's verdict; a hand of a game some checks of which were not run is not said
    to agree with the rules (a skipped check is never silently passed), nor one whose
    players' scores or seats rest on a finding elsewhere (``but``)."""
    not_run = "some checks of its game were not run (see the findings)"
    if not findings:
        if but:
            return ("the hand's own record agrees with the rules (no findings of its own), "
                    f"but {but}" + (f"; {not_run}" if skipped else ""))  # fmt: skip
        return f"no findings, but {not_run}" if skipped else (
            "the record agrees with the rules: no findings")  # fmt: skip
    many = "s" if len(findings) > 1 else ""
    return f"{len(findings)} finding{many}, worst {worst_name(findings)}" + (
        f"; {not_run}" if skipped else "")  # fmt: skip
