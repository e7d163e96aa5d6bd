"""Table limits (000_1729c72ad4c1f885.txt: "total of 3 tables can be played upon at any
point of time in App and 5 tables can be played upon at any point in PC (3 cash/practice
game tables and 2 tournament tables or 5 tournament tables)")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.findings import Finding
from audit.games import tables as tables_module
from audit.games.tables import table_limit_findings, table_limit_sql
from audit.logs.contract import load_contract
from audit.logs.reader import open_log_root
from audit.sim import simulate

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
CONTRACT = load_contract()

Seat = tuple[str, str, str, int, int]
"""(player, game, client, joined, left), times in minutes after T0."""


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def write_sessions(path: Path, seats: list[Seat]) -> Path:
    columns = {
        "player_id": [s[0] for s in seats],
        "game_id": [s[1] for s in seats],
        "client": [s[2] for s in seats],
        "ip": ["10.0.0.1"] * len(seats),
        "device_id": ["d1"] * len(seats),
        "joined_at": [at(s[3]) for s in seats],
        "left_at": [at(s[4]) for s in seats],
    }
    pq.write_table(pa.table(columns, schema=CONTRACT["sessions"].arrow_schema), path)
    return path


def write_games(path: Path, chip_types: dict[str, str]) -> Path:
    n = len(chip_types)
    columns = {
        "game_id": list(chip_types), "table_id": ["T1"] * n, "format": ["points"] * n,
        "deals_count": [None] * n, "cards_per_hand": [13] * n,
        "ruleset": ["standard-13"] * n, "decks": [2] * n, "printed_jokers": [2] * n,
        "max_players": [6] * n, "chip_type": list(chip_types.values()),
        "entry_fee": [None] * n, "point_value": [Decimal("0.1000")] * n,
        "rake_pct": [Decimal("10.00")] * n, "started_at": [T0] * n, "ended_at": [None] * n,
    }  # fmt: skip
    pq.write_table(pa.table(columns, schema=CONTRACT["games"].arrow_schema), path)
    return path


def run(tmp_path: Path, seats: list[Seat], chips: dict[str, str] | None = None) -> list[Finding]:
    sessions = write_sessions(tmp_path / "sessions.parquet", seats)
    games = {s[1]: "real" for s in seats} | (chips or {})
    return table_limit_findings([sessions], [write_games(tmp_path / "games.parquet", games)])


def keys(found: list[Finding]) -> list[tuple[str, str, str | None, str | None]]:
    return [(f.check, f.game_id, f.hand_id, f.player_id) for f in found]


def test_sql_states_the_rule_first() -> None:
    assert table_limit_sql().startswith("-- table.limit:")


def test_app_three_tables_at_once_is_allowed(tmp_path: Path) -> None:
    """`tables.app_max` = 3. 000_: 3 tables at once in the app. A 4th that opens as one
    closes is not a 4th."""
    seats = [("P1", f"G{i}", "app", i, 60) for i in range(1, 4)]
    seats += [("P1", "G4", "app", 60, 90), ("P1", "G1", "app", 70, 80)]  # G1 reconnect
    assert run(tmp_path, seats) == []


def test_app_four_tables_at_once(tmp_path: Path) -> None:
    seats = [("P1", f"G{i}", "app", i, 60) for i in range(1, 5)]
    found = run(tmp_path, seats)
    assert keys(found) == [("table.limit", "G4", None, "P1")]
    assert found[0].recorded == "4 tables on app"
    assert found[0].message == (
        "P1 was playing 4 tables at once from the app (G1, G2, G3, G4) at 2026-11-29 18:04:00"
        " UTC, until 19:00:00 UTC, more than the 3 allowed."
    )


def test_app_limit_episode_gives_its_peak_its_games_and_its_end(tmp_path: Path) -> None:
    """`tables.app_max` = 3 (000_1729c72ad4c1f885.txt). A blind tester's player at 3 app
    tables opened GX5, then GX6 while GX5 was open: 4 tables, then 5, then 4 as GX5
    closed, then 3. One finding, on GX5 when the 4th opened, whose `recorded` is the peak,
    naming the games at the peak and the end, the first moment back within the limit
    (until 2026-12-06 it said 4, and neither GX6 nor how long it lasted)."""
    seats = [("PX", f"GX{i}", "app", 0, 120) for i in (1, 2, 3)]
    seats += [("PX", "GX5", "app", 70, 72), ("PX", "GX6", "app", 71, 74)]
    found = run(tmp_path, seats)
    assert keys(found) == [("table.limit", "GX5", None, "PX")]
    assert found[0].recorded == "5 tables on app"
    assert found[0].message == (
        "PX was playing 4 tables at once from the app at 2026-11-29 19:10:00 UTC, up to 5"
        " (GX1, GX2, GX3, GX5, GX6) at 19:11:00 UTC, until 19:14:00 UTC, more than the 3"
        " allowed."
    )


def test_app_limit_tables_opened_at_once_give_the_same_peak_as_one_after_the_other(
    tmp_path: Path,
) -> None:
    """`tables.app_max`: the blind tester's two extra tables opened at the same moment: the
    same peak of 5 and the same games as when they opened a minute apart (the count no
    longer depends on the order they joined in)."""
    seats = [("PX", f"GX{i}", "app", 0, 120) for i in (1, 2, 3)]
    seats += [("PX", "GX6", "app", 70, 72), ("PX", "GX5", "app", 70, 74)]
    found = run(tmp_path, seats)
    assert keys(found) == [("table.limit", "GX5", None, "PX")]
    assert found[0].recorded == "5 tables on app"
    assert found[0].message == (
        "PX was playing 5 tables at once from the app (GX1, GX2, GX3, GX5, GX6) at 2026-11-29"
        " 19:10:00 UTC, until 19:14:00 UTC, more than the 3 allowed."
    )


def test_app_limit_episode_never_back_within_it_ends_at_the_last_leave(tmp_path: Path) -> None:
    """`tables.app_max`: 8 app tables, none closed before the last leave of the night (the
    next day, 01:00): the episode ends there; the peak names 6 games and counts the rest."""
    seats = [("P1", f"G{i}", "app", i, 7 * 60) for i in range(1, 9)]
    found = run(tmp_path, seats)
    assert keys(found) == [("table.limit", "G4", None, "P1")]
    assert found[0].recorded == "8 tables on app"
    assert found[0].message == (
        "P1 was playing 4 tables at once from the app at 2026-11-29 18:04:00 UTC, up to 8"
        " (G1, G2, G3, G4, G5, G6 and 2 more) at 18:08:00 UTC, until 2026-11-30 01:00:00 UTC,"
        " more than the 3 allowed."
    )


@pytest.mark.parametrize("unit", ["s", "us", "ns"])
def test_sessions_timestamps_of_any_unit_are_read(tmp_path: Path, unit: str) -> None:
    """schemas/README.md: a timestamp in any unit (s, ms, us, ns) in UTC is the contract's;
    pandas and pyarrow write nanoseconds by default (DuckDB's epoch_ms refused them)."""
    seats = [("P1", f"G{i}", "app", i, 60) for i in range(1, 5)]
    path = write_sessions(tmp_path / "sessions.parquet", seats)
    table = pq.read_table(path)
    for name in ("joined_at", "left_at"):
        i = table.schema.get_field_index(name)
        table = table.set_column(
            i, name, table.column(name).cast(pa.timestamp(unit, tz="UTC"))
        )
    pq.write_table(table, path)
    games = write_games(tmp_path / "games.parquet", {f"G{i}": "real" for i in range(1, 5)})
    found = table_limit_findings([path], [games])
    assert keys(found) == [("table.limit", "G4", None, "P1")]


def test_one_finding_per_episode(tmp_path: Path) -> None:
    """Over the limit from minute 4 to 30 (a 5th table changes nothing), then again at 50."""
    seats = [("P1", f"G{i}", "app", i, 30) for i in range(1, 6)]
    seats += [("P1", f"H{i}", "app", 40 + i, 70) for i in range(1, 5)]
    assert keys(run(tmp_path, seats)) == [
        ("table.limit", "G4", None, "P1"),
        ("table.limit", "H4", None, "P1"),
    ]


def test_web_five_tables_two_of_them_tournaments(tmp_path: Path) -> None:
    """`tables.web_max` = 5, `tables.web_cash_max` = 3. 000_: 5 tables on the PC, 3
    cash/practice and 2 tournament (or 5 tournament)."""
    seats = [("P1", f"G{i}", "web", i, 60) for i in range(1, 6)]
    seats += [("P2", f"T{i}", "web", i, 60) for i in range(1, 6)]
    chips = {"G1": "tournament", "G2": "tournament", "G3": "practice"}
    chips |= {f"T{i}": "tournament" for i in range(1, 6)}
    assert run(tmp_path, seats, chips) == []


def test_web_six_tables(tmp_path: Path) -> None:
    seats = [("P1", f"T{i}", "web", i, 60) for i in range(1, 7)]
    found = run(tmp_path, seats, {f"T{i}": "tournament" for i in range(1, 7)})
    assert keys(found) == [("table.limit", "T6", None, "P1")]
    assert "6 tables at once from the web" in found[0].message


def test_web_four_cash_tables(tmp_path: Path) -> None:
    """`tables.web_cash_max`: a 4th cash or practice table on the web is one too many."""
    seats = [("P1", f"G{i}", "web", i, 60) for i in range(1, 5)]
    found = run(tmp_path, seats, {"G2": "practice"})
    assert keys(found) == [("table.limit", "G4", None, "P1")]
    assert "4 cash or practice tables at once from the web" in found[0].message


def test_web_cash_limit_episode_peaks_in_cash_tables_and_names_them(tmp_path: Path) -> None:
    """`tables.web_cash_max` = 3: 4 cash tables on the web and a tournament (T1), 5 tables
    in all, within `tables.web_max`; then a 5th cash table. The peak is of the count that
    passed its limit first, the cash or practice tables, 5, and names those only."""
    seats = [("P1", f"G{i}", "web", i, 60) for i in range(1, 5)]
    seats += [("P1", "T1", "web", 2, 60), ("P1", "G5", "web", 10, 20)]
    found = run(tmp_path, seats, {"T1": "tournament"})
    assert keys(found) == [("table.limit", "G4", None, "P1")]
    assert found[0].recorded == "5 cash or practice tables on web"
    assert found[0].message == (
        "P1 was playing 4 cash or practice tables at once from the web at 2026-11-29 18:04:00"
        " UTC, up to 5 (G1, G2, G3, G4, G5) at 18:10:00 UTC, until 19:00:00 UTC, more than"
        " the 3 allowed."
    )


def test_clients_are_counted_apart(tmp_path: Path) -> None:
    """3 tables from the app and 3 from the web: each client is within its limit."""
    seats = [("P1", f"A{i}", "app", i, 60) for i in range(1, 4)]
    seats += [("P1", f"W{i}", "web", i, 60) for i in range(1, 4)]
    assert run(tmp_path, seats) == []


def test_a_table_moved_to_the_other_client_and_back_is_not_held_on_the_first_meanwhile(
    tmp_path: Path,
) -> None:
    """`tables.app_max` = 3, each client counted apart. P1 plays G2 from the app, then from
    the web for 40 minutes, then from the app again, and opens a 3rd app table (G5) while
    G2 is on the web: 3 app tables at most (a blind tester's night read G2 as an app table
    from its first app join to its last app leave, a 4th beside 3). A 4th app table while
    G2 is back on the app is still over the limit, and names G2 among the games at it."""
    seats = [("P1", "G1", "app", 0, 120), ("P1", "G3", "app", 0, 120)]
    seats += [("P1", "G2", "app", 0, 10), ("P1", "G2", "web", 10, 50), ("P1", "G2", "app", 50, 60)]
    assert run(tmp_path, [*seats, ("P1", "G5", "app", 20, 29)]) == []
    found = run(tmp_path, [*seats, ("P1", "G5", "app", 20, 55)])
    assert keys(found) == [("table.limit", "G2", None, "P1")]
    assert found[0].message == (
        "P1 was playing 4 tables at once from the app (G1, G2, G3, G5) at 2026-11-29 18:50:00"
        " UTC, until 18:55:00 UTC, more than the 3 allowed."
    )


@pytest.mark.parametrize("bad", ["left_at", "device_id", "reversed"])
def test_table_limit_counts_no_quarantined_sessions_row(tmp_path: Path, bad: str) -> None:
    """schemas/README.md: "What rests on a quarantined row is not judged without it". A
    4th app table whose row the staging quarantines (a null `left_at` or `device_id`, or
    a `left_at` before its `joined_at`) is no seat: 3 tables, within the limit, as the
    shared-device detector leaves the row out too. The other rows still count."""
    seats = [("P1", f"G{i}", "app", i, 60) for i in range(1, 5)]
    seats += [("P2", f"H{i}", "app", i, 60) for i in range(1, 5)]
    path = write_sessions(tmp_path / "sessions.parquet", seats)
    rows = pq.read_table(path).to_pylist()
    if bad == "reversed":
        rows[3]["joined_at"], rows[3]["left_at"] = rows[3]["left_at"], rows[3]["joined_at"]
    else:
        rows[3][bad] = None
    schema = pa.schema([f.with_nullable(True) for f in CONTRACT["sessions"].arrow_schema])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    games = write_games(tmp_path / "games.parquet", {s[1]: "real" for s in seats})
    assert keys(table_limit_findings([path], [games])) == [("table.limit", "H4", None, "P2")]


def test_no_sessions_no_findings() -> None:
    assert table_limit_findings([], []) == []


def test_simulated_players_keep_to_the_limits(tmp_path: Path) -> None:
    """The simulator seats a player at one table at a time: no finding."""
    root = tmp_path / "root"
    simulate(games=200, out=root, seed=20261132)
    log = open_log_root(root)
    found = table_limit_findings(
        [root / f.path for f in log.files["sessions"]],
        [root / f.path for f in log.files["games"]],
        root,
    )
    assert log.files["sessions"]
    assert found == []


def test_two_tables_opened_at_once_name_the_least_game(tmp_path: Path) -> None:
    """Two tables joined at the same moment take the player past the app's 3: the finding
    names the least game id of the two (sql/table_limit.sql, "Output")."""
    seats = [("P1", "G1", "app", 1, 60), ("P1", "G2", "app", 2, 60)]
    seats += [("P1", "G9", "app", 5, 60), ("P1", "G3", "app", 5, 60)]
    assert keys(run(tmp_path, seats)) == [("table.limit", "G3", None, "P1")]


@pytest.mark.parametrize("folders", [32, 3])
def test_a_large_night_is_judged_in_passes_with_the_same_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folders: int
) -> None:
    """``SESSIONS_PER_PASS``: sessions split by player into passes (here of 10 rows) give
    the findings of one pass, in the same order (by player, then time), whether each pass
    has its own folder or passes share ``SPLIT_FOLDERS`` folders."""
    seats: list[Seat] = []
    for p in range(12):
        tables = 3 + p % 3  # players 1, 4, 7, 10 reach 4 app tables; 2, 5, 8, 11 reach 5
        seats += [(f"P{p:02d}", f"G{p}-{i}", "app", p + i, 90) for i in range(tables)]
        seats += [(f"P{p:02d}", f"W{p}-{i}", "web", 30 + i, 60) for i in range(p % 7)]
    one = run(tmp_path, seats)
    assert len(one) == 8 + 4  # 8 from the app; P04, P05, P06, P11: over 3 cash on the web
    monkeypatch.setattr(tables_module, "SESSIONS_PER_PASS", 10)
    monkeypatch.setattr(tables_module, "SPLIT_FOLDERS", folders)
    split = run(tmp_path, seats)
    assert split == one


