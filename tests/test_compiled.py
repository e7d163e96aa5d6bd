"""The modules compiled with mypyc (audit/_compiled.py): their doctests still run, from
the source, and a build older than its sources is removed at import."""

from __future__ import annotations

import doctest
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from audit import _compiled


@pytest.mark.parametrize("module", _compiled.MODULES)
def test_doctests_of_the_compiled_modules_pass_in_pure_python(module: str) -> None:
    """Loaded from the .py under another name, so a compiled build cannot hide them."""
    path = _compiled.ROOT / module
    name = "pure_" + module[:-3].replace("/", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded
    try:
        spec.loader.exec_module(loaded)
        result = doctest.testmod(loaded)
    finally:
        del sys.modules[name]
    assert result.failed == 0


def test_a_build_older_than_its_sources_is_removed(tmp_path: Path) -> None:
    for module in _compiled.MODULES:
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(_compiled.ROOT / module, tmp_path / module)
    fake = tmp_path / "audit" / "rules" / "solver.cpython-311-x86_64-linux-gnu.so"
    fake.write_bytes(b"")
    stamp = tmp_path / "stamp"
    stamp.write_text(_compiled.digest(tmp_path))
    assert not _compiled.drop_stale(tmp_path, stamp)
    assert fake.exists()
    (tmp_path / "audit" / "rules" / "solver.py").write_text("# edited\n")
    assert _compiled.drop_stale(tmp_path, stamp)
    assert not fake.exists()
    assert not _compiled.drop_stale(tmp_path, stamp)  # nothing left to drop
