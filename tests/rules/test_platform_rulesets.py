"""A platform's own rulesets as data: a folder of ruleset files (``--rules DIR``) and
``rummy-audit rules check-file`` (audit/rules/registry.py, docs/rulesets.md).

002_be7776aa8b349efa.txt: the host can change any of the rules, so a file may ``extends`` a
preset or another file of the folder and change any value."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.errors import RulesetError
from audit.rules.declaration import (
    check_declaration,
    check_groups,
    meld_rule_behind,
    valid_words,
)
from audit.rules.melds import group_rule
from audit.rules.registry import (
    PlatformRules,
    active,
    check_file,
    load_folder,
    lookup,
    using,
)
from tests.rules.support import NO_WILD, STANDARD, cards, flat, groups, rule_table

runner = CliRunner()


def ruleset(
    folder: Path, name: str, ident: str, body: str = "", extends: str | None = None
) -> Path:
    """``folder/name`` with ``id = ident``, ``extends`` and ``body``."""
    folder.mkdir(parents=True, exist_ok=True)
    head = f'id = "{ident}"\n' + (f'extends = "{extends}"\n' if extends else "")
    path = folder / name
    path.write_text(head + body, encoding="utf-8")
    return path


CAP_60 = rule_table("points.cap", 60, text="Never more than 60.", source="acme terms")
WRAPS = rule_table("melds.run_wraps", True, text="K A 2 is a sequence.", source="acme terms")


def refusal(folder: Path) -> str:
    with pytest.raises(RulesetError) as raised:
        load_folder(folder)
    return str(raised.value)


# ------------------------------------------------------------------ loading a folder


def test_a_file_extends_a_preset_and_changes_a_value(tmp_path: Path) -> None:
    ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    rules = load_folder(tmp_path).rulesets()["acme-13"]
    assert (rules.id, rules.path, rules.cap) == ("acme-13", "acme-13.toml", 60)
    assert rules.rule("points.cap").source == "acme terms"
    assert rules.min_runs == STANDARD.min_runs
    assert rules.rule("declaration.min_runs") == STANDARD.rule("declaration.min_runs")


def test_a_broken_link_named_toml_is_refused_not_left_out(tmp_path: Path) -> None:
    """A ``*.toml`` entry that cannot be read is an error naming it; a folder named so is
    not a ruleset file and is passed over."""
    ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    (tmp_path / "old.toml").mkdir()
    assert sorted(load_folder(tmp_path).rulesets()) == ["acme-13"]
    (tmp_path / "x.toml").symlink_to(tmp_path / "gone.toml")
    assert refusal(tmp_path) == "x.toml: cannot read the ruleset (No such file or directory)"


def test_a_file_extends_another_file_of_the_folder(tmp_path: Path) -> None:
    """Resolved in dependency order whatever the file names' order: the child sorts
    first here."""
    ruleset(tmp_path, "a-child.toml", "acme-13-wraps", WRAPS, extends="acme-13")
    ruleset(tmp_path, "b-base.toml", "acme-13", CAP_60, extends="standard-13")
    rulesets = load_folder(tmp_path).rulesets()
    assert sorted(rulesets) == ["acme-13", "acme-13-wraps"]
    child = rulesets["acme-13-wraps"]
    assert (child.cap, child.run_wraps, child.path) == (60, True, "a-child.toml")
    assert rulesets["acme-13"].run_wraps is False


def test_a_cycle_of_extends_names_every_file(tmp_path: Path) -> None:
    ruleset(tmp_path, "a.toml", "acme-a", extends="acme-b")
    ruleset(tmp_path, "b.toml", "acme-b", extends="acme-a")
    assert refusal(tmp_path) == (
        "a.toml: extends: a cycle, acme-a (a.toml) -> acme-b (b.toml) -> acme-a (a.toml); "
        "a ruleset cannot extend itself, even through another"
    )


def test_a_file_that_extends_itself_is_a_cycle(tmp_path: Path) -> None:
    ruleset(tmp_path, "a.toml", "acme-a", extends="acme-a")
    assert refusal(tmp_path).startswith("a.toml: extends: a cycle, acme-a (a.toml) -> acme-a")


def test_check_file_of_a_file_in_a_cycle_names_every_file(tmp_path: Path) -> None:
    """docs/rulesets.md: check-file "checks one file as --rules would load it", and a
    cycle "is an error naming every file in it" (a blind tester: check-file said the
    folder held no ruleset, the files of the cycle left out as the file's heirs)."""
    ruleset(tmp_path, "a.toml", "acme-a", extends="acme-c")
    ruleset(tmp_path, "b.toml", "acme-b", extends="acme-a")
    ruleset(tmp_path, "c.toml", "acme-c", extends="acme-b")
    with pytest.raises(RulesetError) as raised:
        check_file(tmp_path / "a.toml", parents=tmp_path)
    assert str(raised.value) == (
        f"{tmp_path / 'a.toml'}: extends: a cycle, acme-a ({tmp_path / 'a.toml'}) -> acme-c "
        f"(c.toml) -> acme-b (b.toml) -> acme-a ({tmp_path / 'a.toml'}); a ruleset cannot "
        "extend itself, even through another"
    )
    alone = tmp_path / "self"
    alone.mkdir()
    ruleset(alone, "s.toml", "acme-s", extends="acme-s")
    with pytest.raises(RulesetError, match="extends: a cycle, acme-s"):
        check_file(alone / "s.toml")


def test_an_id_taken_by_a_preset_names_both_files(tmp_path: Path) -> None:
    ruleset(tmp_path, "mine.toml", "standard-13", CAP_60, extends="first-life-13")
    message = refusal(tmp_path)
    assert message.startswith("mine.toml: id: 'standard-13' is the id of the shipped preset")
    assert "presets/standard-13.toml" in message


def test_an_id_taken_by_a_preset_it_extends_is_the_id_clash_not_a_cycle(
    tmp_path: Path,
) -> None:
    """docs/rulesets.md: "an id that is a preset's ... is an error naming both files". A
    file with a preset's id that extends that same preset is that error, in check-file as in
    --rules (a blind tester: check-file called it a cycle, standard-13 -> standard-13)."""
    path = ruleset(tmp_path, "mine.toml", "standard-13", CAP_60, extends="standard-13")
    clash = "id: 'standard-13' is the id of the shipped preset presets/standard-13.toml"
    with pytest.raises(RulesetError) as raised:
        check_file(path)
    assert str(raised.value).startswith(f"{path}: {clash}")
    with pytest.raises(RulesetError) as raised:
        check_file(path, parents=tmp_path)
    assert str(raised.value).startswith(f"{path}: {clash}")
    assert refusal(tmp_path).startswith(f"mine.toml: {clash}")


def test_an_id_taken_by_another_file_names_both_files(tmp_path: Path) -> None:
    ruleset(tmp_path, "one.toml", "acme-13", extends="standard-13")
    ruleset(tmp_path, "two.toml", "acme-13", CAP_60, extends="standard-13")
    assert refusal(tmp_path) == (
        "two.toml: id: 'acme-13' is also the id of one.toml; each ruleset file needs an id "
        "of its own"
    )


def test_an_unknown_key_names_the_file_and_the_key(tmp_path: Path) -> None:
    ruleset(tmp_path, "acme.toml", "acme-13", rule_table("points.kap", 60), extends="standard-13")
    assert refusal(tmp_path) == "acme.toml: unknown key 'points.kap'"


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ('[points.cap]\ntext = "t"\nsource = "s"\n',
         "acme.toml: points.cap: the rule has no value (a rule is a table of value, text and "
         "source)"),
        ("[points]\ncap = 60\n",
         "acme.toml: points.cap must be a table of value, text and source ([points.cap]), not "
         "a bare value"),
    ],
)  # fmt: skip
def test_a_known_key_written_wrong_is_not_called_unknown(
    tmp_path: Path, body: str, says: str
) -> None:
    """docs/rulesets.md: a refusal is one line naming the file, the key and what is
    allowed. A rule table without its value, or a bare `cap = 60`, was "unknown key"."""
    ruleset(tmp_path, "acme.toml", "acme-13", body, extends="standard-13")
    assert refusal(tmp_path) == says


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("points.cap", 0, "expected a whole number from 1 to 1000, got 0"),
        ("melds.run_wraps", "yes", 'expected true or false, got "yes"'),
        ("draws.joker_from_discard", "sometimes",
         'expected one of "allowed", "open_card_only", "never", got "sometimes"'),
        ("melds.max_jokers_per_run", "many",
         'expected "unlimited" or a whole number from 0 to 13, got "many"'),
    ],
)  # fmt: skip
def test_a_bad_value_names_the_file_the_key_and_what_is_allowed(
    tmp_path: Path, key: str, value: object, allowed: str
) -> None:
    ruleset(tmp_path, "acme.toml", "acme-13", rule_table(key, value), extends="standard-13")
    assert refusal(tmp_path) == f"acme.toml: {key}: {allowed}"


