"""Rulesets as data: the presets against the seeds, and the loader's refusals (ruleset.py)."""

from __future__ import annotations

import ast
import dataclasses
import re
from importlib import resources
from pathlib import Path

import pytest

from audit.cards import shoe_composition
from audit.errors import RulesetError
from audit.rules.declaration import check_declaration
from audit.rules.ruleset import (
    DropPenalty,
    Rule,
    Ruleset,
    load_preset,
    load_ruleset_file,
    preset_ids,
)

from .hands import PRESETS
from .support import FIRST_LIFE, NO_WILD, STANDARD, groups, rule_table, write_ruleset

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = {path.name: path for path in (ROOT / "docs" / "seeds").glob("*.txt")}
DOCUMENTS["log-format.md"] = ROOT / "docs" / "contract" / "log-format.md"
SHORT_NAMES = {name[:4]: name for name in DOCUMENTS if name.endswith(".txt")}
REFERENCE = re.compile(r"(\d{3}_[0-9a-f]{16}\.txt|\d{3}_(?![0-9a-f])|log-format\.md)")
QUOTE = re.compile(r"(?:^|(?<=[\s(:;,]))'(.+?)'(?=$|[\s);,])")
MISQUOTED: dict[str, str] = {}


def _normal(text: str) -> str:
    """Text without table bars, backquotes and double quotes, one space, lower case."""
    text = re.sub('[`"\u201c\u201d]', "", text.replace("|", " ")).replace("\u2019", "'")
    return re.sub(r"\s+", " ", text).strip().lower()


def _citations(source: str) -> list[tuple[list[str], str]]:
    """(documents, quoted words) for each quote, attributed to the documents named just
    before it ("001_ and 004_ allow a pick 'from the open deck'": either of the two)."""
    parts = REFERENCE.split(source)  # text, reference, text, reference, ..., text
    found = []
    named: list[str] = []
    for i in range(1, len(parts), 2):
        name = SHORT_NAMES.get(parts[i], parts[i])
        named = [*named, name] if named and parts[i - 1].strip() in {"and", ","} else [name]
        found += [(named, quote) for quote in QUOTE.findall(parts[i + 1])]
    return found


def _distinct_rules() -> list[object]:
    """Each rule of every shipped preset once: the rules a preset inherits are its parent's."""
    seen: dict[tuple[str, str], object] = {}
    for preset in preset_ids():
        for key, rule in load_preset(preset).rules.items():
            rid = f"{preset}:{key}"
            marks = (
                [pytest.mark.xfail(strict=True, reason=MISQUOTED[rid])] if rid in MISQUOTED else []
            )
            seen.setdefault((key, rule.source), pytest.param(rule, id=rid, marks=marks))
    return list(seen.values())


# ------------------------------------------------------------------ the presets and the seeds


def test_the_shipped_presets() -> None:
    assert preset_ids() == [
        "first-life-13", "open-melds-13", "standard-10", "standard-13", "standard-21",
        "standard-27",
    ]
    assert [load_preset(p).id for p in PRESETS] == list(PRESETS)


@pytest.mark.parametrize("rule", _distinct_rules())
def test_every_rule_cites_a_seed_and_quotes_it_word_for_word(rule: Rule) -> None:
    """STYLE 18: the rulebook is in the repo, and every rule rests on its words.

    A source names a seed file (``000_...txt`` or ``000_``) or says the seeds are silent,
    and every 'quoted' passage is in the document named before it (split at ``...``, and at
    ``; `` where a quote joins the cells of a table row).
    """
    assert rule.text.strip()
    cited = REFERENCE.findall(rule.source)
    assert cited or "seeds silent" in rule.source, rule.source
    for names, quote in _citations(rule.source):
        assert all(name in DOCUMENTS for name in names), f"{rule.key} cites {names}"
        words = [_normal(DOCUMENTS[name].read_text(encoding="utf-8")) for name in names]
        for piece in re.split(r"\.\.\.|; ", quote):
            assert any(_normal(piece) in w for w in words), f"{rule.key}: {piece!r} not in {names}"


def test_the_quote_check_catches_a_misquote_and_a_missing_source() -> None:
    def rule(source: str) -> Rule:
        return Rule(key="points.cap", value=80, text="t", source=source)

    test_every_rule_cites_a_seed_and_quotes_it_word_for_word(
        rule("001_ and 004_: 'Maximum points cap | 80 points'; 000_: 'Full count is 80 points'")
    )
    for source in (
        "000_1729c72ad4c1f885.txt: 'A maximum Full count is 90 points'",
        "004_: 'A maximum Full count is 80 points'",  # it is 000_ that says so
        "common practice",
    ):
        with pytest.raises(AssertionError):
            test_every_rule_cites_a_seed_and_quotes_it_word_for_word(rule(source))


