"""The fair-play detectors. Each runs its SQL (``sql/<name>.sql``, whose opening comment
states the pattern and its null model), tests every pair or account it lists, corrects
for all of them at once (``engine.Hypotheses``) and reports what stands out.

- ``co_seating`` and ``shared_identity``: Poisson, against random seating;
- ``feeding`` and ``soft_drop``: beta-binomial, a player's rate with one other player
  against their own rate without them (``pairs.pair_rates``);
- ``chip_dumping`` and ``loss_dumping``, the money detectors: in ``flows``;
- ``bots``: binomial, decisions too close to the player's median time for a person.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

from audit import duck
from audit.duck import literal
from audit.fairplay.engine import (
    Hypotheses,
    Settings,
    Tested,
    Words,
    column,
    create_table,
    ids,
    run_sql,
    screened,
    statements,
    suspicions,
)
from audit.fairplay.flows import chip_dumping, loss_dumping
from audit.fairplay.pairs import pair, pair_rates, pairs_in_parts
from audit.fairplay.stats import BEYOND_ALPHA, binom_sf, fewer, poisson_sf
from audit.fairplay.suspicion import how_sure
from audit.findings import Severity
from audit.records import and_words


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def _times(n: int) -> str:
    """How many times, in words.

    >>> [_times(n) for n in (1, 2, 3)]
    ['once', 'twice', '3 times']
    """
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _set_aside(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    """The table ``feed_aside``: each B's hands dealt with a player A whom B plays for,
    taking significantly fewer discards with A at the table than both elsewhere and the
    night's rate (``stats.fewer``; Benjamini-Hochberg at ``BEYOND_ALPHA``, effect floor)."""
    create_table(con, "feeding", "partners", settings, "feeding_partners")

    def test(table: pa.Table) -> Hypotheses:
        k1, n1, k0, n0 = (column(table, c) for c in ("k1", "n1", "k0", "n0"))
        p, least, expected = fewer(k1, n1, k0, n0, column(table, "rate"), BEYOND_ALPHA)
        return Hypotheses(table, p, expected, k1, expected / np.maximum(k1, 1e-9), min_p=least)

    guard = replace(settings, thresholds=replace(settings.thresholds, report=BEYOND_ALPHA))
    found = screened(con, "feeding_partners", guard, test).correct(guard)
    con.execute("DROP TABLE feeding_partners")
    pairs = list(zip(ids(found.table, "a"), ids(found.table, "b"), strict=True))
    run_sql(con, "feeding", "aside", settings, [pairs[i] for i in np.flatnonzero(found.report)])


