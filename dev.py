#!/usr/bin/env python3
"""Set-up and tasks with nothing but Python 3.11 (pip and venv): the README's commands.

    python3 dev.py demo    create .venv if needed, install, run the demo
    python3 dev.py test    create .venv if needed, install, run ruff, mypy and the tests
    python3 dev.py bench   create .venv if needed, install, run the benchmarks

The virtual environment is made once in ``.venv`` and brought up to date when
``pyproject.toml`` changes (a stamp file remembers its hash). Before any task the hot
modules are built with mypyc (audit/_compiled.py), a build older than its sources removed
first. ``test`` installs Debian's chromium for the browser tests when it is missing and apt
can, as a printed step: the tests themselves never change the machine.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".rummy-audit-installed"


def _show(part: str | Path) -> str:
    text = str(part)
    return text[len(str(ROOT)) + 1 :] if text.startswith(str(ROOT) + os.sep) else text


def run(*cmd: str | Path) -> None:
    print("+", shlex.join(_show(c) for c in cmd), flush=True)
    result = subprocess.run([str(c) for c in cmd], cwd=ROOT, check=False)
    if result.returncode != 0:
        sys.exit(result.returncode)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be run by an older python3
        sys.exit(f"rummy-audit needs Python 3.11 or newer, this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and PY.exists():
        return
    if not PY.exists():
        print(f"+ creating {VENV.name}/", flush=True)
        venv.EnvBuilder(with_pip=True, clear=False).create(VENV)
    run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PY, "-m", "pip", "install", "--quiet", "-e", ".[dev,dask]")
    STAMP.write_text(wanted + "\n")


def ensure_compiled() -> None:
    """The build step of the hot modules (audit/_compiled.py): a build older than its
    sources is removed, then they are compiled with mypyc where the machine can, pure
    Python where it cannot. Before any task, so none ever runs a stale build."""
    run(PY, "-m", "audit._compiled", "ensure")


def ensure_chromium() -> None:
    """Debian's chromium for the browser tests of report.html (tests/report/test_browser.py):
    installed with apt, once, as a printed step, when it is missing and apt-get runs as
    root; otherwise those tests are skipped, and this says so."""
    if shutil.which("chromium"):
        return
    if shutil.which("apt-get") is None or getattr(os, "geteuid", lambda: -1)() != 0:
        print(
            "+ chromium is missing and cannot be installed here (needs apt-get, as root): the"
            " browser tests of report.html will be skipped (sudo apt-get install chromium)",
            flush=True,
        )
        return
    print("+ apt-get install chromium (for the browser test of report.html; once)", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        print("+", shlex.join(command), flush=True)
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
            print("+ it failed, the browser tests will be skipped:", *tail, sep="\n  ")
            return


def demo() -> None:
    """The nightly audit on demo data: simulate a night of 2,000 games with every kind of
    anomaly planted (the truth in demo/logs/labels.parquet), replay it into demo/out
    (report.html), then the rules engine on the sample hands a support agent might be
    asked about."""
    cli = BIN / "rummy-audit"
    logs, out = Path("demo/logs"), Path("demo/out")  # relative to ROOT, the commands' cwd
    shutil.rmtree(ROOT / logs, ignore_errors=True)  # a few seconds: always today's simulator
    presets = "standard-13,first-life-13,standard-10,standard-21,standard-27"  # open-melds-13: README
    night = ("--games", "2000", "--seed", "20261129", "--anomalies", "all", "--presets", presets)
    run(cli, "simulate", *night, "--out", logs)
    code = subprocess.run(
        [str(cli), "replay", str(logs), "--out", str(out)], cwd=ROOT, check=False
    ).returncode
    if code == 2:
        sys.exit(code)
    print(f"report: {out / 'report.html'}", flush=True)
    for line in (ROOT / "demo" / "hands.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        preset, wild, groups = (part.strip() for part in line.split(";", 2))
        print(f"\n=== {preset}, wild card {wild}: {groups}", flush=True)
        run(cli, "rules", "check", "--preset", preset, "--wild", wild, *groups.split(" / "))


def test() -> None:
    run(BIN / "ruff", "check", "audit", "tests", "benchmarks")
    run(BIN / "mypy", "audit")
    env_profile = os.environ.setdefault("HYPOTHESIS_PROFILE", "ci")
    print(f"+ HYPOTHESIS_PROFILE={env_profile}", flush=True)
    ensure_chromium()
    # On every core (pytest-xdist), a module at a time so that its fixtures are built once.
    # Not --dist loadgroup: xdist 3.8 groups by renaming item._nodeid, which pytest 9 no
    # longer reads, so its groups silently fall apart.
    cores = ("--numprocesses", "auto", "--dist", "loadscope")
    run(PY, "-m", "pytest", "-q", *cores, "--doctest-modules", "audit", "tests")


def bench() -> None:
    run(PY, "benchmarks/run.py")


TASKS = {"demo": demo, "test": test, "bench": bench}


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] not in TASKS:
        sys.exit(f"usage: python3 dev.py {{{','.join(TASKS)}}}")
    ensure_venv()
    ensure_compiled()
    TASKS[sys.argv[1]]()


if __name__ == "__main__":
    main()