def test_session_files_are_named_exactly(tmp_path: Path) -> None:
    """A file whose name holds a glob's characters is read as that one file: DuckDB reads
    `sessions[1].parquet` as a pattern when `sessions1.parquet` is beside it."""
    seats = [("P1", f"G{i}", "app", i, 60) for i in range(1, 5)]
    sessions = write_sessions(tmp_path / "sessions[1].parquet", seats)
    write_sessions(tmp_path / "sessions1.parquet", seats[:1])
    games = write_games(tmp_path / "games.parquet", {f"G{i}": "real" for i in range(1, 5)})
    assert keys(table_limit_findings([sessions], [games])) == [("table.limit", "G4", None, "P1")]


def write_earlier(path: Path, seats: list[Seat], tournaments: frozenset[str] = frozenset()) -> Path:
    """Seats judged on earlier nights, as the nightly audit keeps them (``earlier``)."""
    columns = {
        "player_id": [s[0] for s in seats],
        "client": [s[2] for s in seats],
        "game_id": [s[1] for s in seats],
        "joined_at": [at(s[3]) for s in seats],
        "left_at": [at(s[4]) for s in seats],
        "tournament": [s[1] in tournaments for s in seats],
    }
    pq.write_table(pa.table(columns), path)
    return path


def with_earlier(
    tmp_path: Path,
    earlier: list[Seat],
    seats: list[Seat],
    tournaments: frozenset[str] = frozenset(),
) -> list[Finding]:
    sessions = write_sessions(tmp_path / "sessions.parquet", seats)
    games = write_games(tmp_path / "games.parquet", {s[1]: "real" for s in seats})
    kept = write_earlier(tmp_path / "earlier.parquet", earlier, tournaments)
    return table_limit_findings([sessions], [games], earlier=kept)


