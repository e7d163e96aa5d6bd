"""When a hand or a game started and ended, in words a support agent can read out (UTC).

The times are not in the replay's records (they stay in the columnar engines):
``audit.explain.find`` reads them for the hand or the game explained, and the views put
them into words here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from audit.records import when


@dataclass(frozen=True)
class Clock:
    """When something started and ended, UTC; ``None`` when the log does not say (a game
    still running has no end)."""

    started: datetime | None = None
    ended: datetime | None = None

    @classmethod
    def from_ms(cls, started: int | None, ended: int | None) -> Clock:
        """From milliseconds since the epoch, as DuckDB's ``epoch_ms`` gives them.

        >>> Clock.from_ms(1_795_975_200_000, None).started
        datetime.datetime(2026, 11, 29, 18, 0, tzinfo=datetime.timezone.utc)
        """
        return cls(_at(started), _at(ended))


UNKNOWN = Clock()


def _at(ms: int | None) -> datetime | None:
    return None if ms is None else datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)


def duration(clock: Clock) -> str:
    """How long it took: ``1 h 5 min``, ``4 min 12 s``, ``42 s``; empty when not known.

    >>> start = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    >>> duration(Clock(start, start + timedelta(minutes=65, seconds=3)))
    '1 h 5 min'
    >>> duration(Clock(start, start + timedelta(seconds=252.4)))
    '4 min 12 s'
    """
    if clock.started is None or clock.ended is None:
        return ""
    seconds = int((clock.ended - clock.started).total_seconds())
    if seconds < 0:
        return "it ended before it started"
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {seconds} s"
    return f"{seconds} s"


def span(clock: Clock, *, running: bool = False) -> str:
    """The whole of it in one phrase: ``2026-11-29 18:00:00 UTC to 18:05:00 UTC (5 min
    0 s)``; a game still running says so.

    >>> start = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    >>> span(Clock(start, None), running=True)
    '2026-11-29 18:00:00 UTC, still running when the logs were cut'
    >>> span(UNKNOWN)
    'not recorded'
    """
    started = when(clock.started) or "an unrecorded time"
    if running:
        return f"{started}, still running when the logs were cut"
    if clock.started is None and clock.ended is None:
        return "not recorded"
    ended = when(clock.ended, after=clock.started) or "an unrecorded time"
    took = duration(clock)
    return f"{started} to {ended}" + (f" ({took})" if took else "")


def brief(clock: Clock, *, day: datetime | None = None) -> str:
    """When it started and how long it took, the date left out when it is ``day``'s:
    ``18:00:00 UTC, 5 min 0 s``; empty when not recorded.

    >>> start = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    >>> brief(Clock(start, start + timedelta(minutes=5)), day=start)
    '18:00:00 UTC, 5 min 0 s'
    >>> brief(Clock(start, None))
    '2026-11-29 18:00:00 UTC'
    """
    started = when(clock.started, after=day)
    took = duration(clock)
    return ", ".join(part for part in (started, took) if part)
