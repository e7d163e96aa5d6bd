"""rummy-audit: deterministic replay and fair-play audit of Indian Rummy game logs."""

__version__ = "0.1.0"