def test_earlier_seats_that_touch_tonights_are_counted(tmp_path: Path) -> None:
    """Two app tables judged on an earlier night, two tonight, all four open at minute 4:
    over the limit, found tonight (tonight's seats alone are two), naming tonight's game."""
    earlier = [("P1", "G1", "app", 1, 30), ("P1", "G2", "app", 2, 30)]
    tonight = [("P1", "G3", "app", 3, 60), ("P1", "G4", "app", 4, 60)]
    found = with_earlier(tmp_path, earlier, tonight)
    assert keys(found) == [("table.limit", "G4", None, "P1")]
    assert found[0].message == (
        "P1 was playing 4 tables at once from the app (G1, G2, G3, G4) at 2026-11-29 18:04:00"
        " UTC, until 18:30:00 UTC, more than the 3 allowed."
    )
    assert run(tmp_path, tonight) == []


def test_an_episode_an_earlier_night_reported_is_not_reported_again_however_it_grows(
    tmp_path: Path
) -> None:
    """Over the limit on the earlier night's seats alone from minute 4 (reported then); a
    fifth table tonight at minute 10 is the same episode: not reported again. A new
    episode tonight, after the player came back within the limit, is."""
    earlier = [("P1", f"G{i}", "app", i, 30) for i in range(1, 5)]
    tonight = [("P1", "G5", "app", 10, 90)]
    assert with_earlier(tmp_path, earlier, tonight) == []
    tonight += [("P1", f"H{i}", "app", 60 + i, 90) for i in range(1, 4)]
    assert keys(with_earlier(tmp_path, earlier, tonight)) == [("table.limit", "H3", None, "P1")]


