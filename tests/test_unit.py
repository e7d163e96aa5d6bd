"""The unit of audit has one home (audit/unit.py): the nightly run and `explain` decide by the
same code whether a hand can be replayed, and see the same findings."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.explain import find_game, find_hand, load_view, render_text
from audit.records import GameUnit, LedgerRow
from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from audit.unit import audit_unit, game_checks
from tests.logs.logbuilder import T0, LogBuilder
from tests.replay.cases import base, won_ledger
from tests.replay.scenario import scenario

STANDARD = load_preset("standard-13")


def test_explain_refuses_the_hand_the_night_quarantines(tmp_path: Path) -> None:
    """A stock draw with no card: the night quarantines the hand, and explain says why
    rather than replaying it as a draw of a joker (the code -1 of "no card")."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2")
    draw = next(r for r in logs.rows["events"] if r["hand_id"] == "h2"
                and r["action"] == "draw_stock")  # fmt: skip
    draw["card"] = None
    root = logs.write()
    out = tmp_path / "out"
    replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    rows = {r["hand_id"]: r for r in pq.read_table(out / "hands.parquet").to_pylist()}
    assert rows["h2"]["status"] == "quarantined"
    assert rows["h2"]["reason"] == "hand h2 event 0 (draw_stock) has no card"
    view = load_view(root, "h2")
    assert view.unreplayable == f"This hand could not be replayed: {rows['h2']['reason']}"
    assert "drew" not in render_text(view)
    assert load_view(root, "h1").verdict == "the record agrees with the rules: no findings"


def test_the_unit_is_the_one_door(tmp_path: Path) -> None:
    """`games/` and `replay/` no longer import each other: the records they share live in
    audit/records.py and the unit of audit in audit/unit.py."""
    package = Path(__file__).resolve().parents[1] / "audit"
    for folder, other in (("games", "audit.replay"), ("replay", "audit.games")):
        for path in (package / folder).glob("*.py"):
            assert other not in path.read_text(), path
    assert not (package / "replay" / "records.py").exists()


