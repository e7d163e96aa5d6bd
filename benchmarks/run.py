"""Run every benchmark and write its figures into benchmarks/README.md.

    python3 dev.py bench            # or: .venv/bin/python benchmarks/run.py [--only NAME]

Each benchmark module has ``main() -> str`` returning a Markdown block; it replaces the text
between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` in the README, under a line naming
the machine it ran on.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fairplay  # noqa: E402
import honest  # noqa: E402
import replay  # noqa: E402
import report  # noqa: E402
import rng  # noqa: E402
import scale  # noqa: E402
import simulate  # noqa: E402
import solver  # noqa: E402

BENCHMARKS = {
    "solver": solver.main,
    "simulate": simulate.main,
    "replay": replay.main,
    "report": report.main,
    "fairplay": fairplay.main,
    "honest": honest.main,
    "rng": rng.main,
    "scale": scale.main,
}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}"
    )


def write(name: str, block: str) -> None:
    readme = HERE / "README.md"
    text = readme.read_text()
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    body = f"{start}\nMeasured on: {machine()}\n\n{block}\n{end}"
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"benchmarks/README.md has no {start} ... {end} section")
    readme.write_text(pattern.sub(lambda _: body, text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=sorted(BENCHMARKS))
    parser.add_argument("--no-write", action="store_true", help="print, do not edit README")
    args = parser.parse_args()
    for name, run in BENCHMARKS.items():
        if args.only and name != args.only:
            continue
        print(f"== {name}", flush=True)
        block = run()
        print(block, flush=True)
        if not args.no_write:
            write(name, block)


if __name__ == "__main__":
    main()
