"""Nightly runs with memory: only what is new, games that span two nights, the history."""