@pytest.mark.parametrize(
    ("head", "says"),
    [
        ('id = ""\n', "acme.toml: id: expected the games.ruleset value that names the ruleset, "
         'got ""'),
        ('id = "  "\n', "acme.toml: id: expected the games.ruleset value that names the "
         'ruleset, got "  "'),
        ("", "acme.toml: the ruleset has no id (the games.ruleset value that names it)"),
    ],
)  # fmt: skip
def test_each_ruleset_file_has_an_id_of_its_own_not_an_empty_one(
    tmp_path: Path, head: str, says: str
) -> None:
    """docs/rulesets.md: "Each has an `id` of its own". `id = ""` was accepted, listed
    with an empty id, and answered for the games whose games.ruleset is "" (a blind
    tester); a file with no id was called "the preset"."""
    path = tmp_path / "acme.toml"
    path.write_text(head + 'extends = "standard-13"\n' + CAP_60, encoding="utf-8")
    assert refusal(tmp_path) == says
    with pytest.raises(RulesetError) as raised:
        check_file(path)
    assert str(raised.value) == says.replace("acme.toml", str(path), 1)


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("melds.min_size", True, "expected a whole number from 2 to 13, got true"),
        ("drops.points", {"first": 20},
         'expected "none" or { first = N, middle = N }, got { first = 20 }'),
        ("declaration.groupings", [["5", "5"]],
         'expected a whole number from 1 to 60, got "5"'),
        ("pool_101.exactly_eliminates", "yes", 'expected true or false, got "yes"'),
        ("games.rebuy_formats", ["pool_101", "pool_301"],
         "expected a list of formats from points, pool_101, pool_201, deals, match, "
         'got ["pool_101", "pool_301"]'),
    ],
)  # fmt: skip
def test_a_refusal_shows_the_value_as_the_file_wrote_it(
    tmp_path: Path, key: str, value: object, shown: str
) -> None:
    """docs/rulesets.md, "Errors": the value got is shown "as TOML writes it": `true` was
    `True` and `{ first = 20 }` was `{'first': 20}`, and then `"yes"` was `'yes'` and
    `["pool_101", "pool_301"]` was `['pool_101', 'pool_301']` (Python's words, blind
    testers); the words allowed are quoted the same way."""
    ruleset(tmp_path, "acme.toml", "acme-13", rule_table(key, value), extends="standard-13")
    assert refusal(tmp_path) == f"acme.toml: {key}: {shown}"


