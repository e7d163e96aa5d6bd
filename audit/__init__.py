"""rummy-audit: deterministic replay and fair-play audit of Indian Rummy game logs."""

from audit._compiled import drop_stale, load_runtime

__version__ = "0.1.0"

if not drop_stale():  # an edited module is never shadowed by an old compiled build
    load_runtime()
