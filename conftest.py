"""pytest at the root: a compiled build older than its sources is removed before anything
is imported (so a direct `pytest` never tests a stale build: the pure-Python modules run
until `python3 dev.py` compiles them again); and the doctests of a module compiled with
mypyc are run from its source by tests/test_compiled.py, not collected here (the compiled
module shadows the file)."""

from audit._compiled import MODULES, ROOT, built, drop_stale

drop_stale(ROOT)
_compiled = {path.name.split(".")[0] for path in built(ROOT)}
collect_ignore = [module for module in MODULES if module.rsplit("/", 1)[1][:-3] in _compiled]