def test_two_hands_of_a_game_with_one_hand_no_leave_its_game_unchecked(tmp_path: Path) -> None:
    """log-format.md: `hands.hand_no` is the 1-based position of the hand in its game, so
    two hands cannot hold one: each hand is still replayed (its deal and turns stand alone),
    but the game's checks, which follow the hands in order, are not run, and say why, at
    `major`: the platform's own record is at fault and no other finding says so (a blind
    tester: at `info` a points game's money went unchecked and the run exited 0)."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2").quick_hand("h3")
    logs.rows["hands"][2]["hand_no"] = 2
    out = tmp_path / "out"
    summary = replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (unchecked,) = [f for f in findings if f["check"] == "game.unchecked"]
    assert (unchecked["game_id"], unchecked["severity"]) == ("g1", "major")
    assert summary.exit_status == 1
    assert "hand no. 2 is held by 2 hands (h2, h3)" in unchecked["message"]
    hands = pq.read_table(out / "hands.parquet").to_pylist()
    assert {h["hand_id"]: h["status"] for h in hands} == dict.fromkeys(("h1", "h2", "h3"),
                                                                      "verified")  # fmt: skip


def test_game_unchecked_a_game_with_no_hand_held_is_a_note_not_a_gap(tmp_path: Path) -> None:
    """schemas/output.md: `game.unchecked` is `info`, and `major` only for two hands holding
    one number or a number missing between two the hands table holds. A games row none of
    whose hands the hands table holds (or whose one hand was quarantined, its `input.row`
    saying why) has no two numbers to miss one between: a note, exit 0 (a blind tester: a
    games row with no hands was the night's only finding, at major, and failed the run)."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1")
    logs.game("g2")
    summary = replay_logs(logs=logs.write(), out=tmp_path / "out", workers=1, progress=False,
                          fairplay=False)  # fmt: skip
    findings = pq.read_table(tmp_path / "out" / "findings.parquet").to_pylist()
    (note,) = [f for f in findings if f["check"] != "check.skipped"]  # optional tables
    assert (note["check"], note["game_id"], note["severity"]) == ("game.unchecked", "g2", "info")
    assert "the hands table holds none of its hands" in note["message"]
    assert summary.exit_status == 0


def test_game_unchecked_money_is_one_sentence_saying_what_does_not_add_up() -> None:
    """The output contract's message: one plain sentence (audit/findings.py, `finding`;
    STYLE.md 12). A points game whose ledger does not add up while a ledger file could not
    be read, or while a hand records no result for a player, is one `game.unchecked` whose
    message ends with what does not add up (before: a second sentence, "... not checked.
    What does not add up: ...")."""
    game, hand = scenario(**base())  # P1 won 36.00, P2 lost -40.00: 4.00 of rake
    game.ledger = [LedgerRow("P1", "points_settlement", Decimal("46.00")),
                   LedgerRow("P2", "points_settlement", Decimal("-40.00")),
                   LedgerRow(None, "rake", Decimal("4.00"))]  # fmt: skip
    damaged = {"ledger": ["ledger/part-1.parquet"]}
    (lost,) = [f for f in game_checks(game, [hand], STANDARD, damaged=damaged)
               if f.check == "game.unchecked"]  # fmt: skip
    assert lost.message == (
        "Game G1's ledger rows do not add up, and ledger/part-1.parquet could not be read and "
        "may hold the rest of them, so its money was not checked; what does not add up: "
        "Game G1 took in 40.00 but paid out 50.00 (rake included), 10.00 too much, and the "
        "ledger check found 1 more difference."
    )
    hand.results = [r for r in hand.results if r.player != "P2"]
    (unsettled,) = [f for f in game_checks(game, [hand], STANDARD) if f.check == "game.unchecked"]
    assert unsettled.message.startswith(
        "Game G1's ledger rows do not add up, but hand H1 records no result for P2 (see its "
        "score.outcome finding), so what its hands settle is not known and its money was not "
        "checked; what does not add up: Game G1 took in 40.00 but paid out 50.00"
    )
    for message in (lost.message, unsettled.message):
        assert message.endswith("."), message
        assert ". " not in message, message


def test_a_hand_number_missing_from_a_game_leaves_it_unchecked_at_major(tmp_path: Path) -> None:
    """log-format.md: `hands.hand_no` is the 1-based position of the hand in its game: a
    game whose hands are numbered 1, 2 and 4 lacks a hand, and with no unreadable hands
    file to hold it, the record is at fault and no other finding says so. Its
    `game.unchecked` is `major`, and the run exits 1 (a blind tester: at `info` the game's
    money went unchecked and the night exited 0). Hands numbered 5 to 7 only may follow
    an earlier batch's: a note, `info`."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2").quick_hand("h3")
    logs.rows["hands"][2]["hand_no"] = 4
    out = tmp_path / "out"
    summary = replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (unchecked,) = [f for f in findings if f["check"] == "game.unchecked"]
    assert (unchecked["game_id"], unchecked["severity"]) == ("g1", "major")
    assert "no hand no. 3 of it was read from the hands table" in unchecked["message"]
    assert summary.exit_status == 1
    logs.rows["hands"][0]["hand_no"], logs.rows["hands"][1]["hand_no"] = 5, 6
    logs.rows["hands"][2]["hand_no"] = 7
    summary = replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (unchecked,) = [f for f in findings if f["check"] == "game.unchecked"]
    assert unchecked["severity"] == "info"


def _table_of_two_games(tmp_path: Path) -> LogBuilder:
    """Games g1 (hands h1 and h2, 18:00 to 19:00) and g2 (hand h3 at 20:10, 20:00 to 21:00)
    of one table."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2")
    logs.game("g2", started_at=T0 + timedelta(hours=2), ended_at=T0 + timedelta(hours=3))
    logs.quick_hand("h3", started_at=T0 + timedelta(hours=2, minutes=10),
                    ended_at=T0 + timedelta(hours=2, minutes=15))  # fmt: skip
    return logs


