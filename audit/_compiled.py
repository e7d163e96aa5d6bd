"""Optional speed: the hot modules compiled with mypyc, and never a stale one.

``python -m audit._compiled ensure`` is the build step; ``dev.py`` runs it before any task.
It compiles ``MODULES`` in place when this machine can (a C compiler and Python's headers),
30-90 s, with mypyc's shared runtime inside the package (``audit/_native__mypyc.*.so``,
the group ``GROUP``), so the compiled modules import it as any other module and importing
``audit`` needs no help. The C is written one file per module (mypyc's ``multi_file``) and
compiled on every core: one 13 MB file took a single core 73 s, the 21 files take two cores
29 s, and the replay runs as fast (2026-12-07). mypyc puts a dotted group's headers under
the package's folder and does not tell the compiler, so the build names that folder. Where
the machine cannot, or the build fails, the pure-Python modules run, slower, with the same
results to the byte (the simulator's bytes and the solver's answers are tested equal).

The staleness check is part of the build, not of the import: a stamp records what was
compiled (the interpreter, the build's layout and the sources), and ``ensure`` removes a
build whose sources changed since (``drop_stale``) before it compiles again, so whatever
``dev.py`` runs never has an edited ``.py`` shadowed by an old build. Importing ``audit``
touches no file and prints nothing. Run directly (``.venv/bin/pytest``,
``.venv/bin/rummy-audit``) right after a hot module is edited, the old build would still be
imported until the next ``ensure``: ``tests/test_compiled.py`` fails then and says so.

Only a checkout is ever built or cleaned: an installed wheel holds no compiled module.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
MODULES = (
    "audit/rules/melds.py",
    "audit/rules/declaration.py",
    "audit/rules/tables.py",
    "audit/rules/ways.py",
    "audit/rules/solver.py",
    "audit/rules/scoring.py",
    "audit/replay/seats.py",
    "audit/replay/deal.py",
    "audit/replay/hand.py",
    "audit/replay/outcome.py",
    "audit/replay/facts.py",
    "audit/unit.py",
    "audit/games/pool.py",
    "audit/games/poolstate.py",
    "audit/games/deals.py",
    "audit/games/ledger.py",
    "audit/games/prize.py",
    "audit/shuffle/commitment.py",
    "audit/sim/players.py",
    "audit/sim/play.py",
)
GROUP = "audit._native"  # mypyc's runtime: the extension module audit._native__mypyc
STAMP = PACKAGE / ".compiled"

_SETUP = """\
import os
from concurrent.futures import ThreadPoolExecutor

from mypyc.build import mypycify
from setuptools import setup
from setuptools.command.build_ext import build_ext


class BuildOnEveryCore(build_ext):
    def build_extensions(self):
        one_at_a_time = self.compiler.compile

        def on_every_core(sources, *args, **kwargs):
            with ThreadPoolExecutor(os.cpu_count() or 1) as cores:
                done = cores.map(lambda c: one_at_a_time([c], *args, **kwargs), sources)
                return [obj for objects in done for obj in objects]

        self.compiler.compile = on_every_core
        super().build_extensions()


modules = mypycify(
    {modules!r}, opt_level="3", debug_level="1", group_name={group!r}, target_dir={c!r},
    multi_file=True,
)
for module in modules:
    module.include_dirs.append({headers!r})
setup(
    name="rummy-audit-compiled",
    ext_modules=modules,
    cmdclass={{"build_ext": BuildOnEveryCore}},
    script_args=["build_ext", "--inplace", "--build-temp", {temp!r}, "--build-lib", {lib!r}],
)
"""


def digest(root: Path = ROOT) -> str:
    """The interpreter, the build's layout and the sources the build is made from."""
    sha = hashlib.sha256(sys.version.encode())
    sha.update(GROUP.encode())
    sha.update(_SETUP.encode())
    for module in MODULES:
        sha.update((root / module).read_bytes())
    return sha.hexdigest()


def compiled_modules(root: Path = ROOT) -> list[Path]:
    """The compiled modules: an extension next to each source that has one."""
    return [
        path
        for module in MODULES
        for path in (root / module).parent.glob(f"{Path(module).stem}.*.so")
    ]


def runtime(root: Path = ROOT) -> list[Path]:
    """mypyc's shared runtime of the compiled modules, inside the package."""
    return sorted((root / "audit").glob(f"{GROUP.rsplit('.', 1)[1]}__mypyc.*.so"))


def built(root: Path = ROOT) -> list[Path]:
    """Every file of a build: the compiled modules, their runtime, and the runtime of the
    builds made before it moved into the package (``<hash>__mypyc.*.so`` at the root)."""
    return compiled_modules(root) + runtime(root) + sorted(root.glob("*__mypyc.*.so"))


def current(root: Path = ROOT, stamp: Path = STAMP) -> bool:
    """True when every module is compiled, with its runtime, from the sources as they are."""
    return (
        len(compiled_modules(root)) == len(MODULES)
        and bool(runtime(root))
        and stamp.is_file()
        and stamp.read_text().strip() == digest(root)
    )


def stale(root: Path = ROOT, stamp: Path = STAMP) -> bool:
    """True when a build is there that is not of the sources as they are now."""
    return bool(built(root)) and not current(root, stamp)


def drop_stale(root: Path = ROOT, stamp: Path = STAMP) -> bool:
    """Remove a build that is not of the sources as they are now; True if one was removed.
    The first step of ``ensure``."""
    if not stale(root, stamp):
        return False
    for path in built(root):
        path.unlink(missing_ok=True)
    stamp.unlink(missing_ok=True)
    print("+ removed the compiled modules: their sources changed since the build", flush=True)
    return True


def can_compile() -> bool:
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return include.is_file() and any(shutil.which(cc) for cc in ("cc", "gcc", "clang"))


def ensure(root: Path = ROOT, stamp: Path = STAMP) -> None:
    """The build step: drop a stale build, then compile the modules unless an up-to-date
    build is there; fall back quietly to pure Python. Only in a checkout."""
    if not (root / "pyproject.toml").is_file():
        return  # an installed package: nothing was compiled, nothing to check
    drop_stale(root, stamp)
    if current(root, stamp):
        return
    if not can_compile():
        print("+ no C compiler or Python headers: the pure-Python modules will run", flush=True)
        return
    # the sources as the build reads them: one edited while it runs leaves the build stale,
    # not stamped current (two helpers' edits ran against the module compiled before them)
    sources = digest(root)
    print(f"+ compiling {len(MODULES)} hot modules with mypyc (30-90 s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="rummy-audit-mypyc-") as work:
        script = Path(work) / "setup.py"
        script.write_text(
            _SETUP.format(
                modules=list(MODULES),
                group=GROUP,
                c=f"{work}/c",
                headers=f"{work}/c/{GROUP.rpartition('.')[0]}",
                temp=f"{work}/temp",
                lib=f"{work}/lib",
            )
        )
        done = subprocess.run(
            [sys.executable, str(script)], cwd=root, capture_output=True, text=True, check=False
        )
    if done.returncode != 0 or len(compiled_modules(root)) != len(MODULES) or not runtime(root):
        for path in built(root):
            path.unlink(missing_ok=True)
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        print("+ mypyc failed, the pure-Python modules will run:", *tail, sep="\n  ")
        return
    stamp.write_text(sources + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["ensure"]:
        sys.exit("usage: python -m audit._compiled ensure")
    ensure()
