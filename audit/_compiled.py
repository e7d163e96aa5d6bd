"""Optional speed: the hot modules compiled with mypyc, and never a stale one.

``python -m audit._compiled ensure`` (run by ``dev.py``) compiles ``MODULES`` in place when
this machine can (a C compiler and Python's headers), about 15 s; where it cannot, or the
build fails, the pure-Python modules run, slower, with the same results to the byte (the
simulator's bytes and the solver's answers are tested equal). A stamp records what was
compiled; at import, ``audit`` removes compiled modules whose sources have changed since
(``drop_stale``), so an edited ``.py`` is never shadowed by an old build.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
MODULES = (
    "audit/rules/melds.py",
    "audit/rules/declaration.py",
    "audit/rules/solver.py",
    "audit/sim/players.py",
    "audit/sim/play.py",
)
STAMP = PACKAGE / ".compiled"


def digest(root: Path = ROOT) -> str:
    """The interpreter and the sources the build is made from."""
    sha = hashlib.sha256(sys.version.encode())
    for module in MODULES:
        sha.update((root / module).read_bytes())
    return sha.hexdigest()


def built(root: Path = ROOT) -> list[Path]:
    """The compiled files: one per module, and mypyc's shared runtime at the root."""
    found = [
        path
        for module in MODULES
        for path in (root / module).parent.glob(f"{Path(module).stem}.*.so")
    ]
    return found + _runtimes(root)


def _runtimes(root: Path) -> list[Path]:
    """mypyc's shared runtime of the compiled modules, at the root of the checkout."""
    return sorted(root.glob("*__mypyc.*.so"))


def drop_stale(root: Path = ROOT, stamp: Path = STAMP) -> bool:
    """Remove the compiled files when their sources changed since the build; True if so."""
    files = built(root)
    if not files:
        return False
    if stamp.is_file() and stamp.read_text().strip() == digest(root):
        return False
    for path in files:
        path.unlink(missing_ok=True)
    print(
        "rummy-audit: compiled modules were older than their sources and were removed "
        "(python3 dev.py test or demo builds them again)",
        file=sys.stderr,
    )
    return True


def load_runtime(root: Path = ROOT) -> None:
    """Load mypyc's shared runtime (``<hash>__mypyc``, at the root of the checkout) by its
    path, so the compiled modules find it whatever ``sys.path`` holds (a console script's
    does not hold the checkout)."""
    for path in _runtimes(root):
        name = path.name.split(".")[0]
        if name in sys.modules:
            continue
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        if spec is None:
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loader.exec_module(module)


def can_compile() -> bool:
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return include.is_file() and any(shutil.which(cc) for cc in ("cc", "gcc", "clang"))


def ensure(root: Path = ROOT) -> None:
    """Compile the modules unless an up-to-date build is there; fall back quietly."""
    if built(root) and STAMP.is_file() and STAMP.read_text().strip() == digest(root):
        return
    for path in built(root):
        path.unlink()
    if not can_compile():
        print("+ no C compiler or Python headers: the pure-Python modules will run", flush=True)
        return
    mypyc = Path(sys.executable).parent / "mypyc"
    print(f"+ compiling {len(MODULES)} hot modules with mypyc (about 15 s)", flush=True)
    done = subprocess.run(
        [str(mypyc), *MODULES], cwd=root, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        for path in built(root):
            path.unlink()
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        print("+ mypyc failed, the pure-Python modules will run:", *tail, sep="\n  ")
        return
    shutil.rmtree(root / "build", ignore_errors=True)
    STAMP.write_text(digest(root) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["ensure"]:
        sys.exit("usage: python -m audit._compiled ensure")
    ensure()
