"""Small helpers of the rule tests: cards from text, rule variants written as TOML files."""

from __future__ import annotations

from pathlib import Path

from audit.cards import parse_codes
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, load_preset, load_ruleset_file

STANDARD = load_preset("standard-13")
FIRST_LIFE = load_preset("first-life-13")
NO_WILD = Jokers.of_rank(None)
"""Printed jokers only: the hands of rule tests that are not about the wild rank."""


def cards(text: str) -> list[int]:
    """Integer codes of space-separated card codes: ``cards("2H 3H JK")``."""
    return parse_codes(text.split())


def groups(text: str) -> list[list[int]]:
    """Groups separated by ``/``: ``groups("2H 3H 4H / 9C 9D 9S")``."""
    return [cards(part) for part in text.split("/")]


def flat(text: str) -> list[int]:
    """Every card of ``groups(text)``, in order: the hand those groups arrange."""
    return [c for g in groups(text) for c in g]


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def rule_table(key: str, value: object, *, text: str = "test", source: str = "test") -> str:
    return f'[{key}]\nvalue = {toml_value(value)}\ntext = "{text}"\nsource = "{source}"\n'


def write_ruleset(folder: Path, body: str, *, extends: str | None = "standard-13") -> Path:
    """A ruleset file ``custom.toml`` with ``id = "custom"``, ``extends`` and ``body``."""
    head = 'id = "custom"\n' + (f'extends = "{extends}"\n' if extends else "")
    path = folder / "custom.toml"
    path.write_text(head + body, encoding="utf-8")
    return path


def shoe(decks: int, printed_jokers: int | None = None) -> list[dict[str, object]]:
    """A ``deal.shoes`` value: one shoe for 2-6 players of ``decks`` decks with a printed
    joker each unless told, as 000_ deals 21 and 27 cards: "3 decks of card which include
    one 'printed' joker of each deck"."""
    jokers = decks if printed_jokers is None else printed_jokers
    return [{"players": [2, 6], "decks": decks, "printed_jokers": jokers}]


def variant(folder: Path, base: str = "standard-13", **rules: object) -> Ruleset:
    """``base`` with some rules changed, loaded from a file as a platform's ruleset would be.

    Keys are written with ``__`` for the dot: ``variant(tmp_path, melds__tunnela=True)``.
    """
    body = "".join(rule_table(key.replace("__", "."), value) for key, value in rules.items())
    return load_ruleset_file(write_ruleset(folder, body, extends=base))
