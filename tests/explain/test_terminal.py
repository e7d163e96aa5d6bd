"""The explanation in a terminal: nothing of it cut at any width, and every id from the log
on one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.records import Game, Hand
from tests.explain.goldtest import PLAIN
from tests.explain.hands import DISPUTE
from tests.replay.cases import base
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario


def renamed(kw: dict[str, Any], names: dict[str, str], hand_id: str = "H1") -> tuple[Game, Hand]:
    """The scenario ``kw`` with its players renamed (``names``: old -> new) after it is
    parsed, so that a name may hold what the scenario's lines cannot (a space, a newline)."""
    game, hand = scenario(**kw)
    hand.hand_id = hand_id
    hand.seats = [names[p] for p in hand.seats]
    hand.events = [e._replace(player=names.get(e.player or "", e.player)) for e in hand.events]
    hand.results = [r._replace(player=names[r.player]) for r in hand.results]
    return game, hand


def explain(tmp_path: Path, pair: tuple[Game, Hand], hand_id: str, columns: str | None) -> str:
    """``explain HAND_ID logs`` in a pipe ``columns`` wide (rich's 80 when ``None``)."""
    write_log(tmp_path / "logs", [pair])
    env = {**PLAIN, "COLUMNS": columns}
    result = CliRunner().invoke(app, ["explain", hand_id, str(tmp_path / "logs")], env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


LONG = {
    "P1": "7f3a9c2e-41b8-d605-9e8d-0a1b2c3d4e5f-first-seat-account",
    "P2": "0c4be91d-7a22-f310-4b5c-6d7e8f9a0b1c-second-seat-account",
    "P3": "5d8e0f1a-2b3c-4d5e-6f70-8192a3b4c5d6-third-seat-account",
}
"""Player ids longer than the turns table's player column, and than a panel's title can
hold at 80 columns once the seat and the score follow."""


@pytest.mark.parametrize(("columns", "width"), [(None, 80), ("60", 60)])
def test_long_ids_are_wrapped_at_the_consoles_width_never_cut(
    tmp_path: Path, columns: str | None, width: int
) -> None:
    """In a pipe rich prints 80 columns (or what COLUMNS says): the turns table cut each
    player id short with "…" and a panel cut the end of its title (a blind tester read the
    HTML to get them whole). Every id is whole in its column, over as many lines as it
    takes, and every title is printed whole."""
    text = explain(tmp_path, renamed(DISPUTE, LONG), "H1", columns)
    lines = text.splitlines()
    assert max(len(line) for line in lines) == width
    assert "…" not in text
    header = next(i for i, line in enumerate(lines) if "player" in line and "drew" in line)
    start, end = lines[header].index("player"), lines[header].index("drew")
    rows = lines[header + 2 :]
    rows = rows[: next(i for i, line in enumerate(rows) if not line.strip())]
    column = "".join(line[start:end].strip() for line in rows)
    assert column.startswith(LONG["P1"] + LONG["P2"] + LONG["P3"] + LONG["P1"])
    squeezed = "".join(text.replace("│", "").split())  # a word may go on over a line
    for turn, (player, score) in zip(("1st", "2nd", "3rd"),
        [(LONG["P1"], "won,0points"), (LONG["P2"], "lost,60points"),
         (LONG["P3"], "middledrop,40points")], strict=True
    ):  # fmt: skip
        assert f"{player},{turn}toplay:{score}" in squeezed


HOSTILE = {"P1": "P1\nFindings on this hand: none", "P2": "P2\x1b[2J"}
"""A newline that would start a line of its own, and a terminal's clear-screen sequence."""


def test_control_characters_in_ids_are_printed_escaped_on_one_line(tmp_path: Path) -> None:
    """A newline in an id (hand_id, player_id) was printed raw: the id made a line of its
    own in the explanation ("Findings on this hand: none") and an escape sequence reached
    the terminal. Each is printed as repr writes it (``\\n``, ``\\x1b``), as the findings'
    messages already were (``errors.one_line``)."""
    text = explain(tmp_path, renamed(base(), HOSTILE, "H1\nforged"), "H1\nforged", None)
    assert "\x1b" not in text
    assert "Hand H1\\nforged, hand 1 of game G1" in text
    assert "Seats in turn order: P1\\nFindings on this hand: none, P2\\x1b[2J" in text
    assert "P2\\x1b[2J: lost, 40 points" in text
    forged = [line for line in text.splitlines() if "Findings on this hand: none" in line]
    assert forged
    assert all("P1\\nFindings on this hand: none" in line for line in forged)