def test_wild_natural_keeps_pure_names_the_seed_against_it_000() -> None:
    """`melds.wild_natural_keeps_pure`: 000_ says 'one has to be Pure sequence (without wild
    card or joker)' and 'one should be compulsorily Pure Sequence (without wild card or
    jokers)'. Where the seeds disagree, a rule's choice names the seed on the other side."""
    rule = STANDARD.rule("melds.wild_natural_keeps_pure")
    assert "000_" in rule.source + rule.choice


def test_every_rule_key_has_a_rule_test() -> None:
    """Every key of both presets is named (in backquotes) by a test docstring in tests/."""
    documented = ""
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                documented += ast.get_docstring(node) or ""
    keys = set(STANDARD.rules) | set(FIRST_LIFE.rules)
    assert sorted(k for k in keys if f"`{k}`" not in documented) == []


def test_first_life_differs_from_standard_only_where_003_speaks() -> None:
    """first-life-13 `extends` standard-13 and changes `deal.shoes`,
    `melds.max_jokers_per_run`, `declaration.long_run_length` and
    `points.unmet_requirement` (full count: 'When all the 13 cards are unmatched, the player
    loses 80 points'), each citing 003_."""
    changed = {k for k in STANDARD.rules if STANDARD.rules[k] != FIRST_LIFE.rules[k]}
    assert changed == {
        "deal.shoes",
        "melds.max_jokers_per_run",
        "declaration.long_run_length",
        "points.unmet_requirement",
    }
    assert all(FIRST_LIFE.rules[k].source.startswith("003_") for k in changed)


def test_each_player_is_dealt_13_cards_001() -> None:
    """`deal.cards_per_hand` = 13. 001_: 'Each player receives 13 cards from 2 decks'."""
    assert STANDARD.cards_per_hand == FIRST_LIFE.cards_per_hand == 13


def test_a_table_seats_2_to_6_players_003() -> None:
    """`deal.players` = [2, 6]. 003_: 'Rummy is played between 2 to 6 players'."""
    for rules in (STANDARD, FIRST_LIFE):
        assert (rules.min_players, rules.max_players) == (2, 6)
        assert rules.shoe_for(1) is None
        assert rules.shoe_for(7) is None


def test_standard_shoe_is_two_decks_with_a_joker_each_000() -> None:
    """`deal.shoes` (standard-13). 000_: 'played with two decks of cards inclusive of the
    jokers (1 joker per deck)'; 002_: '106 cards, including 2 jokers'."""
    for players in range(2, 7):
        spec = STANDARD.shoe_for(players)
        assert spec is not None
        assert (spec.decks, spec.printed_jokers) == (2, 2)
        assert sum(shoe_composition(spec.decks, spec.printed_jokers).values()) == 106


def test_first_life_shoe_grows_with_the_table_003() -> None:
    """`deal.shoes` (first-life-13). 003_: 'For 2 or 3 players, two 52-card decks (104 cards)
    and 4 jokers (wild cards) are used. For 4 to 6 players, three decks (156 cards) and 6
    jokers are used.'"""
    for players, decks, jokers in [(2, 2, 4), (3, 2, 4), (4, 3, 6), (6, 3, 6)]:
        spec = FIRST_LIFE.shoe_for(players)
        assert spec is not None
        assert (spec.decks * 52, spec.printed_jokers) == (decks * 52, jokers)


def test_invalid_declaration_costs_80_points_001() -> None:
    """`declaration.invalid_penalty` = 80. 001_: 'Invalid declarations receive an 80-point
    penalty'; 004_: 'Invalid Declaration: -80 points'."""
    assert STANDARD.invalid_penalty == FIRST_LIFE.invalid_penalty == 80


def test_invalid_declaration_does_not_end_the_hand() -> None:
    """`declaration.invalid_ends_hand` = false: the seeds are silent (004_: 'rejected and
    scored as invalid'); the preset's choice is that the others play on."""
    assert STANDARD.invalid_ends_hand is False
    assert STANDARD.rule("declaration.invalid_ends_hand").choice


def test_first_and_middle_drop_in_points_rummy_001() -> None:
    """`drops.points`. 001_: 'First drop (leaving before first turn) | 20 points', 'Middle
    drop | 40 points'."""
    assert STANDARD.drop_penalty("points") == DropPenalty(first=20, middle=40)


def test_drops_in_pool_rummy_000() -> None:
    """`drops.pool_101`, `drops.pool_201`. 000_: first drop 'In 101 Pool, the score is 20
    points', 'In 201 Pool, the score is 25'; middle drop 'In 101 Pool, the score is 40', 'In
    201 Pool, the score is 50'."""
    assert STANDARD.drop_penalty("pool_101") == DropPenalty(first=20, middle=40)
    assert STANDARD.drop_penalty("pool_201") == DropPenalty(first=25, middle=50)


def test_no_drop_in_deals_rummy_000() -> None:
    """`drops.deals` = none. 000_: 'No Drop is allowed in Best of 2 and Best of 3.'"""
    assert STANDARD.drop_penalty("deals") is None


