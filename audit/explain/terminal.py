"""The explanation of a hand or a game in a terminal, with rich: coloured cards, tables,
panels.

Every value from the log goes in as ``Text``, never as markup, so a player id such as
``[bold]x[/bold]`` prints as written, and on one line: a newline or another control
character in it is printed escaped (``printable``). Without a terminal rich prints the same
words with no colour, which is what pipes and tests read. Nothing is cut at any width: a
word too long for its column goes on over the next line, a title too long for its panel
opens the panel instead.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar, cast

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from audit.errors import one_line
from audit.explain.cards import LOOSE, CardView, GroupView
from audit.explain.game import GameHandView, GameView
from audit.explain.ledgerview import LedgerView
from audit.explain.points import PointsView, ValueView
from audit.explain.tables import Cell, ScoreTable
from audit.explain.turns import TurnView
from audit.explain.view import FairPlayView, HandView, PlayerView

SEVERITY_STYLE = {
    "critical": "bold white on red",
    "major": "bold red",
    "minor": "bold yellow",
    "info": "bold cyan",
}
_COLOUR = {"critical": "red", "major": "red", "minor": "yellow", "info": "cyan"}
_CARD_STYLE = {"red": "bold red", "black": "bold black", "joker": "bold magenta"}


_View = TypeVar("_View")


def printable(view: _View) -> _View:
    """``view`` (a view model, or any value in one) with every string in it on one line
    (``errors.one_line``): a newline or another control character in an id from the log
    is printed escaped, as ``\\n``, so that an id cannot make lines of its own in the
    explanation.

    >>> print(*printable(("P1\\nFindings: none", 2)))
    P1\\nFindings: none 2
    """
    if isinstance(view, str):
        return cast(_View, one_line(view))
    if isinstance(view, tuple):
        return cast(_View, tuple(printable(item) for item in view))
    if is_dataclass(view) and not isinstance(view, type):
        changed = {f.name: printable(getattr(view, f.name)) for f in fields(view) if f.init}
        return cast(_View, replace(view, **changed))
    return view


class _Table(Table):
    """A rich table whose columns go on over the next line with a word too long for them
    (rich's default cuts it, ending it with "…"): no word from the log is lost, whatever
    the width of the terminal."""

    def add_column(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("overflow", "fold")
        super().add_column(*args, **kwargs)


_TITLE_EDGES = 6
"""The columns a panel's title leaves to its border: a corner, a rule and a space a side."""


class _Titled:
    """A panel with a title that is never cut: rich crops a title wider than its panel, so
    where the console is too narrow for it, the title is the panel's first line instead,
    wrapped as the rest."""

    def __init__(self, body: RenderableType, title: Text, border: str) -> None:
        self.body, self.title, self.border = body, title, border

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if cell_len(self.title.plain) + _TITLE_EDGES <= options.max_width:
            yield Panel(self.body, title=self.title, border_style=self.border)
        else:
            head = Text(self.title.plain, style="bold")
            yield Panel(Group(head, self.body), border_style=self.border)


def print_view(view: HandView, console: Console) -> None:
    for part in renderables(view):
        console.print(part)


def _plain(parts: Iterator[RenderableType], width: int) -> str:
    """Renderables as plain text, ``width`` columns wide, the same on every machine."""
    out = io.StringIO()
    console = Console(
        file=out,
        width=width,
        force_terminal=False,
        color_system=None,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    for part in parts:
        console.print(part)
    return out.getvalue()


def render_text(view: HandView, *, width: int = 100) -> str:
    """The explanation as plain text, ``width`` columns wide, the same on every machine."""
    return _plain(renderables(view), width)


def renderables(view: HandView) -> Iterator[RenderableType]:
    view = printable(view)
    yield _header(view)
    if not view.unreplayable:
        yield _turns(view.turns)
        for player in view.players:
            yield _player(player)
        yield _findings(view)
    yield _fairplay(view.fairplay)


# ------------------------------------------------------------ pieces


def card_text(card: CardView) -> Text:
    """A card as its log code, coloured like a card; a joker by the wild rank on yellow."""
    paper = "on yellow" if card.joker == "wild" else "on white"
    return Text.assemble((card.code, f"{_CARD_STYLE[card.colour]} {paper}"))


def cards_text(cards: Iterable[CardView]) -> Text:
    return Text(" ").join(card_text(c) for c in cards)


def _severity(severity: str) -> Text:
    return Text(f"[{severity}]", style=SEVERITY_STYLE.get(severity, ""))


def _border(severity: str, agrees: bool = True) -> str:
    """The colour of a section: its worst finding's, else green when all agrees."""
    if severity:
        return _COLOUR[severity]
    return "green" if agrees else "yellow"


# ------------------------------------------------------------ sections


def _header(view: HandView) -> _Titled:
    lines = [Text(view.headline, style="bold")]
    if view.table is not None:
        lines.append(Text(f"Table and money: {view.table.terms}"))
    lines.append(Text(f"Dealt and ended: {view.times}"))
    if view.unreplayable:
        lines.append(Text(view.unreplayable + "."))
        lines += [Text(line) for line in view.record]
    else:
        lines += [
            Text(f"Rules: {view.ruleset_title}"),
            Text("Seats in turn order: " + ", ".join(view.seats) + (
                f" (as played; the hand records {', '.join(view.seats_recorded)})"
                if view.seats_recorded else "")),
            Text.assemble(
                f"{view.wild_name} ", card_text(view.wild), f": {view.jokers} are jokers."
            ),
            Text.assemble("Jokers in this hand: ", cards_text(view.joker_cards)),
            Text.assemble("Open card: ", card_text(view.open)),
            Text.assemble("Verdict: ", Text(view.verdict, style=_border(view.worst))),
        ]
    lines.append(Text(f"Log root: {view.source}; rummy-audit {view.version}", style="dim"))
    return _Titled(Group(*lines), Text(view.title), _border(view.worst))


def _turns(turns: Iterable[TurnView]) -> Table:
    """The turns table; in the open-melds game a last column shows the table's melds after
    each turn that changed them."""
    rows = list(turns)
    melds = any(t.table for t in rows)
    table = _Table(title="Turns", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    for name in ("seq", "player", "drew", "from", "discarded", "then"):
        table.add_column(name)
    if melds:
        table.add_column("table after")
    for t in rows:
        cells = [
            Text(t.seqs),
            Text(t.player),
            card_text(t.drew) if t.drew else Text(""),
            Text(t.source),
            card_text(t.discarded) if t.discarded else Text(""),
            _turn_note(t),
        ]
        if melds:
            cells.append(Text("\n".join(t.table)))
        table.add_row(*cells, style=_COLOUR[t.severity] if t.severity else None)
    return table


def _turn_note(turn: TurnView) -> Text:
    note = Text(turn.note)
    if turn.finish is not None:
        note.append_text(Text.assemble(", putting ", card_text(turn.finish), " on the finish slot"))
    if turn.severity:
        note.append(" ").append_text(_severity(turn.severity))
    return note


def _player(p: PlayerView) -> _Titled:
    title = Text(f"{p.label}: {p.score}")
    parts: list[RenderableType] = [
        Text.assemble(("Dealt: ", "bold"), cards_text(p.dealt)),
        Text.assemble(
            f"{p.player}: {p.score}{_amount_part(p)} ({p.why}); {p.record}: ",
            (p.comparison, "green" if p.clean else "bold red"),
        ),
    ]
    if p.rule is not None:
        parts.append(Text(f"rule: {p.rule.cite}", style="dim"))
    if p.value is not None:
        parts += _value(p.value)
    if p.declaration:
        parts.append(Text(f"{p.player}'s declaration is {p.declaration}:", style="bold"))
        parts += [_indent(Text(f"- {reason}")) for reason in p.declaration_reasons]
        parts += [Text(f"rule: {rule.cite}", style="dim") for rule in p.declaration_rules]
    if p.groups or p.loose:
        parts.append(Text(f"Groups, {p.groups_title}:", style="bold"))
        parts += _groups(p.groups, p.loose, p.loose_note, p.loose_label)
    elif p.held:
        parts.append(Text.assemble((f"Cards {p.groups_title}: ", "bold"), cards_text(p.held)))
    if p.points_detail is not None:
        parts += _points(p.points_detail)
    if p.best is not None:
        parts.append(Text(f"Best possible: {p.best.summary}, arranged as:", style="bold"))
        parts += _groups(p.best.melds, p.best.unmatched, p.best.note)
    return _Titled(Group(*parts), title, _border(p.severity, p.clean))


def _amount_part(p: PlayerView) -> str:
    if not p.amount:
        return ""
    how = p.value.money if p.value is not None and p.value.money else p.money
    split = f" ({how})" if how else ""
    return f", {p.amount_word} {p.amount}{split}"


def _value(value: ValueView) -> list[RenderableType]:
    """The value cards held, their worth, the settlement and the rule."""
    parts: list[RenderableType] = [
        Text.assemble(("Value: ", "bold"), f"{value.words}, worth {value.points}"),
    ]
    if value.cut:
        parts.append(_indent(Text(value.cut)))
        if value.cut_rule is not None:
            parts.append(_indent(Text(f"rule: {value.cut_rule.cite}", style="dim")))
    parts.append(_indent(Text(value.settlement)))
    if value.rule is not None:
        parts.append(_indent(Text(f"rule: {value.rule.cite}", style="dim")))
    return parts


def _indent(part: RenderableType) -> Padding:
    return Padding(part, (0, 0, 0, 2))


def _groups(
    groups: Iterable[GroupView], loose: tuple[CardView, ...], note: str = "", label: str = LOOSE
) -> list[RenderableType]:
    """A row per group, with its verdict and the reason; then the cards left on their own,
    said as ``label`` (``PlayerView.loose_label``), with what the jokers among them are
    worth (``note``)."""
    table = _Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    for _ in range(3):
        table.add_column()
    for g in groups:
        kind = Text(g.kind, style="green" if g.valid else "red")
        table.add_row(cards_text(g.cards), kind, Text(g.reason))
    parts: list[RenderableType] = [_indent(table)] if table.row_count else []
    if loose:
        line = Text.assemble(f"{label}: ", cards_text(loose))
        if note:
            line.append(f" ({note})")
        parts.append(_indent(line))
    return parts


def _points(points: PointsView) -> list[RenderableType]:
    """The sum card by card, the steps to the charge, and the rule texts behind them."""
    parts: list[RenderableType] = [Text("Points, card by card:", style="bold")]
    if points.lines:
        terms = Text(" + ").join(
            Text.assemble(card_text(line.card), f" {line.points}", _note(line.note))
            for line in points.lines
        )
        parts.append(_indent(Text.assemble(terms, f" = {points.total}")))
    parts += [_indent(Text(step)) for step in points.steps]
    if points.rules:
        parts.append(Text("The rules behind these points:", style="bold"))
        parts += [_indent(Text(rule.cite, style="dim")) for rule in points.rules]
    return parts


def _note(note: str) -> str:
    return f" ({note})" if note else ""


def _findings(view: HandView) -> Panel:
    """Each finding with its severity, where it happened and the rule it cites."""
    table = _Table.grid(padding=(0, 1))
    table.add_column()
    table.add_column()
    for f in view.findings:
        where = ", ".join(w for w in (f.player, f.at) if w)
        head = Text.assemble(_severity(f.severity), f" {f.check}: {f.message}")
        if where:
            head.append(f" ({where})", style="dim")
        table.add_row(Text("-"), Group(head, Text(f"rule: {f.rule}", style="dim")))
    parts: list[RenderableType] = [table]
    if not view.findings:
        parts = [Text(view.none_found, style="yellow" if view.skipped or view.but else "green")]
    parts += _not_run(view.skipped)
    border = _border(view.worst, agrees=not (view.skipped or view.but))
    return Panel(Group(*parts), title=Text("Findings on this hand"), border_style=border)


def _not_run(skipped: Iterable[str]) -> list[RenderableType]:
    """The checks that were not run, and why: a check never silently passed."""
    return [Text(f"- not run: {words}", style="yellow") for words in skipped]


def _fairplay(fairplay: FairPlayView) -> Panel:
    """The fair-play suspicions the hand is evidence for; or that they were not looked up
    (and how to), which is not the same as none."""
    parts: list[RenderableType] = [
        Text(fairplay.note, style="" if fairplay.looked_up else "yellow")
    ]
    table = _Table.grid(padding=(0, 1))
    table.add_column()
    table.add_column()
    for s in fairplay.suspicions:
        head = Text.assemble(_severity(s.severity), f" {s.check}: ", ", ".join(s.players))
        lines = [head, Text(s.message)] + ([Text(s.involvement)] if s.involvement else [])
        table.add_row(Text("-"), Group(*lines))
    if table.row_count:
        parts.append(table)
    worst = next((s.severity for s in fairplay.suspicions), "")
    border = _COLOUR.get(worst, "green") if fairplay.looked_up else "yellow"
    return Panel(Group(*parts), title=Text("Fair-play suspicions"), border_style=border)


# ------------------------------------------------------------ a game


def print_game(view: GameView, console: Console) -> None:
    for part in game_renderables(view):
        console.print(part)


def render_game_text(view: GameView, *, width: int = 100) -> str:
    """The explanation of a game as plain text, ``width`` columns wide."""
    return _plain(game_renderables(view), width)


def game_renderables(view: GameView) -> Iterator[RenderableType]:
    view = printable(view)
    yield _game_header(view)
    yield _game_hands(view.hands)
    if view.scores is not None:
        yield _scores(view.scores)
    if view.ledger is not None:
        yield _money(view.ledger)
    yield _game_findings(view)
    yield _fairplay(view.fairplay)


def _game_header(view: GameView) -> _Titled:
    lines = [Text(view.headline, style="bold")]
    if view.unknown:
        lines.append(Text(view.unknown + "."))
    else:
        lines.append(Text(f"Rules: {view.ruleset_title}"))
        if view.deals:
            lines.append(Text(f"Deals: {view.deals}"))
        if view.table is not None:
            lines.append(Text(f"Table and money: {view.table.terms}"))
        lines.append(Text(f"Played: {view.times}"))
    lines.append(Text("Players in seat order: " + (", ".join(view.players) or "none")))
    if view.result:
        lines.append(Text(f"Result: {view.result}"))
    lines.append(Text.assemble("Verdict: ", Text(view.verdict, style=_border(view.worst))))
    lines.append(Text(f"Log root: {view.source}; rummy-audit {view.version}", style="dim"))
    return _Titled(Group(*lines), Text(view.title), _border(view.worst))


def _game_hands(hands: Iterable[GameHandView]) -> Table:
    """Every hand in order: its id, when, its status; then each seat's record."""
    table = _Table(title="Hands", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    table.add_column("no")
    table.add_column("hand, when, status", max_width=34)
    table.add_column("recorded results")
    for h in hands:
        results = Text("\n").join(
            Text(f"{r.player}: {r.text}", style=_COLOUR[r.severity] if r.severity else "")
            for r in h.results
        )
        if h.status == "quarantined":
            status = Text(h.status_words, style="yellow")
        else:
            status = Text(h.status_words, style=_border(h.worst if h.findings else "",
                                                        agrees=not h.while_out))
        about = Text.assemble(h.hand_id, "\n", (h.times or "times not recorded", "dim"), "\n")
        table.add_row(Text(str(h.hand_no)), about.append_text(status), results)
    return table


def _cell(cell: Cell) -> Text:
    text = Text(cell.text, style=_COLOUR[cell.severity] if cell.severity else "")
    if cell.note:
        text.append(f"\n({cell.note})", style="dim" if not cell.severity else "")
    return text


def _scores(scores: ScoreTable) -> Group:
    table = _Table(title=scores.title, box=box.SIMPLE_HEAD, title_justify="left",
                   title_style="bold", caption=scores.how, caption_justify="left")  # fmt: skip
    table.add_column("")
    for player in scores.players:
        table.add_column(Text(player), justify="right")
    table.add_column("then")
    for row in scores.rows:
        events = Text("\n").join(
            Text(e.text, style=_COLOUR[e.severity] if e.severity else "") for e in row.events
        )
        table.add_row(Text(row.label), *(_cell(c) for c in row.cells), events)
        if row.totals:
            table.add_row(Text("  total", style="dim"), *(_cell(c) for c in row.totals), Text(""))
    parts: list[RenderableType] = [table]
    parts += [Text(n.text, style=_COLOUR[n.severity] if n.severity else "") for n in scores.notes]
    if scores.rules:
        parts.append(Text("The rules behind it:", style="bold"))
        parts += [_indent(Text(rule.cite, style="dim")) for rule in scores.rules]
    return Group(*parts)


def _money(ledger: LedgerView) -> Panel:
    """Every ledger row, the balance, each sum by the rules against the record."""
    rows = _Table(box=box.SIMPLE_HEAD, pad_edge=False)
    rows.add_column("kind")
    rows.add_column("player")
    rows.add_column("amount", justify="right")
    for line in ledger.lines:
        rows.add_row(Text(line.kind), Text(line.player or "the platform"), Text(line.amount))
    parts: list[RenderableType] = [rows] if ledger.lines else []
    parts.append(Text(f"Balance: {ledger.balance}.", style=_border(ledger.worst)))
    parts += [Text(note) for note in ledger.notes]
    if ledger.payouts:
        parts.append(Text(f"{ledger.sums_title}:", style="bold"))
        sums = _Table.grid(padding=(0, 1))
        sums.add_column()
        sums.add_column()
        for p in ledger.payouts:
            style = "green" if p.agrees else "bold red" if p.differs else "yellow"
            verdict = Text(p.verdict, style=style)
            who = f"{p.player}'s " if p.player else "the "
            head = Text.assemble(
                f"{who}{p.what}: {p.rules_give} by the rules, {p.recorded} recorded: ", verdict
            )
            sums.add_row(Text("-"), Group(head, Text(p.how, style="dim")))
        parts.append(sums)
        if ledger.owed:
            parts.append(Text(f"Owed, by these sums: {ledger.owed}.", style="bold red"))
        if ledger.owed_by_row:
            parts.append(Text(f"Owed if the games row's {ledger.row_terms} is right: "
                              f"{ledger.owed_by_row}.", style="bold yellow"))  # fmt: skip
        parts.append(Text("The rules behind these sums:", style="bold"))
        parts += [_indent(Text(rule, style="dim")) for rule in ledger.cited]
    return Panel(Group(*parts), title=Text("Money (the ledger)"),
                 border_style=_border(ledger.worst))  # fmt: skip


def _game_findings(view: GameView) -> Panel:
    """Every game-level finding with where it is and its rule; each hand's own findings
    are counted in the hands table (``explain HAND_ID`` shows them)."""
    table = _Table.grid(padding=(0, 1))
    table.add_column()
    table.add_column()
    for f in view.findings:
        where = ", ".join(
            w for w in (f.hand and f"hand {f.hand}", f.player, f.seq and f"game event {f.seq}") if w
        )
        head = Text.assemble(_severity(f.severity), f" {f.check}: {f.message}")
        if where:
            head.append(f" ({where})", style="dim")
        table.add_row(Text("-"), Group(head, Text(f"rule: {f.rule}", style="dim")))
    parts: list[RenderableType] = [table]
    qualified = bool(view.skipped or view.refused)
    if not view.findings:
        parts = [Text(view.none_found, style="yellow" if qualified else "green")]
    parts += _not_run(view.skipped)
    if view.hands_note:
        parts.append(Text(view.hands_note, style="dim"))
    return Panel(Group(*parts), title=Text("Game-level findings"),
                 border_style=_border(_worst_of(view), agrees=not qualified))  # fmt: skip


def _worst_of(view: GameView) -> str:
    """The worst severity among the game-level findings, or empty."""
    return min((f.severity for f in view.findings), key=_RANK.__getitem__, default="")


_RANK = {"critical": 0, "major": 1, "minor": 2, "info": 3}
