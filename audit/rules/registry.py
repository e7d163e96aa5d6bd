"""A platform's own rulesets: a folder of ruleset files loaded next to the shipped presets.

``rummy-audit replay LOGS --rules DIR`` reads every ``*.toml`` file of ``DIR`` (sorted by
name, not its subfolders). Each file has the presets' format (``docs/rulesets.md``); it may
``extends`` a shipped preset or another file's ruleset of the folder and change any value
(002_: "the host can change any of them"). A game whose ``ruleset`` names one of those ids
is replayed under it; the presets answer every other id.

What crosses to a worker process (or a Dask worker) is ``PlatformRules``, the files' names
and texts with their digest: it pickles small, and each process builds the same rulesets
from it once (``PlatformRules.rulesets``, cached by digest). ``using`` makes a folder's
rulesets the ones ``lookup`` answers from, for the code that runs inside it.

Every problem is one ``RulesetError`` line naming the file, the key and, for a bad value,
what is allowed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from audit.errors import RulesetError
from audit.rules.ruleset import Ruleset, _build, _Parsed, _read, load_preset, preset_ids

HINT = "a platform ruleset is loaded with --rules DIR"
"""How to supply a ruleset the presets do not have (the quarantine's reason says it)."""


@dataclass(frozen=True)
class PlatformRules:
    """The ruleset files of a platform's folder: (file name, text) pairs sorted by name,
    and a digest of them all. Build it with ``load_folder``.

    >>> rules = PlatformRules.of([("acme-13.toml", 'id = "acme-13"\\nextends = "standard-13"\\n')])
    >>> rules.ids(), rules.rulesets()["acme-13"].cap
    (['acme-13'], 80)
    >>> rules.summary()[0]["extends"], rules.digest == PlatformRules.of(rules.files).digest
    ('standard-13', True)
    """

    files: tuple[tuple[str, str], ...]
    digest: str

    @classmethod
    def of(cls, files: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> PlatformRules:
        ordered = tuple(sorted(files))
        sha = hashlib.sha256()
        for name, text in ordered:
            for part in (name, text):
                data = part.encode("utf-8")
                sha.update(len(data).to_bytes(8, "big") + data)
        return cls(ordered, sha.hexdigest())

    def rulesets(self) -> Mapping[str, Ruleset]:
        """Id -> ruleset of every file, built once per process (the same rulesets in every
        worker); a file that cannot be used is a ``RulesetError``."""
        built = _BUILT.get(self.digest)
        if built is None:
            built = _BUILT[self.digest] = MappingProxyType(_build_all(self.files))
        return built

    def ids(self) -> list[str]:
        return sorted(self.rulesets())

    def summary(self) -> list[dict[str, str | None]]:
        """What run.json records of each ruleset: its id, file name, the sha256 of its text
        and the id it extends (``None``: it sets every rule itself), by file name."""
        rulesets = {rules.path: rules for rules in self.rulesets().values()}
        return [
            {
                "id": rulesets[name].id,
                "file": name,
                "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
                "extends": _read(text, name).meta.get("extends"),
            }
            for name, text in self.files
        ]


_BUILT: dict[str, Mapping[str, Ruleset]] = {}
_ACTIVE: ContextVar[PlatformRules | None] = ContextVar("platform_rules", default=None)


def load_folder(
    folder: Path, *, skip: Path | None = None, heirs_of: str | None = None
) -> PlatformRules:
    """Every ``*.toml`` ruleset file of ``folder`` (not its subfolders), checked: each
    builds, no id is taken twice. ``skip`` leaves one file out and ``heirs_of`` the files
    that extend that id, directly or through another (``check_file`` of a file inside the
    folder: the files built on it cannot be built without it)."""
    if not folder.is_dir():
        raise RulesetError(f"--rules {folder}: not a folder of ruleset files", slug="rules-dir")
    files = []
    for path in sorted(folder.glob("*.toml")):
        # A folder named *.toml is not a ruleset; a broken link is a file that cannot be
        # read, and says so (``_text``), rather than being left out unsaid.
        if path.is_dir() or (skip is not None and path.resolve() == skip.resolve()):
            continue
        files.append((path.name, _text(path, path.name)))
    if heirs_of is not None:
        files = _without_heirs(files, heirs_of)
    if not files and skip is None:
        raise RulesetError(
            f"--rules {folder}: the folder holds no *.toml ruleset file (docs/rulesets.md)",
            slug="rules-dir",
        )
    platform = PlatformRules.of(files)
    platform.rulesets()
    return platform


def _without_heirs(files: list[tuple[str, str]], ident: str) -> list[tuple[str, str]]:
    """``files`` less those whose ``extends`` chain reaches ``ident``."""
    meta = {name: _read(text, name).meta for name, text in files}
    parent = {m["id"]: m.get("extends") for m in meta.values()}

    def heir(name: str) -> bool:
        seen: set[str] = set()
        step = parent.get(meta[name]["id"])
        while step is not None and step not in seen:
            if step == ident:
                return True
            seen.add(step)
            step = parent.get(step)
        return False

    return [(name, text) for name, text in files if not heir(name)]


def load_rules(folder: Path | None) -> PlatformRules | None:
    """``load_folder(folder)``, or ``None`` without a folder (the presets alone)."""
    return None if folder is None else load_folder(folder)


@contextmanager
def using(platform: PlatformRules | None) -> Iterator[None]:
    """Within the block, ``lookup`` answers from ``platform``'s rulesets first (``None``:
    the presets alone). Per thread and task (a context variable), so a Dask worker's
    threads may run different nights."""
    if platform is not None:
        platform.rulesets()
    token = _ACTIVE.set(platform)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def active() -> PlatformRules | None:
    """The platform rulesets ``using`` put in force here, if any."""
    return _ACTIVE.get()


def lookup(ruleset_id: str) -> Ruleset:
    """The ruleset a game names: the platform's in force (``using``) first, then the
    shipped presets; an unknown id is a ``RulesetError`` saying how to supply one.

    >>> lookup("standard-13").id
    'standard-13'
    >>> try:
    ...     lookup("acme-13")
    ... except RulesetError as exc:
    ...     print(exc)  # doctest: +ELLIPSIS
    unknown ruleset 'acme-13'; the presets are: ...; a platform ruleset is loaded with --rules DIR
    """
    platform = _ACTIVE.get()
    if platform is not None:
        found = platform.rulesets().get(ruleset_id)
        if found is not None:
            return found
    try:
        return load_preset(ruleset_id)  # cached: a game costs one dict lookup
    except RulesetError:
        pass
    raise RulesetError(_unknown(ruleset_id, platform.ids() if platform else None),
                       slug="unknown-ruleset")  # fmt: skip


def _unknown(ruleset_id: str, platform: list[str] | None, hint: str = HINT) -> str:
    known = f"unknown ruleset {ruleset_id!r}; the presets are: {', '.join(preset_ids())}"
    if platform is None:
        return f"{known}; {hint}"
    return f"{known}; the platform rulesets (--rules) are: {', '.join(platform) or 'none'}"


def _text(path: Path, name: str) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise RulesetError(f"{name}: cannot read the ruleset ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise RulesetError(f"{name}: not UTF-8 text; a ruleset file is TOML in UTF-8") from None


def _build_all(files: tuple[tuple[str, str], ...]) -> dict[str, Ruleset]:
    """Every file's ruleset: ids checked (none a preset's, none twice), ``extends``
    followed in dependency order (a cycle is an error), parents built first."""
    presets = set(preset_ids())
    parsed: dict[str, _Parsed] = {}
    for name, text in files:
        item = _read(text, name)
        ident = item.meta["id"]
        if ident in presets:
            raise RulesetError(
                f"{name}: id: {ident!r} is the id of the shipped preset "
                f"presets/{ident}.toml; give the platform ruleset an id of its own "
                "(it may extend that preset)"
            )
        if ident in parsed:
            raise RulesetError(
                f"{name}: id: {ident!r} is also the id of {parsed[ident].path}; each ruleset "
                "file needs an id of its own"
            )
        parsed[ident] = item
    order: list[str] = []
    state: dict[str, bool] = {}  # id -> done (False: being visited)

    def visit(ident: str, chain: tuple[str, ...]) -> None:
        if state.get(ident):
            return
        if ident in state:
            loop = (*chain[chain.index(ident) :], ident)
            raise RulesetError(
                f"{parsed[loop[0]].path}: extends: a cycle, "
                + " -> ".join(f"{i} ({parsed[i].path})" for i in loop)
                + "; a ruleset cannot extend itself, even through another"
            )
        state[ident] = False
        parent = parsed[ident].meta.get("extends")
        if parent is not None and parent in parsed:
            visit(parent, (*chain, ident))
        state[ident] = True
        order.append(ident)

    for ident in parsed:
        visit(ident, ())
    built: dict[str, Ruleset] = {}

    def parent_of(ident: str) -> Ruleset:
        if ident in built:
            return built[ident]
        if ident in presets:
            return load_preset(ident)
        raise RulesetError(_unknown(ident, sorted(parsed)))

    for ident in order:
        built[ident] = _build(parsed[ident], parent_of)
    return {ident: built[ident] for ident in sorted(built)}


def _no_cycle(item: _Parsed, name: str, parents: Path | None, path: Path) -> None:
    """A ``RulesetError`` naming every file where the ``extends`` chain of ``item`` (the
    file ``name``, among the rulesets of ``parents``) comes back to it, as ``--rules``
    says of the folder (a blind tester's check-file said the folder held none, the files
    of the cycle being left out as ``item``'s heirs)."""
    ident = item.meta["id"]
    metas = {ident: (name, item.meta.get("extends"))}
    if parents is not None and parents.is_dir():
        for other in sorted(parents.glob("*.toml")):
            if other.is_file() and other.resolve() != path.resolve():
                meta = _read(_text(other, other.name), other.name).meta
                metas.setdefault(meta["id"], (other.name, meta.get("extends")))
    chain = [ident]
    step = metas[ident][1]
    while step is not None and step in metas and step not in chain:
        chain.append(step)
        step = metas[step][1]
    if step == ident:
        loop = [*chain, ident]
        raise RulesetError(
            f"{name}: extends: a cycle, "
            + " -> ".join(f"{i} ({metas[i][0]})" for i in loop)
            + "; a ruleset cannot extend itself, even through another"
        )


def check_file(path: Path, *, parents: Path | None = None) -> str:
    """Check one ruleset file as ``--rules`` would load it, and say what it is in one
    line: ``acme-13.toml: ok, acme-13 extends standard-13, changes points.cap``.
    ``parents`` is the folder of the platform rulesets it may extend; a problem is a
    ``RulesetError`` naming the file and the key."""
    name = str(path)
    if path.is_dir():
        raise RulesetError(f"{name}: a folder, and check-file checks one ruleset file (rules "
                           f"list --rules {name} loads the whole folder)")  # fmt: skip
    if not path.is_file():
        raise RulesetError(f"{name}: no such ruleset file")
    item = _read(_text(path, name), name)
    ident = item.meta["id"]
    presets = set(preset_ids())
    if ident in presets:
        # Said first, as --rules says it: a preset's id extending that preset was "a
        # cycle", where the file's own id is the fault (a blind tester)
        raise RulesetError(
            f"{name}: id: {ident!r} is the id of the shipped preset presets/{ident}.toml; give "
            "the platform ruleset an id of its own (it may extend that preset)"
        )
    _no_cycle(item, name, parents, path)
    folder = load_folder(parents, skip=path, heirs_of=ident) if parents is not None else None
    others = folder.rulesets() if folder is not None else {}
    if ident in others:
        raise RulesetError(
            f"{name}: id: {ident!r} is also the id of {others[ident].path} in {parents}; each "
            "ruleset file needs an id of its own"
        )

    def parent_of(parent: str) -> Ruleset:
        if parent in others:
            return others[parent]
        if parent in presets:
            return load_preset(parent)
        hint = "give the folder of the rulesets it extends with --rules DIR"
        raise RulesetError(_unknown(parent, sorted(others) if folder else None, hint))

    rules = _build(item, parent_of)
    parent = item.meta.get("extends")
    notes = "".join(f"; note: {note}" for note in never_apply(rules))
    if parent is None:
        return f"{name}: ok, {ident} sets all {len(rules.rules)} rules itself{notes}"
    base = parent_of(parent)
    changed = [key for key in rules.rules if rules.rules[key].value != base.rules[key].value]
    return (
        f"{name}: ok, {ident} extends {parent}, "
        + (f"changes {', '.join(changed)}" if changed else "changes no value")
        + notes
    )


def never_apply(rules: Ruleset) -> list[str]:
    """The rules of ``rules`` that no hand or game can bring into play, and drop charges
    in the unusual order, each ``key: why``: no doc refuses them, so a ruleset holding
    them is loaded and applied as written, but ``check-file`` says so (a blind tester's
    house rules: an auto split above every score a player still in can have, a first
    drop dearer than a middle drop)."""
    notes = []
    if rules.first_hand_show_cap >= rules.cap:
        notes.append(
            f"points.first_hand_show_cap: {rules.first_hand_show_cap}, not below points.cap "
            f"({rules.cap}), never lowers a charge"
        )
    for fmt in rules.formats:
        drop = rules.drops.get(fmt)
        if drop is not None and drop.first > drop.middle:
            notes.append(
                f"drops.{fmt}: a first drop ({drop.first} points) costs more than a middle "
                f"drop ({drop.middle})"
            )
        pool = rules.pools.get(fmt)
        if pool is None:
            continue
        top = pool.elimination_score - (1 if pool.exactly_eliminates else 0)
        out = f"a player still in has at most {top}"
        if fmt in rules.rebuy_formats and pool.rebuy_below > top:
            notes.append(f"{fmt}.rebuy_below: {pool.rebuy_below}, and {out}: "
                         "it never stops a rebuy")  # fmt: skip
        if fmt in rules.split_formats and pool.manual_split_min_score > top:
            notes.append(f"{fmt}.manual_split_min_score: {pool.manual_split_min_score}, and "
                         f"{out}: a manual split is never offered")  # fmt: skip
        if fmt in rules.split_formats and pool.auto_split_above >= top:
            notes.append(f"{fmt}.auto_split_above: {pool.auto_split_above}, and {out}: "
                         "the prize is never split at once")  # fmt: skip
    return notes