def test_a_seat_opened_before_earlier_seats_passes_the_limit_when_the_last_opens(
    tmp_path: Path
) -> None:
    """Tonight's seat opened first (a game still running at the last cut); three earlier
    seats joined it: over the limit when the last of them opened, as one judgement of all
    the rows finds it, naming that earlier seat's game."""
    earlier = [("P1", f"G{i}", "app", i, 30) for i in range(1, 4)]
    tonight = [("P1", "G9", "app", 0, 60)]
    assert keys(with_earlier(tmp_path, earlier, tonight)) == [("table.limit", "G3", None, "P1")]
    assert keys(run(tmp_path, earlier + tonight)) == [("table.limit", "G3", None, "P1")]


def test_a_seat_with_rows_on_two_nights_counts_from_its_first_join_to_its_last_leave(
    tmp_path: Path
) -> None:
    """G1 joined at minute 1 (an earlier night) and again at 50 (tonight): one seat, open
    from 1 to 60, as one judgement of all the rows counts it. With three earlier tables
    open from 22 to 30, that is four: over the limit at 22, though those three touch
    neither of tonight's rows, and though the earlier rows alone were within it."""
    earlier = [("P1", "G1", "app", 1, 10)]
    earlier += [("P1", f"G{i}", "app", 20 + i, 30) for i in range(2, 5)]
    tonight = [("P1", "G1", "app", 50, 60)]
    found = with_earlier(tmp_path, earlier, tonight)
    assert keys(found) == keys(run(tmp_path, earlier + tonight)) == [
        ("table.limit", "G4", None, "P1")
    ]


