"""The small night both report test modules read, replayed once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.report.nights import small_night


@pytest.fixture(scope="session")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small night's output folder; its log root is ``night.parent / "logs"``."""
    root = tmp_path_factory.mktemp("night")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return small_night(root)
