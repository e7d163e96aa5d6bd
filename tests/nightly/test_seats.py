"""The seats a night keeps for the next nights' ``table.limit`` (docs/nightly.md, "Table
limits across the cut"): those a later seat can still touch, so that the state holds about
``MARGIN`` of seats whatever the number of nights."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pyarrow.parquet as pq

from audit.nightly.seats import MARGIN, keep_seats, tonight_seats
from tests.games.test_tables import Seat, at, write_earlier, write_games, write_sessions

MARGIN_MINUTES = int(MARGIN.total_seconds() // 60)
"""``MARGIN`` in minutes, the unit of the seats' times."""


def keep(
    folder: Path,
    tonight: list[Seat],
    *,
    earlier: Path | None = None,
    carried: list[Seat] | None = None,
    chips: dict[str, str] | None = None,
) -> list[tuple[str, str, int, int, bool]]:
    """Keep the seats after a night of ``tonight``'s sessions rows (and ``carried`` rows of
    running games); the seats kept, as (player, game, joined, left, tournament), times in
    minutes after ``at(0)``."""
    folder.mkdir(parents=True, exist_ok=True)
    sessions = write_sessions(folder / "sessions.parquet", tonight)
    games = write_games(folder / "games.parquet", {s[1]: "real" for s in tonight} | (chips or {}))
    running = [write_sessions(folder / "carried.parquet", carried)] if carried else []
    into = folder / "seats.parquet"
    count = keep_seats(earlier=earlier, sessions=[sessions], games=[games], carried=running,
                       root=folder, into=into)  # fmt: skip
    kept = pq.read_table(into).to_pylist()
    assert count == len(kept)
    def minutes(moment: datetime) -> int:
        return int((moment - at(0)).total_seconds() // 60)

    return [(r["player_id"], r["game_id"], minutes(r["joined_at"]), minutes(r["left_at"]),
             r["tournament"]) for r in kept]  # fmt: skip


def test_a_night_keeps_the_seats_a_later_seat_can_touch(tmp_path: Path) -> None:
    """The cut is the last leave of the night's rows (minute 1000): a seat that ends within
    ``MARGIN`` of it is kept, one that ends earlier is not, unless it touches a seat of a
    game still running (P3's, carried); a seat with rows on an earlier night and tonight is
    one seat, from its first join to its last leave; a tournament's seat says so."""
    cut = 1000
    earlier = write_earlier(tmp_path / "earlier.parquet", [
        ("P4", "E1", "app", 0, 50),  # ended long before the cut: dropped
        ("P2", "G3", "app", cut - 150, cut - 120),  # G3's first rows: one seat with tonight's
    ])  # fmt: skip
    tonight = [
        ("P1", "G1", "app", 0, cut - MARGIN_MINUTES - 1),
        ("P1", "G2", "app", cut - MARGIN_MINUTES - 30, cut - MARGIN_MINUTES),
        ("P2", "G3", "app", cut - 100, cut),
        ("P3", "G4", "web", 50, 60),
    ]
    carried = [("P3", "R1", "web", 40, 55)]
    kept = keep(tmp_path / "night", tonight, earlier=earlier, carried=carried,
                chips={"G3": "tournament"})  # fmt: skip
    assert kept == [
        ("P1", "G2", cut - MARGIN_MINUTES - 30, cut - MARGIN_MINUTES, False),
        ("P2", "G3", cut - 150, cut, True),
        ("P3", "G4", 50, 60, False),
    ]


def test_a_quarantined_sessions_row_is_no_seat_kept(tmp_path: Path) -> None:
    """schemas/README.md: "What rests on a quarantined row is not judged without it": a
    sessions row whose `left_at` is before its `joined_at` is quarantined, so it is no seat
    tonight (``table.limit``) nor kept for a later night's."""
    tonight = [("P1", "G1", "app", 900, 1000), ("P1", "G2", "app", 990, 950)]
    assert keep(tmp_path / "night", tonight) == [("P1", "G1", 900, 1000, False)]


def test_the_seats_kept_do_not_grow_with_the_nights(tmp_path: Path) -> None:
    """Night after night of a steady platform (a seat of 20 minutes every 10 minutes, a day
    a night), the seats kept are those of the last ``MARGIN``: as many every night."""
    day = 24 * 60
    earlier: Path | None = None
    counts = []
    for night in range(4):
        start = night * day
        tonight = [(f"P{n % 7}", f"G{night}-{n}", "app", start + 10 * n, start + 10 * n + 20)
                   for n in range(day // 10)]  # fmt: skip
        kept = keep(tmp_path / str(night), tonight, earlier=earlier)
        earlier = tmp_path / str(night) / "seats.parquet"
        counts.append(len(kept))
        assert min(left for _, _, _, left, _ in kept) >= start + day + 10 - MARGIN_MINUTES
    assert counts == [counts[0]] * 4
    assert counts[0] == MARGIN_MINUTES // 10 + 1


def test_the_seats_of_games_audited_again_are_left_out_tonight(tmp_path: Path) -> None:
    """A game audited again tonight brings its sessions rows again: its kept seats are not
    earlier seats tonight, its rows are."""
    kept = write_earlier(tmp_path / "kept.parquet", [
        ("P1", "G1", "app", 0, 10), ("P1", "G2", "app", 5, 15), ("P2", "G1", "web", 0, 10),
    ])  # fmt: skip
    assert tonight_seats(kept, [], tmp_path / "tonight.parquet") == kept
    assert tonight_seats(None, ["G1"], tmp_path / "tonight.parquet") is None
    left = tonight_seats(kept, ["G1"], tmp_path / "tonight.parquet")
    assert left == tmp_path / "tonight.parquet"
    assert pq.read_table(left).column("game_id").to_pylist() == ["G2"]
