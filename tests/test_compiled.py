"""The modules compiled with mypyc (audit/_compiled.py): their doctests still run, from
the source; the build step (``ensure``, run by dev.py before anything) removes a build
older than its sources; importing ``audit`` never does anything of the kind; and the build
in this checkout, if there is one, is of the sources as they are."""

from __future__ import annotations

import doctest
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from audit import _compiled

SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))  # .cpython-311-x86_64-linux-gnu.so


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


def fake_checkout(root: Path) -> list[Path]:
    """The hot modules' sources in ``root`` and a fake, complete build of them."""
    (root / "pyproject.toml").write_text("")
    fakes = []
    for module in _compiled.MODULES:
        (root / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(_compiled.ROOT / module, root / module)
        fakes.append((root / module).with_suffix(SUFFIX))
    fakes.append(root / "audit" / f"_native__mypyc{SUFFIX}")
    for fake in fakes:
        fake.write_bytes(b"")
    return fakes


def test_a_build_older_than_its_sources_is_removed_by_the_build_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fakes = fake_checkout(tmp_path)
    stamp = tmp_path / "stamp"
    stamp.write_text(_compiled.digest(tmp_path))
    monkeypatch.setattr(_compiled, "can_compile", lambda: pytest.fail("nothing to compile"))
    _compiled.ensure(tmp_path, stamp)  # up to date: kept as it is
    assert all(fake.exists() for fake in fakes)
    assert not _compiled.stale(tmp_path, stamp)

    (tmp_path / "audit" / "rules" / "solver.py").write_text("# edited\n")
    assert _compiled.stale(tmp_path, stamp)
    monkeypatch.setattr(_compiled, "can_compile", lambda: False)
    _compiled.ensure(tmp_path, stamp)
    assert not any(fake.exists() for fake in fakes)
    assert not stamp.exists()
    assert capsys.readouterr().out == (
        "+ removed the compiled modules: their sources changed since the build\n"
        "+ no C compiler or Python headers: the pure-Python modules will run\n"
    )
    assert not _compiled.stale(tmp_path, stamp)  # nothing left to drop
    assert not _compiled.drop_stale(tmp_path, stamp)


def test_the_build_step_removes_a_build_of_the_old_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the runtime moved into the package it was ``<hash>__mypyc`` at the root."""
    fakes = fake_checkout(tmp_path)
    fakes[-1].unlink()
    old_runtime = tmp_path / f"bb66000598ebb852db55__mypyc{SUFFIX}"
    old_runtime.write_bytes(b"")
    stamp = tmp_path / "stamp"
    stamp.write_text(_compiled.digest(tmp_path))
    monkeypatch.setattr(_compiled, "can_compile", lambda: False)
    _compiled.ensure(tmp_path, stamp)
    assert not old_runtime.exists()
    assert not any(fake.exists() for fake in fakes)


def test_the_build_step_leaves_an_installed_package_alone(tmp_path: Path) -> None:
    """No pyproject.toml beside the package: a wheel, never built nor cleaned."""
    fakes = fake_checkout(tmp_path)
    (tmp_path / "pyproject.toml").unlink()
    _compiled.ensure(tmp_path, tmp_path / "stamp")
    assert all(fake.exists() for fake in fakes)


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(root)): (path.lstat().st_size, path.lstat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
    }


def test_importing_audit_touches_no_file_and_prints_nothing(tmp_path: Path) -> None:
    """Even beside a stale build (which the import used to remove): a copy of the package
    with a stale runtime in it and an old one at its root, imported in a fresh process."""
    shutil.copytree(
        _compiled.PACKAGE,
        tmp_path / "audit",
        symlinks=True,
        ignore=shutil.ignore_patterns("__pycache__", "*.so", ".compiled"),
    )
    (tmp_path / "audit" / f"_native__mypyc{SUFFIX}").write_bytes(b"")
    (tmp_path / f"bb66000598ebb852db55__mypyc{SUFFIX}").write_bytes(b"")
    (tmp_path / "audit" / ".compiled").write_text("not the digest\n")
    before = snapshot(tmp_path)
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")},
        "PYTHONPATH": str(tmp_path),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", "import audit, audit.cli; print(audit.__file__, end='')"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == str(tmp_path / "audit" / "__init__.py")
    assert done.stderr == ""
    assert snapshot(tmp_path) == before


def test_the_build_in_this_checkout_is_of_its_sources() -> None:
    """Imported here, an old build would shadow an edited hot module: the tests run by
    ``python3 dev.py test`` never meet one, and a direct pytest run is told."""
    assert not _compiled.stale(), (
        "the compiled modules are older than their sources, so these tests ran the old"
        " build: run python3 dev.py test (or .venv/bin/python -m audit._compiled ensure)"
    )
