"""The ``rummy-audit`` command line: thin typer commands over keyword-only functions.

Exit status (audit-output.md): 0 clean, 1 findings at or above ``--fail-on``, 2 the run
could not be done. Every ``AuditError`` becomes one line on stderr and status 2.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import duckdb
import typer

import audit.rules.explain as rules_explain
from audit import __version__, run
from audit.errors import AuditError, first_line, one_line
from audit.findings import Severity
from audit.rules.registry import check_file, load_rules, lookup, using
from audit.rules.ruleset import load_preset, preset_ids

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

app = typer.Typer(
    name="rummy-audit",
    help="Replay Indian Rummy game logs and audit them for rule breaks and fair play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # a docstring's lines joined into paragraphs, as typed
)
rules_app = typer.Typer(
    help="Look at the rule presets and check hands against them.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)
app.add_typer(rules_app, name="rules")


def _path(value: str | Path) -> Path:
    """A path as typed on the command line (a default arrives as a Path already). An empty
    one is refused: pathlib reads "" as the current folder, so ``--out ""`` wrote the
    outputs there and ``replay ""`` read it as the log root."""
    if isinstance(value, Path):
        return value
    if not value.strip():
        raise typer.BadParameter("an empty path; name a folder or file ('.' for this folder)")
    return Path(value)


def _path_option(*names: str, **options: Any) -> Any:
    """``typer.Option`` for a path (``_path``)."""
    return typer.Option(*names, parser=_path, **options)


def _path_argument(**options: Any) -> Any:
    """``typer.Argument`` for a path (``_path``)."""
    return typer.Argument(parser=_path, **options)


def _print_version(wanted: bool) -> None:
    if wanted:
        typer.echo(f"rummy-audit {__version__}")
        raise typer.Exit(code=EXIT_OK)


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version of rummy-audit and exit.",
        ),
    ] = False,
) -> None:
    """The options before any command."""

P = ParamSpec("P")
R = TypeVar("R")


def one_line_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn an ``AuditError``, an ``OSError`` (a folder that cannot be made or written), or
    DuckDB running out of memory into one line on stderr and exit status 2, no
    traceback."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except AuditError as exc:
            typer.echo(f"rummy-audit: error: {exc}", err=True)
            raise typer.Exit(code=EXIT_ERROR) from None
        except OSError as exc:  # a folder that cannot be made, a full disk
            where = "" if exc.filename is None else f": {exc.filename}"
            typer.echo(f"rummy-audit: error: {one_line(f'{exc.strerror or exc}{where}')}", err=True)
            raise typer.Exit(code=EXIT_ERROR) from None
        except duckdb.OutOfMemoryException as exc:  # a step without a message of its own
            typer.echo(f"rummy-audit: error: out of memory: {first_line(exc)}", err=True)
            raise typer.Exit(code=EXIT_ERROR) from None

    return run


FailOn = Annotated[
    Severity, typer.Option("--fail-on", help="Exit 1 when a finding is at or above this severity.")
]
Workers = Annotated[
    int | None, typer.Option("--workers", min=1, help="Worker processes (default: all cores).")
]
Progress = Annotated[
    bool | None,
    typer.Option("--progress/--no-progress", help="Progress bar (default: on a terminal)."),
]
RulesDir = Annotated[
    Path | None,
    _path_option(
        "--rules",
        metavar="DIR",
        help="A folder of the platform's own ruleset files (*.toml, docs/rulesets.md), "
        "loaded next to the presets: a game naming one of their ids is replayed under it.",
    ),
]


@app.command("replay")
@one_line_errors
def replay(
    logs: Annotated[Path, _path_argument(help="The log root: one folder per table.")],
    out: Annotated[Path, _path_option("--out", help="Folder for the outputs.")] = Path("out"),
    workers: Workers = None,
    fail_on: FailOn = Severity.MAJOR,
    progress: Progress = None,
    fairplay: Annotated[
        bool,
        typer.Option(
            "--fairplay/--no-fairplay",
            help="Run the fair-play detectors after the replay (default: on).",
        ),
    ] = True,
    rng: Annotated[
        bool,
        typer.Option(
            "--rng/--no-rng",
            help="Run the shuffle tests over every shoe after the replay (default: on).",
        ),
    ] = True,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Audit the games on this Dask cluster (tcp://host:8786) instead of local"
            " workers; needs rummy-audit[dask], and the workers must see --out at the same"
            " path. Same outputs as a local run.",
        ),
    ] = None,
    rules: RulesDir = None,
) -> None:
    """Re-play and re-verify every hand of a log root (the nightly audit).

    Writes findings, hands, quarantine, the fair-play suspicions, the shuffle tests
    (rng.parquet), report.html and run.json to --out.
    """
    try:
        summary = run.replay_logs(
            logs=logs, out=out, workers=workers, fail_on=fail_on, progress=progress,
            fairplay=fairplay, rng=rng, scheduler=scheduler, rules=rules,
        )  # fmt: skip
    except AuditError as exc:
        raise AuditError(f"{exc}{_earlier_outputs(out)}", slug=exc.slug) from None
    _summary_line(summary)


def _earlier_outputs(out: Path) -> str:
    """The words that end a failed replay's error where ``out`` still holds an earlier
    run's outputs: they are not this run's (a blind tester: a nightly job reusing one
    folder showed the night before's clean report on the night every file was broken)."""
    if not (out / "run.json").is_file():
        return ""
    return (f"; {one_line(str(out))} still holds an earlier run's outputs (run.json, "
            "report.html), not this run's")


@app.command("nightly")
@one_line_errors
def nightly(
    logs: Annotated[
        Path, typer.Argument(help="The log root the platform adds each night's files to.")
    ],
    state: Annotated[
        Path,
        typer.Option(
            "--state",
            help="Folder the nightly runs keep their memory in (files seen, games still "
            "running, the history); each night's outputs go to STATE/nights/NNNN.",
        ),
    ],
    workers: Workers = None,
    fail_on: FailOn = Severity.MAJOR,
    progress: Progress = None,
    fairplay: Annotated[
        bool, typer.Option("--fairplay/--no-fairplay", help="Run the fair-play detectors.")
    ] = True,
    rng: Annotated[bool, typer.Option("--rng/--no-rng", help="Run the shuffle tests.")] = True,
    rules: RulesDir = None,
) -> None:
    """Audit only what is new since the last night (docs/nightly.md).

    Files are known by their SHA-256: one audited on an earlier night is skipped, a
    rewritten one is audited again, with the games it names whole. A game still running
    when the logs were cut is carried and judged whole the night it ends. Each night is committed
    atomically, so a run killed at any moment can simply be started again; the history of
    every night (STATE/history.duckdb) feeds the trend section of the night's report.html.
    """
    from audit.nightly.night import NightSummary, nightly_logs

    def say(summary: NightSummary) -> None:
        typer.echo(summary.line())
        sys.stdout.flush()  # out of the pipe's buffer before work/committed goes

    summary = nightly_logs(
        logs=logs, state=state, workers=workers, fail_on=fail_on, progress=progress,
        fairplay=fairplay, rng=rng, rules=rules, say=say,
    )  # fmt: skip
    raise typer.Exit(code=summary.exit_status)


@app.command("fairplay")
@one_line_errors
def fairplay(
    logs: Annotated[Path, _path_argument(help="The log root the replay in --out was run on.")],
    out: Annotated[Path, _path_option("--out", help="A replay's output folder.")] = Path("out"),
    fail_on: FailOn = Severity.MAJOR,
    rules: RulesDir = None,
) -> None:
    """Run only the fair-play detectors, over a replay of the same logs in --out.

    Replaces the fair-play findings in findings.parquet (never adds them twice) and writes
    suspicions.parquet, run.json and report.html again.
    """
    _summary_line(run.fairplay_logs(logs=logs, out=out, fail_on=fail_on, rules=rules))


@app.command("rng")
@one_line_errors
def rng(
    logs: Annotated[Path, _path_argument(help="The log root the replay in --out was run on.")],
    out: Annotated[Path, _path_option("--out", help="A replay's output folder.")] = Path("out"),
    fail_on: FailOn = Severity.MAJOR,
    rules: RulesDir = None,
) -> None:
    """Run only the shuffle tests over every shoe of a replay of the same logs in --out.

    Replaces the rng.* findings in findings.parquet (never adds them twice) and writes
    rng.parquet, run.json and report.html again.
    """
    _summary_line(run.rng_logs(logs=logs, out=out, fail_on=fail_on, rules=rules))


def _summary_line(summary: run.RunSummary) -> None:
    """One line, the cause first when input could not be read (one unreadable file
    explains hundreds of quarantined hands): hands by status, findings, the fair-play
    suspicions; then the exit."""
    hands = summary.hands
    suspicions = sum(n for check, n in summary.findings.items() if check.startswith("fairplay."))
    checks = sum(n for check, n in summary.findings.items() if check.startswith("rng."))
    found = sum(summary.findings.values())
    shuffle = run.shuffle_words(summary.rng, summary.rng_tests, checks, summary.rng_weak,
                                summary.rng_too_few)  # fmt: skip
    typer.echo(
        summary.opening
        + f"{sum(hands.values())} hands: {hands.get('verified', 0)} verified, "
        f"{hands.get('discrepancy', 0)} with discrepancies, "
        f"{hands.get('quarantined', 0)} quarantined; "
        f"{found} finding{'s' * (found != 1)}"
        + (f", worst {summary.worst.value}" if summary.worst else "")
        + "; fair play "
        + run.fairplay_words(summary.fairplay, suspicions, summary.fairplay_skipped)
        + f"; shuffle {shuffle}"
        + f"; outputs in {summary.out}"
    )
    raise typer.Exit(code=summary.exit_status)


@app.command("explain")
@one_line_errors
def explain(
    ident: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="The hand or the game to explain: a hand id is looked up first, then a "
            "game id.",
        ),
    ],
    logs: Annotated[Path, _path_argument(help="The log root holding it.")],
    html: Annotated[
        Path | None,
        _path_option("--html", help="Also write the explanation as a standalone HTML page."),
    ] = None,
    out: Annotated[
        Path | None,
        _path_option(
            "--out",
            help="A nightly run's output folder: list the fair-play suspicions this hand or "
            "game is evidence for (from its suspicions.parquet).",
        ),
    ] = None,
    rules: RulesDir = None,
) -> None:
    """Explain one hand for a score dispute, turn by turn; or one game for a game dispute.

    A hand: every turn, every group, every point and the rule behind it, and what the
    audit found. A game: every hand's result, the running pool scores or deals chips,
    eliminations, rebuys and splits, every ledger row with what the rules give and why,
    and every game-level finding. With --out, the fair-play suspicions it is evidence for.
    """
    from rich.console import Console

    from audit.explain import (
        load_game_view,
        load_view,
        print_game,
        print_view,
        resolve,
        write_game_html,
        write_html,
    )

    kind, note = resolve(logs, ident)
    if note:
        typer.echo(f"rummy-audit: note: {note}", err=True)
    console = Console(highlight=False, emoji=False)
    if kind == "hand":
        view = load_view(logs, ident, out, rules=rules)
        if html is not None:
            write_html(view, html)
        print_view(view, console)
    else:
        game = load_game_view(logs, ident, out, rules=rules)
        if html is not None:
            write_game_html(game, html)
        print_game(game, console)
    if html is not None:
        typer.echo(f"HTML page written to {html}")


