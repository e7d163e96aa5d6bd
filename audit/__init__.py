"""rummy-audit: deterministic replay and fair-play audit of Indian Rummy game logs.

Importing it has no side effects: the compiled modules' staleness is checked when they are
built (``audit._compiled.ensure``, run by ``dev.py``), never at import.
"""

__version__ = "0.1.0"