def test_reaching_the_pool_number_eliminates() -> None:
    """`pool_101.elimination_score`, `pool_101.exactly_eliminates`,
    `pool_201.elimination_score`, `pool_201.exactly_eliminates`: the seeds are silent on
    exactly 101 (201); the preset's choice is that reaching it eliminates."""
    pool_101, pool_201 = STANDARD.pools["pool_101"], STANDARD.pools["pool_201"]
    assert (pool_101.is_eliminated(100), pool_101.is_eliminated(101)) == (False, True)
    assert (pool_201.is_eliminated(200), pool_201.is_eliminated(201)) == (False, True)


def test_exactly_eliminates_false_needs_a_score_past_the_pool_number(tmp_path: Path) -> None:
    """`pool_101.exactly_eliminates` = false: 'a player must pass 101 to be out'."""
    path = write_ruleset(tmp_path, rule_table("pool_101.exactly_eliminates", False))
    pool = load_ruleset_file(path).pools["pool_101"]
    assert (pool.is_eliminated(101), pool.is_eliminated(102)) == (False, True)


def test_first_drops_left_000() -> None:
    """`pool_101.drop_base`, `pool_101.drop_step`, `pool_201.drop_base`,
    `pool_201.drop_step`. 000_: 'For 101 Game : INTEGER((100-CurrentTotal Score)/20) & for
    201 Game :INTEGER((200-Current Total Score)/25)'."""
    pool_101, pool_201 = STANDARD.pools["pool_101"], STANDARD.pools["pool_201"]
    # (100 - 0) / 20 = 5; (100 - 35) / 20 = 3.25; (100 - 81) / 20 = 0.95
    assert [pool_101.first_drops_left(s) for s in (0, 35, 81)] == [5, 3, 0]
    # (200 - 0) / 25 = 8; (200 - 60) / 25 = 5.6; (200 - 176) / 25 = 0.96
    assert [pool_201.first_drops_left(s) for s in (0, 60, 176)] == [8, 5, 0]


def test_first_drops_left_are_a_count_never_below_0_000() -> None:
    """000_1729c72ad4c1f885.txt: 'Number of first drops for each player is calculated ...
    as INTEGER((100-CurrentTotal Score)/20)': a number of drops left, so the whole drops in
    the quotient and never fewer than none. The seed's own scores never make it negative
    (101 is out); a platform's may (`drop_base` 120, out only past 150): at 121 a
    spreadsheet's INT floors -0.07 to -1, and at 136 truncation makes -1.07 -1; both
    are 0 first drops left (docs/rulesets.md)."""
    pool = dataclasses.replace(
        STANDARD.pools["pool_101"], elimination_score=150, drop_base=120, drop_step=15
    )
    assert [pool.first_drops_left(s) for s in (90, 105, 119, 120, 121, 136, 149)] == [
        2, 1, 0, 0, 0, 0, 0
    ]  # fmt: skip


def test_rebuy_thresholds_000() -> None:
    """`pool_101.rebuy_below`, `pool_201.rebuy_below`, `pool_101.rebuy_min_players`,
    `pool_201.rebuy_min_players`. 000_: 'if the highest score of the round is below 79
    points for 101 Rummy and below 174 points for a 201 Rummy'; 'Re-join is only possible
    when more than 2 players are playing on a multiplayer table.'"""
    assert STANDARD.pools["pool_101"].rebuy_below == 79
    assert STANDARD.pools["pool_201"].rebuy_below == 174
    assert {p.rebuy_min_players for p in STANDARD.pools.values()} == {3}


def test_split_thresholds_000() -> None:
    """`pool_101.manual_split_min_score`, `pool_201.manual_split_min_score`,
    `pool_101.split_drop_difference`, `pool_201.split_drop_difference`,
    `pool_101.auto_split_above`, `pool_201.auto_split_above`. 000_: 'greater than or equal to
    61' (151 for 201); 'is ONE or TWO'; 'scores higher than 80 and 175'."""
    pool_101, pool_201 = STANDARD.pools["pool_101"], STANDARD.pools["pool_201"]
    assert (pool_101.manual_split_min_score, pool_201.manual_split_min_score) == (61, 151)
    assert pool_101.split_drop_difference == pool_201.split_drop_difference == (1, 2)
    assert (pool_101.auto_split_above, pool_201.auto_split_above) == (80, 175)


FIXED_RULES = [
    "deal.procedure",
    "turns.order",
    "turns.draw_top_card",
    "turns.discard_from_hand",
    "turns.reshuffle",
    "turns.last_player",
    "declaration.groups_exact",
    "money.points_settlement",
    "open.turn",
    "open.melds",
    "pool_101.running_score",
    "pool_201.running_score",
    "pool_101.manual_split_shares",
    "pool_201.manual_split_shares",
]


