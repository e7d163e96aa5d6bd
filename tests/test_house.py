"""The house rules of the code base itself: no module of `audit/` over 800 lines."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "audit"
MAX_LINES = 800


def test_no_module_over_800_lines() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert modules, f"no module found under {PACKAGE.name}/"
    over = {
        path.relative_to(PACKAGE.parent).as_posix(): lines
        for path in modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    listed = ", ".join(f"{path} ({lines} lines)" for path, lines in over.items())
    assert not over, f"modules over {MAX_LINES} lines: {listed}"