@app.command("report")
@one_line_errors
def report(
    out: Annotated[Path, _path_argument(help="A replay's output folder.")],
) -> None:
    """Render OUT/report.html again from the output files alone (no replay)."""
    from audit.report.render import write_report

    typer.echo(f"report written to {write_report(out, given=True)}")


@app.command("simulate")
@one_line_errors
def simulate(
    out: Annotated[Path, _path_option("--out", help="Empty folder for the log root.")],
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same bytes.")] = 1,
    anomalies: Annotated[
        str,
        typer.Option(
            "--anomalies",
            help="Kinds to plant, comma-separated: 'all', 'tampering', 'fairplay' or kind "
            "names (see docs/simulator.md); the truth goes to LOGS/labels.parquet.",
        ),
    ] = "",
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, help="Processes (default: all cores); same bytes."),
    ] = None,
    presets: Annotated[
        str,
        typer.Option(
            "--presets",
            help="Presets to play, comma-separated; the first is dealt three times as often "
            "as each of the others.",
        ),
    ] = "standard-13,first-life-13",
) -> None:
    """Write realistic game logs in the log contract, played by simulated players."""
    from audit.sim import simulate as play

    named = tuple(p.strip() for p in presets.split(",") if p.strip())
    summary = play(
        games=games, out=out, seed=seed, anomalies=anomalies, workers=workers, presets=named
    )
    typer.echo(
        f"{summary.games} games, {summary.hands} hands, {summary.events} events written to {out}"
    )


