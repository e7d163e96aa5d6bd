"""The package as users get it: the wheel built from the sources carries everything the
audit reads at run time (the log contract's JSON, the report templates, the presets, the
SQL) and no compiled module; installed in a fresh venv (its dependencies from the package
index, pip's cache helping), its ``rummy-audit`` simulates a small night and replays it from
a folder outside the checkout. And ``rummy-audit --version``. About 20 to 50 s here, most of
it installing the dependencies: not marked slow.

The sources are copied first (symlinks kept, compiled modules and caches left out), so the
build never writes into the checkout (``build/``, ``*.egg-info``) nor picks up what a
previous build left there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

import audit
from audit.cli import app, main

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "audit", "schemas", "reports")


def test_version_prints_the_version_and_exits_0() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output == f"rummy-audit {audit.__version__}\n"
    assert metadata.version("rummy-audit") == audit.__version__  # pyproject reads it


def test_help_keeps_brackets_and_joins_a_docstrings_lines() -> None:
    """``--help`` on an 80-column terminal: ``rummy-audit[dask]`` is not eaten as console
    markup, and a docstring's lines make one paragraph, not a line cut short each time."""
    result = CliRunner().invoke(app, ["replay", "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    text = " ".join(line.strip(" │") for line in result.output.splitlines())
    assert "rummy-audit[dask]" in text
    assert "the shuffle tests (rng.parquet), report.html" in " ".join(text.split())
    widths = [len(line.rstrip()) for line in result.output.splitlines()[4:8] if line.strip()]
    assert min(widths) > 40, result.output  # no line of the paragraph cut to one word


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["replay", "logs", "--workers", "0"], "Invalid value for '--workers'"),
        (["replay", "logs", "--bogus"], "No such option: --bogus"),
        (["replay"], "Missing argument 'logs'."),
        (["replay", "logs", "--out", ""], "Invalid value for '--out': an empty path"),
        (["replay", ""], "Invalid value for 'logs': an empty path"),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """audit-output.md: a run that cannot be done exits 2 with one line on stderr; the
    console entry point says a usage error so too, not in click's framed box."""
    monkeypatch.setattr(sys, "argv", ["rummy-audit", *args])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("rummy-audit: error: "), err
    assert line in err, err
    assert err.rstrip().endswith("(see 'rummy-audit replay --help')"), err


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "{logs}", "--out", ""],
        ["fairplay", "{logs}", "--out", ""],
        ["rng", "{logs}", "--out", ""],
        ["report", ""],
        ["explain", "h", "{logs}", "--html", ""],
        ["whatif", "{logs}", "--out", ""],
        ["simulate", "--out", ""],
    ],
)
def test_an_empty_path_is_refused_not_read_as_this_folder(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pathlib reads "" as ".": ``--out ""`` wrote the outputs into the current folder.
    Every path a command takes refuses an empty one (exit 2, one line) and writes
    nothing."""
    logs = tmp_path / "logs"
    logs.mkdir()
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    result = CliRunner().invoke(app, [a.format(logs=logs) for a in args])
    assert result.exit_code == 2, result.output
    assert "an empty path" in result.output, result.output
    assert not any(here.iterdir())


def test_the_entry_point_passes_a_commands_exit_status(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["rummy-audit", "--version"])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"rummy-audit {audit.__version__}\n"


def run(*cmd: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pip wheel`` of a copy of the sources: the project's own build backend, isolated."""
    src = tmp_path_factory.mktemp("src")
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", ".compiled")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, src / name)
    wheels = tmp_path_factory.mktemp("wheels")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", wheels, src, cwd=src)
    (built,) = wheels.glob("rummy_audit-*.whl")
    return built


def package_data() -> set[str]:
    """Every file the audit reads at run time, as the wheel must name it."""
    return (
        {f"audit/schemas/{p.name}" for p in (ROOT / "schemas").glob("*.json")}
        | {f"audit/templates/{p.name}" for p in (ROOT / "reports").glob("*.j2")}
        | {
            p.relative_to(ROOT).as_posix()
            for pattern in ("rules/presets/*.toml", "fairplay/sql/*.sql", "games/sql/*.sql")
            for p in (ROOT / "audit").glob(pattern)
        }
    )


def test_the_wheel_carries_the_package_data_and_no_compiled_module(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data = package_data()
    assert len(data) >= 7 + 2 + 2 + 7  # tables, templates, presets, SQL files
    assert data <= names, sorted(data - names)
    modules = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "audit").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert modules <= names, sorted(modules - names)
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
    assert {n.split("/")[0] for n in names} == {
        "audit",
        f"rummy_audit-{audit.__version__}.dist-info",  # nothing else: no tests
    }


def test_the_installed_wheel_replays_a_night_from_outside_the_checkout(
    wheel: Path, tmp_path: Path
) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)  # the outer pip installs into it
    python = env_dir / "bin" / "python"
    tool = env_dir / "bin" / "rummy-audit"
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--only-binary=:all:",
        wheel,
        cwd=tmp_path,
    )
    here = tmp_path / "elsewhere"
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["VIRTUAL_ENV"] = str(env_dir)

    where = run(python, "-c", "import audit; print(audit.__file__)", cwd=here, env=env)
    assert Path(where.strip()).is_relative_to(env_dir), where  # not the checkout
    assert run(tool, "--version", cwd=here, env=env) == f"rummy-audit {audit.__version__}\n"
    assert "standard-13" in run(tool, "rules", "list", cwd=here, env=env)

    run(tool, "simulate", "--games", "60", "--seed", "1", "--out", "X", cwd=here, env=env)
    replay = subprocess.run(
        [str(tool), "replay", "X", "--out", "Y"],
        cwd=here,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert replay.returncode in (0, 1), replay.stdout + replay.stderr
    assert (here / "Y" / "report.html").is_file()
    assert (here / "Y" / "findings.parquet").is_file()
    assert "fair play" in replay.stdout  # the detectors' SQL ran from the package

    run(tool, "explain", "G000001-01", "X", "--html", "hand.html", cwd=here, env=env)
    assert "G000001-01" in (here / "hand.html").read_text(encoding="utf-8")


def test_python_dash_m_audit_is_the_command() -> None:
    """``python -m audit`` runs the ``rummy-audit`` command (two helpers found ``python -m
    audit.cli`` did nothing): the same output and exit status."""
    done = subprocess.run(
        [sys.executable, "-m", "audit", "--version"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, f"rummy-audit {audit.__version__}\n")
    bad = subprocess.run(
        [sys.executable, "-m", "audit", "replay"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("rummy-audit: error: ")
