"""The ``rummy-audit`` command line: thin typer commands over keyword-only functions.

Exit status (audit-output.md): 0 clean, 1 findings at or above ``--fail-on``, 2 the run
could not be done. Every ``AuditError`` becomes one line on stderr and status 2.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

import audit.rules.explain as rules_explain
from audit import run
from audit.errors import AuditError
from audit.findings import Severity
from audit.rules.ruleset import load_preset, preset_ids

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

app = typer.Typer(
    name="rummy-audit",
    help="Replay Indian Rummy game logs and audit them for rule breaks and fair play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(
    help="Look at the rule presets and check hands against them.", no_args_is_help=True
)
app.add_typer(rules_app, name="rules")

P = ParamSpec("P")
R = TypeVar("R")


def one_line_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn an ``AuditError`` into one line on stderr and exit status 2, no traceback."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except AuditError as exc:
            typer.echo(f"rummy-audit: error: {exc}", err=True)
            raise typer.Exit(code=EXIT_ERROR) from None

    return run


FailOn = Annotated[
    Severity, typer.Option("--fail-on", help="Exit 1 when a finding is at or above this severity.")
]


@app.command("replay")
@one_line_errors
def replay(
    logs: Annotated[Path, typer.Argument(help="The log root: one folder per table.")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the outputs.")] = Path("out"),
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, help="Worker processes (default: all cores).")
    ] = None,
    fail_on: FailOn = Severity.MAJOR,
    progress: Annotated[
        bool | None,
        typer.Option("--progress/--no-progress", help="Progress bar (default: on a terminal)."),
    ] = None,
    fairplay: Annotated[
        bool,
        typer.Option(
            "--fairplay/--no-fairplay",
            help="Run the fair-play detectors after the replay (default: on).",
        ),
    ] = True,
) -> None:
    """Re-play and re-verify every hand of a log root (the nightly audit).

    Writes findings, hands, quarantine, the fair-play suspicions, report.html and run.json
    to --out.
    """
    summary = run.replay_logs(
        logs=logs, out=out, workers=workers, fail_on=fail_on, progress=progress,
        fairplay=fairplay,
    )  # fmt: skip
    _summary_line(summary)


@app.command("fairplay")
@one_line_errors
def fairplay(
    logs: Annotated[Path, typer.Argument(help="The log root the replay in --out was run on.")],
    out: Annotated[Path, typer.Option("--out", help="A replay's output folder.")] = Path("out"),
    fail_on: FailOn = Severity.MAJOR,
) -> None:
    """Run only the fair-play detectors, over a replay of the same logs in --out.

    Replaces the fair-play findings in findings.parquet (never adds them twice) and writes
    suspicions.parquet, run.json and report.html again.
    """
    _summary_line(run.fairplay_logs(logs=logs, out=out, fail_on=fail_on))


def _summary_line(summary: run.RunSummary) -> None:
    """One line: hands by status, findings, the fair-play suspicions; then the exit."""
    hands = summary.hands
    suspicions = sum(n for check, n in summary.findings.items() if check.startswith("fairplay."))
    typer.echo(
        f"{sum(hands.values())} hands: {hands.get('verified', 0)} verified, "
        f"{hands.get('discrepancy', 0)} with discrepancies, "
        f"{hands.get('quarantined', 0)} quarantined; "
        f"{sum(summary.findings.values())} findings"
        + (f", worst {summary.worst.value}" if summary.worst else "")
        + (f"; fair play {'not run' if not summary.fairplay else f'{suspicions} suspicions'}")
        + f"; outputs in {summary.out}"
    )
    raise typer.Exit(code=summary.exit_status)


@app.command("explain")
@one_line_errors
def explain(
    hand_id: Annotated[str, typer.Argument(help="The hand to explain.")],
    logs: Annotated[Path, typer.Argument(help="The log root holding it.")],
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write the explanation as a standalone HTML page."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="A nightly run's output folder: list the fair-play suspicions this hand is "
            "evidence for (from its suspicions.parquet).",
        ),
    ] = None,
) -> None:
    """Explain one hand for a score dispute, turn by turn.

    Every turn, every group, every point and the rule behind it, and what the audit found;
    with --out, the fair-play suspicions the hand is evidence for.
    """
    from rich.console import Console

    from audit.explain import load_view, print_view, write_html

    view = load_view(logs, hand_id, out)
    if html is not None:
        write_html(view, html)
    print_view(view, Console(highlight=False, emoji=False))
    if html is not None:
        typer.echo(f"HTML page written to {html}")


@app.command("report")
@one_line_errors
def report(
    out: Annotated[Path, typer.Argument(help="A replay's output folder.")],
) -> None:
    """Render OUT/report.html again from the output files alone (no replay)."""
    from audit.report.render import write_report

    typer.echo(f"report written to {write_report(out)}")


@app.command("simulate")
@one_line_errors
def simulate(
    out: Annotated[Path, typer.Option("--out", help="Empty folder for the log root.")],
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
) -> None:
    """Write realistic game logs in the log contract, played by simulated players."""
    from audit.sim import simulate as play

    summary = play(games=games, out=out, seed=seed, anomalies=anomalies, workers=workers)
    typer.echo(
        f"{summary.games} games, {summary.hands} hands, {summary.events} events written to {out}"
    )


@rules_app.command("list")
@one_line_errors
def rules_list() -> None:
    """List the rule presets shipped with the audit."""
    for preset in preset_ids():
        typer.echo(f"{preset}\t{load_preset(preset).title}")


@rules_app.command("show")
@one_line_errors
def rules_show(
    preset: Annotated[str, typer.Argument(help="Preset id, e.g. standard-13.")],
) -> None:
    """Print every rule of a preset with its value and its source."""
    typer.echo(rules_explain.show_preset(load_preset(preset)))


@rules_app.command("check")
@one_line_errors
def rules_check(
    groups: Annotated[
        list[str],
        typer.Argument(
            help="The cards, a group per argument ('AH 2H 3H' or AH,2H,3H), or single "
            "cards with '/' between groups. Cards not grouped at all are one group."
        ),
    ],
    wild: Annotated[
        str | None,
        typer.Option("--wild", help="The wild card turned up (e.g. 5C, or JK): its rank is wild."),
    ] = None,
    preset: Annotated[str, typer.Option("--preset", help="Rule preset id.")] = "standard-13",
) -> None:
    """Classify groups of cards; for a whole hand, judge the declaration and find its best
    score."""
    typer.echo(rules_explain.check_groups_text(groups, wild=wild, rules=load_preset(preset)))


def main() -> None:
    """Console entry point."""
    app()