@pytest.mark.parametrize("key", FIXED_RULES)
def test_fixed_rules_take_only_their_one_value(tmp_path: Path, key: str) -> None:
    """`deal.procedure`, `turns.order`, `turns.draw_top_card`, `turns.discard_from_hand`,
    `turns.reshuffle`, `turns.last_player`, `declaration.groups_exact`,
    `money.points_settlement`, `open.turn`, `open.melds`, `pool_101.running_score`,
    `pool_201.running_score`, `pool_101.manual_split_shares`, `pool_201.manual_split_shares`:
    rules the replay cites for their words; a ruleset cannot set them to anything else."""
    value = STANDARD.rule(key).value
    message = _refusal(tmp_path, rule_table(key, "other"))
    assert message == f'{tmp_path / "custom.toml"}: {key}: expected one of "{value}", got "other"'


def test_joker_from_discard_options(tmp_path: Path) -> None:
    """`draws.joker_from_discard` = open_card_only: the seeds are silent (001_ allows a pick
    'from the open deck'); the preset's choice names the options."""
    assert STANDARD.joker_from_discard == FIRST_LIFE.joker_from_discard == "open_card_only"
    for option in ("allowed", "open_card_only", "never"):
        path = write_ruleset(tmp_path, rule_table("draws.joker_from_discard", option))
        assert load_ruleset_file(path).joker_from_discard == option
    assert _refusal(tmp_path, rule_table("draws.joker_from_discard", "sometimes")) == (
        f'{tmp_path / "custom.toml"}: draws.joker_from_discard: expected one of "allowed", '
        '"open_card_only", "never", got "sometimes"'
    )


def test_rule_cite_names_key_text_and_source() -> None:
    cite = STANDARD.cite("points.cap")
    rule = STANDARD.rule("points.cap")
    assert cite.startswith("points.cap: ")
    assert rule.text in cite
    assert rule.source in cite


# ------------------------------------------------------------------ the loader


def _load(tmp_path: Path, body: str, *, extends: str | None = "standard-13") -> Ruleset:
    return load_ruleset_file(write_ruleset(tmp_path, body, extends=extends))


def _refusal(tmp_path: Path, body: str, *, extends: str | None = "standard-13") -> str:
    with pytest.raises(RulesetError) as raised:
        _load(tmp_path, body, extends=extends)
    assert raised.value.slug == "ruleset"
    return str(raised.value)


def test_a_ruleset_file_extends_a_preset(tmp_path: Path) -> None:
    rules = _load(tmp_path, rule_table("points.cap", 60, text="Never more than 60.", source="x"))
    assert (rules.id, rules.title, rules.path) == (
        "custom",
        "custom",
        str(tmp_path / "custom.toml"),
    )
    assert rules.cap == 60
    assert rules.rule("points.cap").text == "Never more than 60."
    assert rules.min_runs == STANDARD.min_runs
    assert rules.rule("declaration.min_runs") == STANDARD.rule("declaration.min_runs")


@pytest.mark.parametrize(
    ("body", "key"),
    [
        (rule_table("melds.max_jokers", 2), "'melds.max_jokers'"),
        ('colour = "red"\n', "'colour'"),
        ("[melds]\nfoo = 3\n", "'melds.foo'"),
        ("[points.cap.extra]\nvalue = 1\n", "'points.cap.extra'"),
    ],
)
def test_unknown_key_names_the_file_and_the_key(tmp_path: Path, body: str, key: str) -> None:
    """STYLE 9: 'Unknown keys are errors.'"""
    path = tmp_path / "custom.toml"
    assert _refusal(tmp_path, body) == f"{path}: unknown key {key}"


def test_unknown_field_of_a_rule_names_the_file_and_the_key(tmp_path: Path) -> None:
    body = rule_table("points.cap", 60) + 'note = "why"\n'
    assert (
        _refusal(tmp_path, body) == f"{tmp_path / 'custom.toml'}: points.cap: unknown field 'note'"
    )


@pytest.mark.parametrize("field", ["source", "text"])
def test_rule_without_source_or_text_names_the_file_and_the_key(tmp_path: Path, field: str) -> None:
    """Every rule carries its `text` and the `source` it rests on (ruleset.py)."""
    table = rule_table("points.cap", 60)
    missing = "\n".join(line for line in table.splitlines() if not line.startswith(field))
    blank = table.replace(f'{field} = "test"', f'{field} = "  "')
    path = tmp_path / "custom.toml"
    assert _refusal(tmp_path, missing + "\n") == f"{path}: points.cap: the rule has no {field}"
    assert _refusal(tmp_path, blank) == f"{path}: points.cap: the rule has no {field}"