def test_extends_an_unknown_id_names_the_presets_and_the_folder(tmp_path: Path) -> None:
    ruleset(tmp_path, "acme.toml", "acme-13", extends="acme-base")
    message = refusal(tmp_path)
    assert message.startswith("acme.toml: extends: unknown ruleset 'acme-base'; the presets")
    assert message.endswith("the platform rulesets (--rules) are: acme-13")


def test_a_folder_without_ruleset_files_or_not_a_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no rules here", encoding="utf-8")
    assert "holds no *.toml ruleset file" in refusal(tmp_path)
    assert refusal(tmp_path / "absent").endswith("not a folder of ruleset files")


def test_a_file_that_is_not_toml_or_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("id = ", encoding="utf-8")
    assert refusal(tmp_path).startswith("bad.toml: not valid TOML: ")
    (tmp_path / "bad.toml").write_bytes(b'id = "\xff"\n')
    assert refusal(tmp_path) == "bad.toml: not UTF-8 text; a ruleset file is TOML in UTF-8"


# ------------------------------------------------------------------ what crosses to a worker


def test_the_value_a_worker_gets_builds_the_same_rulesets_once(tmp_path: Path) -> None:
    ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    platform = load_folder(tmp_path)
    again = pickle.loads(pickle.dumps(platform))
    assert again == platform
    assert again.digest == platform.digest
    assert again.rulesets() is platform.rulesets()  # built once per process, by digest
    assert again.rulesets()["acme-13"].cap == 60
    assert PlatformRules.of(list(reversed(platform.files))).digest == platform.digest
    changed = PlatformRules.of([(n, t.replace("60", "61")) for n, t in platform.files])
    assert changed.digest != platform.digest


