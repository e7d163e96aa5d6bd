"""Golden files: compare rendered output with tests/explain/golden/, after scrubbing.

Run with ``UPDATE_GOLDEN=1`` to rewrite the golden files from the current output, then read
the diff before committing it. A mismatch saves the output under ``tests/actual/explain/``
(ignored by git) and fails with a unified diff.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
ACTUAL = Path(__file__).parents[1] / "actual" / "explain"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
PLAIN = {
    "COLUMNS": "100",
    "LINES": None,
    "FORCE_COLOR": None,
    "NO_COLOR": None,
    "TTY_COMPATIBLE": None,
    "TTY_INTERACTIVE": None,
}
"""The environment of a pipe 100 columns wide: rich prints plain text, the same everywhere."""


def scrub(text: str, *, volatile: dict[str, str]) -> str:
    """Replace each volatile string (a tmp dir, a version) with its stand-in and drop the
    spaces rich pads lines with, which no reader sees."""
    for value, stand_in in volatile.items():
        text = text.replace(value, stand_in)
    return re.sub(r"[ \t]+$", "", text, flags=re.MULTILINE)


def compare(
    actual: str, name: str, *, golden_dir: Path = GOLDEN, actual_dir: Path = ACTUAL
) -> None:
    """Fail unless ``actual`` is the golden file ``name``; rewrite it under UPDATE_GOLDEN=1."""
    __tracebackhide__ = True
    golden = golden_dir / name
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
        return
    if not golden.exists():
        pytest.fail(f"no golden file {golden}: run the tests with UPDATE_GOLDEN=1 to write it")
    expected = golden.read_text(encoding="utf-8")
    if actual == expected:
        return
    saved = actual_dir / name
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(actual, encoding="utf-8")
    diff = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), str(golden), str(saved), lineterm="", n=2
    )
    shown = "\n".join(list(diff)[:80])
    pytest.fail(
        f"{name} differs from its golden file (output saved to {saved}; if the change is "
        f"intended, rerun with UPDATE_GOLDEN=1):\n{shown}"
    )