@pytest.mark.parametrize(
    ("field", "written", "allowed"),
    [
        ("source", "5", "where the rule comes from"),
        ("text", "true", "the rule in plain words"),
        ("choice", "5", "why this value, where sources disagree or are silent"),
        ("choice", '["a", "b"]', "why this value, where sources disagree or are silent"),
    ],
)
def test_a_rule_s_words_that_are_not_text_name_the_key_and_what_is_allowed(
    tmp_path: Path, field: str, written: str, allowed: str
) -> None:
    """docs/rulesets.md, "The file": `text`, `source` and the optional `choice` are words.
    `source = 5` was "the rule has no source", and `choice = 5` was kept and shown as
    `choice: 5` (a blind tester)."""
    table = rule_table("points.cap", 60)
    table = "\n".join(line for line in table.splitlines() if not line.startswith(field))
    body = f"{table}\n{field} = {written}\n"
    assert _refusal(tmp_path, body) == (
        f"{tmp_path / 'custom.toml'}: points.cap: {field}: expected text in quotes "
        f"({allowed}), got {written}"
    )


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("points.cap", -1, "expected a whole number from 1 to 1000, got -1"),
        ("points.cap", 80.0, "expected a whole number from 1 to 1000, got 80.0"),
        ("melds.min_size", True, "expected a whole number from 2 to 13, got true"),
        (
            "melds.max_jokers_per_run",
            "many",
            'expected "unlimited" or a whole number from 0 to 13, got "many"',
        ),
        ("declaration.long_run_length", 2, 'expected "none" or a whole number from 3 to 14, got 2'),
        ("melds.ace_low", "yes", 'expected true or false, got "yes"'),
        (
            "melds.jokers_only_group",
            "maybe",
            'expected one of "leftover", "run", "invalid", got "maybe"',
        ),
        (
            "points.unmet_requirement",
            "80",
            'expected one of "all_cards", "full_count", "pure_run_exempt", '
            '"pure_runs_exempt", got "80"',
        ),
        ("jokers.wild_scope", "suit", 'expected one of "rank", "card", got "suit"'),
        (
            "jokers.printed_joker_cut_card",
            "JK",
            'expected "none" or a suited card code such as "AS", got "JK"',
        ),
        ("jokers.up_down_depth", 4, "expected a whole number from 1 to 3, got 4"),
        (
            "declaration.alternatives",
            [{"kind": "pairs", "count": 8}],
            'expected { kind = "tunnelas", "dublees" or "jokers", count = N }, '
            'got { kind = "pairs", count = 8 }',
        ),
        (
            "points.ready_hand",
            {"points": 2},
            'expected "none" or { points = N, dublees = N, jokers = N }, got { points = 2 }',
        ),
        (
            "points.value_cards",
            {"tiers": [], "marriage": [100]},
            "expected tiers = [N, ...], got []",
        ),
        ("games.formats", ["rummy"], "expected a list of formats from points, pool_101, "
         'pool_201, deals, match, got ["rummy"]'),
        ("game.kind", "closed", 'expected one of "declare", "open-melds", got "closed"'),
        ("open.lay_off", "others", 'expected one of "own", "any", got "others"'),
        ("match.target", 0, 'expected "none" or a whole number from 1 to 100000, got 0'),
        (
            "declaration.groupings",
            [5, 5],
            'expected "any" or a list of lists of group sizes, got [5, 5]',
        ),
        (
            "declaration.groupings",
            [[5, 0]],
            "expected a whole number from 1 to 60, got 0",
        ),
        ("jokers.printed_joker_wild_rank", "1", 'expected a rank A 2-9 T J Q K, got "1"'),
        ("deal.players", [6, 2], "expected [low, high] with low <= high, got [6, 2]"),
        ("deal.players", "2-6", 'expected [low, high], got "2-6"'),
        ("deal.shoes", [], "expected a list of shoes, got []"),
        ("drops.deals", "never", 'expected "none" or { first = N, middle = N }, got "never"'),
    ],
)
def test_bad_value_names_the_file_and_the_key(
    tmp_path: Path, key: str, value: object, expected: str
) -> None:
    path = tmp_path / "custom.toml"
    assert _refusal(tmp_path, rule_table(key, value)) == f"{path}: {key}: {expected}"


def test_bad_table_values_name_the_file_and_the_key(tmp_path: Path) -> None:
    path = tmp_path / "custom.toml"
    shoes = '[deal.shoes]\nvalue = [{ players = [2, 6], decks = 2 }]\ntext = "t"\nsource = "s"\n'
    assert _refusal(tmp_path, shoes) == (
        f"{path}: deal.shoes: expected {{ players = [lo, hi], decks = N, printed_jokers = N }}, "
        "got { players = [2, 6], decks = 2 }"
    )
    points = '[points.card_points]\nvalue = { A = 10 }\ntext = "t"\nsource = "s"\n'
    assert _refusal(tmp_path, points) == (
        f"{path}: points.card_points: expected points for exactly the ranks "
        "A 2 3 4 5 6 7 8 9 T J Q K"
    )


