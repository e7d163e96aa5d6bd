#!/usr/bin/env python3
"""Set-up and tasks with nothing but Python 3.11 (pip and venv): the README's commands.

    python3 dev.py demo    create .venv if needed, install, run the demo
    python3 dev.py test    create .venv if needed, install, run ruff, mypy and the tests
    python3 dev.py bench   create .venv if needed, install, run the benchmarks

The virtual environment is made once in ``.venv`` and brought up to date when
``pyproject.toml`` changes (a stamp file remembers its hash).
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
    run(PY, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    STAMP.write_text(wanted + "\n")


def ensure_compiled() -> None:
    """The hot modules compiled with mypyc where the machine can (see audit/_compiled.py);
    rebuilt when their sources change, pure Python where it cannot."""
    run(PY, "-c", "from audit._compiled import ensure; ensure()")


def demo() -> None:
    """The nightly audit on demo data: simulate a night of 2,000 games with every kind of
    anomaly planted (the truth in demo/logs/labels.parquet), replay it into demo/out
    (report.html), then the rules engine on the sample hands a support agent might be
    asked about."""
    cli = BIN / "rummy-audit"
    logs, out = Path("demo/logs"), Path("demo/out")  # relative to ROOT, the commands' cwd
    shutil.rmtree(ROOT / logs, ignore_errors=True)  # a few seconds: always today's simulator
    run(cli, "simulate", "--games", "2000", "--seed", "20261129", "--anomalies", "all", "--out", logs)
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
    run(PY, "-m", "pytest", "-q", "--doctest-modules", "audit", "tests")


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