@app.command("whatif")
@one_line_errors
def whatif(
    logs: Annotated[Path, _path_argument(help="The log root: one folder per table.")],
    ruleset: Annotated[
        str, typer.Option("--ruleset", help="The ruleset to re-score the night under.")
    ],
    out: Annotated[Path, _path_option("--out", help="Output folder.")] = Path("whatif-out"),
    rules: RulesDir = None,
    workers: Workers = None,
) -> None:
    """Re-score a night's hands under another ruleset: what would have changed, per
    player and in total (points, money, outcomes), before a platform changes a rule.

    Writes whatif.parquet, whatif_players.parquet and whatif.json (docs/whatif.md).
    """
    from audit.whatif import describe, whatif_logs

    summary = whatif_logs(logs=logs, out=out, ruleset=ruleset, rules=rules, workers=workers)
    for line in describe(summary):
        typer.echo(line)
    typer.echo(f"outputs in {out}")


@rules_app.command("list")
@one_line_errors
def rules_list(rules: RulesDir = None) -> None:
    """List the rule presets shipped with the audit, then the platform's (--rules DIR)."""
    platform = load_rules(rules)  # a bad folder is one line, before any other
    mine = list(platform.rulesets().values()) if platform is not None else []
    for preset in preset_ids():
        typer.echo(f"{preset}\t{load_preset(preset).title}")
    for ruleset in mine:
        typer.echo(f"{ruleset.id}\t{ruleset.title}\t({ruleset.path})")