def test_hands_game_id_a_hand_held_twice_is_quarantined_and_its_time_not_judged(
    tmp_path: Path,
) -> None:
    """schemas/README.md: a key held twice is quarantined, so no alarm rests on a row that
    could not be read. A hand written again under the next game of its table, outside that
    game's time: both rows are quarantined, and no `hand.time` comes from the copy (a blind
    tester: a major hand.time on the game the copy named)."""
    logs = _table_of_two_games(tmp_path)
    (h1,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h1"]
    logs.rows["hands"].append({**h1, "game_id": "g2"})
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    hands = {r["hand_id"]: r["status"] for r in pq.read_table(out / "hands.parquet").to_pylist()}
    assert hands["h1"] == "quarantined"
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert [f for f in findings if f["check"] == "hand.time"] == []


def test_hands_started_at_times_finer_than_a_millisecond_are_truncated_before_judged(
    tmp_path: Path,
) -> None:
    """schemas/README.md ("a timestamp in any unit ... Finer units are truncated to the
    millisecond"): g1's games row is written in nanoseconds, 0.9 ms past the millisecond its
    first hand started in, as a nanosecond service clock writes it. Truncated, the game
    starts with its hand: no `hand.time` (a blind tester's such night was a major
    `hand.time` saying the hand "started at 18:00:05 UTC, outside its game's time
    (18:00:05 to ...)"). And the shuffle tests' order is the same: every output is the
    bytes of the night written in milliseconds."""
    logs = _table_of_two_games(tmp_path)
    root = logs.write()
    out = tmp_path / "out"
    replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    (games,) = (root / "games").rglob("*.parquet")
    table = pq.read_table(games)
    for name in ("started_at", "ended_at"):
        ns = pc.cast(table.column(name), pa.timestamp("ns", tz="UTC"))
        late = pc.add(ns, pa.scalar(900_000, pa.duration("ns")))
        table = table.set_column(table.schema.get_field_index(name), name, late)
    pq.write_table(table, games)
    again = tmp_path / "again"
    replay_logs(logs=root, out=again, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(again / "findings.parquet").to_pylist()
    assert [f["message"] for f in findings if f["check"] == "hand.time"] == []
    for name in ("findings", "hands", "rng"):
        assert (out / f"{name}.parquet").read_bytes() == (again / f"{name}.parquet").read_bytes()


def test_hands_ended_at_a_hand_that_ended_before_it_started_is_one_minor_finding(
    tmp_path: Path,
) -> None:
    """log-format.md (hands: started_at, ended_at): hand h3 of g2 is written as ending an
    hour before it started. The replay does not read the times, so the hand verifies, but
    a row that cannot be as written is said: one minor `hand.time` naming both times (a
    blind tester's such hand was verified and silent). Honest times say nothing."""
    logs = _table_of_two_games(tmp_path)
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert [f for f in findings if f["check"] == "hand.time"] == []
    (h3,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h3"]
    h3["ended_at"] = h3["started_at"] - timedelta(hours=1)
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (timed,) = [f for f in findings if f["check"] == "hand.time"]
    assert (timed["severity"], timed["game_id"], timed["expected"], timed["recorded"]) == (
        "minor", "g2", "at or after 2026-11-29 20:10:00 UTC", "2026-11-29 19:10:00 UTC")
    assert timed["message"] == (
        "Hand h3 (hand no. 1 of game g2) ended at 2026-11-29 19:10:00 UTC, before it started "
        "at 2026-11-29 20:10:00 UTC: one of its two times is wrong.")
    assert timed["rule"].startswith("hands.ended_at: ")
    hands = {r["hand_id"]: r["status"] for r in pq.read_table(out / "hands.parquet").to_pylist()}
    assert hands["h3"] == "verified"


def test_hands_game_id_a_hand_that_started_outside_its_games_time_is_one_finding(
    tmp_path: Path,
) -> None:
    """log-format.md: a game is one table session, `started_at` to `ended_at`, and a hand
    is dealt in its game. A hand filed under the game before it at the same table started
    after that game ended: one `hand.time` that names the hand and the game of the table
    running then (a blind tester: such hands were verified, and only the ledgers of both
    games blamed). Hands within their game's time give none."""
    logs = _table_of_two_games(tmp_path)
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert not [f for f in findings if f["check"] == "hand.time"]
    (h3,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h3"]
    h3["game_id"] = "g1"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (moved,) = [f for f in findings if f["check"] == "hand.time"]
    assert (moved["game_id"], moved["severity"]) == ("g1", "major")
    assert moved["message"] == (
        "Hand h3 (hand no. 1 of game g1) started at 2026-11-29 20:10:00 UTC, outside its "
        "game's time (2026-11-29 18:00:00 to 2026-11-29 19:00:00 UTC): game g2 of the same "
        "table was running then and holds no hand no. 1 of its own, so the hand was played "
        "in it and is audited as game g2's, with that game's checks and money."
    )


def test_hands_game_id_a_hand_filed_under_another_game_of_its_table_is_audited_in_its_own(
    tmp_path: Path,
) -> None:
    """log-format.md: a game is one table session and `hands.hand_no` the hand's position
    in it. A hand filed under another game of its table, that started while its own game
    ran and fills that game's missing number, is read into the game it was played in
    (audit/logs/refile.py): `hand.time` is the one finding, neither game's numbers nor
    money are blamed, and explain reads it as the night does (a blind tester: 60 such hands
    gave 3 to 13 findings each, a blameless game's ledger critical in 49)."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2").quick_hand("h3")
    logs.game("g2", started_at=T0 + timedelta(hours=2), ended_at=T0 + timedelta(hours=3))
    logs.quick_hand("h4", started_at=T0 + timedelta(hours=2, minutes=10),
                    ended_at=T0 + timedelta(hours=2, minutes=15))  # fmt: skip
    games = {r["hand_id"]: r["game_id"] for r in logs.rows["hands"]}
    for game in ("g1", "g2"):  # each game's points settled in its ledger, and the rake
        money: dict[str, Decimal] = {}
        for r in logs.rows["results"]:
            if games[r["hand_id"]] == game:
                money[r["player_id"]] = money.get(r["player_id"], Decimal(0)) + r["amount"]
        for player, amount in sorted(money.items()):
            logs.row("ledger", game_id=game, player_id=player, kind="points_settlement",
                     amount=amount, ts=T0)  # fmt: skip
        logs.row("ledger", game_id=game, player_id=None, kind="rake",
                 amount=-sum(money.values()), ts=T0)  # fmt: skip
    (h2,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h2"]
    h2["game_id"] = "g2"  # g1's hand no. 2, its started_at in g1's time
    root = logs.write()
    out = tmp_path / "out"
    replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    found = [(f["check"], f["game_id"]) for f in findings if f["check"] != "check.skipped"]
    assert found == [("hand.time", "g2")]  # (skipped: the builder writes no sessions)
    assert not [f for f in findings if "ledger" in f["message"]]
    assert "audited as game g1's" in findings[-1]["message"]
    read = {r["hand_id"]: r["game_id"] for r in pq.read_table(out / "hands.parquet").to_pylist()}
    assert read == games
    for game in ("g1", "g2"):
        assert [f.check for f in find_game(root, game).findings] == ["hand.time"]
    assert find_hand(root, "h2").game_id == "g1"


def test_hands_started_at_a_hand_whose_start_alone_is_wrong_stays_in_its_game(
    tmp_path: Path,
) -> None:
    """A game's last hand whose `started_at` falls in the next game of its table, which
    holds the hand number before it as its own game does: nothing but the time says the
    hand is the other game's, so it stays in the game its row names and `hand.time` says
    only that it may be another game's (audit/logs/refile.py)."""
    logs = _table_of_two_games(tmp_path)
    (h2,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h2"]
    h2["started_at"] = T0 + timedelta(hours=2, minutes=20)
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (timed,) = [f for f in findings if f["check"] == "hand.time"]
    assert timed["message"].endswith(
        "it may be another game's; game g2 of the same table was running then."
    )
    games = {r["hand_id"]: r["game_id"] for r in pq.read_table(out / "hands.parquet").to_pylist()}
    assert games == {"h1": "g1", "h2": "g1", "h3": "g2"}


def test_results_player_id_a_loser_without_a_results_row_settles_as_the_rules_say() -> None:
    """log-format.md, results (one row per seated player): P2's row is missing. The hand's
    `score.outcome` says so, and P2 paid the winner the rules' points, as `score.amount`
    settles it, so the game's ledger is checked against that: a ledger that settled P2's
    40.00 is right, and the missing row is one finding, not also `game.unchecked` (a blind
    tester: 29 of 60 such rows gave both). A ledger off as well is still its own finding."""
    game, hand = scenario(**base())  # P1 won 36.00, P2 lost -40.00: 4.00 of rake
    game.ledger = won_ledger()
    hand.results = [r for r in hand.results if r.player != "P2"]
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert [(f.check, f.player_id) for f in unit.hands[0].audit.findings] == [  # type: ignore[union-attr]
        ("score.outcome", "P2")]
    assert unit.findings == []
    game.ledger[1] = LedgerRow("P2", "points_settlement", Decimal("-41.00"))
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert [f.check for f in unit.findings] == ["ledger.balance"]


def test_sessions_game_id_games_without_a_sessions_row_are_said_not_seen(tmp_path: Path) -> None:
    """log-format.md, sessions: "one row per player connection to a game". A night whose
    sessions rows cover g1 but not g2 gets one `check.skipped` saying table.limit and the
    shared-device detector did not see g2 (a blind tester's night had sessions for 5 of
    its 947 games, and read as clean); a game whose only sessions rows are quarantined
    (left before they joined) is not covered either; with every game covered, none."""
    logs = _table_of_two_games(tmp_path)
    joined = {"client": "app", "ip": "10.0.0.1", "device_id": "d1", "joined_at": T0,
              "left_at": T0 + timedelta(hours=1)}  # fmt: skip
    for player in ("P1", "P2"):
        logs.row("sessions", player_id=player, game_id="g1", **joined)
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (gap,) = [f for f in findings if f["rule"].startswith("sessions.game_id")]
    assert (gap["check"], gap["severity"], gap["game_id"]) == ("check.skipped", "info", "")
    assert gap["message"] == (
        "1 of the night's 2 ended games have no sessions row that is not quarantined (g2): "
        "table.limit and fairplay.shared_device could not see who played in them or from "
        "where, and judged the other 1 only."
    )
    backwards = {**joined, "joined_at": T0 + timedelta(hours=3), "left_at": T0 + timedelta(hours=2)}
    for player in ("P1", "P2"):
        logs.row("sessions", player_id=player, game_id="g2", **backwards)
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert [f["message"].split(" (")[0] for f in findings
            if f["rule"].startswith("sessions.game_id")] == [
        "1 of the night's 2 ended games have no sessions row that is not quarantined"]
    assert len(pq.read_table(out / "quarantine.parquet").to_pylist()) == 2
    logs.rows["sessions"] = [r for r in logs.rows["sessions"] if r["game_id"] == "g1"]
    for player in ("P1", "P2"):
        logs.row("sessions", player_id=player, game_id="g2", **{
            **joined, "joined_at": T0 + timedelta(hours=2), "left_at": T0 + timedelta(hours=3)})
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert not [f for f in findings if f["rule"].startswith("sessions.game_id")]


def test_deal_shoes_a_hand_its_shoe_cannot_deal_is_judged_on_its_shoe_alone(
    tmp_path: Path,
) -> None:
    """deal.shoes: a hands row whose shoe is an empty list is its one `deck.composition`
    and no more: no one was dealt cards, so the rules give no outcome and no
    amount, and explain says so rather than that the hand "did not finish" beside the
    recorded amounts, and calls nothing of the record different from the rules (a blind
    tester: an empty shoe was also `score.amount` and critical `ledger.balance` findings)."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1")
    logs.rows["hands"][0]["shoe"] = []
    root = logs.write()
    out = tmp_path / "out"
    replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    findings = [f for f in pq.read_table(out / "findings.parquet").to_pylist()
                if f["check"] != "check.skipped"]  # fmt: skip
    (found,) = findings  # the shoe's one finding (a blind tester: two for one empty shoe)
    assert (found["check"], found["hand_id"]) == ("deck.composition", "h1")
    assert found["message"].startswith(
        "The shoe of 0 cards is not 2 decks and 2 printed jokers, too few to deal 13 cards to "
        "2 players and turn up the wild and open cards: it lacks ")
    view = load_view(root, "h1")
    assert {(p.why, p.amount, p.differs, p.agrees) for p in view.players} == {
        ("its recorded shoe is too short to deal, so the rules give no outcome and no amount",
         "", (), False)}  # fmt: skip
    assert "did not finish" not in render_text(view)


def test_hands_game_id_a_null_game_id_is_one_input_row_and_no_game_named_nothing(
    tmp_path: Path,
) -> None:
    """log-format.md: `hands.game_id` names the game a hand was dealt in. g2's one hand,
    h3, is written with a null game_id: its `input.row` is the finding, and hands.parquet
    gives the hand a null game_id (schemas/output.md: `string ?`), not "". g2, which then
    has no hand, is not said to have none in the hands table, which may hold it: its
    `game.unchecked` names the row (a blind tester: a `game.unchecked` of a game named "",
    and g2's saying "the hands table holds none of its hands"). explain says the same of
    g2. A row naming no game is its own finding, so a hand number it may fill is no major
    gap (g1's hand no. 2 below)."""
    logs = _table_of_two_games(tmp_path)
    (h3,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h3"]
    h3["game_id"] = None
    root = logs.write()
    out = tmp_path / "out"
    summary = replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    findings = [f for f in pq.read_table(out / "findings.parquet").to_pylist()
                if f["check"] != "check.skipped"]  # fmt: skip
    assert [(f["check"], f["game_id"], f["hand_id"]) for f in findings] == [
        ("input.row", "", "h3"), ("game.unchecked", "g2", None)]
    where = findings[0]["message"].removesuffix(": game_id is null")
    assert where.startswith("hands row ")
    assert findings[1]["severity"] == "info"
    assert findings[1]["message"] == (
        "The game-level checks of game g2 (scores, chips and money against its hands) were "
        f"not run: no hands row names it ({where} has a null game_id: it may be one of its "
        "hands).")
    assert [f.message for f in find_game(root, "g2").findings] == [findings[1]["message"]]
    hands = {r["hand_id"]: r for r in pq.read_table(out / "hands.parquet").to_pylist()}
    assert (hands["h3"]["game_id"], hands["h3"]["status"]) == (None, "quarantined")
    assert summary.exit_status == 1  # the input.row, major
    h3["game_id"] = "g2"
    logs.quick_hand("h4", game_id="g1", hand_no=3)
    (h2,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h2"]
    h2["game_id"] = None
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (unchecked,) = [f for f in findings if f["check"] == "game.unchecked"]
    assert (unchecked["game_id"], unchecked["severity"]) == ("g1", "info")
    assert "no hand no. 2 of it was read from the hands table (hands row " in unchecked["message"]
    assert "has a null game_id: it may be one of its hands)" in unchecked["message"]


def test_games_started_at_a_game_that_ended_before_it_started_is_one_minor_finding(
    tmp_path: Path,
) -> None:
    """log-format.md (games: started_at, ended_at): g2's games row is written as ending an
    hour before it started. One minor `hand.time` says so of the games row, naming both
    times, as of a hand that did (a blind tester: a major `hand.time` on g2's blameless
    hand, "outside its game's time (20:00:00 to 19:00:00 UTC)"). Its hands are compared with
    its start alone: h3, after it, is fine; a hand before it is still said, from the start."""
    logs = _table_of_two_games(tmp_path)
    (g2,) = [r for r in logs.rows["games"] if r["game_id"] == "g2"]
    g2["ended_at"] = g2["started_at"] - timedelta(hours=1)
    root = logs.write()
    out = tmp_path / "out"
    summary = replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (timed,) = [f for f in findings if f["check"] != "check.skipped"]
    assert (timed["check"], timed["severity"], timed["game_id"], timed["hand_id"]) == (
        "hand.time", "minor", "g2", None)
    assert (timed["expected"], timed["recorded"]) == (
        "at or after 2026-11-29 20:00:00 UTC", "2026-11-29 19:00:00 UTC")
    assert timed["message"] == (
        "Game g2 ended at 2026-11-29 19:00:00 UTC, before it started at 2026-11-29 20:00:00 "
        "UTC: one of its two times is wrong, so its hands were checked against its start only.")
    assert timed["rule"].startswith("games.started_at: ")
    assert summary.exit_status == 0
    assert [f.message for f in find_game(root, "g2").findings] == [timed["message"]]
    (h3,) = [r for r in logs.rows["hands"] if r["hand_id"] == "h3"]
    h3["started_at"] = T0 + timedelta(hours=1, minutes=50)
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert [f["message"] for f in findings if f["check"] == "hand.time"] == [timed["message"], (
        "Hand h3 (hand no. 1 of game g2) started at 2026-11-29 19:50:00 UTC, outside its game's "
        "time (from 2026-11-29 20:00:00 UTC): no game of its table was running then, so its "
        "time or its game's is wrong.")]
