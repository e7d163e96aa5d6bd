"""A hand whose replay may rest on events rows that could not be read: not judged.

schemas/README.md ("Bad input"): what rests on a row that could not be read is not judged
without it. Events rows are lost two ways: in an events file refused tonight (``lost``,
the files whose hands are not known) or with a null ``hand_id`` (``unnamed``: the row is
quarantined, and names no hand). Nothing in the contract tells a hand that lacks such a
row, since rows may be missing by right: a loser with no ``show`` row was arranged by the
server (log-format.md, ``show``). So a hand is quarantined, not judged, when its replay
could rest on a lost row:

- its events stop before the hand ends (the rest may be the lost rows): a ``turn.order``
  alarm about rows not read, otherwise;
- a finding names a loser the rules charge by the server's arrangement, with no ``show``
  row (their show may be a lost row): a ``score.points`` alarm of "charged 80 where the
  cards make 0", otherwise.

A blind tester (b107) moved a deals game's show rows into a truncated file, and nulled
their ``hand_id`` in another copy: three hands were ``score.points`` alarms and the game a
``deals.chips`` one, beside the ``input.file`` or ``input.row`` that explained them; a
last drop's ``hand_id`` nulled was a ``turn.order`` alarm. A hand whose findings name no
such loser is judged on the rows read, as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from audit.errors import one_line
from audit.findings import may_be_in
from audit.records import Hand, Unnamed, unnamed_row
from audit.replay.outcome import HandAudit


def unread(hand: Hand, audit: HandAudit, lost: Sequence[str], unnamed: Unnamed) -> str | None:
    """Why ``hand``'s replay may rest on events rows not read (the module doc), as its
    quarantine reason, or None. ``lost``: the events files refused tonight."""
    name = f"hand {one_line(hand.hand_id)}"
    if not audit.replay.ended:
        last = hand.events[-1].seq if hand.events else None
        stop = f"{name}'s events stop at seq {last} before the hand ends"
        if lost:
            return stop + may_be_in(lost)
        row = unnamed_row(unnamed, hand.seats)
        return f"{stop}, and {row} has a null hand_id: it may be one of them" if row else None
    unshown = _unshown(audit)
    if not unshown or not (lost or unnamed):
        return None
    named = sorted({p for f in audit.findings if (p := f.player_id) is not None and p in unshown})
    row = unnamed_row(unnamed, named)
    if not named or (not lost and row is None):
        return None
    who = ", ".join(named)
    said = (f"{name}'s findings charge {who} by the server's arrangement, with no show row "
            f"of theirs")  # fmt: skip
    if lost:
        return said + may_be_in(lost)
    return f"{said}, and {row} has a null hand_id: it may be the missing show"


def _unshown(audit: HandAudit) -> set[str]:
    """The losers of a hand ended by a valid declaration that have no ``show`` row: the
    rules charge their cards as the server arranges them."""
    seats = audit.replay.seats
    return {player for player, expected in audit.expected.items()
            if expected.outcome == "lost" and player in seats
            and seats[player].shown is None}  # fmt: skip

