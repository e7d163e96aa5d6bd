"""pytest at the root: the doctests of a module compiled with mypyc are run from its source
by tests/test_compiled.py, not collected here (the compiled module shadows the file)."""

from audit._compiled import MODULES, ROOT, built

_compiled = {path.name.split(".")[0] for path in built(ROOT)}
collect_ignore = [module for module in MODULES if module.rsplit("/", 1)[1][:-3] in _compiled]