def feeding(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """B takes A's discards far more often than other players' (fairplay.collusion)."""
    _set_aside(con, settings)
    found = pair_rates(con, "feeding", replace(settings, min_effect=settings.feed_effect),
                       baseline="b")  # fmt: skip

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, n1, k1, melded = r["a"], r["b"], r["n1"], r["k1"], r["melded"]
        expected = float(found.expected[i])
        aside = f", the hands with {r['aside']} left out" if r["aside"] else ""
        hands = f"in {r['hands']} hand{'' if r['hands'] == 1 else 's'} together"
        capped = r["drawn"] != n1
        counted = "" if not capped else (
            f"; counted as {k1} of {n1}, no hand for more than {settings.hand_draws} draws"
        )  # fmt: skip
        drawn = f" counted ({r['took']} of {r['drawn']} drawn)" if capped else ""
        return (
            f"{b} took {r['took']} of the {r['drawn']} discards {a} left on the pile {hands} "
            f"({melded} of them ended in {b}'s melds{counted}), against {expected:.1f} "
            f"expected from {b}'s play with other players' discards{aside} "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{b} takes about {_pct(expected / n1)} of discards: {expected:.1f} of {a}'s {n1}",
            f"{b} took {k1} of the {n1} discards {a} left{drawn} {hands}, melded {melded}",
        )

    words = Words(
        "fairplay.collusion",
        needs="pair of players where one drew with the other's discard on top of the pile",
        statistic="beta-binomial: B's takes of A's discards against B's own rate with other "
                  "players' discards, at the hand sizes they met at, raised for a careless A",
        pattern="a player takes another's discards far more often than other players' "
                "discards",
        benign="a strong player seated right after a weak one, whose discards are often "
               "useful",
    )  # fmt: skip
    tested = suspicions(con, "feeding", found, settings, words, players=pair, text=text)
    con.execute("DROP TABLE feed_aside")
    return tested


def soft_drop(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """A gives up strong hands early when B is at the table (fairplay.soft_drop)."""
    found = pair_rates(con, "soft_drop", settings, baseline="a")

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, n1, k1 = r["a"], r["b"], r["n1"], r["k1"]
        expected = float(found.expected[i])
        # A dealt no hand without B has no play of their own to compare: the baseline is
        # the night's rate alone (a blind tester read "from C11's play without C10" of a
        # player who played every hand with C10)
        base = (f"{a}'s play without {b}" if r["n0"] else
                f"the night's rate ({a} was dealt no hand without {b})")  # fmt: skip
        alike = found.alike.get(i, [])  # partners the hands cannot tell from B
        also = (f" {and_words(alike)} {'was' if len(alike) == 1 else 'were'} dealt into "
                f"exactly the same hands, so the hands cannot tell which of "
                f"{and_words([b, *alike])} {a} did it for." if alike else "")  # fmt: skip
        return (
            f"{a} dropped a strong hand early in {k1} of the {n1} hands dealt with {b} at the "
            f"table, against {expected:.1f} expected from {base} "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).{also}",
            f"{a} drops a strong hand early in {expected:.1f} of {n1} hands with {b}",
            f"{a} dropped a strong hand early in {k1} of {n1} hands with {b}",
        )

    words = Words(
        "fairplay.soft_drop",
        needs="pair of players dealt into one hand of a format whose rules allow drops",
        statistic="beta-binomial: A's early drops of strong hands with B at the table against "
                  "A's own rate without B",
        pattern="a player gives up strong hands early when a particular player is at the "
                "table",
        benign="a cautious player, or one who drops when tired or busy at another table",
    )  # fmt: skip
    tested = suspicions(con, "soft_drop", found, settings, words, players=pair, text=text)
    con.execute("DROP TABLE soft_trial")  # its ``prepare``'s, read by every later statement
    return tested


# ---------------------------------------------------------------- seating and identity


_DROP_CO_SEATING = "DROP VIEW co_stay; DROP TABLE co_game; DROP TABLE co_seat"
"""What ``co_seating`` leaves on the connection, dropped by ``shared_identity``."""


def co_seating(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """Pairs who sit down at one table together more often than random seating predicts
    (Poisson, given that the pair met at all; co_seating.sql counts sittings, not games).
    Leaves the tables ``co_seat`` (the pairs) and ``co_game`` (the games) and the view
    ``co_stay`` (each player's sittings) for ``shared_identity``."""
    run_sql(con, "co_seating", "games", settings)
    run_sql(con, "co_seating", "stays", settings)
    steps = {"players": "co_player", "seated": "co_gp", "sizes": "co_size",
             "weights": "co_weight", "totals": "co_total", "moves": "co_move",
             "left": "co_left", "carry": "co_carry"}
    pairs_in_parts(con, settings, "co_seating", steps,
                    "SELECT sum(n * (n - 1) // 2) FROM co_size", "co_seat")  # fmt: skip

    def test(table: pa.Table) -> Hypotheses:
        # the games the two chose: tournament tables are seated by the platform (a pair
        # who met only there is not tested)
        games, expected = column(table, "chosen"), column(table, "chosen_expected")
        met = poisson_sf(np.ones_like(expected), expected)
        return Hypotheses(
            table, np.where(games > 0, np.minimum(1.0, poisson_sf(games, expected)
                                                  / np.maximum(met, 1e-300)), 1.0),
            expected, games, games / np.maximum(expected, 1e-12),
            min_p=np.where(games > 0, 0.0, 1.0),
        )  # fmt: skip

    found = screened(con, "co_seat", settings, test).correct(settings)
    expected = found.expected

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, lam = r["a"], r["b"], float(expected[i])
        sure = how_sure(float(found.p[i]), float(found.q[i]), found.tests)
        games = r["chosen_games"]
        stayed = "one game each time" if games == r["chosen"] else f"{games} games in all"
        moved = r["moved"]
        after = (f" ({'once' if moved == 1 else f'{moved} times'} straight from one game "
                 f"they both left)") if moved else ""
        carried = (" and from how often their lobby seats together again players who "
                   "leave one game together") if r["carried"] > 0 else ""
        return (
            f"{a} and {b} sat down at the same table together {_times(r['chosen'])}{after}, "
            f"for {stayed}, against {lam:.2f} times expected from their play volume"
            f"{carried} ({sure}).",
            f"{a} and {b} sat down at one table together {lam:.2f} times",
            f"{a} and {b} sat down at one table together {_times(r['chosen'])}",
        )

    words = Words(
        "fairplay.co_seating",
        needs="pair of accounts dealt into one game outside tournaments",
        statistic="Poisson: times sat down at one table together (a game where either sat "
                  "down, not staying on from the table's game before), against random "
                  "seating: the other account at the table as often as it fills the seats "
                  "of its lobby and half hour, and, each time the two left one game "
                  "together, as often as the lobby seats such players together again",
        pattern="two accounts seated together far more often than their play volume predicts",
        benign="friends or family who choose to play together; where the platform seats "
               "from a queue, players who keep leaving their tables at the same moment",
        # sitting together is what friends do: at most a lead (a blind tester's honest
        # friends, 18 games together, were `major` and failed the night's run); a pair that
        # colludes shows it in what it does at the table, a detector that can be `major`
        most=Severity.MINOR,
    )  # fmt: skip
    return suspicions(con, "co_seating", found, settings, words, players=pair, text=text)


def shared_identity(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """Accounts sharing a device or an IP address that sit at one table through it (both
    dealt into the game: a connection alone is no seat); their expected games are
    co-seating's, read from the table ``co_seat`` it leaves, which this drops. A pair on one
    device at one table at the same moment is read against a fingerprint collision too
    (one device is one person's at a time). Without a sessions table it is skipped (not
    run), never "tested 0"; with some of its files unreadable it runs on the rest and says
    so (``Tested.partial``)."""
    needs = f"device_id or ip that 2 to {settings.max_accounts} accounts share in the sessions"
    if "sessions" in settings.unread:
        con.execute(_DROP_CO_SEATING)
        return Tested("fairplay.shared_device", 0, [], needs, skipped=settings.unread["sessions"])
    partial = settings.partial.get("sessions", "")
    table = run_sql(con, "shared_identity", "pairs", settings)
    con.execute(_DROP_CO_SEATING)  # the last reader of co-seating's tables
    sittings, lam = column(table, "sittings"), np.maximum(column(table, "expected"), 1e-12)
    p = np.where(sittings > 0, poisson_sf(sittings, lam), 1.0)
    # One device at one table at the same moment: innocent only by a fingerprint collision,
    # counted in games (shared_identity.sql); the pair's p-value is the smaller of the two,
    # doubled. Until 2026-12-06 a device counted as an address (a blind tester's P025-P026).
    at_once = column(table, "at_once")
    lam_games = np.maximum(column(table, "expected_games"), 1e-12)
    collision = np.minimum(
        1.0, (column(table, "device_accounts") - 1) / max(settings.max_accounts - 1, 1)
    )
    once = np.where(at_once > 0, collision * poisson_sf(at_once, lam_games), 1.0)
    device = column(table, "device") > 0
    by_once = device & (once < p)  # the test that decides the pair's p-value
    observed, expected = np.where(by_once, at_once, sittings), np.where(by_once, lam_games, lam)
    found = Hypotheses(
        table, np.where(device, np.minimum(1.0, 2 * np.minimum(p, once)), p),
        expected, observed, np.where(observed > 0, observed / expected, 0.0),
        weights=1.0 / np.maximum(column(table, "accounts") - 1, 1),
    ).correct(settings)  # fmt: skip

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, x = r["a"], r["b"], float(found.expected[i])
        what = {(True, True): "a device and an IP address", (True, False): "a device"}.get(
            (r["device"], r["ip"]), "an IP address"
        )
        moment = f", {r['at_once']} with both on it at the same moment" if r["device"] else ""
        games = f"{r['games']} games ({r['device_games']} from one device{moment})"
        share = f"{a} and {b} share {what} ({r['accounts']} accounts use it) and"
        sure = how_sure(float(found.p[i]), float(found.q[i]), found.tests)
        if by_once[i]:
            return (
                f"{share} sat at one table through it in {games}, against {x:.2f} expected "
                f"from their play volume if the device were two with one fingerprint "
                f"({sure}).",
                f"{a} and {b} at one table in {x:.2f} games",
                f"{a} and {b} on one device at one table at once in {r['at_once']} games",
            )
        return (
            f"{share} sat down at one table together through it {_times(r['sittings'])}, for "
            f"{games}, against {x:.2f} times expected from their play volume ({sure}).",
            f"{a} and {b} sat down at one table together {x:.2f} times",
            f"{a} and {b} sat down at one table together through {what} "
            f"{_times(r['sittings'])}",
        )

    words = Words(
        "fairplay.shared_device",
        needs=needs,
        statistic="Poisson: times sat down at one table together through a shared device or "
                  "address, against random seating; for a device, also games on it at the "
                  "same moment, against a fingerprint collision; weighted by the accounts "
                  "sharing it",
        pattern="accounts sharing a device or an IP address that sit at one table",
        benign="a family or flatmates sharing a device or a connection",
    )  # fmt: skip
    tested = suspicions(con, "shared_identity", found, settings, words, players=pair, text=text)
    return replace(tested, partial=partial) if partial else tested


# ---------------------------------------------------------------- bots


SEATS_PER_PART = 800_000
"""The bot test judges the accounts' decision times in parts of the accounts (by their
number), one for about this many seats dealt (about ten decisions each): ranking each
account's times of each kind holds all of a part's decision times at once."""
_DROP_DECISIONS = ("DROP VIEW decision; DROP VIEW decision_number; DROP TABLE bot_player;"
                   " DROP TABLE bot_hand")
"""What ``_decisions`` leaves on the connection, dropped when the bot test is done."""
BOT_ROWS = 16_384
"""Rows a part's Parquet writer holds before it writes them as a row group."""


KINDS = {
    "draw_stock": "draws from the stock", "draw_discard": "draws from the pile",
    "discard": "discards", "drop": "drops", "declare": "declarations", "show": "shows",
}  # fmt: skip
"""The kinds of decision the bot test judges apart (each against the median of its own
kind), in a support agent's words."""


def bots(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """Accounts whose decision times cluster too tightly around the median of their kind:
    a program may wait one time to draw and another to discard, tight around each, which
    one median of the whole (between the two) hides."""
    p0 = settings.bot_p0

    def test(table: pa.Table) -> Hypotheses:
        n, k = column(table, "n"), column(table, "k")
        return Hypotheses(
            table, binom_sf(k, n, np.full_like(n, p0)), n * p0, k,
            np.where(n > 0, (k / np.maximum(n, 1)) / p0, 0.0),
        )  # fmt: skip

    needs = (f"account with {settings.min_decisions} or more timed decisions, each with "
             "another of its kind")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="rummy-audit-", dir=duck.spill_folder(con)) as work:
        _decisions(con, settings, Path(work) / "decisions")
        untimed = _untimed(con, settings)
        if untimed:
            con.execute(_DROP_DECISIONS)
            return Tested("fairplay.bot", 0, [], needs, skipped=untimed)
        _accounts(con, settings, Path(work) / "decisions")
        found = screened(con, "bot_accounts", settings, test, key=("player_id",))
        found.correct(settings)
        flagged = [r["player_id"] for r in map(found.row, np.flatnonzero(found.report).tolist())]
        ratio: dict[str, float] = {}
        medians: dict[str, list[str]] = {}
        if flagged:
            pairs = [(p, p) for p in flagged]
            detail = run_sql(con, "bots", "detail", settings, flagged=pairs)
            names = ("a", "play_draw_ratio")
            for a, r in zip(*(detail.column(c).to_pylist() for c in names), strict=True):
                ratio[str(a)] = float(r) if r is not None else float("nan")
            kinds = run_sql(con, "bots", "kinds", settings, flagged=pairs)
            columns = ("a", "action", "median_s")
            for a, action, t in zip(*(kinds.column(c).to_pylist() for c in columns), strict=True):
                medians.setdefault(str(a), []).append(f"{KINDS[str(action)]} {float(t):.2f} s")
        con.execute(f"DROP TABLE bot_accounts; DROP VIEW decision_part; {_DROP_DECISIONS}")
    stretch = _stretches(con, flagged, settings)

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, total, near = r["player_id"], int(r["n"]), int(r["k"])
        longest, clock = stretch.get(a, (None, 0))
        if longest is None:  # no session row of theirs: the length of play is unknown
            why = settings.unread.get("sessions") or f"the sessions table has no row for {a}"
            longest = f"not measured ({why})"
        return (
            f"{a}'s decisions are machine-regular: {near} of {total} fall within "
            f"{_pct(settings.window - 1)} of the median time of their kind "
            f"({', '.join(medians.get(a, []))}; log-sd within a kind {r['sd']:.2f}; plays take "
            f"{ratio.get(a, float('nan')):.2f}x a draw), where a person puts at most "
            f"{_pct(p0)} there; longest play without a {settings.break_minutes}-"
            f"minute break {longest}, {clock} clock hours played "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{a}: at most {total * p0:.0f} of {total} decisions near their kind's median",
            f"{a}: {near} of {total} decisions near their kind's median",
        )

    words = Words(
        "fairplay.bot",
        needs=needs,
        statistic="binomial: decisions within the window around the median time of their "
                  "kind, against the most a person's spread allows",
        pattern="decision times too regular for a person",
        benign="a player using the client's auto-play or pre-selected moves",
    )  # fmt: skip
    def one(row: Mapping[str, Any]) -> tuple[str, ...]:
        return (row["player_id"],)
    return suspicions(con, "bots", found, settings, words, players=one, text=text)


def _decisions(con: duckdb.DuckDBPyConnection, settings: Settings, folder: Path) -> None:
    """Every account's timed decisions, written under ``folder`` in parts by the account's
    number (``bot_player``): the view ``decision_number`` reads them all by numbers
    (``pn``, ``ac``, ``lt``), the view ``decision`` by name and kind."""
    (seats,) = con.sql("SELECT count(*) FROM seat").fetchall()[0]
    parts = duck.passes(int(seats), SEATS_PER_PART)
    run_sql(con, "bots", "players", settings)
    run_sql(con, "bots", "hands", settings)
    query = statements("bots")["decisions"]
    duck.copy_parts(con, query, folder, "part", BOT_ROWS,
                    params={"parts": parts, "kinds": list(KINDS)})  # fmt: skip
    written = sorted(folder.glob("part=*"), key=lambda path: int(path.name[len("part="):]))
    numbered = ("CAST(NULL AS INTEGER) AS pn, CAST(NULL AS UTINYINT) AS ac, CAST(NULL AS DOUBLE)"
                " AS lt WHERE false")  # not one timed decision in the night
    if written:
        numbered = ("pn, ac, lt FROM read_parquet("
                    f"{literal(str(folder / '*' / '*.parquet'))}, hive_partitioning = false)")
    kinds = "[" + ", ".join(literal(kind) for kind in KINDS) + "]"
    con.execute(f"CREATE OR REPLACE TEMP VIEW decision_number AS SELECT {numbered}")
    con.execute(f"CREATE OR REPLACE TEMP VIEW decision AS SELECT p.player_id, {kinds}[d.ac]"
                " AS action, d.lt FROM decision_number d JOIN bot_player p USING (pn)")


def _untimed(con: duckdb.DuckDBPyConnection, settings: Settings) -> str:
    """Why the night's event times cannot time a decision, in words (``clock``: over every
    account, the decisions of a kind spread less than one person's may); empty when they
    can, or when the night has fewer decisions than one account needs to be tested. Run
    on a simulated honest night of 600 games whose every event was set 2 s after the one
    before it, the test found each of its 344 accounts machine-regular (344 ``major``
    suspicions), each a finding of the log's clock, none of a player."""
    row = run_sql(con, "bots", "clock", settings).to_pylist()[0]
    n, sd = int(row["n"] or 0), row["sd"]
    if n < settings.min_decisions or sd is None or sd >= settings.sigma:
        return ""
    return (f"the night's event times do not time decisions: its {n:,} timed decisions, all "
            f"accounts together, spread {sd:.2f} within a kind (log-sd), less than one "
            f"person's least ({settings.sigma:.2f}), as when each event is a fixed step after "
            "the one before it; no account can be told from the others by its times")


def _accounts(con: duckdb.DuckDBPyConnection, settings: Settings, folder: Path) -> None:
    """Each part's accounts centred in turn into the table ``bot_accounts``: a part is
    read alone, so the night is read once however many parts it has."""
    written = sorted(folder.glob("part=*"), key=lambda path: int(path.name[len("part="):]))
    numbered = "pn, ac, lt FROM decision_number"
    for i, part in enumerate(written or [None]):
        source = f"(SELECT {numbered})" if part is None else (
            f"read_parquet({literal(str(part / '*.parquet'))}, hive_partitioning = false)"
        )  # fmt: skip
        con.execute(f"CREATE OR REPLACE TEMP VIEW decision_part AS SELECT pn, ac, lt FROM {source}")
        create_table(con, "bots", "accounts", settings, "bot_accounts", append=i > 0)


def _stretches(
    con: duckdb.DuckDBPyConnection, players: list[str], settings: Settings
) -> dict[str, tuple[str | None, int]]:
    """Per account: its longest play without a break ("3.6 h (24 games)"; ``None`` when
    no sessions row of theirs tells when they played: not measured, never 0 h) and the
    clock hours of its events."""
    if not players:
        return {}
    table = run_sql(con, "bots", "stretches", settings, flagged=[(p, p) for p in players])
    names = ("a", "longest_hours", "games_in_it", "hours_played")
    return {
        str(a): (None if h is None else f"{float(h):.1f} h ({_games(int(g or 0))})", int(c or 0))
        for a, h, g, c in zip(*(table.column(x).to_pylist() for x in names), strict=True)
    }


def _games(n: int) -> str:
    """A count of games in words: a bot whose longest play was one game read "(1 games)"."""
    return "1 game" if n == 1 else f"{n} games"


PAIR_DETECTORS: tuple[Callable[[duckdb.DuckDBPyConnection, Settings], Tested], ...] = (
    co_seating, shared_identity, feeding, soft_drop, chip_dumping, loss_dumping,
)  # fmt: skip
"""In this order: ``shared_identity`` reads (and drops) the table ``co_seating`` leaves.
Every other table a detector makes it drops itself, so none holds memory or spill space
through the detectors after it (co-seating's pairs and soft drop's trials did)."""
