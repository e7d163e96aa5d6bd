"""``hand.time`` of a hand's events: their ``ts``, in ``seq`` order, never go backwards.

The contract's ``events.seq`` is strictly increasing inside a hand and ``events.ts`` is when
the server accepted the action (log-format.md), so an event stamped earlier than the one
before it says the server's clock or the events' order is wrong. Until 2026-12-07 nothing
read the events' times (a blind tester's hand, its event 1 stamped five minutes before its
event 0, was verified). The replay does not use them: the hand is still replayed, and the
one minor ``hand.time`` joins its findings (``Hand.clock``, ``clock_finding``). Equal
times are kept (two actions accepted in one millisecond); times outside the hand's
``started_at`` and ``ended_at`` are not judged (a writer may stamp the hand's row
otherwise).

``backwards`` finds the hands set-wise over a bucket's events (``audit.logs.bucket``), a few
vector operations whatever the number of events; only the hands it finds are seen in Python.
"""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl

from audit.errors import one_line
from audit.findings import Finding, Severity, contract, finding
from audit.records import Backwards, Hand

_ACTION_WORDS = {
    "draw_stock": "draw from the stock",
    "draw_discard": "draw from the discard pile",
    "declare": "declaration",
    "lay_off": "lay-off",
    "swap_joker": "joker swap",
}
"""An action in the words of a message; any other is its name, its ``_`` a space."""


def backwards(events: pl.DataFrame) -> dict[int, Backwards]:
    """Per hand ``_h`` of ``events`` sorted by (hand, seq), with their times in ``_t``
    (epoch milliseconds, truncated by the staging): its first event whose time is earlier
    than the time of the event before it, when there is one. Every row counts, as for
    ``seq_ok``: a hand with a bad row is quarantined, and says nothing more."""
    same = pl.col("_h") == pl.col("_h").shift(1)
    earlier = pl.col("_t") < pl.col("_t").shift(1)
    at = events.select(at=(same & earlier).arg_true())["at"]
    if at.is_empty():
        return {}
    now, before = events[at], events[at - 1]
    rows = pl.DataFrame({"_h": now["_h"], "seq": now["seq"], "ts": now["_t"],
                         "before_seq": before["seq"], "before_ts": before["_t"]})  # fmt: skip
    first = rows.unique("_h", keep="first", maintain_order=True)
    return {h: Backwards(*rest) for h, *rest in first.iter_rows()}


def clock_finding(hand: Hand, back: Backwards) -> Finding:
    """The one minor ``hand.time`` of a hand whose events' times go backwards at
    ``back``, on its event there, naming the action and both times."""
    event = next((e for e in hand.events if e.seq == back.seq), None)
    what = ""
    if event is not None:
        who = f"{one_line(event.player)}'s" if event.player is not None else "the server's"
        what = f" ({who} {_ACTION_WORDS.get(event.action, event.action.replace('_', ' '))})"
    at, before = _times(back.ts, back.before_ts)
    return finding(
        "hand.time",
        game_id=hand.game_id,
        hand_id=hand.hand_id,
        player_id=event.player if event is not None else None,
        seq=back.seq,
        message=f"Event {back.seq} of hand {one_line(hand.hand_id)}{what} is stamped {at} UTC, "
        f"before event {back.before_seq} at {before} UTC: the server's clock or the events' "
        "order is wrong.",
        expected=f"at or after {before} UTC",
        recorded=f"{at} UTC",
        rule=contract("events.ts"),
        severity=Severity.MINOR,
    )


def _times(*millis: int) -> list[str]:
    """Epoch milliseconds as UTC times in words, to the second, or to the millisecond when
    one of them is not on a whole second (two times a second apart read apart).

    >>> _times(1795980600000, 1795980300000)
    ['2026-11-29 19:30:00', '2026-11-29 19:25:00']
    >>> _times(1795980600000, 1795980600250)
    ['2026-11-29 19:30:00.000', '2026-11-29 19:30:00.250']
    """
    whole = all(ms % 1000 == 0 for ms in millis)
    out = []
    for ms in millis:
        words = datetime.fromtimestamp(ms // 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")
        out.append(words if whole else f"{words}.{ms % 1000:03d}")
    return out