def test_unknown_preset_id_message() -> None:
    with pytest.raises(RulesetError) as raised:
        load_preset("standard-15")
    assert str(raised.value) == (
        "unknown ruleset 'standard-15'; the presets are: first-life-13, open-melds-13, "
        "standard-10, standard-13, standard-21, standard-27"
    )
    assert raised.value.slug == "unknown-ruleset"


def test_extends_unknown_preset_names_the_file_and_the_key(tmp_path: Path) -> None:
    """ruleset.py: 'An unknown key, a missing rule or a bad value is a RulesetError naming
    the file and the key.'"""
    message = _refusal(tmp_path, "", extends="standard-15")
    assert str(tmp_path / "custom.toml") in message
    assert "extends" in message
    assert "standard-15" in message


def test_ruleset_without_id_or_with_a_bad_title(tmp_path: Path) -> None:
    path = tmp_path / "bare.toml"
    path.write_text('extends = "standard-13"\n', encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset_file(path)
    assert str(raised.value) == (
        f"{path}: the ruleset has no id (the games.ruleset value that names it)"
    )
    assert (
        _refusal(tmp_path, "title = 3\n")
        == f"{tmp_path / 'custom.toml'}: title must be a string, got 3"
    )


def test_ruleset_that_is_not_toml_or_not_there(tmp_path: Path) -> None:
    path = tmp_path / "custom.toml"
    assert _refusal(tmp_path, "[points.cap\n").startswith(f"{path}: not valid TOML: ")
    gone = tmp_path / "gone.toml"
    with pytest.raises(RulesetError) as raised:
        load_ruleset_file(gone)
    assert str(raised.value) == f"{gone}: cannot read the ruleset (No such file or directory)"


def test_missing_rule_names_the_file_and_the_key(tmp_path: Path) -> None:
    """A ruleset without `extends` must hold every rule: here standard-13 without its cap."""
    text = (resources.files("audit.rules") / "presets" / "standard-13.toml").read_text("utf-8")
    head, tail = text.split("[points.cap]\n")
    body = head + tail[tail.index("\n[") :]
    body = body.replace('id = "standard-13"', 'id = "no-cap"')
    path = tmp_path / "no-cap.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset_file(path)
    assert str(raised.value) == f"{path}: missing rule 'points.cap'"


@pytest.mark.parametrize(
    ("rules", "problem"),
    [
        (
            {"melds.ace_low": False, "melds.ace_high": False},
            "melds.ace_low/ace_high: an ace must fit somewhere in a sequence",
        ),
        (
            {"melds.min_size": 4, "melds.max_set_size": 3},
            "melds.max_set_size: smaller than melds.min_size",
        ),
        (
            {"declaration.min_pure_runs": 3},
            "declaration.min_pure_runs: more than declaration.min_runs",
        ),
        ({"deal.players": [2, 8]}, "deal.shoes: no shoe for [7, 8] players"),
        (  # the first row was taken and the other never said (a blind tester)
            {"deal.shoes": [{"players": [2, 4], "decks": 2, "printed_jokers": 2},
                            {"players": [4, 6], "decks": 3, "printed_jokers": 3}]},
            "deal.shoes: more than one shoe for [4] players",
        ),
        (  # 1 deck for six players of 13 cards: accepted before (a blind tester)
            {"deal.shoes": [{"players": [2, 6], "decks": 1, "printed_jokers": 0}]},
            "deal.shoes: 1 deck and 0 printed jokers cannot deal 6 players 13 cards each "
            "and turn up the wild and open cards (80 cards)",
        ),
        (
            {"declaration.groupings": [[5, 5], [4, 3, 3]]},
            "declaration.groupings: 5+5 is not 13 cards (deal.cards_per_hand); "
            "declaration.groupings: 4+3+3 is not 13 cards (deal.cards_per_hand)",
        ),
    ],
)
def test_rules_that_contradict_each_other(
    tmp_path: Path, rules: dict[str, object], problem: str
) -> None:
    body = "".join(rule_table(key, value) for key, value in rules.items())
    assert _refusal(tmp_path, body) == f"{tmp_path / 'custom.toml'}: {problem}"


@pytest.mark.parametrize(
    ("rules", "problem"),
    [
        (  # one group, two sequences required
            {"declaration.groupings": [[13]]},
            "declaration.groupings: 13 has room for 1 sequence and a declaration needs 2 "
            "(declaration.min_runs)",
        ),
        (
            {"declaration.groupings": [[5, 4, 4]], "declaration.long_run_length": 6},
            "declaration.groupings: 5+4+4 has no group of 6 cards for the long sequence "
            "(declaration.long_run_length)",
        ),
        (
            {"declaration.long_run_length": 14},
            "declaration.long_run_length: 14 cards, more than the 13 a hand holds "
            "(deal.cards_per_hand)",
        ),
        (
            {"declaration.min_runs": 5},
            "declaration.min_runs: 5 sequences of at least 3 cards (melds.min_size) need 15 "
            "cards, more than the 13 a hand holds (deal.cards_per_hand)",
        ),
    ],
)
def test_a_declaration_no_hand_can_make_is_refused(
    tmp_path: Path, rules: dict[str, object], problem: str
) -> None:
    """docs/rulesets.md: rules that contradict each other refuse the file, each named.
    These were accepted, and no declaration could ever be valid under them (a blind
    tester)."""
    body = "".join(rule_table(key, value) for key, value in rules.items())
    assert _refusal(tmp_path, body) == f"{tmp_path / 'custom.toml'}: {problem}"


def test_a_long_sequence_longer_than_a_suit_allows_is_refused(tmp_path: Path) -> None:
    """21 cards without the high ace: a sequence runs A to K, 13 cards at most
    (melds.py)."""
    body = rule_table("melds.ace_high", False) + rule_table("declaration.long_run_length", 14)
    assert _refusal(tmp_path, body, extends="standard-21") == (
        f"{tmp_path / 'custom.toml'}: declaration.long_run_length: 14 cards, longer than a "
        "sequence can be (13 cards under melds.ace_low, melds.ace_high and melds.run_wraps)"
    )
    with_ace = _load(tmp_path, rule_table("declaration.long_run_length", 14), extends="standard-21")
    assert with_ace.long_run_length == 14  # A 2 ... K A


def test_a_grouping_with_a_group_smaller_than_a_meld_is_refused(tmp_path: Path) -> None:
    """A group of 1 card is no meld: 6+6+1 is refused when jokers may not be put aside
    alone. Under melds.jokers_only_group = "leftover" (standard-13) jokers put aside are a
    group of any size, so 6+6+1 can be declared (two sequences of six and a joker): kept."""
    sixes_and_one = rule_table("declaration.groupings", [[6, 6, 1]])
    alone = rule_table("melds.jokers_only_group", "invalid")
    assert _refusal(tmp_path, sixes_and_one + alone) == (
        f"{tmp_path / 'custom.toml'}: declaration.groupings: 6+6+1 has a group of 1 card, "
        "smaller than a meld (melds.min_size: 3)"
    )
    rules = _load(tmp_path, sixes_and_one)
    sixes = groups("2H 3H 4H 5H 6H 7H / 2S 3S 4S 5S 6S 7S / JK")
    hand = [c for g in sixes for c in g]
    assert check_declaration(hand, sixes, NO_WILD, rules).valid


def test_every_contradiction_is_reported_at_once(tmp_path: Path) -> None:
    body = rule_table("declaration.min_pure_runs", 3) + rule_table("deal.players", [2, 7])
    assert _refusal(tmp_path, body) == (
        f"{tmp_path / 'custom.toml'}: declaration.min_pure_runs: more than "
        "declaration.min_runs; deal.shoes: no shoe for [7] players"
    )


def test_more_players_than_seats_is_refused() -> None:
    with pytest.raises(RulesetError) as raised:
        dataclasses.replace(STANDARD, min_players=5, max_players=3)
    assert str(raised.value) == (
        "presets/standard-13.toml: deal.players: the minimum is above the maximum"
    )


def test_27_cards_differ_from_21_only_where_000_and_khelplay_speak() -> None:
    """standard-27 `extends` standard-21 and changes only what 000_ ('27 Card Rummy is
    played only with Point Rummy variant', 'played between 2 to 5 players', '2 Up & 2 Down
    Jokers') and KhelPlay's 27-card page say: `deal.cards_per_hand`, `deal.players`,
    `deal.shoes`, `jokers.up_down_depth`, the printed joker's `jokers.printed_joker_cut_card`
    words, and the five-card marriage of `points.value_cards`; the rest is 21 cards', each
    such rule saying it is unsourced for 27 (docs/rules-21-27.md, section 2): the cap, the
    wrong show and the drops keep 21 cards' values in words of their own (the 21-card cap's
    "though 21 cards can add up to far more" was read to a 27-card player), and so do
    `points.unmet_requirement`, `declaration.min_pure_runs` and
    `declaration.invalid_ends_hand` (a 27-card dispute cited "seeds silent on 21 cards": a
    blind tester)."""
    r21, r27 = load_preset("standard-21"), load_preset("standard-27")
    changed = {k for k in r21.rules if r21.rules[k] != r27.rules[k]}
    unsourced = {"points.cap", "declaration.invalid_penalty", "drops.points",
                 "declaration.alternatives", "points.ready_hand", "points.unmet_requirement",
                 "declaration.min_pure_runs", "declaration.invalid_ends_hand"}  # fmt: skip
    assert changed == {
        "games.formats", "deal.cards_per_hand", "deal.players", "deal.shoes",
        "jokers.up_down_depth", "jokers.printed_joker_cut_card", "melds.tunnela_kind",
        "declaration.min_runs", "points.value_cards", *unsourced,
    }  # fmt: skip
    assert (r27.cards_per_hand, r27.max_players, r27.up_down_depth) == (27, 5, 2)
    assert r27.formats == r21.formats == ("points",)
    for key in ("melds.tunnela_kind", "declaration.min_runs", "points.value_cards", *unsourced):
        assert "nsourced" in r27.rule(key).choice, key
    for key in unsourced:
        assert r27.rule(key).value == r21.rule(key).value, key
        assert "21 cards" not in r27.rule(key).text, key
    assert not [k for k, rule in r27.rules.items() if "silent on 21 cards" in rule.source]
    assert (r27.cap, r27.invalid_penalty) == (r21.cap, r21.invalid_penalty) == (120, 120)
    # Every 27-card table fits the shoe: 5 x 27 dealt + the wild card + the open card.
    shoe = r27.shoes[0]
    assert 5 * 27 + 2 <= 52 * shoe.decks + shoe.printed_jokers == 159


def test_21_cards_values_from_the_platforms() -> None:
    """standard-21 (docs/rules-21-27.md, section 1.1): `games.formats` points only (000_:
    '21 Card Rummy is played only with Point Rummy variant'); up and down jokers one rank
    each way, a printed joker turned up standing for the ace of spades; a tunnela is a pure
    sequence (`melds.tunnela_kind`), three printed jokers one too
    (`melds.printed_joker_tunnela`); three pure sequences to declare, or the
    `declaration.alternatives` (3 tunnelas, 8 dublees, 8 jokers); cap and wrong show 120;
    `points.ready_hand` 2 points for six dublees or seven jokers; `points.value_cards` 10,
    30, 50 and marriages 100, 300, 500; drops 30 and 70."""
    r21 = load_preset("standard-21")
    assert r21.up_down_jokers
    assert r21.up_down_depth == 1
    assert r21.printed_joker_cut_card == 0  # AS
    assert (r21.tunnela, r21.tunnela_kind, r21.printed_joker_tunnela) == (True, "pure_run", True)
    assert (r21.min_runs, r21.min_pure_runs, r21.groupings) == (3, 3, None)
    assert [(a.kind, a.count) for a in r21.alternatives] == [
        ("tunnelas", 3), ("dublees", 8), ("jokers", 8)
    ]  # fmt: skip
    assert (r21.cap, r21.invalid_penalty, r21.invalid_ends_hand) == (120, 120, False)
    assert r21.unmet_requirement == "pure_runs_exempt"
    assert r21.ready_hand is not None
    ready = r21.ready_hand
    assert (ready.points, ready.dublees, ready.jokers) == (2, 6, 7)
    assert r21.value_cards is not None
    assert (r21.value_cards.tiers, r21.value_cards.marriage) == ((10, 30, 50), (100, 300, 500))
    assert r21.drop_penalty("points") == DropPenalty(first=30, middle=70)
    assert r21.first_hand_show_cap == r21.drop_penalty("points").middle  # type: ignore[union-attr]
    # Every 21-card table fits the shoe: 6 x 21 dealt + the wild card + the open card.
    assert 6 * 21 + 2 <= 159 == 52 * r21.shoes[0].decks + r21.shoes[0].printed_jokers


def test_open_melds_preset_holds_002_rules_and_its_two_contradictions() -> None:
    """open-melds-13 (002_, docs/open-melds.md): `game.kind` open melds in `games.formats`
    match; two decks and two jokers; 'At most 2 wild cards in one meld'
    (`melds.max_jokers_per_run`, `melds.max_jokers_per_set`); `open.lay_off` own melds only;
    `open.joker_swap` false where 002_ contradicts itself ('a swap for a joker' against 'A
    joker on the table stays there', the rules in full deciding); `open.pile_pick` the
    first pick free to keep; `open.cut_card` kept only by going out; `open.never_opened` a
    flat 80; `points.cap` 80; `match.target` 250 with `match.winner` the lowest total; a held
    ace counts 10, the seed's 'An ace sits at either end of a run: 10 points high, 1 low'
    read as a run's value (a choice); no drop in a match (`drops.match` none: 'What you
    are caught holding counts against you')."""
    r = load_preset("open-melds-13")
    assert (r.kind, r.formats) == ("open-melds", ("match",))
    assert (r.shoes[0].decks, r.shoes[0].printed_jokers) == (2, 2)
    assert (r.max_jokers_per_run, r.max_jokers_per_set) == (2, 2)
    assert (r.lay_off, r.joker_swap, r.pile_pick, r.cut_card) == (
        "own", False, "first-free", "go-out-only"
    )  # fmt: skip
    assert (r.never_opened, r.cap, r.match_target) == (80, 80, 250)
    assert (r.min_runs, r.min_pure_runs) == (2, 1)
    assert r.card_points[1] == 10
    assert "contradicts" in r.rule("open.joker_swap").choice
    assert "1 low" in r.rule("points.card_points").choice
    assert r.rule("match.winner").value == "lowest"
    assert r.drop_penalty("match") is None