@rules_app.command("show")
@one_line_errors
def rules_show(
    preset: Annotated[str, typer.Argument(help="Preset id, e.g. standard-13.")],
    rules: RulesDir = None,
) -> None:
    """Print every rule of a preset (or of a platform ruleset of --rules DIR) with its
    value and its source."""
    with using(load_rules(rules)):
        typer.echo(rules_explain.show_preset(lookup(preset)))


@rules_app.command("check-file")
@one_line_errors
def rules_check_file(
    file: Annotated[Path, _path_argument(help="A platform's ruleset file (docs/rulesets.md).")],
    rules: Annotated[
        Path | None,
        _path_option(
            "--rules",
            metavar="DIR",
            help="The folder of the platform rulesets FILE may extend (besides the presets).",
        ),
    ] = None,
) -> None:
    """Check one ruleset file as --rules would load it: exit 0 and one line saying what it
    changes, or exit 2 and one line naming the file, the key and what is allowed."""
    typer.echo(check_file(file, parents=rules))


@rules_app.command("check")
@one_line_errors
def rules_check(
    groups: Annotated[
        list[str],
        typer.Argument(
            help="The cards: each argument with spaces or commas ('AH 2H 3H' or AH,2H,3H) "
            "is a group of its own; single cards side by side are one group, '/' ends it "
            '("AH 2H 3H" 4C / 5C 6C 7C is three groups). A card more often than the '
            "preset's largest shoe holds it (less the --wild card, turned up and out of "
            "play), or an empty group, is an error."
        ),
    ],
    wild: Annotated[
        str | None,
        typer.Option("--wild", help="The wild card turned up (e.g. 5C, or JK): its rank is wild."),
    ] = None,
    preset: Annotated[
        str, typer.Option("--preset", help="Ruleset id: a preset, or a file's of --rules.")
    ] = "standard-13",
    rules: RulesDir = None,
) -> None:
    """Classify groups of cards; for a whole hand, judge the declaration and find its best
    score."""
    with using(load_rules(rules)):
        ruleset = lookup(preset)
    typer.echo(rules_explain.check_groups_text(groups, wild=wild, rules=ruleset))


def main() -> None:
    """Console entry point. A usage error (an unknown option, a value out of its range, a
    missing argument) is one line on stderr and exit status 2, as every error that stops a
    run (audit-output.md), with the command's ``--help`` named, not a framed box."""
    try:
        status = app(standalone_mode=False, prog_name="rummy-audit")
    except typer.Abort:
        typer.echo("Aborted!", err=True)
        raise SystemExit(1) from None
    except typer.TyperException as raised:  # click's exceptions, as typer carries them
        error: Any = raised  # click's, untyped here
        code = int(getattr(error, "exit_code", EXIT_ERROR))
        ctx = getattr(error, "ctx", None)
        if code != EXIT_ERROR or ctx is None or type(error).__name__ == "NoArgsIsHelpError":
            error.show()  # the help of a bare command, or another error's words
            raise SystemExit(code) from None
        message = one_line(str(error.format_message()))
        typer.echo(f"rummy-audit: error: {message} (see '{ctx.command_path} --help')", err=True)
        raise SystemExit(EXIT_ERROR) from None
    raise SystemExit(status if isinstance(status, int) else EXIT_OK)