def test_earlier_tournament_seats_count_as_tournaments_on_the_web(tmp_path: Path) -> None:
    """Two earlier web tables and three tonight, all open at minute 5: five tables, within
    `tables.web_max`; when the two earlier ones are tournaments, three cash tables, within
    `tables.web_cash_max`, else five, over it."""
    earlier = [("P1", "T1", "web", 1, 30), ("P1", "T2", "web", 2, 30)]
    tonight = [("P1", f"G{i}", "web", i, 60) for i in range(3, 6)]
    assert with_earlier(tmp_path, earlier, tonight, frozenset({"T1", "T2"})) == []
    found = with_earlier(tmp_path, earlier, tonight)
    assert keys(found) == [("table.limit", "G4", None, "P1")]
    assert "4 cash or practice tables at once from the web" in found[0].message


def test_earlier_seats_are_judged_in_the_passes_of_their_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large night split into passes by player (here of 10 rows): the earlier seats go
    with their player's, the findings are those of one pass."""
    earlier: list[Seat] = []
    tonight: list[Seat] = []
    for p in range(12):
        earlier += [(f"P{p:02d}", f"E{p}-{i}", "app", i, 30) for i in range(2 + p % 3)]
        tonight += [(f"P{p:02d}", f"G{p}-{i}", "app", 10 + i, 60) for i in range(2)]
    one = with_earlier(tmp_path, earlier, tonight)
    assert len(one) == 8  # 2 earlier and 2 tonight, or 3 and 2 (4 earlier: reported then)
    monkeypatch.setattr(tables_module, "SESSIONS_PER_PASS", 10)
    assert with_earlier(tmp_path, earlier, tonight) == one
