"""Rulesets as data: TOML presets loaded into frozen, validated objects.

A preset file holds one table per rule, ``[section.name]`` with ``value``, ``text`` (the
rule in plain words) and ``source`` (the seed file and the words it rests on), plus an
optional ``choice`` where the seeds disagree or are silent. ``extends = "other-id"`` takes
every rule of another preset and overrides some. An unknown key, a missing rule or a bad
value is a ``RulesetError`` naming the file and the key.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from audit.cards import CODE_OF, JOKER, RANK_OF, Rank
from audit.errors import RulesetError
from audit.findings import RULE_KEYS, contract
from audit.records import Format
from audit.rules.contradictions import contradictions

FORMATS: tuple[str, ...] = tuple(f.value for f in Format)
JokersOnlyGroup = Literal["leftover", "run", "invalid"]


@dataclass(frozen=True, kw_only=True)
class Rule:
    """One rule of a preset, as ``rules show`` prints it and a finding cites it."""

    key: str
    value: object
    text: str
    source: str
    choice: str = ""

    def cite(self) -> str:
        """``key: text (source)``, the ``rule`` column of a finding."""
        return f"{self.key}: {self.text} ({self.source})"


@dataclass(frozen=True, kw_only=True)
class ShoeSpec:
    """The shoe for a range of player counts."""

    min_players: int
    max_players: int
    decks: int
    printed_jokers: int


@dataclass(frozen=True, kw_only=True)
class DropPenalty:
    first: int
    middle: int


@dataclass(frozen=True, kw_only=True)
class PoolRules:
    """The thresholds of one pool format (101 or 201), per 000_."""

    elimination_score: int
    exactly_eliminates: bool
    rebuy_min_players: int
    rebuy_counts: Literal["hand", "still_in"]
    """Who counts toward ``rebuy_min_players``: everyone who played the hand, the player
    who lost it included (000_) and a player who left the game in it not (they are gone
    from the table: audit/games/leaving.py), or only those still in after its
    eliminations."""
    rebuy_below: int
    manual_split_min_score: int
    drop_base: int
    drop_step: int
    split_drop_difference: tuple[int, int]
    auto_split_above: int

    def is_eliminated(self, score: int) -> bool:
        if self.exactly_eliminates:
            return score >= self.elimination_score
        return score > self.elimination_score

    def first_drops_left(self, score: int) -> int:
        """000_'s "Number of first drops", INTEGER((base - score) / step): a count, so the
        whole drops in it and never fewer than 0 (a score above ``drop_base``, still in
        under a platform's rules, has no first drop left; docs/rulesets.md)."""
        return max(0, (self.drop_base - score) // self.drop_step)


@dataclass(frozen=True, kw_only=True)
class Alternative:
    """Another way to declare (21 and 27 cards): ``count`` or more tunnelas, dublees or
    jokers in the declarer's cards, the other cards needing no arrangement."""

    kind: Literal["tunnelas", "dublees", "jokers"]
    count: int


@dataclass(frozen=True, kw_only=True)
class ReadyHand:
    """What a loser whose hand was ready to declare pays (21 and 27 cards): ``points``,
    when their cards lie in melds meeting the requirement, or hold ``dublees`` dublees or
    ``jokers`` jokers."""

    points: int
    dublees: int
    jokers: int


@dataclass(frozen=True, kw_only=True)
class ValueCards:
    """The value cards of 21 and 27 cards: the cut card and its up and down jokers.

    Holding ``n`` of one kind is worth ``tiers[n - 1]`` (the last tier beyond); one card of
    every kind together is a marriage, and ``m`` marriages are worth ``marriage[m - 1]``;
    a card in a marriage is not counted again."""

    tiers: tuple[int, ...]
    marriage: tuple[int, ...]


@dataclass(frozen=True, kw_only=True, eq=False)
class Ruleset:
    """Every rule the replay needs, fixed by a preset. Build it with ``load_preset``.

    Compared and hashed by identity: presets are loaded once and cached.

    >>> rs = load_preset("standard-13")
    >>> rs.cards_per_hand, rs.cap, rs.drop_penalty("pool_201")
    (13, 80, DropPenalty(first=25, middle=50))
    """

    id: str
    title: str
    path: str
    rules: Mapping[str, Rule] = field(repr=False, compare=False)

    cards_per_hand: int
    min_players: int
    max_players: int
    shoes: tuple[ShoeSpec, ...]

    wild_rank_from_wild_card: bool
    wild_scope: Literal["rank", "card"]
    """What the card turned up makes wild: every card of its rank, or only that card
    (every copy of its suit and rank in the shoe); a printed joker turned up under "card"
    makes no suited card wild."""
    printed_joker_wild_rank: Rank
    up_down_jokers: bool
    up_down_depth: int
    """How many ranks above and below the cut card, in its suit, are up and down jokers
    (21 cards: 1, 27 cards: 2), when ``up_down_jokers``."""
    printed_joker_cut_card: int | None
    """The card that stands as the cut card when a printed joker is turned up (its up and
    down jokers, and the value cards, are around it); ``None``: no up and down jokers then."""

    joker_from_discard: Literal["allowed", "open_card_only", "never"]
    drop_after_draw: bool
    """Whether a player's own drop may follow their draw in the same turn (a middle drop);
    if not, it is ``turn.order``. The server's fold after a draw is allowed either way."""

    min_meld_size: int
    ace_low: bool
    ace_high: bool
    run_wraps: bool
    max_set_size: int
    max_jokers_per_run: int | None
    max_jokers_per_set: int | None
    wild_natural_keeps_pure: bool
    jokers_only_group: JokersOnlyGroup
    tunnela: bool
    tunnela_kind: Literal["set", "pure_run"]
    """What a tunnela counts as toward the declaration requirement (21 and 27 cards: a
    pure sequence)."""
    printed_joker_tunnela: bool
    """Three printed jokers together are a tunnela too."""

    min_runs: int
    min_pure_runs: int
    long_run_length: int | None
    invalid_penalty: int
    invalid_ends_hand: bool
    groupings: tuple[tuple[int, ...], ...] | None
    """The group sizes a valid declaration may have, each a list largest first (000_'s
    10 cards: 5+5 or 4+3+3); ``None`` for any sizes."""
    alternatives: tuple[Alternative, ...]
    """Other ways to declare (21 and 27 cards: three tunnelas, eight dublees, eight jokers)."""

    card_points: tuple[int, ...]
    """Points by rank number: ``card_points[1]`` is the ace, ``[13]`` the king."""
    joker_points: int
    cap: int
    unmet_requirement: Literal["all_cards", "full_count", "pure_run_exempt", "pure_runs_exempt"]
    """What a loser without the declaration requirement is charged: every card, the full
    count, every card but one pure sequence's, or every card but all pure sequences'."""
    first_hand_show_cap: int
    ready_hand: ReadyHand | None
    value_cards: ValueCards | None

    drops: Mapping[str, DropPenalty | None]
    pools: Mapping[str, PoolRules]

    table_app_max: int
    table_web_max: int
    table_web_cash_max: int

    formats: tuple[str, ...]
    """The game formats the ruleset is for (21 and 27 cards: points only)."""
    kind: Literal["declare", "open-melds"]
    """The game: melds shown at a declaration (10, 13, 21, 27 cards), or laid on the table
    during play (002_'s open-melds game, docs/open-melds.md)."""
    lay_off: Literal["own", "any"]
    """Open melds: on whose melds a player may lay off cards."""
    joker_swap: bool
    """Open melds: may a card from the hand take a joker's place in a meld on the table."""
    pile_pick: Literal["any", "first-free"]
    """Open melds: under "first-free" a card taken from the discard pile must be laid in a
    meld that turn, except the player's first pick of the hand."""
    cut_card: Literal["go-out-only", "never"]
    """Open melds: the cut card may be taken instead of a draw, kept only by a player who
    goes out that turn (one try a turn), or never."""
    never_opened: int | None
    """Open melds: what a loser who never laid a meld pays (a flat charge), or ``None``."""
    match_target: int | None
    """A match (format ``match``): the total that ends it, the lowest total winning."""
    rebuy_formats: tuple[str, ...]
    """The formats in which a rebuy exists (000_: pool 101 and 201 only)."""
    split_formats: tuple[str, ...]
    """The formats in which a split exists (000_: pool 101 and 201 only)."""

    def __post_init__(self) -> None:
        problems = contradictions(self)
        if problems:
            raise RulesetError(f"{self.path}: " + "; ".join(problems))

    def rule(self, key: str) -> Rule:
        return self.rules[key]

    def cite(self, key: str) -> str:
        return self.rules[key].cite()

    def shoe_for(self, players: int) -> ShoeSpec | None:
        for shoe in self.shoes:
            if shoe.min_players <= players <= shoe.max_players:
                return shoe
        return None

    def drop_penalty(self, game_format: str) -> DropPenalty | None:
        """The drop penalties of a game format; ``None`` where drops are not allowed."""
        return self.drops[game_format]

    def points_table(self, joker_codes: frozenset[int]) -> tuple[int, ...]:
        """Points of each of the 53 codes, for a hand whose jokers are ``joker_codes``."""
        return _points_table(self, joker_codes)


@lru_cache(maxsize=1024)
def _points_table(rules: Ruleset, joker_codes: frozenset[int]) -> tuple[int, ...]:
    return tuple(
        rules.joker_points if code in joker_codes or code == JOKER
        else rules.card_points[RANK_OF[code]]
        for code in range(53)
    )  # fmt: skip


# ------------------------------------------------------------------ value parsers

Parser = Callable[[object], object]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_text(value: object) -> str:
    """``value`` as a ruleset file writes it in TOML: ``true``, ``[3, 3]``, ``{ first = 20 }``,
    a string in double quotes (a TOML basic string, as the presets write them). The one way
    a rule's value is shown, by ``rules show`` and by a refusal, for the value it got and
    the words it allows: a refusal said ``got True``, ``got {'first': 20}`` and ``got
    'yes'`` (Python's words) for what the file wrote ``true``, ``{ first = 20 }`` and
    ``"yes"``.

    >>> print(toml_text({"first": 20, "middle": True}), toml_text(["pool_101", 1.5]))
    { first = 20, middle = true } ["pool_101", 1.5]
    >>> print(toml_text("yes"), toml_text('say "no"'))
    "yes" "say \\"no\\""
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, dict):
        items = (
            f"{k if _BARE_KEY.fullmatch(str(k)) else json.dumps(str(k))} = {toml_text(v)}"
            for k, v in value.items()
        )
        return "{ " + ", ".join(items) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    return str(value)


def _whole(value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"expected a whole number from {lo} to {hi}, got {toml_text(value)}")
    return value


def _int(lo: int, hi: int) -> Parser:
    return lambda value: _whole(value, lo, hi)


def _int_or(word: str, lo: int, hi: int) -> Parser:
    def parse(value: object) -> int | None:
        if value == word:
            return None
        try:
            return _whole(value, lo, hi)
        except ValueError:
            raise ValueError(
                f"expected {toml_text(word)} or a whole number from {lo} to {hi}, "
                f"got {toml_text(value)}"
            ) from None

    return parse


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {toml_text(value)}")
    return value


def _choice(*words: str) -> Parser:
    def parse(value: object) -> str:
        if value not in words:
            raise ValueError(
                f"expected one of {', '.join(map(toml_text, words))}, got {toml_text(value)}"
            )
        return str(value)

    return parse


def _rank(value: object) -> Rank:
    try:
        return Rank(str(value))
    except ValueError:
        raise ValueError(f"expected a rank A 2-9 T J Q K, got {toml_text(value)}") from None


def _pair(value: object, lo: int, hi: int) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"expected [low, high], got {toml_text(value)}")
    low, high = _whole(value[0], lo, hi), _whole(value[1], lo, hi)
    if low > high:
        raise ValueError(f"expected [low, high] with low <= high, got {toml_text(value)}")
    return low, high


def _range(lo: int, hi: int) -> Parser:
    return lambda value: _pair(value, lo, hi)


def _shoes(value: object) -> tuple[ShoeSpec, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"expected a list of shoes, got {toml_text(value)}")
    shoes = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"players", "decks", "printed_jokers"}:
            raise ValueError(
                "expected { players = [lo, hi], decks = N, printed_jokers = N }, "
                f"got {toml_text(item)}"
            )
        low, high = _pair(item["players"], 2, 10)
        shoes.append(
            ShoeSpec(
                min_players=low,
                max_players=high,
                decks=_whole(item["decks"], 1, 8),
                printed_jokers=_whole(item["printed_jokers"], 0, 32),
            )
        )
    return tuple(shoes)


def _card_points(value: object) -> tuple[int, ...]:
    if not isinstance(value, dict) or set(value) != {rank.value for rank in Rank}:
        raise ValueError("expected points for exactly the ranks A 2 3 4 5 6 7 8 9 T J Q K")
    return (0, *(_whole(value[rank.value], 0, 100) for rank in Rank))


def _groupings(value: object) -> tuple[tuple[int, ...], ...] | None:
    """``"any"``, or a list of lists of group sizes, each kept largest first."""
    if value == "any":
        return None
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(sizes, list) and sizes for sizes in value)
    ):
        raise ValueError(
            f"expected \"any\" or a list of lists of group sizes, got {toml_text(value)}"
        )
    out: list[tuple[int, ...]] = []
    for sizes in value:
        grouping = tuple(sorted((_whole(size, 1, 60) for size in sizes), reverse=True))
        if grouping not in out:
            out.append(grouping)
    return tuple(out)


def _cut_card(value: object) -> int | None:
    """``"none"`` or one suited card code (``AS``)."""
    if value == "none":
        return None
    code = CODE_OF.get(value) if isinstance(value, str) else None
    if code is None or code == JOKER:
        raise ValueError(
            f"expected \"none\" or a suited card code such as \"AS\", got {toml_text(value)}"
        )
    return code


def _alternatives(value: object) -> tuple[Alternative, ...]:
    """``"none"`` or a list of ``{ kind = "tunnelas"|"dublees"|"jokers", count = N }``."""
    if value == "none":
        return ()
    if not isinstance(value, list) or not value:
        raise ValueError(
            f"expected \"none\" or a list of {{ kind = ..., count = N }}, got {toml_text(value)}"
        )
    out = []
    for item in value:
        if (
            not isinstance(item, dict)
            or set(item) != {"kind", "count"}
            or item["kind"] not in ("tunnelas", "dublees", "jokers")
        ):
            raise ValueError(
                "expected { kind = \"tunnelas\", \"dublees\" or \"jokers\", count = N }, "
                f"got {toml_text(item)}"
            )
        out.append(Alternative(kind=item["kind"], count=_whole(item["count"], 1, 60)))
    return tuple(out)


def _ready_hand(value: object) -> ReadyHand | None:
    if value == "none":
        return None
    if not isinstance(value, dict) or set(value) != {"points", "dublees", "jokers"}:
        raise ValueError(
            f"expected \"none\" or {{ points = N, dublees = N, jokers = N }}, "
            f"got {toml_text(value)}"
        )
    return ReadyHand(
        points=_whole(value["points"], 0, 1000),
        dublees=_whole(value["dublees"], 1, 60),
        jokers=_whole(value["jokers"], 1, 60),
    )


def _tiers(value: object, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"expected {name} = [N, ...], got {toml_text(value)}")
    return tuple(_whole(v, 0, 10_000) for v in value)


def _value_cards(value: object) -> ValueCards | None:
    if value == "none":
        return None
    if not isinstance(value, dict) or set(value) != {"tiers", "marriage"}:
        raise ValueError(
            "expected \"none\" or { tiers = [N, ...], marriage = [N, ...] }, "
            f"got {toml_text(value)}"
        )
    return ValueCards(
        tiers=_tiers(value["tiers"], "tiers"), marriage=_tiers(value["marriage"], "marriage")
    )


def _drop(value: object) -> DropPenalty | None:
    if value == "none":
        return None
    if not isinstance(value, dict) or set(value) != {"first", "middle"}:
        raise ValueError(
            f"expected \"none\" or {{ first = N, middle = N }}, got {toml_text(value)}"
        )
    return DropPenalty(
        first=_whole(value["first"], 0, 1000), middle=_whole(value["middle"], 0, 1000)
    )


def _formats(value: Any) -> tuple[str, ...]:
    """A list of game formats (log-format.md: points, pool_101, pool_201, deals)."""
    if not isinstance(value, list) or any(v not in FORMATS for v in value):
        raise ValueError(
            f"expected a list of formats from {', '.join(FORMATS)}, got {toml_text(value)}"
        )
    return tuple(value)


_POOL_KEYS: dict[str, Parser] = {
    "elimination_score": _int(1, 10_000),
    "exactly_eliminates": _bool,
    "rebuy_min_players": _int(2, 10),
    "rebuy_counts": _choice("hand", "still_in"),
    "rebuy_below": _int(0, 10_000),
    "manual_split_min_score": _int(0, 10_000),
    "drop_base": _int(1, 10_000),
    "drop_step": _int(1, 10_000),
    "split_drop_difference": _range(0, 100),
    "auto_split_above": _int(0, 10_000),
}

_POOL_FIXED: dict[str, str] = {
    "running_score": "round-points-added",
    "manual_split_shares": "extra-drops-then-equal",
}
"""The pool rules kept for their words (a ``pool.score`` or a manual split's share cites
them), each with the one value it takes."""

# TOML key -> (Ruleset attribute, parser). Pool keys are added below for each pool format.
# Rules with attribute "" are fixed rules, kept for their words and source (the replay
# cites them) and not settable: their value is the one word the parser accepts.
_KEYS: dict[str, tuple[str, Parser]] = {
    "deal.procedure": ("", _choice("log-contract")),
    "turns.order": ("", _choice("seat-order")),
    "turns.draw_top_card": ("", _choice("top-only")),
    "turns.discard_from_hand": ("", _choice("own-cards")),
    "turns.reshuffle": ("", _choice("discard-pile-less-top")),
    "turns.last_player": ("", _choice("wins")),
    "turns.drop_after_draw": ("drop_after_draw", _bool),
    "declaration.groups_exact": ("", _choice("all-cards")),
    "money.points_settlement": ("", _choice("points-x-value-less-rake")),
    "deals.chips": ("", _choice("losers-points-to-winner")),
    "deals.tie": ("", _choice("extra_deal")),
    "tables.app_max": ("table_app_max", _int(1, 100)),
    "games.formats": ("formats", _formats),
    "game.kind": ("kind", _choice("declare", "open-melds")),
    "open.turn": ("", _choice("draw-lay-discard")),
    "open.melds": ("", _choice("sets-and-runs")),
    "open.lay_off": ("lay_off", _choice("own", "any")),
    "open.joker_swap": ("joker_swap", _bool),
    "open.pile_pick": ("pile_pick", _choice("any", "first-free")),
    "open.cut_card": ("cut_card", _choice("go-out-only", "never")),
    "open.never_opened": ("never_opened", _int_or("none", 0, 1000)),
    "match.target": ("match_target", _int_or("none", 1, 100_000)),
    "match.winner": ("", _choice("lowest")),
    "match.running_total": ("", _choice("hand-points-added")),
    "games.rebuy_formats": ("rebuy_formats", _formats),
    "games.split_formats": ("split_formats", _formats),
    "tables.web_max": ("table_web_max", _int(1, 100)),
    "tables.web_cash_max": ("table_web_cash_max", _int(0, 100)),
    "deal.cards_per_hand": ("cards_per_hand", _int(1, 60)),
    "deal.players": ("players", _range(2, 10)),
    "deal.shoes": ("shoes", _shoes),
    "jokers.wild_rank_from_wild_card": ("wild_rank_from_wild_card", _bool),
    "jokers.wild_scope": ("wild_scope", _choice("rank", "card")),
    "jokers.printed_joker_wild_rank": ("printed_joker_wild_rank", _rank),
    "jokers.up_down_jokers": ("up_down_jokers", _bool),
    "jokers.up_down_depth": ("up_down_depth", _int(1, 3)),
    "jokers.printed_joker_cut_card": ("printed_joker_cut_card", _cut_card),
    "draws.joker_from_discard": (
        "joker_from_discard",
        _choice("allowed", "open_card_only", "never"),
    ),
    "melds.min_size": ("min_meld_size", _int(2, 13)),
    "melds.ace_low": ("ace_low", _bool),
    "melds.ace_high": ("ace_high", _bool),
    "melds.run_wraps": ("run_wraps", _bool),
    "melds.max_set_size": ("max_set_size", _int(3, 13)),
    "melds.max_jokers_per_run": ("max_jokers_per_run", _int_or("unlimited", 0, 13)),
    "melds.max_jokers_per_set": ("max_jokers_per_set", _int_or("unlimited", 0, 13)),
    "melds.wild_natural_keeps_pure": ("wild_natural_keeps_pure", _bool),
    "melds.jokers_only_group": ("jokers_only_group", _choice("leftover", "run", "invalid")),
    "melds.tunnela": ("tunnela", _bool),
    "melds.tunnela_kind": ("tunnela_kind", _choice("set", "pure_run")),
    "melds.printed_joker_tunnela": ("printed_joker_tunnela", _bool),
    "declaration.min_runs": ("min_runs", _int(0, 10)),
    "declaration.min_pure_runs": ("min_pure_runs", _int(0, 10)),
    "declaration.long_run_length": ("long_run_length", _int_or("none", 3, 14)),
    "declaration.invalid_penalty": ("invalid_penalty", _int(0, 1000)),
    "declaration.invalid_ends_hand": ("invalid_ends_hand", _bool),
    "declaration.groupings": ("groupings", _groupings),
    "declaration.alternatives": ("alternatives", _alternatives),
    "points.card_points": ("card_points", _card_points),
    "points.joker_points": ("joker_points", _int(0, 100)),
    "points.cap": ("cap", _int(1, 1000)),
    "points.unmet_requirement": (
        "unmet_requirement",
        _choice("all_cards", "full_count", "pure_run_exempt", "pure_runs_exempt"),
    ),
    "points.first_hand_show_cap": ("first_hand_show_cap", _int(0, 1000)),
    "points.ready_hand": ("ready_hand", _ready_hand),
    "points.value_cards": ("value_cards", _value_cards),
    **{f"drops.{fmt}": (f"drop:{fmt}", _drop) for fmt in FORMATS},
    **{
        f"{pool}.{key}": (f"pool:{pool}:{key}", parser)
        for pool in ("pool_101", "pool_201")
        for key, parser in _POOL_KEYS.items()
    },
    **{
        f"{pool}.{key}": ("", _choice(value))
        for pool in ("pool_101", "pool_201")
        for key, value in _POOL_FIXED.items()
    },
}
RULE_KEYS.update(_KEYS)
_WORDS = {
    "text": "the rule in plain words",
    "source": "where the rule comes from",
    "choice": "why this value, where sources disagree or are silent",
}
"""The words a rule carries besides its value (docs/rulesets.md, "The file"); ``choice``
is optional."""
_RULE_FIELDS = {"value", *_WORDS}
_META = {"id", "title", "extends"}


# ------------------------------------------------------------------ loading


def cite(rules: Ruleset, key: str) -> str:
    """The ``rule`` text of a finding resting on ``key``: the ruleset's own rule, or a rule
    of the log contract (``audit.findings.CONTRACT``); an unknown key is an error.

    >>> cite(load_preset("standard-13"), "games.max_players")
    "games.max_players: the table's size (log-format.md)"
    """
    if key in rules.rules:
        return rules.cite(key)
    return contract(key)


def preset_ids() -> list[str]:
    """The ids of the presets shipped inside the package, sorted."""
    return list(_preset_ids())


@cache
def _preset_ids() -> tuple[str, ...]:
    """Listed once per process: the package's presets do not change while it runs."""
    folder = resources.files("audit.rules") / "presets"
    names = (p.name for p in folder.iterdir())
    return tuple(sorted(name.removesuffix(".toml") for name in names if name.endswith(".toml")))


@cache
def load_preset(preset_id: str) -> Ruleset:
    """The shipped preset ``preset_id``; an unknown id is a ``RulesetError``."""
    if preset_id not in preset_ids():
        raise RulesetError(
            f"unknown ruleset {preset_id!r}; the presets are: {', '.join(preset_ids())}",
            slug="unknown-ruleset",
        )
    resource = resources.files("audit.rules") / "presets" / f"{preset_id}.toml"
    return _build(_read(resource.read_text(encoding="utf-8"), f"presets/{preset_id}.toml"))


def load_ruleset_file(path: Path) -> Ruleset:
    """A ruleset from a TOML file of the preset format (``extends`` names a shipped preset)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesetError(f"{path}: cannot read the ruleset ({exc.strerror})") from None
    return _build(_read(text, str(path)))


@dataclass(frozen=True)
class _Parsed:
    path: str
    meta: dict[str, str]
    rules: dict[str, Rule]


def _read(text: str, path: str) -> _Parsed:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: not valid TOML: {exc}") from None
    meta: dict[str, str] = {}
    rules: dict[str, Rule] = {}
    for key, value in data.items():
        if key in _META:
            if not isinstance(value, str):
                raise RulesetError(f"{path}: {key} must be a string, got {toml_text(value)}")
            meta[key] = value
        elif isinstance(value, dict):
            _collect(path, key, value, rules)
        else:
            raise RulesetError(f"{path}: unknown key {key!r}")
    if "id" not in meta:
        raise RulesetError(f"{path}: the ruleset has no id (the games.ruleset value that names "
                           "it)")  # fmt: skip
    if not meta["id"].strip():  # an empty id names nothing, or the games that name none
        raise RulesetError(f"{path}: id: expected the games.ruleset value that names the "
                           f"ruleset, got {toml_text(meta['id'])}")  # fmt: skip
    return _Parsed(path, meta, rules)


def _collect(path: str, prefix: str, table: dict[str, Any], rules: dict[str, Rule]) -> None:
    if "value" in table:
        unknown = set(table) - _RULE_FIELDS
        if unknown:
            raise RulesetError(f"{path}: {prefix}: unknown field {sorted(unknown)[0]!r}")
        if prefix not in _KEYS:
            raise RulesetError(f"{path}: unknown key {prefix!r}")
        for name, what in _WORDS.items():
            if name not in table:
                if name == "choice":
                    continue
                raise RulesetError(f"{path}: {prefix}: the rule has no {name}")
            if not isinstance(table[name], str):
                raise RulesetError(f"{path}: {prefix}: {name}: expected text in quotes "
                                   f"({what}), got {toml_text(table[name])}")  # fmt: skip
            if name != "choice" and not table[name].strip():
                raise RulesetError(f"{path}: {prefix}: the rule has no {name}")
        rules[prefix] = Rule(
            key=prefix,
            value=table["value"],
            text=table["text"],
            source=table["source"],
            choice=table.get("choice", ""),
        )
        return
    if prefix in _KEYS and not all(isinstance(v, dict) for v in table.values()):
        # a rule's table with its text or source but no value: say so, not "unknown"
        raise RulesetError(f"{path}: {prefix}: the rule has no value (a rule is a table of "
                           "value, text and source)")  # fmt: skip
    for key, value in table.items():
        name = f"{prefix}.{key}"
        if not isinstance(value, dict):
            if name in _KEYS:  # `cap = 60` under [points]: the rule needs its text and source
                raise RulesetError(f"{path}: {name} must be a table of value, text and "
                                   f"source ([{name}]), not a bare value")  # fmt: skip
            raise RulesetError(f"{path}: unknown key {name!r}")
        _collect(path, name, value, rules)


_LOADING: set[str] = set()


def _build(parsed: _Parsed, parents: Callable[[str], Ruleset] | None = None) -> Ruleset:
    """The ruleset of ``parsed``; ``extends`` is looked up with ``parents`` (by default the
    shipped presets: ``audit.rules.registry`` passes a platform folder's rulesets first)."""
    rules: dict[str, Rule] = {}
    parent = parsed.meta.get("extends")
    if parent is not None:
        if parent in _LOADING:
            raise RulesetError(f"{parsed.path}: extends {parent!r}, which extends it back")
        _LOADING.add(parsed.meta["id"])
        try:
            rules.update((parents or load_preset)(parent).rules)
        except RulesetError as exc:
            raise RulesetError(f"{parsed.path}: extends: {exc}") from None
        finally:
            _LOADING.discard(parsed.meta["id"])
    rules.update(parsed.rules)
    missing = [key for key in _KEYS if key not in rules]
    if missing:
        raise RulesetError(f"{parsed.path}: missing rule {missing[0]!r}")

    values: dict[str, object] = {}
    for key, (attr, parser) in _KEYS.items():
        try:
            value = parser(rules[key].value)
        except ValueError as exc:
            raise RulesetError(f"{parsed.path}: {key}: {exc}") from None
        if attr:
            values[attr] = value

    players = values.pop("players")
    assert isinstance(players, tuple)
    drops = {fmt: values.pop(f"drop:{fmt}") for fmt in FORMATS}
    pools = {
        pool: PoolRules(**{key: values.pop(f"pool:{pool}:{key}") for key in _POOL_KEYS})  # type: ignore[arg-type]
        for pool in ("pool_101", "pool_201")
    }
    return Ruleset(
        id=parsed.meta["id"],
        title=parsed.meta.get("title", parsed.meta["id"]),
        path=parsed.path,
        rules=MappingProxyType(rules),
        min_players=players[0],
        max_players=players[1],
        drops=MappingProxyType(drops),  # type: ignore[arg-type]
        pools=MappingProxyType(pools),
        **values,  # type: ignore[arg-type]
    )
