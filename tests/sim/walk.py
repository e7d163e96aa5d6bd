"""An independent walk through a log root, written from docs/replay.md, not from the simulator.

`load` reads the seven tables into plain rows grouped by game and hand; `walk` re-deals a
hand from its shoe, follows every event, asserting that cards are conserved and turns
kept, and works out the outcome and points the replay will expect for each player.
"""

from __future__ import annotations

import hashlib
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from audit.cards import CODE_TEXT, parse_code, parse_codes, shoe_composition
from audit.rules.declaration import check_declaration
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, load_preset
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_points
from audit.sim.anomalies import LABELS_SCHEMA

Row = dict[str, Any]
TABLES = ("games", "hands", "events", "results", "game_events", "ledger", "sessions")


def files(root: Path, table: str) -> list[Path]:
    return sorted((root / table).rglob("*.parquet"))


def digest(root: Path) -> dict[str, str]:
    """The SHA-256 of every Parquet file under ``root``, by relative path."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*.parquet"))
    }


def read(root: Path, table: str) -> list[Row]:
    """Every row of a table, file by file (so no Hive partition key becomes a column)."""
    return [row for path in files(root, table) for row in pq.ParquetFile(path).read().to_pylist()]


def by(rows: Iterable[Row], key: str) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for row in rows:
        out.setdefault(row[key], []).append(row)
    return out


@dataclass
class Logs:
    games: dict[str, Row]
    hands: dict[str, list[Row]]
    """By game, in hand_no order."""
    events: dict[str, list[Row]]
    """By hand, in seq order."""
    results: dict[str, list[Row]]
    game_events: dict[str, list[Row]]
    ledger: dict[str, list[Row]]
    sessions: dict[str, list[Row]]
    labels: list[Row]


def load(root: Path) -> Logs:
    hands = by(sorted(read(root, "hands"), key=lambda h: (h["game_id"], h["hand_no"])), "game_id")
    events = by(sorted(read(root, "events"), key=lambda e: (e["hand_id"], e["seq"])), "hand_id")
    game_events = by(
        sorted(read(root, "game_events"), key=lambda g: (g["game_id"], g["seq"])), "game_id"
    )
    labels = pq.read_table(root / "labels.parquet", schema=LABELS_SCHEMA).to_pylist()
    return Logs(
        games={g["game_id"]: g for g in read(root, "games")},
        hands=hands,
        events=events,
        results=by(read(root, "results"), "hand_id"),
        game_events=game_events,
        ledger=by(read(root, "ledger"), "game_id"),
        sessions=by(read(root, "sessions"), "game_id"),
        labels=labels,
    )


def found_for(label: Row, findings: Iterable[Row]) -> list[Row]:
    """The findings that report the planted ``label``: its check on its game, hand, event
    and one of its players (a split's shares name every player, so any player will do)."""
    return [
        f
        for f in findings
        if f["check"] == label["check"]
        and f["game_id"] == label["game_id"]
        and (label["hand_id"] is None or f["hand_id"] == label["hand_id"])
        and (label["seq"] is None or f["seq"] == label["seq"])
        and (
            f["player_id"] is None
            or label["kind"] == "split_amount"
            or f["player_id"] in label["players"]
        )
    ]


def cards(group: list[str]) -> list[int]:
    return parse_codes(group)


@dataclass
class Walked:
    """What the replay expects of one hand, and what happened on the way."""

    outcomes: dict[str, str]
    points: dict[str, int]
    reshuffles: int = 0
    declarations: int = 0
    shows: dict[str, int] = field(default_factory=dict)
    """Shown groups' points per player (the rest were arranged by the server)."""


def walk(game: Row, hand: Row, events: list[Row]) -> Walked:
    """Follow one hand event by event; every broken rule is an AssertionError."""
    rules = load_preset(game["ruleset"])
    seats: list[str] = [seat["player_id"] for seat in hand["seats"]]
    n, k = len(seats), game["cards_per_hand"]
    shoe = parse_codes(hand["shoe"])
    spec = rules.shoe_for(n)
    assert spec is not None
    assert Counter(shoe) == shoe_composition(spec.decks, spec.printed_jokers), "deal.shoes"
    assert (game["decks"], game["printed_jokers"]) == (spec.decks, spec.printed_jokers)
    assert hand["wild_card"] == CODE_TEXT[shoe[n * k]], "deal.mismatch (wild card)"
    assert hand["open_card"] == CODE_TEXT[shoe[n * k + 1]], "deal.mismatch (open card)"
    assert [e["seq"] for e in events] == list(range(len(events))), "seq has gaps"
    jokers = Jokers.for_wild_card(shoe[n * k], rules)
    held = {p: Counter(shoe[i : n * k : n]) for i, p in enumerate(seats)}
    stock, pile = deque(shoe[n * k + 2 :]), [shoe[n * k + 1]]
    pile_touched = False
    out: dict[str, str] = {}
    drawn: set[str] = set()
    completed: set[str] = set()
    shown: dict[str, list[list[int]]] = {}
    walked = Walked({}, {})
    last, current, winner = n - 1, None, None

    def next_player() -> str:
        i = (last + 1) % n
        while seats[i] in out:
            i = (i + 1) % n
        return seats[i]

    for e in events:
        player, action = e["player_id"], e["action"]
        card = None if e["card"] is None else parse_code(e["card"])
        groups = None if e["groups"] is None else [cards(g) for g in e["groups"]]
        assert winner is None or action == "show", f"{action} after the hand ended"
        assert (e["reason"] is not None) == (action == "drop" or e["auto"])
        match action:
            case "reshuffle":
                assert player is None
                assert card is None
                assert groups is not None
                assert not stock, "reshuffle while the stock holds cards"
                assert current is None, "reshuffle in the middle of a turn"
                assert len(groups) == 1
                assert Counter(groups[0]) == Counter(pile[:-1])
                stock, pile = deque(groups[0]), pile[-1:]
                walked.reshuffles += 1
            case "drop":
                assert card is None
                assert groups is None
                assert player not in out
                if e["reason"] == "left":
                    assert e["auto"]
                else:
                    assert player == next_player()
                    assert current is None
                    assert not e["auto"]
                    last = seats.index(player)
                out[player] = "middle_drop" if player in drawn else "first_drop"
            case "draw_stock" | "draw_discard":
                assert current is None, "turn.order (two draws in a turn)"
                assert player == next_player(), "turn.order"
                assert card is not None
                assert groups is None
                assert not e["auto"]
                if action == "draw_stock":
                    assert stock.popleft() == card, "draw.stock_mismatch"
                else:
                    assert pile, "draw.discard_mismatch (the pile is empty)"
                    assert pile.pop() == card, "draw.discard_mismatch"
                    if jokers.is_joker(card):
                        allowed = rules.joker_from_discard
                        assert allowed == "allowed" or (
                            allowed == "open_card_only" and not pile_touched
                        ), "draw.forbidden"
                pile_touched = True
                held[player][card] += 1
                drawn.add(player)
                current = player
            case "discard":
                assert player == current
                assert card is not None
                assert groups is None
                assert held[player][card] > 0, "discard.not_in_hand"
                held[player][card] -= 1
                pile.append(card)
                completed.add(player)
                current, last = None, seats.index(player)
            case "declare":
                assert player == current
                assert card is not None
                assert groups is not None
                assert held[player][card] > 0, "discard.not_in_hand (finish slot)"
                held[player][card] -= 1
                rest = +held[player]
                assert Counter(c for g in groups for c in g) == rest, "declare.groups_mismatch"
                check = check_declaration(list(rest.elements()), groups, jokers, rules)
                walked.declarations += 1
                if check.valid:
                    winner = player
                else:
                    out[player] = "invalid_declare"
                current, last = None, seats.index(player)
            case "show":
                assert winner is not None
                assert player != winner
                assert player not in out
                assert groups is not None
                assert card is None
                assert player not in shown
                assert Counter(c for g in groups for c in g) == +held[player]
                shown[player] = groups
            case _:
                raise AssertionError(f"unknown action {action!r}")
        still_in = [p for p in seats if p not in out]
        if winner is None and len(still_in) == 1:
            winner = still_in[0]
    assert winner is not None, "the hand never ended"
    for player in seats:
        walked.outcomes[player], walked.points[player] = _charged(
            player,
            winner,
            out,
            rules,
            game["format"],
            jokers,
            cap=rules.cap if player in completed else rules.first_hand_show_cap,
            shown=shown.get(player),
            cards=list(held[player].elements()),
        )
        if player in shown:
            walked.shows[player] = walked.points[player]
    return walked


def _charged(
    player: str,
    winner: str,
    out: dict[str, str],
    rules: Ruleset,
    game_format: str,
    jokers: Jokers,
    *,
    cap: int,
    shown: list[list[int]] | None,
    cards: list[int],
) -> tuple[str, int]:
    """The outcome and points docs/replay.md gives a player."""
    if player == winner:
        return "won", 0
    outcome = out.get(player, "lost")
    if outcome == "invalid_declare":
        return outcome, rules.invalid_penalty
    if outcome in ("first_drop", "middle_drop"):
        penalty = rules.drop_penalty(game_format)
        if penalty is None:
            return outcome, rules.cap
        return outcome, penalty.first if outcome == "first_drop" else penalty.middle
    if shown is not None:
        return outcome, score_arrangement(shown, jokers, rules, cap=cap).points
    return outcome, best_points(cards, jokers, rules, cap=cap)
