"""Game-level checks: what the platform recorded between and across hands (pool scores,
eliminations, rebuys and splits; deals chips; the ledger; table limits)."""
