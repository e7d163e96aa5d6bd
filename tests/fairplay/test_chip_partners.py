"""Chip dumping's second pass (docs/fairplay.md, "fairplay.chip_dumping", partners set
aside): a player's own record leaves out the hands dealt with a partner the first pass
suspected, and so does every other pair's count."""

from __future__ import annotations

from audit.fairplay.engine import Settings
from audit.fairplay.flows import chip_dumping
from tests.fairplay.night import Night

SETTINGS = Settings()


def _dumper_and_a_rival(seed: int) -> Night:
    """P0040, strong, throws most hands to P0041 over a hundred extra games, and plays
    thirty more against honest, average P0042, winning there as a strong player does."""
    night = Night(seed=seed, players=100)
    night.skill["P0040"] = 3.0
    night.skill["P0042"] = 1.0
    night.together.append((("P0040", "P0041"), 100))
    night.together.append((("P0040", "P0042"), 30))
    night.dumps.add(("P0040", "P0041"))
    return night.build()


def test_chip_dumping_leaves_out_a_dumpers_hands_with_the_partner_from_their_record() -> None:
    """A dumper's hands thrown to the partner made the dumper weak by their own results, and
    an honest opponent who lost to the dumper as to any strong player a dumper too (a blind
    tester's night: P062 lost all 58 hands to P063, and honest P070, who lost 15 of 19 to
    P062 against 6.7 expected, was suspected at info, with a ring of the three). Here
    P0042 lost 30 of the 42 hands one of them won to P0040 (17.7 expected from P0040's
    record with the thrown hands: info); without them, 23.2, and only the dumper stands."""
    tested = chip_dumping(_dumper_and_a_rival(3).load(), SETTINGS)
    pairs = {s.players: s for s in tested.suspicions}
    assert set(pairs) == {("P0040", "P0041")}
    assert pairs["P0040", "P0041"].severity.value == "major"


def test_chip_dumping_leaves_out_the_partners_wins_at_the_dumpers_table_from_others() -> None:
    """Those hands leave every other pair's count too: the partner's wins in the hands the
    dumper threw, counted against the partner's record without them, made dumpers of the
    third players at those tables (tried first, the hands left in the other pairs' counts:
    four of them at info on this night)."""
    tested = chip_dumping(_dumper_and_a_rival(5).load(), SETTINGS)
    assert not [s for s in tested.suspicions if s.players[1] == "P0041" and s.players[0] != "P0040"]
    assert ("P0040", "P0041") in {s.players for s in tested.suspicions}


def test_chip_dumping_holds_no_seat_table_while_the_first_pass_is_tested(monkeypatch) -> None:
    """The seats are built again for the second pass, not kept through the first pass's
    test, so that DuckDB holds only the pairs then (the million-hand night ran out of
    DuckDB's memory in chip dumping: benchmarks/README.md, "Fair play"). Both passes still
    run here (the dumper is found) and every table made is dropped."""
    import audit.fairplay.flows as flows

    con = _dumper_and_a_rival(3).load()
    before = {name for (name,) in con.sql("SELECT table_name FROM duckdb_tables()").fetchall()}
    held: list[set[str]] = []
    screen = flows.screened

    def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
        held.append({name for (name,) in con.sql(
            "SELECT table_name FROM duckdb_tables()").fetchall()} - before)  # fmt: skip
        return screen(*args, **kwargs)

    monkeypatch.setattr(flows, "screened", watched)
    tested = chip_dumping(con, SETTINGS)
    assert ("P0040", "P0041") in {s.players for s in tested.suspicions}
    assert held == [{"chip_pairs"}, {"chip_pairs"}]  # the first pass, then the second's
    assert {name for (name,) in con.sql("SELECT table_name FROM duckdb_tables()").fetchall()
            } == before  # fmt: skip


def test_chip_dumping_keeps_a_suspected_pair_every_hand_of_which_held_another() -> None:
    """The second pass leaves out the hands dealt with a partner the first pass suspected;
    a pair every hand of which held another such partner had no count left, and vanished
    (a blind tester's dumper D1, whose partner D2 sat at one table of four with D1 and two
    others in every hand, all three suspected with D2 on the first pass: no chip-dumping
    suspicion at all). Their first pass's count stands: P0240, who throws most hands to
    P0241 at a table of four that never changes, is `major`; the two others, who lose to
    P0241 at that table as to a strong player, are named too, on records too thin to weigh
    their losses (docs/fairplay.md, "Loss sizes"), `minor` at most."""
    night = Night(seed=10)
    night.ids.remove("P0241")  # dealt only at the table of four
    night.together.append((("P0240", "P0241", "P0242", "P0243"), 40))
    night.dumps.add(("P0240", "P0241"))
    found = {s.players: s for s in chip_dumping(night.build().load(), SETTINGS).suspicions}
    assert found["P0240", "P0241"].severity.value == "major"
    assert set(found) == {("P0240", "P0241"), ("P0242", "P0241"), ("P0243", "P0241")}
    assert {found[p, "P0241"].severity.value for p in ("P0242", "P0243")} <= {"minor", "info"}