def test_summary_for_run_json(tmp_path: Path) -> None:
    path = ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    assert load_folder(tmp_path).summary() == [
        {
            "id": "acme-13",
            "file": "acme-13.toml",
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "extends": "standard-13",
        }
    ]


def test_lookup_answers_from_the_rulesets_in_force_then_the_presets(tmp_path: Path) -> None:
    ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    platform = load_folder(tmp_path)
    with pytest.raises(RulesetError, match="a platform ruleset is loaded with --rules DIR"):
        lookup("acme-13")
    with using(platform):
        assert active() is platform
        assert lookup("acme-13").cap == 60
        assert lookup("standard-13") is STANDARD
        with pytest.raises(RulesetError, match=r"the platform rulesets \(--rules\) are: acme-13"):
            lookup("acme-10")
    assert active() is None


# ------------------------------------------------------------------ rules check-file


def test_check_file_says_what_the_file_changes(tmp_path: Path) -> None:
    path = ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60 + WRAPS, extends="standard-13")
    assert check_file(path) == (
        f"{path}: ok, acme-13 extends standard-13, changes melds.run_wraps, points.cap"
    )


def test_check_file_notes_rules_that_never_apply(tmp_path: Path) -> None:
    """docs/rulesets.md, "Errors": a rule no game can bring into play, or a first drop
    dearer than a middle drop, is loaded as written and named in check-file's line (a blind
    tester: such house rules passed without a word). 000_1729c72ad4c1f885.txt's own
    numbers (cap 80, first-hand cap 40, auto split above 80 in 101 pool) get none."""
    body = (
        rule_table("points.first_hand_show_cap", 80)
        + rule_table("pool_101.auto_split_above", 100)
        + rule_table("pool_101.manual_split_min_score", 101)
        + rule_table("pool_201.rebuy_below", 201)
        + rule_table("drops.pool_201", {"first": 60, "middle": 50})
    )
    path = ruleset(tmp_path, "odd.toml", "odd-13", body, extends="standard-13")
    line = check_file(path)
    assert line.split("; note: ")[1:] == [
        "points.first_hand_show_cap: 80, not below points.cap (80), never lowers a charge",
        "pool_101.manual_split_min_score: 101, and a player still in has at most 100: a "
        "manual split is never offered",
        "pool_101.auto_split_above: 100, and a player still in has at most 100: the prize "
        "is never split at once",
        "drops.pool_201: a first drop (60 points) costs more than a middle drop (50)",
        "pool_201.rebuy_below: 201, and a player still in has at most 200: it never stops "
        "a rebuy",
    ]
    bounds = rule_table("pool_101.auto_split_above", 99) + rule_table(
        "pool_201.rebuy_below", 200
    )
    path = ruleset(tmp_path, "edge.toml", "edge-13", bounds, extends="standard-13")
    assert "; note: " not in check_file(path)


def test_check_file_cli_ok_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    result = runner.invoke(app, ["rules", "check-file", "acme-13.toml"])
    assert result.exit_code == 0, result.output
    assert result.output == "acme-13.toml: ok, acme-13 extends standard-13, changes points.cap\n"

    ruleset(tmp_path, "bad.toml", "acme-bad", rule_table("points.cap", 0), extends="standard-13")
    result = runner.invoke(app, ["rules", "check-file", "bad.toml"])
    assert result.exit_code == 2
    assert result.output == (
        "rummy-audit: error: bad.toml: points.cap: expected a whole number from 1 to 1000, "
        "got 0\n"
    )
    assert "Traceback" not in result.output

    result = runner.invoke(app, ["rules", "check-file", "missing.toml"])
    assert (result.exit_code, result.output) == (
        2, "rummy-audit: error: missing.toml: no such ruleset file\n"
    )  # fmt: skip


def test_rebuys_or_splits_given_to_a_deals_game_refuse_the_file_on_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`games.rebuy_formats`, `games.split_formats` (000_1729c72ad4c1f885.txt: Re-Buy 'is
    not available for Best of 2/3 Deal games and Point Rummy Games'); schemas/money.md: a
    deals game's ledger has no `rebuy` (or `split`) rows and its money is "as in pool,
    without rebuys or splits". A file giving deals rebuys was `ok`, and then no ledger of
    a deals game with a rebuy could pass under it (a blind tester): it is refused, naming
    the file, the key and why; so is a split in points."""
    monkeypatch.chdir(tmp_path)
    rebuys = rule_table("games.rebuy_formats", ["pool_101", "pool_201", "deals"])
    ruleset(tmp_path, "deal-x.toml", "deal-x", rebuys, extends="standard-13")
    result = runner.invoke(app, ["rules", "check-file", "deal-x.toml"])
    assert (result.exit_code, result.output) == (
        2, "rummy-audit: error: deal-x.toml: games.rebuy_formats: names deals, but a deals "
        "game has no rebuys: its ledger has no rebuy rows (schemas/money.md), so no honest "
        "ledger could pay one; only pool_101 and pool_201 have rebuys\n"
    )  # fmt: skip
    splits = rule_table("games.split_formats", ["points", "pool_101", "deals"])
    ruleset(tmp_path / "rules", "zed.toml", "zed", splits, extends="standard-13")
    assert refusal(tmp_path / "rules") == (
        "zed.toml: games.split_formats: names points and deals, but a points or deals game "
        "has no splits: its ledger has no split rows (schemas/money.md), so no honest ledger "
        "could pay one; only pool_101 and pool_201 have splits"
    )


def test_check_file_of_a_folder_says_it_takes_one_file(tmp_path: Path) -> None:
    """It said "no such ruleset file" of a folder that is there (a blind tester)."""
    ruleset(tmp_path / "rules", "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    folder = str(tmp_path / "rules")
    result = runner.invoke(app, ["rules", "check-file", folder])
    assert (result.exit_code, result.output) == (
        2, f"rummy-audit: error: {folder}: a folder, and check-file checks one ruleset file "
        f"(rules list --rules {folder} loads the whole folder)\n"
    )  # fmt: skip


def test_check_file_of_a_file_that_extends_a_platform_ruleset(tmp_path: Path) -> None:
    """Its parents are given with --rules DIR; without them the error says so."""
    parents = tmp_path / "rules"
    ruleset(parents, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    child = ruleset(tmp_path / "new", "acme-13-wraps.toml", "acme-13-wraps", WRAPS,
                    extends="acme-13")  # fmt: skip
    result = runner.invoke(app, ["rules", "check-file", str(child)])
    assert result.exit_code == 2
    assert "extends: unknown ruleset 'acme-13'" in result.output
    assert result.output.rstrip().endswith("give the folder of the rulesets it extends with "
                                           "--rules DIR")  # fmt: skip
    result = runner.invoke(app, ["rules", "check-file", str(child), "--rules", str(parents)])
    assert result.exit_code == 0, result.output
    assert result.output == f"{child}: ok, acme-13-wraps extends acme-13, changes melds.run_wraps\n"


def test_check_file_of_a_file_inside_its_own_folder(tmp_path: Path) -> None:
    """Checked against the other files of the folder, not against itself."""
    ruleset(tmp_path, "acme-13.toml", "acme-13", CAP_60, extends="standard-13")
    child = ruleset(tmp_path, "wraps.toml", "acme-13-wraps", WRAPS, extends="acme-13")
    assert check_file(child, parents=tmp_path).startswith(f"{child}: ok, acme-13-wraps extends")
    clash = ruleset(tmp_path / "other", "acme.toml", "acme-13", extends="standard-13")
    with pytest.raises(RulesetError, match=r"is also the id of acme-13\.toml"):
        check_file(clash, parents=tmp_path)


def test_check_file_of_a_file_that_others_in_its_folder_extend(tmp_path: Path) -> None:
    """docs/rulesets.md: check-file "checks one file as --rules would load it": a parent
    in a folder whose other files extend it, directly or through another, checks as the
    folder loads (the folder was built without it, and its children failed: "b.toml:
    extends: unknown ruleset", a blind tester)."""
    parent = ruleset(tmp_path, "a.toml", "acme-13", CAP_60, extends="standard-13")
    ruleset(tmp_path, "b.toml", "acme-13-wraps", WRAPS, extends="acme-13")
    ruleset(tmp_path, "c.toml", "acme-13-more", extends="acme-13-wraps")
    assert load_folder(tmp_path).rulesets()  # the folder loads
    assert check_file(parent, parents=tmp_path) == (
        f"{parent}: ok, acme-13 extends standard-13, changes points.cap"
    )


def test_rules_list_and_show_with_a_platform_folder(tmp_path: Path) -> None:
    ruleset(tmp_path, "acme-13.toml", "acme-13", 'title = "Acme 13"\n' + CAP_60,
            extends="standard-13")  # fmt: skip
    result = runner.invoke(app, ["rules", "list", "--rules", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "acme-13\tAcme 13\t(acme-13.toml)"
    assert "standard-13\t" in result.output
    result = runner.invoke(app, ["rules", "show", "acme-13", "--rules", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "points.cap = 60" in result.output
    result = runner.invoke(app, ["rules", "show", "acme-13"])
    assert result.exit_code == 2
    assert "a platform ruleset is loaded with --rules DIR" in result.output


def test_rules_check_judges_cards_under_a_platform_ruleset(tmp_path: Path) -> None:
    """A support agent checks a group under the platform's own rules: K-A-2 is a sequence
    under a file with melds.run_wraps = true, not under standard-13 (003_: 'but you can not
    form K-A-2')."""
    ruleset(tmp_path, "acme-13.toml", "acme-13", WRAPS, extends="standard-13")
    mine = ["rules", "check", "--preset", "acme-13", "--rules", str(tmp_path), "KH AH 2H"]
    result = runner.invoke(app, mine)
    assert result.exit_code == 0, result.output
    assert "ruleset acme-13" in result.output
    assert "KH AH 2H: pure sequence" in result.output
    result = runner.invoke(app, ["rules", "check", "KH AH 2H"])
    assert "KH AH 2H: invalid group" in result.output
    assert "(melds.run_wraps)" in result.output


def test_rules_list_of_a_bad_folder_is_one_line_and_nothing_else(tmp_path: Path) -> None:
    """docs/rulesets.md: a folder that does not load is "exit 2 and one line"; `rules
    list` printed the presets first (a blind tester)."""
    ruleset(tmp_path, "bad.toml", "acme-bad", rule_table("points.cap", 0), extends="standard-13")
    result = runner.invoke(app, ["rules", "list", "--rules", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith("rummy-audit: error: bad.toml: points.cap")


# ------------------------------------------------------------------ the rule a reason names

ACE_LOW_ONLY = rule_table("melds.ace_high", False, text="Q K A is not a sequence.",
                          source="acme terms, section 4.2")  # fmt: skip
ONE_JOKER = (rule_table("melds.max_jokers_per_run", 1, text="One joker a sequence.",
                        source="acme terms, section 3.2")
             + rule_table("melds.max_jokers_per_set", 1, text="One joker a set.",
                          source="acme terms, section 3.2"))  # fmt: skip


def test_melds_ace_high_false_is_named_where_an_ace_after_the_king_is_refused(
    tmp_path: Path,
) -> None:
    """A platform's ``melds.ace_high = false`` (its source: 'Q K A is not a sequence'):
    QH KH AH was refused as needing "10 jokers to fill the gaps", and an accepted
    declaration holding it cited the meld size (a blind tester); the reason names the rule
    and the declaration's verdict cites it. A 2 3 is still a sequence."""
    ruleset(tmp_path, "acme-13.toml", "acme-13", ACE_LOW_ONLY, extends="standard-13")
    rules = load_folder(tmp_path).rulesets()["acme-13"]
    result = runner.invoke(app, ["rules", "check", "--preset", "acme-13", "--rules",
                                 str(tmp_path), "QH KH AH"])  # fmt: skip
    assert "QH KH AH is not a sequence: an ace may not follow the king in a sequence " \
        "(melds.ace_high)" in result.output  # fmt: skip
    shown = groups("QH KH AH / 3D 4D 5D / 7C 7D 7H / 9S 9H 9D 9C")
    check = check_declaration(flat("QH KH AH / 3D 4D 5D / 7C 7D 7H / 9S 9H 9D 9C"), shown,
                              NO_WILD, rules)  # fmt: skip
    assert not check.valid
    assert check.broken_rule() == "melds.ace_high"
    assert rules.cite(check.broken_rule()).endswith("(acme terms, section 4.2)")
    assert check_groups([cards("AH 2H 3H")], NO_WILD, rules)[0].verdict.is_pure_run


def test_melds_max_jokers_per_run_is_named_beside_the_set_limit_for_one_card_and_jokers(
    tmp_path: Path,
) -> None:
    """A platform's one joker a sequence and one a set (acme terms, section 3.2): 9S JK JK
    can be neither, and its reason named only the set's limit though it may be laid as a
    sequence (a blind tester). Both are said; the sequence's, named last, is cited."""
    ruleset(tmp_path, "acme-13.toml", "acme-13", ONE_JOKER, extends="standard-13")
    rules = load_folder(tmp_path).rulesets()["acme-13"]
    verdict = check_groups([cards("9S JK JK")], NO_WILD, rules)[0].verdict
    assert verdict.reason == (
        "9S JK JK is neither a sequence nor a set: a set may use at most 1 joker "
        "(melds.max_jokers_per_set); and a sequence may use at most 1 joker, and this one "
        "needs 2 (melds.max_jokers_per_run)"
    )
    assert group_rule(verdict.reason) == "melds.max_jokers_per_run"


def test_melds_run_wraps_is_the_rule_behind_a_valid_k_a_2_declaration(tmp_path: Path) -> None:
    """A platform's ``melds.run_wraps = true``: the rule that makes its K-A-2 declaration
    valid where the presets' reading refuses it (``meld_rule_behind``), and the words name
    it beside the group; a declaration that any reading accepts has none (it cites the
    requirement, as under a preset)."""
    ruleset(tmp_path, "acme-13.toml", "acme-13", WRAPS, extends="standard-13")
    rules = load_folder(tmp_path).rulesets()["acme-13"]
    laid = "KH AH 2H / 3D 4D 5D / 7C 7D 7H / 9S TS JS QS"
    check = check_declaration(flat(laid), groups(laid), NO_WILD, rules)
    behind = meld_rule_behind(check, NO_WILD, rules)
    assert behind is not None
    assert (behind[0], behind[1].text) == ("melds.run_wraps", "KH AH 2H")
    assert valid_words(check, rules, behind).startswith(
        "its groups are melds, KH AH 2H (pure sequence, melds.run_wraps), 3D 4D 5D (pure "
        "sequence),"
    )
    plain = "QH KH AH / 3D 4D 5D / 7C 7D 7H / 9S TS JS QS"
    check = check_declaration(flat(plain), groups(plain), NO_WILD, rules)
    assert meld_rule_behind(check, NO_WILD, rules) is None
    assert check.broken_rule() == "declaration.min_runs"
    assert meld_rule_behind(check, NO_WILD, STANDARD) is None
